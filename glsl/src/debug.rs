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
    *FLAGS.get_or_init(|| {
        std::env::var("RGL_GLSL")
            .map(|v| DebugFlags::parse(&v))
            .unwrap_or_default()
    })
}

/// `RGL_GLSL_VERSION_OVERRIDE=330`: forces the `#version` of every compile.
/// Values that are not a number are ignored with a warning.
pub fn version_override() -> Option<u16> {
    static OVERRIDE: OnceLock<Option<u16>> = OnceLock::new();
    *OVERRIDE.get_or_init(|| {
        let value = std::env::var("RGL_GLSL_VERSION_OVERRIDE").ok()?;
        match value.trim().parse::<u16>() {
            Ok(v) => Some(v),
            Err(_) => {
                log::warn!("RGL_GLSL_VERSION_OVERRIDE: `{value}' is not a version number");
                None
            }
        }
    })
}

/// Prints a debug dump through `log` at info level and, because a switch asked
/// for it, to stderr.
pub fn emit(text: &str) {
    log::info!("{text}");
    eprintln!("{text}");
}

/// `RGL_GLSL=log`: writes the source of shader `name` to `shader_<name>.<ext>`
/// in the working directory. Failures are logged, not fatal.
pub fn write_source_file(name: u32, stage: crate::version::Stage, source: &str) {
    let ext = match stage {
        crate::version::Stage::Vertex => "vert",
        crate::version::Stage::Geometry => "geom",
        crate::version::Stage::Fragment => "frag",
        crate::version::Stage::Compute => "comp",
    };
    let path = format!("shader_{name}.{ext}");
    if let Err(err) = std::fs::write(&path, source) {
        log::warn!("RGL_GLSL=log: cannot write {path}: {err}");
    }
}
