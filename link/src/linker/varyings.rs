//! Interstage varyings (Mesa's `cross_validate_outputs_to_inputs` and
//! `assign_varying_locations`, `link_varyings.cpp`): producer outputs are matched to
//! consumer inputs (explicit location, interface block name, variable name), their
//! types and qualifiers cross-validated, user varyings packed into
//! `VARYING_SLOT_VAR0…` with `location_frac`, and unmatched ones demoted to plain
//! globals (outputs nobody reads; inputs nobody writes, which then read an
//! undefined value).
//!
//! Packing follows Mesa's `varying_matches`: explicit locations are reserved first,
//! the rest sorted by packing class (interpolation | centroid, taken from the
//! consumer, forced flat when the consumer is not the fragment shader) and packing
//! order (vec4-like, vec2, scalar, vec3), then assigned with a component cursor.
//! Unlike Mesa there is no `lower_packed_varyings`: a scalar or vector may share a
//! slot with others of its class but never straddles two slots, and arrays,
//! matrices, structs and blocks take whole slots with `location_frac` 0, so every
//! variable keeps a single (location, frac) pair.

use std::collections::HashMap;

use rgl_glsl::arena::Handle;
use rgl_glsl::ast::Interpolation;
use rgl_glsl::hir::{Module, VarMode, Variable};
use rgl_glsl::types::Type;
use rgl_glsl::{Stage, Version};
use rgl_nir::ir::names::{VARYING_SLOT_VAR0, VARYING_SLOT_VAR_COUNT};

use super::types::{type_name, types_match, without_array, StructSizes};
use super::usage::globals;
use super::StageState;
use crate::error::LinkError;
use crate::program::VarLink;

const MAX_SLOTS: u32 = VARYING_SLOT_VAR_COUNT as u32;

/// Matches, validates, places and prunes the varyings of every adjacent pair.
pub(crate) fn link_varyings(
    stages: &mut [StageState],
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) {
    // Built-in varyings keep their fixed slots everywhere.
    for (i, st) in stages.iter_mut().enumerate() {
        let stage = st.linked.stage;
        for v in globals(&st.linked.hir) {
            let var = &st.linked.hir.variables[v];
            let is_varying = match var.mode {
                VarMode::ShaderOut => stage != Stage::Fragment,
                VarMode::ShaderIn => stage != Stage::Vertex,
                _ => false,
            };
            if is_varying && var.is_builtin {
                st.linked.vars.insert(
                    v,
                    VarLink {
                        location: var.location.unwrap_or(-1),
                        ..VarLink::default()
                    },
                );
            }
        }
        let _ = i;
    }
    // Inputs of the first stage (other than VS attributes) and outputs of the last
    // non-fragment stage have no partner: demote them.
    if let Some(first) = stages.first_mut() {
        if first.linked.stage != Stage::Vertex {
            let stage = first.linked.stage;
            for v in user_vars(&first.linked.hir, VarMode::ShaderIn) {
                report_unwritten(first, v, None, stage, version, errors, warnings);
                demote(&mut first.linked.hir, v);
            }
        }
    }
    if let Some(last) = stages.last_mut() {
        if last.linked.stage != Stage::Fragment {
            for v in user_vars(&last.linked.hir, VarMode::ShaderOut) {
                demote(&mut last.linked.hir, v);
            }
        }
    }
    // Pairs, from the last backwards like Mesa.
    for i in (1..stages.len()).rev() {
        let (left, right) = stages.split_at_mut(i);
        let producer = &mut left[i - 1];
        let consumer = &mut right[0];
        let (errors_before, warnings_before) = (errors.len(), warnings.len());
        let first = link_pair(
            producer,
            consumer,
            version,
            errors,
            warnings,
            Packing::Slots,
        );
        if let PairResult::OutOfSlots(split) = first {
            // Whole-slot placement ran out of slots: split the aggregates into
            // scalars and vectors and pack those component by component. The
            // first attempt changed nothing but its diagnostics, which the
            // second attempt reports again.
            errors.truncate(errors_before);
            warnings.truncate(warnings_before);
            super::split_varyings::split(producer, consumer, &split);
            link_pair(
                producer,
                consumer,
                version,
                errors,
                warnings,
                Packing::Components,
            );
        }
    }
}

