//! `lower_io` (Mesa's `nir_lower_io` in vec4-slot units, `gl_nir_lower_buffers` for
//! UBOs and the sampler part of `gl_nir_lower_samplers`): variable derefs of shader
//! inputs, outputs, default-block uniforms and uniform blocks become explicit IO
//! intrinsics, and sampler derefs in `tex` instructions become texture/sampler indices.
//!
//! The pass is split along the kinds of access it rewrites:
//! * this module: the pass, driver locations, samplers, and the helpers shared with
//!   other passes (`is_arrayed_io`, `io_slots`, `sampler_count`, ...);
//! * [`offset`]: deref chains to constant + dynamic offsets, shared by the others;
//! * [`plain`]: inputs and outputs (`load_input`, `load_interpolated_input`,
//!   `load_per_vertex_input`, `store_output`, `load_output`);
//! * [`compact`]: the compact float arrays `gl_ClipDistance`/`gl_CullDistance`;
//! * [`ubo`]: default-block uniforms (`load_uniform`) and uniform blocks (`load_ubo`);
//! * [`explicit`]: the separate `lower_explicit_io` pass for storage blocks and shared
//!   memory (`load_ssbo`, `store_shared`, the atomics, `get_ssbo_size`).
//!
//! What every kind shares:
//! * **Driver locations** of inputs and outputs are assigned first, like
//!   `nir_assign_io_var_locations`: variables sorted by location then component, one
//!   vec4 slot per slot of the type (per-vertex arrays counted per vertex); variables
//!   packed into a slot already handed out share it. A mode whose variables already
//!   carry driver locations (any non-zero) keeps them. `info.num_inputs`/`num_outputs`
//!   get the slot counts, `info.num_uniforms` the default-block size in vec4 slots.
//! * Booleans are stored as 32-bit words: boolean loads read 32 bits (`dest_type=bool32`)
//!   and convert with `b2b1`; boolean stores convert with `b2b32`.
//! * A vector component selected by a deref (`v[i]` on a vector) loads the vector and
//!   picks the component (constant: `mov`; dynamic: a `bcsel` chain); UBO loads read the
//!   single component at its byte offset; output stores with a constant component store
//!   one component, with a dynamic one read the output back (`load_output`), blend with
//!   `bcsel` and store the vector.
//! * **Samplers**: `texture_deref`/`sampler_deref` sources are removed; `texture_index`
//!   = `sampler_index` = the sampler variable's `driver_location` plus the constant
//!   element (samplers counted through arrays and struct members); a dynamic array
//!   index becomes `texture_offset`/`sampler_offset` sources.
//! * **Images**: `image_deref_*` intrinsics become the index form (`image_load`,
//!   `image_store`, `image_atomic(_swap)`, `image_size`, `image_samples`) whose
//!   source 0 is the image index: the image variable's `driver_location` plus the
//!   constant element (images counted like samplers), plus any dynamic array index.
//! * Dead IO/uniform derefs are deleted; `info.io_lowered` is set. The variables stay
//!   (the state tracker reads their data).
//!
//! Accesses this pass cannot express are left as they were and keep the IR valid:
//! `copy_deref` of IO (run `lower_var_copies` first), `deref_cast`/wildcard chains,
//! loads of whole aggregates, non-32-bit indices, constant indices whose offsets
//! overflow.

mod compact;
mod explicit;
mod offset;
mod plain;
mod ubo;

pub use compact::compact_len;
pub use explicit::LowerExplicitIo;

use self::offset::{compute_offset, deref_path, emit_offset, Units};
use self::plain::lower_io_access;
use self::ubo::{lower_ubo_load, lower_uniform_load};
use super::lower_system_values::remove_dead_derefs;
use super::{Pass, PassFailure};
use crate::arena::EntityRef;
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::types::MAX_TYPE_NESTING;
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::FxHashMap as HashMap;

/// The pass.
pub struct LowerIo;

impl Pass for LowerIo {
    fn name(&self) -> &'static str {
        "lower_io"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_shader(shader))
    }
}

