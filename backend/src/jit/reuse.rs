//! Per-thread reuse of Cranelift's compile contexts.
//!
//! `cranelift_codegen::Context` keeps the register allocator's working
//! memory (`regalloc2::Ctx`) and the function's tables between compiles, and
//! `cranelift_frontend::FunctionBuilderContext` its SSA-construction tables;
//! both documents ask to be reused "to avoid needless allocator thrashing".
//! A fresh pair per compile made `malloc`/`free` about a fifth of a tier-0
//! variant build's profile. Each thread that compiles (the drawing thread,
//! the tier worker, the compile pool) keeps one of each here: a compile takes
//! it ([`context`], [`builder`]), which leaves a fresh one for a nested or
//! concurrent compile on the same thread, and gives it back when it is done
//! ([`give_context`], [`give_builder`]). A compile that fails or unwinds
//! before giving back simply drops its context; the next compile on the
//! thread starts a new one, so no half-built state is ever reused.

use std::cell::RefCell;

use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;

thread_local! {
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
    static BUILDER: RefCell<Option<FunctionBuilderContext>> = const { RefCell::new(None) };
}

/// A cleared compile context: the thread's own when it is free.
pub(crate) fn context() -> Context {
    match CONTEXT.with(|c| c.borrow_mut().take()) {
        Some(mut ctx) => {
            ctx.clear();
            ctx
        }
        None => Context::new(),
    }
}

/// Gives `ctx` back to the thread for the next compile.
pub(crate) fn give_context(ctx: Context) {
    CONTEXT.with(|c| *c.borrow_mut() = Some(ctx));
}

/// An empty function-builder context: the thread's own when it is free.
/// `FunctionBuilder::finalize` leaves the context empty; one whose build
/// failed before that is not given back.
pub(crate) fn builder() -> FunctionBuilderContext {
    BUILDER.with(|c| c.borrow_mut().take()).unwrap_or_default()
}

/// Gives `fctx` back once `FunctionBuilder::finalize` has emptied it.
pub(crate) fn give_builder(fctx: FunctionBuilderContext) {
    BUILDER.with(|c| *c.borrow_mut() = Some(fctx));
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature, UserFuncName};
    use cranelift_frontend::FunctionBuilder;

    /// Compiles `fn(x: i64) -> i64 { x + k }` in the thread's contexts and
    /// returns its machine code.
    fn compile_add(k: i64) -> Vec<u8> {
        let isa = crate::jit::shared_isa(&crate::jit::JitOptions::default())
            .expect("the JIT runs on this host");
        let mut ctx = context();
        assert!(
            ctx.func.layout.blocks().next().is_none(),
            "context not cleared"
        );
        let mut sig = Signature::new(isa.default_call_conv());
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        ctx.func.signature = sig;
        ctx.func.name = UserFuncName::user(0, 0);
        let mut fctx = builder();
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let block = b.create_block();
            b.append_block_params_for_function_params(block);
            b.switch_to_block(block);
            b.seal_block(block);
            let x = b.block_params(block)[0];
            let c = b.ins().iconst(types::I64, k);
            let y = b.ins().iadd(x, c);
            b.ins().return_(&[y]);
            b.finalize(isa.frontend_config());
        }
        give_builder(fctx);
        let image = crate::jit::code::compile(&mut ctx, &*isa).expect("compiles");
        give_context(ctx);
        image.code
    }

    #[test]
    fn reused_contexts_compile_what_fresh_ones_do() {
        // The first compile on this thread takes fresh contexts, the others
        // reused ones: the same function must give the same code, another
        // function other code.
        let first = compile_add(3);
        let again = compile_add(3);
        let other = compile_add(0x1234);
        assert!(!first.is_empty());
        assert_eq!(first, again);
        assert_ne!(first, other);
        assert_eq!(compile_add(0x1234), other);
    }

    #[test]
    fn a_context_not_given_back_is_replaced() {
        let fresh = compile_add(7);
        // A compile that fails drops its contexts instead of giving them back.
        drop(context());
        drop(builder());
        assert_eq!(compile_add(7), fresh);
    }
}
