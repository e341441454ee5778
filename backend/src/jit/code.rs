//! Executable code the JIT owns: one Cranelift function compiled to machine code
//! and relocations, copied into pages mapped for it, relocated, then made
//! read+execute, and unmapped when its owner drops — and the serialised form of
//! that code (a [`CodeImage`]) that the on-disk shader cache stores.
//!
//! Generated code refers to process addresses in two ways: the `extern "C"`
//! helpers it calls ([`crate::jit::helpers`], and the libm-style functions
//! Cranelift calls for operations the host ISA lacks, its `LibCall`s) and the
//! descriptors those calls pass (interpreter ops, texture ops, local array
//! initialisers, kept alive by the owner). Before compiling, [`symbolize`]
//! replaces each such constant by a symbolic reference, so the machine code
//! carries an absolute relocation (`Abs8`) instead of the address: a helper by
//! its id in one table ([`HelperId`]), a descriptor by its index in the owner's
//! list. Loading resolves them to this process's addresses; a relocation kind,
//! symbol, offset or descriptor the loader does not know is an error, never
//! trusted. A function whose addresses cannot all be made symbolic (a helper
//! the table does not list, a descriptor of an unknown type) still runs — its
//! constants stay — but has no image and is not cached.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::{
    types, ExternalName, Function, GlobalValueData, InstBuilder, InstructionData, LibCall, Opcode,
    UserExternalName, ValueDef,
};
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{Context, FinalizedRelocTarget};

use super::helpers::{self, AluFallback, SampleCall, TexCall};
use crate::{Error, Result};

/// Version of the serialised code and shader formats ([`CodeImage::encode`],
/// [`crate::jit::JitShader`]'s blob); part of the compiler's cache identity.
pub const FORMAT_VERSION: u32 = 1;

/// Symbol namespace of the helper table.
const NS_HELPER: u32 = 0;
/// Symbol namespace of the owner's descriptors.
const NS_DESC: u32 = 1;

/// The stable ids of the functions generated code may call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum HelperId {
    Alu = 0,
    Tex = 1,
    Sample = 2,
    InitLocal = 3,
    CeilF32 = 16,
    CeilF64 = 17,
    FloorF32 = 18,
    FloorF64 = 19,
    TruncF32 = 20,
    TruncF64 = 21,
    NearestF32 = 22,
    NearestF64 = 23,
    FmaF32 = 24,
    FmaF64 = 25,
}

const ALL_HELPERS: [HelperId; 14] = [
    HelperId::Alu,
    HelperId::Tex,
    HelperId::Sample,
    HelperId::InitLocal,
    HelperId::CeilF32,
    HelperId::CeilF64,
    HelperId::FloorF32,
    HelperId::FloorF64,
    HelperId::TruncF32,
    HelperId::TruncF64,
    HelperId::NearestF32,
    HelperId::NearestF64,
    HelperId::FmaF32,
    HelperId::FmaF64,
];

