//! The shader_runner commands of compute shaders, shader storage buffers and
//! atomic counters (piglit `shader_runner.c`): `compute X Y Z`, `ssbo N SIZE`,
//! `ssbo N subdata TYPE OFFSET VALUES`, `probe ssbo TYPE N OFFSET OP VALUES`,
//! `atomic counters N`, `atomic counter buffer N COUNT`, `atomic counter
//! BUFFER INDEX VALUE`, `probe atomic counter N OP V`, `probe atomic counter
//! buffer N OFFSET OP V` and `memory barrier BITS`: their parsing, and their
//! run over a [`GlContext`]'s storage entry points.
//!
//! As in shader_runner, `compute` issues `glMemoryBarrier(GL_ALL_BARRIER_BITS)`
//! around the dispatch; `ssbo N SIZE` makes a zero-filled buffer bound to
//! shader storage binding N; `atomic counters N` makes N zeroed counters in a
//! buffer at atomic counter binding 0; probes read back through
//! `glGetBufferSubData` and compare each 32-bit word (`~=` on floats within
//! the script's tolerance, as `probe ssbo float`'s default of 0.01 when none
//! was set).

use super::gl_enum;
use super::lex::{Cursor, Read};

/// `GL_SHADER_STORAGE_BUFFER`.
pub const SHADER_STORAGE_BUFFER: u32 = 0x90D2;
/// `GL_ATOMIC_COUNTER_BUFFER`.
pub const ATOMIC_COUNTER_BUFFER: u32 = 0x92C0;
/// `GL_ALL_BARRIER_BITS`.
pub const ALL_BARRIER_BITS: u32 = 0xFFFF_FFFF;

/// Type of `ssbo subdata` / `probe ssbo` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WordType {
    /// `int`
    Int,
    /// `uint`
    Uint,
    /// `float`
    Float,
}

/// A probe comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `~=` (floats within tolerance)
    Approx,
}

/// One storage command.
#[derive(Clone, Debug, PartialEq)]
pub enum StorageCommand {
    /// `compute X Y Z`
    Compute([u32; 3]),
    /// `memory barrier BITS`
    MemoryBarrier(u32),
    /// `image texture N FORMAT`: shader_runner binds the texture of unit `N`
    /// (level 0, not layered, `GL_READ_WRITE`) to image unit `N` with `format`
    /// (GL 4.2 §8.26 `glBindImageTexture`).
    ImageTexture {
        /// Texture unit and image unit.
        unit: u32,
        /// Image unit format (`GL_RGBA8`, ...).
        format: u32,
    },
    /// `fb tex 2d N`: shader_runner draws into (and probes) a new framebuffer
    /// object whose colour attachment 0 is level 0 of the texture on unit `N`,
    /// of that texture's size.
    FbTex2d(u32),
    /// `ssbo N SIZE` and `atomic counter(s) …`: a zero-filled buffer of
    /// `size` bytes at binding `index` of `target`.
    Buffer {
        /// `GL_SHADER_STORAGE_BUFFER` or `GL_ATOMIC_COUNTER_BUFFER`.
        target: u32,
        /// Binding index.
        index: u32,
        /// Bytes.
        size: u32,
    },
    /// `ssbo N subdata TYPE OFFSET VALUES` and `atomic counter BUF INDEX V`.
    SubData {
        /// Target of the binding.
        target: u32,
        /// Binding index.
        index: u32,
        /// Byte offset.
        offset: u32,
        /// Little-endian words.
        words: Vec<u32>,
    },
    /// `probe ssbo …` and `probe atomic counter …`.
    Probe {
        /// Target of the binding.
        target: u32,
        /// Binding index.
        index: u32,
        /// Byte offset.
        offset: u32,
        /// Word type.
        ty: WordType,
        /// Comparison.
        op: Compare,
        /// Expected words.
        words: Vec<u32>,
    },
}

impl StorageCommand {
    /// A short stable name for summaries.
    pub fn name(&self) -> &'static str {
        match self {
            StorageCommand::Compute(_) => "compute",
            StorageCommand::MemoryBarrier(_) => "memory barrier",
            StorageCommand::ImageTexture { .. } => "image texture",
            StorageCommand::FbTex2d(_) => "fb tex 2d",
            StorageCommand::Buffer { target, .. } if *target == SHADER_STORAGE_BUFFER => "ssbo",
            StorageCommand::Buffer { .. } => "atomic counters",
            StorageCommand::SubData { target, .. } if *target == SHADER_STORAGE_BUFFER => {
                "ssbo subdata"
            }
            StorageCommand::SubData { .. } => "atomic counter",
            StorageCommand::Probe { target, .. } if *target == SHADER_STORAGE_BUFFER => {
                "probe ssbo"
            }
            StorageCommand::Probe { .. } => "probe atomic counter",
        }
    }
}

