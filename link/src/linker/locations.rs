//! Vertex attribute and fragment output locations (Mesa's `linker.cpp`,
//! `assign_attribute_or_color_locations`): explicit `layout(location)` first, then
//! `glBindAttribLocation` / `glBindFragDataLocationIndexed` bindings (also under
//! `name[0]` for arrays), then first-fit of the rest sorted by slot count. Built-ins
//! keep their fixed `VERT_ATTRIB_*` / `FRAG_RESULT_*` slots. Unreferenced user
//! attributes and outputs are removed from the interface (demoted to globals).

use std::collections::HashMap;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{Module, VarMode, Variable};
use rgl_glsl::types::Type;
use rgl_glsl::{Stage, Version};
use rgl_nir::ir::names::{FRAG_RESULT_DATA0, VERT_ATTRIB_GENERIC0, VERT_ATTRIB_POS};

use super::types::StructSizes;
use super::usage::globals;
use super::StageState;
use crate::error::LinkError;
use crate::program::{Bindings, LinkedProgram, ProgramVariable, VarLink};

/// `MAX_VERTEX_ATTRIBS` of GL 3.3.
pub const MAX_VERTEX_ATTRIBS: u32 = 16;
/// `MAX_DRAW_BUFFERS`.
pub const MAX_DRAW_BUFFERS: u32 = 8;
/// `MAX_DUAL_SOURCE_DRAW_BUFFERS`.
pub const MAX_DUAL_SOURCE_DRAW_BUFFERS: u32 = 1;

struct Located {
    var: Handle<Variable>,
    slots: u32,
    location: Option<u32>,
    index: u32,
}

fn binding_for<'a>(
    var: &Variable,
    mut entries: impl Iterator<Item = (&'a str, u32, u32)>,
) -> Option<(u32, u32)> {
    let indexed = format!("{}[0]", var.name);
    entries
        .find(|(n, _, _)| *n == var.name || (var.ty.is_array() && *n == indexed))
        .map(|(_, l, i)| (l, i))
}

/// First-fit: lowest `start` with `slots` free bits below `capacity`.
fn find_slots(used: &[bool], slots: u32) -> Option<u32> {
    let cap = used.len() as u32;
    (0..cap).find(|&s| s + slots <= cap && (s..s + slots).all(|i| !used[i as usize]))
}

