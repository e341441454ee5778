//! The interpreter's sampler: small deterministic images sampled nearest on level 0.
//!
//! A [`Texture`] has a size, a mip level count and either given texels or a
//! procedural pattern (a hash of the sampler index and the texel coordinates), so every
//! run of the same shader sees the same image. Coordinates wrap (`GL_REPEAT`) for
//! normalised sampling and clamp for rectangle textures; array layers are rounded and
//! clamped; cube coordinates pick a face by the major axis. Shadow sampling compares
//! the reference with the red channel (`GL_LEQUAL`). Float textures hold values in
//! [0, 1]; integer textures hold small integers.

use crate::ir::{SamplerDim, Tex, TexOp, TexSrcKind};
use crate::opcodes::Base;

/// One texture bound to a sampler index.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0 (1 for 1D / buffer textures).
    pub height: u32,
    /// Depth of level 0 (3D), or the number of layers (array textures, cube faces
    /// × layers for cube arrays).
    pub depth: u32,
    /// Mip level count (`textureQueryLevels`, `txs` at other levels).
    pub levels: u32,
    /// Texels of level 0, `x + width * (y + height * z)` (cube faces use
    /// `z = face + 6 * layer`), as raw words; `None` = procedural.
    pub texels: Option<Vec<[u32; 4]>>,
    /// Seed of the procedural pattern.
    pub seed: u32,
}

impl Default for Texture {
    fn default() -> Self {
        Texture {
            width: 4,
            height: 4,
            depth: 4,
            levels: 3,
            texels: None,
            seed: 0,
        }
    }
}

fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

impl Texture {
    /// Raw texel at integer coordinates of level 0 (coordinates already in range),
    /// typed by `base` for procedural textures.
    fn texel(&self, x: u32, y: u32, z: u32, base: Base) -> [u32; 4] {
        if let Some(t) = &self.texels {
            let i = x as u64 + self.width as u64 * (y as u64 + self.height as u64 * z as u64);
            return usize::try_from(i)
                .ok()
                .and_then(|i| t.get(i))
                .copied()
                .unwrap_or([0; 4]);
        }
        let mut out = [0u32; 4];
        for (c, o) in out.iter_mut().enumerate() {
            let h = hash(
                self.seed
                    .wrapping_mul(0x9e37_79b9)
                    .wrapping_add(hash(x ^ (y << 8) ^ (z << 16)) ^ (c as u32) << 28),
            );
            *o = match base {
                Base::Float | Base::Bool => ((h % 256) as f32 / 255.0).to_bits(),
                Base::Int => ((h % 200) as i32 - 100) as u32,
                Base::Uint => h % 200,
            };
        }
        out
    }
}

/// Sources of a tex instruction as evaluated values.
pub struct TexArgs<'a> {
    /// (kind, value components) per source, derefs excluded.
    pub srcs: Vec<(TexSrcKind, &'a [u64])>,
}

impl TexArgs<'_> {
    fn get(&self, kind: TexSrcKind) -> Option<&[u64]> {
        self.srcs.iter().find(|(k, _)| *k == kind).map(|(_, v)| *v)
    }
    fn f(&self, kind: TexSrcKind, c: usize) -> Option<f32> {
        self.get(kind)
            .and_then(|v| v.get(c))
            .map(|b| f32::from_bits(*b as u32))
    }
    fn i(&self, kind: TexSrcKind, c: usize) -> Option<i32> {
        self.get(kind)
            .and_then(|v| v.get(c))
            .map(|b| *b as u32 as i32)
    }
}

fn coord_count(dim: SamplerDim) -> usize {
    match dim {
        SamplerDim::D1 | SamplerDim::Buf => 1,
        SamplerDim::D3 | SamplerDim::Cube => 3,
        _ => 2,
    }
}

fn wrap(v: i64, size: u32) -> u32 {
    let s = i64::from(size.max(1));
    v.rem_euclid(s) as u32
}

fn clamp_to(v: i64, size: u32) -> u32 {
    v.clamp(0, i64::from(size.max(1)) - 1) as u32
}

/// `floor(v * size - shift)`: `shift` is ½ for the footprint of a gather (GL
/// §8.14.2: `i0 = floor(u - ½)`).
fn texel_coord_shifted(v: f32, size: u32, shift: f64) -> i64 {
    let x = (f64::from(v) * f64::from(size) - shift).floor();
    if x.is_nan() {
        0
    } else {
        x.clamp(-1e12, 1e12) as i64
    }
}

