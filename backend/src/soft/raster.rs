//! The back end: rasterizes the triangles binned to one 64-row band in 4×4 blocks,
//! shades each covered block (four 2×2 quads, helpers included) and applies the
//! per-fragment operations — early or late depth/stencil test, discard, blending,
//! color masks — writing into the band's slice of every render target. A band is a
//! contiguous range of rows in every surface, so threads own disjoint `&mut` slices.

use super::setup::{AttrMode, Tri, TriList, BAND_ROWS};
use crate::driver::{
    BlendEquation, BlendFactor, BlendState, DepthStencilState, RtBlend, StencilFace, StencilOp,
};
use crate::exec::{
    sysval, Budget, Invocation, Reg, Resources, ShaderExec, SysVals, ALL_LANES, LANES, LANE_X,
    LANE_Y,
};
use crate::format::{read_u32, unorm, Format};
use crate::Result;

/// Per-draw constants of the back end.
pub struct RasterCtx<'a> {
    /// Triangles and bins.
    pub tris: &'a TriList,
    /// Fragment shader.
    pub fs: &'a dyn ShaderExec,
    /// Interpolation per FS input component.
    pub modes: &'a [AttrMode],
    /// Shader resources.
    pub res: Resources<'a>,
    /// Blend state.
    pub blend: &'a BlendState,
    /// Blend constant color.
    pub blend_color: [f32; 4],
    /// Depth-stencil state.
    pub dsa: &'a DepthStencilState,
    /// Color output register (first of 4) per render target.
    pub rt_out: &'a [Option<usize>],
    /// Dual-source second color output register.
    pub src1_out: Option<usize>,
    /// Depth output register.
    pub depth_out: Option<usize>,
    /// Depth/stencil test before shading.
    pub early_z: bool,
    /// Depth clamp range.
    pub depth_range: (f32, f32),
    /// The FS reads nothing that varies inside a triangle (only flat inputs, front
    /// face and primitive ID): it runs once per triangle and its outputs are reused
    /// for every block, as llvmpipe does for fragment-invariant shaders.
    pub uniform_fs: bool,
    /// System values the FS reads (`fs.info().sysvals`).
    pub sysvals: u32,
    /// Some input is perspective-interpolated.
    pub needs_w: bool,
    /// The fused pipeline variant of the draw's state, when the shader has one
    /// (never with `uniform_fs`): it shades every block instead of the code
    /// below.
    pub fused: Option<&'a super::fused::FusedDraw<'a>>,
}

/// One render target's rows of a band.
pub struct BandSurface<'a> {
    /// Format.
    pub format: Format,
    /// Rows of the band.
    pub data: &'a mut [u8],
    /// Bytes per row.
    pub pitch: usize,
}

/// The surfaces of one band.
pub struct BandTargets<'a> {
    /// Band index.
    pub band: usize,
    /// Color targets.
    pub colors: Vec<Option<BandSurface<'a>>>,
    /// Depth/stencil target.
    pub zs: Option<BandSurface<'a>>,
}

/// Per-thread working memory.
pub struct ThreadState {
    inputs: Vec<Reg>,
    outputs: Vec<Reg>,
    sys: SysVals,
    scratch: Vec<Reg>,
    /// Instruction budget of this thread.
    pub budget: Budget,
    /// Per render target: the packed RGBA8 pixel of a triangle's uniform FS output.
    packed: Vec<Option<u32>>,
    /// FS invocations: live lanes of per-pixel shading, one per triangle for a
    /// fragment-invariant shader (see [`crate::driver::Counters::fs_invocations`]).
    pub fs_invocations: u64,
    /// Fragments written.
    pub written: u64,
    /// Buffers of the fused pipeline path.
    pub(super) fused: super::fused::FusedThread,
}

impl ThreadState {
    /// Fresh state with an instruction budget.
    pub fn new(budget: u64) -> ThreadState {
        ThreadState {
            inputs: Vec::new(),
            outputs: Vec::new(),
            sys: SysVals::default(),
            scratch: Vec::new(),
            budget: Budget::new(budget),
            packed: Vec::new(),
            fs_invocations: 0,
            written: 0,
            fused: Default::default(),
        }
    }
}

