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
//! R8), so a format of that size class addresses exactly the GL texel.
//! Formats whose texel is larger than the stored one, and the packed
//! `r11f_g11f_b10f`/`rgb10_a2(ui)` formats, give [`Error::Unsupported`] when the
//! draw starts, never a wrong result. Loads fill missing components with
//! `(0, 0, 0, 1)`; normalized stores clamp and round, integer stores clamp to
//! the component's range. Atomics work on `r32i`, `r32ui` and `r32f` texels
//! only (GLSL 4.20 §8.12), with the same atomic word operations as storage
//! buffers, so they are atomic across threads.
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
}

impl Enc {
    fn bytes(self) -> usize {
        match self {
            Enc::Unorm8 | Enc::Snorm8 | Enc::Uint8 | Enc::Sint8 => 1,
            Enc::Unorm16 | Enc::Snorm16 | Enc::Float16 | Enc::Uint16 | Enc::Sint16 => 2,
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 => 4,
        }
    }
    fn is_float(self) -> bool {
        !matches!(
            self,
            Enc::Uint8 | Enc::Sint8 | Enc::Uint16 | Enc::Sint16 | Enc::Uint32 | Enc::Sint32
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
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 => {
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
            Enc::Float32 | Enc::Uint32 | Enc::Sint32 => w.to_le_bytes(),
            Enc::Uint8 => [u.min(0xff) as u8, 0, 0, 0],
            Enc::Sint8 => [i.clamp(-128, 127) as i8 as u8, 0, 0, 0],
            Enc::Uint16 => u.min(0xffff).to_le_bytes(),
            Enc::Sint16 => (i.clamp(-32768, 32767) as i16 as u16 as u32).to_le_bytes(),
        };
        let n = self.bytes().min(out.len());
        out[..n].copy_from_slice(&bytes[..n]);
    }
}

/// The component encoding and count of an image format; `None` for the
/// packed formats (and `NONE`), which the driver does not access.
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
        F::None | F::R11fG11fB10f | F::Rgb10A2 | F::Rgb10A2ui => return None,
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
    /// Level width, height (1 for 1D arrays) and slice count (layers, cube
    /// faces × layers, or 3D depth).
    w: u32,
    h: u32,
    slices: u32,
    layered: bool,
    layer: u32,
    /// Stored bytes per texel.
    bpp: u32,
    enc: Option<Enc>,
    comps: usize,
    read_only: bool,
}

impl ImageView<'_> {
    /// The texel's byte offset, if in range.
    fn texel(&self, dim: SamplerDim, array: bool, c: [u32; 4]) -> Option<u64> {
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
        let slice = if self.layered {
            s
        } else if s == 0 {
            self.layer
        } else {
            return None;
        };
        if x >= self.w || y >= self.h || slice >= self.slices {
            return None;
        }
        let index = (u64::from(slice) * u64::from(self.h) + u64::from(y)) * u64::from(self.w)
            + u64::from(x);
        Some(index * u64::from(self.bpp))
    }

    /// `image_load`: the texel at `c` as 4 shader words (0 out of range).
    pub fn load(&self, dim: SamplerDim, array: bool, c: [u32; 4]) -> [u32; 4] {
        let (Some(enc), Some(at)) = (self.enc, self.texel(dim, array, c)) else {
            return [0; 4];
        };
        let Some(bytes) = self.mem.load_bytes::<16>(at).or_else(|| {
            // A texel shorter than 16 bytes at the very end of the level.
            let n = enc.bytes() * self.comps;
            let mut b = [0u8; 16];
            for (i, o) in b.iter_mut().enumerate().take(n) {
                *o = self.mem.load_bytes::<1>(at + i as u64)?[0];
            }
            Some(b)
        }) else {
            return [0; 4];
        };
        let one = if enc.is_float() { 1f32.to_bits() } else { 1 };
        let mut out = [0, 0, 0, one];
        for (i, o) in out.iter_mut().enumerate().take(self.comps) {
            *o = enc.decode(&bytes[i * enc.bytes()..]);
        }
        out
    }

    /// `image_store`: writes the format's components of `v` (dropped out of
    /// range or through a read-only binding).
    pub fn store(&self, dim: SamplerDim, array: bool, c: [u32; 4], v: [u32; 4]) {
        if self.read_only {
            return;
        }
        let (Some(enc), Some(at)) = (self.enc, self.texel(dim, array, c)) else {
            return;
        };
        let n = enc.bytes();
        let mut bytes = [0u8; 16];
        for (i, w) in v.iter().enumerate().take(self.comps) {
            enc.encode(*w, &mut bytes[i * n..(i + 1) * n]);
        }
        self.mem.store_bytes(at, &bytes[..n * self.comps]);
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
        let word = matches!(self.enc, Some(Enc::Uint32 | Enc::Sint32 | Enc::Float32));
        if self.read_only || !word || self.comps != 1 {
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
        if self.enc.is_none() {
            return [0; 4];
        }
        let layers = if self.layered { self.slices } else { 1 };
        match (dim, array) {
            (SamplerDim::D1 | SamplerDim::Buf, false) => [self.w, 0, 0, 0],
            (SamplerDim::D1, true) => [self.w, layers, 0, 0],
            (SamplerDim::Cube, false) => [self.w, self.h, 0, 0],
            (SamplerDim::Cube, true) => [self.w, self.h, layers / 6, 0],
            (_, true) | (SamplerDim::D3, _) => [self.w, self.h, layers, 0],
            _ => [self.w, self.h, 0, 0],
        }
    }

    /// `image_samples`: 1 for a bound image (rgl has no multisample textures),
    /// 0 when unbound.
    pub fn samples(&self) -> u32 {
        u32::from(self.enc.is_some())
    }
}

