//! Translation of GL fixed-function state into the driver's state objects
//! (blend, depth-stencil, rasterizer), viewport and scissor, done at draw time.
//! The last object of each kind is remembered with its description, so a draw
//! whose state did not change creates nothing and only rebinds.

use rgl_backend::driver::{
    BlendEquation, BlendFactor, BlendHandle, BlendState, CompareFunc, CullFace, DepthStencilHandle,
    DepthStencilState, PolygonMode, RasterizerHandle, RasterizerState, Rect, RtBlend, StateHandle,
    StencilFace, StencilOp, Viewport, MAX_RENDER_TARGETS,
};

use crate::error::{GlError, GlResult};
use crate::fixed_state::FixedState;
use crate::gl;
use crate::Context;

/// The driver state objects created for the last draws.
#[derive(Debug, Default)]
pub(crate) struct DriverStateCache {
    blend: Option<(BlendState, BlendHandle)>,
    dsa: Option<(DepthStencilState, DepthStencilHandle)>,
    rast: Option<(RasterizerState, RasterizerHandle)>,
}

/// GL compare function → driver.
pub(crate) fn compare_func(f: u32) -> CompareFunc {
    match f {
        gl::NEVER => CompareFunc::Never,
        gl::LESS => CompareFunc::Less,
        gl::EQUAL => CompareFunc::Equal,
        gl::LEQUAL => CompareFunc::LessEqual,
        gl::GREATER => CompareFunc::Greater,
        gl::NOTEQUAL => CompareFunc::NotEqual,
        gl::GEQUAL => CompareFunc::GreaterEqual,
        _ => CompareFunc::Always,
    }
}

fn blend_factor(f: u32) -> BlendFactor {
    match f {
        gl::ZERO => BlendFactor::Zero,
        gl::SRC_COLOR => BlendFactor::SrcColor,
        gl::ONE_MINUS_SRC_COLOR => BlendFactor::OneMinusSrcColor,
        gl::DST_COLOR => BlendFactor::DstColor,
        gl::ONE_MINUS_DST_COLOR => BlendFactor::OneMinusDstColor,
        gl::SRC_ALPHA => BlendFactor::SrcAlpha,
        gl::ONE_MINUS_SRC_ALPHA => BlendFactor::OneMinusSrcAlpha,
        gl::DST_ALPHA => BlendFactor::DstAlpha,
        gl::ONE_MINUS_DST_ALPHA => BlendFactor::OneMinusDstAlpha,
        gl::CONSTANT_COLOR => BlendFactor::ConstantColor,
        gl::ONE_MINUS_CONSTANT_COLOR => BlendFactor::OneMinusConstantColor,
        gl::CONSTANT_ALPHA => BlendFactor::ConstantAlpha,
        gl::ONE_MINUS_CONSTANT_ALPHA => BlendFactor::OneMinusConstantAlpha,
        gl::SRC_ALPHA_SATURATE => BlendFactor::SrcAlphaSaturate,
        gl::SRC1_COLOR => BlendFactor::Src1Color,
        gl::ONE_MINUS_SRC1_COLOR => BlendFactor::OneMinusSrc1Color,
        gl::SRC1_ALPHA => BlendFactor::Src1Alpha,
        gl::ONE_MINUS_SRC1_ALPHA => BlendFactor::OneMinusSrc1Alpha,
        _ => BlendFactor::One,
    }
}

fn blend_equation(e: u32) -> BlendEquation {
    match e {
        gl::FUNC_SUBTRACT => BlendEquation::Subtract,
        gl::FUNC_REVERSE_SUBTRACT => BlendEquation::ReverseSubtract,
        gl::MIN => BlendEquation::Min,
        gl::MAX => BlendEquation::Max,
        _ => BlendEquation::Add,
    }
}

fn stencil_op(op: u32) -> StencilOp {
    match op {
        gl::ZERO => StencilOp::Zero,
        gl::REPLACE => StencilOp::Replace,
        gl::INCR => StencilOp::Incr,
        gl::DECR => StencilOp::Decr,
        gl::INVERT => StencilOp::Invert,
        gl::INCR_WRAP => StencilOp::IncrWrap,
        gl::DECR_WRAP => StencilOp::DecrWrap,
        _ => StencilOp::Keep,
    }
}

fn polygon_mode(m: u32) -> PolygonMode {
    match m {
        gl::POINT => PolygonMode::Point,
        gl::LINE => PolygonMode::Line,
        _ => PolygonMode::Fill,
    }
}

/// The driver blend state of `f`.
pub(crate) fn blend_state(f: &FixedState) -> BlendState {
    let b = &f.blend_state;
    let mask = f
        .color_mask
        .iter()
        .enumerate()
        .fold(0u8, |m, (i, &on)| m | ((on as u8) << i));
    let rt = RtBlend {
        enabled: f.blend,
        rgb_eq: blend_equation(b.eq_rgb),
        src_rgb: blend_factor(b.src_rgb),
        dst_rgb: blend_factor(b.dst_rgb),
        alpha_eq: blend_equation(b.eq_alpha),
        src_alpha: blend_factor(b.src_alpha),
        dst_alpha: blend_factor(b.dst_alpha),
        color_mask: mask,
    };
    BlendState {
        rt: [rt; MAX_RENDER_TARGETS],
    }
}

