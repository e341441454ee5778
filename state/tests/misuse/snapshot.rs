//! The observable state of a fixture context, read through the public queries
//! only: `glGet*` of every state variable rgl answers for, capabilities, vertex
//! attribute state, buffer stores, texture parameters and images of every
//! bound target on the first units, framebuffer and renderbuffer state,
//! program, shader, uniform and sampler state, and the default framebuffer's
//! pixels. Queries that fail are recorded as `ERR <code>`, so an object that
//! disappears shows as a change. Taking a snapshot changes nothing: the
//! bindings it moves to read objects are put back.

use std::collections::BTreeMap;

use rgl_state::{gl, Buffer, Context};

use crate::fixture::Fx;

pub type Snapshot = BTreeMap<String, String>;

/// The keys whose values differ between two snapshots.
pub fn diff(a: &Snapshot, b: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in a {
        match b.get(k) {
            Some(w) if w == v => {}
            Some(w) => out.push(format!("{k}: {v} -> {w}")),
            None => out.push(format!("{k}: {v} -> (gone)")),
        }
    }
    for (k, w) in b {
        if !a.contains_key(k) {
            out.push(format!("{k}: (new) {w}"));
        }
    }
    out
}

struct S<'a> {
    c: &'a mut Context,
    out: Snapshot,
}

impl S<'_> {
    fn put(&mut self, key: String, value: String) {
        let e = self.c.get_error();
        let value = if e == gl::NO_ERROR {
            value
        } else {
            format!("ERR 0x{e:04X}")
        };
        self.out.insert(key, value);
    }
}

/// `glGet` names read with `get_parameter_i32_slice` (up to 16 values).
const INT_STATE: &[u32] = &[
    gl::VIEWPORT,
    gl::SCISSOR_BOX,
    gl::DEPTH_WRITEMASK,
    gl::DEPTH_FUNC,
    gl::STENCIL_CLEAR_VALUE,
    gl::STENCIL_FUNC,
    gl::STENCIL_VALUE_MASK,
    gl::STENCIL_FAIL,
    gl::STENCIL_PASS_DEPTH_FAIL,
    gl::STENCIL_PASS_DEPTH_PASS,
    gl::STENCIL_REF,
    gl::STENCIL_WRITEMASK,
    gl::STENCIL_BACK_FUNC,
    gl::STENCIL_BACK_VALUE_MASK,
    gl::STENCIL_BACK_FAIL,
    gl::STENCIL_BACK_PASS_DEPTH_FAIL,
    gl::STENCIL_BACK_PASS_DEPTH_PASS,
    gl::STENCIL_BACK_REF,
    gl::STENCIL_BACK_WRITEMASK,
    gl::BLEND_EQUATION_RGB,
    gl::BLEND_EQUATION_ALPHA,
    gl::BLEND_SRC_RGB,
    gl::BLEND_DST_RGB,
    gl::BLEND_SRC_ALPHA,
    gl::BLEND_DST_ALPHA,
    gl::COLOR_WRITEMASK,
    gl::CULL_FACE_MODE,
    gl::FRONT_FACE,
    gl::POLYGON_MODE,
    gl::PROVOKING_VERTEX,
    gl::PRIMITIVE_RESTART_INDEX,
    gl::ALPHA_TEST_FUNC,
    gl::SHADE_MODEL,
    gl::MATRIX_MODE,
    gl::MODELVIEW_STACK_DEPTH,
    gl::PROJECTION_STACK_DEPTH,
    gl::TEXTURE_STACK_DEPTH,
    gl::CLIENT_ACTIVE_TEXTURE,
    gl::ACTIVE_TEXTURE,
    gl::CURRENT_PROGRAM,
    gl::ARRAY_BUFFER_BINDING,
    gl::ELEMENT_ARRAY_BUFFER_BINDING,
    gl::UNIFORM_BUFFER_BINDING,
    gl::COPY_READ_BUFFER_BINDING,
    gl::COPY_WRITE_BUFFER_BINDING,
    gl::PIXEL_PACK_BUFFER_BINDING,
    gl::PIXEL_UNPACK_BUFFER_BINDING,
    gl::VERTEX_ARRAY_BINDING,
    gl::DRAW_FRAMEBUFFER_BINDING,
    gl::READ_FRAMEBUFFER_BINDING,
    gl::RENDERBUFFER_BINDING,
    gl::READ_BUFFER,
    gl::DRAW_BUFFER,
    gl::DRAW_BUFFER0,
    gl::DRAW_BUFFER0 + 1,
    gl::DRAW_BUFFER0 + 2,
    gl::DRAW_BUFFER0 + 3,
    gl::UNPACK_SWAP_BYTES,
    gl::UNPACK_LSB_FIRST,
    gl::UNPACK_ROW_LENGTH,
    gl::UNPACK_SKIP_ROWS,
    gl::UNPACK_SKIP_PIXELS,
    gl::UNPACK_ALIGNMENT,
    gl::UNPACK_IMAGE_HEIGHT,
    gl::UNPACK_SKIP_IMAGES,
    gl::PACK_SWAP_BYTES,
    gl::PACK_LSB_FIRST,
    gl::PACK_ROW_LENGTH,
    gl::PACK_SKIP_ROWS,
    gl::PACK_SKIP_PIXELS,
    gl::PACK_ALIGNMENT,
    gl::PACK_IMAGE_HEIGHT,
    gl::PACK_SKIP_IMAGES,
    gl::PERSPECTIVE_CORRECTION_HINT,
    gl::POINT_SMOOTH_HINT,
    gl::LINE_SMOOTH_HINT,
    gl::POLYGON_SMOOTH_HINT,
    gl::FOG_HINT,
    gl::GENERATE_MIPMAP_HINT,
    gl::TEXTURE_COMPRESSION_HINT,
    gl::FRAGMENT_SHADER_DERIVATIVE_HINT,
];

