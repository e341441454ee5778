//! The linked program: what `glLinkProgram` produces and what the state tracker and the
//! NIR pipeline consume.
//!
//! Conventions shared by the linker, `glsl_to_nir`, the NIR pipeline, the state tracker
//! and `nir::eval`:
//! * **IO locations** use rgl-nir's numbering (`rgl_nir::ir::names`): vertex inputs are
//!   `VERT_ATTRIB_GENERIC0 + n` for generic attribute `n` (legacy `gl_Vertex` & co keep
//!   their fixed `VERT_ATTRIB_*` slots); varyings are `VARYING_SLOT_*`, user varyings
//!   from `VARYING_SLOT_VAR0`; fragment outputs are `FRAG_RESULT_DATA0 + n` (or
//!   `FRAG_RESULT_COLOR` / `FRAG_RESULT_DEPTH` for the built-ins).
//! * **Default-block uniform storage** is an array of vec4 slots of 32-bit words. A
//!   uniform variable occupies `type_size_vec4(ty)` consecutive slots from its
//!   [`VarLink::driver_location`]: one slot per scalar/vector, per matrix column, per
//!   array element (so arrays are vec4-padded), struct members in order. Booleans are
//!   stored as 0 / 1. The slot of the uniform is the same in every stage.
//!   Samplers take no default-block slots. Uniforms no stage reads are dead: the
//!   linker removes their declarations from the stages' item lists.
//! * **Samplers** get a program-wide sampler index ([`ActiveUniform::sampler_index`]);
//!   the NIR sampler variable's `driver_location` is that index, and `tex`
//!   instructions end with `texture_index == sampler_index ==` it. The texture unit a
//!   sampler reads is set at run time by `glUniform1i` (state tracker).
//! * **Images** get a program-wide image index, counted like sampler indices in
//!   a space of their own and kept in [`ActiveUniform::sampler_index`] of the image
//!   uniform; the NIR image variable's `driver_location` is that index, and the
//!   lowered `image_*` intrinsics take it as source 0. The image unit an index
//!   reads (GL 4.2 §8.26) is the uniform's value: its `binding` layout or
//!   `glUniform1i`.
//! * **Uniform blocks** are laid out std140 (shared/packed blocks use the same
//!   layout); block `b` is read with `load_ubo(b, byte_offset)`. Every variable of
//!   a block (the instance, or each member of an unnamed block) has the block index
//!   as `driver_location`; for an array of blocks it is the index of element 0 and
//!   the elements follow consecutively.
//! * **Varyings** are packed per variable: a scalar or vector may share a slot
//!   (`location_frac`) but never straddles two; arrays, matrices, structs and
//!   interface blocks take whole slots from `location_frac` 0. Geometry inputs
//!   (`gl_in` aside, which has location -1) have the location of the matching
//!   output; their per-vertex array level is not counted. Interface variables the
//!   linker found dead were demoted to plain globals (`VarMode::Auto`) in `hir`.

use std::collections::HashMap;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir;
use rgl_glsl::types::Type;
use rgl_glsl::{Stage, Version};

/// Locations bound through the API before linking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// `glBindAttribLocation(program, index, name)`: (name, generic attribute index).
    pub attribs: Vec<(String, u32)>,
    /// `glBindFragDataLocationIndexed(program, color, index, name)`:
    /// (name, color number, blend index 0 or 1).
    pub frag_data: Vec<(String, u32, u32)>,
}

/// Where the linker put one variable of a stage (interface and uniform variables).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VarLink {
    /// `VERT_ATTRIB_*`, `VARYING_SLOT_*` or `FRAG_RESULT_*` (see the module docs);
    /// -1 for variables without one (uniforms, temporaries).
    pub location: i32,
    /// First component inside the location (`location_frac`), for packed varyings.
    pub location_frac: u8,
    /// Uniform: first vec4 slot in default-block storage; sampler: sampler index;
    /// block member variable: the block index. Unused otherwise.
    pub driver_location: u32,
    /// Dual-source blend index of a fragment output.
    pub index: u32,
}

