//! Data-driven tests of the `.shader_test` parser:
//! * every `tests/shader_test/parse/*.shader_test` fixture is parsed and its
//!   dump (`rgl_conformance::shader_test::dump`) compared with the `.dump` file
//!   next to it (`BLESS=1` rewrites the dumps);
//! * every `.shader_test` file of the shared corpus (read in place from
//!   `$RGL_CORPUS`, default `../shared/corpus` beside the repository) parses
//!   without error, and the parse summary (sections, requirements and
//!   commands with counts, lenient reads) matches
//!   `tests/shader_test/corpus-parse-summary.txt` (`BLESS=1` rewrites it).

use std::path::{Path, PathBuf};

use rgl_conformance::shader_test::{self, stats::ParseStats};
use rgl_conformance::walk;

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| v == "1")
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shader_test")
}

/// `$RGL_CORPUS` (relative paths are taken from the repository root, as
/// `.ci/run` does), else `../shared/corpus` beside the repository.
fn corpus() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match std::env::var_os("RGL_CORPUS") {
        Some(dir) => repo.join(dir),
        None => repo.join("../shared/corpus"),
    }
}

/// Compares `actual` with the file at `path`, or rewrites it under BLESS=1.
/// Returns a description of the mismatch.
fn check_expectation(path: &Path, actual: &str) -> Option<String> {
    if bless() {
        if let Err(e) = std::fs::write(path, actual) {
            return Some(format!("cannot write {}: {e}", path.display()));
        }
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => None,
        Ok(expected) => {
            let first = expected
                .lines()
                .zip(actual.lines())
                .position(|(e, a)| e != a)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            Some(format!(
                "{} differs from the parser's output from line {} (expected {:?}, got {:?}); \
                 review and rerun with BLESS=1",
                path.display(),
                first + 1,
                expected.lines().nth(first).unwrap_or("<end>"),
                actual.lines().nth(first).unwrap_or("<end>")
            ))
        }
        Err(e) => Some(format!(
            "cannot read {} ({e}); run with BLESS=1 to create it",
            path.display()
        )),
    }
}

#[test]
fn fixtures_match_their_dumps() {
    let dir = tests_dir().join("parse");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| shader_test::is_candidate(p))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    let mut failures = Vec::new();
    for fixture in &fixtures {
        let bytes = std::fs::read(fixture).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let parsed = shader_test::parse(&text);
        let dump = shader_test::dump::dump(&parsed);
        if let Some(why) = check_expectation(&fixture.with_extension("dump"), &dump) {
            failures.push(why);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_parses_without_errors() {
    let root = corpus();
    let roots: Vec<PathBuf> = ["piglit", "piglit-geometry", "shader-db"]
        .iter()
        .map(|r| root.join(r))
        .collect();
    for r in &roots {
        assert!(
            r.is_dir(),
            "corpus folder {} is missing (set RGL_CORPUS to the shared corpus)",
            r.display()
        );
    }
    let files = walk::walk(&roots, shader_test::is_candidate)
        .unwrap_or_else(|e| panic!("cannot walk the corpus: {e}"));
    let mut stats = ParseStats::default();
    for file in &files {
        let (text, non_utf8) = shader_test::read(&file.path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.path.display()));
        stats.add(&file.id, &shader_test::parse(&text), non_utf8);
    }
    let summary = stats.render();
    let mismatch = check_expectation(&tests_dir().join("corpus-parse-summary.txt"), &summary);
    assert!(
        stats.errors.is_empty(),
        "{} parse errors over the corpus:\n{}",
        stats.errors.len(),
        stats
            .errors
            .iter()
            .map(|(id, e)| format!("{id}: {e}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(mismatch, None);
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes that matter to the grammar, used to corrupt files.
const MUTATION_BYTES: &[u8] = b"[]()#,.-+0x9e \n\r\tGL_\xff";

fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = text.to_vec();
    for _ in 0..1 + rng.below(8) {
        match rng.below(5) {
            0 => out.truncate(rng.below(out.len() + 1)),
            1 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = MUTATION_BYTES[rng.below(MUTATION_BYTES.len())];
            }
            2 => {
                let i = rng.below(out.len() + 1);
                out.insert(i, MUTATION_BYTES[rng.below(MUTATION_BYTES.len())]);
            }
            3 if !out.is_empty() => {
                let i = rng.below(out.len());
                out.remove(i);
            }
            _ => {
                // Duplicate a slice (a line or a section moves or repeats).
                let a = rng.below(out.len() + 1);
                let b = (a + rng.below(200)).min(out.len());
                let piece = out[a..b].to_vec();
                let at = rng.below(out.len() + 1);
                out.splice(at..at, piece);
            }
        }
    }
    out
}

/// Corrupted corpus files never make the parser panic, and every error it
/// reports names a line of the file.
#[test]
fn mutated_corpus_never_panics() {
    let root = corpus();
    let roots: Vec<PathBuf> = ["piglit", "piglit-geometry", "shader-db"]
        .iter()
        .map(|r| root.join(r))
        .collect();
    let files = walk::walk(&roots, shader_test::is_candidate)
        .unwrap_or_else(|e| panic!("cannot walk the corpus: {e}"));
    assert!(
        !files.is_empty(),
        "no corpus files under {}",
        root.display()
    );
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut mutants = 0usize;
    let mut with_errors = 0usize;
    let mut bad_lines = Vec::new();
    for file in &files {
        let bytes = std::fs::read(&file.path).unwrap_or_default();
        for _ in 0..6 {
            let mutant = mutate(&bytes, &mut rng);
            let text = String::from_utf8_lossy(&mutant);
            let lines = text.split('\n').count() as u32;
            let parsed = shader_test::parse(&text);
            let _ = shader_test::dump::dump(&parsed);
            mutants += 1;
            with_errors += usize::from(!parsed.errors.is_empty());
            for e in parsed.errors.iter().chain(&parsed.warnings) {
                if e.line == 0 || e.line > lines {
                    bad_lines.push(format!("{}: {e} (the mutant has {lines} lines)", file.id));
                }
            }
        }
    }
    assert!(bad_lines.is_empty(), "{}", bad_lines.join("\n"));
    // The mutations must actually exercise the error paths.
    assert!(
        with_errors * 10 > mutants,
        "only {with_errors} of {mutants} mutants had parse errors"
    );
}
