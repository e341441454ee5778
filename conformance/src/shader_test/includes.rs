//! The `[shader include]` and `[shader include paths]` sections
//! (`GL_ARB_shading_language_include`), read as piglit's shader_runner reads
//! them: a `[shader include]` body's first line is the name of a named
//! string and the rest of the body (from the newline ending the name) its
//! string, defined with `glNamedStringARB` when the section is read; each
//! non-empty line of `[shader include paths]` is a search path given to
//! `glCompileShaderIncludeARB` for every shader (shader_runner drops the last
//! character of each line, the `/` every corpus path ends with: the runner
//! drops a final `/`, so a path without one is kept whole).

use super::link_only::NotRunnable;
use super::parse::{ShaderKind, ShaderTest};

/// The named strings and search paths of one test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderIncludes {
    /// (name, string) in file order (a later one replaces an earlier one of
    /// the same tree location, as `glNamedStringARB` does).
    pub strings: Vec<(String, String)>,
    /// Search paths, in order (the last `[shader include paths]` wins).
    pub paths: Vec<String>,
}

impl ShaderIncludes {
    /// The sections of `test`; a `[shader include]` without a name is an
    /// error (shader_runner: "No shader include path provided").
    pub fn of(test: &ShaderTest) -> Result<ShaderIncludes, NotRunnable> {
        let mut out = ShaderIncludes::default();
        for section in &test.shaders {
            match section.kind {
                ShaderKind::ShaderInclude => {
                    let body = &section.source;
                    let end = body.find('\n').unwrap_or(body.len());
                    if end == 0 {
                        return Err(NotRunnable::Error(format!(
                            "line {}: [shader include]: no shader include path provided",
                            section.header_line
                        )));
                    }
                    out.strings
                        .push((body[..end].to_owned(), body[end..].to_owned()));
                }
                ShaderKind::ShaderIncludePaths => {
                    out.paths = section
                        .source
                        .lines()
                        .filter(|l| !l.is_empty())
                        .map(|l| l.strip_suffix('/').unwrap_or(l).to_owned())
                        .collect();
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// True when the test has neither section.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty() && self.paths.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_become_named_strings_and_paths() {
        let text = "[require]\nGLSL >= 1.10\n\n[shader include paths]\n/a/\n\n/b c\n\n\
                    [shader include]\n/a/x.h\n\nint x;\n\n[fragment shader]\nvoid main() {}\n";
        let parsed = super::super::parse(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let inc = ShaderIncludes::of(&parsed.test).expect("valid sections");
        assert_eq!(inc.paths, ["/a", "/b c"]);
        assert_eq!(
            inc.strings,
            [("/a/x.h".to_owned(), "\n\nint x;\n\n".to_owned())]
        );
    }

    #[test]
    fn a_nameless_include_is_an_error() {
        let parsed = super::super::parse("[shader include]\n\nint x;\n");
        assert!(matches!(
            ShaderIncludes::of(&parsed.test),
            Err(NotRunnable::Error(_))
        ));
    }
}
