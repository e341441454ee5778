//! Pass parameters given as text: the `key=value` words after a pass name in a file
//! test (`// args: func=less slot=3`) or a pass list. A parameterised pass is a struct
//! with fields; it implements [`FromPassArgs`] to read them, and the registry
//! ([`super::build_pass`]) builds every pass, with or without parameters, the same way.
//! Numbers are decimal or `0x`/`0b` prefixed.

use super::Pass;

/// Why a pass could not be built from its name and arguments.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassArgsError {
    /// No registered pass has this name.
    #[error("unknown NIR pass `{0}` (known: {known})", known = super::PASS_NAMES.join(", "))]
    UnknownPass(String),
    /// An argument word is not `key=value`.
    #[error("pass argument `{0}` is not key=value")]
    NotKeyValue(String),
    /// The pass has no parameter of this name (or takes none).
    #[error("pass {pass} has no argument `{key}`")]
    UnknownKey {
        /// The pass.
        pass: &'static str,
        /// The key given.
        key: String,
    },
    /// A parameter the pass needs was not given.
    #[error("pass {pass} needs the argument `{key}`")]
    Missing {
        /// The pass.
        pass: &'static str,
        /// The key missing.
        key: &'static str,
    },
    /// A value that does not parse as the parameter's type.
    #[error("pass {pass}: bad value `{value}` for `{key}` ({expected})")]
    BadValue {
        /// The pass.
        pass: &'static str,
        /// The key.
        key: &'static str,
        /// The text given.
        value: String,
        /// What the parameter takes.
        expected: &'static str,
    },
}

/// The arguments of one pass, consumed by its [`FromPassArgs`] implementation.
#[derive(Debug)]
pub struct PassArgs<'a> {
    pass: &'static str,
    pairs: Vec<(&'a str, &'a str)>,
    used: Vec<bool>,
}

impl<'a> PassArgs<'a> {
    /// Splits `text` (whitespace-separated `key=value` words) for pass `pass`.
    pub fn parse(pass: &'static str, text: &'a str) -> Result<PassArgs<'a>, PassArgsError> {
        let mut pairs = Vec::new();
        for word in text.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| PassArgsError::NotKeyValue(word.to_string()))?;
            pairs.push((key, value));
        }
        let used = vec![false; pairs.len()];
        Ok(PassArgs { pass, pairs, used })
    }

    /// The pass these arguments are for.
    pub fn pass(&self) -> &'static str {
        self.pass
    }

    /// The text of argument `key`, if given (marks it used).
    pub fn text(&mut self, key: &str) -> Option<&'a str> {
        let i = self.pairs.iter().position(|(k, _)| *k == key)?;
        self.used[i] = true;
        Some(self.pairs[i].1)
    }

    /// Argument `key` parsed by `parse`, which names what it expects on failure.
    pub fn parsed<T>(
        &mut self,
        key: &'static str,
        expected: &'static str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, PassArgsError> {
        let Some(value) = self.text(key) else {
            return Ok(None);
        };
        match parse(value) {
            Some(v) => Ok(Some(v)),
            None => Err(PassArgsError::BadValue {
                pass: self.pass,
                key,
                value: value.to_string(),
                expected,
            }),
        }
    }

    /// Argument `key` parsed by `parse`; an error when it is missing.
    pub fn required<T>(
        &mut self,
        key: &'static str,
        expected: &'static str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, PassArgsError> {
        self.parsed(key, expected, parse)?
            .ok_or(PassArgsError::Missing {
                pass: self.pass,
                key,
            })
    }

    /// Fails on any argument no [`Self::text`] call consumed.
    pub fn finish(self) -> Result<(), PassArgsError> {
        match self.pairs.iter().zip(&self.used).find(|(_, used)| !**used) {
            Some(((key, _), _)) => Err(PassArgsError::UnknownKey {
                pass: self.pass,
                key: (*key).to_string(),
            }),
            None => Ok(()),
        }
    }
}

/// A decimal, `0x` hex or `0b` binary number.
pub fn parse_u32(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u32::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// An 8-bit mask written as a number ([`parse_u32`]).
pub fn parse_u8(s: &str) -> Option<u8> {
    parse_u32(s).and_then(|v| u8::try_from(v).ok())
}

/// A pass the registry builds from its arguments. Passes without parameters take
/// none; parameterised passes read their fields (required unless the pass documents a
/// default).
pub trait FromPassArgs: Pass + Sized {
    /// Builds the pass, consuming its arguments from `args`.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError>;
}
