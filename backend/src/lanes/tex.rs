//! Texture instructions: compiling NIR `tex` to a [`TexOp`] and running it over the
//! lanes through [`crate::texture`] (filtering, LOD from the 2×2 quads' derivatives,
//! shadow compare, fetch, size queries, LOD queries, gathers with constant or
//! per-lane offsets). An unbound slot reads (0, 0, 0, 1) (a gather: the gathered
//! component of it) and sizes of 0. Multisample fetches, sample counts and
//! min-LOD clamps are refused at compile time with [`Error::Unsupported`] naming
//! the op.

use rgl_nir::ir::{FunctionImpl, SamplerDim, Tex, TexOp as NirTexOp, TexSrcKind};
use rgl_nir::opcodes::Base;

use super::alu::RegMap;
use super::program::{store, TexKind, TexOp};
use crate::driver::TexTarget;
use crate::exec::{Reg, Resources, LANES};
use crate::texture::{self, FetchRequest, GatherRequest, LodMode, SampleRequest};
use crate::{Error, Result};

/// Compiles a tex instruction whose result is `dest` registers.
pub(crate) fn compile_tex(
    func: &FunctionImpl,
    t: &Tex,
    dest: Vec<u32>,
    m: &mut dyn RegMap,
    fragment: bool,
) -> Result<TexOp> {
    let kind = match t.op {
        NirTexOp::Tex => TexKind::Tex,
        NirTexOp::Txb => TexKind::Txb,
        NirTexOp::Txl => TexKind::Txl,
        NirTexOp::Txd => TexKind::Txd,
        NirTexOp::Txf => TexKind::Txf,
        NirTexOp::Txs => TexKind::Txs,
        NirTexOp::QueryLevels => TexKind::Levels,
        NirTexOp::Lod => TexKind::Lod,
        NirTexOp::Tg4 => TexKind::Gather,
        other => {
            let name = NirTexOp::ALL
                .iter()
                .find(|(o, _)| *o == other)
                .map_or("?", |(_, n)| n);
            return Err(Error::Unsupported(format!("texture op `{name}`")));
        }
    };
    if matches!(
        t.dim,
        SamplerDim::Buf | SamplerDim::Ms | SamplerDim::External
    ) {
        return Err(Error::Unsupported(format!("texture dimension {:?}", t.dim)));
    }
    let mut op = TexOp {
        kind,
        index: t.texture_index,
        index_reg: None,
        coords: Vec::new(),
        proj: None,
        compare: None,
        lod: None,
        ddx: Vec::new(),
        ddy: Vec::new(),
        offset: [0; 3],
        offset_regs: None,
        component: t.component.min(3),
        int_result: match t.dest_type.base {
            Base::Int => Some(true),
            Base::Uint => Some(false),
            _ => None,
        },
        dest,
        fragment,
    };
    let regs_of = |m: &mut dyn RegMap, d| -> Result<Vec<u32>> {
        let n = func.defs[d].num_components;
        (0..n).map(|c| m.reg(d, c)).collect()
    };
    for &(k, d) in &t.srcs {
        match k {
            TexSrcKind::Coord => op.coords = regs_of(m, d)?,
            TexSrcKind::Projector => op.proj = Some(m.reg(d, 0)?),
            TexSrcKind::Comparator => op.compare = Some(m.reg(d, 0)?),
            TexSrcKind::Bias | TexSrcKind::Lod => op.lod = Some(m.reg(d, 0)?),
            TexSrcKind::Ddx => op.ddx = regs_of(m, d)?,
            TexSrcKind::Ddy => op.ddy = regs_of(m, d)?,
            TexSrcKind::Offset if kind == TexKind::Gather && func.const_value(d).is_none() => {
                op.offset_regs = Some([m.reg(d, 0)?, m.reg(d, 1)?]);
            }
            TexSrcKind::Offset => {
                let Some(v) = func.const_value(d) else {
                    return Err(Error::Unsupported("non-constant texel offset".to_string()));
                };
                for (i, w) in v.iter().take(3).enumerate() {
                    op.offset[i] = *w as u32 as i32;
                }
            }
            TexSrcKind::TextureOffset => op.index_reg = Some(m.reg(d, 0)?),
            TexSrcKind::SamplerOffset | TexSrcKind::SamplerDeref => {}
            TexSrcKind::TextureDeref => {
                return Err(Error::Unsupported(
                    "texture deref (samplers must be lowered to indices)".to_string(),
                ))
            }
            other => {
                return Err(Error::Unsupported(format!(
                    "texture source `{}`",
                    other.name()
                )))
            }
        }
    }
    Ok(op)
}