/// Cube face and face coordinates in [0, 1] for a direction.
fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    if ma == 0.0 || ma.is_nan() {
        return (face, 0.5, 0.5);
    }
    (face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
}

/// Integer texel coordinates (x, y, z) on level 0 for a normalised/rect coordinate
/// set, with `off` added (texel offsets, tg4 neighbours). A gather (`tg4`)
/// locates the `(i0, j0)` corner of the LINEAR footprint instead of the
/// nearest texel.
fn locate(tex: &Tex, t: &Texture, args: &TexArgs, off: (i64, i64)) -> (u32, u32, u32) {
    let shift = if tex.op == TexOp::Tg4 { 0.5 } else { 0.0 };
    let texel_coord = |v: f32, size: u32| texel_coord_shifted(v, size, shift);
    let n = coord_count(tex.dim);
    let mut c = [0f32; 4];
    for (i, v) in c.iter_mut().enumerate().take(n + usize::from(tex.is_array)) {
        *v = args.f(TexSrcKind::Coord, i).unwrap_or(0.0);
    }
    if let Some(q) = args.f(TexSrcKind::Projector, 0) {
        if q != 0.0 {
            for v in c.iter_mut().take(n) {
                *v /= q;
            }
        }
    }
    let ox = i64::from(args.i(TexSrcKind::Offset, 0).unwrap_or(0)) + off.0;
    let oy = i64::from(args.i(TexSrcKind::Offset, 1).unwrap_or(0)) + off.1;
    let oz = i64::from(args.i(TexSrcKind::Offset, 2).unwrap_or(0));
    let layer = |v: f32, count: u32| -> u32 {
        let r = f64::from(v).round_ties_even();
        if r.is_nan() {
            0
        } else {
            clamp_to(r.clamp(-1e12, 1e12) as i64, count)
        }
    };
    match tex.dim {
        SamplerDim::Cube => {
            let (face, s, tt) = cube_face(c[0], c[1], c[2]);
            let x = clamp_to(texel_coord(s, t.width) + ox, t.width);
            let y = clamp_to(texel_coord(tt, t.height) + oy, t.height);
            let l = if tex.is_array {
                layer(c[3], (t.depth / 6).max(1))
            } else {
                0
            };
            (x, y, (face + 6 * l) % t.depth.max(1))
        }
        SamplerDim::Rect => {
            let x = clamp_to(
                (f64::from(c[0]) - shift).floor().clamp(-1e12, 1e12) as i64 + ox,
                t.width,
            );
            let y = clamp_to(
                (f64::from(c[1]) - shift).floor().clamp(-1e12, 1e12) as i64 + oy,
                t.height,
            );
            (x, y, 0)
        }
        SamplerDim::D1 | SamplerDim::Buf => {
            let x = wrap(texel_coord(c[0], t.width) + ox, t.width);
            let z = if tex.is_array {
                layer(c[1], t.depth)
            } else {
                0
            };
            (x, 0, z)
        }
        SamplerDim::D3 => (
            wrap(texel_coord(c[0], t.width) + ox, t.width),
            wrap(texel_coord(c[1], t.height) + oy, t.height),
            wrap(texel_coord(c[2], t.depth) + oz, t.depth),
        ),
        _ => {
            let x = wrap(texel_coord(c[0], t.width) + ox, t.width);
            let y = wrap(texel_coord(c[1], t.height) + oy, t.height);
            let z = if tex.is_array {
                layer(c[2], t.depth)
            } else {
                0
            };
            (x, y, z)
        }
    }
}

fn shadow_ref(tex: &Tex, args: &TexArgs) -> f32 {
    let mut r = args.f(TexSrcKind::Comparator, 0).unwrap_or(0.0);
    if let Some(q) = args.f(TexSrcKind::Projector, 0) {
        if q != 0.0 {
            r /= q;
        }
    }
    let _ = tex;
    r.clamp(0.0, 1.0)
}

fn compare(r: f32, texel: u32) -> u32 {
    let d = f32::from_bits(texel).clamp(0.0, 1.0);
    if r <= d {
        1.0f32.to_bits()
    } else {
        0.0f32.to_bits()
    }
}

