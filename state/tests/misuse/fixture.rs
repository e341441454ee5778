//! The fixture every misuse row starts from: a context holding one object of
//! each kind, bound where the rows need them, with state away from GL's
//! defaults so that a partial update by an erroring call shows.

use std::num::NonZeroU32;

use rgl_state::{
    gl, Buffer, Context, Framebuffer, Program, Renderbuffer, Sampler, Shader, Texture,
    UniformLocation, VertexArray,
};

/// Default framebuffer width and height.
pub const SIZE: u32 = 8;

const VS: &str = "#version 330
layout(location = 0) in vec4 pos;
uniform float u_f;
uniform vec4 u_v;
uniform mat3 u_m;
uniform float u_arr[3];
uniform uint u_u;
layout(std140) uniform Block { vec4 b; };
out vec4 v_c;
void main() {
    gl_Position = pos;
    v_c = u_v + vec4(u_f + u_m[1][1] + u_arr[2] + float(u_u)) + b;
}";

const FS: &str = "#version 330
in vec4 v_c;
uniform int u_i;
uniform sampler2D u_s;
uniform sampler3D u_s3;
out vec4 color;
void main() {
    color = v_c * 0.0 + texture(u_s, vec2(0.5)) + texture(u_s3, vec3(0.5)) * 0.5
        + vec4(float(u_i) * 0.0);
}";

const GS_VS: &str = "#version 330
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

const GS: &str = "#version 330
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }";

const GS_FS: &str = "#version 330
out vec4 color;
void main() { color = vec4(1.0); }";

/// A name no `create_*` call has returned.
pub fn never(n: u32) -> NonZeroU32 {
    NonZeroU32::new(0x00F0_0000 + n).expect("non-zero")
}