/// `glGet` names read with `get_parameter_f32_slice`.
const FLOAT_STATE: &[u32] = &[
    gl::DEPTH_RANGE,
    gl::DEPTH_CLEAR_VALUE,
    gl::BLEND_COLOR,
    gl::COLOR_CLEAR_VALUE,
    gl::POLYGON_OFFSET_FACTOR,
    gl::POLYGON_OFFSET_UNITS,
    gl::POINT_SIZE,
    gl::LINE_WIDTH,
    gl::ALPHA_TEST_REF,
    gl::MODELVIEW_MATRIX,
    gl::PROJECTION_MATRIX,
    gl::TEXTURE_MATRIX,
    gl::CURRENT_COLOR,
    gl::CURRENT_TEXTURE_COORDS,
];

const CAPS: &[u32] = &[
    gl::BLEND,
    gl::CULL_FACE,
    gl::DEPTH_TEST,
    gl::STENCIL_TEST,
    gl::SCISSOR_TEST,
    gl::POLYGON_OFFSET_FILL,
    gl::POLYGON_OFFSET_LINE,
    gl::POLYGON_OFFSET_POINT,
    gl::PROGRAM_POINT_SIZE,
    gl::DEPTH_CLAMP,
    gl::VERTEX_PROGRAM_TWO_SIDE,
    gl::RASTERIZER_DISCARD,
    gl::PRIMITIVE_RESTART,
    gl::ALPHA_TEST,
    gl::CLIP_DISTANCE0,
    gl::CLIP_DISTANCE1,
    gl::CLIP_DISTANCE7,
];

const ATTRIB_PNAMES: &[u32] = &[
    gl::VERTEX_ATTRIB_ARRAY_ENABLED,
    gl::VERTEX_ATTRIB_ARRAY_SIZE,
    gl::VERTEX_ATTRIB_ARRAY_STRIDE,
    gl::VERTEX_ATTRIB_ARRAY_TYPE,
    gl::VERTEX_ATTRIB_ARRAY_NORMALIZED,
    gl::VERTEX_ATTRIB_ARRAY_INTEGER,
    gl::VERTEX_ATTRIB_ARRAY_DIVISOR,
    gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
    gl::VERTEX_ATTRIB_ARRAY_POINTER,
];

/// Buffer binding points and their `glGet` binding names.
const BUFFER_TARGETS: &[(u32, u32)] = &[
    (gl::ARRAY_BUFFER, gl::ARRAY_BUFFER_BINDING),
    (gl::ELEMENT_ARRAY_BUFFER, gl::ELEMENT_ARRAY_BUFFER_BINDING),
    (gl::UNIFORM_BUFFER, gl::UNIFORM_BUFFER_BINDING),
    (gl::COPY_READ_BUFFER, gl::COPY_READ_BUFFER_BINDING),
    (gl::COPY_WRITE_BUFFER, gl::COPY_WRITE_BUFFER_BINDING),
    (gl::PIXEL_PACK_BUFFER, gl::PIXEL_PACK_BUFFER_BINDING),
    (gl::PIXEL_UNPACK_BUFFER, gl::PIXEL_UNPACK_BUFFER_BINDING),
    (gl::SHADER_STORAGE_BUFFER, gl::SHADER_STORAGE_BUFFER_BINDING),
    (gl::ATOMIC_COUNTER_BUFFER, gl::ATOMIC_COUNTER_BUFFER_BINDING),
    (
        gl::DISPATCH_INDIRECT_BUFFER,
        gl::DISPATCH_INDIRECT_BUFFER_BINDING,
    ),
];

