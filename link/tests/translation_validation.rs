//! Translation validation of the link-time NIR pipeline over the corpus.
//!
//! For every program of `../shared/corpus/shader-db`, every piglit `.shader_test`
//! (`piglit/`, `piglit-geometry/`) and rgl's own `tests/tv/shader_tests/` whose shaders compile and whose program links, the
//! pipeline ([`rgl_link::pipeline::build_program`]) runs with an observer that keeps
//! each stage's NIR right after `glsl_to_nir` ("before"); the final NIR of every
//! stage is the "after". Both versions of the program are evaluated with
//! `rgl_nir::eval` as a vertex → geometry → fragment chain on [`SEEDS`] seeded random
//! input sets (uniforms, UBO contents, attributes, system values; procedural
//! textures), and must agree (`tv/chain.rs` states what is compared and the float
//! bound). Output components the original leaves undefined (uninitialised values,
//! `undef`, out-of-bounds reads, tracked by the interpreter) are not compared;
//! evaluations where the original's control flow depends on an undefined value or
//! that write out of bounds (undefined behaviour) are skipped and counted.
//!
//! The pipeline runs once per driver answer in [`configurations`] (the software
//! driver's compiler options, and the other answers a driver can give: IO kept as
//! variables, indirect temporaries kept, scalar ALU), and a configuration must not make
//! the pipeline fail where the software driver's does not.
//!
//! On a mismatch the pipeline is re-run recording the shader after every step, the
//! chain is evaluated after each step, and the report names the first pass after
//! which the result differs for good, printing that stage before and after the pass.
//!
//! The test prints counts (programs, stages, evaluations, skips, mismatches) and the
//! list of programs whose link or pipeline failed (the linker's / pipeline's problem,
//! not a translation-validation mismatch); the full report is also written to
//! `$CARGO_TARGET_TMPDIR/translation_validation.txt`. It fails on any mismatch.
//! `RGL_TV_FILTER=substring` restricts the corpus; `RGL_TV_SEEDS=n` changes the seed
//! count.

mod common;
mod tv;

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rgl_glsl::CompiledShader;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::{Bindings, LinkError, LinkedProgram};
use rgl_nir::eval::EvalErrorKind;
use rgl_nir::ir::Shader;
use rgl_nir::options::{CompilerOptions, StageOptions};
use rgl_nir::passes::opt_loop::INEXACT_PASSES;
use tv::chain::{self, ChainRun, Seeded};

/// Random input sets per program.
const SEEDS: u64 = 4;
/// Lines of NIR printed per shader in a mismatch report.
const MAX_PRINT_LINES: usize = 400;

#[derive(Default)]
struct Report {
    files: usize,
    programs: usize,
    /// Files whose shaders did not compile, with the reason.
    compile_failed: Vec<String>,
    link_failed: Vec<String>,
    pipeline_failed: Vec<String>,
    stages: usize,
    evaluations: usize,
    skipped_undefined: usize,
    skipped_names: Vec<String>,
    skipped_budget: usize,
    eval_unsupported: Vec<String>,
    mismatches: Vec<String>,
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".to_string())
}

