//! Calls from generated code into Rust helpers ([`crate::jit::helpers`]): operands
//! go to helper registers in the body's scratch memory (a [`crate::exec::Reg`] per
//! operand, the body's lanes first), the helper runs, results come back from
//! helper registers. Texture instructions and the ALU ops without a vector lowering
//! run the lane interpreter's own code this way (the same semantics by
//! construction).

use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature, Value};
use rgl_nir::ir::{Alu, Def, FunctionImpl, Tex};

use super::{trusted, Emitter, Lanes, HELPER_REGS, MAX_QUADS};
use crate::jit::helpers::{self, AluFallback};
use crate::lanes::alu::RegMap;
use crate::{Error, Result};

/// Assigns helper registers to the (def, component) pairs an interpreter op reads
/// or writes.
struct HelperRegs<'f> {
    func: &'f FunctionImpl,
    regs: Vec<(Def, u8)>,
}

impl RegMap for HelperRegs<'_> {
    fn reg(&mut self, d: Def, c: u8) -> Result<u32> {
        if let Some(i) = self.regs.iter().position(|x| *x == (d, c)) {
            return Ok(i as u32);
        }
        let n = self
            .func
            .defs
            .get(d)
            .map(|x| x.num_components)
            .ok_or_else(|| Error::Unsupported(format!("malformed NIR: unknown def {d}")))?;
        if c >= n {
            return Err(Error::Unsupported(format!(
                "malformed NIR: component {c} of {n}-component {d}"
            )));
        }
        if self.regs.len() as u32 >= HELPER_REGS {
            return Err(Error::Unsupported(format!(
                "an instruction with more than {HELPER_REGS} operand components"
            )));
        }
        self.regs.push((d, c));
        Ok(self.regs.len() as u32 - 1)
    }
    fn bits(&self, d: Def) -> u8 {
        self.func.defs.get(d).map(|x| x.bit_size).unwrap_or(32)
    }
}

