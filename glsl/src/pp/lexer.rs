//! Preprocessing-token lexer: splits source text into logical lines of tokens.
//! Owns line continuation (backslash-newline, honoured even inside tokens and
//! `//` comments), comment removal, the UTF-8 BOM, `\n`/`\r\n`/`\r` newlines,
//! GLSL number spelling, punctuators, and the symbol interner every token text
//! lives in (so the rest of the preprocessor moves `Copy` tokens around).

use std::sync::Arc;

use crate::span::SourceLoc;

/// An interned token text: an index into the [`Interner`] of the
/// preprocessing run that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

impl Sym {
    /// The index, for side tables keyed by symbol.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Kind of a preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TKind {
    /// Identifier or keyword.
    Ident,
    /// Integer literal.
    Int,
    /// Floating-point literal.
    Float,
    /// Operator or punctuation (including `#` and `##`).
    Punct,
    /// A character that starts no GLSL token (`@`, `"`, NUL, non-ASCII, …).
    Other,
    /// Inside a macro body: a reference to parameter number `sym.0`.
    Param,
    /// The empty result of an empty macro argument next to `##`.
    Placemarker,
}

/// Whitespace (or a comment) precedes the token on its line.
pub(crate) const F_WS: u8 = 1;
/// The token names a macro that was disabled when it was scanned ("painted
/// blue"): it is never expanded again.
pub(crate) const F_NO_EXPAND: u8 = 2;

/// One preprocessing token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    /// Text.
    pub sym: Sym,
    /// Kind.
    pub kind: TKind,
    /// `F_*` bits.
    pub flags: u8,
    /// Location.
    pub loc: SourceLoc,
}

impl Tok {
    pub(crate) fn is(&self, sym: Sym) -> bool {
        self.sym == sym && matches!(self.kind, TKind::Punct | TKind::Ident)
    }
    pub(crate) fn ws(&self) -> bool {
        self.flags & F_WS != 0
    }
}

/// Punctuators, longest first within each leading character. The index of an
/// entry is its [`Sym`].
pub(crate) const PUNCTS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ".", ",", ":", ";", "+", "-", "*", "/", "%", "<", ">", "=", "!",
    "~", "&", "|", "^", "?", "#", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "++",
    "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
];

/// Well-known symbols (indices into the pre-seeded interner).
pub(crate) mod sym {
    use super::Sym;
    pub const LPAREN: Sym = Sym(0);
    pub const RPAREN: Sym = Sym(1);
    pub const LBRACE: Sym = Sym(4);
    pub const RBRACE: Sym = Sym(5);
    pub const DOT: Sym = Sym(6);
    pub const COMMA: Sym = Sym(7);
    pub const COLON: Sym = Sym(8);
    pub const PLUS: Sym = Sym(10);
    pub const MINUS: Sym = Sym(11);
    pub const STAR: Sym = Sym(12);
    pub const SLASH: Sym = Sym(13);
    pub const PERCENT: Sym = Sym(14);
    pub const LT: Sym = Sym(15);
    pub const GT: Sym = Sym(16);
    pub const BANG: Sym = Sym(18);
    pub const TILDE: Sym = Sym(19);
    pub const AMP: Sym = Sym(20);
    pub const PIPE: Sym = Sym(21);
    pub const CARET: Sym = Sym(22);
    pub const HASH: Sym = Sym(24);
    pub const PASTE: Sym = Sym(25);
    pub const SHL: Sym = Sym(26);
    pub const SHR: Sym = Sym(27);
    pub const LE: Sym = Sym(28);
    pub const GE: Sym = Sym(29);
    pub const EQ: Sym = Sym(30);
    pub const NE: Sym = Sym(31);
    pub const AND: Sym = Sym(32);
    pub const OR: Sym = Sym(33);
    pub const SHL_ASSIGN: Sym = Sym(45);
    pub const SHR_ASSIGN: Sym = Sym(46);
    // Identifiers seeded right after the punctuators.
    pub const DEFINED: Sym = Sym(47);
    pub const LINE: Sym = Sym(48);
    pub const FILE: Sym = Sym(49);
    pub const VERSION: Sym = Sym(50);
    pub const FIRST_FREE: u32 = 51;
}

