//! Which values a compute body must save at a barrier (see `super::compute`):
//! a conservative liveness over the structured NIR, in the emitter's order.
//!
//! Every instruction, `if` condition and loop boundary gets a position in the
//! order the emitter walks the function. A phi's sources are used at the end
//! of their predecessor blocks (where the emitter writes the phi). A def is
//! live across a barrier at position `p`, whose outermost enclosing loop
//! spans `[ls, le]`, when:
//! * it is defined before `p` and used after `p`; or
//! * it is defined before the loop and used inside it (the next iteration
//!   reads it again); or
//! * it is a phi or a masked def (whose writes merge with the value the
//!   lanes that left kept) defined inside the loop: its old value is read
//!   again after the barrier.

use std::collections::HashMap;

use rgl_nir::arena::EntityRef;
use rgl_nir::ir::*;

/// Positions of a function's defs, uses and loops.
pub(crate) struct Liveness {
    /// Position of each instruction, and its outermost enclosing loop.
    at: HashMap<Instr, (u32, Option<CfNode>)>,
    /// Per def index: where it is defined (`u32::MAX`: never).
    def_pos: Vec<u32>,
    /// Per def index: where it is used.
    uses: Vec<Vec<u32>>,
    /// Per def index: defined by a phi.
    phi: Vec<bool>,
    /// Loop spans.
    loops: HashMap<CfNode, (u32, u32)>,
}

impl Liveness {
    /// The positions of `f`.
    pub(crate) fn new(f: &FunctionImpl) -> Liveness {
        let n = f.defs.len();
        let mut lv = Liveness {
            at: HashMap::new(),
            def_pos: vec![u32::MAX; n],
            uses: vec![Vec::new(); n],
            phi: vec![false; n],
            loops: HashMap::new(),
        };
        let mut pos = 0u32;
        let mut block_end = HashMap::new();
        let mut phis = Vec::new();
        lv.walk(f, f.body, &mut pos, None, &mut block_end, &mut phis);
        for (i, _) in phis {
            if let InstrKind::Phi(srcs) = &f.instrs[i].kind {
                for (pred, src) in srcs {
                    let at = block_end.get(pred).copied().unwrap_or(u32::MAX - 1);
                    lv.use_at(*src, at);
                }
            }
        }
        lv
    }

    fn use_at(&mut self, d: Def, at: u32) {
        if let Some(u) = self.uses.get_mut(d.index()) {
            u.push(at);
        }
    }

    fn walk(
        &mut self,
        f: &FunctionImpl,
        list: CfList,
        pos: &mut u32,
        outer: Option<CfNode>,
        block_end: &mut HashMap<Block, u32>,
        phis: &mut Vec<(Instr, ())>,
    ) {
        for node in f.list_nodes(list) {
            match &f.cf[node].kind {
                CfKind::Block(blk) => {
                    for i in f.block_instrs(*blk) {
                        *pos += 1;
                        self.at.insert(i, (*pos, outer));
                        let data = &f.instrs[i];
                        match &data.kind {
                            InstrKind::Phi(_) => phis.push((i, ())),
                            InstrKind::ParallelCopy(entries) => {
                                for &(d, s) in entries {
                                    if let Some(p) = self.def_pos.get_mut(d.index()) {
                                        *p = *pos;
                                    }
                                    self.use_at(s, *pos);
                                }
                            }
                            _ => {
                                let p = *pos;
                                data.for_each_src(|s| self.use_at(s, p));
                            }
                        }
                        if let Some(d) = data.def {
                            if let Some(p) = self.def_pos.get_mut(d.index()) {
                                *p = *pos;
                            }
                            if matches!(data.kind, InstrKind::Phi(_)) {
                                self.phi[d.index()] = true;
                            }
                        }
                    }
                    *pos += 1;
                    block_end.insert(*blk, *pos);
                }
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    *pos += 1;
                    self.use_at(*cond, *pos);
                    let (t, e) = (*then_list, *else_list);
                    self.walk(f, t, pos, outer, block_end, phis);
                    self.walk(f, e, pos, outer, block_end, phis);
                }
                CfKind::Loop { body } => {
                    let start = *pos;
                    *pos += 1;
                    let body = *body;
                    self.walk(f, body, pos, outer.or(Some(node)), block_end, phis);
                    *pos += 1;
                    self.loops.insert(node, (start, *pos));
                }
            }
        }
    }

    /// Whether def index `d` (masked per `masked`) is live across a barrier
    /// at instruction `at`.
    pub(crate) fn live_across(&self, d: usize, masked: bool, at: Instr) -> bool {
        let Some(&(p, outer)) = self.at.get(&at) else {
            return true;
        };
        let def = self.def_pos.get(d).copied().unwrap_or(u32::MAX);
        if def == u32::MAX {
            return false;
        }
        let uses = &self.uses[d];
        if def < p && uses.iter().any(|u| *u > p) {
            return true;
        }
        let Some(&(ls, le)) = outer.and_then(|l| self.loops.get(&l)) else {
            return false;
        };
        if def < ls && uses.iter().any(|u| (ls..=le).contains(u)) {
            return true;
        }
        (masked || self.phi[d]) && (ls..=le).contains(&def)
    }
}