/// Mesa's `INTERP_MODE_*` number of an interpolation qualifier.
pub fn interp_mode_number(i: Interp) -> u32 {
    match i {
        Interp::None => 0,
        Interp::Smooth => 1,
        Interp::Flat => 2,
        Interp::NoPerspective => 3,
    }
}

/// True for inputs/outputs that are arrays with one element per vertex
/// (`nir_is_arrayed_io`: GS inputs, TCS inputs/outputs, TES inputs).
pub fn is_arrayed_io(stage: Stage, mode: VarMode) -> bool {
    matches!(
        (stage, mode),
        (Stage::Geometry, VarMode::ShaderIn)
            | (Stage::TessCtrl, VarMode::ShaderIn)
            | (Stage::TessCtrl, VarMode::ShaderOut)
            | (Stage::TessEval, VarMode::ShaderIn)
    )
}

/// The type of one vertex's worth of an IO variable.
fn io_type(stage: Stage, var: &Variable) -> Type {
    if is_arrayed_io(stage, var.mode) {
        if let Type::Array(e, _) = &var.ty {
            return (**e).clone();
        }
    }
    var.ty.clone()
}

/// Number of sampler leaves of a type (arrays multiply, structs add up).
pub fn sampler_count(ty: &Type, structs: &[StructDef]) -> Option<u32> {
    opaque_count(ty, structs, false)
}

/// Number of image leaves of a type (image indices it takes, counted like
/// [`sampler_count`]).
pub fn image_count(ty: &Type, structs: &[StructDef]) -> Option<u32> {
    opaque_count(ty, structs, true)
}

fn opaque_count(ty: &Type, structs: &[StructDef], images: bool) -> Option<u32> {
    fn go(ty: &Type, structs: &[StructDef], images: bool, depth: u32) -> Option<u32> {
        if depth > MAX_TYPE_NESTING {
            return None;
        }
        match ty {
            Type::Sampler { .. } => Some(u32::from(!images)),
            Type::Image { .. } => Some(u32::from(images)),
            Type::Array(e, n) => go(e, structs, images, depth + 1)?.checked_mul(*n),
            Type::Struct(id) => structs
                .get(id.index())?
                .fields
                .iter()
                .try_fold(0u32, |a, (_, t)| {
                    a.checked_add(go(t, structs, images, depth + 1)?)
                }),
            _ => Some(0),
        }
    }
    go(ty, structs, images, 0)
}

/// Assigns driver locations to the inputs or outputs like `nir_assign_io_var_locations`
/// unless some variable of the mode already has a non-zero one. Returns the number of
/// vec4 slots used.
pub fn assign_io_locations(shader: &mut Shader, mode: VarMode) -> u32 {
    let stage = shader.stage;
    let mut vars: Vec<VarId> = shader
        .globals
        .iter()
        .copied()
        .filter(|v| shader.variables[*v].mode == mode)
        .collect();
    let size_of =
        |shader: &Shader, v: VarId| io_slots(stage, &shader.variables[v], &shader.structs);
    if vars
        .iter()
        .any(|v| shader.variables[*v].driver_location != 0)
    {
        return vars
            .iter()
            .map(|v| {
                shader.variables[*v]
                    .driver_location
                    .saturating_add(size_of(shader, *v))
            })
            .max()
            .unwrap_or(0);
    }
    // Unassigned locations (-1) sort last, in declaration order.
    vars.sort_by_key(|v| {
        let var = &shader.variables[*v];
        (var.location < 0, var.location, var.location_frac, v.index())
    });
    let mut next = 0u32;
    let mut assigned: HashMap<i64, u32> = HashMap::default();
    for v in vars {
        let size = size_of(shader, v);
        let loc = i64::from(shader.variables[v].location);
        if loc >= 0 {
            if let Some(&first) = assigned.get(&loc) {
                // Packed into a slot handed out already: share it, and allocate any
                // slots of this (longer) variable not covered yet.
                shader.variables[v].driver_location = first;
                for i in 0..i64::from(size.min(4096)) {
                    if let std::collections::hash_map::Entry::Vacant(e) = assigned.entry(loc + i) {
                        e.insert(next);
                        next = next.saturating_add(1);
                    }
                }
                continue;
            }
            for i in 0..i64::from(size.min(4096)) {
                assigned.insert(loc + i, next.saturating_add(i as u32));
            }
        }
        shader.variables[v].driver_location = next;
        next = next.saturating_add(size);
    }
    next
}