/// Lanes whose x offset in the block is `c`.
const fn col_mask(c: u32) -> u32 {
    let mut m = 0;
    let mut l = 0;
    while l < LANES {
        if LANE_X[l] == c {
            m |= 1 << l;
        }
        l += 1;
    }
    m
}
const fn row_mask(r: u32) -> u32 {
    let mut m = 0;
    let mut l = 0;
    while l < LANES {
        if LANE_Y[l] == r {
            m |= 1 << l;
        }
        l += 1;
    }
    m
}
/// Lanes of each block column.
pub(super) const COLS: [u32; 4] = [col_mask(0), col_mask(1), col_mask(2), col_mask(3)];
/// Lanes of each block row.
pub(super) const ROWS: [u32; 4] = [row_mask(0), row_mask(1), row_mask(2), row_mask(3)];
/// Lanes of each block row, left to right.
const ROW_LANES: [[usize; 4]; 4] = [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]];

const LX: [f32; LANES] = {
    let mut o = [0.0; LANES];
    let mut l = 0;
    while l < LANES {
        o[l] = LANE_X[l] as f32;
        l += 1;
    }
    o
};
const LY: [f32; LANES] = {
    let mut o = [0.0; LANES];
    let mut l = 0;
    while l < LANES {
        o[l] = LANE_Y[l] as f32;
        l += 1;
    }
    o
};

/// Evaluates plane `p` (a0, dadx, dady at the reference point) at the pixel centers of
/// block (bx, by): `a0 + ((fx + LX) * dadx + (fy + LY) * dady)` with `fx`, `fy` the
/// block's offset from the reference point. The value at the reference point is
/// added last, so two attributes that differ by a constant (equal gradients) get
/// values that differ by that constant up to one rounding, as with llvmpipe's
/// `a0 + dadx * x + dady * y` (`lp_bld_interp.c`); summing from `a0` outwards
/// would round once per term at the attribute's magnitude.
#[inline(always)]
fn eval_plane(p: &[f32], tri: &Tri, bx: i32, by: i32) -> [f32; LANES] {
    let (a0, dx, dy) = match p {
        [a, b, c, ..] => (*a, *b, *c),
        _ => (0.0, 0.0, 0.0),
    };
    let (fx, fy) = (bx as f32 + 0.5 - tri.x0, by as f32 + 0.5 - tri.y0);
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = a0 + ((fx + LX[l]) * dx + (fy + LY[l]) * dy);
    }
    o
}

/// Rasterizes every triangle binned to band `t.band`.
pub fn raster_band(
    ctx: &RasterCtx<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
) -> Result<()> {
    if let Some(f) = ctx.fused {
        return super::fused::raster_band(ctx, f, t, ts);
    }
    let Some(bin) = ctx.tris.bins.get(t.band) else {
        return Ok(());
    };
    for &ti in bin {
        let Some(tri) = ctx.tris.tris.get(ti as usize) else {
            continue;
        };
        raster_tri(ctx, t, ts, tri)?;
    }
    Ok(())
}

