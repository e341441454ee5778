//! The validator, in stages (style rule 10):
//!
//! 1. handles: every def, block, variable, function and struct referenced is in range
//!    and every used def is defined by an attached instruction; after this stage the
//!    later stages index without checks;
//! 2. structure: cf lists alternate blocks and ifs/loops and start/end with a block,
//!    parent links agree, jumps end blocks and break/continue sit in loops, phis lead
//!    their block and have one source per predecessor, the stored CFG equals the one
//!    derived from the tree, defs dominate their uses, deref chains are well typed;
//! 3. per-opcode types from the opcode/intrinsic tables: source counts, component
//!    counts, swizzles, bit sizes.
//!
//! Errors name the function and entity and include the printed instruction.

mod analyses;
mod compute;

use crate::arena::{EntityRef, SecondaryMap};
use crate::intrinsics::IndexKind;
use crate::ir::*;
use crate::opcodes::Base;
use crate::print::print_instr_standalone;
use std::collections::HashSet;
use std::fmt;

/// One validation failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Function name.
    pub function: String,
    /// The entity at fault (`%3`, `b2`, `cf4`, ...), in arena numbering.
    pub entity: String,
    /// What is wrong.
    pub message: String,
    /// The printed instruction, when the entity is an instruction.
    pub context: Option<String>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in function {}: {}: {}",
            self.function, self.entity, self.message
        )?;
        if let Some(c) = &self.context {
            write!(f, "\n    {c}")?;
        }
        Ok(())
    }
}

/// All errors found (validation stops after the first stage that fails).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.0 {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

struct V<'a> {
    shader: &'a Shader,
    name: &'a str,
    func: &'a FunctionImpl,
    errors: Vec<ValidationError>,
}

impl V<'_> {
    fn err(&mut self, entity: impl fmt::Display, message: impl Into<String>) {
        self.errors.push(ValidationError {
            function: self.name.to_string(),
            entity: entity.to_string(),
            message: message.into(),
            context: None,
        });
    }
    fn ierr(&mut self, instr: Instr, message: impl Into<String>, printable: bool) {
        let context = printable.then(|| print_instr_standalone(self.shader, self.func, instr));
        self.errors.push(ValidationError {
            function: self.name.to_string(),
            entity: instr.to_string(),
            message: message.into(),
            context,
        });
    }
}

/// Validates a whole shader.
pub fn validate(shader: &Shader) -> Result<(), ValidationErrors> {
    let mut errors = Vec::new();
    for (i, st) in shader.structs.iter().enumerate() {
        if !st.layouts.is_empty() && st.layouts.len() != st.fields.len() {
            errors.push(ValidationError {
                function: String::new(),
                entity: format!("struct{i}"),
                message: format!(
                    "{} matrix layouts for {} fields",
                    st.layouts.len(),
                    st.fields.len()
                ),
                context: None,
            });
        }
        if !st.offsets.is_empty() && st.offsets.len() != st.fields.len() {
            errors.push(ValidationError {
                function: String::new(),
                entity: format!("struct{i}"),
                message: format!(
                    "{} explicit offsets for {} fields",
                    st.offsets.len(),
                    st.fields.len()
                ),
                context: None,
            });
        }
        for (fname, ty) in &st.fields {
            check_type(shader, ty, &mut |m| {
                errors.push(ValidationError {
                    function: String::new(),
                    entity: format!("struct{i}"),
                    message: format!("field {fname}: {m}"),
                    context: None,
                })
            });
        }
    }
    for &g in &shader.globals {
        if !shader.variables.contains(g) {
            errors.push(ValidationError {
                function: String::new(),
                entity: g.to_string(),
                message: "global variable out of range".into(),
                context: None,
            });
        }
    }
    // Shared memory and a workgroup size belong to compute shaders
    // (ARB_compute_shader; GLSL 4.30 §4.3.8).
    let mut shader_err = |entity: String, message: String| {
        errors.push(ValidationError {
            function: String::new(),
            entity,
            message,
            context: None,
        })
    };
    for (id, var) in shader.variables.iter() {
        if var.mode == VarMode::Shared && shader.stage != Stage::Compute {
            shader_err(
                id.to_string(),
                format!("shared variable `{}` outside a compute shader", var.name),
            );
        }
    }
    match (shader.info.workgroup_size, shader.stage) {
        (Some(size), Stage::Compute) if size.contains(&0) => shader_err(
            "shader".into(),
            format!("workgroup size {size:?} has an empty dimension"),
        ),
        (Some(_), stage) if stage != Stage::Compute => shader_err(
            "shader".into(),
            format!("a workgroup size in a {} shader", stage.name()),
        ),
        _ => {}
    }
    for (_, func) in shader.functions.iter() {
        let Some(body) = &func.body else { continue };
        let mut v = V {
            shader,
            name: &func.name,
            func: body,
            errors: Vec::new(),
        };
        stage_handles(&mut v);
        if v.errors.is_empty() {
            stage_structure(&mut v);
        }
        if v.errors.is_empty() {
            stage_types(&mut v);
        }
        if v.errors.is_empty() {
            analyses::check_kept_analyses(&mut v);
        }
        errors.extend(v.errors);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ValidationErrors(errors))
    }
}

