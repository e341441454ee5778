//! Shader storage blocks and shared memory at link time (Mesa's
//! `link_uniform_blocks` for `buffer` blocks and the storage parts of
//! `check_resources`): the program's active storage blocks with std430 / std140
//! offsets, strides and sizes (GL 4.3 §7.6.2.2), their bindings, and the GL 4.3
//! limits on storage blocks per stage and combined, on block size and binding
//! points, and on compute shared memory.
//!
//! The block list is computed from the linked stages' GLSL IR, so the linker (for
//! its checks) and [`crate::LinkedProgram::storage_blocks`] (for the state tracker)
//! see the same list. Blocks are matched across stages by block name, listed in
//! first-declaration order; an array of blocks is one entry per element (`B[1]`,
//! GL 4.3 §7.3.1.1), with consecutive bindings.

use std::collections::HashMap;

use rgl_glsl::hir::{BlockPacking, MatrixLayout, Module, VarMode};
use rgl_glsl::types::{StructType, Type};
use rgl_glsl::Stage;

use super::types::{round_up, without_array};
use super::uniforms::{element_suffix, instance_dims};
use super::usage::globals;
use crate::error::LinkError;
use crate::program::{BufferVariable, LinkedStage, StorageBlock};
use rgl_nir::options::storage_bindings::MAX_SHADER_STORAGE_BUFFER_BINDINGS;

/// `GL_MAX_{VERTEX,GEOMETRY,FRAGMENT,COMPUTE}_SHADER_STORAGE_BLOCKS` (llvmpipe's
/// per-stage shader buffer count; GL 4.3 requires 8 for fragment and compute).
pub const MAX_SHADER_STORAGE_BLOCKS: u32 = 16;
/// `GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS` (every binding point once; GL 4.3
/// requires 8).
pub const MAX_COMBINED_SHADER_STORAGE_BLOCKS: u32 = MAX_SHADER_STORAGE_BUFFER_BINDINGS;
/// `GL_MAX_SHADER_STORAGE_BLOCK_SIZE` (llvmpipe's 2^27 bytes; GL 4.3 requires
/// 2^24).
pub const MAX_SHADER_STORAGE_BLOCK_SIZE: u64 = 1 << 27;
/// `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE` (the GL 4.3 minimum, 32 KiB, as llvmpipe).
pub const MAX_COMPUTE_SHARED_MEMORY_SIZE: u64 = 32768;

/// Deepest type nesting laid out (the front end bounds it far lower).
const MAX_DEPTH: u32 = 64;

/// How a block's members are laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Packing {
    Std140,
    Std430,
}

fn packing_of(p: BlockPacking) -> Packing {
    match p {
        BlockPacking::Std430 => Packing::Std430,
        // `shared` and `packed` blocks are laid out std140, as uniform blocks are.
        _ => Packing::Std140,
    }
}

fn is_row_major(layout: MatrixLayout, inherited: bool) -> bool {
    match layout {
        MatrixLayout::Inherited => inherited,
        other => other == MatrixLayout::RowMajor,
    }
}

/// (size, base alignment) of `ty` under `packing` (GL 4.3 §7.6.2.2 rules 1-10);
/// an unsized array counts `unsized_len` elements.
fn layout(m: &Module, ty: &Type, row_major: bool, p: Packing, depth: u32) -> (u64, u64) {
    if depth > MAX_DEPTH {
        return (0, 4);
    }
    match ty {
        Type::Scalar(_) => (4, 4),
        // Rules 2 and 3: vec2 aligns to 8, vec3 and vec4 to 16.
        Type::Vector(_, n) => (4 * u64::from(*n), if *n == 2 { 8 } else { 16 }),
        // Rules 5 and 7: a matrix is an array of its columns (rows when row-major).
        Type::Matrix { columns, rows } => {
            let (count, len) = if row_major {
                (*rows, *columns)
            } else {
                (*columns, *rows)
            };
            let stride = matrix_stride(len, p);
            (stride * u64::from(count), stride)
        }
        Type::Array(e, n) => {
            let (stride, align) = array_stride_align(m, e, row_major, p, depth);
            (stride.saturating_mul(u64::from(n.unwrap_or(0))), align)
        }
        Type::Struct(h) => match m.structs.get(*h) {
            Some(st) => struct_layout(m, st, row_major, p, depth + 1).1,
            None => (0, 4),
        },
        _ => (0, 4),
    }
}

