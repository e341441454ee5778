//! GLSL language versions, profiles and shader stages, and the one table of
//! versions rgl accepts.

use std::fmt;

/// Language profile selected by `#version N [core|compatibility|es]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Desktop core profile (the default for 1.40+ without a suffix).
    Core,
    /// Desktop compatibility profile (all desktop versions before 1.40 behave so).
    Compatibility,
    /// OpenGL ES shading language.
    Es,
}

/// A GLSL version plus profile, e.g. 150 compatibility or 300 es.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// The `#version` number: 110–150, 330, 400–450, or ES 100, 300, 310.
    pub number: u16,
    /// The profile.
    pub profile: Profile,
}

/// Every version rgl compiles, in the order error messages list them.
pub const SUPPORTED_VERSIONS: &[(u16, bool)] = &[
    (110, false),
    (120, false),
    (130, false),
    (140, false),
    (150, false),
    (330, false),
    (400, false),
    (410, false),
    (420, false),
    (430, false),
    (440, false),
    (450, false),
    (100, true),
    (300, true),
    (310, true),
];

impl Version {
    /// GLSL 1.10, the version of a shader without `#version`.
    pub const DEFAULT: Version = Version {
        number: 110,
        profile: Profile::Compatibility,
    };

    /// Builds a desktop version with the profile the spec implies when no
    /// profile word is given.
    pub fn desktop(number: u16) -> Version {
        let profile = if number < 140 {
            Profile::Compatibility
        } else {
            Profile::Core
        };
        Version { number, profile }
    }
    /// Builds an ES version.
    pub fn es(number: u16) -> Version {
        Version {
            number,
            profile: Profile::Es,
        }
    }
    /// True for GLSL ES.
    pub fn is_es(self) -> bool {
        self.profile == Profile::Es
    }
    /// True when compatibility-profile built-ins (`gl_Vertex`, `gl_FragColor`, …)
    /// are visible: all desktop versions below 1.40 and any `compatibility` profile.
    pub fn is_compat(self) -> bool {
        self.profile == Profile::Compatibility
    }
    /// True if this is desktop GLSL at least `desktop`, or ES at least `es`
    /// (pass 0 to mean "never" for that family).
    pub fn at_least(self, desktop: u16, es: u16) -> bool {
        if self.is_es() {
            es != 0 && self.number >= es
        } else {
            desktop != 0 && self.number >= desktop
        }
    }
    /// True when the pair (number, es) is in [`SUPPORTED_VERSIONS`].
    pub fn is_supported(number: u16, es: bool) -> bool {
        SUPPORTED_VERSIONS.contains(&(number, es))
    }
    /// Human list of supported versions, Mesa style: "1.10, 1.20, … 3.00 ES".
    pub fn supported_list() -> String {
        let names: Vec<String> = SUPPORTED_VERSIONS
            .iter()
            .map(|&(n, es)| format!("{}.{:02}{}", n / 100, n % 100, if es { " ES" } else { "" }))
            .collect();
        names.join(", ")
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.number / 100, self.number % 100)?;
        if self.is_es() {
            write!(f, " ES")?;
        }
        Ok(())
    }
}

/// A pipeline stage rgl compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Geometry shader (GLSL 1.50+).
    Geometry,
    /// Fragment shader.
    Fragment,
    /// Compute shader (GLSL 4.30 / ES 3.10, or `GL_ARB_compute_shader`).
    Compute,
}

impl Stage {
    /// Stage from a file extension (`vert`, `geom`, `frag`, `comp`).
    pub fn from_extension(ext: &str) -> Option<Stage> {
        match ext {
            "vert" => Some(Stage::Vertex),
            "geom" => Some(Stage::Geometry),
            "frag" => Some(Stage::Fragment),
            "comp" => Some(Stage::Compute),
            _ => None,
        }
    }
    /// Lower-case name as Mesa prints it ("vertex", "geometry", "fragment",
    /// "compute").
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Geometry => "geometry",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
