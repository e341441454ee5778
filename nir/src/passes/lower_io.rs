//! `lower_io` (Mesa's `nir_lower_io` in vec4-slot units, `gl_nir_lower_buffers` for
//! UBOs and the sampler part of `gl_nir_lower_samplers`): variable derefs of shader
//! inputs, outputs, default-block uniforms and uniform blocks become explicit IO
//! intrinsics, and sampler derefs in `tex` instructions become texture/sampler indices.
//!
//! * **Driver locations** of inputs and outputs are assigned first, like
//!   `nir_assign_io_var_locations`: variables sorted by location then component, one
//!   vec4 slot per slot of the type (per-vertex arrays counted per vertex); variables
//!   packed into a slot already handed out share it. A mode whose variables already
//!   carry driver locations (any non-zero) keeps them. `info.num_inputs`/`num_outputs`
//!   get the slot counts, `info.num_uniforms` the default-block size in vec4 slots.
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
//! * **Uniforms** → `load_uniform (offset) (base, range, dest_type)`: `base` = the
//!   variable's `driver_location` (vec4 slot, see `rgl-link`'s program conventions) plus
//!   the constant part of the offset, `range` = slots from `base` to the end of the
//!   variable, the offset source holds the indirect part (vec4 slots).
//! * **Uniform blocks** → `load_ubo (block, byte offset)`: the block variable has the
//!   block's struct type (an unnamed block's members are reached with `deref_struct`,
//!   as Mesa's `glsl_to_nir` emits them) or an array of it; its `driver_location` is the
//!   block index (array element `i` is block `driver_location + i`). Offsets follow
//!   std140; the matrix layout comes from the struct fields walked ([`FieldLayout`]:
//!   `row_major`/`column_major` or inherited, column-major at the top of a block). A
//!   row-major `CxR` matrix is `R` row vectors at a 16-byte stride, so column `i`
//!   starts at byte `4 * i` and its components are 16 bytes apart: a column load
//!   (constant or dynamic `i`) becomes one scalar `load_ubo` per row gathered with
//!   `vecN` (as Mesa's UBO lowering does), and an element `m[i][j]` one scalar load
//!   at `4 * i + 16 * j`.
//!   `align_mul`/`align_offset` describe the offset (16 and `offset % 16` for constant
//!   offsets); `range_base` = 0 and `range` = the block's std140 size.
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
//! * Dead IO/uniform derefs are deleted; `info.io_lowered` is set. The variables stay
//!   (the state tracker reads their data).
//!
//! Accesses this pass cannot express are left as they were and keep the IR valid:
//! `copy_deref` of IO (run `lower_var_copies` first), `deref_cast`/wildcard chains,
//! loads of whole aggregates, non-32-bit indices, constant indices whose offsets
//! overflow.

