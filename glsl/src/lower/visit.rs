//! Walking and rewriting helpers shared by the lowering passes: expression
//! children, iterative post-order and deep copy (no recursion on expression
//! depth, so `a+a+…+a` chains cannot overflow the stack), statement-list
//! rewriting for every function body, and builders for temporaries.

use smallvec::{smallvec, SmallVec};

use crate::arena::Handle;
use crate::hir::{Expr, ExprKind, Module, Stmt, VarMode, Variable};
use crate::span::SourceLoc;
use crate::types::Type;

/// Direct operands of an expression, in print order.
pub fn expr_children(kind: &ExprKind) -> Vec<Handle<Expr>> {
    let mut out = Vec::new();
    for_each_child(kind, |c| out.push(c));
    out
}

/// Calls `f` on each direct operand of an expression, in print order,
/// without allocating.
#[inline]
pub fn for_each_child(kind: &ExprKind, mut f: impl FnMut(Handle<Expr>)) {
    match kind {
        ExprKind::Constant(_) | ExprKind::VarRef(_) => {}
        ExprKind::ArrayRef(base, index) => {
            f(*base);
            f(*index);
        }
        ExprKind::RecordRef(base, _) | ExprKind::Swizzle(base, _) => f(*base),
        ExprKind::Operation(_, operands) => {
            for &o in operands {
                f(o);
            }
        }
        ExprKind::Texture(tex) => {
            let crate::hir::Texture {
                op: _,
                sampler,
                coordinate,
                offset,
                projector,
                shadow_comparator,
                lod,
                grad,
            } = &**tex;
            f(*sampler);
            for h in [coordinate, offset, projector, shadow_comparator, lod]
                .into_iter()
                .flatten()
            {
                f(*h);
            }
            if let Some((dx, dy)) = grad {
                f(*dx);
                f(*dy);
            }
        }
    }
}

/// Applies `f` to every operand handle of an expression kind.
pub fn map_children(kind: &mut ExprKind, mut f: impl FnMut(Handle<Expr>) -> Handle<Expr>) {
    match kind {
        ExprKind::Constant(_) | ExprKind::VarRef(_) => {}
        ExprKind::ArrayRef(base, index) => {
            *base = f(*base);
            *index = f(*index);
        }
        ExprKind::RecordRef(base, _) | ExprKind::Swizzle(base, _) => *base = f(*base),
        ExprKind::Operation(_, operands) => {
            for operand in operands {
                *operand = f(*operand);
            }
        }
        ExprKind::Texture(tex) => {
            let crate::hir::Texture {
                op: _,
                sampler,
                coordinate,
                offset,
                projector,
                shadow_comparator,
                lod,
                grad,
            } = &mut **tex;
            *sampler = f(*sampler);
            for h in [coordinate, offset, projector, shadow_comparator, lod]
                .into_iter()
                .flatten()
            {
                *h = f(*h);
            }
            if let Some((dx, dy)) = grad {
                *dx = f(*dx);
                *dy = f(*dy);
            }
        }
    }
}

/// Every node of the tree under `root`, children before parents. Handles that
/// are out of range are skipped (the validator reports them).
pub fn post_order(module: &Module, root: Handle<Expr>) -> Vec<Handle<Expr>> {
    let mut out = Vec::new();
    post_order_into(module, root, &mut out, &mut Vec::new());
    out
}

/// [`post_order`] appending to `out`, with `stack` as scratch space (both
/// reusable across calls).
///
/// Each node is pushed and popped once: the walk appends the nodes in
/// pre-order with the children taken last to first, and the appended part
/// reversed is the post-order with the children taken first to last.
pub fn post_order_into(
    module: &Module,
    root: Handle<Expr>,
    out: &mut Vec<Handle<Expr>>,
    stack: &mut Vec<(Handle<Expr>, bool)>,
) {
    let base = out.len();
    stack.clear();
    stack.push((root, false));
    while let Some((handle, _)) = stack.pop() {
        let Some(expr) = module.exprs.get(handle) else {
            continue;
        };
        out.push(handle);
        // Pushed first to last, so popped last to first.
        for_each_child(&expr.kind, |child| stack.push((child, false)));
    }
    out[base..].reverse();
}

