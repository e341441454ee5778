//! Intrinsics of the lane compiler: derefs into local arrays, IO loads and stores
//! (direct, indirect and per-vertex), uniforms and uniform blocks, system values,
//! discard and the geometry shader's emit/end-primitive.

use rgl_nir::arena::EntityRef;
use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::names::{
    VARYING_SLOT_FACE, VARYING_SLOT_PNTC, VARYING_SLOT_POS, VARYING_SLOT_PRIMITIVE_ID,
};
use rgl_nir::ir::*;

use super::{flat_size, index, unsupported, Compiler, Place, MAX_REGS};
use crate::driver::ShaderStage;
use crate::exec::sysval;
use crate::lanes::alu::RegMap;
use crate::lanes::program::{Op, SysKind, Un};
use crate::{Error, Result};

impl Compiler<'_> {
    pub(super) fn deref(&mut self, d: Def, deref: &Deref) -> Result<()> {
        let structs = &self.shader.structs;
        let place = match &deref.kind {
            DerefKind::Var(v) => {
                let var = &self.shader.variables[*v];
                if !matches!(var.mode, VarMode::FunctionTemp | VarMode::ShaderTemp) {
                    return unsupported(format!(
                        "deref of a {} variable `{}` (IO, uniforms and samplers must be lowered)",
                        var.mode.deref_name(),
                        var.name
                    ));
                }
                let (base, size) = match self.local_of.get(v) {
                    Some(x) => *x,
                    None => {
                        let size = flat_size(&var.ty, structs, 0)
                            .filter(|s| *s <= u64::from(MAX_REGS))
                            .ok_or_else(|| {
                                Error::TooLarge(format!("local variable `{}`", var.name))
                            })? as u32;
                        let base = self.alloc(size)?;
                        let mut init = vec![0u32; size as usize];
                        if let Some(words) = &var.init {
                            for (w, v) in init.iter_mut().zip(words) {
                                *w = *v as u32;
                            }
                        }
                        self.locals.push((base, init));
                        self.local_of.insert(*v, (base, size));
                        (base, size)
                    }
                };
                Place {
                    base,
                    size,
                    off: None,
                    konst: 0,
                    ty: var.ty.clone(),
                    oob: false,
                }
            }
            DerefKind::Array { parent, index } => {
                let mut p = self.place(*parent)?;
                let (elem, len) = match &p.ty {
                    Type::Array(e, n) => ((**e).clone(), *n),
                    Type::Matrix { rows, columns } => {
                        (Type::Vector(BaseType::Float, *rows), u32::from(*columns))
                    }
                    Type::Vector(b, n) => (Type::Scalar(*b), u32::from(*n)),
                    t => return unsupported(format!("array deref of {t:?}")),
                };
                let stride = flat_size(&elem, structs, 0).unwrap_or(1) as u32;
                match self.konst(*index) {
                    Some(k) => {
                        if k < 0 || k >= i64::from(len) {
                            p.oob = true;
                        } else {
                            p.konst = p.konst.saturating_add(k as u32 * stride);
                        }
                    }
                    None => {
                        let r = self.alloc(1)?;
                        let idx = self.reg(*index, 0)?;
                        self.ops.push(Op::DerefIndex {
                            d: r,
                            parent: p.off,
                            idx,
                            stride,
                            len,
                        });
                        p.off = Some(r);
                    }
                }
                p.ty = elem;
                p
            }
            DerefKind::Struct { parent, field } => {
                let mut p = self.place(*parent)?;
                let Type::Struct(id) = &p.ty else {
                    return unsupported("struct deref of a non-struct");
                };
                let def = structs
                    .get(id.index())
                    .ok_or_else(|| Error::Unsupported("unknown struct".into()))?;
                let field = *field as usize;
                let mut off = 0u64;
                for (_, t) in def.fields.iter().take(field) {
                    off += flat_size(t, structs, 0).unwrap_or(0);
                }
                let ty = def
                    .fields
                    .get(field)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| Error::Unsupported("struct field out of range".into()))?;
                p.konst = p.konst.saturating_add(off as u32);
                p.ty = ty;
                p
            }
            DerefKind::Cast { parent, .. } => {
                let mut p = self.place(*parent)?;
                p.ty = deref.ty.clone();
                p
            }
            DerefKind::ArrayWildcard { .. } => return unsupported("wildcard array deref"),
        };
        self.places.insert(d, place);
        Ok(())
    }

    fn place(&self, d: Def) -> Result<Place> {
        self.places
            .get(&d)
            .cloned()
            .ok_or_else(|| Error::Unsupported(format!("{d} is not a local-variable deref")))
    }

    pub(super) fn src(intr: &Intrinsic, i: usize) -> Result<Def> {
        intr.srcs
            .get(i)
            .copied()
            .ok_or_else(|| Error::Unsupported(format!("malformed @{}: no source {i}", intr.op)))
    }

    pub(super) fn intrinsic(&mut self, i: Instr, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let def = self.func.instrs[i].def;
        let io_loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
        let component = index(intr, IndexKind::Component);
        let fragment = self.stage == ShaderStage::Fragment;
        match intr.op {
            I::load_input | I::load_interpolated_input => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                let off_src = Self::src(intr, if intr.op == I::load_input { 0 } else { 1 })?;
                let loc = self.in_location(intr, io_loc);
                if fragment
                    && matches!(
                        io_loc,
                        VARYING_SLOT_POS
                            | VARYING_SLOT_PNTC
                            | VARYING_SLOT_FACE
                            | VARYING_SLOT_PRIMITIVE_ID
                    )
                {
                    for c in 0..n {
                        let comp = component + u32::from(c);
                        let v = match io_loc {
                            VARYING_SLOT_POS => SysKind::FragCoord(comp.min(3) as u8),
                            VARYING_SLOT_PNTC if comp < 2 => SysKind::PointCoord(comp as u8),
                            VARYING_SLOT_FACE if comp == 0 => SysKind::FrontFace,
                            VARYING_SLOT_PRIMITIVE_ID if comp == 0 => SysKind::PrimitiveId,
                            _ => SysKind::Const(if comp == 3 { 1.0f32.to_bits() } else { 0 }),
                        };
                        self.sysval(d, c, v)?;
                    }
                    return Ok(());
                }
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    let comp = component + u32::from(c);
                    match self.konst(off_src) {
                        Some(k) => match self.io.inputs.get(&(loc + k as i32)) {
                            Some(&idx) if comp < 4 => self.hoist(
                                Op::LoadInput {
                                    d: r,
                                    i: (idx * 4) as u32 + comp,
                                },
                                bits,
                            ),
                            _ => {
                                let z = self.zero()?;
                                self.mov(r, z)
                            }
                        },
                        None => {
                            let table = self.input_table(intr, loc);
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::LoadInputIndirect {
                                d: r,
                                off,
                                table,
                                comp: comp.min(255) as u8,
                            });
                        }
                    }
                    if bits == 1 {
                        self.ops.push(Op::Un {
                            f: Un::ToB1,
                            d: r,
                            a: r,
                        });
                    }
                }
                Ok(())
            }
            I::load_per_vertex_input => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let vertex = self.reg(Self::src(intr, 0)?, 0)?;
                let off_src = Self::src(intr, 1)?;
                let table = self.input_table(intr, io_loc);
                let off = match self.konst(off_src) {
                    Some(0) => None,
                    _ => Some(self.reg(off_src, 0)?),
                };
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadVertexInput {
                        d: r,
                        vertex,
                        table: table.clone(),
                        off,
                        comp: (component + u32::from(c)).min(255) as u8,
                        vertices: self.gs_vertices,
                    });
                }
                Ok(())
            }
            I::load_output => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let k = self
                    .konst(Self::src(intr, 0)?)
                    .ok_or_else(|| Error::Unsupported("indirect load_output".into()))?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    let comp = component + u32::from(c);
                    match self.io.outputs.get(&(io_loc + k as i32)) {
                        Some(&o) if comp < 4 => self.ops.push(Op::LoadOutput {
                            d: r,
                            o: (o * 4) as u32 + comp,
                        }),
                        _ => {
                            let z = self.zero()?;
                            self.mov(r, z)
                        }
                    }
                }
                Ok(())
            }
            I::store_output => {
                let v = Self::src(intr, 0)?;
                let off_src = Self::src(intr, 1)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                let (n, _) = self.shape(v);
                for c in 0..n {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let a = self.reg(v, c)?;
                    let comp = component + u32::from(c);
                    if comp >= 4 {
                        continue;
                    }
                    match self.konst(off_src) {
                        Some(k) => {
                            if let Some(&o) = self.io.outputs.get(&(io_loc + k as i32)) {
                                self.ops.push(Op::StoreOutput {
                                    o: (o * 4) as u32 + comp,
                                    a,
                                });
                            }
                        }
                        None => {
                            let slots = (index(intr, IndexKind::IoSemantics) >> 16).max(1);
                            let table = (0..slots as i32)
                                .map(|s| {
                                    self.io.outputs.get(&(io_loc + s)).map_or(-1, |&o| o as i32)
                                })
                                .collect();
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::StoreOutputIndirect {
                                a,
                                off,
                                table,
                                comp: comp as u8,
                            });
                        }
                    }
                }
                Ok(())
            }
            I::load_barycentric_pixel
            | I::load_barycentric_centroid
            | I::load_barycentric_sample
            | I::load_barycentric_at_offset => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let z = self.zero()?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.mov(r, z);
                }
                Ok(())
            }
            I::load_uniform => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                let base = index(intr, IndexKind::Base);
                let off_src = Self::src(intr, 0)?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    match self.konst(off_src) {
                        Some(k) => {
                            let slot = i64::from(base) + k;
                            match u32::try_from(slot) {
                                Ok(slot) => self.hoist(
                                    Op::LoadUniform {
                                        d: r,
                                        slot,
                                        comp: c,
                                    },
                                    bits,
                                ),
                                Err(_) => {
                                    let z = self.zero()?;
                                    self.mov(r, z)
                                }
                            }
                        }
                        None => {
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::LoadUniformIndirect {
                                d: r,
                                base,
                                off,
                                comp: c,
                            });
                        }
                    }
                    if bits == 1 {
                        self.ops.push(Op::Un {
                            f: Un::ToB1,
                            d: r,
                            a: r,
                        });
                    }
                }
                Ok(())
            }
            I::load_ubo => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit load_ubo"));
                }
                let block = self.reg(Self::src(intr, 0)?, 0)?;
                let off = self.reg(Self::src(intr, 1)?, 0)?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadUbo {
                        d: r,
                        block,
                        off,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::load_ssbo
            | I::store_ssbo
            | I::ssbo_atomic
            | I::ssbo_atomic_swap
            | I::get_ssbo_size => self.storage_intrinsic(def, intr),
            I::image_load
            | I::image_store
            | I::image_atomic
            | I::image_atomic_swap
            | I::image_size
            | I::image_samples => self.image_intrinsic(def, intr),
            I::load_shared
            | I::store_shared
            | I::shared_atomic
            | I::shared_atomic_swap
            | I::load_local_invocation_id
            | I::load_workgroup_id
            | I::load_num_workgroups
            | I::load_subgroup_invocation
            | I::load_subgroup_size
            | I::barrier => self.compute_intrinsic(def, intr),
            I::load_front_face => self.sys1(def, SysKind::FrontFace),
            I::load_frag_coord => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0.min(4) {
                    self.sysval(d, c, SysKind::FragCoord(c))?;
                }
                Ok(())
            }
            I::load_point_coord => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0.min(2) {
                    self.sysval(d, c, SysKind::PointCoord(c))?;
                }
                Ok(())
            }
            I::load_vertex_id => self.sys1(def, SysKind::VertexId),
            I::load_instance_id => self.sys1(def, SysKind::InstanceId),
            I::load_primitive_id => self.sys1(def, SysKind::PrimitiveId),
            I::load_helper_invocation => self.sys1(def, SysKind::Helper),
            I::load_invocation_id => self.sys1(def, SysKind::InvocationId),
            I::load_sample_id | I::load_layer_id => self.sys1(def, SysKind::Const(0)),
            I::load_sample_mask_in => self.sys1(def, SysKind::Const(1)),
            I::load_sample_pos => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0 {
                    self.sysval(d, c, SysKind::Const(0.5f32.to_bits()))?;
                }
                Ok(())
            }
            I::ddx | I::ddy | I::ddx_fine | I::ddx_coarse | I::ddy_fine | I::ddy_coarse => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let a = Self::src(intr, 0)?;
                let is_x = matches!(intr.op, I::ddx | I::ddx_fine | I::ddx_coarse);
                // ARB_derivative_control: coarse derivatives are computed once
                // per quad; the others (`dFdx` included) per row or column.
                let coarse = matches!(intr.op, I::ddx_coarse | I::ddy_coarse);
                for c in 0..self.shape(d).0 {
                    let r = self.reg(d, c)?;
                    let s = self.reg(a, c)?;
                    if !fragment {
                        let z = self.zero()?;
                        self.mov(r, z);
                    } else if is_x {
                        self.ops.push(Op::Ddx { d: r, a: s, coarse });
                    } else {
                        self.ops.push(Op::Ddy { d: r, a: s, coarse });
                    }
                }
                Ok(())
            }
            // ARB_shader_group_vote with groups of one invocation (as Mesa's
            // `lower_vote_trivial`): every vote is the invocation's own value,
            // and its value always equals itself.
            I::vote_any | I::vote_all => {
                let d = def.ok_or_else(|| Error::Unsupported("vote without def".into()))?;
                let r = self.reg(d, 0)?;
                let s = self.reg(Self::src(intr, 0)?, 0)?;
                self.mov(r, s);
                Ok(())
            }
            I::vote_ieq | I::vote_feq => self.sys1(def, SysKind::Const(1)),
            I::shader_clock => {
                let d = def.ok_or_else(|| Error::Unsupported("clock without def".into()))?;
                if self.shape(d) != (2, 32) {
                    return unsupported(format!("shader_clock of shape {:?}", self.shape(d)));
                }
                let (lo, hi) = (self.reg(d, 0)?, self.reg(d, 1)?);
                self.ops.push(Op::Clock { lo, hi });
                Ok(())
            }
            I::discard
            | I::terminate
            | I::demote
            | I::discard_if
            | I::terminate_if
            | I::demote_if => {
                if !fragment {
                    return unsupported(format!("@{} outside a fragment shader", intr.op));
                }
                let cond = match intr.op {
                    I::discard_if | I::terminate_if | I::demote_if => {
                        Some(self.reg(Self::src(intr, 0)?, 0)?)
                    }
                    _ => None,
                };
                self.uses_discard = true;
                self.ops.push(Op::Kill { cond });
                Ok(())
            }
            I::emit_vertex | I::end_primitive => {
                if self.stage != ShaderStage::Geometry {
                    return unsupported(format!("@{} outside a geometry shader", intr.op));
                }
                if index(intr, IndexKind::StreamId) != 0 {
                    return unsupported("geometry shader streams other than 0");
                }
                self.ops.push(if intr.op == I::emit_vertex {
                    Op::Emit
                } else {
                    Op::EndPrim
                });
                Ok(())
            }
            I::load_deref => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let p = self.place(Self::src(intr, 0)?)?;
                let (n, bits) = self.shape(d);
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    if p.oob {
                        let z = self.zero()?;
                        self.mov(r, z);
                    } else {
                        self.ops.push(Op::LoadLocal {
                            d: r,
                            base: p.base,
                            size: p.size,
                            off: p.off,
                            k: p.konst.saturating_add(u32::from(c)),
                            bool1: bits == 1,
                        });
                    }
                }
                Ok(())
            }
            I::store_deref => {
                let p = self.place(Self::src(intr, 0)?)?;
                let v = Self::src(intr, 1)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                if p.oob {
                    return Ok(());
                }
                for c in 0..self.shape(v).0 {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let a = self.reg(v, c)?;
                    self.ops.push(Op::StoreLocal {
                        a,
                        base: p.base,
                        size: p.size,
                        off: p.off,
                        k: p.konst.saturating_add(u32::from(c)),
                    });
                }
                Ok(())
            }
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    fn sys1(&mut self, def: Option<Def>, v: SysKind) -> Result<()> {
        let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
        for c in 0..self.shape(d).0 {
            self.sysval(d, c, v)?;
        }
        Ok(())
    }

    pub(super) fn sysval(&mut self, d: Def, c: u8, v: SysKind) -> Result<()> {
        self.sysvals |= match v {
            SysKind::FragCoord(_) => sysval::FRAG_COORD,
            SysKind::FrontFace => sysval::FRONT_FACE,
            SysKind::PointCoord(_) => sysval::POINT_COORD,
            SysKind::VertexId => sysval::VERTEX_ID,
            SysKind::InstanceId => sysval::INSTANCE_ID,
            SysKind::PrimitiveId => sysval::PRIMITIVE_ID,
            SysKind::Helper => sysval::HELPER_INVOCATION,
            SysKind::Const(_)
            | SysKind::InvocationId
            | SysKind::LocalId(_)
            | SysKind::WorkgroupId(_)
            | SysKind::NumWorkgroups(_) => 0,
        };
        let r = self.reg(d, c)?;
        let bits = self.shape(d).1;
        self.hoist(Op::SysVal { d: r, v }, bits);
        Ok(())
    }

    fn in_location(&self, intr: &Intrinsic, io_loc: i32) -> i32 {
        if self.stage == ShaderStage::Vertex {
            index(intr, IndexKind::Base) as i32
        } else {
            io_loc
        }
    }

    /// Input index of each slot an indirectly addressed input covers (-1: none).
    fn input_table(&self, intr: &Intrinsic, loc: i32) -> Vec<i32> {
        let slots = if self.stage == ShaderStage::Vertex {
            index(intr, IndexKind::Range)
        } else {
            index(intr, IndexKind::IoSemantics) >> 16
        }
        .clamp(1, 4096);
        (0..slots as i32)
            .map(|s| self.io.inputs.get(&(loc + s)).map_or(-1, |&i| i as i32))
            .collect()
    }
}
