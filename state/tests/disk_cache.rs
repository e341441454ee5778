//! The on-disk shader cache seen through the GL API: a program answered from
//! the cache is indistinguishable from one compiled and linked (compile and
//! link status, info logs, the linked NIR, the active resources, uniform
//! locations, the pixels of a draw), whatever state the cache directory is in:
//!
//! * [`warm_start_equals_cold`]: no cache, a cold cache and a warm one;
//! * [`jit_warm_start_skips_variant_builds`]: the same on the `jit` driver,
//!   whose warm start loads every draw-time variant from its driver-variant
//!   entry instead of lowering and compiling it;
//! * [`damaged_entries_are_recompiled`]: every entry truncated, bit-flipped or
//!   replaced by garbage before the warm start;
//! * [`unwritable_cache_dir`] and [`tiny_cap`]: writes fail or evict;
//! * [`two_processes_fill_one_cache`]: a child process of this test binary and
//!   this process fill one directory at the same time.
//!
//! Each context gets its own temporary directory through
//! `Context::set_shader_cache`, so tests running in parallel never share a
//! cache or read the environment's.

#[path = "common/shader_db.rs"]
mod shader_db;

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rgl_state::disk_cache::{ShaderCacheOptions, ShaderCacheStats};
use rgl_state::variants::VariantStats;
use rgl_state::{gl, Context, Shader};

/// Environment variable naming the directory the child process fills.
const CHILD_DIR_VAR: &str = "RGL_DISK_CACHE_TEST_CHILD_DIR";

const SIZE: u32 = 8;

/// Programs that exercise every table of the payload: attributes bound by the
/// API, fragment-data bindings, initialized uniform arrays, samplers, uniform
/// blocks, a geometry shader, a link warning, a failed link, a failed compile.
fn handwritten() -> Vec<Vec<(u32, String)>> {
    let vs = "#version 150
in vec4 pos;
in vec2 uv;
out vec2 tc;
out vec4 tint;
uniform mat4 mvp = mat4(1.0);
uniform vec4 colors[3] = vec4[3](vec4(1.0, 0.0, 0.0, 1.0), vec4(0.0, 1.0, 0.0, 1.0), vec4(0.0, 0.0, 1.0, 1.0));
void main() { gl_Position = mvp * pos; tc = uv + pos.xy; tint = colors[gl_VertexID % 3]; }
";
    let fs = "#version 150
in vec2 tc;
in vec4 tint;
out vec4 frag;
out vec4 second;
uniform sampler2D tex;
layout(std140) uniform Light { vec4 dir; float gain; } light;
void main() { frag = tint + texture(tex, tc) * light.dir * light.gain; second = tint.bgra; }
";
    let gs = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v[];
out vec4 c;
void main() {
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; c = v[i] * 0.5; EmitVertex(); }
    EndPrimitive();
}
";
    let gs_vs = "#version 150
in vec4 pos;
out vec4 v;
void main() { gl_Position = pos; v = pos * 0.5 + 0.5; }
";
    let gs_fs = "#version 150
in vec4 c;
out vec4 frag;
void main() { frag = c; }
";
    let compat_vs = "#version 110
uniform float scale;
void main() { gl_Position = gl_Vertex * scale; gl_FrontColor = gl_Color; }
";
    let unmatched_fs = "#version 150
in vec4 missing;
out vec4 frag;
void main() { frag = missing; }
";
    let bad_fs = "#version 150
out vec4 frag;
void main() { frag = undeclared; }
";
    let s = |kind: u32, src: &str| (kind, src.to_string());
    vec![
        vec![s(gl::VERTEX_SHADER, vs), s(gl::FRAGMENT_SHADER, fs)],
        vec![
            s(gl::VERTEX_SHADER, gs_vs),
            s(gl::GEOMETRY_SHADER, gs),
            s(gl::FRAGMENT_SHADER, gs_fs),
        ],
        vec![s(gl::VERTEX_SHADER, compat_vs)],
        vec![
            s(gl::VERTEX_SHADER, gs_vs),
            s(gl::FRAGMENT_SHADER, unmatched_fs),
        ],
        vec![s(gl::VERTEX_SHADER, vs), s(gl::FRAGMENT_SHADER, bad_fs)],
    ]
}