/// Rasterizes the part of `tri` in band `t.band` with the Rust per-pixel code.
pub(super) fn raster_tri(
    ctx: &RasterCtx<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
    tri: &Tri,
) -> Result<()> {
    let info = ctx.fs.info();
    let nin = info.inputs.len() * 4;
    let nout = info.outputs.len() * 4;
    ts.inputs.resize(nin, Reg::default());
    ts.outputs.resize(nout, Reg::default());
    let band_y0 = t.band as i32 * BAND_ROWS as i32;
    let uniform = ctx.uniform_fs;
    if uniform && !shade_uniform(ctx, t, ts, tri)? {
        return Ok(()); // discarded as a whole
    }
    let y_lo = tri.bbox[1].max(band_y0);
    let y_hi = tri.bbox[3].min(band_y0 + BAND_ROWS as i32);
    let x_lo = tri.bbox[0];
    let x_hi = tri.bbox[2];
    // Constant-color fill of whole macro blocks: fragment-invariant shader, no
    // depth/stencil, every target RGBA8 without blending.
    let fill_ok = uniform
        && t.zs.is_none()
        && t.colors
            .iter()
            .enumerate()
            .all(|(i, s)| s.is_none() || matches!(ts.packed.get(i), Some(Some(_))));
    // 16×16 macro blocks: reject or accept whole, else 4×4 blocks.
    let mut my = y_lo & !(MACRO - 1);
    while my < y_hi {
        let mut mx = x_lo & !(MACRO - 1);
        while mx < x_hi {
            let class = classify(tri, mx, my, MACRO - 1);
            if class == Class::Out {
                mx += MACRO;
                continue;
            }
            let full = class == Class::In;
            let (ry0, ry1) = (my.max(y_lo), (my + MACRO).min(y_hi));
            let (rx0, rx1) = (mx.max(x_lo), (mx + MACRO).min(x_hi));
            if full && fill_ok {
                // Filled with the triangle's shaded color: no invocation.
                let n = ((ry1 - ry0) * (rx1 - rx0)) as u64;
                ts.written += n;
                for (i, s) in t.colors.iter_mut().enumerate() {
                    if let (Some(s), Some(Some(px))) = (s.as_mut(), ts.packed.get(i)) {
                        fill_rect(s, rx0, rx1, ry0 - band_y0, ry1 - band_y0, *px);
                    }
                }
                mx += MACRO;
                continue;
            }
            let mut by = ry0 & !3;
            while by < ry1 {
                let mut ymask = 0;
                for r in 0..4 {
                    let y = by + r;
                    if y >= ry0 && y < ry1 {
                        ymask |= ROWS[r as usize];
                    }
                }
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
                    let cov = if full {
                        ALL_LANES
                    } else {
                        coverage(tri, bx, by)
                    };
                    let mask = cov & rect;
                    if mask != 0 {
                        shade_block(ctx, t, ts, tri, bx, by, band_y0, mask, uniform)?;
                    }
                    bx += 4;
                }
                by += 4;
            }
            mx += MACRO;
        }
        my += MACRO;
    }
    Ok(())
}

/// Macro block size (pixels) of the hierarchical rasterizer.
pub(super) const MACRO: i32 = 16;

/// Where a square of pixel centers lies relative to a triangle.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Outside one edge.
    Out,
    /// Crosses an edge.
    Partial,
    /// Inside every edge.
    In,
}

/// Classifies the square of pixel centers `[x, x + span] × [y, y + span]`.
#[inline(always)]
pub(super) fn classify(tri: &Tri, x: i32, y: i32, span: i32) -> Class {
    let mut all_in = true;
    for e in &tri.edges {
        let v = e.c + x as i64 * e.dx + y as i64 * e.dy;
        let s = span as i64;
        let lo = v + (s * e.dx).min(0) + (s * e.dy).min(0);
        let hi = v + (s * e.dx).max(0) + (s * e.dy).max(0);
        if hi < 0 {
            return Class::Out;
        }
        all_in &= lo >= 0;
    }
    if all_in {
        Class::In
    } else {
        Class::Partial
    }
}

/// Fills rows `[y0, y1)` (band-relative), columns `[x0, x1)` with one RGBA8 pixel.
fn fill_rect(s: &mut BandSurface<'_>, x0: i32, x1: i32, y0: i32, y1: i32, px: u32) {
    let bytes = px.to_le_bytes();
    let n = (x1 - x0).max(0) as usize;
    let mut row_px = [0u8; 4 * MACRO as usize];
    for i in 0..n.min(MACRO as usize) {
        row_px[4 * i..4 * i + 4].copy_from_slice(&bytes);
    }
    for y in y0.max(0)..y1 {
        let off = y as usize * s.pitch + x0.max(0) as usize * 4;
        if n == MACRO as usize {
            // Fixed-size copy: inlined stores instead of a memcpy call per row.
            if let Some(row) = s.data.get_mut(off..off + 4 * MACRO as usize) {
                row.copy_from_slice(&row_px);
            }
        } else if let Some(row) = s.data.get_mut(off..off + 4 * n) {
            row.copy_from_slice(&row_px[..4 * n]);
        }
    }
}