/// One stage of a linked program.
#[derive(Clone, Debug)]
pub struct LinkedStage {
    /// The stage.
    pub stage: Stage,
    /// Language version of the stage (highest of its compilation units).
    pub version: Version,
    /// The stage's compilation units merged into one module: one `main`, calls resolved,
    /// unused varyings of the linked interface demoted to temporaries, implicitly sized
    /// arrays sized.
    pub hir: hir::Module,
    /// Locations chosen by the linker for the variables of `hir`.
    pub vars: HashMap<Handle<hir::Variable>, VarLink>,
    /// The final NIR, filled in by [`crate::pipeline`]; `None` after
    /// [`crate::link_program`] alone.
    pub nir: Option<rgl_nir::ir::Shader>,
}

/// A vertex attribute or fragment output of the program's interface.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramVariable {
    /// GL name (`pos`, `gl_Vertex`).
    pub name: String,
    /// GLSL type.
    pub ty: Type,
    /// Generic attribute index / color number; -1 for built-ins without one.
    pub location: i32,
    /// Blend index (fragment outputs).
    pub index: u32,
    /// `layout(component = N)` (GLSL 4.40 §4.4.1), else 0: the first
    /// component it takes of its location (`GL_LOCATION_COMPONENT`).
    pub component: u32,
}

/// One entry of the active-uniform list (`glGetActiveUniform`): a leaf of a
/// default-block uniform or a member of a uniform block, with its GL name.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveUniform {
    /// GL name: `a`, `a[0]` (arrays of basic types are reported as `name[0]`),
    /// `s.f`, `s[1].f`, `Block.member` (instance-named blocks use the block name).
    pub name: String,
    /// Type of one element (scalar, vector, matrix or sampler).
    pub ty: Type,
    /// Element count: 1 for non-arrays.
    pub array_size: u32,
    /// Location of element 0 for `glGetUniformLocation` (elements follow
    /// consecutively); -1 for block members.
    pub location: i32,
    /// First vec4 slot of element 0 in default-block storage (elements follow at one
    /// slot per vector / matrix column); unused for block members.
    pub slot: u32,
    /// Sampler index for sampler uniforms, image index for image uniforms
    /// (elements follow consecutively).
    pub sampler_index: Option<u32>,
    /// Index into [`LinkedProgram::uniform_blocks`] for block members.
    pub block: Option<u32>,
    /// Byte offset inside the block (block members), else -1.
    pub offset: i32,
    /// Array stride in bytes (block members that are arrays), else 0 / -1 per GL.
    pub array_stride: i32,
    /// Matrix stride in bytes (block members that are matrices), else 0 / -1 per GL.
    pub matrix_stride: i32,
    /// Row-major matrix layout (block members).
    pub row_major: bool,
    /// Stages that reference it (bit `1 << stage as u32` in [`Stage`] order).
    pub stages: u32,
    /// Initializer from the shader (`uniform float f = 2.0;`), flattened.
    pub initializer: Option<hir::Constant>,
}

/// A uniform block (std140 / shared / packed, all laid out std140).
#[derive(Clone, Debug, PartialEq)]
pub struct UniformBlock {
    /// Block name (`Block`, or `Block[2]` for an element of a block array).
    pub name: String,
    /// `layout(binding = N)`, or 0.
    pub binding: u32,
    /// Size in bytes (`GL_UNIFORM_BLOCK_DATA_SIZE`).
    pub data_size: u32,
    /// Indices into [`LinkedProgram::uniforms`] of its members.
    pub members: Vec<u32>,
    /// Stages that reference it (bitmask as in [`ActiveUniform::stages`]).
    pub stages: u32,
}

