//! Atomic counter buffers at link time (Mesa's `link_atomics` and
//! `link_check_atomic_counter_resources`): the program's active counters grouped
//! by atomic counter buffer binding (GL 4.2 §7.7 "Atomic Counter Buffers"), the
//! overlap check across stages, and the GL 4.2 per-stage and combined limits on
//! counters and counter buffers.
//!
//! A counter is active in a stage when that stage's `main` reaches a use of it.
//! The front end has already placed every counter (binding and byte offset,
//! GLSL 4.20 §4.4.4.6); `glsl_to_nir` addresses it as block
//! `ATOMIC_COUNTER_BLOCK_BASE + binding` at that offset, so the list here is what
//! the state tracker binds.

use std::collections::BTreeMap;

use rgl_glsl::builtins::variables::limits;
use rgl_glsl::hir::VarMode;
use rgl_glsl::Stage;

use super::usage::{analyze, globals};
use crate::error::LinkError;
use crate::program::{AtomicCounter, AtomicCounterBuffer, LinkedStage};

/// `GL_MAX_<stage>_ATOMIC_COUNTERS` of `stage` (the front end's
/// `gl_Max*AtomicCounters`).
pub fn max_stage_counters(stage: Stage) -> u32 {
    let n = match stage {
        Stage::Compute => limits::MAX_COMPUTE_ATOMIC_COUNTERS,
        _ => limits::MAX_STAGE_ATOMIC_COUNTERS,
    };
    n.max(0) as u32
}

/// `GL_MAX_<stage>_ATOMIC_COUNTER_BUFFERS` of `stage`.
pub fn max_stage_buffers(stage: Stage) -> u32 {
    let n = match stage {
        Stage::Compute => limits::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS,
        _ => limits::MAX_STAGE_ATOMIC_COUNTER_BUFFERS,
    };
    n.max(0) as u32
}

/// `GL_MAX_COMBINED_ATOMIC_COUNTERS`.
pub const MAX_COMBINED_ATOMIC_COUNTERS: u32 = limits::MAX_COMBINED_ATOMIC_COUNTERS as u32;
/// `GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS`.
pub const MAX_COMBINED_ATOMIC_COUNTER_BUFFERS: u32 =
    limits::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS as u32;

/// The active atomic counter buffers of `stages`, ordered by binding, each with
/// its active counters ordered by offset (a counter declared in several stages
/// is listed once, with every referencing stage). Overlapping counters are
/// kept; [`check_atomic_counters`] reports them.
pub fn atomic_counter_buffers<'a>(
    stages: impl Iterator<Item = &'a LinkedStage>,
) -> Vec<AtomicCounterBuffer> {
    let mut by_binding: BTreeMap<u32, AtomicCounterBuffer> = BTreeMap::new();
    for st in stages {
        let m = &st.hir;
        let usage = analyze(m);
        let bit = 1u32 << st.stage as u32;
        for h in globals(m) {
            let v = &m.variables[h];
            if v.mode != VarMode::Uniform || !v.ty.contains_atomic(&m.structs) {
                continue;
            }
            if !usage.referenced(h) {
                continue;
            }
            let (Some(binding), Some(offset)) = (v.binding, v.atomic_offset) else {
                continue;
            };
            let Ok(binding) = u32::try_from(binding) else {
                continue;
            };
            let size = v.ty.atomic_size();
            let array_size = size / 4;
            let buf = by_binding
                .entry(binding)
                .or_insert_with(|| AtomicCounterBuffer {
                    binding,
                    data_size: 0,
                    counters: Vec::new(),
                    stages: 0,
                });
            buf.stages |= bit;
            buf.data_size = buf.data_size.max(offset.saturating_add(size));
            match buf
                .counters
                .iter_mut()
                .find(|c| c.name == v.name && c.offset == offset && c.array_size == array_size)
            {
                Some(c) => c.stages |= bit,
                None => buf.counters.push(AtomicCounter {
                    name: v.name.clone(),
                    offset,
                    array_size,
                    stages: bit,
                }),
            }
        }
    }
    let mut out: Vec<AtomicCounterBuffer> = by_binding.into_values().collect();
    for b in &mut out {
        b.counters.sort_by_key(|c| c.offset);
    }
    out
}

/// Mesa's `link_atomics` checks: two different counters of one binding whose
/// storage overlaps (declared in different stages; the front end rejects an
/// overlap within one stage), and the GL 4.2 limits on counters and counter
/// buffers per stage and combined (an array counts each element).
pub(crate) fn check_atomic_counters<'a>(
    stages: impl Iterator<Item = &'a LinkedStage> + Clone,
    errors: &mut Vec<LinkError>,
) {
    let buffers = atomic_counter_buffers(stages.clone());
    for b in &buffers {
        for (i, a) in b.counters.iter().enumerate() {
            let a_end = a.offset.saturating_add(a.array_size.saturating_mul(4));
            if let Some(other) = b.counters[i + 1..].iter().find(|c| c.offset < a_end) {
                errors.push(LinkError::AtomicCounterOverlap(
                    other.name.clone(),
                    other.offset,
                ));
            }
        }
    }
    let (mut total_counters, mut total_buffers) = (0u64, 0u64);
    for st in stages {
        let bit = 1u32 << st.stage as u32;
        let (mut counters, mut used) = (0u64, 0u64);
        for b in buffers.iter().filter(|b| b.stages & bit != 0) {
            used += 1;
            counters += b
                .counters
                .iter()
                .filter(|c| c.stages & bit != 0)
                .map(|c| u64::from(c.array_size))
                .sum::<u64>();
        }
        if counters > u64::from(max_stage_counters(st.stage)) {
            errors.push(LinkError::TooManyAtomicCounters(st.stage.name()));
        }
        if used > u64::from(max_stage_buffers(st.stage)) {
            errors.push(LinkError::TooManyAtomicCounterBuffers(st.stage.name()));
        }
        total_counters += counters;
        total_buffers += used;
    }
    if total_counters > u64::from(MAX_COMBINED_ATOMIC_COUNTERS) {
        errors.push(LinkError::TooManyCombinedAtomicCounters);
    }
    if total_buffers > u64::from(MAX_COMBINED_ATOMIC_COUNTER_BUFFERS) {
        errors.push(LinkError::TooManyCombinedAtomicCounterBuffers);
    }
}
