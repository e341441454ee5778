//! The payload of a program entry of the on-disk shader cache: a hand-written,
//! versioned, little-endian binary encoding of what the state tracker keeps of a
//! [`LinkedProgram`] — the program interface (attributes, fragment outputs, the
//! active-uniform list, uniform blocks, storage sizes, link warnings) and each
//! stage's final NIR in rgl-nir's text form (printed by
//! [`rgl_nir::print::print_shader`], read back by [`rgl_nir::reader::parse_shader`]
//! and checked by the NIR validator).
//!
//! The linked GLSL IR of the stages (`LinkedStage::hir`, `LinkedStage::vars`) is
//! not stored, so a program read from the cache has an empty module there; the
//! only readers after the NIR pipeline are the storage block and atomic counter
//! buffer lists, so programs with either are not encoded. Mesa's `shader_cache.c` likewise stores the
//! NIR and the `gl_shader_program` resource data, not the GLSL IR.
//!
//! Decoding never trusts its input: every length is checked against the bytes
//! left, nesting is bounded, and any malformed byte gives a [`CodecError`].

use std::collections::HashMap;

use rgl_glsl::hir::{Constant, Module, ScalarValue};
use rgl_glsl::types::{SamplerDim, SamplerType, ScalarKind, Type};
use rgl_glsl::{Profile, Stage, Version};
use rgl_link::program::{ActiveUniform, ProgramVariable, UniformBlock};
use rgl_link::{LinkedProgram, LinkedStage};

/// Version of the payload layout below; bump it on any change.
pub(crate) const PAYLOAD_VERSION: u32 = 2;

/// Deepest nesting of array types and aggregate constants accepted on read
/// (GLSL's arrays of arrays in a uniform are far shallower).
const MAX_DEPTH: u32 = 32;

/// Why a program could not be encoded, or a payload decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The payload ends inside a field.
    #[error("payload truncated at byte {0}")]
    Truncated(usize),
    /// A tag byte names no known variant.
    #[error("invalid {what} tag {tag} at byte {at}")]
    BadTag {
        /// The kind of value being read.
        what: &'static str,
        /// The byte read.
        tag: u8,
        /// Its offset in the payload.
        at: usize,
    },
    /// A string is not UTF-8.
    #[error("invalid UTF-8 string at byte {0}")]
    BadString(usize),
    /// The payload was written by another layout version.
    #[error("payload version {0}, expected {PAYLOAD_VERSION}")]
    Version(u32),
    /// Bytes are left after the last field.
    #[error("{0} trailing bytes after the payload")]
    Trailing(usize),
    /// Types or constants nested deeper than accepted.
    #[error("nesting deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A stage's NIR text does not parse or does not validate.
    #[error("stage {stage}: {message}")]
    Nir {
        /// The stage index in the payload.
        stage: usize,
        /// The reader's or validator's message.
        message: String,
    },
    /// The program holds something this encoding has no form for.
    #[error("cannot encode {0}")]
    Unencodable(String),
}

type Res<T> = Result<T, CodecError>;