/// Builds the program, keeping every stage's `glsl_to_nir` output.
/// Builds the program, keeping every stage's `glsl_to_nir` output; also tells
/// whether a pass that may change float results (`INEXACT_PASSES`) made progress.
/// The program, its stages straight after `glsl_to_nir`, and whether an inexact pass
/// ran; or the failure's text and whether the pipeline (not the linker) failed.
fn build_with_before(
    shaders: &[&CompiledShader],
    compiler: &StageOptions,
) -> Result<(LinkedProgram, Vec<Shader>, bool), (String, bool)> {
    let mut before: Vec<Option<Shader>> = Vec::new();
    let mut inexact = false;
    let result = {
        let mut observer = |i: usize, step: &str, s: &Shader| {
            inexact |= INEXACT_PASSES.contains(&step);
            if step == "glsl_to_nir" {
                if before.len() <= i {
                    before.resize(i + 1, None);
                }
                before[i] = Some(s.clone());
            }
        };
        let options = PipelineOptions {
            observer: Some(&mut observer),
            compiler: *compiler,
            ..Default::default()
        };
        catch_unwind(AssertUnwindSafe(|| {
            build_program(shaders, &Bindings::default(), options)
        }))
    };
    match result {
        Err(p) => Err((format!("pipeline panicked: {}", panic_message(p)), true)),
        Ok(Err(log)) => {
            let pipeline = log
                .errors
                .iter()
                .any(|e| matches!(e, LinkError::Pipeline { .. }));
            Err((log.to_string(), pipeline))
        }
        Ok(Ok(program)) => {
            let before: Option<Vec<Shader>> = before.into_iter().collect();
            match before {
                Some(b) if b.len() == program.stages.len() => Ok((program, b, inexact)),
                _ => Err((
                    "the observer did not see glsl_to_nir for every stage".into(),
                    false,
                )),
            }
        }
    }
}

/// Every step of the pipeline: (stage, step name, shader after it).
fn record_steps(
    shaders: &[&CompiledShader],
    compiler: &StageOptions,
) -> Vec<(usize, String, Shader)> {
    let mut steps = Vec::new();
    {
        let mut observer = |i: usize, step: &str, s: &Shader| {
            steps.push((i, step.to_string(), s.clone()));
        };
        let options = PipelineOptions {
            observer: Some(&mut observer),
            compiler: *compiler,
            ..Default::default()
        };
        let _ = catch_unwind(AssertUnwindSafe(|| {
            build_program(shaders, &Bindings::default(), options)
        }));
    }
    steps
}

fn print_limited(shader: &Shader) -> String {
    let text = rgl_nir::print::print_shader(shader);
    let lines: Vec<&str> = text.lines().collect();
    let mut out: String = lines
        .iter()
        .take(MAX_PRINT_LINES)
        .map(|l| format!("    {l}\n"))
        .collect();
    if lines.len() > MAX_PRINT_LINES {
        let _ = writeln!(
            out,
            "    ... ({} more lines)",
            lines.len() - MAX_PRINT_LINES
        );
    }
    out
}

/// Names the first pass after which the chain result differs for good.
fn bisect(
    shaders: &[&CompiledShader],
    compiler: &StageOptions,
    program: &LinkedProgram,
    before: &[Shader],
    seed: &Seeded,
    reference: &ChainRun,
    exact: bool,
) -> String {
    let steps = record_steps(shaders, compiler);
    let before_refs: Vec<&Shader> = before.iter().collect();
    // Every stage starts as its glsl_to_nir output; each step replaces one stage.
    let mut current: Vec<&Shader> = before.iter().collect();
    let mut last_good: Option<usize> = None;
    let mut states = Vec::new();
    for (k, (stage, _, shader)) in steps.iter().enumerate() {
        if let Some(c) = current.get_mut(*stage) {
            *c = shader;
        }
        let invalid = rgl_nir::validate::validate(shader).is_err();
        let good = !invalid
            && match chain::run_chain(program, &current, seed) {
                Ok(run) => {
                    chain::compare_runs(program, &before_refs, reference, &run, exact).is_empty()
                }
                Err(_) => false,
            };
        states.push((k, good));
        if good {
            last_good = Some(k);
        }
    }
    let first_bad = match last_good {
        Some(g) => steps.iter().enumerate().skip(g + 1).map(|(k, _)| k).next(),
        None => states.first().map(|(k, _)| *k),
    };
    let Some(k) = first_bad else {
        return "  bisect: every recorded step agrees with the original (the difference is \
                outside the recorded steps)\n"
            .to_string();
    };
    let (stage, name, after) = &steps[k];
    let prior = steps[..k]
        .iter()
        .rev()
        .find(|(s, _, _)| s == stage)
        .map(|(_, _, sh)| sh)
        .or(before.get(*stage));
    let mut out = format!(
        "  first differing step: `{name}` on stage {stage} ({:?})\n",
        program.stages.get(*stage).map(|s| s.stage)
    );
    if let Err(e) = rgl_nir::validate::validate(after) {
        let first = e.to_string();
        let _ = writeln!(
            out,
            "  the NIR is invalid after it: {}",
            first.lines().next().unwrap_or("")
        );
    }
    if let Some(p) = prior {
        let _ = write!(out, "  --- stage before `{name}`:\n{}", print_limited(p));
    }
    let _ = write!(out, "  --- stage after `{name}`:\n{}", print_limited(after));
    out
}

