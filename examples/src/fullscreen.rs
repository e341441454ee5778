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
// Blob centers stay within (1.3, 0.35, 1.0) of the origin and have radius 0.6.
const float BOUND_RADIUS = 2.4;

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

// Entry and exit distances of the ray through the sphere that bounds every blob
// (x > y when the ray misses it), so only rays that can hit a blob are marched.
vec2 blob_span(vec3 ro, vec3 rd) {
    float b = dot(ro, rd);
    float disc = b * b - (dot(ro, ro) - BOUND_RADIUS * BOUND_RADIUS);
    if (disc < 0.0)
        return vec2(1.0, 0.0);
    float s = sqrt(disc);
    return vec2(-b - s, -b + s);
}

vec3 blob_normal(vec3 p) {
    // Tetrahedral central differences: four distance evaluations.
    const vec2 k = vec2(1.0, -1.0);
    const float h = 0.0015;
    return normalize(k.xyy * blobs(p + k.xyy * h) + k.yyx * blobs(p + k.yyx * h) +
                     k.yxy * blobs(p + k.yxy * h) + k.xxx * blobs(p + k.xxx * h));
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - resolution) / resolution.y;
    vec3 ro = vec3(0.0, 0.7, 4.5);
    vec3 rd = normalize(vec3(uv, -2.2));
    rd.yz = mat2(0.98, -0.2, 0.2, 0.98) * rd.yz; // tilt the camera down a little
    vec3 l = normalize(vec3(0.6, 0.9, 0.5));

    // The floor (y = -1) is intersected analytically; the blobs are sphere-traced
    // inside their bounding sphere, up to the floor.
    float t_floor = rd.y < 0.0 ? (-1.0 - ro.y) / rd.y : FAR;
    vec2 span = blob_span(ro, rd);
    float t_end = min(span.y, t_floor);
    float t = max(span.x, 0.0);
    bool hit = false;
    for (int i = 0; i < MAX_STEPS; i++) {
        if (t > t_end)
            break;
        float d = blobs(ro + rd * t);
        if (d < 0.001) {
            hit = true;
            break;
        }
        t += d;
    }

    vec3 sky = mix(vec3(0.75, 0.8, 0.9), vec3(0.15, 0.25, 0.5), clamp(uv.y * 0.7 + 0.4, 0.0, 1.0));
    vec3 col = sky;
    if (hit) {
        vec3 p = ro + rd * t;
        vec3 n = blob_normal(p);
        float diffuse = max(dot(n, l), 0.0);
        float spec = pow(max(dot(n, normalize(l - rd)), 0.0), 40.0);
        vec3 base = 0.55 + 0.45 * cos(time * 0.5 + p.x * 1.5 + vec3(0.0, 2.0, 4.0));
        col = base * (0.12 + 0.88 * diffuse) + vec3(0.5) * spec;
        col = mix(col, sky, 1.0 - exp(-0.008 * t * t));
    } else if (t_floor < FAR) {
        vec3 p = ro + rd * t_floor;
        float check = mod(floor(p.x * 1.5) + floor(p.z * 1.5), 2.0);
        vec3 base = mix(vec3(0.25), vec3(0.85), check);
        // Darken the floor under the blobs: a cheap contact shadow.
        float occlusion = 0.35 + 0.65 * clamp(blobs(p) / 1.2, 0.0, 1.0);
        col = base * (0.12 + 0.88 * l.y) * occlusion;
        col = mix(col, sky, 1.0 - exp(-0.008 * t_floor * t_floor));
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
            return Err(ExampleError::NotInitialized("fullscreen"));
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
