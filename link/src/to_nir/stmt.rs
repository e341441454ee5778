//! Functions, statements and control flow: every defined user function becomes a NIR
//! function (calling convention of [`rgl_nir::ir::Function`]); assignments become
//! stores or copies, `if`/`loop`/`break`/`continue`/`return` map onto NIR's structured
//! control flow, calls copy arguments in and out through caller-owned temporaries,
//! `discard` becomes `terminate(_if)`, and geometry emits become intrinsics.

use rustc_hash::FxHashSet as HashSet;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{self, ExprKind, Stmt, VarMode as HMode};
use rgl_glsl::types::Type as GType;
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::{CfKind, CfList, CfParent, InstrKind, JumpKind, VarMode};

use super::types::contains_sampler;
use super::vars::width;
use super::{invalid, unsupported, Conv, Fs, Param, Res};

fn full_mask(n: u8) -> u8 {
    ((1u16 << n.min(8)) - 1) as u8
}

impl Conv<'_> {
    /// Declares a NIR function for every defined user signature (unique names).
    pub(crate) fn declare_functions(&mut self) -> Res<()> {
        let mut used: HashSet<String> = HashSet::default();
        let mut have_main = false;
        for item in &self.m.items {
            let hir::Item::Function(fh) = *item else {
                continue;
            };
            let Some(f) = self.m.functions.get(fh) else {
                return invalid("function handle out of range");
            };
            let defined: Vec<usize> = f
                .signatures
                .iter()
                .enumerate()
                .filter(|(_, s)| s.builtin.is_none() && s.is_defined)
                .map(|(i, _)| i)
                .collect();
            for (k, &si) in defined.iter().enumerate() {
                let sig = &f.signatures[si];
                let is_main = f.name == "main" && sig.parameters.is_empty();
                let base = if is_main || defined.len() == 1 {
                    f.name.clone()
                } else {
                    format!("{}_{k}", f.name)
                };
                let mut name = base.clone();
                let mut n = 1;
                while used.contains(&name) || (!is_main && name == "main") {
                    name = format!("{base}_{n}");
                    n += 1;
                }
                used.insert(name.clone());
                let id = self.shader.add_function(&name, false);
                let mut params = Vec::new();
                if sig.return_type != GType::Void {
                    params.push(("return".to_string(), 1, 32));
                }
                for p in &sig.parameters {
                    let Some(v) = self.m.variables.get(*p) else {
                        return invalid("parameter handle out of range");
                    };
                    params.push((v.name.clone(), 1, 32));
                }
                if let Some(func) = self.shader.functions.get_mut(id) {
                    func.params = params;
                    func.is_entrypoint = is_main;
                }
                have_main |= is_main;
                self.funcs.insert((fh, si), id);
            }
        }
        if !have_main {
            return invalid("the stage has no `main` function");
        }
        Ok(())
    }

    /// Converts the body of every declared function.
    pub(crate) fn convert_bodies(&mut self) -> Res<()> {
        let mut order: Vec<_> = self.funcs.iter().map(|(k, v)| (*v, *k)).collect();
        order.sort_by_key(|(id, _)| *id);
        for (id, (fh, si)) in order {
            let Some(sig) = self.m.functions.get(fh).and_then(|f| f.signatures.get(si)) else {
                return invalid("signature out of range");
            };
            self.f = Fs::new();
            self.f.func = Some(id);
            let mut idx = 0u32;
            if sig.return_type != GType::Void {
                self.f.ret = Some(self.ty(&sig.return_type)?);
                idx = 1;
            }
            for p in &sig.parameters {
                let v = &self.m.variables[*p];
                let ty = self.param_type(&v.ty)?;
                let mode = if contains_sampler(&self.shader.structs, &ty, 0) {
                    VarMode::Uniform
                } else {
                    VarMode::FunctionTemp
                };
                self.f.params.insert(*p, Param { idx, ty, mode });
                idx += 1;
            }
            self.stmts(&sig.body)?;
            let mut imp = std::mem::take(&mut self.f).imp;
            imp.recompute_cfg();
            if let Some(func) = self.shader.functions.get_mut(id) {
                func.body = Some(imp);
            }
        }
        Ok(())
    }

    fn stmts(&mut self, list: &[Handle<Stmt>]) -> Res<()> {
        for s in list {
            if self.f.dead {
                break;
            }
            self.stmt(*s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: Handle<Stmt>) -> Res<()> {
        self.enter()?;
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    fn root_var(&self, mut e: Handle<hir::Expr>) -> Option<Handle<hir::Variable>> {
        for _ in 0..10_000 {
            match &self.m.exprs.get(e)?.kind {
                ExprKind::VarRef(v) => return Some(*v),
                ExprKind::ArrayRef(b, _) | ExprKind::RecordRef(b, _) | ExprKind::Swizzle(b, _) => {
                    e = *b
                }
                _ => return None,
            }
        }
        None
    }

    fn stmt_inner(&mut self, s: Handle<Stmt>) -> Res<()> {
        let Some(stmt) = self.m.stmts.get(s).cloned() else {
            return invalid("statement handle out of range");
        };
        match stmt {
            Stmt::Declare(v) => {
                if !self.f.params.contains_key(&v) {
                    self.local(v)?;
                }
                Ok(())
            }
            Stmt::Assign {
                lhs,
                rhs,
                write_mask,
            } => {
                // GLSL 4.00 §4.7: the computations assigned to a `precise`
                // variable are done exactly as written, like those of an
                // `invariant` output (Mesa marks both `exact` in NIR).
                let invariant = self
                    .root_var(lhs)
                    .and_then(|v| self.m.variables.get(v))
                    .is_some_and(|v| v.invariant || v.precise);
                let saved = self.f.exact;
                self.f.exact |= invariant;
                let r = self.assign(lhs, rhs, write_mask);
                self.f.exact = saved;
                r
            }
            Stmt::Call {
                function,
                signature,
                return_deref,
                args,
            } => self.call(function, signature, return_deref, &args),
            Stmt::Return(value) => {
                if let Some(v) = value {
                    let Some(ty) = self.f.ret.clone() else {
                        return invalid("value returned from a void function");
                    };
                    let d = self.param_deref(&Param {
                        idx: 0,
                        ty,
                        mode: VarMode::FunctionTemp,
                    })?;
                    self.store_whole(&d, v)?;
                }
                self.jump(JumpKind::Return);
                Ok(())
            }
            Stmt::Discard(cond) => {
                self.shader.info.uses_discard = true;
                match cond {
                    Some(c) => {
                        let c = self.eval(c)?;
                        self.b()
                            .intrinsic(IntrinsicOp::terminate_if, vec![c], 1, vec![], None);
                    }
                    None => {
                        self.b()
                            .intrinsic(IntrinsicOp::terminate, vec![], 0, vec![], None);
                    }
                }
                Ok(())
            }
            Stmt::If {
                condition,
                then_block,
                else_block,
            } => {
                let cond = self.eval(condition)?;
                if self.comps(cond) != 1 || self.bits(cond) != 1 {
                    return invalid("if condition is not a boolean scalar");
                }
                let parent = self.f.parent;
                let node = self.f.imp.append_cf(
                    parent,
                    CfKind::If {
                        cond,
                        then_list: CfList::default(),
                        else_list: CfList::default(),
                    },
                );
                self.enter_list(CfParent::Then(node));
                self.stmts(&then_block)?;
                let then_dead = self.f.dead;
                self.enter_list(CfParent::Else(node));
                self.stmts(&else_block)?;
                let else_dead = self.f.dead;
                self.enter_list(parent);
                self.f.dead = then_dead && else_dead;
                Ok(())
            }
            Stmt::Loop { body } => {
                let parent = self.f.parent;
                let node = self.f.imp.append_cf(
                    parent,
                    CfKind::Loop {
                        body: CfList::default(),
                    },
                );
                self.enter_list(CfParent::Loop(node));
                self.stmts(&body)?;
                self.enter_list(parent);
                Ok(())
            }
            Stmt::Break => {
                self.jump(JumpKind::Break);
                Ok(())
            }
            Stmt::Continue => {
                self.jump(JumpKind::Continue);
                Ok(())
            }
            Stmt::EmitVertex | Stmt::EndPrimitive => {
                let op = if matches!(stmt, Stmt::EmitVertex) {
                    IntrinsicOp::emit_vertex
                } else {
                    IntrinsicOp::end_primitive
                };
                self.b().intrinsic(op, vec![], 0, vec![0], None);
                Ok(())
            }
        }
    }

    /// Appends a new block to the list of `parent` and makes it current.
    fn enter_list(&mut self, parent: CfParent) {
        let block = self.f.imp.push_block(parent);
        self.f.block = block;
        self.f.parent = parent;
        self.f.dead = false;
    }

    fn jump(&mut self, kind: JumpKind) {
        self.b().jump(kind);
        self.f.dead = true;
    }

    fn assign(&mut self, lhs: Handle<hir::Expr>, rhs: Handle<hir::Expr>, mask: u8) -> Res<()> {
        let lt = self.expr(lhs)?.ty.clone();
        if lt.is_scalar() || lt.is_vector() {
            let v = self.eval(rhs)?;
            self.assign_value(lhs, v, mask)
        } else {
            let src = self.aggregate(rhs)?;
            let dst = self.deref_expr(lhs)?;
            self.copy(&dst, &src)
        }
    }

    /// Stores the whole value of `e` through deref `d`.
    fn store_whole(&mut self, d: &super::D, e: Handle<hir::Expr>) -> Res<()> {
        match width(&d.ty) {
            Some(n) => {
                let v = self.eval(e)?;
                if self.comps(v) != n {
                    return invalid("value width differs from its destination");
                }
                self.store(d, v, full_mask(n))
            }
            None => {
                let src = self.aggregate(e)?;
                self.copy(d, &src)
            }
        }
    }

    /// Copies the value behind deref `d` into the lvalue expression `lhs`.
    fn store_back(&mut self, lhs: Handle<hir::Expr>, d: &super::D) -> Res<()> {
        match width(&d.ty) {
            Some(n) => {
                let v = self.load(d)?;
                self.assign_value(lhs, v, full_mask(n))
            }
            None => {
                let dst = self.deref_expr(lhs)?;
                self.copy(&dst, d)
            }
        }
    }

    /// The NIR type of a parameter of GLSL type `ty`: an `atomic_uint` is its
    /// counter's `uvec2(block, byte offset)`.
    fn param_type(&mut self, ty: &GType) -> Res<rgl_nir::ir::Type> {
        if *ty == GType::AtomicUint {
            return Ok(rgl_nir::ir::Type::Vector(rgl_nir::ir::BaseType::Uint, 2));
        }
        if ty.contains_atomic(&self.m.structs) {
            return unsupported(format!(
                "function parameter of type {} (an array of atomic counters)",
                ty.display(&self.m.structs)
            ));
        }
        self.ty(ty)
    }

    fn call(
        &mut self,
        function: Handle<hir::Function>,
        signature: usize,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        let Some(f) = self.m.functions.get(function) else {
            return invalid("callee out of range");
        };
        let Some(sig) = f.signatures.get(signature) else {
            return invalid("callee signature out of range");
        };
        if sig.builtin.is_some() && super::memory::is_memory_builtin(&f.name) {
            let name = f.name.clone();
            return self.memory_call(&name, return_deref, args);
        }
        if sig.builtin.is_some() && super::image::is_image_builtin(&f.name) {
            let name = f.name.clone();
            return self.image_call(&name, return_deref, args);
        }
        if sig.builtin.is_some() {
            let name = f.name.clone();
            return self.builtin_call(&name, return_deref, args);
        }
        let Some(callee) = self.funcs.get(&(function, signature)).copied() else {
            return unsupported(format!("call of `{}`, which has no body", f.name));
        };
        if sig.parameters.len() != args.len() {
            return invalid(format!(
                "call of `{}` with the wrong argument count",
                f.name
            ));
        }
        let fname = f.name.clone();
        let params = sig.parameters.clone();
        let ret_ty = sig.return_type.clone();
        let mut call_args = Vec::with_capacity(args.len() + 1);
        let ret = if ret_ty != GType::Void {
            let ty = self.ty(&ret_ty)?;
            let tmp = self.temp(&format!("{fname}_retval"), ty, None);
            let d = self.deref_var(tmp)?;
            call_args.push(d.def);
            Some(tmp)
        } else {
            None
        };
        let mut copy_out = Vec::new();
        for (p, a) in params.iter().zip(args) {
            let Some(pv) = self.m.variables.get(*p) else {
                return invalid("parameter handle out of range");
            };
            let (pname, pmode) = (pv.name.clone(), pv.mode);
            let counter = pv.ty == GType::AtomicUint;
            let pty = self.param_type(&pv.ty)?;
            if counter {
                // The counter's address travels by value (see `memory`).
                let (block, offset) = self.counter_address(*a)?;
                let addr = self.vec(&[block, offset])?;
                let tmp = self.temp(&pname, pty, None);
                let d = self.deref_var(tmp)?;
                self.store(&d, addr, 0b11)?;
                call_args.push(d.def);
                continue;
            }
            if contains_sampler(&self.shader.structs, &pty, 0) {
                let d = self.deref_expr(*a)?;
                if d.ty != pty {
                    return invalid("opaque argument type differs from the parameter");
                }
                call_args.push(d.def);
                continue;
            }
            let tmp = self.temp(&pname, pty, None);
            let d = self.deref_var(tmp)?;
            if matches!(
                pmode,
                HMode::FunctionIn | HMode::ConstIn | HMode::FunctionInout
            ) {
                self.store_whole(&d, *a)?;
            }
            if matches!(pmode, HMode::FunctionOut | HMode::FunctionInout) {
                copy_out.push((*a, tmp));
            }
            call_args.push(d.def);
        }
        self.b().build(
            InstrKind::Call {
                callee,
                args: call_args,
            },
            None,
        );
        for (a, tmp) in copy_out {
            let d = self.deref_var(tmp)?;
            self.store_back(a, &d)?;
        }
        if let (Some(tmp), Some(r)) = (ret, return_deref) {
            let d = self.deref_var(tmp)?;
            self.store_back(r, &d)?;
        }
        Ok(())
    }
}
