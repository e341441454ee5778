//! Reading the words and numbers of one `.shader_test` line the way piglit's
//! `shader_runner.c` / `parser_utils.c` read them: whitespace-separated words,
//! parenthesised tuples `(a, b, c)`, floats through `strtod` (plus the
//! `0xXXXXXXXX` bit-pattern form of `parse_floats`), integers through
//! `strtol(…, 0)` (decimal, `0x` hex, leading-`0` octal). Every reader returns
//! a message instead of panicking on malformed text.

/// A cursor over the text of one line (comments already removed).
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    rest: &'a str,
    /// Notes about lenient reads (values shader_runner would leave unset, …).
    pub notes: Vec<String>,
}

/// Result of one read: the value or a message naming what was expected.
pub type Read<T> = Result<T, String>;

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            rest: text,
            notes: Vec::new(),
        }
    }

    fn skip_ws(&mut self) {
        self.rest = self.rest.trim_start();
    }

    /// The unread text, leading whitespace removed.
    pub fn rest(&mut self) -> &'a str {
        self.skip_ws();
        self.rest
    }

    /// True when only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.rest().is_empty()
    }

    /// Fails unless only whitespace is left.
    pub fn end(&mut self) -> Read<()> {
        let rest = self.rest();
        if rest.is_empty() {
            Ok(())
        } else {
            Err(format!("unexpected trailing text {rest:?}"))
        }
    }

    /// The next whitespace-delimited word (which may contain any other character).
    pub fn word(&mut self) -> Read<&'a str> {
        self.skip_ws();
        let end = self
            .rest
            .find(char::is_whitespace)
            .unwrap_or(self.rest.len());
        if end == 0 {
            return Err("expected a word, found the end of the line".into());
        }
        let (word, rest) = self.rest.split_at(end);
        self.rest = rest;
        Ok(word)
    }

    /// The next word when it is one of several punctuation-free words; does
    /// not move on a mismatch.
    pub fn eat(&mut self, word: &str) -> bool {
        let mut probe = self.clone();
        if probe.word().is_ok_and(|w| w == word) {
            *self = probe;
            true
        } else {
            false
        }
    }

    /// Requires the next word to be `word`.
    pub fn expect(&mut self, word: &str) -> Read<()> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(format!("expected {word:?}, found {:?}", self.peek_word()))
        }
    }

    /// The next word without consuming it (empty at the end).
    pub fn peek_word(&self) -> &'a str {
        let mut probe = self.clone();
        probe.word().unwrap_or("")
    }

    fn take(&mut self, len: usize, what: &str) -> Read<&'a str> {
        if len == 0 {
            return Err(match self.rest.split_whitespace().next() {
                Some(token) => format!("expected {what}, found {token:?}"),
                None => format!("expected {what}, found the end of the line"),
            });
        }
        let (token, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(token)
    }

    /// A float read like `strtod`: the longest numeric prefix of what follows
    /// (so `2.0;` reads 2.0 and leaves `;`), or a `0x` bit pattern.
    pub fn float(&mut self) -> Read<f64> {
        self.skip_ws();
        let token = self.take(float_prefix_len(self.rest), "a number")?;
        parse_float(token).ok_or_else(|| format!("{token:?} is not a number"))
    }

    /// A float stored as f32.
    pub fn f32(&mut self) -> Read<f32> {
        self.float().map(|v| v as f32)
    }

    /// A signed integer read like `strtol(…, 0)`: the longest integer prefix.
    pub fn int(&mut self) -> Read<i64> {
        self.skip_ws();
        let token = self.take(int_prefix_len(self.rest), "an integer")?;
        parse_int(token).ok_or_else(|| format!("{token:?} is not an integer"))
    }

    /// An integer that must fit in `i32`.
    pub fn i32(&mut self) -> Read<i32> {
        let v = self.int()?;
        i32::try_from(v).map_err(|_| format!("{v} does not fit in a 32-bit integer"))
    }

    /// A non-negative integer that must fit in `u32`.
    pub fn u32(&mut self) -> Read<u32> {
        let v = self.int()?;
        u32::try_from(v).map_err(|_| format!("{v} is not a non-negative 32-bit integer"))
    }

    /// `n` floats separated by whitespace.
    pub fn floats<const N: usize>(&mut self) -> Read<[f32; N]> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.f32()?;
        }
        Ok(out)
    }

    fn punct(&mut self, c: char) -> Read<()> {
        self.skip_ws();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                Ok(())
            }
            None => Err(format!(
                "expected {c:?}, found {:?}",
                self.rest
                    .chars()
                    .next()
                    .map(String::from)
                    .unwrap_or_default()
            )),
        }
    }

    /// A parenthesised tuple of exactly `n` numbers, read with `read`:
    /// `(a, b, c)`. Whitespace is allowed anywhere.
    pub fn tuple_with<T>(
        &mut self,
        n: usize,
        mut read: impl FnMut(&mut Self) -> Read<T>,
    ) -> Read<Vec<T>> {
        self.punct('(')?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            if i > 0 {
                self.punct(',')?;
            }
            out.push(read(self)?);
        }
        self.skip_ws();
        if self.rest.starts_with(',') {
            // More values than the command reads: shader_runner's sscanf stops
            // after the conversions it needs, so they are ignored.
            if let Some(close) = self.rest.find(')') {
                let extra = self.rest[1..close].trim();
                self.notes.push(format!(
                    "tuple has more than {n} values; the extra {extra:?} is ignored"
                ));
                self.rest = &self.rest[close + 1..];
                return Ok(out);
            }
        }
        self.punct(')')
            .map_err(|e| format!("{e} (a tuple of {n} values was expected)"))?;
        Ok(out)
    }

    /// A tuple of `N` floats.
    pub fn float_tuple<const N: usize>(&mut self) -> Read<[f32; N]> {
        let v = self.tuple_with(N, Cursor::f32)?;
        let mut out = [0.0; N];
        out.copy_from_slice(&v);
        Ok(out)
    }

    /// A tuple of `N` integers.
    pub fn int_tuple<const N: usize>(&mut self) -> Read<[i32; N]> {
        let v = self.tuple_with(N, Cursor::i32)?;
        let mut out = [0; N];
        out.copy_from_slice(&v);
        Ok(out)
    }

    /// A tuple of 1 to `max` integers (sizes such as `(w)`, `(w, h)`, `(w, h, d)`).
    pub fn size_tuple(&mut self, max: usize) -> Read<Vec<u32>> {
        self.punct('(')?;
        let mut out = vec![self.u32()?];
        loop {
            self.skip_ws();
            if self.rest.starts_with(')') {
                self.punct(')')?;
                return Ok(out);
            }
            self.punct(',')?;
            if out.len() == max {
                return Err(format!("a size has at most {max} values"));
            }
            out.push(self.u32()?);
        }
    }
}

