//! `link_opt_varyings` (Mesa's `nir_link_opt_varyings`, with
//! `lower_varying_from_uniform`): for a vertex (or tessellation evaluation) producer
//! and a fragment consumer, looks at the *last* store to each user output in the last
//! block of the producer's `main` — the value every invocation ends with:
//!
//! * a `load_const` → every load of the matching consumer input (same location and
//!   component) becomes that constant;
//! * a direct `load_deref` of a uniform (constant indices only) → the consumer loads the
//!   same uniform instead; the uniform variable is added to the consumer when it has no
//!   variable of that name (types with structs must already exist there);
//! * the same SSA value stored to two outputs → the consumer reads the second input
//!   through the first one, when both have the same interpolation qualifiers.
//!
//! Like Mesa, only scalar and vector outputs that are written whole (full write mask,
//! direct deref) are considered; arrays, matrices and structs are left alone. Inputs
//! whose loads were replaced become unreferenced; `remove_unused_varyings` then drops
//! the outputs.

use super::*;
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::passes::lower_system_values::deref_root;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// What an output ends up holding.
enum Known {
    Const(Vec<u64>),
    Uniform(VarId, Vec<(DerefKind, Type)>),
}

fn has_struct(ty: &Type) -> bool {
    let mut t = ty;
    while let Type::Array(e, _) = t {
        t = e;
    }
    matches!(t, Type::Struct(_))
}

/// A direct uniform access: root variable, links (kind, type) root first, and the
/// constant value of each array index in order.
type UniformChain = (VarId, Vec<(DerefKind, Type)>, Vec<u64>);

/// The deref chain of a direct uniform access (constant indices only).
fn direct_uniform_chain(func: &FunctionImpl, shader: &Shader, d: Def) -> Option<UniformChain> {
    let mut links = Vec::new();
    let mut consts = Vec::new();
    let mut cur = d;
    for _ in 0..func.instrs.len() + 1 {
        let InstrKind::Deref(deref) = &func.instrs[func.defs.get(cur)?.instr].kind else {
            return None;
        };
        if deref.mode != VarMode::Uniform {
            return None;
        }
        match &deref.kind {
            DerefKind::Var(v) => {
                let var = shader.variables.get(*v)?;
                if matches!(var.ty, Type::Sampler { .. } | Type::Image { .. }) {
                    return None;
                }
                links.reverse();
                consts.reverse();
                return Some((*v, links, consts));
            }
            DerefKind::Array { parent, index } => {
                let c = func.const_value(*index)?;
                if c.len() != 1 || func.defs[*index].bit_size != 32 {
                    return None;
                }
                consts.push(c[0]);
                links.push((deref.kind.clone(), deref.ty.clone()));
                cur = *parent;
            }
            DerefKind::Struct { parent, .. } => {
                links.push((deref.kind.clone(), deref.ty.clone()));
                cur = *parent;
            }
            _ => return None,
        }
    }
    None
}

/// A consumer input matching `out` (same location and first component, same type).
fn matching_input(consumer: &Shader, out: &Variable) -> Option<VarId> {
    vars_of_mode(consumer, VarMode::ShaderIn)
        .into_iter()
        .find(|v| {
            let var = &consumer.variables[*v];
            var.location == out.location
                && var.location_frac == out.location_frac
                && io_type(consumer.stage, var) == out.ty
        })
}

