//! The `[require]` section: one requirement per line, read as piglit's
//! `process_requirement` reads them (limits, extensions, `GLSL`, `GL`,
//! `SIZE`, `depthbuffer`, `rlimit`, `SSO ENABLED`, `SEPARABLE PROGRAM ENABLED`,
//! `SPIRV`, `INT`). Any other line is silently ignored, as piglit does
//! (comments, prose, typos); those lines are kept as [`Requirement::Ignored`].

use super::gl_enum;
use super::lex::{Cursor, Read};

/// A comparison operator of a requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `=` (also `==`)
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl CmpOp {
    fn parse(word: &str) -> Read<CmpOp> {
        Ok(match word {
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            "=" | "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            ">=" => CmpOp::Ge,
            ">" => CmpOp::Gt,
            other => return Err(format!("{other:?} is not a comparison operator")),
        })
    }

    /// `lhs OP rhs`.
    pub fn holds<T: PartialOrd>(self, lhs: T, rhs: T) -> bool {
        match self {
            CmpOp::Lt => lhs < rhs,
            CmpOp::Le => lhs <= rhs,
            CmpOp::Eq => lhs == rhs,
            CmpOp::Ne => lhs != rhs,
            CmpOp::Ge => lhs >= rhs,
            CmpOp::Gt => lhs > rhs,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
        }
    }
}

/// Which API a `GL` line constrains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlApi {
    /// `GL >= X.Y`: desktop GL, any profile.
    Any,
    /// `GL CORE >= X.Y`.
    Core,
    /// `GL COMPAT >= X.Y`.
    Compat,
    /// `GL ES >= X.Y`.
    Es,
}

/// One requirement line.
#[derive(Clone, Debug, PartialEq)]
pub enum Requirement {
    /// `GLSL [ES] OP X.YY`; `version` is `X*100+YY`.
    Glsl {
        /// GLSL ES.
        es: bool,
        /// Operator (piglit accepts only `>=` at run time).
        op: CmpOp,
        /// Version number.
        version: u32,
    },
    /// `GL [CORE|COMPAT|ES] OP X.Y`; `version` is `X*10+Y` (so `3.10` is 40).
    Gl {
        /// Which API / profile.
        api: GlApi,
        /// Operator.
        op: CmpOp,
        /// Version number.
        version: u32,
    },
    /// `GL_xxx` (must be advertised) or `!GL_xxx` (must not be).
    Extension {
        /// The name without `!`.
        name: String,
        /// True for `!GL_xxx`.
        absent: bool,
    },
    /// `GL_MAX_… OP N` or `INT GL_… OP N`: an integer limit.
    Limit {
        /// The queried enum.
        name: gl_enum::GlEnum,
        /// Operator.
        op: CmpOp,
        /// Right-hand side.
        value: i64,
    },
    /// `SIZE w h`: the window / framebuffer size.
    Size {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// `depthbuffer`: the framebuffer has depth and stencil.
    DepthBuffer,
    /// `rlimit N`: the runner caps its address space.
    Rlimit(u64),
    /// `SSO ENABLED`: separate shader objects.
    SsoEnabled,
    /// `SEPARABLE PROGRAM ENABLED`.
    SeparableProgram,
    /// `SPIRV YES|ONLY|NO`.
    Spirv(String),
    /// A line piglit ignores (comment, prose, typo), kept verbatim.
    Ignored(String),
}

/// Limits that piglit checks by name without the `INT` prefix.
const NAMED_LIMITS: &[&str] = &[
    "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
    "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
    "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
    "GL_MAX_VERTEX_ATTRIBS",
    "GL_MAX_VARYING_COMPONENTS",
    "GL_NUM_PROGRAM_BINARY_FORMATS",
];

/// Reads `X.Y` as (`X`, `Y`) with both parts decimal integers.
fn version_parts(word: &str) -> Read<(u32, u32)> {
    let (major, minor) = word
        .split_once('.')
        .ok_or_else(|| format!("{word:?} is not a version (X.Y)"))?;
    let number = |s: &str| -> Read<u32> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
            Err(format!("{word:?} is not a version (X.Y)"))
        } else {
            s.parse().map_err(|_| format!("{word:?} is not a version"))
        }
    };
    Ok((number(major)?, number(minor)?))
}

fn limit(c: &mut Cursor, name: &str) -> Read<Requirement> {
    let name = gl_enum::parse(name)?;
    let op = CmpOp::parse(c.word()?)?;
    let value = c.int()?;
    c.end()?;
    Ok(Requirement::Limit { name, op, value })
}