/// How [`link_pair`] places the varyings without explicit locations.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Packing {
    /// Mesa's order with a component cursor: scalars and vectors of one class
    /// share slots, aggregates take whole slots.
    Slots,
    /// After [`super::split_varyings`]: first fit, component by component, so
    /// that scalars fill the slots vec3s and vec2s leave partly empty.
    Components,
}

/// A placed pair: (output, input, their location).
type PairLink = (Handle<Variable>, Handle<Variable>, VarLink);

/// The outcome of [`link_pair`].
enum PairResult {
    /// Placed (or failed with its errors reported).
    Linked,
    /// [`Packing::Slots`] ran out of slots with nothing else wrong; nothing was
    /// changed. The (output, input) aggregates that splitting would pack.
    OutOfSlots(Vec<(Handle<Variable>, Handle<Variable>)>),
}

/// User (non-built-in) variables of a mode, in declaration order.
fn user_vars(module: &Module, mode: VarMode) -> Vec<Handle<Variable>> {
    globals(module)
        .into_iter()
        .filter(|v| {
            let var = &module.variables[*v];
            var.mode == mode && !var.is_builtin
        })
        .collect()
}

fn demote(module: &mut Module, v: Handle<Variable>) {
    let var = &mut module.variables[v];
    var.mode = VarMode::Auto;
    var.read_only = false;
}

/// The key an input/output is matched by: the block name for block instances,
/// `Block.member` for members of unnamed blocks, else the variable name.
fn match_key(module: &Module, var: &Variable) -> String {
    if let Some(b) = var.interface_block {
        let block = module.structs.get(b).map(|s| s.name.as_str()).unwrap_or("");
        if matches!(without_array(&var.ty), Type::Struct(h) if *h == b) {
            return format!("block {block}");
        }
        return format!("{block}.{}", var.name);
    }
    var.name.clone()
}

fn interp_word(i: Option<Interpolation>) -> &'static str {
    match i {
        None => "no",
        Some(Interpolation::Smooth) => "smooth",
        Some(Interpolation::Flat) => "flat",
        Some(Interpolation::NoPerspective) => "noperspective",
    }
}

fn has(b: bool) -> &'static str {
    if b {
        "has"
    } else {
        "lacks"
    }
}

#[allow(clippy::too_many_arguments)]
fn report_unwritten(
    consumer: &StageState,
    v: Handle<Variable>,
    producer: Option<Stage>,
    stage: Stage,
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) {
    if !consumer.usage.read.contains(&v) {
        return;
    }
    let var = &consumer.linked.hir.variables[v];
    let Some(producer) = producer else {
        return;
    };
    if version.is_es() && version.number >= 300 {
        if var.location.is_some() {
            errors.push(LinkError::NoMatchingExplicitOutput {
                consumer: stage.name(),
                name: var.name.clone(),
            });
        } else {
            errors.push(LinkError::NoMatchingOutput {
                consumer: stage.name(),
                name: var.name.clone(),
            });
        }
    } else if !version.is_es() && version.number <= 120 {
        errors.push(LinkError::VaryingNotWritten {
            consumer: stage.name(),
            name: var.name.clone(),
            producer: producer.name(),
        });
    } else {
        warnings.push(format!(
            "{} shader varying {} not written by {} shader.",
            stage.name(),
            var.name,
            producer.name()
        ));
    }
}

struct Pair {
    out: Handle<Variable>,
    inp: Handle<Variable>,
    class: u32,
    order: u32,
    /// Components (packable scalars/vectors) or whole slots × 4.
    size: u32,
    whole: bool,
    index: usize,
}

