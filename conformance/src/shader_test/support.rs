//! What an implementation offers a `.shader_test` file, and the check of a
//! file's `[require]` section against it. [`Capabilities::rgl_link_only`]
//! describes rgl as the `--link-only` runner sees it: the GLSL versions and
//! extensions of `rgl_glsl` (its one table of each), the GL 3.3 / ES 3.0 API
//! level the linker's limits are written for, and the limits of
//! `rgl_glsl::builtins::variables::limits`. The full runner takes the
//! capabilities from its context instead ([`super::exec::GlContext::capabilities`]).

use rgl_glsl::builtins::variables::limits;
use rgl_glsl::{Profile, Stage, Version};

use super::require::{GlApi, Requirement, Requirements};

/// What an implementation advertises.
#[derive(Clone, Debug)]
pub struct Capabilities {
    /// Highest desktop GL version as `X*10+Y`.
    pub gl_version: u32,
    /// True when core-profile contexts are available (GL 3.2+).
    pub core_profile: bool,
    /// True when compatibility contexts at `gl_version` are available.
    pub compat_profile: bool,
    /// Highest GL ES version as `X*10+Y` (0: no ES contexts).
    pub es_version: u32,
    /// GL extensions advertised by a desktop context.
    pub desktop_extensions: Vec<String>,
    /// GL extensions advertised by an ES context.
    pub es_extensions: Vec<String>,
    /// Integer limits by enum value (`GL_MAX_VARYING_COMPONENTS` …).
    pub limits: Vec<(u32, i64)>,
    /// Highest GLSL versions (`X*100+YY`: desktop, ES) when they are not
    /// rgl_glsl's (a host GL's `GL_SHADING_LANGUAGE_VERSION`).
    pub glsl_versions: Option<(u32, u32)>,
}

/// API-level extensions (no shading-language side) whose features are core in
/// GL 3.3, which the link-only check treats as advertised: they change what the
/// draw commands may do, never whether the shaders compile and link.
pub const API_ONLY_CORE_EXTENSIONS: &[&str] = &[
    "GL_ARB_texture_rg",
    "GL_EXT_provoking_vertex",
    "GL_ARB_provoking_vertex",
    "GL_ARB_depth_clamp",
    "GL_ARB_vertex_array_object",
    "GL_ARB_framebuffer_object",
    "GL_ARB_texture_float",
    "GL_ARB_depth_texture",
    "GL_ARB_shadow",
    "GL_ARB_texture_non_power_of_two",
    "GL_EXT_framebuffer_object",
    "GL_ARB_vertex_buffer_object",
    "GL_ARB_multitexture",
    "GL_ARB_point_sprite",
];

/// GLSL extensions the front end accepts that rgl's GL state does not
/// advertise because the driver cannot run their programs yet.
const NOT_ADVERTISED: &[&str] = &[];

