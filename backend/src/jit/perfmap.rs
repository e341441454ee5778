//! Opt-in `perf` JIT map: with `perfmap` in `RGL_JIT`, every function the JIT
//! maps gets a line `START SIZE NAME` (hexadecimal start and size) in
//! `/tmp/perf-PID.map`, the file `perf report` reads to name samples in
//! anonymous executable memory (the Linux perf tools' "JIT interface":
//! `tools/perf/Documentation/jit-interface.txt`). Entries are appended and
//! never removed; a mapping freed and reused later gets a newer line, which
//! `perf` prefers for the same address.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Whether `RGL_JIT` lists `perfmap` (read once per process).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("RGL_JIT").is_ok_and(|v| v.split(',').any(|s| s.trim() == "perfmap"))
    })
}

/// Appends the entry for `len` bytes of code at `start`, named `rgl_jit_N_LEN`
/// (N counts the process's mappings). Failing to write is logged once and
/// otherwise ignored: profiling must not change what the driver does.
pub(crate) fn record(start: *const u8, len: usize) {
    static FILE: OnceLock<Option<Mutex<std::fs::File>>> = OnceLock::new();
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    let file = FILE.get_or_init(|| {
        let path = format!("/tmp/perf-{}.map", std::process::id());
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            Ok(f) => Some(Mutex::new(f)),
            Err(e) => {
                log::warn!("RGL_JIT=perfmap: cannot open {path}: {e}");
                None
            }
        }
    });
    let Some(file) = file else { return };
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let line = format!("{:x} {len:x} rgl_jit_{n}_{len}\n", start as usize);
    if let Ok(mut f) = file.lock() {
        let _ = f.write_all(line.as_bytes());
    }
}
