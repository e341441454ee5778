//! The rasterizer's side of fused pipelines ([`crate::jit::pipeline`]): per draw,
//! the variant lookup and the constants the compiled function reads
//! ([`FusedDraw`]); per band, the hierarchical block classification (16×16
//! macro blocks, then 4×4 blocks, as `raster::raster_tri` does) into a list of
//! jobs, one call of the compiled function per triangle, and the blocks at the
//! surfaces' edges.
//!
//! The compiled code reads and writes whole 4×4 blocks and proves each block
//! lies inside every surface it touches. A block that sticks out of a surface
//! (the right or top edge of a target whose size is not a multiple of 4, the
//! last rows of the last band) is shaded on a staging copy: the pixels inside
//! the surfaces are copied into 4×4 buffers, the function runs on them, and the
//! same pixels are copied back. Triangles whose set-up data the function cannot
//! take (never produced by setup, but checked) are shaded by the Rust path.
//!
//! A draw that looked up a tier-0 variant re-reads its optimised build
//! ([`FusedPipeline::optimised`]) at every call of the compiled function (one
//! per triangle and band, one per edge block), so a long first draw leaves the
//! tier-0 code as soon as the tier-up worker publishes the optimised one, as
//! `JitShader` does per batch for invocation functions. The draw holds the
//! tier-0 variant (and through it the optimised one) until it is done, so
//! neither is unmapped while a band may run it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use super::raster::{classify, raster_tri, BandTargets, Class, RasterCtx, ThreadState};
use super::raster::{COLS, MACRO, ROWS};
use super::setup::{Tri, BAND_ROWS};
use crate::driver::MAX_RENDER_TARGETS;
use crate::exec::{Reg, Resources, LANES, LANE_X, LANE_Y};
use crate::jit::emit::UboRange;
use crate::jit::pipeline::abi::*;
use crate::jit::pipeline::FusedPipeline;
use crate::{Error, Result};

/// Point-coordinate planes of primitives that are not points.
static ZERO_PLANES: [f32; 6] = [0.0; 6];

/// A draw's fused pipeline and the constants its code reads.
pub struct FusedDraw<'a> {
    /// The variant the lookup returned (tier 0 or final), held for the draw.
    pipe: Arc<FusedPipeline>,
    /// Calls of a tier-0 `pipe` to make after its optimised build is ready
    /// before switching (a test hook; 0 in use).
    switch_after: u64,
    /// Calls counted against `switch_after`.
    held_calls: AtomicU64,
    /// The draw has switched to the optimised build (counted once).
    switched: AtomicBool,
    draw: DrawJit,
    /// Owners of the memory `draw` points at.
    _uniforms: Vec<[u32; 4]>,
    _ubos: Vec<UboRange>,
    _res: std::marker::PhantomData<&'a Resources<'a>>,
}

// SAFETY: `draw` only holds pointers to data that lives as long as `'a` and is
// only read while the draw runs (uniforms, uniform blocks, textures).
unsafe impl Sync for FusedDraw<'_> {}

/// Dynamic state the compiled function reads.
pub struct DynamicState {
    /// Blend constant colour.
    pub blend_color: [f32; 4],
    /// Depth clamp range.
    pub depth_range: (f32, f32),
    /// Stencil reference of front and back faces.
    pub stencil_ref: [u8; 2],
}

impl<'a> FusedDraw<'a> {
    /// The constants of a draw with resources `res`.
    pub fn new(pipe: Arc<FusedPipeline>, res: &'a Resources<'a>, dy: &DynamicState) -> Self {
        let mut uniforms = Vec::new();
        let uniform_ptr = if res.uniforms.len() >= pipe.min_uniform_slots() {
            res.uniforms.as_ptr()
        } else {
            uniforms = res.uniforms.to_vec();
            uniforms.resize(pipe.min_uniform_slots(), [0; 4]);
            uniforms.as_ptr()
        };
        let uniform_count = res.uniforms.len().max(pipe.min_uniform_slots()) as u64;
        let mut ubos: Vec<UboRange> = res
            .ubos
            .iter()
            .map(|s| UboRange {
                ptr: s.as_ptr(),
                len: s.len() as u64,
            })
            .collect();
        let ubo_count = ubos.len() as u64;
        if ubos.is_empty() {
            ubos.push(UboRange {
                ptr: std::ptr::null(),
                len: 0,
            });
        }
        let res_ptr: *const Resources<'_> = res;
        let draw = DrawJit {
            uniforms: uniform_ptr,
            uniform_count,
            ubos: ubos.as_ptr(),
            ubo_count,
            res: res_ptr.cast(),
            blend_color: dy.blend_color,
            depth_lo: dy.depth_range.0,
            depth_hi: dy.depth_range.1,
            stencil_ref: dy.stencil_ref.map(u32::from),
            zeros: [0; 4],
        };
        FusedDraw {
            switch_after: pipe.switch_after(),
            held_calls: AtomicU64::new(0),
            switched: AtomicBool::new(false),
            pipe,
            draw,
            _uniforms: uniforms,
            _ubos: ubos,
            _res: std::marker::PhantomData,
        }
    }
}

