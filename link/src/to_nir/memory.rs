//! The memory and compute built-in functions (Mesa's `glsl_to_nir.cpp` intrinsic
//! calls): the GLSL 4.30 §8.11 atomic memory functions on buffer and shared
//! variables, §8.15 `barrier()` and the §8.16 memory barriers.
//!
//! * `atomicAdd/Min/Max/And/Or/Xor/Exchange(mem, data)` become `deref_atomic` on the
//!   deref of `mem` with the matching `atomic_op` (`imin`/`umin` and `imax`/`umax` by
//!   the operand type), `atomicCompSwap(mem, compare, data)` becomes
//!   `deref_atomic_swap` with `cmpxchg`; both return the old value. A component of a
//!   vector (`v.y`, `v[i]`) is addressed with a `deref_array` on the vector.
//! * `barrier()` is a workgroup execution barrier that also orders shared memory
//!   (Mesa's `visit(ir_barrier *)` for compute: workgroup scopes, acquire-release,
//!   `shared`).
//! * `memoryBarrier*()` and `groupMemoryBarrier()` are memory-only barriers (no
//!   execution scope) with acquire-release semantics over the modes the function
//!   names, at device scope, or workgroup scope for `memoryBarrierShared` and
//!   `groupMemoryBarrier` (Mesa's `nir_intrinsic_memory_barrier_*` lowering).
//!   Atomic counters live in storage buffers (`nir_lower_atomics_to_ssbo`), so
//!   `memoryBarrierAtomicCounter` orders `ssbo`. Image memory has no NIR variable
//!   mode in rgl, so `memoryBarrierImage` orders storage-buffer memory, and
//!   `memoryBarrier`/`groupMemoryBarrier` order the storage-buffer and shared memory.
//! * The GLSL 4.20 §8.10 atomic counter functions and the
//!   ARB_shader_atomic_counter_ops ones become storage-buffer intrinsics, as Mesa's
//!   `nir_lower_atomics_to_ssbo` does: counter buffer binding `k` is block
//!   `ATOMIC_COUNTER_BLOCK_BASE + k` ([`rgl_nir::options::storage_bindings`]) and
//!   the counter's byte offset is its `layout(offset)` plus 4 × its flattened
//!   (row-major) index in an array or array of arrays. `atomicCounter` is a plain
//!   32-bit `load_ssbo` (as in Mesa: an aligned word load is single-copy atomic);
//!   `atomicCounterIncrement` is `ssbo_atomic iadd 1` returning the old value;
//!   `atomicCounterDecrement` is `ssbo_atomic iadd -1` whose old value minus one is
//!   returned (§8.10: the decrement returns the new value);
//!   `atomicCounterAddARB`/`SubtractARB` are `iadd` of the operand / its negation,
//!   `MinARB`/`MaxARB` are `umin`/`umax`, `And`/`Or`/`Xor`/`ExchangeARB` the matching
//!   op, `CompSwapARB` is `ssbo_atomic_swap` with `cmpxchg`; all these return the old
//!   value. Counter uniforms never become NIR variables. A counter passed to a user
//!   function travels as a `uvec2(block, offset)` in the parameter's temporary.

use rgl_glsl::arena::Handle;
use rgl_glsl::builtins::{atomic_counter_op, AtomicCounterOp};
use rgl_glsl::hir::{self, ExprKind};
use rgl_glsl::types::{ScalarKind, Type as GType};
use rgl_nir::intrinsics::{AtomicOp, IntrinsicOp, Scope, MEMORY_ACQ_REL};
use rgl_nir::ir::{BaseType, Def, DerefKind, Type, VarMode};
use rgl_nir::opcodes::Opcode;
use rgl_nir::options::storage_bindings::{
    ATOMIC_COUNTER_BLOCK_BASE, MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
};

use super::{invalid, unsupported, Conv, Res, D};

/// The built-in functions converted here.
pub(crate) fn is_memory_builtin(name: &str) -> bool {
    atomic_op(name, ScalarKind::Int).is_some()
        || name == "atomicCompSwap"
        || barrier_of(name).is_some()
        || atomic_counter_op(name).is_some()
}

