//! ARB_gpu_shader5 / GLSL 4.00 qualifier rules: when the extension's language
//! is available, the `sample` auxiliary qualifier (§4.3.6), the geometry
//! shader output `stream` (§4.4.2.1) and its checks against
//! MAX_VERTEX_STREAMS. `precise` (§4.7) has no placement rules of its own
//! beyond the qualifier order (see `order`).

use crate::diag::Diagnostic;
use crate::span::SourceLoc;
use crate::version::Stage;

use super::{is_stage_interface, QualifierEnv, QualifierError, ResolvedQualifiers};

/// GL_MAX_VERTEX_STREAMS of rgl (the minimum GL 4.0 requires, as llvmpipe).
pub const MAX_VERTEX_STREAMS: u32 = 4;

impl QualifierEnv<'_> {
    /// The ARB_gpu_shader5 language: GLSL 4.00 or the extension enabled
    /// (Mesa's `has_gpu_shader5` / `ARB_gpu_shader5_enable || is_version(400, 0)`;
    /// GLSL ES 3.20 has the ES subset rgl does not implement).
    pub fn has_gpu_shader5(&self) -> bool {
        (!self.version.is_es() && self.version.at_least(400, 0))
            || self.has_extension("GL_ARB_gpu_shader5")
    }
}

/// Checks a `stream = N` value: GLSL 4.00 §4.4.2.1 "If an implementation
/// supports N vertex streams, the individual streams are numbered 0 through
/// N-1" (Mesa's `validate_stream_qualifier`). `None` after reporting.
pub(super) fn stream_value(
    value: Option<i64>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let v = value?;
    if v >= i64::from(MAX_VERTEX_STREAMS) {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::StreamRange {
                value: v,
                max: MAX_VERTEX_STREAMS - 1,
            },
        ));
        return None;
    }
    u32::try_from(v).ok()
}

/// `sample` on a variable: GLSL 4.00 §4.3.6 allows it on the inputs and
/// outputs between stages only, and not together with `centroid`.
pub(super) fn check_sample(
    sample: bool,
    r: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    error: &mut dyn FnMut(QualifierError),
) {
    if !sample {
        return;
    }
    if !is_stage_interface(r.storage, env.stage) {
        error(QualifierError::SampleNotInterface);
    }
    if r.centroid {
        error(QualifierError::SampleAndCentroid);
    }
}

/// The stream of a geometry shader output declared with `resolved`: its
/// own `stream` or the current default (GLSL 4.00 §4.4.2.1); 0 elsewhere.
pub fn output_stream(resolved: &ResolvedQualifiers, stage: Stage, default: u32) -> u32 {
    if stage != Stage::Geometry || resolved.storage != super::StorageClass::Out {
        return 0;
    }
    resolved.layout.stream.unwrap_or(default)
}
