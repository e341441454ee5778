//! One draw, start to end: validation, index and vertex processing, primitive
//! assembly, clipping and setup into batches of triangles, and rasterization of each
//! batch over bands on the thread pool; plus `clear`.
//!
//! Render targets are taken out of the texture table for the duration of the draw (a
//! texture that is both sampled and rendered — a GL feedback loop, undefined — reads as
//! empty, i.e. zeros). A second surface on an already-taken texture level works on a
//! copy of its layer that is written back afterwards.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rgl_nir::ir::names::{
    FRAG_RESULT_COLOR, FRAG_RESULT_DATA0, FRAG_RESULT_DEPTH, VARYING_SLOT_CLIP_DIST0,
    VARYING_SLOT_POS, VARYING_SLOT_PRIMITIVE_ID, VARYING_SLOT_PSIZ,
};

use super::clip::{Clipper, OutLayout};
use super::fused::{DynamicState, FusedDraw};
use super::geometry::run_gs;
use super::prim::{assemble, class_of, Prim, PrimClass};
use super::raster::{raster_band, BandSurface, BandTargets, RasterCtx, ThreadState};
use super::setup::{AttrMode, SetupParams, TriList, BAND_ROWS};
use super::vertex::{shade_vertices, BoundVb, Fetcher};
use super::{level_size, SoftDriver, Table, Texture};
use crate::driver::*;
use crate::exec::{Budget, Interp, Reg, Resources, ShaderExec};
use crate::format::Format;
use crate::image::{ImageCopies, ImageView};
use crate::storage::{StorageCopy, StorageView};
use crate::texture::{MipLevel, TexView, TextureBinding};
use crate::{Error, Result};

/// Largest number of post-VS words one draw instance may produce.
pub const MAX_VERTEX_WORDS: u64 = 1 << 26;
/// Largest vertex count × instance count of one draw.
pub const MAX_DRAW_VERTICES: u64 = 1 << 32;
/// Triangles set up before a batch is rasterized.
const BATCH_TRIS: usize = 16384;

/// A render target surface taken out of its texture for a draw.
struct Taken {
    tex: u32,
    level: u32,
    /// The whole level (owner) or a copy of one layer (`copy_of` = owner index).
    data: Vec<u8>,
    copy_of: Option<usize>,
    /// Byte offset of the layer inside `data` (0 for copies) and inside the owner.
    offset: usize,
    layer_offset: usize,
    pitch: usize,
    rows: usize,
    format: Format,
}

/// What [`take_targets`] returns: the taken-surface index of each color slot, that
/// of the depth/stencil surface, and the taken surfaces.
type TakenTargets = (Vec<Option<usize>>, Option<usize>, Vec<Taken>);

fn take_targets(d: &mut SoftDriver, fb: &FramebufferState) -> Result<TakenTargets> {
    let mut taken: Vec<Taken> = Vec::new();
    let mut slot = |s: &Surface, taken: &mut Vec<Taken>| -> Result<usize> {
        let t = d.textures.get_mut(s.texture.0)?;
        let (w, h, _) = level_size(&t.desc, s.level);
        let bpp = t.desc.format.bytes_per_pixel();
        let pitch = w as usize * bpp;
        let (rows, layer_offset) = if t.desc.target == TexTarget::D1Array {
            (1, s.layer as usize * pitch)
        } else {
            (h as usize, s.layer as usize * pitch * h as usize)
        };
        let owner = taken
            .iter()
            .position(|k| k.tex == s.texture.0 && k.level == s.level && k.copy_of.is_none());
        let format = t.desc.format;
        match owner {
            None => {
                let data = std::mem::take(&mut t.levels[s.level as usize]);
                taken.push(Taken {
                    tex: s.texture.0,
                    level: s.level,
                    data,
                    copy_of: None,
                    offset: layer_offset,
                    layer_offset,
                    pitch,
                    rows,
                    format,
                });
            }
            Some(o) => {
                let src = &taken[o].data;
                let end = (layer_offset + pitch * rows).min(src.len());
                let data = src.get(layer_offset..end).unwrap_or(&[]).to_vec();
                taken.push(Taken {
                    tex: s.texture.0,
                    level: s.level,
                    data,
                    copy_of: Some(o),
                    offset: 0,
                    layer_offset,
                    pitch,
                    rows,
                    format,
                });
            }
        }
        Ok(taken.len() - 1)
    };
    let mut colors = Vec::new();
    for s in &fb.colors {
        colors.push(match s {
            Some(s) => Some(slot(s, &mut taken)?),
            None => None,
        });
    }
    let zs = match &fb.zs {
        Some(s) => Some(slot(s, &mut taken)?),
        None => None,
    };
    Ok((colors, zs, taken))
}

