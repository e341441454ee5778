//! The link-time NIR pipeline (Mesa's `gl_nir_link_glsl`, `st_link_glsl_to_nir`): after the GLSL IR linker, every stage
//! is converted to NIR, lowered out of function calls and variables into SSA,
//! optimised, linked against its neighbours (varyings), and has its IO lowered to
//! intrinsics with driver locations. The result is the final NIR that the state
//! tracker clones and finalises per draw-time variant.
//!
//! Every pass runs through one [`Runner`], so `RGL_NIR_DEBUG=print,validate` and the
//! observer hook (dumps, `--dump-nir-passes`, translation validation) see them all.

use rgl_glsl::CompiledShader;
use rgl_nir::ir::Shader;
use rgl_nir::passes::{opt_loop, PassError, Runner};

use crate::error::{LinkError, LinkLog};
use crate::program::{Bindings, LinkedProgram};
use crate::to_nir::glsl_to_nir;

/// Passes that take a fresh `glsl_to_nir` shader (after `inline_functions`) towards
/// SSA form, like Mesa's prelink lowering and classic `st_nir_preprocess`: outputs
/// written once through temporaries, globals used by one function made local,
/// aggregate copies split and lowered.
pub const PRE_OPT: &[&str] = &[
    "lower_io_to_temporaries",
    "lower_global_vars_to_local",
    "split_var_copies",
    "lower_var_copies",
    "remove_dead_variables",
    "lower_vars_to_ssa",
    "opt_constant_folding",
];

/// Passes that lower IO, system values and the remaining indirectly indexed
/// temporaries after the optimisation loop.
pub const POST_OPT: &[&str] = &[
    "lower_io",
    "lower_system_values",
    "lower_indirect_derefs",
    "lower_vars_to_ssa",
];

/// Instructions `inline_functions` may produce before the stage is rejected as too
/// large (piglit's call-tree "explosion" tests).
pub const INLINE_LIMIT: usize = rgl_nir::passes::inline_functions::DEFAULT_LIMIT;

/// Hook called with the stage index, the step name (a pass name, or `glsl_to_nir`) and
/// the shader after the step.
pub type StepObserver<'a> = dyn FnMut(usize, &str, &Shader) + 'a;

/// Options of [`build_program`].
#[derive(Default)]
pub struct PipelineOptions<'a> {
    /// Called after `glsl_to_nir` and after every pass that made progress.
    pub observer: Option<&'a mut StepObserver<'a>>,
    /// The program's GL name, used in `RGL_GLSL=dump` labels.
    pub name: u32,
}

/// The stage word Mesa uses in link messages and dump labels.
pub fn stage_name(stage: rgl_glsl::Stage) -> &'static str {
    match stage {
        rgl_glsl::Stage::Vertex => "vertex",
        rgl_glsl::Stage::Geometry => "geometry",
        rgl_glsl::Stage::Fragment => "fragment",
    }
}

fn pass_failure(stage: rgl_glsl::Stage, e: PassError) -> LinkLog {
    LinkLog::error(LinkError::Pipeline {
        stage: stage_name(stage),
        message: e.to_string(),
    })
}

/// Links `shaders` and runs the NIR pipeline on every stage: `glLinkProgram` in full.
/// On success every [`crate::LinkedStage::nir`] holds the final NIR.
pub fn build_program(
    shaders: &[&CompiledShader],
    bindings: &Bindings,
    options: PipelineOptions<'_>,
) -> Result<LinkedProgram, LinkLog> {
    let mut program = crate::link_program(shaders, bindings)?;
    lower_program(&mut program, options)?;
    Ok(program)
}

/// Runs the NIR pipeline on an already linked program.
pub fn lower_program(
    program: &mut LinkedProgram,
    mut options: PipelineOptions<'_>,
) -> Result<(), LinkLog> {
    let mut shaders = Vec::with_capacity(program.stages.len());
    for stage in &program.stages {
        let shader = glsl_to_nir(program, stage).map_err(|e| {
            LinkLog::error(LinkError::Pipeline {
                stage: stage_name(stage.stage),
                message: e.to_string(),
            })
        })?;
        shaders.push(shader);
    }
    for (i, shader) in shaders.iter_mut().enumerate() {
        let stage = program.stages[i].stage;
        if let Some(obs) = options.observer.as_mut() {
            obs(i, "glsl_to_nir", shader);
        }
        let mut forward = |name: &'static str, s: &Shader| {
            if let Some(obs) = options.observer.as_mut() {
                obs(i, name, s);
            }
        };
        let mut runner = Runner::with_observer(&mut forward);
        runner
            .run_fn("inline_functions", shader, |s| {
                rgl_nir::passes::inline_functions::inline_functions_checked(s, INLINE_LIMIT)
            })
            .map_err(|e| pass_failure(stage, e))?;
        runner
            .run_all(PRE_OPT, shader)
            .and_then(|_| opt_loop::optimize(&mut runner, shader))
            .and_then(|_| runner.run_all(POST_OPT, shader))
            .and_then(|_| opt_loop::optimize(&mut runner, shader))
            .map_err(|e| pass_failure(stage, e))?;
    }
    let dump = rgl_glsl::debug::flags().dump;
    for (stage, shader) in program.stages.iter_mut().zip(shaders) {
        if dump {
            rgl_glsl::debug::emit(&format!(
                "GLSL IR for linked {} program {}:\n{}\n\nNIR for linked {} program {}:\n{}",
                stage_name(stage.stage),
                options.name,
                rgl_glsl::hir::print::print_module(&stage.hir),
                stage_name(stage.stage),
                options.name,
                rgl_nir::print::print_shader(&shader)
            ));
        }
        stage.nir = Some(shader);
    }
    Ok(())
}
