//! A small structural type checker for the IR that built-in expansions
//! produce: operand/result shapes of every operation, swizzle ranges,
//! dereference types, assignment write masks and texture operand types.
//! Returns a description of the first problem found.

use rgl_glsl::hir::{Expr, ExprKind, Module, Op, Stmt, TexOp};
use rgl_glsl::types::{ScalarKind, Type};

use rgl_glsl::arena::Handle;

fn ty(module: &Module, e: Handle<Expr>) -> Result<Type, String> {
    module
        .exprs
        .get(e)
        .map(|e| e.ty.clone())
        .ok_or_else(|| format!("dangling expression {e:?}"))
}

fn kind(t: &Type) -> Option<ScalarKind> {
    t.scalar_kind()
}

/// Same shape, or one of them a scalar of the same base kind.
fn broadcast(a: &Type, b: &Type) -> Option<Type> {
    if a == b {
        Some(a.clone())
    } else if a.is_scalar() && kind(a) == kind(b) {
        Some(b.clone())
    } else if b.is_scalar() && kind(a) == kind(b) {
        Some(a.clone())
    } else {
        None
    }
}

fn check_operation(op: Op, result: &Type, operands: &[Type]) -> Result<(), String> {
    let fail = || {
        Err(format!(
            "{} {:?} over {:?}",
            op.spelling(),
            result,
            operands
        ))
    };
    if operands.len() != op.arity() && op != Op::Vector {
        return fail();
    }
    let bool_of = |t: &Type| t.with_kind(ScalarKind::Bool);
    let ok = match op {
        Op::Less | Op::GEqual | Op::Equal | Op::NEqual => {
            operands[0] == operands[1] && *result == bool_of(&operands[0])
        }
        Op::AllEqual | Op::AnyNequal => operands[0] == operands[1] && *result == Type::BOOL,
        Op::Dot => operands[0] == operands[1] && operands[0].is_vector() && *result == Type::FLOAT,
        Op::Mul if operands.iter().any(|t| t.is_matrix()) => match (&operands[0], &operands[1]) {
            (Type::Matrix { columns, rows }, Type::Vector(ScalarKind::Float, n)) => {
                n == columns && *result == Type::vec(ScalarKind::Float, *rows)
            }
            (a, b) => broadcast(a, b).as_ref() == Some(result),
        },
        Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::Mod
        | Op::Min
        | Op::Max
        | Op::Pow
        | Op::Atan2 => broadcast(&operands[0], &operands[1]).as_ref() == Some(result),
        Op::LogicNot => operands[0] == *result && kind(result) == Some(ScalarKind::Bool),
        Op::B2f => operands[0] == bool_of(result) && kind(result) == Some(ScalarKind::Float),
        Op::BitcastF2i | Op::BitcastF2u => {
            kind(&operands[0]) == Some(ScalarKind::Float)
                && operands[0].vector_elements() == result.vector_elements()
        }
        Op::BitcastI2f | Op::BitcastU2f => {
            kind(result) == Some(ScalarKind::Float)
                && operands[0].vector_elements() == result.vector_elements()
        }
        Op::PackSnorm2x16 | Op::PackUnorm2x16 | Op::PackHalf2x16 => {
            operands[0] == Type::Vector(ScalarKind::Float, 2) && *result == Type::UINT
        }
        Op::UnpackSnorm2x16 | Op::UnpackUnorm2x16 | Op::UnpackHalf2x16 => {
            operands[0] == Type::UINT && *result == Type::Vector(ScalarKind::Float, 2)
        }
        Op::PackSnorm4x8 | Op::PackUnorm4x8 => {
            operands[0] == Type::Vector(ScalarKind::Float, 4) && *result == Type::UINT
        }
        Op::UnpackSnorm4x8 | Op::UnpackUnorm4x8 => {
            operands[0] == Type::UINT && *result == Type::Vector(ScalarKind::Float, 4)
        }
        Op::Fma => operands.iter().all(|t| t == result) && kind(result) == Some(ScalarKind::Float),
        Op::Lrp => {
            operands[0] == *result
                && operands[1] == *result
                && (operands[2] == *result || operands[2] == Type::FLOAT)
        }
        Op::Csel => {
            operands[0] == bool_of(result) && operands[1] == *result && operands[2] == *result
        }
        _ if op.arity() == 1 => operands[0] == *result,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        fail()
    }
}