fn check_type(shader: &Shader, ty: &Type, report: &mut impl FnMut(String)) {
    match ty {
        Type::Struct(id) if id.index() >= shader.structs.len() => {
            report(format!("struct {id} out of range"))
        }
        Type::Array(e, _) => check_type(shader, e, report),
        _ => {}
    }
}

// ------------------------------------------------------------------ stage 1: handles

fn stage_handles(v: &mut V) {
    let f = v.func;
    let order = f.blocks_in_order();
    let mut seen_blocks = HashSet::new();
    for &b in &order {
        if !f.blocks.contains(b) || !seen_blocks.insert(b) {
            v.err(b, "block out of range or listed twice");
            return;
        }
    }
    for (node, cond) in f.if_conditions() {
        if !f.defs.contains(cond) {
            v.err(node, "if condition out of range");
        }
    }
    for &l in &f.locals {
        if !v.shader.variables.contains(l) {
            v.err(l, "local variable out of range");
        }
    }
    for &b in &order {
        for instr in f.block_instrs(b) {
            let data = &f.instrs[instr];
            for d in data.defs() {
                match f.defs.get(d) {
                    Some(dd) if dd.instr == instr => {}
                    _ => v.ierr(
                        instr,
                        format!("def {d} is out of range or not owned by this instruction"),
                        false,
                    ),
                }
            }
            let mut bad = Vec::new();
            data.for_each_src(|d| {
                if !f.defs.contains(d) {
                    bad.push(d);
                }
            });
            for d in bad {
                v.ierr(instr, format!("source {d} out of range"), false);
            }
            match &data.kind {
                InstrKind::Deref(Deref {
                    kind: DerefKind::Var(var),
                    mode: _,
                    ty: _,
                }) if !v.shader.variables.contains(*var) => {
                    v.ierr(instr, "variable out of range", false)
                }
                InstrKind::Phi(srcs) => {
                    for (pb, _) in srcs {
                        if !f.blocks.contains(*pb) {
                            v.ierr(instr, "phi predecessor block out of range", false);
                        }
                    }
                }
                InstrKind::Call { callee, args: _ } if !v.shader.functions.contains(*callee) => {
                    v.ierr(instr, "callee out of range", false)
                }
                // Sources were checked above; these hold no other handles.
                InstrKind::Alu(_)
                | InstrKind::Deref(_)
                | InstrKind::Intrinsic(_)
                | InstrKind::Tex(_)
                | InstrKind::LoadConst(_)
                | InstrKind::Undef
                | InstrKind::Jump(_)
                | InstrKind::Call { callee: _, args: _ }
                | InstrKind::ParallelCopy(_) => {}
            }
        }
    }
    if !v.errors.is_empty() {
        return;
    }
    // Every used def must be defined by an attached instruction.
    let mut used = Vec::new();
    for &b in &order {
        for instr in f.block_instrs(b) {
            f.instrs[instr].for_each_src(|d| used.push((instr, d)));
        }
    }
    for (node, cond) in f.if_conditions() {
        if f.instr_block(f.defs[cond].instr).is_none() {
            v.err(
                node,
                format!("if condition {cond} is not defined by an attached instruction"),
            );
        }
    }
    for (instr, d) in used {
        let di = f.defs[d].instr;
        let attached = f.instrs.contains(di)
            && f.instr_block(di).is_some()
            && f.instrs[di].defs().contains(&d);
        if !attached {
            v.ierr(
                instr,
                format!("uses {d}, which no attached instruction defines"),
                true,
            );
        }
    }
}

