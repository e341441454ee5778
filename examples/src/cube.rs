//! A textured, lit, spinning cube: 24 vertices (position, normal, texture
//! coordinate) drawn with an index buffer (`draw_elements`), a procedural brick
//! texture with a full mipmap chain sampled `GL_LINEAR_MIPMAP_LINEAR`, depth
//! testing, back-face culling, and per-fragment diffuse plus ambient lighting.

use rgl_state::{gl, Context, Program, Texture, UniformLocation, VertexArray};

use crate::math::{self, Mat4};
use crate::{glutil, App, ExampleError};

const VS: &str = r#"#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 mvp;
uniform mat4 model;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    v_normal = mat3(model) * normal;
    v_uv = uv;
    gl_Position = mvp * vec4(position, 1.0);
}
"#;

const FS: &str = r#"#version 330 core
in vec3 v_normal;
in vec2 v_uv;
uniform sampler2D tex;
uniform vec3 light_dir;
out vec4 frag_color;
void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, light_dir), 0.0);
    vec3 albedo = texture(tex, v_uv).rgb;
    frag_color = vec4(albedo * (0.25 + 0.75 * diffuse), 1.0);
}
"#;

/// Side of the brick texture (a power of two, so the mipmap chain ends at 1×1).
const TEX_SIZE: usize = 64;

/// The cube app.
#[derive(Default)]
pub struct Cube {
    objects: Option<Objects>,
}

struct Objects {
    program: Program,
    vao: VertexArray,
    texture: Texture,
    mvp: UniformLocation,
    model: UniformLocation,
}

