//! Draw-time variant finalisation: the state-tracker lowering passes a variant key
//! asks for, run on a clone of the linked (IO-lowered) NIR before the driver compiles
//! it. This is the part of Mesa's `st_create_fp_variant` / `st_create_common_variant`
//! (`st_program.c`; keys `st_fp_variant_key` / `st_common_variant_key`) that rewrites the shader.
//!
//! [`VariantLowering`] holds every key-driven option; its `Default` changes nothing.
//! [`finalize_variant`] builds the passes the options ask for from
//! [`VARIANT_PASSES`] and runs them, in that order, through a [`Runner`] like any other
//! pass (so `RGL_NIR_DEBUG=print,validate` and the runner's observer apply), then, when
//! any of them changed the shader, a short cleanup (`copy_prop`,
//! `opt_constant_folding`, `opt_dce` to a fixed point). Adding a draw-time lowering
//! takes its pass file, its file tests, its option here and one line in
//! [`VARIANT_PASSES`]. The driver's [`CompilerOptions`] say whether the shader's IO is
//! lowered (the lowerings need it) and whether to scalarise what they add.
//!
//! * Fragment: `clamp_color` → `flatshade` → alpha test → two-sided color.
//! * Vertex, tessellation evaluation, geometry: `clamp_color` → point size → user
//!   clip planes.
//!
//! Options that do not apply to the shader's stage are ignored, so one
//! `VariantLowering` may describe a whole pipeline's state; the state tracker decides
//! which stage is the last vertex stage (point size and clip planes belong there).
//! State-tracker uniforms (alpha reference, point size, clip planes) are vec4 slots
//! the state tracker appends after the program's uniforms; the options carry the slot
//! numbers the passes `load_uniform` from.

use crate::ir::{Shader, Stage};
use crate::options::CompilerOptions;
use crate::passes::lower_alpha_test::{CompareFunc, LowerAlphaTest};
use crate::passes::lower_clamp_color_outputs::LowerClampColorOutputs;
use crate::passes::lower_clip_planes::LowerClipPlanes;
use crate::passes::lower_flatshade::LowerFlatshade;
use crate::passes::lower_point_size::LowerPointSize;
use crate::passes::lower_two_sided_color::LowerTwoSidedColor;
use crate::passes::{Pass, PassError, Runner};
/// The shader-rewriting part of a draw-time variant key. `Default` is "no lowering".
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VariantLowering {
    /// Saturate color outputs (`lower_clamp_color_outputs`): VS/TES/GS
    /// `COL0`/`COL1`/`BFC0`/`BFC1`, FS `FRAG_RESULT_COLOR`/`DATAn`. Set when color
    /// clamping (`GL_CLAMP_VERTEX_COLOR` / `GL_CLAMP_FRAGMENT_COLOR`, or
    /// `FIXED_ONLY` with a fixed-point target) is on. Mesa key `clamp_color`.
    pub clamp_color: bool,
    /// FS: unqualified color inputs (`COL0`/`COL1`/`BFC0`/`BFC1`) become flat
    /// (`lower_flatshade`). Set for `glShadeModel(GL_FLAT)`. Mesa key
    /// `lower_flatshade`.
    pub flatshade: bool,
    /// FS: the alpha test function (`lower_alpha_test`); `Always` (the default) is
    /// off, `Never` kills every fragment. Mesa key `lower_alpha_func`.
    pub alpha_func: CompareFunc,
    /// FS: the uniform slot whose `x` is the alpha reference value (already clamped
    /// to [0, 1] by the state tracker). Only read when `alpha_func` is not `Always`.
    pub alpha_ref_slot: u32,
    /// FS: select `BFC0`/`BFC1` instead of `COL0`/`COL1` on back faces
    /// (`lower_two_sided_color`). Set for two-sided lighting
    /// (`GL_VERTEX_PROGRAM_TWO_SIDE`). Mesa key `lower_two_sided_color`.
    pub two_sided_color: bool,
    /// Last vertex stage: `Some(slot)` writes `gl_PointSize = load_uniform(slot).x`
    /// (`lower_point_size`). Set when `GL_PROGRAM_POINT_SIZE` is off and the driver
    /// wants the size from the shader. Mesa key `export_point_size`.
    pub point_size_slot: Option<u32>,
    /// Last vertex stage: enabled user clip planes, bit `i` = `GL_CLIP_PLANEi`
    /// (`lower_clip_planes`); 0 is off. Mesa key `lower_ucp`.
    pub ucp_enables: u8,
    /// Last vertex stage: the first of 8 consecutive vec4 uniform slots holding the
    /// clip planes (plane `i` at `clip_plane_slot + i`, eye-space `glClipPlane`
    /// values for user programs). Only read when `ucp_enables` is not 0.
    pub clip_plane_slot: u32,
}