const SEEDED_IDENTS: &[&str] = &["defined", "__LINE__", "__FILE__", "__VERSION__"];

/// Texts of the predefined macros every run defines when it fixes the
/// version (GLSL 4.60 §3.3: `GL_ES`, the profile macros,
/// `GL_FRAGMENT_PRECISION_HIGH`, one macro per supported extension, all with
/// the value `1`). They are seeded after [`sym::FIRST_FREE`] so that defining
/// them finds their symbols instead of allocating a string per shader.
const SEEDED_MACRO_TEXTS: &[&str] = &[
    "1",
    "GL_ES",
    "GL_core_profile",
    "GL_compatibility_profile",
    "GL_FRAGMENT_PRECISION_HIGH",
];

/// Every distinct token text of one preprocessing run. Punctuators come
/// first, in the order of [`PUNCTS`], so the symbol of a punctuator is fixed.
///
/// The lookup table is open addressing over `symbol + 1` (0: empty slot) with
/// each symbol's full 64-bit hash kept beside its text, so a probe compares
/// bytes only on a hash match and growing never rehashes a string. The lexer
/// interns every identifier and number it reads, so this is on the hot path of
/// the preprocessor (as `glcpp`'s hash table is in Mesa).
#[derive(Clone)]
pub struct Interner {
    strs: Vec<Arc<str>>,
    hashes: Vec<u64>,
    /// Power-of-two slot table; at most half full.
    table: Vec<u32>,
}

/// Multiplier of the word hash (the constant of rustc's FxHasher v2).
const HASH_K: u64 = 0xf135_7aea_2e62_a9c5;

/// Hash of a token text: eight bytes at a time, the tail zero-padded, the
/// length mixed in. The high bits pick the slot.
#[inline]
fn hash_text(b: &[u8]) -> u64 {
    let mut h = (b.len() as u64).wrapping_mul(HASH_K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(26) ^ u64::from_le_bytes(w)).wrapping_mul(HASH_K);
    }
    // The 1–7 byte tail as two overlapping 4-byte reads, or first, middle
    // and last byte (with the length already mixed in, equal texts still hash
    // equal, and no variable-length copy is needed).
    let rest = chunks.remainder();
    let n = rest.len();
    if n > 0 {
        let tail = if n >= 4 {
            let word = |i: usize| {
                let mut w = [0u8; 4];
                w.copy_from_slice(&rest[i..i + 4]);
                u64::from(u32::from_le_bytes(w))
            };
            word(0) | (word(n - 4) << 32)
        } else {
            u64::from(rest[0]) | (u64::from(rest[n / 2]) << 8) | (u64::from(rest[n - 1]) << 16)
        };
        h = (h.rotate_left(26) ^ tail).wrapping_mul(HASH_K);
    }
    // Fold the well-mixed high half into the low bits as well.
    h ^ (h >> 29)
}

/// Byte equality of two token texts, eight bytes at a time, inline: the
/// texts are short (identifiers, numbers), where a `memcmp` call costs more
/// than the comparison.
#[inline]
fn same_text(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        let (mut wx, mut wy) = ([0u8; 8], [0u8; 8]);
        wx.copy_from_slice(x);
        wy.copy_from_slice(y);
        if wx != wy {
            return false;
        }
    }
    ca.remainder()
        .iter()
        .zip(cb.remainder())
        .all(|(x, y)| x == y)
}

impl Interner {
    /// An interner holding only the punctuators and the preprocessor's
    /// well-known names.
    pub fn new() -> Self {
        // The seeded symbols are built once per process; each run copies the
        // table and shares the strings instead of allocating one per symbol.
        static SEEDED: std::sync::OnceLock<Interner> = std::sync::OnceLock::new();
        let seeded = SEEDED.get_or_init(|| {
            let mut int = Interner {
                strs: Vec::new(),
                hashes: Vec::new(),
                table: vec![0; 1024],
            };
            for p in PUNCTS.iter().chain(SEEDED_IDENTS) {
                int.intern(p);
            }
            debug_assert_eq!(int.strs.len() as u32, sym::FIRST_FREE);
            let macros = SEEDED_MACRO_TEXTS.iter().copied();
            for name in macros.chain(crate::extensions::EXTENSIONS.iter().map(|e| e.name)) {
                int.intern(name);
            }
            int
        });
        let mut strs = Vec::with_capacity(512);
        strs.extend(seeded.strs.iter().cloned());
        let mut hashes = Vec::with_capacity(512);
        hashes.extend_from_slice(&seeded.hashes);
        Interner {
            strs,
            hashes,
            table: seeded.table.clone(),
        }
    }

