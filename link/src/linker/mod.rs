//! The linker on GLSL IR (Mesa's `link_shaders`, `linker.cpp`): intrastage merge ([`merge`]), per-stage
//! executable checks, interstage matching and varying locations ([`varyings`]),
//! attribute and fragment-output locations ([`locations`]), uniforms and std140
//! blocks ([`uniforms`]), shader storage blocks and shared memory
//! ([`storage_blocks`]) and the GL 3.3 resource limits, ending in a
//! [`LinkedProgram`]. Every error found is reported; the phases stop early only
//! where Mesa does (a stage that failed its intrastage link is not linked further).
//! [`dump_resources`] prints the program's interface for tests and tools.

pub mod atomic_counters;
mod block_shapes;
mod block_sizes;
pub mod dump;
pub mod limits;
pub mod locations;
pub mod merge;
mod split_varyings;
pub mod storage_blocks;
pub mod types;
pub mod uniforms;
pub mod usage;
pub mod varyings;

use std::borrow::Cow;
use std::collections::HashMap;

pub use dump::dump_resources;

use crate::error::{LinkError, LinkLog};
use crate::program::{Bindings, LinkedProgram, LinkedStage};
use rgl_glsl::hir::Module;
use rgl_glsl::{CompiledShader, Stage, Version};

use usage::Usage;

/// A stage being linked: the linked stage plus the static use of its code.
pub(crate) struct StageState {
    pub(crate) linked: LinkedStage,
    pub(crate) usage: Usage,
}

impl StageState {
    fn refresh_usage(&mut self) {
        self.usage = usage::analyze(&self.linked.hir);
    }
}

/// Links the shaders; see [`crate::link_program`]. Each stage's linked module is a
/// copy of (or merged from) the shaders' modules: the shader objects keep theirs.
pub fn link(shaders: &[&CompiledShader], bindings: &Bindings) -> Result<LinkedProgram, LinkLog> {
    let mut units: Vec<Unit<'_>> = Vec::with_capacity(shaders.len());
    for s in shaders {
        match (&s.lir, s.success()) {
            (Some(lir), true) => units.push((s.stage, s.version, Cow::Borrowed(lir))),
            _ => return Err(LinkLog::error(LinkError::Uncompiled)),
        }
    }
    link_units(units, bindings)
}

/// Links shaders the caller gives up; see [`crate::link_program_owned`]. A stage
/// made of one shader takes that shader's module instead of copying it (Mesa's
/// `link_intrastage_shaders` always clones the IR, `clone_ir_list`).
pub fn link_owned(
    shaders: Vec<CompiledShader>,
    bindings: &Bindings,
) -> Result<LinkedProgram, LinkLog> {
    if shaders.iter().any(|s| !s.success()) {
        return Err(LinkLog::error(LinkError::Uncompiled));
    }
    let units: Vec<Unit<'static>> = shaders
        .into_iter()
        .filter_map(|s| Some((s.stage, s.version, Cow::Owned(s.lir?))))
        .collect();
    link_units(units, bindings)
}

/// One compiled unit: its stage, version and lowered module.
type Unit<'a> = (Stage, Version, Cow<'a, Module>);

