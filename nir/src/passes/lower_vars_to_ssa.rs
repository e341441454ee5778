//! `lower_vars_to_ssa` (Mesa's `nir_lower_vars_to_ssa`): `function_temp` variables
//! whose every access is direct are promoted to SSA values, and removed.
//!
//! * **Which variables**: locals of mode `function_temp` referenced by one function
//!   only, whose derefs are used only as the address of `load_deref`, `store_deref`
//!   or `copy_deref` (a deref passed to a call, a texture op, a cast or used as data
//!   keeps the variable in memory), with constant array indices everywhere (a
//!   variable indexed indirectly stays a variable: `lower_indirect_derefs` or the
//!   backend's scratch memory handle it), and loads/stores of whole vectors/scalars
//!   of the deref's type. Copies touching such a variable are first lowered to
//!   loads and stores (as `lower_var_copies` does, wildcards expanded).
//! * **Values**: each distinct leaf path (`s.lights[1].dir`) is one SSA value. Phis
//!   go on the iterated dominance frontier of the blocks storing that value, then one
//!   walk of the dominator tree (explicit stack) renames: a load reads the current
//!   value, a store defines a new one; a store with a partial write mask builds a
//!   `vecN` mixing the stored and the previous components. Dead deref chains (left
//!   by other lowerings before DCE ran) do not count as uses. A constant component
//!   deref of a vector (`&t[2]` on a `vec4`) reads or writes one component of the
//!   vector's value (a `mov` of `.z`, or a `vecN` merge). Before any store the value
//!   is the variable's constant initializer, or `undefined`. Loads in unreachable
//!   blocks read that entry value; stores there vanish. Phis nothing reads are
//!   removed, so only needed phis remain.

use super::lower_var_copies::{lower_copy, MAX_LEAVES};
use super::var_util::*;
use super::{Pass, PassFailure};
use crate::arena::{EntityRef, SecondaryMap};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use smallvec::SmallVec;

/// The pass.
pub struct LowerVarsToSsa;

impl Pass for LowerVarsToSsa {
    fn name(&self) -> &'static str {
        "lower_vars_to_ssa"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let shared = vars_in_several_impls(shader);
        Ok(for_each_impl_mut(shader, |shader, _, func| {
            vars_to_ssa_impl(shader, func, &shared)
        }))
    }
}

/// Variables referenced from more than one function body.
pub fn vars_in_several_impls(shader: &Shader) -> HashSet<VarId> {
    let mut first: HashMap<VarId, FuncId> = HashMap::default();
    let mut out = HashSet::default();
    for (fid, f) in shader.functions.iter() {
        let Some(body) = &f.body else { continue };
        for i in all_instrs(body) {
            if let InstrKind::Deref(Deref {
                kind: DerefKind::Var(v),
                ..
            }) = &body.instrs[i].kind
            {
                match first.get(v) {
                    Some(f0) if *f0 != fid => {
                        out.insert(*v);
                    }
                    Some(_) => {}
                    None => {
                        first.insert(*v, fid);
                    }
                }
            }
        }
    }
    out
}

/// How a load or store of a candidate accesses it.
struct Access {
    instr: Instr,
    slot: usize,
    store: bool,
}

struct Slot {
    var: VarId,
    path: Vec<PathElem>,
    comps: u8,
    bits: u8,
}

/// Candidate variables of `func` after checking every use of their derefs (the use
/// lists are taken only when some local could be a candidate; this reads the
/// function without changing it, so they are kept for the next reader).
fn find_candidates(
    shader: &Shader,
    func: &mut FunctionImpl,
    shared: &HashSet<VarId>,
) -> HashSet<VarId> {
    let cand: HashSet<VarId> = func
        .locals
        .iter()
        .copied()
        .filter(|v| {
            !shared.contains(v)
                && shader
                    .variables
                    .get(*v)
                    .is_some_and(|d| d.mode == VarMode::FunctionTemp)
        })
        .collect();
    if cand.is_empty() {
        return cand;
    }
    let uses = func.take_uses();
    let cand = check_candidates(func, cand, &uses);
    func.keep_uses(uses);
    cand
}

