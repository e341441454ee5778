//! The memory interface between the rasterizer (Rust) and a fused pipeline
//! function: `#[repr(C)]` structures the generated code reads at fixed offsets
//! (`offset_of!`), and the function's signature.
//!
//! One call shades a list of 4×4 blocks ([`Job`]s) of one triangle ([`TriJit`])
//! into one band's surfaces ([`BandJit`]), with the draw's constants
//! ([`DrawJit`], shared by every thread) and the calling thread's state
//! ([`ThreadJit`]: budget, scratch memory, counters).

use crate::driver::MAX_RENDER_TARGETS;
use crate::exec::Resources;
use crate::jit::emit::UboRange;

/// The job's block needs the per-pixel edge test (a partly covered block).
pub const JOB_PARTIAL: u32 = 1;

/// Return value: every job done.
pub const RUN_OK: i32 = 0;
/// Return value: the instruction budget ran out.
pub const RUN_BUDGET: i32 = 1;
/// Return value: a job's block is not inside every surface of the band (nothing
/// of that block was read or written).
pub const RUN_OUT_OF_BOUNDS: i32 = 2;

/// One 4×4 block to shade.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct Job {
    /// Window x of the block's left column (a multiple of 4).
    pub x: i32,
    /// Window y of the block's bottom row (a multiple of 4).
    pub y: i32,
    /// Lanes inside the clip rectangle and the triangle's bounding box (lane
    /// `4q + p` as in [`crate::exec`]).
    pub mask: u32,
    /// [`JOB_PARTIAL`] or 0.
    pub flags: u32,
}

/// Per-triangle data: edge functions and interpolation planes.
#[repr(C, align(16))]
#[derive(Copy, Clone, Debug)]
pub struct TriJit {
    /// Per edge and quad: `LANE_X × dx / 256 + LANE_Y × dy / 256` (the steps are
    /// multiples of 256, so the edge test runs on `c / 256` in 32 bits).
    pub edge_steps: [[[i32; 4]; 4]; 3],
    /// Edge constant `c` of each edge (at the center of pixel (0, 0), fixed point).
    pub edge_c: [i64; 3],
    /// Edge steps per pixel, in fixed-point units (`dx`, `dy`).
    pub edge_d: [[i64; 2]; 3],
    /// Reference point of the planes.
    pub x0: f32,
    /// Reference point of the planes.
    pub y0: f32,
    /// Planes (a0, dadx, dady): z, 1/w, then one per input component.
    pub planes: *const f32,
    /// Point-coordinate planes (s, t), zeros for other primitives.
    pub pc_planes: *const f32,
    /// Flat input words (one per input component).
    pub flat: *const u32,
    /// `!0` front facing, 0 back facing.
    pub front: u32,
    /// `gl_PrimitiveID`.
    pub prim_id: u32,
}

/// One surface of the band as the generated code addresses it: the block at
/// window (x, y) starts at `base + (y - y0) * pitch + (x - x0) * bpp`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct SurfJit {
    /// First byte of the band's rows.
    pub base: *mut u8,
    /// Bytes per row.
    pub pitch: u64,
    /// Number of block origins that fit in x: `x - x0` must be below it
    /// (`pitch / bpp - 3`, 0 when no block fits).
    pub lim_x: u64,
    /// Number of block origins that fit in y (`rows - 3`, 0 when none).
    pub lim_y: u64,
}

impl SurfJit {
    /// A surface no block fits in.
    pub const EMPTY: SurfJit = SurfJit {
        base: std::ptr::null_mut(),
        pitch: 0,
        lim_x: 0,
        lim_y: 0,
    };

    /// The surface of `len` bytes at `base`, rows of `pitch` bytes, `bpp` bytes per
    /// pixel.
    pub fn new(base: *mut u8, len: usize, pitch: usize, bpp: usize) -> SurfJit {
        if pitch == 0 || bpp == 0 {
            return SurfJit::EMPTY;
        }
        let cols = (pitch / bpp) as u64;
        let rows = (len / pitch) as u64;
        SurfJit {
            base,
            pitch: pitch as u64,
            lim_x: cols.saturating_sub(3),
            lim_y: rows.saturating_sub(3),
        }
    }
}

/// The surfaces of one band.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct BandJit {
    /// Window x of the surfaces' first column.
    pub x0: i32,
    /// Window y of the surfaces' first row.
    pub y0: i32,
    /// Colour targets (slots the key does not use are never read).
    pub colors: [SurfJit; MAX_RENDER_TARGETS],
    /// Depth/stencil target.
    pub zs: SurfJit,
}

/// Draw constants shared by every raster thread.
#[repr(C, align(16))]
pub struct DrawJit {
    /// 16 zero bytes (target of out-of-range loads).
    pub zeros: [u32; 4],
    /// Default uniform block (vec4 slots), at least the body's minimum.
    pub uniforms: *const [u32; 4],
    /// Number of slots.
    pub uniform_count: u64,
    /// Uniform block table (at least one entry).
    pub ubos: *const UboRange,
    /// Real entries of the table.
    pub ubo_count: u64,
    /// Textures for the sampling helpers.
    pub res: *const Resources<'static>,
    /// Blend constant colour (unclamped).
    pub blend_color: [f32; 4],
    /// Depth clamp range.
    pub depth_lo: f32,
    /// Depth clamp range.
    pub depth_hi: f32,
    /// Stencil reference of front and back faces.
    pub stencil_ref: [u32; 2],
}

/// The calling thread's state.
#[repr(C)]
pub struct ThreadJit {
    /// Scratch memory of the body (64-byte aligned, `scratch_bytes` long).
    pub scratch: *mut u8,
    /// Instructions left in the current job's batch.
    pub budget: u64,
    /// The budget of every batch: the code refills `budget` from it at the
    /// start of each job ([`crate::exec::Budget`]).
    pub budget_limit: u64,
    /// Shader invocations (live lanes shaded).
    pub invocations: u64,
    /// Fragments written (passed every test).
    pub written: u64,
}

/// The compiled entry point: `(draw, thread, band, tri, jobs, njobs) -> status`.
pub type PipelineFn = unsafe extern "C" fn(
    *const DrawJit,
    *mut ThreadJit,
    *const BandJit,
    *const TriJit,
    *const Job,
    u64,
) -> i32;