use super::lower_system_values::remove_dead_derefs;
use super::Pass;
use crate::builder::{vec_opcode, Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::names::{alu_type_code, VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CULL_DIST0};
use crate::ir::*;
use crate::opcodes::{AluType, Base, Opcode};
use std::collections::HashMap;

/// The pass.
pub struct LowerIo;

impl Pass for LowerIo {
    fn name(&self) -> &'static str {
        "lower_io"
    }
    fn run(&self, shader: &mut Shader) -> bool {
        lower_shader(shader)
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
    fn go(ty: &Type, structs: &[StructDef], depth: u32) -> Option<u32> {
        if depth > MAX_TYPE_NESTING {
            return None;
        }
        match ty {
            Type::Sampler { .. } => Some(1),
            Type::Array(e, n) => go(e, structs, depth + 1)?.checked_mul(*n),
            Type::Struct(id) => structs
                .get(id.index())?
                .fields
                .iter()
                .try_fold(0u32, |a, (_, t)| a.checked_add(go(t, structs, depth + 1)?)),
            _ => Some(0),
        }
    }
    go(ty, structs, 0)
}

use crate::arena::EntityRef;
use crate::ir::types::MAX_TYPE_NESTING;

// ------------------------------------------------------------------ locations

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
    let mut assigned: HashMap<i64, u32> = HashMap::new();
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

/// `gl_MaxClipDistances` (GL 3.3 minimum, and Mesa's value).
const MAX_CLIP_DISTANCES: u32 = 8;

/// Element count of a compact array (gl_ClipDistance / gl_CullDistance: floats packed
/// four to a slot from `CLIP_DIST0`/`CULL_DIST0`, as Mesa's `compact` variables).
pub fn compact_len(stage: Stage, var: &Variable) -> Option<u32> {
    if !matches!(var.mode, VarMode::ShaderIn | VarMode::ShaderOut)
        || !matches!(
            var.location,
            VARYING_SLOT_CLIP_DIST0 | VARYING_SLOT_CULL_DIST0
        )
    {
        return None;
    }
    match io_type(stage, var) {
        // An unsized array (a geometry shader's `gl_in[].gl_ClipDistance` the linker
        // left unsized) spans the most clip distances GL allows.
        Type::Array(e, 0) if *e == Type::Scalar(BaseType::Float) => Some(MAX_CLIP_DISTANCES),
        Type::Array(e, n) if *e == Type::Scalar(BaseType::Float) => Some(n),
        _ => None,
    }
}

/// vec4 slots of one vertex's worth of an IO variable (compact arrays: 4 per slot).
pub fn io_slots(stage: Stage, var: &Variable, structs: &[StructDef]) -> u32 {
    match compact_len(stage, var) {
        Some(n) => n.div_ceil(4),
        None => io_type(stage, var).type_size_vec4(structs).unwrap_or(0),
    }
}

// ------------------------------------------------------------------ deref paths

/// One step of a deref chain below the variable.
#[derive(Copy, Clone, Debug)]
enum Link {
    Array(Def),
    Struct(u32),
}

/// The variable and the links from it to the leaf deref `d`, root first.
fn deref_path(func: &FunctionImpl, mut d: Def) -> Option<(VarId, Vec<Link>)> {
    let mut links = Vec::new();
    for _ in 0..func.instrs.len() + 1 {
        let InstrKind::Deref(deref) = &func.instrs[func.defs.get(d)?.instr].kind else {
            return None;
        };
        match &deref.kind {
            DerefKind::Var(v) => {
                links.reverse();
                return Some((*v, links));
            }
            DerefKind::Array { parent, index } => {
                links.push(Link::Array(*index));
                d = *parent;
            }
            DerefKind::Struct { parent, field } => {
                links.push(Link::Struct(*field));
                d = *parent;
            }
            DerefKind::ArrayWildcard { .. } | DerefKind::Cast { .. } => return None,
        }
    }
    None
}

/// Units an offset is measured in.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Units {
    Vec4,
    Std140,
    Samplers,
}

/// A vector component chosen by the last link.
#[derive(Copy, Clone, Debug)]
enum Comp {
    Const(u8),
    Dynamic(Def),
}

/// An offset: constant part plus `index * stride` terms, and a component selection.
/// `comp_stride` is the distance between the components of the vector reached, in
/// the offset's units (std140 bytes: 4, or 16 for a column of a row-major matrix;
/// other units: unused, 1).
#[derive(Clone, Debug)]
struct Offset {
    konst: u32,
    terms: Vec<(Def, u32)>,
    comp: Option<Comp>,
    comp_stride: u32,
}

impl Default for Offset {
    fn default() -> Self {
        Offset {
            konst: 0,
            terms: Vec::new(),
            comp: None,
            comp_stride: 1,
        }
    }
}

/// A 32-bit scalar constant as u32, if `d` is one.
fn const_u32(func: &FunctionImpl, d: Def) -> Option<u32> {
    let v = func.const_value(d)?;
    (v.len() == 1).then(|| v[0] as u32)
}

