//! The one table of GLSL extensions rgl supports, with the versions in which each
//! is advertised; the preprocessor defines a macro for each and `#extension`
//! checks names against it.
//!
//! The table holds the shading-language extensions that OpenGL ≤ 3.3 promoted
//! into core (so the front end already implements their features for the
//! versions that have them built in), plus `GL_ARB_compatibility` and the ES 1.00
//! `GL_OES_standard_derivatives`. Like Mesa, availability depends on the API
//! family of the shader (desktop or ES), not on the stage: an `#extension` for
//! a stage-specific extension is accepted in every stage and simply has no
//! effect where the feature does not exist. Extensions whose GLSL features the
//! front end does not implement (`GL_EXT_gpu_shader4`, `GL_ARB_geometry_shader4`,
//! …) are deliberately absent: `#extension … : require`
//! fails for them and tests needing them are skipped.

use crate::version::{Stage, Version};

/// Which shading languages advertise an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Desktop GLSL, every supported version and profile.
    Desktop,
    /// GLSL ES, every supported version.
    Es,
}

/// One supported extension.
#[derive(Clone, Copy, Debug)]
pub struct Extension {
    /// The name, e.g. `GL_ARB_texture_rectangle`.
    pub name: &'static str,
    /// Where it is advertised.
    pub family: Family,
    /// Lowest version number in which it is advertised.
    pub min_version: u16,
    /// The first core version that includes the feature (0 if none) —
    /// documentation for the front end: at and above it the extension only
    /// makes the built-in names available under the extension spelling.
    pub core_in: u16,
}

