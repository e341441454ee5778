//! Image load/store in the software driver (GL 4.2 §8.26 "Texture Image
//! Loads and Stores", GLSL 4.20 §8.12 image functions).
//!
//! A draw or dispatch gets its images by image index ([`ImageBinding`], as the
//! state tracker resolved the image uniforms to image units). Before it runs,
//! the driver copies each bound texture level into a [`StorageCopy`] of atomic
//! words, one copy per (texture, level) however many indices bind it, so every
//! raster or compute thread reads and writes the same texels; afterwards only
//! the bytes the shaders changed go back into the texture (as storage buffers
//! do, `crate::storage`).
//!
//! Addressing ([`ImageView`]): the shader's integer coordinate names a texel
//! `(x, y, slice)` of the level (1D arrays: `(x, layer)`; 2D arrays, 3D, cube
//! and cube-array images: the third coordinate is the layer, slice or
//! `6 × layer + face`). A layered binding sees every slice, a non-layered one
//! only slice `layer` (as slice 0). Anything outside the level is out of
//! range: loads give 0, stores are dropped and atomics return 0 with nothing
//! changed (robust access, as for the other reads and writes of rgl).
//!
//! Formats: the binding's format (GL 4.2 table 8.27) decides how texel bytes
//! read and write; rgl's texture storage keeps a texture's GL texel as the
//! first bytes of its stored texel for every internal format the image table
//! has and rgl stores (RGBA32F, RGBA16F, RG32F, RG16F, R32F, R16F, RGBA8, RG8,
//! R8), so a format of that size class addresses exactly the GL texel. Every
//! format of table 8.27 reads and writes: the float, normalized (8 and 16 bit,
//! unsigned and signed) and integer (8, 16 and 32 bit) ones component by
//! component, and the packed `rgb10_a2`, `rgb10_a2ui` and `r11f_g11f_b10f` as
//! one GL-packed word ([`Packed`]). A format whose texel is larger than the
//! stored one gives [`Error::Unsupported`] when the draw starts, never a wrong
//! result. Loads fill missing components with `(0, 0, 0, 1)`; stores convert
//! as §8.26 says (`TexSubImage` with RGBA `FLOAT` or `RGBA_INTEGER`
//! `INT`/`UNSIGNED_INT` data): normalized stores clamp and round, integer
//! stores clamp to the component's range. Atomics work on `r32i`, `r32ui` and
//! `r32f` texels only (GLSL 4.20 §8.12), with the same atomic word operations
//! as storage buffers, so they are atomic across threads.
//!
//! Stores and atomics through a `GL_READ_ONLY` binding are dropped; helper
//! invocations never get here (the lane program masks them, as for storage
//! buffers).

use half::f16;
use rgl_nir::intrinsics::{AtomicOp, ImageFormat};
use rgl_nir::ir::SamplerDim;

use crate::driver::{ImageBinding, TexTarget};
use crate::error::{Error, Result};
use crate::format::Format;
use crate::soft::{level_size, Table, Texture};
use crate::storage::{StorageCopy, StorageView};

/// Most image indices a draw or dispatch binds (well above the state
/// tracker's image units times the stages).
pub const MAX_IMAGES: usize = 256;

/// How one component of an image format is stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Enc {
    Unorm8,
    Snorm8,
    Unorm16,
    Snorm16,
    Float16,
    Float32,
    Uint8,
    Sint8,
    Uint16,
    Sint16,
    Uint32,
    Sint32,
    /// A whole packed 32-bit texel (`rgb10_a2`, `rgb10_a2ui`,
    /// `r11f_g11f_b10f`); the format has one "component", the word.
    Packed(Packed),
}

impl Enc {
    fn bytes(self) -> usize {
        match self {
            Enc::Unorm8 | Enc::Snorm8 | Enc::Uint8 | Enc::Sint8 => 1,
            Enc::Unorm16 | Enc::Snorm16 | Enc::Float16 | Enc::Uint16 | Enc::Sint16 => 2,
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 | Enc::Packed(_) => 4,
        }
    }
    fn is_float(self) -> bool {
        !matches!(
            self,
            Enc::Uint8
                | Enc::Sint8
                | Enc::Uint16
                | Enc::Sint16
                | Enc::Uint32
                | Enc::Sint32
                | Enc::Packed(Packed::Rgb10A2ui)
        )
    }

