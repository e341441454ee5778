//! Pass infrastructure: the [`Pass`] trait (a pass refuses a shader with a typed
//! [`PassFailure`]), the [`declare_passes!`] registry that builds every pass by name
//! with its arguments ([`build_pass`], [`args`]), and the one runner ([`Runner`],
//! [`run_pass`], [`run_passes`]) which honours `RGL_NIR_DEBUG=print` (print the shader
//! after every pass that made progress) and `RGL_NIR_DEBUG=validate` (validate after
//! every pass; always on in debug builds).

use crate::ir::Shader;
use crate::validate::{validate, ValidationErrors};

pub mod args;
pub use args::{FromPassArgs, PassArgs, PassArgsError};

pub mod copy_prop;
pub mod opt_constant_folding;
pub mod opt_cse;
pub mod opt_dce;
pub mod opt_dead_cf;
pub mod opt_remove_phis;
pub mod opt_undef;

pub mod opt_loop;

// -- optimisation (opt branch)
pub mod algebraic;
pub mod cf_helpers;
pub mod opt_algebraic;
pub mod opt_if;
pub mod opt_loop_unroll;
pub mod opt_move;
pub mod opt_peephole_select;

// -- variable lowering (vars branch)
pub mod inline_functions;
pub mod lower_global_vars_to_local;
pub mod lower_indirect_derefs;
pub mod lower_io_to_temporaries;
pub mod lower_var_copies;
pub mod lower_vars_to_ssa;
pub mod remove_dead_variables;
pub mod split_var_copies;
pub mod var_util;

// -- IO and scalar lowering (io branch)
pub mod lower_alu_to_scalar;
pub mod lower_compute_system_values;
pub mod lower_io;
pub mod lower_load_const_to_scalar;
pub mod lower_phis_to_scalar;
pub mod lower_subgroups;
pub mod lower_system_values;

// -- draw-time variant lowering (final branch)
pub mod lower_alpha_test;
pub mod lower_clamp_color_outputs;
pub mod lower_clip_disable;
pub mod lower_clip_planes;
pub mod lower_flatshade;
pub mod lower_point_size;
pub mod lower_two_sided_color;
pub mod variant_util;

/// An optimisation or lowering pass over a whole shader. A pass with parameters is a
/// struct whose fields hold them ([`FromPassArgs`] builds it from text).
pub trait Pass {
    /// Mesa name of the pass.
    fn name(&self) -> &'static str;
    /// Runs the pass: `Ok(true)` when it changed the shader, or why it refused it
    /// (the shader is then left valid and, unless the failure says otherwise,
    /// unchanged).
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure>;
}

/// Why a pass refused a shader: the constructs a pass cannot handle, each named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassFailure {
    /// `inline_functions`: inlining would grow a function past the instruction limit
    /// (piglit's call-tree explosions); the call stays.
    #[error(
        "shader too large after inlining: function `{function}` would exceed {limit} instructions"
    )]
    InlineLimit {
        /// The function that would have grown too large.
        function: String,
        /// The limit.
        limit: usize,
    },
    /// `lower_alpha_test`: color 0 is written outside the entry point.
    #[error("color 0 is stored in function `{function}`, not in the entry point")]
    AlphaStoreOutsideEntry {
        /// The function storing it.
        function: String,
    },
    /// `lower_alpha_test`: a dynamically indexed store may write draw buffer 0.
    #[error("draw buffer 0 is written with a dynamic index")]
    AlphaStoreDynamicIndex,
    /// `lower_alpha_test`: color 0 is written inside a loop.
    #[error("color 0 is stored inside a loop; run lower_io_to_temporaries first")]
    AlphaStoreInLoop,
    /// `lower_clip_disable` / `lower_clip_planes`: `gl_ClipDistance` is written with a
    /// slot only known at run time.
    #[error("gl_ClipDistance stored with a dynamic slot")]
    ClipDistanceDynamicSlot,
    /// `lower_subgroups`: a 64-bit ballot or subgroup mask needs 64-bit integer ALU.
    #[error(
        "@{intrinsic} with a 64-bit result is not supported (no 64-bit integer ALU); use a uvec2"
    )]
    SubgroupValue64 {
        /// The intrinsic.
        intrinsic: &'static str,
    },
}

