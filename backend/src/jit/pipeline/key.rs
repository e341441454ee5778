//! The pipeline variant key: the part of the driver state a fused per-pixel
//! function is specialized on (llvmpipe's `lp_fragment_shader_variant_key`), and
//! its derivation from the bound state of a draw.
//!
//! In the key: the render-target formats and per-target blend state (equations,
//! factors, colour mask), the depth/stencil format with the depth function, the
//! depth write and the stencil functions, operations and masks of both faces.
//! Not in the key (read at run time, so changing them costs no compile): the
//! blend constant colour, the stencil reference values, the depth clamp range,
//! uniforms, textures. State that has no effect is canonicalized before it
//! reaches the key (the factors of a disabled blend, the depth state when neither
//! test is on, stencil on a format without stencil), so it makes no new variant.

use crate::driver::{
    BlendState, CompareFunc, DepthStencilState, RtBlend, StencilFace, StencilOp, MAX_RENDER_TARGETS,
};
use crate::format::Format;

/// Stencil state of one face, without the reference value (dynamic).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StencilKey {
    /// Test function (`ref & mask FUNC stored & mask`).
    pub func: CompareFunc,
    /// Mask of both sides of the test.
    pub value_mask: u8,
    /// Bits written.
    pub write_mask: u8,
    /// Op when the stencil test fails.
    pub fail_op: StencilOp,
    /// Op when the stencil test passes and the depth test fails.
    pub zfail_op: StencilOp,
    /// Op when both pass.
    pub zpass_op: StencilOp,
}

impl StencilKey {
    fn of(face: &StencilFace) -> StencilKey {
        StencilKey {
            func: face.func,
            value_mask: face.value_mask,
            write_mask: face.write_mask,
            fail_op: face.fail_op,
            zfail_op: face.zfail_op,
            zpass_op: face.zpass_op,
        }
    }
}

/// Depth/stencil part of the key (present when a test is enabled on a bound
/// depth/stencil surface).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZsKey {
    /// The surface format (a depth format).
    pub format: Format,
    /// Depth function, `None` when the depth test is off.
    pub depth_func: Option<CompareFunc>,
    /// Depth writes (only with the depth test on).
    pub depth_write: bool,
    /// Front and back stencil state, `None` when the stencil test is off or the
    /// format has no stencil.
    pub stencil: Option<[StencilKey; 2]>,
}

/// Colour part of the key for one bound render target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ColorKey {
    /// The surface format (a colour format).
    pub format: Format,
    /// Blend state; factors and equations are the defaults when blending is off.
    pub blend: RtBlend,
    /// The shader output word (first of four) this target stores, `None` when the
    /// shader writes no colour for it (the target is left alone).
    pub output: Option<u16>,
}

/// The state a fused pipeline function is specialized on (besides its shader).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    /// Depth/stencil test and write.
    pub zs: Option<ZsKey>,
    /// Per render target slot; `None` for an unbound slot or one that is never
    /// written (colour mask 0 or no shader output).
    pub colors: [Option<ColorKey>; MAX_RENDER_TARGETS],
    /// Output word of the second (dual-source) colour, when the shader writes one.
    pub src1: Option<u16>,
    /// Output word of `gl_FragDepth`, when written.
    pub depth_out: Option<u16>,
    /// Depth/stencil is tested before the shader runs (no discard, no depth write).
    pub early_z: bool,
}

/// What the draw knows when it asks for a pipeline.
pub struct DrawState<'a> {
    /// Format of each colour slot (`None` when unbound).
    pub color_formats: &'a [Option<Format>],
    /// Format of the depth/stencil surface.
    pub zs_format: Option<Format>,
    /// Blend state.
    pub blend: &'a BlendState,
    /// Depth/stencil state.
    pub dsa: &'a DepthStencilState,
    /// Output register of each colour slot (as the draw resolved it).
    pub rt_out: &'a [Option<usize>],
    /// Dual-source output register.
    pub src1_out: Option<usize>,
    /// Depth output register.
    pub depth_out: Option<usize>,
    /// Early depth/stencil.
    pub early_z: bool,
}

fn word(reg: usize) -> Option<u16> {
    u16::try_from(reg.checked_mul(4)?).ok()
}

/// The key of `state`, or why the fused pipeline does not specialize it.
pub fn derive(state: &DrawState<'_>) -> std::result::Result<PipelineKey, String> {
    let dsa = state.dsa;
    let zs = match state.zs_format {
        Some(format) if format.is_depth() => {
            let stencil = (dsa.stencil_test && format.has_stencil())
                .then(|| [StencilKey::of(&dsa.front), StencilKey::of(&dsa.back)]);
            (dsa.depth_test || stencil.is_some()).then_some(ZsKey {
                format,
                depth_func: dsa.depth_test.then_some(dsa.depth_func),
                depth_write: dsa.depth_test && dsa.depth_write,
                stencil,
            })
        }
        Some(format) => return Err(format!("{format:?} as the depth/stencil target")),
        None => None,
    };
    if state.color_formats.len() > MAX_RENDER_TARGETS {
        return Err(format!("{} colour targets", state.color_formats.len()));
    }
    let mut colors = [None; MAX_RENDER_TARGETS];
    for (rt, format) in state.color_formats.iter().enumerate() {
        let Some(format) = *format else { continue };
        if format.color_components() == 0 {
            return Err(format!("{format:?} as a colour target"));
        }
        let blend = state.blend.rt[rt.min(MAX_RENDER_TARGETS - 1)];
        let output = match state.rt_out.get(rt).copied().flatten() {
            Some(reg) => Some(word(reg).ok_or("output register out of range")?),
            None => None,
        };
        if output.is_none() || blend.color_mask & 0xf == 0 {
            continue;
        }
        let blend = if blend.enabled {
            blend
        } else {
            RtBlend {
                color_mask: blend.color_mask & 0xf,
                ..RtBlend::default()
            }
        };
        colors[rt] = Some(ColorKey {
            format,
            blend: RtBlend {
                color_mask: blend.color_mask & 0xf,
                ..blend
            },
            output,
        });
    }
    let src1 = match state.src1_out {
        Some(reg) => Some(word(reg).ok_or("output register out of range")?),
        None => None,
    };
    let depth_out = match state.depth_out {
        Some(reg) => Some(word(reg).ok_or("output register out of range")?),
        None => None,
    };
    Ok(PipelineKey {
        zs,
        colors,
        src1,
        depth_out,
        early_z: state.early_z,
    })
}
