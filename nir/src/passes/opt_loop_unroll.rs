//! `opt_loop_unroll` (Mesa's `nir_opt_loop_unroll`, the "simple loop" cases):
//!
//! * **known trip count**: the loop body holds exactly one *terminator* at its top
//!   level, `if (c) { break } else { }` (or the break in the else arm), and no other
//!   `break`/`continue` of this loop (a `continue` ending the body is allowed). The
//!   condition must be computable from the header phis whose initial values are
//!   constants and whose back-edge values are computable from the phis (`i = i + 1`,
//!   `f = f * 2.0`, ...); the loop is simulated with the opcode table's fold rules, so
//!   the trip count is exactly what the IR computes. With trip count `n` (the break is
//!   taken at the `n`-th evaluation of the terminator), the body before the terminator
//!   is emitted `n + 1` times and the body after it `n` times, in order, with the
//!   header phis replaced by the values of the previous copy;
//! * **loops that never loop**: the body ends in an unconditional `break` and holds no
//!   other `break`/`continue` of the loop: the body is emitted once.
//!
//! Limits (Mesa's GL defaults): at most [`MAX_UNROLL_ITERATIONS`] iterations, and the
//! unrolled size (instructions of the loop × copies) at most
//! [`MAX_UNROLL_ITERATIONS`] × [`LOOP_UNROLL_LIMIT`]; bigger loops are left alone, so
//! giant loops never blow up the shader. Values of the loop used after it take the
//! values of the last copy. Inner loops are unrolled first; a loop enclosing one that
//! was unrolled waits for the next run (after the copies were simplified).

use super::cf_helpers::{blocks_under, merge_with_next, phis, single_block};
use super::{for_each_impl, Pass, PassFailure};
use crate::constant_fold::fold_alu;
use crate::ir::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The pass.
pub struct OptLoopUnroll;

/// Largest trip count unrolled (Mesa's `max_unroll_iterations` for GL drivers).
pub const MAX_UNROLL_ITERATIONS: usize = 32;
/// Instruction budget per iteration (Mesa's `LOOP_UNROLL_LIMIT`).
pub const LOOP_UNROLL_LIMIT: usize = 26;

impl Pass for OptLoopUnroll {
    fn name(&self) -> &'static str {
        "opt_loop_unroll"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, unroll_impl))
    }
}

fn unroll_impl(func: &mut FunctionImpl) -> bool {
    // Innermost loops first: reverse pre-order visits children before parents.
    let mut loops: Vec<CfNode> = func
        .cf_nodes_in_order()
        .into_iter()
        .filter(|n| matches!(func.cf[*n].kind, CfKind::Loop { .. }))
        .collect();
    loops.reverse();
    // After unrolling a loop, its enclosing loops changed: they wait for the next run
    // (the optimisation loop simplifies the copies first).
    let mut changed_ancestors: HashSet<CfNode> = HashSet::default();
    let mut progress = false;
    for l in loops {
        if !func.cf[l].attached || changed_ancestors.contains(&l) {
            continue;
        }
        if let Some(plan) = analyze(func, l) {
            let mut cur = l;
            while let Some(outer) = func.enclosing_loop(cur) {
                changed_ancestors.insert(outer);
                cur = outer;
            }
            emit(func, l, plan);
            progress = true;
        }
    }
    progress
}

/// How to unroll one loop.
struct Plan {
    /// Body nodes executed before the terminator (or the whole body).
    pre: Vec<CfNode>,
    /// Body nodes after the terminator.
    post: Vec<CfNode>,
    /// Number of full iterations (pre + post); then pre once more.
    trips: usize,
    /// Header phis: (phi def, initial value, back-edge value).
    header: Vec<(Def, Def, Def)>,
    /// The block whose `break` leaves the loop (exit phis read from it).
    break_block: Block,
}

fn jump_loop(func: &FunctionImpl, block: Block) -> Option<CfNode> {
    func.blocks[block].cf.and_then(|n| func.enclosing_loop(n))
}