/// Coverage mask of block (bx, by): whole-block accept/reject first, then per lane.
#[inline(always)]
fn coverage(tri: &Tri, bx: i32, by: i32) -> u32 {
    let mut partial = [false; 3];
    let mut vals = [0i64; 3];
    for (i, e) in tri.edges.iter().enumerate() {
        let v = e.c + bx as i64 * e.dx + by as i64 * e.dy;
        let lo = v + (3 * e.dx).min(0) + (3 * e.dy).min(0);
        let hi = v + (3 * e.dx).max(0) + (3 * e.dy).max(0);
        if hi < 0 {
            return 0;
        }
        partial[i] = lo < 0;
        vals[i] = v;
    }
    let mut m = ALL_LANES;
    for i in 0..3 {
        if partial[i] {
            let e = &tri.edges[i];
            let mut em = 0;
            for l in 0..LANES {
                let v = vals[i] + LANE_X[l] as i64 * e.dx + LANE_Y[l] as i64 * e.dy;
                em |= ((v >= 0) as u32) << l;
            }
            m &= em;
        }
    }
    m
}

#[allow(clippy::too_many_arguments)]
/// Runs a fragment-invariant FS once for `tri` (all lanes alike), leaving its outputs
/// in `ts.outputs` and the packed RGBA8 pixels in `ts.packed`. Returns false when the
/// shader discards.
fn shade_uniform(
    ctx: &RasterCtx<'_>,
    t: &BandTargets<'_>,
    ts: &mut ThreadState,
    tri: &Tri,
) -> Result<bool> {
    let flat = &ctx.tris.flat[tri.flat as usize..];
    for (k, reg) in ts.inputs.iter_mut().enumerate() {
        *reg = Reg::splat_u(flat.get(k).copied().unwrap_or(0));
    }
    ts.sys.front_face = Reg::splat_u(if tri.front { !0 } else { 0 });
    ts.sys.primitive_id = Reg::splat_u(tri.prim_id);
    ts.budget.refill();
    let mut inv = Invocation {
        inputs: &ts.inputs,
        outputs: &mut ts.outputs,
        sys: &ts.sys,
        mask: ALL_LANES,
        kill: 0,
        res: ctx.res,
        budget: &mut ts.budget,
        scratch: &mut ts.scratch,
        gs: None,
    };
    ctx.fs.run(&mut inv)?;
    ts.fs_invocations += 1;
    if inv.kill & 1 != 0 {
        return Ok(false);
    }
    ts.packed.clear();
    for (rt, surf) in t.colors.iter().enumerate() {
        let blend = &ctx.blend.rt[rt.min(ctx.blend.rt.len() - 1)];
        let packed = match (surf, ctx.rt_out.get(rt)) {
            (Some(s), Some(Some(o)))
                if s.format == Format::Rgba8Unorm
                    && !blend.enabled
                    && blend.color_mask & 0xf == 0xf =>
            {
                ts.outputs.get(o * 4..o * 4 + 4).map(|src| {
                    let mut p = 0u32;
                    for (c, reg) in src.iter().enumerate() {
                        p |= (crate::format::unorm8(reg.f(0)) as u32) << (8 * c);
                    }
                    p
                })
            }
            _ => None,
        };
        ts.packed.push(packed);
    }
    Ok(true)
}

