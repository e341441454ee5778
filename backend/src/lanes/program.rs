//! The lane program: a flat, register-based instruction list ([`Op`]) over a file of
//! [`Reg`]s (one per scalar SSA component), and the shared pieces of the executor —
//! the masked register write and the control-flow mask slots.
//!
//! Control flow is masked execution. `exec` is the set of lanes running the current
//! instruction. Each `if` and each loop owns a *slot* (its nesting depth) holding the
//! masks it needs: an `if` keeps the lanes of its else arm and the lanes leaving its
//! then arm; a loop keeps the lanes that broke out and the lanes that continued. A
//! lane leaving through `break`, `continue`, `return`, `halt` or a kill simply drops
//! out of `exec` and is merged back where its path rejoins (else/endif, loop end,
//! loop exit). Loop back-edges jump while any lane is still iterating and charge the
//! draw's [`crate::exec::Budget`] with the instructions executed so far.

use crate::exec::{Reg, LANES};

/// Texture operation parameters (see [`super::tex`]).
#[derive(Clone, Debug)]
pub(crate) struct TexOp {
    /// Operation.
    pub kind: TexKind,
    /// Texture slot (`texture_index`).
    pub index: u32,
    /// Dynamic slot offset register (`texture_offset`), lane 0..: per-lane slot.
    pub index_reg: Option<u32>,
    /// Coordinate registers (after projection).
    pub coords: Vec<u32>,
    /// Projector register (divides the coordinates and the comparator).
    pub proj: Option<u32>,
    /// Comparator register.
    pub compare: Option<u32>,
    /// Bias / lod register.
    pub lod: Option<u32>,
    /// Gradient registers (ddx, ddy).
    pub ddx: Vec<u32>,
    /// Y gradients.
    pub ddy: Vec<u32>,
    /// Constant texel offset.
    pub offset: [i32; 3],
    /// Per-lane texel offset registers (x, y) of a gather whose offset is not
    /// constant (`textureGatherOffset` in GLSL 4.00 / ARB_gpu_shader5).
    pub offset_regs: Option<[u32; 2]>,
    /// Gathered component (`tg4`).
    pub component: u8,
    /// Result is an integer type (`int32` / `uint32`) and needs conversion from the
    /// filtered floats.
    pub int_result: Option<bool>,
    /// Destination registers (up to 4).
    pub dest: Vec<u32>,
    /// The stage has quad derivatives (fragment): implicit LOD is available.
    pub fragment: bool,
}

/// Texture operation kinds the compiler supports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TexKind {
    /// `tex` (implicit LOD).
    Tex,
    /// `txb`.
    Txb,
    /// `txl`.
    Txl,
    /// `txd`.
    Txd,
    /// `txf`.
    Txf,
    /// `txs`.
    Txs,
    /// `query_levels`.
    Levels,
    /// `lod` (`textureQueryLOD`).
    Lod,
    /// `tg4` (`textureGather*`).
    Gather,
}

/// Unary per-lane operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Un {
    Mov,
    FNeg,
    FAbs,
    FSat,
    FSign,
    FFloor,
    FCeil,
    FTrunc,
    FFract,
    FRoundEven,
    FSqrt,
    FRsq,
    FRcp,
    FExp2,
    FLog2,
    FSin,
    FCos,
    INeg,
    IAbs,
    INot,
    BNot,
    F2I,
    F2U,
    I2F,
    U2F,
    B2F,
    B2I,
    /// Any non-zero to 1 (1-bit boolean normalisation: `b2b1`, `i2b1`).
    ToB1,
    /// Any non-zero to all ones (`b2b32`).
    ToB32,
    F2B,
    ISign,
}

/// Binary per-lane operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bin {
    FAdd,
    FSub,
    FMul,
    FDiv,
    FMin,
    FMax,
    FMod,
    FPow,
    IAdd,
    ISub,
    IMul,
    IDiv,
    UDiv,
    IMod,
    IRem,
    UMod,
    IAnd,
    IOr,
    IXor,
    IShl,
    IShr,
    UShr,
    IMin,
    IMax,
    UMin,
    UMax,
    FLt,
    FGe,
    FEq,
    FNe,
    ILt,
    IGe,
    IEq,
    INe,
    ULt,
    UGe,
}

