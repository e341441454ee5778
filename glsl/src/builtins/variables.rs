//! Built-in variables, uniforms and constants per stage, version and profile
//! (GLSL 1.10–3.30 §7, ES 1.00/3.00 §7), with the built-in struct types they use
//! and the implementation limits the constants report.
//!
//! Facts follow Mesa's `builtin_variables.cpp`: inputs, uniforms and system
//! values are read-only; outputs and inputs carry Mesa's fixed slot as
//! `location` (the `VARYING_SLOT_*`, `VERT_ATTRIB_*` and `FRAG_RESULT_*`
//! numbers listed in [`slot`]); `gl_FragColor`/`gl_FragData` stay visible in
//! core desktop profiles (Mesa relegates them to compatibility only in 4.20),
//! while the fixed-function state (`gl_ModelViewMatrix`, `gl_Vertex`,
//! `gl_FrontColor`, `gl_MaxLights`, …) exists only in compatibility profiles
//! (every desktop version below 1.40 and `#version 1xx compatibility`).
//! `gl_TexCoord`, `gl_ClipDistance` and `gl_in` are unsized arrays
//! (`Type::Array(_, None)`), sized later from their use or the input primitive.

use super::functions::{compatibility, has_ext, v130};
use super::Availability;
use crate::arena::Handle;
use crate::ast::{Interpolation, Precision};
use crate::hir::{Constant, MemberQualifiers, ScalarValue, VarMode, Variable};
use crate::types::{ScalarKind, StructArena, StructField, StructType, Type};
use crate::version::Stage;

/// The implementation limits reported by the built-in constants (one place).
/// Values are llvmpipe-like GL 3.3 limits, never below the spec minimums.
pub mod limits {
    /// `gl_MaxLights`
    pub const MAX_LIGHTS: i32 = 8;
    /// `gl_MaxClipPlanes`
    pub const MAX_CLIP_PLANES: i32 = 8;
    /// `gl_MaxClipDistances`
    pub const MAX_CLIP_DISTANCES: i32 = 8;
    /// `gl_MaxTextureUnits`
    pub const MAX_TEXTURE_UNITS: i32 = 8;
    /// `gl_MaxTextureCoords`
    pub const MAX_TEXTURE_COORDS: i32 = 8;
    /// `gl_MaxVertexAttribs`
    pub const MAX_VERTEX_ATTRIBS: i32 = 16;
    /// `gl_MaxVertexUniformComponents`
    pub const MAX_VERTEX_UNIFORM_COMPONENTS: i32 = 4096;
    /// `gl_MaxFragmentUniformComponents`
    pub const MAX_FRAGMENT_UNIFORM_COMPONENTS: i32 = 4096;
    /// `gl_MaxGeometryUniformComponents`
    pub const MAX_GEOMETRY_UNIFORM_COMPONENTS: i32 = 4096;
    /// `gl_MaxVaryingFloats` / `gl_MaxVaryingComponents`
    pub const MAX_VARYING_COMPONENTS: i32 = 128;
    /// `gl_MaxVertexTextureImageUnits`
    pub const MAX_VERTEX_TEXTURE_IMAGE_UNITS: i32 = 16;
    /// `gl_MaxGeometryTextureImageUnits`
    pub const MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: i32 = 16;
    /// `gl_MaxTextureImageUnits`
    pub const MAX_TEXTURE_IMAGE_UNITS: i32 = 16;
    /// `gl_MaxCombinedTextureImageUnits`
    pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: i32 = 48;
    /// `gl_MaxDrawBuffers` (also the size of `gl_FragData`)
    pub const MAX_DRAW_BUFFERS: i32 = 8;
    /// `gl_MaxVertexOutputComponents`
    pub const MAX_VERTEX_OUTPUT_COMPONENTS: i32 = 128;
    /// `gl_MaxGeometryInputComponents`
    pub const MAX_GEOMETRY_INPUT_COMPONENTS: i32 = 128;
    /// `gl_MaxGeometryOutputComponents`
    pub const MAX_GEOMETRY_OUTPUT_COMPONENTS: i32 = 128;
    /// `gl_MaxFragmentInputComponents`
    pub const MAX_FRAGMENT_INPUT_COMPONENTS: i32 = 128;
    /// `gl_MaxGeometryOutputVertices`
    pub const MAX_GEOMETRY_OUTPUT_VERTICES: i32 = 1024;
    /// `gl_MaxGeometryTotalOutputComponents`
    pub const MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: i32 = 1024;
    /// `gl_MaxGeometryVaryingComponents`
    pub const MAX_GEOMETRY_VARYING_COMPONENTS: i32 = 128;
    /// `gl_MinProgramTexelOffset`
    pub const MIN_PROGRAM_TEXEL_OFFSET: i32 = -8;
    /// `gl_MaxProgramTexelOffset`
    pub const MAX_PROGRAM_TEXEL_OFFSET: i32 = 7;
    /// `gl_MaxTransformFeedbackBuffers` (GL_MAX_TRANSFORM_FEEDBACK_BUFFERS; GLSL
    /// 4.40 / ARB_enhanced_layouts, the GL 4.x minimum)
    pub const MAX_TRANSFORM_FEEDBACK_BUFFERS: i32 = 4;
    /// `gl_MaxTransformFeedbackInterleavedComponents`
    /// (GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, the GL minimum)
    pub const MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS: i32 = 64;
    /// `gl_MaxComputeWorkGroupCount` (GLSL 4.30 §7.3, the GL 4.3 minimum)
    pub const MAX_COMPUTE_WORK_GROUP_COUNT: [i32; 3] = [65535, 65535, 65535];
    /// `gl_MaxComputeWorkGroupSize` (GLSL 4.30 §7.3, the GL 4.3 minimum)
    pub const MAX_COMPUTE_WORK_GROUP_SIZE: [i32; 3] = [1024, 1024, 64];
    /// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS (GL 4.3 table 23.70 minimum; no
    /// GLSL constant)
    pub const MAX_COMPUTE_WORK_GROUP_INVOCATIONS: i32 = 1024;
    /// `gl_MaxComputeUniformComponents`
    pub const MAX_COMPUTE_UNIFORM_COMPONENTS: i32 = 512;
    /// `gl_MaxComputeTextureImageUnits`
    pub const MAX_COMPUTE_TEXTURE_IMAGE_UNITS: i32 = 16;
    /// `gl_MaxComputeImageUniforms`
    pub const MAX_COMPUTE_IMAGE_UNIFORMS: i32 = 8;
    /// `gl_MaxComputeAtomicCounters`: the same as the other stages (GL 4.3 §23
    /// compute limits table asks for at least 8; the GLSL floor is lower).
    pub const MAX_COMPUTE_ATOMIC_COUNTERS: i32 = MAX_STAGE_ATOMIC_COUNTERS;
    /// `gl_MaxComputeAtomicCounterBuffers`: the same as the other stages (GL
    /// 4.3 §23 compute limits table asks for at least 8; GLSL 4.30 §7.3 gives 1).
    pub const MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS: i32 = MAX_STAGE_ATOMIC_COUNTER_BUFFERS;
    /// `gl_Max{Vertex,TessControl,TessEvaluation,Geometry,Fragment}AtomicCounters`
    /// (GL_MAX_*_ATOMIC_COUNTERS; counters are storage-buffer words in rgl, so
    /// every stage gets the same budget, above the GL 4.2 minimums of 0 / 8).
    pub const MAX_STAGE_ATOMIC_COUNTERS: i32 = 1024;
    /// `gl_MaxCombinedAtomicCounters`
    pub const MAX_COMBINED_ATOMIC_COUNTERS: i32 = 4096;
    /// `gl_MaxAtomicCounterBindings` (GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS)
    pub const MAX_ATOMIC_COUNTER_BINDINGS: i32 = 8;
    /// `gl_Max{Vertex,…,Fragment}AtomicCounterBuffers`
    pub const MAX_STAGE_ATOMIC_COUNTER_BUFFERS: i32 = 8;
    /// `gl_MaxCombinedAtomicCounterBuffers`
    pub const MAX_COMBINED_ATOMIC_COUNTER_BUFFERS: i32 = 8;
    /// `gl_MaxAtomicCounterBufferSize` (GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE, bytes)
    pub const MAX_ATOMIC_COUNTER_BUFFER_SIZE: i32 = 16384;
    /// `gl_MaxImageUnits` (GL_MAX_IMAGE_UNITS, GLSL 4.20 §7.3; llvmpipe's 8,
    /// the linker's image unit count).
    pub const MAX_IMAGE_UNITS: i32 = 8;
    /// `gl_Max{Vertex,TessControl,TessEvaluation,Geometry,Fragment}ImageUniforms`
    /// (GL_MAX_*_IMAGE_UNIFORMS): every stage gets the compute budget, as the
    /// linker checks it.
    pub const MAX_STAGE_IMAGE_UNIFORMS: i32 = MAX_COMPUTE_IMAGE_UNIFORMS;
    /// `gl_MaxCombinedImageUniforms` (GL_MAX_COMBINED_IMAGE_UNIFORMS).
    pub const MAX_COMBINED_IMAGE_UNIFORMS: i32 = 48;
    /// `gl_MaxImageSamples` (GL_MAX_IMAGE_SAMPLES): no multisample images.
    pub const MAX_IMAGE_SAMPLES: i32 = 0;
    /// `gl_MaxCombinedImageUnitsAndFragmentOutputs` (GLSL 4.20) and
    /// `gl_MaxCombinedShaderOutputResources` (GLSL 4.30 / ES 3.10): both read
    /// GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES (the same enum as GL 4.2's
    /// GL_MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS), the draw buffers plus
    /// the 32 shader storage bindings.
    pub const MAX_COMBINED_SHADER_OUTPUT_RESOURCES: i32 = MAX_DRAW_BUFFERS + 32;
}

