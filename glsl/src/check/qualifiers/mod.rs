//! Qualifier resolution and validation: turns the qualifier list of a
//! declaration into [`ResolvedQualifiers`] and reports every qualifier that the
//! version, stage or declaration context does not allow; also checks which types
//! a storage class may carry ([`check_storage_type`], [`check_variable`]).
//!
//! Pure functions over the AST and types, called by the checker. The rules are
//! those of GLSL 1.10–3.30 and GLSL ES 1.00/3.00 as Mesa applies them
//! (`glsl_parser.yy`, `ast_type.cpp`, `ast_to_hir.cpp`):
//! * [`order`]: qualifier order and duplicates;
//! * this file: which words exist in which version, and which storage,
//!   auxiliary, interpolation, invariant and layout qualifiers each declaration
//!   context accepts;
//! * [`layout`]: `layout(...)` identifiers and qualifier-only declarations;
//! * [`types`]: the types each storage class may have;
//! * [`enhanced`]: the GLSL 4.40 enhanced-layout rules that need types
//!   (`component`, std140 placement of `offset`/`align`, transform feedback
//!   sizes).

mod enhanced;
mod error;
mod gpu_shader5;
mod layout;
mod order;
mod subroutine;
mod types;

pub use enhanced::{
    place_block_members, std140_align_size, std430_align_size, xfb_size, PlacedMember,
};
pub use error::QualifierError;
pub use gpu_shader5::{output_stream, MAX_VERTEX_STREAMS};
pub use layout::{
    merge_local_size, merge_shader_layout, MAX_GEOMETRY_OUTPUT_VERTICES,
    MAX_GEOMETRY_SHADER_INVOCATIONS,
};
pub use types::{check_storage_type, check_variable};

use crate::ast::{Interpolation, Precision, Qualifier, Storage, TypeQualifier};
use crate::diag::Diagnostic;
use crate::hir::{BlockPacking, GsPrimitive, MatrixLayout};
use crate::span::SourceLoc;
use crate::version::{Stage, Version};

/// Where the qualified thing is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclContext {
    /// A global variable declaration.
    GlobalVariable,
    /// A variable declared in a function body (or a `for`/`while` condition).
    LocalVariable,
    /// A function parameter.
    FunctionParameter,
    /// A function return type.
    FunctionReturn,
    /// A struct member.
    StructMember,
    /// A member of an interface block with the given storage.
    BlockMember(StorageClass),
    /// The interface block itself (`uniform Block { .. }`).
    Block,
    /// A qualifier-only declaration (`layout(triangles) in;`, `layout(std140) uniform;`).
    QualifierOnly,
}

/// Resolved storage class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StorageClass {
    /// No storage qualifier (ordinary variable).
    #[default]
    None,
    /// `const`
    Const,
    /// Stage input: `in`, `attribute`, or `varying` in a fragment shader.
    In,
    /// Stage output: `out`, or `varying` in a vertex shader.
    Out,
    /// `uniform`
    Uniform,
    /// Parameter `in` (possibly with `const`: see [`ResolvedQualifiers::is_const`]).
    ParamIn,
    /// Parameter `out`
    ParamOut,
    /// Parameter `inout`
    ParamInOut,
    /// `shared` (compute shaders, GLSL 4.30 §4.3.8)
    Shared,
    /// `buffer` (shader storage blocks, GLSL 4.30 §4.3.7)
    Buffer,
}

impl StorageClass {
    /// The storage word as GLSL spells it (`in` for a parameter `in`).
    pub fn word(self) -> &'static str {
        match self {
            StorageClass::None => "",
            StorageClass::Const => "const",
            StorageClass::In | StorageClass::ParamIn => "in",
            StorageClass::Out | StorageClass::ParamOut => "out",
            StorageClass::Uniform => "uniform",
            StorageClass::ParamInOut => "inout",
            StorageClass::Shared => "shared",
            StorageClass::Buffer => "buffer",
        }
    }
}

pub use crate::hir::DepthLayout;

/// Resolved `layout(...)` contents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayoutQualifiers {
    /// `location = N`
    pub location: Option<i32>,
    /// `index = N`
    pub index: Option<i32>,
    /// `binding = N`
    pub binding: Option<i32>,
    /// `std140` / `shared` / `packed`
    pub packing: Option<BlockPacking>,
    /// `row_major` / `column_major`
    pub matrix_layout: MatrixLayout,
    /// `origin_upper_left`
    pub origin_upper_left: bool,
    /// `pixel_center_integer`
    pub pixel_center_integer: bool,
    /// `early_fragment_tests`
    pub early_fragment_tests: bool,
    /// GS input or output primitive.
    pub primitive: Option<GsPrimitive>,
    /// `max_vertices = N`
    pub max_vertices: Option<u32>,
    /// `invocations = N`
    pub invocations: Option<u32>,
    /// `stream = N` (geometry shader outputs, GLSL 4.00 §4.4.2.1).
    pub stream: Option<u32>,
    /// `local_size_x/y/z = N` (compute, GLSL 4.30 §4.4.1.1), by dimension.
    pub local_size: [Option<u32>; 3],
    /// `depth_any` / `depth_greater` / `depth_less` / `depth_unchanged`
    pub depth_layout: Option<DepthLayout>,
    /// `component = N` (GLSL 4.40 §4.4.1, ARB_enhanced_layouts).
    pub component: Option<u32>,
    /// `offset = N` on a uniform block member (GLSL 4.40 §4.4.5).
    pub offset: Option<u32>,
    /// `align = N` on a uniform block or member (GLSL 4.40 §4.4.5); a power of two.
    pub align: Option<u32>,
    /// `xfb_buffer = N` (GLSL 4.40 §4.4.2.1).
    pub xfb_buffer: Option<u32>,
    /// `xfb_offset = N` (GLSL 4.40 §4.4.2.1).
    pub xfb_offset: Option<u32>,
    /// `xfb_stride = N` (GLSL 4.40 §4.4.2.1).
    pub xfb_stride: Option<u32>,
    /// An image format (`rgba32f`, `r32ui`, …; GLSL 4.20 §4.4.6.2).
    pub image_format: Option<crate::hir::image::ImageFormat>,
    /// An `xfb_*` identifier was written, even with an invalid (reported) value.
    pub xfb_written: bool,
}

