//! Three meshing gears in the spirit of glxgears: the tooth geometry is generated
//! on the CPU (flat normals on the faces and tooth flanks, smooth normals on the
//! inner bore), lit per fragment in GLSL by one directional light, drawn with
//! depth testing, and turned at 70°/s with the matrix math done in Rust.

use std::f32::consts::PI;

use rgl_state::{gl, Context, Program, UniformLocation, VertexArray};

use crate::math::{self, Mat4};
use crate::{glutil, App, ExampleError};

const VS: &str = r#"#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 modelview;
uniform mat4 projection;
out vec3 v_normal;
void main() {
    v_normal = mat3(modelview) * normal;
    gl_Position = projection * (modelview * vec4(position, 1.0));
}
"#;

const FS: &str = r#"#version 330 core
in vec3 v_normal;
uniform vec3 color;
uniform vec3 light_dir;
out vec4 frag_color;
void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing)
        n = -n;
    float diffuse = max(dot(n, light_dir), 0.0);
    frag_color = vec4(color * (0.2 + 0.8 * diffuse), 1.0);
}
"#;

/// The shape of one gear.
#[derive(Copy, Clone, Debug)]
pub struct GearShape {
    /// Radius of the bore.
    pub inner_radius: f32,
    /// Radius at the middle of the teeth.
    pub outer_radius: f32,
    /// Thickness along z.
    pub width: f32,
    /// Number of teeth.
    pub teeth: u32,
    /// Radial height of a tooth.
    pub tooth_depth: f32,
}

/// One gear of the scene.
struct Placed {
    shape: GearShape,
    color: [f32; 3],
    /// Center in the xy plane.
    position: [f32; 2],
    /// Rotation = `speed` × the scene angle + `phase` (degrees).
    speed: f32,
    phase: f32,
}

/// The three gears with the proportions glxgears uses, so their teeth mesh.
const GEARS: [Placed; 3] = [
    Placed {
        shape: GearShape {
            inner_radius: 1.0,
            outer_radius: 4.0,
            width: 1.0,
            teeth: 20,
            tooth_depth: 0.7,
        },
        color: [0.8, 0.1, 0.0],
        position: [-3.0, -2.0],
        speed: 1.0,
        phase: 0.0,
    },
    Placed {
        shape: GearShape {
            inner_radius: 0.5,
            outer_radius: 2.0,
            width: 2.0,
            teeth: 10,
            tooth_depth: 0.7,
        },
        color: [0.0, 0.8, 0.2],
        position: [3.1, -2.0],
        speed: -2.0,
        phase: -9.0,
    },
    Placed {
        shape: GearShape {
            inner_radius: 1.3,
            outer_radius: 2.0,
            width: 0.5,
            teeth: 10,
            tooth_depth: 0.7,
        },
        color: [0.2, 0.2, 1.0],
        position: [-3.1, 4.2],
        speed: -2.0,
        phase: -25.0,
    },
];

/// Floats per vertex: position then normal.
const VERTEX_FLOATS: usize = 6;

/// Appends the two triangles of quad `a b c d` with one normal per corner.
fn quad(out: &mut Vec<f32>, corners: [([f32; 3], [f32; 3]); 4]) {
    for i in [0, 1, 2, 0, 2, 3] {
        let (p, n) = corners[i];
        out.extend_from_slice(&p);
        out.extend_from_slice(&n);
    }
}

/// Triangle-list vertices (x y z nx ny nz) of gear `g`, centered on the origin
/// with its axis along z. Returns nothing for a gear with no teeth.
pub fn gear_mesh(g: &GearShape) -> Vec<f32> {
    let mut out = Vec::new();
    if g.teeth == 0 {
        return out;
    }
    let r0 = g.inner_radius;
    let r1 = g.outer_radius - g.tooth_depth / 2.0;
    let r2 = g.outer_radius + g.tooth_depth / 2.0;
    // Each tooth spans four steps: rising flank, top land, falling flank, root.
    let da = 2.0 * PI / g.teeth as f32 / 4.0;
    let hz = g.width * 0.5;
    let at = |r: f32, a: f32, z: f32| [r * a.cos(), r * a.sin(), z];
    for i in 0..g.teeth {
        let a = i as f32 * 2.0 * PI / g.teeth as f32;
        let a4 = a + 4.0 * da;
        for (z, nz) in [(hz, 1.0f32), (-hz, -1.0)] {
            let n = [0.0, 0.0, nz];
            // The ring between the bore and the tooth roots.
            let ring = [at(r0, a, z), at(r1, a, z), at(r1, a4, z), at(r0, a4, z)];
            // The tooth itself.
            let tooth = [
                at(r1, a, z),
                at(r2, a + da, z),
                at(r2, a + 2.0 * da, z),
                at(r1, a + 3.0 * da, z),
            ];
            for mut q in [ring, tooth] {
                if nz < 0.0 {
                    q.reverse(); // keep the back faces counter-clockwise from outside
                }
                quad(&mut out, q.map(|p| (p, n)));
            }
        }
        // The outline: four segments swept along z, each with its outward normal.
        let outline = [
            (r1, a),
            (r2, a + da),
            (r2, a + 2.0 * da),
            (r1, a + 3.0 * da),
            (r1, a4),
        ];
        for s in outline.windows(2) {
            let p = at(s[0].0, s[0].1, 0.0);
            let q = at(s[1].0, s[1].1, 0.0);
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            let len = (dx * dx + dy * dy).sqrt().max(f32::MIN_POSITIVE);
            let n = [dy / len, -dx / len, 0.0];
            quad(
                &mut out,
                [
                    ([p[0], p[1], -hz], n),
                    ([q[0], q[1], -hz], n),
                    ([q[0], q[1], hz], n),
                    ([p[0], p[1], hz], n),
                ],
            );
        }
        // The bore: smooth normals pointing at the axis.
        let inward = |a: f32| [-a.cos(), -a.sin(), 0.0];
        quad(
            &mut out,
            [
                (at(r0, a, hz), inward(a)),
                (at(r0, a4, hz), inward(a4)),
                (at(r0, a4, -hz), inward(a4)),
                (at(r0, a, -hz), inward(a)),
            ],
        );
    }
    out
}

