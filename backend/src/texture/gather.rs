//! Texture gather (`tg4`, GLSL 4.00 §8.9.4; GL 4.6 §8.14.2 "Coordinate
//! Wrapping and Texel Selection"): the four texels of the 2×2 footprint a
//! `LINEAR` filter would read at the view's base level, whatever the sampler's
//! filters and mip state, returning one component of each in the order
//! `(i0, j1)`, `(i1, j1)`, `(i1, j0)`, `(i0, j0)` as `x`, `y`, `z`, `w`.
//!
//! * the footprint is `i0 = ⌊u − ½⌋`, `j0 = ⌊v − ½⌋`, `i1 = i0 + 1`,
//!   `j1 = j0 + 1` from the texel-space position `(u, v)` plus the texel offset
//!   (constant or per lane), each index wrapped by the sampler's wrap mode
//!   (table 8.20; `CLAMP_TO_BORDER` and `CLAMP` outside the level read the
//!   border colour); cube maps select a face (table 8.19) and clamp to its
//!   edges, array textures round and clamp the layer;
//! * the texture swizzle applies to each texel before the component is picked
//!   (§8.14.2: the gathered component is that of the swizzled texel);
//! * a comparing sampler (shadow gather) returns the four comparison results
//!   (§8.22.1) of the texels' depths (the reference clamped to [0, 1] for depth
//!   formats), not swizzled.

use super::quad::{cube_face, wrap_index};
use super::sample::{swizzle, texel};
use super::TextureBinding;
use crate::driver::{TexTarget, Wrap};
use crate::exec::{Reg, LANES};

/// A gather for every lane.
#[derive(Clone, Copy, Debug)]
pub struct GatherRequest<'a> {
    /// Coordinates (float): `s`, `t`, then the layer (2D arrays) or `r` (cube).
    pub coords: &'a [Reg],
    /// The gathered component (0..3; ignored by shadow gathers).
    pub component: u8,
    /// Constant texel offset.
    pub offset: [i32; 2],
    /// Per-lane texel offsets (as i32 bits), added to `offset`.
    pub offset_lanes: Option<[&'a Reg; 2]>,
    /// Shadow reference value (used when the sampler compares).
    pub compare: Option<&'a Reg>,
}

/// The footprint's corners in result order: (Δi, Δj) from `(i0, j0)`.
const CORNERS: [(i64, i64); 4] = [(0, 1), (1, 1), (1, 0), (0, 0)];

