//! The shader clock of ARB_shader_clock (`shader_clock`, `clock2x32ARB()`): one
//! process-wide 64-bit counter shared by the evaluator and the drivers.
//!
//! The extension asks for a monotonically incrementing counter whose units are
//! unspecified and whose values are only meaningful within one invocation; rgl
//! reads nanoseconds since the first read (`std::time::Instant`, a monotonic
//! clock) and never returns the same value twice, so two reads in program order
//! always differ and the later one is larger (the property piglit's
//! `arb_shader_clock` test checks).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Reads the counter: nanoseconds since the first read, strictly larger than
/// every value returned before (in every thread).
pub fn read() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now =
        u64::try_from(EPOCH.get_or_init(Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX);
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = now.max(last.wrapping_add(1));
        match LAST.compare_exchange_weak(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// [`read`] as `clock2x32ARB` returns it: (low word, high word).
pub fn read_2x32() -> [u32; 2] {
    let t = read();
    [t as u32, (t >> 32) as u32]
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_strictly_increase() {
        let mut last = super::read();
        for _ in 0..1000 {
            let t = super::read();
            assert!(t > last, "{t} after {last}");
            last = t;
        }
        let [lo, hi] = super::read_2x32();
        assert!((u64::from(hi) << 32 | u64::from(lo)) > last);
    }
}
