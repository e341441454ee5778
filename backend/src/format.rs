//! Pixel, texture and vertex-attribute formats: sizes, and the conversions between
//! stored bytes and shader values (`[f32; 4]` colors, depth, stencil, attribute lanes).
//!
//! Conventions: colors decode with missing components as 0 and missing alpha as 1; depth
//! formats decode as `(d, 0, 0, 1)` (core-profile depth texture results). Packed
//! depth-stencil words follow GL's `UNSIGNED_INT_24_8` (depth in the high 24 bits,
//! stencil in the low 8) and `FLOAT_32_UNSIGNED_INT_24_8_REV` (f32 depth, then a word whose
//! low 8 bits are stencil).

use half::f16;

/// Surface and texture formats the software driver stores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 4 × u8 normalized, R first in memory.
    Rgba8Unorm,
    /// 1 × u8 normalized.
    R8Unorm,
    /// 2 × u8 normalized.
    Rg8Unorm,
    /// 4 × IEEE half float.
    Rgba16Float,
    /// 4 × f32.
    Rgba32Float,
    /// 16-bit normalized depth.
    Z16Unorm,
    /// 24-bit normalized depth in the high bits of a u32, low 8 bits unused.
    Z24UnormX8,
    /// 24-bit normalized depth (high bits) with 8-bit stencil (low bits) in a u32.
    Z24UnormS8,
    /// f32 depth.
    Z32Float,
    /// f32 depth followed by a u32 holding 8-bit stencil in its low bits.
    Z32FloatS8,
}

impl Format {
    /// Every format, for tests and tables.
    pub const ALL: [Format; 10] = [
        Format::Rgba8Unorm,
        Format::R8Unorm,
        Format::Rg8Unorm,
        Format::Rgba16Float,
        Format::Rgba32Float,
        Format::Z16Unorm,
        Format::Z24UnormX8,
        Format::Z24UnormS8,
        Format::Z32Float,
        Format::Z32FloatS8,
    ];

