//! Fuzz target `api`: GL API call sequences on one headless context. The input
//! bytes decode into calls (one opcode byte, then its arguments): object
//! creation, binding and deletion; buffer and texture uploads; shader sources
//! (a few valid programs, or fuzzed text), compiles and links; vertex state;
//! uniforms; fixed-function and per-fragment state; framebuffers; draws and
//! read-backs. Names come from the objects made so far, or are small raw numbers
//! that may name nothing; enums come from a table of the ones these calls take,
//! or are raw words.
//!
//! After every call: nothing panicked; `glGetError` returns an error the GL 3.3
//! spec defines (§2.5); and a call that raised one changed none of the state in
//! [`fingerprint`] (GL 3.3 §2.5: "the command generating the error is ignored",
//! `GL_OUT_OF_MEMORY` excepted).

#![no_main]

use std::num::NonZeroU32;

use libfuzzer_sys::fuzz_target;
use rgl_state::{gl, Buffer, Context, Framebuffer, Program, Renderbuffer, Sampler, Shader};
use rgl_state::{Fence, Query, Texture, UniformLocation, VertexArray};

/// Reads the call stream; past the end every read is zero.
struct In<'a>(&'a [u8]);

impl In<'_> {
    fn u8(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    fn bool(&mut self) -> bool {
        self.u8() & 1 != 0
    }
    /// A size or coordinate: mostly small, sometimes negative or out of range.
    fn int(&mut self) -> i32 {
        match self.u8() {
            b @ 0..=199 => i32::from(b % 20),
            200..=219 => -1,
            220..=229 => 1 << 20,
            230..=239 => i32::MAX,
            240..=247 => i32::MIN,
            _ => self.u32() as i32 & 0xffff,
        }
    }
    fn f32(&mut self) -> f32 {
        match self.u8() {
            b @ 0..=239 => f32::from(b) / 64.0 - 1.0,
            240..=243 => f32::NAN,
            244..=247 => f32::INFINITY,
            _ => f32::from_bits(self.u32()),
        }
    }
    /// An enum from [`ENUMS`], or (rarely) a raw word.
    fn enm(&mut self) -> u32 {
        let b = self.u8() as usize;
        if b < 248 {
            ENUMS[b % ENUMS.len()]
        } else {
            self.u32()
        }
    }
    /// An object name: one made so far, or a small raw number (0 = none).
    fn name(&mut self, made: &[u32]) -> Option<NonZeroU32> {
        let b = self.u8();
        if b < 224 && !made.is_empty() {
            NonZeroU32::new(made[b as usize % made.len()])
        } else {
            NonZeroU32::new(u32::from(b & 15))
        }
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head.to_vec()
    }
}

/// Query targets (valid ones, and one that is not).
const QUERY_TARGETS: &[u32] = &[
    gl::SAMPLES_PASSED,
    gl::ANY_SAMPLES_PASSED,
    gl::PRIMITIVES_GENERATED,
    gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
    gl::TIME_ELAPSED,
    gl::TIMESTAMP,
    gl::QUERY_RESULT,
];