/// The fixture's objects.
pub struct Fx {
    /// The current program (VS + FS, linked).
    pub prog: Program,
    pub vs: Shader,
    pub fs: Shader,
    /// A program with a geometry shader taking points (not current).
    pub gs_prog: Program,
    /// A program never linked (no shaders attached).
    pub unlinked: Program,
    /// A fragment shader with source, never compiled, attached to nothing.
    pub lone: Shader,
    pub loc_f: UniformLocation,
    pub loc_v: UniformLocation,
    pub loc_m: UniformLocation,
    pub loc_arr: UniformLocation,
    pub loc_u: UniformLocation,
    pub loc_i: UniformLocation,
    pub loc_s: UniformLocation,
    /// `sampler3D u_s3`, on unit 1.
    pub loc_s3: UniformLocation,
    /// Locations of `prog`, for the snapshot.
    pub locations: Vec<(&'static str, UniformLocation)>,
    pub vao: VertexArray,
    /// `ARRAY_BUFFER` and `COPY_READ_BUFFER` (48 bytes).
    pub buf: Buffer,
    /// The VAO's element buffer (3 `u16`).
    pub ebuf: Buffer,
    /// `UNIFORM_BUFFER`, indexed binding 0 and `COPY_WRITE_BUFFER` (32 bytes).
    pub ubuf: Buffer,
    /// Unit 0 `TEXTURE_2D`: 4×4 RGBA8 with level 1 (2×2).
    pub tex2d: Texture,
    /// Unit 0 `TEXTURE_3D`: 2×2×2 RGBA8.
    pub tex3d: Texture,
    /// Unit 0 `TEXTURE_2D_ARRAY`: 2×2, 2 layers.
    pub tex_array: Texture,
    /// Unit 0 `TEXTURE_CUBE_MAP`: only the +X face (not cube complete).
    pub tex_cube: Texture,
    /// Unit 0 `TEXTURE_RECTANGLE`: 4×2.
    pub tex_rect: Texture,
    /// Unit 0 `TEXTURE_1D`: 4 texels.
    pub tex1d: Texture,
    /// Unit 2 `TEXTURE_2D`: immutable (`tex_storage_2d`, 2 levels of 4×4).
    pub tex_immutable: Texture,
    /// Color attachment of `fbo` (4×4 RGBA8), bound nowhere.
    pub fbo_color: Texture,
    /// Depth-stencil attachment of `fbo`; bound to `GL_RENDERBUFFER`.
    pub rb: Renderbuffer,
    /// A complete framebuffer (not bound).
    pub fbo: Framebuffer,
    /// A framebuffer without attachments (not bound).
    pub fbo_empty: Framebuffer,
    /// Bound to unit 1.
    pub sampler: Sampler,
    pub dead_buf: Buffer,
    pub dead_tex: Texture,
    pub dead_vao: VertexArray,
    pub dead_fbo: Framebuffer,
    pub dead_rb: Renderbuffer,
    pub dead_sampler: Sampler,
    pub dead_prog: Program,
    pub dead_shader: Shader,
}

fn shader(c: &mut Context, kind: u32, src: &str) -> Shader {
    let s = c.create_shader(kind).expect("shader");
    c.shader_source(s, src);
    c.compile_shader(s);
    assert!(
        c.get_shader_compile_status(s),
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

fn link(c: &mut Context, shaders: &[Shader]) -> Program {
    let p = c.create_program().expect("program");
    for s in shaders {
        c.attach_shader(p, *s);
    }
    c.link_program(p);
    assert!(
        c.get_program_link_status(p),
        "{}",
        c.get_program_info_log(p)
    );
    p
}

fn bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn rgba(n: usize, seed: u8) -> Vec<u8> {
    (0..n * 4).map(|i| seed.wrapping_add(i as u8 * 7)).collect()
}

impl Fx {
    /// A fresh context and its fixture; panics if building it raises an error.
    pub fn new() -> (Context, Fx) {
        let mut ctx = Context::new_headless(SIZE, SIZE);
        let c = &mut ctx;

        let vs = shader(c, gl::VERTEX_SHADER, VS);
        let fs = shader(c, gl::FRAGMENT_SHADER, FS);
        let prog = link(c, &[vs, fs]);
        let gvs = shader(c, gl::VERTEX_SHADER, GS_VS);
        let gs = shader(c, gl::GEOMETRY_SHADER, GS);
        let gfs = shader(c, gl::FRAGMENT_SHADER, GS_FS);
        let gs_prog = link(c, &[gvs, gs, gfs]);
        let unlinked = c.create_program().expect("program");
        let lone = c.create_shader(gl::FRAGMENT_SHADER).expect("shader");
        c.shader_source(lone, "#version 330\nvoid main() {}\n");
        c.use_program(Some(prog));
        let mut loc = |name: &str| c.get_uniform_location(prog, name).expect(name);
        let (loc_f, loc_v, loc_m, loc_arr, loc_u, loc_i, loc_s, loc_s3) = (
            loc("u_f"),
            loc("u_v"),
            loc("u_m"),
            loc("u_arr"),
            loc("u_u"),
            loc("u_i"),
            loc("u_s"),
            loc("u_s3"),
        );
        c.uniform_1_f32(Some(&loc_f), 0.5);
        c.uniform_4_f32(Some(&loc_v), 1.0, 2.0, 3.0, 4.0);
        c.uniform_matrix_3_f32_slice(Some(&loc_m), false, &[1.5; 9]);
        c.uniform_1_f32_slice(Some(&loc_arr), &[0.25, 0.5, 0.75]);
        c.uniform_1_u32(Some(&loc_u), 7);
        c.uniform_1_i32(Some(&loc_i), -3);
        c.uniform_1_i32(Some(&loc_s), 0);
        c.uniform_1_i32(Some(&loc_s3), 1);
        let locations = vec![
            ("u_f", loc_f),
            ("u_v", loc_v),
            ("u_m", loc_m),
            ("u_arr", loc_arr),
            ("u_u", loc_u),
            ("u_i", loc_i),
            ("u_s", loc_s),
            ("u_s3", loc_s3),
        ];

        let vao = c.create_vertex_array().expect("vao");
        c.bind_vertex_array(Some(vao));
        let buf = c.create_buffer().expect("buffer");
        c.bind_buffer(gl::ARRAY_BUFFER, Some(buf));
        let tri = [
            -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
        ];
        c.buffer_data_u8_slice(gl::ARRAY_BUFFER, &bytes(&tri), gl::STATIC_DRAW);
        c.vertex_attrib_pointer_f32(0, 4, gl::FLOAT, false, 16, 0);
        c.enable_vertex_attrib_array(0);
        c.vertex_attrib_4_f32(3, 0.5, 0.25, 0.125, 1.0);
        let ebuf = c.create_buffer().expect("buffer");
        c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, Some(ebuf));
        c.buffer_data_u8_slice(
            gl::ELEMENT_ARRAY_BUFFER,
            &[0, 0, 1, 0, 2, 0],
            gl::STATIC_DRAW,
        );
        let ubuf = c.create_buffer().expect("buffer");
        c.bind_buffer(gl::UNIFORM_BUFFER, Some(ubuf));
        c.buffer_data_u8_slice(gl::UNIFORM_BUFFER, &bytes(&[0.0; 8]), gl::DYNAMIC_DRAW);
        c.bind_buffer_base(gl::UNIFORM_BUFFER, 0, Some(ubuf));
        c.bind_buffer(gl::COPY_READ_BUFFER, Some(buf));
        c.bind_buffer(gl::COPY_WRITE_BUFFER, Some(ubuf));

        let rgba8 = gl::RGBA8 as i32;
        let (ub, fmt) = (gl::UNSIGNED_BYTE, gl::RGBA);
        let tex2d = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_2D, Some(tex2d));
        let t2 = gl::TEXTURE_2D;
        c.tex_image_2d(t2, 0, rgba8, 4, 4, 0, fmt, ub, Some(&rgba(16, 1)));
        c.tex_image_2d(t2, 1, rgba8, 2, 2, 0, fmt, ub, Some(&rgba(4, 2)));
        c.tex_parameter_i32(t2, gl::TEXTURE_MAX_LEVEL, 1);
        c.tex_parameter_i32(t2, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
        let tex3d = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_3D, Some(tex3d));
        c.tex_image_3d(
            gl::TEXTURE_3D,
            0,
            rgba8,
            2,
            2,
            2,
            0,
            fmt,
            ub,
            Some(&rgba(8, 3)),
        );
        let tex_array = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_2D_ARRAY, Some(tex_array));
        let ta = gl::TEXTURE_2D_ARRAY;
        c.tex_image_3d(ta, 0, rgba8, 2, 2, 2, 0, fmt, ub, Some(&rgba(8, 4)));
        let tex_cube = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_CUBE_MAP, Some(tex_cube));
        let px = gl::TEXTURE_CUBE_MAP_POSITIVE_X;
        c.tex_image_2d(px, 0, rgba8, 2, 2, 0, fmt, ub, Some(&rgba(4, 5)));
        let tex_rect = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_RECTANGLE, Some(tex_rect));
        let tr = gl::TEXTURE_RECTANGLE;
        c.tex_image_2d(tr, 0, rgba8, 4, 2, 0, fmt, ub, Some(&rgba(8, 6)));
        let tex1d = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_1D, Some(tex1d));
        c.tex_image_1d(gl::TEXTURE_1D, 0, rgba8, 4, 0, fmt, ub, Some(&rgba(4, 7)));
        c.active_texture(gl::TEXTURE0 + 2);
        let tex_immutable = c.create_texture().expect("texture");
        c.bind_texture(gl::TEXTURE_2D, Some(tex_immutable));
        c.tex_storage_2d(gl::TEXTURE_2D, 2, gl::RGBA8, 4, 4);
        c.active_texture(gl::TEXTURE0);

        let sampler = c.create_sampler().expect("sampler");
        c.bind_sampler(1, Some(sampler));
        c.sampler_parameter_i32(sampler, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);
        c.sampler_parameter_i32(sampler, gl::TEXTURE_WRAP_T, gl::MIRRORED_REPEAT as i32);

        let fbo_color = c.create_texture().expect("texture");
        c.active_texture(gl::TEXTURE0 + 3);
        c.bind_texture(gl::TEXTURE_2D, Some(fbo_color));
        c.tex_image_2d(t2, 0, rgba8, 4, 4, 0, fmt, ub, None);
        c.bind_texture(gl::TEXTURE_2D, None);
        c.active_texture(gl::TEXTURE0);
        let rb = c.create_renderbuffer().expect("renderbuffer");
        c.bind_renderbuffer(gl::RENDERBUFFER, Some(rb));
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4);
        let fbo = c.create_framebuffer().expect("framebuffer");
        c.bind_framebuffer(gl::FRAMEBUFFER, Some(fbo));
        let (f, c0) = (gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0);
        c.framebuffer_texture_2d(f, c0, t2, Some(fbo_color), 0);
        let ds = gl::DEPTH_STENCIL_ATTACHMENT;
        c.framebuffer_renderbuffer(f, ds, gl::RENDERBUFFER, Some(rb));
        assert_eq!(c.check_framebuffer_status(f), gl::FRAMEBUFFER_COMPLETE);
        c.clear_color(0.0, 0.25, 0.5, 1.0);
        c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
        c.bind_framebuffer(gl::FRAMEBUFFER, None);
        let fbo_empty = c.create_framebuffer().expect("framebuffer");

        c.enable(gl::DEPTH_TEST);
        c.enable(gl::BLEND);
        c.blend_func_separate(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ZERO);
        c.viewport(1, 1, 6, 6);
        c.scissor(0, 1, 7, 6);
        c.stencil_func(gl::LEQUAL, 3, 0xff);
        c.stencil_op_separate(gl::BACK, gl::INCR, gl::DECR, gl::INVERT);
        c.depth_func(gl::LEQUAL);
        c.cull_face(gl::FRONT);
        c.polygon_mode(gl::FRONT_AND_BACK, gl::LINE);
        c.point_size(2.0);
        c.line_width(1.5);
        c.hint(gl::LINE_SMOOTH_HINT, gl::NICEST);
        c.pixel_store_i32(gl::UNPACK_ALIGNMENT, 1);
        c.pixel_store_i32(gl::PACK_ROW_LENGTH, 0);
        c.push_matrix();
        c.translate(1.0, 2.0, 3.0);
        c.clip_plane(gl::CLIP_PLANE1, [1.0, 0.0, 0.0, 0.5]);
        c.color_4_f32(0.5, 0.5, 0.25, 1.0);
        c.clear_color(0.25, 0.5, 0.75, 1.0);
        c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);

        let dead_buf = c.create_buffer().expect("buffer");
        c.delete_buffer(dead_buf);
        let dead_tex = c.create_texture().expect("texture");
        c.delete_texture(dead_tex);
        let dead_vao = c.create_vertex_array().expect("vao");
        c.delete_vertex_array(dead_vao);
        let dead_fbo = c.create_framebuffer().expect("framebuffer");
        c.delete_framebuffer(dead_fbo);
        let dead_rb = c.create_renderbuffer().expect("renderbuffer");
        c.delete_renderbuffer(dead_rb);
        let dead_sampler = c.create_sampler().expect("sampler");
        c.delete_sampler(dead_sampler);
        let dead_prog = c.create_program().expect("program");
        c.delete_program(dead_prog);
        let dead_shader = c.create_shader(gl::VERTEX_SHADER).expect("shader");
        c.delete_shader(dead_shader);

        let e = c.get_error();
        assert_eq!(e, gl::NO_ERROR, "the fixture raised 0x{e:04X}");
        let fx = Fx {
            prog,
            vs,
            fs,
            gs_prog,
            unlinked,
            lone,
            loc_f,
            loc_v,
            loc_m,
            loc_arr,
            loc_u,
            loc_i,
            loc_s,
            loc_s3,
            locations,
            vao,
            buf,
            ebuf,
            ubuf,
            tex2d,
            tex3d,
            tex_array,
            tex_cube,
            tex_rect,
            tex1d,
            tex_immutable,
            fbo_color,
            rb,
            fbo,
            fbo_empty,
            sampler,
            dead_buf,
            dead_tex,
            dead_vao,
            dead_fbo,
            dead_rb,
            dead_sampler,
            dead_prog,
            dead_shader,
        };
        (ctx, fx)
    }
}
