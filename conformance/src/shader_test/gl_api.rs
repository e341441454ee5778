//! [`GlApi`]: the GL entry points the full runner calls, shaped like the
//! `glow` crate's `HasContext` (same names and arguments, but safe and taking
//! `&mut self`), so that [`super::gl_runner::GlRunner`] holds the runner's GL
//! logic once and each context is a thin adapter: rgl's state tracker
//! ([`super::rgl_context`]) and the host's GL through glow plus the
//! compatibility-profile entry points glow lacks ([`super::host`]).
//!
//! Besides the calls, an adapter says the few things in which the two
//! contexts have always been driven differently (which intermediate error
//! checks are made, whether draw/read buffers and pack alignment are set
//! explicitly, which features are refused up front and with what words).

use super::command::UniformBase;
use super::support::Capabilities;

/// Calls the macro `$then` with the [`GlApi`] methods that are, in both
/// `rgl_state::Context` and glow's `HasContext`, the call of the same name
/// and arguments: each adapter forwards them with that macro.
macro_rules! shared_gl_methods {
    ($then:ident) => {
        $then! {
            /// `glGetError`.
            fn get_error(&mut self) -> u32;
            /// `glBindFramebuffer`.
            fn bind_framebuffer(&mut self, target: u32, fbo: Option<Self::Framebuffer>);
            /// `glBindRenderbuffer`.
            fn bind_renderbuffer(&mut self, target: u32, rb: Option<Self::Renderbuffer>);
            /// `glRenderbufferStorage`.
            fn renderbuffer_storage(&mut self, target: u32, format: u32, width: i32, height: i32);
            /// `glFramebufferRenderbuffer`.
            fn framebuffer_renderbuffer(
                &mut self,
                target: u32,
                attachment: u32,
                rb_target: u32,
                rb: Option<Self::Renderbuffer>,
            );
            /// `glCheckFramebufferStatus`.
            fn check_framebuffer_status(&mut self, target: u32) -> u32;
            /// `glDrawBuffer`.
            fn draw_buffer(&mut self, buffer: u32);
            /// `glReadBuffer`.
            fn read_buffer(&mut self, buffer: u32);
            /// `glViewport`.
            fn viewport(&mut self, x: i32, y: i32, width: i32, height: i32);
            /// `glShaderSource` of one string.
            fn shader_source(&mut self, shader: Self::Shader, source: &str);
            /// `glCompileShader`.
            fn compile_shader(&mut self, shader: Self::Shader);
            /// `glGetShaderiv(GL_COMPILE_STATUS)`.
            fn get_shader_compile_status(&mut self, shader: Self::Shader) -> bool;
            /// `glGetShaderInfoLog`.
            fn get_shader_info_log(&mut self, shader: Self::Shader) -> String;
            /// `glAttachShader`.
            fn attach_shader(&mut self, program: Self::Program, shader: Self::Shader);
            /// `glBindAttribLocation`.
            fn bind_attrib_location(&mut self, program: Self::Program, index: u32, name: &str);
            /// `glLinkProgram`.
            fn link_program(&mut self, program: Self::Program);
            /// `glGetProgramiv(GL_LINK_STATUS)`.
            fn get_program_link_status(&mut self, program: Self::Program) -> bool;
            /// `glGetProgramInfoLog`.
            fn get_program_info_log(&mut self, program: Self::Program) -> String;
            /// `glUseProgram`.
            fn use_program(&mut self, program: Option<Self::Program>);
            /// `glGetProgramiv`.
            fn get_program_parameter_i32(&mut self, program: Self::Program, pname: u32) -> i32;
            /// `glGetActiveUniformBlockiv`.
            fn get_active_uniform_block_parameter_i32(
                &mut self,
                program: Self::Program,
                index: u32,
                pname: u32,
            ) -> i32;
            /// `glUniformBlockBinding`.
            fn uniform_block_binding(&mut self, program: Self::Program, index: u32, binding: u32);
            /// `glGetAttribLocation` (`None` for -1).
            fn get_attrib_location(&mut self, program: Self::Program, name: &str) -> Option<u32>;
            /// `glDeleteBuffers` of one.
            fn delete_buffer(&mut self, buffer: Self::Buffer);
            /// `glBindBuffer`.
            fn bind_buffer(&mut self, target: u32, buffer: Option<Self::Buffer>);
            /// `glBindBufferBase`.
            fn bind_buffer_base(&mut self, target: u32, index: u32, buffer: Option<Self::Buffer>);
            /// `glBufferData`.
            fn buffer_data_u8_slice(&mut self, target: u32, data: &[u8], usage: u32);
            /// `glBufferSubData`.
            fn buffer_sub_data_u8_slice(&mut self, target: u32, offset: i32, data: &[u8]);
            /// `glDeleteVertexArrays` of one.
            fn delete_vertex_array(&mut self, vao: Self::VertexArray);
            /// `glBindVertexArray`.
            fn bind_vertex_array(&mut self, vao: Option<Self::VertexArray>);
            /// `glVertexAttribPointer` (offset into the bound array buffer).
            fn vertex_attrib_pointer_f32(
                &mut self,
                index: u32,
                size: i32,
                ty: u32,
                normalized: bool,
                stride: i32,
                offset: i32,
            );
            /// `glVertexAttribIPointer`.
            fn vertex_attrib_pointer_i32(
                &mut self,
                index: u32,
                size: i32,
                ty: u32,
                stride: i32,
                offset: i32,
            );
            /// `glEnableVertexAttribArray`.
            fn enable_vertex_attrib_array(&mut self, index: u32);
            /// `glGetUniformLocation`.
            fn get_uniform_location(
                &mut self,
                program: Self::Program,
                name: &str,
            ) -> Option<Self::UniformLocation>;
            /// `glUniform1fv`.
            fn uniform_1_f32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[f32]);
            /// `glUniform2fv`.
            fn uniform_2_f32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[f32]);
            /// `glUniform3fv`.
            fn uniform_3_f32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[f32]);
            /// `glUniform4fv`.
            fn uniform_4_f32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[f32]);
            /// `glUniform1iv`.
            fn uniform_1_i32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[i32]);
            /// `glUniform2iv`.
            fn uniform_2_i32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[i32]);
            /// `glUniform3iv`.
            fn uniform_3_i32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[i32]);
            /// `glUniform4iv`.
            fn uniform_4_i32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[i32]);
            /// `glUniform1uiv`.
            fn uniform_1_u32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[u32]);
            /// `glUniform2uiv`.
            fn uniform_2_u32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[u32]);
            /// `glUniform3uiv`.
            fn uniform_3_u32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[u32]);
            /// `glUniform4uiv`.
            fn uniform_4_u32_slice(&mut self, loc: Option<&Self::UniformLocation>, v: &[u32]);
            /// `glUniformMatrix2fv`.
            fn uniform_matrix_2_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix3fv`.
            fn uniform_matrix_3_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix4fv`.
            fn uniform_matrix_4_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix2x3fv`.
            fn uniform_matrix_2x3_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix2x4fv`.
            fn uniform_matrix_2x4_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix3x2fv`.
            fn uniform_matrix_3x2_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix3x4fv`.
            fn uniform_matrix_3x4_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix4x2fv`.
            fn uniform_matrix_4x2_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glUniformMatrix4x3fv`.
            fn uniform_matrix_4x3_f32_slice(
                &mut self,
                loc: Option<&Self::UniformLocation>,
                transpose: bool,
                v: &[f32],
            );
            /// `glActiveTexture`.
            fn active_texture(&mut self, unit: u32);
            /// `glDeleteTextures` of one.
            fn delete_texture(&mut self, texture: Self::Texture);
            /// `glBindTexture`.
            fn bind_texture(&mut self, target: u32, texture: Option<Self::Texture>);
            /// `glTexParameteri`.
            fn tex_parameter_i32(&mut self, target: u32, pname: u32, value: i32);
            /// `glTexParameterf`.
            fn tex_parameter_f32(&mut self, target: u32, pname: u32, value: f32);
            /// `glTexParameterfv`.
            fn tex_parameter_f32_slice(&mut self, target: u32, pname: u32, values: &[f32]);
            /// `glEnable`.
            fn enable(&mut self, cap: u32);
            /// `glDisable`.
            fn disable(&mut self, cap: u32);
            /// `glPolygonMode`.
            fn polygon_mode(&mut self, face: u32, mode: u32);
            /// `glHint`.
            fn hint(&mut self, target: u32, mode: u32);
            /// `glDepthFunc`.
            fn depth_func(&mut self, func: u32);
            /// `glClearColor`.
            fn clear_color(&mut self, r: f32, g: f32, b: f32, a: f32);
            /// `glClearStencil`.
            fn clear_stencil(&mut self, stencil: i32);
            /// `glClear`.
            fn clear(&mut self, mask: u32);
            /// `glDrawArrays`.
            fn draw_arrays(&mut self, mode: u32, first: i32, count: i32);
            /// `glDrawArraysInstanced`.
            fn draw_arrays_instanced(&mut self, mode: u32, first: i32, count: i32, instances: i32);
            /// `glPixelStorei`.
            fn pixel_store_i32(&mut self, pname: u32, value: i32);
            /// `glDispatchCompute`.
            fn dispatch_compute(&mut self, x: u32, y: u32, z: u32);
            /// `glMemoryBarrier`.
            fn memory_barrier(&mut self, barriers: u32);
            /// `glFramebufferTexture2D`.
            fn framebuffer_texture_2d(
                &mut self,
                target: u32,
                attachment: u32,
                texture_target: u32,
                texture: Option<Self::Texture>,
                level: i32,
            );
            /// `glBindImageTexture`.
            fn bind_image_texture(
                &mut self,
                unit: u32,
                texture: Option<Self::Texture>,
                level: i32,
                layered: bool,
                layer: i32,
                access: u32,
                format: u32,
            );
            /// `glGetBufferSubData`.
            fn get_buffer_sub_data(&mut self, target: u32, offset: i32, dst: &mut [u8]);
        }
    };
}
pub(super) use shared_gl_methods;

