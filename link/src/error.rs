//! Link errors and the link info log.
//!
//! Each [`LinkError`] renders as one line of Mesa's link log (`error: ...`); the
//! templates follow Mesa's linker messages so tools that grep logs behave.

use std::fmt;

/// One link error. The linker reports every error it finds, not only the first.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// A shader given to the linker did not compile.
    #[error("linking with uncompiled/unspecialized shader")]
    Uncompiled,
    /// No shaders at all.
    #[error("no shaders attached to the program")]
    NoShaders,
    /// ES programs mix versions, or ES and desktop shaders are linked together.
    #[error("all shaders must use same shading language version")]
    VersionMismatch,
    /// A geometry shader without a vertex shader.
    #[error("{0} shader must be linked with vertex shader")]
    StageNeedsVertex(&'static str),
    /// ES: a program without a vertex shader.
    #[error("program lacks a vertex shader")]
    LacksVertexShader,
    /// ES: a program without a fragment shader.
    #[error("program lacks a fragment shader")]
    LacksFragmentShader,
    /// Two declarations of one global have different types.
    #[error("{mode} `{name}' declared as type `{ty}' and type `{other}'")]
    GlobalTypeMismatch {
        /// Mode string (`uniform`, `shader output`, …).
        mode: &'static str,
        /// Variable name.
        name: String,
        /// Type of this declaration.
        ty: String,
        /// Type of the earlier declaration.
        other: String,
    },
    /// An unsized member of a shader storage block that is neither its last
    /// member nor indexed with a constant, so it cannot be implicitly sized
    /// (Mesa's `link_uniform_blocks`).
    #[error(
        "unsized array `{0}' definition: only last member of a shader storage block can be defined as unsized array"
    )]
    UnsizedBufferMemberNotLast(String),
    /// An implicitly sized array is indexed past the size another unit declares.
    #[error(
        "{mode} `{name}' declared as type `{ty}' but outermost dimension has an index of `{index}'"
    )]
    ArrayIndexTooLarge {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
        /// The sized type.
        ty: String,
        /// Highest index used.
        index: i32,
    },
    /// Explicit locations of one global differ between declarations.
    #[error("explicit locations for {mode} `{name}' have differing values")]
    LocationMismatch {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
    },
    /// Explicit components of one global differ between declarations.
    #[error("explicit components for {mode} `{name}' have differing values")]
    ComponentMismatch {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
    },
    /// Explicit bindings of one global differ between declarations.
    #[error("explicit bindings for {mode} `{name}' have differing values")]
    BindingMismatch {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
    },
    /// Constant initializers of one global differ between declarations.
    #[error("initializers for {mode} `{name}' have differing values")]
    InitializerMismatch {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
    },
    /// `invariant` / `centroid` / … differ between declarations of one global.
    #[error("declarations for {mode} `{name}' have mismatching {qualifier} qualifiers")]
    QualifierMismatch {
        /// Mode string.
        mode: &'static str,
        /// Variable name.
        name: String,
        /// Qualifier word (`invariant`, `centroid`, `precision`).
        qualifier: &'static str,
    },
    /// Two units give one global variable initializers, not both constant.
    #[error("shared global variable `{0}' has multiple non-constant initializers.")]
    MultipleNonConstInitializers(String),
    /// An interface block is defined differently in two units or stages.
    #[error("definitions of interface block `{0}' do not match")]
    InterfaceBlockMismatch(String),
    /// Two units define the same function signature.
    #[error("function `{0}' is multiply defined")]
    MultiplyDefined(String),
    /// No unit of a stage defines `main`.
    #[error("{0} shader lacks `main'")]
    MissingMain(&'static str),
    /// A reachable call to a function that no unit defines.
    #[error("unresolved reference to function `{0}'")]
    UnresolvedFunction(String),
    /// A function reachable from itself (prototype printed).
    #[error("function `{0}' has static recursion.")]
    StaticRecursion(String),
    /// GLSL < 1.40 vertex shader that never writes `gl_Position`.
    #[error("vertex shader does not write to `gl_Position'.")]
    NoGlPosition,
    /// A fragment shader writing both built-in colour outputs.
    #[error("fragment shader writes to both `gl_FragColor' and `gl_FragData'")]
    FragColorAndFragData,
    /// A stage writing both clip outputs.
    #[error("{0} shader writes to both `gl_ClipVertex' and `gl_ClipDistance'")]
    ClipVertexAndClipDistance(&'static str),
    /// Geometry shader without an input primitive.
    #[error("geometry shader didn't declare primitive input type")]
    GsNoInputPrimitive,
    /// Geometry shader without an output primitive.
    #[error("geometry shader didn't declare primitive output type")]
    GsNoOutputPrimitive,
    /// Subroutines declared in more than one shader of a stage.
    #[error("subroutines are declared in more than one {0} shader; rgl assigns subroutine indices per shader and cannot link them")]
    SubroutinesInSeveralShaders(&'static str),
    /// A compute shader linked together with shaders of other stages.
    #[error("compute shaders may not be linked with any other type of shader")]
    ComputeWithOtherStages,
    /// A compute program without `layout(local_size_*) in;`.
    #[error("compute shader must contain a fixed local group size")]
    CsNoLocalSize,
    /// Compute units disagree on the local size.
    #[error("compute shader defined with conflicting local sizes ({0:?} and {1:?})")]
    CsConflictingLocalSize([u32; 3], [u32; 3]),
    /// Geometry shader without `max_vertices`.
    #[error("geometry shader didn't declare max_vertices")]
    GsNoMaxVertices,
    /// Geometry units disagree on the input primitive.
    #[error("geometry shader defined with conflicting input types")]
    GsConflictingInput,
    /// Geometry units disagree on the output primitive.
    #[error("geometry shader defined with conflicting output types")]
    GsConflictingOutput,
    /// Geometry units disagree on `max_vertices`.
    #[error("geometry shader defined with conflicting output vertex count ({0} and {1})")]
    GsConflictingMaxVertices(u32, u32),
    /// A geometry input array whose size contradicts the input primitive.
    #[error("size of array {0} declared as {1}, but number of input vertices is {2}")]
    GsInputSize(String, u32, u32),
    /// Fragment shaders disagree on the `gl_FragCoord` layout.
    #[error("fragment shader defined with conflicting layout qualifiers for gl_FragCoord")]
    FragCoordLayoutConflict,
    /// Fragment shaders disagree on the `gl_FragDepth` depth layout
    /// (ARB/AMD_conservative_depth: every redeclaration in a program has the
    /// same qualifiers, and every shader assigning it redeclares it).
    #[error("all redeclarations of gl_FragDepth in all fragment shaders in a single program must have the same set of qualifiers")]
    FragDepthLayoutConflict,
    /// ES 1.00: an invariant fragment built-in whose vertex counterpart is not.
    #[error("fragment shader built-in `{0}' has invariant qualifier, but vertex shader built-in `{1}' lacks invariant qualifier")]
    InvariantBuiltin(&'static str, &'static str),
    /// ES 1.00: `gl_FrontFacing` declared invariant.
    #[error("fragment shader built-in `gl_FrontFacing' can not be declared as invariant")]
    FrontFacingInvariant,
    /// An implicitly sized built-in array indexed beyond its implementation limit.
    #[error("`{0}' array size cannot be larger than {1} ({2})")]
    BuiltinArrayTooLarge(&'static str, &'static str, u32),
    /// Producer output and consumer input types differ.
    #[error("{producer} shader output `{name}' declared as type `{out_ty}', but {consumer} shader input declared as type `{in_ty}'")]
    VaryingTypeMismatch {
        /// Producer stage.
        producer: &'static str,
        /// Output name.
        name: String,
        /// Output type.
        out_ty: String,
        /// Consumer stage.
        consumer: &'static str,
        /// Input type.
        in_ty: String,
    },
    /// Interpolation qualifiers of a matched varying differ.
    #[error("{producer} shader output `{name}' specifies {out_interp} interpolation qualifier, but {consumer} shader input specifies {in_interp} interpolation qualifier")]
    InterpolationMismatch {
        /// Producer stage.
        producer: &'static str,
        /// Output name.
        name: String,
        /// Output interpolation word (`smooth`, `flat`, `noperspective`, `no`).
        out_interp: &'static str,
        /// Consumer stage.
        consumer: &'static str,
        /// Input interpolation word.
        in_interp: &'static str,
    },
    /// `invariant` of a matched varying differs (GLSL < 4.30 / ES < 3.00).
    #[error("{producer} shader output `{name}' {out_has} invariant qualifier, but {consumer} shader input {in_has} invariant qualifier")]
    InvariantMismatch {
        /// Producer stage.
        producer: &'static str,
        /// Output name.
        name: String,
        /// `has` / `lacks`.
        out_has: &'static str,
        /// Consumer stage.
        consumer: &'static str,
        /// `has` / `lacks`.
        in_has: &'static str,
    },
    /// Desktop GLSL ≤ 1.20: a consumer reads a varying the producer does not write.
    #[error("{consumer} shader varying {name} not written by {producer} shader.")]
    VaryingNotWritten {
        /// Consumer stage.
        consumer: &'static str,
        /// Input name.
        name: String,
        /// Producer stage.
        producer: &'static str,
    },
    /// A statically used input with no output (ES 3.00).
    #[error("{consumer} shader input `{name}' has no matching output in the previous stage")]
    NoMatchingOutput {
        /// Consumer stage.
        consumer: &'static str,
        /// Input name.
        name: String,
    },
    /// A statically used explicit-location input with no output at that location.
    #[error("{consumer} shader input `{name}' with explicit location has no matching output")]
    NoMatchingExplicitOutput {
        /// Consumer stage.
        consumer: &'static str,
        /// Input name.
        name: String,
    },
    /// Two explicit-location varyings of one stage overlap.
    #[error("{stage} shader has multiple {dir}puts explicitly assigned to location {location} and component {component}")]
    VaryingLocationAliasing {
        /// Stage.
        stage: &'static str,
        /// `in` / `out`.
        dir: &'static str,
        /// Location (relative to `VARYING_SLOT_VAR0`).
        location: u32,
        /// Component.
        component: u32,
    },
    /// Two varyings sharing a location differ in numerical type or in
    /// interpolation (GLSL 4.40 §4.4.1: "the aliases sharing the location must
    /// have the same underlying numerical type (floating-point or integer) and
    /// the same auxiliary storage and interpolation qualification").
    #[error(
        "{stage} shader has multiple {dir}puts sharing location {location} that differ in {what}"
    )]
    VaryingAliasMismatch {
        /// Stage.
        stage: &'static str,
        /// `in` / `out`.
        dir: &'static str,
        /// Location (relative to `VARYING_SLOT_VAR0`, or the draw buffer).
        location: u32,
        /// `numerical type` or `interpolation`.
        what: &'static str,
    },
    /// Explicit varying location outside the generic range.
    #[error("Invalid location {0} in {1} shader")]
    InvalidVaryingLocation(i32, &'static str),
    /// Varyings do not fit in the generic slots.
    #[error("insufficient contiguous locations available for {0} it is possible an array or struct could not be packed between varyings with explicit locations. Try using an explicit location for arrays and structs.")]
    NoVaryingLocation(String),
    /// Too many input/output components in one stage.
    #[error("{stage} shader uses too many {dir} components ({count} > {max})")]
    TooManyVaryingComponents {
        /// Stage.
        stage: &'static str,
        /// `input` / `output`.
        dir: &'static str,
        /// Components used.
        count: u32,
        /// Limit.
        max: u32,
    },
    /// Explicit attribute / output location out of range.
    #[error("invalid explicit location {location} specified for `{name}'")]
    InvalidExplicitLocation {
        /// The location.
        location: i32,
        /// Variable name.
        name: String,
    },
    /// No room for an attribute / fragment output.
    #[error("insufficient contiguous locations available for {what} `{name}'")]
    NoContiguousLocations {
        /// `vertex shader input` / `fragment shader output`.
        what: &'static str,
        /// Variable name.
        name: String,
    },
    /// Two fragment outputs (same blend index) share a location.
    #[error("overlapping location is assigned to {what} `{name}'")]
    OverlappingLocation {
        /// `vertex shader input` / `fragment shader output`.
        what: &'static str,
        /// Variable name.
        name: String,
    },
    /// A dual-source output (index 1) beyond the dual-source buffers.
    #[error("output location {location} is out of range for index 1 (max {max})")]
    DualSourceLocation {
        /// The location.
        location: i32,
        /// Dual-source draw buffers.
        max: u32,
    },
    /// More attribute slots than the implementation has.
    #[error("attempt to use {0} vertex attribute slots only {1} available")]
    TooManyAttributeSlots(u32, u32),
    /// Default uniform block too large for a stage.
    #[error("Too many {0} shader default uniform block components")]
    TooManyDefaultUniformComponents(&'static str),
    /// Too many samplers in a stage.
    #[error("Too many {0} shader texture samplers")]
    TooManySamplers(&'static str),
    /// Too many image uniforms in a stage (GL 4.2 §8.26 `MAX_*_IMAGE_UNIFORMS`;
    /// Mesa's `link_uniforms` wording).
    #[error("Too many {0} shader image uniforms ({1} > {2})")]
    TooManyImageUniforms(&'static str, u32, u32),
    /// Too many image uniforms in the program (`MAX_COMBINED_IMAGE_UNIFORMS`).
    #[error("Too many combined image uniforms ({0} > {1})")]
    TooManyCombinedImageUniforms(u32, u32),
    /// Too many samplers in the program.
    #[error("Too many combined texture samplers ({0}/{1})")]
    TooManyCombinedSamplers(u32, u32),
    /// Too many uniform blocks in a stage.
    #[error("Too many {0} uniform blocks ({1}/{2})")]
    TooManyUniformBlocks(&'static str, u32, u32),
    /// Too many uniform blocks in the program.
    #[error("Too many combined uniform blocks ({0}/{1})")]
    TooManyCombinedUniformBlocks(u32, u32),
    /// A uniform block larger than `MAX_UNIFORM_BLOCK_SIZE`.
    #[error("Uniform block {0} too big ({1}/{2})")]
    UniformBlockTooBig(String, u32, u32),
    /// Too many shader storage blocks in a stage (Mesa's `link_uniform_blocks`).
    #[error("Too many {0} shader storage blocks ({1}/{2})")]
    TooManyStorageBlocks(&'static str, u32, u32),
    /// Too many shader storage blocks in the program.
    #[error("Too many combined shader storage blocks ({0}/{1})")]
    TooManyCombinedStorageBlocks(u32, u32),
    /// A shader storage block larger than `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`.
    #[error(
        "shader storage block `{0}' has size {1}, which is larger than the maximum allowed ({2})"
    )]
    StorageBlockTooBig(String, u32, u32),
    /// A shader storage block bound past the last binding point.
    #[error("shader storage block `{0}' has binding {1}, which exceeds the maximum number of SSBO binding points ({2})")]
    StorageBindingTooLarge(String, u32, u32),
    /// Two different atomic counters of one binding share storage (Mesa's
    /// `link_atomics`).
    #[error("Atomic counter {0} declared at offset {1} which is already in use.")]
    AtomicCounterOverlap(String, u32),
    /// Too many atomic counters in a stage (`GL_MAX_<stage>_ATOMIC_COUNTERS`).
    #[error("Too many {0} shader atomic counters")]
    TooManyAtomicCounters(&'static str),
    /// Too many atomic counter buffers in a stage.
    #[error("Too many {0} shader atomic counter buffers")]
    TooManyAtomicCounterBuffers(&'static str),
    /// Too many atomic counters in the program.
    #[error("Too many combined atomic counters")]
    TooManyCombinedAtomicCounters,
    /// Too many atomic counter buffers in the program.
    #[error("Too many combined atomic buffers")]
    TooManyCombinedAtomicCounterBuffers,
    /// A compute shader with more shared memory than
    /// `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`.
    #[error("Too much shared memory used ({0}/{1})")]
    TooMuchSharedMemory(u32, u32),
    /// Two uniforms claim the same explicit location.
    #[error("location qualifier for uniform {0} overlaps previously used location")]
    UniformLocationOverlap(String),
    /// More uniform locations than `MAX_UNIFORM_LOCATIONS`.
    #[error("count of uniform locations > MAX_UNIFORM_LOCATIONS({0} > {1})")]
    TooManyUniformLocations(u32, u32),
    /// A stage of the program failed to convert or optimise; names the stage and why.
    #[error("{stage} shader: {error}")]
    Pipeline {
        /// Stage name (`vertex`, `geometry`, `fragment`).
        stage: &'static str,
        /// What failed.
        #[source]
        error: PipelineError,
    },
}

/// Why the link-time NIR pipeline failed on a stage.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PipelineError {
    /// `glsl_to_nir` could not convert the stage.
    #[error(transparent)]
    ToNir(#[from] crate::to_nir::ToNirError),
    /// A NIR pass refused the stage (a size limit, an unsupported construct) or broke
    /// it.
    #[error(transparent)]
    Pass(#[from] rgl_nir::passes::PassError),
}

/// The info log of a failed link: every error, then any warnings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkLog {
    /// Errors in the order they were found.
    pub errors: Vec<LinkError>,
    /// Warnings.
    pub warnings: Vec<String>,
}

impl LinkLog {
    /// A log holding one error.
    pub fn error(e: LinkError) -> LinkLog {
        LinkLog {
            errors: vec![e],
            warnings: Vec::new(),
        }
    }
}

impl fmt::Display for LinkLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.errors {
            writeln!(f, "error: {e}")?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LinkLog {}
