//! `RGL_GLSL` debug switches (Mesa's `MESA_GLSL`), read once per process:
//! `dump` (source, IR and info log at compile), `source`, `errors`, `log`.

use std::sync::OnceLock;

/// Parsed `RGL_GLSL` flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugFlags {
    /// Print source, IR and info log of every compile.
    pub dump: bool,
    /// Print the source of every compile.
    pub source: bool,
    /// Print the info log of failed compiles.
    pub errors: bool,
    /// Write each shader's source to a file in the working directory.
    pub log: bool,
}

impl DebugFlags {
    /// Parses a comma-separated flag list; unknown words are ignored with a log
    /// warning.
    pub fn parse(value: &str) -> DebugFlags {
        let mut flags = DebugFlags::default();
        for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "dump" => flags.dump = true,
                "source" => flags.source = true,
                "errors" => flags.errors = true,
                "log" => flags.log = true,
                other => log::warn!("RGL_GLSL: unknown flag `{other}'"),
            }
        }
        flags
    }
}

/// The process-wide flags from `RGL_GLSL`.
pub fn flags() -> DebugFlags {
    static FLAGS: OnceLock<DebugFlags> = OnceLock::new();
    *FLAGS.get_or_init(|| std::env::var("RGL_GLSL").map(|v| DebugFlags::parse(&v)).unwrap_or_default())
}
