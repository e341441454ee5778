//! `rgl-examples`: example applications. None exist yet; the crate holds only this description.
