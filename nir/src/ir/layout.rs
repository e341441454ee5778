//! Layout: where instructions and control-flow nodes sit.
//!
//! The control-flow tree is made of cf lists (impl body, then/else arms, loop bodies)
//! holding blocks, ifs and loops; list order and instruction order are doubly linked
//! lists in secondary maps, so insertion and removal are O(1) and handles stay stable.
//!
//! CFG edges (`BlockData::preds/succs`) are derived from the tree: every helper that
//! changes the tree (or adds/removes a jump) calls [`FunctionImpl::recompute_cfg`], which
//! re-derives all edges in one linear walk. Block indices and dominance are metadata
//! computed on demand and invalidated explicitly by [`FunctionImpl::invalidate_metadata`].

use super::*;

/// A cf list: first and last node.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CfList {
    /// First node.
    pub first: Option<CfNode>,
    /// Last node.
    pub last: Option<CfNode>,
}

/// Where a cf node sits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CfParent {
    /// The impl body.
    Root,
    /// The then-list of an if.
    Then(CfNode),
    /// The else-list of an if.
    Else(CfNode),
    /// The body of a loop.
    Loop(CfNode),
}

/// A cf node kind.
#[derive(Clone, Debug, PartialEq)]
pub enum CfKind {
    /// A basic block.
    Block(Block),
    /// A two-way branch on a 1-bit condition.
    If {
        /// Condition.
        cond: Def,
        /// Then arm.
        then_list: CfList,
        /// Else arm.
        else_list: CfList,
    },
    /// An infinite loop left by `break`.
    Loop {
        /// Body.
        body: CfList,
    },
}

/// A cf node.
#[derive(Clone, Debug)]
pub struct CfData {
    /// Kind.
    pub kind: CfKind,
    /// Parent list owner.
    pub parent: CfParent,
    /// False once removed from the tree.
    pub attached: bool,
}

/// On-demand analyses.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    /// Block program-order indices (valid when `Some`).
    pub block_index: Option<SecondaryMap<Block, u32>>,
    /// Immediate dominators (valid when `Some`).
    pub idom: Option<SecondaryMap<Block, Option<Block>>>,
    /// Use lists a pass left current for the passes after it (Mesa's SSA use lists
    /// under `nir_metadata`): see [`FunctionImpl::take_uses`]. Never outlives the
    /// runner's pass sequence that kept it.
    pub uses: Option<super::Uses>,
}

impl Default for FunctionImpl {
    fn default() -> Self {
        Self::new()
    }
}

impl FunctionImpl {
    /// An impl holding one empty block and the end block.
    pub fn new() -> FunctionImpl {
        let mut blocks = Arena::new();
        let end_block = blocks.push(BlockData::default());
        let mut f = FunctionImpl {
            defs: Arena::new(),
            instrs: Arena::new(),
            blocks,
            cf: Arena::new(),
            body: CfList::default(),
            end_block,
            locals: Vec::new(),
            cf_prev: SecondaryMap::new(),
            cf_next: SecondaryMap::new(),
            instr_prev: SecondaryMap::new(),
            instr_next: SecondaryMap::new(),
            instr_block: SecondaryMap::new(),
            metadata: Metadata::default(),
        };
        f.push_block(CfParent::Root);
        f.recompute_cfg();
        f
    }

    /// An impl with an empty body (only the end block); the reader fills it.
    pub(crate) fn new_empty() -> FunctionImpl {
        let mut f = FunctionImpl::new();
        if let Some(first) = f.body.first {
            f.remove_cf(first);
        }
        f
    }

    // ---------------------------------------------------------------- cf lists

    /// The list owned by `parent`.
    pub fn list(&self, parent: CfParent) -> CfList {
        match parent {
            CfParent::Root => self.body,
            CfParent::Then(n) => match &self.cf[n].kind {
                CfKind::If { then_list, .. } => *then_list,
                _ => CfList::default(),
            },
            CfParent::Else(n) => match &self.cf[n].kind {
                CfKind::If { else_list, .. } => *else_list,
                _ => CfList::default(),
            },
            CfParent::Loop(n) => match &self.cf[n].kind {
                CfKind::Loop { body } => *body,
                _ => CfList::default(),
            },
        }
    }

