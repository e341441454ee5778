//! What a shader declares about subroutines (GLSL 4.00 §6.1.2,
//! ARB_shader_subroutine), kept beside the IR for the linker and the GL API.
//!
//! The IR itself has no subroutine construct. As Mesa's `lower_subroutine`
//! does, the checker turns each subroutine uniform into a `uint` uniform
//! holding the selected function's index, and each call through it into a call
//! of a per-type dispatch function (`__subroutine_<type>`) that compares the
//! index against every compatible function's and calls the one that matches.
//!
//! The records name things rather than hold handles, so they stay valid when
//! the linker merges or prunes the module.

/// The prefix of the `uint` uniform that stores a subroutine uniform's
/// selection (Mesa names it `__subu_<name>` too). The GL API lists these as
/// subroutine uniforms, never as ordinary uniforms.
pub const SUBROUTINE_UNIFORM_PREFIX: &str = "__subu_";

/// The name of the `uint` uniform holding the selection of subroutine uniform
/// `name` of `stage`: subroutine uniforms belong to one stage (GL 4.x §7.10),
/// so the stage is part of the name and equal names in two stages stay apart.
pub fn storage_name(stage: crate::Stage, name: &str) -> String {
    format!("{SUBROUTINE_UNIFORM_PREFIX}{}_{name}", stage.name())
}

/// The prefix of a subroutine type's dispatch function.
pub const DISPATCH_PREFIX: &str = "__subroutine_";

/// The subroutine declarations of one shader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subroutines {
    /// Subroutine types, in declaration order.
    pub types: Vec<SubroutineType>,
    /// Functions with a `subroutine(...)` qualifier, in declaration order.
    pub functions: Vec<SubroutineFunction>,
    /// Subroutine uniforms, in declaration order.
    pub uniforms: Vec<SubroutineUniform>,
}

impl Subroutines {
    /// True when the shader declares no subroutine type.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty() && self.functions.is_empty() && self.uniforms.is_empty()
    }

    /// The indices of the functions compatible with type `ty`, ascending.
    pub fn compatible(&self, ty: usize) -> Vec<u32> {
        let mut list: Vec<u32> = self
            .functions
            .iter()
            .filter(|f| f.types.contains(&ty))
            .map(|f| f.index)
            .collect();
        list.sort_unstable();
        list
    }
}

/// `subroutine vec4 T(vec2);`
#[derive(Clone, Debug, PartialEq)]
pub struct SubroutineType {
    /// The type's name; its dispatch function is [`DISPATCH_PREFIX`] + name.
    pub name: String,
}

/// `subroutine(T1, T2) vec4 f(vec2 p) { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct SubroutineFunction {
    /// The function's name.
    pub name: String,
    /// Its index (`layout(index = N)` or assigned), per stage.
    pub index: u32,
    /// The types it implements (indices into [`Subroutines::types`]).
    pub types: Vec<usize>,
}

/// `layout(location = L) subroutine uniform T name[N];`
#[derive(Clone, Debug, PartialEq)]
pub struct SubroutineUniform {
    /// The name the shader wrote; the `uint` uniform that holds the selected
    /// index of each element is [`storage_name`].
    pub name: String,
    /// Its subroutine type (index into [`Subroutines::types`]).
    pub ty: usize,
    /// The location of its first element; the elements follow.
    pub location: u32,
    /// The array dimensions, outermost first; empty for a single uniform.
    pub dims: Vec<u32>,
}

impl SubroutineUniform {
    /// The number of locations it takes (GL 4.x §7.10: an array takes one per
    /// element).
    pub fn size(&self) -> u32 {
        self.dims.iter().fold(1u32, |n, d| n.saturating_mul(*d))
    }
}
