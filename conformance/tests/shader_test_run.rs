//! The full runner end to end: `rgl-conformance shader-test` is run as a
//! program over the hand-written files of `tests/shader_test/run/` and the
//! corpus files listed in `tests/shader_test/run/corpus.txt`, each file in its
//! own child process.
//!
//! What the runner itself must do is asserted here: every file gets a result,
//! a child that aborts, panics or hangs fails its file (naming the signal, the
//! panic, the timeout) while the rest of the run goes on, a shader that never
//! ends fails and does not hang, `--in-process` agrees with the child
//! processes, and `--peer host` either runs the files on the host GL (where
//! the hand-written files must pass, except the `expect-fail-*` ones and the
//! `fault-*` ones with a fault injected, which must fail) or says that EGL is missing
//! and skips.
//!
//! What depends on rgl's pixels (the status and messages of every file) is
//! compared with `tests/shader_test/run/expected.txt`; `BLESS=1` rewrites it,
//! e.g. once the software driver can run shaders.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rgl_conformance::shader_test::isolate::{parse_flat_object, status_named, FAULT_ENV};

/// Every fault injected (see `isolate.rs`).
const FAULTS: &str = "abort:fault-abort,panic:fault-panic,hang:fault-hang";
/// The faults that end a child at once (no timeout to wait for).
const QUICK_FAULTS: &str = "abort:fault-abort,panic:fault-panic";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Number of hand-written `.shader_test` files in [`run_dir`].
fn fixture_count() -> usize {
    std::fs::read_dir(run_dir())
        .expect("fixtures folder")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "shader_test"))
        .count()
}

fn run_dir() -> PathBuf {
    manifest_dir().join("tests/shader_test/run")
}

/// `$RGL_CORPUS` (relative paths are taken from the repository root, as
/// `.ci/run` does), else `../shared/corpus` beside the repository.
fn corpus_dir() -> PathBuf {
    let repo = manifest_dir().join("..");
    match std::env::var_os("RGL_CORPUS") {
        Some(dir) => repo.join(dir),
        None => repo.join("../shared/corpus"),
    }
}

/// The corpus files of the test (one path below the corpus per line).
fn corpus_files() -> Vec<PathBuf> {
    let list = std::fs::read_to_string(run_dir().join("corpus.txt")).expect("corpus.txt");
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| corpus_dir().join(l))
        .collect()
}

/// One result of a `--json` file.
#[derive(Debug)]
struct Row {
    id: String,
    status: String,
    reason: String,
    detail: String,
}

struct Run {
    rows: Vec<Row>,
    stdout: String,
    elapsed: Duration,
}

fn run(args: &[&str], paths: &[PathBuf], faults: &str) -> Run {
    let json = std::env::temp_dir().join(format!(
        "rgl-shader-test-run-{}-{}.json",
        std::process::id(),
        args.join("_").replace(['/', ' '], "")
    ));
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_rgl-conformance"))
        .arg("shader-test")
        .args(args)
        .arg("--json")
        .arg(&json)
        .args(paths)
        .env(FAULT_ENV, faults)
        .output()
        .expect("run rgl-conformance");
    let elapsed = start.elapsed();
    let text = std::fs::read_to_string(&json).expect("the --json file");
    let _ = std::fs::remove_file(&json);
    let rows = text
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .map(|l| {
            let fields = parse_flat_object(l).unwrap_or_else(|| panic!("bad JSON line {l}"));
            let get = |k: &str| {
                fields
                    .iter()
                    .find(|(key, _)| key == k)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            };
            Row {
                id: get("id"),
                status: get("status"),
                reason: get("reason"),
                detail: get("detail"),
            }
        })
        .collect();
    Run {
        rows,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        elapsed,
    }
}

fn row<'r>(run: &'r Run, id: &str) -> &'r Row {
    run.rows
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no result for {id}"))
}

/// The blessed form of a run: status and messages of every file but the
/// fault-injection ones (whose messages name source lines of the runner). The
/// endless shader's file keeps only its status: whether the budget or the
/// timeout ends it first depends on the machine's load.
fn render(run: &Run) -> String {
    let mut out = String::from(
        "# rgl-conformance shader-test over tests/shader_test/run and corpus.txt:\n\
         # status, reason and every message of each file. BLESS=1 rewrites this file.\n",
    );
    for r in run.rows.iter().filter(|r| !r.id.contains("fault-")) {
        out.push_str(&format!("{} {}\n", r.status.to_uppercase(), r.id));
        let messages = if r.detail.is_empty() {
            r.reason.clone()
        } else {
            r.detail.clone()
        };
        if r.id.ends_with("expect-fail-infinite-loop.shader_test") {
            continue;
        }
        for m in messages.lines().filter(|m| !m.is_empty()) {
            out.push_str(&format!("    {m}\n"));
        }
    }
    out
}

fn compare_or_bless(path: &Path, actual: &str) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, actual).expect("write the expected file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from this run at line {} (BLESS=1 rewrites it):\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            first + 1,
            expected.lines().skip(first).take(8).collect::<Vec<_>>().join("\n"),
            actual.lines().skip(first).take(8).collect::<Vec<_>>().join("\n")
        );
    }
}