/// Encodes `program`, whose stages hold their final NIR.
pub(crate) fn encode_program(program: &LinkedProgram) -> Res<Vec<u8>> {
    // Storage blocks and atomic counter buffers (their bindings and the
    // program interface queries) are computed from the stages' GLSL IR, which
    // the payload does not hold: such programs are not cached.
    if !program.storage_blocks().is_empty() || !program.atomic_counter_buffers().is_empty() {
        return Err(CodecError::Unencodable(
            "shader storage blocks or atomic counters (computed from the GLSL IR)".into(),
        ));
    }
    // Subroutine tables (`glGetSubroutineIndex` and friends) are read from the
    // GLSL IR too.
    if program.stages.iter().any(|s| !s.hir.subroutines.is_empty()) {
        return Err(CodecError::Unencodable(
            "subroutines (their tables are read from the GLSL IR)".into(),
        ));
    }
    let mut w = Writer::default();
    w.u32(PAYLOAD_VERSION);
    w.version(program.version);
    w.len(program.stages.len());
    for stage in &program.stages {
        let nir = stage.nir.as_ref().ok_or_else(|| {
            CodecError::Unencodable(format!("a {:?} stage without final NIR", stage.stage))
        })?;
        w.u8(stage_tag(stage.stage));
        w.version(stage.version);
        w.str(&rgl_nir::print::print_shader(nir));
    }
    w.len(program.attributes.len());
    for v in &program.attributes {
        w.variable(v)?;
    }
    w.len(program.frag_outputs.len());
    for v in &program.frag_outputs {
        w.variable(v)?;
    }
    w.len(program.uniforms.len());
    for u in &program.uniforms {
        w.uniform(u)?;
    }
    w.len(program.uniform_blocks.len());
    for b in &program.uniform_blocks {
        w.str(&b.name);
        w.u32(b.binding);
        w.u32(b.data_size);
        w.len(b.members.len());
        for &m in &b.members {
            w.u32(m);
        }
        w.u32(b.stages);
    }
    w.u32(program.uniform_slots);
    w.u32(program.num_samplers);
    w.len(program.warnings.len());
    for warning in &program.warnings {
        w.str(warning);
    }
    Ok(w.out)
}

/// Decodes a payload written by [`encode_program`].
pub(crate) fn decode_program(bytes: &[u8]) -> Res<LinkedProgram> {
    let mut r = Reader::payload(bytes)?;
    let program_version = r.version()?;
    let n = r.len()?;
    let mut stages = Vec::new();
    for i in 0..n {
        let stage = r.stage()?;
        let version = r.version()?;
        let text = r.str()?;
        let nir = rgl_nir::reader::parse_shader(&text).map_err(|e| CodecError::Nir {
            stage: i,
            message: e.to_string(),
        })?;
        rgl_nir::validate::validate(&nir).map_err(|e| CodecError::Nir {
            stage: i,
            message: e.to_string(),
        })?;
        if nir_stage(stage) != Some(nir.stage) {
            return Err(CodecError::Nir {
                stage: i,
                message: format!("NIR of stage {:?} for a {stage:?} stage", nir.stage),
            });
        }
        stages.push(LinkedStage {
            stage,
            version,
            hir: Module::default(),
            vars: HashMap::new(),
            nir: Some(nir),
        });
    }
    let attributes = r.list(Reader::variable)?;
    let frag_outputs = r.list(Reader::variable)?;
    let uniforms = r.list(Reader::uniform)?;
    let uniform_blocks = r.list(|r| {
        Ok(UniformBlock {
            name: r.str()?,
            binding: r.u32()?,
            data_size: r.u32()?,
            members: r.list(Reader::u32)?,
            stages: r.u32()?,
        })
    })?;
    let uniform_slots = r.u32()?;
    let num_samplers = r.u32()?;
    let warnings = r.list(Reader::str)?;
    if r.at != bytes.len() {
        return Err(CodecError::Trailing(bytes.len() - r.at));
    }
    Ok(LinkedProgram {
        version: program_version,
        stages,
        attributes,
        frag_outputs,
        uniforms,
        uniform_blocks,
        uniform_slots,
        num_samplers,
        subroutine_slots: Vec::new(),
        warnings,
    })
}

/// Encodes the record of a successful compile: its info log (warnings).
pub(crate) fn encode_shader_record(info_log: &str) -> Vec<u8> {
    let mut w = Writer::default();
    w.u32(PAYLOAD_VERSION);
    w.str(info_log);
    w.out
}

/// Decodes a payload written by [`encode_shader_record`].
pub(crate) fn decode_shader_record(bytes: &[u8]) -> Res<String> {
    let mut r = Reader::payload(bytes)?;
    let log = r.str()?;
    if r.at != bytes.len() {
        return Err(CodecError::Trailing(bytes.len() - r.at));
    }
    Ok(log)
}

/// One stage of a stored driver variant (see `variant_key` in the module
/// above): its finalized NIR text when the draw-time lowering changed the
/// linked NIR (`None`: the linked NIR as it is), and the driver's serialised
/// code when it has one (`None`: the stage is compiled at load).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VariantStage {
    pub(crate) nir: Option<String>,
    pub(crate) code: Option<Vec<u8>>,
}