/// vec4 slots of one vertex's worth of an IO variable (compact arrays: 4 per slot).
pub fn io_slots(stage: Stage, var: &Variable, structs: &[StructDef]) -> u32 {
    match compact_len(stage, var) {
        Some(n) => n.div_ceil(4),
        None => io_type(stage, var).type_size_vec4(structs).unwrap_or(0),
    }
}

// ------------------------------------------------------------------ the pass

struct Ctx<'a> {
    stage: Stage,
    structs: &'a [StructDef],
    vars: &'a crate::arena::Arena<VarId, Variable>,
}

fn lower_shader(shader: &mut Shader) -> bool {
    let num_in = assign_io_locations(shader, VarMode::ShaderIn);
    let num_out = assign_io_locations(shader, VarMode::ShaderOut);
    let num_uniforms = shader
        .globals
        .iter()
        .map(|v| &shader.variables[*v])
        .filter(|v| v.mode == VarMode::Uniform)
        .map(|v| {
            v.driver_location
                .saturating_add(v.ty.type_size_vec4(&shader.structs).unwrap_or(0))
        })
        .filter(|end| *end > 0)
        .max()
        .unwrap_or(0);
    let mut progress = false;
    let before = (
        shader.info.num_inputs,
        shader.info.num_outputs,
        shader.info.num_uniforms,
        shader.info.io_lowered,
    );
    shader.info.num_inputs = num_in;
    shader.info.num_outputs = num_out;
    shader.info.num_uniforms = num_uniforms;
    shader.info.io_lowered = true;
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    for id in ids {
        let Some(mut body) = shader.functions[id].body.take() else {
            continue;
        };
        let cx = Ctx {
            stage: shader.stage,
            structs: &shader.structs,
            vars: &shader.variables,
        };
        progress |= lower_impl(&cx, &mut body);
        shader.functions[id].body = Some(body);
    }
    progress
        || before
            != (
                shader.info.num_inputs,
                shader.info.num_outputs,
                shader.info.num_uniforms,
                shader.info.io_lowered,
            )
}

const IO_MODES: [VarMode; 4] = [
    VarMode::ShaderIn,
    VarMode::ShaderOut,
    VarMode::Uniform,
    VarMode::Ubo,
];

fn lower_impl(cx: &Ctx, func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut uses = func.build_uses();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let done = match func.instrs[instr].kind.clone() {
                InstrKind::Intrinsic(intr)
                    if matches!(intr.op, IntrinsicOp::load_deref | IntrinsicOp::store_deref) =>
                {
                    lower_access(cx, func, &mut uses, instr, &intr)
                }
                InstrKind::Tex(tex) => lower_tex(cx, func, instr, &tex),
                InstrKind::Intrinsic(intr) if intr.op.image_index_form().is_some() => {
                    lower_image(cx, func, instr, &intr)
                }
                _ => false,
            };
            progress |= done;
        }
    }
    if progress {
        remove_dead_derefs(func, &IO_MODES);
    }
    progress
}

/// Lowers one `load_deref`/`store_deref` of an IO, uniform or UBO variable.
fn lower_access(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
) -> bool {
    let Some(&deref_def) = intr.srcs.first() else {
        return false;
    };
    let mode = match &func.instrs[func.defs[deref_def].instr].kind {
        InstrKind::Deref(d) => d.mode,
        _ => return false,
    };
    if !IO_MODES.contains(&mode) {
        return false;
    }
    let Some((var_id, links)) = deref_path(func, deref_def) else {
        return false;
    };
    let Some(var) = cx.vars.get(var_id) else {
        return false;
    };
    let is_store = intr.op == IntrinsicOp::store_deref;
    match mode {
        VarMode::ShaderIn | VarMode::ShaderOut => {
            lower_io_access(cx, func, uses, instr, intr, var, &links, is_store)
        }
        VarMode::Uniform if !is_store => lower_uniform_load(cx, func, uses, instr, var, &links),
        VarMode::Ubo if !is_store => lower_ubo_load(cx, func, uses, instr, var, &links),
        _ => false,
    }
}