fn link_units(units: Vec<Unit<'_>>, bindings: &Bindings) -> Result<LinkedProgram, LinkLog> {
    if units.is_empty() {
        return Err(LinkLog::error(LinkError::NoShaders));
    }
    let mut errors: Vec<LinkError> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();

    // Versions: the program version is the highest; ES shaders must all agree.
    let versions: Vec<Version> = units.iter().map(|u| u.1).collect();
    let es = versions.iter().any(|v| v.is_es());
    if es
        && versions
            .iter()
            .any(|v| !v.is_es() || v.number != versions[0].number)
    {
        errors.push(LinkError::VersionMismatch);
        return Err(LinkLog { errors, warnings });
    }
    let version = versions
        .iter()
        .copied()
        .max_by_key(|v| v.number)
        .unwrap_or(Version::DEFAULT);

    let order = [
        Stage::Vertex,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
    ];
    let stages_present: Vec<Stage> = units.iter().map(|u| u.0).collect();
    let present = |st: Stage| stages_present.contains(&st);
    // GL 4.3 §7.3: "a program object that includes a compute shader [must
    // not also include] shaders of any other type" (link error).
    if present(Stage::Compute) && units.iter().any(|u| u.0 != Stage::Compute) {
        errors.push(LinkError::ComputeWithOtherStages);
        return Err(LinkLog { errors, warnings });
    }
    if present(Stage::Geometry) && !present(Stage::Vertex) {
        errors.push(LinkError::StageNeedsVertex("geometry"));
    }

    // Intrastage link of every stage.
    let mut stages: Vec<StageState> = Vec::new();
    let mut units = units;
    for stage in order {
        let stage_units: Vec<Cow<'_, Module>> = {
            let (mine, rest): (Vec<Unit<'_>>, Vec<Unit<'_>>) =
                units.into_iter().partition(|u| u.0 == stage);
            units = rest;
            mine.into_iter().map(|u| u.2).collect()
        };
        if stage_units.is_empty() {
            continue;
        }
        let before = errors.len();
        let Some(linked) = merge::link_stage(stage, stage_units, &mut errors, &mut warnings) else {
            continue;
        };
        if errors.len() != before {
            continue;
        }
        let usage = usage::analyze(&linked.module);
        stages.push(StageState {
            linked: LinkedStage {
                stage,
                version: linked.version,
                hir: linked.module,
                vars: HashMap::new(),
                nir: None,
            },
            usage,
        });
    }
    if !errors.is_empty() {
        return Err(LinkLog { errors, warnings });
    }

    for st in &stages {
        executable_checks(st, version, &mut errors, &mut warnings);
    }
    if es && version.number == 100 {
        invariant_builtins(&stages, &mut errors);
    }
    if es {
        if !present(Stage::Vertex) {
            errors.push(LinkError::LacksVertexShader);
        }
        if !present(Stage::Fragment) {
            errors.push(LinkError::LacksFragmentShader);
        }
    }

    // Interstage: uniforms agree across stages, varyings are matched and placed.
    uniforms::cross_validate_uniforms(&stages, version, &mut errors, &mut warnings);
    per_vertex_redeclarations(&stages, &mut errors);
    block_shapes::unify_block_shapes(&mut stages);
    varyings::link_varyings(&mut stages, version, &mut errors, &mut warnings);
    for st in &mut stages {
        st.refresh_usage();
    }
    let mut program = LinkedProgram {
        version,
        stages: Vec::new(),
        attributes: Vec::new(),
        frag_outputs: Vec::new(),
        uniforms: Vec::new(),
        uniform_blocks: Vec::new(),
        uniform_slots: 0,
        num_samplers: 0,
        subroutine_slots: Vec::new(),
        warnings: Vec::new(),
    };
    locations::assign_attributes(
        &mut stages,
        version,
        bindings,
        &mut program,
        &mut errors,
        &mut warnings,
    );
    locations::assign_frag_outputs(&mut stages, bindings, &mut program, &mut errors);
    uniforms::link_uniforms(&mut stages, &mut program, &mut errors);
    limits::check_io_limits(&stages, &mut errors);
    storage_blocks::check_storage_limits(stages.iter().map(|s| &s.linked), &mut errors);
    atomic_counters::check_atomic_counters(stages.iter().map(|s| &s.linked), &mut errors);

    if !errors.is_empty() {
        return Err(LinkLog { errors, warnings });
    }
    program.stages = stages.into_iter().map(|s| s.linked).collect();
    program.warnings = warnings;
    Ok(program)
}

