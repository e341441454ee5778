//! `rgl-backend`: the driver interface and the software rasterizer. Not implemented yet; the crate holds only this description.
