//! Texture lookups (`hir::Texture`) → `tex` instructions (`nir_tex_instr`): the op,
//! the sampler's dimensionality / array / shadow flags, and the sources in Mesa's
//! order (texture and sampler deref, coord, projector, comparator, offset, then
//! bias / lod / ms_index / gradients). Shadow lookups whose GLSL result is a scalar
//! (1.30 style) produce a one-component result; the legacy `shadow2D` family keeps
//! four components. A gather (`tg4`, GLSL 4.00 §8.9.4) takes its component from
//! the constant in the lookup's `lod` slot (Mesa's `lod_info.component`) and
//! its offset, constant or not, as the `offset` source.

use rgl_glsl::hir::{self, TexOp as HOp};
use rgl_glsl::types::Type as GType;
use rgl_nir::ir::{BaseType, Def, InstrKind, Tex, TexOp, TexSrcKind, Type};
use rgl_nir::opcodes::{AluType, Base};

use super::types::alu_type_of;
use super::{invalid, Conv, Res};

impl Conv<'_> {
    /// Converts one texture lookup whose GLSL result type is `ty`.
    pub(crate) fn texture(&mut self, t: &hir::Texture, ty: &GType) -> Res<Def> {
        let sampler = self.deref_expr(t.sampler)?;
        let Type::Sampler {
            base,
            dim,
            array,
            shadow,
        } = sampler.ty.clone()
        else {
            return invalid("texture lookup through a non-sampler");
        };
        let op = match t.op {
            HOp::Tex => TexOp::Tex,
            HOp::Txb => TexOp::Txb,
            HOp::Txl => TexOp::Txl,
            HOp::Txd => TexOp::Txd,
            HOp::Txf => TexOp::Txf,
            HOp::TxfMs => TexOp::TxfMs,
            HOp::Txs => TexOp::Txs,
            HOp::Lod => TexOp::Lod,
            HOp::QueryLevels => TexOp::QueryLevels,
            HOp::Tg4 => TexOp::Tg4,
        };
        let component = match t.op {
            HOp::Tg4 => self.gather_component(t.lod)?,
            _ => 0,
        };
        let mut srcs = vec![
            (TexSrcKind::TextureDeref, sampler.def),
            (TexSrcKind::SamplerDeref, sampler.def),
        ];
        let mut push = |c: &mut Self,
                        kind: TexSrcKind,
                        e: Option<rgl_glsl::arena::Handle<hir::Expr>>|
         -> Res<()> {
            if let Some(e) = e {
                let v = c.eval(e)?;
                srcs.push((kind, v));
            }
            Ok(())
        };
        push(self, TexSrcKind::Coord, t.coordinate)?;
        push(self, TexSrcKind::Projector, t.projector)?;
        push(self, TexSrcKind::Comparator, t.shadow_comparator)?;
        push(self, TexSrcKind::Offset, t.offset)?;
        let lod_kind = match t.op {
            HOp::Txb => Some(TexSrcKind::Bias),
            HOp::Txl | HOp::Txf | HOp::Txs => Some(TexSrcKind::Lod),
            HOp::TxfMs => Some(TexSrcKind::MsIndex),
            HOp::Tex | HOp::Txd | HOp::Lod | HOp::QueryLevels | HOp::Tg4 => None,
        };
        if let Some(kind) = lod_kind {
            push(self, kind, t.lod)?;
        }
        if let Some((dx, dy)) = t.grad {
            push(self, TexSrcKind::Ddx, Some(dx))?;
            push(self, TexSrcKind::Ddy, Some(dy))?;
        }
        if !matches!(op, TexOp::Txs | TexOp::QueryLevels)
            && !srcs.iter().any(|(k, _)| *k == TexSrcKind::Coord)
        {
            return invalid("texture lookup without a coordinate");
        }
        let dest_type = match op {
            TexOp::Txs | TexOp::QueryLevels | TexOp::TextureSamples => AluType {
                base: Base::Int,
                bits: 32,
            },
            TexOp::Lod => alu_type_of(BaseType::Float),
            _ => alu_type_of(base),
        };
        let n = ty.vector_elements().clamp(1, 4);
        let tex = Tex {
            op,
            dest_type,
            dim,
            is_array: array,
            is_shadow: shadow,
            texture_index: 0,
            sampler_index: 0,
            component,
            srcs,
        };
        match self.b().build(InstrKind::Tex(tex), Some((n, 32))) {
            Some(d) => Ok(d),
            None => invalid("tex instruction without a result"),
        }
    }

    /// The gather component: an `int` constant 0..3 (the front end rejects
    /// anything else; a missing one gathers `x`).
    fn gather_component(&self, lod: Option<rgl_glsl::arena::Handle<hir::Expr>>) -> Res<u8> {
        let Some(lod) = lod else { return Ok(0) };
        match &self.m.exprs[lod].kind {
            hir::ExprKind::Constant(hir::Constant::Components(c)) => match c.first() {
                Some(hir::ScalarValue::Int(v)) if (0..=3).contains(v) => Ok(*v as u8),
                _ => invalid("gather component outside 0..3"),
            },
            _ => invalid("non-constant gather component"),
        }
    }
}
