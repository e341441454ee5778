//! Helpers shared by the variable-lowering passes (vars branch): walking deref chains
//! to their variable, constant array indices, the leaf structure of variable types
//! (vectors and scalars are leaves; arrays, matrices and structs have children),
//! building deref links, unique variable names, and constant initializer words.
//!
//! Everything here is iterative or bounded: deref chains are walked with a step limit
//! and type walks with a depth limit, so hostile input (cyclic parents in a mutated
//! shader, absurd types) cannot overflow the stack or loop forever.

use crate::arena::{EntityRef, SecondaryMap};
use crate::builder::Builder;
use crate::ir::*;

/// Longest deref chain walked before giving up.
pub const MAX_CHAIN: usize = 4096;

/// Deepest type nesting walked.
pub const MAX_TYPE_DEPTH: usize = 64;

/// The deref instruction defining `d`, if `d` is a deref.
pub fn deref(func: &FunctionImpl, d: Def) -> Option<&Deref> {
    let instr = func.defs.get(d)?.instr;
    match &func.instrs.get(instr)?.kind {
        InstrKind::Deref(deref) => Some(deref),
        _ => None,
    }
}

/// The parent of a deref link (`None` for `deref_var`).
pub fn parent(kind: &DerefKind) -> Option<Def> {
    match kind {
        DerefKind::Var(_) => None,
        DerefKind::Array { parent, .. }
        | DerefKind::ArrayWildcard { parent }
        | DerefKind::Struct { parent, .. }
        | DerefKind::Cast { parent, .. } => Some(*parent),
    }
}

/// The constant value of a scalar integer `d` (first component), if it is a
/// `load_const` that fits in `u32`.
pub fn const_u32(func: &FunctionImpl, d: Def) -> Option<u32> {
    let v = *func.const_value(d)?.first()?;
    let bits = func.defs.get(d)?.bit_size;
    // Sign-extend narrower values so negative indices are recognised as such.
    let signed = match bits {
        1 => return None,
        8 => v as u8 as i8 as i64,
        16 => v as u16 as i16 as i64,
        32 => v as u32 as i32 as i64,
        _ => v as i64,
    };
    u32::try_from(signed).ok()
}

/// One step of a deref path, from a variable down to the addressed value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathElem {
    /// Array element (or matrix column) at a constant index.
    Index(u32),
    /// Array element at a non-constant index (the index value).
    Indirect(Def),
    /// Every element (`[*]`).
    Wildcard,
    /// Struct field.
    Field(u32),
    /// A cast (the path is no longer a plain variable access).
    Cast,
}

/// A deref chain resolved to its variable: the variable and the links from it, plus
/// the deref def of every prefix (`defs[0]` is the `deref_var`, `defs[i + 1]` the
/// deref after `elems[i]`).
#[derive(Clone, Debug)]
pub struct DerefPath {
    /// The variable.
    pub var: VarId,
    /// Links from the variable down.
    pub elems: Vec<PathElem>,
    /// The deref def of every prefix.
    pub defs: Vec<Def>,
}

impl DerefPath {
    /// True when every link is a constant index or a struct field.
    pub fn is_direct(&self) -> bool {
        self.elems
            .iter()
            .all(|e| matches!(e, PathElem::Index(_) | PathElem::Field(_)))
    }
    /// True when the path goes through an indirect index.
    pub fn has_indirect(&self) -> bool {
        self.elems
            .iter()
            .any(|e| matches!(e, PathElem::Indirect(_)))
    }
}

/// The links of the deref chain ending at `d`, from the variable down, written into
/// `elems` (cleared first; no allocation when it has room): the variable, or `None`
/// where [`deref_path`] gives `None`. For callers that need the links but not the
/// prefix defs, once per access.
pub fn deref_path_elems(func: &FunctionImpl, d: Def, elems: &mut Vec<PathElem>) -> Option<VarId> {
    elems.clear();
    let mut cur = d;
    for _ in 0..MAX_CHAIN {
        let dr = deref(func, cur)?;
        let DerefKind::Var(v) = &dr.kind else {
            elems.push(path_elem(func, &dr.kind));
            cur = parent(&dr.kind)?;
            continue;
        };
        elems.reverse();
        return Some(*v);
    }
    None
}

/// The path link a non-variable deref adds (a constant array index becomes
/// [`PathElem::Index`]).
fn path_elem(func: &FunctionImpl, kind: &DerefKind) -> PathElem {
    match kind {
        DerefKind::Array { index, .. } => match const_u32(func, *index) {
            Some(i) => PathElem::Index(i),
            None => PathElem::Indirect(*index),
        },
        DerefKind::ArrayWildcard { .. } => PathElem::Wildcard,
        DerefKind::Struct { field, .. } => PathElem::Field(*field),
        DerefKind::Cast { .. } => PathElem::Cast,
        // Callers handle `deref_var` (the chain's root) themselves.
        DerefKind::Var(_) => PathElem::Cast,
    }
}

