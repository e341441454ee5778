//! The `[vertex data]` section: a header row of column descriptions
//! (`NAME[idx]/GLTYPE/GLSLTYPE[/matrixcol]`, or the older `NAME/GLTYPE/COUNT`)
//! and rows of whitespace-separated numbers, as piglit's `piglit-vbo.cpp`
//! reads them. `#` starts a comment on any row.

use super::lex::{parse_float, parse_int, Read};

/// The GL component type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentType {
    /// `half`
    Half,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `byte`
    Byte,
    /// `ubyte`
    Ubyte,
    /// `short`
    Short,
    /// `ushort`
    Ushort,
    /// `int`
    Int,
    /// `uint`
    Uint,
}

impl ComponentType {
    fn parse(word: &str) -> Read<ComponentType> {
        Ok(match word {
            "half" => ComponentType::Half,
            "float" => ComponentType::Float,
            "double" => ComponentType::Double,
            "byte" => ComponentType::Byte,
            "ubyte" => ComponentType::Ubyte,
            "short" => ComponentType::Short,
            "ushort" => ComponentType::Ushort,
            "int" => ComponentType::Int,
            "uint" => ComponentType::Uint,
            other => return Err(format!("unknown vertex data type {other:?}")),
        })
    }

    /// True for the integer types (values read with `strtol`/`strtoul`).
    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            ComponentType::Half | ComponentType::Float | ComponentType::Double
        )
    }

    /// Size of one component in bytes.
    pub fn size(self) -> u32 {
        match self {
            ComponentType::Byte | ComponentType::Ubyte => 1,
            ComponentType::Half | ComponentType::Short | ComponentType::Ushort => 2,
            ComponentType::Float | ComponentType::Int | ComponentType::Uint => 4,
            ComponentType::Double => 8,
        }
    }

    fn range(self) -> Option<(i64, i64)> {
        Some(match self {
            ComponentType::Byte => (i8::MIN.into(), i8::MAX.into()),
            ComponentType::Ubyte => (0, u8::MAX.into()),
            ComponentType::Short => (i16::MIN.into(), i16::MAX.into()),
            ComponentType::Ushort => (0, u16::MAX.into()),
            // strtol / strtoul wrap like C on the 32-bit store.
            ComponentType::Int | ComponentType::Uint => (i32::MIN.into(), u32::MAX.into()),
            _ => return None,
        })
    }
}

/// How the shader sees a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderType {
    /// Old form `NAME/GLTYPE/COUNT`: `COUNT` components, GLSL type by the GL type.
    Count(u32),
    /// A GLSL type name: scalar/vector (`rows == 1`... see [`ShaderType::components`])
    /// or matrix column.
    Glsl {
        /// Base: `f` float, `i` int, `u` uint, `d` double, `b` bool.
        base: char,
        /// Columns (1 for non-matrices).
        cols: u32,
        /// Components per column.
        rows: u32,
        /// For a matrix, which column this attribute feeds.
        matrix_column: Option<u32>,
    },
}

impl ShaderType {
    /// Components this column holds per row.
    pub fn components(self) -> u32 {
        match self {
            ShaderType::Count(n) => n,
            ShaderType::Glsl { rows, .. } => rows,
        }
    }
}

/// Parses a GLSL type name into (base, cols, rows).
fn glsl_type(word: &str) -> Option<(char, u32, u32)> {
    let scalar = match word {
        "float" => Some(('f', 1, 1)),
        "int" => Some(('i', 1, 1)),
        "uint" => Some(('u', 1, 1)),
        "double" => Some(('d', 1, 1)),
        "bool" => Some(('b', 1, 1)),
        _ => None,
    };
    if scalar.is_some() {
        return scalar;
    }
    let digit = |s: &str| -> Option<u32> {
        match s {
            "2" => Some(2),
            "3" => Some(3),
            "4" => Some(4),
            _ => None,
        }
    };
    for (prefix, base) in [
        ("vec", 'f'),
        ("ivec", 'i'),
        ("uvec", 'u'),
        ("dvec", 'd'),
        ("bvec", 'b'),
    ] {
        if let Some(n) = word.strip_prefix(prefix).and_then(digit) {
            return Some((base, 1, n));
        }
    }
    for (prefix, base) in [("mat", 'f'), ("dmat", 'd')] {
        if let Some(rest) = word.strip_prefix(prefix) {
            if let Some(n) = digit(rest) {
                return Some((base, n, n));
            }
            let (c, r) = rest.split_once('x')?;
            return Some((base, digit(c)?, digit(r)?));
        }
    }
    None
}

/// One column of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Attribute name (`piglit_vertex`), or a number naming a location.
    pub name: String,
    /// `NAME[idx]`: the array element fed.
    pub array_index: Option<u32>,
    /// GL component type.
    pub ty: ComponentType,
    /// Shader-side type.
    pub shader_type: ShaderType,
}