/// Calls `f` on every node of the tree under `root` (children before
/// parents, as [`post_order`]) without allocating beyond `stack`.
pub fn for_each_node(
    module: &Module,
    root: Handle<Expr>,
    stack: &mut Vec<(Handle<Expr>, bool)>,
    mut f: impl FnMut(Handle<Expr>, &Expr),
) {
    stack.clear();
    stack.push((root, false));
    while let Some((handle, expanded)) = stack.pop() {
        let Some(expr) = module.exprs.get(handle) else {
            continue;
        };
        if expanded {
            f(handle, expr);
            continue;
        }
        match &expr.kind {
            // Leaves (most nodes) are visited at once instead of coming back
            // as expanded entries.
            ExprKind::Constant(_) | ExprKind::VarRef(_) => f(handle, expr),
            kind => {
                stack.push((handle, true));
                let first = stack.len();
                for_each_child(kind, |child| stack.push((child, false)));
                if stack.len() - first > 1 {
                    stack[first..].reverse();
                }
            }
        }
    }
}

/// Deep copy of the tree under `root` (locations copied too). A node reached
/// twice is copied twice, so the copy is always a tree.
pub fn clone_expr(module: &mut Module, root: Handle<Expr>) -> Handle<Expr> {
    let order = post_order(module, root);
    let mut results: Vec<Handle<Expr>> = Vec::with_capacity(order.len());
    for old in order {
        let mut expr = module.exprs[old].clone();
        let mut arity = 0;
        for_each_child(&expr.kind, |c| {
            if module.exprs.get(c).is_some() {
                arity += 1;
            }
        });
        let first = results.len().saturating_sub(arity);
        let mut next = first;
        map_children(&mut expr.kind, |child| {
            if module.exprs.get(child).is_some() {
                let copy = results.get(next).copied().unwrap_or(child);
                next += 1;
                copy
            } else {
                child
            }
        });
        results.truncate(first);
        let loc = module.expr_locs.get(old);
        let new = module.exprs.append(expr);
        module.expr_locs.insert(new, loc);
        results.push(new);
    }
    results.pop().unwrap_or(root)
}

/// Appends an expression with a location.
pub fn add_expr(module: &mut Module, kind: ExprKind, ty: Type, loc: SourceLoc) -> Handle<Expr> {
    let handle = module.exprs.append(Expr { kind, ty });
    module.expr_locs.insert(handle, loc);
    handle
}

/// Appends a statement with a location.
pub fn add_stmt(module: &mut Module, stmt: Stmt, loc: SourceLoc) -> Handle<Stmt> {
    let handle = module.stmts.append(stmt);
    module.stmt_locs.insert(handle, loc);
    handle
}

/// A compiler temporary and its `(declare (temporary ) …)` statement.
pub fn add_temp(
    module: &mut Module,
    name: &str,
    ty: Type,
    loc: SourceLoc,
) -> (Handle<Variable>, Handle<Stmt>) {
    let var = module
        .variables
        .append(Variable::new(name, ty, VarMode::Temporary));
    module.var_locs.insert(var, loc);
    let decl = add_stmt(module, Stmt::Declare(var), loc);
    (var, decl)
}

/// `(var_ref var)`.
pub fn var_ref(module: &mut Module, var: Handle<Variable>, loc: SourceLoc) -> Handle<Expr> {
    let ty = module.variables[var].ty.clone();
    add_expr(module, ExprKind::VarRef(var), ty, loc)
}

/// The write mask Mesa gives a whole-value assignment of `ty`: all components
/// of a scalar/vector, 0 for matrices, arrays and structs.
pub fn full_mask(ty: &Type) -> u8 {
    match ty {
        Type::Scalar(_) => 1,
        Type::Vector(_, n) => ((1u16 << n) - 1) as u8,
        _ => 0,
    }
}

/// The variable at the root of a dereference chain.
pub fn deref_root(module: &Module, mut deref: Handle<Expr>) -> Option<Handle<Variable>> {
    loop {
        match &module.exprs.get(deref)?.kind {
            ExprKind::VarRef(var) => return Some(*var),
            ExprKind::ArrayRef(base, _)
            | ExprKind::RecordRef(base, _)
            | ExprKind::Swizzle(base, _) => deref = *base,
            _ => return None,
        }
    }
}