/// Places the vertex shader's attributes.
pub(crate) fn assign_attributes(
    stages: &mut [StageState],
    version: Version,
    bindings: &Bindings,
    program: &mut LinkedProgram,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) {
    let Some(st) = stages.iter_mut().find(|s| s.linked.stage == Stage::Vertex) else {
        return;
    };
    let module = &st.linked.hir;
    let sizes = StructSizes::new(&module.structs);
    let mut used = vec![false; MAX_VERTEX_ATTRIBS as usize];
    let mut todo: Vec<Located> = Vec::new();
    let mut demoted = Vec::new();
    let mut builtin_links = Vec::new();
    let mut total: u64 = 0;
    for v in globals(module) {
        let var = &module.variables[v];
        if var.mode != VarMode::ShaderIn {
            continue;
        }
        if var.is_builtin {
            let loc = var.location.unwrap_or(-1);
            builtin_links.push((v, loc));
            if loc == VERT_ATTRIB_POS && st.usage.referenced(v) {
                used[0] = true;
            }
            continue;
        }
        if !st.usage.referenced(v) {
            demoted.push(v);
            continue;
        }
        let slots = sizes.io_slots_of(&var.ty).clamp(1, u32::MAX as u64) as u32;
        total = total.saturating_add(slots as u64);
        let bound = binding_for(
            var,
            bindings.attribs.iter().map(|(n, l)| (n.as_str(), *l, 0)),
        );
        let location = match var.location {
            Some(l) if l < 0 || l as u32 >= MAX_VERTEX_ATTRIBS => {
                errors.push(LinkError::InvalidExplicitLocation {
                    location: l,
                    name: var.name.clone(),
                });
                continue;
            }
            Some(l) => Some(l as u32),
            None => bound.map(|(l, _)| l),
        };
        todo.push(Located {
            var: v,
            slots,
            location,
            index: 0,
        });
    }
    if used[0] {
        total += 1;
    }
    if total > MAX_VERTEX_ATTRIBS as u64 {
        errors.push(LinkError::TooManyAttributeSlots(
            total.min(u32::MAX as u64) as u32,
            MAX_VERTEX_ATTRIBS,
        ));
    }
    let mut placed: Vec<(Handle<Variable>, u32)> = Vec::new();
    for item in todo.iter().filter(|t| t.location.is_some()) {
        let var = &module.variables[item.var];
        let l = item.location.unwrap_or(0);
        if l as u64 + item.slots as u64 > MAX_VERTEX_ATTRIBS as u64 {
            errors.push(LinkError::NoContiguousLocations {
                what: "vertex shader input",
                name: var.name.clone(),
            });
            continue;
        }
        let overlap = (l..l + item.slots).any(|s| used[s as usize]);
        if overlap {
            if version.is_es() && version.number >= 300 {
                errors.push(LinkError::OverlappingLocation {
                    what: "vertex shader input",
                    name: var.name.clone(),
                });
                continue;
            }
            warnings.push(format!(
                "overlapping location is assigned to vertex shader input `{}'",
                var.name
            ));
        }
        for s in l..l + item.slots {
            used[s as usize] = true;
        }
        placed.push((item.var, l));
    }
    let mut rest: Vec<&Located> = todo.iter().filter(|t| t.location.is_none()).collect();
    rest.sort_by_key(|t| std::cmp::Reverse(t.slots));
    for item in rest {
        match find_slots(&used, item.slots) {
            Some(l) => {
                for s in l..l + item.slots {
                    used[s as usize] = true;
                }
                placed.push((item.var, l));
            }
            None => errors.push(LinkError::NoContiguousLocations {
                what: "vertex shader input",
                name: module.variables[item.var].name.clone(),
            }),
        }
    }
    // Record, in declaration order.
    let order = declaration_order(module);
    placed.sort_by_key(|(v, _)| order.get(v).copied());
    let mut attributes = Vec::new();
    for (v, loc) in &builtin_links {
        let var = &module.variables[*v];
        if st.usage.referenced(*v) {
            attributes.push((
                *v,
                ProgramVariable {
                    name: var.name.clone(),
                    ty: var.ty.clone(),
                    location: -1,
                    index: 0,
                    component: var.component.unwrap_or(0),
                },
            ));
        }
        st.linked.vars.insert(
            *v,
            VarLink {
                location: *loc,
                ..VarLink::default()
            },
        );
    }
    for (v, l) in &placed {
        let var = &module.variables[*v];
        attributes.push((
            *v,
            ProgramVariable {
                name: var.name.clone(),
                ty: var.ty.clone(),
                location: *l as i32,
                index: 0,
                component: var.component.unwrap_or(0),
            },
        ));
        // GLSL 4.40 §4.4.1: `layout(component = N)` reads the attribute from
        // component N on (the checker keeps it within the location).
        st.linked.vars.insert(
            *v,
            VarLink {
                location: VERT_ATTRIB_GENERIC0 + *l as i32,
                location_frac: var.component.unwrap_or(0).min(3) as u8,
                ..VarLink::default()
            },
        );
    }
    attributes.sort_by_key(|(v, _)| order.get(v).copied());
    program.attributes = attributes.into_iter().map(|(_, p)| p).collect();
    for v in demoted {
        demote(&mut st.linked.hir, v);
    }
}

/// Position of every global in the item list.
fn declaration_order(module: &Module) -> HashMap<Handle<Variable>, usize> {
    globals(module)
        .into_iter()
        .enumerate()
        .map(|(i, v)| (v, i))
        .collect()
}

fn demote(module: &mut Module, v: Handle<Variable>) {
    let var = &mut module.variables[v];
    var.mode = VarMode::Auto;
    var.read_only = false;
}

