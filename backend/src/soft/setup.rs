//! Triangle setup: window-space vertices → fixed-point edge functions (8 sub-pixel
//! bits, top-left fill rule), interpolation planes, bounding box; and binning into
//! 64-row bands. Lines and points arrive here as quads (two triangles) built by
//! [`super::clip`].
//!
//! Fill rule: in framebuffer coordinates (row 0 at the bottom, GL window y), a pixel
//! center exactly on an edge belongs to the triangle when the edge is a "top" edge
//! (horizontal, other vertex at larger y) or a "left" edge — the rule gallium drivers
//! apply with row 0 first in memory, so results match llvmpipe on FBOs. Every pixel of
//! a mesh of triangles sharing edges is covered exactly once.

/// Sub-pixel bits of the fixed-point rasterizer.
pub const SUBPIXEL_BITS: u32 = 8;
/// Fixed-point units per pixel.
pub const FIXED_ONE: i64 = 1 << SUBPIXEL_BITS;
/// Rows per band (the unit of work of a raster thread).
pub const BAND_ROWS: u32 = 64;
/// Window coordinates are clipped to ±this (guard band), keeping edge functions in i64.
pub const GUARD_BAND: f32 = 16384.0;

/// A vertex after perspective divide and viewport transform.
#[derive(Clone, Copy, Debug)]
pub struct WinVert<'a> {
    /// Window x.
    pub x: f32,
    /// Window y.
    pub y: f32,
    /// Window z (depth, before clamping).
    pub z: f32,
    /// 1 / clip w.
    pub oow: f32,
    /// FS input values (one float per input component).
    pub attrs: &'a [f32],
}

/// One edge function: `E(px, py) = c + px * dx + py * dy` at pixel centers, with the
/// fill-rule bias folded into `c`; a pixel is inside when `E >= 0` for all three.
#[derive(Clone, Copy, Debug, Default)]
pub struct Edge {
    /// Value at the center of pixel (0, 0).
    pub c: i64,
    /// Step per pixel in x.
    pub dx: i64,
    /// Step per pixel in y.
    pub dy: i64,
}

/// How an FS input component is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrMode {
    /// Constant: raw bits from the provoking vertex.
    Flat,
    /// Screen-linear.
    Linear,
    /// Perspective-correct.
    Perspective,
}

/// A set-up triangle ready for rasterization.
#[derive(Clone, Debug)]
pub struct Tri {
    /// Edge functions.
    pub edges: [Edge; 3],
    /// Pixel bounding box `[x0, y0, x1, y1)` clipped to framebuffer and scissor.
    pub bbox: [i32; 4],
    /// Reference point of the planes.
    pub x0: f32,
    /// Reference point of the planes.
    pub y0: f32,
    /// Offset in the plane arena: z, 1/w, then `a/w` (perspective) or `a` per attribute
    /// component, then 2 point-coord planes when `point`; 3 floats each.
    pub planes: u32,
    /// Offset in the flat arena of the provoking vertex's attribute bits.
    pub flat: u32,
    /// Front facing.
    pub front: bool,
    /// Point sprite (has point-coord planes).
    pub point: bool,
    /// `gl_PrimitiveID`.
    pub prim_id: u32,
}

/// Per-draw constants for setup.
#[derive(Clone, Debug)]
pub struct SetupParams {
    /// Interpolation per FS input component.
    pub modes: Vec<AttrMode>,
    /// Clip rectangle `[x0, y0, x1, y1)` (framebuffer ∩ scissor).
    pub clip: [i32; 4],
    /// Polygon offset (scale, units × minimum resolvable depth, clamp); applied to the
    /// primitive classes the rasterizer state enables it for.
    pub offset: Option<(f32, f32, f32)>,
}

/// Triangles of a batch with their plane and flat arenas and band bins.
#[derive(Default)]
pub struct TriList {
    /// Triangles.
    pub tris: Vec<Tri>,
    /// Plane coefficients.
    pub planes: Vec<f32>,
    /// Flat attribute bits.
    pub flat: Vec<u32>,
    /// Triangle indices per band.
    pub bins: Vec<Vec<u32>>,
}

impl TriList {
    /// Empties the list, keeping `bands` bins.
    pub fn reset(&mut self, bands: usize) {
        self.tris.clear();
        self.planes.clear();
        self.flat.clear();
        self.bins.resize_with(bands, Vec::new);
        for b in &mut self.bins {
            b.clear();
        }
    }

