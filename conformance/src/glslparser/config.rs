//! The `[config]` block of a piglit glslparsertest file: finding it, reading its
//! `key: value` entries and interpreting them (expected result, GLSL version,
//! required extensions, `check_link`). The grammar follows piglit's
//! `framework/test/glsl_parser_test.py` line for line; every way piglit refuses a
//! block is a [`ConfigError`] here.

use std::fmt;

/// The keys piglit accepts in a config block.
const KEYS: &[&str] = &[
    "expect_result",
    "glsl_version",
    "require_extensions",
    "check_link",
    "dummy_shader_include",
    "shader_include_path",
];

/// Why a config block is invalid (piglit treats each as a fatal error for the test).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// An opening line was found but no closing `[end config]` line.
    NotClosed,
    /// A line inside the block is neither blank, nor an entry, nor the end.
    Malformed {
        /// The offending line (trimmed).
        line: String,
    },
    /// A key outside the set piglit knows.
    UnknownKey(String),
    /// A key given twice.
    DuplicateKey(String),
    /// A value containing a character other than letters, digits, `_ . ! /` and space.
    BadCharacter {
        /// The key.
        key: String,
        /// The first offending character.
        character: char,
    },
    /// `expect_result` or `glsl_version` missing or empty.
    MissingKey(&'static str),
    /// `expect_result` is neither `pass` nor `fail`.
    BadExpectResult(String),
    /// `glsl_version` cannot be read as a version.
    BadVersion(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NotClosed => write!(f, "no [end config] line"),
            ConfigError::Malformed { line } => {
                write!(f, "malformed line in config block: {line:?}")
            }
            ConfigError::UnknownKey(key) => write!(f, "unknown config key {key:?}"),
            ConfigError::DuplicateKey(key) => write!(f, "duplicate config key {key:?}"),
            ConfigError::BadCharacter { key, character } => {
                write!(
                    f,
                    "value of {key:?} contains the invalid character {character:?}"
                )
            }
            ConfigError::MissingKey(key) => write!(f, "required config key {key:?} is missing"),
            ConfigError::BadExpectResult(value) => {
                write!(f, "expect_result must be pass or fail, not {value:?}")
            }
            ConfigError::BadVersion(value) => write!(f, "cannot read glsl_version {value:?}"),
        }
    }
}

/// The raw entries of a config block, in file order.
pub type RawConfig = Vec<(String, String)>;

/// If `line` (already trimmed) starts with one of piglit's comment leaders `//`,
/// `/*` or `*`, returns the rest with leading whitespace removed.
fn strip_leader(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("//")
        .or_else(|| line.strip_prefix("/*"))
        .or_else(|| line.strip_prefix('*'))?;
    Some(rest.trim_start())
}

/// True for a line matching `(//|/*|*)\s*[config]` at its start.
fn is_open(line: &str) -> bool {
    strip_leader(line).is_some_and(|rest| rest.starts_with("[config]"))
}

/// True for a line matching `(//|/*|*)\s*[end config]` at its start.
fn is_close(line: &str) -> bool {
    strip_leader(line).is_some_and(|rest| rest.starts_with("[end config]"))
}

/// Reads `(//|/*|*)\s*KEY:\sVALUE` where KEY is `[a-z_]*` and VALUE the rest
/// of the line.
fn entry(line: &str) -> Option<(&str, &str)> {
    let rest = strip_leader(line)?;
    let key_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || *b == b'_')
        .count();
    let (key, after) = rest.split_at(key_len);
    let after = after.strip_prefix(':')?;
    let mut chars = after.chars();
    let first = chars.next()?;
    if !first.is_whitespace() {
        return None;
    }
    Some((key, chars.as_str()))
}

/// Finds and reads the config block. `Ok(None)` means the file has no
/// `[config]` line, so it is not a glslparser test.
pub fn find_block(text: &str) -> Result<Option<RawConfig>, ConfigError> {
    let mut lines = text.split('\n').map(str::trim);
    if !lines.by_ref().any(is_open) {
        return Ok(None);
    }
    let mut entries: RawConfig = Vec::new();
    for line in lines {
        if line.is_empty() || line == "//" || line == "*" {
            continue;
        }
        if is_close(line) {
            return Ok(Some(entries));
        }
        let Some((key, value)) = entry(line) else {
            return Err(ConfigError::Malformed {
                line: line.to_string(),
            });
        };
        if !KEYS.contains(&key) {
            return Err(ConfigError::UnknownKey(key.to_string()));
        }
        if entries.iter().any(|(k, _)| k == key) {
            return Err(ConfigError::DuplicateKey(key.to_string()));
        }
        if let Some(character) = value
            .chars()
            .find(|c| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '!' | ' ' | '/')))
        {
            return Err(ConfigError::BadCharacter {
                key: key.to_string(),
                character,
            });
        }
        entries.push((key.to_string(), value.to_string()));
    }
    Err(ConfigError::NotClosed)
}

