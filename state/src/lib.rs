//! `rgl-state`: the GL context (objects, state, draw-time shader variants). Not implemented yet; the crate holds only this description.
