//! Image intrinsics of the lane compiler (GL 4.2 §8.26, GLSL 4.20 §8.12): the
//! index form `lower_io` leaves (`image_load`, `image_store`,
//! `image_atomic(_swap)`, `image_size`, `image_samples`), each one
//! [`Op::Image`] on 32-bit registers. Like storage-buffer accesses they never
//! go to the per-batch prologue (a texel may change between two loads), loads
//! mark the shader as reading memory, stores and atomics as writing it (so the
//! draw keeps their side effects, see `crate::exec::StorageUse`).

use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::*;

use super::{index, unsupported, Compiler};
use crate::lanes::alu::RegMap;
use crate::lanes::program::{ImageOp, ImageOpKind, Op};
use crate::{Error, Result};

impl Compiler<'_> {
    /// Compiles one of the index-form image intrinsics.
    pub(super) fn image_intrinsic(&mut self, def: Option<Def>, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let code = index(intr, IndexKind::ImageDim);
        let Some(&(dim, _)) = SamplerDim::ALL.get(code as usize) else {
            return unsupported(format!("@{} with image_dim {code}", intr.op));
        };
        let array = index(intr, IndexKind::ImageArray) != 0;
        let image = self.reg(Self::src(intr, 0)?, 0)?;
        let kind = match intr.op {
            I::image_load => ImageOpKind::Load,
            I::image_store => ImageOpKind::Store,
            I::image_atomic | I::image_atomic_swap => {
                let d = def.ok_or_else(|| {
                    Error::Unsupported(format!("malformed NIR: @{} without a def", intr.op))
                })?;
                ImageOpKind::Atomic(self.atomic_op(
                    intr,
                    d,
                    intr.op == IntrinsicOp::image_atomic_swap,
                )?)
            }
            I::image_size => ImageOpKind::Size,
            I::image_samples => ImageOpKind::Samples,
            op => return unsupported(format!("intrinsic @{op}")),
        };
        let mut coord = [image; 4];
        if !matches!(kind, ImageOpKind::Size | ImageOpKind::Samples) {
            let c = Self::src(intr, 1)?;
            if self.shape(c).1 != 32 {
                return unsupported(format!("@{} with a non-32-bit coordinate", intr.op));
            }
            for (i, r) in coord.iter_mut().enumerate() {
                *r = self.reg(c, (i as u8).min(self.shape(c).0.saturating_sub(1)))?;
            }
        }
        let mut value = [image; 4];
        match kind {
            ImageOpKind::Store => {
                let v = Self::src(intr, 3)?;
                let (n, bits) = self.shape(v);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit @{}", intr.op));
                }
                for (i, r) in value.iter_mut().enumerate().take(usize::from(n)) {
                    *r = self.reg(v, i as u8)?;
                }
                self.storage.writes = true;
            }
            ImageOpKind::Atomic(_) => {
                for (i, r) in value.iter_mut().enumerate().take(intr.srcs.len() - 3) {
                    *r = self.reg(Self::src(intr, 3 + i)?, 0)?;
                }
                self.storage.reads = true;
                self.storage.writes = true;
            }
            _ => self.storage.reads = true,
        }
        self.storage.images = true;
        let (mut d, mut n) = ([image; 4], 0u8);
        if let Some(def) = def {
            let (comps, bits) = self.shape(def);
            if bits != 32 {
                return unsupported(format!("{bits}-bit @{}", intr.op));
            }
            n = comps.min(4);
            for (i, r) in d.iter_mut().enumerate().take(usize::from(n)) {
                *r = self.reg(def, i as u8)?;
            }
        }
        self.ops.push(Op::Image(Box::new(ImageOp {
            kind,
            image,
            coord,
            d,
            n,
            value,
            dim,
            array,
        })));
        Ok(())
    }
}
