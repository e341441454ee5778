//! `compact_varyings` (Mesa's `nir_compact_varyings` with
//! `default_to_smooth_interp`): re-packs the user varyings of a producer/consumer pair
//! into the fewest `VARYING_SLOT_VAR*` slots, updating `location` and `location_frac`
//! of both sides consistently.
//!
//! * A *movable* varying is a scalar or vector user output together with the consumer
//!   input(s) at the same location and component, of the same (per-vertex) type.
//!   Everything else at a user location — arrays, matrices, structs, outputs nobody
//!   reads, inputs nobody writes, partial overlaps — stays where it is and keeps its
//!   components reserved.
//! * Varyings are grouped by interpolation class, as Mesa does: integer types are flat;
//!   float types use the consumer input's mode (`NONE` counts as smooth) and its
//!   location (center, centroid, sample). A slot never mixes classes, so flat and
//!   smooth values are never packed together and interpolation is kept.
//! * Placement is first fit, largest varyings first within a class (classes in order,
//!   then original location), each varying taking consecutive components of one slot.
//!   Mesa packs only scalars (it scalarises IO first); packing vectors whole gives the
//!   same slot count for GLSL's vec2/vec3 + float mixes without splitting values.
//! * When anything moved, the driver locations of both sides' IO variables are reset
//!   to 0 so that `lower_io` assigns them afresh from the new locations (as Mesa's
//!   `nir_assign_io_var_locations` does after compaction).

use super::*;
use crate::ir::names::{VARYING_SLOT_VAR0, VARYING_SLOT_VAR_COUNT};
use rustc_hash::FxHashMap as HashMap;

/// Interpolation class: (mode, location) — location 0 center, 1 centroid, 2 sample.
type Class = (u8, u8);

fn base_of(ty: &Type) -> Option<BaseType> {
    match ty {
        Type::Scalar(b) | Type::Vector(b, _) => Some(*b),
        _ => None,
    }
}

fn class_of(var: &Variable, ty: &Type) -> Class {
    let mode = match base_of(ty) {
        Some(BaseType::Float) | None => match var.interp {
            Interp::Flat => 2,
            Interp::NoPerspective => 3,
            Interp::None | Interp::Smooth => 1,
        },
        Some(_) => 2,
    };
    let loc = if var.sample {
        2
    } else if var.centroid {
        1
    } else {
        0
    };
    (mode, loc)
}

struct Item {
    outs: Vec<VarId>,
    ins: Vec<VarId>,
    comps: u8,
    class: Class,
    location: i32,
    frac: u8,
}

#[derive(Clone, Default)]
struct Slot {
    used: [bool; 4],
    class: Option<Class>,
}

/// (slots, first component, components) occupied by an IO variable.
fn footprint(stage: Stage, var: &Variable, structs: &[StructDef]) -> (u32, u8, u8) {
    let ty = io_type(stage, var);
    let slots = ty.type_size_vec4(structs).unwrap_or(1).clamp(1, 64);
    let mut base = &ty;
    while let Type::Array(e, _) = base {
        base = e;
    }
    let comps = match base {
        Type::Scalar(_) | Type::Vector(..) => base.vector_components().unwrap_or(4),
        Type::Matrix { rows, .. } => *rows,
        _ => 4,
    };
    let frac = var.location_frac.min(3);
    (slots, frac, comps.min(4 - frac))
}

fn reserve(map: &mut HashMap<i32, Slot>, loc: i32, fp: (u32, u8, u8), class: Class) {
    for s in 0..fp.0 as i32 {
        let slot = map.entry(loc.saturating_add(s)).or_default();
        for c in fp.1..fp.1 + fp.2 {
            slot.used[usize::from(c)] = true;
        }
        slot.class.get_or_insert(class);
    }
}