/// Mesa's fixed slots used as `location` of built-in inputs and outputs.
pub mod slot {
    /// `VARYING_SLOT_POS`
    pub const POS: i32 = 0;
    /// `VARYING_SLOT_COL0`
    pub const COL0: i32 = 1;
    /// `VARYING_SLOT_COL1`
    pub const COL1: i32 = 2;
    /// `VARYING_SLOT_FOGC`
    pub const FOGC: i32 = 3;
    /// `VARYING_SLOT_TEX0`
    pub const TEX0: i32 = 4;
    /// `VARYING_SLOT_PSIZ`
    pub const PSIZ: i32 = 12;
    /// `VARYING_SLOT_BFC0`
    pub const BFC0: i32 = 13;
    /// `VARYING_SLOT_BFC1`
    pub const BFC1: i32 = 14;
    /// `VARYING_SLOT_CLIP_VERTEX`
    pub const CLIP_VERTEX: i32 = 16;
    /// `VARYING_SLOT_CLIP_DIST0`
    pub const CLIP_DIST0: i32 = 17;
    /// `VARYING_SLOT_PRIMITIVE_ID`
    pub const PRIMITIVE_ID: i32 = 21;
    /// `VARYING_SLOT_LAYER`
    pub const LAYER: i32 = 22;
    /// `VARYING_SLOT_PNTC`
    pub const PNTC: i32 = 25;
    /// `VERT_ATTRIB_POS`
    pub const ATTRIB_POS: i32 = 0;
    /// `VERT_ATTRIB_NORMAL`
    pub const ATTRIB_NORMAL: i32 = 1;
    /// `VERT_ATTRIB_COLOR0`
    pub const ATTRIB_COLOR0: i32 = 2;
    /// `VERT_ATTRIB_COLOR1`
    pub const ATTRIB_COLOR1: i32 = 3;
    /// `VERT_ATTRIB_FOG`
    pub const ATTRIB_FOG: i32 = 4;
    /// `VERT_ATTRIB_TEX0`
    pub const ATTRIB_TEX0: i32 = 6;
    /// `FRAG_RESULT_DEPTH`
    pub const FRAG_DEPTH: i32 = 0;
    /// `FRAG_RESULT_COLOR`
    pub const FRAG_COLOR: i32 = 2;
    /// `FRAG_RESULT_DATA0`
    pub const FRAG_DATA0: i32 = 4;
}

const F: ScalarKind = ScalarKind::Float;

fn vec(n: u8) -> Type {
    Type::vec(F, n)
}

