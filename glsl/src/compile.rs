//! The compile driver: source text → preprocessor → parser → checker → HIR →
//! compile-time lowering → LIR, collecting one [`InfoLog`]. This is what
//! `glCompileShader` and `rglc` call.

use crate::ast::TranslationUnit;
use crate::check::{self, CheckOptions};
use crate::diag::InfoLog;
use crate::hir::Module;
use crate::pp::{self, PpOptions};
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
}

impl CompileOptions {
    /// Defaults for a stage.
    pub fn new(stage: Stage) -> Self {
        CompileOptions { stage, version_override: None, keep_ast: false }
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
    /// IR straight out of the checker (`--dump-hir`), when checking ran.
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

/// Compiles one shader source string.
pub fn compile(source: &str, options: &CompileOptions) -> CompiledShader {
    let pp_options = PpOptions { stage: options.stage, version_override: options.version_override };
    let pp_out = pp::preprocess(source, &pp_options);
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
    let unit = match crate::parse::parse(&pp_out.tokens, pp_out.version) {
        Ok(unit) => unit,
        Err(diags) => {
            result.info_log.extend(diags);
            return result;
        }
    };
    let check_options = CheckOptions {
        version: pp_out.version,
        stage: options.stage,
        extensions: pp_out.extensions.clone(),
    };
    let (hir, diags) = check::check(&unit, &check_options);
    result.info_log.extend(diags);
    if options.keep_ast {
        result.ast = Some(unit);
    }
    if !result.info_log.has_errors() {
        let mut lir = hir.clone();
        crate::lower::lower(&mut lir);
        result.lir = Some(lir);
    }
    result.hir = Some(hir);
    result
}