    /// The slot holding `s` (hash `h`), or the empty slot where it would go.
    #[inline]
    fn probe(&self, s: &[u8], h: u64) -> (usize, Option<u32>) {
        let mask = self.table.len() - 1;
        let mut i = (h >> 32) as usize & mask;
        loop {
            let slot = self.table[i];
            if slot == 0 {
                return (i, None);
            }
            let id = slot - 1;
            if self.hashes[id as usize] == h && same_text(self.strs[id as usize].as_bytes(), s) {
                return (i, Some(id));
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slot table, placing every symbol again by its kept hash.
    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mask = size - 1;
        let mut table = vec![0u32; size];
        for (id, &h) in self.hashes.iter().enumerate() {
            let mut i = (h >> 32) as usize & mask;
            while table[i] != 0 {
                i = (i + 1) & mask;
            }
            table[i] = id as u32 + 1;
        }
        self.table = table;
    }

    /// The symbol of `s`, adding it when new.
    #[inline]
    pub fn intern(&mut self, s: &str) -> Sym {
        let h = hash_text(s.as_bytes());
        let (slot, found) = self.probe(s.as_bytes(), h);
        if let Some(id) = found {
            return Sym(id);
        }
        let id = self.strs.len() as u32;
        self.strs.push(Arc::from(s));
        self.hashes.push(h);
        self.table[slot] = id + 1;
        if self.strs.len() * 2 > self.table.len() {
            self.grow();
        }
        Sym(id)
    }
    /// The text of a symbol (empty for a symbol of another interner that
    /// is out of range here).
    pub fn get(&self, s: Sym) -> &str {
        self.strs.get(s.0 as usize).map_or("", |s| s)
    }
    /// The text of a symbol as a shared string (no copy of the text).
    pub fn shared(&self, s: Sym) -> Arc<str> {
        self.strs
            .get(s.0 as usize)
            .cloned()
            .unwrap_or_else(|| Arc::from(""))
    }
    /// The symbol of `s` if it was interned.
    pub fn lookup(&self, s: &str) -> Option<Sym> {
        self.probe(s.as_bytes(), hash_text(s.as_bytes())).1.map(Sym)
    }
    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.strs.len()
    }
    /// True when nothing is interned (never: punctuators are seeded).
    pub fn is_empty(&self) -> bool {
        self.strs.is_empty()
    }
}

impl Default for Interner {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Interner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Interner({} symbols)", self.strs.len())
    }
}

/// Lexing problems the lexer reports itself.
#[derive(Clone, Debug)]
pub(crate) enum LexProblem {
    /// `/*` without `*/`.
    UnterminatedComment(SourceLoc),
}

/// What [`Lexer::next_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineEnd {
    /// A logical line was read (possibly empty).
    Line,
    /// End of input: nothing was read.
    Eof,
}

/// Splits source text into logical lines of [`Tok`]s.
pub(crate) struct Lexer<'s> {
    src: &'s [u8],
    text_src: &'s str,
    pos: usize,
    /// Physical line of `pos`, 1-based.
    line: u32,
    line_start: usize,
    /// Source-string number for locations (`#line N S`).
    pub source: u32,
    /// Added to physical line numbers (`#line`).
    pub line_delta: i64,
    /// Number of backslash-newlines skipped so far.
    splices: u32,
    /// Problems found, drained by the driver.
    pub problems: Vec<LexProblem>,
    text_buf: String,
}

#[inline]
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// `IDENT_CHAR[c]`: `c` may continue an identifier (`[A-Za-z0-9_]`). One
/// load per byte in the identifier scan instead of three range tests.
static IDENT_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

