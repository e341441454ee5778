//! Load and long runs: one context creates, uses and deletes 10,000 programs
//! and 10,000 textures while performing 1,000,000 tiny draws (a triangle into a
//! 4×4 framebuffer, 1×1 or 4×4 viewports) with state changing between draws,
//! some of it state that selects a new shader variant. It checks that
//!
//! * every call succeeds and deleted objects are gone;
//! * the variant cache never holds more than `VARIANT_CACHE_SIZE` variants
//!   (built − invalidated − evicted), and both eviction and invalidation ran;
//! * memory stays bounded: the resident set grows by at most
//!   [`RSS_GROWTH_BOUND_KB`] between the middle and the end of the run, which do
//!   the same work (a leak of even 1 KiB per program or texture would be
//!   5,000 KiB).
//!
//! It prints the peak (`VmHWM`) and current (`VmRSS`) resident set at the start,
//! middle and end, from `/proc/self/status`.
//!
//! The context uses the software driver on one thread with the lane
//! interpreter as its shader compiler: the run measures the state tracker's
//! bookkeeping, and an interpreter variant builds in about 0.1 ms where a JIT
//! variant takes about 15 ms (10,000 programs would take minutes).

use std::sync::Arc;
use std::time::Instant;

use rgl_backend::lanes::LaneCompiler;
use rgl_backend::SoftDriver;
use rgl_state::variants::VARIANT_CACHE_SIZE;
use rgl_state::{gl, Context, Program, Shader, Texture};

/// Resident-set growth allowed between the middle and the end of the run. The
/// run measured about 1.5 MiB: the software driver's object tables keep one
/// slot per object ever created (about 16 bytes per variant shader, some 28,000
/// of them in the second half), which the state tracker cannot reclaim. Before
/// driver state objects were cached by description, the second half grew by
/// 42 MiB (a blend, depth-stencil or rasterizer object per state change).
const RSS_GROWTH_BOUND_KB: u64 = 4 * 1024;

/// Programs kept alive at once: more than the variant cache holds, so the
/// least recently used variants are evicted, not only invalidated.
const LIVE_PROGRAMS: usize = 300;

/// Textures kept alive at once.
const LIVE_TEXTURES: usize = 32;

const VS: &str = "#version 330
layout(location = 0) in vec2 pos;
uniform vec2 offset;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos + offset, 0.0, 1.0); }";

/// Fragment shaders differing in a constant, so programs differ.
fn fs(k: usize) -> String {
    format!(
        "#version 330
in vec2 uv;
uniform vec4 tint;
uniform sampler2D tex;
out vec4 color;
void main() {{ color = tint * texture(tex, uv) + vec4({}.0 / 8.0); }}",
        k % 8
    )
}

/// `(VmHWM, VmRSS)` in KiB.
fn rss_kb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn context() -> Context {
    let mut driver = SoftDriver::new(1);
    driver.set_compiler(Arc::new(LaneCompiler));
    Context::with_driver(Box::new(driver), 4, 4)
}

