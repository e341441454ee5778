//! Differential test of compute shaders on the JIT (GL 4.3 §19): every
//! `.shader_test` with a `[compute shader]` under the GL 4.x corpus folders
//! (`../shared/corpus/piglit-gl4/tests/spec/{arb_compute_shader,
//! arb_shader_storage_buffer_object, arb_shader_atomic_counters, ...}`) is
//! compiled and linked through the NIR pipeline, the compute stage finalized,
//! and dispatched on the software driver's three compute engines: the JIT
//! ([`ComputeEngine::Jit`]), the lane interpreter and the reference
//! interpreter (`rgl_nir::eval`).
//!
//! Each shader runs twice (2×1×1 and 3×2×1 workgroups) over deterministic
//! pseudo-random storage buffers bound at every storage block the shader
//! addresses (atomic counter buffers included, as the binding space of
//! `rgl_nir::options::storage_bindings`), with its uniforms zero, on one
//! thread (so the order of atomics is the same on every engine). The JIT and
//! the lane interpreter must leave the same bytes (or fail with the same
//! error); so must the reference interpreter where it runs the shader (it
//! has no images or textures). The test fails on any mismatch or panic, and
//! when the corpus is missing under `CI=true`. It prints the counts, the
//! programs that did not compile or link, and every shader the JIT refused
//! (with its reason, from [`rgl_backend::compute::jit_build`]).
//!
//! The compute programs of rgl's own tests (`state/tests/compute*/*.comp`)
//! run the same way, as `[compute shader]` sections.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rgl_backend::compute::{jit_build, ComputeEngine};
use rgl_backend::driver::{BufferRange, ComputeDispatch};
use rgl_backend::{Driver, Error, SoftDriver};
use rgl_conformance::shader_test::program as test_program;
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::{InstrKind, Shader, Stage};
use rgl_nir::passes::Runner;

/// Folders of the GL 4.x corpus whose tests may hold compute shaders.
const FOLDERS: &[&str] = &[
    "arb_compute_shader",
    "arb_shader_storage_buffer_object",
    "arb_shader_atomic_counters",
    "arb_shader_atomic_counter_ops",
    "arb_shader_image_load_store",
    "nv_shader_atomic_float",
    "intel_shader_atomic_float_minmax",
    "arb_shader_ballot",
    "arb_shader_group_vote",
    "arb_shader_clock",
    "glsl-es-3.10",
    "glsl-4.30",
    "glsl-4.40",
    "glsl-4.50",
];

/// Programs whose invocations race on one storage word without
/// synchronisation when their uniforms are zero (every invocation stores to
/// and reads `data[0]`): GLSL 4.30 §4.10 leaves the order of such accesses
/// undefined, and the lane engines run a batch statement by statement while
/// the reference interpreter runs invocations one after another. JIT and
/// lanes are still compared on them.
const RACY: &[&str] = &["compute_jit/bounds.comp"];

/// Words of each bound storage buffer.
const BUFFER_WORDS: usize = 1024;
/// The instruction budget of each dispatch (an endless loop stops here on
/// every engine).
const BUDGET: u64 = 4_000_000;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "shader_test") {
            out.push(p);
        }
    }
}

/// The storage blocks `nir` addresses: every constant block index of a
/// storage intrinsic; all of `0..8` and the first 8 counter blocks when one
/// is dynamic.
fn storage_blocks(nir: &Shader) -> BTreeSet<u32> {
    use IntrinsicOp as I;
    let mut out = BTreeSet::new();
    let mut dynamic = false;
    for (_, f) in nir.functions.iter() {
        let Some(body) = &f.body else { continue };
        for (_, ins) in body.instrs.iter() {
            let InstrKind::Intrinsic(intr) = &ins.kind else {
                continue;
            };
            let src = match intr.op {
                I::load_ssbo | I::ssbo_atomic | I::ssbo_atomic_swap | I::get_ssbo_size => 0,
                I::store_ssbo => 1,
                _ => continue,
            };
            match intr
                .srcs
                .get(src)
                .and_then(|d| body.const_value(*d))
                .and_then(|v| v.first().copied())
            {
                Some(b) if (b as u32) < 64 => {
                    out.insert(b as u32);
                }
                _ => dynamic = true,
            }
        }
    }
    if dynamic {
        let base = rgl_nir::options::storage_bindings::ATOMIC_COUNTER_BLOCK_BASE;
        out.extend(0..8);
        out.extend(base..base + 8);
    }
    out
}

