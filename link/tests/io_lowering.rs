//! The IO / scalar lowering passes and the varying link passes on real shaders.
//!
//! For every program of `../shared/corpus/shader-db` and every piglit `.shader_test`
//! (`piglit/`, `piglit-geometry/`) that compiles and links, each stage goes through
//! `glsl_to_nir` ("before") and then a copy of the whole link-time sequence with the
//! `io` branch's passes in Mesa's places (`st_link_glsl_to_nir`, `gl_nir_link_glsl`):
//!
//! 1. per stage: `inline_functions`, `lower_global_vars_to_local`, `split_var_copies`,
//!    `lower_var_copies`, the optimisation loop;
//! 2. per producer/consumer pair, from the last stage backwards: `link_opt_varyings`,
//!    `remove_unused_varyings`, `compact_varyings`, then the loop again on both;
//! 3. per stage: `lower_io_to_temporaries`, `lower_var_copies`, `lower_vars_to_ssa`,
//!    `lower_system_values`, `lower_io`, the loop, then `lower_alu_to_scalar`,
//!    `lower_phis_to_scalar`, `lower_load_const_to_scalar`, the loop.
//!
//! The runner validates after every pass. The test then requires that no variable
//! access of an IO, uniform, UBO or system-value variable and no sampler deref is left
//! (everything is intrinsics with driver locations), and evaluates the "before" and
//! "after" programs as a vertex → geometry → fragment chain with `rgl_nir::eval` on
//! seeded inputs (the `tv` support of `translation_validation.rs`), requiring the same
//! results (programs with dual-source fragment outputs are not compared: NIR variables
//! carry no blend index). Programs with a known, explained problem are listed in
//! `tests/io_lowering.known`; any other leftover access or mismatch fails the
//! test, and so does a listed program that no longer fails (over the whole
//! corpus). Programs that do not compile, link or convert are counted and named.
//! `RGL_IO_FILTER=substring` restricts the corpus, `RGL_IO_LIMIT=n` caps the
//! number of files.

mod common;
mod tv;

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rgl_glsl::CompiledShader;
use rgl_link::{Bindings, LinkedProgram};
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::{InstrKind, Shader, TexSrcKind, VarMode};
use rgl_nir::passes::{opt_loop, PassError, Runner};

const SEEDS: u64 = 2;

const PRE: &[&str] = &[
    "inline_functions",
    "lower_global_vars_to_local",
    "split_var_copies",
    "lower_var_copies",
];
const LOWER: &[&str] = &[
    "lower_io_to_temporaries",
    "lower_var_copies",
    "lower_vars_to_ssa",
    "lower_system_values",
    "lower_io",
];
const SCALAR: &[&str] = &[
    "lower_alu_to_scalar",
    "lower_phis_to_scalar",
    "lower_load_const_to_scalar",
];

fn run(names: &[&str], shader: &mut Shader) -> Result<(), PassError> {
    let mut runner = Runner::new();
    runner.validate = true;
    for n in names {
        if rgl_nir::passes::pass_by_name(n).is_some() {
            runner.run_named(n, shader)?;
        }
    }
    Ok(())
}

fn opt(shader: &mut Shader) -> Result<(), PassError> {
    let mut runner = Runner::new();
    runner.validate = true;
    opt_loop::optimize(&mut runner, shader).map(|_| ())
}

fn check_valid(what: &str, s: &Shader) -> Result<(), String> {
    rgl_nir::validate::validate(s).map_err(|e| format!("{what}: {e}"))
}

