//! `lower_explicit_io` (Mesa's `nir_lower_vars_to_explicit_types` for shared memory
//! followed by `nir_lower_explicit_io` with 32-bit offsets, and the SSBO half of
//! `gl_nir_lower_buffers`): derefs of storage blocks and shared variables become
//! byte-offset intrinsics.
//!
//! * **Shared variables** are laid out first, std430, in declaration order: each
//!   variable's `driver_location` becomes its byte offset (aligned to its base
//!   alignment) and `info.shared_size` the total. Accesses become `load_shared` /
//!   `store_shared (value, offset)` / `shared_atomic(_swap)` with `base` = 0 and the
//!   variable's offset folded into the offset source.
//! * **Storage blocks** (`ssbo` variables): the variable has the block's struct type
//!   or an array of it; its `driver_location` is the block index (an array of blocks
//!   numbers its blocks row-major from there, GL 4.3 §7.3.1.1, as for uniform blocks).
//!   Accesses become `load_ssbo` / `store_ssbo (value, block, offset)` /
//!   `ssbo_atomic(_swap)`; offsets follow the variable's packing (std430 or std140)
//!   with the matrix layout of the struct fields walked.
//! * A vector component picked by the deref (`v[i]`, constant or dynamic) is one
//!   scalar access at `offset + i * 4`; a column of a row-major matrix is one scalar
//!   access per row (gathered with `vecN` on loads).
//! * Booleans are 32-bit words in memory: loads convert with `b2b1`, stores with
//!   `b2b32`.
//! * `deref_buffer_array_length` of a storage block's unsized last member becomes
//!   `(get_ssbo_size(block) - offset) / stride`, 0 when the buffer ends before the
//!   array (GL 4.6 §7.6.2.2: `.length()` of an unsized array is the number of whole
//!   elements the bound range holds).
//! * `access` = the variable's access qualifiers plus the intrinsic's;
//!   `align_mul`/`align_offset` describe the offset (as `load_ubo`'s).
//!
//! Accesses the pass cannot express are left as they were (the IR stays valid):
//! casts and wildcards, aggregate loads (run `lower_var_copies` first), non-32-bit
//! indices.

use super::offset::*;
use super::*;
use crate::builder::vec_opcode;
use crate::intrinsics::IndexKind;
use crate::ir::types::Packing;

/// The pass.
pub struct LowerExplicitIo;

impl Pass for LowerExplicitIo {
    fn name(&self) -> &'static str {
        "lower_explicit_io"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let mut progress = layout_shared(shader);
        let ids: Vec<FuncId> = shader.functions.keys().collect();
        for id in ids {
            let Some(mut body) = shader.functions[id].body.take() else {
                continue;
            };
            let changed = lower_impl(&shader.structs, &shader.variables, &mut body);
            if changed {
                remove_dead_derefs(&mut body, &[VarMode::Ssbo, VarMode::Shared]);
            }
            progress |= changed;
            shader.functions[id].body = Some(body);
        }
        Ok(progress)
    }
}

/// Assigns std430 byte offsets to the shared variables; true when something changed.
fn layout_shared(shader: &mut Shader) -> bool {
    let mut offset = 0u32;
    let mut changed = false;
    let vars: Vec<VarId> = shader
        .globals
        .iter()
        .copied()
        .filter(|v| shader.variables[*v].mode == VarMode::Shared)
        .collect();
    if vars.is_empty() {
        return false;
    }
    for v in vars {
        let Some((align, size)) =
            shader.variables[v]
                .ty
                .packed_align_size(&shader.structs, false, Packing::Std430)
        else {
            continue;
        };
        let Some(start) = offset.checked_add(align - 1).map(|x| x / align * align) else {
            continue;
        };
        if shader.variables[v].driver_location != start {
            shader.variables[v].driver_location = start;
            changed = true;
        }
        offset = start.saturating_add(size);
    }
    if shader.info.shared_size != offset {
        shader.info.shared_size = offset;
        changed = true;
    }
    changed
}

