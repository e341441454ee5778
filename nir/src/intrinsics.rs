//! The intrinsic table: the ONE place where intrinsics are declared, with their source
//! counts/component counts, destination shape, constant indices and flags. The
//! [`intrinsic_table!`] macro derives the [`IntrinsicOp`] enum, [`IntrinsicOp::info`] and
//! `Display`/`FromStr`.
//!
//! Component counts: 0 means "the instruction's `num_components`"; a positive value is a
//! fixed count. The destination is `None` for intrinsics without a result.

use std::fmt;

/// Constant index kinds (named slots in an intrinsic's index list).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// IO/uniform base (driver location or offset).
    Base,
    /// Number of units addressed from `base`.
    Range,
    /// First component of the access.
    Component,
    /// Component write mask of a store (`wrmask=xyzw`).
    WriteMask,
    /// Memory access qualifiers (`access=none|readonly|...`).
    Access,
    /// Access qualifiers of a copy destination.
    DstAccess,
    /// Access qualifiers of a copy source.
    SrcAccess,
    /// ALU type of a load's result (`dest_type=float32`).
    DestType,
    /// ALU type of a store's value (`src_type=float32`).
    SrcType,
    /// IO semantics: location in the low 16 bits, slot count in the high 16 bits
    /// (printed `io location=VARYING_SLOT_POS slots=1`).
    IoSemantics,
    /// Geometry stream.
    StreamId,
    /// User clip plane index.
    UcpId,
    /// Alignment multiplier of an address.
    AlignMul,
    /// Alignment offset of an address.
    AlignOffset,
    /// Start of the accessed byte range.
    RangeBase,
    /// Interpolation mode of a barycentric load.
    InterpMode,
    /// Barrier execution scope.
    ExecutionScope,
    /// Barrier memory scope.
    MemoryScope,
    /// Barrier memory semantics.
    MemorySemantics,
    /// Barrier memory modes.
    MemoryModes,
    /// Parameter index of `load_param`.
    ParamIdx,
    /// The operation of an atomic (Mesa's `nir_atomic_op`, printed `atomic_op=iadd`;
    /// see [`AtomicOp`]).
    AtomicOp,
    /// Dimensionality of an image access (Mesa's `image_dim`, printed with the
    /// tex-instruction spelling: `image_dim=2D`; see [`crate::ir::SamplerDim`]).
    ImageDim,
    /// Whether an image access addresses an array image (`image_array=true`).
    ImageArray,
    /// Texel format of an image access (Mesa's `format`, printed as the
    /// `PIPE_FORMAT_*` name; see [`ImageFormat`]).
    Format,
}

impl IndexKind {
    /// Printed name.
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Base => "base",
            IndexKind::Range => "range",
            IndexKind::Component => "component",
            IndexKind::WriteMask => "wrmask",
            IndexKind::Access => "access",
            IndexKind::DstAccess => "dst_access",
            IndexKind::SrcAccess => "src_access",
            IndexKind::DestType => "dest_type",
            IndexKind::SrcType => "src_type",
            IndexKind::IoSemantics => "io location",
            IndexKind::StreamId => "stream_id",
            IndexKind::UcpId => "ucp_id",
            IndexKind::AlignMul => "align_mul",
            IndexKind::AlignOffset => "align_offset",
            IndexKind::RangeBase => "range_base",
            IndexKind::InterpMode => "interp_mode",
            IndexKind::ExecutionScope => "execution_scope",
            IndexKind::MemoryScope => "memory_scope",
            IndexKind::MemorySemantics => "memory_semantics",
            IndexKind::MemoryModes => "memory_modes",
            IndexKind::ParamIdx => "param_idx",
            IndexKind::AtomicOp => "atomic_op",
            IndexKind::ImageDim => "image_dim",
            IndexKind::ImageArray => "image_array",
            IndexKind::Format => "format",
        }
    }
}

/// Declares a small enum stored in an intrinsic index, with its printed names.
macro_rules! index_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $value:literal $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant = $value,)*
        }
        impl $name {
            /// Every value with its printed name.
            pub const ALL: &'static [($name, &'static str)] = &[$(($name::$variant, $text)),*];
            /// The value stored in the index.
            pub fn code(self) -> u32 {
                self as u32
            }
            /// Decodes an index value.
            pub fn from_code(code: u32) -> Option<$name> {
                Self::ALL.iter().map(|(v, _)| *v).find(|v| v.code() == code)
            }
            /// The printed name.
            pub fn name(self) -> &'static str {
                Self::ALL.iter().find(|(v, _)| *v == self).map_or("?", |(_, n)| n)
            }
            /// Parses a printed name.
            pub fn from_name(text: &str) -> Option<$name> {
                Self::ALL.iter().find(|(_, n)| *n == text).map(|(v, _)| *v)
            }
        }
    };
}