/// The hand-written programs and every third shader-db program.
fn programs() -> Vec<Vec<(u32, String)>> {
    let mut out = handwritten();
    for path in shader_db::files(&shader_db::root()).iter().step_by(3) {
        let text = std::fs::read_to_string(path).expect("readable corpus file");
        out.push(shader_db::shader_sections(&text));
    }
    assert!(out.len() > 40, "the shader-db corpus is missing");
    out
}

/// Everything the GL user can observe of compiling, linking and drawing
/// `programs` on a context with `cache`, one line per fact.
fn transcript(ctx: &mut Context, programs: &[Vec<(u32, String)>]) -> String {
    let mut out = String::new();
    let vao = ctx.create_vertex_array().expect("vao");
    ctx.bind_vertex_array(Some(vao));
    let vbo = ctx.create_buffer().expect("buffer");
    ctx.bind_buffer(gl::ARRAY_BUFFER, Some(vbo));
    let tri: [f32; 12] = [
        -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
    ];
    let bytes: Vec<u8> = tri.iter().flat_map(|f| f.to_le_bytes()).collect();
    ctx.buffer_data_u8_slice(gl::ARRAY_BUFFER, &bytes, gl::STATIC_DRAW);
    for (n, sections) in programs.iter().enumerate() {
        let _ = writeln!(out, "== program {n}");
        let shaders: Vec<Shader> = sections
            .iter()
            .map(|(kind, src)| {
                let s = ctx.create_shader(*kind).expect("shader");
                ctx.shader_source(s, src);
                ctx.compile_shader(s);
                s
            })
            .collect();
        let p = ctx.create_program().expect("program");
        for s in &shaders {
            ctx.attach_shader(p, *s);
        }
        ctx.bind_attrib_location(p, 0, "pos");
        ctx.bind_frag_data_location(p, 1, "second");
        ctx.link_program(p);
        for s in &shaders {
            let _ = writeln!(
                out,
                "shader {} {:?}",
                ctx.get_shader_compile_status(*s),
                ctx.get_shader_info_log(*s)
            );
        }
        let status = ctx.get_program_link_status(p);
        let _ = writeln!(out, "link {status} {:?}", ctx.get_program_info_log(p));
        if let Some(linked) = ctx.linked_program(p) {
            for stage in &linked.stages {
                let nir = stage.nir.as_ref().map(rgl_nir::print::print_shader);
                let _ = writeln!(
                    out,
                    "{:?} {:?}\n{}",
                    stage.stage,
                    stage.version,
                    nir.unwrap_or_default()
                );
            }
            let _ = writeln!(out, "attributes {:?}", linked.attributes);
            let _ = writeln!(out, "outputs {:?}", linked.frag_outputs);
            let _ = writeln!(out, "uniforms {:?}", linked.uniforms);
            let _ = writeln!(out, "blocks {:?}", linked.uniform_blocks);
            let _ = writeln!(
                out,
                "slots {} {}",
                linked.uniform_slots, linked.num_samplers
            );
        }
        for pname in [
            gl::ACTIVE_UNIFORMS,
            gl::ACTIVE_ATTRIBUTES,
            gl::ACTIVE_UNIFORM_BLOCKS,
        ] {
            let _ = writeln!(
                out,
                "param {pname:#x} = {}",
                ctx.get_program_parameter_i32(p, pname)
            );
        }
        let uniforms = ctx.get_program_parameter_i32(p, gl::ACTIVE_UNIFORMS).max(0);
        for i in 0..uniforms as u32 {
            if let Some(u) = ctx.get_active_uniform(p, i) {
                let loc = ctx.get_uniform_location(p, &u.name);
                let _ = writeln!(
                    out,
                    "uniform {} {:#x} {} at {loc:?}",
                    u.name, u.utype, u.size
                );
            }
        }
        let _ = writeln!(out, "pos at {:?}", ctx.get_attrib_location(p, "pos"));
        if status {
            ctx.use_program(Some(p));
            if let Some(pos) = ctx.get_attrib_location(p, "pos") {
                ctx.enable_vertex_attrib_array(pos);
                ctx.vertex_attrib_pointer_f32(pos, 4, gl::FLOAT, false, 0, 0);
            }
            ctx.clear_color(0.1, 0.2, 0.3, 0.4);
            ctx.clear(gl::COLOR_BUFFER_BIT);
            ctx.draw_arrays(gl::TRIANGLES, 0, 3);
            let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
            ctx.read_pixels(
                0,
                0,
                SIZE as i32,
                SIZE as i32,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                &mut pixels,
            );
            let _ = writeln!(out, "draw {:?} pixels {pixels:?}", ctx.last_draw_error());
            ctx.use_program(None);
        }
        let _ = writeln!(out, "error {:#x}", ctx.get_error());
        ctx.delete_program(p);
        for s in shaders {
            ctx.delete_shader(s);
        }
    }
    out
}

