//! Expansion of built-in function calls into GLSL IR (the bodies Mesa's
//! `builtin_functions.cpp` gives each signature): [`expand_call`] produces
//! statements that write the result (and `out` arguments), [`expand_value`]
//! one expression tree for constant folding.
//!
//! Argument reuse: expression trees must stay trees, so an argument (or an
//! intermediate value) used more than once is either copied node by node
//! (constants, variable dereferences, and everything in value mode) or, in call
//! mode, stored once in a temporary that each use dereferences.

use crate::hash::FxHashMap;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use super::functions::{self, Entry, Implementation};
use super::{texture, Availability, BuiltinId, ParamDirection};
use crate::arena::Handle;
use crate::hir::{
    Constant, Expr, ExprKind, Item, Module, Op, ScalarValue, Stmt, Swizzle, Texture, VarMode,
    Variable,
};
use crate::types::{ScalarKind, Type};
use crate::version::{Stage, Version};

/// Which form the expansion takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Statements; temporaries allowed.
    Call,
    /// One expression tree; no statements.
    Value,
}

/// A value that may be used several times.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val(usize);

impl Val {
    /// The value of argument `index`.
    pub(crate) fn arg(index: usize) -> Val {
        Val(index)
    }
}

#[derive(Clone, Debug)]
enum Source {
    /// An expression tree; the first use takes it, later uses copy it.
    Tree(Handle<Expr>),
    /// A temporary holding the value.
    Var(Handle<Variable>),
}

#[derive(Clone, Debug)]
struct Binding {
    source: Source,
    ty: Type,
    used: bool,
}

/// Builds expansion IR into a module.
pub(crate) struct Builder<'m> {
    /// The module receiving nodes.
    pub module: &'m mut Module,
    mode: Mode,
    bindings: Vec<Binding>,
    arg_count: usize,
    /// Statements emitted so far (call mode).
    pub stmts: Vec<Handle<Stmt>>,
}

/// The write mask of a whole-value assignment of `ty`.
pub(crate) fn full_mask(ty: &Type) -> u8 {
    match ty {
        Type::Scalar(_) | Type::Vector(..) => ((1u16 << ty.vector_elements()) - 1) as u8,
        _ => 0,
    }
}

/// True for trees that are cheap and side-effect free to duplicate: constants
/// and dereference chains with constant indices.
fn is_simple(module: &Module, expr: Handle<Expr>) -> bool {
    let mut current = expr;
    loop {
        let Some(node) = module.exprs.get(current) else {
            return false;
        };
        match &node.kind {
            ExprKind::Constant(_) | ExprKind::VarRef(_) => return true,
            ExprKind::RecordRef(inner, _) | ExprKind::Swizzle(inner, _) => current = *inner,
            ExprKind::ArrayRef(inner, index) => {
                if !matches!(
                    module.exprs.get(*index).map(|e| &e.kind),
                    Some(ExprKind::Constant(_))
                ) {
                    return false;
                }
                current = *inner;
            }
            ExprKind::Operation(..) | ExprKind::Texture(_) => return false,
        }
    }
}

/// Copies the tree rooted at `root` (iteratively, so deep trees cannot
/// overflow the stack).
fn copy_tree(module: &mut Module, root: Handle<Expr>) -> Handle<Expr> {
    // Collect nodes in pre-order, then rebuild children before parents.
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(handle) = stack.pop() {
        order.push(handle);
        let Some(node) = module.exprs.get(handle) else {
            continue;
        };
        match &node.kind {
            ExprKind::Constant(_) | ExprKind::VarRef(_) => {}
            ExprKind::ArrayRef(a, b) => stack.extend([*a, *b]),
            ExprKind::RecordRef(a, _) | ExprKind::Swizzle(a, _) => stack.push(*a),
            ExprKind::Operation(_, operands) => stack.extend(operands.iter().copied()),
            ExprKind::Texture(tex) => {
                stack.push(tex.sampler);
                stack.extend(tex.coordinate);
                stack.extend(tex.offset);
                stack.extend(tex.projector);
                stack.extend(tex.shadow_comparator);
                stack.extend(tex.lod);
                if let Some((x, y)) = tex.grad {
                    stack.extend([x, y]);
                }
            }
        }
    }
    let mut copies: FxHashMap<Handle<Expr>, Handle<Expr>> = FxHashMap::default();
    for &handle in order.iter().rev() {
        if copies.contains_key(&handle) {
            continue;
        }
        let Some(node) = module.exprs.get(handle).cloned() else {
            copies.insert(handle, handle);
            continue;
        };
        let map = |h: Handle<Expr>| copies.get(&h).copied().unwrap_or(h);
        let kind = match node.kind {
            ExprKind::Constant(c) => ExprKind::Constant(c),
            ExprKind::VarRef(v) => ExprKind::VarRef(v),
            ExprKind::ArrayRef(a, b) => ExprKind::ArrayRef(map(a), map(b)),
            ExprKind::RecordRef(a, field) => ExprKind::RecordRef(map(a), field),
            ExprKind::Swizzle(a, swizzle) => ExprKind::Swizzle(map(a), swizzle),
            ExprKind::Operation(op, operands) => {
                ExprKind::Operation(op, operands.into_iter().map(map).collect())
            }
            ExprKind::Texture(tex) => ExprKind::Texture(Box::new(Texture {
                op: tex.op,
                sampler: map(tex.sampler),
                coordinate: tex.coordinate.map(map),
                offset: tex.offset.map(map),
                projector: tex.projector.map(map),
                shadow_comparator: tex.shadow_comparator.map(map),
                lod: tex.lod.map(map),
                grad: tex.grad.map(|(x, y)| (map(x), map(y))),
            })),
        };
        let copy = module.exprs.append(Expr { kind, ty: node.ty });
        copies.insert(handle, copy);
    }
    copies.get(&root).copied().unwrap_or(root)
}