fn check_program(
    name: &str,
    shaders: &[CompiledShader],
    compiler: &StageOptions,
    compare: bool,
    report: &mut Report,
) {
    let refs: Vec<&CompiledShader> = shaders.iter().collect();
    let (program, before, inexact) = match build_with_before(&refs, compiler) {
        Ok(p) => p,
        Err((e, pipeline)) => {
            let first = e.lines().next().unwrap_or("").to_string();
            if pipeline {
                report.pipeline_failed.push(format!("{name}: {first}"));
            } else {
                report.link_failed.push(format!("{name}: {first}"));
            }
            return;
        }
    };
    let Some(after): Option<Vec<&Shader>> = program.stages.iter().map(|s| s.nir.as_ref()).collect()
    else {
        report
            .pipeline_failed
            .push(format!("{name}: a stage has no final NIR"));
        return;
    };
    for (i, s) in after.iter().enumerate() {
        if let Err(e) = rgl_nir::validate::validate(s) {
            let first = e.to_string();
            let mut text = format!(
                "{name}: final NIR of stage {i} is invalid: {}\n",
                first.lines().next().unwrap_or("")
            );
            // Name the pass that broke it (first step whose output does not validate).
            for (stage, step, shader) in record_steps(&refs, compiler) {
                if rgl_nir::validate::validate(&shader).is_err() {
                    let _ = writeln!(text, "  first invalid after `{step}` on stage {stage}");
                    break;
                }
            }
            report.pipeline_failed.push(text);
            return;
        }
    }
    report.programs += 1;
    report.stages += program.stages.len();
    if !compare {
        return;
    }
    let before_refs: Vec<&Shader> = before.iter().collect();
    let seeds = std::env::var("RGL_TV_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEEDS);
    let mut failing_seeds: Vec<u64> = Vec::new();
    let mut first_report: Option<String> = None;
    for s in 0..seeds {
        let seed = chain::seeded(&program, &before, s.wrapping_mul(7919).wrapping_add(17));
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let b = chain::run_chain(&program, &before_refs, &seed);
            let a = chain::run_chain(&program, &after, &seed);
            (b, a)
        }));
        let (b, a) = match outcome {
            Ok(r) => r,
            Err(p) => {
                report.mismatches.push(format!(
                    "{name} (seed {s}): the interpreter panicked: {}",
                    panic_message(p)
                ));
                return;
            }
        };
        report.evaluations += 1;
        let b = match b {
            Ok(b) => b,
            Err((i, e)) => {
                match e.kind {
                    EvalErrorKind::BudgetExceeded => report.skipped_budget += 1,
                    _ => report
                        .eval_unsupported
                        .push(format!("{name}: before, stage {i}: {e}")),
                }
                continue;
            }
        };
        if b.undefined_behaviour() {
            report.skipped_undefined += 1;
            if report.skipped_names.last().map(String::as_str) != Some(name) {
                report.skipped_names.push(name.to_string());
            }
            continue;
        }
        let diffs = match a {
            Ok(a) => chain::compare_runs(&program, &before_refs, &b, &a, !inexact),
            Err((i, e)) if e.kind == EvalErrorKind::Unsupported => {
                report
                    .eval_unsupported
                    .push(format!("{name}: after, stage {i}: {e}"));
                continue;
            }
            Err((i, e)) => vec![format!("the optimized stage {i} failed to evaluate: {e}")],
        };
        if !diffs.is_empty() {
            failing_seeds.push(s);
            if first_report.is_none() {
                let mut text = format!("{name} (seed {s}):\n");
                for d in diffs.iter().take(16) {
                    let _ = writeln!(text, "  {d}");
                }
                text.push_str(&bisect(
                    &refs, compiler, &program, &before, &seed, &b, !inexact,
                ));
                first_report = Some(text);
            }
        }
    }
    // One detailed report per program, with the list of seeds that differ.
    if let Some(mut text) = first_report {
        let _ = writeln!(
            text,
            "  seeds that differ: {failing_seeds:?} of {seeds} (seed s uses PRNG seed s * 7919 + 17)"
        );
        report.mismatches.push(text);
    }
}

