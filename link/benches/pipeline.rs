//! Compile + link + optimise to final NIR over every program of shader-db.
//!
//! First timed passes over the corpus (`RGL_BENCH_ROUNDS`, default 5, as the Mesa
//! peer) print the split between the front end, the GLSL IR linker, `glsl_to_nir`
//! and the NIR pipeline (lowering + optimisation loop + IO lowering) of the round with
//! the median total, the median, minimum and maximum round total, and the median and
//! 90th percentile per program (each program's best round, as the peer); then criterion
//! measures the whole corpus end to end, and the NIR pipeline alone (`lower_program`
//! on copies of the linked programs: `glsl_to_nir` and the NIR passes, the part
//! `perf record ... --bench nir-pipeline --profile-time N` isolates).
//! `cargo bench -p rgl-link --bench pipeline`.
//! The Mesa peer of the same programs is `--bench mesa_peer`. The shaders are linked
//! with [`link_program_owned`] (the program is built from sources in one go, so the
//! linker takes over each single-shader stage's IR instead of copying it).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use rgl_conformance::shader_test::link_only::ProgramShader;
use rgl_conformance::shader_test::program;
use rgl_glsl::CompiledShader;
use rgl_link::pipeline::{lower_program, PipelineOptions};
use rgl_link::{link_program_owned, to_nir, Bindings, LinkedProgram};

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

fn corpus() -> Vec<(PathBuf, Vec<ProgramShader>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db");
    let root = std::env::var_os("RGL_SHADER_DB").map_or(root, PathBuf::from);
    let mut files = Vec::new();
    shader_tests(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|p| Some((p.clone(), program::load(&p).ok()?)))
        .collect()
}

#[derive(Default)]
struct Split {
    front: Duration,
    link: Duration,
    to_nir: Duration,
    nir: Duration,
}

/// Runs one program through every phase, timing each; None when a phase failed.
fn run_timed(src: &[ProgramShader], split: &mut Split) -> Result<Duration, String> {
    let t0 = Instant::now();
    let shaders: Vec<CompiledShader> = program::compile_all(src);
    let t1 = Instant::now();
    split.front += t1 - t0;
    if let Some(bad) = shaders.iter().find(|s| !s.success()) {
        return Err(format!("compile: {}", bad.info_log));
    }
    let mut program =
        link_program_owned(shaders, &Bindings::default()).map_err(|e| e.to_string())?;
    let t2 = Instant::now();
    split.link += t2 - t1;
    for stage in &program.stages {
        to_nir::glsl_to_nir(&program, stage).map_err(|e| e.to_string())?;
    }
    let t3 = Instant::now();
    split.to_nir += t3 - t2;
    lower_program(&mut program, PipelineOptions::default()).map_err(|e| e.to_string())?;
    let t4 = Instant::now();
    // lower_program converts again; its own conversion time is taken out of the NIR
    // pipeline share.
    split.nir += (t4 - t3).saturating_sub(t3 - t2);
    Ok((t4 - t0).saturating_sub(t3 - t2))
}

fn full(src: &[ProgramShader]) -> bool {
    let shaders = program::compile_all(src);
    rgl_link::pipeline::build_program_owned(
        shaders,
        &Bindings::default(),
        PipelineOptions::default(),
    )
    .is_ok()
}

fn bench(c: &mut Criterion) {
    let programs = corpus();
    if programs.is_empty() {
        eprintln!("pipeline bench: no shader-db corpus found (set RGL_SHADER_DB); skipping");
        return;
    }
    let bytes: usize = programs
        .iter()
        .flat_map(|(_, p)| p.iter().map(|s| s.source.len()))
        .sum();
    let rounds: usize = std::env::var("RGL_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let mut splits: Vec<Split> = Vec::new();
    let mut best: Vec<Option<Duration>> = vec![None; programs.len()];
    let mut failures = Vec::new();
    for round in 0..rounds {
        let mut split = Split::default();
        for (i, (path, src)) in programs.iter().enumerate() {
            match run_timed(src, &mut split) {
                Ok(t) => best[i] = Some(best[i].map_or(t, |b| b.min(t))),
                Err(e) if round == 0 => failures.push((path.clone(), e)),
                Err(_) => {}
            }
        }
        splits.push(split);
    }
    let round_total = |s: &Split| s.front + s.link + s.to_nir + s.nir;
    splits.sort_by_key(round_total);
    let split = &splits[splits.len() / 2];
    let mut per_program: Vec<Duration> = best.into_iter().flatten().collect();
    per_program.sort();
    let total = round_total(split);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "shader-db: {} programs ({:.1} MB), {} built, {} failed",
        programs.len(),
        bytes as f64 / 1e6,
        per_program.len(),
        failures.len()
    );
    for (path, e) in failures.iter().take(10) {
        println!(
            "  FAIL {}: {}",
            path.display(),
            e.lines().next().unwrap_or("")
        );
    }
    if let Some(median) = per_program.get(per_program.len() / 2) {
        let p90 = per_program[(per_program.len() * 9 / 10).min(per_program.len() - 1)];
        println!(
            "{rounds} rounds: total {:.0} ms (min {:.0}, max {:.0}), per program median {:.3} ms, p90 {:.3} ms",
            ms(total),
            ms(round_total(&splits[0])),
            ms(round_total(&splits[splits.len() - 1])),
            ms(*median),
            ms(p90),
        );
        println!(
            "median round: total {:.0} ms, median {:.3} ms/program; front end {:.0} ms ({:.0}%), link {:.0} ms ({:.0}%), glsl_to_nir {:.0} ms ({:.0}%), NIR pipeline {:.0} ms ({:.0}%)",
            ms(total),
            ms(*median),
            ms(split.front),
            100.0 * split.front.as_secs_f64() / total.as_secs_f64(),
            ms(split.link),
            100.0 * split.link.as_secs_f64() / total.as_secs_f64(),
            ms(split.to_nir),
            100.0 * split.to_nir.as_secs_f64() / total.as_secs_f64(),
            ms(split.nir),
            100.0 * split.nir.as_secs_f64() / total.as_secs_f64(),
        );
    }
    let mut group = c.benchmark_group("shader-db");
    group.sample_size(10);
    group.bench_function("compile+link+optimize", |b| {
        b.iter(|| programs.iter().filter(|(_, p)| full(p)).count())
    });
    let linked: Vec<LinkedProgram> = programs
        .iter()
        .filter_map(|(_, src)| {
            link_program_owned(program::compile_all(src), &Bindings::default()).ok()
        })
        .collect();
    group.bench_function("nir-pipeline", |b| {
        b.iter_batched(
            || linked.clone(),
            |mut linked| {
                linked
                    .iter_mut()
                    .map(|p| lower_program(p, PipelineOptions::default()).is_ok())
                    .filter(|&ok| ok)
                    .count()
            },
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
