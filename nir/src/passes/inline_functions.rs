//! `inline_functions`: Mesa's `gl_nir_inline_functions` sequence without the variable
//! initializer step: `nir_lower_returns`, `nir_inline_functions`, the deref-cast
//! cleanup of `nir_opt_deref`, and `nir_remove_non_entrypoints`.
//!
//! * **Returns** (in every function, `main` included) become structured control flow.
//!   A trailing `return` is dropped. Otherwise a `return` flag (`function_temp bool`,
//!   false on entry) is set at each return site; inside a loop the return becomes a
//!   `break`, and after such a loop `if return { break }` (in an outer loop) or the
//!   rest of the enclosing list is predicated: the nodes after the loop or after an
//!   `if` holding a return move into the else arm of `if return { } else { … }`. Dead
//!   code after a return is deleted first. Functions holding phis keep their returns
//!   (inputs from `glsl_to_nir` have none) and are then not inlined, as are functions
//!   where a value defined in an arm is used after the `if` (legal while the other
//!   arm returns): the lowering is undone when it would break dominance.
//! * **Inlining** works callees first (the call graph in topological order; functions
//!   in recursion cycles are never inlined, the linker rejects recursion anyway). The
//!   callee body is cloned at the call site: the calling block is split, the callee's
//!   cf tree is copied between the halves, `@load_param i` becomes call argument `i`,
//!   a `deref_cast` of an argument takes the argument's mode and, when it casts a
//!   variable/array/struct deref to the type it already has, is replaced by that
//!   deref. Callee locals are copied into the caller under unique names; a local with
//!   an initializer that the callee may write is re-initialised at the call site
//!   (`copy_deref` from a read-only copy holding the initializer), so a call in a loop
//!   starts from the initializer every time.
//! * **Size bound**: a call is not inlined when the caller would exceed the limit
//!   ([`InlineFunctions::limit`], [`DEFAULT_LIMIT`] unless given). Calls that stay
//!   keep their callee alive, and the pass fails with
//!   [`PassFailure::InlineLimit`] ("shader too large after inlining") so piglit's
//!   call-tree explosions fail cleanly instead of exhausting memory.
//! * **Removal**: when an entry point exists, every function not reachable from it
//!   through a remaining call is removed (all of them after a complete inlining).

use super::args::{parse_u32, FromPassArgs, PassArgs, PassArgsError};
use super::var_util::*;
use super::{Pass, PassFailure};
use crate::arena::{Arena, SecondaryMap};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Most instructions a function may reach through inlining (registered pass).
pub const DEFAULT_LIMIT: usize = 100_000;

/// The pass: inlines with an instruction limit. [`PassFailure::InlineLimit`] names
/// the function that would have grown past `limit` (the shader is left valid, with
/// the call not inlined). Calls that cannot be inlined for other reasons (recursion,
/// a callee without a body) are not failures here; the linker rejects those shaders
/// earlier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InlineFunctions {
    /// Most instructions a function may reach through inlining.
    pub limit: usize,
}

impl Default for InlineFunctions {
    fn default() -> Self {
        InlineFunctions {
            limit: DEFAULT_LIMIT,
        }
    }
}

impl FromPassArgs for InlineFunctions {
    /// `limit=N` (default [`DEFAULT_LIMIT`]).
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        let limit = args.parsed("limit", "a number", |s| parse_u32(s).map(|n| n as usize))?;
        Ok(InlineFunctions {
            limit: limit.unwrap_or(DEFAULT_LIMIT),
        })
    }
}

impl Pass for InlineFunctions {
    fn name(&self) -> &'static str {
        "inline_functions"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let (progress, exceeded) = run(shader, self.limit);
        match exceeded {
            Some(function) => Err(PassFailure::InlineLimit {
                function,
                limit: self.limit,
            }),
            None => Ok(progress),
        }
    }
}