impl Capabilities {
    /// rgl as the link-only runner sees it (see the module docs).
    pub fn rgl_link_only() -> Capabilities {
        let glsl_extensions = |version: Version| -> Vec<String> {
            rgl_glsl::extensions::supported(version, Stage::Vertex)
                .map(str::to_string)
                .collect()
        };
        let mut desktop_extensions = glsl_extensions(Version {
            number: 330,
            profile: Profile::Compatibility,
        });
        // The front end compiles images, but the GL state does not advertise
        // them (rgl_state's compiler-only list): the driver cannot run them.
        desktop_extensions.retain(|e| !NOT_ADVERTISED.contains(&e.as_str()));
        desktop_extensions.extend(API_ONLY_CORE_EXTENSIONS.iter().map(|s| s.to_string()));
        let es_extensions = glsl_extensions(Version::es(300));
        let l = |name: &str, value: i32| {
            super::gl_enum::lookup(name).map(|e| (e.value, i64::from(value)))
        };
        let limits = [
            l("GL_MAX_VERTEX_ATTRIBS", limits::MAX_VERTEX_ATTRIBS),
            l(
                "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
                limits::MAX_VERTEX_UNIFORM_COMPONENTS,
            ),
            l(
                "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
                limits::MAX_FRAGMENT_UNIFORM_COMPONENTS,
            ),
            l(
                "GL_MAX_GEOMETRY_UNIFORM_COMPONENTS",
                limits::MAX_GEOMETRY_UNIFORM_COMPONENTS,
            ),
            l("GL_MAX_VARYING_COMPONENTS", limits::MAX_VARYING_COMPONENTS),
            l(
                "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
                limits::MAX_VERTEX_OUTPUT_COMPONENTS,
            ),
            l(
                "GL_MAX_GEOMETRY_INPUT_COMPONENTS",
                limits::MAX_GEOMETRY_INPUT_COMPONENTS,
            ),
            l(
                "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS",
                limits::MAX_GEOMETRY_OUTPUT_COMPONENTS,
            ),
            l(
                "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
                limits::MAX_FRAGMENT_INPUT_COMPONENTS,
            ),
            l(
                "GL_MAX_GEOMETRY_OUTPUT_VERTICES",
                limits::MAX_GEOMETRY_OUTPUT_VERTICES,
            ),
            l(
                "GL_MAX_TEXTURE_IMAGE_UNITS",
                limits::MAX_TEXTURE_IMAGE_UNITS,
            ),
            l(
                "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS",
                limits::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
            ),
            l(
                "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
                limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
            ),
            l("GL_MAX_DRAW_BUFFERS", limits::MAX_DRAW_BUFFERS),
            l("GL_MAX_CLIP_PLANES", limits::MAX_CLIP_PLANES),
            // rgl has no program binaries.
            l("GL_NUM_PROGRAM_BINARY_FORMATS", 0),
        ]
        .into_iter()
        .chain(
            storage_limits()
                .into_iter()
                .map(|(name, v)| l(&name, v as i32)),
        )
        .flatten()
        .collect();
        Capabilities {
            gl_version: rgl_state::version::reported().number(),
            core_profile: true,
            compat_profile: true,
            es_version: 30,
            desktop_extensions,
            es_extensions,
            limits,
            glsl_versions: None,
        }
    }

    /// Highest GLSL version for the context family (`X*100+YY`).
    pub fn glsl_version(&self, es: bool) -> u32 {
        if let Some((desktop, es_max)) = self.glsl_versions {
            return if es { es_max } else { desktop };
        }
        rgl_glsl::version::SUPPORTED_VERSIONS
            .iter()
            .filter(|(_, e)| *e == es)
            .map(|(n, _)| u32::from(*n))
            .max()
            .unwrap_or(0)
    }
}

/// The compute, shader storage and atomic counter limits of rgl's state
/// tracker that `[require]` sections ask about.
fn storage_limits() -> Vec<(String, u32)> {
    use rgl_state::limits as l;
    let mut v: Vec<(String, u32)> = [
        (
            "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS",
            l::MAX_COMPUTE_WORK_GROUP_INVOCATIONS,
        ),
        (
            "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE",
            l::MAX_COMPUTE_SHARED_MEMORY_SIZE,
        ),
        (
            "GL_MAX_COMPUTE_UNIFORM_COMPONENTS",
            l::MAX_COMPUTE_UNIFORM_COMPONENTS,
        ),
        (
            "GL_MAX_COMPUTE_UNIFORM_BLOCKS",
            l::MAX_COMPUTE_UNIFORM_BLOCKS,
        ),
        (
            "GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS",
            l::MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
        ),
        (
            "GL_MAX_COMPUTE_IMAGE_UNIFORMS",
            l::MAX_COMPUTE_IMAGE_UNIFORMS,
        ),
        (
            "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            l::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
        ),
        (
            "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS",
            l::MAX_COMBINED_SHADER_STORAGE_BLOCKS,
        ),
        (
            "GL_MAX_SHADER_STORAGE_BLOCK_SIZE",
            l::MAX_SHADER_STORAGE_BLOCK_SIZE,
        ),
        (
            "GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
            l::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
        ),
        (
            "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
            l::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
        ),
        (
            "GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE",
            l::MAX_ATOMIC_COUNTER_BUFFER_SIZE,
        ),
    ]
    .into_iter()
    .map(|(n, v)| (n.to_string(), v))
    .collect();
    for stage in [
        "VERTEX",
        "GEOMETRY",
        "TESS_CONTROL",
        "TESS_EVALUATION",
        "FRAGMENT",
        "COMPUTE",
    ] {
        let name = |what: &str| format!("GL_MAX_{stage}_{what}");
        v.push((
            name("SHADER_STORAGE_BLOCKS"),
            l::MAX_SHADER_STORAGE_BLOCKS_PER_STAGE,
        ));
        v.push((name("ATOMIC_COUNTERS"), l::MAX_ATOMIC_COUNTERS_PER_STAGE));
        v.push((
            name("ATOMIC_COUNTER_BUFFERS"),
            l::MAX_ATOMIC_COUNTER_BUFFERS_PER_STAGE,
        ));
    }
    v.push((
        "GL_MAX_COMBINED_ATOMIC_COUNTERS".into(),
        l::MAX_ATOMIC_COUNTERS_PER_STAGE,
    ));
    v.push((
        "GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS".into(),
        l::MAX_ATOMIC_COUNTER_BUFFERS_PER_STAGE,
    ));
    v
}