/// The enums the decoded calls take: targets, formats, types, capabilities,
/// functions, modes and parameter names.
const ENUMS: &[u32] = &[
    gl::ARRAY_BUFFER, gl::ELEMENT_ARRAY_BUFFER, gl::UNIFORM_BUFFER, gl::PIXEL_PACK_BUFFER,
    gl::PIXEL_UNPACK_BUFFER, gl::COPY_READ_BUFFER, gl::STATIC_DRAW, gl::DYNAMIC_DRAW,
    gl::STREAM_READ, gl::BUFFER_SIZE, gl::BUFFER_USAGE, gl::TEXTURE_1D, gl::TEXTURE_2D,
    gl::TEXTURE_3D, gl::TEXTURE_CUBE_MAP, gl::TEXTURE_CUBE_MAP_POSITIVE_X, gl::TEXTURE_2D_ARRAY,
    gl::TEXTURE_RECTANGLE, gl::RGBA, gl::RGB, gl::RED, gl::RG, gl::RGBA8, gl::RGBA32F, gl::R32F,
    gl::RGBA16F, 0x8D82 /* GL_RGBA32I */, 0x8D70 /* GL_RGBA32UI */, gl::RGBA_INTEGER, gl::DEPTH_COMPONENT,
    gl::DEPTH_COMPONENT24, gl::DEPTH_COMPONENT32F, gl::DEPTH24_STENCIL8, gl::DEPTH_STENCIL,
    gl::UNSIGNED_BYTE, gl::UNSIGNED_SHORT, gl::UNSIGNED_INT, gl::FLOAT, gl::INT, gl::BYTE,
    gl::HALF_FLOAT, gl::UNSIGNED_INT_24_8, gl::TEXTURE_MIN_FILTER, gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S, gl::TEXTURE_WRAP_T, gl::TEXTURE_BASE_LEVEL, gl::TEXTURE_MAX_LEVEL,
    gl::TEXTURE_COMPARE_MODE, gl::TEXTURE_COMPARE_FUNC, gl::NEAREST, gl::LINEAR,
    gl::LINEAR_MIPMAP_LINEAR, gl::NEAREST_MIPMAP_NEAREST, gl::REPEAT, gl::CLAMP_TO_EDGE,
    gl::MIRRORED_REPEAT, gl::COMPARE_REF_TO_TEXTURE, gl::POINTS, gl::LINES, gl::LINE_STRIP,
    gl::LINE_LOOP, gl::TRIANGLES, gl::TRIANGLE_STRIP, gl::TRIANGLE_FAN, gl::QUADS,
    gl::LINES_ADJACENCY, gl::TRIANGLES_ADJACENCY, gl::DEPTH_TEST, gl::STENCIL_TEST, gl::BLEND,
    gl::CULL_FACE, gl::SCISSOR_TEST, gl::ALPHA_TEST, gl::PRIMITIVE_RESTART, gl::CLIP_DISTANCE0,
    gl::POLYGON_OFFSET_FILL, gl::PROGRAM_POINT_SIZE, gl::NEVER, gl::LESS, gl::LEQUAL, gl::EQUAL,
    gl::ALWAYS, gl::GREATER, gl::KEEP, gl::ZERO, gl::INCR_WRAP, gl::INVERT, gl::REPLACE,
    gl::ONE, gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::CONSTANT_COLOR, gl::DST_COLOR,
    gl::SRC_ALPHA_SATURATE, gl::FUNC_ADD, gl::FUNC_SUBTRACT, gl::MIN, gl::MAX, gl::FRONT,
    gl::BACK, gl::FRONT_AND_BACK, gl::CW, gl::CCW, gl::FILL, gl::LINE, gl::POINT,
    gl::FRAMEBUFFER, gl::READ_FRAMEBUFFER, gl::DRAW_FRAMEBUFFER, gl::RENDERBUFFER,
    gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0 + 1, gl::DEPTH_ATTACHMENT,
    gl::STENCIL_ATTACHMENT, gl::DEPTH_STENCIL_ATTACHMENT, gl::COLOR_BUFFER_BIT,
    gl::DEPTH_BUFFER_BIT, gl::STENCIL_BUFFER_BIT, gl::COLOR, gl::DEPTH, gl::STENCIL,
    gl::VERTEX_SHADER, gl::FRAGMENT_SHADER, gl::GEOMETRY_SHADER, gl::COMPILE_STATUS,
    gl::LINK_STATUS, gl::ACTIVE_UNIFORMS, gl::ACTIVE_ATTRIBUTES, gl::INFO_LOG_LENGTH,
    gl::VIEWPORT, gl::CURRENT_PROGRAM, gl::MAX_TEXTURE_SIZE, gl::UNPACK_ALIGNMENT,
    gl::PACK_ALIGNMENT, gl::UNPACK_ROW_LENGTH, gl::FIRST_VERTEX_CONVENTION,
    gl::LAST_VERTEX_CONVENTION, gl::TEXTURE0, gl::TEXTURE0 + 1, gl::TEXTURE0 + 99,
    gl::FLAT, gl::SMOOTH, gl::MODELVIEW, gl::PROJECTION, gl::VERTEX_ARRAY, gl::COLOR_ARRAY,
    gl::NONE, gl::BACK_LEFT,
    gl::QUERY_WAIT, gl::QUERY_NO_WAIT, gl::QUERY_RESULT, gl::QUERY_RESULT_AVAILABLE,
    gl::READ_ONLY, gl::WRITE_ONLY, gl::READ_WRITE, gl::BUFFER_MAPPED, gl::BUFFER_ACCESS_FLAGS,
];

