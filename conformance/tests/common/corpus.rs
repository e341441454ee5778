//! The corpus-program model the differential tests share (`jit_diff`,
//! `lanes_eval`): a deterministic random source, what a finalized stage loads,
//! stores and samples ([`scan`]), nearest-filtered RGBA32F textures that the
//! reference interpreter (`rgl_nir::eval`) models exactly, and the corpus walk.
//!
//! Each test crate uses a different subset, so unused items are allowed here.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rgl_backend::driver::{Filter, MipFilter, SamplerState, TexTarget, Wrap};
use rgl_backend::exec::SysVals;
use rgl_backend::format::Format;
use rgl_backend::texture::{TexView, TextureBinding};
use rgl_nir::eval::{EvalInput, InputKey, Texture};
use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::names::{
    self, alu_type_from_code, VARYING_SLOT_FACE, VARYING_SLOT_PNTC, VARYING_SLOT_POS,
    VARYING_SLOT_PRIMITIVE_ID,
};

use super::precision;
use rgl_nir::ir::{
    CfParent, FunctionImpl, InstrKind, Intrinsic, SamplerDim, Shader, TexOp, TexSrcKind,
};
use rgl_nir::opcodes::Base;

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    pub fn float(&mut self) -> u32 {
        let v = (self.next() % 4001) as f32 / 1000.0 - 2.0;
        v.to_bits()
    }
    pub fn int(&mut self) -> u32 {
        (self.next() % 12) as i32 as u32
    }
    pub fn word(&mut self, base: Option<Base>) -> u32 {
        match base {
            Some(Base::Float) => self.float(),
            Some(Base::Int | Base::Uint) => self.int(),
            Some(Base::Bool) => [0, 1, u32::MAX][(self.next() % 3) as usize],
            None => {
                if self.next().is_multiple_of(2) {
                    self.float()
                } else {
                    self.int()
                }
            }
        }
    }
}

pub fn index(intr: &Intrinsic, kind: IndexKind) -> u32 {
    intr.op
        .info()
        .index_slot(kind)
        .and_then(|i| intr.indices.get(i))
        .copied()
        .unwrap_or(0)
}

pub fn entry(s: &Shader) -> Option<&FunctionImpl> {
    s.functions
        .iter()
        .find(|(_, f)| f.is_entrypoint)
        .and_then(|(_, f)| f.body.as_ref())
}

/// What the test needs to know about a stage's loads, stores and textures.
#[derive(Default)]
pub struct Scan {
    /// VS: driver location → io location.
    pub vs_loc: BTreeMap<i32, i32>,
    pub input_ty: BTreeMap<i32, Base>,
    pub uniform_ty: BTreeMap<u32, Base>,
    pub output_ty: BTreeMap<i32, Base>,
    pub uniform_slots: u32,
    pub ubo_blocks: u32,
    pub has_tex: bool,
    pub has_derivs: bool,
    /// Derivatives or implicit LODs inside an `if` or a loop.
    pub nested_derivs: bool,
    /// The stage discards (derivatives after a discard read discarded lanes).
    pub discards: bool,
    /// Why `nir::eval` cannot model the stage's texture instructions, if it cannot.
    pub eval_tex_skip: Option<&'static str>,
    /// Texture index → (dim, array, shadow, result base type).
    pub textures: BTreeMap<u32, (SamplerDim, bool, bool, Base)>,
    /// Output components depending on an inexact op (`common::precision`).
    pub inexact: BTreeSet<(i32, u8)>,
    /// Output components depending on a `pow`.
    pub pow: BTreeSet<(i32, u8)>,
}