/// Returns (progress, the first function that hit the limit).
fn run(shader: &mut Shader, limit: usize) -> (bool, Option<String>) {
    let mut progress = false;
    let mut exceeded = None;
    let ids: Vec<FuncId> = shader.functions.keys().collect();

    // Call graph (only callees with bodies matter).
    let mut callees: HashMap<FuncId, HashSet<FuncId>> = HashMap::default();
    let mut callers: HashMap<FuncId, Vec<FuncId>> = HashMap::default();
    for &f in &ids {
        let Some(body) = shader.functions[f].body.as_ref() else {
            continue;
        };
        let mut set = HashSet::default();
        for i in all_instrs(body) {
            if let InstrKind::Call { callee, .. } = &body.instrs[i].kind {
                if shader
                    .functions
                    .get(*callee)
                    .is_some_and(|c| c.body.is_some())
                {
                    set.insert(*callee);
                }
            }
        }
        for &c in &set {
            callers.entry(c).or_default().push(f);
        }
        callees.insert(f, set);
    }
    // Kahn order: callees before callers; cycle members come last.
    let mut pending: HashMap<FuncId, usize> = callees.iter().map(|(f, s)| (*f, s.len())).collect();
    let mut ready: Vec<FuncId> = ids
        .iter()
        .copied()
        .filter(|f| pending.get(f) == Some(&0))
        .collect();
    ready.reverse();
    let mut order = Vec::new();
    let mut placed = HashSet::default();
    while let Some(f) = ready.pop() {
        order.push(f);
        placed.insert(f);
        for &c in callers.get(&f).map(|v| v.as_slice()).unwrap_or(&[]) {
            if let Some(p) = pending.get_mut(&c) {
                *p = p.saturating_sub(1);
                if *p == 0 && !placed.contains(&c) {
                    ready.push(c);
                }
            }
        }
    }
    let acyclic: HashSet<FuncId> = placed.clone();
    for &f in &ids {
        if callees.contains_key(&f) && !placed.contains(&f) {
            order.push(f);
        }
    }

    // Functions whose body is ready to be copied into callers, with the number of
    // instructions in that body (it no longer changes once ready).
    let mut inlinable: HashMap<FuncId, usize> = HashMap::default();
    // The variables each inlined callee may write, found at its first inlining.
    let mut written: HashMap<FuncId, HashSet<VarId>> = HashMap::default();
    for f in order {
        let Some(mut body) = shader.functions[f].body.take() else {
            continue;
        };
        // The body before return lowering, to go back to; without returns the
        // lowering changes nothing and no copy is needed.
        let saved = has_return(&body).then(|| body.clone());
        let mut lowered = lower_returns(shader, &mut body);
        if lowered == Some(true) && !defs_dominate_uses(&mut body) {
            // A value defined in an arm was used after the if (legal while the other
            // arm returned); predicating the rest broke that. Keep the returns.
            if let Some(saved) = saved {
                body = saved;
            }
            lowered = None;
        }
        let returns_ok = match lowered {
            Some(p) => {
                progress |= p;
                true
            }
            None => false,
        };
        let instrs = all_instrs(&body);
        let mut count = instrs.len();
        // Built at the first call inlined (most functions call nothing).
        let mut names: Option<Names> = None;
        for call in instrs {
            let InstrKind::Call { callee, args } = &body.instrs[call].kind else {
                continue;
            };
            let (callee, args) = (*callee, args.clone());
            let Some(&ccount) = inlinable.get(&callee) else {
                continue;
            };
            if shader.functions[callee].body.is_none() {
                continue;
            }
            if count + ccount > limit {
                if exceeded.is_none() {
                    exceeded = Some(shader.functions[f].name.clone());
                }
                continue;
            }
            let names = names.get_or_insert_with(|| Names::new(shader, &body));
            let Some(callee_body) = shader.functions[callee].body.as_ref() else {
                continue;
            };
            let writes = written
                .entry(callee)
                .or_insert_with(|| written_vars(callee_body));
            if inline_call(shader, &mut body, names, writes, call, callee, &args) {
                count = count + ccount - 1;
                progress = true;
            }
        }
        body.recompute_cfg();
        if returns_ok && acyclic.contains(&f) {
            if let Some(n) = callable(shader, f, &body) {
                inlinable.insert(f, n);
            }
        }
        shader.functions[f].body = Some(body);
    }

    progress |= remove_unreachable_functions(shader);
    (progress, exceeded)
}