/// Texture targets, their binding names and the image targets of level queries.
const TEXTURE_TARGETS: &[(u32, u32, u32)] = &[
    (gl::TEXTURE_1D, gl::TEXTURE_BINDING_1D, gl::TEXTURE_1D),
    (gl::TEXTURE_2D, gl::TEXTURE_BINDING_2D, gl::TEXTURE_2D),
    (gl::TEXTURE_3D, gl::TEXTURE_BINDING_3D, gl::TEXTURE_3D),
    (
        gl::TEXTURE_1D_ARRAY,
        gl::TEXTURE_BINDING_1D_ARRAY,
        gl::TEXTURE_1D_ARRAY,
    ),
    (
        gl::TEXTURE_2D_ARRAY,
        gl::TEXTURE_BINDING_2D_ARRAY,
        gl::TEXTURE_2D_ARRAY,
    ),
    (
        gl::TEXTURE_RECTANGLE,
        gl::TEXTURE_BINDING_RECTANGLE,
        gl::TEXTURE_RECTANGLE,
    ),
    (
        gl::TEXTURE_CUBE_MAP,
        gl::TEXTURE_BINDING_CUBE_MAP,
        gl::TEXTURE_CUBE_MAP_POSITIVE_X,
    ),
];

const TEX_PNAMES: &[u32] = &[
    gl::TEXTURE_MIN_FILTER,
    gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S,
    gl::TEXTURE_WRAP_T,
    gl::TEXTURE_WRAP_R,
    gl::TEXTURE_MIN_LOD,
    gl::TEXTURE_MAX_LOD,
    gl::TEXTURE_BASE_LEVEL,
    gl::TEXTURE_MAX_LEVEL,
    gl::TEXTURE_LOD_BIAS,
    gl::TEXTURE_COMPARE_MODE,
    gl::TEXTURE_COMPARE_FUNC,
    gl::TEXTURE_SWIZZLE_R,
    gl::TEXTURE_SWIZZLE_A,
    gl::TEXTURE_IMMUTABLE_FORMAT,
    gl::TEXTURE_IMMUTABLE_LEVELS,
];

const LEVEL_PNAMES: &[u32] = &[
    gl::TEXTURE_WIDTH,
    gl::TEXTURE_HEIGHT,
    gl::TEXTURE_DEPTH,
    gl::TEXTURE_INTERNAL_FORMAT,
];

const SAMPLER_PNAMES: &[u32] = &[
    gl::TEXTURE_MIN_FILTER,
    gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S,
    gl::TEXTURE_WRAP_T,
    gl::TEXTURE_WRAP_R,
    gl::TEXTURE_MIN_LOD,
    gl::TEXTURE_MAX_LOD,
    gl::TEXTURE_LOD_BIAS,
    gl::TEXTURE_COMPARE_MODE,
    gl::TEXTURE_COMPARE_FUNC,
];

const ATTACHMENTS: &[u32] = &[
    gl::COLOR_ATTACHMENT0,
    gl::COLOR_ATTACHMENT0 + 1,
    gl::DEPTH_ATTACHMENT,
    gl::STENCIL_ATTACHMENT,
];

const PROGRAM_PNAMES: &[u32] = &[
    gl::DELETE_STATUS,
    gl::LINK_STATUS,
    gl::INFO_LOG_LENGTH,
    gl::ATTACHED_SHADERS,
    gl::ACTIVE_ATTRIBUTES,
    gl::ACTIVE_UNIFORMS,
    gl::ACTIVE_UNIFORM_BLOCKS,
];

const SHADER_PNAMES: &[u32] = &[
    gl::SHADER_TYPE,
    gl::DELETE_STATUS,
    gl::COMPILE_STATUS,
    gl::INFO_LOG_LENGTH,
    gl::SHADER_SOURCE_LENGTH,
];

