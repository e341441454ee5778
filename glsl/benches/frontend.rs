//! Front-end benchmark over the shader-db corpus (real game shaders): the
//! preprocessor alone, preprocessor + parser, and the whole
//! `rgl_glsl::compile` (preprocess, parse, check, lower), each over every
//! vertex and fragment shader of `../shared/corpus/shader-db`.
//!
//! Run: `cargo bench -p rgl-glsl --bench frontend`. After criterion's
//! whole-corpus measurements it prints a summary: whole-corpus wall and CPU
//! times per stage, MB/s, per-shader median/p90/max and the share of time spent
//! in the parser stage (the generated LR(1) parser building our AST). CPU times come
//! from `/proc/thread-self/schedstat`, so they stay meaningful on a machine
//! shared with other jobs; criterion's numbers are wall time.
//!
//! Environment: `RGL_SHADER_DB=DIR` picks another corpus;
//! `RGL_BENCH_EXPORT=DIR` only writes the extracted shaders there as
//! `NNNN.vert`/`NNNN.frag` and exits (the input of the glslangValidator
//! comparison, `glsl/benches/peer.sh`); `RGL_BENCH_REPS=N` sets the per-shader repetitions (default 5);
//! `RGL_BENCH_PROFILE=STEP:N` only runs step `STEP` (`pp`, `pp+parse`,
//! `compile`) N times over the corpus and exits, a fixed workload for `perf
//! record` or `valgrind --tool=callgrind`.

#[path = "common/shader_db.rs"]
mod shader_db;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use rgl_glsl::pp::{self, PpOptions};
use rgl_glsl::{compile, CompileOptions};

use shader_db::Shader;

/// The stages measured, each a function of one shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `pp::preprocess`.
    Preprocess,
    /// `pp::preprocess` then `parse::parse` (skipped after preprocessor errors, as compile does).
    PreprocessParse,
    /// `rgl_glsl::compile`.
    Compile,
}

impl Step {
    const ALL: [Step; 3] = [Step::Preprocess, Step::PreprocessParse, Step::Compile];

    fn name(self) -> &'static str {
        match self {
            Step::Preprocess => "pp",
            Step::PreprocessParse => "pp+parse",
            Step::Compile => "compile",
        }
    }

    fn run(self, shader: &Shader) {
        match self {
            Step::Preprocess => {
                black_box(pp::preprocess(&shader.source, &pp_options(shader)));
            }
            Step::PreprocessParse => {
                let out = pp::preprocess(&shader.source, &pp_options(shader));
                if !out.diagnostics.iter().any(|d| d.is_error()) {
                    black_box(
                        rgl_glsl::parse::parse(&out.tokens, &out.symbols, out.version).is_ok(),
                    );
                }
                black_box(out);
            }
            Step::Compile => {
                black_box(compile(&shader.source, &CompileOptions::new(shader.stage)));
            }
        }
    }
}

fn pp_options(shader: &Shader) -> PpOptions {
    PpOptions {
        stage: shader.stage,
        version_override: None,
    }
}

fn run_all(step: Step, shaders: &[Shader]) {
    for shader in shaders {
        step.run(shader);
    }
}

fn export(shaders: &[Shader], dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (i, shader) in shaders.iter().enumerate() {
        let ext = match shader.stage {
            rgl_glsl::Stage::Vertex => "vert",
            rgl_glsl::Stage::Geometry => "geom",
            rgl_glsl::Stage::Fragment => "frag",
            rgl_glsl::Stage::Compute => "comp",
        };
        std::fs::write(dir.join(format!("{i:04}.{ext}")), &shader.source)?;
    }
    Ok(())
}

fn criterion_benches(c: &mut Criterion, shaders: &[Shader], bytes: u64) {
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(bytes));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    for step in Step::ALL {
        // One untimed pass sizes the measurement so that 10 samples of one
        // corpus pass each fit without criterion's "unable to complete" warning.
        let start = Instant::now();
        run_all(step, shaders);
        let once = start.elapsed().max(Duration::from_millis(1));
        group.warm_up_time(once);
        group.measurement_time(once.mul_f64(12.0));
        group.bench_function(step.name(), |b| b.iter(|| run_all(step, shaders)));
    }
    group.finish();
}

