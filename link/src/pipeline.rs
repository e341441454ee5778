//! The link-time NIR pipeline (Mesa's `st_link_glsl_to_nir`): after the GLSL IR
//! linker, every stage is converted to NIR, lowered out of function calls and
//! variables into SSA and optimised ([`PRE_OPT`], the loop); then every
//! producer/consumer pair is linked through its varyings (`rgl_nir::link`:
//! `link_opt_varyings`, `remove_unused_varyings`, `compact_varyings`); then every
//! stage has its IO lowered to intrinsics with driver locations ([`POST_OPT`], the
//! loop). The result is the final NIR that the state tracker clones and finalises per
//! draw-time variant.
//!
//! Every pass runs through one [`Runner`], so `RGL_NIR_DEBUG=print,validate` and the
//! observer hook (dumps, `--dump-nir-passes`, translation validation) see them all.
//!
//! The driver has its say through [`PipelineOptions::compiler`]
//! ([`rgl_nir::options::CompilerOptions`] per stage): whether IO is lowered, whether
//! indirectly indexed temporaries become if-trees, and whether the code is split into
//! scalar operations after IO lowering (then the optimisation loop runs once more).

use rgl_glsl::CompiledShader;
use rgl_nir::finalize::SCALAR;
use rgl_nir::ir::Shader;
use rgl_nir::link::LINK_PASSES;
use rgl_nir::options::{CompilerOptions, StageOptions};
use rgl_nir::passes::inline_functions::InlineFunctions;
use rgl_nir::passes::{opt_loop, PassError, Runner};

use crate::error::{LinkError, LinkLog, PipelineError};
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
/// temporaries after the optimisation loop (those the driver asks for: see
/// [`post_opt`]). Storage blocks and shared variables always become offset-based
/// intrinsics (`lower_explicit_io`, as Mesa's `gl_nir_lower_buffers` and
/// `nir_lower_explicit_io` do for every GL driver), and the compute system values a
/// CPU driver does not supply are derived from the workgroup and local IDs
/// (`lower_compute_system_values`).
pub const POST_OPT: &[&str] = &[
    "lower_io",
    "lower_explicit_io",
    "lower_system_values",
    "lower_compute_system_values",
    "lower_indirect_derefs",
    "lower_vars_to_ssa",
];

/// The [`POST_OPT`] passes a driver with `options` wants: `lower_io` only when it
/// takes lowered IO, `lower_indirect_derefs` only when it wants indirect temporaries
/// lowered.
pub fn post_opt(options: &CompilerOptions) -> Vec<&'static str> {
    POST_OPT
        .iter()
        .copied()
        .filter(|pass| match *pass {
            "lower_io" => options.lower_io,
            "lower_indirect_derefs" => options.lower_indirect_temps,
            _ => true,
        })
        .collect()
}

/// Phase 1 on one stage's fresh `glsl_to_nir` shader: inlining, [`PRE_OPT`], the
/// optimisation loop.
fn pre_link(runner: &mut Runner<'_>, shader: &mut Shader) -> Result<(), PassError> {
    let inline = InlineFunctions {
        limit: INLINE_LIMIT,
    };
    runner.run(&inline, shader)?;
    runner.run_all(PRE_OPT, shader)?;
    opt_loop::optimize(runner, shader)?;
    Ok(())
}

/// Phase 3 on one stage: the [`POST_OPT`] passes the driver wants, the loop, and the
/// scalar split (then the loop again) when it asks for scalar code.
fn post_link(
    runner: &mut Runner<'_>,
    shader: &mut Shader,
    options: &CompilerOptions,
) -> Result<(), PassError> {
    runner.run_all(&post_opt(options), shader)?;
    opt_loop::optimize(runner, shader)?;
    if options.lower_to_scalar {
        runner.run_all(SCALAR, shader)?;
        opt_loop::optimize(runner, shader)?;
    }
    Ok(())
}