fn digits(b: &[u8], mut i: usize, radix: u32) -> usize {
    while i < b.len() && (b[i] as char).is_digit(radix) {
        i += 1;
    }
    i
}

fn sign_len(b: &[u8]) -> usize {
    usize::from(matches!(b.first(), Some(b'+' | b'-')))
}

/// Length of the longest prefix of `s` that `strtod` (with piglit's `0x`
/// bit-pattern extension) would read; 0 when none.
pub fn float_prefix_len(s: &str) -> usize {
    let b = s.as_bytes();
    let start = sign_len(b);
    let body = &s[start..];
    if body.starts_with("0x") || body.starts_with("0X") {
        let end = digits(b, start + 2, 16);
        return if end > start + 2 { end } else { start + 1 };
    }
    let lower = body.get(..8).unwrap_or(body).to_ascii_lowercase();
    for word in ["infinity", "inf", "nan"] {
        if lower.starts_with(word) {
            return start + word.len();
        }
    }
    let int_end = digits(b, start, 10);
    let mut end = int_end;
    let mut any = int_end > start;
    if b.get(end) == Some(&b'.') {
        let frac_end = digits(b, end + 1, 10);
        any |= frac_end > end + 1;
        end = frac_end;
    }
    if !any {
        return 0;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let exp_start = end + 1 + sign_len(&b[end + 1..]);
        let exp_end = digits(b, exp_start, 10);
        if exp_end > exp_start {
            end = exp_end;
        }
    }
    end
}