// ------------------------------------------------------------------ stage 2: structure

fn stage_structure(v: &mut V) {
    let f = v.func;
    check_list(v, f.body, CfParent::Root, false);
    if !v.errors.is_empty() {
        return;
    }
    // CFG consistency with the tree.
    for b in f.blocks_in_order() {
        if b == f.end_block {
            if f.blocks[b].first.is_some() {
                v.err(b, "the end block must be empty");
            }
            continue;
        }
        let succs = f.compute_succs(b);
        if succs != f.blocks[b].succs {
            v.err(b, "stored successors differ from the control-flow tree");
        }
    }
    let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for b in f.blocks_in_order() {
        for &s in &f.blocks[b].succs {
            preds[s].push(b);
        }
    }
    for b in f.blocks_in_order() {
        let mut a = preds[b].clone();
        let mut s = f.blocks[b].preds.clone();
        a.sort();
        a.dedup();
        s.sort();
        if a != s {
            v.err(b, "stored predecessors differ from the successors");
        }
    }
    if !v.errors.is_empty() {
        return;
    }
    // Instruction placement, phis.
    for b in f.blocks_in_order() {
        let instrs = f.block_instrs(b);
        let mut phis_done = false;
        for (i, &instr) in instrs.iter().enumerate() {
            match &f.instrs[instr].kind {
                InstrKind::Phi(srcs) => {
                    if phis_done {
                        v.ierr(instr, "phi after a non-phi instruction", true);
                    }
                    let mut a: Vec<Block> = srcs.iter().map(|(b, _)| *b).collect();
                    let mut p = f.blocks[b].preds.clone();
                    a.sort();
                    p.sort();
                    if a != p {
                        v.ierr(
                            instr,
                            "phi sources do not match the block's predecessors",
                            true,
                        );
                    }
                }
                InstrKind::Jump(j) => {
                    phis_done = true;
                    if i + 1 != instrs.len() {
                        v.ierr(instr, "jump is not the last instruction of its block", true);
                    }
                    if matches!(j, JumpKind::Break | JumpKind::Continue)
                        && f.blocks[b].cf.and_then(|n| f.enclosing_loop(n)).is_none()
                    {
                        v.ierr(instr, "break/continue outside of a loop", true);
                    }
                }
                _ => phis_done = true,
            }
        }
    }
    if !v.errors.is_empty() {
        return;
    }
    check_dominance(v);
    check_derefs(v);
}