impl LayoutQualifiers {
    /// True when any transform feedback qualifier was written.
    pub fn has_xfb(&self) -> bool {
        self.xfb_buffer.is_some() || self.xfb_offset.is_some() || self.xfb_stride.is_some()
    }
}

/// The value of a non-literal `layout(name = expr)` value, evaluated by the
/// checker before the qualifiers are resolved (GLSL 4.40 §4.4: "integral
/// constant expression").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutValue {
    /// An `int` or `uint` constant (a `uint` is read as its `int` bits, as Mesa
    /// reads `value.i[0]`).
    Int(i64),
    /// A constant of another type.
    NotIntegral,
    /// Not a constant expression (or erroneous, already reported).
    NotConstant,
}

/// Everything a qualifier list says, validated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolvedQualifiers {
    /// Storage class.
    pub storage: StorageClass,
    /// `const` was written (alone: a constant; on a parameter: `const in`).
    pub is_const: bool,
    /// Written as `attribute`.
    pub is_attribute: bool,
    /// Written as `varying`.
    pub is_varying: bool,
    /// `centroid`
    pub centroid: bool,
    /// `sample` (GLSL 4.00 §4.3.6).
    pub sample: bool,
    /// `invariant`
    pub invariant: bool,
    /// `precise` (GLSL 4.00 §4.7).
    pub precise: bool,
    /// Interpolation qualifier.
    pub interpolation: Option<Interpolation>,
    /// Precision qualifier.
    pub precision: Option<Precision>,
    /// Layout contents.
    pub layout: LayoutQualifiers,
    /// At least one `layout(...)` was written.
    pub has_layout: bool,
    /// GLSL 4.30 §4.10 memory qualifiers (buffer variables and blocks).
    pub memory: crate::hir::MemoryQualifiers,
    /// `subroutine` (GLSL 4.00 §4.3.9) with its type list (empty when bare).
    pub subroutine: Option<Vec<crate::ast::TypeSpecifier>>,
    /// Location of the qualifier list (for later diagnostics).
    pub loc: SourceLoc,
}

/// Language context of the check.
#[derive(Clone, Copy, Debug)]
pub struct QualifierEnv<'a> {
    /// Version and profile.
    pub version: Version,
    /// Stage.
    pub stage: Stage,
    /// Enabled extensions.
    pub extensions: &'a [String],
    /// Values of the non-literal layout values of the qualifier list being
    /// resolved, keyed by the location of the value expression.
    pub layout_values: &'a [(SourceLoc, LayoutValue)],
}

impl QualifierEnv<'_> {
    /// True if `#extension name` enabled the extension.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }
    /// GLSL 4.40 enhanced layouts: constant-expression layout values,
    /// `component`, `offset`, `align` and the `xfb_*` qualifiers.
    pub fn has_enhanced_layouts(&self) -> bool {
        self.version.at_least(440, 0) || self.has_extension("GL_ARB_enhanced_layouts")
    }
    /// Qualifiers in any order, repeated layouts (GLSL 4.20 / 420pack).
    pub fn has_420pack(&self) -> bool {
        self.version.at_least(420, 0) || self.has_extension("GL_ARB_shading_language_420pack")
    }
    /// `atomic_uint` and its `binding`/`offset` layouts (GLSL 4.20, GLSL ES
    /// 3.10, or ARB_shader_atomic_counters; Mesa's `has_atomic_counters`).
    pub fn has_atomic_counters(&self) -> bool {
        self.version.at_least(420, 310) || self.has_extension("GL_ARB_shader_atomic_counters")
    }
    /// `layout(location)` on vertex inputs and fragment outputs.
    pub fn has_explicit_attrib_location(&self) -> bool {
        self.version.at_least(330, 300) || self.has_extension("GL_ARB_explicit_attrib_location")
    }
    /// `layout(location)` on the other stage interfaces.
    pub fn has_separate_shader_objects(&self) -> bool {
        if self.version.is_es() {
            self.version.at_least(0, 310) || self.has_extension("GL_EXT_separate_shader_objects")
        } else {
            self.version.at_least(410, 0) || self.has_extension("GL_ARB_separate_shader_objects")
        }
    }
    /// Uniform blocks and their layouts.
    pub fn has_uniform_buffer_objects(&self) -> bool {
        self.version.at_least(140, 300) || self.has_extension("GL_ARB_uniform_buffer_object")
    }
    /// `origin_upper_left` / `pixel_center_integer`.
    pub fn has_fragment_coord_conventions(&self) -> bool {
        self.version.at_least(150, 0) || self.has_extension("GL_ARB_fragment_coord_conventions")
    }
    /// `depth_any` and friends.
    pub fn has_conservative_depth(&self) -> bool {
        self.version.at_least(420, 0)
            || self.has_extension("GL_ARB_conservative_depth")
            || self.has_extension("GL_AMD_conservative_depth")
            || self.has_extension("GL_EXT_conservative_depth")
    }
    /// Shader storage blocks, std430 and the memory qualifiers (GLSL 4.30,
    /// GLSL ES 3.10, or ARB_shader_storage_buffer_object).
    pub fn has_shader_storage(&self) -> bool {
        self.version.at_least(430, 310) || self.has_extension("GL_ARB_shader_storage_buffer_object")
    }
    /// Image types, their format layout qualifiers and memory qualifiers
    /// (GLSL 4.20, GLSL ES 3.10, or ARB_shader_image_load_store).
    pub fn has_images(&self) -> bool {
        self.version.at_least(420, 310) || self.has_extension("GL_ARB_shader_image_load_store")
    }
    /// Compute shaders: the stage, `shared`, `local_size_*` and the compute
    /// built-ins (GLSL 4.30, GLSL ES 3.10, or ARB_compute_shader).
    pub fn has_compute_shader(&self) -> bool {
        self.version.at_least(430, 310) || self.has_extension("GL_ARB_compute_shader")
    }
    /// Subroutines (GLSL 4.00 §6.1.2, or ARB_shader_subroutine).
    pub fn has_subroutines(&self) -> bool {
        self.version.at_least(400, 0) || self.has_extension("GL_ARB_shader_subroutine")
    }
    /// `layout(location)` on uniforms (GLSL 4.30 or ARB_explicit_uniform_location).
    pub fn has_explicit_uniform_location(&self) -> bool {
        self.version.at_least(430, 310) || self.has_extension("GL_ARB_explicit_uniform_location")
    }
    /// Geometry shaders (GLSL 1.50).
    pub fn has_geometry_shader(&self) -> bool {
        self.version.at_least(150, 0)
    }
    /// `layout` is a keyword (Mesa's lexer rule).
    pub fn has_layout_keyword(&self) -> bool {
        self.version.at_least(140, 300)
            || [
                "GL_ARB_explicit_attrib_location",
                "GL_ARB_uniform_buffer_object",
                "GL_ARB_fragment_coord_conventions",
                "GL_ARB_shading_language_420pack",
                "GL_ARB_separate_shader_objects",
                "GL_ARB_conservative_depth",
                "GL_AMD_conservative_depth",
                "GL_ARB_explicit_uniform_location",
                "GL_ARB_gpu_shader5",
                "GL_ARB_enhanced_layouts",
                "GL_ARB_shader_storage_buffer_object",
                "GL_ARB_compute_shader",
            ]
            .iter()
            .any(|e| self.has_extension(e))
    }
}