    /// The shader word of one stored component.
    fn decode(self, b: &[u8]) -> u32 {
        let u16_at = || u16::from_le_bytes([b[0], b[1]]);
        match self {
            Enc::Unorm8 => (f32::from(b[0]) / 255.0).to_bits(),
            Enc::Snorm8 => (f32::from(b[0] as i8) / 127.0).max(-1.0).to_bits(),
            Enc::Unorm16 => (f32::from(u16_at()) / 65535.0).to_bits(),
            Enc::Snorm16 => (f32::from(u16_at() as i16) / 32767.0).max(-1.0).to_bits(),
            Enc::Float16 => f16::from_bits(u16_at()).to_f32().to_bits(),
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 | Enc::Packed(_) => {
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            }
            Enc::Uint8 => u32::from(b[0]),
            Enc::Sint8 => i32::from(b[0] as i8) as u32,
            Enc::Uint16 => u32::from(u16_at()),
            Enc::Sint16 => i32::from(u16_at() as i16) as u32,
        }
    }

    /// Stores the shader word `w` as one component into `out`.
    fn encode(self, w: u32, out: &mut [u8]) {
        let f = f32::from_bits(w);
        let norm = |v: f32, lo: f32, max: f32| -> i32 {
            let v = if v.is_nan() { 0.0 } else { v.clamp(lo, 1.0) };
            (v * max).round() as i32
        };
        let (i, u) = (w as i32, w);
        let bytes: [u8; 4] = match self {
            Enc::Unorm8 => [norm(f, 0.0, 255.0) as u8, 0, 0, 0],
            Enc::Snorm8 => [norm(f, -1.0, 127.0) as i8 as u8, 0, 0, 0],
            Enc::Unorm16 => (norm(f, 0.0, 65535.0) as u32).to_le_bytes(),
            Enc::Snorm16 => (norm(f, -1.0, 32767.0) as i16 as u16 as u32).to_le_bytes(),
            Enc::Float16 => u32::from(f16::from_f32(f).to_bits()).to_le_bytes(),
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 | Enc::Packed(_) => w.to_le_bytes(),
            Enc::Uint8 => [u.min(0xff) as u8, 0, 0, 0],
            Enc::Sint8 => [i.clamp(-128, 127) as i8 as u8, 0, 0, 0],
            Enc::Uint16 => u.min(0xffff).to_le_bytes(),
            Enc::Sint16 => (i.clamp(-32768, 32767) as i16 as u16 as u32).to_le_bytes(),
        };
        let n = self.bytes().min(out.len());
        out[..n].copy_from_slice(&bytes[..n]);
    }
}

/// The packed 32-bit image formats (GL 4.2 table 8.27; bit layouts of GL 4.2
/// table 8.8 `UNSIGNED_INT_2_10_10_10_REV` and `UNSIGNED_INT_10F_11F_11F_REV`:
/// the first component in the low bits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Packed {
    /// `rgb10_a2`: 10-bit unsigned normalized R, G, B and 2-bit A.
    Rgb10A2,
    /// `rgb10_a2ui`: the same bits as unsigned integers.
    Rgb10A2ui,
    /// `r11f_g11f_b10f`: unsigned 11-, 11- and 10-bit floats (GL 4.2 §2.1.3
    /// and §2.1.4), alpha reads 1.
    R11G11B10f,
}

/// Component bit widths of the 10/10/10/2 formats, low bits first.
const RGB10_A2_BITS: [u32; 4] = [10, 10, 10, 2];

impl Packed {
    /// The shader words of the packed texel `t` (GL 4.2 §8.26: as a texture
    /// fetch would return them).
    fn unpack(self, t: u32) -> [u32; 4] {
        match self {
            Packed::Rgb10A2 | Packed::Rgb10A2ui => {
                let mut out = [0u32; 4];
                let mut shift = 0;
                for (o, bits) in out.iter_mut().zip(RGB10_A2_BITS) {
                    let max = (1u32 << bits) - 1;
                    let v = (t >> shift) & max;
                    *o = if self == Packed::Rgb10A2 {
                        (v as f32 / max as f32).to_bits()
                    } else {
                        v
                    };
                    shift += bits;
                }
                out
            }
            Packed::R11G11B10f => [
                small_float_to_f32(t & 0x7ff, 6).to_bits(),
                small_float_to_f32((t >> 11) & 0x7ff, 6).to_bits(),
                small_float_to_f32(t >> 22, 5).to_bits(),
                1f32.to_bits(),
            ],
        }
    }

