//! The compile driver: source text → preprocessor → parser → checker → HIR →
//! compile-time lowering → LIR, collecting one [`InfoLog`]. This is what
//! `glCompileShader` and `rglc` call. It also honours the `RGL_GLSL` debug
//! switches ([`crate::debug`]).

use std::sync::atomic::{AtomicU32, Ordering};

use crate::ast::TranslationUnit;
use crate::check::{self, CheckOptions};
use crate::diag::{Diagnostic, Error, InfoLog};
use crate::hir::Module;
use crate::pp::{self, IncludeOptions, PpOptions};
use crate::span::{LineIndex, SourceLoc};
use crate::version::{Stage, Version};

/// Options of one compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Stage of the shader.
    pub stage: Stage,
    /// Forces a `#version` (rglc `--version`, `RGL_GLSL_VERSION_OVERRIDE`).
    pub version_override: Option<u16>,
    /// Keep the AST in the result (for `--dump-ast`).
    pub keep_ast: bool,
    /// Keep the IR straight out of the checker in the result (for
    /// `--dump-hir`); lowering then works on a copy of it.
    pub keep_hir: bool,
    /// The shader's GL name, used in `RGL_GLSL` dumps; a process-wide counter
    /// supplies one when absent.
    pub name: Option<u32>,
}

impl CompileOptions {
    /// Defaults for a stage. `RGL_GLSL_VERSION_OVERRIDE` presets the version
    /// override.
    pub fn new(stage: Stage) -> Self {
        CompileOptions {
            stage,
            version_override: crate::debug::version_override(),
            keep_ast: false,
            keep_hir: false,
            name: None,
        }
    }
}

/// Everything one compile produced.
#[derive(Clone, Debug)]
pub struct CompiledShader {
    /// Stage.
    pub stage: Stage,
    /// Effective version.
    pub version: Version,
    /// The syntax tree, when asked for and parsing succeeded.
    pub ast: Option<TranslationUnit>,
    /// IR straight out of the checker (`--dump-hir`), when asked for
    /// ([`CompileOptions::keep_hir`]) and checking ran.
    pub hir: Option<Module>,
    /// IR after compile-time lowering (`--dump-lir`), only on success.
    pub lir: Option<Module>,
    /// Errors and warnings.
    pub info_log: InfoLog,
}

impl CompiledShader {
    /// True when the shader compiled without errors.
    pub fn success(&self) -> bool {
        !self.info_log.has_errors() && self.lir.is_some()
    }
}

/// Compiles shader source given as bytes: invalid UTF-8 is reported as a
/// located error rather than rejected by the type system.
pub fn compile_bytes(source: &[u8], options: &CompileOptions) -> CompiledShader {
    match std::str::from_utf8(source) {
        Ok(text) => compile(text, options),
        Err(err) => {
            let valid = &source[..err.valid_up_to()];
            // Safe: `valid` is the checked UTF-8 prefix.
            let prefix = std::str::from_utf8(valid).unwrap_or_default();
            let (line, column) = LineIndex::new(prefix).line_col(prefix.len() as u32);
            let mut info_log = InfoLog::default();
            info_log.diagnostics.push(Diagnostic::error(
                SourceLoc::new(line, column),
                Error::InvalidUtf8,
            ));
            CompiledShader {
                stage: options.stage,
                version: Version::DEFAULT,
                ast: None,
                hir: None,
                lir: None,
                info_log,
            }
        }
    }
}

/// Compiles one shader source string (every `#include` fails: no named
/// strings).
pub fn compile(source: &str, options: &CompileOptions) -> CompiledShader {
    compile_with_includes(source, options, None)
}

/// Compiles one shader source string, `#include` looking strings up in
/// `includes` (`glCompileShaderIncludeARB`; see [`crate::pp::include`]).
pub fn compile_with_includes(
    source: &str,
    options: &CompileOptions,
    includes: Option<IncludeOptions<'_>>,
) -> CompiledShader {
    let flags = crate::debug::flags();
    let name = options.name.unwrap_or_else(next_shader_name);
    if flags.log {
        crate::debug::write_source_file(name, options.stage, source);
    }
    if flags.dump || flags.source {
        crate::debug::emit(&format!(
            "GLSL source for {} shader {}:\n{}",
            options.stage, name, source
        ));
    }
    let result = run_pipeline(source, options, includes);
    if flags.dump {
        match &result.lir {
            Some(lir) if result.success() => crate::debug::emit(&format!(
                "GLSL IR for shader {}:\n{}",
                name,
                crate::hir::print::print_module(lir)
            )),
            _ => crate::debug::emit(&format!("GLSL shader {name} failed to compile.")),
        }
    }
    if (flags.dump || (flags.errors && !result.success()))
        && !result.info_log.diagnostics.is_empty()
    {
        crate::debug::emit(&format!(
            "GLSL shader {} info log:\n{}",
            name, result.info_log
        ));
    }
    result
}

fn next_shader_name() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn run_pipeline(
    source: &str,
    options: &CompileOptions,
    includes: Option<IncludeOptions<'_>>,
) -> CompiledShader {
    let pp_options = PpOptions {
        stage: options.stage,
        version_override: options.version_override,
    };
    let pp_out = match includes {
        Some(includes) => pp::preprocess_with_includes(source, &pp_options, includes),
        None => pp::preprocess(source, &pp_options),
    };
    let mut info_log = InfoLog::default();
    info_log.extend(pp_out.diagnostics.iter().cloned());
    let mut result = CompiledShader {
        stage: options.stage,
        version: pp_out.version,
        ast: None,
        hir: None,
        lir: None,
        info_log,
    };
    if result.info_log.has_errors() {
        return result;
    }
    let parsed = crate::parse::parse_full(
        &pp_out.tokens,
        &pp_out.symbols,
        pp_out.version,
        &pp_out.extensions,
    );
    result.info_log.extend(parsed.diagnostics);
    let unit = match parsed.unit {
        Some(unit) if !result.info_log.has_errors() => unit,
        _ => return result,
    };
    let check_options = CheckOptions {
        version: pp_out.version,
        stage: options.stage,
        extensions: pp_out.extensions.clone(),
        invariant_all: pp_out.invariant_all,
        token_count: pp_out.tokens.len(),
    };
    let (hir, diags) = check::check(&unit, &check_options);
    result.info_log.extend(diags);
    if options.keep_ast {
        result.ast = Some(unit);
    }
    let hir = if result.info_log.has_errors() {
        hir
    } else if options.keep_hir {
        let mut lir = hir.clone();
        crate::lower::lower(&mut lir);
        result.lir = Some(lir);
        hir
    } else {
        let mut lir = hir;
        crate::lower::lower(&mut lir);
        result.lir = Some(lir);
        return result;
    };
    if options.keep_hir {
        result.hir = Some(hir);
    }
    result
}