/// An active variable of a shader storage block (the `GL_BUFFER_VARIABLE`
/// program interface, GL 4.3 §7.3.1): a leaf of a block member, with its layout.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferVariable {
    /// GL name: `member`, `Block.member` (instance-named blocks use the block
    /// name), `s.f`, `a[0]` for arrays of basic types; a top-level array of
    /// aggregates lists only its element 0 (`arr[0].f`).
    pub name: String,
    /// Type of one element (scalar, vector or matrix).
    pub ty: Type,
    /// `GL_ARRAY_SIZE`: element count, 1 for non-arrays, 0 for an unsized array.
    pub array_size: u32,
    /// `GL_OFFSET`: byte offset inside the block.
    pub offset: i32,
    /// `GL_ARRAY_STRIDE`: bytes between array elements, 0 for non-arrays.
    pub array_stride: i32,
    /// `GL_MATRIX_STRIDE`: bytes between matrix columns (rows when row-major),
    /// 0 for non-matrices.
    pub matrix_stride: i32,
    /// `GL_IS_ROW_MAJOR` (matrices only).
    pub row_major: bool,
    /// `GL_TOP_LEVEL_ARRAY_SIZE`: element count of the block member this variable
    /// belongs to when that member is an array (0 when unsized), else 1.
    pub top_level_array_size: u32,
    /// `GL_TOP_LEVEL_ARRAY_STRIDE`: the stride of that top-level array, else 0.
    pub top_level_array_stride: i32,
}

/// An active shader storage block (the `GL_SHADER_STORAGE_BLOCK` program
/// interface); an array of blocks has one entry per element.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageBlock {
    /// Block name (`Block`, or `Block[2]` for an element of a block array).
    pub name: String,
    /// `GL_BUFFER_BINDING` as linked: `layout(binding = N)` (plus the element
    /// index for block arrays), or 0. It is the block source of the program's
    /// `load_ssbo`/`store_ssbo`/`ssbo_atomic*` intrinsics
    /// ([`rgl_nir::options::storage_bindings`]).
    pub binding: u32,
    /// `GL_BUFFER_DATA_SIZE`: the minimum buffer size in bytes (an unsized last
    /// member counted with one element, GL 4.3 §7.6.2.2), rounded up to 16.
    pub data_size: u32,
    /// The active variables (`GL_ACTIVE_VARIABLES`), in member order.
    pub variables: Vec<BufferVariable>,
    /// Stages that declare it (bit `1 << stage as u32` in [`Stage`] order;
    /// `GL_REFERENCED_BY_*_SHADER`).
    pub stages: u32,
}

/// An active atomic counter uniform (`GL_UNIFORM` of type
/// `GL_UNSIGNED_INT_ATOMIC_COUNTER`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomicCounter {
    /// The uniform's name (an array keeps its base name).
    pub name: String,
    /// `GL_OFFSET`: byte offset of the counter (element 0 of an array) in its
    /// buffer.
    pub offset: u32,
    /// Counters it holds: 1, or the element count of an array (of arrays),
    /// elements 4 bytes apart in row-major order.
    pub array_size: u32,
    /// Stages that use it (bit `1 << stage as u32`).
    pub stages: u32,
}

/// An active atomic counter buffer binding (the `GL_ATOMIC_COUNTER_BUFFER`
/// program interface, GL 4.2 §7.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomicCounterBuffer {
    /// `GL_ATOMIC_COUNTER_BUFFER_BINDING`: the indexed `GL_ATOMIC_COUNTER_BUFFER`
    /// binding point. The program's NIR reads and updates its counters as
    /// storage block `ATOMIC_COUNTER_BLOCK_BASE + binding`
    /// ([`rgl_nir::options::storage_bindings`]).
    pub binding: u32,
    /// `GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE`: the minimum buffer size in bytes,
    /// the end of the highest active counter (offset + 4 × elements). GL asks
    /// for no rounding here (unlike uniform and storage blocks), as in Mesa.
    pub data_size: u32,
    /// The active counters (`GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS`),
    /// by offset.
    pub counters: Vec<AtomicCounter>,
    /// Stages that use a counter of it
    /// (`GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_*_SHADER`).
    pub stages: u32,
}