/// A body can be copied into callers: no returns left and every `load_param` index in
/// range. Returns the body's instruction count when it can.
fn callable(shader: &Shader, f: FuncId, body: &FunctionImpl) -> Option<usize> {
    let nparams = shader.functions[f].params.len();
    let instrs = all_instrs(body);
    let ok = instrs.iter().all(|&i| match &body.instrs[i].kind {
        InstrKind::Jump(JumpKind::Return) => false,
        InstrKind::Intrinsic(intr) if intr.op == IntrinsicOp::load_param => intr
            .indices
            .first()
            .is_some_and(|&p| (p as usize) < nparams),
        _ => true,
    });
    ok.then_some(instrs.len())
}

// ---------------------------------------------------------------- lower_returns

/// Turns returns into structured control flow. `Some(progress)` on success, `None`
/// when the function has returns that cannot be lowered (it holds phis).
/// Whether a block of `func` ends in a `return` (what [`lower_returns`] lowers).
fn has_return(func: &FunctionImpl) -> bool {
    func.blocks_in_order()
        .into_iter()
        .any(|b| func.block_jump(b) == Some(JumpKind::Return))
}

fn lower_returns(shader: &mut Shader, func: &mut FunctionImpl) -> Option<bool> {
    let returns: Vec<Block> = func
        .blocks_in_order()
        .into_iter()
        .filter(|b| func.block_jump(*b) == Some(JumpKind::Return))
        .collect();
    if returns.is_empty() {
        return Some(false);
    }
    let has_phi = all_instrs(func)
        .into_iter()
        .any(|i| matches!(func.instrs[i].kind, InstrKind::Phi(_)));
    if has_phi {
        return None;
    }
    // Code after a return is dead; once the return goes it would run.
    for &b in &returns {
        let Some(node) = func.blocks[b].cf else {
            continue;
        };
        while let Some(next) = func.cf_next(node) {
            func.remove_cf(next);
        }
    }
    let mut remaining = Vec::new();
    for &b in &returns {
        let Some(node) = func.blocks[b].cf else {
            continue;
        };
        if !func.cf[node].attached {
            continue; // removed as dead code after another return
        }
        if func.cf[node].parent == CfParent::Root && func.cf_next(node).is_none() {
            if let Some(j) = func.blocks[b].last {
                func.remove_instr(j);
            }
        } else {
            remaining.push(b);
        }
    }
    if remaining.is_empty() {
        return Some(true);
    }
    let name = unique_name(shader, func, "return");
    let mut var = Variable::new(&name, VarMode::FunctionTemp, Type::Scalar(BaseType::Bool));
    var.init = None;
    let flag = shader.variables.push(var);
    func.locals.push(flag);
    let Some(entry) = func.body.first.and_then(|n| func.cf_block(n)) else {
        return Some(true);
    };
    store_flag(func, flag, Cursor::StartOf(entry), false);

    enum Exit {
        Loop(CfNode),
        Ifs(CfNode),
    }
    let mut work = Vec::new();
    for b in remaining {
        let Some(node) = func.blocks[b].cf else {
            continue;
        };
        if let Some(j) = func.blocks[b].last {
            func.remove_instr(j);
        }
        store_flag(func, flag, Cursor::EndOf(b), true);
        match func.enclosing_loop(node) {
            Some(l) => {
                let mut bld = Builder::new(func, Cursor::EndOf(b));
                bld.jump(JumpKind::Break);
                work.push(Exit::Loop(l));
            }
            None => work.push(Exit::Ifs(node)),
        }
    }
    let mut done: HashSet<CfNode> = HashSet::default();
    let mut done_loops: HashSet<CfNode> = HashSet::default();
    while let Some(exit) = work.pop() {
        match exit {
            Exit::Loop(l) => {
                if !done_loops.insert(l) {
                    continue;
                }
                match func.enclosing_loop(l) {
                    Some(outer) => {
                        let Some(after) = func.cf_next(l).and_then(|n| func.cf_block(n)) else {
                            continue;
                        };
                        let cond = load_flag(func, flag, Cursor::StartOf(after));
                        let mut bld = Builder::new(func, Cursor::After(cond.1));
                        if let Some((then_b, _)) = bld.insert_if(cond.0) {
                            let mut bld = Builder::new(func, Cursor::EndOf(then_b));
                            bld.jump(JumpKind::Break);
                        }
                        work.push(Exit::Loop(outer));
                    }
                    None => {
                        predicate_after(func, flag, l, &mut done);
                        work.push(Exit::Ifs(l));
                    }
                }
            }
            Exit::Ifs(node) => {
                let mut cur = node;
                while let CfParent::Then(i) | CfParent::Else(i) = func.cf[cur].parent {
                    predicate_after(func, flag, i, &mut done);
                    cur = i;
                }
            }
        }
    }
    func.recompute_cfg();
    Some(true)
}

