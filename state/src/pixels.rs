//! Pixel transfer: the pixel storage modes (`glPixelStorei`), the client
//! `format`/`type` pairs `glTexImage*`, `glReadPixels` and `glGetTexImage` accept, the
//! internal formats textures and renderbuffers are stored in, and the conversions
//! between them.
//!
//! Client pixels are converted through RGBA floats (colors) or depth floats and
//! stencil bytes, the way GL's pixel transfer is specified: unpacking fills missing
//! components with (0, 0, 0, 1) and luminance goes to R; the internal format's base
//! format then keeps the components it has (the rest read back as 0, 0, 1). Stored
//! texels use the driver's [`Format`]s; formats the driver does not store natively
//! (RGB, R16F, LUMINANCE, ...) are kept in a wider driver format with the missing
//! components filled, and a sampler-view swizzle gives the shader GL's values.

use half::f16;
use rgl_backend::driver::Swizzle;
use rgl_backend::format::Format;

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::Context;

/// Pixel storage modes of one direction (pack or unpack).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PixelModes {
    /// `GL_*_ALIGNMENT`: row starts are multiples of this (1, 2, 4 or 8).
    pub alignment: u32,
    /// `GL_*_ROW_LENGTH` (0: the image width).
    pub row_length: u32,
    /// `GL_*_IMAGE_HEIGHT` (0: the image height).
    pub image_height: u32,
    /// `GL_*_SKIP_PIXELS`.
    pub skip_pixels: u32,
    /// `GL_*_SKIP_ROWS`.
    pub skip_rows: u32,
    /// `GL_*_SKIP_IMAGES`.
    pub skip_images: u32,
    /// `GL_*_SWAP_BYTES`: multi-byte components are big-endian.
    pub swap_bytes: bool,
    /// `GL_*_LSB_FIRST` (only affects bitmaps, which rgl does not take).
    pub lsb_first: bool,
}

impl Default for PixelModes {
    fn default() -> Self {
        PixelModes {
            alignment: 4,
            row_length: 0,
            image_height: 0,
            skip_pixels: 0,
            skip_rows: 0,
            skip_images: 0,
            swap_bytes: false,
            lsb_first: false,
        }
    }
}

/// Pack (read-back) and unpack (upload) modes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PixelStore {
    /// `glReadPixels`, `glGetTexImage`.
    pub pack: PixelModes,
    /// `glTexImage*`, `glTexSubImage*`.
    pub unpack: PixelModes,
}

/// What one component of a client color pixel holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Chan {
    R,
    G,
    B,
    A,
    /// Luminance: unpacks to R, packs as R + G + B.
    L,
}

/// The kind of data a client format carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Color components in this order.
    Color(&'static [Chan]),
    /// `GL_DEPTH_COMPONENT`.
    Depth,
    /// `GL_STENCIL_INDEX`.
    Stencil,
    /// `GL_DEPTH_STENCIL`.
    DepthStencil,
}

/// Component type of a client pixel (`type` argument).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ty {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    F16,
    F32,
    U8888,
    U8888Rev,
    U565,
    U2101010Rev,
    U24x8,
    F32U24x8Rev,
}

impl Ty {
    /// Bytes of one component, or of the whole pixel for packed types.
    fn size(self) -> usize {
        match self {
            Ty::U8 | Ty::I8 => 1,
            Ty::U16 | Ty::I16 | Ty::F16 | Ty::U565 => 2,
            Ty::F32U24x8Rev => 8,
            _ => 4,
        }
    }
    fn packed(self) -> bool {
        matches!(
            self,
            Ty::U8888 | Ty::U8888Rev | Ty::U565 | Ty::U2101010Rev | Ty::U24x8 | Ty::F32U24x8Rev
        )
    }
    /// Byte-swap unit for `SWAP_BYTES`.
    fn swap_unit(self) -> usize {
        match self {
            Ty::F32U24x8Rev => 4,
            t => t.size(),
        }
    }
}

/// A validated client `format`/`type` pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClientFormat {
    /// The GL format enum.
    pub format: u32,
    /// What the pixels hold.
    pub layout: Layout,
    ty: Ty,
    /// Bytes per pixel.
    pub bytes_per_pixel: usize,
}

const R: &[Chan] = &[Chan::R];
const G: &[Chan] = &[Chan::G];
const B: &[Chan] = &[Chan::B];
const A: &[Chan] = &[Chan::A];
const RG: &[Chan] = &[Chan::R, Chan::G];
const RGB: &[Chan] = &[Chan::R, Chan::G, Chan::B];
const BGR: &[Chan] = &[Chan::B, Chan::G, Chan::R];
const RGBA: &[Chan] = &[Chan::R, Chan::G, Chan::B, Chan::A];
const BGRA: &[Chan] = &[Chan::B, Chan::G, Chan::R, Chan::A];
const L: &[Chan] = &[Chan::L];
const LA: &[Chan] = &[Chan::L, Chan::A];