fn restore_targets(d: &mut SoftDriver, mut taken: Vec<Taken>) {
    // Copies first (into their owners), then owners back into the textures.
    for i in 0..taken.len() {
        if let Some(o) = taken[i].copy_of {
            let data = std::mem::take(&mut taken[i].data);
            let off = taken[i].layer_offset;
            if let Some(dst) = taken[o].data.get_mut(off..off + data.len()) {
                dst.copy_from_slice(&data);
            }
        }
    }
    for t in taken {
        if t.copy_of.is_none() {
            if let Ok(tex) = d.textures.get_mut(t.tex) {
                if let Some(l) = tex.levels.get_mut(t.level as usize) {
                    *l = t.data;
                }
            }
        }
    }
}

/// Splits every target into per-band row slices.
fn band_targets<'a>(
    taken: &'a mut [Taken],
    colors: &[Option<usize>],
    zs: Option<usize>,
    bands: usize,
) -> Vec<BandTargets<'a>> {
    let mut per: Vec<Vec<Option<BandSurface<'a>>>> = Vec::new();
    for t in taken.iter_mut() {
        let bytes = (t.pitch * t.rows).min(t.data.len().saturating_sub(t.offset));
        let region = match t.data.get_mut(t.offset..t.offset + bytes) {
            Some(r) => r,
            None => &mut [],
        };
        let chunk = (t.pitch * BAND_ROWS as usize).max(1);
        let mut v: Vec<Option<BandSurface<'a>>> = region
            .chunks_mut(chunk)
            .map(|c| {
                Some(BandSurface {
                    format: t.format,
                    data: c,
                    pitch: t.pitch,
                })
            })
            .collect();
        v.resize_with(bands, || None);
        per.push(v);
    }
    let mut out = Vec::with_capacity(bands);
    for b in 0..bands {
        let mut take = |i: usize| {
            per.get_mut(i)
                .and_then(|v| v.get_mut(b))
                .and_then(|s| s.take())
        };
        let colors = colors.iter().map(|c| c.and_then(&mut take)).collect();
        let zs = zs.and_then(&mut take);
        out.push(BandTargets {
            band: b,
            colors,
            zs,
        });
    }
    out
}

/// Rasterizes the binned batch; returns (fs invocations, fragments written).
fn run_raster(
    ctx: &RasterCtx<'_>,
    bands: Vec<BandTargets<'_>>,
    threads: usize,
    budget: u64,
) -> Result<(u64, u64)> {
    let work: Vec<BandTargets<'_>> = bands
        .into_iter()
        .filter(|b| ctx.tris.bins.get(b.band).is_some_and(|v| !v.is_empty()))
        .collect();
    if threads <= 1 || work.len() <= 1 {
        let mut ts = ThreadState::new(budget);
        for mut b in work {
            raster_band(ctx, &mut b, &mut ts)?;
        }
        return Ok((ts.fs_invocations, ts.written));
    }
    let queue = Mutex::new(work.into_iter());
    let abort = AtomicBool::new(false);
    let worker = || -> Result<(u64, u64)> {
        let _ftz = super::denormals::FlushDenormals::new();
        let mut ts = ThreadState::new(budget);
        loop {
            if abort.load(Ordering::Relaxed) {
                break;
            }
            let next = match queue.lock() {
                Ok(mut q) => q.next(),
                Err(_) => None,
            };
            let Some(mut b) = next else { break };
            if let Err(e) = raster_band(ctx, &mut b, &mut ts) {
                abort.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok((ts.fs_invocations, ts.written))
    };
    let results: Vec<Result<(u64, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(worker)).collect();
        let mut r = vec![worker()];
        for h in handles {
            r.push(
                h.join()
                    .unwrap_or_else(|_| Err(Error::Exec("raster thread panicked".into()))),
            );
        }
        r
    });
    let mut total = (0, 0);
    for r in results {
        let (a, b) = r?;
        total.0 += a;
        total.1 += b;
    }
    Ok(total)
}

/// Reads the index list of an indexed draw.
fn read_indices(d: &SoftDriver, info: &DrawInfo, ib: &IndexBuffer) -> Result<Vec<u32>> {
    let data = d.buffers.get(ib.buffer.0)?;
    let size = match ib.size {
        IndexSize::U8 => 1u64,
        IndexSize::U16 => 2,
        IndexSize::U32 => 4,
    };
    let start = ib.offset as u128 + info.start as u128 * size as u128;
    let end = start + info.count as u128 * size as u128;
    if end > data.len() as u128 {
        return Err(Error::InvalidArgument(format!(
            "indices {}..{} read past the index buffer ({} bytes)",
            info.start,
            info.start as u64 + info.count as u64,
            data.len()
        )));
    }
    let bytes = &data[start as usize..end as usize];
    Ok(match ib.size {
        IndexSize::U8 => bytes.iter().map(|&b| b as u32).collect(),
        IndexSize::U16 => bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
            .collect(),
        IndexSize::U32 => bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    })
}