fn store_flag(func: &mut FunctionImpl, flag: VarId, at: Cursor, value: bool) {
    let mut b = Builder::new(func, at);
    let d = b.deref_var(flag, VarMode::FunctionTemp, Type::Scalar(BaseType::Bool));
    let v = b.load_const(1, vec![u64::from(value)]);
    b.intrinsic(IntrinsicOp::store_deref, vec![d, v], 1, vec![1, 0], None);
}

/// Loads the flag at `at`; returns the value and the load instruction.
fn load_flag(func: &mut FunctionImpl, flag: VarId, at: Cursor) -> (Def, Instr) {
    let mut b = Builder::new(func, at);
    let d = b.deref_var(flag, VarMode::FunctionTemp, Type::Scalar(BaseType::Bool));
    let v = b
        .intrinsic(IntrinsicOp::load_deref, vec![d], 1, vec![0], Some((1, 1)))
        .unwrap_or(d);
    let instr = func.defs[v].instr;
    (v, instr)
}

/// Moves everything after `node` in its list into the else arm of a new
/// `if return { } else { … }` placed right after `node`'s following block.
fn predicate_after(func: &mut FunctionImpl, flag: VarId, node: CfNode, done: &mut HashSet<CfNode>) {
    if !done.insert(node) {
        return;
    }
    let Some(next) = func.cf_next(node) else {
        return;
    };
    let Some(after) = func.cf_block(next) else {
        return;
    };
    if func.cf_next(next).is_none() && func.blocks[after].first.is_none() {
        return; // nothing follows
    }
    let (cond, load) = load_flag(func, flag, Cursor::StartOf(after));
    let mut b = Builder::new(func, Cursor::After(load));
    let Some((_, else_b)) = b.insert_if(cond) else {
        return;
    };
    let Cursor::StartOf(rest) = b.cursor else {
        return;
    };
    func.move_instrs(rest, else_b);
    let Some(rest_node) = func.blocks[rest].cf else {
        return;
    };
    let Some(mut anchor) = func.blocks[else_b].cf else {
        return;
    };
    let mut cur = func.cf_next(rest_node);
    while let Some(n) = cur {
        cur = func.cf_next(n);
        func.move_cf_after(n, anchor);
        anchor = n;
    }
    func.recompute_cfg();
}

// ---------------------------------------------------------------- inlining