/// The `atomic_op` of a non-swap atomic function on `kind` operands.
fn atomic_op(name: &str, kind: ScalarKind) -> Option<AtomicOp> {
    let signed = kind == ScalarKind::Int;
    if kind == ScalarKind::Float {
        // NV_shader_atomic_float: add and exchange;
        // INTEL_shader_atomic_float_minmax: min and max (Mesa's fmin/fmax
        // atomic ops).
        return match name {
            "atomicAdd" => Some(AtomicOp::Fadd),
            "atomicExchange" => Some(AtomicOp::Xchg),
            "atomicMin" => Some(AtomicOp::Fmin),
            "atomicMax" => Some(AtomicOp::Fmax),
            _ => None,
        };
    }
    Some(match name {
        "atomicAdd" => AtomicOp::Iadd,
        "atomicMin" if signed => AtomicOp::Imin,
        "atomicMin" => AtomicOp::Umin,
        "atomicMax" if signed => AtomicOp::Imax,
        "atomicMax" => AtomicOp::Umax,
        "atomicAnd" => AtomicOp::Iand,
        "atomicOr" => AtomicOp::Ior,
        "atomicXor" => AtomicOp::Ixor,
        "atomicExchange" => AtomicOp::Xchg,
        _ => return None,
    })
}

/// A barrier: (execution scope, memory scope, memory modes).
fn barrier_of(name: &str) -> Option<(Scope, Scope, u32)> {
    let ssbo = VarMode::Ssbo.bit();
    let shared = VarMode::Shared.bit();
    Some(match name {
        "barrier" => (Scope::Workgroup, Scope::Workgroup, shared),
        "memoryBarrier" => (Scope::None, Scope::Device, ssbo | shared),
        "memoryBarrierAtomicCounter" | "memoryBarrierBuffer" | "memoryBarrierImage" => {
            (Scope::None, Scope::Device, ssbo)
        }
        "memoryBarrierShared" => (Scope::None, Scope::Workgroup, shared),
        "groupMemoryBarrier" => (Scope::None, Scope::Workgroup, ssbo | shared),
        _ => return None,
    })
}