impl<'m> Builder<'m> {
    fn new(
        module: &'m mut Module,
        mode: Mode,
        entry: &Entry,
        args: &[Handle<Expr>],
    ) -> Builder<'m> {
        let mut builder = Builder {
            module,
            mode,
            bindings: Vec::new(),
            arg_count: args.len(),
            stmts: Vec::new(),
        };
        for (index, (&arg, (ty, direction))) in args.iter().zip(&entry.parameters).enumerate() {
            // The interpolant of `interpolateAtOffset` stays a tree: its
            // expansion reads which input it is.
            let keep_tree = mode == Mode::Value
                || *direction != ParamDirection::In
                || (index == 0 && entry.name == "interpolateAtOffset")
                || ty.is_sampler()
                || is_simple(builder.module, arg);
            if keep_tree {
                builder.bindings.push(Binding {
                    source: Source::Tree(arg),
                    ty: ty.clone(),
                    used: false,
                });
            } else {
                let name = format!("{}_arg{}", entry.name, index);
                let var = builder.temporary(&name, ty.clone(), arg);
                builder.bindings.push(Binding {
                    source: Source::Var(var),
                    ty: ty.clone(),
                    used: false,
                });
            }
        }
        builder
    }

    /// Appends an expression node.
    pub(crate) fn expr(&mut self, kind: ExprKind, ty: Type) -> Handle<Expr> {
        self.module.exprs.append(Expr { kind, ty })
    }

    /// Appends a statement to the output.
    pub(crate) fn stmt(&mut self, stmt: Stmt) {
        let handle = self.module.stmts.append(stmt);
        self.stmts.push(handle);
    }

    /// Declares a temporary, assigns `value` to it and returns it.
    pub(crate) fn temporary(
        &mut self,
        name: &str,
        ty: Type,
        value: Handle<Expr>,
    ) -> Handle<Variable> {
        let var = self.declare(name, ty.clone());
        let lhs = self.expr(ExprKind::VarRef(var), ty.clone());
        self.stmt(Stmt::Assign {
            lhs,
            rhs: value,
            write_mask: full_mask(&ty),
        });
        var
    }

    /// Declares an uninitialised temporary.
    pub(crate) fn declare(&mut self, name: &str, ty: Type) -> Handle<Variable> {
        let var = self
            .module
            .variables
            .append(Variable::new(name, ty, VarMode::Temporary));
        self.stmt(Stmt::Declare(var));
        var
    }

    /// The expression tree of a value that was not stored in a temporary.
    pub(crate) fn tree_of(&self, val: Val) -> Option<Handle<Expr>> {
        match self.bindings.get(val.0)?.source {
            Source::Tree(tree) => Some(tree),
            Source::Var(_) => None,
        }
    }

    /// A fresh use of a value.
    pub(crate) fn take(&mut self, val: Val) -> Option<Handle<Expr>> {
        let binding = self.bindings.get_mut(val.0)?;
        let first = !binding.used;
        binding.used = true;
        let (source, ty) = (binding.source.clone(), binding.ty.clone());
        Some(match source {
            Source::Tree(tree) if first => tree,
            Source::Tree(tree) => copy_tree(self.module, tree),
            Source::Var(var) => self.expr(ExprKind::VarRef(var), ty),
        })
    }

    /// Emits `lhs = rhs` with `write_mask`.
    pub(crate) fn assign(&mut self, lhs: Handle<Expr>, rhs: Handle<Expr>, write_mask: u8) {
        self.stmt(Stmt::Assign {
            lhs,
            rhs,
            write_mask,
        });
    }

    /// A fresh use of argument `index`.
    pub(crate) fn arg(&mut self, index: usize) -> Option<Handle<Expr>> {
        if index >= self.arg_count {
            return None;
        }
        self.take(Val(index))
    }

    /// Makes a value reusable: stored in a temporary in call mode unless it is
    /// cheap to copy.
    pub(crate) fn bind(&mut self, expr: Handle<Expr>, name: &str) -> Val {
        let ty = self
            .module
            .exprs
            .get(expr)
            .map(|e| e.ty.clone())
            .unwrap_or(Type::Error);
        let source = if self.mode == Mode::Call && !is_simple(self.module, expr) {
            Source::Var(self.temporary(name, ty.clone(), expr))
        } else {
            Source::Tree(expr)
        };
        self.bindings.push(Binding {
            source,
            ty,
            used: false,
        });
        Val(self.bindings.len() - 1)
    }

    pub(crate) fn type_of(&self, val: Val) -> Type {
        self.bindings
            .get(val.0)
            .map(|b| b.ty.clone())
            .unwrap_or(Type::Error)
    }

    /// A swizzle of `value` picking `components`.
    pub(crate) fn swizzle(&mut self, value: Handle<Expr>, components: &[u8]) -> Handle<Expr> {
        let kind = self
            .module
            .exprs
            .get(value)
            .and_then(|e| e.ty.scalar_kind())
            .unwrap_or(ScalarKind::Float);
        // 1–4 components; an empty list means `x`.
        let len = components.len().clamp(1, 4);
        let mut picked = [0u8; 4];
        for (slot, &component) in picked.iter_mut().zip(components.iter().take(len)) {
            *slot = component.min(3);
        }
        let swizzle = Swizzle {
            components: picked,
            len: len as u8,
        };
        self.expr(
            ExprKind::Swizzle(value, swizzle),
            Type::vec(kind, len as u8),
        )
    }

    /// A constant node.
    pub(crate) fn constant(&mut self, ty: Type, value: Constant) -> Handle<Expr> {
        self.expr(ExprKind::Constant(value), ty)
    }

    /// A float constant of type `ty` with every component `value`.
    pub(crate) fn fconst_of(&mut self, ty: &Type, value: f32) -> Handle<Expr> {
        let count = ty.components().max(1) as usize;
        self.constant(
            ty.clone(),
            Constant::Components(smallvec::smallvec![ScalarValue::Float(value); count]),
        )
    }

    /// A scalar float constant.
    pub(crate) fn fconst(&mut self, value: f32) -> Handle<Expr> {
        self.fconst_of(&Type::FLOAT, value)
    }

    /// An int constant.
    pub(crate) fn iconst(&mut self, value: i32) -> Handle<Expr> {
        self.constant(
            Type::INT,
            Constant::Components(smallvec::smallvec![ScalarValue::Int(value)]),
        )
    }

    /// An operation node.
    pub(crate) fn op(&mut self, op: Op, ty: &Type, operands: &[Handle<Expr>]) -> Handle<Expr> {
        self.expr(
            ExprKind::Operation(op, crate::hir::Operands::from_slice(operands)),
            ty.clone(),
        )
    }

    /// Broadcasts a scalar to `n` components (a repeated swizzle); identity for n = 1.
    pub(crate) fn splat(&mut self, scalar: Handle<Expr>, n: u8) -> Handle<Expr> {
        if n <= 1 {
            scalar
        } else {
            self.swizzle(scalar, &[0, 0, 0, 0][..n as usize])
        }
    }

    /// Column `column` of matrix value `m`.
    pub(crate) fn column(&mut self, m: Val, column: u8) -> Option<Handle<Expr>> {
        let ty = self.type_of(m);
        let matrix = self.take(m)?;
        let index = self.iconst(column as i32);
        Some(self.expr(
            ExprKind::ArrayRef(matrix, index),
            Type::vec(ScalarKind::Float, ty.vector_elements()),
        ))
    }

    /// Element `m[column][row]` of matrix value `m`.
    pub(crate) fn element(&mut self, m: Val, column: u8, row: u8) -> Option<Handle<Expr>> {
        let col = self.column(m, column)?;
        Some(self.swizzle(col, &[row]))
    }
}

