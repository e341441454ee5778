//! `lower_io` of plain inputs and outputs:
//! * **Inputs**: VS → `load_input`; GS (and tessellation) per-vertex arrays →
//!   `load_per_vertex_input (vertex, offset)`; FS → `load_interpolated_input` fed by
//!   `load_barycentric_pixel/centroid/sample (interp_mode)`, except flat and
//!   non-float inputs, which use `load_input`.
//!   Built-in FS inputs such as gl_FragCoord (`VARYING_SLOT_POS`) or gl_PointCoord are
//!   lowered like any other input, as `nir_lower_io` does (system-value variables are
//!   `lower_system_values`' job).
//! * **Outputs**: `store_deref` → `store_output (value, offset)` with the write mask;
//!   `load_deref` → `load_output`.
//! * IO indices: `base` = driver location, `component` = `location_frac`, `dest_type` /
//!   `src_type` from the GLSL base type, `io location` = the variable's location. A
//!   constant offset is folded into `base` and `io location` (`slots=1`, `range=1`,
//!   offset source 0, as `nir_io_add_const_offset_to_base` leaves it); an indirectly
//!   indexed array keeps `base`/`location` of the variable, `range`/`slots` = its size,
//!   and the offset source is computed in vec4 slots with `type_size_vec4`.
//!
//! Compact arrays (`gl_ClipDistance`, `gl_CullDistance`) go to [`super::compact`].

use super::compact::{compact_len, lower_compact_access};
use super::offset::*;
use super::*;

