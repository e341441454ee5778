//! Compute dispatch through the GL API: the programs in `tests/compute/*.comp`
//! are compiled, linked and dispatched on a context, and the storage buffers
//! they leave are read back with `glGetBufferSubData` and compared with values
//! worked out from the inputs here (sums, ticket permutations, range sizes,
//! dispatch counts), never with rgl's own earlier output.

mod common;

use rgl_backend::compute::ComputeEngine;
use rgl_state::{gl, Context};

/// A context on each compute engine of the software driver: the lane programs
/// (the default) and the reference interpreter. Every test runs on both.
fn contexts() -> impl Iterator<Item = Context> {
    [ComputeEngine::Lanes, ComputeEngine::Reference]
        .into_iter()
        .map(common::compute_context)
}

use common::compute_program as program;

/// `reduce.comp` over 4 workgroups of 128 invocations (larger than a lane
/// group): each workgroup's sum needs every barrier of the tree, and the
/// 512 `atomicAdd` tickets must be a permutation of 0..512.
#[test]
fn shared_memory_reduction_and_contended_atomics() {
    for mut c in contexts() {
        program(&mut c, "reduce.comp");
        let input: Vec<u32> = (0..512u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> 16)
            .collect();
        let values = common::words_buffer(&mut c, &input);
        let output = common::words_buffer(&mut c, &[0; 5]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(values));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(output));
        c.dispatch_compute(4, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let out = common::read_words(&mut c, output, 5);
        assert_eq!(out[0], 512, "tickets");
        for g in 0..4 {
            let sum: u32 = input[g * 128..(g + 1) * 128].iter().sum();
            assert_eq!(out[1 + g], sum, "workgroup {g}");
        }
        let mut tickets = common::read_words(&mut c, values, 512);
        tickets.sort_unstable();
        assert_eq!(tickets, (0..512).collect::<Vec<u32>>());
    }
}

/// `bounds.comp` on bytes 32..48 of a 64-byte buffer through
/// `glBindBufferRange`: the far write and the write just past the end are
/// dropped, the far read and atomic give 0, and no byte outside the range
/// changes.
#[test]
fn storage_accesses_are_bounds_checked() {
    for mut c in contexts() {
        let p = program(&mut c, "bounds.comp");
        let loc = c.get_uniform_location(p, "far");
        c.uniform_1_u32(loc.as_ref(), 1000);
        let b = common::words_buffer(&mut c, &[0xaaaa_aaaa; 16]);
        c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 2, Some(b), 32, 16);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let w = common::read_words(&mut c, b, 16);
        assert_eq!(&w[..8], &[0xaaaa_aaaa; 8], "before the range");
        assert_eq!(
            &w[8..12],
            &[1, 0, 0xaaaa_aaaa, 0xaaaa_aaaa],
            "far read + 1, far atomic"
        );
        assert_eq!(&w[12..], &[0xaaaa_aaaa; 4], "after the range");
    }
}

/// `endless.comp`: the dispatch stops at the instruction budget with
/// `GL_INVALID_OPERATION` and a reason the application can read, and the
/// context keeps working.
#[test]
fn an_endless_loop_stops_at_the_budget() {
    for e in [ComputeEngine::Lanes, ComputeEngine::Reference] {
        let mut driver = rgl_backend::SoftDriver::new(2);
        driver.set_instruction_budget(200_000);
        driver.set_compute_engine(e);
        let mut c = Context::with_driver(Box::new(driver), 8, 8);
        program(&mut c, "endless.comp");
        let b = common::words_buffer(&mut c, &[1]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        let why = c.last_draw_error().expect("a reason");
        assert!(why.contains("instruction budget"), "{why}");
        program(&mut c, "ids.comp");
        let out = common::words_buffer(&mut c, &[0; 8]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 5, Some(out));
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        assert_eq!(&common::read_words(&mut c, out, 8)[..4], &[1, 1, 1, 1]);
    }
}

/// `glDispatchComputeIndirect` reads the counts at the offset of the
/// `GL_DISPATCH_INDIRECT_BUFFER`; every invocation of the 2×3×1 grid of
/// 2×2 workgroups is hit exactly once. Then the indirect errors.
#[test]
fn indirect_dispatch_and_its_errors() {
    for mut c in contexts() {
        program(&mut c, "ids.comp");
        let out = common::words_buffer(&mut c, &[0; 4 + 24]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 5, Some(out));
        let counts = common::words_buffer(&mut c, &[9, 2, 3, 1]);
        c.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, Some(counts));
        c.dispatch_compute_indirect(4);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let w = common::read_words(&mut c, out, 28);
        assert_eq!(&w[..4], &[2, 3, 1, 1], "gl_NumWorkGroups");
        assert_eq!(&w[4..], &[1; 24], "each invocation once");
        c.dispatch_compute_indirect(2);
        assert_eq!(
            c.get_error(),
            gl::INVALID_VALUE,
            "offset not a multiple of 4"
        );
        c.dispatch_compute_indirect(-4);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "negative offset");
        c.dispatch_compute_indirect(8);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "command past the end");
        c.dispatch_compute(65536, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "count over the limit");
        c.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, None);
        c.dispatch_compute_indirect(0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no indirect buffer");
    }
}