/// Walks `links` from `ty`, returning the offset and the leaf type.
fn compute_offset(
    func: &FunctionImpl,
    structs: &[StructDef],
    ty: &Type,
    links: &[Link],
    units: Units,
) -> Option<(Offset, Type)> {
    let mut off = Offset::default();
    if units == Units::Std140 {
        off.comp_stride = 4;
    }
    let mut ty = ty.clone();
    // Matrix layout in effect (std140 only; the top of a block is column-major).
    let mut row_major = false;
    for link in links {
        if off.comp.is_some() {
            return None;
        }
        match (*link, &ty) {
            (Link::Array(idx), Type::Vector(b, n)) => {
                if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
                    return None;
                }
                off.comp = Some(match const_u32(func, idx) {
                    Some(c) if c < u32::from(*n) => Comp::Const(c as u8),
                    Some(_) => return None,
                    None => Comp::Dynamic(idx),
                });
                ty = Type::Scalar(*b);
            }
            (Link::Array(idx), Type::Array(..) | Type::Matrix { .. }) => {
                if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
                    return None;
                }
                let elem = ty.element()?;
                let stride = match units {
                    Units::Vec4 => elem.type_size_vec4(structs)?,
                    Units::Std140 => ty.std140_array_stride(structs, row_major)?,
                    Units::Samplers => sampler_count(&elem, structs)?,
                };
                if units == Units::Std140 && row_major && matches!(ty, Type::Matrix { .. }) {
                    // A column of a row-major matrix: one component per row vector.
                    off.comp_stride = 16;
                }
                match const_u32(func, idx) {
                    Some(c) => off.konst = off.konst.checked_add(c.checked_mul(stride)?)?,
                    None => off.terms.push((idx, stride)),
                }
                ty = elem;
            }
            (Link::Struct(f), Type::Struct(id)) => {
                let st = structs.get(id.index())?;
                let f = f as usize;
                let field_ty = st.fields.get(f)?.1.clone();
                let add = match units {
                    Units::Vec4 => st.fields[..f]
                        .iter()
                        .try_fold(0u32, |a, (_, t)| a.checked_add(t.type_size_vec4(structs)?))?,
                    Units::Std140 => ty.std140_field_offset(structs, f, row_major)?,
                    Units::Samplers => st.fields[..f]
                        .iter()
                        .try_fold(0u32, |a, (_, t)| a.checked_add(sampler_count(t, structs)?))?,
                };
                off.konst = off.konst.checked_add(add)?;
                row_major = st.field_row_major(f, row_major);
                ty = field_ty;
            }
            _ => return None,
        }
    }
    Some((off, ty))
}

/// Emits the dynamic part of an offset (plus `extra` constant) as a 32-bit value.
fn emit_offset(b: &mut Builder, terms: &[(Def, u32)], konst: u32) -> Def {
    let mut sum: Option<Def> = None;
    for &(idx, stride) in terms {
        let term = if stride == 1 {
            idx
        } else {
            let s = b.imm_i32(stride as i32);
            b.alu_sized(
                Opcode::imul,
                vec![AluSrc::new(idx), AluSrc::new(s)],
                false,
                1,
                32,
            )
        };
        sum = Some(match sum {
            None => term,
            Some(acc) => b.alu_sized(
                Opcode::iadd,
                vec![AluSrc::new(acc), AluSrc::new(term)],
                false,
                1,
                32,
            ),
        });
    }
    match sum {
        None => b.imm_i32(konst as i32),
        Some(s) if konst == 0 => s,
        Some(s) => {
            let k = b.imm_i32(konst as i32);
            b.alu_sized(
                Opcode::iadd,
                vec![AluSrc::new(s), AluSrc::new(k)],
                false,
                1,
                32,
            )
        }
    }
}

/// The ALU type code of values of `ty` (bool → bool32, as stored).
fn type_code(ty: &Type) -> Option<u32> {
    let base = match ty {
        Type::Scalar(b) | Type::Vector(b, _) => *b,
        _ => return None,
    };
    let base = match base {
        BaseType::Float => Base::Float,
        BaseType::Int => Base::Int,
        BaseType::Uint => Base::Uint,
        BaseType::Bool => Base::Bool,
    };
    Some(alu_type_code(AluType { base, bits: 32 }))
}

fn is_bool(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Scalar(BaseType::Bool) | Type::Vector(BaseType::Bool, _)
    )
}

/// Picks component `sel` of the value `v`.
fn pick_component(b: &mut Builder, v: Def, sel: Comp) -> Def {
    match sel {
        Comp::Const(c) => b.channel(v, c),
        Comp::Dynamic(idx) => b.vector_extract(v, idx),
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
        b.alu_sized(Opcode::b2b1, vec![AluSrc::new(new)], false, comps, 1)
    } else {
        new
    };
    func.rewrite_uses(Some(uses), old, new);
    func.remove_instr(instr);
}