#[inline]
fn is_ident_char(c: u8) -> bool {
    IDENT_CHAR[c as usize]
}

impl<'s> Lexer<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        let bytes = src.as_bytes();
        let start = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
            3
        } else {
            0
        };
        Lexer {
            src: bytes,
            text_src: src,
            pos: start,
            line: 1,
            line_start: start,
            source: 0,
            line_delta: 0,
            splices: 0,
            problems: Vec::new(),
            text_buf: String::new(),
        }
    }

    /// Physical line the next token will start on (used by `#line`).
    pub(crate) fn physical_line(&self) -> u32 {
        self.line
    }

    /// True when all input is consumed.
    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// The location of the current position.
    fn loc(&self) -> SourceLoc {
        let line = (self.line as i64 + self.line_delta).clamp(0, u32::MAX as i64) as u32;
        let column = (self.pos - self.line_start + 1).min(u32::MAX as usize) as u32;
        SourceLoc {
            source: self.source,
            line,
            column,
        }
    }

    /// Length of the newline at `i` (0 if none).
    #[inline]
    fn newline_len(&self, i: usize) -> usize {
        match self.src.get(i) {
            Some(b'\n') => 1,
            Some(b'\r') => {
                if self.src.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                }
            }
            _ => 0,
        }
    }

    /// Skips any backslash-newline sequences at `pos`.
    #[inline]
    fn skip_splices(&mut self) {
        while self.src.get(self.pos) == Some(&b'\\') {
            let n = self.newline_len(self.pos + 1);
            if n == 0 {
                return;
            }
            self.pos += 1 + n;
            self.line += 1;
            self.line_start = self.pos;
            self.splices += 1;
        }
    }

    /// Current byte after splices, or `None` at end of input.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        let c = *self.src.get(self.pos)?;
        if c == b'\\' {
            self.skip_splices();
            return self.src.get(self.pos).copied();
        }
        Some(c)
    }

    /// The byte `n` characters after the current one, looking through splices,
    /// without moving.
    fn peek_at(&self, n: usize) -> Option<u8> {
        let mut i = self.pos;
        let mut left = n;
        loop {
            // Skip splices at i.
            while self.src.get(i) == Some(&b'\\') {
                let nl = self.newline_len(i + 1);
                if nl == 0 {
                    break;
                }
                i += 1 + nl;
            }
            let c = *self.src.get(i)?;
            if left == 0 {
                return Some(c);
            }
            left -= 1;
            i += 1;
        }
    }

    /// Moves over raw bytes satisfying `keep` (which must reject `\\` and
    /// newlines, so no splice or line change is skipped).
    #[inline]
    fn skip_plain(&mut self, keep: impl Fn(u8) -> bool) {
        let rest = &self.src[self.pos.min(self.src.len())..];
        let n = rest.iter().position(|&c| !keep(c)).unwrap_or(rest.len());
        self.pos += n;
    }

    /// Moves past the current byte (which must not be a newline).
    #[inline]
    fn bump(&mut self) {
        self.pos += 1;
    }

    /// Consumes a newline at `pos` if present.
    fn eat_newline(&mut self) -> bool {
        let n = self.newline_len(self.pos);
        if n == 0 {
            return false;
        }
        self.pos += n;
        self.line += 1;
        self.line_start = self.pos;
        true
    }

    /// Text from `start` to `pos`, with splices removed when there were any.
    fn text(&mut self, start: usize, spliced: bool) -> &str {
        if !spliced {
            // Token boundaries are always at ASCII bytes or whole characters.
            return self.text_src.get(start..self.pos).unwrap_or("");
        }
        self.text_buf.clear();
        let mut i = start;
        while i < self.pos {
            if self.src[i] == b'\\' {
                let n = self.newline_len(i + 1);
                if n > 0 {
                    i += 1 + n;
                    continue;
                }
            }
            self.text_buf.push(self.src[i] as char);
            i += 1;
        }
        &self.text_buf
    }

    /// Lexes one logical line into `out` (cleared first). Block comments and
    /// backslash-newlines may make a logical line span several physical lines.
    pub(crate) fn next_line(&mut self, int: &mut Interner, out: &mut Vec<Tok>) -> LineEnd {
        out.clear();
        if self.pos >= self.src.len() {
            return LineEnd::Eof;
        }
        self.finish_line(int, out, false)
    }

    /// Lexes the rest of the current logical line into `out`; `ws` says
    /// whether blanks or comments precede the next token.
    fn finish_line(&mut self, int: &mut Interner, out: &mut Vec<Tok>, mut ws: bool) -> LineEnd {
        loop {
            let Some(c) = self.peek() else {
                return LineEnd::Line;
            };
            match c {
                b'\n' | b'\r' => {
                    self.eat_newline();
                    return LineEnd::Line;
                }
                b' ' | b'\t' | 0x0B | 0x0C => {
                    ws = true;
                    // The whole run of blanks at once (indentation).
                    self.skip_plain(|c| matches!(c, b' ' | b'\t' | 0x0B | 0x0C));
                }
                b'/' if matches!(self.peek_at(1), Some(b'/' | b'*')) => {
                    ws = true;
                    if !self.skip_comment() {
                        return LineEnd::Line;
                    }
                }
                b'"' | b'<' if quoted_path_allowed(out, int, c) => {
                    let tok = self.quoted_path(int, ws);
                    out.push(tok);
                    ws = false;
                }
                _ => {
                    let tok = self.token(c, int, ws);
                    out.push(tok);
                    ws = false;
                }
            }
        }
    }

    /// Lexes the path of `#include "…"`/`<…>` or `#line N "…"` as one
    /// [`TKind::Other`] token holding its delimiters (glcpp's `INCLUDE` and
    /// `PATH` tokens): everything up to the next `"` or `>` on the line (glcpp
    /// accepts either). Without one, only the opening character is a token.
    fn quoted_path(&mut self, int: &mut Interner, ws: bool) -> Tok {
        let loc = self.loc();
        let start = self.pos;
        let splices = self.splices;
        let (mut i, mut len) = (1, 0);
        let closed = loop {
            match self.peek_at(i) {
                Some(b'"' | b'>') => break true,
                Some(b'\n' | b'\r') | None => break false,
                Some(_) => {
                    i += 1;
                    len += 1;
                }
            }
        };
        let count = if closed { len + 2 } else { 1 };
        for _ in 0..count {
            self.peek();
            self.bump();
        }
        let spliced = self.splices != splices;
        let text = self.text(start, spliced);
        Tok {
            sym: int.intern(text),
            kind: TKind::Other,
            flags: if ws { F_WS } else { 0 },
            loc,
        }
    }

    /// Like [`Lexer::next_line`] for a line inside a group that is being
    /// skipped: only a directive (a line whose first token is `#`) is lexed
    /// into `out`; any other line is passed over without making tokens (comments,
    /// line splices and line counting behave exactly as in `next_line`), and
    /// `out` is left empty.
    pub(crate) fn next_line_skipping(&mut self, int: &mut Interner, out: &mut Vec<Tok>) -> LineEnd {
        out.clear();
        if self.pos >= self.src.len() {
            return LineEnd::Eof;
        }
        // Leading blanks and comments, as `next_line` sees them.
        let mut ws = false;
        loop {
            let Some(c) = self.peek() else {
                return LineEnd::Line;
            };
            match c {
                b'\n' | b'\r' => {
                    self.eat_newline();
                    return LineEnd::Line;
                }
                b' ' | b'\t' | 0x0B | 0x0C => {
                    ws = true;
                    // The whole run of blanks at once (indentation).
                    self.skip_plain(|c| matches!(c, b' ' | b'\t' | 0x0B | 0x0C));
                }
                b'/' if matches!(self.peek_at(1), Some(b'/' | b'*')) => {
                    ws = true;
                    if !self.skip_comment() {
                        return LineEnd::Line;
                    }
                }
                // A directive: lex it as usual, from its first token on.
                b'#' if self.peek_at(1) != Some(b'#') => return self.finish_line(int, out, ws),
                _ => break,
            }
        }
        // Not a directive: pass over the rest of the logical line.
        loop {
            let rest = &self.src[self.pos.min(self.src.len())..];
            self.pos += find_line_special(rest);
            let Some(c) = self.peek() else {
                return LineEnd::Line;
            };
            match c {
                b'\n' | b'\r' => {
                    self.eat_newline();
                    return LineEnd::Line;
                }
                b'/' if matches!(self.peek_at(1), Some(b'/' | b'*')) => {
                    if !self.skip_comment() {
                        return LineEnd::Line;
                    }
                }
                _ => self.bump(),
            }
        }
    }

    /// Passes over the comment at `pos` (`//` or `/*`). False when a block
    /// comment is not terminated (the problem is recorded and the input is
    /// consumed, as in `next_line`).
    fn skip_comment(&mut self) -> bool {
        if self.peek_at(1) == Some(b'/') {
            // To the end of the line; a backslash-newline continues it.
            loop {
                self.skip_plain(|c| c != b'\n' && c != b'\r' && c != b'\\');
                match self.peek() {
                    Some(b'\n' | b'\r') | None => return true,
                    Some(_) => self.bump(),
                }
            }
        }
        let loc = self.loc();
        self.bump();
        self.peek();
        self.bump();
        loop {
            self.skip_plain(|c| c != b'*' && c != b'\n' && c != b'\r' && c != b'\\');
            let Some(c) = self.peek() else { break };
            if c == b'*' && self.peek_at(1) == Some(b'/') {
                self.bump();
                self.peek();
                self.bump();
                return true;
            }
            if !self.eat_newline() {
                self.bump();
            }
        }
        self.problems.push(LexProblem::UnterminatedComment(loc));
        false
    }

    /// Lexes one token starting with byte `c` at `pos`.
    fn token(&mut self, c: u8, int: &mut Interner, ws: bool) -> Tok {
        let loc = self.loc();
        let start = self.pos;
        let splices = self.splices;
        let flags = if ws { F_WS } else { 0 };
        let kind = if is_ident_start(c) {
            self.bump();
            loop {
                self.skip_plain(is_ident_char);
                match self.peek() {
                    Some(c) if is_ident_char(c) => self.bump(),
                    _ => break,
                }
            }
            TKind::Ident
        } else if c.is_ascii_digit()
            || (c == b'.' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit()))
        {
            self.number()
        } else if let Some(p) = self.punct(c) {
            return Tok {
                sym: p,
                kind: TKind::Punct,
                flags,
                loc,
            };
        } else {
            // One whole (UTF-8) character.
            let len = if c < 0x80 {
                1
            } else if c >= 0xF0 {
                4
            } else if c >= 0xE0 {
                3
            } else {
                2
            };
            self.pos = (self.pos + len).min(self.src.len());
            TKind::Other
        };
        let spliced = self.splices != splices;
        let text = self.text(start, spliced);
        let sym = int.intern(text);
        Tok {
            sym,
            kind,
            flags,
            loc,
        }
    }

    /// Lexes a GLSL number the way the GLSL lexer splits it: hexadecimal,
    /// octal or decimal integers with an optional `u`, floats with fraction
    /// and/or exponent and an optional `f`/`lf` suffix.
    fn number(&mut self) -> TKind {
        let hex = self.peek() == Some(b'0')
            && matches!(self.peek_at(1), Some(b'x' | b'X'))
            && self.peek_at(2).is_some_and(|c| c.is_ascii_hexdigit());
        if hex {
            self.bump();
            self.peek();
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.bump();
            }
            if matches!(self.peek(), Some(b'u' | b'U')) {
                self.bump();
            }
            return TKind::Int;
        }
        let mut float = false;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        if self.peek() == Some(b'.') {
            float = true;
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let exp = match self.peek_at(1) {
                Some(d) if d.is_ascii_digit() => true,
                Some(b'+' | b'-') => self.peek_at(2).is_some_and(|d| d.is_ascii_digit()),
                _ => false,
            };
            if exp {
                float = true;
                self.bump();
                if matches!(self.peek(), Some(b'+' | b'-')) {
                    self.bump();
                }
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
            }
        }
        if float {
            match self.peek() {
                Some(b'f' | b'F') => self.bump(),
                Some(b'l') if self.peek_at(1) == Some(b'f') => {
                    self.bump();
                    self.peek();
                    self.bump();
                }
                Some(b'L') if self.peek_at(1) == Some(b'F') => {
                    self.bump();
                    self.peek();
                    self.bump();
                }
                _ => {}
            }
            TKind::Float
        } else {
            if matches!(self.peek(), Some(b'u' | b'U')) {
                self.bump();
            }
            TKind::Int
        }
    }

    /// Lexes a punctuator starting with `c` (longest match).
    fn punct(&mut self, c: u8) -> Option<Sym> {
        let c1 = self.peek_at(1);
        // Three-character punctuators.
        if (c == b'<' || c == b'>') && c1 == Some(c) && self.peek_at(2) == Some(b'=') {
            for _ in 0..3 {
                self.peek();
                self.bump();
            }
            return Some(if c == b'<' {
                sym::SHL_ASSIGN
            } else {
                sym::SHR_ASSIGN
            });
        }
        if let Some(two) = c1.and_then(|c1| two_char_punct(c, c1)) {
            self.bump();
            self.peek();
            self.bump();
            return Some(two);
        }
        let single = single_char_punct(c)?;
        self.bump();
        Some(single)
    }
}