    /// The packed texel of the shader words `v` (GL 4.2 §8.26: converted as
    /// `TexSubImage` converts RGBA `FLOAT`, or `RGBA_INTEGER` `UNSIGNED_INT`
    /// data: normalized values clamp to [0, 1] and round, unsigned integers
    /// clamp to the component's largest value).
    fn pack(self, v: [u32; 4]) -> u32 {
        match self {
            Packed::Rgb10A2 | Packed::Rgb10A2ui => {
                let mut t = 0u32;
                let mut shift = 0;
                for (w, bits) in v.iter().zip(RGB10_A2_BITS) {
                    let max = (1u32 << bits) - 1;
                    let c = if self == Packed::Rgb10A2 {
                        let f = f32::from_bits(*w);
                        let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                        (f * max as f32).round() as u32
                    } else {
                        (*w).min(max)
                    };
                    t |= c << shift;
                    shift += bits;
                }
                t
            }
            Packed::R11G11B10f => {
                f32_to_small_float(f32::from_bits(v[0]), 6)
                    | f32_to_small_float(f32::from_bits(v[1]), 6) << 11
                    | f32_to_small_float(f32::from_bits(v[2]), 5) << 22
            }
        }
    }
}

/// An unsigned small float (5-bit exponent with bias 15, `m`-bit mantissa, no
/// sign; GL 4.2 §2.1.3/§2.1.4) as f32: exponent 0 is denormal, 31 infinity or
/// NaN (Mesa's `uf11_to_f32`/`uf10_to_f32`).
fn small_float_to_f32(bits: u32, m: u32) -> f32 {
    let exponent = (bits >> m) & 0x1f;
    let mantissa = bits & ((1 << m) - 1);
    match exponent {
        0 => mantissa as f32 * 2f32.powi(-14 - m as i32),
        31 if mantissa == 0 => f32::INFINITY,
        31 => f32::NAN,
        e => 2f32.powi(e as i32 - 15) * (1.0 + mantissa as f32 / (1u32 << m) as f32),
    }
}

/// f32 to an unsigned small float of `m` mantissa bits (Mesa's
/// `f32_to_uf11`/`f32_to_uf10`): negative values and -inf give 0, NaN stays
/// NaN, values above the largest finite value give that value, the mantissa
/// truncates and values below the smallest normal flush to 0.
fn f32_to_small_float(f: f32, m: u32) -> u32 {
    let max_exp = 0x1f << m;
    if f.is_nan() {
        return max_exp | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    if f.is_infinite() {
        return max_exp;
    }
    let largest = (30 << m) | ((1 << m) - 1);
    if f > small_float_to_f32(largest, m) {
        return largest;
    }
    let b = f.to_bits();
    let exponent = ((b >> 23) & 0xff) as i32 - 127;
    if exponent <= -15 {
        return 0;
    }
    (((exponent + 15) as u32) << m) | ((b & 0x7f_ffff) >> (23 - m))
}

/// The component encoding and count of an image format (packed formats: one
/// [`Enc::Packed`] word); `None` for `NONE`.
fn layout(f: ImageFormat) -> Option<(Enc, usize)> {
    use ImageFormat as F;
    Some(match f {
        F::Rgba32f => (Enc::Float32, 4),
        F::Rgba16f => (Enc::Float16, 4),
        F::Rg32f => (Enc::Float32, 2),
        F::Rg16f => (Enc::Float16, 2),
        F::R32f => (Enc::Float32, 1),
        F::R16f => (Enc::Float16, 1),
        F::Rgba16 => (Enc::Unorm16, 4),
        F::Rgba8 => (Enc::Unorm8, 4),
        F::Rg16 => (Enc::Unorm16, 2),
        F::Rg8 => (Enc::Unorm8, 2),
        F::R16 => (Enc::Unorm16, 1),
        F::R8 => (Enc::Unorm8, 1),
        F::Rgba16Snorm => (Enc::Snorm16, 4),
        F::Rgba8Snorm => (Enc::Snorm8, 4),
        F::Rg16Snorm => (Enc::Snorm16, 2),
        F::Rg8Snorm => (Enc::Snorm8, 2),
        F::R16Snorm => (Enc::Snorm16, 1),
        F::R8Snorm => (Enc::Snorm8, 1),
        F::Rgba32i => (Enc::Sint32, 4),
        F::Rgba16i => (Enc::Sint16, 4),
        F::Rgba8i => (Enc::Sint8, 4),
        F::Rg32i => (Enc::Sint32, 2),
        F::Rg16i => (Enc::Sint16, 2),
        F::Rg8i => (Enc::Sint8, 2),
        F::R32i => (Enc::Sint32, 1),
        F::R16i => (Enc::Sint16, 1),
        F::R8i => (Enc::Sint8, 1),
        F::Rgba32ui => (Enc::Uint32, 4),
        F::Rgba16ui => (Enc::Uint16, 4),
        F::Rgba8ui => (Enc::Uint8, 4),
        F::Rg32ui => (Enc::Uint32, 2),
        F::Rg16ui => (Enc::Uint16, 2),
        F::Rg8ui => (Enc::Uint8, 2),
        F::R32ui => (Enc::Uint32, 1),
        F::R16ui => (Enc::Uint16, 1),
        F::R8ui => (Enc::Uint8, 1),
        F::R11fG11fB10f => (Enc::Packed(Packed::R11G11B10f), 1),
        F::Rgb10A2 => (Enc::Packed(Packed::Rgb10A2), 1),
        F::Rgb10A2ui => (Enc::Packed(Packed::Rgb10A2ui), 1),
        F::None => return None,
    })
}

/// Bytes of one texel of `format`, if the driver accesses it.
pub fn texel_bytes(format: ImageFormat) -> Option<usize> {
    layout(format).map(|(e, n)| e.bytes() * n)
}

/// Whether the driver can access a texture stored as `stored` through an image
/// of `format` (the format's texel fits the stored texel's leading bytes).
pub fn supports(stored: Format, format: ImageFormat) -> bool {
    !stored.is_depth() && texel_bytes(format).is_some_and(|b| b <= stored.bytes_per_pixel())
}

/// One image index as shaders see it (unbound: the default, every access out
/// of range).
#[derive(Clone, Copy, Debug, Default)]
pub struct ImageView<'a> {
    mem: StorageView<'a>,
    /// `None` when nothing is bound at this index.
    shape: Option<Shape>,
}