/// The stride between the vectors of a matrix whose vectors have `len`
/// components: std140 rounds it to a vec4 (rule 4), std430 does not.
fn matrix_stride(len: u8, p: Packing) -> u64 {
    match (p, len) {
        (Packing::Std430, 2) => 8,
        _ => 16,
    }
}

/// (array stride, base alignment) of an array whose elements are `elem`:
/// std140 rounds both up to a vec4 (rule 4), std430 does not (§7.6.2.2, the
/// std430 paragraph).
fn array_stride_align(
    m: &Module,
    elem: &Type,
    row_major: bool,
    p: Packing,
    depth: u32,
) -> (u64, u64) {
    let (size, align) = layout(m, elem, row_major, p, depth + 1);
    let align = match p {
        Packing::Std140 => align.max(16),
        Packing::Std430 => align,
    };
    (round_up(size, align), align)
}

/// Member offsets and (size, alignment) of a structure (rule 9: aligned to its
/// widest member, rounded up to a vec4 under std140; members with an explicit
/// `offset` (GLSL 4.40 §4.4.5) were placed by the front end).
fn struct_layout(
    m: &Module,
    st: &StructType,
    row_major: bool,
    p: Packing,
    depth: u32,
) -> (Vec<(u64, bool)>, (u64, u64)) {
    let mut offset = 0u64;
    let mut align = if p == Packing::Std140 { 16 } else { 4 };
    let mut out = Vec::with_capacity(st.fields.len());
    for f in &st.fields {
        let rm = is_row_major(f.qualifiers.matrix_layout, row_major);
        let (size, a) = layout(m, &f.ty, rm, p, depth);
        // GL 4.6 §7.6.2.2: the last member of a storage block may be an unsized
        // array; it takes no room here.
        let start = f
            .qualifiers
            .offset
            .map_or_else(|| round_up(offset, a), u64::from);
        out.push((start, rm));
        offset = start.saturating_add(size);
        align = align.max(a);
    }
    (out, (round_up(offset, align), align))
}

/// One block across stages, before it is expanded per array element.
struct Found {
    name: String,
    block: rgl_glsl::arena::Handle<StructType>,
    stage: usize,
    instanced: bool,
    dims: Vec<u32>,
    packing: Packing,
    row_major: bool,
    binding: u32,
    stages: u32,
    used: bool,
    packed: bool,
}

fn find_blocks<'a>(
    stages: impl Iterator<Item = &'a LinkedStage>,
) -> (Vec<Found>, Vec<&'a LinkedStage>) {
    let stages: Vec<&LinkedStage> = stages.collect();
    let mut found: Vec<Found> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for (i, st) in stages.iter().enumerate() {
        let m = &st.hir;
        for v in globals(m) {
            let var = &m.variables[v];
            let (VarMode::ShaderStorage, Some(b)) = (var.mode, var.interface_block) else {
                continue;
            };
            let Some(body) = m.structs.get(b) else {
                continue;
            };
            let idx = match by_name.get(&body.name) {
                Some(&idx) => idx,
                None => {
                    let instanced = matches!(without_array(&var.ty), Type::Struct(h) if *h == b);
                    by_name.insert(body.name.clone(), found.len());
                    found.push(Found {
                        name: body.name.clone(),
                        block: b,
                        stage: i,
                        instanced,
                        dims: if instanced {
                            instance_dims(&var.ty)
                        } else {
                            Vec::new()
                        },
                        packing: packing_of(var.block_packing),
                        row_major: var.matrix_layout == MatrixLayout::RowMajor,
                        binding: var.binding.unwrap_or(0).max(0) as u32,
                        stages: 0,
                        used: false,
                        packed: var.block_packing == BlockPacking::Packed,
                    });
                    found.len() - 1
                }
            };
            found[idx].stages |= 1 << st.stage as u32;
            found[idx].used |= var.used || var.assigned;
        }
    }
    // GL 4.3 §7.3.1: a `packed` block no stage uses may be inactive; blocks with
    // any other layout are active whenever declared.
    found.retain(|f| !f.packed || f.used);
    (found, stages)
}