/// The candidates of `cand` whose derefs are all used as [`find_candidates`] allows.
fn check_candidates(func: &FunctionImpl, mut cand: HashSet<VarId>, uses: &Uses) -> HashSet<VarId> {
    let mut bad = HashSet::default();
    let live = live_derefs(func, uses);
    for i in all_instrs(func) {
        let InstrKind::Deref(dr) = &func.instrs[i].kind else {
            continue;
        };
        let Some(def) = func.instrs[i].def else {
            continue;
        };
        if !live[def] {
            continue; // a dead chain left by another lowering
        }
        let Some(var) = root_var(func, def) else {
            continue;
        };
        if !cand.contains(&var) || bad.contains(&var) {
            continue;
        }
        if matches!(dr.kind, DerefKind::Cast { .. }) {
            bad.insert(var);
            continue;
        }
        if let DerefKind::Array { index, parent } = dr.kind {
            let Some(c) = const_u32(func, index) else {
                bad.insert(var);
                continue;
            };
            // A vector component: the index must name one.
            if let Some(n) = deref(func, parent).and_then(|p| match p.ty {
                Type::Vector(_, n) => Some(n),
                _ => None,
            }) {
                if c >= u32::from(n) {
                    bad.insert(var);
                    continue;
                }
            }
        }
        let ty = dr.ty.clone();
        let direct = is_direct_chain(func, def);
        for &user in &uses[def] {
            // A deref branched on (never valid IR) keeps the variable in memory.
            let Use::Instr(u) = user else {
                bad.insert(var);
                break;
            };
            let ok = match &func.instrs[u].kind {
                InstrKind::Deref(child) => match &child.kind {
                    DerefKind::Array { parent, index } => *parent == def && *index != def,
                    DerefKind::ArrayWildcard { .. } | DerefKind::Struct { .. } => true,
                    DerefKind::Cast { .. } | DerefKind::Var(_) => false,
                },
                InstrKind::Intrinsic(intr) => match intr.op {
                    IntrinsicOp::load_deref => {
                        let d = func.instrs[u].def.map(|d| &func.defs[d]);
                        direct
                            && is_leaf(&ty)
                            && Some(intr.num_components) == ty.vector_components()
                            && d.is_some_and(|d| Some(d.bit_size) == ty.bit_size())
                    }
                    IntrinsicOp::store_deref => {
                        intr.srcs.first() == Some(&def)
                            && intr.srcs.get(1) != Some(&def)
                            && direct
                            && is_leaf(&ty)
                            && Some(intr.num_components) == ty.vector_components()
                            && intr
                                .srcs
                                .get(1)
                                .is_some_and(|v| Some(func.defs[*v].bit_size) == ty.bit_size())
                    }
                    IntrinsicOp::copy_deref => true,
                    _ => false,
                },
                _ => false,
            };
            if !ok {
                bad.insert(var);
                break;
            }
        }
    }
    cand.retain(|v| !bad.contains(v));
    cand
}

