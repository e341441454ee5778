//! Draw-time shader variants (Mesa §3): the key of GL state that changes code
//! generation, and the per-context counters of variant hits, misses and build time.

use std::time::Duration;

use crate::names::Program;
use crate::Context;

/// Hit/miss counters of the variant cache, readable through
/// [`Context::variant_stats`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantStats {
    /// Draws whose variant was found in the cache.
    pub hits: u64,
    /// Draws that built a new variant.
    pub misses: u64,
    /// Total time spent building variants (finalisation + driver compile).
    pub build_time: Duration,
    /// Variants dropped because their program was relinked or deleted.
    pub invalidated: u64,
}

impl Context {
    /// The variant cache counters.
    pub fn variant_stats(&self) -> VariantStats {
        self.variant_stats
    }

    /// Drops every cached variant of `program` (relink or delete).
    pub(crate) fn variants_invalidate(&mut self, program: Program) {
        log::debug!("variants of program {} invalidated", program.name());
        self.variant_stats.invalidated += 1;
    }
}
