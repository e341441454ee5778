//! Translation of GL fixed-function state into the driver's state objects
//! (blend, depth-stencil, rasterizer), viewport and scissor, done at draw time.
//! Like Mesa's `cso_cache`, the objects of each kind are kept by description
//! (up to [`STATES_PER_KIND`], least recently used first out), so state that
//! returns to an earlier value rebinds an existing object instead of creating
//! one: an application alternating between a few states creates a few objects,
//! however many draws it makes.

use rgl_backend::driver::{
    BlendEquation, BlendFactor, BlendHandle, BlendState, CompareFunc, CullFace, DepthStencilHandle,
    DepthStencilState, Driver, PolygonMode, RasterizerHandle, RasterizerState, Rect, RtBlend,
    StateHandle, StencilFace, StencilOp, Viewport, MAX_RENDER_TARGETS,
};

use crate::error::{GlError, GlResult};
use crate::fixed_state::FixedState;
use crate::gl;
use crate::Context;

/// The driver state objects created for the last draws.
/// Driver state objects kept per kind (blend, depth-stencil, rasterizer, vertex
/// elements).
pub(crate) const STATES_PER_KIND: usize = 64;

/// Driver objects of one kind with their descriptions, most recently used first.
#[derive(Debug)]
pub(crate) struct StateObjects<S, H> {
    entries: Vec<(S, H)>,
}

impl<S, H> Default for StateObjects<S, H> {
    fn default() -> Self {
        StateObjects {
            entries: Vec::new(),
        }
    }
}

impl<S: PartialEq + Clone, H: Copy> StateObjects<S, H> {
    /// The object for `s`: an existing one (moved to the front), or one made by
    /// `create`; when the kind is full, the least recently used object (never the
    /// one bound, which is the most recently used) is deleted first.
    pub(crate) fn get(
        &mut self,
        d: &mut dyn Driver,
        s: &S,
        create: fn(&mut dyn Driver, &S) -> rgl_backend::Result<H>,
        handle: fn(H) -> StateHandle,
    ) -> rgl_backend::Result<H> {
        if let Some(i) = self.entries.iter().position(|(k, _)| k == s) {
            if i != 0 {
                let e = self.entries.remove(i);
                self.entries.insert(0, e);
            }
            return Ok(self.entries[0].1);
        }
        let h = create(d, s)?;
        if self.entries.len() >= STATES_PER_KIND {
            if let Some((_, old)) = self.entries.pop() {
                let _ = d.delete_state(handle(old));
            }
        }
        self.entries.insert(0, (s.clone(), h));
        Ok(h)
    }
}

#[derive(Debug, Default)]
pub(crate) struct DriverStateCache {
    blend: StateObjects<BlendState, BlendHandle>,
    dsa: StateObjects<DepthStencilState, DepthStencilHandle>,
    rast: StateObjects<RasterizerState, RasterizerHandle>,
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

        let h = c
            .blend
            .get(
                d,
                &blend,
                |d, s| d.create_blend_state(s),
                StateHandle::Blend,
            )
            .map_err(driver_err)?;
        d.bind_blend_state(h).map_err(driver_err)?;
        let h = c
            .dsa
            .get(
                d,
                &dsa,
                |d, s| d.create_depth_stencil_state(s),
                StateHandle::DepthStencil,
            )
            .map_err(driver_err)?;
        d.bind_depth_stencil_state(h).map_err(driver_err)?;
        let h = c
            .rast
            .get(
                d,
                &rast,
                |d, s| d.create_rasterizer_state(s),
                StateHandle::Rasterizer,
            )
            .map_err(driver_err)?;
        d.bind_rasterizer_state(h).map_err(driver_err)?;
        d.set_viewport(viewport).map_err(driver_err)?;
        d.set_scissor(scissor).map_err(driver_err)?;
        d.set_blend_color(blend_color).map_err(driver_err)?;
        Ok(())
    }
}