#[test]
fn runs_files_in_isolation_and_matches_expected_results() {
    let mut paths = vec![run_dir()];
    paths.extend(corpus_files());
    let run = run(
        // 8 s: long enough that an ordinary file does not time out on a
        // loaded 2-core machine, short enough to keep the hang cheap.
        &["--timeout", "8", "-j", "2", "--causes", "5"],
        &paths,
        FAULTS,
    );

    // Every file has a result, in input order after the fixtures' folder.
    let corpus = corpus_files();
    assert_eq!(
        run.rows.len(),
        fixture_count() + corpus.len(),
        "{}",
        run.stdout
    );
    for r in &run.rows {
        assert!(status_named(&r.status).is_some(), "{r:?}");
    }

    // Isolation: an aborting child, a panicking one and a hanging one fail
    // their own file, with the cause; the other files still ran.
    let abort = row(&run, "run/fault-abort.shader_test");
    assert_eq!(abort.status, "fail");
    assert!(
        abort.reason.contains("crashed with signal 6 (SIGABRT)")
            && abort.reason.contains("injected abort"),
        "{abort:?}"
    );
    let panic = row(&run, "run/fault-panic.shader_test");
    assert_eq!(panic.status, "fail");
    assert!(
        panic.reason.contains("panicked at") && panic.reason.contains("injected panic"),
        "{panic:?}"
    );
    let hang = row(&run, "run/fault-hang.shader_test");
    assert_eq!(hang.status, "fail");
    assert!(
        hang.reason.starts_with("timeout: killed after 8 s"),
        "{hang:?}"
    );
    // The hang cost one timeout, not the run: well under a timeout per file.
    assert!(
        run.elapsed < Duration::from_secs(60),
        "the run took {:?}",
        run.elapsed
    );

    // A shader that never ends fails (draw error, loop limit or timeout).
    let endless = row(&run, "run/expect-fail-infinite-loop.shader_test");
    assert_eq!(endless.status, "fail", "{endless:?}");

    // The runner's own logic, independent of drawing: clears and every probe
    // form pass; the strict tolerance fails exactly its line and the probe
    // outside the framebuffer; `probe warn` is only a warning; `link error`
    // is met by a failing link.
    assert_eq!(row(&run, "run/clear.shader_test").status, "pass");
    let tolerance = row(&run, "run/expect-fail-tolerance.shader_test");
    assert_eq!(tolerance.status, "fail");
    let failing: Vec<&str> = tolerance
        .detail
        .lines()
        .filter(|l| !l.contains("warning:"))
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(failing, vec!["line 14", "line 18"], "{tolerance:?}");
    assert!(tolerance
        .detail
        .contains("line 17: warning: probe at (0, 0)"));
    assert_eq!(row(&run, "run/link-error.shader_test").status, "pass");

    // --causes prints its table.
    assert!(
        run.stdout.contains("failure causes (rgl)"),
        "{}",
        run.stdout
    );

    compare_or_bless(&run_dir().join("expected.txt"), &render(&run));
}

#[test]
fn in_process_mode_agrees_with_child_processes() {
    let files = [
        run_dir().join("clear.shader_test"),
        run_dir().join("expect-fail-tolerance.shader_test"),
        run_dir().join("draw-rect.shader_test"),
    ];
    let isolated = run(&["--timeout", "10"], &files, QUICK_FAULTS);
    let in_process = run(&["--in-process", "--timeout", "10"], &files, "");
    let summary = |run: &Run| -> Vec<(String, String, String)> {
        run.rows
            .iter()
            .map(|r| (r.id.clone(), r.status.clone(), r.reason.clone()))
            .collect()
    };
    assert_eq!(summary(&isolated), summary(&in_process));
}

#[test]
fn host_peer_runs_the_files_or_skips() {
    // A generous timeout (llvmpipe on a loaded machine) and no hang to wait for.
    let run = run(
        &["--timeout", "20", "--peer", "host"],
        &[run_dir()],
        QUICK_FAULTS,
    );
    let peer_line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("peer host: "))
        .unwrap_or_else(|| panic!("no peer host line in\n{}", run.stdout));
    if peer_line.ends_with("; skipping") {
        assert!(peer_line.contains("EGL not available"), "{peer_line}");
        eprintln!("host peer not checked: {peer_line}");
        return;
    }
    // `  PASS  FAIL  run/x.shader_test` rows: rgl, host, id.
    let host: Vec<(String, String)> = run
        .stdout
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let status = |s: &str| matches!(s, "PASS" | "WARN" | "FAIL" | "SKIP");
            (w.len() == 3 && status(w[0]) && status(w[1]))
                .then(|| (w[2].to_string(), w[1].to_string()))
        })
        .collect();
    assert_eq!(host.len(), fixture_count(), "{}", run.stdout);
    for (id, status) in &host {
        let should_fail = id.contains("/expect-fail-")
            || id.contains("/fault-abort")
            || id.contains("/fault-panic");
        let want = if should_fail { "FAIL" } else { "PASS" };
        assert_eq!(status, want, "host result of {id}:\n{}", run.stdout);
    }
    assert!(run
        .stdout
        .contains("folder (rgl | host: pass warn fail skip)"));
}
