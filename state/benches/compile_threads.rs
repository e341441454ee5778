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

use std::time::{Duration, Instant};

use rgl_state::Context;

#[path = "../tests/common/shader_db.rs"]
mod shader_db;

/// Compiles and links every program with `threads` compiler threads; returns
/// the wall-clock time and the number of programs that linked.
fn run(programs: &[Vec<(u32, String)>], threads: u32) -> (Duration, usize) {
    let mut ctx = Context::new_headless(8, 8);
    // Measure the compiler, not the on-disk shader cache.
    ctx.set_shader_cache(None);
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
    let root = shader_db::root();
    let files = shader_db::files(&root);
    let programs: Vec<_> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|t| shader_db::shader_sections(&t))
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
