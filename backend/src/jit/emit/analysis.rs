//! What the body emitter needs to know about a NIR function before it emits
//! anything: which values may differ between the active lanes of a batch
//! (divergence analysis, after Mesa's `nir_divergence_analysis`), which loops and
//! jumps are divergent, which defs must be written under the execution mask, and
//! per-loop instruction costs for the budget.
//!
//! Definitions used throughout:
//! * A value is **uniform** when every lane holds the same bits. Uniform values are
//!   only ever written unmasked, from uniform sources, so "the same for the active
//!   lanes" and "the same in every lane" coincide, and a branch on lane 0 of a
//!   uniform condition is a plain branch.
//! * A jump (`break`/`continue`) is **divergent** when an `if` between it and its
//!   loop has a divergent condition; a loop is divergent when one of its jumps is.
//! * A def is **masked** when it is read outside a divergent loop it is defined in:
//!   lanes that left the loop earlier must keep the value of their last iteration,
//!   so its writes merge with the execution mask. Masked defs are divergent.
//!
//! The analysis iterates to a fixed point because loop divergence depends on
//! conditions, conditions on phis, and phis on loop divergence.

use std::collections::HashMap;

use rgl_nir::arena::EntityRef;
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::*;

/// Facts about one loop.
#[derive(Clone, Debug, Default)]
pub(crate) struct LoopInfo {
    /// A `break` under a divergent condition.
    pub divergent_break: bool,
    /// A `continue` under a divergent condition.
    pub divergent_continue: bool,
    /// A `return` or `halt` somewhere in the body (lanes leave for good).
    pub contains_return: bool,
    /// Instructions in the body outside nested loops (at least 1): the budget cost
    /// of one iteration per lane.
    pub cost: u64,
}

impl LoopInfo {
    /// Lanes may leave or skip iterations at different times.
    pub fn divergent(&self) -> bool {
        self.divergent_break || self.divergent_continue
    }
}

/// How a phi receives its value along one edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PhiEdge {
    /// From the block before the loop whose header holds the phi.
    Preheader,
    /// From a `continue` or the end of the body of the loop whose header holds it.
    BackEdge(CfNode),
    /// From a `break` of the loop right before the phi's block.
    LoopExit(CfNode),
    /// From the last block of an arm of the `if` right before the phi's block.
    IfArm {
        /// The `if`.
        node: CfNode,
        /// The edge comes from the else arm.
        from_else: bool,
    },
    /// Anything else (not produced by structured NIR): always masked.
    Other,
}

/// The analysis results.
pub(crate) struct Analysis {
    /// Per def index.
    pub divergent: Vec<bool>,
    /// Per def index: writes merge with the execution mask.
    pub masked: Vec<bool>,
    /// Per loop node.
    pub loops: HashMap<CfNode, LoopInfo>,
    /// Per block index: its `break`/`continue` is divergent.
    pub jump_divergent: Vec<bool>,
    /// Per cf node index (ifs and loops): the subtree contains a jump leaving it, a
    /// `return` or a `halt`.
    pub has_exit: Vec<bool>,
    /// Per cf node index: the subtree contains a jump leaving it, a return/halt or a
    /// discard (the execution mask may shrink).
    pub shrinks: Vec<bool>,
}

/// Loops containing `node`, innermost first.
pub(crate) fn loops_of(f: &FunctionImpl, node: CfNode) -> Vec<CfNode> {
    let mut out = Vec::new();
    let mut cur = node;
    loop {
        match f.cf[cur].parent {
            CfParent::Root => return out,
            CfParent::Loop(l) => {
                out.push(l);
                cur = l;
            }
            CfParent::Then(n) | CfParent::Else(n) => cur = n,
        }
    }
}

fn is_kill(op: IntrinsicOp) -> bool {
    use IntrinsicOp as I;
    matches!(
        op,
        I::discard | I::terminate | I::demote | I::discard_if | I::terminate_if | I::demote_if
    )
}