extern "C" fn ceil_f32(x: f32) -> f32 {
    x.ceil()
}
extern "C" fn ceil_f64(x: f64) -> f64 {
    x.ceil()
}
extern "C" fn floor_f32(x: f32) -> f32 {
    x.floor()
}
extern "C" fn floor_f64(x: f64) -> f64 {
    x.floor()
}
extern "C" fn trunc_f32(x: f32) -> f32 {
    x.trunc()
}
extern "C" fn trunc_f64(x: f64) -> f64 {
    x.trunc()
}
extern "C" fn nearest_f32(x: f32) -> f32 {
    x.round_ties_even()
}
extern "C" fn nearest_f64(x: f64) -> f64 {
    x.round_ties_even()
}
extern "C" fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
extern "C" fn fma_f64(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

impl HelperId {
    fn from_u32(id: u32) -> Option<HelperId> {
        ALL_HELPERS.into_iter().find(|h| *h as u32 == id)
    }

    /// The function's address in this process.
    fn address(self) -> usize {
        match self {
            HelperId::Alu => helpers::jit_alu as *const () as usize,
            HelperId::Tex => helpers::jit_tex as *const () as usize,
            HelperId::Sample => helpers::jit_sample as *const () as usize,
            HelperId::InitLocal => helpers::jit_init_local as *const () as usize,
            HelperId::CeilF32 => ceil_f32 as *const () as usize,
            HelperId::CeilF64 => ceil_f64 as *const () as usize,
            HelperId::FloorF32 => floor_f32 as *const () as usize,
            HelperId::FloorF64 => floor_f64 as *const () as usize,
            HelperId::TruncF32 => trunc_f32 as *const () as usize,
            HelperId::TruncF64 => trunc_f64 as *const () as usize,
            HelperId::NearestF32 => nearest_f32 as *const () as usize,
            HelperId::NearestF64 => nearest_f64 as *const () as usize,
            HelperId::FmaF32 => fma_f32 as *const () as usize,
            HelperId::FmaF64 => fma_f64 as *const () as usize,
        }
    }

    /// The argument position of the descriptor a call of this helper passes.
    fn descriptor_arg(self) -> Option<usize> {
        match self {
            HelperId::Alu => Some(0),
            HelperId::Tex | HelperId::Sample | HelperId::InitLocal => Some(1),
            _ => None,
        }
    }

    fn of_libcall(lc: LibCall) -> Option<HelperId> {
        Some(match lc {
            LibCall::CeilF32 => HelperId::CeilF32,
            LibCall::CeilF64 => HelperId::CeilF64,
            LibCall::FloorF32 => HelperId::FloorF32,
            LibCall::FloorF64 => HelperId::FloorF64,
            LibCall::TruncF32 => HelperId::TruncF32,
            LibCall::TruncF64 => HelperId::TruncF64,
            LibCall::NearestF32 => HelperId::NearestF32,
            LibCall::NearestF64 => HelperId::NearestF64,
            LibCall::FmaF32 => HelperId::FmaF32,
            LibCall::FmaF64 => HelperId::FmaF64,
            _ => return None,
        })
    }

    /// The helper generated code calls at `addr` (descriptor-taking helpers only).
    fn of_call_target(addr: usize) -> Option<HelperId> {
        [
            HelperId::Alu,
            HelperId::Tex,
            HelperId::Sample,
            HelperId::InitLocal,
        ]
        .into_iter()
        .find(|h| h.address() == addr)
    }
}

/// What a relocation points at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// A function of the helper table, by its stable id.
    Helper(u32),
    /// The owner's descriptor with this index.
    Descriptor(u32),
}

/// One relocation: the 8 bytes at `offset` become the symbol's address plus
/// `addend` (Cranelift's `Abs8`, the only kind non-PIC x86-64 code uses here).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// Byte offset in the code.
    pub offset: u32,
    /// The target.
    pub symbol: Symbol,
    /// Added to the target's address.
    pub addend: i64,
}

/// Machine code with symbolic relocations: what is stored and loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeImage {
    /// The code, relocation sites as Cranelift left them.
    pub code: Vec<u8>,
    /// The relocations, by offset.
    pub relocs: Vec<Relocation>,
}

/// Relocation kind code of `Abs8` in the serialised form.
const KIND_ABS8: u8 = 1;