index_enum! {
    /// The operation of an atomic intrinsic (Mesa's `nir_atomic_op`): the memory word
    /// `m` becomes `op(m, data)` and the intrinsic returns the old `m`.
    AtomicOp {
        /// `m + data` (wrapping).
        Iadd = 0 "iadd",
        /// Signed minimum.
        Imin = 1 "imin",
        /// Unsigned minimum.
        Umin = 2 "umin",
        /// Signed maximum.
        Imax = 3 "imax",
        /// Unsigned maximum.
        Umax = 4 "umax",
        /// Bitwise and.
        Iand = 5 "iand",
        /// Bitwise or.
        Ior = 6 "ior",
        /// Bitwise exclusive or.
        Ixor = 7 "ixor",
        /// Exchange: `data`.
        Xchg = 8 "xchg",
        /// Compare-and-swap (the `*_atomic_swap` intrinsics only): `data2` when
        /// `m == data`, else `m`.
        Cmpxchg = 9 "cmpxchg",
        /// Float addition (NV_shader_atomic_float).
        Fadd = 10 "fadd",
        /// Float minimum (INTEL_shader_atomic_float_minmax): a signaling NaN
        /// orders below every other value and a quiet NaN above, so a quiet
        /// NaN operand never wins; `-0` orders below `+0`.
        Fmin = 11 "fmin",
        /// Float maximum, in the order of [`AtomicOp::Fmin`].
        Fmax = 12 "fmax",
        /// Float compare-and-swap (the `*_atomic_swap` intrinsics only): `data2`
        /// when `m == data` as floats (`-0 == +0`, a NaN equals nothing).
        Fcmpxchg = 13 "fcmpxchg",
    }
}

index_enum! {
    /// The texel format of an image access (Mesa's `format` index, a
    /// `pipe_format`): the GLSL 4.20 §4.4.6.2 format layout qualifiers, in the
    /// order of their table, and `NONE` for an image declared without one
    /// (`writeonly` images may omit it).
    ImageFormat {
        /// No format qualifier.
        None = 0 "PIPE_FORMAT_NONE",
        /// `rgba32f`.
        Rgba32f = 1 "PIPE_FORMAT_R32G32B32A32_FLOAT",
        /// `rgba16f`.
        Rgba16f = 2 "PIPE_FORMAT_R16G16B16A16_FLOAT",
        /// `rg32f`.
        Rg32f = 3 "PIPE_FORMAT_R32G32_FLOAT",
        /// `rg16f`.
        Rg16f = 4 "PIPE_FORMAT_R16G16_FLOAT",
        /// `r11f_g11f_b10f`.
        R11fG11fB10f = 5 "PIPE_FORMAT_R11G11B10_FLOAT",
        /// `r32f`.
        R32f = 6 "PIPE_FORMAT_R32_FLOAT",
        /// `r16f`.
        R16f = 7 "PIPE_FORMAT_R16_FLOAT",
        /// `rgba16`.
        Rgba16 = 8 "PIPE_FORMAT_R16G16B16A16_UNORM",
        /// `rgb10_a2`.
        Rgb10A2 = 9 "PIPE_FORMAT_R10G10B10A2_UNORM",
        /// `rgba8`.
        Rgba8 = 10 "PIPE_FORMAT_R8G8B8A8_UNORM",
        /// `rg16`.
        Rg16 = 11 "PIPE_FORMAT_R16G16_UNORM",
        /// `rg8`.
        Rg8 = 12 "PIPE_FORMAT_R8G8_UNORM",
        /// `r16`.
        R16 = 13 "PIPE_FORMAT_R16_UNORM",
        /// `r8`.
        R8 = 14 "PIPE_FORMAT_R8_UNORM",
        /// `rgba16_snorm`.
        Rgba16Snorm = 15 "PIPE_FORMAT_R16G16B16A16_SNORM",
        /// `rgba8_snorm`.
        Rgba8Snorm = 16 "PIPE_FORMAT_R8G8B8A8_SNORM",
        /// `rg16_snorm`.
        Rg16Snorm = 17 "PIPE_FORMAT_R16G16_SNORM",
        /// `rg8_snorm`.
        Rg8Snorm = 18 "PIPE_FORMAT_R8G8_SNORM",
        /// `r16_snorm`.
        R16Snorm = 19 "PIPE_FORMAT_R16_SNORM",
        /// `r8_snorm`.
        R8Snorm = 20 "PIPE_FORMAT_R8_SNORM",
        /// `rgba32i`.
        Rgba32i = 21 "PIPE_FORMAT_R32G32B32A32_SINT",
        /// `rgba16i`.
        Rgba16i = 22 "PIPE_FORMAT_R16G16B16A16_SINT",
        /// `rgba8i`.
        Rgba8i = 23 "PIPE_FORMAT_R8G8B8A8_SINT",
        /// `rg32i`.
        Rg32i = 24 "PIPE_FORMAT_R32G32_SINT",
        /// `rg16i`.
        Rg16i = 25 "PIPE_FORMAT_R16G16_SINT",
        /// `rg8i`.
        Rg8i = 26 "PIPE_FORMAT_R8G8_SINT",
        /// `r32i`.
        R32i = 27 "PIPE_FORMAT_R32_SINT",
        /// `r16i`.
        R16i = 28 "PIPE_FORMAT_R16_SINT",
        /// `r8i`.
        R8i = 29 "PIPE_FORMAT_R8_SINT",
        /// `rgba32ui`.
        Rgba32ui = 30 "PIPE_FORMAT_R32G32B32A32_UINT",
        /// `rgba16ui`.
        Rgba16ui = 31 "PIPE_FORMAT_R16G16B16A16_UINT",
        /// `rgb10_a2ui`.
        Rgb10A2ui = 32 "PIPE_FORMAT_R10G10B10A2_UINT",
        /// `rgba8ui`.
        Rgba8ui = 33 "PIPE_FORMAT_R8G8B8A8_UINT",
        /// `rg32ui`.
        Rg32ui = 34 "PIPE_FORMAT_R32G32_UINT",
        /// `rg16ui`.
        Rg16ui = 35 "PIPE_FORMAT_R16G16_UINT",
        /// `rg8ui`.
        Rg8ui = 36 "PIPE_FORMAT_R8G8_UINT",
        /// `r32ui`.
        R32ui = 37 "PIPE_FORMAT_R32_UINT",
        /// `r16ui`.
        R16ui = 38 "PIPE_FORMAT_R16_UINT",
        /// `r8ui`.
        R8ui = 39 "PIPE_FORMAT_R8_UINT",
    }
}