fn array(elem: Type, len: i32) -> Type {
    Type::Array(Box::new(elem), Some(len.max(0) as u32))
}

fn unsized_array(elem: Type) -> Type {
    Type::Array(Box::new(elem), None)
}

/// Every name [`lookup_variable`] may answer, for listings and tests.
pub const NAMES: &[&str] = &[
    "gl_Position",
    "gl_PointSize",
    "gl_ClipVertex",
    "gl_ClipDistance",
    "gl_VertexID",
    "gl_InstanceID",
    "gl_InstanceIDARB",
    "gl_Vertex",
    "gl_Normal",
    "gl_Color",
    "gl_SecondaryColor",
    "gl_FogCoord",
    "gl_MultiTexCoord0",
    "gl_MultiTexCoord1",
    "gl_MultiTexCoord2",
    "gl_MultiTexCoord3",
    "gl_MultiTexCoord4",
    "gl_MultiTexCoord5",
    "gl_MultiTexCoord6",
    "gl_MultiTexCoord7",
    "gl_FrontColor",
    "gl_BackColor",
    "gl_FrontSecondaryColor",
    "gl_BackSecondaryColor",
    "gl_TexCoord",
    "gl_FogFragCoord",
    "gl_in",
    "gl_PrimitiveIDIn",
    "gl_InvocationID",
    "gl_PrimitiveID",
    "gl_Layer",
    "gl_FragCoord",
    "gl_FrontFacing",
    "gl_PointCoord",
    "gl_SampleMaskIn",
    "gl_HelperInvocation",
    "gl_FragColor",
    "gl_FragData",
    "gl_FragDepth",
    "gl_FragDepthEXT",
    "gl_DepthRange",
    "gl_ModelViewMatrix",
    "gl_ProjectionMatrix",
    "gl_ModelViewProjectionMatrix",
    "gl_TextureMatrix",
    "gl_ModelViewMatrixInverse",
    "gl_ProjectionMatrixInverse",
    "gl_ModelViewProjectionMatrixInverse",
    "gl_TextureMatrixInverse",
    "gl_ModelViewMatrixTranspose",
    "gl_ProjectionMatrixTranspose",
    "gl_ModelViewProjectionMatrixTranspose",
    "gl_TextureMatrixTranspose",
    "gl_ModelViewMatrixInverseTranspose",
    "gl_ProjectionMatrixInverseTranspose",
    "gl_ModelViewProjectionMatrixInverseTranspose",
    "gl_TextureMatrixInverseTranspose",
    "gl_NormalMatrix",
    "gl_NormalScale",
    "gl_ClipPlane",
    "gl_Point",
    "gl_FrontMaterial",
    "gl_BackMaterial",
    "gl_LightSource",
    "gl_LightModel",
    "gl_FrontLightModelProduct",
    "gl_BackLightModelProduct",
    "gl_FrontLightProduct",
    "gl_BackLightProduct",
    "gl_TextureEnvColor",
    "gl_EyePlaneS",
    "gl_EyePlaneT",
    "gl_EyePlaneR",
    "gl_EyePlaneQ",
    "gl_ObjectPlaneS",
    "gl_ObjectPlaneT",
    "gl_ObjectPlaneR",
    "gl_ObjectPlaneQ",
    "gl_Fog",
    "gl_MaxLights",
    "gl_MaxClipPlanes",
    "gl_MaxClipDistances",
    "gl_MaxTextureUnits",
    "gl_MaxTextureCoords",
    "gl_MaxVertexAttribs",
    "gl_MaxVertexUniformComponents",
    "gl_MaxVaryingFloats",
    "gl_MaxVaryingComponents",
    "gl_MaxVertexTextureImageUnits",
    "gl_MaxCombinedTextureImageUnits",
    "gl_MaxTextureImageUnits",
    "gl_MaxFragmentUniformComponents",
    "gl_MaxDrawBuffers",
    "gl_MaxVertexOutputComponents",
    "gl_MaxGeometryInputComponents",
    "gl_MaxGeometryOutputComponents",
    "gl_MaxFragmentInputComponents",
    "gl_MaxGeometryTextureImageUnits",
    "gl_MaxGeometryOutputVertices",
    "gl_MaxGeometryTotalOutputComponents",
    "gl_MaxGeometryUniformComponents",
    "gl_MaxGeometryVaryingComponents",
    "gl_MaxVertexUniformVectors",
    "gl_MaxFragmentUniformVectors",
    "gl_MaxVaryingVectors",
    "gl_MaxVertexOutputVectors",
    "gl_MaxFragmentInputVectors",
    "gl_MinProgramTexelOffset",
    "gl_MaxProgramTexelOffset",
    "gl_MaxTransformFeedbackBuffers",
    "gl_MaxTransformFeedbackInterleavedComponents",
    "gl_NumWorkGroups",
    "gl_WorkGroupID",
    "gl_LocalInvocationID",
    "gl_GlobalInvocationID",
    "gl_LocalInvocationIndex",
    "gl_WorkGroupSize",
    "gl_MaxComputeWorkGroupCount",
    "gl_MaxComputeWorkGroupSize",
    "gl_MaxComputeUniformComponents",
    "gl_MaxComputeTextureImageUnits",
    "gl_MaxComputeImageUniforms",
    "gl_MaxComputeAtomicCounters",
    "gl_MaxComputeAtomicCounterBuffers",
    "gl_MaxVertexAtomicCounters",
    "gl_MaxTessControlAtomicCounters",
    "gl_MaxTessEvaluationAtomicCounters",
    "gl_MaxGeometryAtomicCounters",
    "gl_MaxFragmentAtomicCounters",
    "gl_MaxCombinedAtomicCounters",
    "gl_MaxAtomicCounterBindings",
    "gl_MaxVertexAtomicCounterBuffers",
    "gl_MaxTessControlAtomicCounterBuffers",
    "gl_MaxTessEvaluationAtomicCounterBuffers",
    "gl_MaxGeometryAtomicCounterBuffers",
    "gl_MaxFragmentAtomicCounterBuffers",
    "gl_MaxCombinedAtomicCounterBuffers",
    "gl_MaxAtomicCounterBufferSize",
    "gl_MaxImageUnits",
    "gl_MaxCombinedImageUnitsAndFragmentOutputs",
    "gl_MaxCombinedShaderOutputResources",
    "gl_MaxImageSamples",
    "gl_MaxVertexImageUniforms",
    "gl_MaxTessControlImageUniforms",
    "gl_MaxTessEvaluationImageUniforms",
    "gl_MaxGeometryImageUniforms",
    "gl_MaxFragmentImageUniforms",
    "gl_MaxCombinedImageUniforms",
];