/// Texture units whose bindings and textures the snapshot reads.
const UNITS: u32 = 4;

/// The observable state of `c` (see the module doc).
pub fn snapshot(c: &mut Context, fx: &Fx) -> Snapshot {
    let pending = c.get_error();
    assert_eq!(pending, gl::NO_ERROR, "snapshot with an error pending");
    let mut s = S {
        c,
        out: Snapshot::new(),
    };
    for &p in INT_STATE {
        let mut v = [i32::MIN; 16];
        s.c.get_parameter_i32_slice(p, &mut v);
        let n = v.iter().position(|x| *x == i32::MIN).unwrap_or(16);
        s.put(format!("get 0x{p:04X}"), format!("{:?}", &v[..n]));
    }
    for &p in FLOAT_STATE {
        let mut v = [f32::NAN; 16];
        s.c.get_parameter_f32_slice(p, &mut v);
        let n = v.iter().position(|x| x.is_nan()).unwrap_or(16);
        s.put(format!("getf 0x{p:04X}"), format!("{:?}", &v[..n]));
    }
    for &cap in CAPS {
        let on = s.c.is_enabled(cap);
        s.put(format!("enabled 0x{cap:04X}"), on.to_string());
    }
    for plane in 0..8 {
        let eq = s.c.get_clip_plane(gl::CLIP_PLANE0 + plane);
        s.put(format!("clip plane {plane}"), format!("{eq:?}"));
    }
    attribs(&mut s, fx);
    buffers(&mut s, fx);
    textures(&mut s, fx);
    framebuffers(&mut s, fx);
    programs(&mut s, fx);
    let sampler = fx.sampler;
    let live = s.c.is_sampler(sampler);
    s.put("sampler live".into(), live.to_string());
    for &p in SAMPLER_PNAMES {
        let v = s.c.get_sampler_parameter_f32(sampler, p);
        s.put(format!("sampler 0x{p:04X}"), v.to_string());
    }
    let pixels = s.c.read_default_color_rgba8();
    s.put("default framebuffer".into(), format!("{pixels:?}"));
    // Named strings (glIsNamedStringARB raises no error): the names the
    // named-string rows use.
    for name in ["/inc/a.h", "/inc", "/inc/b.h", "/x", "/x/y"] {
        let defined = s.c.is_named_string(name);
        s.put(format!("named string {name}"), defined.to_string());
    }
    s.out
}

fn attribs(s: &mut S<'_>, fx: &Fx) {
    for (what, v) in [("vao", fx.vao), ("dead", fx.dead_vao)] {
        let live = s.c.is_vertex_array(v);
        s.put(format!("vertex array {what} live"), live.to_string());
    }
    for index in 0..4 {
        for &p in ATTRIB_PNAMES {
            let v = s.c.get_vertex_attrib_i32(index, p);
            s.put(format!("attrib {index} 0x{p:04X}"), v.to_string());
        }
    }
    for index in 0..16 {
        let mut v = [0.0f32; 4];
        s.c.get_vertex_attrib_f32_slice(index, gl::CURRENT_VERTEX_ATTRIB, &mut v);
        let bits = v.map(f32::to_bits);
        s.put(format!("current attrib {index}"), format!("{bits:08X?}"));
    }
}