/// What one bound image unit addresses in its level copy: the GL 4.x §8.26
/// binding (level, layer, layered, access) resolved against the texture.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Level width, height (1 for 1D arrays) and slice count (layers, cube
    /// faces × layers, or 3D depth).
    w: u32,
    h: u32,
    slices: u32,
    layered: bool,
    layer: u32,
    /// Stored bytes per texel.
    bpp: u32,
    enc: Enc,
    comps: usize,
    read_only: bool,
}

impl ImageView<'_> {
    /// The texel's byte offset, if in range.
    fn texel(&self, dim: SamplerDim, array: bool, c: [u32; 4]) -> Option<u64> {
        let sh = self.shape?;
        let c = c.map(|v| v as i32);
        let (x, y, s) = match (dim, array) {
            (SamplerDim::D1 | SamplerDim::Buf, false) => (c[0], 0, 0),
            (SamplerDim::D1, true) => (c[0], 0, c[1]),
            (SamplerDim::D2 | SamplerDim::Rect | SamplerDim::Ms, false) => (c[0], c[1], 0),
            (SamplerDim::D2 | SamplerDim::Ms, true) | (SamplerDim::D3 | SamplerDim::Cube, _) => {
                (c[0], c[1], c[2])
            }
            _ => return None,
        };
        let (x, y, s) = (
            u32::try_from(x).ok()?,
            u32::try_from(y).ok()?,
            u32::try_from(s).ok()?,
        );
        let slice = if sh.layered {
            s
        } else if s == 0 {
            sh.layer
        } else {
            return None;
        };
        if x >= sh.w || y >= sh.h || slice >= sh.slices {
            return None;
        }
        let index =
            (u64::from(slice) * u64::from(sh.h) + u64::from(y)) * u64::from(sh.w) + u64::from(x);
        Some(index * u64::from(sh.bpp))
    }

    /// `image_load`: the texel at `c` as 4 shader words (0 out of range).
    pub fn load(&self, dim: SamplerDim, array: bool, c: [u32; 4]) -> [u32; 4] {
        let (Some(sh), Some(at)) = (self.shape, self.texel(dim, array, c)) else {
            return [0; 4];
        };
        let enc = sh.enc;
        let Some(bytes) = self.mem.load_bytes::<16>(at).or_else(|| {
            // A texel shorter than 16 bytes at the very end of the level.
            let n = enc.bytes() * sh.comps;
            let mut b = [0u8; 16];
            for (i, o) in b.iter_mut().enumerate().take(n) {
                *o = self.mem.load_bytes::<1>(at + i as u64)?[0];
            }
            Some(b)
        }) else {
            return [0; 4];
        };
        if let Enc::Packed(p) = enc {
            return p.unpack(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        }
        let one = if enc.is_float() { 1f32.to_bits() } else { 1 };
        let mut out = [0, 0, 0, one];
        for (i, o) in out.iter_mut().enumerate().take(sh.comps) {
            *o = enc.decode(&bytes[i * enc.bytes()..]);
        }
        out
    }

    /// `image_store`: writes the format's components of `v` (dropped out of
    /// range or through a read-only binding).
    pub fn store(&self, dim: SamplerDim, array: bool, c: [u32; 4], v: [u32; 4]) {
        let (Some(sh), Some(at)) = (self.shape, self.texel(dim, array, c)) else {
            return;
        };
        if sh.read_only {
            return;
        }
        let enc = sh.enc;
        let n = enc.bytes();
        let mut bytes = [0u8; 16];
        if let Enc::Packed(p) = enc {
            self.mem.store_bytes(at, &p.pack(v).to_le_bytes());
            return;
        }
        for (i, w) in v.iter().enumerate().take(sh.comps) {
            enc.encode(*w, &mut bytes[i * n..(i + 1) * n]);
        }
        self.mem.store_bytes(at, &bytes[..n * sh.comps]);
    }

    /// `image_atomic(_swap)` on a single 32-bit component texel: the old word
    /// (0 with nothing changed out of range, for other formats, or through a
    /// read-only binding).
    pub fn atomic(
        &self,
        dim: SamplerDim,
        array: bool,
        c: [u32; 4],
        op: AtomicOp,
        data: u32,
        swap: Option<u32>,
    ) -> u32 {
        let Some(sh) = self.shape else {
            return 0;
        };
        let word = matches!(sh.enc, Enc::Uint32 | Enc::Sint32 | Enc::Float32);
        if sh.read_only || !word || sh.comps != 1 {
            return 0;
        }
        match self
            .texel(dim, array, c)
            .and_then(|b| i64::try_from(b).ok())
        {
            Some(at) => self.mem.atomic(op, at, data, swap),
            None => 0,
        }
    }

    /// `image_size`: the image's size as the image type reports it (GLSL
    /// 4.20 §8.12: cube images give the face size, cube arrays add the layer
    /// count); 0 when unbound.
    pub fn size(&self, dim: SamplerDim, array: bool) -> [u32; 4] {
        let Some(sh) = self.shape else {
            return [0; 4];
        };
        let layers = if sh.layered { sh.slices } else { 1 };
        match (dim, array) {
            (SamplerDim::D1 | SamplerDim::Buf, false) => [sh.w, 0, 0, 0],
            (SamplerDim::D1, true) => [sh.w, layers, 0, 0],
            (SamplerDim::Cube, false) => [sh.w, sh.h, 0, 0],
            (SamplerDim::Cube, true) => [sh.w, sh.h, layers / 6, 0],
            (_, true) | (SamplerDim::D3, _) => [sh.w, sh.h, layers, 0],
            _ => [sh.w, sh.h, 0, 0],
        }
    }

    /// `image_samples`: 1 for a bound image (rgl has no multisample textures),
    /// 0 when unbound.
    pub fn samples(&self) -> u32 {
        u32::from(self.shape.is_some())
    }
}

