//! Atomic counter storage (GLSL 4.20 §4.4.4.6 "Atomic Counter Layout
//! Qualifiers", ARB_shader_atomic_counters): the binding and byte offset of
//! every `atomic_uint` uniform, the running offset per binding, and the
//! alignment, range and overlap rules.

use crate::span::SourceLoc;
use crate::types::Type;

use super::qualifiers::ResolvedQualifiers;
use super::{Checker, SemanticError};

impl Checker<'_> {
    /// Assigns the storage of atomic counter `name` of type `ty` (GLSL 4.20
    /// §4.4.4.6): the binding is required (Mesa: "atomic counters require
    /// explicit binding point") and below `gl_MaxAtomicCounterBindings`; the
    /// offset is the explicit `layout(offset)` (a multiple of 4) or the
    /// binding's running offset; the counter's bytes must not overlap another
    /// counter of the same binding. Returns the offset, `None` after an error.
    pub(super) fn allocate_atomic_counter(
        &mut self,
        name: &str,
        ty: &Type,
        resolved: &ResolvedQualifiers,
        loc: SourceLoc,
    ) -> Option<u32> {
        let binding = self.atomic_binding(resolved, loc)?;
        let start = match resolved.layout.offset {
            Some(offset) if offset % 4 != 0 => {
                self.error(loc, SemanticError::AtomicMisaligned);
                return None;
            }
            Some(offset) => offset,
            None => self.atomic_next_offset.get(&binding).copied().unwrap_or(0),
        };
        let Some(end) = start.checked_add(ty.atomic_size()) else {
            self.error(loc, SemanticError::AtomicOffsetOverflow(name.to_string()));
            return None;
        };
        let clash = self
            .atomic_ranges
            .iter()
            .find(|(b, s, e, _)| *b == binding && start < *e && *s < end)
            .map(|(_, _, _, other)| other.clone());
        if let Some(other) = clash {
            self.error(
                loc,
                SemanticError::AtomicOverlap(name.to_string(), start, other, binding),
            );
            return None;
        }
        self.atomic_ranges
            .push((binding, start, end, name.to_string()));
        self.atomic_next_offset.insert(binding, end);
        Some(start)
    }

    /// The `layout(binding)` of an atomic counter declaration, checked.
    fn atomic_binding(&mut self, resolved: &ResolvedQualifiers, loc: SourceLoc) -> Option<i32> {
        let Some(binding) = resolved.layout.binding else {
            self.error(loc, SemanticError::AtomicNoBinding);
            return None;
        };
        let max = crate::builtins::variables::limits::MAX_ATOMIC_COUNTER_BINDINGS;
        if binding >= max {
            self.error(loc, SemanticError::AtomicBindingRange(binding, max as u32));
            return None;
        }
        Some(binding)
    }

    /// `layout(binding = B, offset = N) uniform atomic_uint;`: the next
    /// counter of binding `B` without an explicit offset starts at `N`.
    pub(super) fn atomic_default_offset(&mut self, resolved: &ResolvedQualifiers, loc: SourceLoc) {
        let Some(binding) = self.atomic_binding(resolved, loc) else {
            return;
        };
        if let Some(offset) = resolved.layout.offset {
            if offset % 4 != 0 {
                self.error(loc, SemanticError::AtomicMisaligned);
                return;
            }
            self.atomic_next_offset.insert(binding, offset);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::{compile, CompileOptions};
    use crate::version::Stage;

    /// `(name, binding, offset)` of every atomic counter uniform of `source`.
    fn counters(source: &str) -> Vec<(String, Option<i32>, Option<u32>)> {
        let shader = compile(source, &CompileOptions::new(Stage::Fragment));
        assert!(shader.success(), "{:?}", shader.info_log);
        let module = shader.lir.expect("lowered IR");
        module
            .variables
            .iter()
            .filter(|(_, v)| {
                v.mode == crate::hir::VarMode::Uniform && v.ty.contains_atomic(&module.structs)
            })
            .map(|(_, v)| (v.name.clone(), v.binding, v.atomic_offset))
            .collect()
    }

    #[test]
    fn offsets_follow_the_running_offset_of_each_binding() {
        let got = counters(
            "#version 430\n\
             layout(binding = 0) uniform atomic_uint a;\n\
             layout(binding = 0) uniform atomic_uint b[3];\n\
             layout(binding = 1) uniform atomic_uint c;\n\
             layout(binding = 0) uniform atomic_uint d;\n\
             layout(binding = 0, offset = 32) uniform atomic_uint e;\n\
             layout(binding = 0) uniform atomic_uint f;\n\
             layout(binding = 3, offset = 12) uniform atomic_uint;\n\
             layout(binding = 3) uniform atomic_uint g[2][2];\n\
             out vec4 color;\n\
             void main() {\n\
               color = vec4(float(atomicCounter(a) + atomicCounter(b[2]) + atomicCounter(c)\n\
                 + atomicCounter(d) + atomicCounter(e) + atomicCounter(f) + atomicCounter(g[1][1])));\n\
             }\n",
        );
        let want: Vec<(String, Option<i32>, Option<u32>)> = [
            ("a", 0, 0),
            ("b", 0, 4),
            ("c", 1, 0),
            ("d", 0, 16),
            ("e", 0, 32),
            ("f", 0, 36),
            ("g", 3, 12),
        ]
        .iter()
        .map(|&(n, b, o)| (n.to_string(), Some(b), Some(o)))
        .collect();
        assert_eq!(got, want);
    }
}