/// The whole sequence on all stages of a program.
fn lower_all(stages: &mut [Shader]) -> Result<(), String> {
    // `RGL_IO_PHASES=n` stops after phase n (1 pre, 2 link, 3 lower, 4 scalar), to
    // find the phase behind a mismatch.
    let phases: u32 = std::env::var("RGL_IO_PHASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    for s in stages.iter_mut() {
        run(PRE, s).map_err(|e| e.to_string())?;
        opt(s).map_err(|e| e.to_string())?;
    }
    if phases < 2 {
        return Ok(());
    }
    for i in (1..stages.len()).rev() {
        let (left, right) = stages.split_at_mut(i);
        let (p, c) = (&mut left[i - 1], &mut right[0]);
        for (name, pass) in rgl_nir::link::LINK_PASSES {
            pass(p, c);
            check_valid(&format!("producer after {name}"), p)?;
            check_valid(&format!("consumer after {name}"), c)?;
        }
        opt(p).map_err(|e| e.to_string())?;
        opt(c).map_err(|e| e.to_string())?;
    }
    if phases < 3 {
        return Ok(());
    }
    for s in stages.iter_mut() {
        run(LOWER, s).map_err(|e| e.to_string())?;
        opt(s).map_err(|e| e.to_string())?;
        if phases < 4 {
            continue;
        }
        run(SCALAR, s).map_err(|e| e.to_string())?;
        opt(s).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Accesses that `lower_io` should have turned into intrinsics, described.
fn leftovers(s: &Shader) -> Vec<String> {
    let mut out = Vec::new();
    for (_, f) in s.functions.iter() {
        let Some(body) = &f.body else { continue };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                match &body.instrs[instr].kind {
                    InstrKind::Intrinsic(intr)
                        if matches!(
                            intr.op,
                            IntrinsicOp::load_deref
                                | IntrinsicOp::store_deref
                                | IntrinsicOp::copy_deref
                        ) =>
                    {
                        for d in &intr.srcs {
                            let Some(dd) = body.defs.get(*d) else {
                                continue;
                            };
                            if let InstrKind::Deref(deref) = &body.instrs[dd.instr].kind {
                                if !matches!(
                                    deref.mode,
                                    VarMode::FunctionTemp | VarMode::ShaderTemp
                                ) {
                                    out.push(rgl_nir::print::print_instr_standalone(
                                        s, body, instr,
                                    ));
                                }
                            }
                        }
                    }
                    InstrKind::Tex(t)
                        if t.srcs.iter().any(|(k, _)| {
                            matches!(k, TexSrcKind::TextureDeref | TexSrcKind::SamplerDeref)
                        }) =>
                    {
                        out.push(rgl_nir::print::print_instr_standalone(s, body, instr))
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// True when a fragment shader has two outputs at the same location and component
/// (dual-source blending, `layout(index = 1)`).
fn has_dual_source_outputs(stages: &[Shader]) -> bool {
    stages.iter().any(|s| {
        let outs: Vec<(i32, u8)> = s
            .globals
            .iter()
            .filter_map(|v| s.variables.get(*v))
            .filter(|v| v.mode == VarMode::ShaderOut && s.stage == rgl_nir::ir::Stage::Fragment)
            .map(|v| (v.location, v.location_frac))
            .collect();
        outs.iter()
            .enumerate()
            .any(|(i, a)| outs[i + 1..].contains(a))
    })
}

#[derive(Default)]
struct Report {
    dual_source: usize,
    files: usize,
    programs: usize,
    stages: usize,
    /// Programs that did not compile, link or convert, with the reason.
    not_built: Vec<String>,
    failures: Vec<String>,
    leftovers: Vec<String>,
    evaluations: usize,
    skipped: usize,
    mismatches: Vec<String>,
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".to_string())
}

fn check_program(name: &str, shaders: &[CompiledShader], report: &mut Report) {
    let refs: Vec<&CompiledShader> = shaders.iter().collect();
    let program = match catch_unwind(|| rgl_link::link_program(&refs, &Bindings::default())) {
        Ok(Ok(program)) => program,
        Ok(Err(log)) => {
            let log = log.to_string();
            let first = log.lines().next().unwrap_or("");
            report.not_built.push(format!("{name}: link: {first}"));
            return;
        }
        Err(p) => {
            let why = panic_message(p);
            report
                .not_built
                .push(format!("{name}: link panicked: {why}"));
            return;
        }
    };
    let program: LinkedProgram = program;
    let mut before = Vec::new();
    for st in &program.stages {
        match rgl_link::to_nir::glsl_to_nir(&program, st) {
            Ok(s) => before.push(s),
            Err(e) => {
                report.not_built.push(format!("{name}: glsl_to_nir: {e}"));
                return;
            }
        }
    }
    report.programs += 1;
    report.stages += before.len();
    let mut after = before.clone();
    match catch_unwind(AssertUnwindSafe(|| lower_all(&mut after))) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            report.failures.push(format!(
                "{name}: {}",
                e.lines().take(6).collect::<Vec<_>>().join("\n    ")
            ));
            return;
        }
        Err(p) => {
            report
                .failures
                .push(format!("{name}: panicked: {}", panic_message(p)));
            return;
        }
    }
    for (i, s) in after.iter().enumerate() {
        let l = leftovers(s);
        if let Some(first) = l.first() {
            report.leftovers.push(format!(
                "{name} stage {i}: {} left, first: {first}",
                l.len()
            ));
        }
    }
    if has_dual_source_outputs(&before) {
        // Two fragment outputs at one location (blend index 0 and 1): the NIR variables
        // carry no blend index, so neither form can tell them apart.
        report.dual_source += 1;
        return;
    }
    let b: Vec<&Shader> = before.iter().collect();
    let a: Vec<&Shader> = after.iter().collect();
    for s in 0..SEEDS {
        let seed = tv::chain::seeded(&program, &before, s.wrapping_mul(7919).wrapping_add(17));
        let Ok((rb, ra)) = catch_unwind(AssertUnwindSafe(|| {
            (
                tv::chain::run_chain(&program, &b, &seed),
                tv::chain::run_chain(&program, &a, &seed),
            )
        })) else {
            report
                .mismatches
                .push(format!("{name}: the interpreter panicked"));
            return;
        };
        report.evaluations += 1;
        let rb = match rb {
            Ok(r) if !r.undefined_behaviour() => r,
            _ => {
                report.skipped += 1;
                continue;
            }
        };
        let diffs = match ra {
            Ok(ra) => tv::chain::compare_runs(&program, &b, &rb, &ra, false),
            Err((i, e)) => vec![format!("the lowered stage {i} failed to evaluate: {e}")],
        };
        if !diffs.is_empty() {
            let mut text = format!("{name} (seed {s}):\n");
            for d in diffs.iter().take(8) {
                let _ = writeln!(text, "  {d}");
            }
            report.mismatches.push(text);
            return;
        }
    }
}

#[test]
fn io_lowering_on_corpus() {
    let root = common::corpus_root();
    let filter = std::env::var("RGL_IO_FILTER").ok();
    let limit: usize = std::env::var("RGL_IO_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let mut files = Vec::new();
    for dir in ["shader-db", "piglit", "piglit-geometry"] {
        files.extend(tv::corpus::shader_tests(&root.join(dir)));
    }
    if !common::corpus_found("io_lowering_on_corpus", files.len(), &root) {
        return;
    }
    let start = std::time::Instant::now();
    let mut report = Report::default();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        if report.files >= limit {
            break;
        }
        report.files += 1;
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let sections = tv::corpus::sections(&text, path);
        if sections.is_empty() {
            continue;
        }
        let shaders = match catch_unwind(|| tv::corpus::compile_all(&sections)) {
            Ok(Ok(shaders)) => shaders,
            Ok(Err(why)) => {
                report.not_built.push(format!("{name}: {why}"));
                continue;
            }
            Err(p) => {
                let why = panic_message(p);
                report
                    .not_built
                    .push(format!("{name}: compile panicked: {why}"));
                continue;
            }
        };
        check_program(&name, &shaders, &mut report);
    }
    let summary = format!(
        "io lowering: {} files, {} programs ({} stages), {} not compiled/linked/converted; \
         {} pipeline failures, {} stages with accesses left, {} evaluations ({} skipped: \
         original out of bounds or not evaluable), {} mismatches; {} programs with \
         dual-source outputs not compared; {:.1}s",
        report.files,
        report.programs,
        report.stages,
        report.not_built.len(),
        report.failures.len(),
        report.leftovers.len(),
        report.evaluations,
        report.skipped,
        report.mismatches.len(),
        report.dual_source,
        start.elapsed().as_secs_f64()
    );
    let mut details = String::new();
    for (title, list) in [
        ("not compiled, linked or converted", &report.not_built),
        ("pipeline failures", &report.failures),
        ("accesses left", &report.leftovers),
        ("mismatches", &report.mismatches),
    ] {
        let _ = writeln!(details, "\n{title} ({}):", list.len());
        for l in list {
            let _ = writeln!(details, "  {l}");
        }
    }
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("io_lowering.txt");
    let _ = std::fs::write(&path, format!("{summary}\n{details}"));
    eprintln!("{summary}\nfull report: {}", path.display());
    common::print_not_built(
        "io_lowering_on_corpus",
        "programs not compiled, linked or converted",
        &report.not_built,
    );
    assert!(report.programs > 0, "no program was built");
    // Known problems (outside the io passes, or documented gaps) are listed with their
    // reason in `io_lowering.known`; anything else fails, and listed programs that now
    // pass are reported so the list can shrink.
    let known_list = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/io_lowering.known");
    let known = common::known_entries(&known_list, " ");
    let program_of = |l: &String| l.split([' ', ':']).next().unwrap_or("").to_string();
    let problems: Vec<String> = report
        .leftovers
        .iter()
        .chain(&report.mismatches)
        .map(program_of)
        .collect();
    let unexpected: Vec<&String> = report
        .leftovers
        .iter()
        .chain(&report.mismatches)
        .filter(|l| !known.contains(&program_of(l)))
        .collect();
    if filter.is_none() && limit == usize::MAX {
        // Listed programs without a leftover or mismatch hide nothing (they
        // pass, or are not built and named above).
        let fixed: Vec<String> = known
            .iter()
            .filter(|k| !problems.contains(k))
            .cloned()
            .collect();
        common::assert_none_fixed(&known_list, &fixed);
    }
    assert!(
        report.failures.is_empty() && unexpected.is_empty(),
        "{summary}\npipeline failures: {:?}\nunexpected: {:?}",
        report.failures.iter().take(10).collect::<Vec<_>>(),
        unexpected.iter().take(10).collect::<Vec<_>>()
    );
}