impl FusedDraw<'_> {
    /// The code the next call runs: the optimised build of a tier-0 variant
    /// once it is ready, else the variant looked up. The optimised build is
    /// taken only if the constants and scratch set up for the looked-up
    /// variant cover it (both builds come from one plan, so they always do).
    fn current(&self) -> &FusedPipeline {
        let Some(opt) = self.pipe.optimised() else {
            return &self.pipe;
        };
        if opt.scratch_bytes() > self.pipe.scratch_bytes()
            || opt.min_uniform_slots() > self.pipe.min_uniform_slots()
        {
            return &self.pipe;
        }
        if self.switch_after > 0
            && self.held_calls.fetch_add(1, Ordering::Relaxed) < self.switch_after
        {
            return &self.pipe;
        }
        if !self.switched.load(Ordering::Relaxed) && !self.switched.swap(true, Ordering::Relaxed) {
            self.pipe.count_switch();
        }
        opt
    }
}

/// Per-thread buffers of the fused path.
#[derive(Default)]
pub struct FusedThread {
    jobs: Vec<Job>,
    edge_jobs: Vec<Job>,
    scratch: Vec<Reg>,
    staging: Vec<[u8; 16 * 16]>,
}

/// The triangle's data for the compiled code, or `None` when its set-up data is
/// not what the code expects.
fn tri_jit(ctx: &RasterCtx<'_>, tri: &Tri) -> Option<TriJit> {
    let nm = ctx.modes.len();
    let planes = ctx.tris.planes.get(tri.planes as usize..)?;
    let need = 6 + 3 * nm + if tri.point { 6 } else { 0 };
    if planes.len() < need {
        return None;
    }
    let flat = ctx.tris.flat.get(tri.flat as usize..)?;
    if flat.len() < nm {
        return None;
    }
    let mut edge_c = [0i64; 3];
    let mut edge_d = [[0i64; 2]; 3];
    let mut edge_steps = [[[0i32; 4]; 4]; 3];
    for (i, e) in tri.edges.iter().enumerate() {
        let lim = 1i64 << 34;
        if e.dx % 256 != 0 || e.dy % 256 != 0 || e.dx.abs() > lim || e.dy.abs() > lim {
            return None;
        }
        edge_c[i] = e.c;
        edge_d[i] = [e.dx, e.dy];
        let (sx, sy) = (e.dx / 256, e.dy / 256);
        for q in 0..4 {
            for p in 0..4 {
                let l = 4 * q + p;
                edge_steps[i][q][p] = (LANE_X[l] as i64 * sx + LANE_Y[l] as i64 * sy) as i32;
            }
        }
    }
    let pc_planes = if tri.point {
        planes[6 + 3 * nm..].as_ptr()
    } else {
        ZERO_PLANES.as_ptr()
    };
    Some(TriJit {
        edge_c,
        edge_d,
        edge_steps,
        x0: tri.x0,
        y0: tri.y0,
        planes: planes.as_ptr(),
        pc_planes,
        flat: flat.as_ptr(),
        front: if tri.front { !0 } else { 0 },
        prim_id: tri.prim_id,
    })
}

/// The band's surfaces as the compiled code addresses them.
fn band_jit(t: &mut BandTargets<'_>, y0: i32) -> BandJit {
    let mut band = BandJit {
        x0: 0,
        y0,
        colors: [SurfJit::EMPTY; MAX_RENDER_TARGETS],
        zs: SurfJit::EMPTY,
    };
    for (i, s) in t.colors.iter_mut().enumerate().take(MAX_RENDER_TARGETS) {
        if let Some(s) = s {
            let bpp = s.format.bytes_per_pixel();
            band.colors[i] = SurfJit::new(s.data.as_mut_ptr(), s.data.len(), s.pitch, bpp);
        }
    }
    if let Some(s) = t.zs.as_mut() {
        let bpp = s.format.bytes_per_pixel();
        band.zs = SurfJit::new(s.data.as_mut_ptr(), s.data.len(), s.pitch, bpp);
    }
    band
}