/// Ternary per-lane operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tri {
    /// `a * b + c` with two roundings (a fused `fmul` + `fadd`).
    FMulAdd,
    FFma,
    FLrp,
    BCsel,
    FCsel,
}

/// One instruction. Register operands are indices into the register file.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// `d = f(a)`.
    Un { f: Un, d: u32, a: u32 },
    /// `d = f(a, b)`.
    Bin { f: Bin, d: u32, a: u32, b: u32 },
    /// `d = f(a, b, c)`.
    Tri {
        f: Tri,
        d: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    /// Up to 4 consecutive `Un` ops with the same `f`, run in order.
    UnN {
        f: Un,
        n: u8,
        d: [u32; 4],
        a: [u32; 4],
    },
    /// Up to 4 consecutive `Bin` ops with the same `f`, run in order.
    BinN {
        f: Bin,
        n: u8,
        d: [u32; 4],
        a: [u32; 4],
        b: [u32; 4],
    },
    /// Up to 4 consecutive `Tri` ops with the same `f`, run in order.
    TriN {
        f: Tri,
        n: u8,
        d: [u32; 4],
        a: [u32; 4],
        b: [u32; 4],
        c: [u32; 4],
    },
    /// `d = dot(a[..n], b[..n])` (products summed in f64, rounded once).
    Dot {
        n: u8,
        d: u32,
        a: [u32; 4],
        b: [u32; 4],
    },
    /// Any other ALU op, evaluated per lane by the opcode table's folder: one
    /// destination component `comp` of a `bits`-bit result.
    Fold {
        op: rgl_nir::opcodes::Opcode,
        bits: u8,
        comp: u8,
        d: u32,
        /// Per source: bit size and the registers of its (swizzled) components.
        srcs: Vec<(u8, Vec<u32>)>,
    },
    /// `d = input word` (input register index).
    LoadInput { d: u32, i: u32 },
    /// `d = input[table[off]]` with a per-lane offset; -1 / out of the table reads 0.
    LoadInputIndirect {
        d: u32,
        off: u32,
        table: Vec<i32>,
        comp: u8,
    },
    /// GS per-vertex input: vertex register (per lane), input word index within a vertex.
    LoadVertexInput {
        d: u32,
        vertex: u32,
        table: Vec<i32>,
        off: Option<u32>,
        comp: u8,
        vertices: u32,
    },
    /// `d = output word o` (read back).
    LoadOutput { d: u32, o: u32 },
    /// Masked `output[o] = a`.
    StoreOutput { o: u32, a: u32 },
    /// Masked `output[table[off] * 4 + comp] = a`.
    StoreOutputIndirect {
        a: u32,
        off: u32,
        table: Vec<i32>,
        comp: u8,
    },
    /// `d = uniform[slot][comp]` (the same for every lane).
    LoadUniform { d: u32, slot: u32, comp: u8 },
    /// `d = uniform[base + off][comp]` with a per-lane offset.
    LoadUniformIndirect {
        d: u32,
        base: u32,
        off: u32,
        comp: u8,
    },
    /// `d = ubo[block][offset + 4 * comp]` per lane (0 outside the bound range).
    LoadUbo {
        d: u32,
        block: u32,
        off: u32,
        comp: u8,
    },
    /// `d = storage[block][off + 4 * comp]` per executing lane (0 outside the
    /// bound range, see [`crate::storage`]).
    LoadSsbo {
        d: u32,
        block: u32,
        off: u32,
        comp: u8,
    },
    /// `storage[block][off + 4 * comp] = a` for each executing lane that is
    /// live: fragment helper lanes never write (GLSL 4.50 §7.1.2,
    /// `gl_HelperInvocation`), out-of-range writes are dropped.
    StoreSsbo {
        a: u32,
        block: u32,
        off: u32,
        comp: u8,
    },
    /// The atomic `op` on `storage[block][off]` with `data` (and `swap` for
    /// `cmpxchg`), one executing live lane after another in lane order; `d` is
    /// the old word (0 for helper lanes, which perform no atomic).
    SsboAtomic {
        d: u32,
        block: u32,
        off: u32,
        data: u32,
        swap: Option<u32>,
        op: rgl_nir::intrinsics::AtomicOp,
    },
    /// `d = ` byte size of storage binding `block` (0 when unbound).
    SsboSize { d: u32, block: u32 },
    /// An image access of every executing lane on image index `image`
    /// ([`ImageOp`]; boxed to keep `Op` small).
    Image(Box<ImageOp>),
    /// `d = shared[off + base + 4 * comp]` per executing lane, for the 32-bit
    /// words of the workgroup's shared memory (compute only; 0 outside it or
    /// at a byte offset that is no multiple of 4).
    LoadShared {
        d: u32,
        off: u32,
        base: i32,
        comp: u8,
    },
    /// `shared[off + base + 4 * comp] = a` per executing lane (dropped outside).
    StoreShared {
        a: u32,
        off: u32,
        base: i32,
        comp: u8,
    },
    /// The atomic `op` on `shared[off + base]` with `data` (and `swap` for
    /// `cmpxchg`), one executing lane after another; `d` is the old word.
    SharedAtomic {
        d: u32,
        off: u32,
        base: i32,
        data: u32,
        swap: Option<u32>,
        op: rgl_nir::intrinsics::AtomicOp,
    },
    /// A workgroup execution barrier (`barrier()`, GLSL 4.30 §8.16): a compute
    /// batch suspends here until every batch of its workgroup has reached it.
    Barrier,
    /// A memory-only barrier (`memoryBarrier*()`): orders this lane's storage
    /// accesses before the later ones for other threads.
    Fence,
    /// `d = system value`.
    SysVal { d: u32, v: SysKind },
    /// Quad x derivative: per row, or once per quad when `coarse`.
    Ddx { d: u32, a: u32, coarse: bool },
    /// Quad y derivative: per column, or once per quad when `coarse`.
    Ddy { d: u32, a: u32, coarse: bool },
    /// `lo, hi` = the shader clock (`rgl_nir::eval::clock::read_2x32`), one
    /// read for every lane.
    Clock { lo: u32, hi: u32 },
    /// Element offset of an array deref: `d = parent + idx * stride` when
    /// `idx < len`, else an out-of-range marker (propagates).
    DerefIndex {
        d: u32,
        parent: Option<u32>,
        idx: u32,
        stride: u32,
        len: u32,
    },
    /// Load a scalar of a local array: `d = mem[base + off + k]` when in `size`.
    LoadLocal {
        d: u32,
        base: u32,
        size: u32,
        off: Option<u32>,
        k: u32,
        bool1: bool,
    },
    /// Masked store of a scalar of a local array.
    StoreLocal {
        a: u32,
        base: u32,
        size: u32,
        off: Option<u32>,
        k: u32,
    },
    /// Texture operation.
    Tex(Box<TexOp>),
    /// Kill the lanes of `exec` (where `cond` is set, when given).
    Kill { cond: Option<u32> },
    /// Emit a GS vertex for the active lanes.
    Emit,
    /// End the GS primitive of the active lanes.
    EndPrim,
    /// `if`: enter the then arm with `exec & cond`; jump to the `Else` op when empty.
    If { cond: u32, slot: u32, else_pc: u32 },
    /// Switch to the else arm; jump to `EndIf` when it is empty.
    Else { slot: u32, end_pc: u32 },
    /// Merge the lanes leaving both arms.
    EndIf { slot: u32 },
    /// Enter a loop; skip it (to `exit_pc`) when no lane is active.
    Loop { slot: u32, exit_pc: u32 },
    /// Loop back-edge: lanes that continued rejoin; jump to `body_pc` while any lane
    /// is iterating, else leave with the lanes that broke out.
    EndLoop { slot: u32, body_pc: u32 },
    /// Lanes leave the innermost loop.
    Break { slot: u32 },
    /// Lanes go to the next iteration.
    Continue { slot: u32 },
    /// Lanes of `exec` where `cond` is set leave the loop; with no lane left, jump to
    /// the loop's `EndLoop` at `end_pc` (`u32::MAX`: no jump).
    BreakIf { cond: u32, slot: u32, end_pc: u32 },
    /// Lanes of `exec` where `cond` is set go to the next iteration (jumping like
    /// `BreakIf`).
    ContinueIf { cond: u32, slot: u32, end_pc: u32 },
    /// Lanes stop (`return` from main, `halt`).
    Stop,
}