/// Intrinsics whose result is the same in every lane when their sources are.
fn intrinsic_uniform(op: IntrinsicOp) -> bool {
    use IntrinsicOp as I;
    matches!(
        op,
        I::load_uniform
            | I::load_ubo
            | I::load_invocation_id
            | I::load_sample_id
            | I::load_layer_id
            | I::load_sample_mask_in
            | I::load_sample_pos
            | I::load_barycentric_pixel
            | I::load_barycentric_centroid
            | I::load_barycentric_sample
            | I::load_barycentric_at_offset
            | I::load_workgroup_id
            | I::load_num_workgroups
            | I::load_subgroup_size
            | I::load_subgroup_invocation
    )
}

struct Walker<'a> {
    f: &'a FunctionImpl,
    a: Analysis,
    /// Def index → positions (cf nodes) of its uses.
    uses: Vec<Vec<CfNode>>,
    /// Def index → the cf node holding it.
    def_node: Vec<Option<CfNode>>,
    changed: bool,
}

impl Analysis {
    /// Analyses the entry function.
    pub fn new(f: &FunctionImpl) -> Analysis {
        let ndefs = f.defs.len();
        let mut w = Walker {
            f,
            a: Analysis {
                divergent: vec![false; ndefs],
                masked: vec![false; ndefs],
                loops: HashMap::new(),
                jump_divergent: vec![false; f.blocks.len()],
                has_exit: vec![false; f.cf.len()],
                shrinks: vec![false; f.cf.len()],
            },
            uses: vec![Vec::new(); ndefs],
            def_node: vec![None; ndefs],
            changed: false,
        };
        w.collect(f.body);
        w.exits(f.body);
        loop {
            w.changed = false;
            w.list(f.body);
            w.jumps();
            w.masking();
            if !w.changed {
                break;
            }
        }
        w.a
    }

    /// Whether `d` may differ between lanes.
    pub fn is_divergent(&self, d: Def) -> bool {
        self.divergent.get(d.index()).copied().unwrap_or(true)
    }

    /// Whether writes of `d` merge with the execution mask.
    pub fn is_masked(&self, d: Def) -> bool {
        self.masked.get(d.index()).copied().unwrap_or(true)
    }

    /// The loop info of `l` (a default, divergent-free info for unknown nodes).
    pub fn loop_info(&self, l: CfNode) -> LoopInfo {
        self.loops.get(&l).cloned().unwrap_or_default()
    }

    /// How the phi in `block` receives its value from `pred`.
    pub fn phi_edge(f: &FunctionImpl, block: Block, pred: Block) -> PhiEdge {
        let (Some(node), Some(pnode)) = (f.blocks[block].cf, f.blocks[pred].cf) else {
            return PhiEdge::Other;
        };
        if let (CfParent::Loop(l), None) = (f.cf[node].parent, f.cf_prev(node)) {
            return if loops_of(f, pnode).contains(&l) {
                PhiEdge::BackEdge(l)
            } else {
                PhiEdge::Preheader
            };
        }
        match f.cf_prev(node).map(|p| (p, &f.cf[p].kind)) {
            Some((l, CfKind::Loop { .. })) => PhiEdge::LoopExit(l),
            Some((i, CfKind::If { .. })) => {
                // Which arm of `i` holds `pred`?
                let mut cur = pnode;
                loop {
                    match f.cf[cur].parent {
                        CfParent::Then(n) if n == i => {
                            return PhiEdge::IfArm {
                                node: i,
                                from_else: false,
                            }
                        }
                        CfParent::Else(n) if n == i => {
                            return PhiEdge::IfArm {
                                node: i,
                                from_else: true,
                            }
                        }
                        CfParent::Root => return PhiEdge::Other,
                        CfParent::Then(n) | CfParent::Else(n) | CfParent::Loop(n) => cur = n,
                    }
                }
            }
            _ => PhiEdge::Other,
        }
    }
}

