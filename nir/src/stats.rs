//! Instruction statistics of a shader, like shader-db's report: counts of ALU,
//! memory (load/store intrinsics), texture and control-flow instructions and loops,
//! over every live instruction of every function body.

use std::fmt;
use std::ops::AddAssign;

use crate::intrinsics::IntrinsicOp;
use crate::ir::{CfKind, InstrKind, Shader};

/// Counts for one shader (or a sum over several).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderStats {
    /// Every live instruction except phis and parallel copies.
    pub instrs: u32,
    /// ALU instructions (`mov`/`vecN` included, as shader-db counts them).
    pub alu: u32,
    /// Intrinsics that read memory, IO, uniforms or derefs.
    pub loads: u32,
    /// Intrinsics that write outputs or variables.
    pub stores: u32,
    /// Texture instructions.
    pub tex: u32,
    /// Loops.
    pub loops: u32,
    /// `if` statements.
    pub ifs: u32,
    /// Basic blocks.
    pub blocks: u32,
}

fn is_load(op: IntrinsicOp) -> bool {
    op.info().name.starts_with("load_") && !is_system_value(op)
}

fn is_system_value(op: IntrinsicOp) -> bool {
    matches!(
        op.info().name,
        "load_front_face"
            | "load_frag_coord"
            | "load_point_coord"
            | "load_vertex_id"
            | "load_vertex_id_zero_base"
            | "load_base_vertex"
            | "load_first_vertex"
            | "load_instance_id"
            | "load_base_instance"
            | "load_draw_id"
            | "load_primitive_id"
            | "load_invocation_id"
            | "load_layer_id"
            | "load_sample_id"
            | "load_sample_pos"
            | "load_sample_mask_in"
            | "load_helper_invocation"
            | "load_barycentric_pixel"
            | "load_barycentric_centroid"
            | "load_barycentric_sample"
            | "load_barycentric_at_offset"
            | "load_param"
    )
}

impl ShaderStats {
    /// Counts the instructions of `shader`.
    pub fn of(shader: &Shader) -> ShaderStats {
        let mut s = ShaderStats::default();
        for (_, func) in shader.functions.iter() {
            let Some(body) = func.body.as_ref() else {
                continue;
            };
            for node in body.cf_nodes_in_order() {
                match body.cf[node].kind {
                    CfKind::Block(_) => {}
                    CfKind::If { .. } => s.ifs += 1,
                    CfKind::Loop { .. } => s.loops += 1,
                }
            }
            for block in body.blocks_in_order() {
                s.blocks += 1;
                for instr in body.block_instrs(block) {
                    match &body.instrs[instr].kind {
                        InstrKind::Phi(_) | InstrKind::ParallelCopy(_) => continue,
                        InstrKind::Alu(_) => s.alu += 1,
                        InstrKind::Tex(_) => s.tex += 1,
                        InstrKind::Intrinsic(i) => {
                            if i.op.info().name.starts_with("store_")
                                || i.op.info().name.starts_with("copy_")
                            {
                                s.stores += 1;
                            } else if is_load(i.op) {
                                s.loads += 1;
                            }
                        }
                        _ => {}
                    }
                    s.instrs += 1;
                }
            }
        }
        s
    }
}

impl AddAssign for ShaderStats {
    fn add_assign(&mut self, o: ShaderStats) {
        self.instrs += o.instrs;
        self.alu += o.alu;
        self.loads += o.loads;
        self.stores += o.stores;
        self.tex += o.tex;
        self.loops += o.loops;
        self.ifs += o.ifs;
        self.blocks += o.blocks;
    }
}

impl fmt::Display for ShaderStats {
    /// shader-db style: `123 inst, 80 alu, 10 loads, 4 stores, 2 tex, 1 loops, 3 ifs, 9 blocks`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} inst, {} alu, {} loads, {} stores, {} tex, {} loops, {} ifs, {} blocks",
            self.instrs,
            self.alu,
            self.loads,
            self.stores,
            self.tex,
            self.loops,
            self.ifs,
            self.blocks
        )
    }
}
