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
        }
    }
}

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