/// GLSL 1.50 §7.1: a geometry shader reading `gl_in` sees the previous
/// stage's `gl_PerVertex` output. Mesa matches the two blocks by type unless
/// both are the implicit declarations, so a redeclaration on one side needs the
/// same redeclaration on the other.
fn per_vertex_redeclarations(stages: &[StageState], errors: &mut Vec<LinkError>) {
    const MEMBERS: [&str; 4] = [
        "gl_Position",
        "gl_PointSize",
        "gl_ClipDistance",
        "gl_ClipVertex",
    ];
    for pair in stages.windows(2) {
        let (producer, consumer) = (&pair[0].linked.hir, &pair[1].linked.hir);
        if pair[1].linked.stage != Stage::Geometry {
            continue;
        }
        let declares = |m: &Module, mode: rgl_glsl::hir::VarMode, names: &[&str]| {
            usage::globals(m).into_iter().any(|v| {
                let var = &m.variables[v];
                var.is_builtin && var.mode == mode && names.contains(&var.name.as_str())
            })
        };
        let out = &producer.layout.per_vertex_out;
        let inp = &consumer.layout.per_vertex_in;
        let produced =
            out.is_some() || declares(producer, rgl_glsl::hir::VarMode::ShaderOut, &MEMBERS);
        let consumed =
            inp.is_some() || declares(consumer, rgl_glsl::hir::VarMode::ShaderIn, &["gl_in"]);
        if produced && consumed && out != inp {
            errors.push(LinkError::InterfaceBlockMismatch("gl_PerVertex".into()));
        }
    }
}

/// ES 1.00 §4.6.4: invariance of the built-in special variables.
fn invariant_builtins(stages: &[StageState], errors: &mut Vec<LinkError>) {
    let find = |stage: Stage, name: &str| {
        stages
            .iter()
            .find(|s| s.linked.stage == stage)
            .and_then(|s| {
                let m = &s.linked.hir;
                usage::globals(m)
                    .into_iter()
                    .map(|v| &m.variables[v])
                    .find(|v| v.name == name)
            })
    };
    for (frag, vert) in [
        ("gl_FragCoord", "gl_Position"),
        ("gl_PointCoord", "gl_PointSize"),
    ] {
        if find(Stage::Fragment, frag).is_some_and(|v| v.invariant)
            && find(Stage::Vertex, vert).is_some_and(|v| !v.invariant)
        {
            errors.push(LinkError::InvariantBuiltin(frag, vert));
            return;
        }
    }
    if find(Stage::Fragment, "gl_FrontFacing").is_some_and(|v| v.invariant) {
        errors.push(LinkError::FrontFacingInvariant);
    }
}

/// What each stage's executable must satisfy on its own (Mesa's
/// `validate_vertex_shader_executable` and its fragment and geometry twins).
fn executable_checks(
    st: &StageState,
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) {
    let module = &st.linked.hir;
    let written = |name: &str| {
        usage::globals(module).into_iter().any(|v| {
            let var = &module.variables[v];
            var.name == name && var.is_builtin && st.usage.written.contains(&v)
        })
    };
    match st.linked.stage {
        Stage::Vertex => {
            if !version.at_least(140, 300) && !written("gl_Position") {
                if version.is_es() {
                    warnings.push(
                        "vertex shader does not write to `gl_Position'. Its value is undefined."
                            .to_string(),
                    );
                } else {
                    errors.push(LinkError::NoGlPosition);
                }
            }
        }
        Stage::Fragment => {
            if written("gl_FragColor") && written("gl_FragData") {
                errors.push(LinkError::FragColorAndFragData);
            }
        }
        Stage::Geometry => {
            let layout = &module.layout;
            if layout.gs_input_primitive.is_none() {
                errors.push(LinkError::GsNoInputPrimitive);
            }
            if layout.gs_output_primitive.is_none() {
                errors.push(LinkError::GsNoOutputPrimitive);
            }
            if layout.gs_max_vertices.is_none() {
                errors.push(LinkError::GsNoMaxVertices);
            }
        }
        Stage::Compute => {
            // GL 4.3 §7.3: linking fails if the compute shader has no fixed
            // local size (Mesa's `link_cs_input_layout_qualifiers`).
            if module.layout.cs_local_size.is_none() {
                errors.push(LinkError::CsNoLocalSize);
            }
        }
    }
    if st.linked.stage != Stage::Fragment
        && !version.is_es()
        && version.at_least(130, 0)
        && written("gl_ClipVertex")
        && written("gl_ClipDistance")
    {
        errors.push(LinkError::ClipVertexAndClipDistance(st.linked.stage.name()));
    }
}