/// The transcript on a new context with `cache`, and the cache's counters.
fn run(
    cache: Option<ShaderCacheOptions>,
    programs: &[Vec<(u32, String)>],
) -> (String, ShaderCacheStats) {
    let mut ctx = Context::new_headless(SIZE, SIZE);
    ctx.set_shader_cache(cache);
    let t = transcript(&mut ctx, programs);
    // The optimised fused pipelines are stored by the JIT's background
    // rebuilds (tiered compiles).
    ctx.wait_background_compiles();
    let stats = ctx.shader_cache_stats();
    eprintln!("shader cache {stats:?}");
    (t, stats)
}

/// The transcript on a new `jit` context with `cache`, the cache's and the
/// variant cache's counters; `None` on a host without the JIT.
fn run_jit(
    cache: Option<ShaderCacheOptions>,
    programs: &[Vec<(u32, String)>],
) -> Option<(String, ShaderCacheStats, VariantStats)> {
    let mut ctx = Context::new_headless_on("jit", SIZE, SIZE).ok()?;
    ctx.set_shader_cache(cache);
    let t = transcript(&mut ctx, programs);
    // The optimised fused pipelines are stored by the JIT's background
    // rebuilds (tiered compiles).
    ctx.wait_background_compiles();
    let stats = ctx.shader_cache_stats();
    let variants = ctx.variant_stats();
    eprintln!("jit: shader cache {stats:?}, variants {variants:?}");
    Some((t, stats, variants))
}

fn cache(dir: &Path, max_size: u64) -> Option<ShaderCacheOptions> {
    Some(ShaderCacheOptions {
        dir: dir.to_path_buf(),
        max_size,
    })
}

/// The programs, their transcript without a cache, and its counts.
struct Reference {
    programs: Vec<Vec<(u32, String)>>,
    transcript: String,
    /// Programs that link.
    linked: u64,
    /// Shaders that compile.
    compiled: u64,
    /// Programs whose shaders all compile but that fail to link.
    link_failures: u64,
}

/// The reference, computed once.
fn reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let programs = programs();
        let (transcript, stats) = run(None, &programs);
        assert_eq!(stats, ShaderCacheStats::default());
        let count =
            |prefix: &str| transcript.lines().filter(|l| l.starts_with(prefix)).count() as u64;
        let link_failures = transcript
            .split("== program")
            .filter(|p| p.contains("\nlink false") && !p.contains("\nshader false"))
            .count() as u64;
        Reference {
            linked: count("link true"),
            compiled: count("shader true"),
            link_failures,
            programs,
            transcript,
        }
    })
}