/// How a consumer load reads the input: the whole value or one constant component.
fn input_loads(consumer: &Shader, input: VarId) -> Vec<(FuncId, Instr, Option<u8>)> {
    let mut out = Vec::new();
    for (fid, f) in consumer.functions.iter() {
        let Some(body) = &f.body else { continue };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                let InstrKind::Intrinsic(intr) = &body.instrs[instr].kind else {
                    continue;
                };
                if intr.op != IntrinsicOp::load_deref {
                    continue;
                }
                let Some(&d) = intr.srcs.first() else {
                    continue;
                };
                let InstrKind::Deref(deref) = &body.instrs[body.defs[d].instr].kind else {
                    continue;
                };
                match &deref.kind {
                    DerefKind::Var(v) if *v == input => out.push((fid, instr, None)),
                    DerefKind::Array { parent, index } => {
                        let parent_is_input = matches!(
                            &body.instrs[body.defs[*parent].instr].kind,
                            InstrKind::Deref(Deref { kind: DerefKind::Var(v), .. }) if *v == input
                        );
                        let c = body
                            .const_value(*index)
                            .filter(|c| c.len() == 1 && c[0] < 4)
                            .map(|c| c[0] as u8);
                        if parent_is_input && c.is_some() && !has_struct(&deref.ty) {
                            out.push((fid, instr, c));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Replaces the consumer's loads of `input` by `known`; true when any changed.
fn replace_loads(
    consumer: &mut Shader,
    producer: &Shader,
    input: VarId,
    known: &Known,
    consts: &[u64],
    out_comps: u8,
) -> bool {
    let loads = input_loads(consumer, input);
    if loads.is_empty() {
        return false;
    }
    // The consumer's uniform variable, added when missing.
    let uniform = match known {
        Known::Const(_) => None,
        Known::Uniform(pv, _) => {
            let pvar = &producer.variables[*pv];
            let existing = vars_of_mode(consumer, VarMode::Uniform)
                .into_iter()
                .find(|v| consumer.variables[*v].name == pvar.name);
            match existing {
                Some(v) if consumer.variables[v].ty == pvar.ty => {
                    if has_struct(&pvar.ty) && consumer.structs != producer.structs {
                        return false;
                    }
                    Some(v)
                }
                Some(_) => return false,
                None if has_struct(&pvar.ty) => return false,
                None => Some(consumer.add_global(pvar.clone())),
            }
        }
    };
    let mut progress = false;
    for (fid, instr, comp) in loads {
        let Some(body) = consumer.functions[fid].body.as_mut() else {
            continue;
        };
        let Some(old) = body.instrs[instr].def else {
            continue;
        };
        let (n, bits) = (body.defs[old].num_components, body.defs[old].bit_size);
        let mut b = Builder::new(body, Cursor::Before(instr));
        let new = match known {
            Known::Const(values) => {
                let vals = match comp {
                    Some(c) => vec![values.get(usize::from(c)).copied().unwrap_or(0)],
                    None => values.clone(),
                };
                if vals.len() != usize::from(n) {
                    continue;
                }
                b.load_const(bits, vals)
            }
            Known::Uniform(_, links) => {
                let Some(uvar) = uniform else { continue };
                let vty = consumer.variables[uvar].ty.clone();
                let mut d = b.deref_var(uvar, VarMode::Uniform, vty);
                let mut ci = 0;
                for (kind, ty) in links {
                    let kind = match kind {
                        DerefKind::Array { .. } => {
                            let idx = b.load_const(32, vec![consts.get(ci).copied().unwrap_or(0)]);
                            ci += 1;
                            DerefKind::Array {
                                parent: d,
                                index: idx,
                            }
                        }
                        DerefKind::Struct { field, .. } => DerefKind::Struct {
                            parent: d,
                            field: *field,
                        },
                        _ => break,
                    };
                    let Some(nd) = b.build(
                        InstrKind::Deref(Deref {
                            kind,
                            mode: VarMode::Uniform,
                            ty: ty.clone(),
                        }),
                        Some((1, 32)),
                    ) else {
                        break;
                    };
                    d = nd;
                }
                let whole = match comp {
                    Some(_) => out_comps,
                    None => n,
                };
                let Some(v) = b.intrinsic(
                    IntrinsicOp::load_deref,
                    vec![d],
                    whole,
                    vec![0],
                    Some((whole, bits)),
                ) else {
                    continue;
                };
                match comp {
                    Some(c) => {
                        let mut s = AluSrc::new(v);
                        s.swizzle[0] = c;
                        b.alu(crate::opcodes::Opcode::mov, [s], 1)
                    }
                    None => v,
                }
            }
        };
        if body.defs[new].num_components != n {
            continue;
        }
        body.rewrite_uses(None, old, new);
        body.remove_instr(instr);
        progress = true;
    }
    progress
}

/// Propagates constant and uniform outputs of `producer` into `consumer`, and merges
/// duplicate varyings. Returns true when the consumer changed.
pub fn link_opt_varyings(producer: &mut Shader, consumer: &mut Shader) -> bool {
    if consumer.stage != Stage::Fragment
        || !matches!(producer.stage, Stage::Vertex | Stage::TessEval)
    {
        return false;
    }
    let Some(pmain) = entrypoint(producer) else {
        return false;
    };
    let Some(body) = producer.functions[pmain].body.as_ref() else {
        return false;
    };
    let blocks = body.blocks_in_order();
    // The last block of the body (the end block comes after it).
    let Some(&last) = blocks.len().checked_sub(2).and_then(|i| blocks.get(i)) else {
        return false;
    };
    let mut seen: HashSet<VarId> = HashSet::default();
    let mut work: Vec<(VarId, Def)> = Vec::new();
    for instr in body.block_instrs(last).into_iter().rev() {
        let InstrKind::Intrinsic(intr) = &body.instrs[instr].kind else {
            continue;
        };
        let dst = match intr.op {
            IntrinsicOp::store_deref | IntrinsicOp::copy_deref => intr.srcs.first().copied(),
            _ => None,
        };
        let Some(dst) = dst else { continue };
        let Some(var) = deref_root(body, dst) else {
            continue;
        };
        if !seen.insert(var) || intr.op != IntrinsicOp::store_deref {
            continue;
        }
        let Some(v) = producer.variables.get(var) else {
            continue;
        };
        let whole = matches!(
            &body.instrs[body.defs[dst].instr].kind,
            InstrKind::Deref(Deref {
                kind: DerefKind::Var(_),
                ..
            })
        );
        let Some(n) = v.ty.vector_components() else {
            continue;
        };
        let full = intr.indices.first().copied().unwrap_or(0) & 0xf == (1u32 << n) - 1;
        if v.mode != VarMode::ShaderOut || !is_user_varying(v.location) || !whole || !full {
            continue;
        }
        if let Some(&value) = intr.srcs.get(1) {
            work.push((var, value));
        }
    }
    // Later stores first, like Mesa's reverse walk.
    let mut progress = false;
    let mut values: HashMap<Def, VarId> = HashMap::default();
    for (out_var, value) in work {
        let out = producer.variables[out_var].clone();
        let Some(input) = matching_input(consumer, &out) else {
            continue;
        };
        let Some(body) = producer.functions[pmain].body.as_ref() else {
            break;
        };
        let known = match &body.instrs[body.defs[value].instr].kind {
            InstrKind::LoadConst(vals) => Some((Known::Const(vals.clone()), Vec::new())),
            InstrKind::Intrinsic(intr) if intr.op == IntrinsicOp::load_deref => intr
                .srcs
                .first()
                .and_then(|d| direct_uniform_chain(body, producer, *d))
                .map(|(v, links, consts)| (Known::Uniform(v, links), consts)),
            _ => None,
        };
        if let Some((known, consts)) = known {
            let n = out.ty.vector_components().unwrap_or(1);
            progress |= replace_loads(consumer, producer, input, &known, &consts, n);
            continue;
        }
        match values.get(&value) {
            Some(&first) => {
                let (a, b) = (&consumer.variables[first], &consumer.variables[input]);
                if first != input
                    && a.interp == b.interp
                    && a.centroid == b.centroid
                    && a.sample == b.sample
                    && a.ty == b.ty
                {
                    progress |= retarget_input(consumer, input, first);
                }
            }
            None => {
                values.insert(value, input);
            }
        }
    }
    progress
}

/// Makes every `deref_var` of `from` address `to` instead.
fn retarget_input(consumer: &mut Shader, from: VarId, to: VarId) -> bool {
    let mut progress = false;
    let ids: Vec<FuncId> = consumer.functions.keys().collect();
    for fid in ids {
        let Some(body) = consumer.functions[fid].body.as_mut() else {
            continue;
        };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                if let InstrKind::Deref(Deref {
                    kind: DerefKind::Var(v),
                    ..
                }) = &mut body.instrs[instr].kind
                {
                    if *v == from {
                        *v = to;
                        progress = true;
                    }
                }
            }
        }
    }
    progress
}
