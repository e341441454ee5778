//! Splitting aggregate varyings into scalars and vectors, so that they can be
//! packed component by component (the job of Mesa's `lower_packed_varyings`,
//! done here on the linked GLSL IR, and only for a stage pair whose varyings do
//! not fit in whole slots).
//!
//! GL 3.3 §2.11.6 counts varyings in components: a program whose outputs use
//! no more than `GL_MAX_VARYING_COMPONENTS` components must link, whatever mix
//! of arrays, matrices and structs they are. Each aggregate output/input pair
//! becomes one varying per leaf (an array element, a matrix column, a struct
//! field, recursively; a block's members), named by its GLSL path (`f[3]`,
//! `m[1]`, `s[2].a`, `Block.f[3]`) on both sides so that the pair still matches
//! by name, with the original's interpolation qualifiers. The original variables stay as global
//! temporaries, so dynamic indexing keeps working on them:
//! - the producer copies the temporary into the leaves where its outputs are
//!   latched: before every `return` of `main` and at its end (vertex shader),
//!   or before every `EmitVertex()` (geometry shader);
//! - the consumer copies the leaves into the temporary at the start of `main`,
//!   per input vertex for a geometry shader.

use rgl_glsl::arena::Handle;
use rgl_glsl::ast::Interpolation;
use rgl_glsl::hir::{
    Components, Constant, Expr, ExprKind, Item, Module, ScalarValue, Stmt, VarMode, Variable,
};
use rgl_glsl::types::Type;
use rgl_glsl::Stage;

use super::usage::find_main;
use super::StageState;

/// One step of a leaf's path below its variable.
#[derive(Clone, Copy)]
enum Step {
    /// Array element or matrix column.
    Index(u32),
    /// Struct field.
    Field(u32),
}

/// A consumer copy: (temporary, path in it, leaf varying, vertex count of a
/// geometry shader input).
type InCopy = (Handle<Variable>, Vec<Step>, Handle<Variable>, Option<u32>);

/// A leaf of an aggregate: its path, the scalar or vector type there, and the
/// path's GLSL spelling.
struct Leaf {
    path: Vec<Step>,
    ty: Type,
    suffix: String,
    /// Interpolation and centroid of the block member it is in, for blocks
    /// (GLSL 1.50 §4.3.7: members carry their own interpolation qualifiers).
    member_interp: Option<(Option<Interpolation>, bool)>,
}