/// The buffers' words after one dispatch of `nir` on `engine`, or its error.
fn run(
    engine: ComputeEngine,
    nir: &Shader,
    blocks: &BTreeSet<u32>,
    groups: [u32; 3],
    seed: u64,
) -> Result<Vec<Vec<u8>>, Error> {
    let mut d = SoftDriver::new(1);
    d.set_compute_engine(engine);
    d.set_instruction_budget(BUDGET);
    let sh = d.create_compute_shader(nir)?;
    let mut rng = Rng(seed | 1);
    let n = blocks.iter().max().map_or(0, |m| *m as usize + 1);
    let mut storage = vec![None; n];
    let mut bufs = Vec::new();
    for &b in blocks {
        // Small words, so data-dependent loops and indices stay in range
        // as often as not.
        let bytes: Vec<u8> = (0..BUFFER_WORDS)
            .flat_map(|_| (rng.next() % 64).to_le_bytes())
            .collect();
        let h = d.create_buffer(&bytes)?;
        storage[b as usize] = Some(BufferRange {
            buffer: h,
            offset: 0,
            size: bytes.len() as u64,
        });
        bufs.push(h);
    }
    let dispatch = ComputeDispatch {
        groups,
        storage,
        ..Default::default()
    };
    d.dispatch_compute(sh, &dispatch)?;
    bufs.iter()
        .map(|h| d.read_buffer(*h, 0, BUFFER_WORDS as u64 * 4))
        .collect()
}

#[derive(Default)]
struct Counts {
    files: usize,
    programs: usize,
    shaders: usize,
    jit_built: usize,
    dispatches: usize,
    eval_compared: usize,
    errors: usize,
}