/// The built-in struct types.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BuiltinStruct {
    DepthRange,
    Point,
    Material,
    LightSource,
    LightModel,
    LightModelProducts,
    LightProducts,
    Fog,
}

fn struct_body(which: BuiltinStruct, es: bool) -> StructType {
    let f = |name: &str, ty: Type| StructField {
        name: name.to_string(),
        ty,
        qualifiers: MemberQualifiers {
            precision: es.then_some(Precision::High),
            ..MemberQualifiers::default()
        },
    };
    let float = || Type::FLOAT;
    let v4 = || vec(4);
    let (name, fields) = match which {
        BuiltinStruct::DepthRange => (
            "gl_DepthRangeParameters",
            vec![f("near", float()), f("far", float()), f("diff", float())],
        ),
        BuiltinStruct::Point => (
            "gl_PointParameters",
            vec![
                f("size", float()),
                f("sizeMin", float()),
                f("sizeMax", float()),
                f("fadeThresholdSize", float()),
                f("distanceConstantAttenuation", float()),
                f("distanceLinearAttenuation", float()),
                f("distanceQuadraticAttenuation", float()),
            ],
        ),
        BuiltinStruct::Material => (
            "gl_MaterialParameters",
            vec![
                f("emission", v4()),
                f("ambient", v4()),
                f("diffuse", v4()),
                f("specular", v4()),
                f("shininess", float()),
            ],
        ),
        BuiltinStruct::LightSource => (
            "gl_LightSourceParameters",
            vec![
                f("ambient", v4()),
                f("diffuse", v4()),
                f("specular", v4()),
                f("position", v4()),
                f("halfVector", v4()),
                f("spotDirection", vec(3)),
                f("spotExponent", float()),
                f("spotCutoff", float()),
                f("spotCosCutoff", float()),
                f("constantAttenuation", float()),
                f("linearAttenuation", float()),
                f("quadraticAttenuation", float()),
            ],
        ),
        BuiltinStruct::LightModel => ("gl_LightModelParameters", vec![f("ambient", v4())]),
        BuiltinStruct::LightModelProducts => ("gl_LightModelProducts", vec![f("sceneColor", v4())]),
        BuiltinStruct::LightProducts => (
            "gl_LightProducts",
            vec![f("ambient", v4()), f("diffuse", v4()), f("specular", v4())],
        ),
        BuiltinStruct::Fog => (
            "gl_FogParameters",
            vec![
                f("color", v4()),
                f("density", float()),
                f("start", float()),
                f("end", float()),
                f("scale", float()),
            ],
        ),
    };
    StructType {
        name: name.to_string(),
        fields,
        is_interface: false,
    }
}

/// The built-in struct type called `name` (`gl_DepthRangeParameters`, and in
/// the compatibility profile the fixed-function state structs such as
/// `gl_LightSourceParameters`), added to `structs` on first use so that it is
/// the same type the matching built-in uniform has.
pub(crate) fn lookup_struct(
    name: &str,
    a: &Availability<'_>,
    structs: &mut StructArena,
) -> Option<Type> {
    let which = match name {
        "gl_DepthRangeParameters" => BuiltinStruct::DepthRange,
        "gl_PointParameters" => BuiltinStruct::Point,
        "gl_MaterialParameters" => BuiltinStruct::Material,
        "gl_LightSourceParameters" => BuiltinStruct::LightSource,
        "gl_LightModelParameters" => BuiltinStruct::LightModel,
        "gl_LightModelProducts" => BuiltinStruct::LightModelProducts,
        "gl_LightProducts" => BuiltinStruct::LightProducts,
        "gl_FogParameters" => BuiltinStruct::Fog,
        _ => return None,
    };
    if which != BuiltinStruct::DepthRange && !compatibility(a) {
        return None;
    }
    Some(builtin_struct(structs, which, a.version.is_es()))
}

/// The handle of a built-in struct, added to `structs` on first use.
fn builtin_struct(structs: &mut StructArena, which: BuiltinStruct, es: bool) -> Type {
    let body = struct_body(which, es);
    if let Some((handle, _)) = structs
        .iter()
        .find(|(_, s)| s.name == body.name && !s.is_interface)
    {
        return Type::Struct(handle);
    }
    Type::Struct(structs.append(body))
}

/// The members of the `gl_PerVertex` block in this context: the vertex
/// outputs of vertex and geometry shaders (Mesa gives each of them this block
/// as interface type) and the members of the geometry input `gl_in[]`.
fn per_vertex_fields(a: &Availability<'_>) -> Vec<StructField> {
    let es = a.version.is_es();
    let member = |name: &str, ty: Type, precision: Option<Precision>| StructField {
        name: name.to_string(),
        ty,
        qualifiers: MemberQualifiers {
            precision: if es { precision } else { None },
            ..MemberQualifiers::default()
        },
    };
    let point_size_precision = if a.version.at_least(0, 300) {
        Precision::High
    } else {
        Precision::Medium
    };
    let mut fields = vec![
        member("gl_Position", vec(4), Some(Precision::High)),
        member("gl_PointSize", Type::FLOAT, Some(point_size_precision)),
    ];
    if !es && v130(a) {
        fields.push(member("gl_ClipDistance", unsized_array(Type::FLOAT), None));
    }
    // Mesa's order: the texture coordinates and fog first, then the clip
    // vertex and the colors.
    if compatibility(a) {
        fields.push(member("gl_TexCoord", unsized_array(vec(4)), None));
        fields.push(member("gl_FogFragCoord", Type::FLOAT, None));
        for name in [
            "gl_ClipVertex",
            "gl_FrontColor",
            "gl_BackColor",
            "gl_FrontSecondaryColor",
            "gl_BackSecondaryColor",
        ] {
            fields.push(member(name, vec(4), None));
        }
    }
    fields
}

