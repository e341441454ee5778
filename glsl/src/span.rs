//! Source locations. Every diagnostic carries a [`SourceLoc`]: the source-string
//! number (changed by `#line N S`), the line (after `#line`) and a 1-based column,
//! which is what Mesa's `0:LINE(COL)` prefix prints.

use std::fmt;

/// Where a token, AST node or IR node came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLoc {
    /// Source string number (`#line L S` sets it; 0 otherwise).
    pub source: u32,
    /// Line number as the GLSL `__LINE__` sees it (1-based, `#line` applied).
    pub line: u32,
    /// 1-based column of the first character.
    pub column: u32,
}

impl SourceLoc {
    /// A location in source string 0.
    pub fn new(line: u32, column: u32) -> Self {
        SourceLoc {
            source: 0,
            line,
            column,
        }
    }
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}({})", self.source, self.line, self.column)
    }
}

/// Maps byte offsets of one source text to 1-based line/column pairs.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    /// Indexes `text`; `\n`, `\r\n` and lone `\r` all end a line.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0u32];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => line_starts.push(i as u32 + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    line_starts.push(i as u32 + 1);
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex { line_starts }
    }

    /// 1-based (line, column) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }
}