/// Binds `buffer` to `COPY_READ_BUFFER` to read its store, then restores it.
fn buffers(s: &mut S<'_>, fx: &Fx) {
    for &(target, binding) in BUFFER_TARGETS {
        let name = s.c.get_parameter_i32(binding);
        s.put(format!("buffer binding 0x{target:04X}"), name.to_string());
    }
    for index in 0..4 {
        for p in [
            gl::UNIFORM_BUFFER_BINDING,
            gl::UNIFORM_BUFFER_START,
            gl::UNIFORM_BUFFER_SIZE,
            gl::SHADER_STORAGE_BUFFER_BINDING,
            gl::SHADER_STORAGE_BUFFER_START,
            gl::SHADER_STORAGE_BUFFER_SIZE,
            gl::ATOMIC_COUNTER_BUFFER_BINDING,
            gl::ATOMIC_COUNTER_BUFFER_START,
            gl::ATOMIC_COUNTER_BUFFER_SIZE,
        ] {
            let v = s.c.get_parameter_indexed_i32(p, index);
            s.put(format!("uniform binding {index} 0x{p:04X}"), v.to_string());
        }
    }
    let saved = s.c.get_parameter_i32(gl::COPY_READ_BUFFER_BINDING);
    for (what, b) in [
        ("buf", fx.buf),
        ("ebuf", fx.ebuf),
        ("ubuf", fx.ubuf),
        ("dead", fx.dead_buf),
    ] {
        let live = s.c.is_buffer(b);
        s.put(format!("buffer {what} live"), live.to_string());
        if !live {
            continue;
        }
        s.c.bind_buffer(gl::COPY_READ_BUFFER, Some(b));
        let size =
            s.c.get_buffer_parameter_i32(gl::COPY_READ_BUFFER, gl::BUFFER_SIZE);
        let usage =
            s.c.get_buffer_parameter_i32(gl::COPY_READ_BUFFER, gl::BUFFER_USAGE);
        let mapping = [
            gl::BUFFER_MAPPED,
            gl::BUFFER_ACCESS,
            gl::BUFFER_ACCESS_FLAGS,
            gl::BUFFER_MAP_OFFSET,
            gl::BUFFER_MAP_LENGTH,
        ]
        .map(|p| s.c.get_buffer_parameter_i32(gl::COPY_READ_BUFFER, p));
        // A mapped store may not be read with glGetBufferSubData (it would
        // raise an error); its mapped range is read through the mapping.
        let data = if mapping[0] != 0 {
            s.c.mapped_bytes(gl::COPY_READ_BUFFER)
                .map(<[u8]>::to_vec)
                .unwrap_or_default()
        } else {
            let mut data = vec![0u8; size.max(0) as usize];
            s.c.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, &mut data);
            data
        };
        s.put(
            format!("buffer {what}"),
            format!("size {size} usage 0x{usage:04X} mapping {mapping:?} {data:?}"),
        );
    }
    let restore = std::num::NonZeroU32::new(saved as u32).map(Buffer);
    s.c.bind_buffer(gl::COPY_READ_BUFFER, restore);
    s.put("buffer restore".into(), String::new());
}

fn textures(s: &mut S<'_>, fx: &Fx) {
    for (what, t) in [
        ("2d", fx.tex2d),
        ("3d", fx.tex3d),
        ("array", fx.tex_array),
        ("cube", fx.tex_cube),
        ("rect", fx.tex_rect),
        ("1d", fx.tex1d),
        ("immutable", fx.tex_immutable),
        ("fbo color", fx.fbo_color),
        ("dead", fx.dead_tex),
    ] {
        let live = s.c.is_texture(t);
        s.put(format!("texture {what} live"), live.to_string());
    }
    let pack = s.c.get_parameter_i32(gl::PIXEL_PACK_BUFFER_BINDING);
    let active = s.c.get_parameter_i32(gl::ACTIVE_TEXTURE);
    for unit in 0..UNITS {
        s.c.active_texture(gl::TEXTURE0 + unit);
        let sampler = s.c.get_parameter_i32(gl::SAMPLER_BINDING);
        s.put(format!("unit {unit} sampler"), sampler.to_string());
        for &(target, binding, image) in TEXTURE_TARGETS {
            let name = s.c.get_parameter_i32(binding);
            let key = format!("unit {unit} 0x{target:04X}");
            s.put(format!("{key} binding"), name.to_string());
            if name == 0 {
                continue;
            }
            for &p in TEX_PNAMES {
                let v = s.c.get_tex_parameter_f32(target, p);
                s.put(format!("{key} param 0x{p:04X}"), v.to_string());
            }
            let mut border = [0.0f32; 4];
            s.c.get_tex_parameter_f32_slice(target, gl::TEXTURE_BORDER_COLOR, &mut border);
            s.put(format!("{key} border"), format!("{border:?}"));
            for level in 0..3 {
                let mut v = Vec::new();
                for &p in LEVEL_PNAMES {
                    v.push(s.c.get_tex_level_parameter_i32(image, level, p));
                }
                s.put(format!("{key} level {level}"), format!("{v:?}"));
                let (w, h, d) = (v[0], v[1], v[2]);
                if w > 0 && pack == 0 {
                    let faces = if target == gl::TEXTURE_CUBE_MAP { 1 } else { d };
                    let n = (w * h.max(1) * faces.max(1) * 4) as usize;
                    let mut px = vec![0u8; n];
                    s.c.get_tex_image(image, level, gl::RGBA, gl::UNSIGNED_BYTE, &mut px);
                    s.put(format!("{key} level {level} texels"), format!("{px:?}"));
                }
            }
        }
    }
    s.c.active_texture(active as u32);
    s.put("texture restore".into(), String::new());
}

