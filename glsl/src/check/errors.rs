//! The semantic error enum: one variant per kind of error or warning the
//! checker reports, with Mesa's wording.

use crate::version::Version;

/// Semantic errors (and the warnings that share their shape).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SemanticError {
    // ---- names and types ----
    /// A name was used that is not declared.
    #[error("`{0}' undeclared")]
    Undeclared(String),
    /// The memory argument of an atomic function is not a buffer or shared
    /// variable (GLSL 4.30 §8.11).
    #[error("first argument to {0}() must be a buffer or shared variable")]
    AtomicArgument(String),
    /// The interpolant of an `interpolateAt*()` call is not a shader input
    /// (GLSL 4.00 §8.13).
    #[error("parameter `interpolant` must be a shader input")]
    InterpolantNotInput,
    /// A swizzled interpolant before GLSL 4.40.
    #[error("parameter `interpolant` must not be swizzled")]
    InterpolantSwizzled,
    /// A `writeonly` buffer variable read (GLSL 4.30 §4.10).
    #[error("cannot read from a writeonly buffer variable")]
    ReadWriteOnly,
    /// `gl_WorkGroupSize` before `layout(local_size_*) in;` (GLSL 4.30 §7.1).
    #[error("gl_WorkGroupSize cannot be used before a local group size has been declared")]
    WorkGroupSizeUndeclared,
    /// `shared` variable with an initializer (GLSL 4.30 §4.3.8).
    #[error("shared variable `{0}' cannot have an initializer")]
    InitializeShared(String),
    /// A name declared twice in one scope.
    #[error("`{0}' redeclared")]
    Redeclared(String),
    /// A type name unknown in this version.
    #[error("type `{0}' is not available in GLSL {1}")]
    TypeNotAvailable(String, String),
    /// A user type name that is not declared.
    #[error("unknown type `{0}'")]
    UnknownType(String),
    /// A feature that needs a newer version.
    #[error("{what} in GLSL {current} (GLSL {desktop} or GLSL ES {es} required)")]
    VersionRequired {
        /// What was used.
        what: String,
        /// The version in use.
        current: String,
        /// The desktop version that has it.
        desktop: String,
        /// The ES version that has it.
        es: String,
    },
    /// Something rgl does not support (GLSL 4.x features).
    #[error("{0} are not supported")]
    Unsupported(&'static str),
    /// An expression or statement nested past the checker's limit.
    #[error("expression or statement nesting is too deep")]
    TooDeep,
    /// `gl_` names are reserved.
    #[error("identifier `{0}' uses reserved `gl_' prefix")]
    ReservedPrefix(String),
    /// `__` names are reserved (a warning).
    #[error("identifier `{0}' uses reserved `__' string")]
    ReservedDoubleUnderscore(String),

    // ---- arrays and structs ----
    /// `float a[2][3]` before GLSL 4.30.
    #[error("arrays of arrays are not allowed before GLSL 4.30 without GL_ARB_arrays_of_arrays")]
    ArraysOfArrays,
    /// Non-integer array size.
    #[error("array size must be integer type")]
    ArraySizeNotInteger,
    /// Non-scalar array size.
    #[error("array size must be scalar type")]
    ArraySizeNotScalar,
    /// Non-constant array size.
    #[error("array size must be a constant valid expression")]
    ArraySizeNotConstant,
    /// Zero or negative array size.
    #[error("array size must be > 0")]
    ArraySizeNotPositive,
    /// Array size beyond the implementation limit.
    #[error("array size {0} exceeds the limit of {1}")]
    ArrayTooLarge(i64, u32),
    /// A resize smaller than an earlier constant access.
    #[error("array size must be > {0} due to previous access")]
    ArraySizeBelowAccess(u32),
    /// Struct with no members.
    #[error("struct `{0}' has no members")]
    EmptyStruct(String),
    /// Struct name taken in this scope.
    #[error("struct `{0}' previously defined")]
    StructRedeclared(String),
    /// Struct definition inside a struct (ES) or a block.
    #[error("embedded structure declarations are not allowed")]
    EmbeddedStruct,
    /// `void` member.
    #[error("void member in `{0}'")]
    VoidMember(String),
    /// Unsized array member.
    #[error("member `{0}' is an unsized array")]
    UnsizedMember(String),
    /// Two members with one name.
    #[error("duplicate field `{0}' in `{1}'")]
    DuplicateField(String, String),
    /// Unsized array declaration in GLSL ES.
    #[error("unsized array declarations are not allowed in GLSL ES")]
    UnsizedArrayEs,

    // ---- precision ----
    /// Precision statements before GLSL 1.30.
    #[error("precision statements are not allowed in GLSL {0}")]
    PrecisionNotAvailable(String),
    /// Precision statement on an unsupported type.
    #[error("default precision statements apply only to float, int, and opaque types")]
    PrecisionStatementType,
    /// `highp struct S { .. };`
    #[error("precision qualifiers can't be applied to structures")]
    PrecisionOnStruct,
    /// Prototype and definition with different return precisions.
    #[error("function `{0}' return type precision doesn't match prototype")]
    ReturnPrecisionMismatch(String),
    /// Definition parameter without a name.
    #[error("formal parameter of `{0}' lacks a name")]
    ParameterWithoutName(String),
    /// ES declaration of a type without a default precision.
    #[error("No precision specified in this scope for type `{0}'")]
    NoDefaultPrecision(String),

    // ---- operators ----
    /// Arithmetic on non-numeric operands.
    #[error("operands to arithmetic operators must be numeric")]
    ArithmeticNotNumeric,
    /// `!`, `&&`, `||`, `^^`, `?:` on non-bool.
    #[error("{0} of `{1}' must be scalar boolean")]
    NotScalarBool(String, String),
    /// `~` on non-integer.
    #[error("operand of `~' must be an integer")]
    ComplementNotInteger,
    /// No implicit conversion makes the operands match.
    #[error("could not implicitly convert operands to arithmetic operator")]
    ArithmeticConversion,
    /// Operands of different base types.
    #[error("base type mismatch for arithmetic operator")]
    ArithmeticBaseMismatch,
    /// Vectors of different sizes.
    #[error("vector size mismatch for arithmetic operator")]
    VectorSizeMismatch,
    /// Matrix product of incompatible shapes.
    #[error("size mismatch for matrix multiplication")]
    MatrixMultiplySize,
    /// Any other operand combination.
    #[error("type mismatch")]
    TypeMismatch,
    /// `%`, `&`, `|`, `^` on non-integers.
    #[error("{0} of operator `{1}' must be an integer")]
    OperandNotInteger(String, String),
    /// No conversion for `%` and bitwise operators.
    #[error("could not implicitly convert operands to `{0}' operator")]
    OperatorConversion(String),
    /// Shift operands.
    #[error("{0} of operator {1} must be an integer or integer vector")]
    ShiftOperandNotInteger(String, String),
    /// Scalar shifted by a vector.
    #[error("if the first operand of {0} is scalar, the second must be scalar as well")]
    ShiftScalarVector(String),
    /// Vector shift size mismatch.
    #[error("vector operands to operator {0} must have same number of elements")]
    ShiftVectorSize(String),
    /// Bitwise vector size mismatch.
    #[error("operands of `{0}' cannot be vectors of different sizes")]
    BitwiseVectorSize(String),
    /// Relational operators on non-scalars.
    #[error("operands to relational operators must be scalar and numeric")]
    RelationalOperands,
    /// Relational operand conversion.
    #[error("could not implicitly convert operands to relational operator")]
    RelationalConversion,
    /// `void` operand of `==`.
    #[error("`{0}':  wrong operand types: no operation `{0}' exists that takes a left-hand operand of type 'void' or a right operand of type 'void'")]
    VoidOperand(String),
    /// `==` on different types.
    #[error("operands of `{0}' must have the same type")]
    EqualityTypes(String),
    /// Comparing samplers.
    #[error("opaque type comparisons forbidden")]
    OpaqueComparison,
    /// `?:` operands differ.
    #[error("second and third operands of ?: operator must have matching types")]
    TernaryTypes,

    // ---- assignments and l-values ----
    /// Writing a read-only variable.
    #[error("assignment to read-only variable `{0}'")]
    ReadOnlyAssignment(String),
    /// Writing something that is not an l-value.
    #[error("non-lvalue in assignment")]
    NotLvalue,
    /// Type mismatch in an assignment or initializer.
    #[error("{0} of type {1} cannot be assigned to variable of type {2}")]
    AssignmentMismatch(&'static str, String, String),
    /// Assigning to an unsized array.
    #[error("implicitly sized arrays cannot be assigned")]
    UnsizedArrayAssignment,
    /// `++`/`--` on a non-numeric value is reported as arithmetic; out
    /// arguments that are read-only:
    #[error("function parameter '{0} {1}' references the read-only variable '{2}'")]
    OutParamReadOnly(&'static str, String, String),
    /// Out argument that is not an l-value.
    #[error("function parameter '{0} {1}' is not an lvalue")]
    OutParamNotLvalue(&'static str, String),

    // ---- access ----
    /// Unknown struct member.
    #[error("cannot access field `{0}' of structure")]
    NoSuchField(String),
    /// Bad swizzle.
    #[error("invalid swizzle / mask `{0}'")]
    InvalidSwizzle(String),
    /// `.x` on a scalar, struct member of non-struct.
    #[error("cannot access field `{0}' of non-structure / non-vector")]
    FieldOfNonStruct(String),
    /// `.length()` on an unsized array.
    #[error("length called on unsized array")]
    LengthOfUnsized,
    /// `.length()` on a non-array.
    #[error("length method takes no arguments and may only be called on arrays")]
    LengthOfNonArray,
    /// Indexing something that is not indexable.
    #[error("cannot dereference non-array / non-matrix / non-vector")]
    IndexNonArray,
    /// Non-integer index.
    #[error("array index must be integer type")]
    IndexNotInteger,
    /// Non-scalar index.
    #[error("array index must be scalar")]
    IndexNotScalar,
    /// Constant index past the end.
    #[error("{0} index must be < {1}")]
    IndexOutOfBounds(&'static str, u64),
    /// Negative constant index.
    #[error("{0} index must be >= 0")]
    IndexNegative(&'static str),
    /// Variable index into an unsized array.
    #[error("unsized array index must be constant")]
    UnsizedIndexNotConstant,
    /// An image argument whose memory qualifier the formal parameter lacks
    /// (GLSL 4.20 §4.10).
    #[error("function call parameter `{0}' drops `{1}' qualifier")]
    ImageQualifierDropped(String, &'static str),
    /// Variable index into an implicitly sized member of a shader storage
    /// block that is not its runtime-sized last member (Mesa's
    /// `_mesa_ast_array_index_to_hir`).
    #[error("Indirect access on unsized array is limited to the last member of SSBO.")]
    UnsizedBufferIndexNotLast,
    /// Variable index into a sampler array (1.30+ / ES 3.00+).
    #[error(
        "sampler arrays indexed with non-constant expressions are forbidden in GLSL {0} and later"
    )]
    SamplerArrayNonConstant(&'static str),
    /// Variable index into a sampler array (warning before 1.30).
    #[error("sampler arrays indexed with non-constant expressions will be forbidden in GLSL {0} and later")]
    SamplerArrayNonConstantWarning(&'static str),
    /// Variable index into an array of uniform blocks.
    #[error("uniform block arrays may only be indexed with constant expressions")]
    BlockArrayNonConstant,

    // ---- functions ----
    /// `void` parameter with a name.
    #[error("parameter of type void is not allowed")]
    VoidParameter,
    /// `float a[]` parameter.
    #[error("function parameter is declared as an unsized array")]
    UnsizedParameter,

    /// Prototype inside a function body (1.20+).
    #[error("declaration of function `{0}' not allowed within function body")]
    LocalFunctionDeclaration(String),
    /// Sampler return type.
    #[error("function `{0}' return type can't contain an opaque type")]
    OpaqueReturn(String),
    /// Unsized array return type.
    #[error("function `{0}' return type is an unsized array")]
    UnsizedReturn(String),
    /// Function name used by a variable or type.
    #[error("function name `{0}' conflicts with non-function symbol")]
    FunctionNameConflict(String),
    /// Parameter qualifiers differ from the prototype.
    #[error("function `{0}' parameter `{1}' qualifiers don't match prototype")]
    ParameterQualifierMismatch(String, String),
    /// Return type differs from the prototype.
    #[error("function `{0}' return type doesn't match prototype")]
    ReturnTypeMismatch(String),
    /// Second definition.
    #[error("function `{0}' redefined")]
    FunctionRedefined(String),
    /// ES 3.00 forbids overloading built-ins.
    #[error("A shader cannot redefine or overload built-in function `{0}' in GLSL ES 3.00")]
    EsBuiltinOverload(String),
    /// ES 1.00 forbids redefining built-ins.
    #[error("A shader cannot redefine built-in function `{0}' in GLSL ES 1.00")]
    EsBuiltinRedefinition(String),
    /// `main` returning a value.
    #[error("main() must return void")]
    MainReturn,
    /// `main` with parameters.
    #[error("main() must not take any parameters")]
    MainParameters,
    /// Two parameters with one name.
    #[error("parameter `{0}' redeclared")]
    ParameterRedeclared(String),
    /// Non-void function without any `return`.
    #[error("function `{0}' has non-void return type {1}, but no return statement")]
    MissingReturn(String, String),
    /// No function of that name.
    #[error("no function with name '{0}'")]
    NoSuchFunction(String),
    /// No overload matches.
    #[error("no matching function for call to `{0}'; candidates are:\n{1}")]
    NoMatchingFunction(String, String),
    /// Several overloads match equally well.
    #[error("parameters of call to `{0}' are ambiguous; candidates are:\n{1}")]
    AmbiguousCall(String, String),
    /// `return x;` with the wrong type.
    #[error("`return' with wrong type {0}, in function `{1}' returning {2}")]
    ReturnTypeWrong(String, String, String),
    /// `return f();` in a void function (ES 3.00 / 4.20).
    #[error("void function `{0}' cannot return a value")]
    ReturnValueInVoid(String),
    /// `return;` in a non-void function.
    #[error("`return' with no value, in function {0} returning non-void")]
    ReturnWithoutValue(String),

    // ---- constructors ----
    /// `void(...)`
    #[error("cannot construct void")]
    ConstructVoid,
    /// `sampler2D(...)`
    #[error("cannot construct opaque type `{0}'")]
    ConstructOpaque(String),
    /// Array constructor argument count.
    #[error("array constructor must have {0} {1} parameter(s)")]
    ArrayConstructorCount(&'static str, u32),
    /// Array constructor argument type.
    #[error("type error in array constructor: expected: {0}, found {1}")]
    ArrayConstructorType(String, String),
    /// Struct constructor argument count.
    #[error("{0} parameters in constructor for `{1}'")]
    StructConstructorCount(&'static str, String),
    /// Struct constructor argument type.
    #[error("parameter type mismatch in constructor for `{0}.{1}' ({2} vs {3})")]
    StructConstructorType(String, String, String, String),
    /// Constructor from arrays/structs/samplers.
    #[error("cannot construct `{0}' from a non-numeric data type")]
    ConstructNonNumeric(String),
    /// Arguments beyond the last used one.
    #[error("too many parameters to `{0}' constructor")]
    ConstructorTooMany(String),
    /// A matrix argument plus others.
    #[error("for matrix `{0}' constructor, matrix must be only parameter")]
    MatrixConstructorOnlyParam(String),
    /// Not enough components.
    #[error("too few components to construct `{0}'")]
    ConstructorTooFew(String),

    // ---- declarations ----
    /// `float;`
    #[error("empty declaration")]
    EmptyDeclaration,
    /// `void x;`
    #[error("`{0}' declared as type void")]
    VoidVariable(String),
    /// `const float x;`
    #[error("const declaration of `{0}' must be initialized")]
    ConstWithoutInitializer(String),
    /// `uniform sampler2D s = ...`
    #[error("cannot initialize sampler variable `{0}'")]
    InitializeSampler(String),
    /// `uniform atomic_uint c = ...` (GLSL 4.20 §4.1.7.1).
    #[error("atomic counter `{0}' cannot have an initializer")]
    InitializeAtomic(String),
    /// An atomic counter without `layout(binding)` (Mesa's wording).
    #[error("atomic counters require explicit binding point")]
    AtomicNoBinding,
    /// `layout(binding)` of a counter at or above `gl_MaxAtomicCounterBindings`.
    #[error(
        "layout(binding = {0}) exceeds the maximum number of atomic counter buffer bindings ({1})"
    )]
    AtomicBindingRange(i32, u32),
    /// `layout(offset)` of a counter not a multiple of 4 (GLSL 4.20 §4.4.4.6).
    #[error("misaligned atomic counter offset")]
    AtomicMisaligned,
    /// Two counters of one binding share storage (GLSL 4.20 §4.4.4.6).
    #[error("atomic counter `{0}' (offset {1}) overlaps `{2}' in binding {3}")]
    AtomicOverlap(String, u32, String, i32),
    /// A counter's storage runs past the 32-bit offset range.
    #[error("atomic counter `{0}' lies beyond the addressable atomic counter buffer range")]
    AtomicOffsetOverflow(String),
    /// Initializer on a global input.
    #[error("cannot initialize {0} shader input / {1}")]
    InitializeInput(&'static str, &'static str),
    /// Initializer on a global output.
    #[error("cannot initialize {0} shader output")]
    InitializeOutput(&'static str),
    /// Non-constant initializer of a const or uniform.
    #[error("initializer of {0} variable `{1}' must be a constant expression")]
    NonConstantInitializer(&'static str, String),
    /// An initializer list (`{ … }`) for a type that is not a vector, matrix,
    /// array or structure (GLSL 4.20 §4.1.11).
    #[error("aggregate initializer cannot initialize a value of type `{0}'")]
    AggregateNotAggregate(String),
    /// An initializer list with the wrong number of items for a vector or
    /// matrix (GLSL 4.20 §4.1.11: one item per component or column).
    #[error("{0} initializers in aggregate initializer for `{1}'")]
    AggregateCount(&'static str, String),
    /// An item of an initializer list that does not implicitly convert to the
    /// component or column type it initializes.
    #[error("aggregate initializer item of type `{1}' cannot initialize `{0}'")]
    AggregateItemType(String, String),
    /// GLSL ES 1.00 global initializer that is not constant.
    #[error("initializer of global variable `{0}' must be a constant expression")]
    NonConstantGlobalInitializer(String),
    /// `subroutine R T(..) { .. }`: a subroutine type declaration with a body,
    /// or a function whose `subroutine()` type list is empty.
    #[error("subroutine type `{0}' cannot have a body; declare `subroutine(T) ...' functions")]
    SubroutineTypeBody(String),
    /// A function with a subroutine type list that is only a prototype.
    #[error("subroutine function `{0}' must be defined where it is declared")]
    SubroutinePrototype(String),
    /// A name in a subroutine type list or a subroutine uniform's type that
    /// is not a subroutine type.
    #[error("`{0}' is not a subroutine type")]
    NotSubroutineType(String),
    /// A subroutine function whose signature differs from its type's.
    #[error("function `{0}' does not match the signature of subroutine type `{1}'")]
    SubroutineSignatureMismatch(String, String),
    /// `subroutine uniform T u[];`
    #[error("subroutine uniform arrays must be sized")]
    UnsizedSubroutineUniform,
    /// An initializer on a subroutine uniform.
    #[error("subroutine uniforms cannot be initialized")]
    UniformInitializer,
    /// A call through a subroutine uniform array without an index per dimension.
    #[error("subroutine uniform array `{0}' must be indexed down to one element to be called")]
    SubroutineArrayCall(String),
    /// A subroutine array index that is not an integer.
    #[error("array index must be integer type")]
    ArrayIndexNotInteger,
    /// `layout(index = N)` out of `[0, GL_MAX_SUBROUTINES)`.
    #[error("subroutine index {0} is outside [0, GL_MAX_SUBROUTINES = 256)")]
    SubroutineIndexRange(i32),
    /// Two subroutine functions with one explicit index.
    #[error("subroutine index {0} is used by two functions")]
    SubroutineIndexUsed(u32),
    /// More subroutine functions than `GL_MAX_SUBROUTINES`.
    #[error("too many subroutine functions (GL_MAX_SUBROUTINES is 256)")]
    TooManySubroutines,
    /// Subroutine uniform locations past `GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS`
    /// (the end of the range they need).
    #[error(
        "subroutine uniform locations up to {0} exceed GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS (1024)"
    )]
    SubroutineLocationRange(u32),
    /// A subroutine uniform used other than as the target of a call.
    #[error("subroutine uniform `{0}' can only be called")]
    SubroutineUniformValue(String),
    /// An overloaded function associated with a subroutine type.
    #[error("two or more functions are named `{0}', which is associated with a subroutine type")]
    SubroutineOverloaded(String),
    /// Two subroutine uniforms sharing a location.
    #[error("subroutine uniform location {0} is used twice")]
    SubroutineLocationUsed(u32),
    /// Redeclaring gl_FragDepth after use.
    #[error("the first redeclaration of gl_FragDepth must appear before any use of gl_FragDepth")]
    FragDepthRedeclaredAfterUse,
    /// gl_FragCoord redeclared after a use.
    #[error("gl_FragCoord must be redeclared before being used")]
    FragCoordRedeclaredAfterUse,
    /// Two gl_FragCoord redeclarations with different layouts.
    #[error("gl_FragCoord redeclared with different layout qualifiers")]
    FragCoordLayoutConflict,
    /// origin_upper_left / pixel_center_integer elsewhere.
    #[error("layout qualifiers origin_upper_left and pixel_center_integer can only be applied to gl_FragCoord")]
    FragCoordLayoutOnly,
    /// gl_TexCoord / gl_ClipDistance sized too large.
    #[error("`{0}' array size cannot be larger than {1}")]
    BuiltinArrayTooLarge(String, u32),
    /// Non-array GS input.
    #[error("geometry shader inputs must be arrays")]
    GeometryInputNotArray,
    /// GS input sized against the layout.
    #[error("geometry shader input size contradicts previously declared layout (size is {0}, but layout requires a size of {1})")]
    GeometryInputSizeLayout(u32, u32),
    /// GS inputs of different sizes.
    #[error("geometry shader input sizes are inconsistent (size is {0}, but a previous declaration has size {1})")]
    GeometryInputSizeInconsistent(u32, u32),
    /// Earlier GS input contradicting a later layout.
    #[error("size of array {0} declared as {1}, but number of input vertices is {2}")]
    GeometryInputSizeMismatch(String, u32, u32),
    /// `invariant` inside a function.
    #[error("all uses of `invariant' keyword must be at global scope")]
    InvariantNotGlobal,
    /// `invariant x;` for an unknown x.
    #[error("undeclared variable `{0}' cannot be marked invariant")]
    InvariantUndeclared(String),
    /// `invariant` on something that is not a stage interface.
    #[error("`{0}' cannot be marked invariant; interfaces between shader stages only.")]
    InvariantNotAllowed(String),
    /// `invariant` after a use.
    #[error("variable `{0}' may not be redeclared `invariant' after being used")]
    InvariantAfterUse(String),
    /// Two different GS input primitives.
    #[error("input layout qualifiers must match previous declarations")]
    ConflictingInputPrimitive,
    /// Two different GS output primitives.
    #[error("output layout qualifiers must match previous declarations")]
    ConflictingOutputPrimitive,
    /// Two different `max_vertices`.
    #[error("max_vertices ({1}) differs from a previous declaration ({0})")]
    ConflictingMaxVertices(u32, u32),

    /// `gl_FragColor` together with `gl_FragData` or a user output.
    #[error("fragment shader writes to both `{0}' and `{1}'")]
    ConflictingFragmentOutputs(&'static str, String),

    // ---- blocks ----
    /// Block without `uniform`/`in`/`out`.
    #[error("interface blocks must be declared uniform, in or out")]
    BlockStorage,
    /// VS input block or FS output block.
    #[error("{0} interface blocks are not allowed in the {1} shader")]
    BlockNotAllowedInStage(&'static str, &'static str),
    /// Block name used twice.
    #[error("Block `{0}' has already been declared")]
    BlockRedeclared(String),
    /// Sampler member of a uniform block.
    #[error("uniform block member `{0}' has an opaque type")]
    SamplerInBlock(String),
    /// Unknown member in a `gl_PerVertex` redeclaration.
    #[error("`{0}' is not a member of gl_PerVertex")]
    PerVertexMember(String),
    /// A `gl_PerVertex` member redeclared with another type than the built-in's.
    #[error("redeclaration of `{0}' in gl_PerVertex changes its type from {1} to {2}")]
    PerVertexMemberType(String, String, String),
    /// An array of arrays declared without an initializer with an unsized
    /// dimension other than the outermost (GLSL 4.30 §4.1.9).
    #[error("`{0}': only the outermost array dimension may be unsized without an initializer")]
    InnerArrayUnsized(String),
    /// A GS `in gl_PerVertex` redeclaration must be `gl_in[]`.
    #[error(
        "redeclaration of gl_PerVertex input must use the instance name gl_in and be an array"
    )]
    PerVertexInputForm,
    /// `out gl_PerVertex` redeclared after one of its members was used or
    /// redeclared on its own.
    #[error("redeclaration of a built-in interface block must appear before any use of any member of the interface block")]
    PerVertexAfterUse,
    /// A `gl_PerVertex` member redeclared on its own after the block was.
    #[error("`{0}' cannot be redeclared after gl_PerVertex was redeclared")]
    PerVertexMemberAfterBlock(String),
    /// An `out gl_PerVertex` redeclaration has no instance name.
    #[error("redeclaration of gl_PerVertex output cannot have an instance name or be an array")]
    PerVertexOutputForm,
    /// A `const in` built-in parameter (the `stream` of `EmitStreamVertex` /
    /// `EndStreamPrimitive`) given a non-constant argument (Mesa's
    /// `verify_parameter_modes`).
    #[error("parameter `in {0}' must be a constant expression")]
    ConstInParameter(&'static str),
    /// A stream argument outside [0, MAX_VERTEX_STREAMS - 1] (Mesa reports it
    /// when linking, in `validate_geometry_shader_emissions`).
    #[error(
        "Invalid call {name}({value}). Accepted values for the stream parameter are in the \
         range [0, {max}]."
    )]
    StreamCallRange {
        /// `EmitStreamVertex` or `EndStreamPrimitive`.
        name: String,
        /// The argument.
        value: i64,
        /// MAX_VERTEX_STREAMS - 1.
        max: u32,
    },
    /// A texture offset that is not a constant expression.
    #[error("parameter `offset' of `{0}' must be a constant expression")]
    OffsetNotConstant(String),
    /// A `const in` parameter of a texture gather (`offset`, `offsets`,
    /// `comp`) given a non-constant argument.
    #[error("parameter `{0}' of `{1}' must be a constant expression")]
    GatherArgumentNotConstant(&'static str, String),
    /// A gather `comp` outside 0..3 (GLSL 4.00 §8.9.4).
    #[error("`{0}' component must be 0, 1, 2 or 3, not {1}")]
    GatherComponentRange(String, i64),
    /// Unsized array of blocks.
    #[error("instance array of block `{0}' must be sized")]
    UnsizedBlockArray(String),
    /// `[N]` without instance name.
    #[error("a block array must have an instance name")]
    BlockArrayWithoutInstance,

    // ---- statements ----
    /// `if` on non-bool.
    #[error("if-statement condition must be scalar boolean")]
    IfCondition,
    /// Loop condition on non-bool.
    #[error("loop condition must be scalar boolean")]
    LoopCondition,
    /// `case` outside a switch.
    #[error("case label outside switch statement")]
    CaseOutsideSwitch,
    /// `break` outside loops and switches.
    #[error("break may only appear in a loop or a switch")]
    BreakOutsideLoop,
    /// `continue` outside loops.
    #[error("continue may only appear in a loop")]
    ContinueOutsideLoop,
    /// `discard` in a non-fragment shader.
    #[error("`discard' may only appear in a fragment shader")]
    DiscardOutsideFragment,
    /// `switch` on non-integers.
    #[error("switch-statement expression must be scalar integer")]
    SwitchNotInteger,
    /// Two `default:`.
    #[error("multiple default labels in one switch")]
    MultipleDefault,
    /// Non-constant `case` label.
    #[error("switch statement case label must be a constant expression")]
    CaseNotConstant,
    /// Statements before the first `case`/`default`.
    #[error("statement before the first case label of a switch")]
    StatementBeforeCase,
    /// A label with nothing after it at the end of a switch.
    #[error("a case label at the end of a switch must be followed by a statement")]
    LabelAtEndOfSwitch,
    /// Repeated `case` value.
    #[error("duplicate case value")]
    DuplicateCase,
    /// Points at the first of duplicate labels.
    #[error("this is the previous case label")]
    PreviousCase,
    /// Label type differs from the switch type.
    #[error("type mismatch with switch init-expression and case label ({0} != {1})")]
    CaseTypeMismatch(String, String),
}

impl SemanticError {
    /// "`what` in GLSL x.yy (GLSL d or GLSL ES e required)"
    pub fn version_required(what: &str, version: Version, desktop: u16, es: u16) -> SemanticError {
        let name = |n: u16| {
            if n == 0 {
                "none".to_string()
            } else {
                format!("{}.{:02}", n / 100, n % 100)
            }
        };
        SemanticError::VersionRequired {
            what: what.to_string(),
            current: version.to_string(),
            desktop: name(desktop),
            es: name(es),
        }
    }
}
