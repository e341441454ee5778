//! Translation validation of the link-time NIR pipeline on compute shaders.
//!
//! Every `tests/tv/compute/*.comp` is compiled, linked and taken through the
//! pipeline ([`rgl_link::pipeline::lower_program`]) with an observer that keeps the
//! shader right after `glsl_to_nir`. That "before" shader gets only the lowering the
//! interpreter needs to run storage blocks and shared memory (`split_var_copies`,
//! `lower_var_copies`, `lower_explicit_io`, whose own file tests live in the nir
//! crate); the final NIR is the "after", which went through inlining, SSA
//! construction, the optimisation loop, `lower_system_values` and
//! `lower_compute_system_values`. Both run a whole workgroup with
//! `rgl_nir::eval::evaluate_workgroup` on [`SEEDS`] seeded inputs (the storage
//! buffers of every binding the program uses, filled with random words; the
//! workgroup's place in a 2x2x1 dispatch; subgroups of 4), and the storage buffers
//! they leave must be byte-identical, and so must the images (4 random 4x4x4
//! images at indices 0..4; the "before" shader reads them through image
//! derefs, the "after" through `lower_io`'s image indices). Shared memory is not compared: the optimiser
//! may remove a shared variable and move the others. A run the original cannot
//! finish (an evaluation error) fails the test, as does any mismatch.

use std::path::{Path, PathBuf};

use rgl_glsl::{compile, CompileOptions, Stage};
use rgl_link::pipeline::{lower_program, PipelineOptions};
use rgl_link::{link_program, Bindings};
use rgl_nir::eval::{evaluate_workgroup, EvalImage, EvalInput, WorkgroupInput};
use rgl_nir::ir::Shader;
use rgl_nir::options::storage_bindings::ATOMIC_COUNTER_BLOCK_BASE;

/// Images at indices 0..4 (4x4, 4 slices), texels of random small words: the
/// image memory the original and the optimized shader both start from.
fn images(rng: &mut Rng) -> Vec<EvalImage> {
    (0..4)
        .map(|_| {
            let mut img = EvalImage::new([4, 4, 4]);
            for t in &mut img.texels {
                *t = [0; 4].map(|_| (rng.next() % 64) as u32);
            }
            img
        })
        .collect()
}

/// xorshift64* generator (the one `tv::chain` uses for the graphics stages).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A float in [-4, 4).
    fn float(&mut self) -> f32 {
        (self.below(1 << 24) as f64 / f64::from(1u32 << 24) * 8.0 - 4.0) as f32
    }
}

/// Random input sets per program.
const SEEDS: u64 = 4;
/// Bytes added past every block's data size, for runtime-sized arrays.
const TAIL_BYTES: usize = 256;

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tv/compute");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/tv/compute")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
        .collect();
    files.sort();
    files
}

/// The "before" and "after" shaders of one program and its buffers' sizes by
/// binding.
fn build(path: &Path) -> Result<(Shader, Shader, Vec<usize>), String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let shader = compile(&source, &CompileOptions::new(Stage::Compute));
    if !shader.success() {
        return Err(format!("does not compile:\n{}", shader.info_log));
    }
    let mut program =
        link_program(&[&shader], &Bindings::default()).map_err(|l| format!("link: {l}"))?;
    let mut before: Option<Shader> = None;
    let mut observer = |_: usize, step: &str, s: &Shader| {
        if step == "glsl_to_nir" {
            before = Some(s.clone());
        }
    };
    lower_program(
        &mut program,
        PipelineOptions {
            observer: Some(&mut observer),
            ..PipelineOptions::default()
        },
    )
    .map_err(|l| format!("pipeline: {l}"))?;
    let mut before = before.ok_or("no glsl_to_nir step")?;
    rgl_nir::passes::run_passes(
        &["split_var_copies", "lower_var_copies", "lower_explicit_io"],
        &mut before,
    )
    .map_err(|e| format!("lowering the original: {e}"))?;
    let after = program.stages[0].nir.clone().ok_or("no final NIR")?;
    let mut sizes = Vec::new();
    for b in program.storage_blocks() {
        let i = b.binding as usize;
        if sizes.len() <= i {
            sizes.resize(i + 1, 0);
        }
        sizes[i] = sizes[i].max(b.data_size as usize + TAIL_BYTES);
    }
    // Atomic counter buffer `k` is storage block `ATOMIC_COUNTER_BLOCK_BASE + k`.
    for b in program.atomic_counter_buffers() {
        let i = (ATOMIC_COUNTER_BLOCK_BASE + b.binding) as usize;
        if sizes.len() <= i {
            sizes.resize(i + 1, 0);
        }
        sizes[i] = sizes[i].max(b.data_size as usize);
    }
    Ok((before, after, sizes))
}