/// The `gl_PerVertex` interface block type of this context, added once.
fn per_vertex_block(structs: &mut StructArena, a: &Availability<'_>) -> Handle<StructType> {
    let body = StructType {
        name: "gl_PerVertex".to_string(),
        fields: per_vertex_fields(a),
        is_interface: true,
    };
    if let Some((handle, _)) = structs.iter().find(|(_, s)| **s == body) {
        return handle;
    }
    structs.append(body)
}

fn variable(name: &str, ty: Type, mode: VarMode, location: Option<i32>) -> Variable {
    let mut var = Variable::new(name, ty, mode);
    var.is_builtin = true;
    var.location = location;
    var.read_only = matches!(
        mode,
        VarMode::ShaderIn | VarMode::Uniform | VarMode::SystemValue
    );
    var
}

fn constant(name: &str, value: i32, es: bool) -> Variable {
    let mut var = Variable::new(name, Type::INT, VarMode::Auto);
    var.is_builtin = true;
    var.read_only = true;
    var.precision = es.then_some(Precision::Medium);
    let value = Constant::Components(smallvec::smallvec![ScalarValue::Int(value)]);
    var.constant_value = Some(value.clone());
    var.constant_initializer = Some(value);
    var
}

/// A read-only built-in constant vector of three `int`s or `uint`s.
fn constant_vec3(name: &str, kind: ScalarKind, values: [u32; 3], es: bool) -> Variable {
    let mut var = Variable::new(name, Type::vec(kind, 3), VarMode::Auto);
    var.is_builtin = true;
    var.read_only = true;
    var.precision = es.then_some(Precision::High);
    let value = Constant::Components(
        values
            .iter()
            .map(|&v| match kind {
                ScalarKind::Uint => ScalarValue::Uint(v),
                _ => ScalarValue::Int(v as i32),
            })
            .collect(),
    );
    var.constant_value = Some(value.clone());
    var.constant_initializer = Some(value);
    var
}

/// True when compute shaders exist: GLSL 4.30, GLSL ES 3.10 or
/// `GL_ARB_compute_shader`.
pub fn has_compute(a: &Availability<'_>) -> bool {
    a.version.at_least(430, 310) || has_ext(a, "GL_ARB_compute_shader")
}

/// `gl_WorkGroupSize` of a compute shader whose declared local size is
/// `size` (GLSL 4.30 §7.1: a `const uvec3` equal to the `local_size_*`
/// qualifiers; it exists only once they are declared).
pub fn work_group_size(size: [u32; 3], es: bool) -> Variable {
    constant_vec3("gl_WorkGroupSize", ScalarKind::Uint, size, es)
}

