//! Helpers shared by the state tracker's integration tests.

#![allow(dead_code)]

use rgl_state::{gl, Context, Program};

/// Compiles and links `sources` (`(shader type, GLSL)`), makes the program
/// current and returns it; panics with the info log on failure.
pub fn program(ctx: &mut Context, sources: &[(u32, &str)]) -> Program {
    let program = ctx.create_program().expect("program name");
    for (kind, src) in sources {
        let s = ctx.create_shader(*kind).expect("shader name");
        ctx.shader_source(s, src);
        ctx.compile_shader(s);
        assert!(
            ctx.get_shader_compile_status(s),
            "{}",
            ctx.get_shader_info_log(s)
        );
        ctx.attach_shader(program, s);
    }
    ctx.link_program(program);
    assert!(
        ctx.get_program_link_status(program),
        "{}",
        ctx.get_program_info_log(program)
    );
    ctx.use_program(Some(program));
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
    program
}

/// A context on the software driver with compute engine `engine`.
pub fn compute_context(engine: rgl_backend::compute::ComputeEngine) -> Context {
    let mut driver = rgl_backend::SoftDriver::new(2);
    driver.set_compute_engine(engine);
    Context::with_driver(Box::new(driver), 8, 8)
}

/// Compiles and links the compute shader `tests/compute/<file>` and makes it
/// current.
pub fn compute_program(ctx: &mut Context, file: &str) -> Program {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compute")
        .join(file);
    let src = std::fs::read_to_string(path).expect("read shader");
    program(ctx, &[(gl::COMPUTE_SHADER, &src)])
}

/// Uploads `data` to a new buffer bound to `target`.
pub fn buffer(ctx: &mut Context, target: u32, data: &[u8]) -> rgl_state::Buffer {
    let b = ctx.create_buffer().expect("buffer name");
    ctx.bind_buffer(target, Some(b));
    ctx.buffer_data_u8_slice(target, data, gl::STATIC_DRAW);
    b
}

/// A new buffer holding `words` (little-endian), bound to `COPY_WRITE_BUFFER`.
pub fn words_buffer(ctx: &mut Context, words: &[u32]) -> rgl_state::Buffer {
    let b = ctx.create_buffer().expect("buffer name");
    ctx.bind_buffer(gl::COPY_WRITE_BUFFER, Some(b));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    ctx.buffer_data_u8_slice(gl::COPY_WRITE_BUFFER, &bytes, gl::DYNAMIC_DRAW);
    b
}

/// The first `words` little-endian words of buffer `b`.
pub fn read_words(ctx: &mut Context, b: rgl_state::Buffer, words: usize) -> Vec<u32> {
    ctx.bind_buffer(gl::COPY_READ_BUFFER, Some(b));
    let mut bytes = vec![0u8; words * 4];
    ctx.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, &mut bytes);
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
    bytes
        .chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// Little-endian bytes of `v`.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// The RGBA8 pixel at (`x`, `y`) of the current read framebuffer.
pub fn pixel(ctx: &mut Context, x: i32, y: i32) -> [u8; 4] {
    let mut px = [0u8; 4];
    ctx.read_pixels(x, y, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &mut px);
    px
}

/// A full-screen quad (two triangles) in attribute `location` of a new VAO.
pub fn fullscreen_quad(ctx: &mut Context, location: u32) {
    let vao = ctx.create_vertex_array().expect("vao name");
    ctx.bind_vertex_array(Some(vao));
    let quad = [
        -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0,
    ];
    buffer(ctx, gl::ARRAY_BUFFER, &f32_bytes(&quad));
    ctx.vertex_attrib_pointer_f32(location, 2, gl::FLOAT, false, 0, 0);
    ctx.enable_vertex_attrib_array(location);
}