/// Copies up to 4 registers into a fixed array (no allocation while running).
fn rg(regs: &[Reg], r: &[u32]) -> ([Reg; 4], usize) {
    let mut o = [Reg::default(); 4];
    let n = r.len().min(4);
    for (k, &i) in r.iter().take(4).enumerate() {
        o[k] = regs[i as usize];
    }
    (o, n)
}

/// Runs a texture op for the lanes of `exec` (others compute too; their writes are
/// masked).
pub(crate) fn run_tex(regs: &mut [Reg], exec: u32, op: &TexOp, res: &Resources<'_>) {
    if op.index_reg.is_none() {
        // One slot for every lane.
        let binding = res.textures.get(op.index as usize).and_then(|b| b.as_ref());
        let r = run_one(regs, op, binding);
        for (c, &d) in op.dest.iter().enumerate().take(4) {
            store(regs, d, exec, r[c].0);
        }
        return;
    }
    // A dynamic slot offset may differ per lane: run once per distinct slot.
    let mut done = 0u32;
    let mut out = [Reg::default(); 4];
    while done != crate::exec::ALL_LANES {
        let first = (!done).trailing_zeros() as usize;
        let slot_of = |l: usize| -> i64 {
            i64::from(op.index)
                + op.index_reg
                    .map(|r| regs[r as usize].0[l] as i32 as i64)
                    .unwrap_or(0)
        };
        let slot = slot_of(first);
        let mut lanes = 0u32;
        for l in 0..LANES {
            if done & (1 << l) == 0 && slot_of(l) == slot {
                lanes |= 1 << l;
            }
        }
        done |= lanes;
        let binding = usize::try_from(slot)
            .ok()
            .and_then(|s| res.textures.get(s))
            .and_then(|b| b.as_ref());
        let r = run_one(regs, op, binding);
        for c in 0..4 {
            for l in 0..LANES {
                if lanes & (1 << l) != 0 {
                    out[c].0[l] = r[c].0[l];
                }
            }
        }
    }
    for (c, &d) in op.dest.iter().enumerate().take(4) {
        store(regs, d, exec, out[c].0);
    }
}