fn framebuffers(s: &mut S<'_>, fx: &Fx) {
    for (what, f) in [
        ("fbo", fx.fbo),
        ("empty", fx.fbo_empty),
        ("dead", fx.dead_fbo),
    ] {
        let live = s.c.is_framebuffer(f);
        s.put(format!("framebuffer {what} live"), live.to_string());
    }
    for (what, r) in [("rb", fx.rb), ("dead", fx.dead_rb)] {
        let live = s.c.is_renderbuffer(r);
        s.put(format!("renderbuffer {what} live"), live.to_string());
    }
    for target in [gl::DRAW_FRAMEBUFFER, gl::READ_FRAMEBUFFER] {
        let status = s.c.check_framebuffer_status(target);
        s.put(format!("status 0x{target:04X}"), format!("0x{status:04X}"));
        let bound = if target == gl::DRAW_FRAMEBUFFER {
            gl::DRAW_FRAMEBUFFER_BINDING
        } else {
            gl::READ_FRAMEBUFFER_BINDING
        };
        if s.c.get_parameter_i32(bound) == 0 {
            continue;
        }
        for &a in ATTACHMENTS {
            let ty = s.c.get_framebuffer_attachment_parameter_i32(
                target,
                a,
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
            );
            let name = s.c.get_framebuffer_attachment_parameter_i32(
                target,
                a,
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
            );
            s.put(
                format!("attachment 0x{target:04X} 0x{a:04X}"),
                format!("type 0x{ty:04X} name {name}"),
            );
        }
    }
    if s.c.get_parameter_i32(gl::RENDERBUFFER_BINDING) != 0 {
        for p in [
            gl::RENDERBUFFER_WIDTH,
            gl::RENDERBUFFER_HEIGHT,
            gl::RENDERBUFFER_INTERNAL_FORMAT,
        ] {
            let v = s.c.get_renderbuffer_parameter_i32(gl::RENDERBUFFER, p);
            s.put(format!("renderbuffer 0x{p:04X}"), v.to_string());
        }
    }
}

fn programs(s: &mut S<'_>, fx: &Fx) {
    for (what, p) in [
        ("prog", fx.prog),
        ("gs", fx.gs_prog),
        ("unlinked", fx.unlinked),
        ("dead", fx.dead_prog),
    ] {
        let live = s.c.is_program(p);
        s.put(format!("program {what} live"), live.to_string());
        if !live {
            continue;
        }
        for &pname in PROGRAM_PNAMES {
            let v = s.c.get_program_parameter_i32(p, pname);
            s.put(format!("program {what} 0x{pname:04X}"), v.to_string());
        }
        let log = s.c.get_program_info_log(p);
        s.put(format!("program {what} log"), log);
        let attached = s.c.get_attached_shaders(p);
        s.put(format!("program {what} shaders"), format!("{attached:?}"));
        if s.c.get_program_link_status(p) {
            let blocks = s.c.get_program_parameter_i32(p, gl::ACTIVE_UNIFORM_BLOCKS);
            for b in 0..blocks as u32 {
                let v =
                    s.c.get_active_uniform_block_parameter_i32(p, b, gl::UNIFORM_BLOCK_BINDING);
                s.put(format!("program {what} block {b} binding"), v.to_string());
            }
            let loc = s.c.get_attrib_location(p, "pos");
            s.put(format!("program {what} pos"), format!("{loc:?}"));
        }
    }
    if s.c.get_program_link_status(fx.prog) {
        for (name, loc) in &fx.locations {
            let v = s.c.get_uniform_words(fx.prog, loc);
            s.put(format!("uniform {name}"), format!("{v:08X?}"));
        }
    }
    for (what, sh) in [
        ("vs", fx.vs),
        ("fs", fx.fs),
        ("lone", fx.lone),
        ("dead", fx.dead_shader),
    ] {
        let live = s.c.is_shader(sh);
        s.put(format!("shader {what} live"), live.to_string());
        if !live {
            continue;
        }
        for &pname in SHADER_PNAMES {
            let v = s.c.get_shader_parameter_i32(sh, pname);
            s.put(format!("shader {what} 0x{pname:04X}"), v.to_string());
        }
        let src = s.c.get_shader_source(sh);
        s.put(format!("shader {what} source"), src);
    }
}
