//! `extern "C"` helpers the generated code calls, with the lane interpreter's exact
//! semantics: ALU ops without a vector lowering (the interpreter's kernels on a
//! small register file), and texture instructions ([`crate::lanes::tex::run_tex`]).
//!
//! Operands live in helper registers: [`Reg`]s in the body's scratch memory, the
//! body's lanes first. Helpers never unwind: a panic aborts at the `extern "C"`
//! boundary, and none of them can panic on any register contents.

use crate::exec::{Reg, Resources, ALL_LANES};
use crate::lanes::program::{Op, TexOp};

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
