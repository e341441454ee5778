//! The shape of a misuse row, the constructors the tables use, and the entry
//! points whose GL 3.3 "Errors" text lists nothing this API can trigger.

use rgl_state::Context;

use crate::fixture::Fx;

/// A setup or a call: runs on the fixture's context.
pub type Step = fn(&mut Context, &Fx);

/// One misuse: `call` (after `setup`) on entry point `ep` must raise `err` and
/// change nothing; `spec` names the GL 3.3 section and rule.
pub struct Row {
    pub ep: &'static str,
    pub err: u32,
    pub spec: &'static str,
    pub setup: Option<Step>,
    pub call: Step,
}

/// A row without setup beyond the fixture.
pub fn row(ep: &'static str, err: u32, spec: &'static str, call: Step) -> Row {
    Row {
        ep,
        err,
        spec,
        setup: None,
        call,
    }
}

/// A row whose call needs `setup` first (the setup must raise no error).
pub fn row_with(ep: &'static str, err: u32, spec: &'static str, setup: Step, call: Step) -> Row {
    Row {
        ep,
        err,
        spec,
        setup: Some(setup),
        call,
    }
}

/// Entry points with no misuse row, and why: the GL 3.3 compatibility spec
/// lists no error for them that this API can reach (`n < 0` and `Begin`/`End`
/// errors have no counterpart in a Rust API taking one object and having no
/// immediate mode), or they are rgl's own, outside GL.
pub const NO_ERRORS: &[(&str, &str)] = &[
    ("get_error", "glGetError raises no error"),
    (
        "is_named_string",
        "ARB_shading_language_include §6.1.10: glIsNamedStringARB raises no error",
    ),
    ("create_buffer", "§2.9: glGenBuffers errs only for n < 0"),
    ("create_program", "§2.11.2: glCreateProgram raises no error"),
    (
        "max_shader_compiler_threads",
        "KHR_parallel_shader_compile: glMaxShaderCompilerThreadsKHR raises no error",
    ),
    (
        "create_vertex_array",
        "§2.10: glGenVertexArrays errs only for n < 0",
    ),
    (
        "create_texture",
        "§3.8.1: glGenTextures errs only for n < 0",
    ),
    (
        "create_sampler",
        "§3.8.2: glGenSamplers errs only for n < 0",
    ),
    (
        "create_framebuffer",
        "§4.4.1: glGenFramebuffers errs only for n < 0",
    ),
    (
        "create_renderbuffer",
        "§4.4.2: glGenRenderbuffers errs only for n < 0",
    ),
    ("delete_buffer", "§2.9: unused names are silently ignored"),
    (
        "delete_vertex_array",
        "§2.10: unused names are silently ignored",
    ),
    (
        "delete_texture",
        "§3.8.1: unused names are silently ignored",
    ),
    (
        "delete_sampler",
        "§3.8.2: unused names are silently ignored",
    ),
    (
        "delete_framebuffer",
        "§4.4.1: unused names are silently ignored",
    ),
    (
        "delete_renderbuffer",
        "§4.4.2: unused names are silently ignored",
    ),
    ("is_buffer", "§6.1.8: glIsBuffer raises no error"),
    ("is_sync", "§6.1.7: glIsSync raises no error"),
    ("create_query", "§2.14: glGenQueries errs only for n < 0"),
    ("is_query", "§6.1.6: glIsQuery raises no error"),
    ("delete_query", "§2.14: unused names are silently ignored"),
    (
        "mapped_bytes",
        "rgl's own: the view of glMapBufferRange's pointer raises no error",
    ),
    (
        "mapped_bytes_mut",
        "rgl's own: the view of glMapBufferRange's pointer raises no error",
    ),
    (
        "is_vertex_array",
        "§6.1.10: glIsVertexArray raises no error",
    ),
    ("is_texture", "§6.1.4: glIsTexture raises no error"),
    ("is_sampler", "§6.1.5: glIsSampler raises no error"),
    ("is_framebuffer", "§6.1.13: glIsFramebuffer raises no error"),
    (
        "is_renderbuffer",
        "§6.1.14: glIsRenderbuffer raises no error",
    ),
    ("is_shader", "§6.1.10: glIsShader raises no error"),
    ("is_program", "§6.1.10: glIsProgram raises no error"),
    ("depth_range_f64", "§2.13.1: values are clamped, no error"),
    ("depth_mask", "§4.2.2: no error"),
    (
        "stencil_mask",
        "§4.2.2: no error (glStencilMaskSeparate has the face error)",
    ),
    ("color_mask", "§4.2.2: no error"),
    ("blend_color", "§4.1.8: values are clamped, no error"),
    ("polygon_offset", "§3.6.4: no error"),
    ("primitive_restart_index", "§2.8: no error"),
    ("clear_color", "§4.2.3: no error"),
    ("clear_depth_f64", "§4.2.3: no error"),
    ("clear_stencil", "§4.2.3: no error"),
    (
        "load_identity",
        "compat §2.12.1: errs only inside Begin/End",
    ),
    (
        "load_matrix_f32",
        "compat §2.12.1: errs only inside Begin/End",
    ),
    (
        "mult_matrix_f32",
        "compat §2.12.1: errs only inside Begin/End",
    ),
    ("translate", "compat §2.12.1: errs only inside Begin/End"),
    ("scale", "compat §2.12.1: errs only inside Begin/End"),
    ("rotate", "compat §2.12.1: errs only inside Begin/End"),
    ("color_4_f32", "compat §2.7: current values raise no error"),
    ("finish", "§5.5: no error"),
    (
        "wait_background_compiles",
        "not a GL command (waits for the JIT's background rebuilds); raises no error",
    ),
    ("flush", "§5.5: no error"),
    ("last_draw_error", "rgl's own: why the last draw failed"),
    ("default_framebuffer_size", "rgl's own: window-system state"),
    (
        "resize_default_framebuffer",
        "rgl's own: window-system resize (sizes are clamped)",
    ),
    (
        "read_default_color_rgba8",
        "rgl's own: presents the window-system buffer",
    ),
    ("variant_stats", "rgl's own: variant cache counters"),
    (
        "linked_program",
        "rgl's own: the last link's result, None for anything else (no GL error)",
    ),
    (
        "set_shader_cache",
        "rgl's own: the on-disk shader cache's directory, never a GL error",
    ),
    (
        "shader_cache_dir",
        "rgl's own: the on-disk shader cache's directory",
    ),
    (
        "shader_cache_stats",
        "rgl's own: on-disk shader cache counters",
    ),
    (
        "describe_texture_slots",
        "rgl's own debugging aid: returns its error, records none",
    ),
];