/// The result of linking.
#[derive(Clone, Debug)]
pub struct LinkedProgram {
    /// Highest GLSL version of the program.
    pub version: Version,
    /// Linked stages in pipeline order (vertex, geometry, fragment).
    pub stages: Vec<LinkedStage>,
    /// Active vertex attributes with their generic indices.
    pub attributes: Vec<ProgramVariable>,
    /// Active fragment outputs with their color numbers.
    pub frag_outputs: Vec<ProgramVariable>,
    /// The active-uniform list.
    pub uniforms: Vec<ActiveUniform>,
    /// Active uniform blocks.
    pub uniform_blocks: Vec<UniformBlock>,
    /// Default-block storage size in vec4 slots.
    pub uniform_slots: u32,
    /// Number of sampler indices handed out.
    pub num_samplers: u32,
    /// The default-block slot of each subroutine uniform's selection storage,
    /// by its [`rgl_glsl::hir::subroutine::storage_name`]; element `e` is in
    /// slot + `e`, word 0. These uniforms are not in [`Self::uniforms`]: the GL
    /// API lists them as subroutine uniforms only.
    pub subroutine_slots: Vec<(String, u32)>,
    /// Link warnings (the info log of a successful link).
    pub warnings: Vec<String>,
}

impl LinkedProgram {
    /// Number of image indices handed out (see the module docs: image uniforms
    /// keep theirs in [`ActiveUniform::sampler_index`]).
    pub fn num_images(&self) -> u32 {
        self.uniforms
            .iter()
            .filter(|u| u.ty.is_image())
            .filter_map(|u| {
                u.sampler_index
                    .map(|i| i.saturating_add(u.array_size.max(1)))
            })
            .max()
            .unwrap_or(0)
    }

    /// The work-group size of a compute program (GL_COMPUTE_WORK_GROUP_SIZE,
    /// GL 4.3 §7.13): the `local_size_*` of its compute shader.
    pub fn compute_local_size(&self) -> Option<[u32; 3]> {
        self.stage(Stage::Compute)
            .and_then(|s| s.hir.layout.cs_local_size)
    }
    /// The program's active shader storage blocks, in first-declaration order
    /// (`GL_SHADER_STORAGE_BLOCK` / `GL_BUFFER_VARIABLE` queries): names,
    /// bindings, data sizes and the std430 / std140 layout of every active
    /// variable. Computed from the linked stages, as the linker's storage-block
    /// limit checks see them.
    pub fn storage_blocks(&self) -> Vec<StorageBlock> {
        crate::linker::storage_blocks::storage_blocks(self.stages.iter())
    }
    /// The program's active atomic counter buffers by binding, each with its
    /// active counters by offset, data size and referencing stages (computed
    /// from the linked stages, as the linker's counter checks see them). The
    /// state tracker binds `GL_ATOMIC_COUNTER_BUFFER` index `binding` as storage
    /// block `ATOMIC_COUNTER_BLOCK_BASE + binding`.
    pub fn atomic_counter_buffers(&self) -> Vec<AtomicCounterBuffer> {
        crate::linker::atomic_counters::atomic_counter_buffers(self.stages.iter())
    }
    /// Bytes of workgroup shared memory the compute stage uses (0 without one):
    /// the final NIR's `shared_size` once the pipeline ran (shared variables the
    /// optimiser removed take none), else every declared `shared` variable laid
    /// out std430 in declaration order.
    pub fn shared_size(&self) -> u32 {
        let Some(stage) = self.stage(Stage::Compute) else {
            return 0;
        };
        match &stage.nir {
            Some(nir) => nir.info.shared_size,
            None => {
                crate::linker::storage_blocks::shared_size(stage).min(u64::from(u32::MAX)) as u32
            }
        }
    }
    /// The stage of `stage`, if the program has one.
    pub fn stage(&self, stage: Stage) -> Option<&LinkedStage> {
        self.stages.iter().find(|s| s.stage == stage)
    }
}