macro_rules! declare_passes {
    ($($name:ident => $(@$args:ident)? $pass:path),* $(,)?) => {
        /// Names of every registered pass.
        pub const PASS_NAMES: &[&str] = &[$(stringify!($name)),*];

        /// Builds the registered pass `name` with its arguments (`key=value` words,
        /// empty for passes without parameters).
        pub fn build_pass(name: &str, args: &str) -> Result<Box<dyn Pass>, PassArgsError> {
            match name {
                $(stringify!($name) => {
                    // Passes without parameters only check that none were given.
                    #[allow(unused_mut)]
                    let mut args = PassArgs::parse(stringify!($name), args)?;
                    let pass = declare_passes!(@build $($args)? $pass, args);
                    args.finish()?;
                    Ok(Box::new(pass))
                })*
                _ => Err(PassArgsError::UnknownPass(name.to_string())),
            }
        }
    };
    (@build args $pass:path, $a:ident) => {
        <$pass as FromPassArgs>::from_args(&mut $a)?
    };
    (@build $pass:path, $a:ident) => {
        $pass
    };
}

declare_passes! {
    // -- optimisation (core)
    opt_constant_folding => opt_constant_folding::OptConstantFolding,
    opt_dce => opt_dce::OptDce,
    copy_prop => copy_prop::CopyProp,
    opt_cse => opt_cse::OptCse,
    opt_dead_cf => opt_dead_cf::OptDeadCf,
    opt_remove_phis => opt_remove_phis::OptRemovePhis,
    opt_undef => opt_undef::OptUndef,

    // -- optimisation (opt branch)
    opt_algebraic => opt_algebraic::OptAlgebraic,
    opt_algebraic_exact => opt_algebraic::OptAlgebraicExact,
    opt_peephole_select => opt_peephole_select::OptPeepholeSelect,
    opt_conditional_discard => opt_peephole_select::OptConditionalDiscard,
    opt_if => opt_if::OptIf,
    opt_loop_unroll => opt_loop_unroll::OptLoopUnroll,
    opt_move => opt_move::OptMove,

    // -- variable lowering (vars branch); the mode sets are the ones the link
    // pipeline runs these passes with
    inline_functions => @args inline_functions::InlineFunctions,
    lower_global_vars_to_local => lower_global_vars_to_local::LowerGlobalVarsToLocal,
    split_var_copies => split_var_copies::SplitVarCopies,
    lower_var_copies => lower_var_copies::LowerVarCopies,
    lower_vars_to_ssa => lower_vars_to_ssa::LowerVarsToSsa,
    lower_indirect_derefs => lower_indirect_derefs::LowerIndirectDerefs::TEMPS,
    remove_dead_variables => remove_dead_variables::RemoveDeadVariables::TEMPS,
    lower_io_to_temporaries => lower_io_to_temporaries::LowerIoToTemporaries::OUTPUTS,

    // -- IO and scalar lowering (io branch)
    lower_alu_to_scalar => lower_alu_to_scalar::LowerAluToScalar,
    lower_phis_to_scalar => lower_phis_to_scalar::LowerPhisToScalar,
    lower_load_const_to_scalar => lower_load_const_to_scalar::LowerLoadConstToScalar,
    lower_system_values => lower_system_values::LowerSystemValues,
    lower_compute_system_values => lower_compute_system_values::LowerComputeSystemValues,
    lower_subgroups => @args lower_subgroups::LowerSubgroups,
    lower_io => lower_io::LowerIo,
    lower_explicit_io => lower_io::LowerExplicitIo,

    // -- draw-time variant lowering (final branch; `finalize` runs them per key)
    lower_clamp_color_outputs => lower_clamp_color_outputs::LowerClampColorOutputs,
    lower_flatshade => lower_flatshade::LowerFlatshade,
    lower_alpha_test => @args lower_alpha_test::LowerAlphaTest,
    lower_two_sided_color => lower_two_sided_color::LowerTwoSidedColor,
    lower_point_size => @args lower_point_size::LowerPointSize,
    lower_clip_planes => @args lower_clip_planes::LowerClipPlanes,
    lower_clip_disable => @args lower_clip_disable::LowerClipDisable,
}

