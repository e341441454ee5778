//! `extern "C"` helpers the generated code calls, with the lane interpreter's exact
//! semantics: ALU ops without a vector lowering (the interpreter's kernels on a
//! small register file), texture instructions ([`crate::lanes::tex::run_tex`]),
//! and filtered lookups from a fixed slot ([`jit_sample`]: the binding's sampler
//! variant called directly, the operands' registers resolved at compile time).
//!
//! Operands live in helper registers: [`Reg`]s in the body's scratch memory, the
//! body's lanes first. Helpers never unwind: a panic aborts at the `extern "C"`
//! boundary, and none of them can panic on any register contents.

use crate::exec::{Reg, Resources, ALL_LANES};
use crate::lanes::program::{Op, TexKind, TexOp};
use crate::texture::{LodMode, SampleRequest};

/// An ALU instruction as interpreter ops over `nregs` helper registers.
#[derive(Debug)]
pub(crate) struct AluFallback {
    pub ops: Vec<Op>,
    pub nregs: u32,
}

/// Runs an [`AluFallback`] on the helper registers at `regs`.
///
/// # Safety
/// `desc` points to a live [`AluFallback`]; `regs` to its `nregs` registers.
pub(crate) unsafe extern "C" fn jit_alu(desc: *const AluFallback, regs: *mut Reg) {
    let desc = &*desc;
    let regs = std::slice::from_raw_parts_mut(regs, desc.nregs as usize);
    for op in &desc.ops {
        run_alu_op(regs, op);
    }
}

fn run_alu_op(regs: &mut [Reg], op: &Op) {
    use crate::lanes::alu;
    let e = ALL_LANES;
    match op {
        Op::Un { f, d, a } => alu::run_un(regs, e, *f, *d, *a),
        Op::Bin { f, d, a, b } => alu::run_bin(regs, e, *f, *d, *a, *b),
        Op::Tri { f, d, a, b, c } => alu::run_tri(regs, e, *f, *d, *a, *b, *c),
        Op::Dot { n, d, a, b } => alu::run_dot(regs, e, *n, *d, a, b),
        Op::Fold {
            op,
            bits,
            comp,
            d,
            srcs,
        } => alu::run_fold(regs, e, *op, *bits, *comp, *d, srcs),
        // `compile_alu` produces only the ops above.
        _ => {}
    }
}

/// Writes the shader clock (`clock2x32ARB`: low word, high word) to `out`.
///
/// # Safety
/// `out` points to two writable `u32`s (a helper register).
pub(crate) unsafe extern "C" fn jit_shader_clock(out: *mut u32) {
    let [lo, hi] = rgl_nir::eval::clock::read_2x32();
    out.write(lo);
    out.add(1).write(hi);
}

/// A texture instruction over `nregs` helper registers.
#[derive(Debug)]
pub(crate) struct TexCall {
    pub op: TexOp,
    pub nregs: u32,
}

/// Runs a [`TexCall`] with the draw's resources.
///
/// # Safety
/// `res` points to the draw's live [`Resources`]; `desc` to a live [`TexCall`];
/// `regs` to its `nregs` registers.
pub(crate) unsafe extern "C" fn jit_tex(
    res: *const Resources<'_>,
    desc: *const TexCall,
    regs: *mut Reg,
) {
    let desc = &*desc;
    let regs = std::slice::from_raw_parts_mut(regs, desc.nregs as usize);
    crate::lanes::tex::run_tex(regs, ALL_LANES, &desc.op, &*res);
}

/// Fills local arrays: `lanes` copies of each of the `n` words at `init`, to `dst`.
///
/// # Safety
/// `dst` points to `n × lanes` writable words, `init` to `n` words.
pub(crate) unsafe extern "C" fn jit_init_local(
    dst: *mut u32,
    init: *const u32,
    n: u64,
    lanes: u64,
) {
    let init = std::slice::from_raw_parts(init, n as usize);
    let dst = std::slice::from_raw_parts_mut(dst, n as usize * lanes as usize);
    for (chunk, w) in dst.chunks_exact_mut(lanes as usize).zip(init) {
        chunk.fill(*w);
    }
}

/// How a [`SampleCall`] chooses its level of detail (resolved at compile time from
/// the op's kind and stage, as [`crate::lanes::tex::run_tex`] does per call).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SampleLod {
    /// From the quad's derivatives, plus the bias in this register if any.
    Implicit(Option<u32>),
    /// Explicit, from this register (`None`: level 0).
    Lod(Option<u32>),
}