/// Calls the macro `$then` with the [`GlApi`] methods that create an object:
/// in glow and in `rgl_state::Context` the call of the same name and
/// arguments, which fails with glow's message or rgl's
/// [`rgl_state::CreateError`].
macro_rules! creating_gl_methods {
    ($then:ident) => {
        $then! {
            /// `glGenFramebuffers` of one.
            fn create_framebuffer(&mut self) -> Result<Self::Framebuffer, String>;
            /// `glGenRenderbuffers` of one.
            fn create_renderbuffer(&mut self) -> Result<Self::Renderbuffer, String>;
            /// `glCreateProgram`.
            fn create_program(&mut self) -> Result<Self::Program, String>;
            /// `glCreateShader`.
            fn create_shader(&mut self, ty: u32) -> Result<Self::Shader, String>;
            /// `glGenBuffers` of one.
            fn create_buffer(&mut self) -> Result<Self::Buffer, String>;
            /// `glGenVertexArrays` of one.
            fn create_vertex_array(&mut self) -> Result<Self::VertexArray, String>;
            /// `glGenTextures` of one.
            fn create_texture(&mut self) -> Result<Self::Texture, String>;
        }
    };
}
pub(super) use creating_gl_methods;

/// Calls the macro `$then` with the [`GlApi`] methods that are the
/// `rgl_state::Context` call of the same name and arguments, but which the
/// host adapter implements itself (over the compatibility entry points glow
/// lacks, or glow's pixel-data wrappers).
macro_rules! rgl_shaped_gl_methods {
    ($then:ident) => {
        $then! {
            /// `glVertexPointer` (offset into the bound array buffer).
            fn vertex_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32);
            /// `glNormalPointer`.
            fn normal_pointer(&mut self, ty: u32, stride: i32, offset: i32);
            /// `glColorPointer`.
            fn color_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32);
            /// `glTexCoordPointer`.
            fn tex_coord_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32);
            /// `glEnableClientState`.
            fn enable_client_state(&mut self, array: u32);
            /// `glClientActiveTexture`.
            fn client_active_texture(&mut self, unit: u32);
            /// `glTexImage1D`.
            fn tex_image_1d(
                &mut self,
                target: u32,
                level: i32,
                internal: i32,
                width: i32,
                border: i32,
                format: u32,
                ty: u32,
                pixels: Option<&[u8]>,
            );
            /// `glTexImage2D`.
            fn tex_image_2d(
                &mut self,
                target: u32,
                level: i32,
                internal: i32,
                width: i32,
                height: i32,
                border: i32,
                format: u32,
                ty: u32,
                pixels: Option<&[u8]>,
            );
            /// `glTexImage3D`.
            fn tex_image_3d(
                &mut self,
                target: u32,
                level: i32,
                internal: i32,
                width: i32,
                height: i32,
                depth: i32,
                border: i32,
                format: u32,
                ty: u32,
                pixels: Option<&[u8]>,
            );
            /// `glClipPlane`.
            fn clip_plane(&mut self, plane: u32, equation: [f64; 4]);
            /// `glGetSubroutineUniformLocation` (-1 when there is none).
            fn get_subroutine_uniform_location(
                &mut self,
                program: Self::Program,
                shadertype: u32,
                name: &str,
            ) -> i32;
            /// `glGetSubroutineIndex` (`GL_INVALID_INDEX` when there is none).
            fn get_subroutine_index(
                &mut self,
                program: Self::Program,
                shadertype: u32,
                name: &str,
            ) -> u32;
            /// `glGetProgramStageiv`.
            fn get_program_stage_iv(&mut self, program: Self::Program, shadertype: u32, pname: u32) -> i32;
            /// `glUniformSubroutinesuiv`.
            fn uniform_subroutines_uiv(&mut self, shadertype: u32, indices: &[u32]);
            /// `glMatrixMode`.
            fn matrix_mode(&mut self, mode: u32);
            /// `glLoadIdentity`.
            fn load_identity(&mut self);
            /// `glOrtho`.
            fn ortho(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64);
            /// `glFrustum`.
            fn frustum(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64);
            /// `glColor4f`.
            fn color_4_f32(&mut self, r: f32, g: f32, b: f32, a: f32);
            /// `glMultiTexCoord4f`.
            fn multi_tex_coord_4_f32(&mut self, unit: u32, s: f32, t: f32, r: f32, q: f32);
            /// `glShadeModel`.
            fn shade_model(&mut self, mode: u32);
            /// `glProvokingVertex`.
            fn provoking_vertex(&mut self, mode: u32);
            /// `glReadPixels` into `pixels`.
            fn read_pixels(
                &mut self,
                x: i32,
                y: i32,
                width: i32,
                height: i32,
                format: u32,
                ty: u32,
                pixels: &mut [u8],
            );
        }
    };
}
pub(super) use rgl_shaped_gl_methods;