impl ImageFormat {
    /// The format of a GLSL format layout qualifier (`rgba8`, `r32i`, ...).
    pub fn from_glsl(name: &str) -> Option<ImageFormat> {
        const GLSL: [&str; 39] = [
            "rgba32f",
            "rgba16f",
            "rg32f",
            "rg16f",
            "r11f_g11f_b10f",
            "r32f",
            "r16f",
            "rgba16",
            "rgb10_a2",
            "rgba8",
            "rg16",
            "rg8",
            "r16",
            "r8",
            "rgba16_snorm",
            "rgba8_snorm",
            "rg16_snorm",
            "rg8_snorm",
            "r16_snorm",
            "r8_snorm",
            "rgba32i",
            "rgba16i",
            "rgba8i",
            "rg32i",
            "rg16i",
            "rg8i",
            "r32i",
            "r16i",
            "r8i",
            "rgba32ui",
            "rgba16ui",
            "rgb10_a2ui",
            "rgba8ui",
            "rg32ui",
            "rg16ui",
            "rg8ui",
            "r32ui",
            "r16ui",
            "r8ui",
        ];
        let i = GLSL.iter().position(|n| *n == name)?;
        ImageFormat::from_code(i as u32 + 1)
    }
}

index_enum! {
    /// Scope of a barrier (Mesa's `mesa_scope`).
    Scope {
        /// No execution barrier (a memory-only barrier).
        None = 0 "NONE",
        /// The invocation itself.
        Invocation = 1 "INVOCATION",
        /// The subgroup.
        Subgroup = 2 "SUBGROUP",
        /// A shader call (ray tracing).
        ShaderCall = 3 "SHADER_CALL",
        /// The workgroup (`barrier()`, `groupMemoryBarrier()`).
        Workgroup = 4 "WORKGROUP",
        /// The queue family.
        QueueFamily = 5 "QUEUE_FAMILY",
        /// The device (`memoryBarrier*()`).
        Device = 6 "DEVICE",
    }
}

