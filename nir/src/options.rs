//! What a driver asks of the compiler, per stage: the part of Mesa's
//! `nir_shader_compiler_options` (and of the gallium shader caps the state tracker
//! reads) that rgl's pipelines consult. The link-time pipeline
//! (`rgl_link::pipeline::lower_program`) reads every field; the draw-time
//! finalisation ([`crate::finalize::finalize_variant`]) reads `lower_io` and
//! `lower_to_scalar`. A driver answers through `rgl_backend::Driver::compiler_options`
//! and the state tracker hands the bound driver's answer to both.
//!
//! Add a field only together with the code that consults it.

use crate::ir::Stage;

/// The compiler options of one stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompilerOptions {
    /// Lower shader inputs, outputs, default-block uniforms, uniform blocks and
    /// samplers to IO intrinsics with driver locations (`lower_io`, Mesa's
    /// `nir_lower_io`). `false` keeps them as variables read and written through
    /// derefs, for a driver that consumes variables. The draw-time lowerings work on
    /// lowered IO only, so such a driver cannot take a variant that needs one
    /// ([`crate::finalize::FinalizeError::IoNotLowered`]).
    pub lower_io: bool,
    /// Split vector ALU operations, phis and vector constants into scalar ones
    /// (Mesa's `lower_to_scalar`: `nir_lower_alu_to_scalar`,
    /// `nir_lower_phis_to_scalar`, `nir_lower_load_const_to_scalar`), at link time
    /// after IO lowering and again after draw-time lowerings.
    pub lower_to_scalar: bool,
    /// Lower run-time indexed accesses of temporary arrays to if-trees of constant
    /// accesses (`nir_lower_indirect_derefs` on `function_temp`/`shader_temp`, Mesa's
    /// `!support_indirect_temps`). `false` leaves them as deref accesses with a
    /// dynamic index, which a driver addresses as scratch memory.
    pub lower_indirect_temps: bool,
}

impl Default for CompilerOptions {
    /// The pipeline as it runs without a driver's say: IO lowered, vector ALU kept,
    /// indirect temporaries lowered (the software driver asks for exactly this).
    fn default() -> Self {
        CompilerOptions {
            lower_io: true,
            lower_to_scalar: false,
            lower_indirect_temps: true,
        }
    }
}

/// Compiler options for every stage (Mesa's `ShaderCompilerOptions[stage]`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StageOptions {
    by_stage: [CompilerOptions; 6],
}

/// The index of `stage` in [`StageOptions`].
fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::Vertex => 0,
        Stage::TessCtrl => 1,
        Stage::TessEval => 2,
        Stage::Geometry => 3,
        Stage::Fragment => 4,
        Stage::Compute => 5,
    }
}

impl StageOptions {
    /// The same options for every stage.
    pub fn uniform(options: CompilerOptions) -> StageOptions {
        StageOptions {
            by_stage: [options; 6],
        }
    }

    /// The options of `stage`.
    pub fn get(&self, stage: Stage) -> &CompilerOptions {
        &self.by_stage[stage_index(stage)]
    }

    /// Sets the options of `stage`.
    pub fn set(&mut self, stage: Stage, options: CompilerOptions) {
        self.by_stage[stage_index(stage)] = options;
    }
}

/// The storage-block binding space shared by the compiler and the drivers.
///
/// The block source of `load_ssbo`, `store_ssbo`, `ssbo_atomic*` and
/// `get_ssbo_size` is a GL binding point: `0..MAX_SHADER_STORAGE_BUFFER_BINDINGS`
/// are the indexed `GL_SHADER_STORAGE_BUFFER` bindings (the block's `binding`
/// layout or the value `glShaderStorageBlockBinding` set). Atomic counters are
/// lowered to storage-buffer atomics, as Mesa's `nir_lower_atomics_to_ssbo`
/// does: counter buffer binding `k` (`GL_ATOMIC_COUNTER_BUFFER`, index `k`) is
/// block `ATOMIC_COUNTER_BLOCK_BASE + k`.
pub mod storage_bindings {
    /// GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS (llvmpipe offers 32; GL 4.3 needs 8).
    pub const MAX_SHADER_STORAGE_BUFFER_BINDINGS: u32 = 32;
    /// GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS (GL 4.2 needs 1); the same value
    /// as the front end's `gl_MaxAtomicCounterBindings`, which bounds the
    /// `binding` layout of a counter.
    pub const MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: u32 = 8;
    /// The block index of atomic counter buffer binding 0.
    pub const ATOMIC_COUNTER_BLOCK_BASE: u32 = MAX_SHADER_STORAGE_BUFFER_BINDINGS;
}
