//! Validator rules of the GL 4.x intrinsics (stage 3 of [`crate::validate`]): compute
//! system values, storage-buffer and shared-memory access (explicit and deref form),
//! atomics, barriers and subgroup operations. Each rule follows Mesa's
//! `nir_validate.c` (`validate_intrinsic_instr`) or the intrinsic's definition in
//! `nir_intrinsics.py`; a violation is an error message, never a panic.

use crate::intrinsics::{AtomicOp, IndexKind, IntrinsicOp as I, Scope};
use crate::intrinsics::{MEMORY_ACQ_REL, MEMORY_SEMANTICS};
use crate::ir::*;

/// The intrinsics only a compute shader may use (the compute system values and
/// shared memory; ARB_compute_shader).
fn compute_only(op: I) -> bool {
    matches!(
        op,
        I::load_local_invocation_id
            | I::load_workgroup_id
            | I::load_num_workgroups
            | I::load_global_invocation_id
            | I::load_local_invocation_index
            | I::load_workgroup_size
            | I::load_shared
            | I::store_shared
            | I::shared_atomic
            | I::shared_atomic_swap
    )
}

fn index(intr: &Intrinsic, kind: IndexKind) -> Option<u32> {
    let slot = intr.op.info().index_slot(kind)?;
    intr.indices.get(slot).copied()
}

fn deref_of(f: &FunctionImpl, d: Def) -> Option<&Deref> {
    match &f.instrs[f.defs[d].instr].kind {
        InstrKind::Deref(deref) => Some(deref),
        _ => None,
    }
}

/// Checks `intr` (whose source and destination counts were already checked against
/// the table), reporting each problem through `e`.
pub(super) fn check_intrinsic(
    shader: &Shader,
    f: &FunctionImpl,
    intr: &Intrinsic,
    dest: Option<&DefData>,
    e: &mut dyn FnMut(String),
) {
    let op = intr.op;
    if compute_only(op) && shader.stage != Stage::Compute {
        e(format!(
            "@{op} is only available in compute shaders, not {}",
            shader.stage.name()
        ));
    }
    let src = |i: usize| intr.srcs.get(i).map(|s| &f.defs[*s]);
    let scalar32 = |i: usize, what: &str, e: &mut dyn FnMut(String)| {
        if let Some(d) = src(i) {
            if d.num_components != 1 || d.bit_size != 32 {
                e(format!("@{op}: the {what} must be a 32-bit scalar"));
            }
        }
    };
    // Access qualifiers: only the known bits.
    if let Some(access) = index(intr, IndexKind::Access) {
        let known: u32 = names::ACCESS_FLAGS.iter().map(|(b, _)| *b).sum();
        if access & !known != 0 {
            e(format!("@{op}: unknown access bits {:#x}", access & !known));
        }
    }
    match op {
        I::load_ssbo | I::store_ssbo | I::load_shared | I::store_shared => {
            let (value_bits, value_comps) = match op {
                I::store_ssbo | I::store_shared => {
                    (src(0).map(|d| d.bit_size), src(0).map(|d| d.num_components))
                }
                _ => (dest.map(|d| d.bit_size), dest.map(|d| d.num_components)),
            };
            if value_bits.is_some_and(|b| !matches!(b, 32 | 64)) {
                e(format!("@{op} moves 32- or 64-bit values"));
            }
            if value_comps.is_some_and(|c| !(1..=4).contains(&c)) {
                e(format!("@{op} moves 1 to 4 components"));
            }
            let first_addr = usize::from(matches!(op, I::store_ssbo | I::store_shared));
            match op {
                I::load_ssbo | I::store_ssbo => {
                    scalar32(first_addr, "block index", e);
                    scalar32(first_addr + 1, "byte offset", e);
                }
                _ => scalar32(first_addr, "byte offset", e),
            }
            if let Some(mask) = index(intr, IndexKind::WriteMask) {
                let comps = u32::from(value_comps.unwrap_or(0));
                if mask == 0 || mask >> comps != 0 {
                    e(format!(
                        "@{op}: write mask {mask:#x} does not fit a {comps}-component value"
                    ));
                }
            }
            check_alignment(intr, e);
        }
        I::get_ssbo_size => scalar32(0, "block index", e),
        I::ssbo_atomic | I::ssbo_atomic_swap | I::shared_atomic | I::shared_atomic_swap => {
            let addr = if matches!(op, I::ssbo_atomic | I::ssbo_atomic_swap) {
                scalar32(0, "block index", e);
                1
            } else {
                0
            };
            scalar32(addr, "byte offset", e);
            check_atomic(intr, dest, &intr.srcs[addr + 1..], f, e);
        }
        I::deref_atomic | I::deref_atomic_swap => {
            match intr.srcs.first().and_then(|s| deref_of(f, *s)) {
                Some(deref) => {
                    if !matches!(deref.mode, VarMode::Ssbo | VarMode::Shared) {
                        e(format!(
                            "@{op} needs a storage-buffer or shared deref, not {}",
                            deref.mode.deref_name()
                        ));
                    }
                    if !matches!(
                        deref.ty,
                        Type::Scalar(BaseType::Int | BaseType::Uint | BaseType::Float)
                    ) {
                        e(format!(
                            "@{op} needs a deref of an int, uint or float scalar"
                        ));
                    }
                }
                None => e(format!("@{op}: source 0 must be a deref")),
            }
            check_atomic(intr, dest, &intr.srcs[1..], f, e);
        }
        I::deref_buffer_array_length => match intr.srcs.first().and_then(|s| deref_of(f, *s)) {
            Some(deref) if deref.mode == VarMode::Ssbo && matches!(deref.ty, Type::Array(_, 0)) => {
            }
            Some(_) => e(format!(
                "@{op} needs a deref of an unsized storage-buffer array"
            )),
            None => e(format!("@{op}: source 0 must be a deref")),
        },
        _ if op.is_image() => check_image(f, intr, dest, e),
        I::barrier => check_barrier(shader, intr, e),
        I::ballot
        | I::load_subgroup_eq_mask
        | I::load_subgroup_ge_mask
        | I::load_subgroup_gt_mask
        | I::load_subgroup_le_mask
        | I::load_subgroup_lt_mask => {
            if op == I::ballot && src(0).is_some_and(|d| d.bit_size != 1) {
                e(format!("@{op}: the condition must be a 1-bit boolean"));
            }
            // A bit set of the subgroup: uvec4 (Mesa's default), uvec2 or one
            // 64-bit word (ARB_shader_ballot's uint64_t), or one 32-bit word.
            if let Some(d) = dest {
                let ok = matches!((d.num_components, d.bit_size), (1 | 2 | 4, 32) | (1, 64));
                if !ok {
                    e(format!(
                        "@{op} produces a 32-bit scalar/uvec2/uvec4 or one 64-bit value, not {}x{}",
                        d.num_components, d.bit_size
                    ));
                }
            }
        }
        I::vote_any | I::vote_all if src(0).is_some_and(|d| d.bit_size != 1) => {
            e(format!("@{op}: the condition must be a 1-bit boolean"));
        }
        I::vote_feq if src(0).is_some_and(|d| !matches!(d.bit_size, 16 | 32 | 64)) => {
            e(format!("@{op} compares 16/32/64-bit floats"));
        }
        I::read_invocation | I::read_first_invocation => {
            if op == I::read_invocation {
                scalar32(1, "invocation index", e);
            }
            if let (Some(s), Some(d)) = (src(0), dest) {
                if s.bit_size != d.bit_size {
                    e(format!("@{op}: the result has the bit size of the value"));
                }
            }
        }
        _ => {}
    }
}