    fn list_mut(&mut self, parent: CfParent) -> Option<&mut CfList> {
        match parent {
            CfParent::Root => Some(&mut self.body),
            CfParent::Then(n) => match &mut self.cf[n].kind {
                CfKind::If { then_list, .. } => Some(then_list),
                _ => None,
            },
            CfParent::Else(n) => match &mut self.cf[n].kind {
                CfKind::If { else_list, .. } => Some(else_list),
                _ => None,
            },
            CfParent::Loop(n) => match &mut self.cf[n].kind {
                CfKind::Loop { body } => Some(body),
                _ => None,
            },
        }
    }

    /// Nodes of a list in order.
    pub fn list_nodes(&self, list: CfList) -> Vec<CfNode> {
        let mut out = Vec::new();
        let mut cur = list.first;
        while let Some(n) = cur {
            out.push(n);
            cur = self.cf_next[n];
        }
        out
    }

    /// Next sibling.
    pub fn cf_next(&self, n: CfNode) -> Option<CfNode> {
        self.cf_next[n]
    }

    /// Previous sibling.
    pub fn cf_prev(&self, n: CfNode) -> Option<CfNode> {
        self.cf_prev[n]
    }

    /// Appends a new node at the end of `parent`'s list (no CFG update).
    pub fn append_cf(&mut self, parent: CfParent, kind: CfKind) -> CfNode {
        let node = self.cf.push(CfData {
            kind,
            parent,
            attached: true,
        });
        let list = self.list(parent);
        self.cf_prev[node] = list.last;
        self.cf_next[node] = None;
        if let Some(last) = list.last {
            self.cf_next[last] = Some(node);
        }
        if let Some(l) = self.list_mut(parent) {
            if l.first.is_none() {
                l.first = Some(node);
            }
            l.last = Some(node);
        }
        self.invalidate_metadata();
        node
    }

    /// Inserts a new node right after `after` in the same list (no CFG update).
    pub fn insert_cf_after(&mut self, after: CfNode, kind: CfKind) -> CfNode {
        let parent = self.cf[after].parent;
        let node = self.cf.push(CfData {
            kind,
            parent,
            attached: true,
        });
        let next = self.cf_next[after];
        self.cf_prev[node] = Some(after);
        self.cf_next[node] = next;
        self.cf_next[after] = Some(node);
        match next {
            Some(n) => self.cf_prev[n] = Some(node),
            None => {
                if let Some(l) = self.list_mut(parent) {
                    l.last = Some(node);
                }
            }
        }
        self.invalidate_metadata();
        node
    }

    /// Creates a block wrapped in a new cf node appended to `parent`'s list.
    pub fn push_block(&mut self, parent: CfParent) -> Block {
        let block = self.blocks.push(BlockData::default());
        let node = self.append_cf(parent, CfKind::Block(block));
        self.blocks[block].cf = Some(node);
        block
    }

    /// Creates an empty block node after `after` (no CFG update).
    pub fn insert_block_after(&mut self, after: CfNode) -> Block {
        let block = self.blocks.push(BlockData::default());
        let node = self.insert_cf_after(after, CfKind::Block(block));
        self.blocks[block].cf = Some(node);
        block
    }

    /// Moves an attached node right after `after` (possibly into another list), keeping
    /// everything under it. The CFG is recomputed.
    pub fn move_cf_after(&mut self, node: CfNode, after: CfNode) {
        self.unlink_cf(node);
        let parent = self.cf[after].parent;
        let next = self.cf_next[after];
        self.cf[node].parent = parent;
        self.cf[node].attached = true;
        self.cf_prev[node] = Some(after);
        self.cf_next[node] = next;
        self.cf_next[after] = Some(node);
        match next {
            Some(n) => self.cf_prev[n] = Some(node),
            None => {
                if let Some(l) = self.list_mut(parent) {
                    l.last = Some(node);
                }
            }
        }
        self.recompute_cfg();
    }

    /// Detaches `node` (and everything under it) from its list and recomputes the CFG.
    pub fn remove_cf(&mut self, node: CfNode) {
        self.unlink_cf(node);
        self.recompute_cfg();
    }

    fn unlink_cf(&mut self, node: CfNode) {
        let parent = self.cf[node].parent;
        let prev = self.cf_prev[node];
        let next = self.cf_next[node];
        match prev {
            Some(p) => self.cf_next[p] = next,
            None => {
                if let Some(l) = self.list_mut(parent) {
                    l.first = next;
                }
            }
        }
        match next {
            Some(n) => self.cf_prev[n] = prev,
            None => {
                if let Some(l) = self.list_mut(parent) {
                    l.last = prev;
                }
            }
        }
        self.cf_prev[node] = None;
        self.cf_next[node] = None;
        self.cf[node].attached = false;
    }

