//! Per-fragment and rasterizer state: capabilities (`glEnable`), viewport, scissor,
//! depth, stencil, blending, color masks, culling, polygon offset and mode,
//! provoking vertex, point size, clear values, user clip planes and the shade model.
//! Setters validate their enums and ranges as GL does; a rejected call changes
//! nothing.

use crate::error::GlError;
use crate::gl;
use crate::limits;
use crate::Context;

/// Depth, stencil and blend function state of one face or render target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    /// Compare function.
    pub func: u32,
    /// Reference value.
    pub reference: i32,
    /// Compare mask.
    pub value_mask: u32,
    /// Write mask.
    pub write_mask: u32,
    /// Op when the stencil test fails.
    pub fail: u32,
    /// Op when stencil passes and depth fails.
    pub zfail: u32,
    /// Op when both pass.
    pub zpass: u32,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            func: gl::ALWAYS,
            reference: 0,
            value_mask: !0,
            write_mask: !0,
            fail: gl::KEEP,
            zfail: gl::KEEP,
            zpass: gl::KEEP,
        }
    }
}

/// Blend equations and factors.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlendState {
    /// RGB equation.
    pub eq_rgb: u32,
    /// Alpha equation.
    pub eq_alpha: u32,
    /// Source RGB factor.
    pub src_rgb: u32,
    /// Destination RGB factor.
    pub dst_rgb: u32,
    /// Source alpha factor.
    pub src_alpha: u32,
    /// Destination alpha factor.
    pub dst_alpha: u32,
}

impl Default for BlendState {
    fn default() -> Self {
        BlendState {
            eq_rgb: gl::FUNC_ADD,
            eq_alpha: gl::FUNC_ADD,
            src_rgb: gl::ONE,
            dst_rgb: gl::ZERO,
            src_alpha: gl::ONE,
            dst_alpha: gl::ZERO,
        }
    }
}

/// The state this module owns.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedState {
    /// `glHint` modes, indexed like [`crate::queries::HINT_TARGETS`].
    pub hints: [u32; crate::queries::HINT_TARGETS.len()],
    /// `GL_BLEND`.
    pub blend: bool,
    /// `GL_CULL_FACE`.
    pub cull_face: bool,
    /// `GL_DEPTH_TEST`.
    pub depth_test: bool,
    /// `GL_STENCIL_TEST`.
    pub stencil_test: bool,
    /// `GL_SCISSOR_TEST`.
    pub scissor_test: bool,
    /// `GL_POLYGON_OFFSET_FILL`, `_LINE`, `_POINT`.
    pub polygon_offset: [bool; 3],
    /// `GL_PROGRAM_POINT_SIZE`.
    pub program_point_size: bool,
    /// `GL_DEPTH_CLAMP`.
    pub depth_clamp: bool,
    /// `GL_CLIP_DISTANCEi` / `GL_CLIP_PLANEi` enables, one bit each.
    pub clip_planes: u8,
    /// `GL_VERTEX_PROGRAM_TWO_SIDE`.
    pub two_side: bool,
    /// `GL_RASTERIZER_DISCARD`.
    pub rasterizer_discard: bool,
    /// `GL_PRIMITIVE_RESTART`.
    pub primitive_restart: bool,
    /// `glPrimitiveRestartIndex`.
    pub restart_index: u32,
    /// `GL_ALPHA_TEST` (compatibility).
    pub alpha_test: bool,
    /// `glAlphaFunc` function and reference (clamped to [0, 1]).
    pub alpha_func: (u32, f32),
    /// Viewport x, y, width, height.
    pub viewport: [i32; 4],
    /// Depth range near, far.
    pub depth_range: [f64; 2],
    /// Scissor x, y, width, height.
    pub scissor: [i32; 4],
    /// Depth compare function.
    pub depth_func: u32,
    /// Depth writes.
    pub depth_mask: bool,
    /// Front and back stencil.
    pub stencil: [StencilFace; 2],
    /// Blend state.
    pub blend_state: BlendState,
    /// Blend constant color.
    pub blend_color: [f32; 4],
    /// Color write mask (r, g, b, a).
    pub color_mask: [bool; 4],
    /// Cull face (`GL_BACK` …).
    pub cull_mode: u32,
    /// Front face winding.
    pub front_face: u32,
    /// Polygon offset factor, units.
    pub polygon_offset_params: [f32; 2],
    /// Polygon mode front, back.
    pub polygon_mode: [u32; 2],
    /// Provoking vertex convention.
    pub provoking_vertex: u32,
    /// `glPointSize`.
    pub point_size: f32,
    /// `glLineWidth`.
    pub line_width: f32,
    /// Clear color, depth, stencil.
    pub clear_color: [f32; 4],
    /// Clear depth.
    pub clear_depth: f64,
    /// Clear stencil.
    pub clear_stencil: i32,
    /// `glShadeModel`.
    pub shade_model: u32,
    /// `glClipPlane` equations in eye space.
    pub clip_plane_eqs: [[f64; 4]; limits::MAX_CLIP_DISTANCES as usize],
}

