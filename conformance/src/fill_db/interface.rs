//! What a fragment shader takes from outside, read from rgl's own front end
//! (`rgl_glsl::compile`, the checked GLSL IR): the user inputs it reads (type,
//! array size, interpolation, `centroid`, `invariant`), the compatibility
//! built-in inputs it reads (`gl_TexCoord[]`, `gl_Color`, `gl_SecondaryColor`,
//! `gl_FogFragCoord`), and every uniform it declares, flattened to the leaves
//! that `glUniform*` sets one at a time (array elements, struct and block
//! members, with the names `glGetUniformLocation` / `glGetUniformIndices`
//! take, GL 4.6 §7.3.1.1), samplers apart.

use rgl_glsl::ast::Interpolation;
use rgl_glsl::hir::{Module, VarMode, Variable};
use rgl_glsl::types::{SamplerType, ScalarKind, StructArena, Type};
use rgl_glsl::{compile, CompileOptions, Stage, Version};

use super::GenerateError;

/// `gl_MaxTextureCoords` of rgl (and of Mesa): the `gl_TexCoord[]` entries a
/// vertex shader writes when the fragment shader indexes the array with a
/// non-constant expression.
pub const MAX_TEXTURE_COORDS: u32 = 8;

/// Largest uniform array this generator expands element by element.
pub const MAX_UNIFORM_LEAVES: usize = 4096;

/// A numeric type without its array: scalar (`cols == rows == 1`), vector
/// (`cols == 1`) or float matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Base kind of the components.
    pub kind: ScalarKind,
    /// Matrix columns (1 for scalars and vectors).
    pub cols: u8,
    /// Components of a vector, or rows of a matrix column.
    pub rows: u8,
}

impl Shape {
    fn of(ty: &Type) -> Option<Shape> {
        match *ty {
            Type::Scalar(kind) => Some(Shape {
                kind,
                cols: 1,
                rows: 1,
            }),
            Type::Vector(kind, n) => Some(Shape {
                kind,
                cols: 1,
                rows: n,
            }),
            Type::Matrix { columns, rows } => Some(Shape {
                kind: ScalarKind::Float,
                cols: columns,
                rows,
            }),
            _ => None,
        }
    }

    /// The GLSL type name (`vec3`, `ivec2`, `mat3x4`, `float`).
    pub fn glsl_name(self) -> String {
        match (self.cols, self.rows) {
            (1, 1) => self.kind.name().to_string(),
            (1, n) => format!("{}vec{n}", self.kind.vector_prefix()),
            (c, r) if c == r => format!("mat{c}"),
            (c, r) => format!("mat{c}x{r}"),
        }
    }
}

/// A user-declared fragment shader input the shader reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Its name.
    pub name: String,
    /// Element type.
    pub shape: Shape,
    /// Array length, for an array input.
    pub array: Option<u32>,
    /// `flat` / `smooth` / `noperspective`, when written.
    pub interpolation: Option<Interpolation>,
    /// `centroid`.
    pub centroid: bool,
    /// `invariant`.
    pub invariant: bool,
}

/// The compatibility-profile built-in inputs the shader reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuiltinInputs {
    /// How many `gl_TexCoord[]` entries the vertex shader must write (0: none).
    pub tex_coords: u32,
    /// `gl_Color` (written as `gl_FrontColor`).
    pub color: bool,
    /// `gl_SecondaryColor` (written as `gl_FrontSecondaryColor`).
    pub secondary_color: bool,
    /// `gl_FogFragCoord`.
    pub fog_frag_coord: bool,
}

/// One value `glUniform*` sets: a non-sampler uniform, or one element or
/// member of an aggregate one.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformLeaf {
    /// The name GL looks it up by (`c`, `a[2]`, `s.f`, `Block.m[1]`).
    pub name: String,
    /// Its type.
    pub shape: Shape,
}

/// One sampler uniform (or element of a sampler array).
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerLeaf {
    /// The name GL looks it up by (`tex`, `tex[1]`, `s.tex`).
    pub name: String,
    /// Its type.
    pub ty: SamplerType,
}

/// Everything the fragment shader reads from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    /// The shader's effective `#version` and profile.
    pub version: Version,
    /// User inputs it reads, in declaration order.
    pub inputs: Vec<Input>,
    /// Compatibility built-in inputs it reads.
    pub builtins: BuiltinInputs,
    /// Non-sampler uniform leaves, in declaration order.
    pub uniforms: Vec<UniformLeaf>,
    /// Sampler leaves, in declaration order.
    pub samplers: Vec<SamplerLeaf>,
}

/// Built-in fragment inputs that need nothing from the vertex shader.
const SYSTEM_INPUTS: &[&str] = &[
    "gl_FragCoord",
    "gl_FrontFacing",
    "gl_PointCoord",
    "gl_PrimitiveID",
    "gl_SampleID",
    "gl_SamplePosition",
    "gl_SampleMaskIn",
];