/// Evaluates a texture instruction on texture `t`; returns 4 result words (callers
/// take as many as the destination has).
pub fn sample(tex: &Tex, t: &Texture, args: &TexArgs) -> [u32; 4] {
    let base = tex.dest_type.base;
    let level_size = |lod: i64| -> [u32; 3] {
        let l = lod.clamp(0, 31) as u32;
        let sh = |v: u32| (v >> l).max(1);
        [sh(t.width), sh(t.height), sh(t.depth)]
    };
    match tex.op {
        TexOp::Txs => {
            let lod = i64::from(args.i(TexSrcKind::Lod, 0).unwrap_or(0));
            if lod < 0 || lod >= i64::from(t.levels) {
                return [0; 4];
            }
            let [w, h, d] = level_size(lod);
            let v: [u32; 4] = match (tex.dim, tex.is_array) {
                (SamplerDim::D1 | SamplerDim::Buf, false) => [w, 0, 0, 0],
                (SamplerDim::D1, true) => [w, t.depth, 0, 0],
                (SamplerDim::D3, _) => [w, h, d, 0],
                (SamplerDim::Cube, true) => [w, h, (t.depth / 6).max(1), 0],
                (_, true) => [w, h, t.depth, 0],
                (_, false) => [w, h, 0, 0],
            };
            v
        }
        TexOp::QueryLevels => [t.levels, 0, 0, 0],
        TexOp::TextureSamples => [1, 0, 0, 0],
        TexOp::Lod => [0, 0, 0, 0],
        TexOp::Txf | TexOp::TxfMs => {
            let lod = i64::from(args.i(TexSrcKind::Lod, 0).unwrap_or(0));
            if lod < 0 || lod >= i64::from(t.levels) {
                return [0; 4];
            }
            let [w, h, d] = level_size(lod);
            let n = coord_count(tex.dim);
            let mut c = [0i64; 3];
            for (i, v) in c.iter_mut().enumerate().take(n + usize::from(tex.is_array)) {
                *v = i64::from(args.i(TexSrcKind::Coord, i).unwrap_or(0));
            }
            for (i, v) in c.iter_mut().enumerate().take(3) {
                *v += i64::from(args.i(TexSrcKind::Offset, i).unwrap_or(0));
            }
            let limits = match (tex.dim, tex.is_array) {
                (SamplerDim::D1 | SamplerDim::Buf, false) => [w, 1, 1],
                (SamplerDim::D1, true) => [w, t.depth, 1],
                (SamplerDim::D3, _) => [w, h, d],
                (_, true) => [w, h, t.depth],
                _ => [w, h, 1],
            };
            if c.iter()
                .zip(limits)
                .any(|(v, l)| *v < 0 || *v >= i64::from(l))
            {
                return [0; 4];
            }
            // Level > 0 reads the level-0 texel at the scaled position.
            let s = lod as u32;
            let (x, y, z) = match (tex.dim, tex.is_array) {
                (SamplerDim::D1 | SamplerDim::Buf, _) => ((c[0] as u32) << s, 0, c[1] as u32),
                (SamplerDim::D3, _) => ((c[0] as u32) << s, (c[1] as u32) << s, (c[2] as u32) << s),
                _ => ((c[0] as u32) << s, (c[1] as u32) << s, c[2] as u32),
            };
            t.texel(
                x.min(t.width.saturating_sub(1)),
                y.min(t.height.saturating_sub(1)),
                z.min(t.depth.saturating_sub(1)),
                base,
            )
        }
        TexOp::Tg4 => {
            // GL §8.14.2 / GLSL 4.00 §8.9.4: the LINEAR footprint at level 0,
            // component `comp` of each texel (shadow: the comparisons), in
            // the order (i0, j1), (i1, j1), (i1, j0), (i0, j0).
            let comp = usize::from(tex.component.min(3));
            let mut out = [0u32; 4];
            let offs = [(0, 1), (1, 1), (1, 0), (0, 0)];
            for (k, off) in offs.iter().enumerate() {
                let (x, y, z) = locate(tex, t, args, *off);
                let texel = t.texel(x, y, z, base);
                out[k] = if tex.is_shadow {
                    compare(shadow_ref(tex, args), texel[0])
                } else {
                    texel[comp]
                };
            }
            out
        }
        TexOp::Tex | TexOp::Txb | TexOp::Txl | TexOp::Txd => {
            let (x, y, z) = locate(tex, t, args, (0, 0));
            let texel = t.texel(x, y, z, base);
            if tex.is_shadow {
                let r = compare(shadow_ref(tex, args), texel[0]);
                [r, r, r, 1.0f32.to_bits()]
            } else {
                texel
            }
        }
    }
}