/// An image intrinsic (either form; Mesa's `nir_validate` image rules): the
/// deref form names an image variable, the index form a 32-bit scalar index;
/// the coordinate is 32-bit; `image_dim` and `format` are known values; loads
/// and stores move 4 components of 32 bits (Mesa's `lower_image` convention);
/// atomics are checked as the other atomics.
fn check_image(
    f: &FunctionImpl,
    intr: &Intrinsic,
    dest: Option<&DefData>,
    e: &mut dyn FnMut(String),
) {
    let op = intr.op;
    let src = |i: usize| intr.srcs.get(i).map(|s| &f.defs[*s]);
    if op.image_index_form().is_some() {
        match intr.srcs.first().and_then(|s| deref_of(f, *s)) {
            Some(d) if matches!(d.ty, Type::Image { .. }) && d.mode == VarMode::Uniform => {}
            Some(_) => e(format!("@{op} needs a deref of an image uniform")),
            None => e(format!("@{op}: source 0 must be a deref")),
        }
    } else if src(0).is_some_and(|d| d.num_components != 1 || d.bit_size != 32) {
        e(format!("@{op}: the image index must be a 32-bit scalar"));
    }
    if intr.srcs.len() > 1 && src(1).is_some_and(|d| d.bit_size != 32) {
        e(format!("@{op}: the coordinate must be 32-bit"));
    }
    if index(intr, IndexKind::ImageDim).is_some_and(|d| d as usize >= SamplerDim::ALL.len()) {
        e(format!("@{op}: bad image_dim"));
    }
    if index(intr, IndexKind::Format)
        .is_some_and(|c| crate::intrinsics::ImageFormat::from_code(c).is_none())
    {
        e(format!("@{op}: bad format"));
    }
    match op {
        I::image_deref_load | I::image_load
            if dest.is_some_and(|d| d.num_components != 4 || d.bit_size != 32) =>
        {
            e(format!("@{op} loads a 4-component 32-bit texel"));
        }
        I::image_deref_store | I::image_store
            if src(3).is_some_and(|d| d.num_components != 4 || d.bit_size != 32) =>
        {
            e(format!("@{op} stores a 4-component 32-bit texel"));
        }
        I::image_deref_atomic | I::image_atomic => check_atomic(intr, dest, &intr.srcs[3..4], f, e),
        I::image_deref_atomic_swap | I::image_atomic_swap => {
            check_atomic(intr, dest, &intr.srcs[3..5], f, e)
        }
        _ => {}
    }
}