/// The image memory of one draw or dispatch: one copy per bound (texture,
/// level), and what each image index addresses in them.
#[derive(Default)]
pub(crate) struct ImageCopies {
    copies: Vec<((u32, u32), StorageCopy)>,
    /// Per image index: the copy it addresses and how.
    slots: Vec<Option<(usize, Shape)>>,
}

impl ImageCopies {
    /// Copies the levels `bindings` name. A binding whose texture, level or
    /// layer does not exist fails with an error (the state tracker only hands
    /// over complete bindings); a format the driver cannot access on that
    /// texture fails with [`Error::Unsupported`].
    pub(crate) fn new(
        textures: &Table<Texture>,
        bindings: &[Option<ImageBinding>],
    ) -> Result<ImageCopies> {
        let mut out = ImageCopies::default();
        for b in bindings {
            let Some(b) = b else {
                out.slots.push(None);
                continue;
            };
            let t = textures.get(b.texture.0)?;
            let Some(level) = t.levels.get(b.level as usize) else {
                return Err(Error::InvalidArgument(format!("image level {}", b.level)));
            };
            let Some((enc, comps)) = layout(b.format).filter(|_| supports(t.desc.format, b.format))
            else {
                return Err(Error::Unsupported(format!(
                    "image format {} on a texture stored as {:?}",
                    b.format.name(),
                    t.desc.format
                )));
            };
            let (tw, th, td) = level_size(&t.desc, b.level);
            let (w, h, slices) = if t.desc.target == TexTarget::D1Array {
                (tw, 1, th)
            } else {
                (tw, th, td)
            };
            if !b.layered && b.layer >= slices {
                return Err(Error::InvalidArgument(format!("image layer {}", b.layer)));
            }
            let key = (b.texture.0, b.level);
            let copy = match out.copies.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    out.copies.push((key, StorageCopy::new(level)));
                    out.copies.len() - 1
                }
            };
            out.slots.push(Some((
                copy,
                Shape {
                    w,
                    h,
                    slices,
                    layered: b.layered,
                    layer: b.layer,
                    bpp: t.desc.format.bytes_per_pixel() as u32,
                    enc,
                    comps,
                    read_only: b.read_only,
                },
            )));
        }
        Ok(out)
    }

    /// The views shaders use, by image index.
    pub(crate) fn views(&self) -> Vec<ImageView<'_>> {
        self.slots
            .iter()
            .map(|s| match s {
                Some((copy, shape)) => ImageView {
                    mem: self.copies[*copy].1.view(),
                    shape: Some(*shape),
                },
                None => ImageView::default(),
            })
            .collect()
    }

    /// Writes the bytes the shaders changed back into the textures.
    pub(crate) fn write_back(&self, textures: &mut Table<Texture>) {
        for ((tex, level), copy) in &self.copies {
            let Ok(t) = textures.get_mut(*tex) else {
                continue;
            };
            let Some(lv) = t.levels.get_mut(*level as usize) else {
                continue;
            };
            for (i, v) in copy.changes() {
                if let Some(b) = lv.get_mut(i) {
                    *b = v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_round_trip_their_components() {
        // (format, stored word, shader words after the store/load)
        let cases: &[(ImageFormat, [u32; 4], [u32; 4])] = &[
            (
                ImageFormat::Rgba8,
                [
                    0.5f32.to_bits(),
                    2f32.to_bits(),
                    (-1f32).to_bits(),
                    1f32.to_bits(),
                ],
                [
                    (128.0f32 / 255.0).to_bits(),
                    1f32.to_bits(),
                    0,
                    1f32.to_bits(),
                ],
            ),
            (
                ImageFormat::R32i,
                [(-7i32) as u32, 9, 9, 9],
                [(-7i32) as u32, 0, 0, 1],
            ),
            (
                ImageFormat::Rg16f,
                [0.25f32.to_bits(), 3f32.to_bits(), 5, 5],
                [0.25f32.to_bits(), 3f32.to_bits(), 0, 1f32.to_bits()],
            ),
            (ImageFormat::R8ui, [300, 0, 0, 0], [255, 0, 0, 1]),
            (
                ImageFormat::R8Snorm,
                [(-2f32).to_bits(), 0, 0, 0],
                [(-1f32).to_bits(), 0, 0, 1f32.to_bits()],
            ),
        ];
        for (format, stored, want) in cases {
            let copy = StorageCopy::new(&[0u8; 64]);
            let (enc, comps) = layout(*format).unwrap();
            let view = ImageView {
                mem: copy.view(),
                shape: Some(Shape {
                    w: 2,
                    h: 2,
                    slices: 1,
                    layered: false,
                    layer: 0,
                    bpp: 16,
                    enc,
                    comps,
                    read_only: false,
                }),
            };
            view.store(SamplerDim::D2, false, [1, 1, 0, 0], *stored);
            assert_eq!(
                view.load(SamplerDim::D2, false, [1, 1, 0, 0]),
                *want,
                "{format:?}"
            );
            // Out of range: dropped and zero.
            view.store(SamplerDim::D2, false, [2, 0, 0, 0], *stored);
            assert_eq!(view.load(SamplerDim::D2, false, [2, 0, 0, 0]), [0; 4]);
            assert_eq!(
                view.load(SamplerDim::D2, false, [u32::MAX, 0, 0, 0]),
                [0; 4]
            );
        }
    }

    #[test]
    fn layers_and_read_only_bindings() {
        let copy = StorageCopy::new(&[0u8; 4 * 2 * 2 * 3]);
        let (enc, comps) = layout(ImageFormat::R32ui).unwrap();
        let base = ImageView {
            mem: copy.view(),
            shape: Some(Shape {
                w: 2,
                h: 2,
                slices: 3,
                layered: true,
                layer: 0,
                bpp: 4,
                enc,
                comps,
                read_only: false,
            }),
        };
        base.store(SamplerDim::D2, true, [1, 0, 2, 0], [42, 0, 0, 0]);
        let single = reshape(base, |s| {
            s.layered = false;
            s.layer = 2;
        });
        assert_eq!(single.load(SamplerDim::D2, false, [1, 0, 0, 0])[0], 42);
        assert_eq!(single.size(SamplerDim::D2, false), [2, 2, 0, 0]);
        assert_eq!(base.size(SamplerDim::D2, true), [2, 2, 3, 0]);
        assert_eq!(
            single.atomic(SamplerDim::D2, false, [1, 0, 0, 0], AtomicOp::Iadd, 1, None),
            42
        );
        let ro = reshape(single, |s| s.read_only = true);
        ro.store(SamplerDim::D2, false, [1, 0, 0, 0], [7, 0, 0, 0]);
        assert_eq!(
            ro.atomic(SamplerDim::D2, false, [1, 0, 0, 0], AtomicOp::Xchg, 9, None),
            0
        );
        assert_eq!(ro.load(SamplerDim::D2, false, [1, 0, 0, 0])[0], 43);
    }

    #[test]
    fn image_atomics_are_atomic_across_threads() {
        let copy = StorageCopy::new(&[0u8; 4]);
        let view = view_of(&copy, ImageFormat::R32i);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        view.atomic(SamplerDim::D2, false, [0; 4], AtomicOp::Iadd, 1, None);
                    }
                });
            }
        });
        assert_eq!(view.load(SamplerDim::D2, false, [0; 4])[0], 4000);
    }

    /// `view` with its binding shape changed by `f`.
    fn reshape<'a>(view: ImageView<'a>, f: impl FnOnce(&mut Shape)) -> ImageView<'a> {
        let mut shape = view.shape.unwrap();
        f(&mut shape);
        ImageView {
            shape: Some(shape),
            ..view
        }
    }

    /// A 1×1 view of `format` on `copy`.
    fn view_of(copy: &StorageCopy, format: ImageFormat) -> ImageView<'_> {
        let (enc, comps) = layout(format).unwrap();
        ImageView {
            mem: copy.view(),
            shape: Some(Shape {
                w: 1,
                h: 1,
                slices: 1,
                layered: false,
                layer: 0,
                bpp: 4,
                enc,
                comps,
                read_only: false,
            }),
        }
    }

    #[test]
    fn packed_formats_convert_as_gl_4_2_section_8_26_says() {
        let f = |v: f32| v.to_bits();
        // (format, stored words, loaded words, the texel's bits)
        let cases: &[(ImageFormat, [u32; 4], [u32; 4], u32)] = &[
            (
                ImageFormat::Rgb10A2,
                [f(0.5), f(2.0), f(-1.0), f(0.4)],
                [f(512.0 / 1023.0), f(1.0), f(0.0), f(1.0 / 3.0)],
                512 | 1023 << 10 | 1 << 30,
            ),
            (
                ImageFormat::Rgb10A2ui,
                [5000, 7, 1023, 9],
                [1023, 7, 1023, 3],
                1023 | 7 << 10 | 1023 << 20 | 3 << 30,
            ),
            (
                // 1.0 and 0.5 exactly; 2^20 above the 10-bit maximum (64512);
                // alpha is not stored and reads 1.
                ImageFormat::R11fG11fB10f,
                [f(1.0), f(0.5), f(1048576.0), f(0.0)],
                [f(1.0), f(0.5), f(64512.0), f(1.0)],
                15 << 6 | (14 << 6) << 11 | (30 << 5 | 31) << 22,
            ),
            (
                // Negative and -inf flush to 0; below the smallest normal
                // (2^-14) flushes to 0.
                ImageFormat::R11fG11fB10f,
                [f(-3.0), f(1e-5), f(f32::NEG_INFINITY), f(7.0)],
                [0, 0, 0, f(1.0)],
                0,
            ),
            (
                ImageFormat::R11fG11fB10f,
                // The mantissa truncates (1.99 → 1 + 63/64 with 6 bits); +inf
                // stays; 65024 is above the 10-bit maximum.
                [f(1.99), f(f32::INFINITY), f(65024.0), 0],
                [f(1.984375), f(f32::INFINITY), f(64512.0), f(1.0)],
                (15 << 6 | 63) | (31 << 6) << 11 | (30 << 5 | 31) << 22,
            ),
        ];
        for (format, stored, want, bits) in cases {
            let copy = StorageCopy::new(&[0u8; 4]);
            let view = view_of(&copy, *format);
            view.store(SamplerDim::D2, false, [0; 4], *stored);
            assert_eq!(
                view.load(SamplerDim::D2, false, [0; 4]),
                *want,
                "{format:?}"
            );
            // The texel is GL's packed word, read back through r32ui (same size
            // class, GL 4.2 §8.26 compatibility by size).
            let raw = view_of(&copy, ImageFormat::R32ui);
            assert_eq!(
                raw.load(SamplerDim::D2, false, [0; 4])[0],
                *bits,
                "{format:?}"
            );
            // No atomics on packed texels.
            assert_eq!(
                view.atomic(SamplerDim::D2, false, [0; 4], AtomicOp::Iadd, 1, None),
                0
            );
            assert_eq!(raw.load(SamplerDim::D2, false, [0; 4])[0], *bits);
        }
        // NaN stays NaN through r11f_g11f_b10f.
        let copy = StorageCopy::new(&[0u8; 4]);
        let view = view_of(&copy, ImageFormat::R11fG11fB10f);
        view.store(SamplerDim::D2, false, [0; 4], [f(f32::NAN), 0, 0, 0]);
        assert!(f32::from_bits(view.load(SamplerDim::D2, false, [0; 4])[0]).is_nan());
    }

    #[test]
    fn every_image_format_has_a_layout_of_its_size_class() {
        use ImageFormat as F;
        // GL 4.2 table 8.27's size classes (bits per texel).
        let table: &[(ImageFormat, usize)] = &[
            (F::Rgba32f, 128),
            (F::Rgba32i, 128),
            (F::Rgba32ui, 128),
            (F::Rgba16f, 64),
            (F::Rg32f, 64),
            (F::Rgba16, 64),
            (F::Rgba16Snorm, 64),
            (F::Rgba16i, 64),
            (F::Rgba16ui, 64),
            (F::Rg32i, 64),
            (F::Rg32ui, 64),
            (F::Rg16f, 32),
            (F::R11fG11fB10f, 32),
            (F::R32f, 32),
            (F::Rgb10A2, 32),
            (F::Rgba8, 32),
            (F::Rg16, 32),
            (F::Rgba8Snorm, 32),
            (F::Rg16Snorm, 32),
            (F::Rgba8i, 32),
            (F::Rg16i, 32),
            (F::R32i, 32),
            (F::Rgb10A2ui, 32),
            (F::Rgba8ui, 32),
            (F::Rg16ui, 32),
            (F::R32ui, 32),
            (F::R16f, 16),
            (F::Rg8, 16),
            (F::R16, 16),
            (F::Rg8Snorm, 16),
            (F::R16Snorm, 16),
            (F::Rg8i, 16),
            (F::R16i, 16),
            (F::Rg8ui, 16),
            (F::R16ui, 16),
            (F::R8, 8),
            (F::R8Snorm, 8),
            (F::R8i, 8),
            (F::R8ui, 8),
        ];
        for (format, bits) in table {
            assert_eq!(
                texel_bytes(*format).map(|b| b * 8),
                Some(*bits),
                "{format:?}"
            );
        }
        assert_eq!(texel_bytes(F::None), None);
        // Depth textures never take images; a 32-bit class fits RGBA8 storage.
        assert!(!supports(Format::Z32Float, F::R32f));
        assert!(supports(Format::Rgba8Unorm, F::Rgb10A2));
        assert!(!supports(Format::Rgba8Unorm, F::Rg32f));
    }

    #[test]
    fn integer_and_normalized_16_bit_formats_round_trip() {
        let f = |v: f32| v.to_bits();
        let cases: &[(ImageFormat, [u32; 4], [u32; 4])] = &[
            (
                ImageFormat::Rgba16i,
                [70000, (-70000i32) as u32, (-5i32) as u32, 32767],
                [32767, (-32768i32) as u32, (-5i32) as u32, 32767],
            ),
            (
                ImageFormat::Rg16ui,
                [70000, 65535, 9, 9],
                [65535, 65535, 0, 1],
            ),
            (
                ImageFormat::Rgba8i,
                [200, (-200i32) as u32, 3, (-128i32) as u32],
                [127, (-128i32) as u32, 3, (-128i32) as u32],
            ),
            (ImageFormat::Rg8ui, [256, 255, 1, 1], [255, 255, 0, 1]),
            (
                ImageFormat::Rgba16,
                [f(1.5), f(0.0), f(-1.0), f(32768.0 / 65535.0)],
                [f(1.0), f(0.0), f(0.0), f(32768.0 / 65535.0)],
            ),
            (
                ImageFormat::Rg16Snorm,
                [f(-2.0), f(0.5), 0, 0],
                [f(-1.0), f(16384.0 / 32767.0), 0, f(1.0)],
            ),
            (ImageFormat::R16, [f(f32::NAN), 0, 0, 0], [0, 0, 0, f(1.0)]),
            (
                ImageFormat::Rgba32ui,
                [u32::MAX, 0, 7, 1 << 31],
                [u32::MAX, 0, 7, 1 << 31],
            ),
        ];
        for (format, stored, want) in cases {
            let copy = StorageCopy::new(&[0u8; 16]);
            let view = reshape(view_of(&copy, *format), |s| s.bpp = 16);
            view.store(SamplerDim::D1, false, [0; 4], *stored);
            assert_eq!(
                view.load(SamplerDim::D1, false, [0; 4]),
                *want,
                "{format:?}"
            );
        }
    }
}