/// The driver depth-stencil state of `f`.
pub(crate) fn depth_stencil_state(f: &FixedState) -> DepthStencilState {
    let face = |s: &crate::fixed_state::StencilFace| StencilFace {
        func: compare_func(s.func),
        reference: s.reference.clamp(0, 255) as u8,
        value_mask: s.value_mask as u8,
        write_mask: s.write_mask as u8,
        fail_op: stencil_op(s.fail),
        zfail_op: stencil_op(s.zfail),
        zpass_op: stencil_op(s.zpass),
    };
    DepthStencilState {
        depth_test: f.depth_test,
        depth_write: f.depth_mask,
        depth_func: compare_func(f.depth_func),
        stencil_test: f.stencil_test,
        front: face(&f.stencil[0]),
        back: face(&f.stencil[1]),
    }
}

/// The driver rasterizer state of `f`.
pub(crate) fn rasterizer_state(f: &FixedState) -> RasterizerState {
    RasterizerState {
        front_ccw: f.front_face == gl::CCW,
        cull: match (f.cull_face, f.cull_mode) {
            (false, _) => CullFace::None,
            (true, gl::FRONT) => CullFace::Front,
            (true, gl::FRONT_AND_BACK) => CullFace::FrontAndBack,
            (true, _) => CullFace::Back,
        },
        polygon_mode_front: polygon_mode(f.polygon_mode[0]),
        polygon_mode_back: polygon_mode(f.polygon_mode[1]),
        offset_fill: f.polygon_offset[0],
        offset_line: f.polygon_offset[1],
        offset_point: f.polygon_offset[2],
        offset_scale: f.polygon_offset_params[0],
        offset_units: f.polygon_offset_params[1],
        offset_clamp: 0.0,
        point_size: f.point_size,
        program_point_size: f.program_point_size,
        point_coord_upper_left: true,
        line_width: f.line_width,
        flatshade_first: f.provoking_vertex == gl::FIRST_VERTEX_CONVENTION,
        scissor: f.scissor_test,
        depth_clamp: f.depth_clamp,
        clip_plane_enable: f.clip_planes,
        rasterizer_discard: f.rasterizer_discard,
    }
}

fn driver_err(e: rgl_backend::Error) -> GlError {
    log::warn!("driver state error: {e}");
    GlError::OutOfMemory
}

impl Context {
    /// Creates (when changed) and binds the blend, depth-stencil and rasterizer
    /// objects, and sets viewport, scissor and blend color.
    pub(crate) fn bind_fixed_state(&mut self) -> GlResult<()> {
        let f = &self.fixed;
        let (blend, dsa, rast) = (blend_state(f), depth_stencil_state(f), rasterizer_state(f));
        let [vx, vy, vw, vh] = f.viewport;
        let viewport = Viewport {
            x: vx as f32,
            y: vy as f32,
            width: vw as f32,
            height: vh as f32,
            near: f.depth_range[0] as f32,
            far: f.depth_range[1] as f32,
        };
        let [sx, sy, sw, sh] = f.scissor;
        let scissor = Rect {
            x: sx,
            y: sy,
            width: sw.max(0) as u32,
            height: sh.max(0) as u32,
        };
        let blend_color = f.blend_color;
        let d = self.driver.as_mut();
        let c = &mut self.driver_states;

        let h = match c.blend {
            Some((s, h)) if s == blend => h,
            old => {
                let h = d.create_blend_state(&blend).map_err(driver_err)?;
                if let Some((_, o)) = old {
                    let _ = d.delete_state(StateHandle::Blend(o));
                }
                c.blend = Some((blend, h));
                h
            }
        };
        d.bind_blend_state(h).map_err(driver_err)?;
        let h = match c.dsa {
            Some((s, h)) if s == dsa => h,
            old => {
                let h = d.create_depth_stencil_state(&dsa).map_err(driver_err)?;
                if let Some((_, o)) = old {
                    let _ = d.delete_state(StateHandle::DepthStencil(o));
                }
                c.dsa = Some((dsa, h));
                h
            }
        };
        d.bind_depth_stencil_state(h).map_err(driver_err)?;
        let h = match c.rast {
            Some((s, h)) if s == rast => h,
            old => {
                let h = d.create_rasterizer_state(&rast).map_err(driver_err)?;
                if let Some((_, o)) = old {
                    let _ = d.delete_state(StateHandle::Rasterizer(o));
                }
                c.rast = Some((rast, h));
                h
            }
        };
        d.bind_rasterizer_state(h).map_err(driver_err)?;
        d.set_viewport(viewport).map_err(driver_err)?;
        d.set_scissor(scissor).map_err(driver_err)?;
        d.set_blend_color(blend_color).map_err(driver_err)?;
        Ok(())
    }
}