/// The alignment indices of an explicit access: `align_mul` a power of two,
/// `align_offset` below it.
fn check_alignment(intr: &Intrinsic, e: &mut dyn FnMut(String)) {
    let (Some(mul), Some(offset)) = (
        index(intr, IndexKind::AlignMul),
        index(intr, IndexKind::AlignOffset),
    ) else {
        return;
    };
    if !mul.is_power_of_two() || offset >= mul {
        e(format!(
            "@{}: bad alignment align_mul={mul}, align_offset={offset}",
            intr.op
        ));
    }
}

/// The atomic op index and the data sources of an atomic: `cmpxchg` exactly for the
/// swap forms; 32-bit data of the result's bit size; `fadd`/`xchg`/`cmpxchg` the
/// only ops a float deref allows.
fn check_atomic(
    intr: &Intrinsic,
    dest: Option<&DefData>,
    data: &[Def],
    f: &FunctionImpl,
    e: &mut dyn FnMut(String),
) {
    let op = intr.op;
    let swap = matches!(
        op,
        I::deref_atomic_swap
            | I::ssbo_atomic_swap
            | I::shared_atomic_swap
            | I::image_deref_atomic_swap
            | I::image_atomic_swap
    );
    let code = index(intr, IndexKind::AtomicOp).unwrap_or(u32::MAX);
    match AtomicOp::from_code(code) {
        Some(a) if a.is_swap() && !swap => {
            e(format!("@{op}: {} needs the _swap form", a.name()));
        }
        Some(a) if swap && !a.is_swap() => {
            e(format!("@{op} only does cmpxchg, not {}", a.name()));
        }
        Some(_) => {}
        None => e(format!("@{op}: bad atomic_op {code}")),
    }
    for d in data {
        let dd = &f.defs[*d];
        if dd.num_components != 1 || dd.bit_size != 32 {
            e(format!("@{op}: atomic data must be a 32-bit scalar"));
        }
    }
    if dest.is_some_and(|d| d.bit_size != 32) {
        e(format!("@{op} returns the old 32-bit value"));
    }
    if op == I::deref_atomic || op == I::deref_atomic_swap {
        if let Some(Deref {
            ty: Type::Scalar(BaseType::Float),
            ..
        }) = intr.srcs.first().and_then(|s| deref_of(f, *s))
        {
            if !matches!(
                AtomicOp::from_code(code),
                Some(
                    AtomicOp::Fadd
                        | AtomicOp::Fmin
                        | AtomicOp::Fmax
                        | AtomicOp::Xchg
                        | AtomicOp::Fcmpxchg
                ) | None
            ) {
                e(format!("@{op}: integer atomic on a float"));
            }
        }
    }
}

/// A barrier's scopes are valid `mesa_scope`s with the execution scope not wider
/// than a workgroup (a compute or tessellation control shader's `barrier()`), its
/// semantics and modes known bits; a memory barrier (semantics set) names modes.
fn check_barrier(shader: &Shader, intr: &Intrinsic, e: &mut dyn FnMut(String)) {
    let exec = index(intr, IndexKind::ExecutionScope).unwrap_or(0);
    let mem = index(intr, IndexKind::MemoryScope).unwrap_or(0);
    let semantics = index(intr, IndexKind::MemorySemantics).unwrap_or(0);
    let modes = index(intr, IndexKind::MemoryModes).unwrap_or(0);
    match Scope::from_code(exec) {
        Some(Scope::Workgroup) => {
            if !matches!(shader.stage, Stage::Compute | Stage::TessCtrl) {
                e(format!(
                    "@barrier: a workgroup execution barrier needs a compute or tessellation control shader, not {}",
                    shader.stage.name()
                ));
            }
        }
        Some(Scope::None | Scope::Invocation | Scope::Subgroup) => {}
        Some(s) => e(format!(
            "@barrier: execution scope {} is wider than a workgroup",
            s.name()
        )),
        None => e(format!("@barrier: bad execution_scope {exec}")),
    }
    if Scope::from_code(mem).is_none() {
        e(format!("@barrier: bad memory_scope {mem}"));
    }
    let known: u32 = MEMORY_SEMANTICS.iter().map(|(b, _)| *b).sum();
    if semantics & !known != 0 {
        e(format!(
            "@barrier: unknown memory semantics bits {semantics:#x}"
        ));
    }
    let known_modes: u32 = VarMode::ALL.iter().map(|m| m.bit()).sum();
    if modes & !known_modes != 0 {
        e(format!("@barrier: unknown memory modes {modes:#x}"));
    }
    if semantics & MEMORY_ACQ_REL != 0 && (modes == 0 || mem == Scope::None.code()) {
        e("@barrier: a memory barrier needs memory modes and a memory scope".into());
    }
}