/// Reads one line (already trimmed, not empty).
pub fn parse_line(line: &str) -> Read<Requirement> {
    let mut c = Cursor::new(line);
    let first = c.word()?;
    if NAMED_LIMITS.contains(&first) {
        return limit(&mut c, first);
    }
    if let Some(rest) = first.strip_prefix('!') {
        if rest.starts_with("GL_") {
            c.end()?;
            return Ok(Requirement::Extension {
                name: rest.to_string(),
                absent: true,
            });
        }
    }
    if first.starts_with("GL_") {
        // piglit takes the first word as the extension name.
        return Ok(Requirement::Extension {
            name: first.to_string(),
            absent: false,
        });
    }
    match first {
        "GLSL" => {
            let es = c.eat("ES");
            let op = CmpOp::parse(c.word()?)?;
            let (major, minor) = version_parts(c.word()?)?;
            c.end()?;
            Ok(Requirement::Glsl {
                es,
                op,
                version: major * 100 + minor,
            })
        }
        "GL" => {
            let api = if c.eat("ES") {
                GlApi::Es
            } else if c.eat("CORE") {
                GlApi::Core
            } else if c.eat("COMPAT") {
                GlApi::Compat
            } else {
                GlApi::Any
            };
            let op = CmpOp::parse(c.word()?)?;
            let (major, minor) = version_parts(c.word()?)?;
            c.end()?;
            Ok(Requirement::Gl {
                api,
                op,
                version: major * 10 + minor,
            })
        }
        "INT" => {
            let name = c.word()?;
            limit(&mut c, name)
        }
        "SIZE" => {
            let width = c.u32()?;
            let height = c.u32()?;
            c.end()?;
            Ok(Requirement::Size { width, height })
        }
        "depthbuffer" => Ok(Requirement::DepthBuffer),
        "rlimit" => {
            let v = c.int()?;
            c.end()?;
            let v = u64::try_from(v).map_err(|_| format!("rlimit {v} is negative"))?;
            Ok(Requirement::Rlimit(v))
        }
        "SSO" if c.eat("ENABLED") => Ok(Requirement::SsoEnabled),
        "SEPARABLE" if c.eat("PROGRAM") && c.eat("ENABLED") => Ok(Requirement::SeparableProgram),
        "SPIRV" => {
            let what = c.word()?;
            match what {
                "YES" | "ONLY" | "NO" => Ok(Requirement::Spirv(what.to_string())),
                other => Err(format!("SPIRV must be YES, ONLY or NO, not {other:?}")),
            }
        }
        _ => Ok(Requirement::Ignored(line.to_string())),
    }
}

/// The requirements of one file, with the line each came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Requirements {
    /// In file order: (line number, requirement).
    pub lines: Vec<(u32, Requirement)>,
}

impl Requirements {
    /// The `GLSL` requirement, if any: (es, version).
    pub fn glsl(&self) -> Option<(bool, u32)> {
        self.lines.iter().find_map(|(_, r)| match r {
            Requirement::Glsl { es, version, .. } => Some((*es, *version)),
            _ => None,
        })
    }

    /// True when a `GL ES` line selects an ES context.
    pub fn es_context(&self) -> bool {
        self.lines
            .iter()
            .any(|(_, r)| matches!(r, Requirement::Gl { api: GlApi::Es, .. }))
    }

    /// `SIZE`, or piglit's default 250x250.
    pub fn size(&self) -> (u32, u32) {
        self.lines
            .iter()
            .find_map(|(_, r)| match r {
                Requirement::Size { width, height } => Some((*width, *height)),
                _ => None,
            })
            .unwrap_or((250, 250))
    }

    /// True when `depthbuffer` was given.
    pub fn depth_buffer(&self) -> bool {
        self.lines
            .iter()
            .any(|(_, r)| matches!(r, Requirement::DepthBuffer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let render = |line: &str| match parse_line(line) {
            Ok(r) => format!("{r:?}"),
            Err(e) => format!("error: {e}"),
        };
        let cases = [
            ("GLSL >= 1.30", "Glsl { es: false, op: Ge, version: 130 }"),
            ("GLSL ES >= 3.00", "Glsl { es: true, op: Ge, version: 300 }"),
            ("GL >= 3.10", "Gl { api: Any, op: Ge, version: 40 }"),
            ("GL COMPAT >= 3.2", "Gl { api: Compat, op: Ge, version: 32 }"),
            (
                "GL_MAX_VARYING_COMPONENTS >= 64",
                "Limit { name: GlEnum { name: \"GL_MAX_VARYING_COMPONENTS\", value: 35659 }, op: Ge, value: 64 }",
            ),
            ("!GL_ARB_foo", "Extension { name: \"GL_ARB_foo\", absent: true }"),
            ("SIZE 20 10", "Size { width: 20, height: 10 }"),
            ("# a comment", "Ignored(\"# a comment\")"),
            ("GLSL >= 1", "error: \"1\" is not a version (X.Y)"),
            ("GL >= 3.2 x", "error: unexpected trailing text \"x\""),
        ];
        let got: Vec<(&str, String)> = cases.iter().map(|(l, _)| (*l, render(l))).collect();
        let want: Vec<(&str, String)> = cases.iter().map(|(l, e)| (*l, e.to_string())).collect();
        assert_eq!(got, want);
    }
}
