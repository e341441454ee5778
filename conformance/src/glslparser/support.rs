//! What rgl advertises, as seen by a glslparsertest: the GLSL versions it
//! compiles and the extensions it exposes.
//!
//! The extension table belongs to the front end (`rgl_glsl::extensions`). Until
//! that table is on main this module carries a small local fallback list — the
//! extensions Mesa exposes on a GL 3.3 driver that the corpus asks for — and
//! says so in every skip reason it produces.

use rgl_glsl::{Profile, Stage, Version};

use super::config::TestVersion;

/// True while the answer comes from the local fallback list rather than
/// `rgl_glsl::extensions` (printed in skip reasons so nobody mistakes it).
pub const USING_FALLBACK_TABLE: bool = true;

/// The rgl version matching a test's `glsl_version`, or `None` when rgl does
/// not compile that version.
pub fn rgl_version(version: TestVersion) -> Option<Version> {
    if !Version::is_supported(version.number, version.es) {
        return None;
    }
    Some(if version.es {
        Version::es(version.number)
    } else if version.compatibility {
        Version {
            number: version.number,
            profile: Profile::Compatibility,
        }
    } else {
        Version::desktop(version.number)
    })
}

/// True when rgl advertises extension `name` for a shader of `version` and `stage`.
///
/// `GL_ARB_compatibility` is a GL (not GLSL) extension: rgl runs 1.40/1.50
/// compatibility-profile shaders, so a desktop context advertises it.
pub fn extension_advertised(name: &str, version: Version, stage: Stage) -> bool {
    if name == "GL_ARB_compatibility" {
        return !version.is_es();
    }
    fallback_is_supported(name, version, stage)
}

/// Local stand-in for `rgl_glsl::extensions::is_supported`.
fn fallback_is_supported(name: &str, version: Version, _stage: Stage) -> bool {
    const DESKTOP: &[&str] = &[
        "GL_ARB_draw_instanced",
        "GL_ARB_explicit_attrib_location",
        "GL_ARB_fragment_coord_conventions",
        "GL_ARB_texture_multisample",
        "GL_ARB_texture_rectangle",
        "GL_ARB_uniform_buffer_object",
        "GL_EXT_texture_array",
    ];
    const ES_100: &[&str] = &["GL_OES_standard_derivatives"];
    if version.is_es() {
        version.number == 100 && ES_100.contains(&name)
    } else {
        DESKTOP.contains(&name)
    }
}