/// The draw entry point.
pub fn draw(d: &mut SoftDriver, info: &DrawInfo) -> Result<()> {
    let _ftz = super::denormals::FlushDenormals::new();
    let vs = d
        .bound
        .vs
        .clone()
        .ok_or_else(|| Error::InvalidArgument("draw without a vertex shader".into()))?;
    let fs = d
        .bound
        .fs
        .clone()
        .ok_or_else(|| Error::InvalidArgument("draw without a fragment shader".into()))?;
    d.counters.draws += 1;
    if info.count == 0 || info.instance_count == 0 {
        return Ok(());
    }
    let stride = vs.info().outputs.len() as u64 * 4;
    if let Some(g) = d.bound.gs.as_ref().and_then(|g| g.info().gs) {
        let ok = match g.vertices_in {
            1 => class_of(info.mode) == PrimClass::Point,
            2 => matches!(
                info.mode,
                PrimMode::Lines | PrimMode::LineStrip | PrimMode::LineLoop
            ),
            3 => matches!(
                info.mode,
                PrimMode::Triangles | PrimMode::TriangleStrip | PrimMode::TriangleFan
            ),
            4 => matches!(
                info.mode,
                PrimMode::LinesAdjacency | PrimMode::LineStripAdjacency
            ),
            6 => matches!(
                info.mode,
                PrimMode::TrianglesAdjacency | PrimMode::TriangleStripAdjacency
            ),
            _ => false,
        };
        if !ok {
            return Err(Error::InvalidArgument(format!(
                "draw mode {:?} does not match the geometry shader input ({} vertices)",
                info.mode, g.vertices_in
            )));
        }
    }
    if info.count as u64 * info.instance_count as u64 > MAX_DRAW_VERTICES {
        return Err(Error::TooLarge(format!(
            "draw of {} vertices × {} instances",
            info.count, info.instance_count
        )));
    }
    if info.count as u64 * stride.max(1) > MAX_VERTEX_WORDS {
        return Err(Error::TooLarge(format!(
            "draw of {} vertices with {} output words each",
            info.count, stride
        )));
    }
    let fb = d.bound.fb.clone();
    let gs = d.bound.gs.clone();
    let uses_storage = vs.info().storage.any()
        || fs.info().storage.any()
        || gs.as_ref().is_some_and(|g| g.info().storage.any());
    let storage = if uses_storage {
        storage_copies(d)?
    } else {
        Vec::new()
    };
    let views: Vec<StorageView<'_>> = storage.iter().map(StorageCopy::view).collect();
    let uses_images = vs.info().storage.images
        || fs.info().storage.images
        || gs.as_ref().is_some_and(|g| g.info().storage.images);
    let images = if uses_images {
        ImageCopies::new(&d.textures, &d.bound.images)?
    } else {
        ImageCopies::default()
    };
    let image_views = images.views();
    let (colors, zs, mut taken) = take_targets(d, &fb)?;
    let mut pipe = PipelineUse::default();
    let r = draw_with_targets(
        d,
        info,
        &*vs,
        gs.as_deref(),
        &*fs,
        &colors,
        zs,
        &mut taken,
        &mut pipe,
        &views,
        &image_views,
    );
    restore_targets(d, taken);
    drop(views);
    drop(image_views);
    // Writes made before a failure stay, as after a compute dispatch.
    storage_write_back(d, &storage);
    images.write_back(&mut d.textures);
    let c = &mut d.counters;
    c.pipeline_hits += pipe.hits;
    c.pipeline_builds += pipe.builds;
    c.pipeline_loads += pipe.loads;
    c.pipeline_build_ns += pipe.build_ns;
    c.pipeline_evictions += pipe.evictions;
    c.pipeline_fallbacks += pipe.fallbacks;
    c.pipeline_tier_ups += pipe.tier_ups;
    let (vs_inv, prims, culled, tris, fs_inv, written) = r?;
    let c = &mut d.counters;
    c.vs_invocations += vs_inv;
    c.primitives += prims;
    c.primitives_culled += culled;
    c.triangles_rasterized += tris;
    c.fs_invocations += fs_inv;
    c.fragments_written += written;
    Ok(())
}

type DrawStats = (u64, u64, u64, u64, u64, u64);

/// Copies of the bound storage ranges for a draw (unbound blocks: empty).
fn storage_copies(d: &SoftDriver) -> Result<Vec<StorageCopy>> {
    d.bound
        .storage
        .iter()
        .map(|r| {
            let Some(r) = r else {
                return Ok(StorageCopy::default());
            };
            let b = d.buffers.get(r.buffer.0)?;
            let start = usize::try_from(r.offset).unwrap_or(usize::MAX).min(b.len());
            let end = usize::try_from(r.offset.saturating_add(r.size))
                .unwrap_or(usize::MAX)
                .min(b.len());
            Ok(StorageCopy::new(&b[start..end]))
        })
        .collect()
}

/// Stores the bytes a draw changed in each storage range back into its buffer
/// (only changed bytes, so bindings aliasing one buffer keep each other's writes).
fn storage_write_back(d: &mut SoftDriver, copies: &[StorageCopy]) {
    for (range, copy) in d.bound.storage.iter().zip(copies) {
        let Some(r) = range else { continue };
        let Ok(b) = d.buffers.get_mut(r.buffer.0) else {
            continue;
        };
        let start = usize::try_from(r.offset).unwrap_or(usize::MAX);
        for (i, v) in copy.changes() {
            if let Some(dst) = start.checked_add(i).and_then(|at| b.get_mut(at)) {
                *dst = v;
            }
        }
    }
}