/// Replaces a load's def by `new` (converting 32-bit booleans back to 1-bit) and
/// removes the load.
fn finish_load(
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    old: Def,
    new: Def,
    to_bool: bool,
) {
    // `glsl_to_nir` may already load uniform booleans as 32-bit words (then `ine 0`).
    let to_bool = to_bool && func.defs[old].bit_size == 1;
    let new = if to_bool {
        let comps = func.defs[new].num_components;
        let mut b = Builder::new(func, Cursor::Before(instr));
        b.alu_sized(Opcode::b2b1, [AluSrc::new(new)], false, comps, 1)
    } else {
        new
    };
    func.rewrite_uses(Some(uses), old, new);
    func.remove_instr(instr);
}

/// Replaces the image deref of an `image_deref_*` intrinsic by the image index
/// (Mesa's `gl_nir_lower_images` without bindless): the variable's
/// `driver_location` plus the constant element, plus a dynamic array index
/// computed before the access. The access becomes the index form
/// (`image_load`, ...), keeping the other sources and the indices.
fn lower_image(cx: &Ctx, func: &mut FunctionImpl, instr: Instr, intr: &Intrinsic) -> bool {
    let Some(new_op) = intr.op.image_index_form() else {
        return false;
    };
    let Some(&deref) = intr.srcs.first() else {
        return false;
    };
    let Some((var_id, links)) = deref_path(func, deref) else {
        return false;
    };
    let Some(var) = cx.vars.get(var_id) else {
        return false;
    };
    let Some((off, _)) = compute_offset(func, cx.structs, &var.ty, &links, Units::Images) else {
        return false;
    };
    if off.comp.is_some() {
        return false;
    }
    let Some(base) = var.driver_location.checked_add(off.konst) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let index = emit_offset(&mut b, &off.terms, base);
    let mut new = intr.clone();
    new.op = new_op;
    new.srcs[0] = index;
    func.instrs[instr].kind = InstrKind::Intrinsic(new);
    true
}

/// Replaces sampler/texture derefs of a tex instruction by indices (and offsets).
fn lower_tex(cx: &Ctx, func: &mut FunctionImpl, instr: Instr, tex: &Tex) -> bool {
    let mut new = tex.clone();
    let mut changed = false;
    let mut extra = Vec::new();
    let mut keep = Vec::new();
    for &(kind, src) in &tex.srcs {
        let offset_kind = match kind {
            TexSrcKind::TextureDeref => TexSrcKind::TextureOffset,
            TexSrcKind::SamplerDeref => TexSrcKind::SamplerOffset,
            _ => {
                keep.push((kind, src));
                continue;
            }
        };
        let Some((var_id, links)) = deref_path(func, src) else {
            keep.push((kind, src));
            continue;
        };
        let Some(var) = cx.vars.get(var_id) else {
            keep.push((kind, src));
            continue;
        };
        let Some((off, _)) = compute_offset(func, cx.structs, &var.ty, &links, Units::Samplers)
        else {
            keep.push((kind, src));
            continue;
        };
        if off.comp.is_some() {
            keep.push((kind, src));
            continue;
        }
        let index = var.driver_location.saturating_add(off.konst);
        match kind {
            TexSrcKind::TextureDeref => new.texture_index = index,
            _ => new.sampler_index = index,
        }
        if !off.terms.is_empty() {
            let mut b = Builder::new(func, Cursor::Before(instr));
            let o = emit_offset(&mut b, &off.terms, 0);
            extra.push((offset_kind, o));
        }
        changed = true;
    }
    if !changed {
        return false;
    }
    keep.extend(extra);
    new.srcs = keep;
    func.instrs[instr].kind = InstrKind::Tex(new);
    true
}
