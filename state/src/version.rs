//! The GL version a context reports (`GL_VERSION`, `GL_MAJOR_VERSION`,
//! `GL_MINOR_VERSION`, `GL_SHADING_LANGUAGE_VERSION`) and its override.
//!
//! rgl implements GL 3.3 with the compatibility profile, so that is what it
//! reports. Like Mesa's `MESA_GL_VERSION_OVERRIDE`, the environment variable
//! `RGL_GL_VERSION_OVERRIDE=4.5` makes contexts report another version. It is a
//! testing switch, as in Mesa: it lets a test that asks for a newer GL run the
//! features rgl does implement (the GLSL 4.x front end, compute, storage
//! buffers, images). It adds no feature; anything rgl lacks still fails.

use std::sync::OnceLock;

/// The version rgl implements fully.
pub const NATIVE: GlVersion = GlVersion { major: 3, minor: 3 };

/// A GL version number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GlVersion {
    /// The major number.
    pub major: u32,
    /// The minor number.
    pub minor: u32,
}

impl GlVersion {
    /// Parses `X.Y`, as Mesa's `MESA_GL_VERSION_OVERRIDE` does, accepting the
    /// versions that exist: 2.0–2.1, 3.0–3.3 and 4.0–4.6. Mesa's profile
    /// suffixes (`COMPAT`, `FC`) are accepted and ignored: rgl's contexts are
    /// always compatibility contexts.
    pub fn parse(text: &str) -> Option<GlVersion> {
        let text = text.trim();
        let number = text
            .strip_suffix("COMPAT")
            .or_else(|| text.strip_suffix("FC"))
            .unwrap_or(text);
        let (major, minor) = number.split_once('.')?;
        let major: u32 = major.parse().ok()?;
        let minor: u32 = minor.parse().ok()?;
        let max_minor = match major {
            2 => 1,
            3 => 3,
            4 => 6,
            _ => return None,
        };
        (minor <= max_minor).then_some(GlVersion { major, minor })
    }

    /// `major * 10 + minor`, the form piglit's `[require]` compares.
    pub fn number(self) -> u32 {
        self.major * 10 + self.minor
    }

    /// `GL_SHADING_LANGUAGE_VERSION` for this GL version (GL 4.x §22.2: GL 3.3
    /// and 4.x pair with GLSL of the same number).
    pub fn glsl_string(self) -> String {
        match (self.major, self.minor) {
            (2, 0) => "1.10".into(),
            (2, 1) => "1.20".into(),
            (3, 0) => "1.30".into(),
            (3, 1) => "1.40".into(),
            (3, 2) => "1.50".into(),
            (major, minor) => format!("{major}.{minor}0"),
        }
    }
}

/// The version contexts report: [`NATIVE`], or `RGL_GL_VERSION_OVERRIDE` when it
/// is set to a valid version (an invalid value is logged and ignored). Read once
/// per process.
pub fn reported() -> GlVersion {
    static VERSION: OnceLock<GlVersion> = OnceLock::new();
    *VERSION.get_or_init(|| {
        let Ok(value) = std::env::var("RGL_GL_VERSION_OVERRIDE") else {
            return NATIVE;
        };
        match GlVersion::parse(&value) {
            Some(v) => {
                log::warn!(
                    "RGL_GL_VERSION_OVERRIDE: reporting GL {}.{}; rgl implements GL {}.{}",
                    v.major,
                    v.minor,
                    NATIVE.major,
                    NATIVE.minor
                );
                v
            }
            None => {
                log::warn!("RGL_GL_VERSION_OVERRIDE: `{value}' is not a GL version; ignored");
                NATIVE
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::GlVersion;

    #[test]
    fn parses_mesa_style_values() {
        let v = |major, minor| Some(GlVersion { major, minor });
        assert_eq!(GlVersion::parse("4.5"), v(4, 5));
        assert_eq!(GlVersion::parse("4.5COMPAT"), v(4, 5));
        assert_eq!(GlVersion::parse("3.3FC"), v(3, 3));
        assert_eq!(GlVersion::parse(" 2.1 "), v(2, 1));
        for bad in ["", "4", "4.7", "5.0", "3.4", "x.y", "4.-1", "1.5"] {
            assert_eq!(GlVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn shading_language_strings() {
        let s = |major, minor| GlVersion { major, minor }.glsl_string();
        assert_eq!(s(3, 3), "3.30");
        assert_eq!(s(3, 2), "1.50");
        assert_eq!(s(4, 5), "4.50");
        assert_eq!(s(2, 0), "1.10");
    }
}