/// The leaves of `ty` in declaration order (arrays by element, matrices by
/// column, structs by field); `None` for an unsized array or a type with more
/// leaves than any program can pack.
fn leaves(module: &Module, ty: &Type) -> Option<Vec<Leaf>> {
    const MAX_LEAVES: usize = 4 * rgl_nir::ir::names::VARYING_SLOT_VAR_COUNT as usize;
    let mut out = Vec::new();
    let mut work = vec![(Vec::new(), ty.clone(), String::new(), None)];
    while let Some((path, ty, suffix, member_interp)) = work.pop() {
        // Every pending entry yields at least one leaf: stop before pushing
        // more than the limit (a hostile `float[1 << 30]` must cost nothing).
        let children = match &ty {
            Type::Matrix { columns, .. } => *columns as usize,
            Type::Array(_, Some(n)) => *n as usize,
            Type::Struct(h) => module.structs.get(*h).map_or(0, |s| s.fields.len()),
            _ => 1,
        };
        if out.len() + work.len() + children > MAX_LEAVES {
            return None;
        }
        // Pushed in reverse so that the leaves come out in declaration order.
        match &ty {
            Type::Scalar(_) | Type::Vector(..) => out.push(Leaf {
                path,
                ty,
                suffix,
                member_interp,
            }),
            Type::Matrix { columns, rows } => {
                for c in (0..*columns as u32).rev() {
                    let mut p = path.clone();
                    p.push(Step::Index(c));
                    let column = Type::vec(rgl_glsl::types::ScalarKind::Float, *rows);
                    work.push((p, column, format!("{suffix}[{c}]"), member_interp));
                }
            }
            Type::Array(elem, Some(n)) => {
                for i in (0..*n).rev() {
                    let mut p = path.clone();
                    p.push(Step::Index(i));
                    work.push((p, (**elem).clone(), format!("{suffix}[{i}]"), member_interp));
                }
            }
            Type::Struct(h) => {
                let st = module.structs.get(*h)?;
                for (f, field) in st.fields.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push(Step::Field(f as u32));
                    let q = &field.qualifiers;
                    let interp = if st.is_interface {
                        Some((q.interpolation, q.centroid))
                    } else {
                        member_interp
                    };
                    work.push((
                        p,
                        field.ty.clone(),
                        format!("{suffix}.{}", field.name),
                        interp,
                    ));
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A new expression node.
fn expr(module: &mut Module, kind: ExprKind, ty: Type) -> Handle<Expr> {
    module.exprs.append(Expr { kind, ty })
}

/// `var` followed by `steps`, as a dereference chain.
fn deref(module: &mut Module, var: Handle<Variable>, steps: &[Step]) -> Handle<Expr> {
    let ty = module.variables[var].ty.clone();
    let mut e = expr(module, ExprKind::VarRef(var), ty);
    for &step in steps {
        let base_ty = module.exprs[e].ty.clone();
        e = match step {
            Step::Index(i) => {
                let elem = match &base_ty {
                    Type::Array(elem, _) => (**elem).clone(),
                    Type::Matrix { rows, .. } => {
                        Type::vec(rgl_glsl::types::ScalarKind::Float, *rows)
                    }
                    other => other.clone(),
                };
                let index = expr(
                    module,
                    ExprKind::Constant(Constant::Components(Components::from_slice(&[
                        ScalarValue::Int(i as i32),
                    ]))),
                    Type::INT,
                );
                expr(module, ExprKind::ArrayRef(e, index), elem)
            }
            Step::Field(f) => {
                let field_ty = match &base_ty {
                    Type::Struct(h) => module
                        .structs
                        .get(*h)
                        .and_then(|s| s.fields.get(f as usize))
                        .map(|field| field.ty.clone())
                        .unwrap_or(Type::Error),
                    _ => Type::Error,
                };
                expr(module, ExprKind::RecordRef(e, f), field_ty)
            }
        };
    }
    e
}

/// `lhs = rhs` for a scalar or vector leaf.
fn assign(module: &mut Module, lhs: Handle<Expr>, rhs: Handle<Expr>) -> Handle<Stmt> {
    let width = module.exprs[lhs].ty.vector_elements().max(1);
    module.stmts.append(Stmt::Assign {
        lhs,
        rhs,
        write_mask: (1u8 << width) - 1,
    })
}

/// A new varying for a leaf, declared right after `original`.
fn leaf_var(
    module: &mut Module,
    original: Handle<Variable>,
    leaf: &Leaf,
    ty: Type,
) -> Handle<Variable> {
    let o = &module.variables[original];
    let mut v = Variable::new(
        format!("{}{}", base_name(module, o), leaf.suffix),
        ty,
        o.mode,
    );
    (v.interpolation, v.centroid) = match leaf.member_interp {
        Some((interp, centroid)) => (interp.or(o.interpolation), centroid || o.centroid),
        None => (o.interpolation, o.centroid),
    };
    v.invariant = o.invariant;
    v.precision = o.precision;
    v.used = true;
    v.assigned = o.assigned;
    let loc = module.var_locs.get(original);
    let h = module.variables.append(v);
    module.var_locs.insert(h, loc);
    let at = module
        .items
        .iter()
        .position(|i| *i == Item::Variable(original))
        .map_or(module.items.len(), |p| p + 1);
    module.items.insert(at, Item::Variable(h));
    h
}

/// The name leaves are named after, the same on both sides of a pair: the
/// variable's name, or for blocks (GLSL 1.50 §4.3.7: matched by block name)
/// the block name for an instance and `Block.member` for a member of an
/// unnamed block.
fn base_name(module: &Module, var: &Variable) -> String {
    let Some(b) = var.interface_block else {
        return var.name.clone();
    };
    let block = module.structs.get(b).map(|s| s.name.as_str()).unwrap_or("");
    let mut ty = &var.ty;
    while let Type::Array(elem, _) = ty {
        ty = elem;
    }
    if matches!(ty, Type::Struct(h) if *h == b) {
        block.to_string()
    } else {
        format!("{block}.{}", var.name)
    }
}

/// Turns an output or input into a global temporary.
fn demote(module: &mut Module, v: Handle<Variable>) {
    let var = &mut module.variables[v];
    var.mode = VarMode::Auto;
    var.read_only = false;
}

/// Inserts `copies()` before every statement `at` matches, in `body` and the
/// blocks nested in it.
fn insert_before(
    module: &mut Module,
    body: Vec<Handle<Stmt>>,
    at: &dyn Fn(&Stmt) -> bool,
    copies: &mut dyn FnMut(&mut Module) -> Vec<Handle<Stmt>>,
) -> Vec<Handle<Stmt>> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        match module.stmts[s].clone() {
            Stmt::If {
                condition,
                then_block,
                else_block,
            } => {
                let then_block = insert_before(module, then_block, at, copies);
                let else_block = insert_before(module, else_block, at, copies);
                module.stmts[s] = Stmt::If {
                    condition,
                    then_block,
                    else_block,
                };
            }
            Stmt::Loop { body } => {
                let body = insert_before(module, body, at, copies);
                module.stmts[s] = Stmt::Loop { body };
            }
            ref stmt if at(stmt) => out.extend(copies(module)),
            _ => {}
        }
        out.push(s);
    }
    out
}

/// Splits the (output, input) aggregate pairs of a producer/consumer pair;
/// pairs whose types cannot be split (an unsized array, a geometry shader
/// input of unknown vertex count) are left whole.
pub(crate) fn split(
    producer: &mut StageState,
    consumer: &mut StageState,
    pairs: &[(Handle<Variable>, Handle<Variable>)],
) {
    let pstage = producer.linked.stage;
    let arrayed_input = consumer.linked.stage == Stage::Geometry;
    // (producer leaf copies, consumer leaf copies) as (temporary path, leaf var).
    let mut out_copies: Vec<(Handle<Variable>, Vec<Step>, Handle<Variable>)> = Vec::new();
    let mut in_copies: Vec<InCopy> = Vec::new();
    for &(o, i) in pairs {
        let pm = &producer.linked.hir;
        let cm = &consumer.linked.hir;
        let vertices = match (&cm.variables[i].ty, arrayed_input) {
            (Type::Array(_, Some(n)), true) => Some(*n),
            (_, true) => continue,
            (_, false) => None,
        };
        let (Some(out_leaves), Some(in_leaves)) = (
            leaves(pm, &pm.variables[o].ty),
            leaves(
                cm,
                &match (&cm.variables[i].ty, vertices) {
                    (Type::Array(e, _), Some(_)) => (**e).clone(),
                    (t, _) => t.clone(),
                },
            ),
        ) else {
            continue;
        };
        if out_leaves.len() != in_leaves.len() {
            continue;
        }
        let pm = &mut producer.linked.hir;
        for leaf in &out_leaves {
            let v = leaf_var(pm, o, leaf, leaf.ty.clone());
            out_copies.push((o, leaf.path.clone(), v));
        }
        demote(pm, o);
        let cm = &mut consumer.linked.hir;
        for leaf in &in_leaves {
            let ty = match vertices {
                Some(n) => Type::Array(Box::new(leaf.ty.clone()), Some(n)),
                None => leaf.ty.clone(),
            };
            let v = leaf_var(cm, i, leaf, ty);
            in_copies.push((i, leaf.path.clone(), v, vertices));
        }
        demote(cm, i);
    }

    // Producer: latch the temporaries into the leaves.
    let pm = &mut producer.linked.hir;
    let mut copies = |m: &mut Module| -> Vec<Handle<Stmt>> {
        out_copies
            .iter()
            .map(|(temp, path, leaf)| {
                let lhs = deref(m, *leaf, &[]);
                let rhs = deref(m, *temp, path);
                assign(m, lhs, rhs)
            })
            .collect()
    };
    if pstage == Stage::Geometry {
        let sigs: Vec<_> = pm
            .functions
            .iter()
            .flat_map(|(h, f)| (0..f.signatures.len()).map(move |s| (h, s)))
            .collect();
        for (f, s) in sigs {
            let body = std::mem::take(&mut pm.functions[f].signatures[s].body);
            let body = insert_before(pm, body, &|st| matches!(st, Stmt::EmitVertex), &mut copies);
            pm.functions[f].signatures[s].body = body;
        }
    } else if let Some((f, s)) = find_main(pm) {
        let body = std::mem::take(&mut pm.functions[f].signatures[s].body);
        let mut body = insert_before(pm, body, &|st| matches!(st, Stmt::Return(_)), &mut copies);
        if !body
            .last()
            .is_some_and(|l| matches!(pm.stmts[*l], Stmt::Return(_)))
        {
            body.extend(copies(pm));
        }
        pm.functions[f].signatures[s].body = body;
    }

    // Consumer: fill the temporaries from the leaves at the start of `main`.
    let cm = &mut consumer.linked.hir;
    if let Some((f, s)) = find_main(cm) {
        let mut prologue = Vec::new();
        for (temp, path, leaf, vertices) in &in_copies {
            match vertices {
                None => {
                    let lhs = deref(cm, *temp, path);
                    let rhs = deref(cm, *leaf, &[]);
                    prologue.push(assign(cm, lhs, rhs));
                }
                Some(n) => {
                    for v in 0..*n {
                        let mut full = vec![Step::Index(v)];
                        full.extend_from_slice(path);
                        let lhs = deref(cm, *temp, &full);
                        let rhs = deref(cm, *leaf, &[Step::Index(v)]);
                        prologue.push(assign(cm, lhs, rhs));
                    }
                }
            }
        }
        let body = &mut cm.functions[f].signatures[s].body;
        prologue.append(body);
        *body = prologue;
    }
    producer.refresh_usage();
    consumer.refresh_usage();
}