fn vars_to_ssa_impl(shader: &mut Shader, func: &mut FunctionImpl, shared: &HashSet<VarId>) -> bool {
    let mut progress = false;
    // Copies touching candidates become loads/stores; repeat until none is left.
    let mut failed_copies: HashSet<Instr> = HashSet::default();
    let mut cand;
    let mut rounds = 0;
    loop {
        rounds += 1;
        cand = find_candidates(shader, func, shared);
        if cand.is_empty() {
            return progress;
        }
        // What follows may change the function: the use lists go.
        func.invalidate_uses();
        let mut lowered = false;
        let mut blocked = HashSet::default();
        for i in all_instrs(func) {
            let Some(intr) = intrinsic(func, i) else {
                continue;
            };
            if intr.op != IntrinsicOp::copy_deref || failed_copies.contains(&i) {
                continue;
            }
            let roots: Vec<VarId> = intr
                .srcs
                .iter()
                .filter_map(|d| root_var(func, *d))
                .filter(|v| cand.contains(v))
                .collect();
            if roots.is_empty() {
                continue;
            }
            let indirect = intr.srcs.iter().any(|d| {
                root_var(func, *d).is_some_and(|v| cand.contains(&v))
                    && chain_links(func, *d).is_none_or(|(_, l)| {
                        l.iter()
                            .any(|(e, _)| matches!(e, PathElem::Indirect(_) | PathElem::Cast))
                    })
            });
            if !indirect && lower_copy(shader, func, i, MAX_LEAVES) {
                lowered = true;
                progress = true;
            } else {
                failed_copies.insert(i);
                blocked.extend(roots);
            }
        }
        if !lowered || rounds > 4 {
            cand.retain(|v| !blocked.contains(v));
            // Any remaining copy touching a candidate disqualifies it.
            for i in all_instrs(func) {
                if let Some(intr) = intrinsic(func, i) {
                    if intr.op == IntrinsicOp::copy_deref {
                        for d in intr.srcs.clone() {
                            if let Some(v) = root_var(func, d) {
                                cand.remove(&v);
                            }
                        }
                    }
                }
            }
            break;
        }
    }
    if cand.is_empty() {
        return progress;
    }

    // Slots and accesses.
    let mut slots: Vec<Slot> = Vec::new();
    // Slots by variable and a hash of their path; the paths are compared in `slots`,
    // so looking an access up builds no key (one path buffer for all accesses).
    let mut slot_of: HashMap<(VarId, u64), SmallVec<[usize; 1]>> = HashMap::default();
    let mut accesses: SecondaryMap<Instr, Option<(usize, bool, Option<u8>)>> = SecondaryMap::new();
    let mut list: Vec<Access> = Vec::new();
    let mut path_buf: Vec<PathElem> = Vec::new();
    for i in all_instrs(func) {
        let Some(intr) = intrinsic(func, i) else {
            continue;
        };
        let store = match intr.op {
            IntrinsicOp::load_deref => false,
            IntrinsicOp::store_deref => true,
            _ => continue,
        };
        let Some(&addr) = intr.srcs.first() else {
            continue;
        };
        let Some(var) = deref_path_elems(func, addr, &mut path_buf) else {
            continue;
        };
        if !cand.contains(&var) {
            continue;
        }
        let Some(dr) = deref(func, addr) else {
            continue;
        };
        // A component of a vector (`&t[2]` on a vec4) accesses the vector's value.
        let component_of = match &dr.kind {
            DerefKind::Array { parent, .. } => deref(func, *parent).and_then(|p| match p.ty {
                Type::Vector(b, n) => Some(Type::Vector(b, n)),
                _ => None,
            }),
            _ => None,
        };
        let (value_ty, elems, comp) = match (component_of, path_buf.split_last()) {
            (Some(vt), Some((PathElem::Index(c), head))) => (vt, head, Some(*c as u8)),
            (Some(_), _) => continue,
            (None, _) => (dr.ty.clone(), &path_buf[..], None),
        };
        let (Some(comps), Some(bits)) = (value_ty.vector_components(), value_ty.bit_size()) else {
            continue;
        };
        let same = slot_of.entry((var, path_hash(elems))).or_default();
        let slot = match same
            .iter()
            .copied()
            .find(|&s| slots[s].var == var && slots[s].path == elems)
        {
            Some(s) => s,
            None => {
                slots.push(Slot {
                    var,
                    path: elems.to_vec(),
                    comps,
                    bits,
                });
                same.push(slots.len() - 1);
                slots.len() - 1
            }
        };
        if slots[slot].comps != comps || slots[slot].bits != bits {
            continue;
        }
        accesses[i] = Some((slot, store, comp));
        list.push(Access {
            instr: i,
            slot,
            store,
        });
    }

    // Dominance, dominator tree, frontiers.
    func.compute_dominance();
    let order = func.blocks_in_order();
    let Some(&entry) = order.first() else {
        return progress;
    };
    let idom = func.metadata.idom.clone().unwrap_or_default();
    let reachable = |b: Block| idom[b].is_some();
    let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &b in order.iter().skip(1) {
        if let Some(p) = idom[b] {
            if p != b {
                children[p].push(b);
            }
        }
    }
    let mut df: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &b in &order {
        let preds = func.blocks[b].preds.clone();
        if preds.len() < 2 || !reachable(b) {
            continue;
        }
        let Some(stop) = idom[b] else { continue };
        for p in preds {
            if !reachable(p) {
                continue;
            }
            let mut runner = p;
            let mut guard = 0;
            while runner != stop && guard <= order.len() {
                if !df[runner].contains(&b) {
                    df[runner].push(b);
                }
                match idom[runner] {
                    Some(n) if n != runner => runner = n,
                    _ => break,
                }
                guard += 1;
            }
        }
    }

    // Entry values (initializer or undef), created at the start of the entry block.
    let mut entry_vals: Vec<Option<Def>> = vec![None; slots.len()];
    let mut entry_cursor = Cursor::StartOf(entry);
    let mut entry_instrs: Vec<Instr> = Vec::new();
    let mut entry_value = |func: &mut FunctionImpl, slot: usize| -> Def {
        if let Some(d) = entry_vals[slot] {
            return d;
        }
        let s = &slots[slot];
        let init = shader
            .variables
            .get(s.var)
            .and_then(|v| init_leaf(shader, v, &s.path))
            .filter(|(_, c, b)| *c == s.comps && *b == s.bits);
        let mut b = Builder::new(func, entry_cursor);
        let d = match init {
            Some((values, _, bits)) => b.load_const(bits, values),
            None => b.undef(s.comps, s.bits),
        };
        entry_cursor = b.cursor;
        entry_instrs.push(func.defs[d].instr);
        entry_vals[slot] = Some(d);
        d
    };

    // Phi placement on the iterated dominance frontier of each slot's stores.
    let mut def_blocks: Vec<Vec<Block>> = vec![Vec::new(); slots.len()];
    for a in &list {
        if a.store {
            if let Some(b) = func.instr_block(a.instr) {
                if reachable(b) && !def_blocks[a.slot].contains(&b) {
                    def_blocks[a.slot].push(b);
                }
            }
        }
    }
    let mut block_phis: SecondaryMap<Block, Vec<(usize, Instr)>> = SecondaryMap::new();
    let mut new_phis: Vec<Instr> = Vec::new();
    for (slot, blocks) in def_blocks.iter().enumerate() {
        // No stored block has a frontier (straight-line code, or stores only where
        // every path meets them): no phi, and nothing to allocate.
        if blocks.iter().all(|b| df[*b].is_empty()) {
            continue;
        }
        let mut has_phi: HashSet<Block> = HashSet::default();
        let mut work = blocks.clone();
        let mut queued: HashSet<Block> = blocks.iter().copied().collect();
        while let Some(x) = work.pop() {
            for &y in &df[x] {
                if y == func.end_block || y == entry || !has_phi.insert(y) {
                    continue;
                }
                let ev = entry_value(func, slot);
                let srcs = func.blocks[y].preds.iter().map(|p| (*p, ev)).collect();
                let s = &slots[slot];
                let phi = func.create_instr(InstrKind::Phi(srcs), Some((s.comps, s.bits)));
                let mut b = Builder::new(func, Cursor::StartOf(y));
                b.insert(phi);
                block_phis[y].push((slot, phi));
                new_phis.push(phi);
                if queued.insert(y) {
                    work.push(y);
                }
            }
        }
    }

    // Rename along the dominator tree.
    let mut replace: HashMap<Def, Def> = HashMap::default();
    // The current value of every slot, and an undo log of the values each entered
    // block replaced (restored when the walk leaves the block's dominator subtree):
    // the renaming stacks of the textbook algorithm without one `Vec` per slot.
    let mut current: Vec<Option<Def>> = vec![None; slots.len()];
    let mut undo: Vec<(usize, Option<Def>)> = Vec::new();
    enum Step {
        Enter(Block),
        Exit(usize),
    }
    let mut walk = vec![Step::Enter(entry)];
    let mut removed: Vec<Instr> = Vec::new();
    while let Some(step) = walk.pop() {
        let block = match step {
            Step::Exit(pushed) => {
                for _ in 0..pushed {
                    if let Some((s, old)) = undo.pop() {
                        current[s] = old;
                    }
                }
                continue;
            }
            Step::Enter(b) => b,
        };
        let mut pushed = 0usize;
        for (slot, phi) in block_phis[block].clone() {
            if let Some(d) = func.instrs[phi].def {
                undo.push((slot, current[slot].replace(d)));
                pushed += 1;
            }
        }
        for i in func.block_instrs(block) {
            let Some((slot, store, comp)) = accesses[i] else {
                continue;
            };
            let cur = match current[slot] {
                Some(d) => d,
                None => entry_value(func, slot),
            };
            let Some(intr) = intrinsic(func, i) else {
                continue;
            };
            if store {
                let value = intr.srcs.get(1).copied();
                let mut mask = intr.indices.first().copied().unwrap_or(0);
                let comps = slots[slot].comps;
                let Some(value) = value else { continue };
                // A component store writes that component from the scalar's `.x`.
                if let Some(k) = comp {
                    mask = if mask & 1 != 0 { 1 << k } else { 0 };
                }
                let value_comp = |c: u8| if comp.is_some() { 0 } else { c };
                let full = full_mask(comps);
                let new = if mask & full == full && comp.is_none() {
                    value
                } else if mask & full == 0 {
                    cur
                } else {
                    let op = match comps {
                        1 => Opcode::mov,
                        2 => Opcode::vec2,
                        3 => Opcode::vec3,
                        _ => Opcode::vec4,
                    };
                    let srcs: AluSrcs = (0..comps)
                        .map(|c| {
                            let from_value = mask & (1 << c) != 0;
                            let mut s = AluSrc::new(if from_value { value } else { cur });
                            s.swizzle[0] = if from_value { value_comp(c) } else { c };
                            s
                        })
                        .collect();
                    let mut b = Builder::new(func, Cursor::Before(i));
                    b.alu(op, srcs, comps)
                };
                undo.push((slot, current[slot].replace(new)));
                pushed += 1;
            } else if let Some(d) = func.instrs[i].def {
                let v = match comp {
                    Some(k) => {
                        let mut src = AluSrc::new(cur);
                        src.swizzle[0] = k;
                        let mut b = Builder::new(func, Cursor::Before(i));
                        b.alu(Opcode::mov, [src], 1)
                    }
                    None => cur,
                };
                replace.insert(d, v);
            }
            removed.push(i);
        }
        for succ in func.blocks[block].succs.clone() {
            for (slot, phi) in block_phis[succ].clone() {
                let cur = match current[slot] {
                    Some(d) => d,
                    None => entry_value(func, slot),
                };
                if let InstrKind::Phi(srcs) = &mut func.instrs[phi].kind {
                    for (p, v) in srcs.iter_mut() {
                        if *p == block {
                            *v = cur;
                        }
                    }
                }
            }
        }
        walk.push(Step::Exit(pushed));
        for &c in children[block].iter().rev() {
            walk.push(Step::Enter(c));
        }
    }
    // Unreachable accesses: loads read the entry value, stores vanish.
    for a in &list {
        let reach = func.instr_block(a.instr).is_some_and(&reachable);
        if reach {
            continue;
        }
        if !a.store {
            if let Some(d) = func.instrs[a.instr].def {
                let ev = entry_value(func, a.slot);
                replace.insert(d, ev);
            }
        }
        removed.push(a.instr);
    }
    for i in removed {
        func.remove_instr(i);
    }

    // Resolve replaced loads everywhere.
    let resolve = |mut d: Def| {
        let mut guard = 0;
        while let Some(r) = replace.get(&d) {
            if *r == d || guard > replace.len() {
                break;
            }
            d = *r;
            guard += 1;
        }
        d
    };
    func.for_each_use_mut(|d, _| *d = resolve(*d));

    remove_dead_phis_and_values(func, &new_phis, &entry_instrs);

    // Drop the derefs of promoted variables and the variables themselves.
    let promoted: HashSet<VarId> = cand;
    for i in all_instrs(func).into_iter().rev() {
        if let InstrKind::Deref(_) = &func.instrs[i].kind {
            if let Some(d) = func.instrs[i].def {
                if root_var(func, d).is_some_and(|v| promoted.contains(&v)) {
                    func.remove_instr(i);
                }
            }
        }
    }
    func.locals.retain(|v| !promoted.contains(v));
    true
}