/// Index of the first `\n`, `\r`, `\\` or `/` in `s` (`s.len()` if none):
/// where a skipped line may end, continue or start a comment. Eight bytes at
/// a time: a byte equal to `b` is a zero byte of `w ^ b…b`, and the lowest
/// flagged byte of the classic zero-byte test is always a true zero.
fn find_line_special(s: &[u8]) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let mut chunks = s.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let w = u64::from_le_bytes(b);
        let hits = zero_bytes(w ^ (LO * u64::from(b'\n')))
            | zero_bytes(w ^ (LO * u64::from(b'\r')))
            | zero_bytes(w ^ (LO * u64::from(b'\\')))
            | zero_bytes(w ^ (LO * u64::from(b'/')));
        if hits != 0 {
            return base + (hits.trailing_zeros() / 8) as usize;
        }
        base += 8;
    }
    let rest = chunks.remainder();
    base + rest
        .iter()
        .position(|&c| matches!(c, b'\n' | b'\r' | b'\\' | b'/'))
        .unwrap_or(rest.len())
}

/// True when `c` at this point of the line `out` starts a quoted path:
/// `#include` followed by `"` or `<`, or `#line N` followed by `"`.
fn quoted_path_allowed(out: &[Tok], int: &Interner, c: u8) -> bool {
    match out {
        [hash, name] if hash.is(sym::HASH) && name.kind == TKind::Ident => {
            int.get(name.sym) == "include"
        }
        [hash, name, number] if c == b'"' && hash.is(sym::HASH) && name.kind == TKind::Ident => {
            number.kind != TKind::Punct && int.get(name.sym) == "line"
        }
        _ => false,
    }
}

