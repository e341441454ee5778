//! Draw-time variant finalisation: the state-tracker lowering passes a variant key
//! asks for, run on a clone of the linked (IO-lowered) NIR before the driver compiles
//! it. This is the part of Mesa's `st_create_fp_variant` / `st_create_common_variant`
//! (`st_program.c`; keys `st_fp_variant_key` / `st_common_variant_key`) that rewrites the shader.
//!
//! [`VariantLowering`] holds every key-driven option; its `Default` changes nothing.
//! [`finalize_variant`] applies the options in Mesa's order through a [`Runner`] (so
//! `RGL_NIR_DEBUG=print,validate` and the runner's observer apply), then, when any of
//! them changed the shader, a short cleanup (`copy_prop`, `opt_constant_folding`,
//! `opt_dce` to a fixed point).
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
//!
//! [`pass_with_args`] builds the parameterised passes from `key=value` text, for the
//! file tests (`// args: func=less slot=3`).

use crate::ir::{Shader, Stage};
use crate::passes::lower_alpha_test::{lower_alpha_test, CompareFunc, LowerAlphaTest};
use crate::passes::lower_clamp_color_outputs::lower_clamp_color_outputs;
use crate::passes::lower_clip_disable::LowerClipDisable;
use crate::passes::lower_clip_planes::{lower_clip_planes, LowerClipPlanes};
use crate::passes::lower_flatshade::lower_flatshade;
use crate::passes::lower_point_size::{lower_point_size, LowerPointSize};
use crate::passes::lower_two_sided_color::lower_two_sided_color;
use crate::passes::{pass_by_name, Pass, PassError, Runner};

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

/// The cleanup run after any lowering changed the shader.
const CLEANUP: &[&str] = &["copy_prop", "opt_constant_folding", "opt_dce"];

/// Rounds of [`CLEANUP`] at most.
const CLEANUP_ROUNDS: usize = 8;

/// Applies `opts` to `shader` in Mesa's variant order through `runner`, then cleans
/// up when anything changed. Returns whether the shader changed.
pub fn finalize_variant(
    shader: &mut Shader,
    opts: &VariantLowering,
    runner: &mut Runner,
) -> Result<bool, PassError> {
    let mut changed = false;
    match shader.stage {
        Stage::Fragment => {
            if opts.clamp_color {
                changed |= runner.run_fn("lower_clamp_color_outputs", shader, |s| {
                    Ok(lower_clamp_color_outputs(s))
                })?;
            }
            if opts.flatshade {
                changed |= runner.run_fn("lower_flatshade", shader, |s| Ok(lower_flatshade(s)))?;
            }
            if opts.alpha_func != CompareFunc::Always {
                let (func, slot) = (opts.alpha_func, opts.alpha_ref_slot);
                changed |= runner.run_fn("lower_alpha_test", shader, |s| {
                    lower_alpha_test(s, func, slot)
                })?;
            }
            if opts.two_sided_color {
                changed |= runner.run_fn("lower_two_sided_color", shader, |s| {
                    Ok(lower_two_sided_color(s))
                })?;
            }
        }
        Stage::Vertex | Stage::TessEval | Stage::Geometry => {
            if opts.clamp_color {
                changed |= runner.run_fn("lower_clamp_color_outputs", shader, |s| {
                    Ok(lower_clamp_color_outputs(s))
                })?;
            }
            if let Some(slot) = opts.point_size_slot {
                changed |= runner.run_fn("lower_point_size", shader, |s| {
                    Ok(lower_point_size(s, slot))
                })?;
            }
            if opts.ucp_enables != 0 {
                let (enables, slot) = (opts.ucp_enables, opts.clip_plane_slot);
                changed |= runner.run_fn("lower_clip_planes", shader, |s| {
                    lower_clip_planes(s, enables, slot)
                })?;
            }
        }
        Stage::TessCtrl | Stage::Compute => {}
    }
    if changed {
        runner.run_to_fixed_point(CLEANUP, shader, CLEANUP_ROUNDS)?;
    }
    Ok(changed)
}

/// A registered pass, with parameters for the parameterised ones given as
/// whitespace-separated `key=value` pairs:
/// `lower_alpha_test` `func=<never|less|...|always> slot=N`, `lower_point_size`
/// `slot=N`, `lower_clip_planes` `enables=N slot=N`, `lower_clip_disable` `enables=N`
/// (numbers decimal or `0x`/`0b` prefixed). Empty `args` gives the registered
/// instance.
pub fn pass_with_args(name: &str, args: &str) -> Result<Box<dyn Pass>, String> {
    let mut pairs = Vec::new();
    for word in args.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or(format!("pass argument `{word}` is not key=value"))?;
        pairs.push((k, v));
    }
    if pairs.is_empty() {
        return pass_by_name(name).ok_or(format!("unknown pass {name}"));
    }
    let mut unused: Vec<&str> = pairs.iter().map(|(k, _)| *k).collect();
    let mut get = |key: &str| -> Option<&str> {
        unused.retain(|k| *k != key);
        pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    };
    let pass: Box<dyn Pass> = match name {
        "lower_alpha_test" => {
            let mut p = LowerAlphaTest::REGISTERED;
            if let Some(f) = get("func") {
                p.func = CompareFunc::parse(f).ok_or(format!("unknown compare func `{f}`"))?;
            }
            if let Some(s) = get("slot") {
                p.ref_slot = parse_num(s)?;
            }
            Box::new(p)
        }
        "lower_point_size" => {
            let mut p = LowerPointSize::REGISTERED;
            if let Some(s) = get("slot") {
                p.slot = parse_num(s)?;
            }
            Box::new(p)
        }
        "lower_clip_planes" => {
            let mut p = LowerClipPlanes::REGISTERED;
            if let Some(e) = get("enables") {
                p.enables = u8::try_from(parse_num(e)?).map_err(|_| "enables is 8 bits")?;
            }
            if let Some(s) = get("slot") {
                p.first_slot = parse_num(s)?;
            }
            Box::new(p)
        }
        "lower_clip_disable" => {
            let mut p = LowerClipDisable::REGISTERED;
            if let Some(e) = get("enables") {
                p.enables = u8::try_from(parse_num(e)?).map_err(|_| "enables is 8 bits")?;
            }
            Box::new(p)
        }
        _ => return Err(format!("pass {name} takes no arguments")),
    };
    if let Some(k) = unused.first() {
        return Err(format!("pass {name} has no argument `{k}`"));
    }
    Ok(pass)
}

/// A decimal, `0x` hex or `0b` binary number.
fn parse_num(s: &str) -> Result<u32, String> {
    let r = if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16)
    } else if let Some(b) = s.strip_prefix("0b") {
        u32::from_str_radix(b, 2)
    } else {
        s.parse()
    };
    r.map_err(|_| format!("bad number `{s}`"))
}