impl Emitter<'_, '_, '_> {
    /// Calls the `extern "C"` function at `f` with pointer-sized arguments.
    pub(super) fn call_helper(&mut self, f: usize, args: &[Value]) {
        let key = (args.len(), false);
        let sig = match self.sigs.get(&key) {
            Some(s) => *s,
            None => {
                let mut sig = Signature::new(self.b.func.signature.call_conv);
                for _ in args {
                    sig.params.push(AbiParam::new(types::I64));
                }
                let s = self.b.import_signature(sig);
                self.sigs.insert(key, s);
                s
            }
        };
        let callee = self.b.ins().iconst(types::I64, f as i64);
        self.b.ins().call_indirect(sig, callee, args);
    }

    /// Address of helper register `r`.
    pub(super) fn helper_reg_addr(&mut self, r: u32) -> Value {
        let base = self.ptrs().scratch;
        let off = i64::from(self.p.helper_base) + i64::from(r) * 64;
        self.b.ins().iadd_imm_s(base, off)
    }

    /// Stores lanes to helper register `r` (1-bit masks as 0/1 when `bool01`).
    pub(super) fn put_reg(&mut self, r: u32, v: Lanes, bool01: bool) {
        let v = if bool01 {
            let one = self.splat(1);
            self.map1(v, |e, x| e.b.ins().band(x, one))
        } else {
            v
        };
        let base = self.ptrs().scratch;
        let off = self.p.helper_base as i32 + r as i32 * 64;
        for q in 0..self.q {
            self.b
                .ins()
                .store(trusted(), v.0[q], base, off + q as i32 * 16);
        }
    }

    /// Loads lanes from helper register `r`.
    pub(super) fn get_reg(&mut self, r: u32) -> Lanes {
        let base = self.ptrs().scratch;
        let off = self.p.helper_base as i32 + r as i32 * 64;
        let first = self.b.ins().load(types::I32X4, trusted(), base, off);
        let mut out = Lanes::splat(first);
        for q in 1..self.q {
            out.0[q] = self
                .b
                .ins()
                .load(types::I32X4, trusted(), base, off + q as i32 * 16);
        }
        out
    }

    /// Runs an ALU instruction through the interpreter's kernels.
    pub(super) fn alu_fallback(&mut self, alu: &Alu, d: Def) -> Result<()> {
        let mut map = HelperRegs {
            func: self.p.func,
            regs: Vec::new(),
        };
        let mut ops = Vec::new();
        crate::lanes::alu::compile_alu(self.p.func, alu, d, &mut map, &mut ops)?;
        let regs = map.regs;
        for (r, &(sd, c)) in regs.iter().enumerate() {
            if sd == d {
                continue;
            }
            let v = self.val(sd, c)?;
            let bool01 = self.shape(sd).1 == 1;
            self.put_reg(r as u32, v, bool01);
        }
        let desc = Box::new(AluFallback {
            ops,
            nregs: regs.len() as u32,
        });
        let dp = &*desc as *const AluFallback as i64;
        self.keep.push(desc);
        let dv = self.b.ins().iconst(types::I64, dp);
        let p = self.helper_reg_addr(0);
        self.call_helper(helpers::jit_alu as *const () as usize, &[dv, p]);
        let dbits = self.shape(d).1;
        for (r, &(sd, c)) in regs.iter().enumerate() {
            if sd != d {
                continue;
            }
            let v = self.get_reg(r as u32);
            let v = if dbits == 1 { self.nonzero(v) } else { v };
            self.set(d, c, v)?;
        }
        Ok(())
    }

    /// A texture instruction through the interpreter's texture code.
    pub(super) fn tex(&mut self, d: Def, t: &Tex) -> Result<()> {
        let f = self.p.func;
        let mut map = HelperRegs {
            func: f,
            regs: Vec::new(),
        };
        let n = self.shape(d).0.min(4);
        let dest = (0..n).map(|c| map.reg(d, c)).collect::<Result<Vec<_>>>()?;
        let fragment = self.stage() == crate::driver::ShaderStage::Fragment;
        let op = crate::lanes::tex::compile_tex(f, t, dest, &mut map, fragment)?;
        let regs = map.regs;
        for (r, &(sd, c)) in regs.iter().enumerate() {
            if sd == d {
                continue;
            }
            let v = self.val(sd, c)?;
            let bool01 = self.shape(sd).1 == 1;
            self.put_reg(r as u32, v, bool01);
        }
        let nregs = regs.len() as u32;
        // Filtered lookups from a fixed slot call the binding's sampler variant
        // directly; the rest run the interpreter's texture op.
        let (dp, helper) = match helpers::SampleCall::from_op(&op, nregs) {
            Some(call) => {
                let desc = Box::new(call);
                let dp = &*desc as *const helpers::SampleCall as i64;
                self.keep.push(desc);
                (dp, helpers::jit_sample as *const () as usize)
            }
            None => {
                let desc = Box::new(helpers::TexCall { op, nregs });
                let dp = &*desc as *const helpers::TexCall as i64;
                self.keep.push(desc);
                (dp, helpers::jit_tex as *const () as usize)
            }
        };
        let dv = self.b.ins().iconst(types::I64, dp);
        let res = self.ptrs().resources;
        let p = self.helper_reg_addr(0);
        self.call_helper(helper, &[res, dv, p]);
        let dbits = self.shape(d).1;
        for (r, &(sd, c)) in regs.iter().enumerate() {
            if sd != d {
                continue;
            }
            let v = self.get_reg(r as u32);
            let v = if dbits == 1 { self.nonzero(v) } else { v };
            self.set(d, c, v)?;
        }
        // Components past the fourth read 0, as in the interpreter's register file.
        for c in n..self.shape(d).0 {
            let z = self.lanes_splat(0);
            self.set(d, c, z)?;
        }
        let _ = MAX_QUADS;
        Ok(())
    }
}