/// The registered pass `name` when it takes no arguments (or all of them have
/// defaults).
pub fn pass_by_name(name: &str) -> Option<Box<dyn Pass>> {
    build_pass(name, "").ok()
}

/// Error from the runner: a pass that cannot be built, a pass that refused the
/// shader, or a pass that broke the IR.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PassError {
    /// Unknown pass name or bad arguments.
    #[error(transparent)]
    Args(#[from] PassArgsError),
    /// The named pass refused the shader (a size limit, an unsupported construct).
    #[error("{pass}: {failure}")]
    Failed {
        /// Pass name.
        pass: &'static str,
        /// Why.
        #[source]
        failure: PassFailure,
    },
    /// Validation failed after the named pass.
    #[error("NIR invalid after {pass}:\n{errors}")]
    Invalid {
        /// Pass name.
        pass: &'static str,
        /// The errors.
        errors: ValidationErrors,
    },
}

fn debug_flag(flag: &str) -> bool {
    std::env::var("RGL_NIR_DEBUG").is_ok_and(|v| v.split(',').any(|f| f.trim() == flag))
}

/// Called after every pass that made progress, with the pass name and the shader.
pub type Observer<'a> = dyn FnMut(&'static str, &Shader) + 'a;

/// The one pass runner. Every pipeline (file tests, the optimisation loop, the link
/// pipeline, draw-time finalisation) runs its passes through a `Runner`, so
/// `RGL_NIR_DEBUG=print,validate`, the observer hook (dumps, translation validation)
/// and validation behave the same everywhere.
pub struct Runner<'a> {
    /// Print the shader after every pass that made progress (`RGL_NIR_DEBUG=print`).
    pub print: bool,
    /// Validate after every pass (`RGL_NIR_DEBUG=validate`, always in debug builds).
    pub validate: bool,
    /// Called after every pass that made progress.
    pub observer: Option<&'a mut Observer<'a>>,
}

impl Default for Runner<'_> {
    fn default() -> Self {
        Runner::new()
    }
}