/// Validates a client `format`/`type` pair: `GL_INVALID_ENUM` for unknown enums,
/// `GL_INVALID_OPERATION` for a packed type with a format of another size (Mesa's
/// rules, including `GL_INVALID_ENUM` for `GL_DEPTH_STENCIL` with an unpacked type).
pub(crate) fn client_format(format: u32, ty: u32) -> GlResult<ClientFormat> {
    let t = match ty {
        gl::UNSIGNED_BYTE => Ty::U8,
        gl::BYTE => Ty::I8,
        gl::UNSIGNED_SHORT => Ty::U16,
        gl::SHORT => Ty::I16,
        gl::UNSIGNED_INT => Ty::U32,
        gl::INT => Ty::I32,
        gl::HALF_FLOAT => Ty::F16,
        gl::FLOAT => Ty::F32,
        gl::UNSIGNED_INT_8_8_8_8 => Ty::U8888,
        gl::UNSIGNED_INT_8_8_8_8_REV => Ty::U8888Rev,
        gl::UNSIGNED_SHORT_5_6_5 => Ty::U565,
        gl::UNSIGNED_INT_2_10_10_10_REV => Ty::U2101010Rev,
        gl::UNSIGNED_INT_24_8 => Ty::U24x8,
        gl::FLOAT_32_UNSIGNED_INT_24_8_REV => Ty::F32U24x8Rev,
        _ => return Err(GlError::InvalidEnum),
    };
    let layout = match format {
        gl::RED => Layout::Color(R),
        gl::GREEN => Layout::Color(G),
        gl::BLUE => Layout::Color(B),
        gl::ALPHA => Layout::Color(A),
        gl::RG => Layout::Color(RG),
        gl::RGB => Layout::Color(RGB),
        gl::BGR => Layout::Color(BGR),
        gl::RGBA => Layout::Color(RGBA),
        gl::BGRA => Layout::Color(BGRA),
        gl::LUMINANCE => Layout::Color(L),
        gl::LUMINANCE_ALPHA => Layout::Color(LA),
        gl::DEPTH_COMPONENT => Layout::Depth,
        gl::STENCIL_INDEX => Layout::Stencil,
        gl::DEPTH_STENCIL => Layout::DepthStencil,
        _ => return Err(GlError::InvalidEnum),
    };
    let ok = match (layout, t) {
        (Layout::DepthStencil, Ty::U24x8 | Ty::F32U24x8Rev) => true,
        (Layout::DepthStencil, _) => return Err(GlError::InvalidEnum),
        (_, Ty::U24x8 | Ty::F32U24x8Rev) => false,
        (Layout::Color(c), Ty::U8888 | Ty::U8888Rev | Ty::U2101010Rev) => c.len() == 4,
        (Layout::Color(c), Ty::U565) => c == RGB || c == BGR,
        (Layout::Depth | Layout::Stencil, t) => {
            !(t.packed() || (layout == Layout::Stencil && t == Ty::F16))
        }
        _ => true,
    };
    if !ok {
        return Err(GlError::InvalidOperation);
    }
    let bytes_per_pixel = match layout {
        _ if t.packed() => t.size(),
        Layout::Color(c) => c.len() * t.size(),
        _ => t.size(),
    };
    Ok(ClientFormat {
        format,
        layout,
        ty: t,
        bytes_per_pixel,
    })
}

/// Where the pixels of a `w` × `h` × `d` client image live in memory.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ClientLayout {
    /// Byte offset of the first pixel.
    pub start: usize,
    /// Bytes between rows.
    pub row_stride: usize,
    /// Bytes between images (3D slices, array layers).
    pub image_stride: usize,
    /// Bytes the whole image needs (0 for an empty image).
    pub required: usize,
}

