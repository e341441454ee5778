//! `lower_builtins`: inlines every call of a built-in function signature
//! (`Signature::builtin`) with the statements
//! [`crate::builtins::expand_call`] produces. Expansions may call further
//! built-ins, so the pass repeats (a bounded number of times) until no call is
//! left. A built-in the table cannot expand (an empty expansion) keeps its
//! call, which the checker-level info log never sees but later stages can.

use crate::hir::{Module, Stmt};

use super::visit::rewrite_bodies;
use super::Pass;

/// Rounds of inlining before giving up on built-ins that expand into calls of
/// further built-ins.
const MAX_ROUNDS: usize = 8;

/// Mesa's `lower_builtins`.
pub struct LowerBuiltins;

impl Pass for LowerBuiltins {
    fn name(&self) -> &'static str {
        "lower_builtins"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        for _ in 0..MAX_ROUNDS {
            let mut round = false;
            rewrite_bodies(module, &mut |module, stmt| {
                // Only a call of a built-in signature is copied out of the
                // arena; every other statement is looked at in place.
                let Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } = module.stmts.get(stmt)?
                else {
                    return None;
                };
                let id = module
                    .functions
                    .get(*function)?
                    .signatures
                    .get(*signature)?
                    .builtin?;
                let (return_deref, args) = (*return_deref, args.clone());
                let expansion = crate::builtins::expand_call(id, module, return_deref, &args);
                if expansion.is_empty() {
                    return None;
                }
                round = true;
                Some(expansion)
            });
            if !round {
                break;
            }
            progress = true;
        }
        progress
    }
}