fn check_texture(
    module: &Module,
    tex: &rgl_glsl::hir::Texture,
    result: &Type,
) -> Result<(), String> {
    let Type::Sampler(sampler) = ty(module, tex.sampler)? else {
        return Err("texture sampler is not a sampler".into());
    };
    let coord_size = sampler.dim.coord_components() + u8::from(sampler.arrayed);
    if tex.op == TexOp::Txs {
        if tex.coordinate.is_some()
            || tex.lod.map(|l| ty(module, l)).transpose()? != Some(Type::INT)
        {
            return Err("txs needs an int lod and no coordinate".into());
        }
        return Ok(());
    }
    if tex.op == TexOp::QueryLevels {
        if tex.coordinate.is_some() || tex.lod.is_some() || *result != Type::INT {
            return Err("query_levels takes only the sampler and returns int".into());
        }
        return Ok(());
    }
    let coordinate = ty(module, tex.coordinate.ok_or("missing coordinate")?)?;
    if tex.op == TexOp::Lod {
        // textureQueryLOD: the coordinate without the array layer, no depth
        // reference, a vec2 result.
        let lod_coord = Type::vec(ScalarKind::Float, sampler.dim.coord_components());
        if coordinate != lod_coord
            || tex.shadow_comparator.is_some()
            || tex.projector.is_some()
            || tex.lod.is_some()
            || tex.offset.is_some()
            || *result != Type::vec(ScalarKind::Float, 2)
        {
            return Err(format!("lod query {coordinate:?} for {}", sampler.name()));
        }
        return Ok(());
    }
    let coord_kind = if matches!(tex.op, TexOp::Txf | TexOp::TxfMs) {
        ScalarKind::Int
    } else {
        ScalarKind::Float
    };
    if coordinate != Type::vec(coord_kind, coord_size) {
        return Err(format!("coordinate {coordinate:?} for {}", sampler.name()));
    }
    if let Some(p) = tex.projector {
        if ty(module, p)? != Type::FLOAT {
            return Err("projector is not a float".into());
        }
    }
    if sampler.shadow != tex.shadow_comparator.is_some() {
        return Err("shadow comparator presence does not match the sampler".into());
    }
    if let Some(c) = tex.shadow_comparator {
        if ty(module, c)? != Type::FLOAT {
            return Err("comparator is not a float".into());
        }
    }
    let grad_size = sampler.dim.coord_components();
    if let Some(offset) = tex.offset {
        if ty(module, offset)? != Type::vec(ScalarKind::Int, grad_size) {
            return Err("offset type".into());
        }
    }
    match tex.op {
        TexOp::Txb | TexOp::Txl => {
            if ty(module, tex.lod.ok_or("missing lod/bias")?)? != Type::FLOAT {
                return Err("lod/bias type".into());
            }
        }
        TexOp::Txf | TexOp::TxfMs => {
            if ty(module, tex.lod.ok_or("missing lod/sample")?)? != Type::INT {
                return Err("fetch lod type".into());
            }
        }
        TexOp::Txd => {
            let (x, y) = tex.grad.ok_or("missing gradients")?;
            let want = Type::vec(ScalarKind::Float, grad_size);
            if ty(module, x)? != want || ty(module, y)? != want {
                return Err("gradient types".into());
            }
        }
        TexOp::Tg4 => {
            if ty(module, tex.lod.ok_or("missing gather component")?)? != Type::INT {
                return Err("gather component type".into());
            }
        }
        TexOp::Tex | TexOp::Txs | TexOp::Lod | TexOp::QueryLevels => {}
    }
    let want_kind = if sampler.shadow {
        ScalarKind::Float
    } else {
        sampler.kind
    };
    if kind(result) != Some(want_kind) {
        return Err("result kind".into());
    }
    Ok(())
}