/// `GLSL 1.20` / `GLSL ES 3.00`, as Mesa names versions in messages.
fn version_name(version: Version) -> String {
    let es = if version.is_es() { " ES" } else { "" };
    format!(
        "GLSL{es} {}.{:02}",
        version.number / 100,
        version.number % 100
    )
}

/// Mesa's `check_version`: `problem` unless the version is at least `desktop`
/// (desktop GLSL) or `es` (GLSL ES); 0 means never.
fn version_error(
    env: &QualifierEnv<'_>,
    desktop: u16,
    es: u16,
    problem: &str,
) -> Option<QualifierError> {
    if env.version.at_least(desktop, es) {
        return None;
    }
    let name = |n: u16, es: bool| {
        version_name(if es {
            Version::es(n)
        } else {
            Version::desktop(n)
        })
    };
    let required = match (desktop, es) {
        (0, e) => name(e, true),
        (d, 0) => name(d, false),
        (d, e) => format!("{} or {}", name(d, false), name(e, true)),
    };
    Some(QualifierError::VersionRequired {
        problem: problem.to_string(),
        current: version_name(env.version),
        required,
    })
}

/// The GLSL word of an interpolation qualifier.
pub fn interpolation_word(i: Interpolation) -> &'static str {
    match i {
        Interpolation::Smooth => "smooth",
        Interpolation::Flat => "flat",
        Interpolation::NoPerspective => "noperspective",
    }
}

/// True for storage that links two stages here (Mesa's `is_varying_var`):
/// vertex outputs, fragment inputs, geometry inputs and outputs.
pub fn is_stage_interface(storage: StorageClass, stage: Stage) -> bool {
    match stage {
        Stage::Vertex => storage == StorageClass::Out,
        Stage::Fragment => storage == StorageClass::In,
        Stage::Geometry => matches!(storage, StorageClass::In | StorageClass::Out),
        Stage::Compute => false,
    }
}

/// True if a variable of this storage may be (re)declared `invariant`
/// (Mesa's `is_allowed_invariant`). The checker also uses it for
/// `invariant name;` redeclarations; it reports
/// [`QualifierError::InvariantNotInterface`] when this is false.
pub fn invariant_allowed(storage: StorageClass, env: &QualifierEnv<'_>) -> bool {
    if is_stage_interface(storage, env.stage) {
        return true;
    }
    // GLSL 1.20: "Only variables output from a vertex shader can be candidates
    // for invariance"; later versions allow fragment outputs too.
    env.version.at_least(130, 100) && env.stage == Stage::Fragment && storage == StorageClass::Out
}

/// The words of one qualifier list, with where each was written.
#[derive(Clone, Debug, Default)]
struct Words {
    constant: Option<SourceLoc>,
    attribute: Option<SourceLoc>,
    varying: Option<SourceLoc>,
    input: Option<SourceLoc>,
    output: Option<SourceLoc>,
    inout: Option<SourceLoc>,
    uniform: Option<SourceLoc>,
    shared: Option<SourceLoc>,
    buffer: Option<SourceLoc>,
    /// GLSL 4.30 §4.10 memory qualifiers, with where the first was written.
    memory: Option<SourceLoc>,
    centroid: Option<SourceLoc>,
    sample: Option<SourceLoc>,
    invariant: Option<SourceLoc>,
    precise: Option<SourceLoc>,
    interpolation: Option<(Interpolation, SourceLoc)>,
    precision: Option<Precision>,
    layouts: usize,
    /// `subroutine`
    subroutine: Option<SourceLoc>,
    /// Any qualifier other than precision.
    non_precision: bool,
}