/// Memory semantics bit: acquire (Mesa's `NIR_MEMORY_ACQUIRE`).
pub const MEMORY_ACQUIRE: u32 = 1;
/// Memory semantics bit: release (`NIR_MEMORY_RELEASE`).
pub const MEMORY_RELEASE: u32 = 2;
/// Memory semantics: acquire and release (`NIR_MEMORY_ACQ_REL`).
pub const MEMORY_ACQ_REL: u32 = MEMORY_ACQUIRE | MEMORY_RELEASE;
/// Memory semantics bit: make available (`NIR_MEMORY_MAKE_AVAILABLE`).
pub const MEMORY_MAKE_AVAILABLE: u32 = 4;
/// Memory semantics bit: make visible (`NIR_MEMORY_MAKE_VISIBLE`).
pub const MEMORY_MAKE_VISIBLE: u32 = 8;
/// Every memory semantics bit with its printed name.
pub const MEMORY_SEMANTICS: &[(u32, &str)] = &[
    (MEMORY_ACQUIRE, "ACQ"),
    (MEMORY_RELEASE, "REL"),
    (MEMORY_MAKE_AVAILABLE, "AVAILABLE"),
    (MEMORY_MAKE_VISIBLE, "VISIBLE"),
];

/// The intrinsic may be deleted when its result is unused.
pub const CAN_ELIMINATE: u8 = 1;
/// The intrinsic may be moved/merged (CSE) freely.
pub const CAN_REORDER: u8 = 2;

/// One row of the intrinsic table.
#[derive(Debug)]
pub struct IntrinsicInfo {
    /// Mesa name (printed after `@`).
    pub name: &'static str,
    /// Component count of each source (0 = `num_components`).
    pub src_components: &'static [u8],
    /// Destination component count (0 = `num_components`), or `None` without a result.
    pub dest_components: Option<u8>,
    /// Fixed destination bit size (0 = any).
    pub dest_bit_size: u8,
    /// Constant indices in storage and print order.
    pub indices: &'static [IndexKind],
    /// `CAN_ELIMINATE | CAN_REORDER`.
    pub flags: u8,
    /// One-line description.
    pub description: &'static str,
}

impl IntrinsicInfo {
    /// Position of index `kind` in the index list.
    pub fn index_slot(&self, kind: IndexKind) -> Option<usize> {
        self.indices.iter().position(|k| *k == kind)
    }
}

macro_rules! intrinsic_table {
    ($( $variant:ident $name:literal ( $($src:literal),* ) -> $dest:tt bits $bits:literal
        [ $($idx:ident),* ] [$flags:expr] $desc:literal ; )*) => {
        /// Every intrinsic (see the table in `intrinsics.rs`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum IntrinsicOp {
            $(#[doc = $desc] $variant,)*
        }
        impl IntrinsicOp {
            /// Every intrinsic in table order.
            pub const ALL: &'static [IntrinsicOp] = &[$(IntrinsicOp::$variant),*];
            /// The table row of this intrinsic.
            pub fn info(self) -> &'static IntrinsicInfo {
                match self {
                    $(IntrinsicOp::$variant => {
                        static INFO: IntrinsicInfo = IntrinsicInfo {
                            name: $name,
                            src_components: &[$($src),*],
                            dest_components: intrinsic_table!(@dest $dest),
                            dest_bit_size: $bits,
                            indices: &[$(IndexKind::$idx),*],
                            flags: $flags,
                            description: $desc,
                        };
                        &INFO
                    })*
                }
            }
        }
    };
    (@dest none) => { None };
    (@dest $n:literal) => { Some($n) };
}

impl fmt::Display for IntrinsicOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

impl std::str::FromStr for IntrinsicOp {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        IntrinsicOp::ALL
            .iter()
            .copied()
            .find(|op| op.info().name == s)
            .ok_or(())
    }
}

const E: u8 = CAN_ELIMINATE;
const ER: u8 = CAN_ELIMINATE | CAN_REORDER;