/// Copies the body of `callee` over the call `call` in `caller`.
fn inline_call(
    shader: &mut Shader,
    caller: &mut FunctionImpl,
    names: &mut Names,
    written: &HashSet<VarId>,
    call: Instr,
    callee_id: FuncId,
    args: &[Def],
) -> bool {
    let Some(block) = caller.instr_block(call) else {
        return false;
    };
    let Some(block_node) = caller.blocks[block].cf else {
        return false;
    };
    let Some(callee) = shader.functions[callee_id].body.take() else {
        return false;
    };
    // Locals of the callee become locals of the caller.
    let mut var_map: HashMap<VarId, VarId> = HashMap::default();
    let mut reinit: Vec<(VarId, VarId)> = Vec::new();
    for &v in &callee.locals {
        let Some(data) = shader.variables.get(v).cloned() else {
            continue;
        };
        let mut copy = data.clone();
        copy.name = names.fresh(&data.name);
        if data.init.is_some() && written.contains(&v) {
            copy.init = None;
            let nv = shader.variables.push(copy);
            caller.locals.push(nv);
            let mut holder = data.clone();
            holder.name = names.fresh(&format!("{}_init", data.name));
            let hv = shader.variables.push(holder);
            caller.locals.push(hv);
            reinit.push((nv, hv));
            var_map.insert(v, nv);
        } else {
            let nv = shader.variables.push(copy);
            caller.locals.push(nv);
            var_map.insert(v, nv);
        }
    }

    // A callee whose body is one block without a jump (no control flow) is copied in
    // place, before the instructions after the call; the CFG does not change. Otherwise the calling block is split: the instructions
    // after the call wait, and go to the end of the copy's last block. (Copying in
    // place keeps inlining linear in a block with many calls.)
    let top = callee.list_nodes(callee.body);
    let in_place = match top.as_slice() {
        [only] => callee
            .cf_block(*only)
            .is_some_and(|b| callee.block_jump(b).is_none()),
        _ => false,
    };
    let tail = caller.instr_next(call);
    let mut rest = Vec::new();
    if !in_place {
        let mut cur = tail;
        while let Some(i) = cur {
            cur = caller.instr_next(i);
            caller.remove_instr(i);
            rest.push(i);
        }
    }
    caller.remove_instr(call);
    let insert_at = match (in_place, tail) {
        (true, Some(t)) => Cursor::Before(t),
        _ => Cursor::EndOf(block),
    };
    for (nv, hv) in &reinit {
        let ty = shader.variables[*nv].ty.clone();
        let mut b = Builder::new(caller, insert_at);
        let d = b.deref_var(*nv, VarMode::FunctionTemp, ty.clone());
        let s = b.deref_var(*hv, VarMode::FunctionTemp, ty);
        b.intrinsic(IntrinsicOp::copy_deref, vec![d, s], 0, vec![0, 0], None);
    }

    // Copy the cf tree.
    let mut bmap: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
    let mut new_ifs: Vec<(CfNode, Def)> = Vec::new();
    let mut work: Vec<(CfList, CfParent)> = Vec::new();
    let mut anchor = block_node;
    let mut last_block = block;
    for (k, &n) in top.iter().enumerate() {
        match &callee.cf[n].kind {
            CfKind::Block(b) => {
                let nb = if k == 0 {
                    block
                } else {
                    caller.insert_block_after(anchor)
                };
                bmap[*b] = Some(nb);
                last_block = nb;
                if let Some(nn) = caller.blocks[nb].cf {
                    anchor = nn;
                }
            }
            CfKind::If {
                cond,
                then_list,
                else_list,
            } => {
                let nn = caller.insert_cf_after(
                    anchor,
                    CfKind::If {
                        cond: *cond,
                        then_list: CfList::default(),
                        else_list: CfList::default(),
                    },
                );
                new_ifs.push((nn, *cond));
                work.push((*then_list, CfParent::Then(nn)));
                work.push((*else_list, CfParent::Else(nn)));
                anchor = nn;
            }
            CfKind::Loop { body } => {
                let nn = caller.insert_cf_after(
                    anchor,
                    CfKind::Loop {
                        body: CfList::default(),
                    },
                );
                work.push((*body, CfParent::Loop(nn)));
                anchor = nn;
            }
        }
    }
    while let Some((list, parent)) = work.pop() {
        for n in callee.list_nodes(list) {
            match &callee.cf[n].kind {
                CfKind::Block(b) => {
                    let nb = caller.push_block(parent);
                    bmap[*b] = Some(nb);
                }
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    let nn = caller.append_cf(
                        parent,
                        CfKind::If {
                            cond: *cond,
                            then_list: CfList::default(),
                            else_list: CfList::default(),
                        },
                    );
                    new_ifs.push((nn, *cond));
                    work.push((*then_list, CfParent::Then(nn)));
                    work.push((*else_list, CfParent::Else(nn)));
                }
                CfKind::Loop { body } => {
                    let nn = caller.append_cf(
                        parent,
                        CfKind::Loop {
                            body: CfList::default(),
                        },
                    );
                    work.push((*body, CfParent::Loop(nn)));
                }
            }
        }
    }

    // Copy the instructions.
    let mut dmap: SecondaryMap<Def, Option<Def>> = SecondaryMap::new();
    let mut cloned: Vec<Instr> = Vec::new();
    for cb in callee.blocks_in_order() {
        let Some(nb) = bmap[cb] else { continue };
        for i in callee.block_instrs(cb) {
            let data = &callee.instrs[i];
            if let InstrKind::Intrinsic(intr) = &data.kind {
                if intr.op == IntrinsicOp::load_param {
                    let p = intr.indices.first().copied().unwrap_or(0) as usize;
                    if let (Some(d), Some(a)) = (data.def, args.get(p)) {
                        dmap[d] = Some(*a);
                    }
                    continue;
                }
            }
            let mut kind = data.kind.clone();
            if let InstrKind::Deref(Deref {
                kind: DerefKind::Var(v),
                ..
            }) = &mut kind
            {
                if let Some(nv) = var_map.get(v) {
                    *v = *nv;
                }
            }
            let shape = data
                .def
                .map(|d| (callee.defs[d].num_components, callee.defs[d].bit_size));
            let ni = if let InstrKind::ParallelCopy(entries) = &kind {
                // Destinations are defined by the copy: give them fresh defs.
                let ni = caller.create_instr(InstrKind::ParallelCopy(Vec::new()), None);
                let mut fresh = Vec::with_capacity(entries.len());
                for (dst, src) in entries {
                    let dd = &callee.defs[*dst];
                    let nd = caller.new_def(ni, dd.num_components, dd.bit_size);
                    dmap[*dst] = Some(nd);
                    fresh.push((nd, *src));
                }
                caller.instrs[ni].kind = InstrKind::ParallelCopy(fresh);
                ni
            } else {
                caller.create_instr(kind, shape)
            };
            if let (Some(old), Some(new)) = (data.def, caller.instrs[ni].def) {
                dmap[old] = Some(new);
            }
            match insert_at {
                Cursor::Before(t) if nb == block => caller.link_instr_before(t, ni),
                _ => caller.append_instr(nb, ni),
            }
            cloned.push(ni);
        }
    }
    for &ni in &cloned {
        caller.instrs[ni].for_each_src_mut(|d| {
            if let Some(n) = dmap[*d] {
                *d = n;
            }
        });
        if let InstrKind::Phi(srcs) = &mut caller.instrs[ni].kind {
            for (b, _) in srcs.iter_mut() {
                if let Some(nb) = bmap[*b] {
                    *b = nb;
                }
            }
        }
    }
    for (node, cond) in new_ifs {
        let nc = dmap[cond].unwrap_or(cond);
        caller.visit_use_mut(Use::If(node), |c| *c = nc);
    }
    // Casts of arguments: take the argument's mode; drop same-type casts.
    let mut replace: HashMap<Def, Def> = HashMap::default();
    for &ni in &cloned {
        let InstrKind::Deref(dr) = &caller.instrs[ni].kind else {
            continue;
        };
        let DerefKind::Cast { parent, .. } = dr.kind else {
            continue;
        };
        let mut p = parent;
        while let Some(r) = replace.get(&p) {
            p = *r;
        }
        let Some(pd) = deref(caller, p) else {
            continue;
        };
        let (pmode, pty, simple) = (
            pd.mode,
            pd.ty.clone(),
            !matches!(
                pd.kind,
                DerefKind::Cast { .. } | DerefKind::ArrayWildcard { .. }
            ),
        );
        let same = pty == dr.ty;
        if let InstrKind::Deref(dr) = &mut caller.instrs[ni].kind {
            dr.mode = pmode;
            if let DerefKind::Cast { parent, .. } = &mut dr.kind {
                *parent = p;
            }
        }
        if same && simple {
            if let Some(d) = caller.instrs[ni].def {
                replace.insert(d, p);
            }
        }
    }
    if !replace.is_empty() {
        let resolve = |mut d: Def| {
            let mut guard = 0;
            while let Some(r) = replace.get(&d) {
                d = *r;
                guard += 1;
                if guard > MAX_CHAIN {
                    break;
                }
            }
            d
        };
        // Only the copy can read the replaced defs (they are defs of the copy).
        for &ni in &cloned {
            caller.instrs[ni].for_each_src_mut(|d| *d = resolve(*d));
        }
        for &ni in &cloned {
            if caller.instrs[ni]
                .def
                .is_some_and(|d| replace.contains_key(&d))
            {
                caller.remove_instr(ni);
            }
        }
    }
    // Deref modes below a cast that changed mode follow it.
    fix_modes(caller, &cloned);
    if in_place {
        // Same blocks and edges; only cached analyses go.
        caller.invalidate_metadata();
    } else {
        for i in rest {
            caller.link_instr_at_end(last_block, i);
        }
        caller.recompute_cfg();
        rename_phi_preds_after_split(caller, block, last_block);
    }
    shader.functions[callee_id].body = Some(callee);
    true
}

