//! Evaluation of the image intrinsics (GLSL 4.20 §8.12), in both forms: the
//! deref form (`image_deref_*`, the image index read from the deref as for
//! samplers) and the index form (`image_*`, the index in source 0). Both read
//! and write the same image memory ([`super::super::EvalImage`] by image
//! index, held in the invocation's group), so a shader before and after
//! `lower_io` gives the same results.
//!
//! The model is the driver's addressing without its formats: a texel is four
//! raw 32-bit words, stored as the shader passes them and loaded back as
//! stored (format conversion is the driver's business). The coordinate names
//! `(x, y, slice)` (1D arrays `(x, layer)`, 2D arrays, 3D and cube images the
//! third coordinate). A coordinate outside the image, or an image index
//! without an image, reads 0 (counted in `out_of_bounds`, as other robust
//! reads), drops its store and makes an atomic return 0; `image_size` gives
//! the image's size as the image type reports it (0 without an image), and
//! `image_samples` 1 (0 without an image). Atomics update word 0 while the
//! invocation holds the group's turn, so they are atomic.

use super::*;
use crate::intrinsics::AtomicOp;
use crate::ir::SamplerDim;

/// The intrinsics evaluated here.
pub(super) fn handles(op: IntrinsicOp) -> bool {
    op.is_image()
}

/// The texel index of coordinate `c` in an image of `size` for an access of
/// `dim`/`array`.
fn texel(size: [u32; 3], dim: SamplerDim, array: bool, c: &[u64]) -> Option<usize> {
    let w = |i: usize| c.get(i).map_or(0, |v| *v as u32 as i32);
    let (x, y, s) = match (dim, array) {
        (SamplerDim::D1 | SamplerDim::Buf, false) => (w(0), 0, 0),
        (SamplerDim::D1, true) => (w(0), 0, w(1)),
        (SamplerDim::D2 | SamplerDim::Rect | SamplerDim::Ms, false) => (w(0), w(1), 0),
        (SamplerDim::D2 | SamplerDim::Ms, true) | (SamplerDim::D3 | SamplerDim::Cube, _) => {
            (w(0), w(1), w(2))
        }
        _ => return None,
    };
    let (x, y, s) = (
        u32::try_from(x).ok()?,
        u32::try_from(y).ok()?,
        u32::try_from(s).ok()?,
    );
    if x >= size[0] || y >= size[1] || s >= size[2] {
        return None;
    }
    let i = (u64::from(s) * u64::from(size[1]) + u64::from(y)) * u64::from(size[0]) + u64::from(x);
    usize::try_from(i).ok()
}

/// `imageSize` of an image of `size` (GLSL 4.20 §8.12: cube images the face
/// size, cube arrays the layer count added).
fn image_size(size: [u32; 3], dim: SamplerDim, array: bool) -> [u64; 3] {
    let [w, h, d] = size.map(u64::from);
    match (dim, array) {
        (SamplerDim::D1 | SamplerDim::Buf, false) => [w, 0, 0],
        (SamplerDim::D1, true) => [w, d, 0],
        (SamplerDim::Cube, false) => [w, h, 0],
        (SamplerDim::Cube, true) => [w, h, d / 6],
        (_, true) | (SamplerDim::D3, _) => [w, h, d],
        _ => [w, h, 0],
    }
}

impl<'a> Interp<'a> {
    pub(super) fn image_intrinsic(
        &mut self,
        f: &mut Frame<'a>,
        intr: &Intrinsic,
        (comps, _bits): (u8, u8),
    ) -> Res<Option<Value>> {
        use IntrinsicOp as I;
        let op = intr.op;
        let index = if op.image_index_form().is_some() {
            let p = self.ptr(f, Self::src(intr, 0)?)?;
            if p.out_of_bounds {
                None
            } else {
                u32::try_from(p.image).ok()
            }
        } else {
            u32::try_from(self.scalar(f, Self::src(intr, 0)?)?).ok()
        };
        let code = Self::index(intr, IndexKind::ImageDim);
        let Some(&(dim, _)) = SamplerDim::ALL.get(code as usize) else {
            return Err(EvalError::malformed(format!("@{op}: bad image_dim {code}")));
        };
        let array = Self::index(intr, IndexKind::ImageArray) != 0;
        let size = index.and_then(|i| {
            self.group
                .memory
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .images
                .get(i as usize)
                .map(|img| img.size)
        });
        let n = usize::from(comps);
        match op {
            I::image_deref_size | I::image_size => {
                let s = size.map_or([0; 3], |s| image_size(s, dim, array));
                let out = (0..n).map(|i| s.get(i).copied().unwrap_or(0)).collect();
                return Ok(Some(Value::Data(out, 0)));
            }
            I::image_deref_samples | I::image_samples => {
                return Ok(Some(Value::Data(vec![u64::from(size.is_some())], 0)));
            }
            _ => {}
        }
        let coord = self.data(f, Self::src(intr, 1)?)?.to_vec();
        let at = match (index, size) {
            (Some(i), Some(s)) => texel(s, dim, array, &coord).map(|t| (i as usize, t)),
            _ => None,
        };
        let mut memory = self.group.memory.lock().unwrap_or_else(|e| e.into_inner());
        let slot = at.and_then(|(i, t)| memory.images.get_mut(i)?.texels.get_mut(t));
        match op {
            I::image_deref_load | I::image_load => match slot {
                Some(t) => {
                    let out = (0..n).map(|i| u64::from(t.get(i).copied().unwrap_or(0)));
                    Ok(Some(Value::Data(out.collect(), 0)))
                }
                None => {
                    drop(memory);
                    self.out.out_of_bounds += 1;
                    Ok(Some(Value::Data(vec![0; n], mask_of((0..n).map(|_| true)))))
                }
            },
            I::image_deref_store | I::image_store => {
                let value = self.data(f, Self::src(intr, 3)?)?.to_vec();
                match slot {
                    Some(t) => {
                        for (c, w) in t.iter_mut().enumerate() {
                            *w = value.get(c).copied().unwrap_or(0) as u32;
                        }
                    }
                    None => {
                        drop(memory);
                        self.out.out_of_bounds += 1;
                        self.out.out_of_bounds_writes += 1;
                    }
                }
                Ok(None)
            }
            _ => {
                let Some(atomic) = AtomicOp::from_code(Self::index(intr, IndexKind::AtomicOp))
                else {
                    return Err(EvalError::malformed(format!("@{op}: bad atomic_op")));
                };
                let data0 = self.data(f, Self::src(intr, 3)?)?[0] as u32;
                let data1 = match op {
                    I::image_deref_atomic_swap | I::image_atomic_swap => {
                        Some(self.data(f, Self::src(intr, 4)?)?[0] as u32)
                    }
                    _ => None,
                };
                let Some(t) = slot else {
                    drop(memory);
                    self.out.out_of_bounds += 1;
                    self.out.out_of_bounds_writes += 1;
                    return Ok(Some(Value::Data(vec![0], 1)));
                };
                let old = t[0];
                let new = match data1 {
                    Some(swap) => atomic.swap_32(old, data0, swap),
                    None => atomic.apply_32(old, data0),
                }
                .ok_or_else(|| {
                    EvalError::malformed(format!("@{op}: {} in the wrong form", atomic.name()))
                })?;
                t[0] = new;
                Ok(Some(Value::Data(vec![u64::from(old)], 0)))
            }
        }
    }
}
