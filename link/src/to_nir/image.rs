//! The GLSL 4.20 §8.12 image functions as Mesa's `glsl_to_nir.cpp` translates
//! them (`visit(ir_call *)` for the `__intrinsic_image_*` functions): each call
//! becomes one image deref intrinsic on the deref of the image argument, with
//! the image's dimensionality, arrayness, format layout qualifier and memory
//! qualifiers as constant indices.
//!
//! * `imageLoad(image, P[, sample])` → `image_deref_load` (4 × 32-bit result,
//!   `dest_type` the image's texel type);
//! * `imageStore(image, P[, sample], data)` → `image_deref_store` (`src_type`);
//! * `imageAtomicAdd/Min/Max/And/Or/Xor/Exchange(image, P[, sample], data)` →
//!   `image_deref_atomic` with `iadd`/`fadd`, `imin`/`umin`, `imax`/`umax`,
//!   `iand`, `ior`, `ixor`, `xchg` by the image's texel type;
//!   `imageAtomicCompSwap(image, P[, sample], compare, data)` →
//!   `image_deref_atomic_swap` with `cmpxchg`; both return the old value;
//! * `imageSize(image)` → `image_deref_size` at lod 0; `imageSamples(image)` →
//!   `image_deref_samples`.
//!
//! Sources follow Mesa's: the coordinate is padded to 4 components (with
//! zeros; Mesa uses undefs), the sample index is 0 for non-multisample images,
//! and the lod of loads, stores and sizes is 0 (images address one level).

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{self, ExprKind};
use rgl_nir::intrinsics::{AtomicOp, ImageFormat, IntrinsicOp};
use rgl_nir::ir::{names, BaseType, Def, SamplerDim, Type};

use super::types::alu_type_of;
use super::{invalid, Conv, Res};

/// Whether `name` is one of the §8.12 image functions converted here.
pub(crate) fn is_image_builtin(name: &str) -> bool {
    matches!(
        name,
        "imageLoad" | "imageStore" | "imageSize" | "imageSamples" | "imageAtomicCompSwap"
    ) || atomic_of(name, BaseType::Int).is_some()
}

/// The `atomic_op` of a non-swap image atomic on an image of texel type `base`.
fn atomic_of(name: &str, base: BaseType) -> Option<AtomicOp> {
    let signed = base == BaseType::Int;
    let float = base == BaseType::Float;
    Some(match name {
        "imageAtomicAdd" if float => AtomicOp::Fadd,
        "imageAtomicAdd" => AtomicOp::Iadd,
        "imageAtomicMin" if signed => AtomicOp::Imin,
        "imageAtomicMin" if !float => AtomicOp::Umin,
        "imageAtomicMax" if signed => AtomicOp::Imax,
        "imageAtomicMax" if !float => AtomicOp::Umax,
        "imageAtomicAnd" if !float => AtomicOp::Iand,
        "imageAtomicOr" if !float => AtomicOp::Ior,
        "imageAtomicXor" if !float => AtomicOp::Ixor,
        "imageAtomicExchange" => AtomicOp::Xchg,
        _ => return None,
    })
}

/// Mesa's access bits of the GLSL memory qualifiers (`ACCESS_COHERENT`, ...).
fn access_bits(m: &hir::MemoryQualifiers) -> u32 {
    let bit = |on: bool, name: &str| {
        if on {
            names::ACCESS_FLAGS
                .iter()
                .find(|(_, n)| *n == name)
                .map_or(0, |(b, _)| *b)
        } else {
            0
        }
    };
    bit(m.coherent, "coherent")
        | bit(m.volatile, "volatile")
        | bit(m.restrict, "restrict")
        | bit(m.read_only, "readonly")
        | bit(m.write_only, "writeonly")
}

