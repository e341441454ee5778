//! What rgl advertises, as seen by a glslparsertest: the GLSL versions it
//! compiles (`rgl_glsl::version`) and the extensions it exposes
//! (`rgl_glsl::extensions`, which also lists the GL-level `GL_ARB_compatibility`).

use rgl_glsl::{Profile, Stage, Version};

use super::config::TestVersion;

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
pub fn extension_advertised(name: &str, version: Version, stage: Stage) -> bool {
    rgl_glsl::extensions::is_supported(name, version, stage)
}
