//! [`RglContext`]: the full runner's [`GlContext`](super::exec::GlContext)
//! over rgl's state tracker (`rgl_state::Context` on the software driver):
//! [`RglGl`], a [`GlApi`] adapter forwarding to the state tracker's
//! glow-shaped API, under the shared [`GlRunner`]. rgl has the runner check
//! for a GL error after every step (naming it) and adds the context's
//! `last_draw_error` text to a failed draw.
//!
//! Where the state tracker's API has no entry point for a query piglit makes
//! (`glGetUniformIndices`), the adapter derives it from the indexed query it
//! does have (`get_active_uniform`), stopping at the first index it rejects.

use rgl_backend::SoftDriver;
use rgl_state::{
    Buffer, Context, Framebuffer, Program, Renderbuffer, Shader, Texture, UniformLocation,
    VertexArray,
};

use super::command::UniformBase;
use super::gl_api::GlApi;
use super::gl_plan;
use super::gl_runner::GlRunner;
use super::support::Capabilities;

/// Largest framebuffer side rgl's default framebuffer takes.
const MAX_SIZE: u32 = rgl_state::limits::MAX_RENDERBUFFER_SIZE;

/// rgl's state tracker as a runner context.
pub type RglContext = GlRunner<RglGl>;

/// rgl's state tracker as the runner's [`GlApi`].
pub struct RglGl(Context);