/// The hash of a slot path (the key of the slot table with the variable).
fn path_hash(elems: &[PathElem]) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(elems)
}

/// Removes the phis of `phis` that nothing outside dead phis reads, then the
/// instructions of `values` (entry values) whose def nothing left reads. One walk of
/// the function's uses serves both: a def is read after the removal exactly when an
/// instruction or `if` outside `phis` reads it, or a live phi of `phis` does.
fn remove_dead_phis_and_values(func: &mut FunctionImpl, phis: &[Instr], values: &[Instr]) {
    if phis.is_empty() && values.is_empty() {
        return;
    }
    // Dense flags: which instructions are new phis, which defs are read.
    let mut is_phi: SecondaryMap<Instr, bool> = SecondaryMap::new();
    for &p in phis {
        is_phi[p] = true;
    }
    let mut read: SecondaryMap<Def, bool> = SecondaryMap::new();
    if let Some(last) = func.defs.len().checked_sub(1) {
        read[Def::new(last)] = false;
    }
    let mut live: SecondaryMap<Instr, bool> = SecondaryMap::new();
    let mut work = Vec::new();
    // Roots: every use outside the new phis (if conditions included).
    func.for_each_use(|d, user| {
        if user.instr().is_none_or(|i| !is_phi[i]) {
            read[d] = true;
            let i = func.defs[d].instr;
            if is_phi[i] && !live[i] {
                live[i] = true;
                work.push(i);
            }
        }
    });
    while let Some(i) = work.pop() {
        func.instrs[i].for_each_src(|d| {
            read[d] = true;
            let p = func.defs[d].instr;
            if is_phi[p] && !live[p] {
                live[p] = true;
                work.push(p);
            }
        });
    }
    for &p in phis {
        if !live[p] {
            func.remove_instr(p);
        }
    }
    for &i in values {
        if func.instrs[i].def.is_some_and(|d| !read[d]) {
            func.remove_instr(i);
        }
    }
}