/// Resolves and validates a qualifier list in a context.
pub fn resolve_qualifiers(
    qualifier: Option<&TypeQualifier>,
    context: DeclContext,
    env: &QualifierEnv<'_>,
) -> (ResolvedQualifiers, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut resolved = ResolvedQualifiers {
        loc: qualifier.map(|q| q.loc).unwrap_or_default(),
        ..Default::default()
    };
    let Some(list) = qualifier else {
        match context {
            DeclContext::FunctionParameter => resolved.storage = StorageClass::ParamIn,
            DeclContext::BlockMember(storage) => resolved.storage = storage,
            _ => {}
        }
        return (resolved, diags);
    };
    if context == DeclContext::FunctionParameter {
        order::check_parameter_order(list, env, &mut diags);
    } else {
        order::check_order(list, env, &mut diags);
    }
    let words = collect_words(list, context, env, &mut resolved, &mut diags);
    resolved.is_const = words.constant.is_some();
    resolved.is_attribute = words.attribute.is_some();
    resolved.is_varying = words.varying.is_some();
    resolved.centroid = words.centroid.is_some();
    resolved.invariant = words.invariant.is_some();
    resolved.sample = words.sample.is_some();
    resolved.precise = words.precise.is_some();
    resolved.interpolation = words.interpolation.map(|(i, _)| i);
    resolved.precision = words.precision;
    resolved.has_layout = words.layouts > 0;

    let loc = list.loc;
    match context {
        DeclContext::FunctionParameter => {
            resolved.storage =
                if words.inout.is_some() || (words.input.is_some() && words.output.is_some()) {
                    StorageClass::ParamInOut
                } else if words.output.is_some() {
                    StorageClass::ParamOut
                } else {
                    StorageClass::ParamIn
                };
            if resolved.is_const
                && matches!(
                    resolved.storage,
                    StorageClass::ParamOut | StorageClass::ParamInOut
                )
            {
                diags.push(Diagnostic::error(loc, QualifierError::ConstOutParameter));
            }
        }
        DeclContext::FunctionReturn if words.subroutine.is_some() => {
            subroutine::check_function(&words, &resolved, env, loc, &mut diags);
        }
        DeclContext::FunctionReturn => {
            if words.non_precision {
                diags.push(Diagnostic::error(loc, QualifierError::ReturnTypeQualifiers));
            }
        }
        DeclContext::StructMember => {
            if words.non_precision {
                diags.push(Diagnostic::error(
                    loc,
                    QualifierError::StructMemberQualifiers,
                ));
            }
        }
        DeclContext::GlobalVariable | DeclContext::LocalVariable => {
            resolved.storage = variable_storage(&words, env, &mut diags);
            check_variable_qualifiers(&words, &resolved, context, env, loc, &mut diags);
            check_variable_layout(&resolved, env, loc, &mut diags);
            if words.subroutine.is_some() {
                subroutine::check_variable(&resolved, context, loc, &mut diags);
            }
        }
        _ if words.subroutine.is_some() => {
            diags.push(Diagnostic::error(loc, QualifierError::SubroutineTarget));
        }
        DeclContext::Block => {
            resolved.storage = check_block(list, &words, &resolved, env, loc, &mut diags);
        }
        DeclContext::BlockMember(block) => {
            resolved.storage = block;
            check_block_member(&words, &resolved, block, env, loc, &mut diags);
        }
        DeclContext::QualifierOnly => {
            resolved.storage = check_qualifier_only_form(list, &words, loc, &mut diags);
            if resolved.storage != StorageClass::None {
                layout::check_qualifier_only(&resolved, env, loc, &mut diags);
            }
        }
    }
    (resolved, diags)
}

/// Reads the words of a list: reports words the version does not have, words
/// the parameter grammar does not take, and parses `layout(...)` groups.
fn collect_words(
    list: &TypeQualifier,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    resolved: &mut ResolvedQualifiers,
    diags: &mut Vec<Diagnostic>,
) -> Words {
    let param = context == DeclContext::FunctionParameter;
    let mut w = Words::default();
    let mut layout_reported = false;
    for qualifier in &list.qualifiers {
        let qloc = order::qualifier_loc(qualifier);
        let mut error = |e: QualifierError| diags.push(Diagnostic::error(qloc, e));
        if !matches!(qualifier, Qualifier::Precision(..)) {
            w.non_precision = true;
        }
        match *qualifier {
            Qualifier::Storage(storage, _) => {
                let not_param = |word: &str, error: &mut dyn FnMut(QualifierError)| {
                    if param {
                        error(QualifierError::NotOnParameter(word.to_string()));
                    }
                };
                match storage {
                    Storage::Const => w.constant = Some(qloc),
                    Storage::In => w.input = Some(qloc),
                    Storage::Out => w.output = Some(qloc),
                    Storage::InOut => w.inout = Some(qloc),
                    Storage::Uniform => {
                        not_param("uniform", &mut error);
                        w.uniform = Some(qloc);
                    }
                    Storage::Attribute => {
                        if env.version.at_least(0, 300) {
                            error(QualifierError::ReservedWord("attribute".into()));
                        } else {
                            not_param("attribute", &mut error);
                        }
                        w.attribute = Some(qloc);
                    }
                    Storage::Varying => {
                        if env.version.at_least(0, 300) {
                            error(QualifierError::ReservedWord("varying".into()));
                        } else {
                            not_param("varying", &mut error);
                        }
                        w.varying = Some(qloc);
                    }
                    Storage::Centroid => {
                        if let Some(e) =
                            version_error(env, 120, 300, "`centroid' is not a qualifier")
                        {
                            error(e);
                        } else {
                            not_param("centroid", &mut error);
                        }
                        w.centroid = Some(qloc);
                    }
                    Storage::Sample if env.has_gpu_shader5() => {
                        not_param("sample", &mut error);
                        w.sample = Some(qloc);
                    }
                    Storage::Sample => error(QualifierError::Unsupported {
                        word: "sample".into(),
                        requirement: "GLSL 4.00 or GL_ARB_gpu_shader5",
                    }),
                    Storage::Patch if env.version.at_least(400, 0) => {
                        error(QualifierError::NotImplemented("patch"))
                    }
                    Storage::Patch => error(QualifierError::Unsupported {
                        word: "patch".into(),
                        requirement: "GLSL 4.00 or GL_ARB_tessellation_shader",
                    }),
                    Storage::Buffer if env.has_shader_storage() => {
                        not_param("buffer", &mut error);
                        w.buffer = Some(qloc);
                    }
                    Storage::Other(
                        word @ ("coherent" | "volatile" | "restrict" | "readonly" | "writeonly"),
                    ) if env.has_shader_storage() || env.has_images() => {
                        let m = &mut resolved.memory;
                        match word {
                            "coherent" => m.coherent = true,
                            "volatile" => m.volatile = true,
                            "restrict" => m.restrict = true,
                            "readonly" => m.read_only = true,
                            _ => m.write_only = true,
                        }
                        w.memory.get_or_insert(qloc);
                    }
                    Storage::Buffer => error(QualifierError::Unsupported {
                        word: "buffer".into(),
                        requirement: "GLSL 4.30 or GL_ARB_shader_storage_buffer_object",
                    }),
                    Storage::Shared if env.has_compute_shader() => {
                        not_param("shared", &mut error);
                        w.shared = Some(qloc);
                    }
                    Storage::Shared => error(QualifierError::Unsupported {
                        word: "shared".into(),
                        requirement: "GLSL 4.30 or GL_ARB_compute_shader",
                    }),
                    Storage::Other(word) => error(QualifierError::Unsupported {
                        word: word.into(),
                        requirement: "GLSL 4.20 or GL_ARB_shader_image_load_store",
                    }),
                }
            }
            Qualifier::Layout(ref items, _) => {
                w.layouts += 1;
                if param {
                    error(QualifierError::LayoutOnParameter);
                } else if !env.has_layout_keyword() {
                    if !layout_reported {
                        error(QualifierError::LayoutUnavailable(version_name(env.version)));
                        layout_reported = true;
                    }
                } else {
                    layout::parse_group(items, env, &mut resolved.layout, diags);
                }
            }
            Qualifier::Precision(p, _) => {
                if let Some(e) = version_error(env, 130, 100, "precision qualifiers are forbidden")
                {
                    error(e);
                }
                // Mesa's right-recursive rule lets the leftmost one win.
                if w.precision.is_none() {
                    w.precision = Some(p);
                }
            }
            Qualifier::Interpolation(i, _) => {
                let word = interpolation_word(i);
                let problem = format!("`{word}' is not a qualifier");
                let e = if i == Interpolation::NoPerspective && env.version.is_es() {
                    if env.version.at_least(0, 300) {
                        Some(QualifierError::ReservedWord(word.into()))
                    } else {
                        version_error(env, 130, 0, &problem)
                    }
                } else {
                    version_error(env, 130, 300, &problem)
                };
                if let Some(e) = e {
                    error(e);
                } else if param {
                    error(QualifierError::NotOnParameter(word.into()));
                }
                if w.interpolation.is_none() {
                    w.interpolation = Some((i, qloc));
                }
            }
            Qualifier::Invariant(_) => {
                if let Some(e) = version_error(env, 120, 100, "`invariant' is not a qualifier") {
                    error(e);
                } else if param {
                    error(QualifierError::NotOnParameter("invariant".into()));
                }
                w.invariant = Some(qloc);
            }
            Qualifier::Precise(_) if env.has_gpu_shader5() => w.precise = Some(qloc),
            Qualifier::Precise(_) => error(QualifierError::Unsupported {
                word: "precise".into(),
                requirement: "GLSL 4.00 or GL_ARB_gpu_shader5",
            }),
            Qualifier::Subroutine(ref types, _) => {
                if !env.has_subroutines() {
                    error(QualifierError::Unsupported {
                        word: "subroutine".into(),
                        requirement: "GLSL 4.00 or GL_ARB_shader_subroutine",
                    });
                } else if param {
                    error(QualifierError::NotOnParameter("subroutine".into()));
                } else {
                    resolved.subroutine = Some(types.clone());
                }
                w.subroutine = Some(qloc);
            }
        }
    }
    w
}