/// Checks one expression tree; `seen` catches nodes shared between trees.
pub fn check_expr(
    module: &Module,
    root: Handle<Expr>,
    seen: &mut std::collections::HashSet<Handle<Expr>>,
) -> Result<(), String> {
    let mut stack = vec![root];
    while let Some(handle) = stack.pop() {
        if !seen.insert(handle) {
            return Err(format!("expression {handle:?} is shared (not a tree)"));
        }
        let expr = module.exprs.get(handle).ok_or("dangling expression")?;
        match &expr.kind {
            ExprKind::Constant(_) => {}
            ExprKind::VarRef(v) => {
                let var = module.variables.get(*v).ok_or("dangling variable")?;
                if var.ty != expr.ty {
                    return Err(format!("var_ref {} typed {:?}", var.name, expr.ty));
                }
            }
            ExprKind::ArrayRef(base, index) => {
                let base_ty = ty(module, *base)?;
                if base_ty.index_result().as_ref() != Some(&expr.ty)
                    || ty(module, *index)? != Type::INT
                {
                    return Err(format!("array_ref of {base_ty:?} typed {:?}", expr.ty));
                }
                stack.extend([*base, *index]);
            }
            ExprKind::RecordRef(base, _) => stack.push(*base),
            ExprKind::Swizzle(base, swizzle) => {
                let base_ty = ty(module, *base)?;
                let width = base_ty.vector_elements();
                let comps = &swizzle.components[..swizzle.len as usize];
                if base_ty.is_matrix() || comps.iter().any(|&c| c >= width) {
                    return Err(format!("swizzle {} of {base_ty:?}", swizzle.letters()));
                }
                if expr.ty
                    != Type::vec(kind(&base_ty).ok_or("swizzle of non-numeric")?, swizzle.len)
                {
                    return Err(format!("swizzle typed {:?}", expr.ty));
                }
                stack.push(*base);
            }
            ExprKind::Operation(op, operands) => {
                let types: Vec<Type> = operands
                    .iter()
                    .map(|&o| ty(module, o))
                    .collect::<Result<_, _>>()?;
                check_operation(*op, &expr.ty, &types)?;
                stack.extend(operands.iter().copied());
            }
            ExprKind::Texture(tex) => {
                check_texture(module, tex, &expr.ty)?;
                stack.push(tex.sampler);
                stack.extend(
                    tex.coordinate
                        .iter()
                        .chain(&tex.offset)
                        .chain(&tex.projector),
                );
                stack.extend(tex.shadow_comparator.iter().chain(&tex.lod));
                if let Some((x, y)) = tex.grad {
                    stack.extend([x, y]);
                }
            }
        }
    }
    Ok(())
}

/// Checks statements produced by an expansion.
pub fn check_stmts(module: &Module, stmts: &[Handle<Stmt>]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for &s in stmts {
        match module.stmts.get(s).ok_or("dangling statement")? {
            Stmt::Declare(_) | Stmt::EmitVertex | Stmt::EndPrimitive => {}
            Stmt::Assign {
                lhs,
                rhs,
                write_mask,
            } => {
                check_expr(module, *lhs, &mut seen)?;
                check_expr(module, *rhs, &mut seen)?;
                let (lt, rt) = (ty(module, *lhs)?, ty(module, *rhs)?);
                let bits = write_mask.count_ones() as u8;
                let ok = if lt.is_vector() && bits < lt.vector_elements() {
                    rt.vector_elements() == bits && kind(&lt) == kind(&rt) && !rt.is_matrix()
                } else {
                    lt == rt
                };
                // Scalars and vectors carry a non-empty mask; whole matrices,
                // arrays and structs carry 0.
                let mask_ok = (*write_mask != 0) == (lt.is_scalar() || lt.is_vector());
                if !ok || !mask_ok {
                    return Err(format!("assign {lt:?} ({write_mask:#b}) = {rt:?}"));
                }
            }
            // `EmitStreamVertex(n)` of a stream that is not rasterized.
            Stmt::If {
                condition,
                then_block,
                else_block,
            } => {
                check_expr(module, *condition, &mut seen)?;
                if ty(module, *condition)? != Type::BOOL {
                    return Err("if condition is not a bool".into());
                }
                check_stmts(module, then_block)?;
                check_stmts(module, else_block)?;
            }
            other => return Err(format!("unexpected statement {other:?}")),
        }
    }
    Ok(())
}
