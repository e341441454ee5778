//! Uniforms (Mesa's `cross_validate_uniforms`, `link_assign_uniform_locations`,
//! std140 blocks):
//! default-block uniforms read by some stage are flattened into the active-uniform
//! list with GL names (`a[0]`, `s.f`, `s[1].f`), given vec4 storage slots, sampler
//! indices and API locations (explicit `layout(location)` reserved first); uniform
//! blocks get std140 offsets, strides and sizes, with `Block.member` names. Every
//! declaration of a placed uniform, in every stage, gets its
//! [`VarLink::driver_location`]. Flattening and layout walk types with explicit
//! stacks, after the size limits have been checked, so hostile types cost no
//! recursion and bounded memory.

use rustc_hash::FxHashMap as HashMap;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{BlockPacking, Constant, MatrixLayout, Module, VarMode, Variable};
use rgl_glsl::types::{StructArena, Type};
use rgl_glsl::Version;

use super::merge::cross_validate;
use super::types::{round_up, without_array, StructSizes};
use super::usage::globals;
use super::StageState;
use crate::error::LinkError;
use crate::program::{ActiveUniform, LinkedProgram, UniformBlock, VarLink};

use rgl_glsl::builtins::variables::limits as fe;

/// `MAX_{VERTEX,GEOMETRY,FRAGMENT,COMPUTE}_UNIFORM_COMPONENTS`: the values the front end
/// reports through `gl_Max*UniformComponents`, so shaders sized from them link.
pub fn max_uniform_components(stage: rgl_glsl::Stage) -> u64 {
    let n = match stage {
        rgl_glsl::Stage::Vertex => fe::MAX_VERTEX_UNIFORM_COMPONENTS,
        rgl_glsl::Stage::Geometry => fe::MAX_GEOMETRY_UNIFORM_COMPONENTS,
        rgl_glsl::Stage::Fragment => fe::MAX_FRAGMENT_UNIFORM_COMPONENTS,
        rgl_glsl::Stage::Compute => fe::MAX_COMPUTE_UNIFORM_COMPONENTS,
    };
    n.max(0) as u64
}
/// `MAX_*_TEXTURE_IMAGE_UNITS` per stage (16 in every stage).
pub const MAX_TEXTURE_IMAGE_UNITS: u64 = fe::MAX_TEXTURE_IMAGE_UNITS as u64;
/// `MAX_COMBINED_TEXTURE_IMAGE_UNITS`.
pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: u64 = fe::MAX_COMBINED_TEXTURE_IMAGE_UNITS as u64;
/// GL_MAX_IMAGE_UNITS (GL 4.2 §8.26; llvmpipe's 8 is above the GL 4.2 minimum).
pub const MAX_IMAGE_UNITS: u32 = 8;
/// GL_MAX_{VERTEX,GEOMETRY,FRAGMENT,COMPUTE}_IMAGE_UNIFORMS: image uniforms one
/// stage may use (GL 4.2 table 23.61; `gl_MaxComputeImageUniforms`).
pub const MAX_STAGE_IMAGE_UNIFORMS: u64 = fe::MAX_COMPUTE_IMAGE_UNIFORMS as u64;
/// GL_MAX_COMBINED_IMAGE_UNIFORMS: image uniforms of all stages together.
pub const MAX_COMBINED_IMAGE_UNIFORMS: u64 = 48;
/// `MAX_*_UNIFORM_BLOCKS` per stage.
pub const MAX_UNIFORM_BLOCKS: u32 = 12;
/// `MAX_COMBINED_UNIFORM_BLOCKS`.
pub const MAX_COMBINED_UNIFORM_BLOCKS: u32 = 36;
/// `MAX_UNIFORM_BLOCK_SIZE` in bytes.
pub const MAX_UNIFORM_BLOCK_SIZE: u64 = 16384;
/// `MAX_UNIFORM_LOCATIONS`.
pub const MAX_UNIFORM_LOCATIONS: u32 = 4096;