    /// Moves all instructions of block `from` to the end of block `to` (phis included).
    pub fn move_instrs(&mut self, from: Block, to: Block) {
        for instr in self.block_instrs(from) {
            self.unlink_instr(instr);
            self.link_instr_at_end(to, instr);
        }
    }

    /// The block of a block cf node.
    pub fn cf_block(&self, node: CfNode) -> Option<Block> {
        match self.cf[node].kind {
            CfKind::Block(b) => Some(b),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- instructions

    /// Instructions of `block` in order.
    pub fn block_instrs(&self, block: Block) -> Vec<Instr> {
        // Most blocks hold a few instructions: start with room for them rather than
        // growing one at a time.
        let mut out = Vec::with_capacity(16);
        self.block_instrs_into(block, &mut out);
        out
    }

    /// Instructions of `block` in order, in `out` (cleared first): a pass walking
    /// every block reuses one buffer instead of allocating one per block.
    pub fn block_instrs_into(&self, block: Block, out: &mut Vec<Instr>) {
        out.clear();
        let mut cur = self.blocks[block].first;
        while let Some(i) = cur {
            out.push(i);
            cur = self.instr_next[i];
        }
    }

    /// Block containing `instr` (None when detached).
    pub fn instr_block(&self, instr: Instr) -> Option<Block> {
        self.instr_block[instr]
    }

    /// Next instruction in the block.
    pub fn instr_next(&self, instr: Instr) -> Option<Instr> {
        self.instr_next[instr]
    }

    /// Previous instruction in the block.
    pub fn instr_prev(&self, instr: Instr) -> Option<Instr> {
        self.instr_prev[instr]
    }

    /// Metadata (block indices, dominance) depends only on the CFG, so only jumps,
    /// which change edges, invalidate it (through `recompute_cfg`).
    fn after_link(&mut self, instr: Instr) {
        if matches!(self.instrs[instr].kind, InstrKind::Jump(_)) {
            self.recompute_cfg();
        }
    }

    pub(crate) fn link_instr_at_end(&mut self, block: Block, instr: Instr) {
        let last = self.blocks[block].last;
        self.instr_prev[instr] = last;
        self.instr_next[instr] = None;
        match last {
            Some(l) => self.instr_next[l] = Some(instr),
            None => self.blocks[block].first = Some(instr),
        }
        self.blocks[block].last = Some(instr);
        self.instr_block[instr] = Some(block);
        self.after_link(instr);
    }

    pub(crate) fn link_instr_at_start(&mut self, block: Block, instr: Instr) {
        match self.blocks[block].first {
            Some(first) => self.link_instr_before(first, instr),
            None => self.link_instr_at_end(block, instr),
        }
    }

    pub(crate) fn link_instr_before(&mut self, before: Instr, instr: Instr) {
        let Some(block) = self.instr_block[before] else {
            return;
        };
        let prev = self.instr_prev[before];
        self.instr_prev[instr] = prev;
        self.instr_next[instr] = Some(before);
        self.instr_prev[before] = Some(instr);
        match prev {
            Some(p) => self.instr_next[p] = Some(instr),
            None => self.blocks[block].first = Some(instr),
        }
        self.instr_block[instr] = Some(block);
        self.after_link(instr);
    }

    pub(crate) fn link_instr_after(&mut self, after: Instr, instr: Instr) {
        match self.instr_next[after] {
            Some(next) => self.link_instr_before(next, instr),
            None => {
                if let Some(block) = self.instr_block[after] {
                    self.link_instr_at_end(block, instr)
                }
            }
        }
    }

    fn unlink_instr(&mut self, instr: Instr) {
        let Some(block) = self.instr_block[instr] else {
            return;
        };
        let prev = self.instr_prev[instr];
        let next = self.instr_next[instr];
        match prev {
            Some(p) => self.instr_next[p] = next,
            None => self.blocks[block].first = next,
        }
        match next {
            Some(n) => self.instr_prev[n] = prev,
            None => self.blocks[block].last = prev,
        }
        self.instr_prev[instr] = None;
        self.instr_next[instr] = None;
        self.instr_block[instr] = None;
    }

    /// Removes `instr` from its block (O(1); the CFG and metadata are recomputed only
    /// for jumps).
    pub fn remove_instr(&mut self, instr: Instr) {
        let was_jump = matches!(self.instrs[instr].kind, InstrKind::Jump(_));
        self.unlink_instr(instr);
        if was_jump {
            self.recompute_cfg();
        }
    }

    /// Appends a detached instruction to `block`.
    pub fn append_instr(&mut self, block: Block, instr: Instr) {
        self.link_instr_at_end(block, instr);
    }

    /// The jump ending `block`, if any.
    pub fn block_jump(&self, block: Block) -> Option<JumpKind> {
        let last = self.blocks[block].last?;
        match self.instrs[last].kind {
            InstrKind::Jump(j) => Some(j),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- walks

    /// Every attached block in program order, end block last.
    pub fn blocks_in_order(&self) -> Vec<Block> {
        let mut out = Vec::with_capacity(self.blocks.len() + 1);
        self.blocks_in_order_into(&mut out);
        out
    }

    /// The blocks of `blocks_in_order`, in `out` (cleared first).
    pub fn blocks_in_order_into(&self, out: &mut Vec<Block>) {
        out.clear();
        self.collect_blocks(self.body, out);
        out.push(self.end_block);
    }

    fn collect_blocks(&self, list: CfList, out: &mut Vec<Block>) {
        let mut cur = list.first;
        while let Some(node) = cur {
            cur = self.cf_next[node];
            match &self.cf[node].kind {
                CfKind::Block(b) => out.push(*b),
                CfKind::If {
                    then_list,
                    else_list,
                    ..
                } => {
                    self.collect_blocks(*then_list, out);
                    self.collect_blocks(*else_list, out);
                }
                CfKind::Loop { body } => self.collect_blocks(*body, out),
            }
        }
    }

    /// Every attached cf node in program order (pre-order).
    pub fn cf_nodes_in_order(&self) -> Vec<CfNode> {
        let mut out = Vec::with_capacity(self.cf.len());
        let mut stack = vec![self.body];
        // Explicit pre-order without recursion: process lists depth-first.
        fn walk(f: &FunctionImpl, list: CfList, out: &mut Vec<CfNode>) {
            let mut cur = list.first;
            while let Some(node) = cur {
                cur = f.cf_next[node];
                out.push(node);
                match &f.cf[node].kind {
                    CfKind::Block(_) => {}
                    CfKind::If {
                        then_list,
                        else_list,
                        ..
                    } => {
                        walk(f, *then_list, out);
                        walk(f, *else_list, out);
                    }
                    CfKind::Loop { body } => walk(f, *body, out),
                }
            }
        }
        if let Some(list) = stack.pop() {
            walk(self, list, &mut out);
        }
        out
    }

    // ---------------------------------------------------------------- CFG

    /// Appends the blocks control enters first when reaching the start of `list`
    /// (what follows `parent`'s list when it is empty).
    fn list_entry(&self, list: CfList, parent: CfParent, depth: u32, out: &mut Vec<Block>) {
        match list.first {
            Some(n) => self.node_entry(n, depth, out),
            None => self.after_list(parent, depth, out),
        }
    }

    fn node_entry(&self, node: CfNode, depth: u32, out: &mut Vec<Block>) {
        if depth > 10_000 {
            return;
        }
        match &self.cf[node].kind {
            CfKind::Block(b) => out.push(*b),
            CfKind::If {
                then_list,
                else_list,
                ..
            } => {
                self.list_entry(*then_list, CfParent::Then(node), depth + 1, out);
                self.list_entry(*else_list, CfParent::Else(node), depth + 1, out);
            }
            CfKind::Loop { body } => self.list_entry(*body, CfParent::Loop(node), depth + 1, out),
        }
    }

    /// Appends where control goes after falling off the end of `parent`'s list.
    fn after_list(&self, parent: CfParent, depth: u32, out: &mut Vec<Block>) {
        match parent {
            CfParent::Root => out.push(self.end_block),
            CfParent::Then(n) | CfParent::Else(n) => self.after_node(n, depth + 1, out),
            CfParent::Loop(n) => {
                let CfKind::Loop { body } = &self.cf[n].kind else {
                    return;
                };
                match body.first {
                    Some(first) if depth < 10_000 => self.node_entry(first, depth + 1, out),
                    _ => {}
                }
            }
        }
    }

    fn after_node(&self, node: CfNode, depth: u32, out: &mut Vec<Block>) {
        if depth > 10_000 {
            return;
        }
        match self.cf_next[node] {
            Some(n) => self.node_entry(n, depth + 1, out),
            None => self.after_list(self.cf[node].parent, depth + 1, out),
        }
    }

    /// Innermost loop containing `node`.
    pub fn enclosing_loop(&self, node: CfNode) -> Option<CfNode> {
        let mut cur = node;
        loop {
            match self.cf[cur].parent {
                CfParent::Root => return None,
                CfParent::Loop(l) => return Some(l),
                CfParent::Then(n) | CfParent::Else(n) => cur = n,
            }
        }
    }

    /// Successors of a block as derived from the tree.
    pub fn compute_succs(&self, block: Block) -> Vec<Block> {
        let mut succs = Vec::new();
        let Some(node) = self.blocks[block].cf else {
            return succs;
        };
        match self.block_jump(block) {
            Some(JumpKind::Return) | Some(JumpKind::Halt) => succs.push(self.end_block),
            Some(JumpKind::Break) => {
                if let Some(l) = self.enclosing_loop(node) {
                    self.after_node(l, 0, &mut succs);
                }
            }
            Some(JumpKind::Continue) => {
                if let Some(l) = self.enclosing_loop(node) {
                    if let CfKind::Loop { body } = &self.cf[l].kind {
                        self.list_entry(*body, CfParent::Loop(l), 0, &mut succs);
                    }
                }
            }
            None => self.after_node(node, 0, &mut succs),
        }
        succs.dedup();
        succs
    }

    /// Re-derives every block's predecessors and successors from the tree.
    pub fn recompute_cfg(&mut self) {
        let order = self.blocks_in_order();
        for b in &order {
            self.blocks[*b].preds.clear();
        }
        let mut index = SecondaryMap::<Block, u32>::new();
        for (i, b) in order.iter().enumerate() {
            index[*b] = i as u32;
        }
        for b in &order {
            let succs = self.compute_succs(*b);
            for s in &succs {
                self.blocks[*s].preds.push(*b);
            }
            self.blocks[*b].succs = succs;
        }
        for b in &order {
            let mut preds = std::mem::take(&mut self.blocks[*b].preds);
            preds.sort_by_key(|p| index[*p]);
            preds.dedup();
            self.blocks[*b].preds = preds;
        }
        self.invalidate_metadata();
    }

    // ---------------------------------------------------------------- metadata

    /// Drops all cached analyses.
    pub fn invalidate_metadata(&mut self) {
        self.metadata = Metadata::default();
    }

    /// Program-order block indices (cached).
    pub fn block_indices(&mut self) -> &SecondaryMap<Block, u32> {
        if self.metadata.block_index.is_none() {
            let mut map = SecondaryMap::new();
            for (i, b) in self.blocks_in_order().into_iter().enumerate() {
                map[b] = i as u32;
            }
            self.metadata.block_index = Some(map);
        }
        self.metadata
            .block_index
            .get_or_insert_with(SecondaryMap::new)
    }

    /// Computes immediate dominators (Cooper–Harvey–Kennedy over program order, which
    /// is a reverse post-order for structured control flow). Unreachable blocks get
    /// `None`.
    pub fn compute_dominance(&mut self) {
        if self.metadata.idom.is_some() {
            return;
        }
        let order = self.blocks_in_order();
        let mut pos = SecondaryMap::<Block, u32>::new();
        for (i, b) in order.iter().enumerate() {
            pos[*b] = i as u32;
        }
        let mut idom = SecondaryMap::<Block, Option<Block>>::new();
        let Some(&entry) = order.first() else { return };
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new_idom: Option<Block> = None;
                for &p in &self.blocks[b].preds {
                    if idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => {
                            let (mut x, mut y) = (p, cur);
                            let mut guard = 0;
                            while x != y && guard < 1_000_000 {
                                guard += 1;
                                while pos[x] > pos[y] {
                                    x = idom[x].unwrap_or(entry);
                                }
                                while pos[y] > pos[x] {
                                    y = idom[y].unwrap_or(entry);
                                }
                            }
                            x
                        }
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        self.metadata.idom = Some(idom);
    }

    /// True when `a` dominates `b` (after [`Self::compute_dominance`]; reflexive).
    /// Unreachable `b` is dominated by everything.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let Some(idom) = &self.metadata.idom else {
            return false;
        };
        if idom[b].is_none() {
            return true;
        }
        let mut cur = b;
        for _ in 0..self.blocks.len() + 1 {
            if cur == a {
                return true;
            }
            match idom[cur] {
                Some(p) if p != cur => cur = p,
                _ => return false,
            }
        }
        false
    }

    /// True when `block` is reachable from the entry (after dominance).
    pub fn is_reachable(&self, block: Block) -> bool {
        match &self.metadata.idom {
            Some(idom) => idom[block].is_some(),
            None => true,
        }
    }
}