/// Sets every cloned deref's mode to its parent's (after casts changed mode).
fn fix_modes(func: &mut FunctionImpl, instrs: &[Instr]) {
    for &i in instrs {
        if func.instr_block(i).is_none() {
            continue;
        }
        let InstrKind::Deref(dr) = &func.instrs[i].kind else {
            continue;
        };
        if matches!(dr.kind, DerefKind::Var(_) | DerefKind::Cast { .. }) {
            continue;
        }
        let Some(p) = parent(&dr.kind) else { continue };
        let Some(pm) = deref(func, p).map(|d| d.mode) else {
            continue;
        };
        if let InstrKind::Deref(dr) = &mut func.instrs[i].kind {
            dr.mode = pm;
        }
    }
}

/// Variables the body may write: store/copy destinations and anything whose deref
/// is passed to a call or used other than by a load.
fn written_vars(func: &FunctionImpl) -> HashSet<VarId> {
    let mut out = HashSet::default();
    for i in all_instrs(func) {
        match &func.instrs[i].kind {
            InstrKind::Intrinsic(intr)
                if matches!(intr.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref) =>
            {
                if let Some(v) = intr.srcs.first().and_then(|d| root_var(func, *d)) {
                    out.insert(v);
                }
            }
            InstrKind::Call { args, .. } => {
                for a in args {
                    if let Some(v) = root_var(func, *a) {
                        out.insert(v);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------- removal

/// Keeps the entry points and every function a remaining call reaches; remaps calls.
fn remove_unreachable_functions(shader: &mut Shader) -> bool {
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    let entries: Vec<FuncId> = ids
        .iter()
        .copied()
        .filter(|f| shader.functions[*f].is_entrypoint)
        .collect();
    if entries.is_empty() {
        return false;
    }
    let mut keep: HashSet<FuncId> = entries.iter().copied().collect();
    let mut stack = entries;
    while let Some(f) = stack.pop() {
        let Some(body) = shader.functions[f].body.as_ref() else {
            continue;
        };
        for i in all_instrs(body) {
            if let InstrKind::Call { callee, .. } = &body.instrs[i].kind {
                if shader.functions.contains(*callee) && keep.insert(*callee) {
                    stack.push(*callee);
                }
            }
        }
    }
    if keep.len() == ids.len() {
        return false;
    }
    let old = std::mem::replace(&mut shader.functions, Arena::new());
    let mut map: HashMap<FuncId, FuncId> = HashMap::default();
    for (id, func) in old.into_iter_keyed() {
        if keep.contains(&id) {
            let nid = shader.functions.push(func);
            map.insert(id, nid);
        }
    }
    let new_ids: Vec<FuncId> = shader.functions.keys().collect();
    for f in new_ids {
        let Some(body) = shader.functions[f].body.as_mut() else {
            continue;
        };
        for i in all_instrs(body) {
            if let InstrKind::Call { callee, .. } = &mut body.instrs[i].kind {
                if let Some(n) = map.get(callee) {
                    *callee = *n;
                }
            }
        }
    }
    true
}