fn stage_bit(st: &StageState) -> u32 {
    1 << st.linked.stage as u32
}

/// A block as first declared: (stage, block type, instance dimensions,
/// binding).
type SeenBlock = (usize, Type, Option<Vec<u32>>, Option<i32>);

/// Uniforms with one name in several stages must agree (Mesa's
/// `cross_validate_globals` restricted to uniforms); so must uniform blocks and
/// shader storage blocks.
pub(crate) fn cross_validate_uniforms(
    stages: &[StageState],
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) {
    let mut seen: HashMap<String, (usize, Handle<Variable>)> = HashMap::default();
    let mut blocks: HashMap<String, SeenBlock> = HashMap::default();
    for (i, st) in stages.iter().enumerate() {
        let m = &st.linked.hir;
        for v in globals(m) {
            let var = &m.variables[v];
            if var.mode != VarMode::Uniform && var.mode != VarMode::ShaderStorage {
                continue;
            }
            if let Some(b) = var.interface_block {
                let Some(body) = m.structs.get(b) else {
                    continue;
                };
                // Shader storage blocks match by name among themselves, as
                // uniform blocks do (GL 4.3 §7.4.2 / Mesa's
                // `validate_intrastage_interface_blocks` per interface mode).
                let key = if var.mode == VarMode::ShaderStorage {
                    format!("buffer {}", body.name)
                } else {
                    body.name.clone()
                };
                let is_instance = matches!(without_array(&var.ty), Type::Struct(h) if *h == b);
                let len = if is_instance {
                    Some(instance_dims(&var.ty)).filter(|d| !d.is_empty())
                } else {
                    None
                };
                match blocks.get(&key) {
                    // The binding is part of the block's declaration: two
                    // stages naming one block with different `binding`s fail
                    // (GL 4.20 §2.11.7 "declared identically"; Mesa's
                    // `link_uniform_blocks_are_compatible` compares Binding).
                    Some((j, ty, plen, pbinding)) => {
                        let other = &stages[*j].linked.hir;
                        if *j != i
                            && (*plen != len
                                || *pbinding != var.binding
                                || !super::types::types_match(
                                    ty,
                                    &other.structs,
                                    &Type::Struct(b),
                                    &m.structs,
                                ))
                        {
                            errors.push(LinkError::InterfaceBlockMismatch(body.name.clone()));
                        }
                    }
                    None => {
                        blocks.insert(key, (i, Type::Struct(b), len, var.binding));
                    }
                }
                continue;
            }
            if var.mode != VarMode::Uniform {
                continue;
            }
            match seen.get(&var.name) {
                Some((j, h)) => {
                    let other = &stages[*j].linked.hir;
                    cross_validate(
                        &other.variables[*h],
                        &other.structs,
                        var,
                        &m.structs,
                        version,
                        errors,
                        warnings,
                    );
                }
                None => {
                    seen.insert(var.name.clone(), (i, v));
                }
            }
        }
    }
}

/// One default-block uniform across stages.
struct Group {
    name: String,
    ty: Type,
    /// Stage index and handle of every declaration.
    decls: Vec<(usize, Handle<Variable>)>,
    stages: u32,
    location: Option<i32>,
    builtin: bool,
    /// A subroutine uniform's selection storage (`Variable::subroutine_storage`).
    subroutine: bool,
    initializer: Option<Constant>,
}