/// Worker threads of the software driver in a runner context: `RGL_THREADS`,
/// else 1 (the runner already runs several files at once).
fn driver_threads() -> usize {
    std::env::var("RGL_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

impl Default for GlRunner<RglGl> {
    fn default() -> Self {
        GlRunner::<RglGl>::new()
    }
}

impl GlRunner<RglGl> {
    /// A context on the software driver with a 250x250 default framebuffer.
    pub fn new() -> RglContext {
        let gl = Context::with_driver(Box::new(SoftDriver::new(driver_threads())), 250, 250);
        GlRunner::with_api(RglGl(gl))
    }
}

impl GlApi for RglGl {
    type Program = Program;
    type Shader = Shader;
    type Buffer = Buffer;
    type VertexArray = VertexArray;
    type Texture = Texture;
    type Framebuffer = Framebuffer;
    type Renderbuffer = Renderbuffer;
    type UniformLocation = UniformLocation;

    const EAGER_CHECKS: bool = true;
    const EXPLICIT_PIXEL_STATE: bool = false;
    const RECT_PATCHES_UNSUPPORTED: &'static str =
        "GL_PATCHES (tessellation) is not supported by rgl";
    const ARRAY_PATCHES_UNSUPPORTED: Option<&'static str> =
        Some("GL_PATCHES (tessellation) is not supported by rgl");

    fn capabilities(&self) -> Capabilities {
        Capabilities::rgl_link_only()
    }

    fn describe(&self) -> String {
        format!("rgl software rasterizer, {} thread(s)", driver_threads())
    }

    fn framebuffer_size(&self, width: u32, height: u32) -> Result<(i32, i32), String> {
        if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
            return Err(format!(
                "{width}x{height} is outside rgl's framebuffer sizes (1..={MAX_SIZE})"
            ));
        }
        Ok((width as i32, height as i32))
    }

    fn unsupported_uniform(&self, base: UniformBase) -> String {
        format!(
            "{} uniforms are not supported by rgl",
            match base {
                UniformBase::Double => "double",
                UniformBase::Int64 => "int64_t",
                UniformBase::Uint64 => "uint64_t",
                UniformBase::Handle => "bindless handle",
                _ => "mismatched",
            }
        )
    }

    fn last_draw_error(&mut self) -> Option<String> {
        self.0.last_draw_error()
    }

    fn get_error(&mut self) -> u32 {
        self.0.get_error()
    }

    fn create_framebuffer(&mut self) -> Result<Framebuffer, String> {
        self.0.create_framebuffer()
    }
    fn bind_framebuffer(&mut self, target: u32, fbo: Option<Framebuffer>) {
        self.0.bind_framebuffer(target, fbo)
    }
    fn create_renderbuffer(&mut self) -> Result<Renderbuffer, String> {
        self.0.create_renderbuffer()
    }
    fn bind_renderbuffer(&mut self, target: u32, rb: Option<Renderbuffer>) {
        self.0.bind_renderbuffer(target, rb)
    }
    fn renderbuffer_storage(&mut self, target: u32, format: u32, width: i32, height: i32) {
        self.0.renderbuffer_storage(target, format, width, height)
    }
    fn framebuffer_renderbuffer(
        &mut self,
        target: u32,
        attachment: u32,
        rb_target: u32,
        rb: Option<Renderbuffer>,
    ) {
        self.0
            .framebuffer_renderbuffer(target, attachment, rb_target, rb)
    }
    fn check_framebuffer_status(&mut self, target: u32) -> u32 {
        self.0.check_framebuffer_status(target)
    }
    fn draw_buffer(&mut self, buffer: u32) {
        self.0.draw_buffer(buffer)
    }
    fn read_buffer(&mut self, buffer: u32) {
        self.0.read_buffer(buffer)
    }
    fn viewport(&mut self, x: i32, y: i32, width: i32, height: i32) {
        self.0.viewport(x, y, width, height)
    }

    fn create_program(&mut self) -> Result<Program, String> {
        self.0.create_program()
    }
    fn create_shader(&mut self, ty: u32) -> Result<Shader, String> {
        self.0.create_shader(ty)
    }
    fn shader_source(&mut self, shader: Shader, source: &str) {
        self.0.shader_source(shader, source)
    }
    fn compile_shader(&mut self, shader: Shader) {
        self.0.compile_shader(shader)
    }
    fn get_shader_compile_status(&mut self, shader: Shader) -> bool {
        self.0.get_shader_compile_status(shader)
    }
    fn get_shader_info_log(&mut self, shader: Shader) -> String {
        self.0.get_shader_info_log(shader)
    }
    fn attach_shader(&mut self, program: Program, shader: Shader) {
        self.0.attach_shader(program, shader)
    }
    fn bind_attrib_location(&mut self, program: Program, index: u32, name: &str) {
        self.0.bind_attrib_location(program, index, name)
    }
    fn bind_frag_data_location_indexed(
        &mut self,
        program: Program,
        color: u32,
        index: u32,
        name: &str,
    ) -> Result<(), String> {
        self.0
            .bind_frag_data_location_indexed(program, color, index, name);
        Ok(())
    }
    fn link_program(&mut self, program: Program) {
        self.0.link_program(program)
    }
    fn get_program_link_status(&mut self, program: Program) -> bool {
        self.0.get_program_link_status(program)
    }
    fn get_program_info_log(&mut self, program: Program) -> String {
        self.0.get_program_info_log(program)
    }
    fn use_program(&mut self, program: Option<Program>) {
        self.0.use_program(program)
    }
    fn get_program_parameter_i32(&mut self, program: Program, pname: u32) -> i32 {
        self.0.get_program_parameter_i32(program, pname)
    }
    fn get_active_uniform_block_parameter_i32(
        &mut self,
        program: Program,
        index: u32,
        pname: u32,
    ) -> i32 {
        self.0
            .get_active_uniform_block_parameter_i32(program, index, pname)
    }
    fn uniform_block_binding(&mut self, program: Program, index: u32, binding: u32) {
        self.0.uniform_block_binding(program, index, binding)
    }
    /// The index of the first active uniform (`glGetActiveUniform` until the
    /// first index the context rejects) that names `name`.
    fn uniform_index(&mut self, program: Program, name: &str) -> Option<u32> {
        let mut names = Vec::new();
        while let Some(info) = self.0.get_active_uniform(program, names.len() as u32) {
            names.push(info.name);
        }
        // The index past the end recorded GL_INVALID_VALUE.
        let _ = self.0.get_error();
        names
            .iter()
            .position(|n| gl_plan::same_uniform(n, name))
            .map(|i| i as u32)
    }
    fn get_active_uniform_parameter_i32(
        &mut self,
        program: Program,
        index: u32,
        pname: u32,
    ) -> Option<i32> {
        Some(
            self.0
                .get_active_uniform_parameter_i32(program, index, pname),
        )
    }
    fn get_attrib_location(&mut self, program: Program, name: &str) -> Option<u32> {
        self.0.get_attrib_location(program, name)
    }

    fn create_buffer(&mut self) -> Result<Buffer, String> {
        self.0.create_buffer()
    }
    fn delete_buffer(&mut self, buffer: Buffer) {
        self.0.delete_buffer(buffer)
    }
    fn bind_buffer(&mut self, target: u32, buffer: Option<Buffer>) {
        self.0.bind_buffer(target, buffer)
    }
    fn bind_buffer_base(&mut self, target: u32, index: u32, buffer: Option<Buffer>) {
        self.0.bind_buffer_base(target, index, buffer)
    }
    fn buffer_data_u8_slice(&mut self, target: u32, data: &[u8], usage: u32) {
        self.0.buffer_data_u8_slice(target, data, usage)
    }
    fn buffer_sub_data_u8_slice(&mut self, target: u32, offset: i32, data: &[u8]) {
        self.0.buffer_sub_data_u8_slice(target, offset, data)
    }
    fn create_vertex_array(&mut self) -> Result<VertexArray, String> {
        self.0.create_vertex_array()
    }
    fn delete_vertex_array(&mut self, vao: VertexArray) {
        self.0.delete_vertex_array(vao)
    }
    fn bind_vertex_array(&mut self, vao: Option<VertexArray>) {
        self.0.bind_vertex_array(vao)
    }
    fn vertex_attrib_pointer_f32(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: i32,
    ) {
        self.0
            .vertex_attrib_pointer_f32(index, size, ty, normalized, stride, offset)
    }
    fn vertex_attrib_pointer_i32(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: i32,
    ) {
        self.0
            .vertex_attrib_pointer_i32(index, size, ty, stride, offset)
    }
    fn enable_vertex_attrib_array(&mut self, index: u32) {
        self.0.enable_vertex_attrib_array(index)
    }
    fn vertex_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        self.0.vertex_pointer(size, ty, stride, offset)
    }
    fn normal_pointer(&mut self, ty: u32, stride: i32, offset: i32) {
        self.0.normal_pointer(ty, stride, offset)
    }
    fn color_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        self.0.color_pointer(size, ty, stride, offset)
    }
    fn tex_coord_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        self.0.tex_coord_pointer(size, ty, stride, offset)
    }
    fn enable_client_state(&mut self, array: u32) {
        self.0.enable_client_state(array)
    }
    fn client_active_texture(&mut self, unit: u32) {
        self.0.client_active_texture(unit)
    }

    fn get_uniform_location(&mut self, program: Program, name: &str) -> Option<UniformLocation> {
        self.0.get_uniform_location(program, name)
    }
    fn uniform_location(&self, location: u32) -> UniformLocation {
        UniformLocation(location)
    }
    fn uniform_1_f32_slice(&mut self, loc: Option<&UniformLocation>, v: &[f32]) {
        self.0.uniform_1_f32_slice(loc, v)
    }
    fn uniform_2_f32_slice(&mut self, loc: Option<&UniformLocation>, v: &[f32]) {
        self.0.uniform_2_f32_slice(loc, v)
    }
    fn uniform_3_f32_slice(&mut self, loc: Option<&UniformLocation>, v: &[f32]) {
        self.0.uniform_3_f32_slice(loc, v)
    }
    fn uniform_4_f32_slice(&mut self, loc: Option<&UniformLocation>, v: &[f32]) {
        self.0.uniform_4_f32_slice(loc, v)
    }
    fn uniform_1_i32_slice(&mut self, loc: Option<&UniformLocation>, v: &[i32]) {
        self.0.uniform_1_i32_slice(loc, v)
    }
    fn uniform_2_i32_slice(&mut self, loc: Option<&UniformLocation>, v: &[i32]) {
        self.0.uniform_2_i32_slice(loc, v)
    }
    fn uniform_3_i32_slice(&mut self, loc: Option<&UniformLocation>, v: &[i32]) {
        self.0.uniform_3_i32_slice(loc, v)
    }
    fn uniform_4_i32_slice(&mut self, loc: Option<&UniformLocation>, v: &[i32]) {
        self.0.uniform_4_i32_slice(loc, v)
    }
    fn uniform_1_u32_slice(&mut self, loc: Option<&UniformLocation>, v: &[u32]) {
        self.0.uniform_1_u32_slice(loc, v)
    }
    fn uniform_2_u32_slice(&mut self, loc: Option<&UniformLocation>, v: &[u32]) {
        self.0.uniform_2_u32_slice(loc, v)
    }
    fn uniform_3_u32_slice(&mut self, loc: Option<&UniformLocation>, v: &[u32]) {
        self.0.uniform_3_u32_slice(loc, v)
    }
    fn uniform_4_u32_slice(&mut self, loc: Option<&UniformLocation>, v: &[u32]) {
        self.0.uniform_4_u32_slice(loc, v)
    }
    fn uniform_matrix_2_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_2_f32_slice(loc, t, v)
    }
    fn uniform_matrix_3_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_3_f32_slice(loc, t, v)
    }
    fn uniform_matrix_4_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_4_f32_slice(loc, t, v)
    }
    fn uniform_matrix_2x3_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_2x3_f32_slice(loc, t, v)
    }
    fn uniform_matrix_2x4_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_2x4_f32_slice(loc, t, v)
    }
    fn uniform_matrix_3x2_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_3x2_f32_slice(loc, t, v)
    }
    fn uniform_matrix_3x4_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_3x4_f32_slice(loc, t, v)
    }
    fn uniform_matrix_4x2_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_4x2_f32_slice(loc, t, v)
    }
    fn uniform_matrix_4x3_f32_slice(&mut self, loc: Option<&UniformLocation>, t: bool, v: &[f32]) {
        self.0.uniform_matrix_4x3_f32_slice(loc, t, v)
    }

    fn active_texture(&mut self, unit: u32) {
        self.0.active_texture(unit)
    }
    fn create_texture(&mut self) -> Result<Texture, String> {
        self.0.create_texture()
    }
    fn delete_texture(&mut self, texture: Texture) {
        self.0.delete_texture(texture)
    }
    fn bind_texture(&mut self, target: u32, texture: Option<Texture>) {
        self.0.bind_texture(target, texture)
    }
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
    ) {
        self.0
            .tex_image_1d(target, level, internal, width, border, format, ty, pixels)
    }
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
    ) {
        self.0.tex_image_2d(
            target, level, internal, width, height, border, format, ty, pixels,
        )
    }
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
    ) {
        self.0.tex_image_3d(
            target, level, internal, width, height, depth, border, format, ty, pixels,
        )
    }
    fn tex_parameter_i32(&mut self, target: u32, pname: u32, value: i32) {
        self.0.tex_parameter_i32(target, pname, value)
    }
    fn tex_parameter_f32(&mut self, target: u32, pname: u32, value: f32) {
        self.0.tex_parameter_f32(target, pname, value)
    }
    fn tex_parameter_f32_slice(&mut self, target: u32, pname: u32, values: &[f32]) {
        self.0.tex_parameter_f32_slice(target, pname, values)
    }

    fn enable(&mut self, cap: u32) {
        self.0.enable(cap)
    }
    fn disable(&mut self, cap: u32) {
        self.0.disable(cap)
    }
    fn clip_plane(&mut self, plane: u32, equation: [f64; 4]) {
        self.0.clip_plane(plane, equation)
    }
    fn matrix_mode(&mut self, mode: u32) {
        self.0.matrix_mode(mode)
    }
    fn load_identity(&mut self) {
        self.0.load_identity()
    }
    fn ortho(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        self.0.ortho(l, r, b, t, n, f)
    }
    fn frustum(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        self.0.frustum(l, r, b, t, n, f)
    }
    fn color_4_f32(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.0.color_4_f32(r, g, b, a)
    }
    fn multi_tex_coord_4_f32(&mut self, unit: u32, s: f32, t: f32, r: f32, q: f32) {
        self.0.multi_tex_coord_4_f32(unit, s, t, r, q)
    }
    fn shade_model(&mut self, mode: u32) {
        self.0.shade_model(mode)
    }
    fn provoking_vertex(&mut self, mode: u32) {
        self.0.provoking_vertex(mode)
    }
    fn polygon_mode(&mut self, face: u32, mode: u32) {
        self.0.polygon_mode(face, mode)
    }
    fn hint(&mut self, target: u32, mode: u32) {
        self.0.hint(target, mode)
    }
    fn depth_func(&mut self, func: u32) {
        self.0.depth_func(func)
    }

    fn clear_color(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.0.clear_color(r, g, b, a)
    }
    fn clear_depth(&mut self, depth: f64) {
        self.0.clear_depth_f64(depth)
    }
    fn clear_stencil(&mut self, stencil: i32) {
        self.0.clear_stencil(stencil)
    }
    fn clear(&mut self, mask: u32) {
        self.0.clear(mask)
    }
    fn draw_arrays(&mut self, mode: u32, first: i32, count: i32) {
        self.0.draw_arrays(mode, first, count)
    }
    fn draw_arrays_instanced(&mut self, mode: u32, first: i32, count: i32, instances: i32) {
        self.0.draw_arrays_instanced(mode, first, count, instances)
    }
    fn pixel_store_i32(&mut self, pname: u32, value: i32) {
        self.0.pixel_store_i32(pname, value)
    }
    fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        pixels: &mut [u8],
    ) {
        self.0.read_pixels(x, y, width, height, format, ty, pixels)
    }
}
