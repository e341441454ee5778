//! Variables and memory access: GLSL IR variables → NIR variables with modes,
//! locations and driver locations (from the linker's [`crate::program::VarLink`], or the
//! variable's own explicit/built-in location, else -1); deref chains; loads, stores
//! (write masks, component writes) and whole-aggregate copies.

use std::fmt::Write as _;

use rgl_glsl::arena::Handle;
use rgl_glsl::ast::Interpolation;
use rgl_glsl::hir::{self, Constant, ExprKind, ScalarValue, VarMode as HMode};
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::names;
use rgl_nir::ir::types::Packing;
use rgl_nir::ir::{
    BaseType, Def, Deref, DerefKind, InstrKind, Interp, Type, VarId, VarMode, Variable,
};

use super::{invalid, unsupported, Conv, Param, Res, VarKind, D};

/// System values by GLSL name: (SYSTEM_VALUE_* name).
const SYSTEM_VALUES: &[(&str, &str)] = &[
    ("gl_VertexID", "SYSTEM_VALUE_VERTEX_ID"),
    ("gl_InstanceID", "SYSTEM_VALUE_INSTANCE_ID"),
    ("gl_InstanceIDARB", "SYSTEM_VALUE_INSTANCE_ID"),
    ("gl_FrontFacing", "SYSTEM_VALUE_FRONT_FACE"),
    ("gl_PrimitiveIDIn", "SYSTEM_VALUE_PRIMITIVE_ID"),
    ("gl_InvocationID", "SYSTEM_VALUE_INVOCATION_ID"),
    ("gl_SampleID", "SYSTEM_VALUE_SAMPLE_ID"),
    ("gl_SamplePosition", "SYSTEM_VALUE_SAMPLE_POS"),
    ("gl_SampleMaskIn", "SYSTEM_VALUE_SAMPLE_MASK_IN"),
    ("gl_HelperInvocation", "SYSTEM_VALUE_HELPER_INVOCATION"),
    ("gl_DrawID", "SYSTEM_VALUE_DRAW_ID"),
    ("gl_BaseVertex", "SYSTEM_VALUE_BASE_VERTEX"),
    ("gl_BaseInstance", "SYSTEM_VALUE_BASE_INSTANCE"),
    // GLSL 4.30 §7.1.3 compute built-ins (`gl_WorkGroupSize` is a constant).
    ("gl_NumWorkGroups", "SYSTEM_VALUE_NUM_WORKGROUPS"),
    ("gl_WorkGroupID", "SYSTEM_VALUE_WORKGROUP_ID"),
    ("gl_LocalInvocationID", "SYSTEM_VALUE_LOCAL_INVOCATION_ID"),
    ("gl_GlobalInvocationID", "SYSTEM_VALUE_GLOBAL_INVOCATION_ID"),
    (
        "gl_LocalInvocationIndex",
        "SYSTEM_VALUE_LOCAL_INVOCATION_INDEX",
    ),
];

/// Built-in slots of the `gl_PerVertex` members (for `gl_in[]`).
const PER_VERTEX_SLOTS: &[(&str, &str)] = &[
    ("gl_Position", "VARYING_SLOT_POS"),
    ("gl_PointSize", "VARYING_SLOT_PSIZ"),
    ("gl_ClipDistance", "VARYING_SLOT_CLIP_DIST0"),
    ("gl_TexCoord", "VARYING_SLOT_TEX0"),
    ("gl_FogFragCoord", "VARYING_SLOT_FOGC"),
    ("gl_ClipVertex", "VARYING_SLOT_CLIP_VERTEX"),
    ("gl_FrontColor", "VARYING_SLOT_COL0"),
    ("gl_BackColor", "VARYING_SLOT_BFC0"),
    ("gl_FrontSecondaryColor", "VARYING_SLOT_COL1"),
    ("gl_BackSecondaryColor", "VARYING_SLOT_BFC1"),
];

