//! Robustness tests of the lowering pipeline on very deep expression trees
//! (`x + x + … + x` with 100 000 operators): printing, validation, folding and
//! every pass must work without recursion on expression depth.

use crate::hir::print::print_module;
use crate::hir::{
    Constant, Expr, ExprKind, Function, Item, Module, Op, ScalarValue, Signature, Stmt, VarMode,
    Variable,
};
use crate::types::Type;

const DEPTH: usize = 100_000;

/// `out = leaf + leaf + … + leaf` with `DEPTH` additions.
fn deep_chain(leaf: ExprKind) -> Module {
    let mut m = Module::default();
    let out = m
        .variables
        .append(Variable::new("out_value", Type::FLOAT, VarMode::ShaderOut));
    m.items.push(Item::Variable(out));
    let mut acc = m.exprs.append(Expr {
        kind: leaf.clone(),
        ty: Type::FLOAT,
    });
    for _ in 0..DEPTH {
        let rhs = m.exprs.append(Expr {
            kind: leaf.clone(),
            ty: Type::FLOAT,
        });
        acc = m.exprs.append(Expr {
            kind: ExprKind::Operation(Op::Add, smallvec::smallvec![acc, rhs]),
            ty: Type::FLOAT,
        });
    }
    let lhs = m.exprs.append(Expr {
        kind: ExprKind::VarRef(out),
        ty: Type::FLOAT,
    });
    let assign = m.stmts.append(Stmt::Assign {
        lhs,
        rhs: acc,
        write_mask: 1,
    });
    let main = m.functions.append(Function {
        name: "main".into(),
        signatures: vec![Signature {
            return_type: Type::Void,
            parameters: Vec::new(),
            body: vec![assign],
            is_defined: true,
            builtin: None,
        }],
    });
    m.items.push(Item::Function(main));
    m
}

#[test]
fn deep_variable_chain_survives_lowering_and_printing() {
    let mut m = deep_chain(ExprKind::Constant(Constant::Components(
        smallvec::smallvec![ScalarValue::Float(0.0),],
    )));
    // Make the leaves non-constant: reference a uniform.
    let u = m
        .variables
        .append(Variable::new("u", Type::FLOAT, VarMode::Uniform));
    m.items.insert(0, Item::Variable(u));
    for (_, expr) in m.exprs.iter_mut() {
        if matches!(expr.kind, ExprKind::Constant(_)) {
            expr.kind = ExprKind::VarRef(u);
        }
    }
    super::lower(&mut m);
    assert_eq!(super::validate::validate(&m), Vec::new());
    let text = print_module(&m);
    assert_eq!(text.matches("(expression float + ").count(), DEPTH);
    assert_eq!(text.matches("(var_ref u) ").count(), DEPTH + 1);
}

#[test]
fn deep_constant_chain_folds_to_one_constant() {
    let mut m = deep_chain(ExprKind::Constant(Constant::Components(
        smallvec::smallvec![ScalarValue::Float(1.0),],
    )));
    super::lower(&mut m);
    let text = print_module(&m);
    let assign = text
        .lines()
        .find(|l| l.contains("(assign"))
        .unwrap_or_default()
        .trim();
    assert_eq!(
        assign,
        "(assign  (x) (var_ref out_value)  (constant float (100001.000000)) )"
    );
}