/// The GLSL version a test asks for, as written in `glsl_version`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestVersion {
    /// `X.YY` as the number `X*100+YY`.
    pub number: u16,
    /// GLSL ES (an `es` suffix, or 1.00/3.00/3.10/3.20 without suffix).
    pub es: bool,
    /// Written with the `compatibility` suffix.
    pub compatibility: bool,
}

impl TestVersion {
    /// Reads `1.10`, `1.50compatibility`, `3.00 es`, `1.00`, … the way piglit's
    /// runner and `glslparsertest` do.
    pub fn parse(value: &str) -> Option<TestVersion> {
        let (number_text, es_suffix, compatibility) = if let Some(n) = value.strip_suffix("es") {
            (n.trim_end(), true, false)
        } else if let Some(n) = value.strip_suffix("compatibility") {
            (n.trim_end(), false, true)
        } else {
            (value, false, false)
        };
        let (major, minor) = number_text.split_once('.')?;
        if major.is_empty()
            || minor.len() != 2
            || !major.bytes().all(|b| b.is_ascii_digit())
            || !minor.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let major: u16 = major.parse().ok()?;
        let minor: u16 = minor.parse().ok()?;
        let number = major.checked_mul(100)?.checked_add(minor)?;
        let es = es_suffix || (!compatibility && matches!(number, 100 | 300 | 310 | 320));
        Some(TestVersion {
            number,
            es,
            compatibility,
        })
    }
}

impl fmt::Display for TestVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.number / 100, self.number % 100)?;
        if self.es {
            write!(f, " ES")?;
        }
        if self.compatibility {
            write!(f, " compatibility")?;
        }
        Ok(())
    }
}

/// One required extension: `GL_X` must be advertised, `!GL_X` must not be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// Extension name without the `!`.
    pub name: String,
    /// True for `!GL_X`.
    pub absent: bool,
}

/// A validated config block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `expect_result: pass`.
    pub expect_pass: bool,
    /// `glsl_version`.
    pub version: TestVersion,
    /// `require_extensions`, in order.
    pub extensions: Vec<Requirement>,
    /// `check_link: true`.
    pub check_link: bool,
    /// `dummy_shader_include: true`: piglit's glslparsertest defines the
    /// named string `/dummy/path_to/shader_include` (empty) before compiling.
    pub dummy_shader_include: bool,
    /// `shader_include_path`: piglit compiles with
    /// `glCompileShaderIncludeARB` and this one search path.
    pub shader_include_path: Option<String>,
}

impl Config {
    /// True when the test needs named strings or a search path.
    pub fn needs_shader_include(&self) -> bool {
        self.dummy_shader_include || self.shader_include_path.is_some()
    }
}

impl Config {
    /// Validates raw entries; applies piglit's defaults for optional keys.
    pub fn from_raw(raw: &RawConfig) -> Result<Config, ConfigError> {
        let get = |key: &str| raw.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let expect = get("expect_result").filter(|v| !v.is_empty());
        let expect = expect.ok_or(ConfigError::MissingKey("expect_result"))?;
        let version = get("glsl_version").filter(|v| !v.is_empty());
        let version = version.ok_or(ConfigError::MissingKey("glsl_version"))?;
        let expect_pass = match expect {
            "pass" => true,
            "fail" => false,
            other => return Err(ConfigError::BadExpectResult(other.to_string())),
        };
        let version = TestVersion::parse(version)
            .ok_or_else(|| ConfigError::BadVersion(version.to_string()))?;
        let extensions = get("require_extensions")
            .unwrap_or("")
            .split_whitespace()
            .map(|word| match word.strip_prefix('!') {
                Some(name) => Requirement {
                    name: name.to_string(),
                    absent: true,
                },
                None => Requirement {
                    name: word.to_string(),
                    absent: false,
                },
            })
            .collect();
        let is_true = |key: &str| get(key).is_some_and(|v| v.eq_ignore_ascii_case("true"));
        Ok(Config {
            expect_pass,
            version,
            extensions,
            check_link: is_true("check_link"),
            dummy_shader_include: is_true("dummy_shader_include"),
            shader_include_path: get("shader_include_path")
                .filter(|v| !v.is_empty())
                .map(str::to_string),
        })
    }
}