impl Column {
    fn parse(text: &str) -> Read<Column> {
        let parts: Vec<&str> = text.split('/').collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(format!(
                "vertex data column {text:?} is not NAME/GLTYPE/GLSLTYPE[/COLUMN]"
            ));
        }
        let (name, array_index) = match parts[0].split_once('[') {
            Some((name, index)) => {
                let index = index
                    .strip_suffix(']')
                    .and_then(|i| i.parse::<u32>().ok())
                    .ok_or_else(|| format!("bad array index in {text:?}"))?;
                (name, Some(index))
            }
            None => (parts[0], None),
        };
        if name.is_empty() {
            return Err(format!("vertex data column {text:?} has no name"));
        }
        let ty = ComponentType::parse(parts[1])?;
        let shader_type = if let Ok(count) = parts[2].parse::<u32>() {
            if !(1..=4).contains(&count) || parts.len() == 4 {
                return Err(format!(
                    "vertex data column {text:?}: a count must be 1 to 4"
                ));
            }
            ShaderType::Count(count)
        } else {
            let (base, cols, rows) = glsl_type(parts[2])
                .ok_or_else(|| format!("unknown GLSL type {:?} in {text:?}", parts[2]))?;
            let matrix_column = match parts.get(3) {
                Some(c) => {
                    let c: u32 = c
                        .parse()
                        .map_err(|_| format!("bad matrix column in {text:?}"))?;
                    if cols == 1 || c >= cols {
                        return Err(format!("matrix column {c} out of range in {text:?}"));
                    }
                    Some(c)
                }
                None if cols > 1 => {
                    return Err(format!("matrix column {text:?} needs a /COLUMN suffix"))
                }
                None => None,
            };
            ShaderType::Glsl {
                base,
                cols,
                rows,
                matrix_column,
            }
        };
        Ok(Column {
            name: name.to_string(),
            array_index,
            ty,
            shader_type,
        })
    }
}

/// One value of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Datum {
    /// For float columns.
    Float(f64),
    /// For integer columns (already range-checked for the column type).
    Int(i64),
}

/// The whole table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexData {
    /// The header, in order.
    pub columns: Vec<Column>,
    /// One entry per vertex: every column's components, in column order.
    pub rows: Vec<Vec<Datum>>,
}

impl VertexData {
    /// Values per row.
    pub fn row_len(&self) -> usize {
        self.columns
            .iter()
            .map(|c| c.shader_type.components() as usize)
            .sum()
    }
}

/// Builds the table from `(line number, text)` pairs of the section body
/// whose header is on `header_line`. Errors carry the line they belong to.
pub fn parse(header_line: u32, lines: &[(u32, &str)]) -> Result<VertexData, (u32, String)> {
    let mut data = VertexData::default();
    let mut header_seen = false;
    for &(number, raw) in lines {
        let text = raw.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        if !header_seen {
            header_seen = true;
            for word in text.split_whitespace() {
                data.columns
                    .push(Column::parse(word).map_err(|e| (number, e))?);
            }
            continue;
        }
        let mut row = Vec::with_capacity(data.row_len());
        let mut words = text.split_whitespace();
        for column in &data.columns {
            for _ in 0..column.shader_type.components() {
                let word = words.next().ok_or_else(|| {
                    (
                        number,
                        format!(
                            "row has fewer values than the header describes ({})",
                            data.row_len()
                        ),
                    )
                })?;
                let datum = if column.ty.is_integer() {
                    let v = parse_int(word)
                        .ok_or_else(|| (number, format!("{word:?} is not an integer")))?;
                    let (lo, hi) = column.ty.range().unwrap_or((i64::MIN, i64::MAX));
                    if v < lo || v > hi {
                        return Err((
                            number,
                            format!("{v} is out of range for a {:?} column", column.ty),
                        ));
                    }
                    Datum::Int(v)
                } else {
                    Datum::Float(
                        parse_float(word)
                            .ok_or_else(|| (number, format!("{word:?} is not a number")))?,
                    )
                };
                row.push(datum);
            }
        }
        if let Some(extra) = words.next() {
            return Err((
                number,
                format!(
                    "row has more values than the header describes ({}); first extra: {extra:?}",
                    data.row_len()
                ),
            ));
        }
        data.rows.push(row);
    }
    if !header_seen {
        return Err((header_line, "[vertex data] has no header row".into()));
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        let lines = [
            (1, "# comment"),
            (2, "piglit_vertex/float/2  m/float/mat2x3/1  c[1]/int/ivec2"),
            (3, "-1 1  0 0.5 1  0x10 -2 # trailing"),
        ];
        let data = parse(1, &lines).map_err(|e| e.1);
        let data = data
            .as_ref()
            .map(|d| (d.columns.len(), d.row_len(), d.rows.clone()));
        assert_eq!(
            data,
            Ok((
                3,
                7,
                vec![vec![
                    Datum::Float(-1.0),
                    Datum::Float(1.0),
                    Datum::Float(0.0),
                    Datum::Float(0.5),
                    Datum::Float(1.0),
                    Datum::Int(16),
                    Datum::Int(-2)
                ]]
            ))
        );
        let short = parse(1, &[(1, "a/float/3"), (2, "1 2")]).map(|_| ());
        assert_eq!(
            short,
            Err((
                2,
                "row has fewer values than the header describes (3)".into()
            ))
        );
        let bad = parse(3, &[(4, "a/flot/3")]).map(|_| ());
        assert_eq!(bad, Err((4, "unknown vertex data type \"flot\"".into())));
        let empty = parse(9, &[(10, "  # only a comment")]).map(|_| ());
        assert_eq!(empty, Err((9, "[vertex data] has no header row".into())));
    }
}