fn analyze(func: &FunctionImpl, l: CfNode) -> Option<Plan> {
    let CfKind::Loop { body } = &func.cf[l].kind else {
        return None;
    };
    let nodes = func.list_nodes(*body);
    let header_block = func.cf_block(*nodes.first()?)?;
    let last_block = func.cf_block(*nodes.last()?)?;
    let preheader = func.cf_prev(l).and_then(|p| func.cf_block(p))?;
    func.cf_next(l).and_then(|n| func.cf_block(n))?;
    // Jumps of this loop, and jumps that make copying unsafe.
    let mut jumps = Vec::new();
    let mut cost = 0usize;
    for b in blocks_under(func, l) {
        for i in func.block_instrs(b) {
            match &func.instrs[i].kind {
                InstrKind::Jump(JumpKind::Break | JumpKind::Continue) => {
                    if jump_loop(func, b) == Some(l) {
                        jumps.push(b);
                    }
                }
                InstrKind::Phi(_) | InstrKind::Jump(_) | InstrKind::LoadConst(_) => {}
                _ => cost += 1,
            }
        }
    }
    // Top-level blocks may only end in the terminator's break or the final jump.
    for &n in &nodes {
        if let Some(b) = func.cf_block(n) {
            if b != last_block && func.block_jump(b).is_some() {
                return None;
            }
        }
    }
    // Header phis: (def, initial, back edge).
    let mut header = Vec::new();
    for phi in phis(func, header_block) {
        let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
            return None;
        };
        let def = func.instrs[phi].def?;
        let init = srcs
            .iter()
            .find(|(p, _)| *p == preheader)
            .map(|(_, d)| *d)?;
        let back = srcs.iter().find(|(p, _)| *p != preheader).map(|(_, d)| *d);
        if srcs.len() > 2 {
            return None;
        }
        header.push((def, init, back.unwrap_or(init)));
    }
    // A loop that never loops: the body ends in break, no other jumps of the loop.
    if func.block_jump(last_block) == Some(JumpKind::Break) {
        if jumps.len() != 1 || header.iter().any(|(d, i, b)| b != i && b != d) {
            return None;
        }
        return Some(Plan {
            pre: nodes,
            post: Vec::new(),
            trips: 0,
            header,
            break_block: last_block,
        });
    }
    // Otherwise the body must end by falling through or `continue` (a final return
    // or halt would be lost by the copies).
    if matches!(
        func.block_jump(last_block),
        Some(JumpKind::Return | JumpKind::Halt)
    ) {
        return None;
    }
    // The terminator.
    let mut terminator = None;
    for (idx, &n) in nodes.iter().enumerate() {
        let CfKind::If {
            cond,
            then_list,
            else_list,
        } = &func.cf[n].kind
        else {
            continue;
        };
        let arm_breaks = |list: CfList| {
            single_block(func, list).filter(|b| {
                func.blocks[*b].first.is_some()
                    && func.blocks[*b].first == func.blocks[*b].last
                    && func.block_jump(*b) == Some(JumpKind::Break)
            })
        };
        let arm_empty =
            |list: CfList| single_block(func, list).is_some_and(|b| func.blocks[b].first.is_none());
        let found = match (arm_breaks(*then_list), arm_breaks(*else_list)) {
            (Some(b), None) if arm_empty(*else_list) => Some((b, true)),
            (None, Some(b)) if arm_empty(*then_list) => Some((b, false)),
            _ => None,
        };
        if let Some((b, break_on_true)) = found {
            if terminator.is_some() {
                return None;
            }
            terminator = Some((idx, *cond, b, break_on_true));
        }
    }
    let (idx, cond, break_block, break_on_true) = terminator?;
    // Only the terminator's break and a final continue may jump for this loop.
    for b in &jumps {
        let ok = *b == break_block
            || (*b == last_block && func.block_jump(*b) == Some(JumpKind::Continue));
        if !ok {
            return None;
        }
    }
    // Simulate the induction variables.
    let mut env: HashMap<Def, u64> = HashMap::default();
    for (def, init, _) in &header {
        if func.defs[*def].num_components == 1 {
            if let Some(v) = func.const_value(*init).and_then(|v| v.first()) {
                env.insert(*def, *v);
            }
        }
    }
    let mut trips = None;
    for k in 0..=MAX_UNROLL_ITERATIONS {
        let c = eval(func, cond, 0, &env, 0)?;
        if (c != 0) == break_on_true {
            trips = Some(k);
            break;
        }
        let mut next = HashMap::default();
        for (def, _, back) in &header {
            if env.contains_key(def) {
                if let Some(v) = eval(func, *back, 0, &env, 0) {
                    next.insert(*def, v);
                }
            }
        }
        env = next;
    }
    let trips = trips?;
    if cost.saturating_mul(trips + 1) > MAX_UNROLL_ITERATIONS * LOOP_UNROLL_LIMIT {
        return None;
    }
    Some(Plan {
        pre: nodes[..idx].to_vec(),
        post: nodes[idx + 1..].to_vec(),
        trips,
        header,
        break_block,
    })
}