/// Where an access goes: the block index (SSBO) and the byte offset terms.
struct Target {
    /// Block index for SSBOs, `None` for shared memory.
    block: Option<Def>,
    terms: Vec<(Def, u32)>,
    konst: u32,
    /// Distance between the components of the addressed vector.
    comp_stride: u32,
    leaf: Type,
    access: u32,
}

/// Resolves the deref `d` of an `ssbo`/`shared` variable to a [`Target`], emitting
/// the block index; `None` when the chain cannot be lowered.
fn target(
    b: &mut Builder,
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    d: Def,
) -> Option<Target> {
    let (var_id, links) = deref_path(b.func, d)?;
    let var = vars.get(var_id)?;
    let (ty, links, block, base, packing) = match var.mode {
        VarMode::Shared => (
            var.ty.clone(),
            links.as_slice(),
            None,
            var.driver_location,
            Packing::Std430,
        ),
        VarMode::Ssbo => {
            let mut block_ty = &var.ty;
            let mut rest = links.as_slice();
            let mut konst_block = var.driver_location;
            let mut block_terms = Vec::new();
            while let Type::Array(e, _) = block_ty {
                let (Link::Array(idx), tail) = rest.split_first()? else {
                    return None;
                };
                let per = e.flattened_array_len();
                match const_u32(b.func, *idx) {
                    Some(c) => konst_block = konst_block.saturating_add(c.saturating_mul(per)),
                    None if b.func.defs[*idx].bit_size == 32
                        && b.func.defs[*idx].num_components == 1 =>
                    {
                        block_terms.push((*idx, per))
                    }
                    None => return None,
                }
                rest = tail;
                block_ty = e;
            }
            // Check the chain before emitting anything.
            compute_offset(b.func, structs, block_ty, rest, Units::Bytes(var.packing))?;
            let block = emit_offset(b, &block_terms, konst_block);
            (block_ty.clone(), rest, Some(block), 0, var.packing)
        }
        _ => return None,
    };
    let (off, leaf) = compute_offset(b.func, structs, &ty, links, Units::Bytes(packing))?;
    let mut terms = off.terms.clone();
    let mut konst = off.konst.checked_add(base)?;
    match off.comp {
        Some(Comp::Const(c)) => {
            konst = konst.checked_add(off.comp_stride.checked_mul(u32::from(c))?)?
        }
        Some(Comp::Dynamic(idx)) => terms.push((idx, off.comp_stride)),
        None => {}
    }
    Some(Target {
        block,
        terms,
        konst,
        comp_stride: off.comp_stride,
        leaf,
        access: var.access,
    })
}

/// Emits one load of `comps` 32-bit words at `konst + terms`.
fn emit_load(b: &mut Builder, t: &Target, konst: u32, comps: u8, access: u32) -> Option<Def> {
    let offset = emit_offset(b, &t.terms, konst);
    let (mul, rem) = alignment(&t.terms, konst);
    match t.block {
        Some(block) => b.intrinsic(
            IntrinsicOp::load_ssbo,
            vec![block, offset],
            comps,
            vec![access, mul, rem],
            Some((comps, 32)),
        ),
        None => b.intrinsic(
            IntrinsicOp::load_shared,
            vec![offset],
            comps,
            vec![0, mul, rem],
            Some((comps, 32)),
        ),
    }
}

/// Emits one store of `value` (`wrmask` over its components) at `konst + terms`.
fn emit_store(b: &mut Builder, t: &Target, konst: u32, value: Def, wrmask: u32, access: u32) {
    let comps = b.func.defs[value].num_components;
    let offset = emit_offset(b, &t.terms, konst);
    let (mul, rem) = alignment(&t.terms, konst);
    let _ = match t.block {
        Some(block) => b.intrinsic(
            IntrinsicOp::store_ssbo,
            vec![value, block, offset],
            comps,
            vec![wrmask, access, mul, rem],
            None,
        ),
        None => b.intrinsic(
            IntrinsicOp::store_shared,
            vec![value, offset],
            comps,
            vec![0, wrmask, mul, rem],
            None,
        ),
    };
}