/// On-CPU time of the calling thread (first field of
/// `/proc/thread-self/schedstat`, nanoseconds). On a loaded machine wall time
/// includes time spent waiting for a core; CPU time does not. `None` where the
/// file does not exist (then wall time is used).
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `f` once; returns (wall, cpu) times, cpu falling back to wall.
fn timed(f: impl FnOnce()) -> (Duration, Duration) {
    let cpu_start = thread_cpu_time();
    let start = Instant::now();
    f();
    let wall = start.elapsed();
    let cpu = match (cpu_start, thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    (wall, cpu)
}

fn median(sorted: &[Duration]) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn mb_per_s(bytes: u64, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64().max(1e-12)
}

/// Per-shader medians of each step (thread CPU time), whole-corpus passes
/// (wall and CPU time), and the report built from them.
fn summary(shaders: &[Shader], bytes: u64, reps: usize) {
    let cpu_clock = if thread_cpu_time().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    let mut per_step: Vec<Vec<Duration>> = vec![Vec::with_capacity(shaders.len()); Step::ALL.len()];
    for shader in shaders {
        for (slot, step) in Step::ALL.iter().enumerate() {
            let mut times: Vec<Duration> =
                (0..reps).map(|_| timed(|| step.run(shader)).1).collect();
            times.sort();
            per_step[slot].push(median(&times));
        }
    }
    // Whole-corpus passes: median over `reps` passes of wall and CPU time.
    let passes: Vec<(Duration, Duration)> = Step::ALL
        .iter()
        .map(|step| {
            let mut walls = Vec::new();
            let mut cpus = Vec::new();
            for _ in 0..reps {
                let (wall, cpu) = timed(|| run_all(*step, shaders));
                walls.push(wall);
                cpus.push(cpu);
            }
            walls.sort();
            cpus.sort();
            (median(&walls), median(&cpus))
        })
        .collect();
    let compiled = shaders
        .iter()
        .filter(|s| compile(&s.source, &CompileOptions::new(s.stage)).success())
        .count();
    let totals: Vec<Duration> = per_step.iter().map(|t| t.iter().sum()).collect();
    let [pp_total, parse_total, compile_total] = [totals[0], totals[1], totals[2]];
    let compile_times = &per_step[2];
    let slowest = compile_times
        .iter()
        .enumerate()
        .max_by_key(|(_, t)| **t)
        .map(|(i, t)| (i, *t));
    let mut sorted = compile_times.clone();
    sorted.sort();

    println!("\n== rgl front end on shader-db ({reps} runs of everything; times are medians)");
    println!(
        "shaders: {} ({} vertex, {} fragment), {:.2} MB; compiled without errors: {compiled}",
        shaders.len(),
        shaders
            .iter()
            .filter(|s| s.stage == rgl_glsl::Stage::Vertex)
            .count(),
        shaders
            .iter()
            .filter(|s| s.stage == rgl_glsl::Stage::Fragment)
            .count(),
        bytes as f64 / 1e6
    );
    println!("whole-corpus pass, one thread:");
    for (step, (wall, cpu)) in Step::ALL.iter().zip(&passes) {
        println!(
            "  {:<9} wall {:>8.1} ms ({:>6.2} MB/s)   cpu {:>8.1} ms ({:>6.2} MB/s)",
            step.name(),
            wall.as_secs_f64() * 1e3,
            mb_per_s(bytes, *wall),
            cpu.as_secs_f64() * 1e3,
            mb_per_s(bytes, *cpu)
        );
    }
    println!("sum of per-shader medians ({cpu_clock}):");
    for (step, total) in Step::ALL.iter().zip(&totals) {
        println!(
            "  {:<9} {:>8.1} ms ({:>6.2} MB/s)",
            step.name(),
            total.as_secs_f64() * 1e3,
            mb_per_s(bytes, *total)
        );
    }
    println!(
        "compile per shader ({cpu_clock}): median {:.3} ms, p90 {:.3} ms, max {:.3} ms ({})",
        median(&sorted).as_secs_f64() * 1e3,
        percentile(&sorted, 0.9).as_secs_f64() * 1e3,
        slowest.map_or(0.0, |(_, t)| t.as_secs_f64() * 1e3),
        slowest.map_or("-", |(i, _)| shaders[i].name.as_str())
    );
    let share =
        |part: Duration| 100.0 * part.as_secs_f64() / compile_total.as_secs_f64().max(1e-12);
    let parse_only = parse_total.saturating_sub(pp_total);
    let after_parse = compile_total.saturating_sub(parse_total);
    println!(
        "share of compile time: preprocessor {:.1}%, parser (building the AST) {:.1}%, check + lowering {:.1}%",
        share(pp_total),
        share(parse_only),
        share(after_parse)
    );
}

fn main() {
    let dir = shader_db::corpus_dir();
    let shaders = match shader_db::load(&dir) {
        Ok(shaders) if !shaders.is_empty() => shaders,
        Ok(_) => {
            eprintln!("error: no shaders found under {}", dir.display());
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: cannot load the shader-db corpus: {e} (set RGL_SHADER_DB)");
            std::process::exit(1);
        }
    };
    if let Some(out) = std::env::var_os("RGL_BENCH_EXPORT") {
        let out = std::path::PathBuf::from(out);
        match export(&shaders, &out) {
            Ok(()) => {
                eprintln!("wrote {} shaders to {}", shaders.len(), out.display());
                return;
            }
            Err(e) => {
                eprintln!("error: cannot export shaders to {}: {e}", out.display());
                std::process::exit(1);
            }
        }
    }
    if let Some(spec) = std::env::var_os("RGL_BENCH_PROFILE") {
        let spec = spec.to_string_lossy().into_owned();
        let (name, count) = spec.split_once(':').unwrap_or((spec.as_str(), "1"));
        let Some(step) = Step::ALL.into_iter().find(|s| s.name() == name) else {
            eprintln!("error: RGL_BENCH_PROFILE: unknown step `{name}'");
            std::process::exit(1);
        };
        let count: usize = count.parse().unwrap_or(1);
        for _ in 0..count {
            run_all(step, &shaders);
        }
        return;
    }
    let bytes: u64 = shaders.iter().map(|s| s.source.len() as u64).sum();
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--test" || a == "--list");

    let mut criterion = Criterion::default().configure_from_args();
    criterion_benches(&mut criterion, &shaders, bytes);
    criterion.final_summary();

    if !quick {
        let reps = std::env::var("RGL_BENCH_REPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5)
            .max(1);
        summary(&shaders, bytes, reps);
    }
}
