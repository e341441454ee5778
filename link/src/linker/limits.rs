//! IO resource limits of GL 3.3 checked after varying assignment (Mesa's
//! `check_against_output_limit` / `check_against_input_limit`, `link_varyings.cpp`):
//! input and output components per stage, counted as 4 per occupied slot, leaving
//! out what fixed-function hardware consumes (position, point size, clip
//! distances, layer, primitive id, face, point coordinate). Only checked when more
//! than one stage is linked, like Mesa.

use std::collections::BTreeSet;

use rgl_glsl::hir::VarMode;
use rgl_glsl::types::Type;
use rgl_glsl::Stage;

use super::types::StructSizes;
use super::usage::globals;
use super::StageState;
use crate::error::LinkError;

use rgl_glsl::builtins::variables::limits as fe;

// The limits the front end reports through `gl_Max*Components`.
/// `MAX_VERTEX_OUTPUT_COMPONENTS`.
pub const MAX_VERTEX_OUTPUT_COMPONENTS: u32 = fe::MAX_VERTEX_OUTPUT_COMPONENTS as u32;
/// `MAX_GEOMETRY_INPUT_COMPONENTS`.
pub const MAX_GEOMETRY_INPUT_COMPONENTS: u32 = fe::MAX_GEOMETRY_INPUT_COMPONENTS as u32;
/// `MAX_GEOMETRY_OUTPUT_COMPONENTS`.
pub const MAX_GEOMETRY_OUTPUT_COMPONENTS: u32 = fe::MAX_GEOMETRY_OUTPUT_COMPONENTS as u32;
/// `MAX_FRAGMENT_INPUT_COMPONENTS`.
pub const MAX_FRAGMENT_INPUT_COMPONENTS: u32 = fe::MAX_FRAGMENT_INPUT_COMPONENTS as u32;

/// Slots that do not count against the component limits.
fn fixed_function(slot: i32) -> bool {
    matches!(slot, 0 | 12 | 15..=25)
}

pub(crate) fn check_io_limits(stages: &[StageState], errors: &mut Vec<LinkError>) {
    if stages.len() < 2 {
        return;
    }
    for st in stages {
        let m = &st.linked.hir;
        let sizes = StructSizes::new(&m.structs);
        let stage = st.linked.stage;
        let mut inputs = BTreeSet::new();
        let mut outputs = BTreeSet::new();
        for v in globals(m) {
            let var = &m.variables[v];
            let Some(link) = st.linked.vars.get(&v) else {
                continue;
            };
            let (set, arrayed) = match var.mode {
                VarMode::ShaderIn if stage != Stage::Vertex => {
                    (&mut inputs, stage == Stage::Geometry)
                }
                VarMode::ShaderOut if stage != Stage::Fragment => (&mut outputs, false),
                _ => continue,
            };
            if link.location < 0
                || fixed_function(link.location)
                || var.interface_block.is_some() && var.is_builtin
            {
                continue;
            }
            let ty = match (&var.ty, arrayed) {
                (Type::Array(e, _), true) => (**e).clone(),
                (t, _) => t.clone(),
            };
            let slots = sizes.io_slots_of(&ty).clamp(1, 1 << 16) as i32;
            for s in link.location..link.location.saturating_add(slots) {
                set.insert(s);
            }
        }
        let (in_max, out_max) = match stage {
            Stage::Vertex => (u32::MAX, MAX_VERTEX_OUTPUT_COMPONENTS),
            Stage::Geometry => (
                MAX_GEOMETRY_INPUT_COMPONENTS,
                MAX_GEOMETRY_OUTPUT_COMPONENTS,
            ),
            Stage::Fragment => (MAX_FRAGMENT_INPUT_COMPONENTS, u32::MAX),
            // A compute shader has no stage inputs or outputs.
            Stage::Compute => (u32::MAX, u32::MAX),
        };
        let ins = (inputs.len() as u32).saturating_mul(4);
        let outs = (outputs.len() as u32).saturating_mul(4);
        if ins > in_max {
            errors.push(LinkError::TooManyVaryingComponents {
                stage: stage.name(),
                dir: "input",
                count: ins,
                max: in_max,
            });
        }
        if outs > out_max {
            errors.push(LinkError::TooManyVaryingComponents {
                stage: stage.name(),
                dir: "output",
                count: outs,
                max: out_max,
            });
        }
    }
}
