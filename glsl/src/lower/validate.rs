//! GLSL IR validator (Mesa's `validate_ir_tree`): first every handle is
//! checked to be in range, then the typing rules of each node — assignment
//! masks and types, dereference chains, swizzles, constants against their
//! types, operand types of every [`Op`], conditions, returns and calls.
//!
//! It only ever catches compiler bugs: the checker must reject bad user code
//! itself. [`super::lower`] runs it after every pass in debug builds.

use std::fmt;

use crate::arena::Handle;
use crate::hir::const_eval::conforms;
use crate::hir::{Expr, ExprKind, Item, Module, Op, Stmt, TexOp};
use crate::types::{ScalarKind, Type};

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Where: function and statement/expression handle.
    pub context: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.context, self.message)
    }
}

/// Validates a module; an empty list means it is well formed.
pub fn validate(module: &Module) -> Vec<ValidationError> {
    let mut v = Validator {
        module,
        errors: Vec::new(),
        context: String::from("globals"),
    };
    v.handles();
    if !v.errors.is_empty() {
        return v.errors;
    }
    v.semantics();
    v.errors
}

struct Validator<'m> {
    module: &'m Module,
    errors: Vec<ValidationError>,
    context: String,
}

impl Validator<'_> {
    fn error(&mut self, message: String) {
        self.errors.push(ValidationError {
            context: self.context.clone(),
            message,
        });
    }

    /// Stage 1: every handle points into its arena.
    fn handles(&mut self) {
        let m = self.module;
        for item in &m.items {
            match *item {
                Item::Variable(v) if m.variables.get(v).is_none() => {
                    self.error(format!("global {v:?} out of range"))
                }
                Item::Function(f) if m.functions.get(f).is_none() => {
                    self.error(format!("function {f:?} out of range"))
                }
                _ => {}
            }
        }
        for (fh, func) in m.functions.iter() {
            for (si, sig) in func.signatures.iter().enumerate() {
                self.context = format!("{} ({fh:?}) signature {si}", func.name);
                for p in &sig.parameters {
                    if m.variables.get(*p).is_none() {
                        self.error(format!("parameter {p:?} out of range"));
                    }
                }
                for s in &sig.body {
                    if m.stmts.get(*s).is_none() {
                        self.error(format!("statement {s:?} out of range"));
                    }
                }
            }
        }
        self.context = String::from("statements");
        for (sh, stmt) in m.stmts.iter() {
            let mut exprs = Vec::new();
            let mut stmts = Vec::new();
            match stmt {
                Stmt::Declare(v) => {
                    if m.variables.get(*v).is_none() {
                        self.error(format!("{sh:?} declares {v:?} out of range"));
                    }
                }
                Stmt::Assign { lhs, rhs, .. } => exprs.extend([*lhs, *rhs]),
                Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } => {
                    match m.functions.get(*function) {
                        None => self.error(format!("{sh:?} calls {function:?} out of range")),
                        Some(f) if f.signatures.get(*signature).is_none() => {
                            self.error(format!("{sh:?} calls missing signature {signature}"))
                        }
                        Some(_) => {}
                    }
                    exprs.extend(return_deref.iter().chain(args));
                }
                Stmt::Return(v) | Stmt::Discard(v) => exprs.extend(v),
                Stmt::If {
                    condition,
                    then_block,
                    else_block,
                } => {
                    exprs.push(*condition);
                    stmts.extend(then_block.iter().chain(else_block));
                }
                Stmt::Loop { body } => stmts.extend(body),
                Stmt::Break | Stmt::Continue | Stmt::EmitVertex | Stmt::EndPrimitive => {}
            }
            for e in exprs {
                if m.exprs.get(e).is_none() {
                    self.error(format!("{sh:?} uses expression {e:?} out of range"));
                }
            }
            for s in stmts {
                if m.stmts.get(s).is_none() {
                    self.error(format!("{sh:?} contains statement {s:?} out of range"));
                }
            }
        }
        for (eh, expr) in m.exprs.iter() {
            if let ExprKind::VarRef(v) = expr.kind {
                if m.variables.get(v).is_none() {
                    self.error(format!("{eh:?} references {v:?} out of range"));
                }
            }
            for child in super::visit::expr_children(&expr.kind) {
                if m.exprs.get(child).is_none() {
                    self.error(format!("{eh:?} has operand {child:?} out of range"));
                }
            }
        }
    }

    /// Stage 2: typing rules of every reachable statement and expression.
    fn semantics(&mut self) {
        let m = self.module;
        for (fh, func) in m.functions.iter() {
            for (si, sig) in func.signatures.iter().enumerate() {
                if sig.builtin.is_some() {
                    continue;
                }
                self.context = format!("{} ({fh:?}) signature {si}", func.name);
                self.block(&sig.body, &sig.return_type, 0);
            }
        }
    }

    fn block(&mut self, block: &[Handle<Stmt>], ret: &Type, depth: usize) {
        if depth > 4096 {
            self.error("statement nesting too deep to validate".into());
            return;
        }
        let m = self.module;
        for &sh in block {
            match &m.stmts[sh] {
                Stmt::Declare(_) | Stmt::Break | Stmt::Continue => {}
                Stmt::EmitVertex | Stmt::EndPrimitive => {}
                Stmt::Assign {
                    lhs,
                    rhs,
                    write_mask,
                } => {
                    self.expr_tree(*lhs);
                    self.expr_tree(*rhs);
                    self.assign(sh, *lhs, *rhs, *write_mask);
                }
                Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } => {
                    for &a in return_deref.iter().chain(args) {
                        self.expr_tree(a);
                    }
                    let sig = &m.functions[*function].signatures[*signature];
                    if sig.builtin.is_none() && sig.parameters.len() != args.len() {
                        self.error(format!(
                            "{sh:?}: call passes {} arguments to {} parameters",
                            args.len(),
                            sig.parameters.len()
                        ));
                    }
                    match return_deref {
                        Some(d) if m.exprs[*d].ty != sig.return_type => self.error(format!(
                            "{sh:?}: return deref type differs from the return type"
                        )),
                        None if sig.return_type != Type::Void => {
                            self.error(format!("{sh:?}: non-void call without a return deref"))
                        }
                        _ => {}
                    }
                }
                Stmt::Return(value) => match value {
                    Some(v) => {
                        self.expr_tree(*v);
                        if m.exprs[*v].ty != *ret {
                            self.error(format!("{sh:?}: returned value type differs"));
                        }
                    }
                    None if *ret != Type::Void => {
                        self.error(format!("{sh:?}: bare return in a non-void function"))
                    }
                    None => {}
                },
                Stmt::Discard(cond) => {
                    if let Some(c) = cond {
                        self.expr_tree(*c);
                        self.bool_scalar(*c, "discard condition");
                    }
                }
                Stmt::If {
                    condition,
                    then_block,
                    else_block,
                } => {
                    self.expr_tree(*condition);
                    self.bool_scalar(*condition, "if condition");
                    self.block(then_block, ret, depth + 1);
                    self.block(else_block, ret, depth + 1);
                }
                Stmt::Loop { body } => self.block(body, ret, depth + 1),
            }
        }
    }

    fn bool_scalar(&mut self, e: Handle<Expr>, what: &str) {
        if self.module.exprs[e].ty != Type::BOOL {
            self.error(format!("{what} {e:?} is not a bool scalar"));
        }
    }

    fn assign(&mut self, sh: Handle<Stmt>, lhs: Handle<Expr>, rhs: Handle<Expr>, mask: u8) {
        let m = self.module;
        if super::visit::deref_root(m, lhs).is_none()
            || matches!(m.exprs[lhs].kind, ExprKind::Swizzle(..))
        {
            self.error(format!(
                "{sh:?}: assignment target {lhs:?} is not a dereference"
            ));
        }
        let lt = &m.exprs[lhs].ty;
        let rt = &m.exprs[rhs].ty;
        match lt {
            Type::Scalar(_) | Type::Vector(..) => {
                let width = lt.vector_elements();
                let bits = mask.count_ones() as u8;
                if mask == 0 || mask >> width != 0 {
                    self.error(format!(
                        "{sh:?}: write mask {mask:#x} does not fit {width} components"
                    ));
                } else if rt.scalar_kind() != lt.scalar_kind()
                    || !rt.is_numeric_or_bool()
                    || rt.is_matrix()
                {
                    self.error(format!("{sh:?}: rhs kind differs from lhs kind"));
                } else if rt.vector_elements() != bits {
                    self.error(format!(
                        "{sh:?}: rhs has {} components for {bits} mask bits",
                        rt.vector_elements()
                    ));
                }
            }
            _ => {
                if lt != rt {
                    self.error(format!("{sh:?}: rhs type differs from lhs type"));
                }
            }
        }
    }

    /// Checks every node of an expression tree.
    fn expr_tree(&mut self, root: Handle<Expr>) {
        for e in super::visit::post_order(self.module, root) {
            self.expr(e);
        }
    }

    fn expr(&mut self, eh: Handle<Expr>) {
        let m = self.module;
        let expr = &m.exprs[eh];
        let ty = &expr.ty;
        if ty.is_error() {
            self.error(format!("{eh:?} has the error type"));
            return;
        }
        match &expr.kind {
            ExprKind::Constant(value) => {
                if !conforms(value, ty, &m.structs) {
                    self.error(format!("{eh:?}: constant does not match its type"));
                }
            }
            ExprKind::VarRef(v) => {
                let vt = &m.variables[*v].ty;
                let same = vt == ty
                    || matches!((vt, ty), (Type::Array(a, _), Type::Array(b, _)) if a == b);
                if !same {
                    self.error(format!("{eh:?}: var_ref type differs from the variable's"));
                }
            }
            ExprKind::ArrayRef(base, index) => {
                let it = &m.exprs[*index].ty;
                if *it != Type::INT && *it != Type::UINT {
                    self.error(format!("{eh:?}: array index is not an int/uint scalar"));
                }
                if m.exprs[*base].ty.index_result().as_ref() != Some(ty) {
                    self.error(format!("{eh:?}: array_ref result type is wrong"));
                }
            }
            ExprKind::RecordRef(base, field) => {
                let field_ty = match m.exprs[*base].ty {
                    Type::Struct(h) => m
                        .structs
                        .get(h)
                        .and_then(|s| s.fields.get(*field as usize))
                        .map(|f| &f.ty),
                    _ => None,
                };
                if field_ty != Some(ty) {
                    self.error(format!(
                        "{eh:?}: record_ref of a missing field or wrong type"
                    ));
                }
            }
            ExprKind::Swizzle(base, swizzle) => {
                let bt = &m.exprs[*base].ty;
                let ok = (bt.is_scalar() || bt.is_vector())
                    && (1..=4).contains(&swizzle.len)
                    && swizzle.components[..swizzle.len as usize]
                        .iter()
                        .all(|&c| c < bt.vector_elements())
                    && bt.scalar_kind().map(|k| Type::vec(k, swizzle.len)).as_ref() == Some(ty);
                if !ok {
                    self.error(format!("{eh:?}: bad swizzle"));
                }
            }
            ExprKind::Operation(op, operands) => {
                let types: Vec<&Type> = operands.iter().map(|o| &m.exprs[*o].ty).collect();
                if let Err(message) = check_operation(*op, &types, ty) {
                    self.error(format!("{eh:?} ({}): {message}", op.spelling()));
                }
            }
            ExprKind::Texture(tex) => {
                if !m.exprs[tex.sampler].ty.is_sampler() {
                    self.error(format!("{eh:?}: texture sampler is not a sampler"));
                }
                if !matches!(tex.op, TexOp::Txs | TexOp::QueryLevels) && tex.coordinate.is_none() {
                    self.error(format!("{eh:?}: texture lookup without coordinate"));
                }
                let needs_lod = matches!(
                    tex.op,
                    TexOp::Txb | TexOp::Txl | TexOp::Txf | TexOp::TxfMs | TexOp::Txs | TexOp::Tg4
                );
                if needs_lod != tex.lod.is_some() {
                    self.error(format!(
                        "{eh:?}: lod/bias/sample presence is wrong for {}",
                        tex.op.name()
                    ));
                }
                if (tex.op == TexOp::Txd) != tex.grad.is_some() {
                    self.error(format!("{eh:?}: gradients presence is wrong"));
                }
            }
        }
    }
}