/// Calls the compiled function on `jobs`.
fn call(
    f: &FusedDraw<'_>,
    ts: &mut ThreadState,
    band: &BandJit,
    tri: &TriJit,
    jobs: &[Job],
    scratch: *mut u8,
) -> Result<()> {
    if jobs.is_empty() {
        return Ok(());
    }
    let mut thread = ThreadJit {
        scratch,
        budget: ts.budget.limit,
        budget_limit: ts.budget.limit,
        invocations: 0,
        written: 0,
    };
    // SAFETY: the function was built for this draw's key; `draw` points at live
    // constants, `thread.scratch` at `scratch_bytes` bytes, `band` at surfaces
    // the caller owns mutably for the call (the code proves each block is inside
    // them before touching it), `tri` at planes and flat words covering the
    // shader's inputs (`tri_jit` checked), and `jobs` at `jobs.len()` jobs.
    let status = unsafe {
        (f.current().func())(
            &f.draw,
            &mut thread,
            band,
            tri,
            jobs.as_ptr(),
            jobs.len() as u64,
        )
    };
    ts.fs_invocations += thread.invocations;
    ts.written += thread.written;
    match status {
        RUN_OK => {
            ts.budget.remaining = thread.budget;
            Ok(())
        }
        RUN_BUDGET => {
            ts.budget.remaining = 0;
            Err(Error::BudgetExceeded(ts.budget.limit))
        }
        _ => Err(Error::Exec(
            "fused pipeline: a block outside the band's surfaces".into(),
        )),
    }
}

/// Rasterizes every triangle binned to band `t.band` with the fused pipeline.
pub(super) fn raster_band(
    ctx: &RasterCtx<'_>,
    f: &FusedDraw<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
) -> Result<()> {
    let Some(bin) = ctx.tris.bins.get(t.band) else {
        return Ok(());
    };
    let band_y0 = t.band as i32 * BAND_ROWS as i32;
    let mut ft = std::mem::take(&mut ts.fused);
    let regs = f.pipe.scratch_bytes().div_ceil(std::mem::size_of::<Reg>());
    if ft.scratch.len() < regs {
        ft.scratch.resize(regs, Reg::default());
    }
    let r = band_loop(ctx, f, t, ts, &mut ft, bin, band_y0);
    ts.fused = ft;
    r
}

fn band_loop(
    ctx: &RasterCtx<'_>,
    f: &FusedDraw<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
    ft: &mut FusedThread,
    bin: &[u32],
    band_y0: i32,
) -> Result<()> {
    // Blocks whose origin is below these limits lie inside every surface.
    let mut lim_x = u64::MAX;
    let mut lim_y = u64::MAX;
    {
        let band = band_jit(t, band_y0);
        let bound = band
            .colors
            .iter()
            .chain([&band.zs])
            .filter(|s| !s.base.is_null());
        for s in bound {
            lim_x = lim_x.min(s.lim_x);
            lim_y = lim_y.min(s.lim_y);
        }
    }
    for &ti in bin {
        let Some(tri) = ctx.tris.tris.get(ti as usize) else {
            continue;
        };
        let Some(tj) = tri_jit(ctx, tri) else {
            raster_tri(ctx, t, ts, tri)?;
            continue;
        };
        ft.jobs.clear();
        ft.edge_jobs.clear();
        collect_jobs(tri, band_y0, lim_x, lim_y, ft);
        let band = band_jit(t, band_y0);
        let scratch = ft.scratch.as_mut_ptr().cast::<u8>();
        call(f, ts, &band, &tj, &ft.jobs, scratch)?;
        for k in 0..ft.edge_jobs.len() {
            let job = ft.edge_jobs[k];
            edge_block(f, t, ts, ft, &tj, job, band_y0)?;
        }
    }
    Ok(())
}

/// The jobs of `tri` in the band: 16×16 macro blocks rejected or accepted whole,
/// then 4×4 blocks classified; blocks sticking out of a surface go to the edge
/// list.
fn collect_jobs(tri: &Tri, band_y0: i32, lim_x: u64, lim_y: u64, ft: &mut FusedThread) {
    let y_lo = tri.bbox[1].max(band_y0);
    let y_hi = tri.bbox[3].min(band_y0 + BAND_ROWS as i32);
    let (x_lo, x_hi) = (tri.bbox[0], tri.bbox[2]);
    let mut my = y_lo & !(MACRO - 1);
    while my < y_hi {
        let mut mx = x_lo & !(MACRO - 1);
        while mx < x_hi {
            let class = classify(tri, mx, my, MACRO - 1);
            if class == Class::Out {
                mx += MACRO;
                continue;
            }
            let (ry0, ry1) = (my.max(y_lo), (my + MACRO).min(y_hi));
            let (rx0, rx1) = (mx.max(x_lo), (mx + MACRO).min(x_hi));
            let mut by = ry0 & !3;
            while by < ry1 {
                let mut ymask = 0;
                for r in 0..4 {
                    let y = by + r;
                    if y >= ry0 && y < ry1 {
                        ymask |= ROWS[r as usize];
                    }
                }
                let inside_y = ((by - band_y0) as u64) < lim_y;
                let mut bx = rx0 & !3;
                while bx < rx1 {
                    let mut rect = ymask;
                    if bx < rx0 || bx + 4 > rx1 {
                        let mut xm = 0;
                        for c in 0..4 {
                            let x = bx + c;
                            if x >= rx0 && x < rx1 {
                                xm |= COLS[c as usize];
                            }
                        }
                        rect &= xm;
                    }
                    let flags = match class {
                        Class::In => Some(0),
                        _ => match classify(tri, bx, by, 3) {
                            Class::Out => None,
                            Class::In => Some(0),
                            Class::Partial => Some(JOB_PARTIAL),
                        },
                    };
                    if let (Some(flags), true) = (flags, rect != 0) {
                        let job = Job {
                            x: bx,
                            y: by,
                            mask: rect,
                            flags,
                        };
                        if inside_y && (bx as u64) < lim_x {
                            ft.jobs.push(job);
                        } else {
                            ft.edge_jobs.push(job);
                        }
                    }
                    bx += 4;
                }
                by += 4;
            }
            mx += MACRO;
        }
        my += MACRO;
    }
}