/// `deref_path(func, d).is_some_and(|p| p.is_direct())` without building the path:
/// the chain reaches a `deref_var` through constant indices and struct fields only.
pub fn is_direct_chain(func: &FunctionImpl, d: Def) -> bool {
    let mut cur = d;
    for _ in 0..MAX_CHAIN {
        let Some(dr) = deref(func, cur) else {
            return false;
        };
        cur = match &dr.kind {
            DerefKind::Var(_) => return true,
            DerefKind::Array { index, parent } if const_u32(func, *index).is_some() => *parent,
            DerefKind::Struct { parent, .. } => *parent,
            _ => return false,
        };
    }
    false
}

/// Resolves the deref chain ending at `d` to its variable. `None` when `d` is not a
/// deref, the chain does not start at a `deref_var` (a cast of a parameter), or it is
/// malformed.
pub fn deref_path(func: &FunctionImpl, d: Def) -> Option<DerefPath> {
    let mut elems = Vec::new();
    let mut defs = vec![d];
    let mut cur = d;
    for _ in 0..MAX_CHAIN {
        let dr = deref(func, cur)?;
        if let DerefKind::Var(v) = &dr.kind {
            elems.reverse();
            defs.reverse();
            return Some(DerefPath {
                var: *v,
                elems,
                defs,
            });
        }
        elems.push(path_elem(func, &dr.kind));
        cur = parent(&dr.kind)?;
        defs.push(cur);
    }
    None
}

/// The variable at the root of the chain ending at `d` (through casts too).
pub fn root_var(func: &FunctionImpl, d: Def) -> Option<VarId> {
    let mut cur = d;
    for _ in 0..MAX_CHAIN {
        let dr = deref(func, cur)?;
        match &dr.kind {
            DerefKind::Var(v) => return Some(*v),
            k => cur = parent(k)?,
        }
    }
    None
}

/// Vectors and scalars: the values loads and stores move.
pub fn is_leaf(ty: &Type) -> bool {
    matches!(ty, Type::Scalar(_) | Type::Vector(..))
}

/// Number of elements of an array (sized) or columns of a matrix.
pub fn array_len(ty: &Type) -> Option<u32> {
    match ty {
        Type::Array(_, n) if *n > 0 => Some(*n),
        Type::Matrix { columns, .. } => Some(u32::from(*columns)),
        _ => None,
    }
}

/// The type of child `elem` of `ty` (index/wildcard/indirect on arrays and matrices,
/// fields on structs).
pub fn child_type(shader: &Shader, ty: &Type, elem: &PathElem) -> Option<Type> {
    match elem {
        PathElem::Index(_) | PathElem::Indirect(_) | PathElem::Wildcard => match ty {
            Type::Array(..) | Type::Matrix { .. } => ty.element(),
            _ => None,
        },
        PathElem::Field(f) => match ty {
            Type::Struct(id) => shader
                .structs
                .get(crate::arena::EntityRef::index(*id))
                .and_then(|s| s.fields.get(*f as usize))
                .map(|(_, t)| t.clone()),
            _ => None,
        },
        PathElem::Cast => None,
    }
}