fn index_of(intr: &Intrinsic, kind: IndexKind) -> u32 {
    intr.op
        .info()
        .index_slot(kind)
        .and_then(|s| intr.indices.get(s).copied())
        .unwrap_or(0)
}

fn is_explicit_mode(func: &FunctionImpl, d: Def) -> bool {
    matches!(
        &func.instrs[func.defs[d].instr].kind,
        InstrKind::Deref(Deref {
            mode: VarMode::Ssbo | VarMode::Shared,
            ..
        })
    )
}

fn lower_impl(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &mut FunctionImpl,
) -> bool {
    let mut uses = func.build_uses();
    let mut progress = false;
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let InstrKind::Intrinsic(intr) = &func.instrs[instr].kind else {
                continue;
            };
            let intr = intr.clone();
            let Some(&deref) = intr.srcs.first() else {
                continue;
            };
            if !matches!(
                intr.op,
                IntrinsicOp::load_deref
                    | IntrinsicOp::store_deref
                    | IntrinsicOp::deref_atomic
                    | IntrinsicOp::deref_atomic_swap
                    | IntrinsicOp::deref_buffer_array_length
            ) || !func.defs.contains(deref)
                || !is_explicit_mode(func, deref)
            {
                continue;
            }
            let done = match intr.op {
                IntrinsicOp::load_deref => lower_load(structs, vars, func, &mut uses, instr, &intr),
                IntrinsicOp::store_deref => lower_store(structs, vars, func, instr, &intr),
                IntrinsicOp::deref_atomic | IntrinsicOp::deref_atomic_swap => {
                    lower_atomic(structs, vars, func, &mut uses, instr, &intr)
                }
                _ => lower_length(structs, vars, func, &mut uses, instr, &intr),
            };
            progress |= done;
        }
    }
    progress
}

/// The common start of lowering an access that defines a value (a load or an
/// atomic): the value it defines, a builder placed before it, and its
/// resolved target.
fn begin_value_access<'f>(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &'f mut FunctionImpl,
    instr: Instr,
    intr: &Intrinsic,
) -> Option<(Def, Builder<'f>, Target)> {
    let old = func.instrs[instr].def?;
    let mut b = Builder::new(func, Cursor::Before(instr));
    let t = target(&mut b, structs, vars, intr.srcs[0])?;
    Some((old, b, t))
}

fn lower_load(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
) -> bool {
    let Some((old, mut b, t)) = begin_value_access(structs, vars, func, instr, intr) else {
        return false;
    };
    let Some(comps) = t.leaf.vector_components() else {
        return false;
    };
    let access = t.access | index_of(intr, IndexKind::Access);
    let loaded = if comps > 1 && t.comp_stride != 4 {
        let Some(op) = vec_opcode(comps) else {
            return false;
        };
        let mut parts = Vec::with_capacity(usize::from(comps));
        for i in 0..u32::from(comps) {
            let k = t.konst.saturating_add(t.comp_stride.saturating_mul(i));
            let Some(part) = emit_load(&mut b, &t, k, 1, access) else {
                return false;
            };
            parts.push(AluSrc::new(part));
        }
        b.alu_sized(op, parts, false, comps, 32)
    } else {
        match emit_load(&mut b, &t, t.konst, comps, access) {
            Some(l) => l,
            None => return false,
        }
    };
    finish_load(func, uses, instr, old, loaded, is_bool(&t.leaf));
    true
}