/// Encodes a driver variant's stages, in the linked program's stage order.
pub(crate) fn encode_variant(stages: &[VariantStage]) -> Vec<u8> {
    let mut w = Writer::default();
    w.u32(PAYLOAD_VERSION);
    w.len(stages.len());
    for s in stages {
        match &s.nir {
            Some(text) => {
                w.u8(1);
                w.str(text);
            }
            None => w.u8(0),
        }
        match &s.code {
            Some(code) => {
                w.u8(1);
                w.len(code.len());
                w.out.extend_from_slice(code);
            }
            None => w.u8(0),
        }
    }
    w.out
}

/// Decodes a payload written by [`encode_variant`].
pub(crate) fn decode_variant(bytes: &[u8]) -> Res<Vec<VariantStage>> {
    let mut r = Reader::payload(bytes)?;
    let stages = r.list(|r| {
        let nir = if r.bool()? { Some(r.str()?) } else { None };
        let code = if r.bool()? {
            let n = r.len()?;
            Some(r.take(n)?.to_vec())
        } else {
            None
        };
        Ok(VariantStage { nir, code })
    })?;
    if r.at != bytes.len() {
        return Err(CodecError::Trailing(bytes.len() - r.at));
    }
    Ok(stages)
}

fn stage_tag(stage: Stage) -> u8 {
    match stage {
        Stage::Vertex => 0,
        Stage::Geometry => 1,
        Stage::Fragment => 2,
        Stage::Compute => 3,
    }
}

/// The NIR stage of a GLSL stage; `None` for compute, which the NIR backend
/// does not have yet (such a program never links, so it is never cached).
fn nir_stage(stage: Stage) -> Option<rgl_nir::ir::Stage> {
    match stage {
        Stage::Vertex => Some(rgl_nir::ir::Stage::Vertex),
        Stage::Geometry => Some(rgl_nir::ir::Stage::Geometry),
        Stage::Fragment => Some(rgl_nir::ir::Stage::Fragment),
        Stage::Compute => None,
    }
}

fn scalar_tag(kind: ScalarKind) -> u8 {
    match kind {
        ScalarKind::Float => 0,
        ScalarKind::Int => 1,
        ScalarKind::Uint => 2,
        ScalarKind::Bool => 3,
    }
}

const SAMPLER_DIMS: [SamplerDim; 8] = [
    SamplerDim::D1,
    SamplerDim::D2,
    SamplerDim::D3,
    SamplerDim::Cube,
    SamplerDim::Rect,
    SamplerDim::Buffer,
    SamplerDim::Ms,
    SamplerDim::External,
];

