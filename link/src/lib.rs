//! `rgl-link`: the program linker (cross-stage validation, location assignment, dead-variable removal). Its stage of the pipeline is not implemented yet; the crate holds only this description.