/// The children of an aggregate type as (link, type); `None` for leaves, unsized
/// arrays and opaque types.
pub fn children(shader: &Shader, ty: &Type) -> Option<Vec<(PathElem, Type)>> {
    match ty {
        Type::Array(..) | Type::Matrix { .. } => {
            let n = array_len(ty)?;
            let e = ty.element()?;
            Some((0..n).map(|i| (PathElem::Index(i), e.clone())).collect())
        }
        Type::Struct(id) => {
            let st = shader.structs.get(crate::arena::EntityRef::index(*id))?;
            Some(
                st.fields
                    .iter()
                    .enumerate()
                    .map(|(i, (_, t))| (PathElem::Field(i as u32), t.clone()))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Number of vector/scalar leaves of `ty`, or `None` when it exceeds `limit`, contains
/// unsized arrays or opaque types, or nests deeper than [`MAX_TYPE_DEPTH`].
pub fn leaf_count(shader: &Shader, ty: &Type, limit: u64) -> Option<u64> {
    fn go(shader: &Shader, ty: &Type, limit: u64, depth: usize) -> Option<u64> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        if is_leaf(ty) {
            return Some(1);
        }
        let n = match ty {
            Type::Array(e, len) if *len > 0 => {
                go(shader, e, limit, depth + 1)?.checked_mul(u64::from(*len))?
            }
            Type::Matrix { columns, .. } => u64::from(*columns),
            Type::Struct(id) => {
                let st = shader.structs.get(crate::arena::EntityRef::index(*id))?;
                let mut sum = 0u64;
                for (_, t) in &st.fields {
                    sum = sum.checked_add(go(shader, t, limit, depth + 1)?)?;
                    if sum > limit {
                        return None;
                    }
                }
                sum
            }
            _ => return None,
        };
        (n <= limit).then_some(n)
    }
    go(shader, ty, limit, 0)
}

/// Number of 32-bit words of a flattened constant of `ty` (the layout of
/// [`Variable::init`]): vectors by component, matrices column by column, arrays and
/// structs element by element. `None` for opaque/unsized types or absurd sizes.
pub fn word_count(shader: &Shader, ty: &Type) -> Option<u64> {
    fn go(shader: &Shader, ty: &Type, depth: usize) -> Option<u64> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        match ty {
            Type::Scalar(_) => Some(1),
            Type::Vector(_, n) => Some(u64::from(*n)),
            Type::Matrix { columns, rows } => Some(u64::from(*columns) * u64::from(*rows)),
            Type::Array(e, n) if *n > 0 => go(shader, e, depth + 1)?.checked_mul(u64::from(*n)),
            Type::Struct(id) => {
                let st = shader.structs.get(crate::arena::EntityRef::index(*id))?;
                let mut sum = 0u64;
                for (_, t) in &st.fields {
                    sum = sum.checked_add(go(shader, t, depth + 1)?)?;
                }
                Some(sum)
            }
            _ => None,
        }
    }
    go(shader, ty, 0)
}

/// The word offset of the leaf at `path` (direct links only) in the flattened
/// constant of `root`, with the leaf type.
pub fn leaf_word_offset(shader: &Shader, root: &Type, path: &[PathElem]) -> Option<(u64, Type)> {
    let mut ty = root.clone();
    let mut off = 0u64;
    for elem in path {
        match elem {
            PathElem::Index(i) => {
                let e = child_type(shader, &ty, elem)?;
                if *i >= array_len(&ty)? {
                    return None;
                }
                off = off.checked_add(word_count(shader, &e)?.checked_mul(u64::from(*i))?)?;
                ty = e;
            }
            PathElem::Field(f) => {
                let Type::Struct(id) = &ty else { return None };
                let st = shader.structs.get(crate::arena::EntityRef::index(*id))?;
                for (_, t) in st.fields.iter().take(*f as usize) {
                    off = off.checked_add(word_count(shader, t)?)?;
                }
                ty = child_type(shader, &ty, elem)?;
            }
            _ => return None,
        }
    }
    Some((off, ty))
}

/// The constant value of the leaf at `path` of a variable's initializer, as
/// (values, components, bit size).
pub fn init_leaf(shader: &Shader, var: &Variable, path: &[PathElem]) -> Option<(Vec<u64>, u8, u8)> {
    let init = var.init.as_ref()?;
    let (off, leaf) = leaf_word_offset(shader, &var.ty, path)?;
    let comps = leaf.vector_components()?;
    let bits = leaf.bit_size()?;
    let start = usize::try_from(off).ok()?;
    let words = init.get(start..start.checked_add(usize::from(comps))?)?;
    let values = words
        .iter()
        .map(|w| {
            if bits == 1 {
                u64::from(*w != 0)
            } else {
                *w & 0xffff_ffff
            }
        })
        .collect();
    Some((values, comps, bits))
}

/// Builds the deref link `elem` on `parent` (a deref of type `parent_ty` and mode
/// `mode`) at the builder's cursor. Constant indices get a 32-bit `load_const`.
pub fn build_link(
    b: &mut Builder,
    shader: &Shader,
    parent: Def,
    mode: VarMode,
    parent_ty: &Type,
    elem: &PathElem,
) -> Option<(Def, Type)> {
    let ty = child_type(shader, parent_ty, elem)?;
    let kind = match elem {
        PathElem::Index(i) => {
            let index = b.load_const(32, vec![u64::from(*i)]);
            DerefKind::Array { parent, index }
        }
        PathElem::Indirect(index) => DerefKind::Array {
            parent,
            index: *index,
        },
        PathElem::Wildcard => DerefKind::ArrayWildcard { parent },
        PathElem::Field(f) => DerefKind::Struct { parent, field: *f },
        PathElem::Cast => return None,
    };
    let d = b.build(
        InstrKind::Deref(Deref {
            kind,
            mode,
            ty: ty.clone(),
        }),
        Some((1, 32)),
    )?;
    Some((d, ty))
}

/// A variable name not used by any global or any local of `func`, based on `base`
/// (the reader resolves variables by name, so names must stay unique).
pub fn unique_name(shader: &Shader, func: &FunctionImpl, base: &str) -> String {
    Names::new(shader, func).fresh(base)
}

/// The names taken by the globals and one function's locals, handing out fresh
/// ones (`base`, then `base_1`, `base_2`, ...) in amortised constant time.
pub struct Names {
    taken: rustc_hash::FxHashSet<String>,
    next: rustc_hash::FxHashMap<String, u32>,
}

impl Names {
    /// The names of the globals and of `func`'s locals.
    pub fn new(shader: &Shader, func: &FunctionImpl) -> Names {
        let taken = shader
            .globals
            .iter()
            .chain(func.locals.iter())
            .filter_map(|v| shader.variables.get(*v).map(|v| v.name.clone()))
            .collect();
        Names {
            taken,
            next: rustc_hash::FxHashMap::default(),
        }
    }
    /// A fresh name based on `base`, recorded as taken.
    pub fn fresh(&mut self, base: &str) -> String {
        let stem = if base.is_empty() { "tmp" } else { base };
        if !base.is_empty() && !self.taken.contains(base) {
            self.taken.insert(base.to_string());
            return base.to_string();
        }
        let n = self.next.entry(stem.to_string()).or_insert(1);
        loop {
            let cand = format!("{stem}_{n}");
            *n += 1;
            if !self.taken.contains(&cand) {
                self.taken.insert(cand.clone());
                return cand;
            }
        }
    }
}

/// Every instruction of the body in program order.
pub fn all_instrs(func: &FunctionImpl) -> Vec<Instr> {
    let mut out = Vec::with_capacity(func.instrs.len());
    for b in func.blocks_in_order() {
        let mut cur = func.blocks[b].first;
        while let Some(i) = cur {
            out.push(i);
            cur = func.instr_next(i);
        }
    }
    out
}

/// The intrinsic of `instr`, if it is one.
pub fn intrinsic(func: &FunctionImpl, instr: Instr) -> Option<&Intrinsic> {
    match &func.instrs.get(instr)?.kind {
        InstrKind::Intrinsic(i) => Some(i),
        _ => None,
    }
}

/// The full write mask for `n` components.
pub fn full_mask(n: u8) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Calls `f` on every function body with mutable access to the rest of the shader
/// (the body is taken out of its function while `f` runs, so `f` sees that function
/// without a body). ORs the progress.
pub fn for_each_impl_mut(
    shader: &mut Shader,
    mut f: impl FnMut(&mut Shader, FuncId, &mut FunctionImpl) -> bool,
) -> bool {
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    let mut progress = false;
    for id in ids {
        let Some(mut body) = shader.functions[id].body.take() else {
            continue;
        };
        progress |= f(shader, id, &mut body);
        shader.functions[id].body = Some(body);
    }
    progress
}

/// The links of the deref chain ending at `d`, from its base down: the base is the
/// `deref_var` or, for chains rooted at a cast, the cast itself. Returns the base def
/// and (link, def after the link) pairs.
pub fn chain_links(func: &FunctionImpl, d: Def) -> Option<(Def, Vec<(PathElem, Def)>)> {
    let mut links = Vec::new();
    let mut cur = d;
    for _ in 0..MAX_CHAIN {
        let dr = deref(func, cur)?;
        let elem = match &dr.kind {
            DerefKind::Var(_) | DerefKind::Cast { .. } => {
                links.reverse();
                return Some((cur, links));
            }
            DerefKind::Array { index, .. } => match const_u32(func, *index) {
                Some(i) => PathElem::Index(i),
                None => PathElem::Indirect(*index),
            },
            DerefKind::ArrayWildcard { .. } => PathElem::Wildcard,
            DerefKind::Struct { field, .. } => PathElem::Field(*field),
        };
        links.push((elem, cur));
        cur = parent(&dr.kind)?;
    }
    None
}

/// Derefs that lead to a non-deref use (directly or through longer chains), so dead
/// deref chains left behind by other lowerings can be ignored.
pub fn live_derefs(func: &FunctionImpl, uses: &Uses) -> SecondaryMap<Def, bool> {
    // A dense table: one flag per def, no hashing.
    let mut live = SecondaryMap::new();
    if let Some(last) = func.defs.len().checked_sub(1) {
        live[Def::new(last)] = false;
    }
    // Children follow their parents in program order (defs dominate uses), so a
    // reverse walk sees every child before its parent.
    for i in all_instrs(func).into_iter().rev() {
        if !matches!(func.instrs[i].kind, InstrKind::Deref(_)) {
            continue;
        }
        let Some(d) = func.instrs[i].def else {
            continue;
        };
        // An if condition is a non-deref use.
        let is_live = uses[d].iter().any(|u| match u {
            Use::If(_) => true,
            Use::Instr(u) => match &func.instrs[*u].kind {
                InstrKind::Deref(_) => func.instrs[*u].def.is_some_and(|c| live[c]),
                _ => true,
            },
        });
        if is_live {
            live[d] = true;
        }
    }
    live
}

/// Removes every deref that leads to no non-deref use (the chains a lowering left
/// behind; Mesa removes them with `nir_deref_instr_remove_if_unused`). Returns true
/// when something was removed.
pub fn remove_dead_derefs(func: &mut FunctionImpl) -> bool {
    remove_dead_derefs_where(func, |_| true)
}

/// [`remove_dead_derefs`] for the derefs whose mode satisfies `mode` only
/// (Mesa's `nir_remove_dead_derefs` with a mode mask).
pub fn remove_dead_derefs_where(func: &mut FunctionImpl, mode: impl Fn(VarMode) -> bool) -> bool {
    // A deref is dead when every use is a dead deref: count the uses once, then
    // walk in reverse program order (a deref's deref users follow it, since defs
    // dominate uses, so they are decided first) and take a removed deref's reads
    // off the counts. Same set as repeated removal with `live_derefs` leaves,
    // without building use lists.
    let mut count: SecondaryMap<Def, u32> = SecondaryMap::new();
    if let Some(last) = func.defs.len().checked_sub(1) {
        count[Def::new(last)] = 0;
    }
    func.for_each_use(|d, _| count[d] += 1);
    let mut removed = false;
    for i in all_instrs(func).into_iter().rev() {
        let InstrKind::Deref(deref) = &func.instrs[i].kind else {
            continue;
        };
        if !mode(deref.mode) {
            continue;
        }
        if let Some(d) = func.instrs[i].def {
            if count[d] == 0 {
                func.instrs[i].for_each_src(|s| {
                    let c = &mut count[s];
                    *c = c.saturating_sub(1);
                });
                func.remove_instr(i);
                removed = true;
            }
        }
    }
    removed
}

/// After the tail of block `from` moved into block `to` (a split), phis in the
/// successors of `to` that name `from` as predecessor name `to` instead.
pub fn rename_phi_preds_after_split(func: &mut FunctionImpl, from: Block, to: Block) {
    if from == to {
        return;
    }
    for succ in func.blocks[to].succs.clone() {
        for i in func.block_instrs(succ) {
            match &mut func.instrs[i].kind {
                InstrKind::Phi(srcs) => {
                    for (b, _) in srcs.iter_mut() {
                        if *b == from {
                            *b = to;
                        }
                    }
                }
                _ => break,
            }
        }
    }
}

/// True when every source (and if condition) of `func` is defined by an instruction
/// that dominates it: earlier in the same block or in a dominating block. Phi sources
/// are checked at the end of their predecessor.
pub fn defs_dominate_uses(func: &mut FunctionImpl) -> bool {
    func.compute_dominance();
    let mut pos: crate::arena::SecondaryMap<Instr, u32> = crate::arena::SecondaryMap::new();
    for b in func.blocks_in_order() {
        for (k, i) in func.block_instrs(b).into_iter().enumerate() {
            pos[i] = k as u32;
        }
    }
    let ok = |func: &FunctionImpl, d: Def, block: Block, at: Option<u32>| {
        let Some(di) = func.defs.get(d).map(|x| x.instr) else {
            return false;
        };
        let Some(db) = func.instr_block(di) else {
            return false;
        };
        if db == block {
            at.is_none_or(|p| pos[di] < p)
        } else {
            func.dominates(db, block)
        }
    };
    for b in func.blocks_in_order() {
        for i in func.block_instrs(b) {
            let mut good = true;
            match &func.instrs[i].kind {
                InstrKind::Phi(srcs) => {
                    for (p, d) in srcs {
                        good &= ok(func, *d, *p, None);
                    }
                }
                _ => func.instrs[i].for_each_src(|d| good &= ok(func, d, b, Some(pos[i]))),
            }
            if !good {
                return false;
            }
        }
    }
    for (node, cond) in func.if_conditions() {
        let before = func.cf_prev(node).and_then(|p| func.cf_block(p));
        if let Some(pb) = before {
            if !ok(func, cond, pb, None) {
                return false;
            }
        }
    }
    true
}