/// System values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum SysKind {
    FragCoord(u8),
    FrontFace,
    PointCoord(u8),
    VertexId,
    InstanceId,
    PrimitiveId,
    /// Lanes outside the invocation's live mask (1-bit).
    Helper,
    /// A constant word (single-sample values, layer 0).
    Const(u32),
    /// `gl_InvocationID` of a geometry shader: the number of the run of the
    /// body over the batch (see [`Program::gs_invocations`]).
    InvocationId,
    /// `gl_LocalInvocationID` component (compute).
    LocalId(u8),
    /// `gl_WorkGroupID` component (compute).
    WorkgroupId(u8),
    /// `gl_NumWorkGroups` component (compute).
    NumWorkgroups(u8),
}

/// A compiled program.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    /// Instructions.
    pub ops: Vec<Op>,
    /// Registers needed (the file also holds constants and locals).
    pub nregs: u32,
    /// Constant registers: (register, word) filled before the first run of a batch.
    pub consts: Vec<(u32, u32)>,
    /// Local array storage: (first register, words); zeroed or initialised per run.
    pub locals: Vec<(u32, Vec<u32>)>,
    /// Fragment shader (helpers compute; derivatives available).
    pub fragment: bool,
    /// Geometry shader `layout(invocations = N)` (GLSL 4.00 §4.4.1.2); 1
    /// for every other program. Each batch runs the body once per invocation.
    pub gs_invocations: u32,
}