#[allow(clippy::too_many_arguments)]
fn lower_io_access(
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
            b.alu_sized(Opcode::b2b32, vec![AluSrc::new(value)], false, n, 32)
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
struct IoIndices {
    base: u32,
    range: u32,
    component: u32,
    code: u32,
    io_sem: u32,
}

/// Emits the load of `n` components of an input or output (the intrinsic chosen by
/// stage, mode, per-vertex indexing and interpolation).
#[allow(clippy::too_many_arguments)]
fn emit_io_load(
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

fn lower_uniform_load(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    var: &Variable,
    links: &[Link],
) -> bool {
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let Some(var_slots) = var.ty.type_size_vec4(cx.structs) else {
        return false;
    };
    let Some((off, leaf)) = compute_offset(func, cx.structs, &var.ty, links, Units::Vec4) else {
        return false;
    };
    let (Some(code), Some(leaf_comps)) = (type_code(&leaf), leaf.vector_components()) else {
        return false;
    };
    let vec_comps = match off.comp {
        Some(_) => links
            .len()
            .checked_sub(1)
            .and_then(|n| compute_offset(func, cx.structs, &var.ty, &links[..n], Units::Vec4))
            .and_then(|(_, t)| t.vector_components())
            .unwrap_or(1),
        None => leaf_comps,
    };
    let base = var.driver_location.saturating_add(off.konst);
    let range = var_slots.saturating_sub(off.konst);
    let mut b = Builder::new(func, Cursor::Before(instr));
    let offset = emit_offset(&mut b, &off.terms, 0);
    let Some(mut loaded) = b.intrinsic(
        IntrinsicOp::load_uniform,
        vec![offset],
        vec_comps,
        vec![base, range, code],
        Some((vec_comps, 32)),
    ) else {
        return false;
    };
    if let Some(sel) = off.comp {
        loaded = pick_component(&mut b, loaded, sel);
    }
    finish_load(func, uses, instr, old, loaded, is_bool(&leaf));
    true
}

fn lower_ubo_load(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    var: &Variable,
    links: &[Link],
) -> bool {
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    // Block arrays: the first index picks the block.
    let (block, links, block_ty) = match (&var.ty, links.first()) {
        (Type::Array(e, _), Some(Link::Array(idx))) => (Some(*idx), &links[1..], (**e).clone()),
        (Type::Array(..), _) => return false,
        _ => (None, links, var.ty.clone()),
    };
    let Some((_, block_size)) = block_ty.std140_align_size(cx.structs, false) else {
        return false;
    };
    let Some((off, leaf)) = compute_offset(func, cx.structs, &block_ty, links, Units::Std140)
    else {
        return false;
    };
    let (Some(_), Some(comps)) = (type_code(&leaf), leaf.vector_components()) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let block_index = match block {
        None => b.imm_i32(var.driver_location as i32),
        Some(idx) => match const_u32(b.func, idx) {
            Some(c) => b.imm_i32(var.driver_location.saturating_add(c) as i32),
            None if b.func.defs[idx].bit_size == 32 && b.func.defs[idx].num_components == 1 => {
                if var.driver_location == 0 {
                    idx
                } else {
                    let k = b.imm_i32(var.driver_location as i32);
                    b.alu_sized(
                        Opcode::iadd,
                        vec![AluSrc::new(idx), AluSrc::new(k)],
                        false,
                        1,
                        32,
                    )
                }
            }
            None => return false,
        },
    };
    let mut terms = off.terms.clone();
    let mut konst = off.konst;
    match off.comp {
        Some(Comp::Const(c)) => {
            konst = konst.saturating_add(off.comp_stride.saturating_mul(u32::from(c)))
        }
        Some(Comp::Dynamic(idx)) => terms.push((idx, off.comp_stride)),
        None => {}
    }
    let loaded = if comps > 1 && off.comp_stride != 4 {
        // The components are not adjacent (a column of a row-major matrix): one scalar
        // load per component, gathered with `vecN`.
        let Some(op) = vec_opcode(comps) else {
            return false;
        };
        let mut parts = Vec::with_capacity(usize::from(comps));
        for i in 0..u32::from(comps) {
            let k = konst.saturating_add(off.comp_stride.saturating_mul(i));
            let Some(part) = emit_ubo_load(&mut b, block_index, &terms, k, 1, block_size) else {
                return false;
            };
            parts.push(AluSrc::new(part));
        }
        b.alu_sized(op, parts, false, comps, 32)
    } else {
        match emit_ubo_load(&mut b, block_index, &terms, konst, comps, block_size) {
            Some(l) => l,
            None => return false,
        }
    };
    finish_load(func, uses, instr, old, loaded, is_bool(&leaf));
    true
}

/// Emits one `load_ubo` of `comps` 32-bit components at byte offset `konst` plus the
/// `terms`, with the alignment the offset guarantees.
fn emit_ubo_load(
    b: &mut Builder,
    block_index: Def,
    terms: &[(Def, u32)],
    konst: u32,
    comps: u8,
    block_size: u32,
) -> Option<Def> {
    // Alignment: the largest power of two (≤ 16) dividing every stride.
    let align_mul = terms
        .iter()
        .map(|(_, s)| {
            if *s == 0 {
                16
            } else {
                1u32 << s.trailing_zeros().min(4)
            }
        })
        .min()
        .unwrap_or(16)
        .max(4);
    let align_offset = konst % align_mul;
    let offset = emit_offset(b, terms, konst);
    b.intrinsic(
        IntrinsicOp::load_ubo,
        vec![block_index, offset],
        comps,
        vec![0, align_mul, align_offset, 0, block_size],
        Some((comps, 32)),
    )
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

/// Lowers an element access of a compact array (gl_ClipDistance[i]): element `k` lives
/// in slot `k / 4`, component `k % 4`. A dynamic index reads every slot and selects
/// with `bcsel`; a dynamic store reads each slot back, blends and stores it whole.
#[allow(clippy::too_many_arguments)]
fn lower_compact_access(
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
    var: &Variable,
    vertex: Option<Def>,
    links: &[Link],
    is_store: bool,
    len: u32,
    cx: &Ctx,
) -> bool {
    let [Link::Array(idx)] = links else {
        return false;
    };
    let idx = *idx;
    if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
        return false;
    }
    let code = alu_type_code(AluType {
        base: Base::Float,
        bits: 32,
    });
    let frac = u32::from(var.location_frac);
    let slot_io = |s: u32| IoIndices {
        base: var.driver_location.saturating_add(s),
        range: 1,
        component: frac,
        code,
        io_sem: ((var.location as u32).saturating_add(s) & 0xffff) | (1 << 16),
    };
    let nslots = len.div_ceil(4).min(64);
    let slot_comps = |s: u32| (len - 4 * s).min(4) as u8;
    let konst = const_u32(func, idx);
    if konst.is_some_and(|k| k >= len) {
        return false;
    }
    let mut b = Builder::new(func, Cursor::Before(instr));
    let zero = b.imm_i32(0);
    if is_store {
        let (Some(&value), Some(&wrmask)) = (intr.srcs.get(1), intr.indices.first()) else {
            return false;
        };
        if wrmask & 1 == 0 {
            func.remove_instr(instr);
            return true;
        }
        match konst {
            Some(k) => {
                let mut io = slot_io(k / 4);
                io.component = frac + k % 4;
                b.intrinsic(
                    IntrinsicOp::store_output,
                    vec![value, zero],
                    1,
                    vec![io.base, 1, 1, io.component, code, io.io_sem],
                    None,
                );
            }
            None => {
                for s in 0..nslots {
                    let n = slot_comps(s);
                    let io = slot_io(s);
                    let Some(old) = emit_io_load(&mut b, cx.stage, var, vertex, zero, n, io, true)
                    else {
                        return false;
                    };
                    let v = b.vector_insert(old, value, idx, 4 * s);
                    b.intrinsic(
                        IntrinsicOp::store_output,
                        vec![v, zero],
                        n,
                        vec![io.base, 1, (1u32 << n) - 1, io.component, code, io.io_sem],
                        None,
                    );
                }
            }
        }
        func.remove_instr(instr);
        return true;
    }
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let value = match konst {
        Some(k) => {
            let mut io = slot_io(k / 4);
            io.component = frac + k % 4;
            emit_io_load(&mut b, cx.stage, var, vertex, zero, 1, io, true)
        }
        None => {
            let mut acc: Option<Def> = None;
            for s in 0..nslots {
                let n = slot_comps(s);
                let Some(v) =
                    emit_io_load(&mut b, cx.stage, var, vertex, zero, n, slot_io(s), true)
                else {
                    return false;
                };
                acc = Some(b.vector_extract_from(acc, v, idx, 4 * s));
            }
            acc
        }
    };
    let Some(value) = value else {
        return false;
    };
    finish_load(func, uses, instr, old, value, false);
    true
}