/// Value of component `comp` of `def` as raw bits, when it follows from `env` (values
/// of scalar phis) and constants through per-component ALU ops.
fn eval(
    func: &FunctionImpl,
    def: Def,
    comp: u8,
    env: &HashMap<Def, u64>,
    depth: u32,
) -> Option<u64> {
    if depth > 32 {
        return None;
    }
    if let Some(v) = env.get(&def) {
        return (comp == 0).then_some(*v);
    }
    let d = &func.defs[def];
    match &func.instrs[d.instr].kind {
        InstrKind::LoadConst(values) => values.get(usize::from(comp)).copied(),
        InstrKind::Alu(alu) => {
            let info = alu.op.info();
            if info.output_size != 0 || info.input_sizes.iter().any(|s| *s != 0) {
                return None;
            }
            let mut srcs = Vec::with_capacity(alu.srcs.len());
            for s in &alu.srcs {
                let c = *s.swizzle.get(usize::from(comp))?;
                let v = eval(func, s.def, c, env, depth + 1)?;
                srcs.push((func.defs[s.def].bit_size, vec![v]));
            }
            fold_alu(alu.op, d.bit_size, 1, &srcs)?.first().copied()
        }
        _ => None,
    }
}

/// Copies cf nodes of the loop body after `cursor`, merging the first block into the
/// cursor block. Keeps the def and block maps.
struct Emitter {
    map: HashMap<Def, Def>,
    cursor: CfNode,
    /// The last block node emitted (where the next copy's first block merges).
    tail: CfNode,
}

impl Emitter {
    fn mapped(&self, d: Def) -> Def {
        self.map.get(&d).copied().unwrap_or(d)
    }

    fn clone_instrs(
        &mut self,
        func: &mut FunctionImpl,
        from: Block,
        to: Block,
        skip_phis: bool,
        skip_final_jump: bool,
        cloned_phis: &mut Vec<Instr>,
    ) {
        let instrs = func.block_instrs(from);
        let n = instrs.len();
        for (i, instr) in instrs.into_iter().enumerate() {
            match &func.instrs[instr].kind {
                InstrKind::Phi(_) if skip_phis => continue,
                InstrKind::Jump(_) if skip_final_jump && i + 1 == n => continue,
                _ => {}
            }
            let is_phi = matches!(func.instrs[instr].kind, InstrKind::Phi(_));
            let new = super::cf_helpers::clone_instr(func, instr, &mut self.map);
            func.append_instr(to, new);
            if is_phi {
                // Phi sources may come from later in this copy: keep the original
                // sources and map them once the copy is complete.
                func.instrs[new].kind = func.instrs[instr].kind.clone();
                cloned_phis.push(new);
            }
        }
    }

    /// Emits a copy of `nodes` (first and last are blocks).
    fn emit(
        &mut self,
        func: &mut FunctionImpl,
        nodes: &[CfNode],
        skip_first_phis: bool,
        skip_final_jump: bool,
    ) {
        let mut block_map: HashMap<Block, Block> = HashMap::default();
        let mut cloned_phis = Vec::new();
        let mut nested: Vec<(CfList, CfParent)> = Vec::new();
        let count = nodes.len();
        for (i, &n) in nodes.iter().enumerate() {
            let last = i + 1 == count;
            match func.cf[n].kind.clone() {
                CfKind::Block(b) => {
                    let target = if i == 0 {
                        self.tail
                    } else {
                        let nb = func.insert_block_after(self.cursor);
                        let Some(node) = func.blocks[nb].cf else {
                            return;
                        };
                        self.cursor = node;
                        self.tail = node;
                        node
                    };
                    let Some(tb) = func.cf_block(target) else {
                        return;
                    };
                    block_map.insert(b, tb);
                    self.clone_instrs(
                        func,
                        b,
                        tb,
                        i == 0 && skip_first_phis,
                        last && skip_final_jump,
                        &mut cloned_phis,
                    );
                }
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    let new = func.insert_cf_after(
                        self.cursor,
                        CfKind::If {
                            cond: self.mapped(cond),
                            then_list: CfList::default(),
                            else_list: CfList::default(),
                        },
                    );
                    self.cursor = new;
                    nested.push((then_list, CfParent::Then(new)));
                    nested.push((else_list, CfParent::Else(new)));
                }
                CfKind::Loop { body } => {
                    let new = func.insert_cf_after(
                        self.cursor,
                        CfKind::Loop {
                            body: CfList::default(),
                        },
                    );
                    self.cursor = new;
                    nested.push((body, CfParent::Loop(new)));
                }
            }
        }
        // Nested lists: each list is copied whole, in order; children after parents.
        while let Some((list, parent)) = nested.pop() {
            for n in func.list_nodes(list) {
                match func.cf[n].kind.clone() {
                    CfKind::Block(b) => {
                        let nb = func.push_block(parent);
                        block_map.insert(b, nb);
                        self.clone_instrs(func, b, nb, false, false, &mut cloned_phis);
                    }
                    CfKind::If {
                        cond,
                        then_list,
                        else_list,
                    } => {
                        let new = func.append_cf(
                            parent,
                            CfKind::If {
                                cond: self.mapped(cond),
                                then_list: CfList::default(),
                                else_list: CfList::default(),
                            },
                        );
                        nested.push((then_list, CfParent::Then(new)));
                        nested.push((else_list, CfParent::Else(new)));
                    }
                    CfKind::Loop { body } => {
                        let new = func.append_cf(
                            parent,
                            CfKind::Loop {
                                body: CfList::default(),
                            },
                        );
                        nested.push((body, CfParent::Loop(new)));
                    }
                }
            }
        }
        // If conditions of nested ifs were mapped when created; defs defined later in
        // the copy (loop back edges) only reach phis, fixed here.
        for phi in cloned_phis {
            let map = &self.map;
            if let InstrKind::Phi(srcs) = &mut func.instrs[phi].kind {
                for (p, d) in srcs.iter_mut() {
                    if let Some(nb) = block_map.get(p) {
                        *p = *nb;
                    }
                    if let Some(nd) = map.get(d) {
                        *d = *nd;
                    }
                }
            }
        }
    }
}

