//! The shader interface ([`ShaderInfo`](crate::exec::ShaderInfo) inputs and
//! outputs) read off the IO intrinsics of the entry point, and the interpolation of
//! each input.

use std::collections::BTreeMap;

use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::names::{
    VARYING_SLOT_FACE, VARYING_SLOT_PNTC, VARYING_SLOT_POS, VARYING_SLOT_PRIMITIVE_ID,
};
use rgl_nir::ir::*;

use super::index;
use crate::driver::ShaderStage;
use crate::exec::IoDecl;

/// Walks every intrinsic of the entry point to find the IO declarations.
pub(super) fn collect_io(
    shader: &Shader,
    func: &FunctionImpl,
    stage: ShaderStage,
) -> (Vec<IoDecl>, Vec<IoDecl>) {
    let mut ins: BTreeMap<i32, IoDecl> = BTreeMap::new();
    let mut outs: BTreeMap<i32, IoDecl> = BTreeMap::new();
    let fragment = stage == ShaderStage::Fragment;
    let _ = shader;
    let add =
        |map: &mut BTreeMap<i32, IoDecl>, loc: i32, slots: u32, comps: u32, interp: Interp| {
            for s in 0..slots.clamp(1, 4096) as i32 {
                let e = map.entry(loc + s).or_insert(IoDecl {
                    location: loc + s,
                    components: 0,
                    interp,
                    index: 0,
                });
                e.components = e.components.max(comps.min(4) as u8);
            }
        };
    for b in func.blocks_in_order() {
        for i in func.block_instrs(b) {
            let data = &func.instrs[i];
            let InstrKind::Intrinsic(intr) = &data.kind else {
                continue;
            };
            let io_loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
            let io_slots = index(intr, IndexKind::IoSemantics) >> 16;
            let comp = index(intr, IndexKind::Component);
            let ncomp = data
                .def
                .map(|d| u32::from(func.defs[d].num_components))
                .unwrap_or(0);
            match intr.op {
                IntrinsicOp::load_input | IntrinsicOp::load_interpolated_input => {
                    if fragment
                        && matches!(
                            io_loc,
                            VARYING_SLOT_POS
                                | VARYING_SLOT_PNTC
                                | VARYING_SLOT_FACE
                                | VARYING_SLOT_PRIMITIVE_ID
                        )
                    {
                        continue;
                    }
                    let (loc, slots) = if stage == ShaderStage::Vertex {
                        (
                            index(intr, IndexKind::Base) as i32,
                            index(intr, IndexKind::Range),
                        )
                    } else {
                        (io_loc, io_slots)
                    };
                    let interp = if intr.op == IntrinsicOp::load_input {
                        if fragment {
                            Interp::Flat
                        } else {
                            Interp::Smooth
                        }
                    } else {
                        bary_interp(func, intr.srcs.first().copied())
                    };
                    add(&mut ins, loc, slots, comp + ncomp, interp);
                }
                IntrinsicOp::load_per_vertex_input => {
                    add(&mut ins, io_loc, io_slots, comp + ncomp, Interp::Smooth)
                }
                IntrinsicOp::store_output => {
                    let n = intr
                        .srcs
                        .first()
                        .map(|d| u32::from(func.defs[*d].num_components))
                        .unwrap_or(0);
                    let wr = index(intr, IndexKind::WriteMask);
                    let top = (0..n)
                        .filter(|c| wr & (1 << c) != 0)
                        .max()
                        .map_or(0, |c| c + 1);
                    add(&mut outs, io_loc, io_slots, comp + top, Interp::Smooth)
                }
                IntrinsicOp::load_output => {
                    add(&mut outs, io_loc, io_slots, comp + ncomp, Interp::Smooth)
                }
                _ => {}
            }
        }
    }
    (ins.into_values().collect(), outs.into_values().collect())
}

pub(super) fn bary_interp(func: &FunctionImpl, bary: Option<Def>) -> Interp {
    let Some(d) = bary else {
        return Interp::Smooth;
    };
    let Some(instr) = func.defs.get(d).map(|x| x.instr) else {
        return Interp::Smooth;
    };
    match &func.instrs[instr].kind {
        InstrKind::Intrinsic(b) => match index(b, IndexKind::InterpMode) {
            2 => Interp::Flat,
            3 => Interp::NoPerspective,
            _ => Interp::Smooth,
        },
        _ => Interp::Smooth,
    }
}