/// The program's active shader storage blocks (see the module docs).
pub fn storage_blocks<'a>(stages: impl Iterator<Item = &'a LinkedStage>) -> Vec<StorageBlock> {
    let (found, stages) = find_blocks(stages);
    let mut out = Vec::new();
    for f in &found {
        let m = &stages[f.stage].hir;
        let Some(body) = m.structs.get(f.block) else {
            continue;
        };
        let (offsets, (size, _)) = struct_layout(m, body, f.row_major, f.packing, 0);
        // GL 4.3 §7.6.2.2 / GL_BUFFER_DATA_SIZE: an unsized last member counts as
        // one element; the size is rounded up to a vec4 as Mesa's
        // `link_uniform_blocks` does.
        let mut end = size;
        if let (Some(last), Some((off, rm))) = (body.fields.last(), offsets.last()) {
            if let Type::Array(e, None) = &last.ty {
                let (stride, _) = array_stride_align(m, e, *rm, f.packing, 0);
                end = end.max(off.saturating_add(stride));
            }
        }
        let data_size = round_up(end, 16);
        let prefix = if f.instanced {
            format!("{}.", f.name)
        } else {
            String::new()
        };
        let mut variables = Vec::new();
        for (field, (off, rm)) in body.fields.iter().zip(&offsets) {
            let name = format!("{prefix}{}", field.name);
            let (top_size, top_stride) = match &field.ty {
                Type::Array(e, n) => (
                    n.unwrap_or(0),
                    array_stride_align(m, e, *rm, f.packing, 0).0,
                ),
                _ => (1, 0),
            };
            let mut ctx = Leaves {
                m,
                p: f.packing,
                top_size,
                top_stride,
                out: &mut variables,
            };
            // GL 4.3 §7.3.1.1: a top-level array of aggregates lists its first
            // element only.
            match &field.ty {
                Type::Array(e, _) if is_aggregate(e) => {
                    ctx.walk(&format!("{name}[0]"), e, *off, *rm, 0)
                }
                ty => ctx.walk(&name, ty, *off, *rm, 0),
            }
        }
        let copies = f.dims.iter().fold(1u32, |n, d| n.saturating_mul(*d)).max(1);
        for c in 0..copies {
            out.push(StorageBlock {
                name: format!("{}{}", f.name, element_suffix(&f.dims, c)),
                binding: f.binding.saturating_add(c),
                data_size: data_size.min(u64::from(u32::MAX)) as u32,
                variables: variables.clone(),
                stages: f.stages,
            });
        }
    }
    out
}

fn is_aggregate(ty: &Type) -> bool {
    matches!(ty, Type::Array(..) | Type::Struct(_))
}

/// Walks a buffer variable into its active-variable entries.
struct Leaves<'a, 'm> {
    m: &'m Module,
    p: Packing,
    top_size: u32,
    top_stride: u64,
    out: &'a mut Vec<BufferVariable>,
}