/// Builds the uniform list, storage slots, sampler indices, locations and blocks.
pub(crate) fn link_uniforms(
    stages: &mut [StageState],
    program: &mut LinkedProgram,
    errors: &mut Vec<LinkError>,
) {
    let sizes: Vec<StructSizes> = stages
        .iter()
        .map(|s| StructSizes::new(&s.linked.hir.structs))
        .collect();
    // Group active default-block uniforms by name, in first-declaration order.
    let mut groups: Vec<Group> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::default();
    for (i, st) in stages.iter().enumerate() {
        let m = &st.linked.hir;
        for v in globals(m) {
            let var = &m.variables[v];
            if var.mode != VarMode::Uniform || var.interface_block.is_some() {
                continue;
            }
            // Atomic counters take no default-block storage and no location
            // (GL 4.2 §7.7); `LinkedProgram::atomic_counter_buffers` lists them.
            if var.ty.contains_atomic(&m.structs) {
                continue;
            }
            let read = st.usage.read.contains(&v);
            let g = match by_name.get(&var.name) {
                Some(&g) => g,
                None => {
                    by_name.insert(var.name.clone(), groups.len());
                    groups.push(Group {
                        name: var.name.clone(),
                        ty: var.ty.clone(),
                        decls: Vec::new(),
                        stages: 0,
                        location: None,
                        builtin: var.is_builtin,
                        subroutine: var.subroutine_storage,
                        initializer: None,
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[g];
            group.decls.push((i, v));
            if read {
                group.stages |= stage_bit(st);
            }
            if !var.is_builtin && group.location.is_none() {
                group.location = var.location;
            }
            if group.initializer.is_none() {
                group.initializer = var.constant_initializer.clone();
            }
        }
    }
    // Dead uniforms (read by no stage) leave the program, as in Mesa: their
    // declarations are dropped from every stage's item list. An explicit
    // location still holds its range (ARB_explicit_uniform_location: "No two
    // default-block uniform variables in the program can have the same
    // location, even if they are unused").
    let mut reserved: Vec<(String, u32, u32)> = Vec::new();
    for g in groups.iter().filter(|g| g.stages == 0 && !g.builtin) {
        let Some(l) = g.location.filter(|l| *l >= 0) else {
            continue;
        };
        let first = g.decls[0].0;
        let count = flatten(
            &g.name,
            &g.ty,
            &stages[first].linked.hir.structs,
            &sizes[first],
            None,
        )
        .iter()
        .map(|leaf| leaf.array_size.max(1))
        .fold(0u32, u32::saturating_add);
        reserved.push((g.name.clone(), l as u32, count));
    }
    for g in groups.iter().filter(|g| g.stages == 0) {
        for &(i, v) in &g.decls {
            stages[i]
                .linked
                .hir
                .items
                .retain(|item| *item != rgl_glsl::hir::Item::Variable(v));
        }
    }
    groups.retain(|g| g.stages != 0);

    // Per-stage limits, before anything is flattened.
    let mut limit_failed = false;
    let mut combined_samplers = 0u64;
    let mut combined_images = 0u64;
    for (i, st) in stages.iter().enumerate() {
        let mut slots = 0u64;
        let mut samplers = 0u64;
        let mut images = 0u64;
        for g in &groups {
            if g.stages & stage_bit(st) != 0 {
                let first = g.decls[0].0;
                // Subroutine selections have their own limit
                // (GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS, checked by the
                // compiler), as in Mesa's `count_uniform_size`.
                if !g.subroutine {
                    slots = slots.saturating_add(sizes[first].uniform_slots_of(&g.ty));
                }
                samplers = samplers.saturating_add(sizes[first].samplers_of(&g.ty));
                images = images.saturating_add(sizes[first].images_of(&g.ty));
            }
        }
        if images > MAX_STAGE_IMAGE_UNIFORMS {
            errors.push(LinkError::TooManyImageUniforms(
                st.linked.stage.name(),
                images.min(u32::MAX as u64) as u32,
                MAX_STAGE_IMAGE_UNIFORMS as u32,
            ));
            limit_failed = true;
        }
        combined_images = combined_images.saturating_add(images);
        let _ = i;
        let stage = st.linked.stage.name();
        if slots.saturating_mul(4) > max_uniform_components(st.linked.stage) {
            errors.push(LinkError::TooManyDefaultUniformComponents(stage));
            limit_failed = true;
        }
        if samplers > MAX_TEXTURE_IMAGE_UNITS {
            errors.push(LinkError::TooManySamplers(stage));
            limit_failed = true;
        }
        combined_samplers = combined_samplers.saturating_add(samplers);
    }
    if combined_samplers > MAX_COMBINED_TEXTURE_IMAGE_UNITS {
        errors.push(LinkError::TooManyCombinedSamplers(
            combined_samplers.min(u32::MAX as u64) as u32,
            MAX_COMBINED_TEXTURE_IMAGE_UNITS as u32,
        ));
        limit_failed = true;
    }
    if combined_images > MAX_COMBINED_IMAGE_UNIFORMS {
        errors.push(LinkError::TooManyCombinedImageUniforms(
            combined_images.min(u32::MAX as u64) as u32,
            MAX_COMBINED_IMAGE_UNIFORMS as u32,
        ));
        limit_failed = true;
    }
    let blocks = collect_blocks(stages, &sizes, errors, &mut limit_failed);
    if limit_failed {
        return;
    }

    // Default block: slots, samplers, leaves.
    let mut next_slot = 0u32;
    let mut next_sampler = 0u32;
    let mut next_image = 0u32;
    let mut leaves_of: Vec<Vec<usize>> = Vec::new();
    for g in &groups {
        let first = g.decls[0].0;
        let sz = &sizes[first];
        let structs = &stages[first].linked.hir.structs;
        let slot = next_slot;
        let sampler = next_sampler;
        let image = next_image;
        next_slot += sz.uniform_slots_of(&g.ty) as u32;
        next_sampler += sz.samplers_of(&g.ty) as u32;
        next_image += sz.images_of(&g.ty) as u32;
        let only_samplers = sz.uniform_slots_of(&g.ty) == 0 && sz.samplers_of(&g.ty) > 0;
        let only_images = sz.uniform_slots_of(&g.ty) == 0 && sz.images_of(&g.ty) > 0;
        let driver_location = if only_samplers {
            sampler
        } else if only_images {
            image
        } else {
            slot
        };
        for &(i, v) in &g.decls {
            stages[i].linked.vars.insert(
                v,
                VarLink {
                    location: -1,
                    driver_location,
                    ..VarLink::default()
                },
            );
        }
        let mut idx = Vec::new();
        if g.subroutine {
            // One `uint` per element, one slot each (not an active uniform).
            program.subroutine_slots.push((g.name.clone(), slot));
            leaves_of.push(idx);
            continue;
        }
        for leaf in flatten(&g.name, &g.ty, structs, sz, g.initializer.as_ref()) {
            idx.push(program.uniforms.len());
            program.uniforms.push(ActiveUniform {
                name: leaf.name,
                ty: leaf.ty.clone(),
                array_size: leaf.array_size,
                location: -1,
                slot: slot + leaf.slot as u32,
                sampler_index: if leaf.ty.is_image() {
                    Some(image + leaf.image as u32)
                } else {
                    leaf.ty
                        .is_sampler()
                        .then_some(sampler + leaf.sampler as u32)
                },
                block: None,
                offset: -1,
                array_stride: -1,
                matrix_stride: -1,
                row_major: false,
                stages: g.stages,
                initializer: leaf.initializer,
            });
        }
        leaves_of.push(idx);
    }
    program.uniform_slots = next_slot;
    program.num_samplers = next_sampler;

    // API locations: explicit ones first, then first free ranges in order.
    let mut taken: Vec<Option<usize>> = Vec::new();
    for (name, l, count) in reserved {
        let end = u64::from(l) + u64::from(count);
        if end > MAX_UNIFORM_LOCATIONS as u64 {
            errors.push(LinkError::TooManyUniformLocations(
                end.min(u32::MAX as u64) as u32,
                MAX_UNIFORM_LOCATIONS,
            ));
            continue;
        }
        let range = l as usize..end as usize;
        if taken.len() < range.end {
            taken.resize(range.end, None);
        }
        if taken[range.clone()].iter().any(|t| t.is_some()) {
            errors.push(LinkError::UniformLocationOverlap(name));
            continue;
        }
        // Held by no live group: `usize::MAX` only marks the range taken.
        taken[range].fill(Some(usize::MAX));
    }
    let mut pending = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        if g.builtin || g.name.starts_with("gl_") || g.subroutine {
            continue;
        }
        let count: u32 = leaves_of[gi]
            .iter()
            .map(|&u| program.uniforms[u].array_size)
            .sum();
        match g.location {
            Some(l) if l >= 0 => {
                let end = l as u64 + count as u64;
                if end > MAX_UNIFORM_LOCATIONS as u64 {
                    errors.push(LinkError::TooManyUniformLocations(
                        end.min(u32::MAX as u64) as u32,
                        MAX_UNIFORM_LOCATIONS,
                    ));
                    continue;
                }
                if taken.len() < end as usize {
                    taken.resize(end as usize, None);
                }
                if taken[l as usize..end as usize].iter().any(|t| t.is_some()) {
                    errors.push(LinkError::UniformLocationOverlap(g.name.clone()));
                    continue;
                }
                for t in &mut taken[l as usize..end as usize] {
                    *t = Some(gi);
                }
                set_locations(program, &leaves_of[gi], l as u32);
            }
            _ => pending.push((gi, count)),
        }
    }
    for (gi, count) in pending {
        let mut start = 0usize;
        loop {
            let end = start + count as usize;
            if end > taken.len() {
                taken.resize(end, None);
            }
            match taken[start..end].iter().rposition(|t| t.is_some()) {
                Some(p) => start += p + 1,
                None => break,
            }
        }
        let end = start + count as usize;
        for t in &mut taken[start..end] {
            *t = Some(gi);
        }
        set_locations(program, &leaves_of[gi], start as u32);
    }
    if taken.len() > MAX_UNIFORM_LOCATIONS as usize {
        errors.push(LinkError::TooManyUniformLocations(
            taken.len().min(u32::MAX as usize) as u32,
            MAX_UNIFORM_LOCATIONS,
        ));
    }

    // Uniform blocks.
    for b in blocks {
        let first = b.decls[0].0;
        let m = &stages[first].linked.hir;
        let sz = &sizes[first];
        let copies = b.array_len.unwrap_or(1).max(1);
        let base_index = program.uniform_blocks.len() as u32;
        for (i, v) in &b.decls {
            stages[*i].linked.vars.insert(
                *v,
                VarLink {
                    location: -1,
                    driver_location: base_index,
                    ..VarLink::default()
                },
            );
        }
        let leaves = block_leaves(m, &b, sz);
        for c in 0..copies {
            let index = program.uniform_blocks.len() as u32;
            let mut members = Vec::new();
            for leaf in &leaves {
                members.push(program.uniforms.len() as u32);
                let mut u = leaf.clone();
                u.block = Some(index);
                u.stages = b.stages;
                program.uniforms.push(u);
            }
            program.uniform_blocks.push(UniformBlock {
                name: format!("{}{}", b.name, element_suffix(&b.dims, c)),
                binding: b.binding.saturating_add(c),
                data_size: b.size as u32,
                members,
                stages: b.stages,
            });
        }
    }
}

fn set_locations(program: &mut LinkedProgram, leaves: &[usize], mut loc: u32) {
    for &u in leaves {
        program.uniforms[u].location = loc as i32;
        loc += program.uniforms[u].array_size;
    }
}

/// One leaf of a flattened uniform.
struct Leaf {
    name: String,
    ty: Type,
    array_size: u32,
    /// vec4 slot offset from the variable's first slot.
    slot: u64,
    /// Sampler offset from the variable's first sampler index.
    sampler: u64,
    /// Image offset from the variable's first image index.
    image: u64,
    initializer: Option<Constant>,
}

/// The dimensions of a block instance array, outermost first; an unsized one
/// counts as 1 (the front end sizes it by its largest index).
pub(super) fn instance_dims(ty: &Type) -> Vec<u32> {
    let mut dims = Vec::new();
    let mut t = ty;
    while let Type::Array(e, n) = t {
        dims.push(n.unwrap_or(1));
        t = e;
    }
    dims
}

/// The subscripts naming block `c` of an instance array with `dims`, in
/// row-major order (GL 4.3 §7.3.1.1: `B[1][0]`); empty for a single block.
pub(super) fn element_suffix(dims: &[u32], mut c: u32) -> String {
    let mut parts = vec![0; dims.len()];
    for (part, d) in parts.iter_mut().zip(dims).rev() {
        let d = (*d).max(1);
        *part = c % d;
        c /= d;
    }
    parts.iter().map(|p| format!("[{p}]")).collect()
}

/// Whether an array whose elements are `elem` is listed element by element
/// (its elements are structs, arrays of structs or arrays) rather than as one
/// active uniform of basic type.
fn opened(elem: &Type) -> bool {
    matches!(elem, Type::Array(..)) || matches!(without_array(elem), Type::Struct(_))
}

/// Default-block leaves of a uniform: basic types and arrays of them are leaves,
/// structs, arrays of structs and arrays of arrays are opened. Iterative.
fn flatten(
    name: &str,
    ty: &Type,
    structs: &StructArena,
    sz: &StructSizes,
    init: Option<&Constant>,
) -> Vec<Leaf> {
    let mut out = Vec::new();
    // (name, type, slot, (sampler, image), initializer)
    type Work = (String, Type, u64, (u64, u64), Option<Constant>);
    let mut work: Vec<Work> = vec![(name.to_string(), ty.clone(), 0, (0, 0), init.cloned())];
    while let Some((name, ty, slot, (sampler, image), init)) = work.pop() {
        match &ty {
            Type::Struct(h) => {
                let Some(body) = structs.get(*h) else {
                    continue;
                };
                let mut items = Vec::new();
                let (mut s, mut p, mut q) = (slot, sampler, image);
                for (i, f) in body.fields.iter().enumerate() {
                    let sub = match &init {
                        Some(Constant::Aggregate(parts)) => parts.get(i).cloned(),
                        _ => None,
                    };
                    items.push((format!("{name}.{}", f.name), f.ty.clone(), s, (p, q), sub));
                    s += sz.uniform_slots_of(&f.ty);
                    p += sz.samplers_of(&f.ty);
                    q += sz.images_of(&f.ty);
                }
                work.extend(items.into_iter().rev());
            }
            // Arrays of structs, and arrays of arrays (GL 4.3 §7.3.1.1: every
            // innermost array of basic types is one active uniform,
            // `u[1][0]`), are opened one dimension at a time.
            Type::Array(elem, len) if opened(elem) => {
                let n = len.unwrap_or(0) as u64;
                let (es, ep) = (sz.uniform_slots_of(elem), sz.samplers_of(elem));
                let eq = sz.images_of(elem);
                let mut items = Vec::new();
                for i in 0..n {
                    let sub = match &init {
                        Some(Constant::Aggregate(parts)) => parts.get(i as usize).cloned(),
                        _ => None,
                    };
                    items.push((
                        format!("{name}[{i}]"),
                        (**elem).clone(),
                        slot + i * es,
                        (sampler + i * ep, image + i * eq),
                        sub,
                    ));
                }
                work.extend(items.into_iter().rev());
            }
            Type::Array(elem, len) => out.push(Leaf {
                name: format!("{name}[0]"),
                ty: (**elem).clone(),
                array_size: len.unwrap_or(0),
                slot,
                sampler,
                image,
                initializer: init,
            }),
            _ => out.push(Leaf {
                name,
                ty: ty.clone(),
                array_size: 1,
                slot,
                sampler,
                image,
                initializer: init,
            }),
        }
    }
    out
}

/// One uniform block across stages.
struct Block {
    name: String,
    /// The block type in the first declaring stage.
    block_ty: Handle<rgl_glsl::types::StructType>,
    instance: Option<String>,
    /// Blocks in the instance array: the product of `dims`.
    array_len: Option<u32>,
    /// The instance array's dimensions, outermost first (`B b[4][2]`: 4, 2).
    dims: Vec<u32>,
    packing: BlockPacking,
    matrix_layout: MatrixLayout,
    binding: u32,
    size: u64,
    decls: Vec<(usize, Handle<Variable>)>,
    stages: u32,
}

fn collect_blocks(
    stages: &[StageState],
    sizes: &[StructSizes],
    errors: &mut Vec<LinkError>,
    failed: &mut bool,
) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::default();
    for (i, st) in stages.iter().enumerate() {
        let m = &st.linked.hir;
        let mut stage_count: u64 = 0;
        let mut stage_names: std::collections::HashSet<String> = Default::default();
        for v in globals(m) {
            let var = &m.variables[v];
            let (VarMode::Uniform, Some(b)) = (var.mode, var.interface_block) else {
                continue;
            };
            let Some(body) = m.structs.get(b) else {
                continue;
            };
            let bi = match by_name.get(&body.name) {
                Some(&bi) => bi,
                None => {
                    let is_instance = matches!(without_array(&var.ty), Type::Struct(h) if *h == b);
                    let dims = if is_instance {
                        instance_dims(&var.ty)
                    } else {
                        Vec::new()
                    };
                    let array_len = (!dims.is_empty())
                        .then(|| dims.iter().fold(1u32, |n, d| n.saturating_mul(*d)));
                    let row_major = var.matrix_layout == MatrixLayout::RowMajor;
                    let size = block_size(body, row_major, &sizes[i]);
                    by_name.insert(body.name.clone(), blocks.len());
                    blocks.push(Block {
                        name: body.name.clone(),
                        block_ty: b,
                        instance: is_instance.then(|| var.name.clone()),
                        array_len,
                        dims,
                        packing: var.block_packing,
                        matrix_layout: var.matrix_layout,
                        binding: var.binding.unwrap_or(0).max(0) as u32,
                        size,
                        decls: Vec::new(),
                        stages: 0,
                    });
                    blocks.len() - 1
                }
            };
            let block = &mut blocks[bi];
            if stage_names.insert(body.name.clone()) {
                stage_count += block.array_len.unwrap_or(1) as u64;
            }
            block.stages |= stage_bit(st);
            block.decls.push((i, v));
        }
        if stage_count > MAX_UNIFORM_BLOCKS as u64 {
            errors.push(LinkError::TooManyUniformBlocks(
                st.linked.stage.name(),
                stage_count.min(u32::MAX as u64) as u32,
                MAX_UNIFORM_BLOCKS,
            ));
            *failed = true;
        }
    }
    // Packed blocks nobody reads are inactive (std140/shared ones stay).
    blocks.retain(|b| {
        b.packing != BlockPacking::Packed
            || b.decls
                .iter()
                .any(|(i, v)| stages[*i].usage.read.contains(v))
    });
    let combined: u64 = blocks
        .iter()
        .map(|b| b.array_len.unwrap_or(1) as u64 * (b.stages.count_ones() as u64))
        .sum();
    if combined > MAX_COMBINED_UNIFORM_BLOCKS as u64 {
        errors.push(LinkError::TooManyCombinedUniformBlocks(
            combined.min(u32::MAX as u64) as u32,
            MAX_COMBINED_UNIFORM_BLOCKS,
        ));
        *failed = true;
    }
    for b in &blocks {
        if b.size > MAX_UNIFORM_BLOCK_SIZE {
            errors.push(LinkError::UniformBlockTooBig(
                b.name.clone(),
                b.size.min(u32::MAX as u64) as u32,
                MAX_UNIFORM_BLOCK_SIZE as u32,
            ));
            *failed = true;
        }
    }
    blocks
}

/// std140 size of a block body whose default matrix layout is `row_major`,
/// rounded up to a vec4 like `GL_UNIFORM_BLOCK_DATA_SIZE`.
fn block_size(body: &rgl_glsl::types::StructType, row_major: bool, sz: &StructSizes) -> u64 {
    let mut offset = 0u64;
    for f in &body.fields {
        let rm = match f.qualifiers.matrix_layout {
            MatrixLayout::Inherited => row_major,
            other => other == MatrixLayout::RowMajor,
        };
        let (size, align) = sz.std140_of(&f.ty, rm);
        // GLSL 4.40 §4.4.5: the checker placed members of blocks with `offset`/`align`.
        let start = f
            .qualifiers
            .offset
            .map_or_else(|| round_up(offset, align), u64::from);
        offset = start.saturating_add(size);
    }
    round_up(offset, 16)
}

/// std140 leaves of a block (offsets relative to the block start).
fn block_leaves(m: &Module, b: &Block, sz: &StructSizes) -> Vec<ActiveUniform> {
    let mut out = Vec::new();
    let Some(body) = m.structs.get(b.block_ty) else {
        return out;
    };
    let prefix = match &b.instance {
        Some(_) => format!("{}.", b.name),
        None => String::new(),
    };
    // (name, type, offset, row_major)
    let mut work: Vec<(String, Type, u64, bool)> = Vec::new();
    let mut offset = 0u64;
    let mut items = Vec::new();
    for f in &body.fields {
        let row_major = match f.qualifiers.matrix_layout {
            MatrixLayout::Inherited => b.matrix_layout == MatrixLayout::RowMajor,
            other => other == MatrixLayout::RowMajor,
        };
        let (size, align) = sz.std140_of(&f.ty, row_major);
        offset = f
            .qualifiers
            .offset
            .map_or_else(|| round_up(offset, align), u64::from);
        items.push((
            format!("{prefix}{}", f.name),
            f.ty.clone(),
            offset,
            row_major,
        ));
        offset += size;
    }
    work.extend(items.into_iter().rev());
    while let Some((name, ty, offset, row_major)) = work.pop() {
        match &ty {
            Type::Struct(h) => {
                let Some(st) = m.structs.get(*h) else {
                    continue;
                };
                let mut o = offset;
                let mut items = Vec::new();
                for f in &st.fields {
                    let rm = match f.qualifiers.matrix_layout {
                        MatrixLayout::Inherited => row_major,
                        other => other == MatrixLayout::RowMajor,
                    };
                    let (size, align) = sz.std140_of(&f.ty, rm);
                    o = round_up(o, align);
                    items.push((format!("{name}.{}", f.name), f.ty.clone(), o, rm));
                    o += size;
                }
                work.extend(items.into_iter().rev());
            }
            Type::Array(elem, len) if opened(elem) => {
                let stride = sz.std140_array_stride(elem, row_major);
                let items: Vec<_> = (0..len.unwrap_or(0) as u64)
                    .map(|i| {
                        (
                            format!("{name}[{i}]"),
                            (**elem).clone(),
                            offset + i * stride,
                            row_major,
                        )
                    })
                    .collect();
                work.extend(items.into_iter().rev());
            }
            _ => {
                let (elem, array_size, array_stride) = match &ty {
                    Type::Array(e, n) => (
                        (**e).clone(),
                        n.unwrap_or(0),
                        sz.std140_array_stride(e, row_major) as i32,
                    ),
                    other => (other.clone(), 1, 0),
                };
                let is_matrix = elem.is_matrix();
                out.push(ActiveUniform {
                    name: if ty.is_array() {
                        format!("{name}[0]")
                    } else {
                        name
                    },
                    ty: elem,
                    array_size,
                    location: -1,
                    slot: 0,
                    sampler_index: None,
                    block: None,
                    offset: offset.min(i32::MAX as u64) as i32,
                    array_stride,
                    matrix_stride: if is_matrix { 16 } else { 0 },
                    row_major: is_matrix && row_major,
                    stages: 0,
                    initializer: None,
                });
            }
        }
    }
    out
}