impl FixedState {
    /// GL's initial state for a `width` × `height` default framebuffer.
    pub fn new(width: u32, height: u32) -> FixedState {
        let (w, h) = (
            width.min(i32::MAX as u32) as i32,
            height.min(i32::MAX as u32) as i32,
        );
        FixedState {
            hints: [gl::DONT_CARE; crate::queries::HINT_TARGETS.len()],
            blend: false,
            cull_face: false,
            depth_test: false,
            stencil_test: false,
            scissor_test: false,
            polygon_offset: [false; 3],
            program_point_size: false,
            depth_clamp: false,
            clip_planes: 0,
            two_side: false,
            rasterizer_discard: false,
            primitive_restart: false,
            restart_index: 0,
            alpha_test: false,
            alpha_func: (gl::ALWAYS, 0.0),
            viewport: [0, 0, w, h],
            depth_range: [0.0, 1.0],
            scissor: [0, 0, w, h],
            depth_func: gl::LESS,
            depth_mask: true,
            stencil: [StencilFace::default(); 2],
            blend_state: BlendState::default(),
            blend_color: [0.0; 4],
            color_mask: [true; 4],
            cull_mode: gl::BACK,
            front_face: gl::CCW,
            polygon_offset_params: [0.0; 2],
            polygon_mode: [gl::FILL; 2],
            provoking_vertex: gl::LAST_VERTEX_CONVENTION,
            point_size: 1.0,
            line_width: 1.0,
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            clear_stencil: 0,
            shade_model: gl::SMOOTH,
            clip_plane_eqs: [[0.0; 4]; limits::MAX_CLIP_DISTANCES as usize],
        }
    }
}

fn is_compare_func(f: u32) -> bool {
    (gl::NEVER..=gl::ALWAYS).contains(&f)
}

fn is_stencil_op(op: u32) -> bool {
    matches!(
        op,
        gl::KEEP
            | gl::ZERO
            | gl::REPLACE
            | gl::INCR
            | gl::DECR
            | gl::INVERT
            | gl::INCR_WRAP
            | gl::DECR_WRAP
    )
}

fn is_blend_factor(f: u32) -> bool {
    matches!(
        f,
        gl::ZERO
            | gl::ONE
            | gl::SRC_COLOR
            | gl::ONE_MINUS_SRC_COLOR
            | gl::SRC_ALPHA
            | gl::ONE_MINUS_SRC_ALPHA
            | gl::DST_ALPHA
            | gl::ONE_MINUS_DST_ALPHA
            | gl::DST_COLOR
            | gl::ONE_MINUS_DST_COLOR
            | gl::SRC_ALPHA_SATURATE
            | gl::CONSTANT_COLOR
            | gl::ONE_MINUS_CONSTANT_COLOR
            | gl::CONSTANT_ALPHA
            | gl::ONE_MINUS_CONSTANT_ALPHA
            | gl::SRC1_COLOR
            | gl::ONE_MINUS_SRC1_COLOR
            | gl::SRC1_ALPHA
            | gl::ONE_MINUS_SRC1_ALPHA
    )
}