fn link_pair(
    producer: &mut StageState,
    consumer: &mut StageState,
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
    packing: Packing,
) -> PairResult {
    let errors_before = errors.len();
    let pstage = producer.linked.stage;
    let cstage = consumer.linked.stage;
    let arrayed_input = cstage == Stage::Geometry;
    let pm = &producer.linked.hir;
    let cm = &consumer.linked.hir;
    let psizes = StructSizes::new(&pm.structs);

    // Every declared output by key and by location (validation sees them all, like
    // Mesa's cross-validation before dead-variable removal).
    let mut by_key: HashMap<String, Handle<Variable>> = HashMap::new();
    // Keyed by (location, component): outputs sharing a location on distinct
    // components are distinct varyings (GLSL 4.40 §4.4.1).
    let mut by_loc: HashMap<(i32, u32), Handle<Variable>> = HashMap::new();
    let outputs = user_vars(pm, VarMode::ShaderOut);
    for &o in &outputs {
        let var = &pm.variables[o];
        if let (Some(l), None) = (var.location, var.interface_block) {
            by_loc.entry((l, var.component.unwrap_or(0))).or_insert(o);
        }
        by_key.entry(match_key(pm, var)).or_insert(o);
    }
    check_explicit_aliasing(pm, &outputs, pstage, "out", &psizes, false, errors);
    let inputs = user_vars(cm, VarMode::ShaderIn);
    let csizes = StructSizes::new(&cm.structs);
    check_explicit_aliasing(cm, &inputs, cstage, "in", &csizes, arrayed_input, errors);

    let mut pairs: Vec<Pair> = Vec::new();
    let mut unmatched_inputs = Vec::new();
    let mut matched_outputs = Vec::new();
    for &inp in &inputs {
        let ivar = &cm.variables[inp];
        let found = match (ivar.location, ivar.interface_block) {
            (Some(l), None) => by_loc.get(&(l, ivar.component.unwrap_or(0))).copied(),
            _ => by_key.get(&match_key(cm, ivar)).copied(),
        };
        let Some(out) = found else {
            report_unwritten(
                consumer,
                inp,
                Some(pstage),
                cstage,
                version,
                errors,
                warnings,
            );
            unmatched_inputs.push(inp);
            continue;
        };
        let ovar = &pm.variables[out];
        let in_ty = if arrayed_input {
            match &ivar.ty {
                Type::Array(e, _) => (**e).clone(),
                other => other.clone(),
            }
        } else {
            ivar.ty.clone()
        };
        if !types_match(&ovar.ty, &pm.structs, &in_ty, &cm.structs) {
            if ovar.interface_block.is_some() {
                let block = ovar
                    .interface_block
                    .and_then(|b| pm.structs.get(b))
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                errors.push(LinkError::InterfaceBlockMismatch(block));
            } else {
                errors.push(LinkError::VaryingTypeMismatch {
                    producer: pstage.name(),
                    name: ovar.name.clone(),
                    out_ty: type_name(&ovar.ty, &pm.structs),
                    consumer: cstage.name(),
                    in_ty: type_name(&ivar.ty, &cm.structs),
                });
            }
            continue;
        }
        let invariant_rule = if version.is_es() {
            version.number < 300
        } else {
            version.number < 430
        };
        if invariant_rule && ovar.invariant != ivar.invariant {
            errors.push(LinkError::InvariantMismatch {
                producer: pstage.name(),
                name: ovar.name.clone(),
                out_has: has(ovar.invariant),
                consumer: cstage.name(),
                in_has: has(ivar.invariant),
            });
            continue;
        }
        let norm = |i: Option<Interpolation>| {
            if version.is_es() {
                Some(i.unwrap_or(Interpolation::Smooth))
            } else {
                i
            }
        };
        if norm(ovar.interpolation) != norm(ivar.interpolation) && version.number < 440 {
            errors.push(LinkError::InterpolationMismatch {
                producer: pstage.name(),
                name: ovar.name.clone(),
                out_interp: interp_word(ovar.interpolation),
                consumer: cstage.name(),
                in_interp: interp_word(ivar.interpolation),
            });
            continue;
        }
        if !consumer.usage.referenced(inp) {
            unmatched_inputs.push(inp);
            continue;
        }
        if !producer.usage.referenced(out) {
            report_unwritten(
                consumer,
                inp,
                Some(pstage),
                cstage,
                version,
                errors,
                warnings,
            );
            unmatched_inputs.push(inp);
            continue;
        }
        matched_outputs.push(out);
        // Packing class from the consumer; forced flat unless it is the FS.
        let flat = cstage != Stage::Fragment
            || ivar.interpolation == Some(Interpolation::Flat)
            || contains_integer(&ovar.ty, pm);
        let interp = if flat {
            1
        } else {
            match ivar.interpolation {
                Some(Interpolation::NoPerspective) => 2,
                _ => 0,
            }
        };
        let centroid = u32::from(ivar.centroid && cstage == Stage::Fragment);
        let class = interp | centroid << 3;
        let (size, whole) = match &ovar.ty {
            Type::Scalar(_) | Type::Vector(..) => (ovar.ty.vector_elements() as u32, false),
            other => {
                let slots = psizes.io_slots_of(other).min(u32::MAX as u64 / 4) as u32;
                (slots.saturating_mul(4), true)
            }
        };
        let comps = psizes.components_of(without_array(&ovar.ty)) % 4;
        let order = match comps {
            0 => 0,
            2 => 1,
            1 => 2,
            _ => 3,
        };
        pairs.push(Pair {
            out,
            inp,
            class,
            order,
            size,
            whole,
            index: pairs.len(),
        });
    }

    // Reserve explicit locations (either side).
    let mut reserved = vec![false; MAX_SLOTS as usize];
    let mut explicit: Vec<usize> = Vec::new();
    for (n, p) in pairs.iter().enumerate() {
        let ovar = &pm.variables[p.out];
        let ivar = &cm.variables[p.inp];
        let loc = if ovar.interface_block.is_none() {
            ovar.location.or(ivar.location)
        } else {
            None
        };
        if let Some(l) = loc {
            let slots = (p.size.div_ceil(4)).max(1);
            if l < 0 || l as i64 + slots as i64 > MAX_SLOTS as i64 {
                errors.push(LinkError::InvalidVaryingLocation(l, pstage.name()));
                continue;
            }
            for s in l as u32..l as u32 + slots {
                reserved[s as usize] = true;
            }
            explicit.push(n);
        }
    }
    let mut links: Vec<(Handle<Variable>, Handle<Variable>, VarLink)> = Vec::new();
    for &n in &explicit {
        let p = &pairs[n];
        let ovar = &pm.variables[p.out];
        let ivar = &cm.variables[p.inp];
        let l = ovar.location.or(ivar.location).unwrap_or(0);
        // GLSL 4.40 §4.4.1: `layout(component = N)` starts the varying (each
        // element of an array) at component N of its location; the aliasing
        // check above keeps the components of one location apart.
        let frac = ovar.component.or(ivar.component).unwrap_or(0).min(3) as u8;
        links.push((
            p.out,
            p.inp,
            VarLink {
                location: VARYING_SLOT_VAR0 + l,
                location_frac: frac,
                ..VarLink::default()
            },
        ));
    }
    let mut rest: Vec<&Pair> = pairs
        .iter()
        .enumerate()
        .filter(|(n, _)| !explicit.contains(n))
        .map(|(_, p)| p)
        .collect();
    if packing == Packing::Components {
        match place_first_fit(&rest, &mut reserved) {
            Ok(placed) => links.extend(placed),
            Err(p) => errors.push(LinkError::NoVaryingLocation(pm.variables[p].name.clone())),
        }
        rest.clear();
    }
    rest.sort_by_key(|p| (p.class, p.order, p.index));
    let limit = MAX_SLOTS as u64 * 4;
    let mut cursor: u64 = 0;
    let mut prev_class = None;
    for p in rest {
        if prev_class != Some(p.class) || p.whole {
            cursor = cursor.next_multiple_of(4);
        }
        let size = p.size as u64;
        if !p.whole && cursor % 4 + size > 4 {
            cursor = cursor.next_multiple_of(4);
        }
        let placed = loop {
            if cursor + size > limit {
                break false;
            }
            let first = cursor / 4;
            let last = (cursor + size.max(1) - 1) / 4;
            match (first..=last).find(|s| reserved[*s as usize]) {
                Some(s) => cursor = (s + 1) * 4,
                None => break true,
            }
        };
        if !placed {
            let splittable: Vec<_> = pairs
                .iter()
                .enumerate()
                .filter(|(n, q)| q.whole && !explicit.contains(n))
                .map(|(_, q)| (q.out, q.inp))
                .collect();
            if errors.len() == errors_before && !splittable.is_empty() {
                return PairResult::OutOfSlots(splittable);
            }
            errors.push(LinkError::NoVaryingLocation(
                pm.variables[p.out].name.clone(),
            ));
            break;
        }
        links.push((
            p.out,
            p.inp,
            VarLink {
                location: VARYING_SLOT_VAR0 + (cursor / 4) as i32,
                location_frac: (cursor % 4) as u8,
                ..VarLink::default()
            },
        ));
        cursor += size;
        prev_class = Some(p.class);
    }
    for (o, i, link) in links {
        producer.linked.vars.insert(o, link);
        consumer.linked.vars.insert(i, link);
    }
    // Dead varyings: outputs nobody consumes and inputs nobody produces.
    for o in outputs {
        if !matched_outputs.contains(&o) {
            demote(&mut producer.linked.hir, o);
        }
    }
    for i in unmatched_inputs {
        demote(&mut consumer.linked.hir, i);
    }
    PairResult::Linked
}