/// Most nested ifs and loops a program may have.
pub(crate) const MAX_DEPTH: usize = 64;

/// Lane `i` as f32.
#[inline(always)]
pub(crate) fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Writes `v` to the lanes of `exec` of register `d`.
#[inline(always)]
pub(crate) fn store(regs: &mut [Reg], d: u32, exec: u32, v: [u32; LANES]) {
    let r = &mut regs[d as usize].0;
    if exec == crate::exec::ALL_LANES {
        *r = v;
    } else {
        for i in 0..LANES {
            let m = ((exec >> i) & 1).wrapping_neg();
            r[i] = (v[i] & m) | (r[i] & !m);
        }
    }
}

/// `f` over the lanes of one register.
#[inline(always)]
pub(crate) fn map1(a: &[u32; LANES], f: impl Fn(u32) -> u32) -> [u32; LANES] {
    let mut o = [0u32; LANES];
    for i in 0..LANES {
        o[i] = f(a[i]);
    }
    o
}

/// `f` over the lanes of two registers.
#[inline(always)]
pub(crate) fn map2(
    a: &[u32; LANES],
    b: &[u32; LANES],
    f: impl Fn(u32, u32) -> u32,
) -> [u32; LANES] {
    let mut o = [0u32; LANES];
    for i in 0..LANES {
        o[i] = f(a[i], b[i]);
    }
    o
}

/// `f` over the lanes of three registers.
#[inline(always)]
pub(crate) fn map3(
    a: &[u32; LANES],
    b: &[u32; LANES],
    c: &[u32; LANES],
    f: impl Fn(u32, u32, u32) -> u32,
) -> [u32; LANES] {
    let mut o = [0u32; LANES];
    for i in 0..LANES {
        o[i] = f(a[i], b[i], c[i]);
    }
    o
}

/// What an [`Op::Image`] does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ImageOpKind {
    /// `image_load`: `d[0..4]` = the texel at `coord` (0 out of range).
    Load,
    /// `image_store` of `value` for each executing lane that is live (helper
    /// lanes never write, as [`Op::StoreSsbo`]).
    Store,
    /// `image_atomic(_swap)` with `value[0]` (and `value[1]` for a
    /// compare-and-swap), one executing live lane after another; `d[0]` is the
    /// old word (0 for helper lanes).
    Atomic(rgl_nir::intrinsics::AtomicOp),
    /// `image_size`: `d[0..n]`, the same for every lane of one image index.
    Size,
    /// `image_samples`: `d[0]`.
    Samples,
}

/// One image access (see [`crate::image::ImageView`] for addressing and
/// formats).
#[derive(Clone, Debug, PartialEq)]
pub struct ImageOp {
    /// The access.
    pub kind: ImageOpKind,
    /// Register of the image index.
    pub image: u32,
    /// Registers of the 4 coordinate components.
    pub coord: [u32; 4],
    /// Result registers (the first `n` are written).
    pub d: [u32; 4],
    /// Result components.
    pub n: u8,
    /// Registers of the stored texel or the atomic's data (and swap value).
    pub value: [u32; 4],
    /// The image's dimensionality and arrayness (the intrinsic's indices).
    pub dim: rgl_nir::ir::SamplerDim,
    /// Array image.
    pub array: bool,
}