fn check_list(v: &mut V, list: CfList, parent: CfParent, _in_loop: bool) {
    let f = v.func;
    let nodes = f.list_nodes(list);
    let entity = match parent {
        CfParent::Root => "impl body".to_string(),
        CfParent::Then(n) => format!("then-list of {n}"),
        CfParent::Else(n) => format!("else-list of {n}"),
        CfParent::Loop(n) => format!("body of {n}"),
    };
    if nodes.is_empty() {
        v.err(&entity, "empty cf list (must hold at least a block)");
        return;
    }
    let is_block = |n: CfNode| matches!(f.cf[n].kind, CfKind::Block(_));
    if !is_block(nodes[0]) || !is_block(nodes[nodes.len() - 1]) {
        v.err(&entity, "cf list must start and end with a block");
    }
    for w in nodes.windows(2) {
        if is_block(w[0]) == is_block(w[1]) {
            v.err(w[1], "adjacent blocks or adjacent ifs/loops in a cf list");
        }
    }
    for (i, &n) in nodes.iter().enumerate() {
        if f.cf[n].parent != parent || !f.cf[n].attached {
            v.err(n, "cf node parent link disagrees with its list");
        }
        if f.cf_prev(n) != if i == 0 { None } else { Some(nodes[i - 1]) } {
            v.err(n, "cf node prev link is inconsistent");
        }
        match &f.cf[n].kind {
            CfKind::Block(b) => {
                if f.blocks[*b].cf != Some(n) {
                    v.err(b, "block's cf link disagrees with the tree");
                }
            }
            CfKind::If {
                cond,
                then_list,
                else_list,
            } => {
                let d = &f.defs[*cond];
                if d.num_components != 1 || d.bit_size != 1 {
                    v.err(n, format!("if condition {cond} must be a 1-bit scalar"));
                }
                check_list(v, *then_list, CfParent::Then(n), _in_loop);
                check_list(v, *else_list, CfParent::Else(n), _in_loop);
            }
            CfKind::Loop { body } => check_list(v, *body, CfParent::Loop(n), true),
        }
    }
}

fn check_dominance(v: &mut V) {
    let mut func = v.func.clone();
    func.compute_dominance();
    let mut pos: SecondaryMap<Instr, u32> = SecondaryMap::new();
    for b in func.blocks_in_order() {
        for (i, instr) in func.block_instrs(b).into_iter().enumerate() {
            pos[instr] = i as u32;
        }
    }
    let dominates_use = |def: Def, use_block: Block, use_pos: Option<u32>| -> bool {
        let di = func.defs[def].instr;
        let Some(db) = func.instr_block(di) else {
            return false;
        };
        if db == use_block {
            match use_pos {
                Some(p) => pos[di] < p,
                None => true,
            }
        } else {
            func.dominates(db, use_block)
        }
    };
    let mut errs = Vec::new();
    for b in func.blocks_in_order() {
        for instr in func.block_instrs(b) {
            match &func.instrs[instr].kind {
                InstrKind::Phi(srcs) => {
                    for (pb, d) in srcs {
                        if !dominates_use(*d, *pb, None) {
                            errs.push((
                                instr,
                                format!(
                                    "phi source {d} does not dominate the end of predecessor {pb}"
                                ),
                            ));
                        }
                    }
                }
                _ => {
                    let mut bad = Vec::new();
                    func.instrs[instr].for_each_src(|d| {
                        if !dominates_use(d, b, Some(pos[instr])) {
                            bad.push(d);
                        }
                    });
                    for d in bad {
                        errs.push((instr, format!("{d} does not dominate this use")));
                    }
                }
            }
        }
    }
    for (node, cond) in func.if_conditions() {
        // The condition is read at the end of the block before the if.
        let before = func.cf_prev(node).and_then(|p| func.cf_block(p));
        if let Some(pb) = before {
            if !dominates_use(cond, pb, None) {
                v.err(
                    node,
                    format!("if condition {cond} does not dominate the if"),
                );
            }
        }
    }
    for (instr, m) in errs {
        v.ierr(instr, m, true);
    }
}

fn deref_of(f: &FunctionImpl, d: Def) -> Option<&Deref> {
    match &f.instrs[f.defs[d].instr].kind {
        InstrKind::Deref(deref) => Some(deref),
        _ => None,
    }
}

