//! Compatibility programs missing a vertex or fragment shader link with rgl's
//! fixed-function stand-ins, and their interface is what fixed function provides.

mod common;

use rgl_state::{gl, Context};

#[test]
fn fragment_only_program_links_with_fixed_function_vertex_processing() {
    let mut ctx = Context::new_headless(8, 8);
    let fs = "void main() { gl_FragColor = gl_Color * gl_TexCoord[0]; }";
    common::program(&mut ctx, &[(gl::FRAGMENT_SHADER, fs)]);
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
}

#[test]
fn vertex_only_program_links_with_fixed_function_fragment_processing() {
    let mut ctx = Context::new_headless(8, 8);
    let vs = "void main() { gl_Position = gl_Vertex; gl_FrontColor = vec4(1.0); }";
    common::program(&mut ctx, &[(gl::VERTEX_SHADER, vs)]);
}

#[test]
fn generic_attribute_zero_reads_the_vertex_pointer_array_when_gl_vertex_is_unused() {
    // Compatibility contexts alias generic attribute 0 and gl_Vertex: a shader
    // whose only attribute (location 0) is generic draws from glVertexPointer.
    let mut ctx = Context::new_headless(8, 8);
    let vs = "#version 130
in vec4 position;
void main() { gl_Position = position; }";
    let fs = "#version 130
void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }";
    let program = common::program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    assert_eq!(ctx.get_attrib_location(program, "position"), Some(0));
    let quad: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let vbo = ctx.create_buffer().expect("buffer");
    ctx.bind_buffer(gl::ARRAY_BUFFER, Some(vbo));
    ctx.buffer_data_u8_slice(gl::ARRAY_BUFFER, &quad, gl::STATIC_DRAW);
    ctx.vertex_pointer(2, gl::FLOAT, 0, 0);
    ctx.enable_client_state(gl::VERTEX_ARRAY);
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    assert_eq!(common::pixel(&mut ctx, 4, 4), [0, 255, 0, 255]);
}