fn kind(ty: &Type) -> Option<ScalarKind> {
    if ty.is_numeric_or_bool() {
        ty.scalar_kind()
    } else {
        None
    }
}

/// The operand/result typing rules of each operator.
pub fn check_operation(op: Op, operands: &[&Type], result: &Type) -> Result<(), String> {
    let arity_ok = if op == Op::Vector {
        (2..=4).contains(&operands.len())
    } else {
        operands.len() == op.arity()
    };
    if !arity_ok {
        return Err(format!("{} operands", operands.len()));
    }
    if op == Op::SsboUnsizedArrayLength {
        // The operand is the runtime-sized array itself.
        if !matches!(operands[0], Type::Array(_, None)) || *result != Type::INT {
            return Err("expects a runtime-sized array → int".into());
        }
        return Ok(());
    }
    let rk = kind(result).ok_or("result is not a scalar/vector/matrix")?;
    let kinds: Vec<ScalarKind> = operands
        .iter()
        .map(|t| kind(t))
        .collect::<Option<_>>()
        .ok_or("operand is not a scalar/vector/matrix")?;
    let same_shape = |t: &Type| t.components() == result.components();
    use ScalarKind::*;
    let conversion = |from: ScalarKind, to: ScalarKind| -> Result<(), String> {
        if kinds[0] != from || rk != to || !same_shape(operands[0]) {
            return Err(format!("expects {} → {}", from.name(), to.name()));
        }
        Ok(())
    };
    match op {
        Op::F2i => conversion(Float, Int),
        Op::F2u => conversion(Float, Uint),
        Op::I2f => conversion(Int, Float),
        Op::F2b => conversion(Float, Bool),
        Op::B2f => conversion(Bool, Float),
        Op::I2b if kinds[0] == Uint => conversion(Uint, Bool),
        Op::I2b => conversion(Int, Bool),
        Op::B2i if rk == Uint => conversion(Bool, Uint),
        Op::B2i => conversion(Bool, Int),
        Op::U2f => conversion(Uint, Float),
        Op::I2u => conversion(Int, Uint),
        Op::U2i => conversion(Uint, Int),
        Op::BitcastI2f => conversion(Int, Float),
        Op::BitcastF2i => conversion(Float, Int),
        Op::BitcastU2f => conversion(Uint, Float),
        Op::BitcastF2u => conversion(Float, Uint),
        Op::IsNan | Op::IsInf => conversion(Float, Bool),
        Op::PackSnorm2x16 | Op::PackUnorm2x16 | Op::PackHalf2x16 => {
            if *operands[0] != Type::Vector(Float, 2) || *result != Type::UINT {
                return Err("expects vec2 → uint".into());
            }
            Ok(())
        }
        Op::UnpackSnorm2x16 | Op::UnpackUnorm2x16 | Op::UnpackHalf2x16 => {
            if *operands[0] != Type::UINT || *result != Type::Vector(Float, 2) {
                return Err("expects uint → vec2".into());
            }
            Ok(())
        }
        Op::PackSnorm4x8 | Op::PackUnorm4x8 => {
            if *operands[0] != Type::Vector(Float, 4) || *result != Type::UINT {
                return Err("expects vec4 → uint".into());
            }
            Ok(())
        }
        Op::UnpackSnorm4x8 | Op::UnpackUnorm4x8 => {
            if *operands[0] != Type::UINT || *result != Type::Vector(Float, 4) {
                return Err("expects uint → vec4".into());
            }
            Ok(())
        }
        Op::SsboUnsizedArrayLength => Err("checked above".into()),
        Op::Noise => {
            if kinds[0] != Float || rk != Float {
                return Err("expects float operands".into());
            }
            Ok(())
        }
        Op::BitNot
        | Op::LogicNot
        | Op::Neg
        | Op::Abs
        | Op::Sign
        | Op::Rcp
        | Op::Rsq
        | Op::Sqrt
        | Op::Exp
        | Op::Log
        | Op::Exp2
        | Op::Log2
        | Op::Trunc
        | Op::Ceil
        | Op::Floor
        | Op::Fract
        | Op::RoundEven
        | Op::Sin
        | Op::Cos
        | Op::Atan
        | Op::Dfdx
        | Op::Dfdy
        | Op::DfdxCoarse
        | Op::DfdxFine
        | Op::DfdyCoarse
        | Op::DfdyFine
        | Op::Saturate => {
            let allowed: &[ScalarKind] = match op {
                Op::BitNot => &[Int, Uint],
                Op::LogicNot => &[Bool],
                Op::Neg | Op::Abs | Op::Sign => &[Float, Int, Uint],
                _ => &[Float],
            };
            if !allowed.contains(&kinds[0]) || *operands[0] != *result {
                return Err("operand type not allowed or result type differs".into());
            }
            Ok(())
        }
        Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::Mod
        | Op::Min
        | Op::Max
        | Op::Pow
        | Op::Atan2
        | Op::BitAnd
        | Op::BitXor
        | Op::BitOr
        | Op::LogicAnd
        | Op::LogicXor
        | Op::LogicOr => {
            let allowed: &[ScalarKind] = match op {
                Op::BitAnd | Op::BitXor | Op::BitOr => &[Int, Uint],
                Op::LogicAnd | Op::LogicXor | Op::LogicOr => &[Bool],
                Op::Pow | Op::Atan2 => &[Float],
                _ => &[Float, Int, Uint],
            };
            if kinds[0] != kinds[1] || !allowed.contains(&kinds[0]) || rk != kinds[0] {
                return Err("operand kinds differ or are not allowed".into());
            }
            let (a, b) = (operands[0], operands[1]);
            if op == Op::Mul && (a.is_matrix() || b.is_matrix()) && !a.is_scalar() && !b.is_scalar()
            {
                let (ar, ac) = if a.is_matrix() {
                    (a.vector_elements(), a.matrix_columns())
                } else {
                    (1, a.vector_elements())
                };
                let (br, bc) = if b.is_matrix() {
                    (b.vector_elements(), b.matrix_columns())
                } else {
                    (b.vector_elements(), 1)
                };
                let expected = if ar == 1 {
                    Type::vec(Float, bc)
                } else if bc == 1 {
                    Type::vec(Float, ar)
                } else {
                    Type::mat(bc, ar)
                };
                if ac != br || *result != expected {
                    return Err("matrix product dimensions do not agree".into());
                }
                return Ok(());
            }
            let ok = if a.is_scalar() {
                b == result
            } else if b.is_scalar() {
                a == result
            } else {
                a == b && a == result
            };
            if !ok {
                return Err("operand shapes do not agree with the result".into());
            }
            Ok(())
        }
        Op::Lshift | Op::Rshift => {
            let ints = [Int, Uint];
            if !ints.contains(&kinds[0]) || !ints.contains(&kinds[1]) || *operands[0] != *result {
                return Err("shift operands must be integers, result the first's type".into());
            }
            if !operands[1].is_scalar() && operands[1].components() != operands[0].components() {
                return Err("shift count shape".into());
            }
            Ok(())
        }
        Op::Less | Op::GEqual | Op::Equal | Op::NEqual => {
            let numeric = !matches!(op, Op::Less | Op::GEqual) || kinds[0] != Bool;
            if kinds[0] != kinds[1]
                || !numeric
                || rk != Bool
                || operands[0].components() != operands[1].components()
                || result.components() != operands[0].components()
                || operands[0].is_matrix()
            {
                return Err("comparison operand/result shapes".into());
            }
            Ok(())
        }
        Op::AllEqual | Op::AnyNequal => {
            if operands[0] != operands[1] || *result != Type::BOOL {
                return Err("operands must have one type, result bool".into());
            }
            Ok(())
        }
        Op::Dot => {
            if operands[0] != operands[1]
                || operands[0].is_matrix()
                || kinds[0] == Bool
                || *result != Type::Scalar(kinds[0])
            {
                return Err("dot needs two equal vectors and a scalar result".into());
            }
            Ok(())
        }
        Op::VectorExtract => {
            if !operands[0].is_vector()
                || !matches!(*operands[1], Type::Scalar(Int | Uint))
                || *result != Type::Scalar(kinds[0])
            {
                return Err("vector_extract(vector, int) → scalar".into());
            }
            Ok(())
        }
        Op::VectorInsert => {
            if !operands[0].is_vector()
                || *operands[1] != Type::Scalar(kinds[0])
                || !matches!(*operands[2], Type::Scalar(Int | Uint))
                || operands[0] != result
            {
                return Err("vector_insert(vector, scalar, int) → vector".into());
            }
            Ok(())
        }
        Op::Fma | Op::Lrp => {
            if kinds.iter().any(|k| *k != Float)
                || operands[0] != result
                || operands[1] != result
                || !(operands[2] == result || operands[2].is_scalar() && op == Op::Lrp)
            {
                return Err("float operands of the result type".into());
            }
            Ok(())
        }
        Op::Csel => {
            if kinds[0] != Bool
                || operands[1] != result
                || operands[2] != result
                || !(operands[0].is_scalar() || operands[0].components() == result.components())
            {
                return Err("csel(bool, T, T) → T".into());
            }
            Ok(())
        }
        Op::Vector => {
            if !result.is_vector()
                || result.vector_elements() as usize != operands.len()
                || operands.iter().any(|t| **t != Type::Scalar(rk))
            {
                return Err("vector needs one scalar per component".into());
            }
            Ok(())
        }
    }
}