/// Implements [`super::lookup_variable`].
pub(crate) fn lookup(
    name: &str,
    a: &Availability<'_>,
    structs: &mut StructArena,
) -> Option<Variable> {
    if !name.starts_with("gl_") {
        return None;
    }
    let es = a.version.is_es();
    let es3 = a.version.at_least(0, 300);
    let compat = compatibility(a);
    let v150 = a.version.at_least(150, 0);
    let stage = a.stage;
    let vs = stage == Stage::Vertex;
    let gs = stage == Stage::Geometry;
    let fs = stage == Stage::Fragment;
    let pre_raster = vs || gs;
    let prec = |p: Precision| if es { Some(p) } else { None };
    let with_precision = |mut var: Variable, p: Option<Precision>| {
        var.precision = p;
        var
    };
    let flat = |mut var: Variable| {
        var.interpolation = Some(Interpolation::Flat);
        var
    };

    if let Some(value) = constant_value(name, a) {
        return Some(constant(name, value, es));
    }
    let compute = has_compute(a);
    let cs = stage == Stage::Compute && compute;
    match name {
        "gl_MaxComputeWorkGroupCount" if compute => {
            let v = limits::MAX_COMPUTE_WORK_GROUP_COUNT.map(|v| v as u32);
            return Some(constant_vec3(name, ScalarKind::Int, v, es));
        }
        "gl_MaxComputeWorkGroupSize" if compute => {
            let v = limits::MAX_COMPUTE_WORK_GROUP_SIZE.map(|v| v as u32);
            return Some(constant_vec3(name, ScalarKind::Int, v, es));
        }
        _ => {}
    }
    let uvec3 = || Type::vec(ScalarKind::Uint, 3);

    let var = match name {
        // Vertex/geometry outputs.
        "gl_Position" if pre_raster => with_precision(
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::POS)),
            prec(Precision::High),
        ),
        "gl_PointSize" if pre_raster => {
            let p = if es3 {
                Precision::High
            } else {
                Precision::Medium
            };
            with_precision(
                variable(name, Type::FLOAT, VarMode::ShaderOut, Some(slot::PSIZ)),
                prec(p),
            )
        }
        "gl_ClipVertex" if pre_raster && compat => {
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::CLIP_VERTEX))
        }
        "gl_ClipDistance" if pre_raster && !es && v130(a) => variable(
            name,
            unsized_array(Type::FLOAT),
            VarMode::ShaderOut,
            Some(slot::CLIP_DIST0),
        ),
        "gl_ClipDistance" if fs && !es && v130(a) => variable(
            name,
            unsized_array(Type::FLOAT),
            VarMode::ShaderIn,
            Some(slot::CLIP_DIST0),
        ),
        "gl_FrontColor" if pre_raster && compat => {
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::COL0))
        }
        "gl_BackColor" if pre_raster && compat => {
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::BFC0))
        }
        "gl_FrontSecondaryColor" if pre_raster && compat => {
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::COL1))
        }
        "gl_BackSecondaryColor" if pre_raster && compat => {
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::BFC1))
        }
        "gl_TexCoord" if compat => {
            let mode = if fs {
                VarMode::ShaderIn
            } else {
                VarMode::ShaderOut
            };
            variable(name, unsized_array(vec(4)), mode, Some(slot::TEX0))
        }
        "gl_FogFragCoord" if compat => {
            let mode = if fs {
                VarMode::ShaderIn
            } else {
                VarMode::ShaderOut
            };
            variable(name, Type::FLOAT, mode, Some(slot::FOGC))
        }

        // Vertex inputs.
        "gl_VertexID" if vs && v130(a) => with_precision(
            variable(name, Type::INT, VarMode::SystemValue, None),
            prec(Precision::High),
        ),
        "gl_InstanceID"
            if vs
                && (a.version.at_least(140, 300)
                    || (!es && has_ext(a, "GL_ARB_draw_instanced"))) =>
        {
            with_precision(
                variable(name, Type::INT, VarMode::SystemValue, None),
                prec(Precision::High),
            )
        }
        "gl_InstanceIDARB" if vs && !es && has_ext(a, "GL_ARB_draw_instanced") => {
            variable(name, Type::INT, VarMode::SystemValue, None)
        }
        "gl_Vertex" if vs && compat => {
            variable(name, vec(4), VarMode::ShaderIn, Some(slot::ATTRIB_POS))
        }
        "gl_Normal" if vs && compat => {
            variable(name, vec(3), VarMode::ShaderIn, Some(slot::ATTRIB_NORMAL))
        }
        "gl_Color" if vs && compat => {
            variable(name, vec(4), VarMode::ShaderIn, Some(slot::ATTRIB_COLOR0))
        }
        "gl_SecondaryColor" if vs && compat => {
            variable(name, vec(4), VarMode::ShaderIn, Some(slot::ATTRIB_COLOR1))
        }
        "gl_FogCoord" if vs && compat => {
            variable(name, Type::FLOAT, VarMode::ShaderIn, Some(slot::ATTRIB_FOG))
        }
        _ if vs && compat && name.starts_with("gl_MultiTexCoord") => {
            let unit = match name.strip_prefix("gl_MultiTexCoord")? {
                digit @ ("0" | "1" | "2" | "3" | "4" | "5" | "6" | "7") => {
                    digit.parse::<i32>().ok()?
                }
                _ => return None,
            };
            variable(
                name,
                vec(4),
                VarMode::ShaderIn,
                Some(slot::ATTRIB_TEX0 + unit),
            )
        }

        // Geometry inputs and outputs (like Mesa, keyed on the stage only).
        "gl_in" if gs => {
            let block = per_vertex_block(structs, a);
            let mut var = variable(
                name,
                unsized_array(Type::Struct(block)),
                VarMode::ShaderIn,
                None,
            );
            var.interface_block = Some(block);
            var
        }
        "gl_PrimitiveIDIn" if gs => flat(variable(
            name,
            Type::INT,
            VarMode::ShaderIn,
            Some(slot::PRIMITIVE_ID),
        )),
        // GLSL 4.00 §7.1 / ARB_gpu_shader5: the geometry shader invocation
        // number of `layout(invocations = N)` (Mesa's `has_gpu_shader5`).
        "gl_InvocationID" if gs && super::functions::gpu_shader5(a) => {
            variable(name, Type::INT, VarMode::SystemValue, None)
        }
        "gl_PrimitiveID" if gs => flat(variable(
            name,
            Type::INT,
            VarMode::ShaderOut,
            Some(slot::PRIMITIVE_ID),
        )),
        "gl_Layer" if gs => flat(variable(
            name,
            Type::INT,
            VarMode::ShaderOut,
            Some(slot::LAYER),
        )),

        // Fragment inputs and outputs.
        "gl_FragCoord" if fs => {
            let p = if es3 {
                Precision::High
            } else {
                Precision::Medium
            };
            with_precision(
                variable(name, vec(4), VarMode::ShaderIn, Some(slot::POS)),
                prec(p),
            )
        }
        // GLSL 4.00 §7.1: the coverage mask of the fragment, one bit per
        // sample; rgl renders single-sampled, so bit 0 of element 0.
        "gl_SampleMaskIn" if fs && super::functions::gpu_shader5(a) => flat(variable(
            name,
            array(Type::INT, 1),
            VarMode::SystemValue,
            None,
        )),
        "gl_FrontFacing" if fs => flat(variable(name, Type::BOOL, VarMode::SystemValue, None)),
        // GLSL 4.50 / ES 3.10 §7.1.2: true in a helper invocation (a quad
        // lane that runs for derivatives only).
        "gl_HelperInvocation" if fs && a.version.at_least(450, 310) => {
            flat(variable(name, Type::BOOL, VarMode::SystemValue, None))
        }
        "gl_PointCoord" if fs && a.version.at_least(120, 100) => with_precision(
            variable(name, vec(2), VarMode::ShaderIn, Some(slot::PNTC)),
            prec(Precision::Medium),
        ),
        "gl_PrimitiveID" if fs && v150 => flat(variable(
            name,
            Type::INT,
            VarMode::ShaderIn,
            Some(slot::PRIMITIVE_ID),
        )),
        "gl_Color" if fs && compat => variable(name, vec(4), VarMode::ShaderIn, Some(slot::COL0)),
        "gl_SecondaryColor" if fs && compat => {
            variable(name, vec(4), VarMode::ShaderIn, Some(slot::COL1))
        }
        "gl_FragColor" if fs && !es3 => with_precision(
            variable(name, vec(4), VarMode::ShaderOut, Some(slot::FRAG_COLOR)),
            prec(Precision::Medium),
        ),
        "gl_FragData" if fs && !es3 => with_precision(
            variable(
                name,
                array(vec(4), limits::MAX_DRAW_BUFFERS),
                VarMode::ShaderOut,
                Some(slot::FRAG_DATA0),
            ),
            prec(Precision::Medium),
        ),
        "gl_FragDepth" if fs && (!es || es3) => with_precision(
            variable(
                name,
                Type::FLOAT,
                VarMode::ShaderOut,
                Some(slot::FRAG_DEPTH),
            ),
            prec(Precision::High),
        ),
        "gl_FragDepthEXT" if fs && es && !es3 && has_ext(a, "GL_EXT_frag_depth") => with_precision(
            variable(
                name,
                Type::FLOAT,
                VarMode::ShaderOut,
                Some(slot::FRAG_DEPTH),
            ),
            prec(Precision::High),
        ),

        // Compute system values (GLSL 4.30 §7.1). `gl_WorkGroupSize` is a
        // constant that depends on the declared local size: the checker
        // builds it with [`work_group_size`].
        "gl_NumWorkGroups"
        | "gl_WorkGroupID"
        | "gl_LocalInvocationID"
        | "gl_GlobalInvocationID"
            if cs =>
        {
            with_precision(
                variable(name, uvec3(), VarMode::SystemValue, None),
                prec(Precision::High),
            )
        }
        "gl_LocalInvocationIndex" if cs => with_precision(
            variable(name, Type::UINT, VarMode::SystemValue, None),
            prec(Precision::High),
        ),

        // Uniform state.
        "gl_DepthRange" => {
            let ty = builtin_struct(structs, BuiltinStruct::DepthRange, es);
            variable(name, ty, VarMode::Uniform, None)
        }
        _ if compat => return compat_uniform(name, structs),
        _ => return None,
    };
    let mut var = var;
    if pre_raster
        && var.mode == VarMode::ShaderOut
        && per_vertex_fields(a).iter().any(|f| f.name == name)
    {
        var.interface_block = Some(per_vertex_block(structs, a));
    }
    Some(var)
}