impl CodeImage {
    /// Appends the image to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_u32(out, self.code.len() as u32);
        out.extend_from_slice(&self.code);
        put_u32(out, self.relocs.len() as u32);
        for r in &self.relocs {
            put_u32(out, r.offset);
            out.push(KIND_ABS8);
            let (ns, index) = match r.symbol {
                Symbol::Helper(i) => (NS_HELPER as u8, i),
                Symbol::Descriptor(i) => (NS_DESC as u8, i),
            };
            out.push(ns);
            put_u32(out, index);
            out.extend_from_slice(&r.addend.to_le_bytes());
        }
    }

    /// Reads an image [`CodeImage::encode`] wrote; unknown relocation kinds
    /// and symbol namespaces are errors.
    pub fn decode(r: &mut ByteReader<'_>) -> Result<CodeImage> {
        let n = r.u32()? as usize;
        let code = r.take(n)?.to_vec();
        let nrelocs = r.u32()? as usize;
        let mut relocs = Vec::with_capacity(nrelocs.min(code.len() / 8 + 1));
        for _ in 0..nrelocs {
            let offset = r.u32()?;
            let kind = r.u8()?;
            if kind != KIND_ABS8 {
                return Err(bad(format!("unknown relocation kind {kind}")));
            }
            let ns = r.u8()?;
            let index = r.u32()?;
            let symbol = match u32::from(ns) {
                NS_HELPER => Symbol::Helper(index),
                NS_DESC => Symbol::Descriptor(index),
                _ => return Err(bad(format!("unknown symbol namespace {ns}"))),
            };
            let addend = i64::from_le_bytes(r.array()?);
            relocs.push(Relocation {
                offset,
                symbol,
                addend,
            });
        }
        Ok(CodeImage { code, relocs })
    }
}

fn bad(msg: String) -> Error {
    Error::InvalidArgument(format!("JIT code image: {msg}"))
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// A bounds-checked little-endian reader over a serialised blob.
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> ByteReader<'a> {
        ByteReader { bytes, at: 0 }
    }
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bad(format!("truncated at byte {}", self.at)))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    /// A byte.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    /// A `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    /// A `u64`.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    /// Errors unless every byte was read.
    pub fn finish(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(bad(format!(
                "{} trailing bytes",
                self.bytes.len() - self.at
            )))
        }
    }
}

/// The address generated code receives for a kept descriptor and a digest of
/// its contents (FNV-1a of its `Debug` text), or `None` for a type the cache
/// does not know.
fn descriptor(keep: &(dyn Any + Send + Sync)) -> Option<(usize, u64)> {
    let (addr, text) = if let Some(d) = keep.downcast_ref::<AluFallback>() {
        (d as *const AluFallback as usize, format!("alu {d:?}"))
    } else if let Some(d) = keep.downcast_ref::<TexCall>() {
        (d as *const TexCall as usize, format!("tex {d:?}"))
    } else if let Some(d) = keep.downcast_ref::<SampleCall>() {
        (d as *const SampleCall as usize, format!("sample {d:?}"))
    } else if let Some(d) = keep.downcast_ref::<Vec<u32>>() {
        (d.as_ptr() as usize, format!("init {d:?}"))
    } else {
        return None;
    };
    let digest = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Some((addr, digest))
}

/// The descriptors of `keep` as generated code refers to them: addresses and
/// content digests in list order, or `None` when one has an unknown type.
pub(crate) fn descriptors(keep: &[Box<dyn Any + Send + Sync>]) -> Option<Vec<(usize, u64)>> {
    keep.iter().map(|k| descriptor(&**k)).collect()
}

