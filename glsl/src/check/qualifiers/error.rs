//! [`QualifierError`]: every message the qualifier rules can report. Wording
//! follows Mesa's `glsl_parser.yy` / `ast_to_hir.cpp` / `ast_type.cpp` where Mesa
//! has a message; the few messages for cases Mesa reports as plain syntax errors
//! are our own and say what is wrong.

use crate::version::Stage;

/// Qualifier errors and warnings.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QualifierError {
    /// A qualifier that is not allowed in this context.
    #[error("{0} cannot be used here")]
    NotAllowed(String),
    /// A feature the version in use does not have (Mesa's `check_version` shape).
    #[error("{problem} in {current} ({required} required)")]
    VersionRequired {
        /// What is not allowed.
        problem: String,
        /// The version in use, e.g. `GLSL 1.20`.
        current: String,
        /// The versions that have it, e.g. `GLSL 1.30 or GLSL ES 3.00`.
        required: String,
    },
    /// A word reserved in this version.
    #[error("illegal use of reserved word `{0}'")]
    ReservedWord(String),
    /// A qualifier the shader's version has but rgl does not implement
    /// (tessellation `patch`, `sample`, `subroutine`, image memory qualifiers).
    #[error("`{0}' qualifiers are not supported")]
    NotImplemented(&'static str),
    /// A qualifier from a later GLSL version or an extension rgl does not offer.
    #[error("`{word}' qualifier requires {requirement}")]
    Unsupported {
        /// The qualifier word.
        word: String,
        /// What would provide it.
        requirement: &'static str,
    },

    // ---- order and duplicates (before GLSL 4.20 / ARB_shading_language_420pack)
    /// `invariant invariant`
    #[error("duplicate \"invariant\" qualifier")]
    DuplicateInvariant,
    /// `precise precise`
    #[error("duplicate \"precise\" qualifier")]
    DuplicatePrecise,
    /// `invariant` after `precise`.
    #[error("\"invariant\" must come after \"precise\"")]
    InvariantAfterPrecise,
    /// ES 3.00: `invariant in`.
    #[error("invariant qualifiers cannot be used with shader inputs")]
    InvariantOnInput,
    /// Two interpolation qualifiers.
    #[error("duplicate interpolation qualifier")]
    DuplicateInterpolation,
    /// Interpolation before `invariant`.
    #[error("interpolation qualifiers must come after \"precise\" or \"invariant\"")]
    InterpolationOrder,
    /// Two `layout(...)` groups on one declaration.
    #[error("duplicate layout(...) qualifiers")]
    DuplicateLayouts,
    /// The same layout identifier twice in one `layout(...)`.
    #[error("duplicate layout qualifiers used")]
    DuplicateLayoutIds,
    /// `centroid centroid`
    #[error("duplicate auxiliary storage qualifier (centroid or sample)")]
    DuplicateAuxiliary,
    /// `centroid` not directly before the storage qualifier.
    #[error("auxiliary storage qualifiers must come just before storage qualifiers")]
    AuxiliaryOrder,
    /// Two storage qualifiers.
    #[error("duplicate storage qualifier")]
    DuplicateStorage,
    /// Storage qualifier before invariant/interpolation/layout/centroid.
    #[error(
        "storage qualifiers must come after precise, invariant, interpolation, layout and \
         auxiliary storage qualifiers"
    )]
    StorageOrder,
    /// Two precision qualifiers.
    #[error("duplicate precision qualifier")]
    DuplicatePrecision,
    /// Precision qualifier not last.
    #[error("precision qualifiers must come last")]
    PrecisionOrder,
    /// Parameter `const const`.
    #[error("duplicate const qualifier")]
    DuplicateConst,
    /// Parameter `in out`.
    #[error("duplicate in/out/inout qualifier")]
    DuplicateDirection,
    /// Parameter `in const`.
    #[error("in/out/inout must come after const or precise")]
    DirectionOrder,

    // ---- storage and context
    /// `const out` parameter.
    #[error("`const' may not be applied to `out' or `inout' function parameters")]
    ConstOutParameter,
    /// A qualifier the parameter grammar does not accept.
    #[error("`{0}' qualifier is not allowed on function parameters")]
    NotOnParameter(String),
    /// `layout(...)` on a parameter.
    #[error("layout qualifiers are not allowed on function parameters")]
    LayoutOnParameter,
    /// `inout` on a variable.
    #[error("A single interface variable cannot be declared as both input and output")]
    InOutInterface,
    /// Global `in`/`out` before GLSL 1.30.
    #[error("`{word}' qualifier is only valid for function parameters in {version}")]
    OnlyForParameters {
        /// `in` or `out`.
        word: &'static str,
        /// The version in use.
        version: String,
    },
    /// Interface storage on a local variable.
    #[error("{word} variables must be declared at global scope{extra}")]
    MustBeGlobal {
        /// The storage word.
        word: &'static str,
        /// `" or in function parameter list"` for `in`/`out`.
        extra: &'static str,
    },
    /// `attribute` outside the vertex shader.
    #[error("`attribute' variables may not be declared in the {0} shader")]
    AttributeStage(Stage),
    /// GLSL ES 3.10 §4.1.9: an unsized array member of a shader storage block
    /// that is not its last member (desktop GLSL sizes it implicitly instead).
    #[error(
        "unsized array `{0}' definition: only last member of a shader storage block can be defined as unsized array"
    )]
    UnsizedNotLast(String),
    /// `buffer` on a variable outside a block (ARB_shader_storage_buffer_object).
    #[error("buffer variables cannot be declared outside interface blocks")]
    BufferOutsideBlock,
    /// A memory qualifier on something that is not a buffer variable, block
    /// or image (GLSL 4.30 §4.10).
    #[error("memory qualifiers may only be used in the declarations of buffer variables, shader storage blocks and images")]
    MemoryQualifierTarget,
    /// A format layout qualifier on something that is not an image variable
    /// (GLSL 4.20 §4.4.6.2).
    #[error("format layout qualifiers may only be applied to image variables")]
    ImageFormatTarget,
    /// A format whose kind (float, int, uint) is not the image's (§4.4.6.2).
    #[error("format qualifier doesn't match the base data type of the image")]
    ImageFormatKind,
    /// Desktop GLSL: an image that may be read needs a format (§4.4.6.2).
    #[error("image not qualified with `writeonly' must have a format layout qualifier")]
    ImageFormatMissing,
    /// GLSL ES 3.10 §4.4.7: every image uniform has a format.
    #[error("image uniforms must have a format layout qualifier")]
    ImageFormatMissingEs,
    /// GLSL ES 3.10 §4.10: read-write images only with r32f, r32i, r32ui.
    #[error("image not qualified with `readonly' or `writeonly' must use the r32f, r32i or r32ui format")]
    ImageEsReadWriteFormat,
    /// `std430` on a block that is not a shader storage block.
    #[error("std430 is only allowed on shader storage blocks")]
    Std430NotStorage,
    /// A layout qualifier a shader storage block cannot take.
    #[error("invalid layout qualifiers used on a shader storage block")]
    InvalidBufferLayout,
    /// `shared` outside a compute shader (GLSL 4.30 §4.3.8).
    #[error(
        "the shared storage qualifier can only be used in compute shaders, not in the {0} shader"
    )]
    SharedStage(Stage),
    /// A user-defined `in`/`out` variable in a compute shader (ARB_compute_shader).
    #[error("compute shaders do not permit user-defined `{0}' variables")]
    ComputeInterface(&'static str),
    /// `local_size_*` anywhere but `layout(...) in;` of a compute shader.
    #[error("{0} can only be used in a compute shader input layout declaration")]
    LocalSizePlacement(&'static str),
    /// A `local_size_*` above `gl_MaxComputeWorkGroupSize` (GLSL 4.30 §4.4.1.1).
    #[error("{name} ({value}) exceeds MAX_COMPUTE_WORK_GROUP_SIZE ({limit})")]
    LocalSizeLimit {
        /// `local_size_x`, `_y` or `_z`.
        name: &'static str,
        /// The declared size.
        value: u32,
        /// The limit of that dimension.
        limit: u32,
    },
    /// The local size product above MAX_COMPUTE_WORK_GROUP_INVOCATIONS.
    #[error("product of local_sizes ({0}) exceeds MAX_COMPUTE_WORK_GROUP_INVOCATIONS ({1})")]
    LocalSizeInvocations(u64, u32),
    /// Two `layout(local_size_*) in;` with different sizes (GLSL 4.30 §4.4.1.1).
    #[error(
        "compute shader input layout does not match previous declaration ({old:?} vs {new:?})"
    )]
    LocalSizeMismatch {
        /// The earlier size.
        old: [u32; 3],
        /// This declaration's size.
        new: [u32; 3],
    },
    /// `varying` in a geometry shader.
    #[error("`varying' may not be used in a geometry shader (use `in' or `out')")]
    VaryingInGeometry,
    /// Qualifiers on a function return type.
    #[error("function return type has qualifiers")]
    ReturnTypeQualifiers,
    /// `subroutine` outside a function or a uniform declaration.
    #[error("`subroutine' may only qualify a function or a uniform")]
    SubroutineTarget,
    /// A qualifier other than `layout(index)` on a subroutine function.
    #[error("a subroutine function may only have `layout(index = N)' besides `subroutine'")]
    SubroutineFunctionQualifiers,
    /// `layout(index)` on a subroutine function without explicit uniform locations.
    #[error("`index' layout qualifier on a subroutine function requires GL_ARB_explicit_uniform_location or GLSL 4.30")]
    SubroutineIndexUnavailable,
    /// A type list on a `subroutine uniform`.
    #[error("a subroutine uniform names one subroutine type, not `subroutine(...)'")]
    SubroutineUniformTypeList,
    /// `layout(index)` on a subroutine uniform.
    #[error("`index' layout qualifier is not allowed on a subroutine uniform")]
    SubroutineUniformIndex,
    /// Non-precision qualifiers on a struct member.
    #[error("only precision qualifiers may be applied to structure members")]
    StructMemberQualifiers,
    /// `attribute`/`varying` on a block member.
    #[error("keyword '{0}' cannot be used with interface block member")]
    BlockMemberKeyword(&'static str),
    /// Member storage that disagrees with the block.
    #[error("`{member}' member in a `{block}' interface block")]
    BlockMemberStorage {
        /// Storage word on the member.
        member: &'static str,
        /// Storage of the block.
        block: &'static str,
    },
    /// Interpolation/centroid/invariant on a uniform block member.
    #[error("{0} qualifiers cannot be used with uniform interface blocks")]
    UniformBlockMemberQualifier(&'static str),
    /// Block with a storage other than `uniform`, `in` or `out`.
    #[error("interface blocks must be qualified `uniform', `in' or `out'")]
    BlockStorage,
    /// Block qualifier words beyond layout and storage.
    #[error("only layout and storage qualifiers may be applied to an interface block")]
    BlockQualifiers,
    /// `in` block in a vertex shader / `out` block in a fragment shader.
    #[error("{stage} shader {kind} interface blocks are not allowed")]
    BlockStage {
        /// Stage.
        stage: Stage,
        /// `input` or `output`.
        kind: &'static str,
    },
    /// Malformed qualifier-only declaration.
    #[error(
        "a qualifier-only declaration must be `layout(...)' followed by `in', `out' or `uniform'"
    )]
    QualifierOnlyForm,
    /// Interpolation on something that is not a stage input/output.
    #[error("interpolation qualifier `{0}' can only be applied to shader inputs or outputs.")]
    InterpolationNotInterface(&'static str),
    /// Interpolation on a vertex shader input.
    #[error("interpolation qualifier '{0}' cannot be applied to vertex shader inputs")]
    InterpolationVsInput(&'static str),
    /// Interpolation on a fragment shader output.
    #[error("interpolation qualifier '{0}' cannot be applied to fragment shader outputs")]
    InterpolationFsOutput(&'static str),
    /// `flat varying` in GLSL 1.30+.
    #[error("qualifier '{interpolation}' cannot be applied to the deprecated storage qualifier '{storage}'")]
    InterpolationDeprecated {
        /// The interpolation word.
        interpolation: &'static str,
        /// `varying` or `centroid varying`.
        storage: &'static str,
    },
    /// `centroid` on something that is not a stage interface.
    #[error(
        "centroid qualifier may only be used with `in', `out' or `varying' variables between \
         shader stages"
    )]
    CentroidNotInterface,
    /// `invariant` on something that is not a stage interface.
    #[error("variable cannot be marked invariant; interfaces between shader stages only")]
    InvariantNotInterface,
    /// Integer fragment input without `flat`.
    #[error(
        "if a fragment input is (or contains) an integer, then it must be qualified with 'flat'"
    )]
    FlatRequired,
    /// Precision on a type that has none.
    #[error("precision qualifiers apply only to floating point, integer and opaque types")]
    PrecisionType,

    // ---- layout
    /// `layout` is not a keyword in this version.
    #[error(
        "`layout' qualifiers require GLSL 1.40, GLSL ES 3.00 or an extension that adds them \
         ({0} in use)"
    )]
    LayoutUnavailable(String),
    /// Unknown layout identifier.
    #[error("unrecognized layout identifier `{0}'")]
    UnrecognizedLayout(String),
    /// A geometry-shader layout identifier before GLSL 1.50.
    #[error("#version 150 layout qualifier `{0}' used")]
    LayoutNeeds150(String),
    /// A layout identifier from a later version.
    #[error("{what} requires {requirement}")]
    Requires {
        /// The identifier or feature.
        what: String,
        /// What would provide it.
        requirement: &'static str,
    },
    /// `layout(location = 1 + 1)` before GLSL 4.40.
    #[error("compile-time constant expressions require GLSL 4.40 or ARB_enhanced_layouts")]
    LayoutConstantExpression,
    /// A layout value that is not an integer.
    #[error("{0} must be an integral constant expression")]
    LayoutNotIntegral(String),
    /// A negative layout value.
    #[error("{name} layout qualifier is invalid ({value} < 0)")]
    LayoutNegative {
        /// Identifier.
        name: String,
        /// The value.
        value: i64,
    },
    /// `index` in ES without EXT_blend_func_extended.
    #[error("index layout qualifier requires EXT_blend_func_extended")]
    IndexRequiresExtension,
    /// `max_vertices` before GLSL 1.50.
    #[error("max_vertices qualifier specified")]
    MaxVerticesUnavailable,
    /// `invocations` without ARB_gpu_shader5.
    #[error("GL_ARB_gpu_shader5 invocations qualifier specified")]
    InvocationsUnavailable,
    /// `location` where the version/extension does not allow it.
    #[error("{mode} explicit location requires {requirement}")]
    ExplicitLocationRequires {
        /// `shader input`, `shader output`, `uniform`.
        mode: &'static str,
        /// What would allow it.
        requirement: &'static str,
    },
    /// `location` on a variable kind that cannot have one.
    #[error("{mode} cannot be given an explicit location in {stage} shader")]
    ExplicitLocationMode {
        /// Mesa's `mode_string`.
        mode: &'static str,
        /// Stage.
        stage: Stage,
    },
    /// `index` other than 0 or 1.
    #[error("explicit index may only be 0 or 1")]
    IndexRange,
    /// `index` without `location`.
    #[error("explicit index requires explicit location")]
    IndexWithoutLocation,
    /// `layout` together with `attribute`/`varying`.
    #[error("`layout' qualifier may not be used with `attribute' or `varying'")]
    LayoutWithDeprecated,
    /// `origin_upper_left` / `pixel_center_integer` on anything but gl_FragCoord.
    #[error("layout qualifier `{0}' can only be applied to fragment shader input `gl_FragCoord'")]
    FragCoordLayout(&'static str),
    /// Depth layout on anything but gl_FragDepth.
    #[error("depth layout qualifiers can be applied only to gl_FragDepth")]
    DepthLayoutTarget,
    /// `std140` etc. on a variable or block member.
    #[error(
        "uniform and shader storage block layout qualifiers std140, std430, packed, and shared \
         can only be applied to uniform or shader storage blocks, not members"
    )]
    BlockLayoutOnVariable,
    /// `row_major` on a variable outside a block.
    #[error(
        "uniform block layout qualifiers row_major and column_major may not be applied to \
         variables outside of uniform blocks"
    )]
    MatrixLayoutOnVariable,
    /// `row_major` on a non-matrix block member (a warning).
    #[error(
        "uniform block layout qualifiers row_major and column_major applied to non-matrix types \
         may be rejected by older compilers"
    )]
    MatrixLayoutNonMatrix,
    /// Packing/matrix layout on a non-uniform block.
    #[error("uniform block layout qualifiers can only be applied to uniform blocks")]
    BlockLayoutNonUniform,
    /// Primitive layout on a variable.
    #[error(
        "Primitive type may only be specified on GS input or output layout declaration, not on \
         variables."
    )]
    PrimitiveOnVariable,
    /// `max_vertices` / `invocations` on a variable.
    #[error("{0} may only be specified on a geometry shader layout declaration, not on variables")]
    GsLayoutOnVariable(&'static str),
    /// `early_fragment_tests` on a variable.
    #[error("early_fragment_tests layout qualifier only valid in fragment shader input layout declaration.")]
    EarlyFragmentTestsOnVariable,
    /// `early_fragment_tests` outside the fragment shader.
    #[error("early_fragment_tests layout qualifier only valid in fragment shaders")]
    EarlyFragmentTestsStage,
    /// Bad `layout(...) in;`.
    #[error("invalid input layout qualifiers used")]
    InvalidInputLayout,
    /// Bad `layout(...) out;`.
    #[error("invalid output layout qualifiers used")]
    InvalidOutputLayout,
    /// Bad `layout(...) uniform;`.
    #[error("invalid uniform layout qualifiers used")]
    InvalidUniformLayout,
    /// `layout(line_strip) in;`
    #[error("invalid geometry shader input primitive type")]
    InvalidGsInputPrimitive,
    /// `layout(triangles) out;`
    #[error("invalid geometry shader output primitive type")]
    InvalidGsOutputPrimitive,
    /// Two different input primitives.
    #[error("conflicting input primitive type specified")]
    ConflictingInputPrimitive,
    /// Two different output primitives.
    #[error("conflicting output primitive type specified")]
    ConflictingOutputPrimitive,
    /// Two different `max_vertices` / `invocations`.
    #[error("{name} layout qualifier does not match previous declaration ({new} vs {old})")]
    LayoutMismatch {
        /// Identifier.
        name: &'static str,
        /// Earlier value.
        old: u32,
        /// New value.
        new: u32,
    },
    /// `max_vertices` above the implementation limit.
    #[error("maximum output vertices ({value}) exceeds GL_MAX_GEOMETRY_OUTPUT_VERTICES ({limit})")]
    MaxVerticesLimit {
        /// Requested.
        value: u32,
        /// Limit.
        limit: u32,
    },
    /// `invocations = 0` or above the limit.
    #[error("invalid invocations {value} (must be between 1 and {limit})")]
    InvocationsRange {
        /// Requested.
        value: u32,
        /// Limit.
        limit: u32,
    },
    /// `binding` on a non-uniform.
    #[error(
        "the \"binding\" qualifier only applies to uniforms and shader storage buffer objects"
    )]
    BindingTarget,
    /// `binding` on a uniform that is neither a block nor opaque.
    #[error(
        "the \"binding\" qualifier only applies to uniform blocks, storage blocks, opaque \
         variables, or arrays thereof"
    )]
    BindingType,
    /// `location` on a block member before ARB_enhanced_layouts.
    #[error(
        "explicit location on an interface block member requires GLSL 4.40 or ARB_enhanced_layouts"
    )]
    BlockMemberLocation,

    // ---- types
    /// Vertex input of a type it cannot have.
    #[error("vertex shader input / attribute cannot have type {array}`{ty}'")]
    VsInputType {
        /// `"array of "` or empty.
        array: &'static str,
        /// Element type.
        ty: String,
    },
    /// Integer varying before GLSL 1.30.
    #[error("varying variables must be of base type float in {0}")]
    VaryingBaseFloat(String),
    /// Struct varying before GLSL 1.50.
    #[error("varying variables may not be of type struct")]
    VaryingStruct,
    /// Bool/sampler varying.
    #[error("illegal type for a varying variable")]
    VaryingType,
    /// ES fragment input of bool/opaque type.
    #[error("fragment shader input cannot have type {0}")]
    FsInputType(String),
    /// ES fragment input that is an array of structs.
    #[error("fragment shader input cannot have an array of structs")]
    FsInputArrayOfStructs,
    /// ES output that is an array of structs.
    #[error("{0} shader output cannot have an array of structs")]
    OutputArrayOfStructs(Stage),
    /// ES fragment input struct containing an array or struct.
    #[error("fragment shader input cannot have a struct that contains an array or struct")]
    FsInputNestedStruct,
    /// ES output struct containing an array or struct.
    #[error("{0} shader output cannot have a struct that contains an array or struct")]
    OutputNestedStruct(Stage),
    /// Fragment output struct or matrix.
    #[error("fragment shader output cannot have struct or matrix type")]
    FsOutputStructMatrix,
    /// Fragment output of a non-numeric type.
    #[error("fragment shader output cannot have type {0}")]
    FsOutputType(String),
    /// Geometry input that is not an array.
    #[error("geometry shader inputs must be arrays")]
    GsInputNotArray,
    /// Sampler with the wrong storage.
    #[error(
        "image/sampler variables may only be declared as function parameters or \
         uniform-qualified global variables"
    )]
    OpaqueStorage,
    /// Sampler that is not a uniform.
    #[error("opaque variables must be declared uniform")]
    OpaqueNotUniform,
    /// Sampler `out` parameter.
    #[error("out and inout parameters cannot contain opaque variables")]
    OpaqueOutParameter,
    /// Sampler in an interface block.
    #[error("interface block members cannot contain opaque types")]
    OpaqueBlockMember,
    /// `atomic_uint` member of a struct (GLSL 4.20 §4.1.7.1; Mesa's wording).
    #[error("atomic counter in structure, shader storage block or uniform block")]
    AtomicInStruct,
    /// Sampler return type.
    #[error("function return type can't contain an opaque type")]
    OpaqueReturn,

    // ---- enhanced layouts (GLSL 4.40 §4.4, ARB_enhanced_layouts)
    /// A layout value below its minimum (0, or 1 for `align`).
    #[error("{name} layout qualifier is invalid ({value} < {min})")]
    LayoutBelow {
        /// Identifier.
        name: String,
        /// The value.
        value: i64,
        /// The smallest valid value.
        min: i64,
    },
    /// `component` above 3.
    #[error("component layout qualifier {0} is out of range (0..3)")]
    ComponentRange(u32),
    /// `align` that is not a power of two.
    #[error("align layout qualifier {0} is not a power of 2")]
    AlignNotPowerOfTwo(u32),
    /// `xfb_buffer` at or above gl_MaxTransformFeedbackBuffers.
    #[error(
        "xfb_buffer {value} is too large, it must be less than {limit} \
         (gl_MaxTransformFeedbackBuffers)"
    )]
    XfbBufferRange {
        /// The value.
        value: u32,
        /// gl_MaxTransformFeedbackBuffers.
        limit: u32,
    },
    /// `xfb_stride` above gl_MaxTransformFeedbackInterleavedComponents * 4.
    #[error(
        "xfb_stride {value} is too large, it must be at most {limit} \
         (gl_MaxTransformFeedbackInterleavedComponents * 4)"
    )]
    XfbStrideTooLarge {
        /// The stride in bytes.
        value: u32,
        /// The largest stride.
        limit: u32,
    },
    /// An implicit transform feedback stride above the limit.
    #[error(
        "the transform feedback outputs of buffer {buffer} need a stride of {value} bytes, \
         more than {limit} (gl_MaxTransformFeedbackInterleavedComponents * 4)"
    )]
    XfbImplicitStrideTooLarge {
        /// The buffer.
        buffer: u32,
        /// The stride in bytes.
        value: u32,
        /// The largest stride.
        limit: u32,
    },
    /// `xfb_stride` not a multiple of 4.
    #[error("xfb_stride {0} must be a multiple of 4")]
    XfbStrideAlignment(u32),
    /// `xfb_offset` not a multiple of 4.
    #[error("xfb_offset {0} must be a multiple of 4 (the size of a 32-bit component)")]
    XfbOffsetAlignment(u32),
    /// Two `xfb_stride` values for one buffer.
    #[error("xfb_stride {new} of buffer {buffer} differs from its earlier xfb_stride {old}")]
    XfbStrideMismatch {
        /// The buffer.
        buffer: u32,
        /// The earlier stride.
        old: u32,
        /// This stride.
        new: u32,
    },
    /// A captured output that does not fit in the buffer's stride.
    #[error(
        "xfb_offset {offset} of `{name}' ({size} bytes) overflows xfb_stride {stride} of buffer \
         {buffer}"
    )]
    XfbStrideOverflow {
        /// Variable or member.
        name: String,
        /// Its offset.
        offset: u32,
        /// Its size in bytes.
        size: u32,
        /// The buffer's stride.
        stride: u32,
        /// The buffer.
        buffer: u32,
    },
    /// Two captured outputs overlapping in one buffer.
    #[error(
        "xfb_offset {offset} of `{name}' overlaps `{other}' in transform feedback buffer {buffer}"
    )]
    XfbOverlap {
        /// Variable or member.
        name: String,
        /// Its offset.
        offset: u32,
        /// The variable it overlaps.
        other: String,
        /// The buffer.
        buffer: u32,
    },
    /// A block member's `xfb_buffer` differs from its block's.
    #[error("xfb_buffer {member} of a block member differs from the block's xfb_buffer {block}")]
    XfbBufferMemberMismatch {
        /// The member's buffer.
        member: u32,
        /// The block's buffer.
        block: u32,
    },
    /// `xfb_offset` on an unsized array.
    #[error("xfb_offset cannot be applied to an unsized array")]
    XfbOffsetUnsized,
    /// `xfb_*` on something that is not a stage output.
    #[error("transform feedback layout qualifiers (xfb_*) only apply to shader outputs")]
    XfbNotOutput,
    /// `xfb_offset` on a qualifier-only declaration.
    #[error("xfb_offset cannot be used on a default output declaration (`layout(...) out;')")]
    XfbOffsetDefault,
    /// `xfb_*` in a fragment shader.
    #[error("transform feedback layout qualifiers (xfb_*) cannot be used in a fragment shader")]
    XfbFragment,
    /// `component` without `location`.
    #[error("component layout qualifier requires an explicit location")]
    ComponentWithoutLocation,
    /// `component` on something that is not a shader input or output.
    #[error("component layout qualifier only applies to shader inputs and outputs")]
    ComponentStorage,
    /// `component` on a matrix, struct or block (or an array of them).
    #[error(
        "component layout qualifier cannot be applied to `{0}' (a matrix, structure or block)"
    )]
    ComponentType(String),
    /// `component` with more components than the location has.
    #[error(
        "component layout qualifier {component} with `{ty}' ({size} components) overflows the \
         location's 4 components"
    )]
    ComponentOverflow {
        /// The first component.
        component: u32,
        /// The type.
        ty: String,
        /// Its components.
        size: u32,
    },
    /// `offset` outside a uniform block member.
    #[error(
        "offset layout qualifier only applies to members of uniform and shader storage blocks"
    )]
    OffsetTarget,
    /// `align` outside a uniform block or member.
    #[error("align layout qualifier only applies to uniform and shader storage blocks and their members")]
    AlignTarget,
    /// `offset`/`align` in a block that is not std140/std430.
    #[error("{0} layout qualifier can only be used in blocks with the std140 or std430 layout")]
    ExplicitLayoutPacking(&'static str),
    /// A member `offset` that is not a multiple of the member's base alignment.
    #[error(
        "offset {offset} of block member `{name}' is not a multiple of its base alignment {align}"
    )]
    OffsetMisaligned {
        /// Member.
        name: String,
        /// Its offset.
        offset: u32,
        /// Its base alignment.
        align: u32,
    },
    /// A member `offset` before the end of the previous member.
    #[error(
        "offset {offset} of block member `{name}' lies within or before the previous member \
         (which ends at {end})"
    )]
    OffsetOverlap {
        /// Member.
        name: String,
        /// Its offset.
        offset: u32,
        /// Where the previous member ends.
        end: u32,
    },
    /// `location` on a uniform block member.
    #[error("location layout qualifier cannot be used on uniform block members")]
    UniformMemberLocation,
    /// Some members of a block without a block location have locations, others not.
    #[error(
        "member `{0}' of a block without a location has no location while other members have one"
    )]
    BlockMemberLocationMissing(String),
    /// `layout(location)` on a member of a block array (GLSL 4.50 §4.4.1).
    #[error("block `{0}' is an array, so its members cannot have locations")]
    BlockArrayMemberLocation(String),
    /// `layout(stream = N)` with N not below MAX_VERTEX_STREAMS (Mesa's
    /// `validate_stream_qualifier`).
    #[error("invalid stream specified {value} is larger than MAX_VERTEX_STREAMS - 1 ({max}).")]
    StreamRange {
        /// Requested.
        value: i64,
        /// MAX_VERTEX_STREAMS - 1.
        max: u32,
    },
    /// `sample` on something that is not a stage interface (Mesa's
    /// `apply_type_qualifier_to_variable`).
    #[error("sample qualifier may only be used on `in` or `out` variables between shader stages")]
    SampleNotInterface,
    /// `sample` together with `centroid`.
    #[error("sample and centroid qualifiers cannot be used together")]
    SampleAndCentroid,
    /// `layout(stream = N)` on a block member that differs from the block's
    /// stream (GLSL 4.00 §4.4.2.1).
    #[error(
        "stream layout qualifier on interface block member `{member}' does not match the \
         interface block ({member_stream} vs {block_stream})"
    )]
    StreamMemberMismatch {
        /// Member name.
        member: String,
        /// The member's stream.
        member_stream: u32,
        /// The block's stream.
        block_stream: u32,
    },
}