/// [`Packing::Components`] placement: aggregates (blocks, whatever was not
/// split) first, each in the first run of free whole slots; then scalars and
/// vectors, widest first, each in the first slot of its packing class (or an
/// empty one) with enough free components in a row. A vector never straddles
/// two slots. Returns the links, or the output that did not fit.
fn place_first_fit(
    pairs: &[&Pair],
    reserved: &mut [bool],
) -> Result<Vec<PairLink>, Handle<Variable>> {
    let slots = reserved.len();
    let mut used: Vec<u8> = reserved.iter().map(|&r| if r { 0xf } else { 0 }).collect();
    let mut class: Vec<Option<u32>> = vec![None; slots];
    let mut order: Vec<&&Pair> = pairs.iter().collect();
    order.sort_by_key(|p| (!p.whole, std::cmp::Reverse(p.size), p.class, p.index));
    let mut links = Vec::with_capacity(order.len());
    for p in order {
        let (slot, frac) = if p.whole {
            let n = (p.size.div_ceil(4)).max(1) as usize;
            let start = (0..slots.saturating_sub(n - 1))
                .find(|&s| used[s..s + n].iter().all(|&u| u == 0))
                .ok_or(p.out)?;
            for s in start..start + n {
                used[s] = 0xf;
                class[s] = Some(p.class);
            }
            (start, 0)
        } else {
            let width = p.size.clamp(1, 4) as u8;
            let bits = (1u8 << width) - 1;
            (0..slots)
                .filter(|&s| class[s].is_none_or(|c| c == p.class))
                .find_map(|s| {
                    (0..=4 - width)
                        .find(|&f| used[s] & (bits << f) == 0)
                        .map(|f| (s, f))
                })
                .map(|(s, f)| {
                    used[s] |= bits << f;
                    class[s] = Some(p.class);
                    (s, f)
                })
                .ok_or(p.out)?
        };
        links.push((
            p.out,
            p.inp,
            VarLink {
                location: VARYING_SLOT_VAR0 + slot as i32,
                location_frac: frac,
                ..VarLink::default()
            },
        ));
    }
    Ok(links)
}