fn emit(func: &mut FunctionImpl, l: CfNode, plan: Plan) {
    let (Some(prev), Some(next)) = (func.cf_prev(l), func.cf_next(l)) else {
        return;
    };
    let Some(after) = func.cf_block(next) else {
        return;
    };
    let loop_blocks: HashSet<Block> = blocks_under(func, l).into_iter().collect();
    let mut loop_defs = HashSet::default();
    for &b in &loop_blocks {
        for i in func.block_instrs(b) {
            loop_defs.extend(func.instrs[i].defs());
        }
    }
    // Phis of the first block of `post` have their single source in the terminator's
    // non-break arm, which is not copied: they resolve to that source.
    let post_phis: Vec<(Def, Def)> = plan
        .post
        .first()
        .and_then(|n| func.cf_block(*n))
        .map(|b| {
            phis(func, b)
                .into_iter()
                .filter_map(|p| match &func.instrs[p].kind {
                    InstrKind::Phi(srcs) if srcs.len() == 1 => {
                        Some((func.instrs[p].def?, srcs[0].1))
                    }
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let mut em = Emitter {
        map: HashMap::default(),
        cursor: prev,
        tail: prev,
    };
    let never_loops = plan.post.is_empty()
        && func.block_jump(plan.break_block) == Some(JumpKind::Break)
        && plan.pre.last().and_then(|n| func.cf_block(*n)) == Some(plan.break_block);
    for k in 0..=plan.trips {
        // Header phis take the initial values, then the previous copy's back edge.
        let values: Vec<(Def, Def)> = plan
            .header
            .iter()
            .map(|(def, init, back)| (*def, if k == 0 { *init } else { em.mapped(*back) }))
            .collect();
        for (def, v) in values {
            em.map.insert(def, v);
        }
        em.emit(func, &plan.pre, true, never_loops);
        if k < plan.trips {
            for (def, src) in &post_phis {
                let v = em.mapped(*src);
                em.map.insert(*def, v);
            }
            em.emit(func, &plan.post, true, true);
        }
    }
    // Exit phis read the break block's values of the last copy.
    for phi in phis(func, after) {
        let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
            continue;
        };
        let Some(src) = srcs
            .iter()
            .find(|(p, _)| *p == plan.break_block)
            .map(|(_, d)| *d)
        else {
            continue;
        };
        let Some(def) = func.instrs[phi].def else {
            continue;
        };
        let v = em.mapped(src);
        func.rewrite_uses(None, def, v);
        func.remove_instr(phi);
    }
    func.remove_cf(l);
    merge_with_next(func, em.tail);
    // Uses after the loop read the last copy's values.
    let subst: HashMap<Def, Def> = loop_defs
        .iter()
        .filter_map(|d| em.map.get(d).map(|n| (*d, *n)))
        .collect();
    func.for_each_use_mut(|d, _| {
        if let Some(n) = subst.get(d) {
            *d = *n;
        }
    });
    func.recompute_cfg();
}