/// Rewrites the helper and descriptor addresses `func` holds as constants into
/// symbolic references (see the module doc). Returns whether every such address
/// was rewritten; when not, `func` is left unchanged.
pub(crate) fn symbolize(func: &mut Function, descs: Option<&[(usize, u64)]>) -> bool {
    let Some(descs) = descs else {
        return false;
    };
    let by_addr: HashMap<usize, u32> = descs
        .iter()
        .enumerate()
        .map(|(i, (a, _))| (*a, i as u32))
        .collect();
    if by_addr.len() != descs.len() {
        // Two descriptors at one address: a constant could not name one.
        return false;
    }
    let iconst = |func: &Function, v| -> Option<(cranelift_codegen::ir::Inst, usize)> {
        let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
            return None;
        };
        match func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } if func.dfg.value_type(v) == types::I64 => Some((inst, imm.bits() as usize)),
            _ => None,
        }
    };
    // (constant's instruction, symbol) pairs to rewrite.
    let mut plan: Vec<(cranelift_codegen::ir::Inst, Symbol)> = Vec::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if func.dfg.insts[inst].opcode() != Opcode::CallIndirect {
                continue;
            }
            let args = func.dfg.inst_args(inst);
            let Some((callee_inst, addr)) = iconst(func, args[0]) else {
                return false;
            };
            let Some(helper) = HelperId::of_call_target(addr) else {
                return false;
            };
            plan.push((callee_inst, Symbol::Helper(helper as u32)));
            if let Some(pos) = helper.descriptor_arg() {
                let Some(&arg) = args.get(1 + pos) else {
                    return false;
                };
                let Some((desc_inst, daddr)) = iconst(func, arg) else {
                    return false;
                };
                let Some(&index) = by_addr.get(&daddr) else {
                    return false;
                };
                plan.push((desc_inst, Symbol::Descriptor(index)));
            }
        }
    }
    // No other constant may hold one of these addresses.
    let planned: std::collections::HashSet<_> = plan.iter().map(|(i, _)| *i).collect();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if planned.contains(&inst) {
                continue;
            }
            if let InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } = func.dfg.insts[inst]
            {
                let v = imm.bits() as usize;
                if by_addr.contains_key(&v) || HelperId::of_call_target(v).is_some() {
                    return false;
                }
            }
        }
    }
    let mut names = HashMap::new();
    for (inst, symbol) in plan {
        let gv = *names.entry(symbol).or_insert_with(|| {
            let (ns, index) = match symbol {
                Symbol::Helper(i) => (NS_HELPER, i),
                Symbol::Descriptor(i) => (NS_DESC, i),
            };
            let name = func.declare_imported_user_function(UserExternalName::new(ns, index));
            func.create_global_value(GlobalValueData::Symbol {
                name: ExternalName::user(name),
                offset: 0.into(),
                colocated: false,
                tls: false,
            })
        });
        func.replace(inst).symbol_value(types::I64, gv);
    }
    true
}

/// Compiles `ctx.func` for `isa` and returns its code image (relocations made
/// symbolic). Errors name what is not supported (an unknown relocation). A
/// panic inside Cranelift (its register allocator asserts on IR it cannot
/// allocate) is caught and returned as an error, so the caller falls back to
/// the interpreter instead of taking the process down; `ctx` is left in an
/// unspecified state then and must not be reused.
pub(crate) fn compile(ctx: &mut Context, isa: &dyn TargetIsa) -> Result<CodeImage> {
    let names = ctx.func.params.user_named_funcs().clone();
    let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ctx.compile(isa, &mut ControlPlane::default())
            .map(|_| ())
            .map_err(|e| format!("{:?}", e.inner))
    }))
    .unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(format!("internal error: {what}"))
    })
    .map_err(|e| Error::Unsupported(format!("cranelift: {e}")))
    .and_then(|()| {
        ctx.compiled_code()
            .ok_or_else(|| Error::Unsupported("cranelift: no compiled code".into()))
    })?;
    let code = compiled.code_buffer().to_vec();
    let mut relocs = Vec::new();
    for r in compiled.buffer.relocs() {
        if r.kind != Reloc::Abs8 {
            return Err(Error::Unsupported(format!(
                "cranelift relocation kind {:?}",
                r.kind
            )));
        }
        let symbol = match &r.target {
            FinalizedRelocTarget::ExternalName(ExternalName::User(name)) => {
                let Some(n) = names.get(*name) else {
                    return Err(Error::Unsupported("cranelift: unknown user name".into()));
                };
                match n.namespace {
                    NS_HELPER => Symbol::Helper(n.index),
                    NS_DESC => Symbol::Descriptor(n.index),
                    ns => {
                        return Err(Error::Unsupported(format!(
                            "cranelift: symbol namespace {ns}"
                        )))
                    }
                }
            }
            FinalizedRelocTarget::ExternalName(ExternalName::LibCall(lc)) => {
                match HelperId::of_libcall(*lc) {
                    Some(h) => Symbol::Helper(h as u32),
                    None => return Err(Error::Unsupported(format!("cranelift libcall {lc}"))),
                }
            }
            t => {
                return Err(Error::Unsupported(format!(
                    "cranelift relocation target {t:?}"
                )))
            }
        };
        relocs.push(Relocation {
            offset: r.offset,
            symbol,
            addend: r.addend,
        });
    }
    Ok(CodeImage { code, relocs })
}