fn shader(c: &mut Context, kind: u32, src: &str) -> Shader {
    let s = c.create_shader(kind).expect("shader");
    c.shader_source(s, src);
    c.compile_shader(s);
    assert!(
        c.get_shader_compile_status(s),
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

/// The state a draw changes: everything here varies between consecutive draws,
/// and the last three select new variants (flat shading, alpha test, a user
/// clip plane).
fn change_state(c: &mut Context, p: Program, i: u64) {
    let tint = c.get_uniform_location(p, "tint");
    let offset = c.get_uniform_location(p, "offset");
    let f = (i % 17) as f32 / 17.0;
    c.uniform_4_f32(tint.as_ref(), f, 1.0 - f, 0.5, 1.0);
    c.uniform_2_f32(offset.as_ref(), f - 0.5, 0.5 - f);
    if i.is_multiple_of(2) {
        c.viewport(0, 0, 4, 4);
    } else {
        c.viewport((i % 4) as i32, ((i / 4) % 4) as i32, 1, 1);
    }
    match i % 5 {
        0 => c.enable(gl::BLEND),
        1 => c.disable(gl::BLEND),
        2 => c.blend_func(gl::ONE, gl::ONE),
        3 => c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA),
        _ => c.color_mask(true, !i.is_multiple_of(3), true, true),
    }
    c.depth_func(if i.is_multiple_of(3) {
        gl::LESS
    } else {
        gl::ALWAYS
    });
    if i.is_multiple_of(7) {
        c.enable(gl::SCISSOR_TEST);
        c.scissor(0, 0, 2 + (i % 3) as i32, 3);
    } else {
        c.disable(gl::SCISSOR_TEST);
    }
    c.shade_model(if i.is_multiple_of(11) {
        gl::FLAT
    } else {
        gl::SMOOTH
    });
    if i.is_multiple_of(13) {
        c.enable(gl::ALPHA_TEST);
        c.alpha_func(gl::GREATER, 0.25);
    } else {
        c.disable(gl::ALPHA_TEST);
    }
    if i.is_multiple_of(19) {
        c.enable(gl::CLIP_DISTANCE0);
    } else {
        c.disable(gl::CLIP_DISTANCE0);
    }
}

struct Run {
    objects: usize,
    draws: u64,
}

impl Run {
    fn go(&self) {
        let started = Instant::now();
        let mut c = context();
        let c = &mut c;
        let start = rss_kb();
        let vs = shader(c, gl::VERTEX_SHADER, VS);
        let fss: Vec<Shader> = (0..8)
            .map(|k| shader(c, gl::FRAGMENT_SHADER, &fs(k)))
            .collect();
        let vao = c.create_vertex_array().expect("vao");
        c.bind_vertex_array(Some(vao));
        let b = c.create_buffer().expect("buffer");
        c.bind_buffer(gl::ARRAY_BUFFER, Some(b));
        let tri: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        c.buffer_data_u8_slice(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW);
        c.vertex_attrib_pointer_f32(0, 2, gl::FLOAT, false, 0, 0);
        c.enable_vertex_attrib_array(0);
        c.clip_plane(gl::CLIP_PLANE0, [1.0, 0.0, 0.0, 0.5]);

        let draws_per_object = self.draws / self.objects as u64;
        let mut programs: std::collections::VecDeque<Program> = Default::default();
        let mut textures: std::collections::VecDeque<Texture> = Default::default();
        let mut deleted_program = None;
        let mut deleted_texture = None;
        let mut middle = (0, 0);
        let mut max_live_variants = 0u64;
        let mut draws = 0u64;
        for n in 0..self.objects {
            if n == self.objects / 2 {
                middle = rss_kb();
            }
            let p = c.create_program().expect("program");
            c.attach_shader(p, vs);
            c.attach_shader(p, fss[n % fss.len()]);
            c.link_program(p);
            assert!(
                c.get_program_link_status(p),
                "{}",
                c.get_program_info_log(p)
            );
            c.use_program(Some(p));
            programs.push_back(p);
            let t = c.create_texture().expect("texture");
            c.bind_texture(gl::TEXTURE_2D, Some(t));
            let texels: Vec<u8> = (0..64).map(|i| (i * 5 + n) as u8).collect();
            let (t2, rgba8) = (gl::TEXTURE_2D, gl::RGBA8 as i32);
            c.tex_image_2d(
                t2,
                0,
                rgba8,
                4,
                4,
                0,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                Some(&texels),
            );
            c.tex_parameter_i32(t2, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
            textures.push_back(t);
            for d in 0..draws_per_object {
                // Every few draws, go back to an older live program.
                if d % 16 == 15 {
                    let back = programs[(n * 7 + d as usize) % programs.len()];
                    c.use_program(Some(back));
                }
                let current = Program(
                    std::num::NonZeroU32::new(c.get_parameter_i32(gl::CURRENT_PROGRAM) as u32)
                        .expect("a current program"),
                );
                change_state(c, current, draws);
                c.draw_arrays(gl::TRIANGLES, 0, 3);
                draws += 1;
            }
            let e = c.get_error();
            assert_eq!(e, gl::NO_ERROR, "object {n}: {:?}", c.last_draw_error());
            let s = c.variant_stats();
            let live = s.misses - s.invalidated - s.evicted;
            max_live_variants = max_live_variants.max(live);
            assert!(
                live <= VARIANT_CACHE_SIZE as u64,
                "object {n}: {live} variants cached, the cap is {VARIANT_CACHE_SIZE}"
            );
            if programs.len() > LIVE_PROGRAMS {
                let old = programs.pop_front().expect("a live program");
                c.delete_program(old);
                deleted_program = Some(old);
            }
            if textures.len() > LIVE_TEXTURES {
                let old = textures.pop_front().expect("a live texture");
                c.delete_texture(old);
                deleted_texture = Some(old);
            }
        }
        c.finish();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let end = rss_kb();
        let elapsed = started.elapsed();
        let s = c.variant_stats();
        println!(
            "load: {} programs and {} textures created and used, {draws} draws in {:.1} s",
            self.objects,
            self.objects,
            elapsed.as_secs_f64()
        );
        println!(
            "load: variants built {}, hits {}, evicted {}, invalidated {}, at most {} cached \
             (cap {VARIANT_CACHE_SIZE})",
            s.misses, s.hits, s.evicted, s.invalidated, max_live_variants
        );
        for (when, (peak, now)) in [("start", start), ("middle", middle), ("end", end)] {
            println!("load: RSS at {when}: peak {peak} KiB, current {now} KiB");
        }
        assert_eq!(draws, draws_per_object * self.objects as u64);
        if let Some(p) = deleted_program {
            assert!(!c.is_program(p), "a deleted program is still there");
        }
        if let Some(t) = deleted_texture {
            assert!(!c.is_texture(t), "a deleted texture is still there");
        }
        assert!(s.evicted > 0, "the run never filled the variant cache");
        assert!(s.invalidated > 0, "no deleted program dropped its variants");
        let growth = end.1.saturating_sub(middle.1);
        assert!(
            growth <= RSS_GROWTH_BOUND_KB,
            "the resident set grew by {growth} KiB in the second half (bound {RSS_GROWTH_BOUND_KB} KiB)"
        );
    }
}

#[test]
fn ten_thousand_programs_and_textures_and_a_million_draws_stay_bounded() {
    Run {
        objects: 10_000,
        draws: 1_000_000,
    }
    .go();
}