fn interp_of(i: Option<Interpolation>) -> Interp {
    match i {
        None => Interp::None,
        Some(Interpolation::Smooth) => Interp::Smooth,
        Some(Interpolation::Flat) => Interp::Flat,
        Some(Interpolation::NoPerspective) => Interp::NoPerspective,
    }
}

/// `ACCESS_COHERENT` (Mesa's `gl_access_qualifier` bits, printed by
/// [`names::access_name`]).
const ACCESS_COHERENT: u32 = 1;
/// `ACCESS_VOLATILE`.
const ACCESS_VOLATILE: u32 = 2;
/// `ACCESS_RESTRICT`.
const ACCESS_RESTRICT: u32 = 4;
/// `ACCESS_NON_WRITEABLE` (`readonly`).
const ACCESS_NON_WRITEABLE: u32 = 8;
/// `ACCESS_NON_READABLE` (`writeonly`).
const ACCESS_NON_READABLE: u32 = 16;

/// Width of a scalar/vector type.
pub(crate) fn width(ty: &Type) -> Option<u8> {
    ty.vector_components()
}

impl Conv<'_> {
    fn hvar(&self, h: Handle<hir::Variable>) -> Res<&hir::Variable> {
        match self.m.variables.get(h) {
            Some(v) => Ok(v),
            None => invalid("variable handle out of range"),
        }
    }

    /// Creates the NIR variables of every global of the module, in item order
    /// (built-in constants only when referenced).
    pub(crate) fn declare_globals(&mut self) -> Res<()> {
        for item in &self.m.items {
            if let hir::Item::Variable(h) = *item {
                let v = self.hvar(h)?;
                if v.is_builtin && matches!(v.mode, HMode::Auto | HMode::Temporary) {
                    continue;
                }
                // Atomic counters are storage-buffer words (see `memory`), never
                // NIR variables.
                if v.mode == HMode::Uniform && v.ty.contains_atomic(&self.m.structs) {
                    continue;
                }
                self.global(h)?;
            }
        }
        Ok(())
    }

    /// The type of variable `v`, with a top-level unsized array sized from the
    /// geometry input primitive or the highest constant index used.
    fn var_type(&mut self, v: &hir::Variable) -> Res<Type> {
        let mut ty = self.ty(&v.ty)?;
        if let Type::Array(e, 0) = ty {
            let gs_in = self.stage.stage == rgl_glsl::Stage::Geometry && v.mode == HMode::ShaderIn;
            let len = match self.m.layout.gs_input_primitive {
                Some(p) if gs_in => p.vertex_count(),
                _ if v.max_array_access >= 0 => v.max_array_access as u32 + 1,
                _ => 0,
            };
            ty = Type::Array(e, len);
        }
        Ok(ty)
    }

    fn is_global_mode(mode: HMode) -> bool {
        matches!(
            mode,
            HMode::Uniform
                | HMode::ShaderIn
                | HMode::ShaderOut
                | HMode::SystemValue
                | HMode::Shared
                | HMode::ShaderStorage
        )
    }

    /// The representation of global `h`, created on first use.
    pub(crate) fn global(&mut self, h: Handle<hir::Variable>) -> Res<VarKind> {
        if let Some(k) = self.globals.get(&h) {
            return Ok(k.clone());
        }
        let v = self.hvar(h)?;
        let block = v.interface_block;
        let instanced = block.is_some_and(|b| {
            let mut t = &v.ty;
            while let rgl_glsl::types::Type::Array(e, _) = t {
                t = e;
            }
            *t == rgl_glsl::types::Type::Struct(b)
        });
        let kind = match (v.mode, block) {
            (HMode::Uniform | HMode::ShaderStorage, Some(b)) if !instanced => {
                self.ubo_member(h, b)?
            }
            (HMode::ShaderIn | HMode::ShaderOut, Some(b)) if instanced => self.split_block(h, b)?,
            _ => VarKind::Plain(self.plain_global(h)?),
        };
        self.globals.insert(h, kind.clone());
        Ok(kind)
    }

    fn plain_global(&mut self, h: Handle<hir::Variable>) -> Res<VarId> {
        let v = self.hvar(h)?.clone();
        let link = self.stage.vars.get(&h).copied();
        let ty = self.var_type(&v)?;
        let gs = self.stage.stage == rgl_glsl::Stage::Geometry;
        let mut mode = match v.mode {
            HMode::Uniform if v.interface_block.is_some() => VarMode::Ubo,
            HMode::Uniform => VarMode::Uniform,
            HMode::ShaderIn => VarMode::ShaderIn,
            HMode::ShaderOut => VarMode::ShaderOut,
            HMode::SystemValue => VarMode::SystemValue,
            HMode::Auto | HMode::Temporary => VarMode::ShaderTemp,
            HMode::ShaderStorage if v.interface_block.is_some() => VarMode::Ssbo,
            HMode::ShaderStorage => {
                return invalid(format!(
                    "buffer variable `{}` outside a shader storage block",
                    v.name
                ))
            }
            HMode::Shared => VarMode::Shared,
            HMode::FunctionIn | HMode::FunctionOut | HMode::FunctionInout | HMode::ConstIn => {
                return invalid(format!("parameter `{}` used outside its function", v.name))
            }
        };
        if gs && v.name == "gl_PrimitiveIDIn" {
            mode = VarMode::SystemValue;
        }
        let mut var = Variable::new(&v.name, mode, ty);
        var.location = match link {
            Some(l) => l.location,
            None => self.fallback_location(&v, mode),
        };
        var.location_frac = link.map(|l| l.location_frac).unwrap_or(0);
        var.driver_location = link.map(|l| l.driver_location).unwrap_or(0);
        var.binding = v.binding.and_then(|b| u32::try_from(b).ok()).unwrap_or(0);
        var.interp = interp_of(v.interpolation);
        var.centroid = v.centroid;
        var.invariant = v.invariant;
        match mode {
            VarMode::SystemValue => {
                let Some((_, sv)) = SYSTEM_VALUES.iter().find(|(n, _)| *n == v.name) else {
                    return unsupported(format!("system value `{}`", v.name));
                };
                var.location = names::parse_location(sv).unwrap_or(-1);
                var.interp = Interp::None;
            }
            VarMode::Uniform | VarMode::Ubo => {
                if let Some(c) = v
                    .constant_initializer
                    .as_ref()
                    .or(v.constant_value.as_ref())
                {
                    var.init = Some(self.constant_words(c)?);
                }
            }
            VarMode::ShaderTemp => {
                var.location = -1;
                if v.read_only {
                    if let Some(c) = &v.constant_value {
                        var.init = Some(self.constant_words(c)?);
                    }
                }
            }
            VarMode::Shared => var.location = -1,
            _ => {}
        }
        if matches!(mode, VarMode::Ubo | VarMode::Ssbo) {
            var.location = -1;
            self.apply_block_layout(&var.ty, v.matrix_layout);
        }
        if mode == VarMode::Ssbo {
            self.storage_block_var(&mut var, &v, None);
        }
        Ok(self.add_global(var))
    }

    /// The location of a variable the linker did not place: built-ins carry their
    /// fixed slot; an explicit `layout(location = N)` is generic attribute / color /
    /// user varying N; anything else has none (-1).
    fn fallback_location(&self, v: &hir::Variable, mode: VarMode) -> i32 {
        let Some(n) = v.location else {
            return -1;
        };
        if v.is_builtin {
            return n;
        }
        let vs = self.stage.stage == rgl_glsl::Stage::Vertex;
        let fs = self.stage.stage == rgl_glsl::Stage::Fragment;
        match mode {
            VarMode::ShaderIn if vs => names::VERT_ATTRIB_GENERIC0 + n,
            VarMode::ShaderOut if fs => names::FRAG_RESULT_DATA0 + n,
            VarMode::ShaderIn | VarMode::ShaderOut => names::VARYING_SLOT_VAR0 + n,
            _ => n,
        }
    }

    fn ubo_member(
        &mut self,
        h: Handle<hir::Variable>,
        block: Handle<rgl_glsl::types::StructType>,
    ) -> Res<VarKind> {
        let v = self.hvar(h)?.clone();
        let Some(st) = self.m.structs.get(block) else {
            return invalid("interface block type out of range");
        };
        let Some(field) = st.fields.iter().position(|f| f.name == v.name) else {
            return invalid(format!(
                "`{}` is not a member of block `{}`",
                v.name, st.name
            ));
        };
        let name = st.name.clone();
        let var = match self.ubo_blocks.get(&block) {
            Some(id) => *id,
            None => {
                let ty = self.ty(&rgl_glsl::types::Type::Struct(block))?;
                self.apply_block_layout(&ty, v.matrix_layout);
                let storage = v.mode == HMode::ShaderStorage;
                let mode = if storage { VarMode::Ssbo } else { VarMode::Ubo };
                let mut nv = Variable::new(&name, mode, ty);
                nv.driver_location = self
                    .stage
                    .vars
                    .get(&h)
                    .map(|l| l.driver_location)
                    .unwrap_or(0);
                nv.binding = v.binding.and_then(|b| u32::try_from(b).ok()).unwrap_or(0);
                if storage {
                    self.storage_block_var(&mut nv, &v, Some(block));
                }
                let id = self.add_global(nv);
                self.ubo_blocks.insert(block, id);
                id
            }
        };
        Ok(VarKind::Member {
            var,
            field: field as u32,
        })
    }

    /// Completes the `ssbo` variable of a shader storage block: its block source is
    /// the GL binding point (GL 4.3 §7.8: the `binding` layout, else 0, until
    /// `glShaderStorageBlockBinding` changes it), its packing the block's (`std430`,
    /// else std140 as for `shared`/`packed`, which rgl lays out as std140), and its
    /// access the memory qualifiers (GLSL 4.30 §4.10) that hold for every member:
    /// `coherent`/`volatile` when any member has them (the stricter reading),
    /// `restrict`/`readonly`/`writeonly` only when all do. `unnamed` is the block type
    /// of a block without an instance name (whose members are separate GLSL IR
    /// variables).
    fn storage_block_var(
        &self,
        var: &mut Variable,
        v: &hir::Variable,
        unnamed: Option<Handle<rgl_glsl::types::StructType>>,
    ) {
        use rgl_glsl::hir::{BlockPacking, MemoryQualifiers};
        var.location = -1;
        var.driver_location = var.binding;
        var.packing = if v.block_packing == BlockPacking::Std430 {
            Packing::Std430
        } else {
            Packing::Std140
        };
        let mems: Vec<MemoryQualifiers> = match unnamed {
            Some(b) => self
                .m
                .variables
                .iter()
                .filter(|(_, x)| x.mode == HMode::ShaderStorage && x.interface_block == Some(b))
                .map(|(_, x)| x.memory)
                .collect(),
            None => v
                .interface_block
                .and_then(|b| self.m.structs.get(b))
                .map(|st| {
                    st.fields
                        .iter()
                        .map(|f| v.memory.union(f.qualifiers.memory))
                        .collect()
                })
                .unwrap_or_default(),
        };
        let mems = if mems.is_empty() {
            vec![v.memory]
        } else {
            mems
        };
        let any = |f: fn(&MemoryQualifiers) -> bool| mems.iter().any(f);
        let all = |f: fn(&MemoryQualifiers) -> bool| mems.iter().all(f);
        let mut access = 0;
        for (on, bit) in [
            (any(|m| m.coherent), ACCESS_COHERENT),
            (any(|m| m.volatile), ACCESS_VOLATILE),
            (all(|m| m.restrict), ACCESS_RESTRICT),
            (all(|m| m.read_only), ACCESS_NON_WRITEABLE),
            (all(|m| m.write_only), ACCESS_NON_READABLE),
        ] {
            if on {
                access |= bit;
            }
        }
        var.access = access;
    }

    fn split_block(
        &mut self,
        h: Handle<hir::Variable>,
        block: Handle<rgl_glsl::types::StructType>,
    ) -> Res<VarKind> {
        let v = self.hvar(h)?.clone();
        let Some(st) = self.m.structs.get(block).cloned() else {
            return invalid("interface block type out of range");
        };
        let outer = self.var_type(&v)?;
        // The instance array's dimensions, outermost first (`Blk b[2][3]`:
        // 2, 3; GL_ARB_arrays_of_arrays allows several).
        let mut dims = Vec::new();
        let mut t = &outer;
        while let Type::Array(e, n) = t {
            dims.push(*n);
            t = e;
        }
        let link = self.stage.vars.get(&h).copied();
        let mode_of = if v.mode == HMode::ShaderIn {
            VarMode::ShaderIn
        } else {
            VarMode::ShaderOut
        };
        let base = match link {
            Some(l) => l.location,
            None => self.fallback_location(&v, mode_of),
        };
        let per_vertex = st.name == "gl_PerVertex";
        let mode = if v.mode == HMode::ShaderIn {
            VarMode::ShaderIn
        } else {
            VarMode::ShaderOut
        };
        let mut offset = 0i32;
        let mut vars = Vec::with_capacity(st.fields.len());
        for f in &st.fields {
            let fty = self.ty(&f.ty)?;
            let ty = dims
                .iter()
                .rev()
                .fold(fty, |ty, n| Type::Array(Box::new(ty), *n));
            let mut var = Variable::new(&format!("{}.{}", st.name, f.name), mode, ty);
            var.location = if per_vertex {
                PER_VERTEX_SLOTS
                    .iter()
                    .find(|(n, _)| *n == f.name)
                    .and_then(|(_, s)| names::parse_location(s))
                    .unwrap_or(-1)
            } else if base >= 0 {
                base + offset
            } else {
                -1
            };
            // An instance array (`Blk ifc[2]`) lays each member out as an array
            // of that shape; a geometry shader's per-vertex input dimension
            // (the outermost) does not take locations.
            let per_vertex_input =
                self.stage.stage == rgl_glsl::Stage::Geometry && mode == VarMode::ShaderIn;
            let located = if per_vertex_input && !dims.is_empty() {
                &dims[1..]
            } else {
                &dims[..]
            };
            let copies = located
                .iter()
                .fold(1i32, |c, n| c.saturating_mul((*n).max(1) as i32));
            let slots = f.ty.count_vec4_slots(&self.m.structs).min(1 << 20) as i32;
            offset += slots.saturating_mul(copies);
            var.interp = interp_of(f.qualifiers.interpolation.or(v.interpolation));
            var.centroid = v.centroid || f.qualifiers.centroid;
            var.invariant = v.invariant || f.qualifiers.invariant;
            vars.push(self.add_global(var));
        }
        Ok(VarKind::Split(vars))
    }

    /// Adds a global variable under a name no other global has.
    fn add_global(&mut self, mut var: Variable) -> VarId {
        var.name = super::fresh_name(&self.global_names, &var.name);
        self.global_names.insert(var.name.clone());
        self.shader.add_global(var)
    }

    /// Adds a local of the current function under a name unique among its locals and
    /// the globals.
    fn add_local(&mut self, mut var: Variable) -> VarId {
        let taken = |n: &str| self.f.names.contains(n) || self.global_names.contains(n);
        let name = if taken(&var.name) {
            let start = self.f.name_suffix.get(&var.name).map_or(1, |&n| n + 1);
            let mut text = String::with_capacity(var.name.len() + 4);
            let mut found = None;
            for n in start.. {
                text.clear();
                let _ = write!(text, "{}${n}", var.name);
                if !taken(&text) {
                    found = Some(n);
                    break;
                }
            }
            if let Some(n) = found {
                self.f.name_suffix.insert(std::mem::take(&mut var.name), n);
            }
            text
        } else {
            std::mem::take(&mut var.name)
        };
        self.f.names.insert(name.clone());
        var.name = name;
        let id = self.shader.variables.push(var);
        self.f.imp.locals.push(id);
        id
    }

    /// The function-temp variable of local `h`, created on first use.
    pub(crate) fn local(&mut self, h: Handle<hir::Variable>) -> Res<VarId> {
        if let Some(id) = self.f.locals.get(&h) {
            return Ok(*id);
        }
        // The module outlives `self`: borrow the variable rather than copy it.
        let m = self.m;
        let v = match m.variables.get(h) {
            Some(v) => v,
            None => return invalid("variable handle out of range"),
        };
        let ty = self.var_type(v)?;
        let mut var = Variable::new(&v.name, VarMode::FunctionTemp, ty);
        if v.read_only {
            if let Some(c) = &v.constant_value {
                var.init = Some(self.constant_words(c)?);
            }
        }
        let id = self.add_local(var);
        self.f.locals.insert(h, id);
        Ok(id)
    }

    /// A fresh function-temp variable.
    pub(crate) fn temp(&mut self, name: &str, ty: Type, init: Option<Vec<u64>>) -> VarId {
        let mut var = Variable::new(name, VarMode::FunctionTemp, ty);
        var.init = init;
        self.add_local(var)
    }

    // ------------------------------------------------------------ derefs

    pub(crate) fn deref(&mut self, kind: DerefKind, mode: VarMode, ty: Type) -> D {
        let def = self
            .b()
            .build(
                InstrKind::Deref(Deref {
                    kind,
                    mode,
                    ty: ty.clone(),
                }),
                Some((1, 32)),
            )
            .unwrap_or_else(unreachable_def);
        D { def, ty, mode }
    }

    /// `deref_var &var`.
    pub(crate) fn deref_var(&mut self, var: VarId) -> Res<D> {
        let Some(v) = self.shader.variables.get(var) else {
            return invalid("variable out of range");
        };
        let (mode, ty) = (v.mode, v.ty.clone());
        Ok(self.deref(DerefKind::Var(var), mode, ty))
    }

    /// `&(*p)[index]` on an array or matrix.
    pub(crate) fn deref_array(&mut self, p: &D, index: Def) -> Res<D> {
        let ty = match &p.ty {
            Type::Array(e, _) => (**e).clone(),
            Type::Matrix { rows, .. } => Type::Vector(BaseType::Float, *rows),
            _ => return invalid("array dereference of a non-array"),
        };
        let index = if self.bits(index) != 32 || self.comps(index) != 1 {
            return invalid("array index is not a 32-bit scalar");
        } else {
            index
        };
        Ok(self.deref(
            DerefKind::Array {
                parent: p.def,
                index,
            },
            p.mode,
            ty,
        ))
    }

    /// `&p->field`.
    pub(crate) fn deref_struct(&mut self, p: &D, field: u32) -> Res<D> {
        let Type::Struct(id) = &p.ty else {
            return invalid("record dereference of a non-struct");
        };
        let Some((_, ty)) = self.struct_fields(*id).get(field as usize).cloned() else {
            return invalid("record field out of range");
        };
        Ok(self.deref(
            DerefKind::Struct {
                parent: p.def,
                field,
            },
            p.mode,
            ty,
        ))
    }

    /// The deref of parameter `p` of the current function: `load_param` + cast.
    pub(crate) fn param_deref(&mut self, p: &Param) -> Res<D> {
        let Some(ptr) = self.b().intrinsic(
            IntrinsicOp::load_param,
            Vec::new(),
            1,
            vec![p.idx],
            Some((1, 32)),
        ) else {
            return invalid("load_param without a result");
        };
        Ok(self.deref(
            DerefKind::Cast {
                parent: ptr,
                ptr_stride: 0,
            },
            p.mode,
            p.ty.clone(),
        ))
    }

    /// The deref of a variable reference.
    pub(crate) fn var_ref(&mut self, h: Handle<hir::Variable>) -> Res<D> {
        if let Some(p) = self.f.params.get(&h).cloned() {
            return self.param_deref(&p);
        }
        if let Some(id) = self.f.locals.get(&h).copied() {
            return self.deref_var(id);
        }
        let v = self.hvar(h)?;
        let global = self.globals.contains_key(&h)
            || Self::is_global_mode(v.mode)
            || (v.is_builtin && matches!(v.mode, HMode::Auto | HMode::Temporary));
        if !global {
            let id = self.local(h)?;
            return self.deref_var(id);
        }
        match self.global(h)? {
            VarKind::Plain(id) => self.deref_var(id),
            VarKind::Member { var, field } => {
                let p = self.deref_var(var)?;
                self.deref_struct(&p, field)
            }
            VarKind::Split(_) => {
                let name = self.hvar(h)?.name.clone();
                unsupported(format!("whole-block access of interface block `{name}`"))
            }
        }
    }

    /// If `base.field` addresses a member of a split interface block, its deref.
    fn split_member(&mut self, base: Handle<hir::Expr>, field: u32) -> Res<Option<D>> {
        // `b.field`, `b[i].field` or `b[i][j].field`: the instance indices,
        // outermost first.
        let mut indices = Vec::new();
        let mut at = base;
        let root = loop {
            match &self.expr(at)?.kind {
                ExprKind::VarRef(h) => break *h,
                ExprKind::ArrayRef(b, i) => {
                    indices.push(*i);
                    at = *b;
                }
                _ => return Ok(None),
            }
        };
        indices.reverse();
        if self.f.params.contains_key(&root) || self.f.locals.contains_key(&root) {
            return Ok(None);
        }
        let v = self.hvar(root)?;
        if !matches!(v.mode, HMode::ShaderIn | HMode::ShaderOut) || v.interface_block.is_none() {
            return Ok(None);
        }
        let VarKind::Split(vars) = self.global(root)? else {
            return Ok(None);
        };
        let Some(var) = vars.get(field as usize).copied() else {
            return invalid("interface block member out of range");
        };
        let mut d = self.deref_var(var)?;
        for i in indices {
            let i = self.eval(i)?;
            d = self.deref_array(&d, i)?;
        }
        Ok(Some(d))
    }

    pub(crate) fn expr(&self, e: Handle<hir::Expr>) -> Res<&hir::Expr> {
        match self.m.exprs.get(e) {
            Some(x) => Ok(x),
            None => invalid("expression handle out of range"),
        }
    }

    /// The deref chain named by a dereference expression.
    pub(crate) fn deref_expr(&mut self, e: Handle<hir::Expr>) -> Res<D> {
        self.enter()?;
        let r = self.deref_expr_inner(e);
        self.leave();
        r
    }

    fn deref_expr_inner(&mut self, e: Handle<hir::Expr>) -> Res<D> {
        match self.expr(e)?.kind.clone() {
            ExprKind::VarRef(h) => self.var_ref(h),
            ExprKind::RecordRef(base, field) => {
                if let Some(d) = self.split_member(base, field)? {
                    return Ok(d);
                }
                let p = self.deref_expr(base)?;
                self.deref_struct(&p, field)
            }
            ExprKind::ArrayRef(base, index) => {
                let p = self.deref_expr(base)?;
                if p.ty.vector_components().is_some() {
                    return invalid("vector component used as a dereference");
                }
                let i = self.eval(index)?;
                self.deref_array(&p, i)
            }
            // A value that is not stored anywhere (a constant array, say) is first
            // placed in a temporary.
            _ => self.aggregate(e),
        }
    }

    /// Constant integer value of an index expression.
    pub(crate) fn const_index(&self, e: Handle<hir::Expr>) -> Option<i64> {
        match &self.m.exprs.get(e)?.kind {
            ExprKind::Constant(Constant::Components(v)) => match v.first()? {
                ScalarValue::Int(i) => Some(i64::from(*i)),
                ScalarValue::Uint(u) => Some(i64::from(*u)),
                _ => None,
            },
            _ => None,
        }
    }

    // ------------------------------------------------------------ access

    /// `load_deref` of a scalar/vector. Booleans load as 1-bit values in every mode;
    /// `lower_io` turns uniform/UBO boolean loads into 32-bit loads plus `b2b1`.
    pub(crate) fn load(&mut self, d: &D) -> Res<Def> {
        let (n, base) = match &d.ty {
            Type::Scalar(b) => (1, *b),
            Type::Vector(b, n) => (*n, *b),
            _ => return unsupported("load of an aggregate value"),
        };
        let bits = if base == BaseType::Bool { 1 } else { 32 };
        match self.b().intrinsic(
            IntrinsicOp::load_deref,
            vec![d.def],
            n,
            vec![0],
            Some((n, bits)),
        ) {
            Some(v) => Ok(v),
            None => invalid("load_deref without a result"),
        }
    }

    fn check_writable(&self, d: &D) -> Res<()> {
        if matches!(
            d.mode,
            VarMode::Uniform | VarMode::Ubo | VarMode::ShaderIn | VarMode::SystemValue
        ) {
            return invalid(format!(
                "store to a read-only {} variable",
                d.mode.deref_name()
            ));
        }
        Ok(())
    }

    /// `store_deref` of a value as wide as the deref's type, with a write mask.
    pub(crate) fn store(&mut self, d: &D, value: Def, mask: u8) -> Res<()> {
        self.check_writable(d)?;
        let n = self.comps(value);
        self.b().intrinsic(
            IntrinsicOp::store_deref,
            vec![d.def, value],
            n,
            vec![u32::from(mask), 0],
            None,
        );
        Ok(())
    }

    /// Whole-value copy between two derefs of the same type.
    pub(crate) fn copy(&mut self, dst: &D, src: &D) -> Res<()> {
        self.check_writable(dst)?;
        if dst.ty != src.ty {
            return invalid("copy between derefs of different types");
        }
        if let Some(n) = width(&dst.ty) {
            let v = self.load(src)?;
            return self.store(dst, v, ((1u16 << n) - 1) as u8);
        }
        self.b().intrinsic(
            IntrinsicOp::copy_deref,
            vec![dst.def, src.def],
            1,
            vec![0, 0],
            None,
        );
        Ok(())
    }

    /// Stores `value` into the lvalue `lhs` with the GLSL IR write mask `mask` (bit i =
    /// component i; the value holds one component per mask bit, or the full width).
    pub(crate) fn assign_value(&mut self, lhs: Handle<hir::Expr>, value: Def, mask: u8) -> Res<()> {
        if let ExprKind::ArrayRef(base, idx) = self.expr(lhs)?.kind.clone() {
            let base_ty = self.expr(base)?.ty.clone();
            if base_ty.is_vector() {
                let d = self.deref_expr(base)?;
                let n = width(&d.ty).unwrap_or(1);
                let scalar = self.channel(value, 0);
                return match self.const_index(idx) {
                    Some(c) if (0..i64::from(n)).contains(&c) => {
                        let full = self.splat(scalar, n);
                        self.store(&d, full, 1 << c)
                    }
                    Some(_) => Ok(()),
                    None => {
                        let old = self.load(&d)?;
                        let i = self.eval(idx)?;
                        let new = self.vector_insert(old, scalar, i)?;
                        self.store(&d, new, ((1u16 << n) - 1) as u8)
                    }
                };
            }
        }
        let d = self.deref_expr(lhs)?;
        let Some(n) = width(&d.ty) else {
            return invalid("scalar assignment to an aggregate");
        };
        let full = ((1u16 << n) - 1) as u8;
        let mask = if mask == 0 { full } else { mask & full };
        if mask == 0 {
            return Ok(());
        }
        let vc = self.comps(value);
        if mask == full && vc == n {
            return self.store(&d, value, full);
        }
        let swz: Vec<u8> = if vc == n {
            (0..n).collect()
        } else {
            let mut k = 0u8;
            (0..n)
                .map(|i| {
                    if mask & (1 << i) != 0 {
                        let c = k.min(vc.saturating_sub(1));
                        k += 1;
                        c
                    } else {
                        0
                    }
                })
                .collect()
        };
        let v = self.swizzle(value, &swz);
        self.store(&d, v, mask)
    }
}

fn unreachable_def() -> Def {
    <Def as rgl_nir::arena::EntityRef>::new(u32::MAX as usize)
}