impl Walker<'_> {
    fn mark(&mut self, d: Def, div: bool) {
        if div {
            if let Some(x) = self.a.divergent.get_mut(d.index()) {
                if !*x {
                    *x = true;
                    self.changed = true;
                }
            }
        }
    }

    fn div(&self, d: Def) -> bool {
        self.a.divergent.get(d.index()).copied().unwrap_or(true)
    }

    /// Records use positions, def positions and loop costs.
    fn collect(&mut self, list: CfList) {
        let f = self.f;
        for node in f.list_nodes(list) {
            match &f.cf[node].kind {
                CfKind::Block(b) => {
                    for i in f.block_instrs(*b) {
                        let data = &f.instrs[i];
                        for d in data.defs() {
                            if let Some(x) = self.def_node.get_mut(d.index()) {
                                *x = Some(node);
                            }
                        }
                        if let InstrKind::Phi(srcs) = &data.kind {
                            for (p, s) in srcs {
                                let pos = f.blocks[*p].cf.unwrap_or(node);
                                if let Some(u) = self.uses.get_mut(s.index()) {
                                    u.push(pos);
                                }
                            }
                        } else {
                            data.for_each_src(|s| {
                                if let Some(u) = self.uses.get_mut(s.index()) {
                                    u.push(node);
                                }
                            });
                        }
                    }
                }
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    if let Some(u) = self.uses.get_mut(cond.index()) {
                        u.push(node);
                    }
                    self.collect(*then_list);
                    self.collect(*else_list);
                }
                CfKind::Loop { body } => {
                    let cost = self.cost(*body).max(1);
                    self.a.loops.insert(
                        node,
                        LoopInfo {
                            cost,
                            ..LoopInfo::default()
                        },
                    );
                    self.collect(*body);
                }
            }
        }
    }

    /// Instructions of a list outside nested loops.
    fn cost(&self, list: CfList) -> u64 {
        let f = self.f;
        let mut n = 0u64;
        for node in f.list_nodes(list) {
            match &f.cf[node].kind {
                CfKind::Block(b) => n += f.block_instrs(*b).len() as u64,
                CfKind::If {
                    then_list,
                    else_list,
                    ..
                } => n += 1 + self.cost(*then_list) + self.cost(*else_list),
                CfKind::Loop { .. } => n += 1,
            }
        }
        n
    }

    /// Fills `has_exit`/`shrinks`/`contains_return` bottom-up; returns (leaves the
    /// list, shrinks, returns).
    fn exits(&mut self, list: CfList) -> (bool, bool, bool) {
        let f = self.f;
        let (mut exit, mut shrink, mut ret) = (false, false, false);
        for node in f.list_nodes(list) {
            match &f.cf[node].kind {
                CfKind::Block(b) => {
                    for i in f.block_instrs(*b) {
                        match &f.instrs[i].kind {
                            InstrKind::Jump(JumpKind::Return | JumpKind::Halt) => {
                                exit = true;
                                ret = true;
                            }
                            InstrKind::Jump(JumpKind::Break | JumpKind::Continue) => {
                                exit = true;
                            }
                            InstrKind::Intrinsic(intr) if is_kill(intr.op) => shrink = true,
                            _ => {}
                        }
                    }
                }
                CfKind::If {
                    then_list,
                    else_list,
                    ..
                } => {
                    let t = self.exits(*then_list);
                    let e = self.exits(*else_list);
                    let x = t.0 || e.0;
                    self.a.has_exit[node.index()] = x;
                    self.a.shrinks[node.index()] = x || t.1 || e.1;
                    exit |= x;
                    shrink |= t.1 || e.1;
                    ret |= t.2 || e.2;
                }
                CfKind::Loop { body } => {
                    // Breaks and continues inside belong to this loop.
                    let (_, s, r) = self.exits(*body);
                    self.a.has_exit[node.index()] = r;
                    self.a.shrinks[node.index()] = r || s;
                    if let Some(li) = self.a.loops.get_mut(&node) {
                        li.contains_return = r;
                    }
                    exit |= r;
                    shrink |= s;
                    ret |= r;
                }
            }
        }
        (exit, shrink || exit, ret)
    }

    /// One pass of the divergence rules over every instruction.
    fn list(&mut self, list: CfList) {
        let f = self.f;
        for node in f.list_nodes(list) {
            match &f.cf[node].kind {
                CfKind::Block(b) => self.block(*b),
                CfKind::If {
                    then_list,
                    else_list,
                    ..
                } => {
                    self.list(*then_list);
                    self.list(*else_list);
                }
                CfKind::Loop { body } => self.list(*body),
            }
        }
    }

    fn block(&mut self, b: Block) {
        let f = self.f;
        for i in f.block_instrs(b) {
            let data = &f.instrs[i];
            match &data.kind {
                InstrKind::Alu(_) | InstrKind::Tex(_) | InstrKind::Deref(_) => {
                    let mut d = false;
                    data.for_each_src(|s| d |= self.div(s));
                    if let Some(def) = data.def {
                        self.mark(def, d);
                    }
                }
                InstrKind::Intrinsic(intr) => {
                    let mut d = !intrinsic_uniform(intr.op);
                    data.for_each_src(|s| d |= self.div(s));
                    if let Some(def) = data.def {
                        self.mark(def, d);
                    }
                }
                InstrKind::LoadConst(_) | InstrKind::Undef | InstrKind::Jump(_) => {}
                InstrKind::Call { .. } => {
                    for d in data.defs() {
                        self.mark(d, true);
                    }
                }
                InstrKind::ParallelCopy(entries) => {
                    for &(d, s) in entries {
                        let v = self.div(s);
                        self.mark(d, v);
                    }
                }
                InstrKind::Phi(srcs) => {
                    let Some(def) = data.def else { continue };
                    let mut d = srcs.iter().any(|(_, s)| self.div(*s));
                    for (p, _) in srcs {
                        d |= match Analysis::phi_edge(f, b, *p) {
                            PhiEdge::Preheader => false,
                            PhiEdge::BackEdge(l) => {
                                self.a.loops.get(&l).is_none_or(|li| li.divergent_continue)
                            }
                            PhiEdge::LoopExit(l) => {
                                self.a.loops.get(&l).is_none_or(|li| li.divergent_break)
                            }
                            PhiEdge::IfArm { node, .. } => match &f.cf[node].kind {
                                CfKind::If { cond, .. } => self.div(*cond),
                                _ => true,
                            },
                            PhiEdge::Other => true,
                        };
                    }
                    self.mark(def, d);
                }
            }
        }
    }

    /// Jump divergence and loop flags from the current condition divergence.
    fn jumps(&mut self) {
        let f = self.f;
        for b in f.blocks_in_order() {
            let Some(j @ (JumpKind::Break | JumpKind::Continue)) = f.block_jump(b) else {
                continue;
            };
            let Some(mut cur) = f.blocks[b].cf else {
                continue;
            };
            let mut div = false;
            let lp = loop {
                match f.cf[cur].parent {
                    CfParent::Root => break None,
                    CfParent::Loop(l) => break Some(l),
                    CfParent::Then(n) | CfParent::Else(n) => {
                        if let CfKind::If { cond, .. } = &f.cf[n].kind {
                            div |= self.div(*cond);
                        }
                        cur = n;
                    }
                }
            };
            if div && !self.a.jump_divergent[b.index()] {
                self.a.jump_divergent[b.index()] = true;
                self.changed = true;
            }
            if let Some(li) = lp.and_then(|l| self.a.loops.get_mut(&l)) {
                let flag = if j == JumpKind::Break {
                    &mut li.divergent_break
                } else {
                    &mut li.divergent_continue
                };
                if div && !*flag {
                    *flag = true;
                    self.changed = true;
                }
            }
        }
    }

    /// Masked defs: read outside a divergent loop they are defined in.
    fn masking(&mut self) {
        let f = self.f;
        for d in 0..self.def_node.len() {
            let Some(node) = self.def_node[d] else {
                continue;
            };
            let def_loops = loops_of(f, node);
            if def_loops.is_empty() {
                continue;
            }
            let mut masked = false;
            for &u in &self.uses[d] {
                let use_loops = loops_of(f, u);
                masked |= def_loops.iter().any(|l| {
                    !use_loops.contains(l) && self.a.loops.get(l).is_none_or(|li| li.divergent())
                });
            }
            if masked && !self.a.masked[d] {
                self.a.masked[d] = true;
                self.changed = true;
            }
            if masked && !self.a.divergent[d] {
                self.a.divergent[d] = true;
                self.changed = true;
            }
        }
    }
}