/// rgl's own `.shader_test` files (`tests/tv/shader_tests`), validated with the corpus.
fn local_tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tv/shader_tests")
}

/// One driver answer the pipeline is run with.
struct Configuration {
    label: &'static str,
    compiler: StageOptions,
    /// Evaluate and compare (else only build and validate).
    compare: bool,
}

/// The driver answers the pipeline is validated with: the software driver's (the
/// default); IO kept as variables with indirect temporaries kept; and scalar ALU,
/// which is only built and validated here: scalarising `fdot` rounds after every
/// `fmul`/`fadd` where the opcode table rounds once, a difference cancellation makes
/// larger than any float bound (`tests/io_lowering.rs` compares the scalar passes
/// with a tolerance).
fn configurations() -> Vec<Configuration> {
    vec![
        Configuration {
            label: "software driver",
            compiler: StageOptions::default(),
            compare: true,
        },
        Configuration {
            label: "IO variables, indirect temporaries kept",
            compiler: StageOptions::uniform(CompilerOptions {
                lower_io: false,
                lower_indirect_temps: false,
                ..CompilerOptions::default()
            }),
            compare: true,
        },
        Configuration {
            label: "scalar ALU (built and validated only)",
            compiler: StageOptions::uniform(CompilerOptions {
                lower_to_scalar: true,
                ..CompilerOptions::default()
            }),
            compare: false,
        },
    ]
}

/// The one-line summary and the detailed report of one configuration.
fn summarize(label: &str, report: &Report, seconds: f64) -> (String, String) {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "translation validation ({label}): {} files, {} programs linked and built ({} \
         stages), {} evaluations, {} mismatches; {} skipped (undefined behaviour in the \
         original), {} skipped (instruction budget), {} interpreter errors; {} files did \
         not compile, {} did not link, {} failed in the NIR pipeline; {seconds:.1}s",
        report.files,
        report.programs,
        report.stages,
        report.evaluations,
        report.mismatches.len(),
        report.skipped_undefined,
        report.skipped_budget,
        report.eval_unsupported.len(),
        report.compile_failed.len(),
        report.link_failed.len(),
        report.pipeline_failed.len(),
    );
    let mut details = String::new();
    let _ = writeln!(details, "\n[{label}]");
    let _ = writeln!(
        details,
        "\npipeline failures ({}):",
        report.pipeline_failed.len()
    );
    for l in &report.pipeline_failed {
        let _ = writeln!(details, "  {l}");
    }
    let _ = writeln!(
        details,
        "\ncompile failures ({}):",
        report.compile_failed.len()
    );
    for l in &report.compile_failed {
        let _ = writeln!(details, "  {l}");
    }
    let _ = writeln!(details, "\nlink failures ({}):", report.link_failed.len());
    for l in &report.link_failed {
        let _ = writeln!(details, "  {l}");
    }
    let _ = writeln!(
        details,
        "\nprograms with evaluations skipped for undefined behaviour ({}):",
        report.skipped_names.len()
    );
    for l in &report.skipped_names {
        let _ = writeln!(details, "  {l}");
    }
    let _ = writeln!(
        details,
        "\ninterpreter errors ({}):",
        report.eval_unsupported.len()
    );
    for l in &report.eval_unsupported {
        let _ = writeln!(details, "  {l}");
    }
    let _ = writeln!(details, "\nmismatches ({}):", report.mismatches.len());
    for m in &report.mismatches {
        let _ = writeln!(details, "{m}");
    }
    (text, details)
}