/// What a function needs besides its code image to be rebuilt in another
/// process: the kind and compile parameters its owner checks, and the content
/// digest of each descriptor its relocations name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionBlob {
    /// [`BLOB_SHADER`], [`BLOB_SHADER_TIER0`], [`BLOB_SHADER_DEFERRED`] or
    /// [`BLOB_PIPELINE`].
    pub kind: u8,
    /// Quads per loop iteration the body was emitted for.
    pub quads: u8,
    /// Scratch bytes the code uses.
    pub scratch_bytes: u64,
    /// Uniform slots the code reads without a bounds check.
    pub min_uniforms: u64,
    /// Digest of each descriptor, in the owner's list order.
    pub digests: Vec<u64>,
    /// The code.
    pub image: CodeImage,
}

/// A [`FunctionBlob`] of a shader's invocation function.
pub const BLOB_SHADER: u8 = 1;
/// A [`FunctionBlob`] of a fused pipeline.
pub const BLOB_PIPELINE: u8 = 2;
/// A [`FunctionBlob`] of a shader's invocation function compiled by the first
/// tier (no optimization, `single_pass` registers; [`crate::jit::tier`]): a
/// shader loaded from it is rebuilt optimised in the background, as a compiled
/// one is, so a tier-0 entry is never taken for the final code.
pub const BLOB_SHADER_TIER0: u8 = 3;
/// A [`FunctionBlob`] without code: a fragment shader whose invocation
/// function was not built yet because its draws take fused pipelines
/// (`JitShader`'s deferred first build). A shader loaded from it builds the
/// function on first use, as a compiled one does; its image and digests are
/// empty.
pub const BLOB_SHADER_DEFERRED: u8 = 4;
const MAGIC: [u8; 8] = *b"RGLJITF\0";

impl FunctionBlob {
    /// The serialised blob.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.image.code.len() + 64);
        out.extend_from_slice(&MAGIC);
        put_u32(&mut out, FORMAT_VERSION);
        out.push(self.kind);
        out.push(self.quads);
        out.extend_from_slice(&self.scratch_bytes.to_le_bytes());
        out.extend_from_slice(&self.min_uniforms.to_le_bytes());
        put_u32(&mut out, self.digests.len() as u32);
        for d in &self.digests {
            out.extend_from_slice(&d.to_le_bytes());
        }
        self.image.encode(&mut out);
        out
    }

    /// Reads a blob [`FunctionBlob::encode`] wrote; anything else is an error.
    pub fn decode(bytes: &[u8]) -> Result<FunctionBlob> {
        let mut r = ByteReader::new(bytes);
        if r.take(8)? != MAGIC {
            return Err(bad("not a JIT function blob".into()));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, not {FORMAT_VERSION}"
            )));
        }
        let kind = r.u8()?;
        let quads = r.u8()?;
        let scratch_bytes = r.u64()?;
        let min_uniforms = r.u64()?;
        let n = r.u32()? as usize;
        let mut digests = Vec::with_capacity(n.min(bytes.len() / 8));
        for _ in 0..n {
            digests.push(r.u64()?);
        }
        let image = CodeImage::decode(&mut r)?;
        r.finish()?;
        Ok(FunctionBlob {
            kind,
            quads,
            scratch_bytes,
            min_uniforms,
            digests,
            image,
        })
    }
}

/// A function compiled and mapped, with its image and descriptor digests
/// when every address in it is symbolic.
pub(crate) struct Built {
    pub mem: CodeMemory,
    pub code_size: usize,
    pub image: Option<(CodeImage, Vec<u64>)>,
}

