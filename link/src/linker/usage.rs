//! Static use of a linked stage: which functions `main` reaches and which variables
//! those functions read and write. Every walk uses an explicit stack, so deep
//! expression trees and long call chains cannot overflow the native stack.

use rustc_hash::FxHashSet as HashSet;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{Expr, ExprKind, Function, Module, Stmt, VarMode, Variable};

/// A function signature: (function, overload index).
pub type SigRef = (Handle<Function>, usize);

/// A set of variables of one module: one bit per variable handle (handles are
/// dense arena indices, so this is smaller and faster than hashing them).
#[derive(Clone, Debug, Default)]
pub struct VarSet {
    bits: Vec<u64>,
}

impl VarSet {
    /// Adds `var`; true when it was not in the set.
    pub fn insert(&mut self, var: Handle<Variable>) -> bool {
        let (word, bit) = (var.index() / 64, var.index() % 64);
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let was = self.bits[word] & (1 << bit) != 0;
        self.bits[word] |= 1 << bit;
        !was
    }
    /// Whether `var` is in the set.
    pub fn contains(&self, var: &Handle<Variable>) -> bool {
        let (word, bit) = (var.index() / 64, var.index() % 64);
        self.bits.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }
}

/// What the code reachable from `main` does.
#[derive(Debug, Default)]
pub struct Usage {
    /// Variables read (statically).
    pub read: VarSet,
    /// Variables written (statically).
    pub written: VarSet,
    /// Signatures reachable from `main`, `main` first, in discovery order.
    pub reachable: Vec<SigRef>,
    /// Call edges between reachable signatures (caller, callee).
    pub calls: Vec<(SigRef, SigRef)>,
}

impl Usage {
    /// Read or written.
    pub fn referenced(&self, var: Handle<Variable>) -> bool {
        self.read.contains(&var) || self.written.contains(&var)
    }
}

/// The defined `main` signature of a module.
pub fn find_main(module: &Module) -> Option<SigRef> {
    module.functions.iter().find_map(|(h, f)| {
        if f.name != "main" {
            return None;
        }
        f.signatures
            .iter()
            .position(|s| s.is_defined && s.parameters.is_empty())
            .or_else(|| f.signatures.iter().position(|s| s.is_defined))
            .map(|i| (h, i))
    })
}

/// Walks everything reachable from `main` (nothing when there is no `main`).
pub fn analyze(module: &Module) -> Usage {
    let words = module.variables.len().div_ceil(64);
    let mut usage = Usage {
        read: VarSet {
            bits: vec![0; words],
        },
        written: VarSet {
            bits: vec![0; words],
        },
        ..Usage::default()
    };
    let Some(main) = find_main(module) else {
        return usage;
    };
    let mut seen: HashSet<SigRef> = HashSet::default();
    let mut work = vec![main];
    seen.insert(main);
    while let Some(sig_ref) = work.pop() {
        usage.reachable.push(sig_ref);
        let Some(sig) = module
            .functions
            .get(sig_ref.0)
            .and_then(|f| f.signatures.get(sig_ref.1))
        else {
            continue;
        };
        let mut stmts: Vec<Handle<Stmt>> = sig.body.iter().rev().copied().collect();
        while let Some(s) = stmts.pop() {
            let Some(stmt) = module.stmts.get(s) else {
                continue;
            };
            match stmt {
                Stmt::Declare(_) | Stmt::Break | Stmt::Continue => {}
                Stmt::EmitVertex | Stmt::EndPrimitive => {}
                Stmt::Assign { lhs, rhs, .. } => {
                    write_deref(module, *lhs, &mut usage);
                    read_expr(module, *rhs, &mut usage);
                }
                Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } => {
                    let callee = (*function, *signature);
                    usage.calls.push((sig_ref, callee));
                    if seen.insert(callee) {
                        work.push(callee);
                    }
                    if let Some(r) = return_deref {
                        write_deref(module, *r, &mut usage);
                    }
                    let params: &[Handle<Variable>] = module
                        .functions
                        .get(*function)
                        .and_then(|f| f.signatures.get(*signature))
                        .map_or(&[], |s| &s.parameters[..]);
                    for (i, arg) in args.iter().enumerate() {
                        let mode = params
                            .get(i)
                            .and_then(|p| module.variables.get(*p))
                            .map(|v| v.mode)
                            .unwrap_or(VarMode::FunctionIn);
                        match mode {
                            VarMode::FunctionOut => write_deref(module, *arg, &mut usage),
                            VarMode::FunctionInout => {
                                write_deref(module, *arg, &mut usage);
                                read_expr(module, *arg, &mut usage);
                            }
                            _ => read_expr(module, *arg, &mut usage),
                        }
                    }
                }
                Stmt::Return(e) | Stmt::Discard(e) => {
                    if let Some(e) = e {
                        read_expr(module, *e, &mut usage);
                    }
                }
                Stmt::If {
                    condition,
                    then_block,
                    else_block,
                } => {
                    read_expr(module, *condition, &mut usage);
                    stmts.extend(else_block.iter().rev());
                    stmts.extend(then_block.iter().rev());
                }
                Stmt::Loop { body } => stmts.extend(body.iter().rev()),
            }
        }
    }
    usage
}