fn check_derefs(v: &mut V) {
    let f = v.func;
    let mut errs = Vec::new();
    for b in f.blocks_in_order() {
        for instr in f.block_instrs(b) {
            let InstrKind::Deref(deref) = &f.instrs[instr].kind else {
                continue;
            };
            let expected = match &deref.kind {
                DerefKind::Var(var) => {
                    let var = &v.shader.variables[*var];
                    if var.mode != deref.mode {
                        errs.push((
                            instr,
                            "deref mode differs from the variable's mode".to_string(),
                        ));
                    }
                    Some(var.ty.clone())
                }
                DerefKind::Array { parent, index } => {
                    let idx = &f.defs[*index];
                    if idx.num_components != 1 || idx.bit_size == 1 {
                        errs.push((instr, "array index must be an integer scalar".to_string()));
                    }
                    deref_of(f, *parent)
                        .map(|p| p.ty.element())
                        .unwrap_or_else(|| {
                            errs.push((instr, "deref parent is not a deref".to_string()));
                            None
                        })
                }
                DerefKind::ArrayWildcard { parent } => {
                    deref_of(f, *parent).and_then(|p| p.ty.element())
                }
                DerefKind::Struct { parent, field } => match deref_of(f, *parent).map(|p| &p.ty) {
                    Some(Type::Struct(id)) => v
                        .shader
                        .structs
                        .get(id.index())
                        .and_then(|s| s.fields.get(*field as usize))
                        .map(|(_, t)| t.clone()),
                    _ => {
                        errs.push((instr, "struct deref of a non-struct parent".to_string()));
                        None
                    }
                },
                DerefKind::Cast {
                    parent: _,
                    ptr_stride: _,
                } => Some(deref.ty.clone()),
            };
            match expected {
                Some(t) if t == deref.ty => {}
                Some(_) => errs.push((
                    instr,
                    "deref type differs from the type its parent implies".to_string(),
                )),
                None => {
                    if errs.last().map(|e| e.0) != Some(instr) {
                        errs.push((
                            instr,
                            "deref into a type that has no such element".to_string(),
                        ))
                    }
                }
            }
            if let Some(p) = match &deref.kind {
                DerefKind::Var(_) => None,
                DerefKind::Array { parent, index: _ }
                | DerefKind::ArrayWildcard { parent }
                | DerefKind::Struct { parent, field: _ }
                | DerefKind::Cast {
                    parent,
                    ptr_stride: _,
                } => Some(*parent),
            } {
                if let Some(pd) = deref_of(f, p) {
                    if pd.mode != deref.mode {
                        errs.push((instr, "deref mode differs from its parent's".to_string()));
                    }
                }
            }
        }
    }
    for (instr, m) in errs {
        v.ierr(instr, m, true);
    }
}

// ------------------------------------------------------------------ stage 3: types