fn assert_same(reference: &str, other: &str, what: &str) {
    if reference != other {
        let line = reference
            .lines()
            .zip(other.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let show = |t: &str| {
            t.lines()
                .skip(line.saturating_sub(3))
                .take(8)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{what} differs from a fresh compile near line {line}:\n--- fresh\n{}\n--- {what}\n{}",
            show(reference),
            show(other)
        );
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for folder in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(folder.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            out.push(f.path());
        }
    }
    out.sort();
    out
}

const MIB: u64 = 1 << 20;

#[test]
fn warm_start_equals_cold() {
    let r = reference();
    let tmp = tempfile::tempdir().expect("temp dir");
    let (cold, stats) = run(cache(tmp.path(), 64 * MIB), &r.programs);
    assert_same(&r.transcript, &cold, "cold start");
    // Identical shaders compiled at once on two compiler threads may both
    // write their record.
    let files = entries(tmp.path()).len() as u64;
    assert!(
        stats.hits == 0 && stats.writes >= files && files > r.linked,
        "{stats:?}, {files} files"
    );
    let (warm, stats) = run(cache(tmp.path(), 64 * MIB), &r.programs);
    assert_same(&r.transcript, &warm, "warm start");
    assert_eq!(
        (
            stats.hits,
            stats.misses,
            stats.compiles_skipped,
            stats.writes
        ),
        (r.linked, r.link_failures, r.compiled, 0),
        "{stats:?}"
    );
    assert!(r.linked > 30);
}

#[test]
fn jit_warm_start_skips_variant_builds() {
    let r = reference();
    let Some((fresh, _, fresh_v)) = run_jit(None, &r.programs) else {
        eprintln!("no JIT on this host");
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let (cold, stats, cold_v) = run_jit(cache(tmp.path(), 64 * MIB), &r.programs).expect("jit");
    assert_same(&fresh, &cold, "cold start (jit)");
    // Every variant built looked its entry up, missed, and was stored.
    assert_eq!(
        (stats.variant_hits, stats.variant_misses, cold_v.loaded),
        (0, cold_v.misses, 0),
        "{stats:?} {cold_v:?}"
    );
    assert_eq!(cold_v.stages_compiled, fresh_v.stages_compiled);
    let (warm, stats, warm_v) = run_jit(cache(tmp.path(), 64 * MIB), &r.programs).expect("jit");
    assert_same(&fresh, &warm, "warm start (jit)");
    // Every variant is loaded: no lowering and no driver compile but for the
    // stages the driver does not serialise (its interpreter's geometry
    // shaders), which are compiled at load.
    assert_eq!(
        (
            stats.variant_hits,
            stats.variant_misses,
            stats.rejected,
            stats.writes
        ),
        (warm_v.misses, 0, 0, 0),
        "{stats:?} {warm_v:?}"
    );
    assert_eq!(warm_v.loaded, warm_v.misses, "{warm_v:?}");
    assert_eq!(
        warm_v.stages_loaded + warm_v.stages_compiled,
        cold_v.stages_compiled,
        "{warm_v:?}"
    );
    let geometry = r
        .transcript
        .split("== program")
        .filter(|p| p.contains("\nlink true") && p.contains("\nGeometry "))
        .count() as u64;
    assert_eq!(warm_v.stages_compiled, geometry, "{warm_v:?}");
    assert!(warm_v.loaded > 30, "{warm_v:?}");
}

#[test]
fn damaged_entries_are_recompiled() {
    let r = reference();
    let tmp = tempfile::tempdir().expect("temp dir");
    run(cache(tmp.path(), 64 * MIB), &r.programs);
    let files = entries(tmp.path());
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (i, f) in files.iter().enumerate() {
        let mut bytes = std::fs::read(f).expect("entry");
        match i % 3 {
            0 => bytes.truncate((next() % bytes.len() as u64) as usize),
            1 => {
                let bit = (next() % (bytes.len() as u64 * 8)) as usize;
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            _ => bytes = b"garbage that is no cache entry".repeat(1 + i % 5),
        }
        std::fs::write(f, bytes).expect("damage");
    }
    let (damaged, stats) = run(cache(tmp.path(), 64 * MIB), &r.programs);
    assert_same(&r.transcript, &damaged, "start on damaged entries");
    let damaged_files = files.len() as u64;
    assert!(
        stats.rejected >= damaged_files && stats.writes >= damaged_files,
        "{stats:?}, {damaged_files} damaged"
    );
    let (warm, stats) = run(cache(tmp.path(), 64 * MIB), &r.programs);
    assert_same(
        &r.transcript,
        &warm,
        "warm start after the damage was replaced",
    );
    assert_eq!((stats.hits, stats.rejected), (r.linked, 0), "{stats:?}");
}

#[test]
fn unwritable_cache_dir() {
    let r = reference();
    let tmp = tempfile::tempdir().expect("temp dir");
    // A directory below a regular file cannot be created, even by root.
    let file = tmp.path().join("file");
    std::fs::write(&file, b"x").expect("write");
    let (t, stats) = run(cache(&file.join("cache"), 64 * MIB), &r.programs);
    assert_same(&r.transcript, &t, "unwritable cache");
    assert_eq!(
        (stats.hits, stats.writes, stats.compiles_skipped),
        (0, 0, 0)
    );
    // Every program, compile record, driver variant and fused pipeline the
    // start built failed to be written.
    if rgl_backend::jit::host_supported() {
        assert!(
            stats.variant_misses > 0 && stats.code_misses > 0,
            "{stats:?}"
        );
    }
    assert_eq!(
        stats.write_failures,
        r.linked + r.compiled + stats.variant_misses + stats.code_misses,
        "{stats:?}"
    );
}

#[test]
fn tiny_cap() {
    let r = reference();
    let tmp = tempfile::tempdir().expect("temp dir");
    let cap = 48 * 1024;
    let (t, stats) = run(cache(tmp.path(), cap), &r.programs);
    assert_same(&r.transcript, &t, "cache with a tiny cap");
    let used: u64 = entries(tmp.path())
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .sum();
    assert!(used <= cap, "{used} bytes under a {cap}-byte cap");
    assert!(stats.evictions > 0 && stats.writes > 0, "{stats:?}");
    let (t, _) = run(cache(tmp.path(), cap), &r.programs);
    assert_same(&r.transcript, &t, "second start with a tiny cap");
}

/// The child side of [`two_processes_fill_one_cache`]: run by that test with
/// the directory in the environment; ignored otherwise.
#[test]
#[ignore = "run as a child process by two_processes_fill_one_cache"]
fn child_fill() {
    let Some(dir) = std::env::var_os(CHILD_DIR_VAR) else {
        return;
    };
    let r = reference();
    for _ in 0..2 {
        let (t, _) = run(cache(Path::new(&dir), 4 * MIB), &r.programs);
        assert_same(&r.transcript, &t, "child process");
    }
}

#[test]
fn two_processes_fill_one_cache() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("test binary");
    let child = std::process::Command::new(exe)
        .args(["--exact", "child_fill", "--ignored", "--test-threads", "1"])
        .env(CHILD_DIR_VAR, tmp.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the child");
    let r = reference();
    for _ in 0..2 {
        let (t, _) = run(cache(tmp.path(), 4 * MIB), &r.programs);
        assert_same(&r.transcript, &t, "parent process");
    }
    let out = child.wait_with_output().expect("child output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (t, stats) = run(cache(tmp.path(), 4 * MIB), &r.programs);
    assert_same(&r.transcript, &t, "start after both processes");
    assert_eq!(stats.rejected, 0, "{stats:?}");
    assert!(stats.hits > 0 && stats.hits <= r.linked, "{stats:?}");
}