    /// Bytes per texel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            Format::R8Unorm => 1,
            Format::Rg8Unorm | Format::Z16Unorm => 2,
            Format::Rgba8Unorm | Format::Z24UnormX8 | Format::Z24UnormS8 | Format::Z32Float => 4,
            Format::Rgba16Float | Format::Z32FloatS8 => 8,
            Format::Rgba32Float => 16,
        }
    }

    /// Has a depth component.
    pub fn is_depth(self) -> bool {
        matches!(
            self,
            Format::Z16Unorm
                | Format::Z24UnormX8
                | Format::Z24UnormS8
                | Format::Z32Float
                | Format::Z32FloatS8
        )
    }

    /// Has a stencil component.
    pub fn has_stencil(self) -> bool {
        matches!(self, Format::Z24UnormS8 | Format::Z32FloatS8)
    }

    /// Number of color components (0 for depth formats).
    pub fn color_components(self) -> usize {
        match self {
            Format::R8Unorm => 1,
            Format::Rg8Unorm => 2,
            Format::Rgba8Unorm | Format::Rgba16Float | Format::Rgba32Float => 4,
            _ => 0,
        }
    }

    /// Largest depth value representable as an integer (`2^bits - 1`), or `None` for
    /// float depth. Depth tests compare in this integer domain, as llvmpipe does.
    pub fn depth_max(self) -> Option<u32> {
        match self {
            Format::Z16Unorm => Some(0xffff),
            Format::Z24UnormX8 | Format::Z24UnormS8 => Some(0xff_ffff),
            _ => None,
        }
    }

    /// Decodes one texel (`bytes.len() >= bytes_per_pixel()`) to RGBA floats.
    pub fn decode_rgba(self, b: &[u8]) -> [f32; 4] {
        let n = |i: usize| b.get(i).copied().unwrap_or(0) as f32 * (1.0 / 255.0);
        let h = |i: usize| {
            f16::from_bits(u16::from_le_bytes([
                b.get(2 * i).copied().unwrap_or(0),
                b.get(2 * i + 1).copied().unwrap_or(0),
            ]))
            .to_f32()
        };
        let f = |i: usize| f32::from_bits(read_u32(b, 4 * i));
        match self {
            Format::Rgba8Unorm => [n(0), n(1), n(2), n(3)],
            Format::R8Unorm => [n(0), 0.0, 0.0, 1.0],
            Format::Rg8Unorm => [n(0), n(1), 0.0, 1.0],
            Format::Rgba16Float => [h(0), h(1), h(2), h(3)],
            Format::Rgba32Float => [f(0), f(1), f(2), f(3)],
            _ => [self.decode_depth(b), 0.0, 0.0, 1.0],
        }
    }

    /// Encodes RGBA floats into one texel (normalized formats clamp to [0, 1] and round
    /// to nearest; NaN stores 0). Depth formats store `c[0]` as depth.
    pub fn encode_rgba(self, c: [f32; 4], out: &mut [u8]) {
        match self {
            Format::Rgba8Unorm => {
                for i in 0..4.min(out.len()) {
                    out[i] = unorm8(c[i]);
                }
            }
            Format::R8Unorm => {
                if let Some(o) = out.get_mut(0) {
                    *o = unorm8(c[0]);
                }
            }
            Format::Rg8Unorm => {
                for i in 0..2.min(out.len()) {
                    out[i] = unorm8(c[i]);
                }
            }
            Format::Rgba16Float => {
                for i in 0..4 {
                    if let Some(o) = out.get_mut(2 * i..2 * i + 2) {
                        o.copy_from_slice(&f16::from_f32(c[i]).to_bits().to_le_bytes());
                    }
                }
            }
            Format::Rgba32Float => {
                for i in 0..4 {
                    if let Some(o) = out.get_mut(4 * i..4 * i + 4) {
                        o.copy_from_slice(&c[i].to_le_bytes());
                    }
                }
            }
            _ => self.encode_depth(c[0], out),
        }
    }

    /// Decodes the depth of one texel as a float in [0, 1] (or the stored float).
    pub fn decode_depth(self, b: &[u8]) -> f32 {
        match self {
            Format::Z16Unorm => {
                u16::from_le_bytes([
                    b.first().copied().unwrap_or(0),
                    b.get(1).copied().unwrap_or(0),
                ]) as f32
                    / 65535.0
            }
            Format::Z24UnormX8 | Format::Z24UnormS8 => (read_u32(b, 0) >> 8) as f32 / 16_777_215.0,
            Format::Z32Float | Format::Z32FloatS8 => f32::from_bits(read_u32(b, 0)),
            _ => 0.0,
        }
    }

    /// Stores a depth value (clamped to [0, 1] for normalized formats), keeping stencil.
    pub fn encode_depth(self, d: f32, out: &mut [u8]) {
        match self {
            Format::Z16Unorm => {
                if let Some(o) = out.get_mut(0..2) {
                    o.copy_from_slice(&(unorm(d, 65535.0) as u16).to_le_bytes());
                }
            }
            Format::Z24UnormX8 | Format::Z24UnormS8 => {
                let old = read_u32(out, 0) & 0xff;
                let v = (unorm(d, 16_777_215.0) << 8) | old;
                if let Some(o) = out.get_mut(0..4) {
                    o.copy_from_slice(&v.to_le_bytes());
                }
            }
            Format::Z32Float | Format::Z32FloatS8 => {
                if let Some(o) = out.get_mut(0..4) {
                    o.copy_from_slice(&d.to_le_bytes());
                }
            }
            _ => {}
        }
    }

    /// The stencil value of one texel (0 without stencil).
    pub fn decode_stencil(self, b: &[u8]) -> u8 {
        match self {
            Format::Z24UnormS8 => b.first().copied().unwrap_or(0),
            Format::Z32FloatS8 => b.get(4).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// Stores a stencil value, keeping depth (no-op without stencil).
    pub fn encode_stencil(self, s: u8, out: &mut [u8]) {
        let i = match self {
            Format::Z24UnormS8 => 0,
            Format::Z32FloatS8 => 4,
            _ => return,
        };
        if let Some(o) = out.get_mut(i) {
            *o = s;
        }
    }
}

/// Reads a little-endian u32 at `at`, 0 past the end.
pub(crate) fn read_u32(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

/// Float in [0, 1] to an n-bit unsigned normalized integer (`max = 2^n - 1`), rounding to
/// nearest; NaN gives 0.
pub(crate) fn unorm(v: f32, max: f32) -> u32 {
    // f64: 24-bit depth needs more precision than f32 has around 2^24.
    let c = if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0) as f64
    };
    (c * max as f64 + 0.5) as u32
}