const PROFILES: [Profile; 3] = [Profile::Core, Profile::Compatibility, Profile::Es];

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        // Lengths above u32 cannot occur in a program (names, lists and NIR
        // texts are far smaller); saturate rather than wrap.
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.out.extend_from_slice(s.as_bytes());
    }
    fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u32(v);
            }
            None => self.u8(0),
        }
    }
    fn version(&mut self, v: Version) {
        self.u32(u32::from(v.number));
        let profile = PROFILES.iter().position(|p| *p == v.profile).unwrap_or(0);
        self.u8(profile as u8);
    }
    fn ty(&mut self, ty: &Type) -> Res<()> {
        match ty {
            Type::Scalar(k) => {
                self.u8(0);
                self.u8(scalar_tag(*k));
            }
            Type::Vector(k, n) => {
                self.u8(1);
                self.u8(scalar_tag(*k));
                self.u8(*n);
            }
            Type::Matrix { columns, rows } => {
                self.u8(2);
                self.u8(*columns);
                self.u8(*rows);
            }
            Type::Sampler(s) => {
                self.u8(3);
                let dim = SAMPLER_DIMS.iter().position(|d| *d == s.dim).unwrap_or(0);
                self.u8(dim as u8);
                self.u8(u8::from(s.arrayed) | u8::from(s.shadow) << 1);
                self.u8(scalar_tag(s.kind));
            }
            Type::Array(elem, len) => {
                self.u8(4);
                self.opt_u32(*len);
                self.ty(elem)?;
            }
            Type::Void | Type::Struct(_) | Type::Image(_) | Type::AtomicUint | Type::Error => {
                return Err(CodecError::Unencodable(format!("an interface type {ty:?}")))
            }
        }
        Ok(())
    }
    fn constant(&mut self, c: &Constant) {
        match c {
            Constant::Components(values) => {
                self.u8(0);
                self.len(values.len());
                for v in values {
                    match *v {
                        ScalarValue::Float(f) => {
                            self.u8(0);
                            self.u32(f.to_bits());
                        }
                        ScalarValue::Int(i) => {
                            self.u8(1);
                            self.i32(i);
                        }
                        ScalarValue::Uint(u) => {
                            self.u8(2);
                            self.u32(u);
                        }
                        ScalarValue::Bool(b) => {
                            self.u8(3);
                            self.u32(u32::from(b));
                        }
                    }
                }
            }
            Constant::Aggregate(elems) => {
                self.u8(1);
                self.len(elems.len());
                for e in elems {
                    self.constant(e);
                }
            }
        }
    }
    fn variable(&mut self, v: &ProgramVariable) -> Res<()> {
        self.str(&v.name);
        self.ty(&v.ty)?;
        self.i32(v.location);
        self.u32(v.index);
        self.u32(v.component);
        Ok(())
    }
    fn uniform(&mut self, u: &ActiveUniform) -> Res<()> {
        self.str(&u.name);
        self.ty(&u.ty)?;
        self.u32(u.array_size);
        self.i32(u.location);
        self.u32(u.slot);
        self.opt_u32(u.sampler_index);
        self.opt_u32(u.block);
        self.i32(u.offset);
        self.i32(u.array_stride);
        self.i32(u.matrix_stride);
        self.u8(u8::from(u.row_major));
        self.u32(u.stages);
        match &u.initializer {
            Some(c) => {
                self.u8(1);
                self.constant(c);
            }
            None => self.u8(0),
        }
        Ok(())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader past the payload's version word, which must be this build's.
    fn payload(bytes: &'a [u8]) -> Res<Reader<'a>> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.u32()?;
        if version != PAYLOAD_VERSION {
            return Err(CodecError::Version(version));
        }
        Ok(r)
    }
    fn take(&mut self, n: usize) -> Res<&[u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(CodecError::Truncated(self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Res<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Res<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i32(&mut self) -> Res<i32> {
        Ok(self.u32()? as i32)
    }
    fn bool(&mut self) -> Res<bool> {
        let at = self.at;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            tag => Err(CodecError::BadTag {
                what: "bool",
                tag,
                at,
            }),
        }
    }
    /// A count of items that each take at least one byte: never more than the
    /// bytes left, so a corrupted length cannot make a huge allocation.
    fn len(&mut self) -> Res<usize> {
        let n = self.u32()? as usize;
        if n > self.bytes.len() - self.at {
            return Err(CodecError::Truncated(self.at));
        }
        Ok(n)
    }
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Res<T>) -> Res<Vec<T>> {
        let n = self.len()?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(item(self)?);
        }
        Ok(out)
    }
    fn str(&mut self) -> Res<String> {
        let n = self.len()?;
        let at = self.at;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| CodecError::BadString(at))
    }
    fn opt_u32(&mut self) -> Res<Option<u32>> {
        Ok(if self.bool()? {
            Some(self.u32()?)
        } else {
            None
        })
    }
    fn tag<T: Copy>(&mut self, what: &'static str, table: &[T]) -> Res<T> {
        let at = self.at;
        let tag = self.u8()?;
        table
            .get(tag as usize)
            .copied()
            .ok_or(CodecError::BadTag { what, tag, at })
    }
    fn stage(&mut self) -> Res<Stage> {
        self.tag(
            "stage",
            &[
                Stage::Vertex,
                Stage::Geometry,
                Stage::Fragment,
                Stage::Compute,
            ],
        )
    }
    fn scalar(&mut self) -> Res<ScalarKind> {
        self.tag(
            "scalar kind",
            &[
                ScalarKind::Float,
                ScalarKind::Int,
                ScalarKind::Uint,
                ScalarKind::Bool,
            ],
        )
    }
    fn version(&mut self) -> Res<Version> {
        let at = self.at;
        let number = u16::try_from(self.u32()?).map_err(|_| CodecError::BadTag {
            what: "version",
            tag: 0xff,
            at,
        })?;
        let profile = self.tag("profile", &PROFILES)?;
        Ok(Version { number, profile })
    }
    /// A component count or matrix size: 2 to 4.
    fn size(&mut self, what: &'static str) -> Res<u8> {
        let at = self.at;
        match self.u8()? {
            n @ 2..=4 => Ok(n),
            tag => Err(CodecError::BadTag { what, tag, at }),
        }
    }
    fn ty(&mut self, depth: u32) -> Res<Type> {
        if depth > MAX_DEPTH {
            return Err(CodecError::TooDeep);
        }
        let at = self.at;
        Ok(match self.u8()? {
            0 => Type::Scalar(self.scalar()?),
            1 => Type::Vector(self.scalar()?, self.size("vector size")?),
            2 => Type::Matrix {
                columns: self.size("matrix columns")?,
                rows: self.size("matrix rows")?,
            },
            3 => {
                let dim = self.tag("sampler dimension", &SAMPLER_DIMS)?;
                let flags_at = self.at;
                let flags = self.u8()?;
                if flags > 3 {
                    return Err(CodecError::BadTag {
                        what: "sampler flags",
                        tag: flags,
                        at: flags_at,
                    });
                }
                Type::Sampler(SamplerType {
                    dim,
                    arrayed: flags & 1 != 0,
                    shadow: flags & 2 != 0,
                    kind: self.scalar()?,
                })
            }
            4 => {
                let len = self.opt_u32()?;
                Type::Array(Box::new(self.ty(depth + 1)?), len)
            }
            tag => {
                return Err(CodecError::BadTag {
                    what: "type",
                    tag,
                    at,
                })
            }
        })
    }
    fn constant(&mut self, depth: u32) -> Res<Constant> {
        if depth > MAX_DEPTH {
            return Err(CodecError::TooDeep);
        }
        let at = self.at;
        Ok(match self.u8()? {
            0 => Constant::Components(
                self.list(|r| {
                    let at = r.at;
                    Ok(match r.u8()? {
                        0 => ScalarValue::Float(f32::from_bits(r.u32()?)),
                        1 => ScalarValue::Int(r.i32()?),
                        2 => ScalarValue::Uint(r.u32()?),
                        3 => ScalarValue::Bool(r.u32()? != 0),
                        tag => {
                            return Err(CodecError::BadTag {
                                what: "scalar value",
                                tag,
                                at,
                            })
                        }
                    })
                })?
                .into(),
            ),
            1 => Constant::Aggregate(self.list(|r| r.constant(depth + 1))?),
            tag => {
                return Err(CodecError::BadTag {
                    what: "constant",
                    tag,
                    at,
                })
            }
        })
    }
    fn variable(&mut self) -> Res<ProgramVariable> {
        Ok(ProgramVariable {
            name: self.str()?,
            ty: self.ty(0)?,
            location: self.i32()?,
            index: self.u32()?,
            component: self.u32()?,
        })
    }
    fn uniform(&mut self) -> Res<ActiveUniform> {
        Ok(ActiveUniform {
            name: self.str()?,
            ty: self.ty(0)?,
            array_size: self.u32()?,
            location: self.i32()?,
            slot: self.u32()?,
            sampler_index: self.opt_u32()?,
            block: self.opt_u32()?,
            offset: self.i32()?,
            array_stride: self.i32()?,
            matrix_stride: self.i32()?,
            row_major: self.bool()?,
            stages: self.u32()?,
            initializer: if self.bool()? {
                Some(self.constant(0)?)
            } else {
                None
            },
        })
    }
}