/// Calls `f` with a runner whose observer reports steps as stage `stage`'s.
fn stage_runner<R>(
    observer: &mut Option<&mut StepObserver<'_>>,
    stage: usize,
    f: impl FnOnce(&mut Runner<'_>) -> R,
) -> R {
    let mut forward = |name: &'static str, s: &Shader| {
        if let Some(obs) = observer.as_mut() {
            obs(stage, name, s);
        }
    };
    let mut runner = Runner::with_observer(&mut forward);
    f(&mut runner)
}

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
    /// What the driver asks of the compiler, per stage (the default is the software
    /// driver's answer).
    pub compiler: StageOptions,
}

/// The stage word Mesa uses in link messages and dump labels.
pub fn stage_name(stage: rgl_glsl::Stage) -> &'static str {
    match stage {
        rgl_glsl::Stage::Vertex => "vertex",
        rgl_glsl::Stage::Geometry => "geometry",
        rgl_glsl::Stage::Fragment => "fragment",
        rgl_glsl::Stage::Compute => "compute",
    }
}

fn pipeline_failure(stage: rgl_glsl::Stage, error: impl Into<PipelineError>) -> LinkLog {
    LinkLog::error(LinkError::Pipeline {
        stage: stage_name(stage),
        error: error.into(),
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

/// [`build_program`] for shaders the caller gives up (see
/// [`crate::link_program_owned`]).
pub fn build_program_owned(
    shaders: Vec<CompiledShader>,
    bindings: &Bindings,
    options: PipelineOptions<'_>,
) -> Result<LinkedProgram, LinkLog> {
    let mut program = crate::link_program_owned(shaders, bindings)?;
    lower_program(&mut program, options)?;
    Ok(program)
}

/// Runs the NIR pipeline on an already linked program: phase 1 ([`pre_link`]) on
/// every stage, the varying link passes ([`LINK_PASSES`]) on every producer/consumer
/// pair from the last pair to the first (as Mesa's `st_link_glsl_to_nir` calls
/// `st_nir_link_shaders`), with the loop again on a pair they changed, then phase 3
/// ([`post_link`]) on every stage.
pub fn lower_program(
    program: &mut LinkedProgram,
    mut options: PipelineOptions<'_>,
) -> Result<(), LinkLog> {
    let mut shaders = Vec::with_capacity(program.stages.len());
    for stage in &program.stages {
        let shader = glsl_to_nir(program, stage).map_err(|e| pipeline_failure(stage.stage, e))?;
        shaders.push(shader);
    }
    let glsl_stage = |i: usize| program.stages[i].stage;
    let observer = &mut options.observer;
    for (i, shader) in shaders.iter_mut().enumerate() {
        if let Some(obs) = observer.as_mut() {
            obs(i, "glsl_to_nir", shader);
        }
        stage_runner(observer, i, |runner| pre_link(runner, shader))
            .map_err(|e| pipeline_failure(glsl_stage(i), e))?;
    }
    for c in (1..shaders.len()).rev() {
        let p = c - 1;
        let (left, right) = shaders.split_at_mut(c);
        let (producer, consumer) = (&mut left[p], &mut right[0]);
        let mut changed = false;
        for &(name, pass) in LINK_PASSES {
            let progress = pass(producer, consumer);
            changed |= progress;
            stage_runner(observer, p, |runner| runner.after(name, producer, progress))
                .map_err(|e| pipeline_failure(glsl_stage(p), e))?;
            stage_runner(observer, c, |runner| runner.after(name, consumer, progress))
                .map_err(|e| pipeline_failure(glsl_stage(c), e))?;
        }
        if changed {
            stage_runner(observer, p, |runner| opt_loop::optimize(runner, producer))
                .map_err(|e| pipeline_failure(glsl_stage(p), e))?;
            stage_runner(observer, c, |runner| opt_loop::optimize(runner, consumer))
                .map_err(|e| pipeline_failure(glsl_stage(c), e))?;
        }
    }
    for (i, shader) in shaders.iter_mut().enumerate() {
        let compiler = *options.compiler.get(shader.stage);
        stage_runner(observer, i, |runner| post_link(runner, shader, &compiler))
            .map_err(|e| pipeline_failure(glsl_stage(i), e))?;
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