pub fn scan(s: &Shader, f: &FunctionImpl) -> Scan {
    let mut out = Scan {
        uniform_slots: s.info.num_uniforms,
        inexact: precision::inexact_outputs(f),
        pow: precision::pow_outputs(f),
        ..Scan::default()
    };
    let ty = |code: u32| alu_type_from_code(code).map(|t| t.base);
    for b in f.blocks_in_order() {
        let nested = f.blocks[b]
            .cf
            .is_some_and(|n| f.cf[n].parent != CfParent::Root);
        for i in f.block_instrs(b) {
            match &f.instrs[i].kind {
                InstrKind::Tex(t) => {
                    out.has_tex = true;
                    if matches!(t.op, TexOp::Tex | TexOp::Txb) && nested {
                        out.nested_derivs = true;
                    }
                    let why = if t.is_array || t.dim == SamplerDim::Cube {
                        Some("texture: array or cube")
                    } else if t.is_shadow {
                        Some("texture: shadow")
                    } else if !matches!(
                        t.dim,
                        SamplerDim::D1 | SamplerDim::D2 | SamplerDim::D3 | SamplerDim::Rect
                    ) {
                        Some("texture: dimension")
                    } else if t.srcs.iter().any(|(k, _)| {
                        matches!(k, TexSrcKind::Projector | TexSrcKind::TextureOffset)
                    }) {
                        Some("texture: projector or dynamic index")
                    } else if !matches!(
                        t.op,
                        TexOp::Tex
                            | TexOp::Txb
                            | TexOp::Txl
                            | TexOp::Txd
                            | TexOp::Txf
                            | TexOp::Txs
                            | TexOp::QueryLevels
                    ) {
                        Some("texture: op")
                    } else {
                        None
                    };
                    out.eval_tex_skip = out.eval_tex_skip.or(why);
                    let key = (t.dim, t.is_array, t.is_shadow, t.dest_type.base);
                    match out.textures.get(&t.texture_index) {
                        Some(k) if (k.0, k.1, k.2) != (key.0, key.1, key.2) => {
                            out.eval_tex_skip =
                                out.eval_tex_skip.or(Some("texture: one unit, two kinds"))
                        }
                        _ => {
                            out.textures.insert(t.texture_index, key);
                        }
                    }
                }
                InstrKind::Intrinsic(intr) => {
                    if matches!(
                        intr.op,
                        IntrinsicOp::discard
                            | IntrinsicOp::discard_if
                            | IntrinsicOp::terminate
                            | IntrinsicOp::terminate_if
                            | IntrinsicOp::demote
                            | IntrinsicOp::demote_if
                    ) {
                        out.discards = true;
                    }
                    let loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
                    let slots = (index(intr, IndexKind::IoSemantics) >> 16).max(1) as i32;
                    use IntrinsicOp as I;
                    match intr.op {
                        I::load_input | I::load_interpolated_input | I::load_per_vertex_input => {
                            let base = index(intr, IndexKind::Base) as i32;
                            for k in 0..slots {
                                out.vs_loc.insert(base + k, loc + k);
                                if let Some(t) = ty(index(intr, IndexKind::DestType)) {
                                    out.input_ty.insert(loc + k, t);
                                }
                            }
                        }
                        I::store_output => {
                            for k in 0..slots {
                                if let Some(t) = ty(index(intr, IndexKind::SrcType)) {
                                    out.output_ty.insert(loc + k, t);
                                }
                            }
                        }
                        I::load_uniform => {
                            let base = index(intr, IndexKind::Base);
                            let range = index(intr, IndexKind::Range).max(1);
                            out.uniform_slots = out.uniform_slots.max(base + range);
                            if let Some(t) = ty(index(intr, IndexKind::DestType)) {
                                for k in 0..range {
                                    out.uniform_ty.entry(base + k).or_insert(t);
                                }
                            }
                        }
                        I::load_ubo => {
                            let blk = intr.srcs.first().and_then(|d| f.const_value(*d));
                            let n = blk.and_then(|v| v.first()).map_or(4, |v| *v as u32 + 1);
                            out.ubo_blocks = out.ubo_blocks.max(n.min(16));
                        }
                        I::ddx
                        | I::ddy
                        | I::ddx_fine
                        | I::ddy_fine
                        | I::ddx_coarse
                        | I::ddy_coarse => {
                            out.has_derivs = true;
                            out.nested_derivs |= nested;
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    out
}

pub fn sysval(name: &str) -> i32 {
    names::SYSTEM_VALUES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .unwrap()
}

/// A texture of the nearest configuration: the interpreter's texels (level 0) and
/// the driver's RGBA32F levels, where level `l` holds the level-0 texel at
/// `(x << l, y << l)` (what the reference interpreter's `txf` at level `l` reads).
pub struct NearestTexture {
    pub eval: Texture,
    pub target: TexTarget,
    pub levels: Vec<(u32, u32, u32, Vec<u8>)>,
}

pub fn nearest_textures(sc: &Scan, rng: &mut Rng) -> Vec<NearestTexture> {
    let n = sc
        .textures
        .keys()
        .next_back()
        .map_or(0, |k| *k as usize + 1)
        .min(32);
    (0..n as u32)
        .map(|i| {
            let (dim, _, _, base) =
                sc.textures
                    .get(&i)
                    .copied()
                    .unwrap_or((SamplerDim::D2, false, false, Base::Float));
            let (w, h, d) = match dim {
                SamplerDim::D1 => (4u32, 1u32, 1u32),
                SamplerDim::D3 => (4, 4, 4),
                _ => (4, 4, 1),
            };
            let nlevels = if dim == SamplerDim::Rect { 1 } else { 3 };
            let texels: Vec<[u32; 4]> = (0..w * h * d)
                .map(|_| {
                    [0; 4].map(|_| {
                        match base {
                            Base::Int | Base::Uint => (rng.next() % 200) as i32 as f32,
                            _ => (rng.next() % 256) as f32 / 255.0,
                        }
                        .to_bits()
                    })
                })
                .collect();
            let mut levels = Vec::new();
            for l in 0..nlevels {
                let (lw, lh) = ((w >> l).max(1), (h >> l).max(1));
                let ld = if dim == SamplerDim::D3 {
                    (d >> l).max(1)
                } else {
                    1
                };
                let mut data = Vec::new();
                for z in 0..ld {
                    for y in 0..lh {
                        for x in 0..lw {
                            let sx = (x << l).min(w - 1);
                            let sy = (y << l).min(h - 1);
                            let sz = if dim == SamplerDim::D3 {
                                (z << l).min(d - 1)
                            } else {
                                z
                            };
                            let t = texels[(sx + w * (sy + h * sz)) as usize];
                            for w in t {
                                data.extend_from_slice(&w.to_le_bytes());
                            }
                        }
                    }
                }
                levels.push((lw, lh, ld, data));
            }
            let target = match dim {
                SamplerDim::D1 => TexTarget::D1,
                SamplerDim::D3 => TexTarget::D3,
                SamplerDim::Rect => TexTarget::Rect,
                _ => TexTarget::D2,
            };
            let eval_texels = match base {
                Base::Int | Base::Uint => texels
                    .iter()
                    .map(|t| t.map(|w| f32::from_bits(w) as i32 as u32))
                    .collect(),
                _ => texels.clone(),
            };
            NearestTexture {
                eval: Texture {
                    width: w,
                    height: h,
                    depth: d,
                    levels: nlevels,
                    texels: Some(eval_texels),
                    seed: 0,
                },
                target,
                levels,
            }
        })
        .collect()
}

pub fn bind_nearest(texs: &[NearestTexture]) -> Vec<Option<TextureBinding<'_>>> {
    texs.iter()
        .map(|t| {
            let wrap = if t.target == TexTarget::Rect {
                Wrap::ClampToEdge
            } else {
                Wrap::Repeat
            };
            Some(TextureBinding::new(
                TexView::new(t.target, Format::Rgba32Float, &t.levels),
                SamplerState {
                    wrap: [wrap; 3],
                    mag: Filter::Nearest,
                    min: Filter::Nearest,
                    mip: MipFilter::None,
                    ..SamplerState::default()
                },
            ))
        })
        .collect()
}

pub fn files(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "shader_test") {
            out.push(p);
        }
    }
}

/// Lane `l`'s system values for `nir::eval`: the fragment stage's built-in
/// varyings (`gl_FragCoord`, `gl_PointCoord`, `gl_FrontFacing`,
/// `gl_PrimitiveID` at their `VARYING_SLOT_*` locations) and every stage's
/// `SYSTEM_VALUE_*` words, from the same [`SysVals`] the drivers get. One
/// sample at the pixel centre (GL 4.6 §14.3.1).
pub fn put_system_values(ein: &mut EvalInput, fragment: bool, sys: &SysVals, l: usize) {
    if fragment {
        let mut put = |location: i32, component: u8, v: u32| {
            let key = InputKey {
                vertex: 0,
                location,
                component,
            };
            ein.inputs.insert(key, v);
        };
        for c in 0..4u8 {
            put(VARYING_SLOT_POS, c, sys.frag_coord[c as usize].0[l]);
        }
        for c in 0..2u8 {
            put(VARYING_SLOT_PNTC, c, sys.point_coord[c as usize].0[l]);
        }
        put(VARYING_SLOT_FACE, 0, (sys.front_face.0[l] != 0) as u32);
        put(VARYING_SLOT_PRIMITIVE_ID, 0, sys.primitive_id.0[l]);
    }
    let mut sv = |name: &str, v: [u32; 4]| {
        ein.system_values.insert(sysval(name), v);
    };
    let fc = [0, 1, 2, 3].map(|c| sys.frag_coord[c].0[l]);
    sv("SYSTEM_VALUE_FRAG_COORD", fc);
    let pc = [sys.point_coord[0].0[l], sys.point_coord[1].0[l], 0, 0];
    sv("SYSTEM_VALUE_POINT_COORD", pc);
    sv(
        "SYSTEM_VALUE_FRONT_FACE",
        [(sys.front_face.0[l] != 0) as u32, 0, 0, 0],
    );
    sv("SYSTEM_VALUE_VERTEX_ID", [sys.vertex_id.0[l], 0, 0, 0]);
    sv("SYSTEM_VALUE_INSTANCE_ID", [sys.instance_id.0[l], 0, 0, 0]);
    sv(
        "SYSTEM_VALUE_PRIMITIVE_ID",
        [sys.primitive_id.0[l], 0, 0, 0],
    );
    sv("SYSTEM_VALUE_SAMPLE_MASK_IN", [1, 0, 0, 0]);
    let half = 0.5f32.to_bits();
    sv("SYSTEM_VALUE_SAMPLE_POS", [half, half, 0, 0]);
}