fn stage_types(v: &mut V) {
    let f = v.func;
    let mut errs: Vec<(Instr, String)> = Vec::new();
    for b in f.blocks_in_order() {
        for instr in f.block_instrs(b) {
            let data = &f.instrs[instr];
            let dest = data.def.map(|d| f.defs[d].clone());
            if let Some(d) = &dest {
                if !(1..=16).contains(&d.num_components)
                    || !matches!(d.bit_size, 1 | 8 | 16 | 32 | 64)
                {
                    errs.push((instr, "invalid destination size".into()));
                    continue;
                }
            }
            let mut e = |m: String| errs.push((instr, m));
            match &data.kind {
                InstrKind::Alu(alu) => {
                    let info = alu.op.info();
                    let Some(dest) = dest else {
                        e("ALU instruction without a destination".into());
                        continue;
                    };
                    if alu.srcs.len() != info.num_inputs() {
                        e(format!(
                            "{} takes {} sources, has {}",
                            alu.op,
                            info.num_inputs(),
                            alu.srcs.len()
                        ));
                        continue;
                    }
                    if info.output_size != 0 && dest.num_components != info.output_size {
                        e(format!(
                            "{} produces {} components",
                            alu.op, info.output_size
                        ));
                    }
                    let mut unsized_bits = if info.output_type.bits == 0 {
                        Some(dest.bit_size)
                    } else {
                        None
                    };
                    if info.output_type.bits != 0 && dest.bit_size != info.output_type.bits {
                        e(format!(
                            "{} produces {}-bit values",
                            alu.op, info.output_type.bits
                        ));
                    }
                    if info.output_type.base == Base::Float
                        && info.output_type.bits == 0
                        && !matches!(dest.bit_size, 16 | 32 | 64)
                    {
                        e(format!("{} needs a 16/32/64-bit float destination", alu.op));
                    }
                    for (i, src) in alu.srcs.iter().enumerate() {
                        let sd = &f.defs[src.def];
                        let read = if info.input_sizes[i] == 0 {
                            dest.num_components
                        } else {
                            info.input_sizes[i]
                        };
                        for c in 0..usize::from(read) {
                            if src.swizzle[c] >= sd.num_components {
                                e(format!(
                                    "source {i} swizzle reads component {} of a {}-component value",
                                    src.swizzle[c], sd.num_components
                                ));
                                break;
                            }
                        }
                        let t = info.input_types[i];
                        if t.bits != 0 {
                            if sd.bit_size != t.bits {
                                e(format!(
                                    "source {i} must be {}-bit ({t}), is {}-bit",
                                    t.bits, sd.bit_size
                                ));
                            }
                        } else {
                            match unsized_bits {
                                Some(bits) if bits != sd.bit_size => {
                                    e(format!(
                                        "source {i} is {}-bit, expected {bits}-bit",
                                        sd.bit_size
                                    ));
                                }
                                None => unsized_bits = Some(sd.bit_size),
                                _ => {}
                            }
                            if t.base == Base::Float && !matches!(sd.bit_size, 16 | 32 | 64) {
                                e(format!("source {i} is a {}-bit float", sd.bit_size));
                            }
                        }
                    }
                }
                InstrKind::Intrinsic(intr) => {
                    let info = intr.op.info();
                    if intr.srcs.len() != info.src_components.len() {
                        e(format!(
                            "@{} takes {} sources",
                            intr.op,
                            info.src_components.len()
                        ));
                        continue;
                    }
                    if intr.indices.len() != info.indices.len() {
                        e(format!("@{} takes {} indices", intr.op, info.indices.len()));
                    }
                    for (i, (want, s)) in info.src_components.iter().zip(&intr.srcs).enumerate() {
                        let want = if *want == 0 {
                            intr.num_components
                        } else {
                            *want
                        };
                        if f.defs[*s].num_components != want {
                            e(format!("source {i} must have {want} components"));
                        }
                    }
                    match (info.dest_components, &dest) {
                        (None, Some(_)) => e(format!("@{} has no destination", intr.op)),
                        (Some(_), None) => e(format!("@{} needs a destination", intr.op)),
                        (Some(n), Some(d)) => {
                            let n = if n == 0 { intr.num_components } else { n };
                            if d.num_components != n {
                                e(format!("destination must have {n} components"));
                            }
                            if info.dest_bit_size != 0 && d.bit_size != info.dest_bit_size {
                                e(format!("destination must be {}-bit", info.dest_bit_size));
                            }
                        }
                        (None, None) => {}
                    }
                    use crate::intrinsics::IntrinsicOp as I;
                    let deref_srcs: &[usize] = match intr.op {
                        I::load_deref | I::store_deref => &[0],
                        I::copy_deref => &[0, 1],
                        _ => &[],
                    };
                    for &i in deref_srcs {
                        if deref_of(f, intr.srcs[i]).is_none() {
                            e(format!("source {i} must be a deref"));
                        }
                    }
                    // The value loaded has the deref's vector size and bit size;
                    // a stored value has its bit size and at most its components
                    // (rgl lets a masked store carry only the written ones) —
                    // Mesa's nir_validate, validate_intrinsic_instr.
                    let value = match intr.op {
                        I::load_deref => dest.as_ref().map(|d| (d.num_components, d.bit_size)),
                        I::store_deref => intr.srcs.get(1).map(|s| {
                            let sd = &f.defs[*s];
                            (sd.num_components, sd.bit_size)
                        }),
                        _ => None,
                    };
                    let deref_ty = intr
                        .srcs
                        .first()
                        .and_then(|s| deref_of(f, *s))
                        .map(|d| &d.ty);
                    if let (Some((n, bits)), Some(ty)) = (value, deref_ty) {
                        match (ty.vector_components(), ty.bit_size()) {
                            (Some(want_n), Some(want_bits)) => {
                                let size_ok = if intr.op == I::store_deref {
                                    n <= want_n
                                } else {
                                    n == want_n
                                };
                                if !size_ok || bits != want_bits {
                                    e(format!(
                                        "@{} of a {want_n}x{want_bits}-bit deref moves a {n}x{bits}-bit value",
                                        intr.op
                                    ));
                                }
                            }
                            _ => e(format!(
                                "@{} of a deref that is not a scalar or vector",
                                intr.op
                            )),
                        }
                    }
                    // A typed IO access moves values of its type's bit size
                    // (Mesa's nir_validate checks `dest_type`/`src_type` the same way).
                    for (k, kind) in info.indices.iter().enumerate() {
                        let value_bits = match kind {
                            IndexKind::DestType => dest.as_ref().map(|d| d.bit_size),
                            IndexKind::SrcType => {
                                // Image stores carry the texel as source 3.
                                let value = if intr.op.is_image() { 3 } else { 0 };
                                intr.srcs.get(value).map(|s| f.defs[*s].bit_size)
                            }
                            _ => continue,
                        };
                        let Some(&code) = intr.indices.get(k) else {
                            continue;
                        };
                        match crate::ir::names::alu_type_from_code(code) {
                            Some(t) if matches!(t.bits, 1 | 8 | 16 | 32 | 64) => {
                                if value_bits.is_some_and(|b| b != t.bits) {
                                    e(format!(
                                        "@{} moves {}-bit values as {t}",
                                        intr.op,
                                        value_bits.unwrap_or(0)
                                    ));
                                }
                            }
                            _ => e(format!("@{}: bad {} {code:#x}", intr.op, kind.name())),
                        }
                    }
                    if matches!(intr.op, I::discard_if | I::terminate_if | I::demote_if)
                        && f.defs[intr.srcs[0]].bit_size != 1
                    {
                        e("condition must be a 1-bit boolean".into());
                    }
                    compute::check_intrinsic(v.shader, f, intr, dest.as_ref(), &mut e);
                }
                InstrKind::LoadConst(values) => {
                    if let Some(d) = &dest {
                        if values.len() != usize::from(d.num_components) {
                            e("load_const value count differs from the destination size".into());
                        }
                    }
                }
                InstrKind::Phi(srcs) => {
                    if let Some(d) = &dest {
                        for (pb, s) in srcs {
                            let sd = &f.defs[*s];
                            if sd.num_components != d.num_components || sd.bit_size != d.bit_size {
                                e(format!("phi source from {pb} has a different size"));
                            }
                        }
                    }
                }
                InstrKind::Deref(_) => {
                    if let Some(d) = &dest {
                        if d.num_components != 1 || d.bit_size != 32 {
                            e("derefs are 32-bit scalars".into());
                        }
                    }
                }
                InstrKind::ParallelCopy(entries) => {
                    for (dd, s) in entries {
                        let (a, b) = (&f.defs[*dd], &f.defs[*s]);
                        if a.num_components != b.num_components || a.bit_size != b.bit_size {
                            e("parallel copy entry sizes differ".into());
                        }
                    }
                }
                InstrKind::Call { callee, args } => {
                    let params = &v.shader.functions[*callee].params;
                    if params.len() != args.len() {
                        e(format!(
                            "call passes {} arguments, callee takes {}",
                            args.len(),
                            params.len()
                        ));
                    }
                }
                InstrKind::Tex(tex) => {
                    for (kind, s) in &tex.srcs {
                        if matches!(kind, TexSrcKind::TextureDeref | TexSrcKind::SamplerDeref)
                            && deref_of(f, *s).is_none()
                        {
                            e(format!("{} source must be a deref", kind.name()));
                        }
                    }
                    if !tex.srcs.iter().any(|(k, _)| *k == TexSrcKind::Coord)
                        && !matches!(
                            tex.op,
                            TexOp::Txs | TexOp::QueryLevels | TexOp::TextureSamples
                        )
                    {
                        e("texture instruction without a coordinate".into());
                    }
                }
                InstrKind::Undef | InstrKind::Jump(_) => {}
            }
        }
    }
    for (instr, m) in errs {
        v.ierr(instr, m, true);
    }
}