/// Implements [`super::expand_call`].
pub(crate) fn expand_call(
    id: BuiltinId,
    module: &mut Module,
    return_deref: Option<Handle<Expr>>,
    args: &[Handle<Expr>],
) -> Vec<Handle<Stmt>> {
    let Some(entry) = functions::table().entries.get(id.0 as usize) else {
        return Vec::new();
    };
    // Built-ins without an IR expansion keep their call (an expansion that
    // binds arguments and then gives up must not replace it).
    if args.len() != entry.parameters.len() || functions::KEPT_CALLS.contains(&entry.name) {
        return Vec::new();
    }
    if matches!(entry.name, "EmitStreamVertex" | "EndStreamPrimitive") {
        return stream_call(entry.name, module, args[0]);
    }
    let mut builder = Builder::new(module, Mode::Call, entry, args);
    // A `void` built-in (`EmitVertex`, …) expands into statements only.
    if let Some(value) = expand(entry, &mut builder) {
        // A discarded result is still computed (into a temporary), so the
        // expansion is never empty and lookups keep their place in the code.
        let lhs = match return_deref {
            Some(lhs) => lhs,
            None => {
                let name = format!("{}_retval", entry.name);
                let var = builder.declare(&name, entry.return_type.clone());
                builder.expr(ExprKind::VarRef(var), entry.return_type.clone())
            }
        };
        let write_mask = full_mask(&entry.return_type);
        builder.stmt(Stmt::Assign {
            lhs,
            rhs: value,
            write_mask,
        });
    }
    builder.stmts
}

/// Implements [`super::expand_value`].
pub(crate) fn expand_value(
    id: BuiltinId,
    module: &mut Module,
    args: &[Handle<Expr>],
) -> Option<Handle<Expr>> {
    let entry = functions::table().entries.get(id.0 as usize)?;
    if !entry.constant_foldable || args.len() != entry.parameters.len() {
        return None;
    }
    if super::integer::folds(entry.name) {
        // These have no IR expansion (see `functions.rs`); fold directly.
        return super::integer::fold_integer_result(entry, module, args);
    }
    if entry.return_type.is_matrix() {
        // No IR expression builds a matrix from columns, so matrix-valued
        // built-ins fold their constant arguments directly.
        return super::matrix::fold_matrix_result(entry, module, args);
    }
    let mut builder = Builder::new(module, Mode::Value, entry, args);
    expand(entry, &mut builder)
}