/// Gathers for every lane (inactive lanes compute too). Targets without a
/// gather (1D, 3D) and an empty view give zeros.
pub fn gather(b: &TextureBinding<'_>, req: &GatherRequest<'_>) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    let view = &b.view;
    let Some(lv) = view.levels.first() else {
        return out;
    };
    let target = view.target;
    if !matches!(
        target,
        TexTarget::D2 | TexTarget::Rect | TexTarget::D2Array | TexTarget::Cube
    ) {
        return out;
    }
    let s = &b.sampler;
    let wraps = if target == TexTarget::Cube {
        [Wrap::ClampToEdge; 2]
    } else {
        [s.wrap[0], s.wrap[1]]
    };
    let (w, h) = (lv.width as f32, lv.height as f32);
    let size = [i64::from(lv.width), i64::from(lv.height)];
    let coord = |a: usize, l: usize| req.coords.get(a).map_or(0.0, |r| r.f(l));
    let comp = usize::from(req.component.min(3));
    let depth_format = view.format.depth_max().is_some();
    for l in 0..LANES {
        let (u, v, layer) = match target {
            TexTarget::Cube => {
                let (face, s, t) = cube_face(coord(0, l), coord(1, l), coord(2, l));
                (s * w, t * h, i64::from(face))
            }
            TexTarget::Rect => (coord(0, l), coord(1, l), 0),
            _ => {
                let layer = if target == TexTarget::D2Array {
                    let r = super::floor_f32(coord(2, l) + 0.5);
                    if r.is_nan() {
                        0
                    } else {
                        r.clamp(0.0, lv.depth.saturating_sub(1) as f32) as i64
                    }
                } else {
                    0
                };
                (coord(0, l) * w, coord(1, l) * h, layer)
            }
        };
        // GL_CLAMP clamps the texel-space coordinate to [0, size] first (as the
        // filter does; `prep` in `quad`).
        let clamp = |x: f32, n: f32, wrap: Wrap| {
            if wrap == Wrap::Clamp {
                x.clamp(0.0, n)
            } else {
                x
            }
        };
        let (u, v) = (clamp(u, w, wraps[0]), clamp(v, h, wraps[1]));
        let mut off = [i64::from(req.offset[0]), i64::from(req.offset[1])];
        if let Some(regs) = req.offset_lanes {
            for a in 0..2 {
                off[a] += i64::from(regs[a].0[l] as i32);
            }
        }
        let base = |p: f32| -> i64 {
            let f = super::floor_f32(p - 0.5);
            if f.is_nan() {
                0
            } else {
                f.clamp(-1e9, 1e9) as i64
            }
        };
        let i0 = base(u) + off[0];
        let j0 = base(v) + off[1];
        let reference = req.compare.map(|r| {
            let x = r.f(l);
            if depth_format {
                x.clamp(0.0, 1.0)
            } else {
                x
            }
        });
        for (k, (di, dj)) in CORNERS.iter().enumerate() {
            let x = wrap_index(i0 + di, size[0], wraps[0]);
            let y = wrap_index(j0 + dj, size[1], wraps[1]);
            let t = texel(lv, view.format, x, y, Some(layer), s.border);
            let value = match (s.compare, reference) {
                (Some(f), Some(r)) => {
                    if f.test(r, t[0]) {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => swizzle(t, view.swizzle)[comp],
            };
            out[k].set_f(l, value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{SamplerState, Swizzle};
    use crate::format::Format;
    use crate::texture::{MipLevel, TexView};

    /// A 4×4 RGBA32F texture whose texel (x, y) holds (x, y, 10x + y, 1).
    fn texels() -> Vec<u8> {
        let mut data = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                for v in [x as f32, y as f32, (10 * x + y) as f32, 1.0] {
                    data.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        data
    }

    fn run(wrap: Wrap, uv: (f32, f32), comp: u8, offset: [i32; 2]) -> [f32; 4] {
        let data = texels();
        let view = TexView {
            target: TexTarget::D2,
            format: Format::Rgba32Float,
            levels: vec![MipLevel {
                data: &data,
                width: 4,
                height: 4,
                depth: 1,
            }],
            swizzle: Swizzle::IDENTITY,
        };
        let sampler = SamplerState {
            wrap: [wrap; 3],
            border: [-1.0, -2.0, -3.0, -4.0],
            ..SamplerState::default()
        };
        let b = TextureBinding::new(view, sampler);
        let coords = [Reg::splat_f(uv.0), Reg::splat_f(uv.1)];
        let r = gather(
            &b,
            &GatherRequest {
                coords: &coords,
                component: comp,
                offset,
                offset_lanes: None,
                compare: None,
            },
        );
        r.map(|c| c.f(0))
    }

    #[test]
    fn footprint_order_components_wraps_and_offsets() {
        // u·4 = 1.6, v·4 = 2.4: i0 = 1, j0 = 1; (i0,j1) (i1,j1) (i1,j0) (i0,j0).
        let (u, v) = (0.4, 0.6);
        assert_eq!(
            run(Wrap::Repeat, (u, v), 2, [0, 0]),
            [12.0, 22.0, 21.0, 11.0]
        );
        assert_eq!(run(Wrap::Repeat, (u, v), 0, [0, 0]), [1.0, 2.0, 2.0, 1.0]);
        assert_eq!(run(Wrap::Repeat, (u, v), 1, [0, 0]), [2.0, 2.0, 1.0, 1.0]);
        assert_eq!(run(Wrap::Repeat, (u, v), 3, [0, 0]), [1.0; 4]);
        // Offset (2, -2): i0 = 3, j0 = -1 → wrapped i1 = 0, j0 = 3.
        assert_eq!(
            run(Wrap::Repeat, (u, v), 2, [2, -2]),
            [30.0, 0.0, 3.0, 33.0]
        );
        assert_eq!(
            run(Wrap::ClampToEdge, (u, v), 2, [2, -2]),
            [30.0, 30.0, 30.0, 30.0]
        );
        assert_eq!(
            run(Wrap::ClampToBorder, (u, v), 2, [2, -2]),
            [30.0, -3.0, -3.0, -3.0]
        );
        // Near the origin: i0 = j0 = -1.
        assert_eq!(
            run(Wrap::MirroredRepeat, (0.05, 0.05), 2, [0, 0]),
            [0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            run(Wrap::Repeat, (0.05, 0.05), 2, [0, 0]),
            [30.0, 0.0, 3.0, 33.0]
        );
    }
}