impl VariantLowering {
    /// True when no option asks for a change.
    pub fn is_noop(&self) -> bool {
        *self
            == VariantLowering {
                alpha_ref_slot: self.alpha_ref_slot,
                clip_plane_slot: self.clip_plane_slot,
                ..VariantLowering::default()
            }
    }
}

/// One draw-time lowering: the pass the options ask for on a shader of the stage, or
/// `None` when they do not (or it does not apply to the stage).
pub type VariantPass = fn(&VariantLowering, Stage) -> Option<Box<dyn Pass>>;

/// Fragment shaders.
fn fragment(stage: Stage) -> bool {
    stage == Stage::Fragment
}

/// Stages that can be the last before rasterization (vertex, tessellation
/// evaluation, geometry); which one is last is the state tracker's decision.
fn vertex_like(stage: Stage) -> bool {
    matches!(stage, Stage::Vertex | Stage::TessEval | Stage::Geometry)
}

/// The draw-time lowerings, in the order they run (Mesa's variant order; the
/// fragment and the vertex-like lists interleave without changing either).
pub const VARIANT_PASSES: &[VariantPass] = &[
    |o, s| {
        (o.clamp_color && (fragment(s) || vertex_like(s))).then(|| boxed(LowerClampColorOutputs))
    },
    |o, s| (o.flatshade && fragment(s)).then(|| boxed(LowerFlatshade)),
    |o, s| {
        (o.alpha_func != CompareFunc::Always && fragment(s)).then(|| {
            boxed(LowerAlphaTest {
                func: o.alpha_func,
                ref_slot: o.alpha_ref_slot,
            })
        })
    },
    |o, s| (o.two_sided_color && fragment(s)).then(|| boxed(LowerTwoSidedColor)),
    |o, s| {
        let slot = o.point_size_slot.filter(|_| vertex_like(s))?;
        Some(boxed(LowerPointSize { slot }))
    },
    |o, s| {
        (o.ucp_enables != 0 && vertex_like(s)).then(|| {
            boxed(LowerClipPlanes {
                enables: o.ucp_enables,
                first_slot: o.clip_plane_slot,
            })
        })
    },
];

fn boxed(pass: impl Pass + 'static) -> Box<dyn Pass> {
    Box::new(pass)
}

/// The cleanup run after any lowering changed the shader.
const CLEANUP: &[&str] = &["copy_prop", "opt_constant_folding", "opt_dce"];

/// Rounds of [`CLEANUP`] at most.
const CLEANUP_ROUNDS: usize = 8;

/// The scalar lowering re-run after draw-time lowerings for a driver that wants
/// scalar code ([`CompilerOptions::lower_to_scalar`]).
pub const SCALAR: &[&str] = &[
    "lower_alu_to_scalar",
    "lower_phis_to_scalar",
    "lower_load_const_to_scalar",
];

/// Why a variant could not be finalised.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FinalizeError {
    /// The variant needs a draw-time lowering, those work on IO intrinsics, and the
    /// driver keeps IO as variables ([`CompilerOptions::lower_io`] is false).
    #[error(
        "the variant needs {pass}, which works on lowered IO, and the driver keeps IO variables"
    )]
    IoNotLowered {
        /// The first lowering the variant needs.
        pass: &'static str,
    },
    /// A pass refused the shader or broke it.
    #[error(transparent)]
    Pass(#[from] PassError),
}

/// Applies `opts` to `shader` ([`VARIANT_PASSES`] in order) through `runner`, then,
/// when anything changed, scalarises again for a driver that asked for scalar code
/// and cleans up. `compiler` is the driver's options for the shader's stage. Returns
/// whether the shader changed.
pub fn finalize_variant(
    shader: &mut Shader,
    opts: &VariantLowering,
    compiler: &CompilerOptions,
    runner: &mut Runner,
) -> Result<bool, FinalizeError> {
    let stage = shader.stage;
    let passes: Vec<Box<dyn Pass>> = VARIANT_PASSES
        .iter()
        .filter_map(|p| p(opts, stage))
        .collect();
    if let Some(first) = passes.first() {
        if !shader.info.io_lowered {
            return Err(FinalizeError::IoNotLowered { pass: first.name() });
        }
    }
    let mut changed = false;
    for pass in &passes {
        changed |= runner.run(pass.as_ref(), shader)?;
    }
    if changed {
        if compiler.lower_to_scalar {
            runner.run_all(SCALAR, shader)?;
        }
        runner.run_to_fixed_point(CLEANUP, shader, CLEANUP_ROUNDS)?;
    }
    Ok(changed)
}