fn lower_store(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &mut FunctionImpl,
    instr: Instr,
    intr: &Intrinsic,
) -> bool {
    let Some(&value) = intr.srcs.get(1) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let Some(t) = target(&mut b, structs, vars, intr.srcs[0]) else {
        return false;
    };
    let value_comps = b.func.defs[value].num_components;
    let wrmask = index_of(intr, IndexKind::WriteMask) & ((1u32 << value_comps) - 1);
    let access = t.access | index_of(intr, IndexKind::Access);
    let value = if b.func.defs[value].bit_size == 1 {
        b.alu_sized(
            Opcode::b2b32,
            vec![AluSrc::new(value)],
            false,
            value_comps,
            32,
        )
    } else {
        value
    };
    if wrmask != 0 {
        if value_comps > 1 && t.comp_stride != 4 {
            // A row-major column: one scalar store per written component.
            for i in 0..value_comps {
                if wrmask & (1 << i) == 0 {
                    continue;
                }
                let part = b.channel(value, i);
                let k = t
                    .konst
                    .saturating_add(t.comp_stride.saturating_mul(u32::from(i)));
                emit_store(&mut b, &t, k, part, 1, access);
            }
        } else {
            emit_store(&mut b, &t, t.konst, value, wrmask, access);
        }
    }
    func.remove_instr(instr);
    true
}

fn lower_atomic(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
) -> bool {
    let Some((old, mut b, t)) = begin_value_access(structs, vars, func, instr, intr) else {
        return false;
    };
    if t.leaf.vector_components() != Some(1) {
        return false;
    }
    let swap = intr.op == IntrinsicOp::deref_atomic_swap;
    let atomic_op = index_of(intr, IndexKind::AtomicOp);
    let access = t.access | index_of(intr, IndexKind::Access);
    let offset = emit_offset(&mut b, &t.terms, t.konst);
    let data = intr.srcs[1..].to_vec();
    let new = match t.block {
        Some(block) => {
            let op = if swap {
                IntrinsicOp::ssbo_atomic_swap
            } else {
                IntrinsicOp::ssbo_atomic
            };
            let mut srcs = vec![block, offset];
            srcs.extend(data);
            b.intrinsic(op, srcs, 0, vec![access, atomic_op], Some((1, 32)))
        }
        None => {
            let op = if swap {
                IntrinsicOp::shared_atomic_swap
            } else {
                IntrinsicOp::shared_atomic
            };
            let mut srcs = vec![offset];
            srcs.extend(data);
            b.intrinsic(op, srcs, 0, vec![0, atomic_op], Some((1, 32)))
        }
    };
    let Some(new) = new else {
        return false;
    };
    func.rewrite_uses(Some(uses), old, new);
    func.remove_instr(instr);
    true
}

fn lower_length(
    structs: &[StructDef],
    vars: &crate::arena::Arena<VarId, Variable>,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
) -> bool {
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let Some((var_id, _)) = deref_path(func, intr.srcs[0]) else {
        return false;
    };
    let Some(packing) = vars.get(var_id).map(|v| v.packing) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let Some(t) = target(&mut b, structs, vars, intr.srcs[0]) else {
        return false;
    };
    let (Some(block), Type::Array(_, 0)) = (t.block, &t.leaf) else {
        return false;
    };
    let Some(stride) = t.leaf.packed_array_stride(structs, false, packing) else {
        return false;
    };
    if stride == 0 {
        return false;
    }
    let access = t.access | index_of(intr, IndexKind::Access);
    let Some(size) = b.intrinsic(
        IntrinsicOp::get_ssbo_size,
        vec![block],
        0,
        vec![access],
        Some((1, 32)),
    ) else {
        return false;
    };
    let offset = emit_offset(&mut b, &t.terms, t.konst);
    let short = b.alu_defs(Opcode::ult, &[size, offset]);
    let bytes = b.alu_defs(Opcode::isub, &[size, offset]);
    let stride = b.imm_i32(stride as i32);
    let count = b.alu_defs(Opcode::udiv, &[bytes, stride]);
    let zero = b.imm_i32(0);
    let length = b.alu_defs(Opcode::bcsel, &[short, zero, count]);
    func.rewrite_uses(Some(uses), old, length);
    func.remove_instr(instr);
    true
}