fn is_blend_equation(e: u32) -> bool {
    matches!(
        e,
        gl::FUNC_ADD | gl::FUNC_SUBTRACT | gl::FUNC_REVERSE_SUBTRACT | gl::MIN | gl::MAX
    )
}

/// Faces selected by `GL_FRONT` / `GL_BACK` / `GL_FRONT_AND_BACK`.
fn faces(face: u32) -> Option<&'static [usize]> {
    match face {
        gl::FRONT => Some(&[0]),
        gl::BACK => Some(&[1]),
        gl::FRONT_AND_BACK => Some(&[0, 1]),
        _ => None,
    }
}

impl Context {
    fn set_capability(&mut self, cap: u32, on: bool) {
        let s = &mut self.fixed;
        match cap {
            gl::BLEND => s.blend = on,
            gl::CULL_FACE => s.cull_face = on,
            gl::DEPTH_TEST => s.depth_test = on,
            gl::STENCIL_TEST => s.stencil_test = on,
            gl::SCISSOR_TEST => s.scissor_test = on,
            gl::POLYGON_OFFSET_FILL => s.polygon_offset[0] = on,
            gl::POLYGON_OFFSET_LINE => s.polygon_offset[1] = on,
            gl::POLYGON_OFFSET_POINT => s.polygon_offset[2] = on,
            gl::PROGRAM_POINT_SIZE => s.program_point_size = on,
            gl::DEPTH_CLAMP => s.depth_clamp = on,
            gl::VERTEX_PROGRAM_TWO_SIDE => s.two_side = on,
            gl::RASTERIZER_DISCARD => s.rasterizer_discard = on,
            gl::PRIMITIVE_RESTART => s.primitive_restart = on,
            gl::ALPHA_TEST => s.alpha_test = on,
            c if (gl::CLIP_DISTANCE0..gl::CLIP_DISTANCE0 + limits::MAX_CLIP_DISTANCES)
                .contains(&c) =>
            {
                let bit = 1u8 << (c - gl::CLIP_DISTANCE0);
                if on {
                    s.clip_planes |= bit;
                } else {
                    s.clip_planes &= !bit;
                }
            }
            // Accepted and without effect on a single-sampled software target.
            gl::MULTISAMPLE
            | gl::DITHER
            | gl::LINE_SMOOTH
            | gl::POINT_SPRITE
            | gl::FRAMEBUFFER_SRGB
            | gl::TEXTURE_CUBE_MAP_SEAMLESS
            | gl::TEXTURE_1D
            | gl::TEXTURE_2D
            | gl::TEXTURE_3D
            | gl::TEXTURE_CUBE_MAP
            | gl::TEXTURE_RECTANGLE
            | gl::LIGHTING
            | gl::COLOR_MATERIAL
            | gl::NORMALIZE
            | gl::FOG => {}
            _ => self.record(GlError::InvalidEnum),
        }
    }

    /// `glEnable`.
    pub fn enable(&mut self, cap: u32) {
        self.set_capability(cap, true);
    }

    /// `glDisable`.
    pub fn disable(&mut self, cap: u32) {
        self.set_capability(cap, false);
    }

    /// `glIsEnabled`.
    pub fn is_enabled(&mut self, cap: u32) -> bool {
        let s = &self.fixed;
        match cap {
            gl::BLEND => s.blend,
            gl::CULL_FACE => s.cull_face,
            gl::DEPTH_TEST => s.depth_test,
            gl::STENCIL_TEST => s.stencil_test,
            gl::SCISSOR_TEST => s.scissor_test,
            gl::POLYGON_OFFSET_FILL => s.polygon_offset[0],
            gl::POLYGON_OFFSET_LINE => s.polygon_offset[1],
            gl::POLYGON_OFFSET_POINT => s.polygon_offset[2],
            gl::PROGRAM_POINT_SIZE => s.program_point_size,
            gl::DEPTH_CLAMP => s.depth_clamp,
            gl::VERTEX_PROGRAM_TWO_SIDE => s.two_side,
            gl::RASTERIZER_DISCARD => s.rasterizer_discard,
            gl::PRIMITIVE_RESTART => s.primitive_restart,
            gl::ALPHA_TEST => s.alpha_test,
            c if (gl::CLIP_DISTANCE0..gl::CLIP_DISTANCE0 + limits::MAX_CLIP_DISTANCES)
                .contains(&c) =>
            {
                s.clip_planes & (1 << (c - gl::CLIP_DISTANCE0)) != 0
            }
            _ => {
                self.record(GlError::InvalidEnum);
                false
            }
        }
    }