/// Finds, reads and validates the config block of a test file.
pub fn parse(text: &str) -> Result<Option<Config>, ConfigError> {
    match find_block(text)? {
        None => Ok(None),
        Some(raw) => Config::from_raw(&raw).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders the outcome of [`parse`] as one line of text.
    fn render(text: &str) -> String {
        match parse(text) {
            Ok(None) => "not a test".to_string(),
            Ok(Some(c)) => {
                let exts: Vec<String> = c
                    .extensions
                    .iter()
                    .map(|r| format!("{}{}", if r.absent { "!" } else { "" }, r.name))
                    .collect();
                format!(
                    "{} {} [{}] link={} include={}",
                    if c.expect_pass { "pass" } else { "fail" },
                    c.version,
                    exts.join(" "),
                    c.check_link,
                    c.needs_shader_include()
                )
            }
            Err(e) => format!("error: {e}"),
        }
    }

    fn check(text: &str, expected: &str) {
        assert_eq!(render(text), expected, "input:\n{text}");
    }

    #[test]
    fn line_comment_block() {
        check(
            "// [config]\n// expect_result: pass\n// glsl_version: 1.10\n// [end config]\nvoid main() {}\n",
            "pass 1.10 [] link=false include=false",
        );
    }

    #[test]
    fn c_comment_block_with_blank_star_lines() {
        check(
            "/* [config]\n *\n * expect_result: fail\n * glsl_version: 1.50compatibility\n * require_extensions: GL_ARB_compatibility !GL_EXT_foo\n * check_link: True\n * [end config]\n */\n",
            "fail 1.50 compatibility [GL_ARB_compatibility !GL_EXT_foo] link=true include=false",
        );
    }

    #[test]
    fn header_without_space_and_crlf() {
        check(
            "/*[config]\r\n * expect_result: pass\r\n * glsl_version: 3.00 es\r\n * [end config]\r\n */\r\n",
            "pass 3.00 ES [] link=false include=false",
        );
    }

    #[test]
    fn es_versions_without_suffix() {
        check(
            "// [config]\n// expect_result: pass\n// glsl_version: 1.00\n// [end config]\n",
            "pass 1.00 ES [] link=false include=false",
        );
        check(
            "// [config]\n// expect_result: pass\n// glsl_version: 3.10 es\n// [end config]\n",
            "pass 3.10 ES [] link=false include=false",
        );
    }

    #[test]
    fn no_block() {
        check("void main() {}\n// config\n", "not a test");
    }

    #[test]
    fn refused_blocks() {
        check(
            "// [config]\n// expect_result: pass\n",
            "error: no [end config] line",
        );
        check(
            "// [config]\n// expect_result: pass\n// expect_result: fail\n// glsl_version: 1.10\n// [end config]\n",
            "error: duplicate config key \"expect_result\"",
        );
        check(
            "// [config]\n// expect_result: pass\nvoid main() {}\n// [end config]\n",
            "error: malformed line in config block: \"void main() {}\"",
        );
        check(
            "// [config]\n// expect_reslt: pass\n// [end config]\n",
            "error: unknown config key \"expect_reslt\"",
        );
        check(
            "// [config]\n// expect_result:pass\n// [end config]\n",
            "error: malformed line in config block: \"// expect_result:pass\"",
        );
        check(
            "/* [config]\n * expect_result: pass */\n * [end config]\n",
            "error: value of \"expect_result\" contains the invalid character '*'",
        );
        check(
            "// [config]\n// glsl_version: 1.10\n// [end config]\n",
            "error: required config key \"expect_result\" is missing",
        );
        check(
            "// [config]\n// expect_result: maybe\n// glsl_version: 1.10\n// [end config]\n",
            "error: expect_result must be pass or fail, not \"maybe\"",
        );
        check(
            "// [config]\n// expect_result: pass\n// glsl_version: 1.1\n// [end config]\n",
            "error: cannot read glsl_version \"1.1\"",
        );
    }
}