/// The fixed-function state uniforms of the compatibility profile.
fn compat_uniform(name: &str, structs: &mut StructArena) -> Option<Variable> {
    let mat4 = || Type::mat(4, 4);
    let tex_coords = limits::MAX_TEXTURE_COORDS;
    let lights = limits::MAX_LIGHTS;
    let ty = match name {
        "gl_ModelViewMatrix"
        | "gl_ProjectionMatrix"
        | "gl_ModelViewProjectionMatrix"
        | "gl_ModelViewMatrixInverse"
        | "gl_ProjectionMatrixInverse"
        | "gl_ModelViewProjectionMatrixInverse"
        | "gl_ModelViewMatrixTranspose"
        | "gl_ProjectionMatrixTranspose"
        | "gl_ModelViewProjectionMatrixTranspose"
        | "gl_ModelViewMatrixInverseTranspose"
        | "gl_ProjectionMatrixInverseTranspose"
        | "gl_ModelViewProjectionMatrixInverseTranspose" => mat4(),
        "gl_TextureMatrix"
        | "gl_TextureMatrixInverse"
        | "gl_TextureMatrixTranspose"
        | "gl_TextureMatrixInverseTranspose" => array(mat4(), tex_coords),
        "gl_NormalMatrix" => Type::mat(3, 3),
        "gl_NormalScale" => Type::FLOAT,
        "gl_ClipPlane" => array(vec(4), limits::MAX_CLIP_PLANES),
        "gl_Point" => builtin_struct(structs, BuiltinStruct::Point, false),
        "gl_FrontMaterial" | "gl_BackMaterial" => {
            builtin_struct(structs, BuiltinStruct::Material, false)
        }
        "gl_LightSource" => array(
            builtin_struct(structs, BuiltinStruct::LightSource, false),
            lights,
        ),
        "gl_LightModel" => builtin_struct(structs, BuiltinStruct::LightModel, false),
        "gl_FrontLightModelProduct" | "gl_BackLightModelProduct" => {
            builtin_struct(structs, BuiltinStruct::LightModelProducts, false)
        }
        "gl_FrontLightProduct" | "gl_BackLightProduct" => array(
            builtin_struct(structs, BuiltinStruct::LightProducts, false),
            lights,
        ),
        "gl_TextureEnvColor" => array(vec(4), limits::MAX_TEXTURE_UNITS),
        "gl_EyePlaneS" | "gl_EyePlaneT" | "gl_EyePlaneR" | "gl_EyePlaneQ" | "gl_ObjectPlaneS"
        | "gl_ObjectPlaneT" | "gl_ObjectPlaneR" | "gl_ObjectPlaneQ" => array(vec(4), tex_coords),
        "gl_Fog" => builtin_struct(structs, BuiltinStruct::Fog, false),
        _ => return None,
    };
    Some(variable(name, ty, VarMode::Uniform, None))
}