impl Conv<'_> {
    /// Converts a call of the memory built-in `name` (see [`is_memory_builtin`]):
    /// `args` are the actual parameters, `return_deref` where the result goes.
    pub(crate) fn memory_call(
        &mut self,
        name: &str,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        if let Some((exec, mem, modes)) = barrier_of(name) {
            if !args.is_empty() {
                return invalid(format!("`{name}` with arguments"));
            }
            self.b().intrinsic(
                IntrinsicOp::barrier,
                vec![],
                0,
                vec![exec.code(), mem.code(), MEMORY_ACQ_REL, modes],
                None,
            );
            return Ok(());
        }
        if let Some(op) = atomic_counter_op(name) {
            return self.counter_call(name, op, return_deref, args);
        }
        let swap = name == "atomicCompSwap";
        let want = if swap { 3 } else { 2 };
        if args.len() != want {
            return invalid(format!("`{name}` with {} arguments", args.len()));
        }
        let kind = match self.expr(args[0])?.ty {
            GType::Scalar(k @ (ScalarKind::Int | ScalarKind::Uint | ScalarKind::Float)) => k,
            ref t => {
                return invalid(format!(
                    "`{name}` on a {} value",
                    t.display(&self.m.structs)
                ))
            }
        };
        let mem = self.atomic_deref(args[0])?;
        if !matches!(mem.mode, VarMode::Ssbo | VarMode::Shared) {
            // The front end checked that the argument names buffer or shared
            // memory (GLSL 4.30 §8.11); a swizzled component (`v.y`) reaches here
            // as a copy in a temporary, which an atomic cannot update in place.
            return unsupported(format!(
                "`{name}` whose memory argument reaches glsl_to_nir as a {} copy (a swizzled vector component); index the component instead (`v[1]`)",
                mem.mode.deref_name()
            ));
        }
        let mut srcs = vec![mem.def];
        for a in &args[1..] {
            let v = self.eval(*a)?;
            if self.comps(v) != 1 || self.bits(v) != 32 {
                return invalid(format!("`{name}` data is not a 32-bit scalar"));
            }
            srcs.push(v);
        }
        let (op, atomic) = if swap && kind == ScalarKind::Float {
            // A float compare-and-swap compares values (-0 == +0), not bits:
            // Mesa's fcmpxchg.
            (IntrinsicOp::deref_atomic_swap, AtomicOp::Fcmpxchg)
        } else if swap {
            (IntrinsicOp::deref_atomic_swap, AtomicOp::Cmpxchg)
        } else {
            match atomic_op(name, kind) {
                Some(a) => (IntrinsicOp::deref_atomic, a),
                None if kind == ScalarKind::Float => {
                    return unsupported(format!("`{name}` on float memory"));
                }
                None => return invalid(format!("`{name}` is not an atomic function")),
            }
        };
        let Some(old) = self
            .b()
            .intrinsic(op, srcs, 1, vec![0, atomic.code()], Some((1, 32)))
        else {
            return invalid(format!("`{name}` without a result"));
        };
        if let Some(r) = return_deref {
            self.assign_value(r, old, 1)?;
        }
        Ok(())
    }

    /// Converts the atomic counter function `name` (operation `op`) on the counter
    /// `args[0]` with the `uint` operands `args[1..]`.
    fn counter_call(
        &mut self,
        name: &str,
        op: AtomicCounterOp,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        use AtomicCounterOp as C;
        let want = match op {
            C::Increment | C::Decrement | C::Read => 1,
            C::CompSwap => 3,
            _ => 2,
        };
        if args.len() != want {
            return invalid(format!("`{name}` with {} arguments", args.len()));
        }
        let (block, offset) = self.counter_address(args[0])?;
        let mut data = Vec::with_capacity(2);
        for a in &args[1..] {
            let v = self.eval(*a)?;
            if self.comps(v) != 1 || self.bits(v) != 32 {
                return invalid(format!("`{name}` operand is not a 32-bit scalar"));
            }
            data.push(v);
        }
        let (intrinsic, atomic, operands) = match op {
            C::Read => {
                let Some(v) = self.b().intrinsic(
                    IntrinsicOp::load_ssbo,
                    vec![block, offset],
                    1,
                    vec![0, 4, 0],
                    Some((1, 32)),
                ) else {
                    return invalid(format!("`{name}` without a result"));
                };
                return self.counter_result(return_deref, v);
            }
            C::Increment => (
                IntrinsicOp::ssbo_atomic,
                AtomicOp::Iadd,
                vec![self.imm_i(1)],
            ),
            C::Decrement => (
                IntrinsicOp::ssbo_atomic,
                AtomicOp::Iadd,
                vec![self.imm_i(-1)],
            ),
            C::Add => (IntrinsicOp::ssbo_atomic, AtomicOp::Iadd, data),
            C::Subtract => {
                let negated = self.alu(Opcode::ineg, &data, 1);
                (IntrinsicOp::ssbo_atomic, AtomicOp::Iadd, vec![negated])
            }
            C::Min => (IntrinsicOp::ssbo_atomic, AtomicOp::Umin, data),
            C::Max => (IntrinsicOp::ssbo_atomic, AtomicOp::Umax, data),
            C::And => (IntrinsicOp::ssbo_atomic, AtomicOp::Iand, data),
            C::Or => (IntrinsicOp::ssbo_atomic, AtomicOp::Ior, data),
            C::Xor => (IntrinsicOp::ssbo_atomic, AtomicOp::Ixor, data),
            C::Exchange => (IntrinsicOp::ssbo_atomic, AtomicOp::Xchg, data),
            C::CompSwap => (IntrinsicOp::ssbo_atomic_swap, AtomicOp::Cmpxchg, data),
        };
        let mut srcs = vec![block, offset];
        srcs.extend(operands);
        let Some(old) =
            self.b()
                .intrinsic(intrinsic, srcs, 0, vec![0, atomic.code()], Some((1, 32)))
        else {
            return invalid(format!("`{name}` without a result"));
        };
        let result = if op == C::Decrement {
            let minus_one = self.imm_i(-1);
            self.alu(Opcode::iadd, &[old, minus_one], 1)
        } else {
            old
        };
        self.counter_result(return_deref, result)
    }

    /// Stores a counter function's `uint` result where the call wants it.
    fn counter_result(&mut self, return_deref: Option<Handle<hir::Expr>>, v: Def) -> Res<()> {
        match return_deref {
            Some(r) => self.assign_value(r, v, 1),
            None => Ok(()),
        }
    }

    /// The storage address `(block, byte offset)` of the atomic counter named by
    /// `e`: an `atomic_uint` uniform, an element of an array (of arrays) of them
    /// (constant or dynamic indices), or an `atomic_uint` parameter of the
    /// current function (its `uvec2(block, offset)` temporary).
    pub(crate) fn counter_address(&mut self, e: Handle<hir::Expr>) -> Res<(Def, Def)> {
        let mut indices = Vec::new();
        let mut cur = e;
        let var = loop {
            match self.expr(cur)?.kind {
                ExprKind::ArrayRef(base, index) => {
                    if indices.len() >= 64 {
                        return invalid("atomic counter array nested deeper than 64");
                    }
                    indices.push(index);
                    cur = base;
                }
                ExprKind::VarRef(v) => break v,
                _ => return invalid("atomic counter argument is not a counter variable"),
            }
        };
        indices.reverse();
        if let Some(p) = self.f.params.get(&var).cloned() {
            if !indices.is_empty() {
                return unsupported(
                    "an element of an atomic counter array passed as a function parameter",
                );
            }
            let d = self.param_deref(&p)?;
            let v = self.load(&d)?;
            if self.comps(v) != 2 {
                return invalid("atomic counter parameter is not a counter address");
            }
            let block = self.swizzle(v, &[0]);
            let offset = self.swizzle(v, &[1]);
            return Ok((block, offset));
        }
        let Some(v) = self.m.variables.get(var) else {
            return invalid("variable handle out of range");
        };
        let (Some(binding), Some(base)) = (v.binding, v.atomic_offset) else {
            return invalid(format!(
                "atomic counter `{}` without a binding and offset",
                v.name
            ));
        };
        let binding = match u32::try_from(binding) {
            Ok(b) if b < MAX_ATOMIC_COUNTER_BUFFER_BINDINGS => b,
            _ => {
                return invalid(format!(
                    "atomic counter `{}` has binding {binding}, outside 0..{MAX_ATOMIC_COUNTER_BUFFER_BINDINGS}",
                    v.name
                ))
            }
        };
        // Byte stride of each array level: 4 × the counters one element holds.
        let mut strides = Vec::with_capacity(indices.len());
        let mut ty = v.ty.clone();
        for _ in &indices {
            let rgl_glsl::types::Type::Array(elem, _) = ty else {
                return invalid("atomic counter indexed deeper than its array");
            };
            strides.push(elem.atomic_size());
            ty = *elem;
        }
        let mut konst = u64::from(base);
        let mut dynamic: Option<Def> = None;
        for (index, stride) in indices.iter().zip(strides) {
            match self.const_index(*index) {
                Some(i) if i >= 0 => {
                    konst = konst.saturating_add((i as u64).saturating_mul(u64::from(stride)))
                }
                Some(i) => return invalid(format!("atomic counter array index {i}")),
                None => {
                    let i = self.eval(*index)?;
                    if self.comps(i) != 1 || self.bits(i) != 32 {
                        return invalid("atomic counter array index is not a 32-bit scalar");
                    }
                    let s = self.b().load_const(32, vec![u64::from(stride)]);
                    let term = self.alu(Opcode::imul, &[i, s], 1);
                    dynamic = Some(match dynamic {
                        Some(d) => self.alu(Opcode::iadd, &[d, term], 1),
                        None => term,
                    });
                }
            }
        }
        let Ok(konst) = u32::try_from(konst) else {
            return invalid("atomic counter offset beyond 4 GiB");
        };
        let block = self
            .b()
            .load_const(32, vec![u64::from(ATOMIC_COUNTER_BLOCK_BASE + binding)]);
        let k = self.b().load_const(32, vec![u64::from(konst)]);
        let offset = match dynamic {
            Some(d) => self.alu(Opcode::iadd, &[d, k], 1),
            None => k,
        };
        Ok((block, offset))
    }

    /// The deref of an atomic function's memory argument: a buffer/shared scalar,
    /// possibly one component of a vector (`v.y` or `v[i]`).
    fn atomic_deref(&mut self, e: Handle<hir::Expr>) -> Res<D> {
        let (base, index) = match self.expr(e)?.kind.clone() {
            ExprKind::Swizzle(base, sw) if sw.len == 1 => {
                (base, ComponentIndex::Const(sw.components[0]))
            }
            ExprKind::ArrayRef(base, i) if self.expr(base)?.ty.is_vector() => {
                (base, ComponentIndex::Dynamic(i))
            }
            _ => return self.deref_expr(e),
        };
        let v = self.deref_expr(base)?;
        let Type::Vector(b, n) = v.ty else {
            return invalid("component of a non-vector");
        };
        let index = match index {
            ComponentIndex::Const(c) if c < n => self.imm_i(i32::from(c)),
            ComponentIndex::Const(c) => return invalid(format!("component {c} of a vec{n}")),
            ComponentIndex::Dynamic(i) => self.eval(i)?,
        };
        Ok(self.vector_component_deref(&v, index, b))
    }

    /// `&(*v)[index]` on a vector deref: its scalar component.
    fn vector_component_deref(&mut self, v: &D, index: rgl_nir::ir::Def, b: BaseType) -> D {
        self.deref(
            DerefKind::Array {
                parent: v.def,
                index,
            },
            v.mode,
            Type::Scalar(b),
        )
    }
}

/// Which component of a vector an atomic's memory argument names.
enum ComponentIndex {
    Const(u8),
    Dynamic(Handle<hir::Expr>),
}
