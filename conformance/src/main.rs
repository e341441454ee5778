//! The `rgl-conformance` command line: `rgl-conformance glslparser PATH...`
//! runs every glslparsertest file under the given paths and prints failures,
//! skips and a closing `N passed, N failed, N skipped` line; see `--help`.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use rgl_conformance::result::{Counts, Status};
use rgl_conformance::{baseline, glslparser, parallel, result, summary, walk};

#[derive(Parser)]
#[command(
    name = "rgl-conformance",
    about = "Runs piglit conformance tests against rgl"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile piglit glslparsertest files and compare with their expect_result.
    Glslparser(GlslparserArgs),
}

#[derive(clap::Args)]
struct GlslparserArgs {
    /// Files or folders (walked recursively, in sorted order).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also print a line for every passing test.
    #[arg(long)]
    verbose: bool,
    /// Write every result (path, id, status, reason, duration) to this JSON file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Compare with this list of passing test ids; exit non-zero if any of them no longer passes.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Rewrite the --baseline file from this run instead of failing on regressions.
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Print pass/fail/skip counts per spec folder.
    #[arg(long)]
    summary: bool,
    /// Number of compile threads.
    #[arg(long, short = 'j', default_value_t = 2)]
    jobs: usize,
    /// Stop the run (exit status 3) if one test compiles for longer than this many seconds (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    timeout: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Glslparser(args) => run_glslparser(args),
    }
}

fn run_glslparser(args: GlslparserArgs) -> ExitCode {
    let start = Instant::now();
    let files = match walk::walk(&args.paths, glslparser::is_candidate) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let roots: BTreeSet<String> = args.paths.iter().map(|p| walk::root_name(p)).collect();
    let options = parallel::Options {
        jobs: args.jobs,
        timeout: (args.timeout > 0).then(|| Duration::from_secs(args.timeout)),
    };
    let results = glslparser::run_all(&files, options);

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in &results {
        if r.status != Status::Pass || args.verbose {
            let _ = writeln!(out, "{}", r.line());
            if !r.detail.is_empty() {
                let _ = out.flush();
                eprintln!("{}", r.detail);
            }
        }
    }
    if args.summary {
        let _ = write!(out, "{}", summary::render(&results));
    }

    let mut exit = ExitCode::SUCCESS;
    let counts = Counts::of(&results);
    if let Some(json_path) = &args.json {
        if let Err(e) = std::fs::write(json_path, result::to_json(&results)) {
            eprintln!("error: cannot write {}: {e}", json_path.display());
            exit = ExitCode::from(2);
        }
    }
    match &args.baseline {
        Some(baseline_path) => {
            let old = match baseline::read(baseline_path) {
                Ok(old) => old,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", baseline_path.display());
                    return ExitCode::from(2);
                }
            };
            let comparison = baseline::compare(&old, &results, &roots);
            for regression in &comparison.regressions {
                let _ = writeln!(out, "REGRESSION {}: {}", regression.id, regression.what);
            }
            if args.update_baseline {
                let new = baseline::updated(&old, &results, &roots);
                match baseline::write(baseline_path, &new) {
                    Ok(()) => eprintln!(
                        "baseline {} rewritten: {} passing tests ({} before)",
                        baseline_path.display(),
                        new.len(),
                        old.len()
                    ),
                    Err(e) => {
                        eprintln!("error: cannot write {}: {e}", baseline_path.display());
                        exit = ExitCode::from(2);
                    }
                }
            } else {
                if !comparison.regressions.is_empty() {
                    eprintln!(
                        "error: {} test(s) listed in {} no longer pass (see REGRESSION lines)",
                        comparison.regressions.len(),
                        baseline_path.display()
                    );
                    exit = ExitCode::FAILURE;
                }
                if !comparison.new_passes.is_empty() {
                    eprintln!(
                        "{} test(s) pass but are not in the baseline; record them with --update-baseline",
                        comparison.new_passes.len()
                    );
                }
            }
            if comparison.not_run > 0 {
                eprintln!(
                    "note: {} baseline entries are under roots this run did not cover",
                    comparison.not_run
                );
            }
        }
        None if counts.failed > 0 => exit = ExitCode::FAILURE,
        None => {}
    }
    eprintln!(
        "ran {} tests in {:.1} s on {} thread(s)",
        results.len(),
        start.elapsed().as_secs_f64(),
        args.jobs
    );
    let _ = writeln!(out, "{counts}");
    let _ = out.flush();
    exit
}