/// Float to u8 unorm.
#[inline]
pub(crate) fn unorm8(v: f32) -> u8 {
    // `as` saturates and maps NaN to 0; the +0.5 rounds to nearest.
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// Component type of a vertex attribute in memory (GL's `type` argument).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VertexType {
    /// `GL_BYTE`.
    I8,
    /// `GL_UNSIGNED_BYTE`.
    U8,
    /// `GL_SHORT`.
    I16,
    /// `GL_UNSIGNED_SHORT`.
    U16,
    /// `GL_INT`.
    I32,
    /// `GL_UNSIGNED_INT`.
    U32,
    /// `GL_HALF_FLOAT`.
    F16,
    /// `GL_FLOAT`.
    F32,
    /// `GL_DOUBLE` (converted to f32, as `glVertexAttribPointer` does).
    F64,
    /// `GL_FIXED` (16.16).
    Fixed,
    /// `GL_INT_2_10_10_10_REV` (size 4 or BGRA).
    I2_10_10_10Rev,
    /// `GL_UNSIGNED_INT_2_10_10_10_REV` (size 4 or BGRA).
    U2_10_10_10Rev,
    /// `GL_UNSIGNED_INT_10F_11F_11F_REV` (size 3).
    U10F11F11FRev,
}

impl VertexType {
    /// Bytes of one component (of the whole packed word for packed types).
    pub fn component_bytes(self) -> usize {
        match self {
            VertexType::I8 | VertexType::U8 => 1,
            VertexType::I16 | VertexType::U16 | VertexType::F16 => 2,
            VertexType::F64 => 8,
            _ => 4,
        }
    }
    fn packed(self) -> bool {
        matches!(
            self,
            VertexType::I2_10_10_10Rev | VertexType::U2_10_10_10Rev | VertexType::U10F11F11FRev
        )
    }
}

/// How one vertex attribute is laid out and converted (`glVertexAttrib{I}Pointer`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VertexFormat {
    /// Component type.
    pub ty: VertexType,
    /// Component count, 1–4.
    pub size: u8,
    /// Fixed-point types map to [0, 1] / [-1, 1].
    pub normalized: bool,
    /// `glVertexAttribIPointer`: integer values passed through as integer bits.
    pub pure_integer: bool,
    /// `GL_BGRA` size: components stored B, G, R, A (4 components, unsigned byte or packed).
    pub bgra: bool,
}

impl VertexFormat {
    /// A float format of `size` components.
    pub fn float(size: u8) -> VertexFormat {
        VertexFormat {
            ty: VertexType::F32,
            size,
            normalized: false,
            pure_integer: false,
            bgra: false,
        }
    }

    /// Bytes one element occupies in the buffer.
    pub fn element_bytes(&self) -> usize {
        if self.ty.packed() {
            4
        } else {
            self.ty.component_bytes() * self.size.clamp(1, 4) as usize
        }
    }

    /// Checks the combination is one GL accepts.
    pub fn validate(&self) -> crate::Result<()> {
        let bad = |why: &str| {
            Err(crate::Error::InvalidArgument(format!(
                "vertex format {self:?}: {why}"
            )))
        };
        if !(1..=4).contains(&self.size) {
            return bad("size must be 1-4");
        }
        let float_ty = matches!(
            self.ty,
            VertexType::F16
                | VertexType::F32
                | VertexType::F64
                | VertexType::Fixed
                | VertexType::U10F11F11FRev
        );
        if self.pure_integer && (float_ty || self.ty.packed()) {
            return bad("integer attributes need an integer type");
        }
        if self.ty.packed()
            && self.size
                != if self.ty == VertexType::U10F11F11FRev {
                    3
                } else {
                    4
                }
        {
            return bad("packed types have a fixed size");
        }
        if self.bgra
            && (self.size != 4
                || !matches!(
                    self.ty,
                    VertexType::U8 | VertexType::I2_10_10_10Rev | VertexType::U2_10_10_10Rev
                ))
        {
            return bad("BGRA needs size 4 and unsigned byte or a 2_10_10_10 type");
        }
        Ok(())
    }