/// The image memory of one draw or dispatch: one copy per bound (texture,
/// level), and what each image index addresses in them.
#[derive(Default)]
pub(crate) struct ImageCopies {
    copies: Vec<((u32, u32), StorageCopy)>,
    slots: Vec<Option<Slot>>,
}

#[derive(Clone, Copy)]
struct Slot {
    copy: usize,
    w: u32,
    h: u32,
    slices: u32,
    layered: bool,
    layer: u32,
    bpp: u32,
    enc: Enc,
    comps: usize,
    read_only: bool,
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
            out.slots.push(Some(Slot {
                copy,
                w,
                h,
                slices,
                layered: b.layered,
                layer: b.layer,
                bpp: t.desc.format.bytes_per_pixel() as u32,
                enc,
                comps,
                read_only: b.read_only,
            }));
        }
        Ok(out)
    }

    /// The views shaders use, by image index.
    pub(crate) fn views(&self) -> Vec<ImageView<'_>> {
        self.slots
            .iter()
            .map(|s| match s {
                Some(s) => ImageView {
                    mem: self.copies[s.copy].1.view(),
                    w: s.w,
                    h: s.h,
                    slices: s.slices,
                    layered: s.layered,
                    layer: s.layer,
                    bpp: s.bpp,
                    enc: Some(s.enc),
                    comps: s.comps,
                    read_only: s.read_only,
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
                w: 2,
                h: 2,
                slices: 1,
                layered: false,
                layer: 0,
                bpp: 16,
                enc: Some(enc),
                comps,
                read_only: false,
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
            w: 2,
            h: 2,
            slices: 3,
            layered: true,
            layer: 0,
            bpp: 4,
            enc: Some(enc),
            comps,
            read_only: false,
        };
        base.store(SamplerDim::D2, true, [1, 0, 2, 0], [42, 0, 0, 0]);
        let single = ImageView {
            layered: false,
            layer: 2,
            ..base
        };
        assert_eq!(single.load(SamplerDim::D2, false, [1, 0, 0, 0])[0], 42);
        assert_eq!(single.size(SamplerDim::D2, false), [2, 2, 0, 0]);
        assert_eq!(base.size(SamplerDim::D2, true), [2, 2, 3, 0]);
        assert_eq!(
            single.atomic(SamplerDim::D2, false, [1, 0, 0, 0], AtomicOp::Iadd, 1, None),
            42
        );
        let ro = ImageView {
            read_only: true,
            ..single
        };
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
        let (enc, comps) = layout(ImageFormat::R32i).unwrap();
        let view = ImageView {
            mem: copy.view(),
            w: 1,
            h: 1,
            slices: 1,
            layered: false,
            layer: 0,
            bpp: 4,
            enc: Some(enc),
            comps,
            read_only: false,
        };
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
}