/// `glShaderStorageBlockBinding` moves a block to another binding point:
/// `ids.comp`'s block (linked at 5) then reads binding 7.
#[test]
fn storage_block_binding_redirects_the_block() {
    for mut c in contexts() {
        let p = program(&mut c, "ids.comp");
        let at5 = common::words_buffer(&mut c, &[0; 8]);
        let at7 = common::words_buffer(&mut c, &[0; 8]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 5, Some(at5));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 7, Some(at7));
        c.shader_storage_block_binding(p, 0, 7);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        assert_eq!(common::read_words(&mut c, at5, 8), vec![0; 8]);
        assert_eq!(
            common::read_words(&mut c, at7, 8),
            vec![1, 1, 1, 1, 1, 1, 1, 1]
        );
        c.shader_storage_block_binding(p, 1, 0);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "no block 1");
        c.shader_storage_block_binding(p, 0, 32);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "binding past the limit");
    }
}

/// `counters.comp` over 4 workgroups of 16: counter buffer binding k reads
/// `GL_ATOMIC_COUNTER_BUFFER` index k. 64 tickets from 10 (offset 4); 32 of
/// them are odd and decrement `odd_down` from 40 — at offset 8, the binding's
/// next free offset after `tickets` (GLSL 4.20 §4.4.4.6), not 0 — and
/// `hits[2]` (offset 8 of binding 3) counts the 4 workgroups; the other words
/// stay as they were.
#[test]
fn atomic_counters_are_storage_words_at_their_binding_and_offset() {
    for mut c in contexts() {
        program(&mut c, "counters.comp");
        let b1 = common::words_buffer(&mut c, &[100, 10, 40]);
        let b3 = common::words_buffer(&mut c, &[5, 6, 0, 9]);
        c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 1, Some(b1));
        c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 3, Some(b3));
        c.dispatch_compute(4, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        assert_eq!(
            common::read_words(&mut c, b1, 3),
            vec![100, 10 + 64, 40 - 32]
        );
        assert_eq!(common::read_words(&mut c, b3, 4), vec![5, 6, 4, 9]);
    }
}

/// `float_add.comp` over 3 workgroups of 8 (NV_shader_atomic_float): each
/// workgroup's shared total is 8 × 1.5 = 12, the buffer's sum 1 + 3 × 12 and
/// `last` the exchanged 12 (all exact in binary floating point).
#[test]
fn float_atomic_add_and_exchange() {
    for mut c in contexts() {
        program(&mut c, "float_add.comp");
        let b = common::words_buffer(&mut c, &[1.0f32.to_bits(), 0]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
        c.dispatch_compute(3, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let w = common::read_words(&mut c, b, 2);
        assert_eq!(f32::from_bits(w[0]), 37.0);
        assert_eq!(f32::from_bits(w[1]), 12.0);
    }
}

/// `workgroup.comp` over 2×2 workgroups of 5×3×2: every invocation sees its
/// local and workgroup IDs, 7 rounds of a barrier-separated ring rotation in a
/// loop leave word `i` holding `(i + 7) % 30`, and the shared atomics give
/// their order-independent results: the sum, min and max, one `atomicCompSwap`
/// winner, and exchanged values that add up to the first value plus every
/// invocation index.
#[test]
fn barriers_in_loops_over_a_partial_lane_batch_and_shared_atomics() {
    for mut c in contexts() {
        let p = program(&mut c, "workgroup.comp");
        let loc = c.get_uniform_location(p, "rounds");
        c.uniform_1_i32(loc.as_ref(), 7);
        let ids = common::words_buffer(&mut c, &[0; 120]);
        let rotated = common::words_buffer(&mut c, &[0; 120]);
        let totals = common::words_buffer(&mut c, &[0; 24]);
        for (k, b) in [ids, rotated, totals].into_iter().enumerate() {
            c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, k as u32, Some(b));
        }
        c.dispatch_compute(2, 2, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let got_ids = common::read_words(&mut c, ids, 120);
        let got_rotated = common::read_words(&mut c, rotated, 120);
        for g in 0..4u32 {
            for i in 0..30u32 {
                let (x, y, z) = (i % 5, i / 5 % 3, i / 15);
                let at = (g * 30 + i) as usize;
                assert_eq!(
                    got_ids[at],
                    x | y << 8 | z << 16 | (g / 2) << 24,
                    "ids of invocation {i} of group {g}"
                );
                assert_eq!(got_rotated[at], (i + 7) % 30, "ring word {i} of group {g}");
            }
        }
        let sum: u32 = (0..30).sum();
        let t = common::read_words(&mut c, totals, 24);
        for g in 0..4 {
            assert_eq!(
                &t[g * 6..g * 6 + 6],
                &[sum, (-10i32) as u32, 87, 1, 7 + sum, 202],
                "totals of group {g}"
            );
        }
    }
}