/// Length of the longest prefix of `s` that `strtol(…, 0)` would read; 0 when none.
pub fn int_prefix_len(s: &str) -> usize {
    let b = s.as_bytes();
    let start = sign_len(b);
    let body = &s[start..];
    if body.starts_with("0x") || body.starts_with("0X") {
        let end = digits(b, start + 2, 16);
        return if end > start + 2 { end } else { start + 1 };
    }
    if body.starts_with('0') {
        return digits(b, start + 1, 8);
    }
    let end = digits(b, start, 10);
    if end > start {
        end
    } else {
        0
    }
}

/// Reads a float as piglit does: `strtod` syntax (decimal, exponent, `inf`,
/// `nan`, C99 hex floats are not used by the corpus), or `0x` followed by up to
/// 8 hex digits meaning the IEEE bits of a 32-bit float.
pub fn parse_float(token: &str) -> Option<f64> {
    let (negative, body) = match token.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 8 {
            return None;
        }
        let bits = u32::from_str_radix(hex, 16).ok()?;
        let v = f64::from(f32::from_bits(bits));
        return Some(if negative { -v } else { v });
    }
    // Rust's float syntax is a superset of what the corpus uses; refuse the
    // Rust-only spellings ("infinity" is fine in C too) and a trailing 'f'.
    if body.is_empty() || body.starts_with('_') {
        return None;
    }
    let v: f64 = body.parse().ok()?;
    Some(if negative { -v } else { v })
}

/// Reads an integer as `strtol(token, NULL, 0)` does for a complete token:
/// optional sign, then `0x` hex, leading-`0` octal, or decimal.
pub fn parse_int(token: &str) -> Option<i64> {
    let (negative, body) = match token.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let magnitude = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        u64::from_str_radix(&body[1..], 8).ok()?
    } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        body.parse::<u64>().ok()?
    } else {
        return None;
    };
    let v = i64::try_from(magnitude).ok()?;
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let cases: Vec<(&str, Option<f64>)> = vec![
            ("1", Some(1.0)),
            ("-0.5", Some(-0.5)),
            ("1e3", Some(1000.0)),
            ("0x3f800000", Some(1.0)),
            ("-0x40000000", Some(-2.0)),
            ("0x", None),
            ("abc", None),
            ("", None),
        ];
        let got: Vec<(&str, Option<f64>)> =
            cases.iter().map(|(t, _)| (*t, parse_float(t))).collect();
        assert_eq!(got, cases);
        let ints: Vec<(&str, Option<i64>)> = vec![
            ("10", Some(10)),
            ("-7", Some(-7)),
            ("0x10", Some(16)),
            ("010", Some(8)),
            ("0", Some(0)),
            ("1.5", None),
            ("99999999999999999999", None),
        ];
        let got: Vec<(&str, Option<i64>)> = ints.iter().map(|(t, _)| (*t, parse_int(t))).collect();
        assert_eq!(got, ints);
    }

    #[test]
    fn tuples() {
        let mut c = Cursor::new(" ( 1 , 2,3) (4, 5)  x");
        assert_eq!(c.int_tuple::<3>(), Ok([1, 2, 3]));
        assert_eq!(c.size_tuple(3), Ok(vec![4, 5]));
        assert_eq!(c.word(), Ok("x"));
        assert!(c.at_end());
        let mut bad = Cursor::new("(1, 2");
        assert!(bad.int_tuple::<2>().is_err());
        let mut long = Cursor::new("(1, 2, 3) x");
        assert_eq!(long.int_tuple::<2>(), Ok([1, 2]));
        assert_eq!(long.notes.len(), 1);
        assert_eq!(long.word(), Ok("x"));
    }
}