/// Places the fragment shader's outputs.
pub(crate) fn assign_frag_outputs(
    stages: &mut [StageState],
    bindings: &Bindings,
    program: &mut LinkedProgram,
    errors: &mut Vec<LinkError>,
) {
    let Some(st) = stages
        .iter_mut()
        .find(|s| s.linked.stage == Stage::Fragment)
    else {
        return;
    };
    let module = &st.linked.hir;
    let sizes = StructSizes::new(&module.structs);
    // Per index (dual-source 0/1), per draw buffer: the components taken
    // (GLSL 4.40 §4.4.2: outputs may share a location on distinct components),
    // and whether the first taker was an integer type.
    let mut used = [
        vec![0u8; MAX_DRAW_BUFFERS as usize],
        vec![0u8; MAX_DRAW_BUFFERS as usize],
    ];
    let mut kinds: [Vec<Option<bool>>; 2] = [
        vec![None; MAX_DRAW_BUFFERS as usize],
        vec![None; MAX_DRAW_BUFFERS as usize],
    ];
    let mut todo: Vec<Located> = Vec::new();
    let mut demoted = Vec::new();
    let mut outputs = Vec::new();
    for v in globals(module) {
        let var = &module.variables[v];
        if var.mode != VarMode::ShaderOut {
            continue;
        }
        if var.is_builtin {
            st.linked.vars.insert(
                v,
                VarLink {
                    location: var.location.unwrap_or(-1),
                    ..VarLink::default()
                },
            );
            if st.usage.referenced(v) {
                outputs.push((
                    v,
                    ProgramVariable {
                        name: var.name.clone(),
                        ty: var.ty.clone(),
                        location: -1,
                        index: 0,
                        component: var.component.unwrap_or(0),
                    },
                ));
            }
            continue;
        }
        if !st.usage.referenced(v) {
            demoted.push(v);
            continue;
        }
        let slots = sizes.io_slots_of(&var.ty).clamp(1, u32::MAX as u64) as u32;
        let bound = binding_for(
            var,
            bindings
                .frag_data
                .iter()
                .map(|(n, l, i)| (n.as_str(), *l, *i)),
        );
        let (location, index) = match var.location {
            Some(l) if l < 0 || l as u32 >= MAX_DRAW_BUFFERS => {
                errors.push(LinkError::InvalidExplicitLocation {
                    location: l,
                    name: var.name.clone(),
                });
                continue;
            }
            Some(l) => (Some(l as u32), var.index.unwrap_or(0).clamp(0, 1) as u32),
            None => match bound {
                Some((l, i)) => (Some(l), i.min(1)),
                None => (None, 0),
            },
        };
        todo.push(Located {
            var: v,
            slots,
            location,
            index,
        });
    }
    let mut placed: Vec<(Handle<Variable>, u32, u32)> = Vec::new();
    for item in todo.iter().filter(|t| t.location.is_some()) {
        let var = &module.variables[item.var];
        let l = item.location.unwrap_or(0);
        let cap = if item.index == 1 {
            MAX_DUAL_SOURCE_DRAW_BUFFERS
        } else {
            MAX_DRAW_BUFFERS
        };
        if item.index == 1 && l >= MAX_DUAL_SOURCE_DRAW_BUFFERS {
            errors.push(LinkError::DualSourceLocation {
                location: l as i32,
                max: MAX_DUAL_SOURCE_DRAW_BUFFERS,
            });
            continue;
        }
        if l as u64 + item.slots as u64 > cap as u64 {
            errors.push(LinkError::NoContiguousLocations {
                what: "fragment shader output",
                name: var.name.clone(),
            });
            continue;
        }
        let elem = super::types::without_array(&var.ty);
        let comps = match elem {
            Type::Scalar(_) | Type::Vector(..) => {
                let n = elem.vector_elements() as u32;
                let first = var.component.unwrap_or(0).min(3);
                (((1u32 << n.min(4)) - 1) << first) as u8 & 0xf
            }
            _ => 0xf,
        };
        let integer = super::varyings::is_integer(elem);
        let mask = &mut used[item.index as usize];
        if (l..l + item.slots).any(|s| mask[s as usize] & comps != 0) {
            errors.push(LinkError::OverlappingLocation {
                what: "fragment shader output",
                name: var.name.clone(),
            });
            continue;
        }
        let kind = &mut kinds[item.index as usize];
        if (l..l + item.slots).any(|s| kind[s as usize].is_some_and(|k| k != integer)) {
            errors.push(LinkError::VaryingAliasMismatch {
                stage: "fragment",
                dir: "out",
                location: l,
                what: "numerical type",
            });
            continue;
        }
        for s in l..l + item.slots {
            mask[s as usize] |= comps;
            kind[s as usize] = Some(integer);
        }
        placed.push((item.var, l, item.index));
    }
    let mut rest: Vec<&Located> = todo.iter().filter(|t| t.location.is_none()).collect();
    rest.sort_by_key(|t| std::cmp::Reverse(t.slots));
    for item in rest {
        let taken: Vec<bool> = used[0].iter().map(|m| *m != 0).collect();
        match find_slots(&taken, item.slots) {
            Some(l) => {
                for s in l..l + item.slots {
                    used[0][s as usize] = 0xf;
                }
                placed.push((item.var, l, 0));
            }
            None => errors.push(LinkError::NoContiguousLocations {
                what: "fragment shader output",
                name: module.variables[item.var].name.clone(),
            }),
        }
    }
    for (v, l, i) in placed {
        let var = &module.variables[v];
        outputs.push((
            v,
            ProgramVariable {
                name: var.name.clone(),
                ty: var.ty.clone(),
                location: l as i32,
                index: i,
                component: var.component.unwrap_or(0),
            },
        ));
        st.linked.vars.insert(
            v,
            VarLink {
                location: FRAG_RESULT_DATA0 + l as i32,
                location_frac: var.component.unwrap_or(0).min(3) as u8,
                index: i,
                ..VarLink::default()
            },
        );
    }
    let order = declaration_order(module);
    outputs.sort_by_key(|(v, _)| order.get(v).copied());
    program.frag_outputs = outputs.into_iter().map(|(_, p)| p).collect();
    for v in demoted {
        demote(&mut st.linked.hir, v);
    }
}
