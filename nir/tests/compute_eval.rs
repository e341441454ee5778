//! Workgroup evaluation of compute shaders (`nir::eval::evaluate_workgroup`): the
//! programs in `tests/compute/*.nir` run a whole workgroup, and the storage buffer
//! contents they leave are compared with values worked out by hand from the program
//! (each expectation's derivation is in the comment above it), never with the
//! interpreter's own earlier output.

mod common;

use rgl_nir::eval::{evaluate_workgroup, EvalInput, WorkgroupInput, WorkgroupOutput};

fn run(file: &str, ssbos: Vec<Vec<u32>>, subgroup_size: u32) -> WorkgroupOutput {
    let path = common::tests_dir().join("compute").join(file);
    let text = std::fs::read_to_string(&path).expect("read test shader");
    let shader = rgl_nir::reader::parse_shader(&text).expect("parse");
    rgl_nir::validate::validate(&shader).expect("valid");
    let input = EvalInput {
        ssbos: ssbos
            .iter()
            .map(|words| words.iter().flat_map(|w| w.to_le_bytes()).collect())
            .collect(),
        ..EvalInput::default()
    };
    let wg = WorkgroupInput {
        subgroup_size,
        ..WorkgroupInput::default()
    };
    evaluate_workgroup(&shader, &input, &wg).expect("evaluates")
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// `reduction.nir`: 8 invocations copy `in[idx]` to `s[idx]` (shared), then after a
/// barrier each stride 4, 2, 1 adds `s[idx + stride]` into `s[idx]` for
/// `idx < stride`, with a barrier after each step. Invocation 0 writes `s[0]` to
/// word 0 of buffer 1; every invocation then does `atomicAdd(word 1, 1)` and stores
/// the returned old value at word `2 + idx`, writes once out of bounds (byte 256 of
/// the 44-byte buffer: dropped) and reads there (0), storing that 0 at word 10.
#[test]
fn shared_memory_reduction_with_barriers() {
    let input: Vec<u32> = (1..=8).collect();
    let mut output = vec![0xdead_beef; 11];
    output[1] = 0;
    let out = run("reduction.nir", vec![input.clone(), output], 1);
    let result = words(&out.ssbos[1]);
    // 1 + 2 + ... + 8 = 36; the barriers make every partial sum visible: stride 4
    // gives s[0..4] = 1+5, 2+6, 3+7, 4+8 = 6, 8, 10, 12; stride 2: 16, 20; stride 1:
    // 36.
    assert_eq!(result[0], 36, "sum");
    // Eight increments of a word that starts at 0.
    assert_eq!(result[1], 8, "atomic counter");
    // Each increment returned a distinct old value 0..7.
    let mut olds = result[2..10].to_vec();
    olds.sort_unstable();
    assert_eq!(olds, (0..8).collect::<Vec<u32>>(), "atomic old values");
    // The out-of-bounds read gave 0, which overwrote 0xdeadbeef.
    assert_eq!(result[10], 0, "out-of-bounds read");
    // Buffer 0 is only read.
    assert_eq!(words(&out.ssbos[0]), input);
    // Shared memory ends with the stride-1 step's sums in s[0] and the stride-2
    // step's in s[1] (20); s[2..4] hold the stride-4 sums 10, 12, s[4..8] the inputs.
    assert_eq!(words(&out.shared), vec![36, 20, 10, 12, 5, 6, 7, 8]);
    // Every invocation made one out-of-bounds write and one read.
    for (i, inv) in out.invocations.iter().enumerate() {
        assert_eq!(
            (inv.out_of_bounds, inv.out_of_bounds_writes),
            (2, 1),
            "invocation {i}"
        );
    }
}

/// `subgroups.nir` with 8 invocations in subgroups of 4: invocation `idx` writes 8
/// words at `idx * 8`: ballot(idx odd) (uvec2), vote_all(idx < 4), vote_any(idx odd),
/// read_first_invocation(idx), read_invocation(idx * 10, 3), vote_ieq(idx < 4) and
/// gl_SubGroupGeMaskARB.x.
#[test]
fn subgroup_operations() {
    let out = run("subgroups.nir", vec![vec![0; 64]], 4);
    let result = words(&out.ssbos[0]);
    for idx in 0..8u32 {
        let lane = idx % 4;
        let first = idx / 4 * 4;
        let expected = [
            // Lanes 1 and 3 of each subgroup are odd.
            0b1010,
            0,
            // Subgroup 0 is idx 0..4 (all < 4); subgroup 1 none.
            u32::from(idx < 4),
            1,
            first,
            // Lane 3 of the subgroup holds (first + 3) * 10.
            (first + 3) * 10,
            // idx < 4 is uniform within each subgroup.
            1,
            // Lanes lane..4 of the subgroup.
            0b1111 & !((1u32 << lane) - 1),
        ];
        let at = idx as usize * 8;
        assert_eq!(result[at..at + 8], expected[..], "invocation {idx}");
    }
}

/// Translation validation of the compute lowerings: `sysvals_masks.nir` (16
/// invocations of a 4x2x2 group in subgroups of 8, second workgroup of a 3x1x1
/// dispatch) stores its global id, workgroup size, subgroup size, the five subgroup
/// masks and a ballot; `lower_compute_system_values` and `lower_subgroups` must not
/// change a single byte the workgroup writes.
#[test]
fn compute_lowerings_preserve_results() {
    let path = common::tests_dir()
        .join("compute")
        .join("sysvals_masks.nir");
    let text = std::fs::read_to_string(&path).expect("read test shader");
    let shader = rgl_nir::reader::parse_shader(&text).expect("parse");
    rgl_nir::validate::validate(&shader).expect("valid");
    let input = EvalInput {
        ssbos: vec![vec![0xaa; 16 * 128]],
        ..EvalInput::default()
    };
    let wg = WorkgroupInput {
        workgroup_id: [1, 0, 0],
        num_workgroups: [3, 1, 1],
        subgroup_size: 8,
        ..WorkgroupInput::default()
    };
    let before = evaluate_workgroup(&shader, &input, &wg).expect("evaluates");
    // Hand-checked spot values: invocation 5 is local id (1, 1, 0), so its global
    // id is (1 * 4 + 1, 1, 0); lane 5 of subgroup 0 has eq mask bit 5, ge mask bits
    // 5..8, lt mask bits 0..5; the odd lanes ballot 0b10101010.
    let w = words(&before.ssbos[0]);
    let at = 5 * 32;
    assert_eq!(w[at..at + 3], [5, 1, 0]);
    assert_eq!(w[at + 3..at + 7], [4, 2, 2, 8]);
    assert_eq!(w[at + 7..at + 9], [1 << 5, 0]);
    assert_eq!(w[at + 9..at + 11], [0b1110_0000, 0]);
    assert_eq!(w[at + 15..at + 17], [0b1_1111, 0]);
    assert_eq!(w[at + 17], 0b1010_1010);
    for (pass, args) in [
        ("lower_compute_system_values", ""),
        ("lower_subgroups", "subgroup_size=8 ballot_components=1"),
    ] {
        let mut lowered = shader.clone();
        let p = rgl_nir::passes::build_pass(pass, args).expect("pass");
        assert!(rgl_nir::passes::run_pass(p.as_ref(), &mut lowered).expect("runs"));
        let after = evaluate_workgroup(&lowered, &input, &wg).expect("evaluates");
        assert_eq!(before.ssbos, after.ssbos, "{pass} changed the results");
    }
}