/// Children of an expression node, for iterative walks.
pub fn expr_children(expr: &Expr, out: &mut Vec<Handle<Expr>>) {
    match &expr.kind {
        ExprKind::Constant(_) | ExprKind::VarRef(_) => {}
        ExprKind::ArrayRef(a, i) => {
            out.push(*a);
            out.push(*i);
        }
        ExprKind::RecordRef(e, _) | ExprKind::Swizzle(e, _) => out.push(*e),
        ExprKind::Operation(_, ops) => out.extend(ops.iter().copied()),
        ExprKind::Texture(t) => {
            out.push(t.sampler);
            out.extend(
                [
                    t.coordinate,
                    t.offset,
                    t.projector,
                    t.shadow_comparator,
                    t.lod,
                ]
                .into_iter()
                .flatten(),
            );
            if let Some((a, b)) = t.grad {
                out.push(a);
                out.push(b);
            }
        }
    }
}

fn read_expr(module: &Module, root: Handle<Expr>, usage: &mut Usage) {
    // One node without children (a variable or a constant) is the common operand:
    // no stack for it.
    if let Some(expr) = module.exprs.get(root) {
        match &expr.kind {
            ExprKind::VarRef(v) => {
                usage.read.insert(*v);
                return;
            }
            ExprKind::Constant(_) => return,
            _ => {}
        }
    }
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        let Some(expr) = module.exprs.get(e) else {
            continue;
        };
        if let ExprKind::VarRef(v) = expr.kind {
            usage.read.insert(v);
        }
        expr_children(expr, &mut stack);
    }
}

/// The destination of a dereference chain is written; its indices are read.
fn write_deref(module: &Module, root: Handle<Expr>, usage: &mut Usage) {
    let mut cur = root;
    loop {
        let Some(expr) = module.exprs.get(cur) else {
            return;
        };
        match &expr.kind {
            ExprKind::VarRef(v) => {
                usage.written.insert(*v);
                return;
            }
            ExprKind::ArrayRef(a, i) => {
                read_expr(module, *i, usage);
                cur = *a;
            }
            ExprKind::RecordRef(e, _) | ExprKind::Swizzle(e, _) => cur = *e,
            _ => {
                read_expr(module, cur, usage);
                return;
            }
        }
    }
}

/// The global variables of a module (declared at top level), in item order.
pub fn globals(module: &Module) -> Vec<Handle<Variable>> {
    module
        .items
        .iter()
        .filter_map(|item| match item {
            rgl_glsl::hir::Item::Variable(v) => Some(*v),
            _ => None,
        })
        .collect()
}