/// Declares a list of methods (for [`GlApi`]).
macro_rules! declare_gl_methods {
    ($(
        $(#[$doc:meta])*
        fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?;
    )*) => {
        $($(#[$doc])* fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)?;)*
    };
}

/// The GL calls of the full runner, one method per GL entry point (plus the
/// per-context choices documented on each item). Errors are recorded in the
/// context and read with [`GlApi::get_error`]; `Result`s are only for object
/// creation and argument conversion, as in glow.
#[allow(clippy::too_many_arguments)]
pub trait GlApi {
    /// A program object.
    type Program: Copy;
    /// A shader object.
    type Shader: Copy;
    /// A buffer object.
    type Buffer: Copy;
    /// A vertex array object.
    type VertexArray: Copy;
    /// A texture object.
    type Texture: Copy;
    /// A framebuffer object.
    type Framebuffer: Copy;
    /// A renderbuffer object.
    type Renderbuffer: Copy;
    /// A uniform location.
    type UniformLocation;

    /// Whether the runner checks for a GL error after each step that can
    /// raise one (naming the step), rather than only at the points the host
    /// peer always checked (where a step's error is named by the next check).
    const EAGER_CHECKS: bool;
    /// Whether the runner selects `GL_COLOR_ATTACHMENT0` as draw and read
    /// buffer of its framebuffer and sets `GL_PACK_ALIGNMENT` to 1 before
    /// reading colours, rather than relying on the defaults.
    const EXPLICIT_PIXEL_STATE: bool;
    /// Why `draw rect patch` (tessellation) cannot be drawn.
    const RECT_PATCHES_UNSUPPORTED: &'static str;
    /// Why `draw arrays GL_PATCHES` cannot be drawn, or `None` when that draw
    /// is left to the context.
    const ARRAY_PATCHES_UNSUPPORTED: Option<&'static str>;

    /// What the context advertises (versions, extensions, limits).
    fn capabilities(&self) -> Capabilities;
    /// What implementation this is, for reports.
    fn describe(&self) -> String;
    /// `glNamedStringARB(GL_SHADER_INCLUDE_ARB, name, string)`; `Err` (why)
    /// when the context has no such entry point.
    fn named_string(&mut self, name: &str, string: &str) -> Result<(), String>;
    /// `glCompileShaderIncludeARB(shader, paths)`; `Err` (why) when the
    /// context has no such entry point.
    fn compile_shader_include(
        &mut self,
        shader: Self::Shader,
        paths: &[&str],
    ) -> Result<(), String>;
    /// `(width, height)` as GL sizes, or why the context cannot have a
    /// framebuffer of that size.
    fn framebuffer_size(&self, width: u32, height: u32) -> Result<(i32, i32), String>;
    /// Why uniforms of `base` (other than float, int and uint, or values not
    /// matching the type) cannot be set.
    fn unsupported_uniform(&self, base: UniformBase) -> String;
    /// The context's own account of why the last draw did nothing, if it
    /// keeps one (rgl's `last_draw_error`).
    fn last_draw_error(&mut self) -> Option<String>;

    /// `glBindFragDataLocationIndexed`; `Err` when `name` cannot be passed.
    fn bind_frag_data_location_indexed(
        &mut self,
        program: Self::Program,
        color: u32,
        index: u32,
        name: &str,
    ) -> Result<(), String>;
    /// `glGetProgramResourceIndex` (`None` for `GL_INVALID_INDEX`); `Err`
    /// when `name` cannot be passed or the context lacks the entry point.
    fn program_resource_index(
        &mut self,
        program: Self::Program,
        interface: u32,
        name: &str,
    ) -> Result<Option<u32>, String>;
    /// `glGetProgramResourceiv` of one property (`None`: nothing returned);
    /// `Err` when the context lacks the entry point.
    fn program_resource_i32(
        &mut self,
        program: Self::Program,
        interface: u32,
        index: u32,
        prop: u32,
    ) -> Result<Option<i32>, String>;
    /// `glGetUniformIndices` of one name.
    fn uniform_index(&mut self, program: Self::Program, name: &str) -> Option<u32>;
    /// `glGetActiveUniformsiv` of one uniform (`None`: nothing returned).
    fn get_active_uniform_parameter_i32(
        &mut self,
        program: Self::Program,
        index: u32,
        pname: u32,
    ) -> Option<i32>;
    /// The location numbered `location` (an explicit `uniform` location).
    fn uniform_location(&self, location: u32) -> Self::UniformLocation;
    /// `glClearDepth`.
    fn clear_depth(&mut self, depth: f64);

    shared_gl_methods!(declare_gl_methods);
    creating_gl_methods!(declare_gl_methods);
    rgl_shaped_gl_methods!(declare_gl_methods);
}