intrinsic_table! {
    // ---- variable access (deref form) ----
    load_deref "load_deref" (1) -> 0 bits 0 [Access] [E] "load through a deref";
    store_deref "store_deref" (1, 0) -> none bits 0 [WriteMask, Access] [0] "store a value through a deref";
    copy_deref "copy_deref" (1, 1) -> none bits 0 [DstAccess, SrcAccess] [0] "copy the whole value of one deref to another";
    // ---- function parameters ----
    load_param "load_param" () -> 1 bits 32 [ParamIdx] [ER] "the deref passed as parameter `param_idx` of the current function";
    // ---- lowered IO ----
    load_input "load_input" (1) -> 0 bits 0 [Base, Range, Component, DestType, IoSemantics] [ER] "load a shader input (offset in slots)";
    load_per_vertex_input "load_per_vertex_input" (1, 1) -> 0 bits 0 [Base, Range, Component, DestType, IoSemantics] [ER] "load an arrayed per-vertex input (vertex, offset)";
    load_interpolated_input "load_interpolated_input" (2, 1) -> 0 bits 0 [Base, Component, DestType, IoSemantics] [ER] "load an input at a barycentric (barycentric, offset)";
    load_barycentric_pixel "load_barycentric_pixel" () -> 2 bits 32 [InterpMode] [ER] "barycentrics at the pixel center";
    load_barycentric_centroid "load_barycentric_centroid" () -> 2 bits 32 [InterpMode] [ER] "barycentrics at the centroid";
    load_barycentric_sample "load_barycentric_sample" () -> 2 bits 32 [InterpMode] [ER] "barycentrics at the sample";
    load_barycentric_at_offset "load_barycentric_at_offset" (2) -> 2 bits 32 [InterpMode] [ER] "barycentrics at a pixel offset";
    load_output "load_output" (1) -> 0 bits 0 [Base, Range, Component, DestType, IoSemantics] [E] "read back an output (offset in slots)";
    store_output "store_output" (0, 1) -> none bits 0 [Base, Range, WriteMask, Component, SrcType, IoSemantics] [0] "store a shader output (value, offset)";
    load_uniform "load_uniform" (1) -> 0 bits 0 [Base, Range, DestType] [ER] "load from the default uniform block";
    load_ubo "load_ubo" (1, 1) -> 0 bits 0 [Access, AlignMul, AlignOffset, RangeBase, Range] [ER] "load from a uniform buffer (block, byte offset)";
    // ---- storage buffers and shared memory (explicit IO; ARB_shader_storage_buffer_object, ARB_compute_shader) ----
    deref_atomic "deref_atomic" (1, 1) -> 1 bits 0 [Access, AtomicOp] [0] "atomic `atomic_op` on the scalar a deref names (deref, data); returns the old value";
    deref_atomic_swap "deref_atomic_swap" (1, 1, 1) -> 1 bits 0 [Access, AtomicOp] [0] "compare-and-swap on the scalar a deref names (deref, compare, data); returns the old value";
    deref_buffer_array_length "deref_buffer_array_length" (1) -> 1 bits 32 [Access] [ER] "element count of the unsized array a storage-buffer deref names (`.length()`)";
    load_ssbo "load_ssbo" (1, 1) -> 0 bits 0 [Access, AlignMul, AlignOffset] [E] "load from a storage buffer (block, byte offset)";
    store_ssbo "store_ssbo" (0, 1, 1) -> none bits 0 [WriteMask, Access, AlignMul, AlignOffset] [0] "store to a storage buffer (value, block, byte offset)";
    get_ssbo_size "get_ssbo_size" (1) -> 1 bits 32 [Access] [ER] "size in bytes of the storage buffer bound to a block";
    ssbo_atomic "ssbo_atomic" (1, 1, 1) -> 1 bits 0 [Access, AtomicOp] [0] "atomic on a storage buffer word (block, byte offset, data); returns the old value";
    ssbo_atomic_swap "ssbo_atomic_swap" (1, 1, 1, 1) -> 1 bits 0 [Access, AtomicOp] [0] "compare-and-swap on a storage buffer word (block, byte offset, compare, data)";
    load_shared "load_shared" (1) -> 0 bits 0 [Base, AlignMul, AlignOffset] [E] "load from workgroup shared memory (byte offset + base)";
    store_shared "store_shared" (0, 1) -> none bits 0 [Base, WriteMask, AlignMul, AlignOffset] [0] "store to workgroup shared memory (value, byte offset + base)";
    shared_atomic "shared_atomic" (1, 1) -> 1 bits 0 [Base, AtomicOp] [0] "atomic on a shared memory word (byte offset + base, data); returns the old value";
    shared_atomic_swap "shared_atomic_swap" (1, 1, 1) -> 1 bits 0 [Base, AtomicOp] [0] "compare-and-swap on a shared memory word (byte offset + base, compare, data)";
    // ---- images (ARB_shader_image_load_store, GLSL 4.20 §8.12): deref form from
    // glsl_to_nir, index form (source 0 = the image index) after lower_io. Sources
    // as Mesa's: image, coord (4 components, unused ones 0), sample, then the
    // value(s) or lod. ----
    image_deref_load "image_deref_load" (1, 4, 1, 1) -> 0 bits 0 [ImageDim, ImageArray, Format, Access, DestType] [E] "imageLoad (image deref, coord, sample, lod)";
    image_deref_store "image_deref_store" (1, 4, 1, 0, 1) -> none bits 0 [ImageDim, ImageArray, Format, Access, SrcType] [0] "imageStore (image deref, coord, sample, value, lod)";
    image_deref_atomic "image_deref_atomic" (1, 4, 1, 1) -> 1 bits 0 [ImageDim, ImageArray, Format, Access, AtomicOp] [0] "imageAtomic* (image deref, coord, sample, data); returns the old value";
    image_deref_atomic_swap "image_deref_atomic_swap" (1, 4, 1, 1, 1) -> 1 bits 0 [ImageDim, ImageArray, Format, Access, AtomicOp] [0] "imageAtomicCompSwap (image deref, coord, sample, compare, data)";
    image_deref_size "image_deref_size" (1, 1) -> 0 bits 32 [ImageDim, ImageArray, Format, Access, DestType] [ER] "imageSize (image deref, lod)";
    image_deref_samples "image_deref_samples" (1) -> 1 bits 32 [ImageDim, ImageArray, Format, Access, DestType] [ER] "imageSamples (image deref)";
    image_load "image_load" (1, 4, 1, 1) -> 0 bits 0 [ImageDim, ImageArray, Format, Access, DestType] [E] "imageLoad (image index, coord, sample, lod)";
    image_store "image_store" (1, 4, 1, 0, 1) -> none bits 0 [ImageDim, ImageArray, Format, Access, SrcType] [0] "imageStore (image index, coord, sample, value, lod)";
    image_atomic "image_atomic" (1, 4, 1, 1) -> 1 bits 0 [ImageDim, ImageArray, Format, Access, AtomicOp] [0] "imageAtomic* (image index, coord, sample, data); returns the old value";
    image_atomic_swap "image_atomic_swap" (1, 4, 1, 1, 1) -> 1 bits 0 [ImageDim, ImageArray, Format, Access, AtomicOp] [0] "imageAtomicCompSwap (image index, coord, sample, compare, data)";
    image_size "image_size" (1, 1) -> 0 bits 32 [ImageDim, ImageArray, Format, Access, DestType] [ER] "imageSize (image index, lod)";
    image_samples "image_samples" (1) -> 1 bits 32 [ImageDim, ImageArray, Format, Access, DestType] [ER] "imageSamples (image index)";
    // ---- system values ----
    load_front_face "load_front_face" () -> 1 bits 1 [] [ER] "gl_FrontFacing";
    load_frag_coord "load_frag_coord" () -> 4 bits 32 [] [ER] "gl_FragCoord";
    load_point_coord "load_point_coord" () -> 2 bits 32 [] [ER] "gl_PointCoord";
    load_vertex_id "load_vertex_id" () -> 1 bits 32 [] [ER] "gl_VertexID";
    load_vertex_id_zero_base "load_vertex_id_zero_base" () -> 1 bits 32 [] [ER] "vertex id without the base vertex";
    load_base_vertex "load_base_vertex" () -> 1 bits 32 [] [ER] "base vertex of the draw";
    load_first_vertex "load_first_vertex" () -> 1 bits 32 [] [ER] "first vertex of the draw";
    load_instance_id "load_instance_id" () -> 1 bits 32 [] [ER] "gl_InstanceID";
    load_base_instance "load_base_instance" () -> 1 bits 32 [] [ER] "base instance of the draw";
    load_draw_id "load_draw_id" () -> 1 bits 32 [] [ER] "gl_DrawID";
    load_primitive_id "load_primitive_id" () -> 1 bits 32 [] [ER] "gl_PrimitiveID(In)";
    load_invocation_id "load_invocation_id" () -> 1 bits 32 [] [ER] "gl_InvocationID";
    load_layer_id "load_layer_id" () -> 1 bits 32 [] [ER] "gl_Layer in the FS";
    load_sample_id "load_sample_id" () -> 1 bits 32 [] [ER] "gl_SampleID";
    load_sample_pos "load_sample_pos" () -> 2 bits 32 [] [ER] "gl_SamplePosition";
    load_sample_mask_in "load_sample_mask_in" () -> 1 bits 32 [] [ER] "gl_SampleMaskIn";
    load_helper_invocation "load_helper_invocation" () -> 1 bits 1 [] [E] "gl_HelperInvocation";
    load_user_clip_plane "load_user_clip_plane" () -> 4 bits 32 [UcpId] [ER] "a user clip plane";
    // ---- compute system values ----
    load_local_invocation_id "load_local_invocation_id" () -> 3 bits 32 [] [ER] "gl_LocalInvocationID";
    load_workgroup_id "load_workgroup_id" () -> 3 bits 32 [] [ER] "gl_WorkGroupID";
    load_num_workgroups "load_num_workgroups" () -> 3 bits 32 [] [ER] "gl_NumWorkGroups";
    load_global_invocation_id "load_global_invocation_id" () -> 3 bits 32 [] [ER] "gl_GlobalInvocationID";
    load_local_invocation_index "load_local_invocation_index" () -> 1 bits 32 [] [ER] "gl_LocalInvocationIndex";
    load_workgroup_size "load_workgroup_size" () -> 3 bits 32 [] [ER] "gl_WorkGroupSize (a variable workgroup size)";
    // ---- subgroups (ARB_shader_ballot, ARB_shader_group_vote) ----
    load_subgroup_invocation "load_subgroup_invocation" () -> 1 bits 32 [] [ER] "gl_SubGroupInvocationARB";
    load_subgroup_size "load_subgroup_size" () -> 1 bits 32 [] [ER] "gl_SubGroupSizeARB";
    load_subgroup_eq_mask "load_subgroup_eq_mask" () -> 0 bits 0 [] [ER] "gl_SubGroupEqMaskARB (a uvec4 / uvec2 / uint64 bit set)";
    load_subgroup_ge_mask "load_subgroup_ge_mask" () -> 0 bits 0 [] [ER] "gl_SubGroupGeMaskARB";
    load_subgroup_gt_mask "load_subgroup_gt_mask" () -> 0 bits 0 [] [ER] "gl_SubGroupGtMaskARB";
    load_subgroup_le_mask "load_subgroup_le_mask" () -> 0 bits 0 [] [ER] "gl_SubGroupLeMaskARB";
    load_subgroup_lt_mask "load_subgroup_lt_mask" () -> 0 bits 0 [] [ER] "gl_SubGroupLtMaskARB";
    ballot "ballot" (1) -> 0 bits 0 [] [E] "bit set of the active invocations whose condition holds";
    read_invocation "read_invocation" (0, 1) -> 0 bits 0 [] [E] "the value of invocation `src1` (readInvocationARB)";
    read_first_invocation "read_first_invocation" (0) -> 0 bits 0 [] [E] "the value of the lowest active invocation (readFirstInvocationARB)";
    vote_any "vote_any" (1) -> 1 bits 1 [] [E] "anyInvocationARB";
    vote_all "vote_all" (1) -> 1 bits 1 [] [E] "allInvocationsARB";
    vote_feq "vote_feq" (0) -> 1 bits 1 [] [E] "allInvocationsEqualARB on floats";
    vote_ieq "vote_ieq" (0) -> 1 bits 1 [] [E] "allInvocationsEqualARB on integers and booleans";
    // ---- ARB_shader_clock ----
    shader_clock "shader_clock" () -> 2 bits 32 [MemoryScope] [E] "clock2x32ARB: a monotonic counter as (low, high) words";
    // ---- derivatives (intrinsics so they never move across discards/control flow) ----
    ddx "ddx" (0) -> 0 bits 0 [] [E] "dFdx";
    ddy "ddy" (0) -> 0 bits 0 [] [E] "dFdy";
    ddx_fine "ddx_fine" (0) -> 0 bits 0 [] [E] "dFdxFine";
    ddx_coarse "ddx_coarse" (0) -> 0 bits 0 [] [E] "dFdxCoarse";
    ddy_fine "ddy_fine" (0) -> 0 bits 0 [] [E] "dFdyFine";
    ddy_coarse "ddy_coarse" (0) -> 0 bits 0 [] [E] "dFdyCoarse";
    // ---- fragment kill ----
    discard "discard" () -> none bits 0 [] [0] "kill the fragment (classic)";
    discard_if "discard_if" (1) -> none bits 0 [] [0] "kill the fragment if the condition holds (classic)";
    terminate "terminate" () -> none bits 0 [] [0] "kill the fragment and stop";
    terminate_if "terminate_if" (1) -> none bits 0 [] [0] "terminate if the condition holds";
    demote "demote" () -> none bits 0 [] [0] "turn the invocation into a helper";
    demote_if "demote_if" (1) -> none bits 0 [] [0] "demote if the condition holds";
    // ---- geometry ----
    emit_vertex "emit_vertex" () -> none bits 0 [StreamId] [0] "EmitVertex / EmitStreamVertex";
    end_primitive "end_primitive" () -> none bits 0 [StreamId] [0] "EndPrimitive / EndStreamPrimitive";
    // ---- synchronisation ----
    barrier "barrier" () -> none bits 0 [ExecutionScope, MemoryScope, MemorySemantics, MemoryModes] [0] "execution and/or memory barrier";
}

