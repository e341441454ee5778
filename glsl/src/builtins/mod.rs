//! Built-in functions, variables and constants of GLSL 1.10–3.30 and ES
//! 1.00/3.00, declared once in tables with their availability (version, profile,
//! stage, extension), plus the expansion of each built-in function into GLSL IR
//! used by `lower_builtins` and by constant folding.

/// Identifies one built-in function signature in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinId(pub u32);