fn expand(entry: &Entry, b: &mut Builder<'_>) -> Option<Handle<Expr>> {
    match entry.implementation {
        Implementation::Texture(form) => {
            let p_type = entry.parameters.get(1).map(|(ty, _)| ty.clone());
            texture::build_texture(form, &entry.return_type, p_type.as_ref(), b)
        }
        Implementation::Generic => expand_generic(entry, b),
    }
}

fn float_kind(ty: &Type) -> Type {
    ty.with_kind(ScalarKind::Float)
}

/// asin(x) ≈ sign(x)·(π/2 − sqrt(1 − |x|)·(π/2 + |x|·(π/4 − 1 + |x|·(p0 + |x|·p1))))
/// with Mesa's coefficients: (0.086566724, −0.03102955) for `asin`,
/// (0.08132463, −0.02363318) when used for `acos`.
fn asin_expr(b: &mut Builder<'_>, x: Val, ty: &Type, p0: f32, p1: f32) -> Option<Handle<Expr>> {
    let xv = b.take(x)?;
    let abs = b.op(Op::Abs, ty, &[xv]);
    let a = b.bind(abs, "asin_abs");
    let p1 = b.fconst(p1);
    let t0 = b.take(a)?;
    let m0 = b.op(Op::Mul, ty, &[t0, p1]);
    let p0 = b.fconst(p0);
    let s0 = b.op(Op::Add, ty, &[m0, p0]);
    let t1 = b.take(a)?;
    let m1 = b.op(Op::Mul, ty, &[t1, s0]);
    let c1 = b.fconst(FRAC_PI_4 - 1.0);
    let s1 = b.op(Op::Add, ty, &[m1, c1]);
    let t2 = b.take(a)?;
    let m2 = b.op(Op::Mul, ty, &[t2, s1]);
    let c2 = b.fconst(FRAC_PI_2);
    let s2 = b.op(Op::Add, ty, &[m2, c2]);
    let one = b.fconst(1.0);
    let t3 = b.take(a)?;
    let diff = b.op(Op::Sub, ty, &[one, t3]);
    let root = b.op(Op::Sqrt, ty, &[diff]);
    let m3 = b.op(Op::Mul, ty, &[root, s2]);
    let c3 = b.fconst(FRAC_PI_2);
    let s3 = b.op(Op::Sub, ty, &[c3, m3]);
    let xs = b.take(x)?;
    let sign = b.op(Op::Sign, ty, &[xs]);
    Some(b.op(Op::Mul, ty, &[sign, s3]))
}

/// dot(x, y) for scalars (a product) and vectors.
fn dot(b: &mut Builder<'_>, x: Handle<Expr>, y: Handle<Expr>, ty: &Type) -> Handle<Expr> {
    if ty.is_scalar() {
        b.op(Op::Mul, &Type::FLOAT, &[x, y])
    } else {
        b.op(Op::Dot, &Type::FLOAT, &[x, y])
    }
}