/// Appends the rvalues embedded in a dereference chain (array indices), which
/// passes must treat as reads even on the left of an assignment, to `out`.
pub fn deref_indices_into(module: &Module, mut deref: Handle<Expr>, out: &mut Vec<Handle<Expr>>) {
    while let Some(expr) = module.exprs.get(deref) {
        match &expr.kind {
            ExprKind::ArrayRef(base, index) => {
                out.push(*index);
                deref = *base;
            }
            ExprKind::RecordRef(base, _) | ExprKind::Swizzle(base, _) => deref = *base,
            _ => break,
        }
    }
}

/// Checked mutable access to a statement.
pub fn stmt_mut(module: &mut Module, stmt: Handle<Stmt>) -> Option<&mut Stmt> {
    if stmt.index() < module.stmts.len() {
        Some(&mut module.stmts[stmt])
    } else {
        None
    }
}

/// Calls `f` on every statement reachable from a non-built-in function
/// body (nested blocks included), in program order.
pub fn for_each_stmt(module: &Module, f: &mut dyn FnMut(Handle<Stmt>)) {
    fn walk(module: &Module, block: &[Handle<Stmt>], f: &mut dyn FnMut(Handle<Stmt>)) {
        for &stmt in block {
            f(stmt);
            match module.stmts.get(stmt) {
                Some(Stmt::If {
                    then_block,
                    else_block,
                    ..
                }) => {
                    walk(module, then_block, f);
                    walk(module, else_block, f);
                }
                Some(Stmt::Loop { body }) => walk(module, body, f),
                _ => {}
            }
        }
    }
    for (_, function) in module.functions.iter() {
        for sig in function.signatures.iter().filter(|s| s.builtin.is_none()) {
            walk(module, &sig.body, f);
        }
    }
}

/// A statement rewriter for [`rewrite_bodies`]: `Some(list)` replaces the
/// statement, `None` keeps it.
pub type StmtRewriter<'a> = dyn FnMut(&mut Module, Handle<Stmt>) -> Option<Vec<Handle<Stmt>>> + 'a;

/// Rewrites every statement list of every non-built-in function body,
/// innermost blocks first. `f` sees each statement once (after its nested
/// blocks were rewritten) and returns `Some(replacement)` to splice a list in
/// its place or `None` to keep it.
pub fn rewrite_bodies(module: &mut Module, f: &mut StmtRewriter<'_>) {
    for fi in 0..module.functions.len() {
        let fh = Handle::from_index(fi);
        for si in 0..module.functions[fh].signatures.len() {
            if module.functions[fh].signatures[si].builtin.is_some() {
                continue;
            }
            let body = std::mem::take(&mut module.functions[fh].signatures[si].body);
            let body = rewrite_block(module, body, f);
            module.functions[fh].signatures[si].body = body;
        }
    }
}

/// [`rewrite_bodies`] for one statement list. The list is rebuilt only from
/// the first statement `f` replaces on.
pub fn rewrite_block(
    module: &mut Module,
    block: Vec<Handle<Stmt>>,
    f: &mut StmtRewriter<'_>,
) -> Vec<Handle<Stmt>> {
    let mut out: Option<Vec<Handle<Stmt>>> = None;
    for (i, &stmt) in block.iter().enumerate() {
        let nested = match stmt_mut(module, stmt) {
            Some(Stmt::If {
                then_block,
                else_block,
                ..
            }) => Some((std::mem::take(then_block), std::mem::take(else_block))),
            Some(Stmt::Loop { body }) => Some((std::mem::take(body), Vec::new())),
            _ => None,
        };
        if let Some((first, second)) = nested {
            let first = rewrite_block(module, first, f);
            let second = rewrite_block(module, second, f);
            match &mut module.stmts[stmt] {
                Stmt::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    *then_block = first;
                    *else_block = second;
                }
                Stmt::Loop { body } => *body = first,
                _ => {}
            }
        }
        match f(module, stmt) {
            Some(replacement) => out
                .get_or_insert_with(|| {
                    let mut kept = Vec::with_capacity(block.len() + replacement.len());
                    kept.extend_from_slice(&block[..i]);
                    kept
                })
                .extend(replacement),
            None => {
                if let Some(out) = &mut out {
                    out.push(stmt);
                }
            }
        }
    }
    out.unwrap_or(block)
}