impl IntrinsicOp {
    /// The index form of an image deref intrinsic (`image_deref_load` →
    /// `image_load`, as Mesa's `gl_nir_lower_images` rewrites them).
    pub fn image_index_form(self) -> Option<IntrinsicOp> {
        use IntrinsicOp as I;
        Some(match self {
            I::image_deref_load => I::image_load,
            I::image_deref_store => I::image_store,
            I::image_deref_atomic => I::image_atomic,
            I::image_deref_atomic_swap => I::image_atomic_swap,
            I::image_deref_size => I::image_size,
            I::image_deref_samples => I::image_samples,
            _ => return None,
        })
    }
    /// An image intrinsic in either form.
    pub fn is_image(self) -> bool {
        use IntrinsicOp as I;
        self.image_index_form().is_some()
            || matches!(
                self,
                I::image_load
                    | I::image_store
                    | I::image_atomic
                    | I::image_atomic_swap
                    | I::image_size
                    | I::image_samples
            )
    }
}

impl AtomicOp {
    /// Whether this is a compare-and-swap, which only the `*_atomic_swap`
    /// intrinsics perform.
    pub fn is_swap(self) -> bool {
        matches!(self, AtomicOp::Cmpxchg | AtomicOp::Fcmpxchg)
    }

    /// The word a non-swap atomic leaves: `op(old, data)` on 32-bit words;
    /// `None` for the compare-and-swaps (see [`AtomicOp::swap_32`]).
    pub fn apply_32(self, old: u32, data: u32) -> Option<u32> {
        let (fo, fd) = (f32::from_bits(old), f32::from_bits(data));
        Some(match self {
            AtomicOp::Iadd => old.wrapping_add(data),
            AtomicOp::Imin => (old as i32).min(data as i32) as u32,
            AtomicOp::Umin => old.min(data),
            AtomicOp::Imax => (old as i32).max(data as i32) as u32,
            AtomicOp::Umax => old.max(data),
            AtomicOp::Iand => old & data,
            AtomicOp::Ior => old | data,
            AtomicOp::Ixor => old ^ data,
            AtomicOp::Xchg => data,
            AtomicOp::Fadd => (fo + fd).to_bits(),
            AtomicOp::Fmin => {
                if float_order(data) < float_order(old) {
                    data
                } else {
                    old
                }
            }
            AtomicOp::Fmax => {
                if float_order(data) > float_order(old) {
                    data
                } else {
                    old
                }
            }
            AtomicOp::Cmpxchg | AtomicOp::Fcmpxchg => return None,
        })
    }