fn version_text(v: u32, glsl: bool) -> String {
    if glsl {
        format!("{}.{:02}", v / 100, v % 100)
    } else {
        format!("{}.{}", v / 10, v % 10)
    }
}

/// Checks every requirement; `Err(reason)` names the first one not met (a
/// skip), as piglit's runner does.
pub fn check(requirements: &Requirements, caps: &Capabilities) -> Result<(), String> {
    let es = requirements.es_context();
    for (line, r) in &requirements.lines {
        let unmet = |what: String| Err(format!("[require] line {line}: {what}"));
        match r {
            Requirement::Glsl {
                es: glsl_es,
                op,
                version,
            } => {
                if *glsl_es && !es {
                    return unmet("a GLSL ES requirement needs a GL ES line".into());
                }
                let have = caps.glsl_version(*glsl_es);
                if !op.holds(have, *version) {
                    return unmet(format!(
                        "needs GLSL{} {} {}, rgl has {}",
                        if *glsl_es { " ES" } else { "" },
                        op.symbol(),
                        version_text(*version, true),
                        version_text(have, true)
                    ));
                }
            }
            Requirement::Gl { api, op, version } => {
                let (have, ok_profile) = match api {
                    GlApi::Es => (caps.es_version, caps.es_version > 0),
                    GlApi::Core => (caps.gl_version, caps.core_profile),
                    GlApi::Compat => (caps.gl_version, caps.compat_profile),
                    GlApi::Any => (caps.gl_version, true),
                };
                if !ok_profile || !op.holds(have, *version) {
                    return unmet(format!(
                        "needs GL{} {} {}, rgl has {}",
                        match api {
                            GlApi::Es => " ES",
                            GlApi::Core => " CORE",
                            GlApi::Compat => " COMPAT",
                            GlApi::Any => "",
                        },
                        op.symbol(),
                        version_text(*version, false),
                        version_text(have, false)
                    ));
                }
            }
            Requirement::Extension { name, absent } => {
                let list = if es {
                    &caps.es_extensions
                } else {
                    &caps.desktop_extensions
                };
                let advertised = list.iter().any(|e| e == name);
                if advertised && *absent {
                    return unmet(format!("needs {name} to be absent, rgl advertises it"));
                }
                if !advertised && !*absent {
                    return unmet(format!("needs {name}, which rgl does not advertise"));
                }
            }
            Requirement::Limit { name, op, value } => {
                let have = caps
                    .limits
                    .iter()
                    .find(|(e, _)| *e == name.value)
                    .map(|(_, v)| *v);
                match have {
                    Some(have) if op.holds(have, *value) => {}
                    Some(have) => {
                        return unmet(format!(
                            "needs {name} {} {value}, rgl has {have}",
                            op.symbol()
                        ))
                    }
                    None => return unmet(format!("rgl does not report {name}")),
                }
            }
            Requirement::SsoEnabled | Requirement::SeparableProgram => {
                return unmet("separate shader objects are not supported by rgl".into())
            }
            Requirement::Spirv(mode) if mode != "NO" => {
                return unmet("SPIR-V shaders are not supported by rgl".into())
            }
            Requirement::Spirv(_)
            | Requirement::Size { .. }
            | Requirement::DepthBuffer
            | Requirement::Rlimit(_)
            | Requirement::Ignored(_) => {}
        }
    }
    Ok(())
}
