//! `rgl-nir`: the SSA IR modelled on Mesa NIR, its passes and the optimisation loop. Not implemented yet; the crate holds only this description.
