//! Support of `translation_validation.rs`: the corpus reader ([`corpus`]) and the
//! chain evaluation with its comparison rules ([`chain`]).

pub mod chain;
pub mod corpus;
