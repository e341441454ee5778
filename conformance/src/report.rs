//! The end of a run, shared by every subcommand: print failure/skip lines
//! (every line with `--verbose`), the per-folder `--summary`, any extra
//! tables of the subcommand, write `--json`,
//! compare with or rewrite the `--baseline`, and print the closing
//! `N passed, N warned, N failed, N skipped` line. Returns the process exit status.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::result::{self, Counts, Status, TestResult};
use crate::{baseline, summary};

/// The reporting options of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Subcommand and mode, named in a rewritten baseline's header.
    pub command: String,
    /// Print passing tests too.
    pub verbose: bool,
    /// Write every result here.
    pub json: Option<PathBuf>,
    /// Compare with this baseline.
    pub baseline: Option<PathBuf>,
    /// Rewrite the baseline instead of failing on regressions.
    pub update_baseline: bool,
    /// Print per-folder counts.
    pub summary: bool,
    /// Worker threads (for the timing line).
    pub jobs: usize,
    /// Text printed after the summary and before the closing line (the
    /// `--peer host` comparison, `--causes`).
    pub extra: String,
}

/// Prints and checks `results` of a run over `roots` started at `start`.
pub fn finish(
    report: &Report,
    results: &[TestResult],
    roots: &BTreeSet<String>,
    start: Instant,
) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in results {
        if r.status != Status::Pass || report.verbose {
            let _ = writeln!(out, "{}", r.line());
            if !r.detail.is_empty() {
                let _ = out.flush();
                eprintln!("{}", r.detail);
            }
        }
    }
    if report.summary {
        let _ = write!(out, "{}", summary::render(results));
    }
    let _ = write!(out, "{}", report.extra);

    let mut exit = ExitCode::SUCCESS;
    let counts = Counts::of(results);
    if let Some(json_path) = &report.json {
        if let Err(e) = std::fs::write(json_path, result::to_json(results)) {
            eprintln!("error: cannot write {}: {e}", json_path.display());
            exit = ExitCode::from(2);
        }
    }
    match &report.baseline {
        Some(baseline_path) => {
            let old = match baseline::read(baseline_path) {
                Ok(old) => old,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", baseline_path.display());
                    return ExitCode::from(2);
                }
            };
            let comparison = baseline::compare(&old, results, roots);
            for regression in &comparison.regressions {
                let _ = writeln!(out, "REGRESSION {}: {}", regression.id, regression.what);
            }
            if report.update_baseline {
                let new = baseline::updated(&old, results, roots);
                match baseline::write(baseline_path, &new, &report.command) {
                    Ok(()) => eprintln!(
                        "baseline {} rewritten: {} passing or warning tests ({} before)",
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
                        "error: {} test(s) listed in {} no longer do as well (see REGRESSION lines)",
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
                if !comparison.new_warns.is_empty() {
                    eprintln!(
                        "{} test(s) warn but are not in the baseline; record them with --update-baseline",
                        comparison.new_warns.len()
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
        report.jobs
    );
    let _ = writeln!(out, "{counts}");
    let _ = out.flush();
    exit
}