fn expand_generic(entry: &Entry, b: &mut Builder<'_>) -> Option<Handle<Expr>> {
    let ret = entry.return_type.clone();
    let ty0 = entry
        .parameters
        .first()
        .map(|(t, _)| t.clone())
        .unwrap_or(Type::Void);
    let n = ty0.vector_elements();
    let (x, y, z) = (Val(0), Val(1), Val(2));
    let unary = |b: &mut Builder<'_>, op: Op| -> Option<Handle<Expr>> {
        let a = b.take(Val(0))?;
        Some(b.op(op, &ret, &[a]))
    };
    let binary = |b: &mut Builder<'_>, op: Op, first: Val, second: Val| -> Option<Handle<Expr>> {
        let a = b.take(first)?;
        let c = b.take(second)?;
        Some(b.op(op, &ret, &[a, c]))
    };
    match entry.name {
        "radians" | "degrees" => {
            let factor = if entry.name == "radians" {
                PI / 180.0
            } else {
                180.0 / PI
            };
            let a = b.take(x)?;
            let c = b.fconst(factor);
            Some(b.op(Op::Mul, &ret, &[a, c]))
        }
        "sin" => unary(b, Op::Sin),
        "cos" => unary(b, Op::Cos),
        "tan" => {
            let s = {
                let a = b.take(x)?;
                b.op(Op::Sin, &ret, &[a])
            };
            let c = {
                let a = b.take(x)?;
                b.op(Op::Cos, &ret, &[a])
            };
            Some(b.op(Op::Div, &ret, &[s, c]))
        }
        "asin" => asin_expr(b, x, &ret, 0.086_566_724, -0.031_029_55),
        "acos" => {
            let asin = asin_expr(b, x, &ret, 0.081_324_63, -0.023_633_18)?;
            let c = b.fconst(FRAC_PI_2);
            Some(b.op(Op::Sub, &ret, &[c, asin]))
        }
        "atan" if entry.parameters.len() == 2 => binary(b, Op::Atan2, x, y),
        "atan" => unary(b, Op::Atan),
        "sinh" | "cosh" | "tanh" => {
            let source = if entry.name == "tanh" {
                // Clamp to ±10 so exp() does not overflow (Mesa does the same).
                let a = b.take(x)?;
                let lo = b.fconst(-10.0);
                let hi = b.fconst(10.0);
                let mx = b.op(Op::Max, &ret, &[a, lo]);
                let mn = b.op(Op::Min, &ret, &[mx, hi]);
                b.bind(mn, "tanh_x")
            } else {
                x
            };
            let a = b.take(source)?;
            let pos = b.op(Op::Exp, &ret, &[a]);
            let pos = b.bind(pos, "exp_pos");
            let a = b.take(source)?;
            let negx = b.op(Op::Neg, &ret, &[a]);
            let neg = b.op(Op::Exp, &ret, &[negx]);
            let neg = b.bind(neg, "exp_neg");
            let (p, q) = (b.take(pos)?, b.take(neg)?);
            match entry.name {
                "sinh" | "cosh" => {
                    let op = if entry.name == "sinh" {
                        Op::Sub
                    } else {
                        Op::Add
                    };
                    let s = b.op(op, &ret, &[p, q]);
                    let half = b.fconst(0.5);
                    Some(b.op(Op::Mul, &ret, &[half, s]))
                }
                _ => {
                    let num = b.op(Op::Sub, &ret, &[p, q]);
                    let (p2, q2) = (b.take(pos)?, b.take(neg)?);
                    let den = b.op(Op::Add, &ret, &[p2, q2]);
                    Some(b.op(Op::Div, &ret, &[num, den]))
                }
            }
        }
        "asinh" | "acosh" => {
            // asinh: sign(x)·log(|x| + sqrt(x² + 1)); acosh: log(x + sqrt(x² − 1)).
            let asinh = entry.name == "asinh";
            let (a, c) = (b.take(x)?, b.take(x)?);
            let sq = b.op(Op::Mul, &ret, &[a, c]);
            let one = b.fconst(1.0);
            let inner = b.op(if asinh { Op::Add } else { Op::Sub }, &ret, &[sq, one]);
            let root = b.op(Op::Sqrt, &ret, &[inner]);
            let base = b.take(x)?;
            let base = if asinh {
                b.op(Op::Abs, &ret, &[base])
            } else {
                base
            };
            let sum = b.op(Op::Add, &ret, &[base, root]);
            let log = b.op(Op::Log, &ret, &[sum]);
            if asinh {
                let a = b.take(x)?;
                let sign = b.op(Op::Sign, &ret, &[a]);
                Some(b.op(Op::Mul, &ret, &[sign, log]))
            } else {
                Some(log)
            }
        }
        "atanh" => {
            // 0.5·log((1 + x) / (1 − x))
            let one = b.fconst(1.0);
            let a = b.take(x)?;
            let num = b.op(Op::Add, &ret, &[one, a]);
            let one = b.fconst(1.0);
            let a = b.take(x)?;
            let den = b.op(Op::Sub, &ret, &[one, a]);
            let q = b.op(Op::Div, &ret, &[num, den]);
            let log = b.op(Op::Log, &ret, &[q]);
            let half = b.fconst(0.5);
            Some(b.op(Op::Mul, &ret, &[half, log]))
        }
        "pow" => binary(b, Op::Pow, x, y),
        "exp" => unary(b, Op::Exp),
        "log" => unary(b, Op::Log),
        "exp2" => unary(b, Op::Exp2),
        "log2" => unary(b, Op::Log2),
        "sqrt" => unary(b, Op::Sqrt),
        "inversesqrt" => unary(b, Op::Rsq),
        "abs" => unary(b, Op::Abs),
        "sign" => unary(b, Op::Sign),
        "floor" => unary(b, Op::Floor),
        "trunc" => unary(b, Op::Trunc),
        "round" | "roundEven" => unary(b, Op::RoundEven),
        "ceil" => unary(b, Op::Ceil),
        "fract" => unary(b, Op::Fract),
        "mod" => binary(b, Op::Mod, x, y),
        "modf" => {
            // i = trunc(x); return x - i
            let a = b.take(x)?;
            let t = b.op(Op::Trunc, &ret, &[a]);
            let t = b.bind(t, "modf_int");
            let out = b.take(y)?;
            let whole = b.take(t)?;
            b.stmt(Stmt::Assign {
                lhs: out,
                rhs: whole,
                write_mask: full_mask(&ret),
            });
            let (a, w) = (b.take(x)?, b.take(t)?);
            Some(b.op(Op::Sub, &ret, &[a, w]))
        }
        "min" => binary(b, Op::Min, x, y),
        "max" => binary(b, Op::Max, x, y),
        "min3" | "max3" => {
            // AMD_shader_trinary_minmax: min(min(x, y), z) / max(max(x, y), z).
            let op = if entry.name == "min3" {
                Op::Min
            } else {
                Op::Max
            };
            let xy = binary(b, op, x, y)?;
            let c = b.take(z)?;
            Some(b.op(op, &ret, &[xy, c]))
        }
        "mid3" => {
            // AMD_shader_trinary_minmax: the median, computed as the spec
            // defines it, max(min(x, y), min(max(x, y), z)).
            let lo = binary(b, Op::Min, x, y)?;
            let hi = binary(b, Op::Max, x, y)?;
            let c = b.take(z)?;
            let hi_z = b.op(Op::Min, &ret, &[hi, c]);
            Some(b.op(Op::Max, &ret, &[lo, hi_z]))
        }
        "clamp" => {
            let mx = binary(b, Op::Max, x, y)?;
            let hi = b.take(z)?;
            Some(b.op(Op::Min, &ret, &[mx, hi]))
        }
        "mix" => {
            let selector = entry.parameters.get(2).and_then(|(t, _)| t.scalar_kind())
                == Some(ScalarKind::Bool);
            if selector {
                // Components where a is true come from y.
                let (a, c, s) = (b.take(z)?, b.take(y)?, b.take(x)?);
                Some(b.op(Op::Csel, &ret, &[a, c, s]))
            } else {
                let (a, c, s) = (b.take(x)?, b.take(y)?, b.take(z)?);
                Some(b.op(Op::Lrp, &ret, &[a, c, s]))
            }
        }
        "step" => {
            // b2f(x >= edge), the edge splatted when it is a scalar.
            let edge = b.take(x)?;
            let edge = if ty0.is_scalar() {
                b.splat(edge, ret.vector_elements())
            } else {
                edge
            };
            let v = b.take(y)?;
            let cmp = b.op(Op::GEqual, &ret.with_kind(ScalarKind::Bool), &[v, edge]);
            Some(b.op(Op::B2f, &ret, &[cmp]))
        }
        "smoothstep" => {
            // t = clamp((x - e0) / (e1 - e0), 0, 1); t·t·(3 − 2t)
            let (v, e0) = (b.take(z)?, b.take(x)?);
            let num = b.op(Op::Sub, &ret, &[v, e0]);
            let (e1, e0) = (b.take(y)?, b.take(x)?);
            let den = b.op(Op::Sub, &ty0, &[e1, e0]);
            let q = b.op(Op::Div, &ret, &[num, den]);
            let zero = b.fconst(0.0);
            let one = b.fconst(1.0);
            let mx = b.op(Op::Max, &ret, &[q, zero]);
            let t = b.op(Op::Min, &ret, &[mx, one]);
            let t = b.bind(t, "smoothstep_t");
            let two = b.fconst(2.0);
            let t1 = b.take(t)?;
            let m = b.op(Op::Mul, &ret, &[two, t1]);
            let three = b.fconst(3.0);
            let poly = b.op(Op::Sub, &ret, &[three, m]);
            let (t2, t3) = (b.take(t)?, b.take(t)?);
            let sq = b.op(Op::Mul, &ret, &[t2, t3]);
            Some(b.op(Op::Mul, &ret, &[sq, poly]))
        }
        "isnan" => {
            let (a, c) = (b.take(x)?, b.take(x)?);
            Some(b.op(Op::NEqual, &ret, &[a, c]))
        }
        "isinf" => {
            let a = b.take(x)?;
            let abs = b.op(Op::Abs, &ty0, &[a]);
            let inf = b.fconst_of(&ty0, f32::INFINITY);
            Some(b.op(Op::GEqual, &ret, &[abs, inf]))
        }
        "floatBitsToInt" => unary(b, Op::BitcastF2i),
        "floatBitsToUint" => unary(b, Op::BitcastF2u),
        "intBitsToFloat" => unary(b, Op::BitcastI2f),
        "uintBitsToFloat" => unary(b, Op::BitcastU2f),
        "packSnorm2x16" => unary(b, Op::PackSnorm2x16),
        "unpackSnorm2x16" => unary(b, Op::UnpackSnorm2x16),
        "packUnorm2x16" => unary(b, Op::PackUnorm2x16),
        "unpackUnorm2x16" => unary(b, Op::UnpackUnorm2x16),
        "packHalf2x16" => unary(b, Op::PackHalf2x16),
        "unpackHalf2x16" => unary(b, Op::UnpackHalf2x16),
        "packSnorm4x8" => unary(b, Op::PackSnorm4x8),
        "unpackSnorm4x8" => unary(b, Op::UnpackSnorm4x8),
        "packUnorm4x8" => unary(b, Op::PackUnorm4x8),
        "unpackUnorm4x8" => unary(b, Op::UnpackUnorm4x8),
        "length" => {
            if ty0.is_scalar() {
                unary(b, Op::Abs)
            } else {
                let (a, c) = (b.take(x)?, b.take(x)?);
                let d = b.op(Op::Dot, &Type::FLOAT, &[a, c]);
                Some(b.op(Op::Sqrt, &ret, &[d]))
            }
        }
        "distance" => {
            let (a, c) = (b.take(x)?, b.take(y)?);
            let diff = b.op(Op::Sub, &ty0, &[a, c]);
            if ty0.is_scalar() {
                Some(b.op(Op::Abs, &ret, &[diff]))
            } else {
                let d = b.bind(diff, "distance_diff");
                let (a, c) = (b.take(d)?, b.take(d)?);
                let dp = b.op(Op::Dot, &Type::FLOAT, &[a, c]);
                Some(b.op(Op::Sqrt, &ret, &[dp]))
            }
        }
        "dot" => {
            let (a, c) = (b.take(x)?, b.take(y)?);
            Some(dot(b, a, c, &ty0))
        }
        "cross" => {
            // x.yzx·y.zxy − x.zxy·y.yzx
            let (a, c) = (b.take(x)?, b.take(y)?);
            let (a_yzx, c_zxy) = (b.swizzle(a, &[1, 2, 0]), b.swizzle(c, &[2, 0, 1]));
            let first = b.op(Op::Mul, &ret, &[a_yzx, c_zxy]);
            let (a, c) = (b.take(x)?, b.take(y)?);
            let (a_zxy, c_yzx) = (b.swizzle(a, &[2, 0, 1]), b.swizzle(c, &[1, 2, 0]));
            let second = b.op(Op::Mul, &ret, &[a_zxy, c_yzx]);
            Some(b.op(Op::Sub, &ret, &[first, second]))
        }
        "normalize" => {
            if ty0.is_scalar() {
                unary(b, Op::Sign)
            } else {
                let (a, c) = (b.take(x)?, b.take(x)?);
                let d = b.op(Op::Dot, &Type::FLOAT, &[a, c]);
                let r = b.op(Op::Rsq, &Type::FLOAT, &[d]);
                let v = b.take(x)?;
                Some(b.op(Op::Mul, &ret, &[v, r]))
            }
        }
        "ftransform" => ftransform(b),
        "faceforward" => {
            // dot(Nref, I) < 0 ? N : -N
            let (nref, i) = (b.take(z)?, b.take(y)?);
            let d = dot(b, nref, i, &ty0);
            let zero = b.fconst(0.0);
            let less = b.op(Op::Less, &Type::BOOL, &[d, zero]);
            let cond = b.splat(less, n);
            let nv = b.take(x)?;
            let nn = b.take(x)?;
            let neg = b.op(Op::Neg, &ret, &[nn]);
            Some(b.op(Op::Csel, &ret, &[cond, nv, neg]))
        }
        "reflect" => {
            // I − 2·dot(N, I)·N
            let (nv, i) = (b.take(y)?, b.take(x)?);
            let d = dot(b, nv, i, &ty0);
            let two = b.fconst(2.0);
            let scaled = b.op(Op::Mul, &Type::FLOAT, &[two, d]);
            let nv = b.take(y)?;
            let prod = b.op(Op::Mul, &ret, &[scaled, nv]);
            let i = b.take(x)?;
            Some(b.op(Op::Sub, &ret, &[i, prod]))
        }
        "refract" => {
            // k = 1 − η²·(1 − dot(N, I)²); k < 0 ? 0 : η·I − (η·dot(N, I) + sqrt(k))·N
            let (nv, i) = (b.take(y)?, b.take(x)?);
            let d = dot(b, nv, i, &ty0);
            let d = b.bind(d, "refract_dot");
            let (d1, d2) = (b.take(d)?, b.take(d)?);
            let d_sq = b.op(Op::Mul, &Type::FLOAT, &[d1, d2]);
            let one = b.fconst(1.0);
            let inner = b.op(Op::Sub, &Type::FLOAT, &[one, d_sq]);
            let (e1, e2) = (b.take(z)?, b.take(z)?);
            let eta_sq = b.op(Op::Mul, &Type::FLOAT, &[e1, e2]);
            let prod = b.op(Op::Mul, &Type::FLOAT, &[eta_sq, inner]);
            let one = b.fconst(1.0);
            let k = b.op(Op::Sub, &Type::FLOAT, &[one, prod]);
            let k = b.bind(k, "refract_k");
            let kv = b.take(k)?;
            let zero = b.fconst(0.0);
            let less = b.op(Op::Less, &Type::BOOL, &[kv, zero]);
            let cond = b.splat(less, n);
            let zero_vec = b.fconst_of(&ret, 0.0);
            let (e, i) = (b.take(z)?, b.take(x)?);
            let eta_i = b.op(Op::Mul, &ret, &[e, i]);
            let (e, dv) = (b.take(z)?, b.take(d)?);
            let eta_d = b.op(Op::Mul, &Type::FLOAT, &[e, dv]);
            let kv = b.take(k)?;
            let root = b.op(Op::Sqrt, &Type::FLOAT, &[kv]);
            let coef = b.op(Op::Add, &Type::FLOAT, &[eta_d, root]);
            let nv = b.take(y)?;
            let scaled = b.op(Op::Mul, &ret, &[coef, nv]);
            let refr = b.op(Op::Sub, &ret, &[eta_i, scaled]);
            Some(b.op(Op::Csel, &ret, &[cond, zero_vec, refr]))
        }
        "matrixCompMult" | "outerProduct" | "transpose" | "inverse" => {
            super::matrix::build_matrix_call(entry, b)
        }
        "determinant" => super::matrix::determinant(b, x, ty0.matrix_columns()),
        "lessThan" => binary(b, Op::Less, x, y),
        "lessThanEqual" => binary(b, Op::GEqual, y, x),
        "greaterThan" => binary(b, Op::Less, y, x),
        "greaterThanEqual" => binary(b, Op::GEqual, x, y),
        "equal" => binary(b, Op::Equal, x, y),
        "notEqual" => binary(b, Op::NEqual, x, y),
        "any" | "all" => {
            let any = entry.name == "any";
            let v = b.take(x)?;
            let c = b.constant(
                ty0.clone(),
                Constant::Components(smallvec::smallvec![ScalarValue::Bool(!any); n as usize]),
            );
            Some(b.op(
                if any { Op::AnyNequal } else { Op::AllEqual },
                &ret,
                &[v, c],
            ))
        }
        "not" => unary(b, Op::LogicNot),
        "dFdx" => unary(b, Op::Dfdx),
        "dFdy" => unary(b, Op::Dfdy),
        "dFdxFine" => unary(b, Op::DfdxFine),
        "dFdyFine" => unary(b, Op::DfdyFine),
        "dFdxCoarse" => unary(b, Op::DfdxCoarse),
        "dFdyCoarse" => unary(b, Op::DfdyCoarse),
        "fwidth" | "fwidthFine" | "fwidthCoarse" => {
            // abs(dFdx(p)) + abs(dFdy(p)) at the requested granularity
            // (ARB_derivative_control: fwidthFine uses the fine derivatives,
            // fwidthCoarse the coarse ones).
            let (ddx, ddy) = match entry.name {
                "fwidthFine" => (Op::DfdxFine, Op::DfdyFine),
                "fwidthCoarse" => (Op::DfdxCoarse, Op::DfdyCoarse),
                _ => (Op::Dfdx, Op::Dfdy),
            };
            let a = b.take(x)?;
            let dx = b.op(ddx, &ret, &[a]);
            let adx = b.op(Op::Abs, &ret, &[dx]);
            let a = b.take(x)?;
            let dy = b.op(ddy, &ret, &[a]);
            let ady = b.op(Op::Abs, &ret, &[dy]);
            Some(b.op(Op::Add, &ret, &[adx, ady]))
        }
        "fma" => {
            let (p, q, r) = (b.take(x)?, b.take(y)?, b.take(z)?);
            Some(b.op(Op::Fma, &ret, &[p, q, r]))
        }
        "EmitVertex" | "EndPrimitive" => {
            b.stmt(if entry.name == "EmitVertex" {
                Stmt::EmitVertex
            } else {
                Stmt::EndPrimitive
            });
            None
        }
        "noise1" | "noise2" | "noise3" | "noise4" => Some(b.fconst_of(&float_kind(&ret), 0.0)),
        // GLSL 4.00 §8.13: rgl renders single-sampled (GL 4.5 §14.3.1: no
        // multisample buffer), so the centroid and the only sample are the
        // pixel centre, where the input is already interpolated; "if the
        // sample number does not exist, the position used to interpolate
        // the input variable is undefined".
        "interpolateAtCentroid" | "interpolateAtSample" => b.take(x),
        "interpolateAtOffset" => {
            let interp = match b.tree_of(x) {
                Some(tree) => super::interpolate::interpolation_of(b.module, tree),
                None => crate::ast::Interpolation::Smooth,
            };
            let frag_coord = builtin_variable(b.module, "gl_FragCoord")
                .map(|v| b.expr(ExprKind::VarRef(v), Type::vec(ScalarKind::Float, 4)));
            super::interpolate::at_offset(b, x, y, &ret, interp, frag_coord)
        }
        _ => None,
    }
}