/// The storage class of a variable declaration (Mesa's mode selection in
/// `apply_type_qualifier_to_variable`), reporting `inout` on a variable.
fn variable_storage(
    w: &Words,
    env: &QualifierEnv<'_>,
    diags: &mut Vec<Diagnostic>,
) -> StorageClass {
    let stage = env.stage;
    if let Some(loc) = w.inout {
        diags.push(Diagnostic::error(loc, QualifierError::InOutInterface));
        return StorageClass::Out;
    }
    if w.input.is_some() && w.output.is_some() {
        return StorageClass::Out;
    }
    if w.input.is_some()
        || w.attribute.is_some()
        || (w.varying.is_some() && stage == Stage::Fragment)
    {
        return StorageClass::In;
    }
    if w.output.is_some() || (w.varying.is_some() && stage == Stage::Vertex) {
        return StorageClass::Out;
    }
    if w.uniform.is_some() {
        return StorageClass::Uniform;
    }
    if w.shared.is_some() {
        return StorageClass::Shared;
    }
    if w.buffer.is_some() {
        return StorageClass::Buffer;
    }
    if w.constant.is_some() {
        return StorageClass::Const;
    }
    StorageClass::None
}

/// Storage, auxiliary, interpolation and invariant rules of a global or local
/// variable.
fn check_variable_qualifiers(
    w: &Words,
    r: &ResolvedQualifiers,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    let stage = env.stage;
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));

    // `in`/`out` outside parameters arrived with GLSL 1.30 (or an extension
    // that adds `layout`).
    if !env.version.at_least(130, 300)
        && !env.has_explicit_attrib_location()
        && !env.has_separate_shader_objects()
        && !env.has_extension("GL_ARB_fragment_coord_conventions")
    {
        if w.output.is_some() || w.inout.is_some() {
            error(QualifierError::OnlyForParameters {
                word: "out",
                version: version_name(env.version),
            });
        }
        if w.input.is_some() || w.inout.is_some() {
            error(QualifierError::OnlyForParameters {
                word: "in",
                version: version_name(env.version),
            });
        }
    }
    // GLSL 4.30 §4.3.8: "shared" is only for compute shaders; ARB_compute_shader:
    // "Compute shaders do not permit user-defined input variables" (nor outputs).
    if w.shared.is_some() && stage != Stage::Compute {
        error(QualifierError::SharedStage(stage));
    }
    // ARB_shader_storage_buffer_object: "It is illegal to declare buffer
    // variables at global scope (outside a block)"; GLSL 4.30 §4.10: memory
    // qualifiers apply to buffer variables and images (rgl has no images).
    if w.buffer.is_some() {
        error(QualifierError::BufferOutsideBlock);
    }
    // With images, the declared type decides (`qualifiers::types`).
    if w.memory.is_some() && !env.has_images() {
        error(QualifierError::MemoryQualifierTarget);
    }
    if stage == Stage::Compute && context == DeclContext::GlobalVariable {
        if w.input.is_some() || w.attribute.is_some() || w.varying.is_some() {
            error(QualifierError::ComputeInterface("in"));
        } else if w.output.is_some() {
            error(QualifierError::ComputeInterface("out"));
        }
    }
    if w.attribute.is_some() && stage != Stage::Vertex && !env.version.at_least(0, 300) {
        error(QualifierError::AttributeStage(stage));
    }
    // A compatibility-profile geometry shader may still write `varying`: like
    // Mesa, rgl accepts it and (see `variable_storage`) makes it a plain global;
    // the core profile rejects it.
    if w.varying.is_some() && stage == Stage::Geometry && !env.version.is_compat() {
        error(QualifierError::VaryingInGeometry);
    }
    if context == DeclContext::LocalVariable {
        let local = if w.attribute.is_some() {
            Some(("attribute", ""))
        } else if w.uniform.is_some() {
            Some(("uniform", ""))
        } else if w.varying.is_some() {
            Some(("varying", ""))
        } else if w.shared.is_some() {
            Some(("shared", ""))
        } else if w.input.is_some() || w.inout.is_some() {
            Some(("in", " or in function parameter list"))
        } else if w.output.is_some() {
            Some(("out", " or in function parameter list"))
        } else {
            None
        };
        if let Some((word, extra)) = local {
            error(QualifierError::MustBeGlobal { word, extra });
        }
    }
    if w.invariant.is_some() && env.version.at_least(120, 100) && !invariant_allowed(r.storage, env)
    {
        error(QualifierError::InvariantNotInterface);
    }
    if let Some((i, _)) = w.interpolation {
        check_interpolation(
            i,
            r.storage,
            w.varying.is_some(),
            r.centroid,
            env,
            &mut error,
        );
    }
    if w.centroid.is_some()
        && env.version.at_least(120, 300)
        && !is_stage_interface(r.storage, stage)
    {
        error(QualifierError::CentroidNotInterface);
    }
    gpu_shader5::check_sample(w.sample.is_some(), r, env, &mut error);
}