/// The symbol of the two-character punctuator `c c1` (index into [`PUNCTS`]).
fn two_char_punct(c: u8, c1: u8) -> Option<Sym> {
    let index = match (c, c1) {
        (b'#', b'#') => 25,
        (b'<', b'<') => 26,
        (b'>', b'>') => 27,
        (b'<', b'=') => 28,
        (b'>', b'=') => 29,
        (b'=', b'=') => 30,
        (b'!', b'=') => 31,
        (b'&', b'&') => 32,
        (b'|', b'|') => 33,
        (b'^', b'^') => 34,
        (b'+', b'+') => 35,
        (b'-', b'-') => 36,
        (b'+', b'=') => 37,
        (b'-', b'=') => 38,
        (b'*', b'=') => 39,
        (b'/', b'=') => 40,
        (b'%', b'=') => 41,
        (b'&', b'=') => 42,
        (b'|', b'=') => 43,
        (b'^', b'=') => 44,
        _ => return None,
    };
    Some(Sym(index))
}

/// The symbol of the one-character punctuator `c` (index into [`PUNCTS`]).
fn single_char_punct(c: u8) -> Option<Sym> {
    let index = match c {
        b'(' => 0,
        b')' => 1,
        b'[' => 2,
        b']' => 3,
        b'{' => 4,
        b'}' => 5,
        b'.' => 6,
        b',' => 7,
        b':' => 8,
        b';' => 9,
        b'+' => 10,
        b'-' => 11,
        b'*' => 12,
        b'/' => 13,
        b'%' => 14,
        b'<' => 15,
        b'>' => 16,
        b'=' => 17,
        b'!' => 18,
        b'~' => 19,
        b'&' => 20,
        b'|' => 21,
        b'^' => 22,
        b'?' => 23,
        b'#' => 24,
        _ => return None,
    };
    Some(Sym(index))
}