/// Re-packs user varyings; returns true when any location changed.
pub fn compact_varyings(producer: &mut Shader, consumer: &mut Shader) -> bool {
    if producer.stage == Stage::Fragment || consumer.stage == Stage::Vertex {
        return false;
    }
    let outs: Vec<VarId> = vars_of_mode(producer, VarMode::ShaderOut)
        .into_iter()
        .filter(|v| is_user_varying(producer.variables[*v].location))
        .collect();
    let ins: Vec<VarId> = vars_of_mode(consumer, VarMode::ShaderIn)
        .into_iter()
        .filter(|v| is_user_varying(consumer.variables[*v].location))
        .collect();
    let key = |var: &Variable| (var.location, var.location_frac);
    // Group by (location, component); a group is movable when it is one output and
    // its same-typed inputs, and nothing else overlaps its components.
    let mut items = Vec::new();
    let mut fixed_out = Vec::new();
    let mut fixed_in: Vec<VarId> = Vec::new();
    let mut taken_in = vec![false; ins.len()];
    for &o in &outs {
        let ov = &producer.variables[o];
        let oty = io_type(producer.stage, ov);
        let matches: Vec<usize> = (0..ins.len())
            .filter(|i| key(&consumer.variables[ins[*i]]) == key(ov))
            .collect();
        let same_key_outs = outs
            .iter()
            .filter(|p| key(&producer.variables[**p]) == key(ov))
            .count();
        let movable = oty.vector_components().is_some()
            && !matches.is_empty()
            && same_key_outs == 1
            && matches
                .iter()
                .all(|i| io_type(consumer.stage, &consumer.variables[ins[*i]]) == oty);
        if movable {
            for &i in &matches {
                taken_in[i] = true;
            }
            let first_in = &consumer.variables[ins[matches[0]]];
            items.push(Item {
                outs: vec![o],
                ins: matches.iter().map(|i| ins[*i]).collect(),
                comps: oty.vector_components().unwrap_or(1),
                class: class_of(first_in, &oty),
                location: ov.location,
                frac: ov.location_frac,
            });
        } else {
            fixed_out.push(o);
        }
    }
    for (i, &v) in ins.iter().enumerate() {
        if !taken_in[i] {
            fixed_in.push(v);
        }
    }
    // A movable item must not overlap a fixed variable's components.
    let overlaps = |item: &Item, loc: i32, fp: (u32, u8, u8)| {
        let (a0, a1) = (item.frac, item.frac + item.comps);
        item.location >= loc
            && i64::from(item.location) < i64::from(loc) + i64::from(fp.0)
            && a0 < fp.1 + fp.2
            && fp.1 < a1
    };
    let mut reserved: HashMap<i32, Slot> = HashMap::default();
    let mut fixed_fps = Vec::new();
    for &o in &fixed_out {
        let v = &producer.variables[o];
        let fp = footprint(producer.stage, v, &producer.structs);
        fixed_fps.push((v.location, fp, class_of(v, &io_type(producer.stage, v))));
    }
    for &i in &fixed_in {
        let v = &consumer.variables[i];
        let fp = footprint(consumer.stage, v, &consumer.structs);
        fixed_fps.push((v.location, fp, class_of(v, &io_type(consumer.stage, v))));
    }
    let mut still_movable = Vec::new();
    for item in items {
        if fixed_fps
            .iter()
            .any(|(loc, fp, _)| overlaps(&item, *loc, *fp))
        {
            let fp = (1, item.frac, item.comps);
            fixed_fps.push((item.location, fp, item.class));
        } else {
            still_movable.push(item);
        }
    }
    for (loc, fp, class) in &fixed_fps {
        reserve(&mut reserved, *loc, *fp, *class);
    }
    let mut items = still_movable;
    items.sort_by_key(|it| (it.class, std::cmp::Reverse(it.comps), it.location, it.frac));
    // First fit.
    let mut placed = Vec::with_capacity(items.len());
    for it in &items {
        let mut spot = None;
        'slots: for s in VARYING_SLOT_VAR0..VARYING_SLOT_VAR0 + VARYING_SLOT_VAR_COUNT {
            let slot = reserved.get(&s).cloned().unwrap_or_default();
            if slot.class.is_some_and(|c| c != it.class) {
                continue;
            }
            for c in 0..=(4 - it.comps.min(4)) {
                if (c..c + it.comps).all(|k| !slot.used[usize::from(k)]) {
                    spot = Some((s, c));
                    break 'slots;
                }
            }
        }
        let Some((s, c)) = spot else {
            return false;
        };
        reserve(&mut reserved, s, (1, c, it.comps), it.class);
        placed.push((s, c));
    }
    let changed = items
        .iter()
        .zip(&placed)
        .any(|(it, &(s, c))| it.location != s || it.frac != c);
    if !changed {
        return false;
    }
    for (it, &(s, c)) in items.iter().zip(&placed) {
        for &o in &it.outs {
            producer.variables[o].location = s;
            producer.variables[o].location_frac = c;
        }
        for &i in &it.ins {
            consumer.variables[i].location = s;
            consumer.variables[i].location_frac = c;
        }
    }
    for v in vars_of_mode(producer, VarMode::ShaderOut) {
        producer.variables[v].driver_location = 0;
    }
    for v in vars_of_mode(consumer, VarMode::ShaderIn) {
        consumer.variables[v].driver_location = 0;
    }
    true
}
