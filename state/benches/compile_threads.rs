//! Wall-clock time to compile and link every shader-db program through the GL
//! API, synchronously and on background compiler threads
//! (`GL_KHR_parallel_shader_compile`). For every `.shader_test` under
//! `../shared/corpus/shader-db` (or `RGL_SHADER_DB`), one long-lived context
//! creates, sources and compiles the program's shaders and links the program,
//! queuing everything before it queries any compile or link status, as an
//! application does at start-up; the time runs until the last status query
//! returns. Each mode runs `RGL_BENCH_REPS` times (default 5), alternating, and
//! the median is printed with the ratio. `RGL_BENCH_THREADS=N` sets the
//! background worker count (default 2).
//!
//! `cargo bench -p rgl-state --bench compile_threads`

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rgl_state::{gl, Context};

fn shader_tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            shader_tests(&p, out);
        } else if p.extension().is_some_and(|x| x == "shader_test") {
            out.push(p);
        }
    }
}

/// The shader sections of a `.shader_test` file, with `#version N` added from
/// `GLSL >= N` when a section has none, as shader_runner does.
fn shaders(text: &str) -> Vec<(u32, String)> {
    let version = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("GLSL >="))
        .and_then(|v| v.trim().parse::<f32>().ok())
        .map(|v| (v * 100.0).round() as u32);
    let mut out: Vec<(u32, String)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            let kind = match line.trim() {
                "[vertex shader]" => Some(gl::VERTEX_SHADER),
                "[geometry shader]" => Some(gl::GEOMETRY_SHADER),
                "[fragment shader]" => Some(gl::FRAGMENT_SHADER),
                _ => None,
            };
            current = kind.map(|k| {
                out.push((k, String::new()));
                out.len() - 1
            });
            continue;
        }
        if let Some(i) = current {
            out[i].1.push_str(line);
            out[i].1.push('\n');
        }
    }
    for (_, src) in &mut out {
        let has_version = src.lines().any(|l| l.trim_start().starts_with("#version"));
        if let (false, Some(v)) = (has_version, version) {
            *src = format!("#version {v}\n{src}");
        }
    }
    out
}

/// Compiles and links every program with `threads` compiler threads; returns
/// the wall-clock time and the number of programs that linked.
fn run(programs: &[Vec<(u32, String)>], threads: u32) -> (Duration, usize) {
    let mut ctx = Context::new_headless(8, 8);
    ctx.max_shader_compiler_threads(threads);
    let t0 = Instant::now();
    let mut queued = Vec::with_capacity(programs.len());
    for sections in programs {
        let Ok(program) = ctx.create_program() else {
            continue;
        };
        for (kind, src) in sections {
            let Ok(s) = ctx.create_shader(*kind) else {
                continue;
            };
            ctx.shader_source(s, src);
            ctx.compile_shader(s);
            ctx.attach_shader(program, s);
        }
        ctx.link_program(program);
        queued.push(program);
    }
    let linked = queued
        .iter()
        .filter(|p| ctx.get_program_link_status(**p))
        .count();
    (t0.elapsed(), linked)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db");
    let root = std::env::var_os("RGL_SHADER_DB").map_or(root, PathBuf::from);
    let mut files = Vec::new();
    shader_tests(&root, &mut files);
    files.sort();
    let programs: Vec<_> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|t| shaders(&t))
        .collect();
    if programs.is_empty() {
        eprintln!(
            "compile_threads: no shader-db corpus under {}",
            root.display()
        );
        return;
    }
    let reps: usize = std::env::var("RGL_BENCH_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let threads: u32 = std::env::var("RGL_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    // One untimed pass warms the front end's built-in tables.
    run(&programs, 0);
    let (mut sync, mut background) = (Vec::new(), Vec::new());
    let mut linked = (0, 0);
    for _ in 0..reps {
        let (t, n) = run(&programs, 0);
        sync.push(t);
        linked.0 = n;
        let (t, n) = run(&programs, threads);
        background.push(t);
        linked.1 = n;
    }
    let (s, b) = (median(sync.clone()), median(background.clone()));
    println!(
        "compile_threads: {} programs ({} / {} linked), {reps} reps",
        programs.len(),
        linked.0,
        linked.1
    );
    println!(
        "  synchronous:        median {:8.1} ms  (all: {:?})",
        s.as_secs_f64() * 1e3,
        sync
    );
    println!(
        "  {threads} compiler threads: median {:8.1} ms  (all: {:?})",
        b.as_secs_f64() * 1e3,
        background
    );
    println!(
        "  ratio synchronous / background: {:.2}x",
        s.as_secs_f64() / b.as_secs_f64()
    );
}