/// Whether `line` is one of this module's commands.
pub fn is_storage_command(line: &str) -> bool {
    let mut w = line.split_whitespace();
    match (w.next(), w.next(), w.next()) {
        (Some("compute"), Some(n), _) => n.parse::<u32>().is_ok(),
        (Some("ssbo"), _, _) => true,
        (Some("atomic"), Some("counters" | "counter"), _) => true,
        (Some("memory"), Some("barrier"), _) => true,
        (Some("image"), Some("texture"), _) => true,
        (Some("fb"), Some("tex"), Some("2d")) => true,
        (Some("probe"), Some("ssbo"), _) => true,
        (Some("probe"), Some("atomic"), Some("counter")) => true,
        _ => false,
    }
}

/// Parses one of this module's commands (see [`is_storage_command`]).
pub fn parse(c: &mut Cursor) -> Read<StorageCommand> {
    Ok(match c.word()? {
        "compute" => StorageCommand::Compute([c.u32()?, c.u32()?, c.u32()?]),
        "memory" => {
            c.expect("barrier")?;
            let word = c.word()?;
            let bits = match word {
                "GL_ALL_BARRIER_BITS" => ALL_BARRIER_BITS,
                _ => gl_enum::parse(word)?.value,
            };
            StorageCommand::MemoryBarrier(bits)
        }
        "fb" => {
            c.expect("tex")?;
            c.expect("2d")?;
            StorageCommand::FbTex2d(c.u32()?)
        }
        "image" => {
            c.expect("texture")?;
            let unit = c.u32()?;
            let format = gl_enum::parse(c.word()?)?.value;
            StorageCommand::ImageTexture { unit, format }
        }
        "ssbo" => {
            let index = c.u32()?;
            if c.eat("subdata") {
                let ty = word_type(c.word()?)?;
                let offset = c.u32()?;
                let words = values(c, ty)?;
                StorageCommand::SubData {
                    target: SHADER_STORAGE_BUFFER,
                    index,
                    offset,
                    words,
                }
            } else {
                StorageCommand::Buffer {
                    target: SHADER_STORAGE_BUFFER,
                    index,
                    size: c.u32()?,
                }
            }
        }
        "atomic" => match c.word()? {
            "counters" => StorageCommand::Buffer {
                target: ATOMIC_COUNTER_BUFFER,
                index: 0,
                size: counters_bytes(c.u32()?)?,
            },
            "counter" if c.eat("buffer") => {
                let index = c.u32()?;
                StorageCommand::Buffer {
                    target: ATOMIC_COUNTER_BUFFER,
                    index,
                    size: counters_bytes(c.u32()?)?,
                }
            }
            "counter" => {
                let index = c.u32()?;
                let counter = c.u32()?;
                StorageCommand::SubData {
                    target: ATOMIC_COUNTER_BUFFER,
                    index,
                    offset: counters_bytes(counter)?,
                    words: vec![c.u32()?],
                }
            }
            other => return Err(format!("unknown atomic command {other:?}")),
        },
        "probe" => match c.word()? {
            "ssbo" => {
                let ty = word_type(c.word()?)?;
                let index = c.u32()?;
                let offset = c.u32()?;
                let op = compare(c.word()?, ty)?;
                let words = values(c, ty)?;
                StorageCommand::Probe {
                    target: SHADER_STORAGE_BUFFER,
                    index,
                    offset,
                    ty,
                    op,
                    words,
                }
            }
            "atomic" => {
                c.expect("counter")?;
                let (index, offset) = if c.eat("buffer") {
                    (c.u32()?, c.u32()?)
                } else {
                    (0, counters_bytes(c.u32()?)?)
                };
                let op = compare(c.word()?, WordType::Uint)?;
                StorageCommand::Probe {
                    target: ATOMIC_COUNTER_BUFFER,
                    index,
                    offset,
                    ty: WordType::Uint,
                    op,
                    words: vec![c.u32()?],
                }
            }
            other => return Err(format!("unknown probe {other:?}")),
        },
        other => return Err(format!("unknown storage command {other:?}")),
    })
}

fn counters_bytes(n: u32) -> Read<u32> {
    n.checked_mul(4)
        .ok_or_else(|| format!("{n} atomic counters do not fit a buffer"))
}

fn word_type(w: &str) -> Read<WordType> {
    Ok(match w {
        "int" => WordType::Int,
        "uint" => WordType::Uint,
        "float" => WordType::Float,
        other => return Err(format!("unsupported storage value type {other:?}")),
    })
}