#[test]
fn jit_compute_matches_the_interpreters() {
    let corpus =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/piglit-gl4/tests/spec");
    let mut all = Vec::new();
    for sub in FOLDERS {
        files(&corpus.join(sub), &mut all);
    }
    let own = own_programs();
    if all.is_empty() {
        assert!(own.len() > 5, "rgl's own compute programs are missing");
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "jit_compute_diff: no corpus at {} (CI=true: the corpus must be there)",
            corpus.display()
        );
        eprintln!("jit_compute_diff: no corpus at {}", corpus.display());
        return;
    }
    if !rgl_backend::jit::host_supported() {
        eprintln!("jit_compute_diff: the JIT does not run on this host: nothing compared");
        return;
    }
    let bindings = Bindings {
        attribs: Vec::new(),
        frag_data: Vec::new(),
    };
    let mut counts = Counts::default();
    let mut unlinked = Vec::new();
    let mut refused = Vec::new();
    let mut mismatches = Vec::new();
    let mut panics = Vec::new();
    let corpus_texts = all
        .iter()
        .filter_map(|f| Some((f.clone(), std::fs::read_to_string(f).ok()?)));
    for (fi, (f, text)) in own.into_iter().chain(corpus_texts).enumerate() {
        let f = &f;
        if !text.contains("[compute shader]") {
            continue;
        }
        counts.files += 1;
        let src = match test_program::from_text(&text, f) {
            Ok(src) if src.is_empty() => continue,
            Ok(src) => src,
            Err(_) => {
                unlinked.push(f.clone());
                continue;
            }
        };
        let linked = catch_unwind(AssertUnwindSafe(|| {
            let compiled = test_program::compile_all(&src);
            if compiled.iter().any(|c| !c.success()) {
                return None;
            }
            let refs: Vec<_> = compiled.iter().collect();
            build_program(&refs, &bindings, PipelineOptions::default()).ok()
        }));
        let Ok(Some(linked)) = linked else {
            unlinked.push(f.clone());
            continue;
        };
        counts.programs += 1;
        for st in &linked.stages {
            let Some(mut nir) = st.nir.clone() else {
                continue;
            };
            if nir.stage != Stage::Compute {
                continue;
            }
            if finalize_variant(
                &mut nir,
                &VariantLowering::default(),
                &rgl_nir::options::CompilerOptions::default(),
                &mut Runner::new(),
            )
            .is_err()
            {
                unlinked.push(f.clone());
                continue;
            }
            counts.shaders += 1;
            match jit_build(&nir) {
                Ok(()) => counts.jit_built += 1,
                Err(e) => {
                    refused.push(format!("{}: {e}", f.display()));
                    continue;
                }
            }
            let blocks = storage_blocks(&nir);
            for (k, groups) in [[2, 1, 1], [3, 2, 1]].into_iter().enumerate() {
                let seed = 0x9e37_79b9_7f4a_7c15u64 ^ ((fi as u64) << 8) ^ k as u64;
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let jit = run(ComputeEngine::Jit, &nir, &blocks, groups, seed);
                    let lanes = run(ComputeEngine::Lanes, &nir, &blocks, groups, seed);
                    let eval = run(ComputeEngine::Reference, &nir, &blocks, groups, seed);
                    (jit, lanes, eval)
                }));
                let Ok((jit, lanes, eval)) = r else {
                    panics.push(format!("{} {groups:?}", f.display()));
                    continue;
                };
                counts.dispatches += 1;
                if jit.is_err() {
                    counts.errors += 1;
                }
                if jit != lanes {
                    mismatches.push(format!(
                        "{} {groups:?}: JIT and lanes differ ({})",
                        f.display(),
                        describe(&jit, &lanes)
                    ));
                }
                // The reference interpreter: no images or textures
                // (Unsupported), its budget shared by the dispatch.
                let racy = RACY.iter().any(|r| f.ends_with(r));
                match &eval {
                    _ if racy => {}
                    Err(Error::Unsupported(_)) | Err(Error::BudgetExceeded(_)) => {}
                    _ if matches!(jit, Err(Error::BudgetExceeded(_))) => {}
                    _ => {
                        counts.eval_compared += 1;
                        if jit != eval {
                            mismatches.push(format!(
                                "{} {groups:?}: JIT and eval differ ({})",
                                f.display(),
                                describe(&jit, &eval)
                            ));
                        }
                    }
                }
            }
        }
    }
    println!(
        "jit_compute_diff: {} files with compute shaders, {} programs linked ({} did not compile, link or finalize), {} compute shaders: {} built by the JIT, {} refused; {} dispatches compared with the lanes ({} ended in an error on both), {} with eval; {} mismatches, {} panics",
        counts.files,
        counts.programs,
        unlinked.len(),
        counts.shaders,
        counts.jit_built,
        refused.len(),
        counts.dispatches,
        counts.errors,
        counts.eval_compared,
        mismatches.len(),
        panics.len()
    );
    for u in &unlinked {
        println!("  not built: {}", u.display());
    }
    for r in &refused {
        println!("  JIT refused: {r}");
    }
    for m in &mismatches {
        println!("  MISMATCH: {m}");
    }
    for p in &panics {
        println!("  PANIC: {p}");
    }
    assert!(counts.jit_built > 0, "the JIT built no compute shader");
    assert!(
        mismatches.is_empty() && panics.is_empty(),
        "{} mismatches, {} panics",
        mismatches.len(),
        panics.len()
    );
}

/// rgl's own compute test programs as `.shader_test` texts.
fn own_programs() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in ["compute", "compute_jit"] {
        let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../state/tests")
            .join(dir);
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut paths: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "comp") {
                if let Ok(src) = std::fs::read_to_string(&p) {
                    let text =
                        format!("[require]\nGLSL >= 3.30\n\n[compute shader]\n{src}\n[test]\n");
                    out.push((p, text));
                }
            }
        }
    }
    out
}

/// The first difference between two results.
fn describe(a: &Result<Vec<Vec<u8>>, Error>, b: &Result<Vec<Vec<u8>>, Error>) -> String {
    match (a, b) {
        (Ok(x), Ok(y)) => {
            for (i, (bx, by)) in x.iter().zip(y).enumerate() {
                if let Some(at) = bx.iter().zip(by).position(|(p, q)| p != q) {
                    return format!("buffer {i}, byte {at}: {} vs {}", bx[at], by[at]);
                }
            }
            "buffer counts".into()
        }
        (x, y) => format!("{:?} vs {:?}", x.as_ref().err(), y.as_ref().err()),
    }
}