/// `EmitStreamVertex(stream)` / `EndStreamPrimitive(stream)` (GLSL 4.00 §8.12;
/// the checker made sure `stream` is a constant below MAX_VERTEX_STREAMS).
/// Stream 0 is the stream that is rasterized (GL 4.0 §2.16 "Only vertices
/// emitted to stream zero are ... passed to ... rasterization"), so its calls
/// are `EmitVertex` / `EndPrimitive`. rgl's transform feedback captures
/// stream 0 only and it has no per-stream primitive queries, so vertices and
/// primitives of the other streams have no observable effect: their calls
/// expand into nothing.
fn stream_call(name: &str, module: &mut Module, stream: Handle<Expr>) -> Vec<Handle<Stmt>> {
    let value = crate::hir::const_eval::evaluate(module, stream);
    let stmt = if value.as_ref().and_then(crate::hir::const_eval::as_int) != Some(0) {
        // An empty `if (false)`: the call's replacement must not be empty
        // (an empty expansion keeps the call), and later passes drop it.
        let condition = module.exprs.append(Expr {
            kind: ExprKind::Constant(Constant::Components(smallvec::smallvec![
                ScalarValue::Bool(false,)
            ])),
            ty: Type::BOOL,
        });
        Stmt::If {
            condition,
            then_block: Vec::new(),
            else_block: Vec::new(),
        }
    } else if name == "EmitStreamVertex" {
        Stmt::EmitVertex
    } else {
        Stmt::EndPrimitive
    };
    vec![module.stmts.append(stmt)]
}

