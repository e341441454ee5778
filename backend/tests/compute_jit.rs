//! Compute shaders on the JIT (`ComputeEngine::Jit`, GL 4.3 §19): the NIR
//! shaders of `tests/compute/*.nir` compile to native code
//! (`rgl_backend::compute::jit_build`) and leave, on the JIT, exactly the
//! buffers the lane interpreter and the reference interpreter leave, from
//! inputs made here; an endless loop stops at the budget on every engine.

use std::path::PathBuf;

use rgl_backend::compute::{jit_build, ComputeEngine};
use rgl_backend::driver::{BufferRange, ComputeDispatch};
use rgl_backend::{Driver, Error, SoftDriver};

const ENGINES: [ComputeEngine; 3] = [
    ComputeEngine::Jit,
    ComputeEngine::Lanes,
    ComputeEngine::Reference,
];

fn nir(file: &str) -> rgl_nir::ir::Shader {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compute")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("read test shader");
    let mut nir = rgl_nir::reader::parse_shader(&text).expect("parse");
    // What the link pipeline does before a driver sees a compute shader.
    use rgl_nir::passes::Pass;
    rgl_nir::passes::lower_compute_system_values::LowerComputeSystemValues
        .run(&mut nir)
        .expect("lower_compute_system_values");
    rgl_nir::validate::validate(&nir).expect("valid");
    nir
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `file` on `engine` over buffers holding `inputs` (each bound whole
/// at its index), `groups` workgroups on `threads` threads; returns the
/// buffers' words afterwards, or the dispatch error.
fn run(
    engine: ComputeEngine,
    file: &str,
    inputs: &[Vec<u32>],
    groups: [u32; 3],
    threads: usize,
    budget: Option<u64>,
) -> Result<Vec<Vec<u32>>, Error> {
    let mut d = SoftDriver::new(threads);
    d.set_compute_engine(engine);
    if let Some(b) = budget {
        d.set_instruction_budget(b);
    }
    let sh = d.create_compute_shader(&nir(file)).expect("compute shader");
    let bufs: Vec<_> = inputs
        .iter()
        .map(|w| d.create_buffer(&bytes(w)).expect("buffer"))
        .collect();
    let storage = bufs
        .iter()
        .zip(inputs)
        .map(|(b, w)| {
            Some(BufferRange {
                buffer: *b,
                offset: 0,
                size: w.len() as u64 * 4,
            })
        })
        .collect();
    let dispatch = ComputeDispatch {
        groups,
        storage,
        ..Default::default()
    };
    d.dispatch_compute(sh, &dispatch)?;
    Ok(bufs
        .iter()
        .zip(inputs)
        .map(|(b, w)| {
            d.read_buffer(*b, 0, w.len() as u64 * 4)
                .expect("read back")
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect())
}

/// Every test shader compiles on the JIT (where the host has one).
#[test]
fn the_jit_compiles_the_test_shaders() {
    if !rgl_backend::jit::host_supported() {
        return;
    }
    for f in ["reduce64.nir", "bounds.nir", "endless.nir"] {
        jit_build(&nir(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

/// `reduce64.nir` (barriers between the tree steps of a 64-invocation
/// workgroup, four batches each; then a contended `atomicAdd`) on one
/// thread: every engine leaves the same buffers, the sums are right.
#[test]
fn reduction_agrees_on_every_engine() {
    let input: Vec<u32> = (0..512u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let inputs = vec![input.clone(), vec![0; 17]];
    let results: Vec<_> = ENGINES
        .iter()
        .map(|e| run(*e, "reduce64.nir", &inputs, [8, 1, 1], 1, None).expect("dispatch"))
        .collect();
    for g in 0..8 {
        let sum = input[g * 64..(g + 1) * 64]
            .iter()
            .fold(0u32, |a, b| a.wrapping_add(*b));
        assert_eq!(results[0][1][g], sum, "workgroup {g} on the JIT");
    }
    assert_eq!(results[0], results[1], "JIT and lanes");
    assert_eq!(results[0], results[2], "JIT and reference");
}

/// The same on two threads: the atomic tickets are a permutation (atomic
/// across threads), the sums the same.
#[test]
fn reduction_atomics_on_two_threads() {
    let input: Vec<u32> = (0..512u32).map(|i| i * 7 + 3).collect();
    let inputs = vec![input.clone(), vec![0; 17]];
    let r = run(
        ComputeEngine::Jit,
        "reduce64.nir",
        &inputs,
        [8, 1, 1],
        2,
        None,
    )
    .expect("dispatch");
    assert_eq!(r[1][16], 512);
    let mut t = r[0].clone();
    t.sort_unstable();
    assert_eq!(t, (0..512).collect::<Vec<u32>>());
}

/// `bounds.nir`: size, dropped far store, unbound block, dropped far atomic.
#[test]
fn bounds_checks_agree() {
    let inputs = vec![vec![0xffff_ffffu32; 4]];
    let jit = run(
        ComputeEngine::Jit,
        "bounds.nir",
        &inputs,
        [1, 1, 1],
        1,
        None,
    )
    .unwrap();
    assert_eq!(jit[0], vec![16, 0, 0, 0]);
    let lanes = run(
        ComputeEngine::Lanes,
        "bounds.nir",
        &inputs,
        [1, 1, 1],
        1,
        None,
    )
    .unwrap();
    assert_eq!(jit, lanes);
}

/// `endless.nir` stops at the budget with the same error on every engine.
#[test]
fn endless_loop_hits_the_budget() {
    for e in ENGINES {
        let r = run(e, "endless.nir", &[vec![0]], [3, 1, 1], 1, Some(100_000));
        assert_eq!(r, Err(Error::BudgetExceeded(100_000)), "{e:?}");
    }
}