    /// Sets up one triangle. `front` is its facing (already decided by the caller,
    /// which also culled); `pc` gives point-coord values (s, t) per vertex for points.
    /// Returns whether a triangle was added (zero-area and empty ones are dropped).
    pub fn add(
        &mut self,
        p: &SetupParams,
        use_offset: bool,
        v: [WinVert<'_>; 3],
        flat: &[u32],
        front: bool,
        pc: Option<[[f32; 2]; 3]>,
        prim_id: u32,
    ) -> bool {
        let fx = |f: f32| (f * FIXED_ONE as f32).round() as i64;
        let mut xs = [fx(v[0].x), fx(v[1].x), fx(v[2].x)];
        let mut ys = [fx(v[0].y), fx(v[1].y), fx(v[2].y)];
        let area = (xs[1] - xs[0]) * (ys[2] - ys[0]) - (xs[2] - xs[0]) * (ys[1] - ys[0]);
        if area == 0 {
            return false;
        }
        let mut order = [0usize, 1, 2];
        if area < 0 {
            order = [0, 2, 1];
            xs = [xs[0], xs[2], xs[1]];
            ys = [ys[0], ys[2], ys[1]];
        }
        // Bounding box in pixels whose centers may be inside.
        let minx = xs.iter().copied().min().unwrap_or(0);
        let maxx = xs.iter().copied().max().unwrap_or(0);
        let miny = ys.iter().copied().min().unwrap_or(0);
        let maxy = ys.iter().copied().max().unwrap_or(0);
        let half = FIXED_ONE / 2;
        // Pixel px center = px*ONE + half; inside range needs center in [min, max].
        let px0 = ((minx - half) as f64 / FIXED_ONE as f64).ceil() as i64;
        let px1 = ((maxx - half) as f64 / FIXED_ONE as f64).floor() as i64 + 1;
        let py0 = ((miny - half) as f64 / FIXED_ONE as f64).ceil() as i64;
        let py1 = ((maxy - half) as f64 / FIXED_ONE as f64).floor() as i64 + 1;
        let bbox = [
            px0.max(p.clip[0] as i64) as i32,
            py0.max(p.clip[1] as i64) as i32,
            px1.min(p.clip[2] as i64) as i32,
            py1.min(p.clip[3] as i64) as i32,
        ];
        if bbox[0] >= bbox[2] || bbox[1] >= bbox[3] {
            return false;
        }
        let mut edges = [Edge::default(); 3];
        for (i, e) in edges.iter_mut().enumerate() {
            let (ax, ay) = (xs[i], ys[i]);
            let (bx, by) = (xs[(i + 1) % 3], ys[(i + 1) % 3]);
            let (ex, ey) = (bx - ax, by - ay);
            // E(p) = ex * (p.y - ay) - ey * (p.x - ax), positive inside.
            let top_left = ey < 0 || (ey == 0 && ex > 0);
            let c = ex * (half - ay) - ey * (half - ax) - if top_left { 0 } else { 1 };
            *e = Edge {
                c,
                dx: -ey * FIXED_ONE,
                dy: ex * FIXED_ONE,
            };
        }
        // Interpolation planes (float, relative to vertex 0, using unsnapped positions).
        let vv = [v[order[0]], v[order[1]], v[order[2]]];
        let (x0, y0) = (vv[0].x, vv[0].y);
        let dx1 = vv[1].x - x0;
        let dy1 = vv[1].y - y0;
        let dx2 = vv[2].x - x0;
        let dy2 = vv[2].y - y0;
        let det = dx1 * dy2 - dx2 * dy1;
        let inv = if det != 0.0 { 1.0 / det } else { 0.0 };
        let planes_at = self.planes.len() as u32;
        let plane = |a0: f32, a1: f32, a2: f32, out: &mut Vec<f32>| {
            let d1 = a1 - a0;
            let d2 = a2 - a0;
            let dadx = (d1 * dy2 - d2 * dy1) * inv;
            let dady = (d2 * dx1 - d1 * dx2) * inv;
            let (dadx, dady) = if dadx.is_finite() && dady.is_finite() {
                (dadx, dady)
            } else {
                (0.0, 0.0)
            };
            out.extend_from_slice(&[a0, dadx, dady]);
            (dadx, dady)
        };
        let (dzdx, dzdy) = plane(vv[0].z, vv[1].z, vv[2].z, &mut self.planes);
        if let Some((scale, units, clamp)) = p.offset.filter(|_| use_offset) {
            let mut o = scale * dzdx.abs().max(dzdy.abs()) + units;
            if clamp > 0.0 {
                o = o.min(clamp);
            } else if clamp < 0.0 {
                o = o.max(clamp);
            }
            let z = planes_at as usize;
            if o.is_finite() {
                self.planes[z] += o;
            }
        }
        plane(vv[0].oow, vv[1].oow, vv[2].oow, &mut self.planes);
        for (k, mode) in p.modes.iter().enumerate() {
            let a = |j: usize| vv[j].attrs.get(k).copied().unwrap_or(0.0);
            match mode {
                AttrMode::Perspective => plane(
                    a(0) * vv[0].oow,
                    a(1) * vv[1].oow,
                    a(2) * vv[2].oow,
                    &mut self.planes,
                ),
                _ => plane(a(0), a(1), a(2), &mut self.planes),
            };
        }
        if let Some(pc) = pc {
            let pc = [pc[order[0]], pc[order[1]], pc[order[2]]];
            for c in 0..2 {
                plane(pc[0][c], pc[1][c], pc[2][c], &mut self.planes);
            }
        }
        let flat_at = self.flat.len() as u32;
        self.flat.extend_from_slice(flat);
        let idx = self.tris.len() as u32;
        self.tris.push(Tri {
            edges,
            bbox,
            x0,
            y0,
            planes: planes_at,
            flat: flat_at,
            front,
            point: pc.is_some(),
            prim_id,
        });
        let b0 = (bbox[1] as u32 / BAND_ROWS) as usize;
        let b1 = ((bbox[3] - 1) as u32 / BAND_ROWS) as usize;
        for b in b0..=b1.min(self.bins.len().saturating_sub(1)) {
            self.bins[b].push(idx);
        }
        true
    }
}