/// A filtered lookup (`tex`, `txb`, `txl`) from a fixed slot with its coordinates
/// in consecutive helper registers and no projector: the form [`jit_sample`] runs
/// without decoding a [`TexOp`].
#[derive(Debug)]
pub(crate) struct SampleCall {
    pub index: u32,
    pub coord0: u32,
    pub ncoords: u32,
    pub lod: SampleLod,
    pub compare: Option<u32>,
    pub offset: [i32; 3],
    pub int_result: Option<bool>,
    pub dest: [u32; 4],
    pub ndest: u32,
    pub nregs: u32,
}

impl SampleCall {
    /// The direct form of `op` over `nregs` helper registers, if it has one.
    pub(crate) fn from_op(op: &TexOp, nregs: u32) -> Option<SampleCall> {
        let direct = matches!(op.kind, TexKind::Tex | TexKind::Txb | TexKind::Txl)
            && op.index_reg.is_none()
            && op.proj.is_none()
            && !op.coords.is_empty()
            && op.coords.len() <= 4
            && op.coords.windows(2).all(|w| w[1] == w[0].wrapping_add(1))
            && op.dest.len() <= 4;
        if !direct {
            return None;
        }
        let lod = match (op.kind, op.fragment) {
            (TexKind::Tex, true) => SampleLod::Implicit(None),
            (TexKind::Txb, true) => SampleLod::Implicit(op.lod),
            (TexKind::Txl | TexKind::Txb, _) => SampleLod::Lod(op.lod),
            _ => SampleLod::Lod(None),
        };
        let mut dest = [0u32; 4];
        dest[..op.dest.len()].copy_from_slice(&op.dest);
        let inside = |r: u32| r < nregs;
        let ok = op.coords.iter().all(|&r| inside(r))
            && op.dest.iter().all(|&r| inside(r))
            && op.compare.is_none_or(inside)
            && op.lod.is_none_or(inside);
        ok.then_some(SampleCall {
            index: op.index,
            coord0: op.coords[0],
            ncoords: op.coords.len() as u32,
            lod,
            compare: op.compare,
            offset: op.offset,
            int_result: op.int_result,
            dest,
            ndest: op.dest.len() as u32,
            nregs,
        })
    }
}

/// Runs a [`SampleCall`]: the slot's binding samples through its sampler variant
/// ([`crate::texture::sample`]); an unbound slot reads (0, 0, 0, 1), as in
/// [`crate::lanes::tex::run_tex`], whose results this matches for every input.
///
/// # Safety
/// `res` points to the draw's live [`Resources`]; `desc` to a live [`SampleCall`];
/// `regs` to its `nregs` registers.
pub(crate) unsafe extern "C" fn jit_sample(
    res: *const Resources<'_>,
    desc: *const SampleCall,
    regs: *mut Reg,
) {
    let d = &*desc;
    let regs = std::slice::from_raw_parts_mut(regs, d.nregs as usize);
    let res = &*res;
    let r = match res.textures.get(d.index as usize).and_then(|b| b.as_ref()) {
        None => {
            let mut o = [Reg::default(); 4];
            o[3] = if d.int_result.is_some() {
                Reg::splat_u(1)
            } else {
                Reg::splat_f(1.0)
            };
            o
        }
        Some(b) => {
            let zero = Reg::default();
            let c0 = d.coord0 as usize;
            let coords = &regs[c0..c0 + d.ncoords as usize];
            let lod = match d.lod {
                SampleLod::Implicit(bias) => LodMode::Implicit(bias.map(|r| &regs[r as usize])),
                SampleLod::Lod(Some(r)) => LodMode::Lod(&regs[r as usize]),
                SampleLod::Lod(None) => LodMode::Lod(&zero),
            };
            let req = SampleRequest {
                coords,
                lod,
                offset: d.offset,
                compare: d.compare.map(|c| &regs[c as usize]),
            };
            let mut v = crate::texture::sample(b, &req);
            if let Some(signed) = d.int_result {
                crate::lanes::tex::to_int(&mut v, signed);
            }
            v
        }
    };
    for c in 0..d.ndest as usize {
        regs[d.dest[c] as usize] = r[c];
    }
}