/// The value of built-in constant `name` where it exists.
fn constant_value(name: &str, a: &Availability<'_>) -> Option<i32> {
    use limits::*;
    let es = a.version.is_es();
    let es3 = a.version.at_least(0, 300);
    let compat = compatibility(a);
    let v130_desktop = a.version.at_least(130, 0);
    let v150 = a.version.at_least(150, 0);
    let enhanced_layouts =
        a.version.at_least(440, 0) || a.extensions.iter().any(|e| e == "GL_ARB_enhanced_layouts");
    let atomic_counters = a.version.at_least(420, 310)
        || (!es
            && a.extensions
                .iter()
                .any(|e| e == "GL_ARB_shader_atomic_counters"));
    let v420 = a.version.at_least(420, 310);
    // Mesa's has_shader_image_load_store(): GLSL 4.20, ES 3.10 or the extension.
    let images = v420 || (!es && has_ext(a, "GL_ARB_shader_image_load_store"));
    let value = match name {
        "gl_MaxVertexAttribs" => MAX_VERTEX_ATTRIBS,
        "gl_MaxVertexTextureImageUnits" => MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        "gl_MaxCombinedTextureImageUnits" => MAX_COMBINED_TEXTURE_IMAGE_UNITS,
        "gl_MaxTextureImageUnits" => MAX_TEXTURE_IMAGE_UNITS,
        "gl_MaxDrawBuffers" => MAX_DRAW_BUFFERS,
        "gl_MaxVertexUniformComponents" if !es => MAX_VERTEX_UNIFORM_COMPONENTS,
        "gl_MaxFragmentUniformComponents" if !es => MAX_FRAGMENT_UNIFORM_COMPONENTS,
        "gl_MaxVaryingFloats" if !es => MAX_VARYING_COMPONENTS,
        "gl_MaxVaryingComponents" if v130_desktop => MAX_VARYING_COMPONENTS,
        "gl_MaxClipDistances" if v130_desktop => MAX_CLIP_DISTANCES,
        "gl_MaxLights" if compat => MAX_LIGHTS,
        "gl_MaxClipPlanes" if compat => MAX_CLIP_PLANES,
        "gl_MaxTextureUnits" if compat => MAX_TEXTURE_UNITS,
        "gl_MaxTextureCoords" if compat => MAX_TEXTURE_COORDS,
        "gl_MaxVertexOutputComponents" if v150 => MAX_VERTEX_OUTPUT_COMPONENTS,
        "gl_MaxGeometryInputComponents" if v150 => MAX_GEOMETRY_INPUT_COMPONENTS,
        "gl_MaxGeometryOutputComponents" if v150 => MAX_GEOMETRY_OUTPUT_COMPONENTS,
        "gl_MaxFragmentInputComponents" if v150 => MAX_FRAGMENT_INPUT_COMPONENTS,
        "gl_MaxGeometryTextureImageUnits" if v150 => MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
        "gl_MaxGeometryOutputVertices" if v150 => MAX_GEOMETRY_OUTPUT_VERTICES,
        "gl_MaxGeometryTotalOutputComponents" if v150 => MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
        "gl_MaxGeometryUniformComponents" if v150 => MAX_GEOMETRY_UNIFORM_COMPONENTS,
        "gl_MaxGeometryVaryingComponents" if v150 => MAX_GEOMETRY_VARYING_COMPONENTS,
        "gl_MaxVertexUniformVectors" if es => MAX_VERTEX_UNIFORM_COMPONENTS / 4,
        "gl_MaxFragmentUniformVectors" if es => MAX_FRAGMENT_UNIFORM_COMPONENTS / 4,
        "gl_MaxVaryingVectors" if es && !es3 => MAX_VARYING_COMPONENTS / 4,
        "gl_MaxVertexOutputVectors" if es3 => MAX_VERTEX_OUTPUT_COMPONENTS / 4,
        "gl_MaxFragmentInputVectors" if es3 => MAX_FRAGMENT_INPUT_COMPONENTS / 4,
        // Texel offset limits: GLSL 4.20 / ES 3.00 (or ARB_shading_language_420pack).
        "gl_MinProgramTexelOffset" if es3 => MIN_PROGRAM_TEXEL_OFFSET,
        "gl_MaxProgramTexelOffset" if es3 => MAX_PROGRAM_TEXEL_OFFSET,
        // GLSL 4.40 §7.3 / ARB_enhanced_layouts.
        "gl_MaxTransformFeedbackBuffers" if enhanced_layouts => MAX_TRANSFORM_FEEDBACK_BUFFERS,
        "gl_MaxTransformFeedbackInterleavedComponents" if enhanced_layouts => {
            MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS
        }
        // GLSL 4.30 §7.3 (every stage, like Mesa, once compute exists).
        "gl_MaxComputeUniformComponents" if has_compute(a) => MAX_COMPUTE_UNIFORM_COMPONENTS,
        "gl_MaxComputeTextureImageUnits" if has_compute(a) => MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
        "gl_MaxComputeImageUniforms" if has_compute(a) => MAX_COMPUTE_IMAGE_UNIFORMS,
        "gl_MaxComputeAtomicCounters" if has_compute(a) => MAX_COMPUTE_ATOMIC_COUNTERS,
        "gl_MaxComputeAtomicCounterBuffers" if has_compute(a) => MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS,
        // ARB_shader_atomic_counters / GLSL 4.20 §7.3 (Mesa adds the
        // tessellation ones on desktop, the geometry one where geometry
        // shaders exist); the buffer counts and size are GLSL 4.20 / ES 3.10.
        "gl_MaxVertexAtomicCounters" | "gl_MaxFragmentAtomicCounters" if atomic_counters => {
            MAX_STAGE_ATOMIC_COUNTERS
        }
        "gl_MaxTessControlAtomicCounters" | "gl_MaxTessEvaluationAtomicCounters"
            if atomic_counters && !es =>
        {
            MAX_STAGE_ATOMIC_COUNTERS
        }
        "gl_MaxGeometryAtomicCounters" if atomic_counters && v150 => MAX_STAGE_ATOMIC_COUNTERS,
        "gl_MaxCombinedAtomicCounters" if atomic_counters => MAX_COMBINED_ATOMIC_COUNTERS,
        "gl_MaxAtomicCounterBindings" if atomic_counters => MAX_ATOMIC_COUNTER_BINDINGS,
        "gl_MaxVertexAtomicCounterBuffers" | "gl_MaxFragmentAtomicCounterBuffers" if v420 => {
            MAX_STAGE_ATOMIC_COUNTER_BUFFERS
        }
        "gl_MaxTessControlAtomicCounterBuffers"
        | "gl_MaxTessEvaluationAtomicCounterBuffers"
        | "gl_MaxGeometryAtomicCounterBuffers"
            if v420 && !es =>
        {
            MAX_STAGE_ATOMIC_COUNTER_BUFFERS
        }
        "gl_MaxCombinedAtomicCounterBuffers" if v420 => MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
        "gl_MaxAtomicCounterBufferSize" if v420 => MAX_ATOMIC_COUNTER_BUFFER_SIZE,
        // GLSL 4.20 §7.3 / ES 3.10 §7.2 image limits, where Mesa's
        // builtin_variables.cpp adds them: the geometry one where geometry
        // shaders exist, the tessellation ones and the two desktop-only ones
        // (samples, units and outputs) outside ES.
        "gl_MaxImageUnits" if images => MAX_IMAGE_UNITS,
        "gl_MaxVertexImageUniforms" | "gl_MaxFragmentImageUniforms" if images => {
            MAX_STAGE_IMAGE_UNIFORMS
        }
        "gl_MaxCombinedImageUniforms" if images => MAX_COMBINED_IMAGE_UNIFORMS,
        "gl_MaxGeometryImageUniforms" if images && v150 => MAX_STAGE_IMAGE_UNIFORMS,
        "gl_MaxTessControlImageUniforms" | "gl_MaxTessEvaluationImageUniforms"
            if images && !es && a.version.at_least(400, 0) =>
        {
            MAX_STAGE_IMAGE_UNIFORMS
        }
        "gl_MaxCombinedImageUnitsAndFragmentOutputs" if images && !es => {
            MAX_COMBINED_SHADER_OUTPUT_RESOURCES
        }
        "gl_MaxImageSamples" if images && !es => MAX_IMAGE_SAMPLES,
        // GLSL 4.30 §7.3 / ES 3.10.
        "gl_MaxCombinedShaderOutputResources" if a.version.at_least(430, 310) => {
            MAX_COMBINED_SHADER_OUTPUT_RESOURCES
        }
        _ => return None,
    };
    Some(value)
}