/// Makes every expression tree a tree: an expression handle reachable from
/// two places (or twice from one) is deep-copied at its second use, so passes
/// may rewrite nodes in place. Returns true if anything was copied.
pub fn unshare(module: &mut Module) -> bool {
    // `owner[e]` is the 1-based number of the root whose tree holds `e`
    // (0: none yet). A root is shared when its walk meets a node that an
    // earlier root owns or that it reached before itself.
    let mut owner: Vec<u32> = vec![0; module.exprs.len()];
    let mut root_number = 0u32;
    let mut visited: Vec<Handle<Expr>> = Vec::new();
    let mut stack = Vec::new();
    let mut changed = false;
    rewrite_bodies(module, &mut |module, stmt| {
        let mut roots = stmt_expr_slots(module, stmt);
        for root in &mut roots {
            root_number += 1;
            visited.clear();
            let mut shared = false;
            for_each_node(module, *root, &mut stack, |h, _| {
                if shared {
                    return;
                }
                match owner.get_mut(h.index()) {
                    Some(o) if *o == 0 => {
                        *o = root_number;
                        visited.push(h);
                    }
                    _ => shared = true,
                }
            });
            if !shared {
                continue;
            }
            // Undo this walk's claims, copy the tree, claim the copy.
            for h in &visited {
                owner[h.index()] = 0;
            }
            *root = clone_expr(module, *root);
            changed = true;
            owner.resize(module.exprs.len(), 0);
            for_each_node(module, *root, &mut stack, |h, _| {
                if let Some(o) = owner.get_mut(h.index()) {
                    *o = root_number;
                }
            });
        }
        set_stmt_expr_slots(module, stmt, &roots);
        None
    });
    changed
}

/// The expression roots held directly by a statement, in a fixed order
/// (see [`set_stmt_expr_slots`]).
/// Inline up to four roots: every statement but a call with more arguments
/// (the lowering passes call this for every statement they walk).
pub fn stmt_expr_slots(module: &Module, stmt: Handle<Stmt>) -> SmallVec<[Handle<Expr>; 4]> {
    match module.stmts.get(stmt) {
        Some(Stmt::Assign { lhs, rhs, .. }) => smallvec![*lhs, *rhs],
        Some(Stmt::Call {
            return_deref, args, ..
        }) => return_deref.iter().chain(args).copied().collect(),
        Some(Stmt::Return(value)) | Some(Stmt::Discard(value)) => value.iter().copied().collect(),
        Some(Stmt::If { condition, .. }) => smallvec![*condition],
        _ => SmallVec::new(),
    }
}

/// Stores roots back in the order [`stmt_expr_slots`] returned them.
pub fn set_stmt_expr_slots(module: &mut Module, stmt: Handle<Stmt>, roots: &[Handle<Expr>]) {
    let mut it = roots.iter().copied();
    match stmt_mut(module, stmt) {
        Some(Stmt::Assign { lhs, rhs, .. }) => {
            *lhs = it.next().unwrap_or(*lhs);
            *rhs = it.next().unwrap_or(*rhs);
        }
        Some(Stmt::Call {
            return_deref, args, ..
        }) => {
            if let Some(d) = return_deref {
                *d = it.next().unwrap_or(*d);
            }
            for arg in args {
                *arg = it.next().unwrap_or(*arg);
            }
        }
        Some(Stmt::Return(Some(value))) | Some(Stmt::Discard(Some(value))) => {
            *value = it.next().unwrap_or(*value);
        }
        Some(Stmt::If { condition, .. }) => *condition = it.next().unwrap_or(*condition),
        _ => {}
    }
}

/// Fills `roots` (cleared first) with the rvalue trees a statement reads that
/// expression passes rewrite: array indices inside its destination
/// dereferences, the assigned value, call arguments, return/discard values and
/// `if` conditions. False for a dangling handle.
pub fn read_roots_into(module: &Module, stmt: Handle<Stmt>, roots: &mut Vec<Handle<Expr>>) -> bool {
    roots.clear();
    let Some(stmt) = module.stmts.get(stmt) else {
        return false;
    };
    match stmt {
        Stmt::Assign { lhs, rhs, .. } => {
            deref_indices_into(module, *lhs, roots);
            roots.push(*rhs);
        }
        Stmt::Call {
            return_deref, args, ..
        } => {
            if let Some(d) = return_deref {
                deref_indices_into(module, *d, roots);
            }
            roots.extend(args.iter().copied());
        }
        Stmt::Return(Some(e)) | Stmt::Discard(Some(e)) => roots.push(*e),
        Stmt::If { condition, .. } => roots.push(*condition),
        _ => {}
    }
    true
}
