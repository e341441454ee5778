//! Compute shaders on the JIT through the GL API (GL 4.3 §19): the programs
//! in `tests/compute_jit/*.comp` run on the software driver's JIT compute
//! engine, its lane interpreter and its reference interpreter, and the
//! storage buffers they leave are compared with values worked out here from
//! the GLSL 4.30 rules (§8.16 barriers in loops, §8.11 atomics across
//! workgroups, robust buffer access), never with rgl's earlier output.

mod common;

use rgl_backend::compute::ComputeEngine;
use rgl_state::{gl, Context, Program};

const ENGINES: [ComputeEngine; 3] = [
    ComputeEngine::Jit,
    ComputeEngine::Lanes,
    ComputeEngine::Reference,
];

/// A context whose driver runs compute on `engine` with `threads` threads.
fn context(engine: ComputeEngine, threads: usize) -> Context {
    let mut driver = rgl_backend::SoftDriver::new(threads);
    driver.set_compute_engine(engine);
    Context::with_driver(Box::new(driver), 8, 8)
}

fn program(c: &mut Context, file: &str) -> Program {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compute_jit")
        .join(file);
    let src = std::fs::read_to_string(path).expect("read shader");
    common::program(c, &[(gl::COMPUTE_SHADER, &src)])
}

/// `ring.comp`: a loop-carried value passes through shared memory across two
/// barriers per round, in 64-invocation workgroups of a 2×3 grid.
#[test]
fn barriers_in_a_loop() {
    for e in ENGINES {
        for rounds in [0u32, 1, 5, 70] {
            let mut c = context(e, 2);
            let p = program(&mut c, "ring.comp");
            let loc = c.get_uniform_location(p, "rounds");
            c.uniform_1_u32(loc.as_ref(), rounds);
            let out = common::words_buffer(&mut c, &[0; 6 * 64]);
            let ids = common::words_buffer(&mut c, &[0; 6 * 64 * 4]);
            c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(out));
            c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(ids));
            c.dispatch_compute(2, 3, 1);
            assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
            let r = common::read_words(&mut c, out, 6 * 64);
            let w = common::read_words(&mut c, ids, 6 * 64 * 4);
            for g in 0..6u32 {
                let (gx, gy) = (g % 2, g / 2);
                for i in 0..64u32 {
                    let at = (g * 64 + i) as usize;
                    assert_eq!(
                        r[at],
                        (i + rounds) % 64 + rounds,
                        "{e:?} rounds {rounds} group {g} invocation {i}"
                    );
                    // gl_GlobalInvocationID = gl_WorkGroupID * gl_WorkGroupSize
                    // + gl_LocalInvocationID, the index x + 8y + 32z.
                    let (lx, ly, lz) = (i % 8, i / 8 % 4, i / 32);
                    assert_eq!(
                        &w[at * 4..at * 4 + 4],
                        &[gx * 8 + lx, gy * 4 + ly, lz, i],
                        "{e:?} ids of group {g} invocation {i}"
                    );
                }
            }
        }
    }
}

/// `tree.comp`: the halving loop with a barrier per step over 96-invocation
/// workgroups, the sums of 7 workgroups and their atomic total.
#[test]
fn tree_reduction_in_a_loop() {
    let data: Vec<u32> = (0..7 * 96u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 8)
        .collect();
    for e in ENGINES {
        let mut c = context(e, 2);
        program(&mut c, "tree.comp");
        let d = common::words_buffer(&mut c, &data);
        let r = common::words_buffer(&mut c, &[0; 8]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(d));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(r));
        c.dispatch_compute(7, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let out = common::read_words(&mut c, r, 8);
        let mut total = 0u32;
        for g in 0..7 {
            let s = data[g * 96..(g + 1) * 96]
                .iter()
                .fold(0u32, |a, b| a.wrapping_add(*b));
            assert_eq!(out[1 + g], s, "{e:?} workgroup {g}");
            total = total.wrapping_add(s);
        }
        assert_eq!(out[0], total, "{e:?} total");
    }
}

/// `atomics.comp` over 32 workgroups on 2 threads: tickets are a
/// permutation, the sum, maximum, minimum and bits are exact.
#[test]
fn atomics_across_workgroups_on_two_threads() {
    let n = 32 * 32u32;
    for e in ENGINES {
        let mut c = context(e, 2);
        program(&mut c, "atomics.comp");
        let mut init = vec![0u32; 4 + 32];
        init[3] = u32::MAX;
        let counters = common::words_buffer(&mut c, &init);
        let tickets = common::words_buffer(&mut c, &vec![0; n as usize]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(counters));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(tickets));
        c.dispatch_compute(32, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let w = common::read_words(&mut c, counters, 36);
        assert_eq!(w[0], n, "{e:?} tickets taken");
        assert_eq!(w[1], n * (n - 1) / 2, "{e:?} sum");
        assert_eq!((w[2], w[3]), (n - 1, 0), "{e:?} max, min");
        assert!(
            w[4..].iter().all(|b| *b == u32::MAX),
            "{e:?} bits {:x?}",
            &w[4..]
        );
        let mut t = common::read_words(&mut c, tickets, n as usize);
        t.sort_unstable();
        assert_eq!(t, (0..n).collect::<Vec<u32>>(), "{e:?} tickets");
    }
}

/// `bounds.comp` with `at` = 1000 over a 16-word buffer: only invocation 0
/// stores in range (word 0 = 7), only invocation 2's atomic lands in range
/// (on word 0: it returns 7 and leaves 8); every far read is 0.
#[test]
fn storage_accesses_are_bounds_checked() {
    for e in ENGINES {
        let mut c = context(e, 1);
        let p = program(&mut c, "bounds.comp");
        let loc = c.get_uniform_location(p, "at");
        c.uniform_1_i32(loc.as_ref(), 1000);
        let data = common::words_buffer(&mut c, &[0xaaaa_aaaa; 16]);
        let seen = common::words_buffer(&mut c, &[0x5555_5555; 20]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(data));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(seen));
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
        let d = common::read_words(&mut c, data, 16);
        assert_eq!(d[0], 8, "{e:?}");
        assert!(d[1..].iter().all(|w| *w == 0xaaaa_aaaa), "{e:?} {d:x?}");
        let mut expected = vec![0u32; 20];
        expected[2] = 700;
        assert_eq!(common::read_words(&mut c, seen, 20), expected, "{e:?}");
    }
}

/// `endless.comp`: the dispatch stops at the budget with
/// `GL_INVALID_OPERATION` and a reason, on every engine.
#[test]
fn an_endless_loop_with_barriers_stops_at_the_budget() {
    for e in ENGINES {
        let mut driver = rgl_backend::SoftDriver::new(2);
        driver.set_instruction_budget(300_000);
        driver.set_compute_engine(e);
        let mut c = Context::with_driver(Box::new(driver), 8, 8);
        program(&mut c, "endless.comp");
        let b = common::words_buffer(&mut c, &[0]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{e:?}");
        let why = c.last_draw_error().expect("a reason");
        assert!(why.contains("instruction budget"), "{e:?}: {why}");
    }
}