/// Random buffer contents: half small integers (array indices, counters), half
/// floats.
fn buffers(sizes: &[usize], rng: &mut Rng) -> Vec<Vec<u8>> {
    sizes
        .iter()
        .map(|&n| {
            (0..n / 4)
                .flat_map(|_| {
                    let w = if rng.below(2) == 0 {
                        rng.below(8) as u32
                    } else {
                        rng.float().to_bits()
                    };
                    w.to_le_bytes()
                })
                .collect()
        })
        .collect()
}

fn first_difference(a: &[Vec<u8>], b: &[Vec<u8>]) -> String {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if let Some(at) = (0..x.len().min(y.len())).find(|&k| x[k] != y[k]) {
            let word = |v: &[u8]| {
                let s = at / 4 * 4;
                u32::from_le_bytes([v[s], v[s + 1], v[s + 2], v[s + 3]])
            };
            return format!(
                "binding {i} byte {}: original {:#010x}, optimized {:#010x}",
                at / 4 * 4,
                word(x),
                word(y)
            );
        }
    }
    format!("buffer counts or sizes differ: {} / {}", a.len(), b.len())
}

fn word(buf: &[u8], byte: usize) -> u32 {
    buf.get(byte..byte + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// What `reduction.comp` must leave, worked out from its source rather than by the
/// interpreter: invocation `(x, y)` of workgroup `(wx, wy)` reads
/// `values[(wx * 8 + x + (wy * 2 + y) * 16) & 63] & 255`, the group adds the 16
/// values to `total` (byte 0 of binding 1); `order[0..16]` (from byte 4) is a
/// permutation of 0..15 (the shared counter's old values); `ids[i]` (std430 uvec3
/// array at byte 80, stride 16) is `wg_id * 100 + num_groups * 10 + local_id` of
/// invocation `i < 4`, whose local id is `(i, 0, 0)`.
fn check_reduction(
    input: &[Vec<u8>],
    output: &[Vec<u8>],
    wg: &WorkgroupInput,
) -> Result<(), String> {
    let (src, before, after) = (&input[0], &input[1], &output[1]);
    let mut sum = 0u32;
    for y in 0..2 {
        for x in 0..8 {
            let g = wg.workgroup_id[0] * 8 + x + (wg.workgroup_id[1] * 2 + y) * 16;
            sum = sum.wrapping_add(word(src, (g as usize & 63) * 4) & 255);
        }
    }
    let total = word(before, 0).wrapping_add(sum);
    if word(after, 0) != total {
        return Err(format!("total {} instead of {total}", word(after, 0)));
    }
    let mut order: Vec<u32> = (0..16).map(|i| word(after, 4 + 4 * i)).collect();
    order.sort_unstable();
    if order != (0..16).collect::<Vec<u32>>() {
        return Err(format!("order is not a permutation of 0..15: {order:?}"));
    }
    for i in 0..4u32 {
        for c in 0..3 {
            let local = if c == 0 { i } else { 0 };
            let want = wg.workgroup_id[c] * 100 + wg.num_workgroups[c] * 10 + local;
            let got = word(after, 80 + 16 * i as usize + 4 * c);
            if got != want {
                return Err(format!("ids[{i}][{c}] = {got}, expected {want}"));
            }
        }
    }
    Ok(())
}

/// What `counters.comp` must leave, worked out from its source: counter buffer
/// 0 (block `ATOMIC_COUNTER_BLOCK_BASE`) holds `inc` (byte 0), `dec` (4) and
/// `grid[2][3]` (8..32). The 8 invocations
/// increment `inc` (their old values, `olds`, are a permutation of
/// `inc0..inc0 + 8`), decrement `dec` (`decs` are the new values
/// `dec0 - 8..dec0`) and increment `grid[i % 2][i % 3]` once each; after the
/// barrier every `reads[i]` is `grid[1][2]`, incremented by invocation 5 only.
fn check_counters(input: &[Vec<u8>], output: &[Vec<u8>]) -> Result<(), String> {
    let base = ATOMIC_COUNTER_BLOCK_BASE as usize;
    let (out, c0_in, c0) = (&output[0], &input[base], &output[base]);
    let (inc0, dec0) = (word(c0_in, 0), word(c0_in, 4));
    if word(c0, 0) != inc0.wrapping_add(8) || word(c0, 4) != dec0.wrapping_sub(8) {
        return Err(format!(
            "inc/dec end at {}/{}, from {inc0}/{dec0}",
            word(c0, 0),
            word(c0, 4)
        ));
    }
    let mut olds: Vec<u32> = (0..8).map(|i| word(out, 4 * i)).collect();
    let mut decs: Vec<u32> = (0..8).map(|i| word(out, 32 + 4 * i)).collect();
    olds.sort_unstable();
    decs.sort_unstable();
    let mut want_olds: Vec<u32> = (0..8).map(|k| inc0.wrapping_add(k)).collect();
    let mut want_decs: Vec<u32> = (1..=8).map(|k| dec0.wrapping_sub(k)).collect();
    want_olds.sort_unstable();
    want_decs.sort_unstable();
    if olds != want_olds || decs != want_decs {
        return Err(format!("olds {olds:?} / decs {decs:?} from {inc0}/{dec0}"));
    }
    for a in 0..2u32 {
        for b in 0..3u32 {
            let hits = (0..8u32).filter(|i| i % 2 == a && i % 3 == b).count() as u32;
            let at = 8 + 4 * (a * 3 + b) as usize;
            if word(c0, at) != word(c0_in, at).wrapping_add(hits) {
                return Err(format!("grid[{a}][{b}] = {}", word(c0, at)));
            }
        }
    }
    let read = word(c0_in, 28).wrapping_add(1);
    if let Some(i) = (0..8).find(|i| word(out, 64 + 4 * i) != read) {
        return Err(format!(
            "reads[{i}] = {}, expected {read}",
            word(out, 64 + 4 * i)
        ));
    }
    Ok(())
}

#[test]
fn compute_translation_validation() {
    let files = inputs();
    assert!(!files.is_empty(), "no compute inputs");
    let mut failures = Vec::new();
    let mut evaluations = 0;
    for path in &files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let (before, after, sizes) = match build(path) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for seed in 0..SEEDS {
            let mut rng = Rng::new(seed.wrapping_add(0x5eed));
            let input = EvalInput {
                ssbos: buffers(&sizes, &mut rng),
                images: images(&mut rng),
                ..EvalInput::default()
            };
            let wg = WorkgroupInput {
                workgroup_id: [(seed % 2) as u32, (seed / 2 % 2) as u32, 0],
                num_workgroups: [2, 2, 1],
                subgroup_size: 4,
                ..WorkgroupInput::default()
            };
            let original = match evaluate_workgroup(&before, &input, &wg) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{name} seed {seed}: the original fails: {e}"));
                    continue;
                }
            };
            let optimized = match evaluate_workgroup(&after, &input, &wg) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{name} seed {seed}: the optimized fails: {e}"));
                    continue;
                }
            };
            evaluations += 1;
            if name == "counters.comp" {
                if let Err(e) = check_counters(&input.ssbos, &original.ssbos) {
                    failures.push(format!("{name} seed {seed}: {e}"));
                }
            }
            if name == "counter_ops.comp" {
                // `ops[0]` (byte 4 of counter buffer 1) loses 0 + 1 + ... + 7
                // through the function taking the counter.
                let at = ATOMIC_COUNTER_BLOCK_BASE as usize + 1;
                let (was, now) = (word(&input.ssbos[at], 4), word(&original.ssbos[at], 4));
                if now != was.wrapping_sub(28) {
                    failures.push(format!("{name} seed {seed}: ops[0] {now}, from {was}"));
                }
            }
            if name == "reduction.comp" {
                if let Err(e) = check_reduction(&input.ssbos, &original.ssbos, &wg) {
                    failures.push(format!("{name} seed {seed}: {e}"));
                }
            }
            let written = optimized.ssbos != input.ssbos || optimized.images != input.images;
            if !written {
                failures.push(format!("{name} seed {seed}: the workgroup wrote nothing"));
            }
            if original.images != optimized.images {
                failures.push(format!("{name} seed {seed}: the images differ"));
            }
            if original.ssbos != optimized.ssbos {
                failures.push(format!(
                    "{name} seed {seed}: {}",
                    first_difference(&original.ssbos, &optimized.ssbos)
                ));
            }
        }
    }
    println!(
        "compute translation validation: {} programs, {evaluations} workgroup evaluations, {} failures",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
