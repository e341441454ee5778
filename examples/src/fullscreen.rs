//! A full-screen fragment-shader demo: one triangle covering the viewport, and a
//! fragment shader that sphere-traces three blobs (spheres merged with a smooth
//! minimum) orbiting over a checkered floor, with diffuse and specular lighting
//! and distance fog. Uniforms carry the time and the resolution; the ray-march
//! and the blob sum are loops with early exits.

use rgl_state::{gl, Context, Program, UniformLocation, VertexArray};

use crate::{glutil, App, ExampleError};

const VS: &str = r#"#version 330 core
layout(location = 0) in vec2 position;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
}
"#;

const FS: &str = r#"#version 330 core
uniform float time;
uniform vec2 resolution;
out vec4 frag_color;

const int MAX_STEPS = 64;
const float FAR = 20.0;

// Polynomial smooth minimum: blends the two distances within k of each other.
float smin(float a, float b, float k) {
    float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return mix(b, a, h) - k * h * (1.0 - h);
}

float blobs(vec3 p) {
    float d = FAR;
    for (int i = 0; i < 3; i++) {
        float fi = float(i);
        vec3 c = vec3(1.3 * sin(time * (0.7 + 0.2 * fi) + fi * 2.1),
                      0.35 * sin(time * 1.3 + fi * 1.7),
                      1.0 * cos(time * (0.5 + 0.3 * fi) + fi * 2.1));
        d = smin(d, length(p - c) - 0.6, 0.45);
    }
    return d;
}

float scene(vec3 p) {
    return min(p.y + 1.0, blobs(p));
}

vec3 normal_at(vec3 p) {
    // Tetrahedral central differences: four scene evaluations.
    const vec2 k = vec2(1.0, -1.0);
    const float h = 0.0015;
    return normalize(k.xyy * scene(p + k.xyy * h) + k.yyx * scene(p + k.yyx * h) +
                     k.yxy * scene(p + k.yxy * h) + k.xxx * scene(p + k.xxx * h));
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - resolution) / resolution.y;
    vec3 ro = vec3(0.0, 0.7, 4.5);
    vec3 rd = normalize(vec3(uv, -2.2));
    rd.yz = mat2(0.98, 0.2, -0.2, 0.98) * rd.yz; // tilt the camera down a little

    float t = 0.0;
    bool hit = false;
    for (int i = 0; i < MAX_STEPS; i++) {
        float d = scene(ro + rd * t);
        if (d < 0.001 * t + 0.0005) {
            hit = true;
            break;
        }
        t += d;
        if (t > FAR)
            break;
    }

    vec3 sky = mix(vec3(0.75, 0.8, 0.9), vec3(0.15, 0.25, 0.5), clamp(uv.y * 0.7 + 0.4, 0.0, 1.0));
    vec3 col = sky;
    if (hit) {
        vec3 p = ro + rd * t;
        vec3 n = normal_at(p);
        vec3 l = normalize(vec3(0.6, 0.9, 0.5));
        float diffuse = max(dot(n, l), 0.0);
        float spec = pow(max(dot(n, normalize(l - rd)), 0.0), 40.0);
        vec3 base;
        if (p.y + 1.0 < blobs(p)) {
            float check = mod(floor(p.x * 1.5) + floor(p.z * 1.5), 2.0);
            base = mix(vec3(0.25), vec3(0.85), check);
            spec *= 0.2;
        } else {
            base = 0.55 + 0.45 * cos(time * 0.5 + p.x * 1.5 + vec3(0.0, 2.0, 4.0));
        }
        col = base * (0.12 + 0.88 * diffuse) + vec3(0.5) * spec;
        col = mix(col, sky, 1.0 - exp(-0.004 * t * t));
    }
    frag_color = vec4(pow(clamp(col, 0.0, 1.0), vec3(0.4545)), 1.0);
}
"#;

/// A triangle that covers the whole viewport (clipped to it).
const VERTICES: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];

/// The full-screen shader app.
#[derive(Default)]
pub struct Fullscreen {
    objects: Option<Objects>,
}

struct Objects {
    program: Program,
    vao: VertexArray,
    time: UniformLocation,
    resolution: UniformLocation,
}

impl App for Fullscreen {
    fn init(&mut self, gl: &mut Context, _w: u32, _h: u32) -> Result<(), ExampleError> {
        let program = glutil::program(gl, "fullscreen", VS, FS)?;
        let vao = glutil::vertex_array(gl)?;
        glutil::buffer_with(gl, gl::ARRAY_BUFFER, &glutil::f32_bytes(&VERTICES))?;
        glutil::float_attrib(gl, 0, 2, 2 * 4, 0);
        let time = glutil::uniform(gl, program, "time")?;
        let resolution = glutil::uniform(gl, program, "resolution")?;
        glutil::check(gl, "fullscreen setup")?;
        self.objects = Some(Objects {
            program,
            vao,
            time,
            resolution,
        });
        Ok(())
    }

    fn frame(&mut self, gl: &mut Context, t: f32) -> Result<(), ExampleError> {
        let Some(o) = &self.objects else {
            return Err(ExampleError::Args("fullscreen: frame before init".into()));
        };
        let (w, h) = gl.default_framebuffer_size();
        gl.viewport(0, 0, w as i32, h as i32);
        // Every pixel is written, so no clear is needed.
        gl.use_program(Some(o.program));
        gl.uniform_1_f32(Some(&o.time), t);
        gl.uniform_2_f32(Some(&o.resolution), w as f32, h as f32);
        gl.bind_vertex_array(Some(o.vao));
        gl.draw_arrays(gl::TRIANGLES, 0, 3);
        glutil::check_frame(gl, "fullscreen")
    }
}