/// Mesa's `validate_interpolation_qualifier` (the type part is in
/// [`check_storage_type`]).
fn check_interpolation(
    i: Interpolation,
    storage: StorageClass,
    varying: bool,
    centroid: bool,
    env: &QualifierEnv<'_>,
    error: &mut dyn FnMut(QualifierError),
) {
    if !env.version.at_least(130, 300) {
        return; // the word itself was already reported
    }
    let word = interpolation_word(i);
    if !matches!(storage, StorageClass::In | StorageClass::Out) {
        error(QualifierError::InterpolationNotInterface(word));
    }
    match env.stage {
        Stage::Vertex if storage == StorageClass::In => {
            error(QualifierError::InterpolationVsInput(word))
        }
        Stage::Fragment if storage == StorageClass::Out => {
            error(QualifierError::InterpolationFsOutput(word))
        }
        _ => {}
    }
    if !env.version.is_es() && varying {
        let storage = if centroid {
            "centroid varying"
        } else {
            "varying"
        };
        error(QualifierError::InterpolationDeprecated {
            interpolation: word,
            storage,
        });
    }
}

/// Mesa's `mode_string` for the explicit-location messages.
fn mode_string(storage: StorageClass) -> &'static str {
    match storage {
        StorageClass::None => "global variable",
        StorageClass::Const => "global constant",
        StorageClass::In => "shader input",
        StorageClass::Out => "shader output",
        StorageClass::Uniform => "uniform",
        StorageClass::ParamIn => "function input",
        StorageClass::ParamOut => "function output",
        StorageClass::ParamInOut => "function inout",
        StorageClass::Shared => "shared variable",
        StorageClass::Buffer => "shader storage",
    }
}

/// Layout rules of a variable (Mesa's `apply_layout_qualifier_to_variable`,
/// minus the parts that need the name or type: see [`check_variable`]).
fn check_variable_layout(
    r: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    if !r.has_layout {
        return;
    }
    let l = &r.layout;
    let stage = env.stage;
    let storage = r.storage;
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));

    if (l.origin_upper_left || l.pixel_center_integer)
        && !(stage == Stage::Fragment && storage == StorageClass::In)
    {
        let word = if l.origin_upper_left {
            "origin_upper_left"
        } else {
            "pixel_center_integer"
        };
        error(QualifierError::FragCoordLayout(word));
    }
    if l.location.is_some() {
        let attrib_requirement = if env.version.is_es() {
            "GLSL ES 3.00"
        } else {
            "GL_ARB_explicit_attrib_location extension or GLSL 3.30"
        };
        let sso_requirement = if env.version.is_es() {
            "GL_EXT_separate_shader_objects extension or GLSL ES 3.10"
        } else {
            "GL_ARB_separate_shader_objects extension or GLSL 4.20"
        };
        let allowed = match (stage, storage) {
            (_, StorageClass::Uniform) => {
                if !env.version.at_least(430, 310)
                    && !env.has_extension("GL_ARB_explicit_uniform_location")
                {
                    let requirement = if env.has_explicit_attrib_location() {
                        "GL_ARB_explicit_uniform_location extension or GLSL 4.30"
                    } else {
                        "GL_ARB_explicit_attrib_location and GL_ARB_explicit_uniform_location \
                         extensions or GLSL 4.30"
                    };
                    error(QualifierError::ExplicitLocationRequires {
                        mode: "uniform",
                        requirement,
                    });
                    false
                } else if !env.has_explicit_attrib_location() {
                    error(QualifierError::ExplicitLocationRequires {
                        mode: "uniform",
                        requirement: "GL_ARB_explicit_attrib_location and \
                                      GL_ARB_explicit_uniform_location extensions or GLSL 4.30",
                    });
                    false
                } else {
                    true
                }
            }
            (Stage::Vertex, StorageClass::In) | (Stage::Fragment, StorageClass::Out) => {
                if env.has_explicit_attrib_location() {
                    true
                } else {
                    error(QualifierError::ExplicitLocationRequires {
                        mode: mode_string(storage),
                        requirement: attrib_requirement,
                    });
                    false
                }
            }
            (_, StorageClass::In | StorageClass::Out) => {
                if env.has_separate_shader_objects() {
                    true
                } else {
                    error(QualifierError::ExplicitLocationRequires {
                        mode: mode_string(storage),
                        requirement: sso_requirement,
                    });
                    false
                }
            }
            _ => {
                error(QualifierError::ExplicitLocationMode {
                    mode: mode_string(storage),
                    stage,
                });
                false
            }
        };
        if allowed && l.index.is_some_and(|i| i > 1) {
            error(QualifierError::IndexRange);
        }
    } else if l.index.is_some() {
        error(QualifierError::IndexWithoutLocation);
    }
    if l.binding.is_some() && storage != StorageClass::Uniform {
        error(QualifierError::BindingTarget);
    }
    if r.is_attribute || r.is_varying {
        if env.has_extension("GL_ARB_fragment_coord_conventions") {
            diags.push(Diagnostic::warning(
                loc,
                QualifierError::LayoutWithDeprecated,
            ));
        } else {
            diags.push(Diagnostic::error(loc, QualifierError::LayoutWithDeprecated));
        }
    }
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    if l.depth_layout.is_some() && !(stage == Stage::Fragment && storage == StorageClass::Out) {
        error(QualifierError::DepthLayoutTarget);
    }
    if l.packing.is_some() {
        error(QualifierError::BlockLayoutOnVariable);
    }
    if l.matrix_layout != MatrixLayout::Inherited {
        error(QualifierError::MatrixLayoutOnVariable);
    }
    // `offset` on a variable is legal for atomic counters only; the type
    // check (`types::check`) decides.
    if l.align.is_some() {
        error(QualifierError::AlignTarget);
    }
    check_xfb_target(l, storage, env, &mut error);
    check_declaration_only_layouts(l, &mut error);
}

