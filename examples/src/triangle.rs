//! The classic RGB triangle: one vertex buffer with interleaved positions and
//! colors, a vertex array object, and GLSL 3.30 core shaders that interpolate the
//! colors. It does not move, so every frame is the same.

use rgl_state::{gl, Context, Program, VertexArray};

use crate::{glutil, App, ExampleError};

const VS: &str = r#"#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec3 color;
out vec3 v_color;
void main() {
    v_color = color;
    gl_Position = vec4(position, 0.0, 1.0);
}
"#;

const FS: &str = r#"#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(v_color, 1.0);
}
"#;

/// x, y, r, g, b per vertex.
const VERTICES: [f32; 15] = [
    -0.8, -0.7, 1.0, 0.0, 0.0, //
    0.8, -0.7, 0.0, 1.0, 0.0, //
    0.0, 0.8, 0.0, 0.0, 1.0,
];

/// The triangle app.
#[derive(Default)]
pub struct Triangle {
    objects: Option<(Program, VertexArray)>,
}

impl App for Triangle {
    fn init(&mut self, gl: &mut Context, _w: u32, _h: u32) -> Result<(), ExampleError> {
        let program = glutil::program(gl, "triangle", VS, FS)?;
        let vao = glutil::vertex_array(gl)?;
        glutil::buffer_with(gl, gl::ARRAY_BUFFER, &glutil::f32_bytes(&VERTICES))?;
        let stride = 5 * 4;
        glutil::float_attrib(gl, 0, 2, stride, 0);
        glutil::float_attrib(gl, 1, 3, stride, 2 * 4);
        gl.clear_color(0.1, 0.1, 0.12, 1.0);
        glutil::check(gl, "triangle setup")?;
        self.objects = Some((program, vao));
        Ok(())
    }

    fn frame(&mut self, gl: &mut Context, _t: f32) -> Result<(), ExampleError> {
        let Some((program, vao)) = self.objects else {
            return Err(ExampleError::NotInitialized("triangle"));
        };
        let (w, h) = gl.default_framebuffer_size();
        gl.viewport(0, 0, w as i32, h as i32);
        gl.clear(gl::COLOR_BUFFER_BIT);
        gl.use_program(Some(program));
        gl.bind_vertex_array(Some(vao));
        gl.draw_arrays(gl::TRIANGLES, 0, 3);
        glutil::check_frame(gl, "triangle")
    }
}
