//! Robustness tests of the lowering pipeline on very deep expression trees
//! (`x + x + … + x` with 100 000 operators): printing, validation, folding and
//! every pass must work without recursion on expression depth; and the order
//! in which the iterative walkers of `visit` meet the nodes.

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

/// Children-first order by plain recursion: the reference for the walkers.
fn reference_post_order(m: &Module, h: crate::arena::Handle<Expr>, out: &mut Vec<usize>) {
    let Some(expr) = m.exprs.get(h) else {
        return;
    };
    super::visit::for_each_child(&expr.kind, |c| reference_post_order(m, c, out));
    out.push(h.index());
}

#[test]
fn walkers_visit_children_first_in_operand_order() {
    // Expression `i` is an operation over zero to four earlier expressions
    // (picked by a fixed multiplicative sequence, so operands repeat and the
    // trees share nodes) or, for `i % 5 == 4`, over an out-of-range handle.
    let mut m = Module::default();
    let mut handles = Vec::new();
    for i in 0..300usize {
        let kind = if i == 0 || i % 7 == 0 {
            ExprKind::Constant(Constant::Components(smallvec::smallvec![
                ScalarValue::Float(i as f32)
            ]))
        } else {
            let operands = (0..i % 5)
                .map(|k| {
                    if i % 5 == 4 && k == 1 {
                        crate::arena::Handle::from_index(100_000)
                    } else {
                        handles[(i * 31 + k * 17) % handles.len()]
                    }
                })
                .collect();
            ExprKind::Operation(Op::Add, operands)
        };
        handles.push(m.exprs.append(Expr {
            kind,
            ty: Type::FLOAT,
        }));
    }
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for &root in handles
        .iter()
        .chain([&crate::arena::Handle::from_index(100_000)])
    {
        let mut expected = Vec::new();
        reference_post_order(&m, root, &mut expected);
        out.clear();
        out.push(root);
        super::visit::post_order_into(&m, root, &mut out, &mut stack);
        let got: Vec<usize> = out[1..].iter().map(|h| h.index()).collect();
        assert_eq!(got, expected, "post_order_into from {}", root.index());
        let mut seen = Vec::new();
        super::visit::for_each_node(&m, root, &mut stack, |h, _| seen.push(h.index()));
        assert_eq!(seen, expected, "for_each_node from {}", root.index());
    }
}