/// GLSL 4.40 §4.4.2.1: the `xfb_*` qualifiers apply to outputs of the stages
/// before the rasterizer only.
fn check_xfb_target(
    l: &LayoutQualifiers,
    storage: StorageClass,
    env: &QualifierEnv<'_>,
    error: &mut dyn FnMut(QualifierError),
) {
    if !l.has_xfb() {
        return;
    }
    if storage != StorageClass::Out {
        error(QualifierError::XfbNotOutput);
    } else if env.stage == Stage::Fragment {
        error(QualifierError::XfbFragment);
    }
}

/// Layouts that belong on qualifier-only declarations, never on a variable or
/// member.
fn check_declaration_only_layouts(l: &LayoutQualifiers, error: &mut dyn FnMut(QualifierError)) {
    if l.primitive.is_some() {
        error(QualifierError::PrimitiveOnVariable);
    }
    if l.max_vertices.is_some() {
        error(QualifierError::GsLayoutOnVariable("max_vertices"));
    }
    if l.invocations.is_some() {
        error(QualifierError::GsLayoutOnVariable("invocations"));
    }
    if l.early_fragment_tests {
        error(QualifierError::EarlyFragmentTestsOnVariable);
    }
    if l.local_size.iter().any(Option::is_some) {
        error(QualifierError::LocalSizePlacement("local_size"));
    }
}

/// Rules of an interface block's own qualifiers; returns the block storage.
fn check_block(
    list: &TypeQualifier,
    w: &Words,
    r: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) -> StorageClass {
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    let extra = list.qualifiers.iter().any(|q| match q {
        Qualifier::Layout(..) => false,
        Qualifier::Storage(s, _) => match s {
            Storage::Uniform | Storage::In | Storage::Out => false,
            // GLSL 4.30 §4.10: a shader storage block may carry memory
            // qualifiers, which apply to all its members.
            Storage::Buffer => !env.has_shader_storage(),
            Storage::Other("coherent" | "volatile" | "restrict" | "readonly" | "writeonly") => {
                w.buffer.is_none() || !env.has_shader_storage()
            }
            _ => true,
        },
        _ => true,
    });
    if extra {
        error(QualifierError::BlockQualifiers);
    }
    let storage = if w.uniform.is_some() {
        StorageClass::Uniform
    } else if w.buffer.is_some() {
        StorageClass::Buffer
    } else if w.input.is_some() {
        StorageClass::In
    } else if w.output.is_some() {
        StorageClass::Out
    } else {
        error(QualifierError::BlockStorage);
        return StorageClass::None;
    };
    let l = &r.layout;
    // ARB_shader_storage_buffer_object: "The std430 qualifier is supported
    // only for shader storage blocks".
    if l.packing == Some(BlockPacking::Std430) && storage != StorageClass::Buffer {
        error(QualifierError::Std430NotStorage);
    }
    match storage {
        StorageClass::Buffer => {
            let invalid = has_non_block_layout(l) || l.has_xfb();
            if invalid {
                error(QualifierError::InvalidBufferLayout);
            }
            if l.offset.is_some() {
                error(QualifierError::OffsetTarget);
            }
        }
        StorageClass::Uniform => {
            if !env.has_uniform_buffer_objects() {
                error(QualifierError::Requires {
                    what: "uniform blocks".into(),
                    requirement: "GLSL 1.40, GLSL ES 3.00 or GL_ARB_uniform_buffer_object",
                });
            }
            let invalid = has_non_block_layout(l);
            if invalid {
                error(QualifierError::InvalidUniformLayout);
            }
            if l.offset.is_some() {
                error(QualifierError::OffsetTarget);
            }
            check_xfb_target(l, storage, env, &mut error);
        }
        _ => {
            let word = storage.word();
            if !env.version.at_least(150, 0) {
                error(QualifierError::Requires {
                    what: format!("`{word}' interface blocks"),
                    requirement: "GLSL 1.50",
                });
            }
            match (env.stage, storage) {
                (Stage::Vertex, StorageClass::In) => error(QualifierError::BlockStage {
                    stage: Stage::Vertex,
                    kind: "input",
                }),
                (Stage::Fragment, StorageClass::Out) => error(QualifierError::BlockStage {
                    stage: Stage::Fragment,
                    kind: "output",
                }),
                (Stage::Compute, StorageClass::In) => error(QualifierError::BlockStage {
                    stage: Stage::Compute,
                    kind: "input",
                }),
                (Stage::Compute, StorageClass::Out) => error(QualifierError::BlockStage {
                    stage: Stage::Compute,
                    kind: "output",
                }),
                _ => {}
            }
            if l.packing.is_some()
                || l.matrix_layout != MatrixLayout::Inherited
                || l.binding.is_some()
            {
                error(QualifierError::BlockLayoutNonUniform);
            }
            if l.location.is_some() && !env.has_separate_shader_objects() {
                error(QualifierError::ExplicitLocationRequires {
                    mode: mode_string(storage),
                    requirement: if env.version.is_es() {
                        "GL_EXT_separate_shader_objects extension or GLSL ES 3.10"
                    } else {
                        "GL_ARB_separate_shader_objects extension or GLSL 4.20"
                    },
                });
            }
            let invalid = l.index.is_some()
                || l.origin_upper_left
                || l.pixel_center_integer
                || l.depth_layout.is_some()
                || l.early_fragment_tests
                || l.primitive.is_some()
                || l.max_vertices.is_some()
                || l.invocations.is_some()
                || (l.stream.is_some() && storage == StorageClass::In)
                || l.local_size.iter().any(Option::is_some);
            if invalid {
                error(if storage == StorageClass::In {
                    QualifierError::InvalidInputLayout
                } else {
                    QualifierError::InvalidOutputLayout
                });
            }
            if l.offset.is_some() {
                error(QualifierError::OffsetTarget);
            }
            if l.align.is_some() {
                error(QualifierError::AlignTarget);
            }
            if l.component.is_some() {
                error(QualifierError::ComponentType("block".into()));
            }
            check_xfb_target(l, storage, env, &mut error);
        }
    }
    storage
}