/// The memory layout of a client image under `modes`, or `GL_OUT_OF_MEMORY` when it
/// overflows the address space.
pub(crate) fn client_layout(
    modes: &PixelModes,
    cf: &ClientFormat,
    w: u32,
    h: u32,
    d: u32,
) -> GlResult<ClientLayout> {
    let ovf = || GlError::OutOfMemory;
    let bpp = cf.bytes_per_pixel as u64;
    let row_len = if modes.row_length > 0 {
        modes.row_length
    } else {
        w
    } as u64;
    let align = modes.alignment.max(1) as u64;
    let row_stride = (row_len * bpp).div_ceil(align) * align;
    let img_h = if modes.image_height > 0 {
        modes.image_height
    } else {
        h
    } as u64;
    let image_stride = row_stride * img_h;
    let start = modes.skip_images as u64 * image_stride
        + modes.skip_rows as u64 * row_stride
        + modes.skip_pixels as u64 * bpp;
    let required = if w == 0 || h == 0 || d == 0 {
        0
    } else {
        start + (d as u64 - 1) * image_stride + (h as u64 - 1) * row_stride + w as u64 * bpp
    };
    let cvt = |v: u64| usize::try_from(v).map_err(|_| ovf());
    Ok(ClientLayout {
        start: cvt(start)?,
        row_stride: cvt(row_stride)?,
        image_stride: cvt(image_stride)?,
        required: cvt(required)?,
    })
}

/// Base internal format: the components a texture or renderbuffer has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Base {
    Red,
    Rg,
    Rgb,
    Rgba,
    Alpha,
    Luminance,
    LuminanceAlpha,
    Intensity,
    Depth,
    DepthStencil,
    Stencil,
}

impl Base {
    /// Holds color (not depth or stencil).
    pub fn is_color(self) -> bool {
        !matches!(self, Base::Depth | Base::DepthStencil | Base::Stencil)
    }
    /// Has depth.
    pub fn has_depth(self) -> bool {
        matches!(self, Base::Depth | Base::DepthStencil)
    }
    /// Has stencil.
    pub fn has_stencil(self) -> bool {
        matches!(self, Base::DepthStencil | Base::Stencil)
    }
    /// Can be a color attachment (the legacy luminance/alpha/intensity formats cannot).
    pub fn color_renderable(self) -> bool {
        matches!(self, Base::Red | Base::Rg | Base::Rgb | Base::Rgba)
    }
    /// The components a stored texel keeps of an RGBA group (the rest are 0, 0, 1).
    pub fn to_stored(self, c: [f32; 4]) -> [f32; 4] {
        match self {
            Base::Red | Base::Luminance | Base::Intensity => [c[0], 0.0, 0.0, 1.0],
            Base::Rg => [c[0], c[1], 0.0, 1.0],
            Base::Rgb => [c[0], c[1], c[2], 1.0],
            Base::Alpha => [c[3], 0.0, 0.0, 1.0],
            Base::LuminanceAlpha => [c[0], c[3], 0.0, 1.0],
            _ => c,
        }
    }
    /// The RGBA group read back from a stored texel (`glGetTexImage`, `glReadPixels`).
    pub fn rgba_of_stored(self, s: [f32; 4]) -> [f32; 4] {
        match self {
            Base::Red | Base::Luminance => [s[0], 0.0, 0.0, 1.0],
            Base::Rg => [s[0], s[1], 0.0, 1.0],
            Base::Rgb => [s[0], s[1], s[2], 1.0],
            Base::Alpha => [0.0, 0.0, 0.0, s[0]],
            Base::LuminanceAlpha => [s[0], 0.0, 0.0, s[1]],
            Base::Intensity => [s[0], 0.0, 0.0, s[0]],
            _ => s,
        }
    }
    /// The sampler-view swizzle that makes the stored texel read as GL specifies.
    /// Depth formats use `depth_mode` (`GL_DEPTH_TEXTURE_MODE`).
    pub fn swizzle(self, depth_mode: u32) -> [Swizzle; 4] {
        use Swizzle::{One, Zero, A as SA, B as SB, G as SG, R as SR};
        match self {
            Base::Red => [SR, Zero, Zero, One],
            Base::Rg => [SR, SG, Zero, One],
            Base::Rgb => [SR, SG, SB, One],
            Base::Rgba => [SR, SG, SB, SA],
            Base::Alpha => [Zero, Zero, Zero, SR],
            Base::Luminance => [SR, SR, SR, One],
            Base::LuminanceAlpha => [SR, SR, SR, SG],
            Base::Intensity => [SR, SR, SR, SR],
            Base::Depth | Base::DepthStencil | Base::Stencil => match depth_mode {
                gl::LUMINANCE => [SR, SR, SR, One],
                gl::INTENSITY => [SR, SR, SR, SR],
                gl::ALPHA => [Zero, Zero, Zero, SR],
                _ => [SR, Zero, Zero, One],
            },
        }
    }
}

/// An internal format rgl stores: the GL enum, the driver format and the base format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct InternalFormat {
    /// The enum the application passed (`GL_RGBA8`, `GL_RGB`, `3`, ...).
    pub gl: u32,
    /// Storage format.
    pub format: Format,
    /// Base format.
    pub base: Base,
    /// A sized format (`glTexStorage*` takes only these).
    pub sized: bool,
}