#[test]
fn translation_validation() {
    let root = common::corpus_root();
    let filter = std::env::var("RGL_TV_FILTER").ok();
    let mut files = Vec::new();
    for dir in ["shader-db", "piglit", "piglit-geometry"] {
        files.extend(tv::corpus::shader_tests(&root.join(dir)));
    }
    if !common::corpus_found("translation_validation", files.len(), &root) {
        return;
    }
    files.extend(tv::corpus::shader_tests(&local_tests()));
    let configs = configurations();
    let mut reports: Vec<(Report, f64)> =
        configs.iter().map(|_| (Report::default(), 0.0)).collect();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            for (report, _) in &mut reports {
                report.files += 1;
            }
            continue;
        };
        let sections = tv::corpus::sections(&text, path);
        let compiled = if sections.is_empty() {
            None
        } else {
            Some(match catch_unwind(|| tv::corpus::compile_all(&sections)) {
                Ok(Ok(shaders)) => Ok(shaders),
                Ok(Err(why)) => Err(format!("{name}: {why}")),
                Err(p) => Err(format!("{name}: compile panicked: {}", panic_message(p))),
            })
        };
        for (config, (report, seconds)) in configs.iter().zip(&mut reports) {
            report.files += 1;
            match &compiled {
                None => {}
                Some(Ok(shaders)) => {
                    let start = std::time::Instant::now();
                    check_program(&name, shaders, &config.compiler, config.compare, report);
                    *seconds += start.elapsed().as_secs_f64();
                }
                Some(Err(why)) => report.compile_failed.push(why.clone()),
            }
        }
    }
    let mut text = String::new();
    let mut details = String::new();
    for (config, (report, seconds)) in configs.iter().zip(&reports) {
        let (t, d) = summarize(config.label, report, *seconds);
        text.push_str(&t);
        details.push_str(&d);
    }
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("translation_validation.txt");
    let _ = std::fs::write(&path, format!("{text}{details}"));
    eprintln!("{text}full report: {}", path.display());
    let (default, _) = &reports[0];
    common::print_not_built(
        "translation_validation",
        "files whose shaders did not compile",
        &default.compile_failed,
    );
    common::print_not_built(
        "translation_validation",
        "programs that did not link",
        &default.link_failed,
    );
    for (config, (report, _)) in configs.iter().zip(&reports) {
        let label = config.label;
        // Failures of the pipeline are visible here, but are not TV mismatches.
        for l in report.pipeline_failed.iter().take(50) {
            eprintln!("pipeline failure ({label}): {l}");
        }
        for l in report.eval_unsupported.iter().take(20) {
            eprintln!("interpreter error ({label}): {l}");
        }
        assert!(
            report.mismatches.is_empty(),
            "{} translation-validation mismatches ({label}):\n{}",
            report.mismatches.len(),
            report
                .mismatches
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    // Another driver answer must not make the pipeline fail on a program the
    // software driver's answer builds.
    for (config, (report, _)) in configs.iter().zip(&reports).skip(1) {
        let label = config.label;
        let extra: Vec<&String> = report
            .pipeline_failed
            .iter()
            .filter(|l| {
                let program = l.split(':').next().unwrap_or("");
                !default
                    .pipeline_failed
                    .iter()
                    .any(|d| d.split(':').next() == Some(program))
            })
            .collect();
        assert!(
            extra.is_empty(),
            "the pipeline fails with {label} but not with the software driver's options:\n{}",
            extra
                .iter()
                .take(10)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