/// Pixels of block `job` inside a surface of `len` bytes, rows of `pitch`, whose
/// first row is window row `y0`: (lane, byte offset in the surface).
fn inside(job: &Job, y0: i32, len: usize, pitch: usize, bpp: usize) -> [Option<usize>; LANES] {
    let mut out = [None; LANES];
    if pitch == 0 || bpp == 0 {
        return out;
    }
    let (cols, rows) = ((pitch / bpp) as i64, (len / pitch) as i64);
    for (l, o) in out.iter_mut().enumerate() {
        let x = job.x as i64 + LANE_X[l] as i64;
        let y = job.y as i64 + LANE_Y[l] as i64 - y0 as i64;
        if (0..cols).contains(&x) && (0..rows).contains(&y) {
            *o = Some(y as usize * pitch + x as usize * bpp);
        }
    }
    out
}

/// Shades a block sticking out of a surface on 4×4 staging copies.
fn edge_block(
    f: &FusedDraw<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
    ft: &mut FusedThread,
    tj: &TriJit,
    job: Job,
    band_y0: i32,
) -> Result<()> {
    let nsurf = MAX_RENDER_TARGETS + 1;
    if ft.staging.len() < nsurf {
        ft.staging.resize(nsurf, [0; 256]);
    }
    let mut band = BandJit {
        x0: job.x,
        y0: job.y,
        colors: [SurfJit::EMPTY; MAX_RENDER_TARGETS],
        zs: SurfJit::EMPTY,
    };
    // Copy in.
    {
        let surfaces = t
            .colors
            .iter_mut()
            .take(MAX_RENDER_TARGETS)
            .enumerate()
            .chain(std::iter::once((MAX_RENDER_TARGETS, &mut t.zs)));
        for (slot, s) in surfaces {
            let Some(s) = s.as_mut() else { continue };
            let bpp = s.format.bytes_per_pixel();
            let stage = &mut ft.staging[slot];
            stage.fill(0);
            let pos = inside(&job, band_y0, s.data.len(), s.pitch, bpp);
            for (l, off) in pos.iter().enumerate() {
                if let Some(off) = *off {
                    let at = (LANE_Y[l] as usize * 4 + LANE_X[l] as usize) * bpp;
                    stage[at..at + bpp].copy_from_slice(&s.data[off..off + bpp]);
                }
            }
            let surf = SurfJit::new(stage.as_mut_ptr(), 16 * bpp, 4 * bpp, bpp);
            if slot == MAX_RENDER_TARGETS {
                band.zs = surf;
            } else {
                band.colors[slot] = surf;
            }
        }
    }
    let scratch = ft.scratch.as_mut_ptr().cast::<u8>();
    call(f, ts, &band, tj, &[job], scratch)?;
    // Copy back the pixels inside the surfaces.
    let surfaces = t
        .colors
        .iter_mut()
        .take(MAX_RENDER_TARGETS)
        .enumerate()
        .chain(std::iter::once((MAX_RENDER_TARGETS, &mut t.zs)));
    for (slot, s) in surfaces {
        let Some(s) = s.as_mut() else { continue };
        let bpp = s.format.bytes_per_pixel();
        let stage = &ft.staging[slot];
        let pos = inside(&job, band_y0, s.data.len(), s.pitch, bpp);
        for (l, off) in pos.iter().enumerate() {
            if let Some(off) = *off {
                let at = (LANE_Y[l] as usize * 4 + LANE_X[l] as usize) * bpp;
                s.data[off..off + bpp].copy_from_slice(&stage[at..at + bpp]);
            }
        }
    }
    Ok(())
}