    /// `glViewport`.
    pub fn viewport(&mut self, x: i32, y: i32, width: i32, height: i32) {
        if width < 0 || height < 0 {
            return self.record(GlError::InvalidValue);
        }
        let max = limits::MAX_VIEWPORT_DIMS as i32;
        self.fixed.viewport = [x, y, width.min(max), height.min(max)];
    }

    /// `glDepthRange`, clamped to [0, 1].
    pub fn depth_range_f64(&mut self, near: f64, far: f64) {
        self.fixed.depth_range = [near.clamp(0.0, 1.0), far.clamp(0.0, 1.0)];
    }

    /// `glScissor`.
    pub fn scissor(&mut self, x: i32, y: i32, width: i32, height: i32) {
        if width < 0 || height < 0 {
            return self.record(GlError::InvalidValue);
        }
        self.fixed.scissor = [x, y, width, height];
    }

    /// `glDepthFunc`.
    pub fn depth_func(&mut self, func: u32) {
        if !is_compare_func(func) {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.depth_func = func;
    }

    /// `glDepthMask`.
    pub fn depth_mask(&mut self, on: bool) {
        self.fixed.depth_mask = on;
    }

    /// `glStencilFuncSeparate`.
    pub fn stencil_func_separate(&mut self, face: u32, func: u32, reference: i32, mask: u32) {
        let (Some(fs), true) = (faces(face), is_compare_func(func)) else {
            return self.record(GlError::InvalidEnum);
        };
        for &f in fs {
            let s = &mut self.fixed.stencil[f];
            s.func = func;
            s.reference = reference;
            s.value_mask = mask;
        }
    }

    /// `glStencilFunc`.
    pub fn stencil_func(&mut self, func: u32, reference: i32, mask: u32) {
        self.stencil_func_separate(gl::FRONT_AND_BACK, func, reference, mask);
    }

    /// `glStencilOpSeparate`.
    pub fn stencil_op_separate(&mut self, face: u32, fail: u32, zfail: u32, zpass: u32) {
        let Some(fs) = faces(face) else {
            return self.record(GlError::InvalidEnum);
        };
        if ![fail, zfail, zpass].into_iter().all(is_stencil_op) {
            return self.record(GlError::InvalidEnum);
        }
        for &f in fs {
            let s = &mut self.fixed.stencil[f];
            (s.fail, s.zfail, s.zpass) = (fail, zfail, zpass);
        }
    }

    /// `glStencilOp`.
    pub fn stencil_op(&mut self, fail: u32, zfail: u32, zpass: u32) {
        self.stencil_op_separate(gl::FRONT_AND_BACK, fail, zfail, zpass);
    }

    /// `glStencilMaskSeparate`.
    pub fn stencil_mask_separate(&mut self, face: u32, mask: u32) {
        let Some(fs) = faces(face) else {
            return self.record(GlError::InvalidEnum);
        };
        for &f in fs {
            self.fixed.stencil[f].write_mask = mask;
        }
    }

    /// `glStencilMask`.
    pub fn stencil_mask(&mut self, mask: u32) {
        self.stencil_mask_separate(gl::FRONT_AND_BACK, mask);
    }

    /// `glBlendEquationSeparate`.
    pub fn blend_equation_separate(&mut self, rgb: u32, alpha: u32) {
        if !is_blend_equation(rgb) || !is_blend_equation(alpha) {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.blend_state.eq_rgb = rgb;
        self.fixed.blend_state.eq_alpha = alpha;
    }

    /// `glBlendEquation`.
    pub fn blend_equation(&mut self, mode: u32) {
        self.blend_equation_separate(mode, mode);
    }

    /// `glBlendFuncSeparate`.
    pub fn blend_func_separate(&mut self, src_rgb: u32, dst_rgb: u32, src_a: u32, dst_a: u32) {
        if ![src_rgb, dst_rgb, src_a, dst_a]
            .into_iter()
            .all(is_blend_factor)
        {
            return self.record(GlError::InvalidEnum);
        }
        let b = &mut self.fixed.blend_state;
        (b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha) = (src_rgb, dst_rgb, src_a, dst_a);
    }

    /// `glBlendFunc`.
    pub fn blend_func(&mut self, src: u32, dst: u32) {
        self.blend_func_separate(src, dst, src, dst);
    }

    /// `glBlendColor`.
    pub fn blend_color(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.fixed.blend_color = [r, g, b, a];
    }

    /// `glColorMask`.
    pub fn color_mask(&mut self, r: bool, g: bool, b: bool, a: bool) {
        self.fixed.color_mask = [r, g, b, a];
    }

    /// `glCullFace`.
    pub fn cull_face(&mut self, mode: u32) {
        if faces(mode).is_none() {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.cull_mode = mode;
    }

    /// `glFrontFace`.
    pub fn front_face(&mut self, mode: u32) {
        if mode != gl::CW && mode != gl::CCW {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.front_face = mode;
    }

    /// `glPolygonOffset`.
    pub fn polygon_offset(&mut self, factor: f32, units: f32) {
        self.fixed.polygon_offset_params = [factor, units];
    }

    /// `glPolygonMode`.
    pub fn polygon_mode(&mut self, face: u32, mode: u32) {
        let (Some(fs), true) = (faces(face), matches!(mode, gl::POINT | gl::LINE | gl::FILL))
        else {
            return self.record(GlError::InvalidEnum);
        };
        for &f in fs {
            self.fixed.polygon_mode[f] = mode;
        }
    }

    /// `glProvokingVertex`.
    pub fn provoking_vertex(&mut self, mode: u32) {
        if mode != gl::FIRST_VERTEX_CONVENTION && mode != gl::LAST_VERTEX_CONVENTION {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.provoking_vertex = mode;
    }

    /// `glPointSize`.
    pub fn point_size(&mut self, size: f32) {
        if size.is_nan() || size <= 0.0 {
            return self.record(GlError::InvalidValue);
        }
        self.fixed.point_size = size;
    }

    /// `glLineWidth`.
    pub fn line_width(&mut self, width: f32) {
        if width.is_nan() || width <= 0.0 {
            return self.record(GlError::InvalidValue);
        }
        self.fixed.line_width = width;
    }

    /// `glPrimitiveRestartIndex`.
    pub fn primitive_restart_index(&mut self, index: u32) {
        self.fixed.restart_index = index;
    }

    /// `glAlphaFunc` (compatibility).
    pub fn alpha_func(&mut self, func: u32, reference: f32) {
        if !is_compare_func(func) {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.alpha_func = (func, reference.clamp(0.0, 1.0));
    }

    /// `glClearColor`.
    pub fn clear_color(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.fixed.clear_color = [r, g, b, a];
    }

    /// `glClearDepth`.
    pub fn clear_depth_f64(&mut self, depth: f64) {
        self.fixed.clear_depth = depth.clamp(0.0, 1.0);
    }

    /// `glClearStencil`.
    pub fn clear_stencil(&mut self, s: i32) {
        self.fixed.clear_stencil = s;
    }

    /// `glShadeModel` (compatibility).
    pub fn shade_model(&mut self, mode: u32) {
        if mode != gl::FLAT && mode != gl::SMOOTH {
            return self.record(GlError::InvalidEnum);
        }
        self.fixed.shade_model = mode;
    }

    /// `glClipPlane` (compatibility): the plane is stored in eye space, transformed
    /// by the inverse of the current modelview matrix.
    pub fn clip_plane(&mut self, plane: u32, equation: [f64; 4]) {
        let Some(i) = plane
            .checked_sub(gl::CLIP_PLANE0)
            .filter(|i| *i < limits::MAX_CLIP_DISTANCES)
        else {
            return self.record(GlError::InvalidEnum);
        };
        let eye = self.matrices.plane_to_eye(equation);
        self.fixed.clip_plane_eqs[i as usize] = eye;
    }
}