/// The internal format `ifmt` names, if rgl stores it (`None`: `GL_INVALID_VALUE` in
/// `glTexImage*`, `GL_INVALID_ENUM` in `glRenderbufferStorage`).
pub(crate) fn internal_format(ifmt: u32) -> Option<InternalFormat> {
    use Format::*;
    let (format, base, sized) = match ifmt {
        4 | gl::RGBA => (Rgba8Unorm, Base::Rgba, false),
        gl::RGBA8 => (Rgba8Unorm, Base::Rgba, true),
        3 | gl::RGB => (Rgba8Unorm, Base::Rgb, false),
        gl::RGB8 => (Rgba8Unorm, Base::Rgb, true),
        gl::RED => (R8Unorm, Base::Red, false),
        gl::R8 => (R8Unorm, Base::Red, true),
        gl::RG => (Rg8Unorm, Base::Rg, false),
        gl::RG8 => (Rg8Unorm, Base::Rg, true),
        gl::RGBA16F => (Rgba16Float, Base::Rgba, true),
        gl::RGB16F => (Rgba16Float, Base::Rgb, true),
        gl::RG16F => (Rgba16Float, Base::Rg, true),
        gl::R16F => (Rgba16Float, Base::Red, true),
        gl::RGBA32F => (Rgba32Float, Base::Rgba, true),
        gl::RGB32F => (Rgba32Float, Base::Rgb, true),
        gl::RG32F => (Rgba32Float, Base::Rg, true),
        gl::R32F => (Rgba32Float, Base::Red, true),
        gl::ALPHA => (R8Unorm, Base::Alpha, false),
        gl::ALPHA8 => (R8Unorm, Base::Alpha, true),
        1 | gl::LUMINANCE => (R8Unorm, Base::Luminance, false),
        gl::LUMINANCE8 => (R8Unorm, Base::Luminance, true),
        2 | gl::LUMINANCE_ALPHA => (Rg8Unorm, Base::LuminanceAlpha, false),
        gl::LUMINANCE8_ALPHA8 => (Rg8Unorm, Base::LuminanceAlpha, true),
        gl::INTENSITY => (R8Unorm, Base::Intensity, false),
        gl::INTENSITY8 => (R8Unorm, Base::Intensity, true),
        gl::DEPTH_COMPONENT => (Z24UnormX8, Base::Depth, false),
        gl::DEPTH_COMPONENT16 => (Z16Unorm, Base::Depth, true),
        gl::DEPTH_COMPONENT24 => (Z24UnormX8, Base::Depth, true),
        gl::DEPTH_COMPONENT32 | gl::DEPTH_COMPONENT32F => (Z32Float, Base::Depth, true),
        gl::DEPTH_STENCIL => (Z24UnormS8, Base::DepthStencil, false),
        gl::DEPTH24_STENCIL8 => (Z24UnormS8, Base::DepthStencil, true),
        gl::DEPTH32F_STENCIL8 => (Z32FloatS8, Base::DepthStencil, true),
        gl::STENCIL_INDEX1 | gl::STENCIL_INDEX4 | gl::STENCIL_INDEX8 | gl::STENCIL_INDEX16 => {
            (Z24UnormS8, Base::Stencil, true)
        }
        _ => return None,
    };
    Some(InternalFormat {
        gl: ifmt,
        format,
        base,
        sized,
    })
}

/// Checks a client format against the internal format it is transferred to or from:
/// depth data only with depth formats, `GL_DEPTH_STENCIL` only with depth-stencil
/// formats (`GL_INVALID_OPERATION` otherwise).
pub(crate) fn check_transfer(cf: &ClientFormat, base: Base) -> GlResult<()> {
    let ok = match cf.layout {
        Layout::Color(_) => base.is_color(),
        Layout::Depth => base.has_depth(),
        Layout::DepthStencil => base == Base::DepthStencil,
        Layout::Stencil => base.has_stencil(),
    };
    if ok {
        Ok(())
    } else {
        Err(GlError::InvalidOperation)
    }
}

/// One client pixel's bytes in little-endian order (swapped when `SWAP_BYTES`).
fn native(cf: &ClientFormat, px: &[u8], swap: bool) -> [u8; 16] {
    let mut b = [0u8; 16];
    let n = px.len().min(16);
    b[..n].copy_from_slice(&px[..n]);
    if swap {
        let u = cf.ty.swap_unit();
        if u > 1 {
            for c in b[..n].chunks_mut(u) {
                c.reverse();
            }
        }
    }
    b
}