/// Valid programs the fuzzer can pick, so draws reach the driver often.
const SOURCES: &[(&str, &str)] = &[
    (
        "#version 130\nin vec4 pos;\nin vec2 uv;\nout vec2 v;\nuniform mat4 m;\n\
         void main() { v = uv; gl_Position = m * pos; }\n",
        "#version 130\nin vec2 v;\nuniform sampler2D s;\nuniform vec4 tint;\n\
         void main() { gl_FragColor = texture(s, v) * tint; }\n",
    ),
    (
        "#version 110\nattribute vec4 p;\nvoid main() { gl_Position = p; gl_PointSize = 4.0; }\n",
        "#version 110\nuniform int n;\nvoid main() {\n  vec4 c = vec4(0.0);\n\
         for (int i = 0; i < n; i++) c += vec4(0.1);\n  if (c.x > 2.0) discard;\n\
         gl_FragColor = c;\n}\n",
    ),
    (
        "#version 150\nin vec3 p;\nflat out int id;\n\
         void main() { id = gl_VertexID; gl_Position = vec4(p, 1.0); }\n",
        "#version 150\nflat in int id;\nuniform usampler2D u;\nout uvec4 o;\n\
         void main() { o = texelFetch(u, ivec2(id, 0), 0) + uvec4(gl_FragCoord.xyxy); }\n",
    ),
];

/// Uniform names the valid programs use (and one that none does).
const UNIFORMS: &[&str] = &["m", "s", "tint", "n", "u", "missing"];

#[derive(Default)]
struct Made {
    buffers: Vec<u32>,
    textures: Vec<u32>,
    shaders: Vec<u32>,
    programs: Vec<u32>,
    vaos: Vec<u32>,
    fbos: Vec<u32>,
    rbos: Vec<u32>,
    samplers: Vec<u32>,
    fences: Vec<u32>,
    queries: Vec<u32>,
    locations: Vec<UniformLocation>,
}

/// State a failed call must not change: the bindings and a few per-fragment
/// values, read through `glGetIntegerv`.
const WATCHED: &[u32] = &[
    gl::CURRENT_PROGRAM,
    gl::ARRAY_BUFFER_BINDING,
    gl::ELEMENT_ARRAY_BUFFER_BINDING,
    gl::VERTEX_ARRAY_BINDING,
    gl::TEXTURE_BINDING_2D,
    gl::ACTIVE_TEXTURE,
    gl::DRAW_FRAMEBUFFER_BINDING,
    gl::READ_FRAMEBUFFER_BINDING,
    gl::RENDERBUFFER_BINDING,
    gl::DEPTH_FUNC,
    gl::BLEND_SRC_RGB,
    gl::BLEND_EQUATION_RGB,
    gl::STENCIL_FUNC,
    gl::CULL_FACE_MODE,
    gl::UNPACK_ALIGNMENT,
];

fn fingerprint(c: &mut Context) -> Vec<i32> {
    let mut v: Vec<i32> = WATCHED.iter().map(|&p| c.get_parameter_i32(p)).collect();
    let mut vp = [0; 4];
    c.get_parameter_i32_slice(gl::VIEWPORT, &mut vp);
    v.extend_from_slice(&vp);
    // The queries themselves must not fail.
    assert_eq!(c.get_error(), gl::NO_ERROR, "a fingerprint query failed");
    v
}

const ERRORS: &[u32] = &[
    gl::NO_ERROR,
    gl::INVALID_ENUM,
    gl::INVALID_VALUE,
    gl::INVALID_OPERATION,
    gl::INVALID_FRAMEBUFFER_OPERATION,
    gl::OUT_OF_MEMORY,
];