impl Leaves<'_, '_> {
    fn walk(&mut self, name: &str, ty: &Type, offset: u64, row_major: bool, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match ty {
            Type::Struct(h) => {
                let Some(st) = self.m.structs.get(*h) else {
                    return;
                };
                let (offsets, _) = struct_layout(self.m, st, row_major, self.p, depth + 1);
                for (f, (o, rm)) in st.fields.iter().zip(offsets) {
                    self.walk(
                        &format!("{name}.{}", f.name),
                        &f.ty,
                        offset.saturating_add(o),
                        rm,
                        depth + 1,
                    );
                }
            }
            Type::Array(e, n) if is_aggregate(e) => {
                let (stride, _) = array_stride_align(self.m, e, row_major, self.p, depth);
                for i in 0..u64::from(n.unwrap_or(0)).min(1 << 16) {
                    self.walk(
                        &format!("{name}[{i}]"),
                        e,
                        offset.saturating_add(stride.saturating_mul(i)),
                        row_major,
                        depth + 1,
                    );
                }
            }
            _ => {
                let (elem, array_size, array_stride, leaf_name) = match ty {
                    Type::Array(e, n) => (
                        (**e).clone(),
                        n.unwrap_or(0),
                        array_stride_align(self.m, e, row_major, self.p, depth).0,
                        format!("{name}[0]"),
                    ),
                    other => (other.clone(), 1, 0, name.to_string()),
                };
                let matrix_stride = match elem {
                    Type::Matrix { columns, rows } => {
                        matrix_stride(if row_major { columns } else { rows }, self.p)
                    }
                    _ => 0,
                };
                self.out.push(BufferVariable {
                    name: leaf_name,
                    row_major: row_major && elem.is_matrix(),
                    ty: elem,
                    array_size,
                    offset: clamp_i32(offset),
                    array_stride: clamp_i32(array_stride),
                    matrix_stride: clamp_i32(matrix_stride),
                    top_level_array_size: self.top_size,
                    top_level_array_stride: clamp_i32(self.top_stride),
                });
            }
        }
    }
}

fn clamp_i32(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

/// Bytes of shared memory the compute stage's `shared` variables take, laid out
/// std430 in declaration order (as `lower_explicit_io` places them).
pub fn shared_size(stage: &LinkedStage) -> u64 {
    let m = &stage.hir;
    let mut offset = 0u64;
    for v in globals(m) {
        let var = &m.variables[v];
        if var.mode != VarMode::Shared {
            continue;
        }
        let (size, align) = layout(m, &var.ty, false, Packing::Std430, 0);
        offset = round_up(offset, align).saturating_add(size);
    }
    offset
}

/// The GL 4.3 limits on storage blocks and shared memory (Mesa's
/// `link_uniform_blocks` and `check_resources` messages).
pub(crate) fn check_storage_limits<'a>(
    stages: impl Iterator<Item = &'a LinkedStage> + Clone,
    errors: &mut Vec<LinkError>,
) {
    let blocks = storage_blocks(stages.clone());
    let mut combined = 0u64;
    for st in stages.clone() {
        let bit = 1u32 << st.stage as u32;
        let count = blocks.iter().filter(|b| b.stages & bit != 0).count() as u64;
        combined += count;
        if count > u64::from(MAX_SHADER_STORAGE_BLOCKS) {
            errors.push(LinkError::TooManyStorageBlocks(
                st.stage.name(),
                count.min(u64::from(u32::MAX)) as u32,
                MAX_SHADER_STORAGE_BLOCKS,
            ));
        }
    }
    if combined > u64::from(MAX_COMBINED_SHADER_STORAGE_BLOCKS) {
        errors.push(LinkError::TooManyCombinedStorageBlocks(
            combined.min(u64::from(u32::MAX)) as u32,
            MAX_COMBINED_SHADER_STORAGE_BLOCKS,
        ));
    }
    for b in &blocks {
        if u64::from(b.data_size) > MAX_SHADER_STORAGE_BLOCK_SIZE {
            errors.push(LinkError::StorageBlockTooBig(
                b.name.clone(),
                b.data_size,
                MAX_SHADER_STORAGE_BLOCK_SIZE as u32,
            ));
        }
        if b.binding >= MAX_SHADER_STORAGE_BUFFER_BINDINGS {
            errors.push(LinkError::StorageBindingTooLarge(
                b.name.clone(),
                b.binding,
                MAX_SHADER_STORAGE_BUFFER_BINDINGS,
            ));
        }
    }
    for st in stages {
        if st.stage != Stage::Compute {
            continue;
        }
        let size = shared_size(st);
        if size > MAX_COMPUTE_SHARED_MEMORY_SIZE {
            errors.push(LinkError::TooMuchSharedMemory(
                size.min(u64::from(u32::MAX)) as u32,
                MAX_COMPUTE_SHARED_MEMORY_SIZE as u32,
            ));
        }
    }
}