/// Lexes `text` as the result of a `##` paste: returns the token when the text
/// is exactly one preprocessing token (no comment, no whitespace).
pub(crate) fn lex_single(text: &str, int: &mut Interner) -> Option<(TKind, Sym)> {
    if text.is_empty() {
        return None;
    }
    let mut lx = Lexer::new(text);
    let mut out = Vec::new();
    lx.next_line(int, &mut out);
    if out.len() != 1 || !lx.at_eof() || !lx.problems.is_empty() || out[0].ws() {
        return None;
    }
    let t = out[0];
    if t.kind == TKind::Other {
        return None;
    }
    Some((t.kind, t.sym))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punct_lookups_match_the_table() {
        for (i, p) in PUNCTS.iter().enumerate() {
            let b = p.as_bytes();
            let found = match b.len() {
                1 => single_char_punct(b[0]),
                2 => two_char_punct(b[0], b[1]),
                _ => Some(if b[0] == b'<' {
                    sym::SHL_ASSIGN
                } else {
                    sym::SHR_ASSIGN
                }),
            };
            assert_eq!(found, Some(Sym(i as u32)), "{p}");
        }
    }

    #[test]
    fn punct_table_consistent() {
        assert_eq!(PUNCTS[sym::PASTE.0 as usize], "##");
        assert_eq!(PUNCTS[sym::OR.0 as usize], "||");
        assert_eq!(PUNCTS[sym::SHL.0 as usize], "<<");
        assert_eq!(PUNCTS[sym::NE.0 as usize], "!=");
        let int = Interner::new();
        assert_eq!(int.get(sym::DEFINED), "defined");
        assert_eq!(int.get(sym::VERSION), "__VERSION__");
    }

    #[test]
    fn line_special_scan_matches_a_plain_search() {
        let special = |c: &u8| matches!(c, b'\n' | b'\r' | b'\\' | b'/');
        // Every position and neighbour of each special byte, in buffers of
        // lengths around the 8-byte chunks, with high bytes around (UTF-8).
        for len in 0..40 {
            for at in 0..=len {
                for &b in b"\n\r\\/" {
                    for filler in [b'a', 0xC3, 0x2E, 0x0E, 0xFF] {
                        let mut buf = vec![filler; len];
                        if at < len {
                            buf[at] = b;
                        }
                        let want = buf.iter().position(special).unwrap_or(len);
                        assert_eq!(find_line_special(&buf), want, "{buf:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn interner_keeps_symbols_across_growth() {
        let mut int = Interner::new();
        // Enough names to double the slot table a few times; lengths cross
        // the 8-byte chunks of the hash.
        let names: Vec<String> = (0..5000)
            .map(|i| format!("{}{i}", "n_".repeat(i % 7)))
            .collect();
        let syms: Vec<Sym> = names.iter().map(|n| int.intern(n)).collect();
        for (n, s) in names.iter().zip(&syms) {
            assert_eq!(int.intern(n), *s);
            assert_eq!(int.lookup(n), Some(*s));
            assert_eq!(int.get(*s), n);
        }
        assert_eq!(int.len(), Interner::new().len() + names.len());
        assert_eq!(int.lookup("("), Some(sym::LPAREN));
        assert_eq!(int.lookup(">>="), Some(sym::SHR_ASSIGN));
        assert_eq!(int.lookup("defined"), Some(sym::DEFINED));
        assert_eq!(int.lookup("not_there"), None);
        assert_eq!(int.intern(""), int.intern(""));
    }
}
