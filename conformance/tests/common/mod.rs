//! Helpers shared by the differential tests (`jit_diff`, `lanes_eval`).

pub mod corpus;
pub mod precision;