    /// The word a compare-and-swap leaves: `swap` when `old` equals
    /// `compare` (bit for bit for `cmpxchg`, as floats for `fcmpxchg`), else
    /// `old`; `None` for the other ops.
    pub fn swap_32(self, old: u32, compare: u32, swap: u32) -> Option<u32> {
        let equal = match self {
            AtomicOp::Cmpxchg => old == compare,
            AtomicOp::Fcmpxchg => f32::from_bits(old) == f32::from_bits(compare),
            _ => return None,
        };
        Some(if equal { swap } else { old })
    }
}

/// The order of INTEL_shader_atomic_float_minmax's `atomicMin`/`atomicMax`
/// on 32-bit float words, as a sortable key: signaling NaNs below every number,
/// quiet NaNs above, numbers in value order with `-0` below `+0`. (The
/// extension leaves two NaNs of one kind and the sign of a zero result
/// unordered; this picks one answer.)
fn float_order(w: u32) -> (u8, i64) {
    let f = f32::from_bits(w);
    if f.is_nan() {
        // The mantissa's top bit tells quiet (set) from signaling (clear).
        return if w & 0x0040_0000 != 0 { (2, 0) } else { (0, 0) };
    }
    // Sign-magnitude to a two's complement order: -0 sorts just below +0.
    let mag = i64::from(w & 0x7fff_ffff);
    (1, if w >> 31 != 0 { -mag - 1 } else { mag })
}