    /// Converts one element (`bytes.len() >= element_bytes()`; short input reads zeros)
    /// to four 32-bit words: floats as f32 bits, pure integers as integer bits; missing
    /// components default to (0, 0, 0, 1).
    pub fn decode(&self, b: &[u8]) -> [u32; 4] {
        let one = if self.pure_integer {
            1u32
        } else {
            1.0f32.to_bits()
        };
        let mut out = [0, 0, 0, one];
        let byte = |i: usize| b.get(i).copied().unwrap_or(0);
        let u16_at = |i: usize| u16::from_le_bytes([byte(2 * i), byte(2 * i + 1)]);
        let u32_at = |i: usize| read_u32(b, 4 * i);
        let n = self.size.clamp(1, 4) as usize;
        let norm = self.normalized;
        let f = |v: f32| v.to_bits();
        match self.ty {
            VertexType::I2_10_10_10Rev | VertexType::U2_10_10_10Rev => {
                let w = u32_at(0);
                let signed = self.ty == VertexType::I2_10_10_10Rev;
                let widths = [10u32, 10, 10, 2];
                let mut shift = 0;
                for (i, &bits) in widths.iter().enumerate() {
                    let raw = (w >> shift) & ((1 << bits) - 1);
                    shift += bits;
                    let v = if signed {
                        let s = ((raw << (32 - bits)) as i32) >> (32 - bits);
                        if norm {
                            (s as f32 / ((1 << (bits - 1)) - 1) as f32).max(-1.0)
                        } else {
                            s as f32
                        }
                    } else if norm {
                        raw as f32 / ((1 << bits) - 1) as f32
                    } else {
                        raw as f32
                    };
                    out[i] = f(v);
                }
            }
            VertexType::U10F11F11FRev => {
                let w = u32_at(0);
                out[0] = f(small_float(w & 0x7ff, 6));
                out[1] = f(small_float((w >> 11) & 0x7ff, 6));
                out[2] = f(small_float((w >> 22) & 0x3ff, 5));
            }
            _ => {
                for (i, o) in out.iter_mut().enumerate().take(n) {
                    *o = match self.ty {
                        VertexType::I8 => {
                            let v = byte(i) as i8;
                            if self.pure_integer {
                                v as i32 as u32
                            } else if norm {
                                f((v as f32 / 127.0).max(-1.0))
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::U8 => {
                            let v = byte(i);
                            if self.pure_integer {
                                v as u32
                            } else if norm {
                                f(v as f32 / 255.0)
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::I16 => {
                            let v = u16_at(i) as i16;
                            if self.pure_integer {
                                v as i32 as u32
                            } else if norm {
                                f((v as f32 / 32767.0).max(-1.0))
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::U16 => {
                            let v = u16_at(i);
                            if self.pure_integer {
                                v as u32
                            } else if norm {
                                f(v as f32 / 65535.0)
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::I32 => {
                            let v = u32_at(i) as i32;
                            if self.pure_integer {
                                v as u32
                            } else if norm {
                                f((v as f64 / 2147483647.0).max(-1.0) as f32)
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::U32 => {
                            let v = u32_at(i);
                            if self.pure_integer {
                                v
                            } else if norm {
                                f((v as f64 / 4294967295.0) as f32)
                            } else {
                                f(v as f32)
                            }
                        }
                        VertexType::F16 => f(f16::from_bits(u16_at(i)).to_f32()),
                        VertexType::F32 => u32_at(i),
                        VertexType::F64 => {
                            let mut a = [0u8; 8];
                            for (k, x) in a.iter_mut().enumerate() {
                                *x = byte(8 * i + k);
                            }
                            f(f64::from_le_bytes(a) as f32)
                        }
                        VertexType::Fixed => f(u32_at(i) as i32 as f32 / 65536.0),
                        _ => 0,
                    };
                }
            }
        }
        if self.bgra {
            out.swap(0, 2);
        }
        out
    }
}

/// Unsigned small float (no sign bit, 5-bit exponent, `mbits` mantissa bits).
fn small_float(v: u32, mbits: u32) -> f32 {
    let e = (v >> mbits) & 0x1f;
    let m = v & ((1 << mbits) - 1);
    let mf = m as f32 / (1u32 << mbits) as f32;
    match e {
        0 => mf * 2f32.powi(-14),
        31 => {
            if m == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => (1.0 + mf) * 2f32.powi(e as i32 - 15),
    }
}
