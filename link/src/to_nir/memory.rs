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

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{self, ExprKind};
use rgl_glsl::types::{ScalarKind, Type as GType};
use rgl_nir::intrinsics::{AtomicOp, IntrinsicOp, Scope, MEMORY_ACQ_REL};
use rgl_nir::ir::{BaseType, DerefKind, Type, VarMode};

use super::{invalid, unsupported, Conv, Res, D};

/// The built-in functions converted here.
pub(crate) fn is_memory_builtin(name: &str) -> bool {
    atomic_op(name, ScalarKind::Int).is_some()
        || name == "atomicCompSwap"
        || barrier_of(name).is_some()
}

/// The `atomic_op` of a non-swap atomic function on `kind` operands.
fn atomic_op(name: &str, kind: ScalarKind) -> Option<AtomicOp> {
    let signed = kind == ScalarKind::Int;
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
        let swap = name == "atomicCompSwap";
        let want = if swap { 3 } else { 2 };
        if args.len() != want {
            return invalid(format!("`{name}` with {} arguments", args.len()));
        }
        let kind = match self.expr(args[0])?.ty {
            GType::Scalar(k @ (ScalarKind::Int | ScalarKind::Uint)) => k,
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
        let (op, atomic) = if swap {
            (IntrinsicOp::deref_atomic_swap, AtomicOp::Cmpxchg)
        } else {
            match atomic_op(name, kind) {
                Some(a) => (IntrinsicOp::deref_atomic, a),
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