/// Rules of an interface block member's qualifiers.
fn check_block_member(
    w: &Words,
    r: &ResolvedQualifiers,
    block: StorageClass,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    if w.attribute.is_some() {
        error(QualifierError::BlockMemberKeyword("attribute"));
    } else if w.varying.is_some() {
        error(QualifierError::BlockMemberKeyword("varying"));
    }
    let block_word = block.word();
    let member_storage = [
        (w.constant.is_some(), StorageClass::Const, "const"),
        (w.inout.is_some(), StorageClass::ParamInOut, "inout"),
        (w.uniform.is_some(), StorageClass::Uniform, "uniform"),
        (w.input.is_some(), StorageClass::In, "in"),
        (w.output.is_some(), StorageClass::Out, "out"),
        (w.buffer.is_some(), StorageClass::Buffer, "buffer"),
    ];
    for (written, class, word) in member_storage {
        if written && class != block {
            error(QualifierError::BlockMemberStorage {
                member: word,
                block: block_word,
            });
        }
    }
    // GLSL 4.30 §4.10: memory qualifiers on members of shader storage blocks.
    if w.memory.is_some() && block != StorageClass::Buffer {
        error(QualifierError::MemoryQualifierTarget);
    }
    if matches!(block, StorageClass::Uniform | StorageClass::Buffer) {
        if w.interpolation.is_some() {
            error(QualifierError::UniformBlockMemberQualifier("interpolation"));
        }
        if w.centroid.is_some() {
            error(QualifierError::UniformBlockMemberQualifier("centroid"));
        }
        if w.invariant.is_some() {
            error(QualifierError::UniformBlockMemberQualifier("invariant"));
        }
        if w.sample.is_some() {
            error(QualifierError::UniformBlockMemberQualifier("sample"));
        }
    } else {
        if let Some((i, _)) = w.interpolation {
            check_interpolation(i, block, false, false, env, &mut error);
        }
        if w.centroid.is_some() && !is_stage_interface(block, env.stage) {
            error(QualifierError::CentroidNotInterface);
        }
        if w.invariant.is_some() && !invariant_allowed(block, env) {
            error(QualifierError::InvariantNotInterface);
        }
    }
    if !r.has_layout {
        return;
    }
    let l = &r.layout;
    if l.packing.is_some() {
        error(QualifierError::BlockLayoutOnVariable);
    }
    if l.matrix_layout != MatrixLayout::Inherited
        && !matches!(block, StorageClass::Uniform | StorageClass::Buffer)
    {
        error(QualifierError::BlockLayoutNonUniform);
    }
    if l.location.is_some() {
        // GLSL 4.40 §4.4.1: members of in/out blocks may have locations; like
        // any explicit varying location they need separate shader objects.
        if !env.has_enhanced_layouts() {
            error(QualifierError::BlockMemberLocation);
        } else if block == StorageClass::Uniform {
            error(QualifierError::UniformMemberLocation);
        } else if !env.has_separate_shader_objects() {
            error(QualifierError::ExplicitLocationRequires {
                mode: mode_string(block),
                requirement: if env.version.is_es() {
                    "GL_EXT_separate_shader_objects extension or GLSL ES 3.10"
                } else {
                    "GL_ARB_separate_shader_objects extension or GLSL 4.20"
                },
            });
        }
    } else if l.index.is_some() {
        error(QualifierError::IndexWithoutLocation);
    }
    if l.binding.is_some() {
        error(QualifierError::BindingType);
    }
    if !matches!(block, StorageClass::Uniform | StorageClass::Buffer) {
        if l.offset.is_some() {
            error(QualifierError::OffsetTarget);
        }
        if l.align.is_some() {
            error(QualifierError::AlignTarget);
        }
    }
    check_xfb_target(l, block, env, &mut error);
    if l.origin_upper_left || l.pixel_center_integer {
        let word = if l.origin_upper_left {
            "origin_upper_left"
        } else {
            "pixel_center_integer"
        };
        error(QualifierError::FragCoordLayout(word));
    }
    if l.depth_layout.is_some() {
        error(QualifierError::DepthLayoutTarget);
    }
    check_declaration_only_layouts(l, &mut error);
}

/// The shape of a qualifier-only declaration: one or more `layout(...)` and
/// exactly one of `in`, `out`, `uniform`. Returns that storage, or
/// [`StorageClass::None`] after reporting a malformed one.
fn check_qualifier_only_form(
    list: &TypeQualifier,
    w: &Words,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) -> StorageClass {
    let mut storages = 0;
    let mut other = false;
    for q in &list.qualifiers {
        match q {
            Qualifier::Layout(..) => {}
            Qualifier::Storage(Storage::In | Storage::Out | Storage::Uniform, _) => storages += 1,
            Qualifier::Storage(Storage::Buffer, _) if w.buffer.is_some() => storages += 1,
            _ => other = true,
        }
    }
    if other || storages != 1 || w.layouts == 0 {
        diags.push(Diagnostic::error(loc, QualifierError::QualifierOnlyForm));
        return StorageClass::None;
    }
    if w.uniform.is_some() {
        StorageClass::Uniform
    } else if w.buffer.is_some() {
        StorageClass::Buffer
    } else if w.input.is_some() {
        StorageClass::In
    } else {
        StorageClass::Out
    }
}

/// Whether `l` has a qualifier that no uniform or buffer block declaration
/// takes (locations, fragment and geometry layouts, `component`, the compute
/// local size): GLSL 4.50 §4.4.5 lists what blocks accept.
fn has_non_block_layout(l: &LayoutQualifiers) -> bool {
    l.location.is_some()
        || l.index.is_some()
        || l.origin_upper_left
        || l.pixel_center_integer
        || l.depth_layout.is_some()
        || l.early_fragment_tests
        || l.primitive.is_some()
        || l.max_vertices.is_some()
        || l.invocations.is_some()
        || l.stream.is_some()
        || l.component.is_some()
        || l.local_size.iter().any(Option::is_some)
}