impl<'a> Runner<'a> {
    /// A runner configured from `RGL_NIR_DEBUG`.
    pub fn new() -> Runner<'a> {
        Runner {
            print: debug_flag("print"),
            validate: cfg!(debug_assertions) || debug_flag("validate"),
            observer: None,
        }
    }
    /// A runner that also calls `observer` after every pass that made progress.
    pub fn with_observer(observer: &'a mut Observer<'a>) -> Runner<'a> {
        Runner {
            observer: Some(observer),
            ..Runner::new()
        }
    }
    /// Runs one pass (printing, validating and observing as configured); returns its
    /// progress. Analyses the pass kept are dropped afterwards (they live only within
    /// one runner sequence: [`Self::run_all`], the optimisation loop).
    pub fn run(&mut self, pass: &dyn Pass, shader: &mut Shader) -> Result<bool, PassError> {
        let result = self.run_kept(pass, shader);
        drop_kept_analyses(shader);
        result
    }
    /// [`Self::run`] inside a sequence: the use lists a pass that changed nothing kept
    /// stay for the next pass (Mesa's `nir_metadata_preserve(impl, nir_metadata_all)`
    /// after a pass without progress; a pass with progress preserves none).
    pub(crate) fn run_kept(
        &mut self,
        pass: &dyn Pass,
        shader: &mut Shader,
    ) -> Result<bool, PassError> {
        let name = pass.name();
        let progress = pass.run(shader).map_err(|failure| PassError::Failed {
            pass: name,
            failure,
        })?;
        self.after(name, shader, progress)?;
        Ok(progress)
    }
    /// What follows every pass on a shader it ran on: printing and observing when it
    /// made progress, validation when enabled. [`Self::run`] calls it; a pass over
    /// two shaders at once (the varying link passes of [`crate::link`]) calls it on
    /// each of them.
    ///
    /// A pass that made progress keeps no analysis: its kept use lists are dropped
    /// here (a pass that changed nothing left the shader as it was, so what it kept
    /// is current; validation rebuilds and compares it).
    pub fn after(
        &mut self,
        name: &'static str,
        shader: &mut Shader,
        progress: bool,
    ) -> Result<(), PassError> {
        if progress {
            drop_kept_analyses(shader);
        }
        if progress && self.print {
            eprintln!("NIR after {name}:\n{}", crate::print::print_shader(shader));
        }
        if self.validate {
            validate(shader).map_err(|errors| PassError::Invalid { pass: name, errors })?;
        }
        if progress {
            if let Some(obs) = self.observer.as_mut() {
                obs(name, shader);
            }
        }
        Ok(())
    }
    /// Runs a registered pass by name (one without arguments).
    pub fn run_named(&mut self, name: &str, shader: &mut Shader) -> Result<bool, PassError> {
        let pass = build_pass(name, "")?;
        self.run(pass.as_ref(), shader)
    }
    /// Runs passes by name in order; returns whether any made progress.
    pub fn run_all(&mut self, names: &[&str], shader: &mut Shader) -> Result<bool, PassError> {
        let mut run = || {
            let mut any = false;
            for name in names {
                let pass = build_pass(name, "")?;
                any |= self.run_kept(pass.as_ref(), shader)?;
            }
            Ok(any)
        };
        let result = run();
        drop_kept_analyses(shader);
        result
    }
    /// Runs the named passes in order, repeatedly, until none makes progress or
    /// `max_iterations` rounds ran. Returns the number of rounds that made progress.
    pub fn run_to_fixed_point(
        &mut self,
        names: &[&str],
        shader: &mut Shader,
        max_iterations: usize,
    ) -> Result<usize, PassError> {
        let mut rounds = 0;
        while rounds < max_iterations && self.run_all(names, shader)? {
            rounds += 1;
        }
        Ok(rounds)
    }
}

/// Drops the analyses passes kept on every function body of `shader` (the end of a
/// runner sequence, or a pass that changed it).
pub fn drop_kept_analyses(shader: &mut Shader) {
    for f in shader.functions.values_mut() {
        if let Some(body) = f.body.as_mut() {
            body.invalidate_uses();
        }
    }
}

/// Runs one pass with a default [`Runner`]; returns its progress.
pub fn run_pass(pass: &dyn Pass, shader: &mut Shader) -> Result<bool, PassError> {
    Runner::new().run(pass, shader)
}

/// Runs passes by name in order with a default [`Runner`].
pub fn run_passes(names: &[&str], shader: &mut Shader) -> Result<bool, PassError> {
    Runner::new().run_all(names, shader)
}

/// [`Runner::run_to_fixed_point`] with a default runner.
pub fn run_to_fixed_point(
    names: &[&str],
    shader: &mut Shader,
    max_iterations: usize,
) -> Result<usize, PassError> {
    Runner::new().run_to_fixed_point(names, shader, max_iterations)
}

/// Calls `f` on every function body of the shader; ORs the progress.
pub fn for_each_impl(
    shader: &mut Shader,
    mut f: impl FnMut(&mut crate::ir::FunctionImpl) -> bool,
) -> bool {
    let mut progress = false;
    let ids: Vec<_> = shader.functions.keys().collect();
    for id in ids {
        if let Some(body) = shader.functions[id].body.as_mut() {
            progress |= f(body);
        }
    }
    progress
}