#[inline(always)]
fn run_one(regs: &[Reg], op: &TexOp, b: Option<&crate::texture::TextureBinding<'_>>) -> [Reg; 4] {
    let Some(b) = b else {
        let mut o = [Reg::default(); 4];
        if op.kind == TexKind::Gather {
            // The gathered component of (0, 0, 0, 1).
            if op.component == 3 {
                let one = if op.int_result.is_some() {
                    Reg::splat_u(1)
                } else {
                    Reg::splat_f(1.0)
                };
                o = [one; 4];
            }
            return o;
        }
        if matches!(
            op.kind,
            TexKind::Tex | TexKind::Txb | TexKind::Txl | TexKind::Txd
        ) {
            o[3] = if op.int_result.is_some() {
                Reg::splat_u(1)
            } else {
                Reg::splat_f(1.0)
            };
        }
        return o;
    };
    let zero = Reg::default();
    let mut r = match op.kind {
        TexKind::Txs => {
            let lod = op.lod.map(|l| regs[l as usize]).unwrap_or(zero);
            let mut s = texture::size(b, &lod);
            if b.view.target == TexTarget::Cube {
                s[2] = zero;
            }
            return s;
        }
        TexKind::Levels => return [Reg::splat_u(texture::query_levels(b)), zero, zero, zero],
        // Only fragment shaders have the implicit derivatives the query
        // describes (ARB_texture_query_lod makes it a fragment-only function).
        TexKind::Lod if !op.fragment => return [zero; 4],
        TexKind::Lod => {
            let (coords, n) = rg(regs, &op.coords);
            let [x, y] = texture::query_lod(b, &coords[..n]);
            return [x, y, zero, zero];
        }
        TexKind::Gather => {
            let (coords, n) = rg(regs, &op.coords);
            let offset_lanes = op
                .offset_regs
                .map(|[x, y]| [&regs[x as usize], &regs[y as usize]]);
            texture::gather(
                b,
                &GatherRequest {
                    coords: &coords[..n],
                    component: op.component,
                    offset: [op.offset[0], op.offset[1]],
                    offset_lanes,
                    compare: op.compare.map(|c| &regs[c as usize]),
                },
            )
        }
        TexKind::Txf => {
            let (coords, n) = rg(regs, &op.coords);
            let lod = op.lod.map(|l| regs[l as usize]);
            let mut v = texture::fetch(
                b,
                &FetchRequest {
                    coords: &coords[..n],
                    lod: lod.as_ref(),
                    offset: op.offset,
                },
            );
            if op.int_result.is_some() {
                to_int(&mut v, op.int_result == Some(true));
            }
            return v;
        }
        _ if op.proj.is_none()
            && op.kind != TexKind::Txd
            && !op.coords.is_empty()
            && op.coords.len() <= 4
            && op.coords.windows(2).all(|w| w[1] == w[0].wrapping_add(1)) =>
        {
            // Consecutive coordinate registers: sample straight from the register
            // file (no copies).
            let c0 = op.coords[0] as usize;
            let coords = &regs[c0..c0 + op.coords.len()];
            let lod_reg = op.lod.map(|l| &regs[l as usize]);
            let lod = match (op.kind, op.fragment) {
                (TexKind::Tex, true) => LodMode::Implicit(None),
                (TexKind::Txb, true) => LodMode::Implicit(lod_reg),
                (TexKind::Txl | TexKind::Txb, _) => LodMode::Lod(lod_reg.unwrap_or(&zero)),
                _ => LodMode::Lod(&zero),
            };
            texture::sample(
                b,
                &SampleRequest {
                    coords,
                    lod,
                    offset: op.offset,
                    compare: op.compare.map(|c| &regs[c as usize]),
                },
            )
        }
        _ => {
            let (mut coords, n) = rg(regs, &op.coords);
            let mut compare = op.compare.map(|c| regs[c as usize]);
            if let Some(p) = op.proj {
                let p = regs[p as usize];
                for c in coords[..n].iter_mut().chain(compare.iter_mut()) {
                    for l in 0..LANES {
                        c.set_f(l, c.f(l) / p.f(l));
                    }
                }
            }
            let lod_reg = op.lod.map(|l| regs[l as usize]);
            let (ddx, nx) = rg(regs, &op.ddx);
            let (ddy, ny) = rg(regs, &op.ddy);
            let lod = match (op.kind, op.fragment) {
                (TexKind::Tex, true) => LodMode::Implicit(None),
                (TexKind::Txb, true) => LodMode::Implicit(lod_reg.as_ref()),
                (TexKind::Txd, _) => LodMode::Grad(&ddx[..nx], &ddy[..ny]),
                (TexKind::Txl | TexKind::Txb, _) => LodMode::Lod(lod_reg.as_ref().unwrap_or(&zero)),
                _ => LodMode::Lod(&zero),
            };
            texture::sample(
                b,
                &SampleRequest {
                    coords: &coords[..n],
                    lod,
                    offset: op.offset,
                    compare: compare.as_ref(),
                },
            )
        }
    };
    if let Some(signed) = op.int_result {
        to_int(&mut r, signed);
    }
    r
}

/// Integer sampler results: the driver stores no integer formats, so the filtered
/// value is converted (GL leaves mismatched sampler/format results undefined).
pub(crate) fn to_int(v: &mut [Reg; 4], signed: bool) {
    for r in v.iter_mut() {
        for l in 0..LANES {
            let x = r.f(l);
            r.0[l] = if signed { x as i32 as u32 } else { x as u32 };
        }
    }
}