fn contains_integer(ty: &Type, module: &Module) -> bool {
    let mut work = vec![ty.clone()];
    let mut steps = 0usize;
    while let Some(t) = work.pop() {
        steps += 1;
        if steps > 100_000 {
            return false;
        }
        match &t {
            Type::Scalar(k) | Type::Vector(k, _) if k.is_integer() => return true,
            Type::Array(e, _) => work.push((**e).clone()),
            Type::Struct(h) => {
                if let Some(s) = module.structs.get(*h) {
                    work.extend(s.fields.iter().map(|f| f.ty.clone()));
                }
            }
            _ => {}
        }
    }
    false
}

/// Interpolation and `centroid` of a varying, which aliases must share.
type AliasQual = (Option<Interpolation>, bool);

/// Two explicit-location user varyings of one interface may not overlap
/// (GLSL 4.40 §4.4.1 "component aliasing"; Mesa's `check_location_aliasing`).
/// Interface block members count too: a member takes its own `location` or
/// the one after the previous member's slots, starting at the block's
/// location ("Subsequent members are again assigned consecutive locations,
/// based on the newest location").
fn check_explicit_aliasing(
    module: &Module,
    vars: &[Handle<Variable>],
    stage: Stage,
    dir: &'static str,
    sizes: &StructSizes,
    arrayed: bool,
    errors: &mut Vec<LinkError>,
) {
    let strip = |ty: &Type| match (ty, arrayed) {
        (Type::Array(e, _), true) => (**e).clone(),
        (t, _) => t.clone(),
    };
    // (first location, type, first component, interpolation) of every
    // explicitly placed varying or block member.
    let mut placed: Vec<(i64, Type, u32, AliasQual)> = Vec::new();
    let mut blocks_seen = Vec::new();
    for &v in vars {
        let var = &module.variables[v];
        let qual = (var.interpolation, var.centroid);
        let Some(b) = var.interface_block else {
            if let Some(l) = var.location {
                placed.push((l as i64, strip(&var.ty), var.component.unwrap_or(0), qual));
            }
            continue;
        };
        if blocks_seen.contains(&b) {
            continue;
        }
        blocks_seen.push(b);
        let Some(body) = module.structs.get(b) else {
            continue;
        };
        let instance = strip(&var.ty);
        let named = matches!(without_array(&instance), Type::Struct(h) if *h == b);
        // The block's own location: the instance's for a named block; for an
        // unnamed one, the location the checker gave a member without its own.
        let block_loc = if named {
            var.location
        } else {
            vars.iter()
                .map(|&m| &module.variables[m])
                .filter(|m| m.interface_block == Some(b))
                .find(|m| {
                    body.fields
                        .iter()
                        .any(|f| f.name == m.name && f.qualifiers.location.is_none())
                })
                .and_then(|m| m.location)
        };
        let elements = match &instance {
            Type::Array(_, n) if named => n.unwrap_or(1) as i64,
            _ => 1,
        };
        let mut cursor = block_loc.map(i64::from);
        let mut members = Vec::new();
        for f in &body.fields {
            let Some(l) = f.qualifiers.location.map(i64::from).or(cursor) else {
                cursor = None;
                continue;
            };
            let q = &f.qualifiers;
            let fq = (q.interpolation.or(qual.0), q.centroid || qual.1);
            members.push((l, f.ty.clone(), q.component.unwrap_or(0), fq));
            cursor = Some(l + sizes.io_slots_of(&f.ty).max(1) as i64);
        }
        // Elements of a block array follow one another (GLSL 4.40 §4.4.1).
        let block_slots = sizes.io_slots_of(&Type::Struct(b)).max(1) as i64;
        for e in 0..elements.clamp(1, MAX_SLOTS as i64) {
            for (l, ty, c, q) in &members {
                placed.push((l + e * block_slots, ty.clone(), *c, *q));
            }
        }
    }
    // Per slot: the components taken, and the numerical class and
    // interpolation of whatever took the first of them.
    let mut grid = vec![[false; 4]; MAX_SLOTS as usize];
    let mut kinds: Vec<Option<(bool, AliasQual)>> = vec![None; MAX_SLOTS as usize];
    for (l, ty, first, qual) in placed {
        // An array of scalars or vectors takes the same components of each
        // of its slots.
        let slots = sizes.io_slots_of(&ty).max(1);
        let comps = match without_array(&ty) {
            elem @ (Type::Scalar(_) | Type::Vector(..)) => elem.vector_elements() as u32,
            _ => 4,
        };
        if l < 0 || l as u64 + slots > MAX_SLOTS as u64 {
            continue;
        }
        let integer = is_integer(without_array(&ty));
        let comps = (first as usize)..((first + comps).min(4) as usize);
        for s in l as u64..l as u64 + slots {
            let su = s as usize;
            match kinds[su] {
                Some((int, q)) if int != integer || q != qual => {
                    errors.push(LinkError::VaryingAliasMismatch {
                        stage: stage.name(),
                        dir,
                        location: s as u32,
                        what: if int != integer {
                            "numerical type"
                        } else {
                            "interpolation"
                        },
                    });
                    return;
                }
                Some(_) => {}
                None => kinds[su] = Some((integer, qual)),
            }
            for c in comps.clone() {
                let cell = &mut grid[su][c];
                if *cell {
                    errors.push(LinkError::VaryingLocationAliasing {
                        stage: stage.name(),
                        dir,
                        location: s as u32,
                        component: c as u32,
                    });
                    return;
                }
                *cell = true;
            }
        }
    }
}

/// An integer (or boolean) scalar or vector: a different "underlying
/// numerical type" from a float one when two varyings alias a location.
pub(super) fn is_integer(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Scalar(k) | Type::Vector(k, _) if *k != rgl_glsl::types::ScalarKind::Float
    )
}