/// Compiles `ctx.func` (whose descriptors `keep` holds) for `isa` and maps it.
pub(crate) fn build(
    ctx: &mut Context,
    isa: &dyn TargetIsa,
    keep: &[Box<dyn Any + Send + Sync>],
) -> Result<Built> {
    let descs = descriptors(keep);
    let cacheable = symbolize(&mut ctx.func, descs.as_deref());
    let image = compile(ctx, isa)?;
    let descs = descs.unwrap_or_default();
    let addrs: Vec<usize> = descs.iter().map(|d| d.0).collect();
    let mem = CodeMemory::map(&image, &addrs)?;
    let code_size = image.code.len();
    Ok(Built {
        mem,
        code_size,
        image: cacheable.then(|| (image, descs.iter().map(|d| d.1).collect())),
    })
}

/// Maps a stored `image` whose descriptors were rebuilt as `keep` (by
/// emitting the same body again): they must match the stored digests.
pub(crate) fn load(
    image: &CodeImage,
    digests: &[u64],
    keep: &[Box<dyn Any + Send + Sync>],
) -> Result<CodeMemory> {
    let descs = descriptors(keep).ok_or_else(|| bad("a descriptor of unknown type".into()))?;
    if descs.len() != digests.len() || descs.iter().zip(digests).any(|(d, s)| d.1 != *s) {
        return Err(bad(
            "the rebuilt descriptors differ from the stored ones".into()
        ));
    }
    let addrs: Vec<usize> = descs.iter().map(|d| d.0).collect();
    CodeMemory::map(image, &addrs)
}

/// Code mappings of this process not yet unmapped.
static LIVE_MAPPINGS: AtomicUsize = AtomicUsize::new(0);

/// How many code mappings the JIT holds in this process (every compiled or
/// loaded function until its owner drops): what teardown tests check.
pub fn live_mappings() -> usize {
    LIVE_MAPPINGS.load(Ordering::Relaxed)
}

/// Code mapped executable: unmapped on drop.
pub(crate) struct CodeMemory {
    ptr: *mut u8,
    mapped: usize,
}

// SAFETY: the mapping is immutable (read+execute) once built and owned by this
// value alone; sharing its address between threads is sound.
unsafe impl Send for CodeMemory {}
// SAFETY: as above; nothing mutates the mapping through `&CodeMemory`.
unsafe impl Sync for CodeMemory {}

impl std::fmt::Debug for CodeMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CodeMemory({} bytes)", self.mapped)
    }
}