fn word(b: &[u8; 16], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

fn short(b: &[u8; 16], i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

/// Component `i` of an unpacked-type pixel as a normalized (color, depth) float.
fn component(ty: Ty, b: &[u8; 16], i: usize) -> f32 {
    match ty {
        Ty::U8 => b[i] as f32 / 255.0,
        Ty::I8 => (b[i] as i8 as f32 / 127.0).max(-1.0),
        Ty::U16 => short(b, i) as f32 / 65535.0,
        Ty::I16 => (short(b, i) as i16 as f32 / 32767.0).max(-1.0),
        Ty::U32 => (word(b, i) as f64 / 4_294_967_295.0) as f32,
        Ty::I32 => (word(b, i) as i32 as f64 / 2_147_483_647.0).max(-1.0) as f32,
        Ty::F16 => f16::from_bits(short(b, i)).to_f32(),
        Ty::F32 => f32::from_bits(word(b, i)),
        _ => 0.0,
    }
}

/// Decodes one client color pixel to an RGBA group (missing: 0, 0, 0, 1).
fn decode_color(cf: &ClientFormat, chans: &[Chan], b: &[u8; 16]) -> [f32; 4] {
    let vals: [f32; 4] = match cf.ty {
        Ty::U8888 => {
            let w = word(b, 0);
            [24, 16, 8, 0].map(|s| ((w >> s) & 0xff) as f32 / 255.0)
        }
        Ty::U8888Rev => {
            let w = word(b, 0);
            [0, 8, 16, 24].map(|s| ((w >> s) & 0xff) as f32 / 255.0)
        }
        Ty::U565 => {
            let w = short(b, 0) as u32;
            [
                (w >> 11) as f32 / 31.0,
                ((w >> 5) & 0x3f) as f32 / 63.0,
                (w & 0x1f) as f32 / 31.0,
                0.0,
            ]
        }
        Ty::U2101010Rev => {
            let w = word(b, 0);
            [
                (w & 0x3ff) as f32 / 1023.0,
                ((w >> 10) & 0x3ff) as f32 / 1023.0,
                ((w >> 20) & 0x3ff) as f32 / 1023.0,
                (w >> 30) as f32 / 3.0,
            ]
        }
        t => [0, 1, 2, 3].map(|i| {
            if i < chans.len() {
                component(t, b, i)
            } else {
                0.0
            }
        }),
    };
    let mut c = [0.0, 0.0, 0.0, 1.0];
    for (i, ch) in chans.iter().enumerate() {
        match ch {
            Chan::R | Chan::L => c[0] = vals[i],
            Chan::G => c[1] = vals[i],
            Chan::B => c[2] = vals[i],
            Chan::A => c[3] = vals[i],
        }
    }
    c
}

/// Decodes one client depth / depth-stencil / stencil pixel.
fn decode_zs(cf: &ClientFormat, b: &[u8; 16]) -> (f32, u8) {
    match cf.ty {
        Ty::U24x8 => {
            let w = word(b, 0);
            ((w >> 8) as f32 / 16_777_215.0, (w & 0xff) as u8)
        }
        Ty::F32U24x8Rev => (f32::from_bits(word(b, 0)), (word(b, 1) & 0xff) as u8),
        t if cf.layout == Layout::Stencil => {
            let s = match t {
                Ty::U8 | Ty::I8 => b[0] as u32,
                Ty::U16 | Ty::I16 => short(b, 0) as u32,
                Ty::F32 => f32::from_bits(word(b, 0)).clamp(0.0, 255.0) as u32,
                _ => word(b, 0),
            };
            (0.0, (s & 0xff) as u8)
        }
        t => (component(t, b, 0), 0),
    }
}

/// Writes `v` (a normalized value for integer types) as component `i`.
fn put_component(ty: Ty, out: &mut [u8; 16], i: usize, v: f32) {
    let put = |out: &mut [u8; 16], at: usize, bytes: &[u8]| {
        out[at..at + bytes.len()].copy_from_slice(bytes)
    };
    let un = |max: f64| (v.clamp(0.0, 1.0) as f64 * max).round();
    let sn = |max: f64| (v.clamp(-1.0, 1.0) as f64 * max).round();
    match ty {
        Ty::U8 => out[i] = un(255.0) as u8,
        Ty::I8 => out[i] = sn(127.0) as i8 as u8,
        Ty::U16 => put(out, 2 * i, &(un(65535.0) as u16).to_le_bytes()),
        Ty::I16 => put(out, 2 * i, &(sn(32767.0) as i16).to_le_bytes()),
        Ty::U32 => put(out, 4 * i, &(un(4_294_967_295.0) as u32).to_le_bytes()),
        Ty::I32 => put(out, 4 * i, &(sn(2_147_483_647.0) as i32).to_le_bytes()),
        Ty::F16 => put(out, 2 * i, &f16::from_f32(v).to_bits().to_le_bytes()),
        Ty::F32 => put(out, 4 * i, &v.to_le_bytes()),
        _ => {}
    }
}

/// Encodes an RGBA group as one client color pixel.
fn encode_color(cf: &ClientFormat, chans: &[Chan], c: [f32; 4], out: &mut [u8; 16]) {
    let pick = |ch: &Chan| match ch {
        Chan::R => c[0],
        Chan::G => c[1],
        Chan::B => c[2],
        Chan::A => c[3],
        Chan::L => c[0] + c[1] + c[2],
    };
    let u = |v: f32, max: f32| (v.clamp(0.0, 1.0) * max).round() as u32;
    let ordered: Vec<f32> = chans.iter().map(pick).collect();
    let at = |i: usize| ordered.get(i).copied().unwrap_or(0.0);
    match cf.ty {
        Ty::U8888 => {
            let w = (u(at(0), 255.0) << 24)
                | (u(at(1), 255.0) << 16)
                | (u(at(2), 255.0) << 8)
                | u(at(3), 255.0);
            out[..4].copy_from_slice(&w.to_le_bytes());
        }
        Ty::U8888Rev => {
            let w = u(at(0), 255.0)
                | (u(at(1), 255.0) << 8)
                | (u(at(2), 255.0) << 16)
                | (u(at(3), 255.0) << 24);
            out[..4].copy_from_slice(&w.to_le_bytes());
        }
        Ty::U565 => {
            let w = (u(at(0), 31.0) << 11) | (u(at(1), 63.0) << 5) | u(at(2), 31.0);
            out[..2].copy_from_slice(&(w as u16).to_le_bytes());
        }
        Ty::U2101010Rev => {
            let w = u(at(0), 1023.0)
                | (u(at(1), 1023.0) << 10)
                | (u(at(2), 1023.0) << 20)
                | (u(at(3), 3.0) << 30);
            out[..4].copy_from_slice(&w.to_le_bytes());
        }
        t => {
            for (i, v) in ordered.iter().enumerate() {
                put_component(t, out, i, *v);
            }
        }
    }
}

/// Encodes depth and stencil as one client pixel of a depth/stencil layout.
fn encode_zs(cf: &ClientFormat, depth: f32, stencil: u8, out: &mut [u8; 16]) {
    match cf.ty {
        Ty::U24x8 => {
            let d = (depth.clamp(0.0, 1.0) as f64 * 16_777_215.0).round() as u32;
            out[..4].copy_from_slice(&((d << 8) | stencil as u32).to_le_bytes());
        }
        Ty::F32U24x8Rev => {
            out[..4].copy_from_slice(&depth.to_le_bytes());
            out[4..8].copy_from_slice(&(stencil as u32).to_le_bytes());
        }
        t if cf.layout == Layout::Stencil => {
            let s = stencil as u32;
            match t {
                Ty::U8 | Ty::I8 => out[0] = stencil,
                Ty::U16 | Ty::I16 => out[..2].copy_from_slice(&(s as u16).to_le_bytes()),
                Ty::F32 => out[..4].copy_from_slice(&(s as f32).to_le_bytes()),
                _ => out[..4].copy_from_slice(&s.to_le_bytes()),
            }
        }
        t => put_component(t, out, 0, depth),
    }
}

/// Converts a `w` × `h` × `d` client image to tightly packed texels of `ifmt`
/// (`data == None` gives zero texels). `GL_INVALID_OPERATION` when `data` is shorter
/// than the pixel storage modes require.
pub(crate) fn unpack_image(
    modes: &PixelModes,
    cf: &ClientFormat,
    ifmt: &InternalFormat,
    (w, h, d): (u32, u32, u32),
    data: Option<&[u8]>,
) -> GlResult<Vec<u8>> {
    let tbpp = ifmt.format.bytes_per_pixel();
    let count = w as usize * h as usize * d as usize;
    let mut out = Vec::new();
    out.try_reserve_exact(count * tbpp)
        .map_err(|_| GlError::OutOfMemory)?;
    out.resize(count * tbpp, 0);
    let Some(data) = data else {
        // Undefined contents; zero, with 1 in the alpha of formats that hold it.
        if ifmt.base.is_color() && count > 0 {
            let mut px = vec![0u8; tbpp];
            ifmt.format
                .encode_rgba(ifmt.base.to_stored([0.0, 0.0, 0.0, 0.0]), &mut px);
            for o in out.chunks_exact_mut(tbpp) {
                o.copy_from_slice(&px);
            }
        }
        return Ok(out);
    };
    let lay = client_layout(modes, cf, w, h, d)?;
    if data.len() < lay.required {
        return Err(GlError::InvalidOperation);
    }
    if count == 0 {
        return Ok(out);
    }
    let bpp = cf.bytes_per_pixel;
    // Fast path: the client bytes are the stored texels.
    let direct = !modes.swap_bytes
        && match (ifmt.format, cf.format, cf.ty) {
            (Format::Rgba8Unorm, gl::RGBA, Ty::U8) => ifmt.base == Base::Rgba,
            (Format::Rgba32Float, gl::RGBA, Ty::F32) => ifmt.base == Base::Rgba,
            (Format::R8Unorm, gl::RED, Ty::U8) => ifmt.base == Base::Red,
            (Format::Rg8Unorm, gl::RG, Ty::U8) => ifmt.base == Base::Rg,
            _ => false,
        };
    let row_bytes = w as usize * tbpp;
    let mut texel = vec![0u8; tbpp];
    for z in 0..d as usize {
        for y in 0..h as usize {
            let src = lay.start + z * lay.image_stride + y * lay.row_stride;
            let dst = (z * h as usize + y) * row_bytes;
            let orow = &mut out[dst..dst + row_bytes];
            let irow = &data[src..src + w as usize * bpp];
            if direct {
                orow.copy_from_slice(irow);
                continue;
            }
            for (px, o) in irow.chunks_exact(bpp).zip(orow.chunks_exact_mut(tbpp)) {
                let b = native(cf, px, modes.swap_bytes);
                match cf.layout {
                    Layout::Color(chans) => {
                        let c = decode_color(cf, chans, &b);
                        ifmt.format.encode_rgba(ifmt.base.to_stored(c), &mut texel);
                    }
                    _ => {
                        let (z, s) = decode_zs(cf, &b);
                        texel.fill(0);
                        if cf.layout != Layout::Stencil {
                            ifmt.format.encode_depth(z, &mut texel);
                        }
                        if cf.layout != Layout::Depth {
                            ifmt.format.encode_stencil(s, &mut texel);
                        }
                    }
                }
                o.copy_from_slice(&texel);
            }
        }
    }
    Ok(out)
}

/// Converts tightly packed texels of `format` / `base` (`w` × `h` × `d`) to client
/// pixels written into `out` under `modes`. `GL_INVALID_OPERATION` when `out` is
/// too small.
pub(crate) fn pack_image(
    modes: &PixelModes,
    cf: &ClientFormat,
    (format, base): (Format, Base),
    (w, h, d): (u32, u32, u32),
    texels: &[u8],
    out: &mut [u8],
) -> GlResult<()> {
    let lay = client_layout(modes, cf, w, h, d)?;
    if out.len() < lay.required {
        return Err(GlError::InvalidOperation);
    }
    let tbpp = format.bytes_per_pixel();
    let bpp = cf.bytes_per_pixel;
    let direct = !modes.swap_bytes
        && base == Base::Rgba
        && matches!(
            (format, cf.format, cf.ty),
            (Format::Rgba8Unorm, gl::RGBA, Ty::U8) | (Format::Rgba32Float, gl::RGBA, Ty::F32)
        );
    for z in 0..d as usize {
        for y in 0..h as usize {
            let src = (z * h as usize + y) * w as usize * tbpp;
            let Some(irow) = texels.get(src..src + w as usize * tbpp) else {
                return Ok(());
            };
            let dst = lay.start + z * lay.image_stride + y * lay.row_stride;
            let orow = &mut out[dst..dst + w as usize * bpp];
            if direct {
                orow.copy_from_slice(irow);
                continue;
            }
            for (t, o) in irow.chunks_exact(tbpp).zip(orow.chunks_exact_mut(bpp)) {
                let mut px = [0u8; 16];
                match cf.layout {
                    Layout::Color(chans) => {
                        let c = base.rgba_of_stored(format.decode_rgba(t));
                        encode_color(cf, chans, c, &mut px);
                    }
                    _ => encode_zs(
                        cf,
                        format.decode_depth(t),
                        format.decode_stencil(t),
                        &mut px,
                    ),
                }
                if modes.swap_bytes {
                    let u = cf.ty.swap_unit();
                    if u > 1 {
                        for c in px[..bpp].chunks_mut(u) {
                            c.reverse();
                        }
                    }
                }
                o.copy_from_slice(&px[..bpp]);
            }
        }
    }
    Ok(())
}

impl Context {
    /// `glPixelStorei`.
    pub fn pixel_store_i32(&mut self, pname: u32, value: i32) {
        let s = &mut self.textures.pixel_store;
        let (m, key) = match pname {
            gl::PACK_ALIGNMENT
            | gl::PACK_ROW_LENGTH
            | gl::PACK_IMAGE_HEIGHT
            | gl::PACK_SKIP_PIXELS
            | gl::PACK_SKIP_ROWS
            | gl::PACK_SKIP_IMAGES
            | gl::PACK_SWAP_BYTES
            | gl::PACK_LSB_FIRST => (&mut s.pack, pname - gl::PACK_SWAP_BYTES),
            gl::UNPACK_ALIGNMENT
            | gl::UNPACK_ROW_LENGTH
            | gl::UNPACK_IMAGE_HEIGHT
            | gl::UNPACK_SKIP_PIXELS
            | gl::UNPACK_SKIP_ROWS
            | gl::UNPACK_SKIP_IMAGES
            | gl::UNPACK_SWAP_BYTES
            | gl::UNPACK_LSB_FIRST => (&mut s.unpack, pname - gl::UNPACK_SWAP_BYTES),
            _ => return self.record(GlError::InvalidEnum),
        };
        // `key`: offset from *_SWAP_BYTES; images/height use their own enums.
        let is = |p: u32, pack: u32, unpack: u32| p == pack || p == unpack;
        if value < 0 {
            return self.record(GlError::InvalidValue);
        }
        let v = value as u32;
        if is(pname, gl::PACK_ALIGNMENT, gl::UNPACK_ALIGNMENT) {
            if !matches!(v, 1 | 2 | 4 | 8) {
                return self.record(GlError::InvalidValue);
            }
            m.alignment = v;
        } else if is(pname, gl::PACK_IMAGE_HEIGHT, gl::UNPACK_IMAGE_HEIGHT) {
            m.image_height = v;
        } else if is(pname, gl::PACK_SKIP_IMAGES, gl::UNPACK_SKIP_IMAGES) {
            m.skip_images = v;
        } else {
            match key {
                0 => m.swap_bytes = v != 0,
                1 => m.lsb_first = v != 0,
                2 => m.row_length = v,
                3 => m.skip_rows = v,
                4 => m.skip_pixels = v,
                _ => {}
            }
        }
    }

    /// `glPixelStorei` with a boolean (`GL_*_SWAP_BYTES`, `GL_*_LSB_FIRST`).
    pub fn pixel_store_bool(&mut self, pname: u32, value: bool) {
        self.pixel_store_i32(pname, value as i32);
    }

    /// The value of a pixel storage mode, for `get_parameter_i32`.
    pub(crate) fn pixel_store_parameter(&self, pname: u32) -> Option<i32> {
        let s = &self.textures.pixel_store;
        let v = |m: &PixelModes, p: u32, base: u32| -> Option<u32> {
            Some(match p - base {
                0 => m.swap_bytes as u32,
                1 => m.lsb_first as u32,
                2 => m.row_length,
                3 => m.skip_rows,
                4 => m.skip_pixels,
                5 => m.alignment,
                _ => return None,
            })
        };
        let r = match pname {
            gl::PACK_IMAGE_HEIGHT => s.pack.image_height,
            gl::PACK_SKIP_IMAGES => s.pack.skip_images,
            gl::UNPACK_IMAGE_HEIGHT => s.unpack.image_height,
            gl::UNPACK_SKIP_IMAGES => s.unpack.skip_images,
            gl::PACK_SWAP_BYTES..=gl::PACK_ALIGNMENT => v(&s.pack, pname, gl::PACK_SWAP_BYTES)?,
            gl::UNPACK_SWAP_BYTES..=gl::UNPACK_ALIGNMENT => {
                v(&s.unpack, pname, gl::UNPACK_SWAP_BYTES)?
            }
            _ => return None,
        };
        Some(r as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GL_HALF_FLOAT client components: written and read back through the
    /// pixel-transfer path (IEEE binary16, GL 3.3 §2.1.2).
    #[test]
    fn half_float_components_round_trip() {
        let mut b = [0u8; 16];
        for v in [0.0f32, 1.0, -2.5, 0.333, 65504.0, 1e-5, 6.1e-5] {
            put_component(Ty::F16, &mut b, 1, v);
            let back = component(Ty::F16, &b, 1);
            assert!(
                (back - v).abs() <= v.abs() * 1e-3 + 1e-7,
                "{v} -> {:#x} -> {back}",
                short(&b, 1)
            );
        }
        put_component(Ty::F16, &mut b, 0, 1.0);
        assert_eq!(short(&b, 0), 0x3c00);
        put_component(Ty::F16, &mut b, 0, 1e6);
        assert_eq!(component(Ty::F16, &b, 0), f32::INFINITY);
    }
}