/// The six faces as (outward normal, u axis, v axis) with u × v = normal, so each
/// face's corners go counter-clockwise seen from outside.
const FACES: [[[f32; 3]; 3]; 6] = [
    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
    [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]],
    [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    [[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
];

/// Interleaved vertices (x y z, nx ny nz, s t) and triangle indices of a cube
/// with corners at ±1.
pub fn mesh() -> (Vec<f32>, Vec<u16>) {
    let mut verts = Vec::with_capacity(24 * 8);
    let mut indices = Vec::with_capacity(36);
    for (f, [n, u, v]) in FACES.iter().enumerate() {
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            for k in 0..3 {
                verts.push(n[k] + su * u[k] + sv * v[k]);
            }
            verts.extend_from_slice(n);
            // Two brick tiles across each face.
            verts.extend_from_slice(&[(su + 1.0), (sv + 1.0)]);
        }
        let b = (f * 4) as u16;
        indices.extend_from_slice(&[b, b + 1, b + 2, b, b + 2, b + 3]);
    }
    (verts, indices)
}

/// A `TEX_SIZE`² RGBA8 brick pattern: staggered rows of bricks whose shade
/// varies per brick, separated by light mortar lines.
// `%` rather than `is_multiple_of`, which is newer than the workspace MSRV (1.82).
#[allow(clippy::manual_is_multiple_of)]
pub fn brick_texture() -> Vec<u8> {
    const BRICK_W: usize = 16;
    const BRICK_H: usize = 8;
    let mut out = Vec::with_capacity(TEX_SIZE * TEX_SIZE * 4);
    for y in 0..TEX_SIZE {
        let row = y / BRICK_H;
        let shift = if row % 2 == 1 { BRICK_W / 2 } else { 0 };
        for x in 0..TEX_SIZE {
            let xs = (x + shift) % TEX_SIZE;
            let mortar = y % BRICK_H == 0 || xs % BRICK_W == 0;
            let rgb = if mortar {
                [205, 200, 190]
            } else {
                // A small integer hash of the brick's index picks its shade.
                let id = (row * 31 + xs / BRICK_W * 17) as u32;
                let h = (id.wrapping_mul(2_654_435_761) >> 27) as u8; // 0..32
                [150 + h, 60 + h / 2, 45 + h / 3]
            };
            out.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    out
}

impl App for Cube {
    fn init(&mut self, gl: &mut Context, _w: u32, _h: u32) -> Result<(), ExampleError> {
        let program = glutil::program(gl, "cube", VS, FS)?;
        let vao = glutil::vertex_array(gl)?;
        let (verts, indices) = mesh();
        glutil::buffer_with(gl, gl::ARRAY_BUFFER, &glutil::f32_bytes(&verts))?;
        glutil::buffer_with(gl, gl::ELEMENT_ARRAY_BUFFER, &glutil::u16_bytes(&indices))?;
        let stride = 8 * 4;
        glutil::float_attrib(gl, 0, 3, stride, 0);
        glutil::float_attrib(gl, 1, 3, stride, 3 * 4);
        glutil::float_attrib(gl, 2, 2, stride, 6 * 4);

        let texture = gl.create_texture().map_err(|source| ExampleError::Create {
            what: "create_texture",
            source,
        })?;
        gl.active_texture(gl::TEXTURE0);
        gl.bind_texture(gl::TEXTURE_2D, Some(texture));
        gl.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            TEX_SIZE as i32,
            TEX_SIZE as i32,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&brick_texture()),
        );
        gl.generate_mipmap(gl::TEXTURE_2D);
        let tp = |gl: &mut Context, p, v: u32| gl.tex_parameter_i32(gl::TEXTURE_2D, p, v as i32);
        tp(gl, gl::TEXTURE_MIN_FILTER, gl::LINEAR_MIPMAP_LINEAR);
        tp(gl, gl::TEXTURE_MAG_FILTER, gl::LINEAR);
        tp(gl, gl::TEXTURE_WRAP_S, gl::REPEAT);
        tp(gl, gl::TEXTURE_WRAP_T, gl::REPEAT);
        glutil::check(gl, "cube texture")?;

        gl.use_program(Some(program));
        let tex = glutil::uniform(gl, program, "tex")?;
        gl.uniform_1_i32(Some(&tex), 0);
        let light = glutil::uniform(gl, program, "light_dir")?;
        let l = [0.4f32, 0.6, 0.7];
        let len = l.iter().map(|v| v * v).sum::<f32>().sqrt();
        gl.uniform_3_f32(Some(&light), l[0] / len, l[1] / len, l[2] / len);
        let mvp = glutil::uniform(gl, program, "mvp")?;
        let model = glutil::uniform(gl, program, "model")?;

        gl.enable(gl::DEPTH_TEST);
        gl.depth_func(gl::LESS);
        gl.enable(gl::CULL_FACE);
        gl.cull_face(gl::BACK);
        gl.clear_color(0.15, 0.2, 0.3, 1.0);
        glutil::check(gl, "cube setup")?;
        self.objects = Some(Objects {
            program,
            vao,
            texture,
            mvp,
            model,
        });
        Ok(())
    }

    fn frame(&mut self, gl: &mut Context, t: f32) -> Result<(), ExampleError> {
        let Some(o) = &self.objects else {
            return Err(ExampleError::NotInitialized("cube"));
        };
        let (w, h) = gl.default_framebuffer_size();
        gl.viewport(0, 0, w as i32, h as i32);
        gl.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);

        let model: Mat4 = math::mul(
            &math::rotate(t * 40.0 + 30.0, 1.0, 0.0, 0.0),
            &math::rotate(t * 65.0 + 20.0, 0.0, 1.0, 0.0),
        );
        let proj = math::perspective(45.0, w as f32 / h as f32, 0.5, 20.0);
        let view = math::translate(0.0, 0.0, -5.0);
        let mvp = math::mul(&proj, &math::mul(&view, &model));

        gl.use_program(Some(o.program));
        gl.uniform_matrix_4_f32_slice(Some(&o.mvp), false, &mvp);
        gl.uniform_matrix_4_f32_slice(Some(&o.model), false, &model);
        gl.active_texture(gl::TEXTURE0);
        gl.bind_texture(gl::TEXTURE_2D, Some(o.texture));
        gl.bind_vertex_array(Some(o.vao));
        gl.draw_elements(gl::TRIANGLES, 36, gl::UNSIGNED_SHORT, 0);
        glutil::check_frame(gl, "cube")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_wind_counter_clockwise_outward() {
        let (v, idx) = mesh();
        assert_eq!((v.len(), idx.len()), (24 * 8, 36));
        for tri in idx.chunks_exact(3) {
            let p = |i: u16| {
                let b = i as usize * 8;
                [v[b], v[b + 1], v[b + 2]]
            };
            let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let cross = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            let n = &v[tri[0] as usize * 8 + 3..][..3];
            let d: f32 = cross.iter().zip(n).map(|(x, y)| x * y).sum();
            assert!(d > 0.0, "triangle {tri:?} faces inward");
        }
    }
}