impl CodeMemory {
    /// Maps `image` with its relocations resolved: helpers from the table,
    /// descriptor `i` at `descs[i]`. Every relocation is checked before
    /// anything is mapped: a known symbol, 8 bytes inside the code, no overlap.
    pub(crate) fn map(image: &CodeImage, descs: &[usize]) -> Result<CodeMemory> {
        let len = image.code.len();
        if len == 0 {
            return Err(bad("no code".into()));
        }
        let mut patches = Vec::with_capacity(image.relocs.len());
        for r in &image.relocs {
            let target = match r.symbol {
                Symbol::Helper(id) => HelperId::from_u32(id)
                    .ok_or_else(|| bad(format!("unknown helper symbol {id}")))?
                    .address(),
                Symbol::Descriptor(i) => *descs
                    .get(i as usize)
                    .ok_or_else(|| bad(format!("descriptor {i} of {}", descs.len())))?,
            };
            let at = r.offset as usize;
            if at.checked_add(8).is_none_or(|end| end > len) {
                return Err(bad(format!("relocation at {at} outside {len} bytes")));
            }
            patches.push((at, (target as u64).wrapping_add(r.addend as u64)));
        }
        patches.sort_unstable_by_key(|p| p.0);
        if patches.windows(2).any(|w| w[1].0 < w[0].0 + 8) {
            return Err(bad("overlapping relocations".into()));
        }
        // SAFETY: `sysconf` has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .ok()
            .filter(|p| p.is_power_of_two())
            .unwrap_or(4096);
        let mapped = len.div_ceil(page) * page;
        // SAFETY: an anonymous private mapping of `mapped` bytes, no address hint.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(Error::Exec(format!(
                "mapping {mapped} bytes of code: {}",
                std::io::Error::last_os_error()
            )));
        }
        let mem = CodeMemory {
            ptr: ptr.cast(),
            mapped,
        };
        LIVE_MAPPINGS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the mapping is `mapped >= len` writable bytes, ours alone.
        let bytes = unsafe { std::slice::from_raw_parts_mut(mem.ptr, len) };
        bytes.copy_from_slice(&image.code);
        for (at, value) in patches {
            bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        }
        // SAFETY: the whole mapping becomes read+execute; nothing writes it again.
        if unsafe { libc::mprotect(ptr, mapped, libc::PROT_READ | libc::PROT_EXEC) } != 0 {
            return Err(Error::Exec(format!(
                "making code executable: {}",
                std::io::Error::last_os_error()
            )));
        }
        if super::perfmap::enabled() {
            super::perfmap::record(mem.ptr, len);
        }
        Ok(mem)
    }

    /// The first instruction.
    pub(crate) fn entry(&self) -> *const u8 {
        self.ptr
    }
}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        // SAFETY: the mapping was made by `map` and its owner is going away, so
        // no code runs in it any more.
        unsafe {
            libc::munmap(self.ptr.cast(), self.mapped);
        }
        LIVE_MAPPINGS.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helper_ids_are_unique_and_round_trip() {
        for h in ALL_HELPERS {
            assert_eq!(HelperId::from_u32(h as u32), Some(h));
        }
        let mut addrs: Vec<usize> = ALL_HELPERS.iter().map(|h| h.address()).collect();
        addrs.sort_unstable();
        addrs.dedup();
        assert_eq!(addrs.len(), ALL_HELPERS.len());
        assert_eq!(HelperId::from_u32(4), None);
    }

    #[test]
    fn map_rejects_unknown_symbols_and_bad_offsets() {
        let image = |symbol, offset| CodeImage {
            code: vec![0xc3; 16],
            relocs: vec![Relocation {
                offset,
                symbol,
                addend: 0,
            }],
        };
        let err = |i: CodeImage| CodeMemory::map(&i, &[0x1000]).err().map(|e| e.to_string());
        assert!(err(image(Symbol::Helper(99), 0)).is_some_and(|e| e.contains("unknown helper")));
        assert!(err(image(Symbol::Descriptor(1), 0)).is_some_and(|e| e.contains("descriptor 1")));
        assert!(err(image(Symbol::Helper(0), 9)).is_some_and(|e| e.contains("outside")));
        assert!(err(image(Symbol::Helper(0), u32::MAX)).is_some_and(|e| e.contains("outside")));
        assert!(CodeMemory::map(&image(Symbol::Descriptor(0), 8), &[0x1000]).is_ok());
        let mut two = image(Symbol::Helper(0), 0);
        two.relocs.push(Relocation {
            offset: 4,
            symbol: Symbol::Helper(1),
            addend: 0,
        });
        assert!(err(two).is_some_and(|e| e.contains("overlapping")));
    }

    #[test]
    fn image_round_trips_and_rejects_unknown_kinds() {
        let image = CodeImage {
            code: vec![1, 2, 3, 4, 5, 6, 7, 8, 9],
            relocs: vec![Relocation {
                offset: 1,
                symbol: Symbol::Descriptor(3),
                addend: -2,
            }],
        };
        let mut out = Vec::new();
        image.encode(&mut out);
        let mut r = ByteReader::new(&out);
        assert_eq!(CodeImage::decode(&mut r).ok(), Some(image));
        assert!(r.finish().is_ok());
        // The kind byte follows the code (4 + 9 bytes), the count and the offset.
        let kind_at = 4 + 9 + 4 + 4;
        let mut bad_kind = out.clone();
        bad_kind[kind_at] = 7;
        assert!(CodeImage::decode(&mut ByteReader::new(&bad_kind)).is_err());
        let mut bad_ns = out.clone();
        bad_ns[kind_at + 1] = 9;
        assert!(CodeImage::decode(&mut ByteReader::new(&bad_ns)).is_err());
        for cut in 0..out.len() {
            assert!(CodeImage::decode(&mut ByteReader::new(&out[..cut])).is_err());
        }
    }
}