fn compare(w: &str, ty: WordType) -> Read<Compare> {
    Ok(match w {
        "==" => Compare::Eq,
        "!=" => Compare::Ne,
        "~=" if ty == WordType::Float => Compare::Approx,
        other => return Err(format!("unknown comparison {other:?} for {ty:?} values")),
    })
}

/// One or more values of `ty` as 32-bit words, up to the end of the line.
fn values(c: &mut Cursor, ty: WordType) -> Read<Vec<u32>> {
    let mut words = Vec::new();
    loop {
        words.push(match ty {
            // shader_runner reads ints with strtol into a GLint, hex as a
            // bit pattern (`0x80000000` is i32::MIN) and uints with strtoul
            // (-1 is 0xffffffff): either way every signed or unsigned 32-bit
            // value is its word.
            WordType::Int | WordType::Uint => {
                let v = c.int()?;
                u32::try_from(v)
                    .or_else(|_| i32::try_from(v).map(|v| v as u32))
                    .map_err(|_| format!("{v} does not fit in 32 bits"))?
            }
            WordType::Float => c.f32()?.to_bits(),
        });
        if c.at_end() {
            return Ok(words);
        }
    }
}

/// Compares observed words with a probe's expectation; `Err` describes the
/// first mismatch.
pub fn check_probe(
    ty: WordType,
    op: Compare,
    expected: &[u32],
    observed: &[u32],
    tolerance: f32,
) -> Result<(), String> {
    for (i, (e, o)) in expected.iter().zip(observed).enumerate() {
        let ok = match op {
            Compare::Eq => e == o,
            Compare::Ne => e != o,
            Compare::Approx => (f32::from_bits(*e) - f32::from_bits(*o)).abs() <= tolerance,
        };
        if !ok {
            let show = |w: u32| match ty {
                WordType::Int => (w as i32).to_string(),
                WordType::Uint => w.to_string(),
                WordType::Float => f32::from_bits(w).to_string(),
            };
            let sym = match op {
                Compare::Eq => "==",
                Compare::Ne => "!=",
                Compare::Approx => "~=",
            };
            return Err(format!(
                "value {i}: expected {sym} {}, observed {}",
                show(*e),
                show(*o)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Read<StorageCommand> {
        assert!(is_storage_command(line), "{line}");
        parse(&mut Cursor::new(line))
    }

    #[test]
    fn parses_the_corpus_forms() {
        assert_eq!(
            read("compute 2 3 4"),
            Ok(StorageCommand::Compute([2, 3, 4]))
        );
        assert_eq!(
            read("ssbo 1 subdata int 8 -2"),
            Ok(StorageCommand::SubData {
                target: SHADER_STORAGE_BUFFER,
                index: 1,
                offset: 8,
                words: vec![(-2i32) as u32],
            })
        );
        assert_eq!(
            read("ssbo 0 subdata int 0 0x80000000 0xffc198f7 -1"),
            Ok(StorageCommand::SubData {
                target: SHADER_STORAGE_BUFFER,
                index: 0,
                offset: 0,
                words: vec![0x8000_0000, 0xffc1_98f7, u32::MAX],
            })
        );
        assert!(read("ssbo 0 subdata int 0 0x100000000").is_err());
        assert!(read("ssbo 0 subdata uint 0 -2147483649").is_err());
        assert_eq!(
            read("probe atomic counter 3 == 7"),
            Ok(StorageCommand::Probe {
                target: ATOMIC_COUNTER_BUFFER,
                index: 0,
                offset: 12,
                ty: WordType::Uint,
                op: Compare::Eq,
                words: vec![7],
            })
        );
        assert_eq!(
            read("atomic counter buffer 2 4"),
            Ok(StorageCommand::Buffer {
                target: ATOMIC_COUNTER_BUFFER,
                index: 2,
                size: 16,
            })
        );
        assert!(read("probe ssbo uint 0 0 ~= 1").is_err());
        assert!(!is_storage_command("compute group size 1 1 1"));
    }

    #[test]
    fn probes_compare_words() {
        let one = 1.0f32.to_bits();
        let near = 1.005f32.to_bits();
        assert!(check_probe(WordType::Float, Compare::Approx, &[one], &[near], 0.01).is_ok());
        assert!(check_probe(WordType::Uint, Compare::Eq, &[1, 2], &[1, 3], 0.0).is_err());
        assert!(check_probe(WordType::Uint, Compare::Ne, &[1], &[2], 0.0).is_ok());
    }
}