/// `ftransform()` = `gl_ModelViewProjectionMatrix * gl_Vertex`, declaring the
/// two built-ins in the module when they are not there yet.
fn ftransform(b: &mut Builder<'_>) -> Option<Handle<Expr>> {
    let matrix = builtin_variable(b.module, "gl_ModelViewProjectionMatrix")?;
    let vertex = builtin_variable(b.module, "gl_Vertex")?;
    let m = b.expr(ExprKind::VarRef(matrix), Type::mat(4, 4));
    let v = b.expr(ExprKind::VarRef(vertex), Type::vec(ScalarKind::Float, 4));
    Some(b.op(Op::Mul, &Type::vec(ScalarKind::Float, 4), &[m, v]))
}

/// The module's built-in variable `name`, declared (as a global item) when absent.
fn builtin_variable(module: &mut Module, name: &str) -> Option<Handle<Variable>> {
    if let Some((handle, _)) = module
        .variables
        .iter()
        .find(|(_, v)| v.is_builtin && v.name == name)
    {
        return Some(handle);
    }
    let version = module.version.unwrap_or(Version::DEFAULT);
    let stage = module.stage.unwrap_or(Stage::Vertex);
    let extensions = module.enabled_extensions.clone();
    let avail = Availability {
        version,
        stage,
        extensions: &extensions,
    };
    let var = super::lookup_variable(name, &avail, &mut module.structs)?;
    let handle = module.variables.append(var);
    module.items.insert(0, Item::Variable(handle));
    Some(handle)
}