/// What the draw's fused pipeline lookup did (for [`Counters`]).
#[derive(Default)]
struct PipelineUse {
    hits: u64,
    builds: u64,
    loads: u64,
    build_ns: u64,
    evictions: u64,
    fallbacks: u64,
    tier_ups: u64,
}

/// The fused pipeline variant of the draw's state, if the fragment shader builds
/// them and the state is one the fused path specializes.
fn fused_pipeline(
    fs: &dyn ShaderExec,
    state: &crate::jit::pipeline::DrawState<'_>,
    pipe: &mut PipelineUse,
) -> Option<std::sync::Arc<crate::jit::pipeline::FusedPipeline>> {
    use crate::jit::pipeline::{derive, Lookup};
    let cache = fs.pipelines()?;
    let key = match derive(state) {
        Ok(k) => k,
        Err(e) => {
            log::info!("jit: per-pixel pipeline stays in Rust: {e}");
            pipe.fallbacks += 1;
            return None;
        }
    };
    match cache.lookup(&key) {
        Lookup::Hit(p) => {
            pipe.hits += 1;
            Some(p)
        }
        Lookup::TieredUp(p) => {
            pipe.hits += 1;
            pipe.tier_ups += 1;
            Some(p)
        }
        Lookup::Built {
            pipeline,
            ns,
            evicted,
            loaded,
        } => {
            if loaded {
                pipe.loads += 1;
            } else {
                pipe.builds += 1;
            }
            pipe.build_ns += ns;
            pipe.evictions += u64::from(evicted);
            Some(pipeline)
        }
        // The variant's build is queued (deferred tier 0): this draw takes
        // the Rust path as the variant's first form, not as a fallback; the
        // miss counts as the build.
        Lookup::Deferred { miss } => {
            if miss {
                pipe.builds += 1;
            } else {
                pipe.hits += 1;
            }
            None
        }
        Lookup::Failed(_) => {
            pipe.fallbacks += 1;
            None
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_with_targets(
    d: &SoftDriver,
    info: &DrawInfo,
    vs: &dyn ShaderExec,
    gs: Option<&dyn ShaderExec>,
    fs: &dyn ShaderExec,
    colors: &[Option<usize>],
    zs: Option<usize>,
    taken: &mut [Taken],
    pipe: &mut PipelineUse,
    storage: &[StorageView<'_>],
    images: &[ImageView<'_>],
) -> Result<DrawStats> {
    let b = &d.bound;
    let mut stats = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    // Framebuffer size: the declared size clipped to every surface.
    let mut fbw = b.fb.width;
    let mut fbh = b.fb.height;
    for t in taken.iter() {
        fbw = fbw.min((t.pitch / t.format.bytes_per_pixel().max(1)) as u32);
        fbh = fbh.min(t.rows as u32);
    }
    if fbw == 0 || fbh == 0 || b.rast.rasterizer_discard {
        return Ok(stats);
    }
    let vp = b.viewport;
    if vp.width <= 0.0 || vp.height <= 0.0 {
        return Ok(stats);
    }
    let mut clip_rect = [0, 0, fbw as i32, fbh as i32];
    if b.rast.scissor {
        let s = b.scissor;
        clip_rect[0] = clip_rect[0].max(s.x);
        clip_rect[1] = clip_rect[1].max(s.y);
        clip_rect[2] = clip_rect[2].min(s.x.saturating_add(s.width.min(i32::MAX as u32) as i32));
        clip_rect[3] = clip_rect[3].min(s.y.saturating_add(s.height.min(i32::MAX as u32) as i32));
        if clip_rect[0] >= clip_rect[2] || clip_rect[1] >= clip_rect[3] {
            return Ok(stats);
        }
    }
    // Linkage: last vertex stage outputs → FS inputs (and VS → GS).
    let vinfo = gs.unwrap_or(vs).info();
    let vs_info = vs.info();
    let gs_link: Vec<Option<usize>> = match gs {
        Some(g) => g
            .info()
            .inputs
            .iter()
            .flat_map(|inp| {
                (0..4).map(move |c| {
                    vs_info
                        .outputs
                        .iter()
                        .position(|o| o.location == inp.location)
                        .map(|i| i * 4 + c)
                })
            })
            .collect(),
        None => Vec::new(),
    };
    let vs_words = vs_info.outputs.len() * 4;
    let finfo = fs.info();
    let out_word = |loc: i32, c: usize| {
        vinfo
            .outputs
            .iter()
            .position(|o| o.location == loc)
            .filter(|&i| c < vinfo.outputs[i].components.max(1) as usize || c < 4)
            .map(|i| i * 4 + c)
    };
    // A last vertex stage that never writes gl_Position leaves every position
    // undefined (GL draws nothing useful, and nothing else can observe it):
    // nothing is rasterized.
    let Some(pos) = out_word(VARYING_SLOT_POS, 0) else {
        return Ok(stats);
    };
    let mut layout = OutLayout {
        stride: vinfo.outputs.len() * 4,
        pos,
        psize: out_word(VARYING_SLOT_PSIZ, 0),
        gs_primitive_id: out_word(VARYING_SLOT_PRIMITIVE_ID, 0),
        clip: Vec::new(),
        link: Vec::new(),
    };
    for i in 0..MAX_CLIP_DISTANCES {
        if b.rast.clip_plane_enable & (1 << i) != 0 {
            if let Some(w) = out_word(VARYING_SLOT_CLIP_DIST0 + (i / 4) as i32, i % 4) {
                layout.clip.push(w);
            }
        }
    }
    let mut modes = Vec::new();
    for inp in &finfo.inputs {
        let mode = match inp.interp {
            Interp::Flat => AttrMode::Flat,
            Interp::NoPerspective => AttrMode::Linear,
            Interp::Smooth | Interp::None => AttrMode::Perspective,
        };
        for c in 0..4 {
            modes.push(mode);
            layout.link.push(out_word(inp.location, c));
        }
    }
    let zs_format = zs.and_then(|i| taken.get(i)).map(|t| t.format);
    let mrd = match zs_format.and_then(|f| f.depth_max()) {
        Some(m) => 1.0 / m as f32,
        None => 1.0 / (1u32 << 24) as f32,
    };
    let (depth_lo, depth_hi) = if b.rast.depth_clamp {
        (vp.near.min(vp.far), vp.near.max(vp.far))
    } else {
        (0.0, 1.0)
    };
    let setup = SetupParams {
        modes: modes.clone(),
        clip: clip_rect,
        offset: Some((
            b.rast.offset_scale,
            b.rast.offset_units * mrd,
            b.rast.offset_clamp,
        )),
    };
    // Resources.
    let ubo_slices: Vec<&[u8]> = b
        .ubos
        .iter()
        .map(|u| match u {
            Some(r) => d
                .buffers
                .get(r.buffer.0)
                .ok()
                .and_then(|buf| {
                    let s = (r.offset as usize).min(buf.len());
                    let e = (r.offset.saturating_add(r.size) as usize).min(buf.len());
                    buf.get(s..e)
                })
                .unwrap_or(&[]),
            None => &[],
        })
        .collect();
    let textures = texture_bindings(&d.textures, &b.views, &b.samplers);
    let res = Resources {
        uniforms: &b.uniforms,
        ubos: &ubo_slices,
        textures: &textures,
        storage,
        images,
    };
    // Fragment outputs per render target.
    let rt_out: Vec<Option<usize>> = (0..colors.len())
        .map(|n| {
            finfo
                .output_index(FRAG_RESULT_DATA0 + n as i32, 0)
                .or_else(|| finfo.output_index(FRAG_RESULT_COLOR, 0))
        })
        .collect();
    let depth_out = finfo.output_index(FRAG_RESULT_DEPTH, 0);
    // A fragment shader that writes memory runs for every fragment the
    // rasterizer produces, before the depth and stencil tests (GL 4.5 §14.9 and
    // §15.2.4: without `early_fragment_tests` the tests follow the shader, and
    // its writes happen even for fragments that then fail them), and once per
    // fragment: no test before shading, no per-triangle shading.
    let side_effects = finfo.storage.writes;
    let early_z = depth_out.is_none() && !finfo.uses_discard && !side_effects;
    let uniform_fs = !side_effects
        && modes.iter().all(|m| *m == AttrMode::Flat)
        && finfo.sysvals & !(crate::exec::sysval::FRONT_FACE | crate::exec::sysval::PRIMITIVE_ID)
            == 0;
    let rctx_base = (
        &b.blend,
        b.blend_color,
        &b.dsa,
        finfo.output_index(FRAG_RESULT_DATA0, 1),
    );
    // The fused pipeline shades per pixel; a fragment-invariant shader keeps the
    // block fill.
    let color_formats: Vec<Option<Format>> = colors
        .iter()
        .map(|c| c.and_then(|i| taken.get(i)).map(|t| t.format))
        .collect();
    // The fused pipeline hands its shader no storage bindings: a shader that
    // touches storage buffers shades through `ShaderExec::run`.
    let fused_pipe = if uniform_fs || finfo.storage.any() {
        None
    } else {
        let state = crate::jit::pipeline::DrawState {
            color_formats: &color_formats,
            zs_format,
            blend: &b.blend,
            dsa: &b.dsa,
            rt_out: &rt_out,
            src1_out: rctx_base.3,
            depth_out,
            early_z,
        };
        fused_pipeline(fs, &state, pipe)
    };
    let fused = fused_pipe.map(|p| {
        FusedDraw::new(
            p,
            &res,
            &DynamicState {
                blend_color: b.blend_color,
                depth_range: (depth_lo, depth_hi),
                stencil_ref: [b.dsa.front.reference, b.dsa.back.reference],
            },
        )
    });
    // Vertex buffers.
    let vbs: Vec<Option<BoundVb<'_>>> = b
        .vbufs
        .iter()
        .map(|v| {
            d.buffers.get(v.buffer.0).ok().map(|data| BoundVb {
                data,
                offset: v.offset,
                stride: v.stride,
            })
        })
        .collect();
    // Index sequence: local vertex numbers, u32::MAX marks a restart.
    let indices = match &info.index {
        Some(ib) => Some(read_indices(d, info, ib)?),
        None => None,
    };
    const RESTART: u32 = u32::MAX;
    let mut seq: Vec<u32> = Vec::new();
    let mut shade_list: Vec<i64> = Vec::new();
    match &indices {
        None => {
            seq.extend(0..info.count);
            shade_list.extend((0..info.count as i64).map(|i| info.start as i64 + i));
        }
        Some(idx) => {
            let is_restart = |i: u32| info.restart_index == Some(i);
            let live = idx.iter().copied().filter(|&i| !is_restart(i));
            let (mut lo, mut hi) = (u32::MAX, 0u32);
            for i in live {
                lo = lo.min(i);
                hi = hi.max(i);
            }
            let range = if lo <= hi {
                hi as u64 - lo as u64 + 1
            } else {
                0
            };
            let bv = info.base_vertex as i64;
            if range <= 2 * idx.len() as u64 + 64 {
                shade_list.extend((0..range as i64).map(|k| lo as i64 + k + bv));
                seq.extend(
                    idx.iter()
                        .map(|&i| if is_restart(i) { RESTART } else { i - lo }),
                );
            } else {
                for &i in idx.iter() {
                    if is_restart(i) {
                        seq.push(RESTART);
                    } else {
                        seq.push(shade_list.len() as u32);
                        shade_list.push(i as i64 + bv);
                    }
                }
            }
        }
    }
    let bands = (fbh as usize).div_ceil(BAND_ROWS as usize);
    let mut tris = TriList::default();
    tris.reset(bands);
    let mut budget = Budget::new(d.budget);
    let mut scratch: Vec<Reg> = Vec::new();
    let mut verts: Vec<u32> = Vec::new();
    let mut prims: Vec<Prim> = Vec::new();
    let mut class = class_of(info.mode);
    let first = b.rast.flatshade_first;
    for inst in 0..info.instance_count {
        let fetch = Fetcher {
            elems: &b.velems,
            vbs: &vbs,
            instance: inst,
            start_instance: info.start_instance,
        };
        verts.clear();
        verts
            .try_reserve(shade_list.len() * layout.stride)
            .map_err(|_| Error::TooLarge("vertex output storage".into()))?;
        stats.0 += shade_vertices(
            vs,
            &fetch,
            &mut shade_list.iter().copied(),
            res,
            &mut budget,
            &mut scratch,
            &mut verts,
        )?;
        prims.clear();
        for run in seq.split(|&i| i == RESTART) {
            assemble(info.mode, run, first, gs.is_some(), &mut |p| prims.push(p));
        }
        if let Some(g) = gs {
            let (v, p, c) = run_gs(
                g,
                &prims,
                &verts,
                vs_words,
                &gs_link,
                res,
                &mut budget,
                &mut scratch,
                first,
            )?;
            verts = v;
            prims = p;
            class = c;
        }
        // GL's PRIMITIVES_GENERATED: after the geometry shader, before
        // clipping; the halves of a quad or the fan of a polygon are one.
        stats.1 += prims.iter().filter(|p| !p.continues).count() as u64;
        let mut clipper = Clipper::new(&layout, &setup, &b.rast, vp);
        let st = layout.stride;
        let vtx = |i: u32| {
            verts
                .get(i as usize * st..(i as usize + 1) * st)
                .unwrap_or(&[])
        };
        let mut next_pid = 0u32;
        for p in prims.iter() {
            // gl_PrimitiveID counts GL primitives: both halves of a quad and
            // every triangle of a polygon share one. After a geometry shader
            // that writes gl_PrimitiveID, the provoking vertex's value is used.
            let pid = if let Some(w) = layout.gs_primitive_id.filter(|_| gs.is_some()) {
                vtx(p.provoking).get(w).copied().unwrap_or(0)
            } else if p.continues {
                next_pid.saturating_sub(1)
            } else {
                next_pid += 1;
                next_pid - 1
            };
            match class {
                PrimClass::Point => clipper.point(&mut tris, vtx(p.v[0]), pid),
                PrimClass::Line => {
                    clipper.line(&mut tris, [vtx(p.v[0]), vtx(p.v[1])], vtx(p.provoking), pid)
                }
                PrimClass::Triangle => {
                    if b.rast.cull == CullFace::FrontAndBack {
                        continue;
                    }
                    let v3 = [vtx(p.v[0]), vtx(p.v[1]), vtx(p.v[2])];
                    let filled = b.rast.polygon_mode_front == PolygonMode::Fill
                        && b.rast.polygon_mode_back == PolygonMode::Fill;
                    if filled {
                        clipper.triangle(&mut tris, v3, vtx(p.provoking), pid);
                    } else {
                        unfilled(&mut clipper, &mut tris, &layout, &b.rast, v3, p, &vtx, pid);
                    }
                }
            }
            if tris.tris.len() >= BATCH_TRIS {
                stats.3 += tris.tris.len() as u64;
                let r = raster_batch(
                    &tris,
                    &modes,
                    fs,
                    res,
                    rctx_base,
                    &rt_out,
                    depth_out,
                    early_z,
                    uniform_fs,
                    (depth_lo, depth_hi),
                    taken,
                    colors,
                    zs,
                    bands,
                    d,
                    fused.as_ref(),
                )?;
                stats.4 += r.0;
                stats.5 += r.1;
                tris.reset(bands);
            }
        }
        stats.2 += clipper.culled;
    }
    if !tris.tris.is_empty() {
        stats.3 += tris.tris.len() as u64;
        let r = raster_batch(
            &tris,
            &modes,
            fs,
            res,
            rctx_base,
            &rt_out,
            depth_out,
            early_z,
            uniform_fs,
            (depth_lo, depth_hi),
            taken,
            colors,
            zs,
            bands,
            d,
            fused.as_ref(),
        )?;
        stats.4 += r.0;
        stats.5 += r.1;
    }
    Ok(stats)
}

/// Polygon mode `GL_LINE` / `GL_POINT`: facing and culling from the clip-space
/// winding, then the boundary edges as lines or their start vertices as points (the
/// gallium draw module's "unfilled" stage, which runs before clipping).
#[allow(clippy::too_many_arguments)]
fn unfilled<'v>(
    clipper: &mut Clipper<'_>,
    tris: &mut TriList,
    layout: &OutLayout,
    rast: &RasterizerState,
    v: [&'v [u32]; 3],
    p: &Prim,
    vtx: &dyn Fn(u32) -> &'v [u32],
    pid: u32,
) {
    let c =
        |vx: &[u32], i: usize| f32::from_bits(vx.get(layout.pos + i).copied().unwrap_or(0)) as f64;
    let (x, y, w) = (
        [c(v[0], 0), c(v[1], 0), c(v[2], 0)],
        [c(v[0], 1), c(v[1], 1), c(v[2], 1)],
        [c(v[0], 3), c(v[1], 3), c(v[2], 3)],
    );
    let det = x[0] * (y[1] * w[2] - y[2] * w[1]) - y[0] * (x[1] * w[2] - x[2] * w[1])
        + w[0] * (x[1] * y[2] - x[2] * y[1]);
    if det == 0.0 || !det.is_finite() {
        return;
    }
    let front = (det > 0.0) == rast.front_ccw;
    let culled = match rast.cull {
        CullFace::None => false,
        CullFace::Front => front,
        CullFace::Back => !front,
        CullFace::FrontAndBack => true,
    };
    if culled {
        return;
    }
    let mode = if front {
        rast.polygon_mode_front
    } else {
        rast.polygon_mode_back
    };
    for i in 0..3 {
        if p.edges & (1 << i) == 0 {
            continue;
        }
        match mode {
            PolygonMode::Line => clipper.line(tris, [v[i], v[(i + 1) % 3]], vtx(p.provoking), pid),
            PolygonMode::Point => clipper.point(tris, v[i], pid),
            PolygonMode::Fill => {
                clipper.triangle(tris, v, vtx(p.provoking), pid);
                return;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn raster_batch(
    tris: &TriList,
    modes: &[AttrMode],
    fs: &dyn ShaderExec,
    res: Resources<'_>,
    base: (&BlendState, [f32; 4], &DepthStencilState, Option<usize>),
    rt_out: &[Option<usize>],
    depth_out: Option<usize>,
    early_z: bool,
    uniform_fs: bool,
    depth_range: (f32, f32),
    taken: &mut [Taken],
    colors: &[Option<usize>],
    zs: Option<usize>,
    bands: usize,
    d: &SoftDriver,
    fused: Option<&FusedDraw<'_>>,
) -> Result<(u64, u64)> {
    let ctx = RasterCtx {
        tris,
        fs,
        modes,
        res,
        blend: base.0,
        blend_color: base.1,
        dsa: base.2,
        rt_out,
        src1_out: base.3,
        depth_out,
        early_z,
        depth_range,
        uniform_fs,
        sysvals: fs.info().sysvals,
        needs_w: modes.contains(&AttrMode::Perspective),
        fused,
    };
    let bt = band_targets(taken, colors, zs, bands);
    run_raster(&ctx, bt, d.threads, d.budget)
}

/// `glClear` on the bound framebuffer.
pub fn clear(d: &mut SoftDriver, req: &ClearRequest) -> Result<()> {
    let fb = d.bound.fb.clone();
    let mut jobs: Vec<(Surface, bool)> = fb.colors.iter().flatten().map(|s| (*s, true)).collect();
    let masks: Vec<u8> = fb
        .colors
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_some())
        .map(|(i, _)| req.color_masks.get(i).copied().unwrap_or(0xf))
        .collect();
    if let Some(z) = fb.zs {
        jobs.push((z, false));
    }
    for (k, (s, is_color)) in jobs.into_iter().enumerate() {
        let (w, h) = d.check_surface(&s)?;
        let w = w.min(fb.width);
        let h = h.min(fb.height);
        let (mut x0, mut y0, mut x1, mut y1) = (0i64, 0i64, w as i64, h as i64);
        if let Some(r) = req.scissor {
            x0 = x0.max(r.x as i64);
            y0 = y0.max(r.y as i64);
            x1 = x1.min(r.x as i64 + r.width as i64);
            y1 = y1.min(r.y as i64 + r.height as i64);
        }
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        let t = d.textures.get_mut(s.texture.0)?;
        let (lw, lh, _) = level_size(&t.desc, s.level);
        let fmt = t.desc.format;
        let bpp = fmt.bytes_per_pixel();
        let pitch = lw as usize * bpp;
        let base = if t.desc.target == TexTarget::D1Array {
            s.layer as usize * pitch
        } else {
            s.layer as usize * pitch * lh as usize
        };
        let Some(level) = t.levels.get_mut(s.level as usize) else {
            continue;
        };
        let mut px = vec![0u8; bpp];
        // Whole-pixel overwrites (full color mask; depth and stencil both cleared, or a
        // format without the other part): encode one pixel, replicate it per row.
        let whole = if is_color {
            req.color
                .filter(|_| masks.get(k).copied().unwrap_or(0xf) & 0xf == 0xf)
                .map(|c| {
                    fmt.encode_rgba(c, &mut px);
                })
        } else {
            let depth_all = req.depth.is_some() || !fmt.is_depth();
            let stencil_all = matches!(req.stencil, Some((_, 0xff))) || !fmt.has_stencil();
            (depth_all && stencil_all).then(|| {
                if let Some(z) = req.depth {
                    fmt.encode_depth(z.clamp(0.0, 1.0), &mut px);
                }
                if let Some((v, _)) = req.stencil {
                    fmt.encode_stencil(v, &mut px);
                }
            })
        };
        if whole.is_some() {
            let span = (x1 - x0) as usize * bpp;
            let pattern: Vec<u8> = px.iter().copied().cycle().take(span).collect();
            for y in y0..y1 {
                let off = base + y as usize * pitch + x0 as usize * bpp;
                if let Some(row) = level.get_mut(off..off + span) {
                    row.copy_from_slice(&pattern);
                }
            }
            continue;
        }
        for y in y0..y1 {
            let row = base + y as usize * pitch;
            for x in x0..x1 {
                let off = row + x as usize * bpp;
                let Some(p) = level.get_mut(off..off + bpp) else {
                    continue;
                };
                if is_color {
                    let Some(c) = req.color else { break };
                    let m = masks.get(k).copied().unwrap_or(0xf);
                    if m & 0xf == 0xf {
                        if x == x0 {
                            fmt.encode_rgba(c, &mut px);
                        }
                        p.copy_from_slice(&px);
                    } else {
                        let mut cur = fmt.decode_rgba(p);
                        for (i, v) in cur.iter_mut().enumerate() {
                            if m & (1 << i) != 0 {
                                *v = c[i];
                            }
                        }
                        fmt.encode_rgba(cur, p);
                    }
                } else {
                    if let Some(z) = req.depth {
                        fmt.encode_depth(z.clamp(0.0, 1.0), p);
                    }
                    if let Some((v, m)) = req.stencil {
                        let old = fmt.decode_stencil(p);
                        fmt.encode_stencil((old & !m) | (v & m), p);
                    }
                }
            }
        }
    }
    Ok(())
}

/// The texture of each sampler slot of a draw or compute dispatch: the view's
/// levels from `first_level` to `last_level` with its swizzle, and the slot's
/// sampler state. A slot without a view (or with
/// a deleted texture) is unbound and reads (0, 0, 0, 1).
pub(crate) fn texture_bindings<'a>(
    textures: &'a Table<Texture>,
    views: &[Option<SamplerView>],
    samplers: &[Option<SamplerState>],
) -> Vec<Option<TextureBinding<'a>>> {
    (0..views.len().max(samplers.len()))
        .map(|i| {
            let v = views.get(i).copied().flatten()?;
            let s = samplers.get(i).copied().flatten().unwrap_or_default();
            let t = textures.get(v.texture.0).ok()?;
            let last = v.last_level.min(t.desc.levels.saturating_sub(1));
            let levels = (v.first_level..=last)
                .map(|l| {
                    let (width, height, depth) = level_size(&t.desc, l);
                    MipLevel {
                        data: t.levels.get(l as usize).map_or(&[][..], |x| &x[..]),
                        width,
                        height,
                        depth,
                    }
                })
                .collect();
            Some(TextureBinding::new(
                TexView {
                    target: t.desc.target,
                    format: t.desc.format,
                    levels,
                    swizzle: v.swizzle,
                },
                s,
            ))
        })
        .collect()
}