/// Stores one packed RGBA8 value into the covered pixels of a block.
#[inline(always)]
fn store_constant(surf: &mut BandSurface<'_>, bx: usize, by_rel: usize, mask: u32, px: u32) {
    let bytes = px.to_le_bytes();
    for (r, lanes) in ROW_LANES.iter().enumerate() {
        if mask & ROWS[r] == 0 {
            continue;
        }
        let off = (by_rel + r) * surf.pitch + bx * 4;
        if mask & ROWS[r] == ROWS[r] {
            if let Some(row) = surf.data.get_mut(off..off + 16) {
                let mut v = [0u8; 16];
                for i in 0..4 {
                    v[4 * i..4 * i + 4].copy_from_slice(&bytes);
                }
                row.copy_from_slice(&v);
                continue;
            }
        }
        for (i, &l) in lanes.iter().enumerate() {
            if mask & (1 << l) != 0 {
                if let Some(p) = surf.data.get_mut(off + 4 * i..off + 4 * i + 4) {
                    p.copy_from_slice(&bytes);
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn shade_block(
    ctx: &RasterCtx<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
    tri: &Tri,
    bx: i32,
    by: i32,
    band_y0: i32,
    mut mask: u32,
    uniform: bool,
) -> Result<()> {
    if uniform && t.zs.is_none() {
        // Fragment-invariant shader, no depth/stencil: store precomputed colors.
        let by_rel = (by - band_y0) as usize;
        ts.written += mask.count_ones() as u64;
        for (rt, surf) in t.colors.iter_mut().enumerate() {
            let Some(surf) = surf.as_mut() else { continue };
            match ts.packed.get(rt) {
                Some(Some(px)) => store_constant(surf, bx as usize, by_rel, mask, *px),
                _ => {
                    let Some(Some(o)) = ctx.rt_out.get(rt) else {
                        continue;
                    };
                    let Some(src) = ts.outputs.get(o * 4..o * 4 + 4) else {
                        continue;
                    };
                    let src1 = ctx.src1_out.and_then(|s| ts.outputs.get(s * 4..s * 4 + 4));
                    let blend = &ctx.blend.rt[rt.min(ctx.blend.rt.len() - 1)];
                    write_color(
                        surf,
                        bx as usize,
                        by_rel,
                        mask,
                        src,
                        src1,
                        blend,
                        ctx.blend_color,
                    );
                }
            }
        }
        return Ok(());
    }
    let planes = &ctx.tris.planes[tri.planes as usize..];
    let sv = ctx.sysvals;
    let need_z = t.zs.is_some() || sv & sysval::FRAG_COORD != 0;
    let mut z = [0.0f32; LANES];
    if need_z {
        z = eval_plane(planes, tri, bx, by);
        let (lo, hi) = ctx.depth_range;
        for v in &mut z {
            *v = v.clamp(lo, hi);
        }
    }
    let by_rel = (by - band_y0) as usize;
    if ctx.early_z {
        if let Some(zs) = t.zs.as_mut() {
            mask = depth_stencil(ctx.dsa, zs, bx as usize, by_rel, mask, &z, tri.front);
            if mask == 0 {
                return Ok(());
            }
        }
    }
    if uniform {
        // The triangle's shaded outputs (`shade_uniform`): no invocation.
        return finish_block(ctx, t, ts, tri, bx, by_rel, mask, z);
    }
    // Inputs.
    let mut w = [1.0f32; LANES];
    let mut oow = [1.0f32; LANES];
    if ctx.needs_w || sv & sysval::FRAG_COORD != 0 {
        oow = eval_plane(&planes[3..], tri, bx, by);
        for l in 0..LANES {
            w[l] = 1.0 / oow[l];
        }
    }
    let flat = &ctx.tris.flat[tri.flat as usize..];
    for (k, mode) in ctx.modes.iter().enumerate() {
        let Some(reg) = ts.inputs.get_mut(k) else {
            break;
        };
        match mode {
            AttrMode::Flat => *reg = Reg::splat_u(flat.get(k).copied().unwrap_or(0)),
            AttrMode::Linear => {
                *reg = Reg::from_f32(&eval_plane(&planes[6 + 3 * k..], tri, bx, by));
            }
            AttrMode::Perspective => {
                let mut v = eval_plane(&planes[6 + 3 * k..], tri, bx, by);
                for l in 0..LANES {
                    v[l] *= w[l];
                }
                *reg = Reg::from_f32(&v);
            }
        }
    }
    if sv & sysval::FRAG_COORD != 0 {
        for l in 0..LANES {
            ts.sys.frag_coord[0].set_f(l, bx as f32 + LX[l] + 0.5);
            ts.sys.frag_coord[1].set_f(l, by as f32 + LY[l] + 0.5);
        }
        ts.sys.frag_coord[2] = Reg::from_f32(&z);
        ts.sys.frag_coord[3] = Reg::from_f32(&oow);
    }
    if sv & sysval::FRONT_FACE != 0 {
        ts.sys.front_face = Reg::splat_u(if tri.front { !0 } else { 0 });
    }
    if sv & sysval::PRIMITIVE_ID != 0 {
        ts.sys.primitive_id = Reg::splat_u(tri.prim_id);
    }
    if sv & sysval::POINT_COORD != 0 {
        if tri.point {
            let pc = 6 + 3 * ctx.modes.len();
            ts.sys.point_coord[0] = Reg::from_f32(&eval_plane(&planes[pc..], tri, bx, by));
            ts.sys.point_coord[1] = Reg::from_f32(&eval_plane(&planes[pc + 3..], tri, bx, by));
        } else {
            ts.sys.point_coord = [Reg::default(); 2];
        }
    }
    ts.budget.refill();
    let mut inv = Invocation {
        inputs: &ts.inputs,
        outputs: &mut ts.outputs,
        sys: &ts.sys,
        mask,
        kill: 0,
        res: ctx.res,
        budget: &mut ts.budget,
        scratch: &mut ts.scratch,
        gs: None,
    };
    ctx.fs.run(&mut inv)?;
    mask &= !inv.kill;
    ts.fs_invocations += (inv.mask).count_ones() as u64;
    if mask == 0 {
        return Ok(());
    }
    finish_block(ctx, t, ts, tri, bx, by_rel, mask, z)
}

/// Late depth/stencil test and color writes of a shaded block.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn finish_block(
    ctx: &RasterCtx<'_>,
    t: &mut BandTargets<'_>,
    ts: &mut ThreadState,
    tri: &Tri,
    bx: i32,
    by_rel: usize,
    mut mask: u32,
    mut z: [f32; LANES],
) -> Result<()> {
    if !ctx.early_z {
        if let Some(zs) = t.zs.as_mut() {
            if let Some(d) = ctx.depth_out {
                let (lo, hi) = ctx.depth_range;
                let dz = ts.outputs[d * 4].to_f32();
                for l in 0..LANES {
                    z[l] = dz[l].clamp(lo, hi);
                }
            }
            mask = depth_stencil(ctx.dsa, zs, bx as usize, by_rel, mask, &z, tri.front);
            if mask == 0 {
                return Ok(());
            }
        }
    }
    ts.written += mask.count_ones() as u64;
    for (rt, surf) in t.colors.iter_mut().enumerate() {
        let (Some(surf), Some(Some(o))) = (surf.as_mut(), ctx.rt_out.get(rt)) else {
            continue;
        };
        let Some(src) = ts.outputs.get(o * 4..o * 4 + 4) else {
            continue;
        };
        let src1 = ctx.src1_out.and_then(|s| ts.outputs.get(s * 4..s * 4 + 4));
        let blend = &ctx.blend.rt[rt.min(ctx.blend.rt.len() - 1)];
        write_color(
            surf,
            bx as usize,
            by_rel,
            mask,
            src,
            src1,
            blend,
            ctx.blend_color,
        );
    }
    Ok(())
}

/// Depth and stencil tests with their writes; returns the surviving lanes.
fn depth_stencil(
    dsa: &DepthStencilState,
    zs: &mut BandSurface<'_>,
    bx: usize,
    by_rel: usize,
    mask: u32,
    z: &[f32; LANES],
    front: bool,
) -> u32 {
    let fmt = zs.format;
    let bpp = fmt.bytes_per_pixel();
    let stencil = dsa.stencil_test && fmt.has_stencil();
    if !dsa.depth_test && !stencil {
        return mask;
    }
    let face: &StencilFace = if front { &dsa.front } else { &dsa.back };
    let zmax = fmt.depth_max();
    let mut out = 0;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let off = (by_rel + LANE_Y[l] as usize) * zs.pitch + (bx + LANE_X[l] as usize) * bpp;
        let Some(px) = zs.data.get_mut(off..off + bpp) else {
            continue;
        };
        if stencil {
            let s = fmt.decode_stencil(px);
            let vm = face.value_mask;
            if !face.func.test(face.reference & vm, s & vm) {
                apply_stencil(fmt, px, s, face, face.fail_op);
                continue;
            }
        }
        if dsa.depth_test {
            let pass = match zmax {
                Some(max) => {
                    let zi = unorm(z[l], max as f32);
                    let stored = match fmt {
                        Format::Z16Unorm => u16::from_le_bytes([px[0], px[1]]) as u32,
                        _ => read_u32(px, 0) >> 8,
                    };
                    dsa.depth_func.test(zi, stored)
                }
                None => dsa.depth_func.test(z[l], fmt.decode_depth(px)),
            };
            if !pass {
                if stencil {
                    let s = fmt.decode_stencil(px);
                    apply_stencil(fmt, px, s, face, face.zfail_op);
                }
                continue;
            }
            if dsa.depth_write {
                fmt.encode_depth(z[l], px);
            }
        }
        if stencil {
            let s = fmt.decode_stencil(px);
            apply_stencil(fmt, px, s, face, face.zpass_op);
        }
        out |= 1 << l;
    }
    out
}

fn apply_stencil(fmt: Format, px: &mut [u8], s: u8, face: &StencilFace, op: StencilOp) {
    let new = match op {
        StencilOp::Keep => return,
        StencilOp::Zero => 0,
        StencilOp::Replace => face.reference,
        StencilOp::Incr => s.saturating_add(1),
        StencilOp::Decr => s.saturating_sub(1),
        StencilOp::Invert => !s,
        StencilOp::IncrWrap => s.wrapping_add(1),
        StencilOp::DecrWrap => s.wrapping_sub(1),
    };
    let wm = face.write_mask;
    fmt.encode_stencil((s & !wm) | (new & wm), px);
}

/// Whether a format stores normalized values (blending inputs clamp to [0, 1]).
fn is_unorm(f: Format) -> bool {
    matches!(f, Format::Rgba8Unorm | Format::R8Unorm | Format::Rg8Unorm)
}

#[allow(clippy::too_many_arguments)]
fn write_color(
    surf: &mut BandSurface<'_>,
    bx: usize,
    by_rel: usize,
    mask: u32,
    src: &[Reg],
    src1: Option<&[Reg]>,
    blend: &RtBlend,
    constant: [f32; 4],
) {
    let fmt = surf.format;
    let bpp = fmt.bytes_per_pixel();
    if blend.color_mask & 0xf == 0 {
        return;
    }
    if fmt == Format::Rgba8Unorm && !blend.enabled && blend.color_mask & 0xf == 0xf {
        // Fast path: convert the block channel by channel (vectorizes), pack, then
        // store row by row.
        let mut px = [0u32; LANES];
        for (c, reg) in src.iter().enumerate().take(4) {
            for l in 0..LANES {
                // Round to nearest by adding 1.5 * 2^23: the low mantissa bits then
                // hold the integer (max/min map NaN to 0). Branch-free, vectorizes.
                let v = f32::from_bits(reg.0[l]).max(0.0).min(1.0) * 255.0 + 12_582_912.0;
                px[l] |= (v.to_bits() & 0xff) << (8 * c);
            }
        }
        for (r, lanes) in ROW_LANES.iter().enumerate() {
            let off = (by_rel + r) * surf.pitch + bx * 4;
            let Some(row) = surf.data.get_mut(off..off + 16) else {
                // Partial block at the surface edge: per-pixel path.
                for (i, &l) in lanes.iter().enumerate() {
                    if mask & (1 << l) != 0 {
                        if let Some(p) = surf.data.get_mut(off + 4 * i..off + 4 * i + 4) {
                            p.copy_from_slice(&px[l].to_le_bytes());
                        }
                    }
                }
                continue;
            };
            if mask & ROWS[r] == ROWS[r] {
                let mut bytes = [0u8; 16];
                for (i, &l) in lanes.iter().enumerate() {
                    bytes[4 * i..4 * i + 4].copy_from_slice(&px[l].to_le_bytes());
                }
                row.copy_from_slice(&bytes);
            } else {
                for (i, &l) in lanes.iter().enumerate() {
                    if mask & (1 << l) != 0 {
                        row[4 * i..4 * i + 4].copy_from_slice(&px[l].to_le_bytes());
                    }
                }
            }
        }
        return;
    }
    let clamp = is_unorm(fmt);
    let cl = |v: f32| if clamp { v.clamp(0.0, 1.0) } else { v };
    let k = constant.map(cl);
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let off = (by_rel + LANE_Y[l] as usize) * surf.pitch + (bx + LANE_X[l] as usize) * bpp;
        let Some(px) = surf.data.get_mut(off..off + bpp) else {
            continue;
        };
        let s = [
            cl(src[0].f(l)),
            cl(src[1].f(l)),
            cl(src[2].f(l)),
            cl(src[3].f(l)),
        ];
        let need_dst = blend.enabled || blend.color_mask & 0xf != 0xf;
        let d = if need_dst {
            fmt.decode_rgba(px)
        } else {
            [0.0; 4]
        };
        let mut o = if blend.enabled {
            let s1 = match src1 {
                Some(r) => [cl(r[0].f(l)), cl(r[1].f(l)), cl(r[2].f(l)), cl(r[3].f(l))],
                None => [0.0; 4],
            };
            blend_pixel(blend, s, s1, d, k)
        } else {
            s
        };
        for c in 0..4 {
            if blend.color_mask & (1 << c) == 0 {
                o[c] = d[c];
            }
        }
        fmt.encode_rgba(o, px);
    }
}

/// GL blending of one pixel (all inputs already clamped for normalized targets).
pub fn blend_pixel(b: &RtBlend, s: [f32; 4], s1: [f32; 4], d: [f32; 4], k: [f32; 4]) -> [f32; 4] {
    let mut o = [0.0; 4];
    for c in 0..4 {
        let (eq, sf, df) = if c < 3 {
            (b.rgb_eq, b.src_rgb, b.dst_rgb)
        } else {
            (b.alpha_eq, b.src_alpha, b.dst_alpha)
        };
        o[c] = match eq {
            BlendEquation::Min => s[c].min(d[c]),
            BlendEquation::Max => s[c].max(d[c]),
            _ => {
                let a = s[c] * factor(sf, c, s, s1, d, k);
                let bb = d[c] * factor(df, c, s, s1, d, k);
                match eq {
                    BlendEquation::Add => a + bb,
                    BlendEquation::Subtract => a - bb,
                    _ => bb - a,
                }
            }
        };
    }
    o
}

/// Blend factor value for channel `c`.
pub fn factor(
    f: BlendFactor,
    c: usize,
    s: [f32; 4],
    s1: [f32; 4],
    d: [f32; 4],
    k: [f32; 4],
) -> f32 {
    use BlendFactor::*;
    match f {
        Zero => 0.0,
        One => 1.0,
        SrcColor => s[c],
        OneMinusSrcColor => 1.0 - s[c],
        DstColor => d[c],
        OneMinusDstColor => 1.0 - d[c],
        SrcAlpha => s[3],
        OneMinusSrcAlpha => 1.0 - s[3],
        DstAlpha => d[3],
        OneMinusDstAlpha => 1.0 - d[3],
        ConstantColor => k[c],
        OneMinusConstantColor => 1.0 - k[c],
        ConstantAlpha => k[3],
        OneMinusConstantAlpha => 1.0 - k[3],
        SrcAlphaSaturate => {
            if c == 3 {
                1.0
            } else {
                s[3].min(1.0 - d[3])
            }
        }
        Src1Color => s1[c],
        OneMinusSrc1Color => 1.0 - s1[c],
        Src1Alpha => s1[3],
        OneMinusSrc1Alpha => 1.0 - s1[3],
    }
}