/// Every extension rgl advertises.
pub const EXTENSIONS: &[Extension] = &[
    // Desktop GL 2.0/2.1 and 3.0-3.3 promotions.
    Extension {
        name: "GL_ARB_draw_buffers",
        family: Family::Desktop,
        min_version: 110,
        core_in: 110,
    },
    Extension {
        name: "GL_ARB_texture_rectangle",
        family: Family::Desktop,
        min_version: 110,
        core_in: 140,
    },
    Extension {
        name: "GL_EXT_texture_array",
        family: Family::Desktop,
        min_version: 110,
        core_in: 130,
    },
    Extension {
        name: "GL_ARB_shader_texture_lod",
        family: Family::Desktop,
        min_version: 110,
        core_in: 130,
    },
    Extension {
        name: "GL_ARB_draw_instanced",
        family: Family::Desktop,
        min_version: 110,
        core_in: 140,
    },
    Extension {
        name: "GL_ARB_uniform_buffer_object",
        family: Family::Desktop,
        min_version: 110,
        core_in: 140,
    },
    Extension {
        name: "GL_ARB_fragment_coord_conventions",
        family: Family::Desktop,
        min_version: 110,
        core_in: 150,
    },
    Extension {
        name: "GL_ARB_texture_multisample",
        family: Family::Desktop,
        min_version: 110,
        core_in: 150,
    },
    Extension {
        name: "GL_ARB_explicit_attrib_location",
        family: Family::Desktop,
        min_version: 110,
        core_in: 330,
    },
    Extension {
        name: "GL_ARB_shader_bit_encoding",
        family: Family::Desktop,
        min_version: 110,
        core_in: 330,
    },
    Extension {
        name: "GL_ARB_compatibility",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // Desktop GL 4.x language extensions the front end implements for every
    // desktop version (ARB_arrays_of_arrays and ARB_shading_language_420pack
    // need GLSL 1.20 / 1.30 per their specs' dependencies; Mesa advertises both
    // from 1.10 and lets the checker reject what the version lacks).
    Extension {
        name: "GL_ARB_arrays_of_arrays",
        family: Family::Desktop,
        min_version: 110,
        core_in: 430,
    },
    Extension {
        name: "GL_ARB_shading_language_420pack",
        family: Family::Desktop,
        min_version: 110,
        core_in: 420,
    },
    // GL_ARB_explicit_uniform_location: the spec requires GLSL 3.30 or
    // GL_ARB_explicit_attrib_location, which the checker enforces on use.
    Extension {
        name: "GL_ARB_explicit_uniform_location",
        family: Family::Desktop,
        min_version: 110,
        core_in: 430,
    },
    // GL_ARB_compute_shader: the compute stage, `shared` variables, the
    // barrier built-ins and the compute built-in variables and constants.
    // Like Mesa, advertised for every desktop version (the spec is written
    // against GLSL 4.20 but sets no lower bound for its language features).
    // GL_ARB_texture_gather: textureGather (2D, 2D array, cube, cube array)
    // and textureGatherOffset with a constant offset (GLSL 4.00 §8.9.4).
    Extension {
        name: "GL_ARB_texture_gather",
        family: Family::Desktop,
        min_version: 130,
        core_in: 400,
    },
    // GL_ARB_shader_subroutine: subroutine types, functions and uniforms
    // (GLSL 4.00 §6.1.2); the spec requires GLSL 1.50.
    Extension {
        name: "GL_ARB_shader_subroutine",
        family: Family::Desktop,
        min_version: 150,
        core_in: 400,
    },
    Extension {
        name: "GL_ARB_compute_shader",
        family: Family::Desktop,
        min_version: 110,
        core_in: 430,
    },
    // GL_ARB_shader_storage_buffer_object: `buffer` blocks, std430, the
    // memory qualifiers on buffer variables and the atomic memory functions.
    Extension {
        name: "GL_ARB_shader_storage_buffer_object",
        family: Family::Desktop,
        min_version: 110,
        core_in: 430,
    },
    // GL_ARB_shader_image_load_store (GLSL 1.30 per its dependencies): the
    // image types, format and memory qualifiers and the image functions;
    // GL_ARB_shader_image_size adds `imageSize`.
    Extension {
        name: "GL_ARB_shader_image_load_store",
        family: Family::Desktop,
        min_version: 130,
        core_in: 420,
    },
    Extension {
        name: "GL_ARB_shader_image_size",
        family: Family::Desktop,
        min_version: 130,
        core_in: 430,
    },
    // GL_ARB_enhanced_layouts needs GLSL 1.40 (its spec's dependencies); the
    // front end accepts and checks its qualifiers, see `check::qualifiers`.
    Extension {
        name: "GL_ARB_enhanced_layouts",
        family: Family::Desktop,
        min_version: 140,
        core_in: 440,
    },
    // GL_ARB_gpu_shader5 (core in GLSL 4.00; its spec needs GLSL 1.50, and
    // Mesa advertises it from 1.50): `precise`, `sample`, the geometry shader
    // `invocations` and `stream` layouts with `EmitStreamVertex` /
    // `EndStreamPrimitive`, `gl_InvocationID` and `gl_SampleMaskIn`, `fma`,
    // the 4x8/2x16 unorm/snorm packing functions, `interpolateAt*`, the
    // integer functions, `frexp`/`ldexp`, implicit `int`→`uint` conversions
    // and dynamically uniform sampler / uniform block array indexing. Its
    // `textureGather` forms and subroutines are not part of this entry's
    // front-end work (see `builtins::texture` and the subroutine checks).
    Extension {
        name: "GL_ARB_gpu_shader5",
        family: Family::Desktop,
        min_version: 150,
        core_in: 400,
    },
    // GL_ARB_shading_language_packing: the 2x16 and 4x8 packing functions
    // (core in GLSL 4.20; packUnorm4x8 and friends also with gpu_shader5).
    Extension {
        name: "GL_ARB_shading_language_packing",
        family: Family::Desktop,
        min_version: 110,
        core_in: 420,
    },
    Extension {
        name: "GL_MESA_shader_integer_functions",
        family: Family::Desktop,
        min_version: 130,
        core_in: 400,
    },
    Extension {
        name: "GL_AMD_conservative_depth",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GL_ARB_conservative_depth: the depth layouts on `gl_FragDepth`, core in
    // GLSL 4.20 (§4.4.2.3). They are a hint; the software driver tests depth
    // after shading either way, which every layout allows.
    Extension {
        name: "GL_ARB_conservative_depth",
        family: Family::Desktop,
        min_version: 110,
        core_in: 420,
    },
    // GL_ARB_separate_shader_objects, its language part: `layout(location)`
    // on every stage's inputs and outputs (and their block members) and the
    // `gl_PerVertex` redeclaration; core in GLSL 4.10.
    Extension {
        name: "GL_ARB_separate_shader_objects",
        family: Family::Desktop,
        min_version: 110,
        core_in: 410,
    },
    // GL_ARB_shader_atomic_counters: `atomic_uint` uniforms with their
    // binding/offset layouts, the `atomicCounter*` functions and the
    // `gl_Max*AtomicCounter*` constants; the linker lowers the counters to
    // storage-buffer atomics. GL_ARB_shader_atomic_counter_ops adds the
    // `atomicCounter*ARB` operations.
    Extension {
        name: "GL_ARB_shader_atomic_counters",
        family: Family::Desktop,
        min_version: 110,
        core_in: 420,
    },
    Extension {
        name: "GL_ARB_shader_atomic_counter_ops",
        family: Family::Desktop,
        min_version: 110,
        core_in: 460,
    },
    // GL_ARB_texture_cube_map_array: the `*samplerCubeArray*` types and their
    // lookups (`texture`, `textureLod`, `textureGrad`, `textureSize`, and
    // `texture(samplerCubeArrayShadow, vec4, float)`).
    Extension {
        name: "GL_ARB_texture_cube_map_array",
        family: Family::Desktop,
        min_version: 110,
        core_in: 400,
    },
    // GL_ARB_texture_query_levels: `textureQueryLevels` on every sampler type
    // with mipmaps.
    Extension {
        name: "GL_ARB_texture_query_levels",
        family: Family::Desktop,
        min_version: 110,
        core_in: 430,
    },
    // GL_ARB_texture_query_lod: `textureQueryLOD` in fragment shaders (the
    // extension requires GLSL 1.30; GLSL 4.00 has it as `textureQueryLod`).
    Extension {
        name: "GL_ARB_texture_query_lod",
        family: Family::Desktop,
        min_version: 130,
        core_in: 400,
    },
    // GL_NV_shader_atomic_float: float `atomicAdd` / `atomicExchange` on
    // buffer and shared variables (the image overloads need images, which rgl
    // does not have). GL_INTEL_shader_atomic_float_minmax: float `atomicMin`,
    // `atomicMax`, `atomicCompSwap` and `atomicExchange`. Both need the buffer
    // atomics of GLSL 4.30 / ARB_shader_storage_buffer_object / compute to be
    // usable at all.
    Extension {
        name: "GL_NV_shader_atomic_float",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    Extension {
        name: "GL_INTEL_shader_atomic_float_minmax",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GL_EXT_shader_integer_mix: `mix(x, y, bvec)` on integer and boolean
    // operands (core in GLSL 4.50); the extension requires GLSL 1.30.
    Extension {
        name: "GL_EXT_shader_integer_mix",
        family: Family::Desktop,
        min_version: 130,
        core_in: 450,
    },
    // GL_AMD_shader_trinary_minmax: `min3`, `max3`, `mid3`.
    Extension {
        name: "GL_AMD_shader_trinary_minmax",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GL_ARB_derivative_control: `dFdxFine`, `dFdxCoarse`, … and the
    // `fwidthFine`/`fwidthCoarse` pair (core in GLSL 4.50).
    Extension {
        name: "GL_ARB_derivative_control",
        family: Family::Desktop,
        min_version: 110,
        core_in: 450,
    },
    // GL_ARB_shader_group_vote: `anyInvocationARB`, `allInvocationsARB`,
    // `allInvocationsEqualARB` (rgl's invocation groups hold one invocation).
    Extension {
        name: "GL_ARB_shader_group_vote",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GL_ARB_shader_clock: `clock2x32ARB` (its `clockARB` returns a
    // `uint64_t`, which needs GL_ARB_gpu_shader_int64; rgl has no 64-bit
    // integers, so only the two-word form exists).
    Extension {
        name: "GL_ARB_shader_clock",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GL_ARB_shading_language_include: `#include` of the GL's named strings
    // and `#line N "path"` (the preprocessor, `pp::include`).
    Extension {
        name: "GL_ARB_shading_language_include",
        family: Family::Desktop,
        min_version: 110,
        core_in: 0,
    },
    // GLSL ES.
    Extension {
        name: "GL_OES_standard_derivatives",
        family: Family::Es,
        min_version: 100,
        core_in: 300,
    },
];

/// Looks up an extension by name.
pub fn find(name: &str) -> Option<&'static Extension> {
    EXTENSIONS.iter().find(|e| e.name == name)
}

fn available(e: &Extension, version: Version) -> bool {
    let family_ok = match e.family {
        Family::Desktop => !version.is_es(),
        Family::Es => version.is_es(),
    };
    family_ok && version.number >= e.min_version
}

/// True when `name` is advertised for shaders of `version` and `stage`.
pub fn is_supported(name: &str, version: Version, stage: Stage) -> bool {
    let _ = stage;
    find(name).is_some_and(|e| available(e, version))
}

/// Names of every extension advertised for `version` and `stage`.
pub fn supported(version: Version, stage: Stage) -> impl Iterator<Item = &'static str> {
    let _ = stage;
    EXTENSIONS
        .iter()
        .filter(move |e| available(e, version))
        .map(|e| e.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_separate() {
        let d = Version::desktop(110);
        let es = Version::es(100);
        assert!(is_supported("GL_ARB_texture_rectangle", d, Stage::Fragment));
        assert!(!is_supported(
            "GL_ARB_texture_rectangle",
            es,
            Stage::Fragment
        ));
        assert!(is_supported(
            "GL_OES_standard_derivatives",
            es,
            Stage::Fragment
        ));
        assert!(!is_supported(
            "GL_OES_standard_derivatives",
            d,
            Stage::Fragment
        ));
        assert!(!is_supported(
            "GL_AMD_shader_stencil_export",
            d,
            Stage::Fragment
        ));
        assert_eq!(
            supported(es, Stage::Vertex).collect::<Vec<_>>(),
            ["GL_OES_standard_derivatives"]
        );
    }
}