impl Conv<'_> {
    /// The format and access indices of the image variable an image expression
    /// names (through array subscripts and struct members).
    fn image_qualifiers(&self, mut e: Handle<hir::Expr>) -> Res<(ImageFormat, u32)> {
        for _ in 0..256 {
            match self.expr(e)?.kind {
                ExprKind::ArrayRef(base, _) | ExprKind::RecordRef(base, _) => e = base,
                ExprKind::VarRef(v) => {
                    let Some(var) = self.m.variables.get(v) else {
                        return invalid("image variable out of range");
                    };
                    let format = match var.image_format {
                        Some(f) => match ImageFormat::from_glsl(f.name()) {
                            Some(f) => f,
                            None => return invalid(format!("unknown image format `{}`", f.name())),
                        },
                        None => ImageFormat::None,
                    };
                    return Ok((format, access_bits(&var.memory)));
                }
                _ => return invalid("image argument that is not a variable"),
            }
        }
        invalid("image argument nested too deeply")
    }

    /// `args` padded to a 4-component 32-bit coordinate.
    fn image_coord(&mut self, coord: Def) -> Res<Def> {
        let n = self.comps(coord);
        let zero = self.imm_i(0);
        let mut comps = Vec::with_capacity(4);
        for c in 0..4 {
            comps.push(if c < n { self.channel(coord, c) } else { zero });
        }
        self.vec(&comps)
    }

    /// Converts a call of the image function `name` (see [`is_image_builtin`]).
    pub(crate) fn image_call(
        &mut self,
        name: &str,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        let Some(&image) = args.first() else {
            return invalid(format!("`{name}` without an image"));
        };
        let d = self.deref_expr(image)?;
        let Type::Image { base, dim, array } = d.ty.clone() else {
            return invalid(format!("`{name}` on a non-image"));
        };
        let (format, access) = self.image_qualifiers(image)?;
        let dim_code = SamplerDim::ALL
            .iter()
            .position(|(x, _)| *x == dim)
            .unwrap_or(0) as u32;
        let head = [dim_code, u32::from(array), format.code(), access];
        let texel_type = names::alu_type_code(alu_type_of(base));
        let int_type = names::alu_type_code(alu_type_of(BaseType::Int));
        let indices = |last: u32| {
            let mut v = head.to_vec();
            v.push(last);
            v
        };
        let result = |c: &mut Self, v: Option<Def>, n: u8| -> Res<()> {
            let Some(v) = v else {
                return invalid(format!("`{name}` without a result"));
            };
            if let Some(r) = return_deref {
                c.assign_value(r, v, ((1u16 << n) - 1) as u8)?;
            }
            Ok(())
        };
        if name == "imageSize" || name == "imageSamples" {
            if args.len() != 1 {
                return invalid(format!("`{name}` with {} arguments", args.len()));
            }
            let (op, srcs, n) = if name == "imageSize" {
                let n = match return_deref {
                    Some(r) => self.expr(r)?.ty.vector_elements().clamp(1, 4),
                    None => 1,
                };
                let lod = self.imm_i(0);
                (IntrinsicOp::image_deref_size, vec![d.def, lod], n)
            } else {
                (IntrinsicOp::image_deref_samples, vec![d.def], 1)
            };
            let v = self
                .b()
                .intrinsic(op, srcs, n, indices(int_type), Some((n, 32)));
            return result(self, v, n);
        }
        let Some(&coord) = args.get(1) else {
            return invalid(format!("`{name}` without a coordinate"));
        };
        let c = self.eval(coord)?;
        let coord = self.image_coord(c)?;
        let (sample, rest) = if dim == SamplerDim::Ms {
            let Some(&s) = args.get(2) else {
                return invalid(format!("`{name}` without a sample"));
            };
            (self.eval(s)?, &args[3..])
        } else {
            (self.imm_i(0), &args[2..])
        };
        let mut data = Vec::with_capacity(rest.len());
        for a in rest {
            data.push(self.eval(*a)?);
        }
        match name {
            "imageLoad" => {
                if !data.is_empty() {
                    return invalid("`imageLoad` with extra arguments");
                }
                let lod = self.imm_i(0);
                let v = self.b().intrinsic(
                    IntrinsicOp::image_deref_load,
                    vec![d.def, coord, sample, lod],
                    4,
                    indices(texel_type),
                    Some((4, 32)),
                );
                result(self, v, 4)
            }
            "imageStore" => {
                let [value] = data[..] else {
                    return invalid("`imageStore` without one texel");
                };
                if self.comps(value) != 4 {
                    return invalid("`imageStore` of a texel that is not 4 components");
                }
                let lod = self.imm_i(0);
                self.b().intrinsic(
                    IntrinsicOp::image_deref_store,
                    vec![d.def, coord, sample, value, lod],
                    4,
                    indices(texel_type),
                    None,
                );
                Ok(())
            }
            _ => {
                let swap = name == "imageAtomicCompSwap";
                let (op, atomic) = if swap {
                    (IntrinsicOp::image_deref_atomic_swap, AtomicOp::Cmpxchg)
                } else {
                    match atomic_of(name, base) {
                        Some(a) => (IntrinsicOp::image_deref_atomic, a),
                        None => return invalid(format!("`{name}` on this image type")),
                    }
                };
                if data.len() != 1 + usize::from(swap)
                    || data
                        .iter()
                        .any(|v| self.comps(*v) != 1 || self.bits(*v) != 32)
                {
                    return invalid(format!("`{name}` data is not a 32-bit scalar"));
                }
                let mut srcs = vec![d.def, coord, sample];
                srcs.extend(data);
                let v = self
                    .b()
                    .intrinsic(op, srcs, 1, indices(atomic.code()), Some((1, 32)));
                result(self, v, 1)
            }
        }
    }
}