/// Compiles `source` as a fragment shader and reads its interface.
pub fn read(source: &str) -> Result<Interface, GenerateError> {
    // The interface is read from the checker's IR, before lowering removes
    // what the shader declares but does not use.
    let options = CompileOptions {
        keep_hir: true,
        ..CompileOptions::new(Stage::Fragment)
    };
    let compiled = compile(source, &options);
    if !compiled.success() {
        let first = compiled
            .info_log
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map_or_else(|| "no error in the info log".to_string(), |d| d.to_string());
        return Err(GenerateError::Compile(first));
    }
    let Some(module) = compiled.hir.as_ref() else {
        return Err(GenerateError::Compile(
            "the front end kept no IR for a successful compile".into(),
        ));
    };
    let mut interface = Interface {
        version: compiled.version,
        inputs: Vec::new(),
        builtins: BuiltinInputs::default(),
        uniforms: Vec::new(),
        samplers: Vec::new(),
    };
    // Built-ins are created on first use and are not declaration items.
    for (_, var) in module.variables.iter() {
        if var.is_builtin && var.used && var.mode == VarMode::ShaderIn {
            builtin_input(var, &mut interface.builtins)?;
        }
    }
    for var in globals(module) {
        match var.mode {
            VarMode::ShaderIn if !var.is_builtin && var.used => {
                interface.inputs.push(user_input(var, &module.structs)?);
            }
            // An unread uniform cannot change the image (and an unread
            // sampler is not active, so it needs no unit).
            VarMode::Uniform if !var.is_builtin && var.used => {
                uniform_leaves(var, module, &mut interface)?;
            }
            _ => {}
        }
    }
    Ok(interface)
}

/// The global variables in declaration order.
fn globals(module: &Module) -> impl Iterator<Item = &Variable> {
    module.items.iter().filter_map(|item| match item {
        rgl_glsl::hir::Item::Variable(h) => module.variables.get(*h),
        rgl_glsl::hir::Item::Function(_) => None,
    })
}

fn builtin_input(var: &Variable, builtins: &mut BuiltinInputs) -> Result<(), GenerateError> {
    match var.name.as_str() {
        "gl_TexCoord" => {
            builtins.tex_coords = match (&var.ty, var.max_array_access) {
                (Type::Array(_, Some(n)), _) => *n,
                // Indexed only with constants: up to the largest index.
                (_, max) if max >= 0 => max as u32 + 1,
                _ => MAX_TEXTURE_COORDS,
            };
        }
        "gl_Color" => builtins.color = true,
        "gl_SecondaryColor" => builtins.secondary_color = true,
        "gl_FogFragCoord" => builtins.fog_frag_coord = true,
        name if SYSTEM_INPUTS.contains(&name) => {}
        name => return Err(GenerateError::UnsupportedInput(name.to_string())),
    }
    Ok(())
}

fn user_input(var: &Variable, structs: &StructArena) -> Result<Input, GenerateError> {
    let unsupported =
        || GenerateError::UnsupportedInput(format!("{} {}", var.ty.display(structs), var.name));
    if var.interface_block.is_some() {
        return Err(unsupported());
    }
    let (element, array) = match &var.ty {
        Type::Array(element, Some(n)) => (element.as_ref(), Some(*n)),
        Type::Array(_, None) => return Err(unsupported()),
        ty => (ty, None),
    };
    let shape = Shape::of(element).ok_or_else(unsupported)?;
    if shape.kind == ScalarKind::Bool {
        return Err(unsupported());
    }
    Ok(Input {
        name: var.name.clone(),
        shape,
        array,
        interpolation: var.interpolation,
        centroid: var.centroid,
        invariant: var.invariant,
    })
}

/// Adds the leaves of one uniform declaration.
fn uniform_leaves(
    var: &Variable,
    module: &Module,
    interface: &mut Interface,
) -> Result<(), GenerateError> {
    let structs = &module.structs;
    // An instanced block is named by its block name (`Block.member`);
    // members of a block without an instance name by their own names.
    let mut element = &var.ty;
    while let Type::Array(inner, _) = element {
        element = inner;
    }
    let prefix = match (element, var.interface_block) {
        (Type::Struct(handle), Some(block)) if *handle == block => structs
            .get(block)
            .map_or_else(|| var.name.clone(), |b| b.name.clone()),
        _ => var.name.clone(),
    };
    flatten(&prefix, &var.ty, structs, interface)
}

fn flatten(
    name: &str,
    ty: &Type,
    structs: &StructArena,
    interface: &mut Interface,
) -> Result<(), GenerateError> {
    if interface.uniforms.len() + interface.samplers.len() > MAX_UNIFORM_LEAVES {
        return Err(GenerateError::TooManyUniforms(MAX_UNIFORM_LEAVES));
    }
    match ty {
        Type::Sampler(sampler) => interface.samplers.push(SamplerLeaf {
            name: name.to_string(),
            ty: *sampler,
        }),
        Type::Array(element, Some(n)) => {
            for i in 0..*n {
                flatten(&format!("{name}[{i}]"), element, structs, interface)?;
            }
        }
        Type::Struct(handle) => {
            let Some(body) = structs.get(*handle) else {
                return Err(GenerateError::UnsupportedUniform(name.to_string()));
            };
            for field in &body.fields {
                flatten(
                    &format!("{name}.{}", field.name),
                    &field.ty,
                    structs,
                    interface,
                )?;
            }
        }
        ty => match Shape::of(ty) {
            Some(shape) => interface.uniforms.push(UniformLeaf {
                name: name.to_string(),
                shape,
            }),
            None => {
                return Err(GenerateError::UnsupportedUniform(format!(
                    "{} {name}",
                    ty.display(structs)
                )))
            }
        },
    }
    Ok(())
}