/// The gears app.
#[derive(Default)]
pub struct Gears {
    objects: Option<Objects>,
}

struct Objects {
    program: Program,
    vao: VertexArray,
    /// First vertex and vertex count of each gear in the shared buffer.
    ranges: [(i32, i32); 3],
    modelview: UniformLocation,
    projection: UniformLocation,
    color: UniformLocation,
}

impl App for Gears {
    fn init(&mut self, gl: &mut Context, _w: u32, _h: u32) -> Result<(), ExampleError> {
        let program = glutil::program(gl, "gears", VS, FS)?;
        let vao = glutil::vertex_array(gl)?;
        let mut verts = Vec::new();
        let mut ranges = [(0, 0); 3];
        for (range, g) in ranges.iter_mut().zip(&GEARS) {
            let first = verts.len() / VERTEX_FLOATS;
            verts.extend(gear_mesh(&g.shape));
            *range = (first as i32, (verts.len() / VERTEX_FLOATS - first) as i32);
        }
        glutil::buffer_with(gl, gl::ARRAY_BUFFER, &glutil::f32_bytes(&verts))?;
        let stride = VERTEX_FLOATS * 4;
        glutil::float_attrib(gl, 0, 3, stride, 0);
        glutil::float_attrib(gl, 1, 3, stride, 3 * 4);

        gl.use_program(Some(program));
        let light = glutil::uniform(gl, program, "light_dir")?;
        // The light of glxgears: a directional light from (5, 5, 10) in eye space.
        let len = (5.0f32 * 5.0 + 5.0 * 5.0 + 10.0 * 10.0).sqrt();
        gl.uniform_3_f32(Some(&light), 5.0 / len, 5.0 / len, 10.0 / len);
        let modelview = glutil::uniform(gl, program, "modelview")?;
        let projection = glutil::uniform(gl, program, "projection")?;
        let color = glutil::uniform(gl, program, "color")?;

        gl.enable(gl::DEPTH_TEST);
        gl.depth_func(gl::LESS);
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        glutil::check(gl, "gears setup")?;
        self.objects = Some(Objects {
            program,
            vao,
            ranges,
            modelview,
            projection,
            color,
        });
        Ok(())
    }

    fn frame(&mut self, gl: &mut Context, t: f32) -> Result<(), ExampleError> {
        let Some(o) = &self.objects else {
            return Err(ExampleError::NotInitialized("gears"));
        };
        let (w, h) = gl.default_framebuffer_size();
        gl.viewport(0, 0, w as i32, h as i32);
        gl.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);

        // glxgears' frustum, widened along the longer side so all three gears
        // stay in view whatever the window's shape.
        let (sx, sy) = if w >= h {
            (w as f32 / h as f32, 1.0)
        } else {
            (1.0, h as f32 / w as f32)
        };
        let projection = math::frustum(-sx, sx, -sy, sy, 5.0, 60.0);
        let view = math::mul(
            &math::translate(0.0, 0.0, -40.0),
            &math::mul(
                &math::rotate(20.0, 1.0, 0.0, 0.0),
                &math::rotate(30.0, 0.0, 1.0, 0.0),
            ),
        );
        let angle = 70.0 * t;

        gl.use_program(Some(o.program));
        gl.bind_vertex_array(Some(o.vao));
        gl.uniform_matrix_4_f32_slice(Some(&o.projection), false, &projection);
        for (&(first, count), g) in o.ranges.iter().zip(&GEARS) {
            let model: Mat4 = math::mul(
                &math::translate(g.position[0], g.position[1], 0.0),
                &math::rotate(g.speed * angle + g.phase, 0.0, 0.0, 1.0),
            );
            let modelview = math::mul(&view, &model);
            gl.uniform_matrix_4_f32_slice(Some(&o.modelview), false, &modelview);
            let c = g.color;
            gl.uniform_3_f32(Some(&o.color), c[0], c[1], c[2]);
            gl.draw_arrays(gl::TRIANGLES, first, count);
        }
        glutil::check_frame(gl, "gears")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gear_mesh_has_expected_size_and_unit_normals() {
        let g = GEARS[1].shape;
        let m = gear_mesh(&g);
        // Per tooth: 2 sides × (ring + tooth) + 4 outline quads + 1 bore quad = 9 quads.
        assert_eq!(m.len(), g.teeth as usize * 9 * 6 * VERTEX_FLOATS);
        for v in m.chunks_exact(VERTEX_FLOATS) {
            let n = (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]).sqrt();
            assert!((n - 1.0).abs() < 1e-5, "normal length {n}");
            let r = (v[0] * v[0] + v[1] * v[1]).sqrt();
            assert!(r <= g.outer_radius + g.tooth_depth / 2.0 + 1e-4);
            assert!(r >= g.inner_radius - 1e-4);
        }
        assert!(gear_mesh(&GearShape { teeth: 0, ..g }).is_empty());
    }
}