fn step(c: &mut Context, i: &mut In<'_>, m: &mut Made) -> &'static str {
    let op = i.u8() % 51;
    match op {
        0 => {
            if let Ok(b) = c.create_buffer() {
                m.buffers.push(b.name());
            }
            "create_buffer"
        }
        1 => {
            let (t, b) = (i.enm(), i.name(&m.buffers).map(Buffer));
            c.bind_buffer(t, b);
            "bind_buffer"
        }
        2 => {
            let (t, n, u) = (i.enm(), i.int(), i.enm());
            let data = i.bytes(n.clamp(0, 256) as usize);
            c.buffer_data_u8_slice(t, &data, u);
            "buffer_data"
        }
        3 => {
            let (t, off, n) = (i.enm(), i.int(), i.int());
            let data = i.bytes(n.clamp(0, 64) as usize);
            c.buffer_sub_data_u8_slice(t, off, &data);
            "buffer_sub_data"
        }
        4 => {
            if let Some(b) = i.name(&m.buffers) {
                c.delete_buffer(Buffer(b));
            }
            "delete_buffer"
        }
        5 => {
            if let Ok(t) = c.create_texture() {
                m.textures.push(t.name());
            }
            "create_texture"
        }
        6 => {
            let (t, tex) = (i.enm(), i.name(&m.textures).map(Texture));
            c.bind_texture(t, tex);
            "bind_texture"
        }
        7 => {
            let (t, level, ifmt, w, h, border, f, ty) =
                (i.enm(), i.int(), i.enm() as i32, i.int(), i.int(), i.int(), i.enm(), i.enm());
            let data = if i.bool() { Some(i.bytes(2048)) } else { None };
            c.tex_image_2d(t, level, ifmt, w, h, border, f, ty, data.as_deref());
            "tex_image_2d"
        }
        8 => {
            let (t, level, ifmt, w, h, d, border, f, ty) = (
                i.enm(),
                i.int(),
                i.enm() as i32,
                i.int(),
                i.int(),
                i.int(),
                i.int(),
                i.enm(),
                i.enm(),
            );
            c.tex_image_3d(t, level, ifmt, w, h, d, border, f, ty, None);
            "tex_image_3d"
        }
        9 => {
            let (t, p, v) = (i.enm(), i.enm(), i.enm() as i32);
            c.tex_parameter_i32(t, p, v);
            "tex_parameter_i32"
        }
        10 => {
            let t = i.enm();
            c.generate_mipmap(t);
            "generate_mipmap"
        }
        11 => {
            let u = i.enm();
            c.active_texture(u);
            "active_texture"
        }
        12 => {
            if let Some(t) = i.name(&m.textures) {
                c.delete_texture(Texture(t));
            }
            "delete_texture"
        }
        13 => {
            if let Ok(s) = c.create_shader(i.enm()) {
                m.shaders.push(s.name());
            }
            "create_shader"
        }
        14 => {
            let s = i.name(&m.shaders).map(Shader);
            let pick = i.u8() as usize;
            let source = if pick < 240 {
                let (vs, fs) = SOURCES[pick % SOURCES.len()];
                if pick & 1 == 0 { vs } else { fs }.to_string()
            } else {
                let n = u16::from_le_bytes([i.u8(), i.u8()]);
                String::from_utf8_lossy(&i.bytes(n.into())).into_owned()
            };
            if let Some(s) = s {
                c.shader_source(s, &source);
            }
            "shader_source"
        }
        15 => {
            if let Some(s) = i.name(&m.shaders) {
                c.compile_shader(Shader(s));
            }
            "compile_shader"
        }
        16 => {
            if let Ok(p) = c.create_program() {
                m.programs.push(p.name());
            }
            "create_program"
        }
        17 => {
            if let (Some(p), Some(s)) = (i.name(&m.programs), i.name(&m.shaders)) {
                c.attach_shader(Program(p), Shader(s));
            }
            "attach_shader"
        }
        18 => {
            if let Some(p) = i.name(&m.programs) {
                c.link_program(Program(p));
                let _ = c.get_program_info_log(Program(p));
            }
            "link_program"
        }
        19 => {
            let p = i.name(&m.programs).map(Program);
            c.use_program(p);
            "use_program"
        }
        20 => {
            if let Some(p) = i.name(&m.programs) {
                let name = UNIFORMS[i.u8() as usize % UNIFORMS.len()];
                if let Some(l) = c.get_uniform_location(Program(p), name) {
                    m.locations.push(l);
                }
            }
            "get_uniform_location"
        }
        21 => {
            let l = (!m.locations.is_empty())
                .then(|| m.locations[i.u8() as usize % m.locations.len()].clone());
            let (x, y, z, w) = (i.f32(), i.f32(), i.f32(), i.f32());
            match i.u8() % 3 {
                0 => c.uniform_1_i32(l.as_ref(), i.int()),
                1 => c.uniform_4_f32(l.as_ref(), x, y, z, w),
                _ => c.uniform_1_f32(l.as_ref(), x),
            }
            "uniform"
        }
        22 => {
            if let Some(p) = i.name(&m.programs) {
                c.delete_program(Program(p));
            }
            "delete_program"
        }
        23 => {
            if let Some(s) = i.name(&m.shaders) {
                c.delete_shader(Shader(s));
            }
            "delete_shader"
        }
        24 => {
            if let Ok(v) = c.create_vertex_array() {
                m.vaos.push(v.name());
            }
            "create_vertex_array"
        }
        25 => {
            let v = i.name(&m.vaos).map(VertexArray);
            c.bind_vertex_array(v);
            "bind_vertex_array"
        }
        26 => {
            let (idx, size, ty, norm, stride, off) =
                (i.int() as u32, i.int(), i.enm(), i.bool(), i.int(), i.int());
            c.vertex_attrib_pointer_f32(idx, size, ty, norm, stride, off);
            "vertex_attrib_pointer"
        }
        27 => {
            let idx = i.int() as u32;
            if i.bool() {
                c.enable_vertex_attrib_array(idx)
            } else {
                c.disable_vertex_attrib_array(idx)
            }
            "enable_vertex_attrib_array"
        }
        28 => {
            let (mode, first, count) = (i.enm(), i.int(), i.int());
            c.draw_arrays(mode, first, count);
            "draw_arrays"
        }
        29 => {
            let (mode, count, ty, off) = (i.enm(), i.int(), i.enm(), i.int());
            c.draw_elements(mode, count, ty, off);
            "draw_elements"
        }
        30 => {
            let (mode, first, count, n) = (i.enm(), i.int(), i.int(), i.int());
            c.draw_arrays_instanced(mode, first, count, n);
            "draw_arrays_instanced"
        }
        31 => {
            let cap = i.enm();
            if i.bool() {
                c.enable(cap)
            } else {
                c.disable(cap)
            }
            "enable"
        }
        32 => {
            let f = i.enm();
            c.depth_func(f);
            "depth_func"
        }
        33 => {
            let (s, d) = (i.enm(), i.enm());
            c.blend_func(s, d);
            "blend_func"
        }
        34 => {
            let (f, r, mask) = (i.enm(), i.int(), i.u32());
            c.stencil_func(f, r, mask);
            "stencil_func"
        }
        35 => {
            let (a, b, d) = (i.enm(), i.enm(), i.enm());
            c.stencil_op(a, b, d);
            "stencil_op"
        }
        36 => {
            let (x, y, w, h) = (i.int(), i.int(), i.int(), i.int());
            c.viewport(x, y, w, h);
            "viewport"
        }
        37 => {
            let mask = i.enm() | i.enm();
            c.clear(mask);
            "clear"
        }
        38 => {
            if let Ok(f) = c.create_framebuffer() {
                m.fbos.push(f.name());
            }
            "create_framebuffer"
        }
        39 => {
            let (t, f) = (i.enm(), i.name(&m.fbos).map(Framebuffer));
            c.bind_framebuffer(t, f);
            "bind_framebuffer"
        }
        40 => {
            let (t, a, tt, tex, level) =
                (i.enm(), i.enm(), i.enm(), i.name(&m.textures).map(Texture), i.int());
            c.framebuffer_texture_2d(t, a, tt, tex, level);
            "framebuffer_texture_2d"
        }
        41 => {
            if let Ok(r) = c.create_renderbuffer() {
                m.rbos.push(r.name());
            }
            let r = i.name(&m.rbos).map(Renderbuffer);
            c.bind_renderbuffer(gl::RENDERBUFFER, r);
            "create_renderbuffer"
        }
        42 => {
            let (t, f, w, h) = (i.enm(), i.enm(), i.int(), i.int());
            c.renderbuffer_storage(t, f, w, h);
            "renderbuffer_storage"
        }
        43 => {
            let (t, a, rt, r) = (i.enm(), i.enm(), i.enm(), i.name(&m.rbos).map(Renderbuffer));
            c.framebuffer_renderbuffer(t, a, rt, r);
            "framebuffer_renderbuffer"
        }
        44 => {
            let (x, y, w, h, f, ty) = (i.int(), i.int(), i.int(), i.int(), i.enm(), i.enm());
            let mut out = vec![0u8; i.u8() as usize * 16];
            c.read_pixels(x, y, w, h, f, ty, &mut out);
            "read_pixels"
        }
        45 => {
            let (s0, s1, d0, d1) = (i.int(), i.int(), i.int(), i.int());
            let (mask, filter) = (i.enm(), i.enm());
            c.blit_framebuffer(s0, s0, s1, s1, d0, d0, d1, d1, mask, filter);
            "blit_framebuffer"
        }
        46 => {
            if let Ok(s) = c.create_sampler() {
                m.samplers.push(s.name());
            }
            let (unit, s) = (i.int() as u32, i.name(&m.samplers).map(Sampler));
            c.bind_sampler(unit, s);
            "bind_sampler"
        }
        47 => {
            let (t, off, len) = (i.enm(), i.int(), i.int());
            match i.u8() % 5 {
                0 => {
                    let access = u32::from(i.u8() & 0x7f);
                    c.map_buffer_range(t, off.into(), len.into(), access);
                    "map_buffer_range"
                }
                1 => {
                    let access = i.enm();
                    c.map_buffer(t, access);
                    "map_buffer"
                }
                2 => {
                    c.flush_mapped_buffer_range(t, off.into(), len.into());
                    "flush_mapped_buffer_range"
                }
                3 => {
                    // Writes through the mapping as an application would.
                    let v = i.u8();
                    if let Some(bytes) = c.mapped_bytes_mut(t) {
                        bytes.iter_mut().for_each(|b| *b = v);
                    }
                    "mapped_bytes_mut"
                }
                _ => {
                    c.unmap_buffer(t);
                    "unmap_buffer"
                }
            }
        }
        48 => {
            // Sync objects: a fence, or a wait / query / delete of a made or
            // raw one.
            let f = i.name(&m.fences).map(Fence);
            let (flags, pname) = (i.u8() as u32 & 3, i.enm());
            match (i.u8() % 5, f) {
                (0, _) => {
                    let cond = if flags == 0 { gl::SYNC_GPU_COMMANDS_COMPLETE } else { pname };
                    if let Some(f) = c.fence_sync(cond, flags >> 1) {
                        m.fences.push(f.name());
                    }
                    "fence_sync"
                }
                (1, Some(f)) => {
                    c.client_wait_sync(f, flags, 0);
                    "client_wait_sync"
                }
                (2, Some(f)) => {
                    c.get_sync_parameter_i32(f, pname);
                    "get_sync_parameter_i32"
                }
                (3, Some(f)) => {
                    c.wait_sync(f, flags, gl::TIMEOUT_IGNORED);
                    "wait_sync"
                }
                (_, f) => {
                    c.delete_sync(f);
                    "delete_sync"
                }
            }
        }
        49 => {
            // Queries: generate, begin, end, counter, results.
            let q = i.name(&m.queries).map(Query);
            let (target, pname) = (QUERY_TARGETS[i.u8() as usize % QUERY_TARGETS.len()], i.enm());
            match (i.u8() % 8, q) {
                (5, Some(q)) => {
                    c.begin_conditional_render(q, pname);
                    "begin_conditional_render"
                }
                (6, _) => {
                    c.end_conditional_render();
                    "end_conditional_render"
                }
                (0, _) => {
                    if let Ok(q) = c.create_query() {
                        m.queries.push(q.name());
                    }
                    "create_query"
                }
                (1, Some(q)) => {
                    c.begin_query(target, q);
                    "begin_query"
                }
                (2, _) => {
                    c.end_query(target);
                    "end_query"
                }
                (3, Some(q)) => {
                    c.query_counter_timestamp(q, target);
                    "query_counter_timestamp"
                }
                (4, Some(q)) => {
                    c.get_query_object_u64(q, pname);
                    "get_query_object_u64"
                }
                (_, q) => {
                    if let Some(q) = q {
                        c.delete_query(q);
                    }
                    "delete_query"
                }
            }
        }
        _ => {
            let (t, off, n) = (i.enm(), i.int(), i.int());
            let mut out = vec![0u8; n.clamp(0, 256) as usize];
            c.get_buffer_sub_data(t, off, &mut out);
            "get_buffer_sub_data"
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the driver: the interpreter (fast to build variants)
    // or the JIT (the default driver; each new variant costs a Cranelift compile).
    let Some((&driver, data)) = data.split_first() else {
        return;
    };
    let driver = if driver & 7 == 0 { "jit" } else { "interp" };
    let Ok(mut c) = Context::new_headless_on(driver, 16, 16) else {
        return;
    };
    // Compiles and links on the calling thread: one fuzz input, one thread.
    c.max_shader_compiler_threads(0);
    let mut input = In(data);
    let mut made = Made::default();
    let mut calls = 0;
    while !input.0.is_empty() && calls < 256 {
        calls += 1;
        let before = fingerprint(&mut c);
        let call = step(&mut c, &mut input, &mut made);
        let error = c.get_error();
        assert!(ERRORS.contains(&error), "{call}: glGetError returned {error:#x}");
        if error != gl::NO_ERROR && error != gl::OUT_OF_MEMORY {
            let after = fingerprint(&mut c);
            assert_eq!(before, after, "{call} raised {error:#x} and changed state");
        }
        // A second glGetError after the first reports nothing (§2.5: one flag
        // per error, cleared when read).
        assert_eq!(c.get_error(), gl::NO_ERROR, "{call}: the error flag was not cleared");
    }
});