#[allow(clippy::too_many_arguments)]
pub(super) fn lower_io_access(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
    var: &Variable,
    links: &[Link],
    is_store: bool,
) -> bool {
    let arrayed = is_arrayed_io(cx.stage, var.mode);
    let (vertex, links, base_ty) = if arrayed {
        match (links.first(), &var.ty) {
            (Some(Link::Array(v)), Type::Array(e, _)) => (Some(*v), &links[1..], (**e).clone()),
            _ => return false,
        }
    } else {
        (None, links, var.ty.clone())
    };
    if let Some(len) = compact_len(cx.stage, var) {
        return lower_compact_access(
            func, uses, instr, intr, var, vertex, links, is_store, len, cx,
        );
    }
    let Some(var_slots) = base_ty.type_size_vec4(cx.structs) else {
        return false;
    };
    let Some((off, leaf)) = compute_offset(func, cx.structs, &base_ty, links, Units::Vec4) else {
        return false;
    };
    let Some(leaf_comps) = leaf.vector_components() else {
        return false;
    };
    let Some(code) = type_code(&leaf) else {
        return false;
    };
    let boolean = is_bool(&leaf);
    let direct = off.terms.is_empty();
    let (base, location, slots) = if direct {
        let loc = i64::from(var.location) + i64::from(off.konst);
        (
            var.driver_location.saturating_add(off.konst),
            loc as u32 & 0xffff,
            1u32,
        )
    } else {
        (var.driver_location, var.location as u32 & 0xffff, var_slots)
    };
    let io_sem = location | (slots.min(0xffff) << 16);
    let range = if direct { 1 } else { var_slots };
    let first_comp = u32::from(var.location_frac);
    // The vector the access addresses (before any component selection).
    let vec_comps = match off.comp {
        Some(_) => match leaf {
            // The parent of the selected component.
            Type::Scalar(_) => links
                .len()
                .checked_sub(1)
                .and_then(|n| compute_offset(func, cx.structs, &base_ty, &links[..n], Units::Vec4))
                .and_then(|(_, t)| t.vector_components())
                .unwrap_or(1),
            _ => leaf_comps,
        },
        None => leaf_comps,
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let offset = emit_offset(&mut b, &off.terms, if direct { 0 } else { off.konst });
    if is_store {
        let Some(&value) = intr.srcs.get(1) else {
            return false;
        };
        let wrmask = intr.indices.first().copied().unwrap_or(0);
        let value = if boolean && b.func.defs[value].bit_size == 1 {
            let n = b.func.defs[value].num_components;
            b.alu_sized(Opcode::b2b32, [AluSrc::new(value)], false, n, 32)
        } else {
            value
        };
        let (value, component, wrmask) = match off.comp {
            None => (value, first_comp, wrmask),
            Some(Comp::Const(c)) => (value, first_comp + u32::from(c), wrmask & 1),
            Some(Comp::Dynamic(idx)) => {
                // Read the vector back, replace the selected component, store it all.
                let n = vec_comps;
                let Some(old) = b.intrinsic(
                    IntrinsicOp::load_output,
                    vec![offset],
                    n,
                    vec![base, range, first_comp, code, io_sem],
                    Some((n, 32)),
                ) else {
                    return false;
                };
                let v = b.vector_insert(old, value, idx, 0);
                (v, first_comp, (1u32 << n) - 1)
            }
        };
        if wrmask == 0 {
            func.remove_instr(instr);
            return true;
        }
        let n = b.func.defs[value].num_components;
        b.intrinsic(
            IntrinsicOp::store_output,
            vec![value, offset],
            n,
            vec![base, range, wrmask, component, code, io_sem],
            None,
        );
        func.remove_instr(instr);
        return true;
    }
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let (n, component) = match off.comp {
        Some(Comp::Const(c)) => (1, first_comp + u32::from(c)),
        Some(Comp::Dynamic(_)) => (vec_comps, first_comp),
        None => (leaf_comps, first_comp),
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let loaded = {
        let float = matches!(
            leaf,
            Type::Scalar(BaseType::Float) | Type::Vector(BaseType::Float, _)
        );
        let io = IoIndices {
            base,
            range,
            component,
            code,
            io_sem,
        };
        emit_io_load(&mut b, cx.stage, var, vertex, offset, n, io, float)
    };
    let Some(mut loaded) = loaded else {
        return false;
    };
    if let Some(Comp::Dynamic(idx)) = off.comp {
        loaded = pick_component(&mut b, loaded, Comp::Dynamic(idx));
    }
    finish_load(func, uses, instr, old, loaded, boolean);
    true
}

/// Constant indices of a lowered IO access.
#[derive(Copy, Clone)]
pub(super) struct IoIndices {
    pub(super) base: u32,
    pub(super) range: u32,
    pub(super) component: u32,
    pub(super) code: u32,
    pub(super) io_sem: u32,
}

/// Emits the load of `n` components of an input or output (the intrinsic chosen by
/// stage, mode, per-vertex indexing and interpolation).
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_io_load(
    b: &mut Builder,
    stage: Stage,
    var: &Variable,
    vertex: Option<Def>,
    offset: Def,
    n: u8,
    io: IoIndices,
    float: bool,
) -> Option<Def> {
    let IoIndices {
        base,
        range,
        component,
        code,
        io_sem,
    } = io;
    if var.mode == VarMode::ShaderOut {
        return b.intrinsic(
            IntrinsicOp::load_output,
            vec![offset],
            n,
            vec![base, range, component, code, io_sem],
            Some((n, 32)),
        );
    }
    if let Some(vertex) = vertex {
        return b.intrinsic(
            IntrinsicOp::load_per_vertex_input,
            vec![vertex, offset],
            n,
            vec![base, range, component, code, io_sem],
            Some((n, 32)),
        );
    }
    if stage == Stage::Fragment && var.interp != Interp::Flat && float {
        let bary_op = if var.sample {
            IntrinsicOp::load_barycentric_sample
        } else if var.centroid {
            IntrinsicOp::load_barycentric_centroid
        } else {
            IntrinsicOp::load_barycentric_pixel
        };
        let bary = b.intrinsic(
            bary_op,
            Vec::new(),
            0,
            vec![interp_mode_number(var.interp)],
            Some((2, 32)),
        )?;
        return b.intrinsic(
            IntrinsicOp::load_interpolated_input,
            vec![bary, offset],
            n,
            vec![base, component, code, io_sem],
            Some((n, 32)),
        );
    }
    b.intrinsic(
        IntrinsicOp::load_input,
        vec![offset],
        n,
        vec![base, range, component, code, io_sem],
        Some((n, 32)),
    )
}
