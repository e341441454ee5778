//! Clipping, culling and primitive setup: points, lines and triangles in clip space
//! become window-space triangles in a [`TriList`].
//!
//! Clip planes: near and far (unless depth clamp), `w > ε`, a guard band of
//! ±[`GUARD_BAND`] pixels in x and y (so the fixed-point rasterizer never overflows —
//! anything inside the guard band is left to the scissor/bounding box), and up to 8 user
//! clip distances. Polygons are clipped with Sutherland–Hodgman over a compact vertex
//! (position, clip distances, FS inputs); flat inputs always come from the original
//! provoking vertex. Lines are clipped parametrically and drawn as parallelograms
//! extended by half the width along the minor axis (width 1 gives one pixel per
//! major-axis step, start pixel included, end excluded — the diamond-exit result for
//! pixel-centered endpoints); points are squares of the point size.

use super::setup::{SetupParams, TriList, WinVert, GUARD_BAND};
use crate::driver::{CullFace, RasterizerState, Viewport};

/// Where the rasterizer finds things in a post-VS vertex (word indices).
#[derive(Clone, Debug, Default)]
pub struct OutLayout {
    /// Words per vertex.
    pub stride: usize,
    /// Position (4 words).
    pub pos: usize,
    /// Point size word.
    pub psize: Option<usize>,
    /// The `gl_PrimitiveID` word a geometry shader wrote.
    pub gs_primitive_id: Option<usize>,
    /// Enabled user clip distance words.
    pub clip: Vec<usize>,
    /// Per FS input component: the VS output word feeding it (None reads 0).
    pub link: Vec<Option<usize>>,
}

/// Per-draw clipping and setup context.
pub struct Clipper<'a> {
    /// Vertex layout.
    pub layout: &'a OutLayout,
    /// Setup parameters.
    pub setup: &'a SetupParams,
    /// Rasterizer state.
    pub rast: &'a RasterizerState,
    /// Viewport.
    pub vp: Viewport,
    planes: Vec<[f32; 5]>,
    cstride: usize,
    poly: Vec<f32>,
    tmp: Vec<f32>,
    flat: Vec<u32>,
    /// Primitives removed by clipping or culling.
    pub culled: u64,
}

const W_EPS: f32 = 1e-30;

impl<'a> Clipper<'a> {
    /// A clipper for one draw.
    pub fn new(
        layout: &'a OutLayout,
        setup: &'a SetupParams,
        rast: &'a RasterizerState,
        vp: Viewport,
    ) -> Clipper<'a> {
        let hw = vp.width * 0.5;
        let hh = vp.height * 0.5;
        let cx = vp.x + hw;
        let cy = vp.y + hh;
        let mut planes = vec![
            [0.0, 0.0, 0.0, 1.0, -W_EPS],
            [-1.0, 0.0, 0.0, (GUARD_BAND - cx) / hw, 0.0],
            [1.0, 0.0, 0.0, (GUARD_BAND + cx) / hw, 0.0],
            [0.0, -1.0, 0.0, (GUARD_BAND - cy) / hh, 0.0],
            [0.0, 1.0, 0.0, (GUARD_BAND + cy) / hh, 0.0],
        ];
        if !rast.depth_clamp {
            planes.push([0.0, 0.0, 1.0, 1.0, 0.0]);
            planes.push([0.0, 0.0, -1.0, 1.0, 0.0]);
        }
        Clipper {
            layout,
            setup,
            rast,
            vp,
            planes,
            cstride: 4 + layout.clip.len() + layout.link.len(),
            poly: Vec::new(),
            tmp: Vec::new(),
            flat: Vec::new(),
            culled: 0,
        }
    }

    fn plane_count(&self) -> usize {
        self.planes.len() + self.layout.clip.len()
    }

    /// Distance of compact vertex `v` to plane `j` (≥ 0 inside).
    #[inline]
    fn dist(&self, v: &[f32], j: usize) -> f32 {
        if j < self.planes.len() {
            let p = &self.planes[j];
            p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3] + p[4]
        } else {
            v[4 + j - self.planes.len()]
        }
    }

    /// Appends the compact form of post-VS vertex `vtx` to `out`.
    fn compact(&self, vtx: &[u32], out: &mut Vec<f32>) {
        let w = |i: usize| f32::from_bits(vtx.get(i).copied().unwrap_or(0));
        let l = self.layout;
        for c in 0..4 {
            out.push(w(l.pos + c));
        }
        for &c in &l.clip {
            out.push(w(c));
        }
        for k in &l.link {
            out.push(k.map(w).unwrap_or(0.0));
        }
    }

    fn outcode(&self, v: &[f32]) -> u32 {
        let mut m = 0;
        for j in 0..self.plane_count() {
            // `!(d >= 0)` also catches NaN.
            if !(self.dist(v, j) >= 0.0) {
                m |= 1 << j;
            }
        }
        m
    }

    fn flat_of(&mut self, vtx: &[u32]) {
        self.flat.clear();
        for k in &self.layout.link {
            self.flat
                .push(k.and_then(|i| vtx.get(i).copied()).unwrap_or(0));
        }
    }

    /// Window-space position of a compact vertex.
    #[inline]
    fn window(&self, v: &[f32]) -> (f32, f32, f32, f32) {
        let oow = 1.0 / v[3];
        let vp = &self.vp;
        (
            vp.x + (v[0] * oow + 1.0) * vp.width * 0.5,
            vp.y + (v[1] * oow + 1.0) * vp.height * 0.5,
            vp.near + (v[2] * oow + 1.0) * 0.5 * (vp.far - vp.near),
            oow,
        )
    }

    /// Clips, culls and sets up one triangle (vertex data slices of the post-VS
    /// buffer, `prov` the provoking one).
    pub fn triangle(&mut self, out: &mut TriList, v: [&[u32]; 3], prov: &[u32], prim_id: u32) {
        let s = self.cstride;
        let mut poly = std::mem::take(&mut self.poly);
        poly.clear();
        for vtx in v {
            self.compact(vtx, &mut poly);
        }
        let codes = [
            self.outcode(&poly[0..s]),
            self.outcode(&poly[s..2 * s]),
            self.outcode(&poly[2 * s..3 * s]),
        ];
        if codes[0] & codes[1] & codes[2] != 0 {
            self.culled += 1;
            self.poly = poly;
            return;
        }
        let any = codes[0] | codes[1] | codes[2];
        if any != 0 {
            let mut tmp = std::mem::take(&mut self.tmp);
            for j in 0..self.plane_count() {
                if any & (1 << j) == 0 {
                    continue;
                }
                tmp.clear();
                let n = poly.len() / s;
                for i in 0..n {
                    let a = &poly[i * s..(i + 1) * s];
                    let b = &poly[((i + 1) % n) * s..((i + 1) % n + 1) * s];
                    let da = self.dist(a, j);
                    let db = self.dist(b, j);
                    if da >= 0.0 {
                        tmp.extend_from_slice(a);
                    }
                    if (da >= 0.0) != (db >= 0.0) && !da.is_nan() && !db.is_nan() {
                        let t = da / (da - db);
                        for k in 0..s {
                            tmp.push(a[k] + (b[k] - a[k]) * t);
                        }
                    }
                }
                std::mem::swap(&mut poly, &mut tmp);
                if poly.len() < 3 * s {
                    break;
                }
            }
            self.tmp = tmp;
        }
        let n = poly.len() / s;
        if n < 3 {
            self.culled += 1;
            self.poly = poly;
            return;
        }
        // Window positions and signed area (GL window coordinates, y up).
        let mut win = Vec::with_capacity(n);
        for i in 0..n {
            win.push(self.window(&poly[i * s..(i + 1) * s]));
        }
        let mut area = 0.0f64;
        for i in 0..n {
            let (x0, y0, _, _) = win[i];
            let (x1, y1, _, _) = win[(i + 1) % n];
            area += x0 as f64 * y1 as f64 - x1 as f64 * y0 as f64;
        }
        let ccw = area > 0.0;
        let front = ccw == self.rast.front_ccw;
        let culled = match self.rast.cull {
            CullFace::None => false,
            CullFace::Front => front,
            CullFace::Back => !front,
            CullFace::FrontAndBack => true,
        };
        if culled || area == 0.0 || !area.is_finite() {
            self.culled += 1;
            self.poly = poly;
            return;
        }
        self.flat_of(prov);
        let a0 = 4 + self.layout.clip.len();
        let mk = |i: usize| WinVert {
            x: win[i].0,
            y: win[i].1,
            z: win[i].2,
            oow: win[i].3,
            attrs: &poly[i * s + a0..(i + 1) * s],
        };
        let offset = self.rast.offset_fill;
        for i in 1..n - 1 {
            out.add(
                self.setup,
                offset,
                [mk(0), mk(i), mk(i + 1)],
                &self.flat,
                front,
                None,
                prim_id,
            );
        }
        self.poly = poly;
    }

    /// Clips and sets up one line as a parallelogram.
    pub fn line(&mut self, out: &mut TriList, v: [&[u32]; 2], prov: &[u32], prim_id: u32) {
        let s = self.cstride;
        let mut poly = std::mem::take(&mut self.poly);
        poly.clear();
        self.compact(v[0], &mut poly);
        self.compact(v[1], &mut poly);
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for j in 0..self.plane_count() {
            let da = self.dist(&poly[0..s], j);
            let db = self.dist(&poly[s..2 * s], j);
            if !(da >= 0.0) && !(db >= 0.0) || da.is_nan() || db.is_nan() {
                t0 = 1.0;
                t1 = 0.0;
                break;
            }
            if da < 0.0 {
                t0 = t0.max(da / (da - db));
            } else if db < 0.0 {
                t1 = t1.min(da / (da - db));
            }
        }
        if t0 >= t1 {
            self.culled += 1;
            self.poly = poly;
            return;
        }
        let mut ends = std::mem::take(&mut self.tmp);
        ends.clear();
        for t in [t0, t1] {
            for k in 0..s {
                ends.push(poly[k] + (poly[s + k] - poly[k]) * t);
            }
        }
        let (ax, ay, az, aw) = self.window(&ends[0..s]);
        let (bx, by, bz, bw) = self.window(&ends[s..2 * s]);
        self.flat_of(prov);
        let a0 = 4 + self.layout.clip.len();
        let half = (self.rast.line_width.max(1.0).round().min(255.0)) * 0.5;
        // The quad's side at lower x (x-major) or lower y (y-major) owns its pixel
        // centers; shifting lines that run toward lower coordinates by one sub-pixel
        // step makes the start pixel the included one in every direction.
        let step = 1.0 / super::setup::FIXED_ONE as f32;
        let (mut ax, mut ay, mut bx, mut by) = (ax, ay, bx, by);
        let (ox, oy) = if (bx - ax).abs() >= (by - ay).abs() {
            if bx < ax {
                ax += step;
                bx += step;
            }
            (0.0, half)
        } else {
            if by < ay {
                ay += step;
                by += step;
            }
            (half, 0.0)
        };
        let ea = &ends[a0..s];
        let eb = &ends[s + a0..2 * s];
        let q = [
            WinVert {
                x: ax - ox,
                y: ay - oy,
                z: az,
                oow: aw,
                attrs: ea,
            },
            WinVert {
                x: bx - ox,
                y: by - oy,
                z: bz,
                oow: bw,
                attrs: eb,
            },
            WinVert {
                x: bx + ox,
                y: by + oy,
                z: bz,
                oow: bw,
                attrs: eb,
            },
            WinVert {
                x: ax + ox,
                y: ay + oy,
                z: az,
                oow: aw,
                attrs: ea,
            },
        ];
        let offset = self.rast.offset_line;
        out.add(
            self.setup,
            offset,
            [q[0], q[1], q[2]],
            &self.flat,
            true,
            None,
            prim_id,
        );
        out.add(
            self.setup,
            offset,
            [q[0], q[2], q[3]],
            &self.flat,
            true,
            None,
            prim_id,
        );
        self.tmp = ends;
        self.poly = poly;
    }

    /// Culls and sets up one point as a square.
    pub fn point(&mut self, out: &mut TriList, v: &[u32], prim_id: u32) {
        let s = self.cstride;
        let mut poly = std::mem::take(&mut self.poly);
        poly.clear();
        self.compact(v, &mut poly);
        if self.outcode(&poly[0..s]) != 0 {
            self.culled += 1;
            self.poly = poly;
            return;
        }
        let size = if self.rast.program_point_size {
            self.layout
                .psize
                .and_then(|i| v.get(i))
                .map(|b| f32::from_bits(*b))
                .unwrap_or(1.0)
        } else {
            self.rast.point_size
        };
        let size = if size.is_nan() {
            1.0
        } else {
            size.clamp(1.0, 255.0)
        };
        let (x, y, z, w) = self.window(&poly[0..s]);
        self.flat_of(v);
        let h = size * 0.5;
        let attrs = &poly[4 + self.layout.clip.len()..s];
        let corner = |dx: f32, dy: f32| WinVert {
            x: x + dx,
            y: y + dy,
            z,
            oow: w,
            attrs,
        };
        let q = [corner(-h, -h), corner(h, -h), corner(h, h), corner(-h, h)];
        // gl_PointCoord: s grows right; t grows down (upper-left origin) or up.
        let (tb, tt) = if self.rast.point_coord_upper_left {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        let pc = [[0.0, tb], [1.0, tb], [1.0, tt], [0.0, tt]];
        let offset = self.rast.offset_point;
        let (a, b) = ([pc[0], pc[1], pc[2]], [pc[0], pc[2], pc[3]]);
        out.add(
            self.setup,
            offset,
            [q[0], q[1], q[2]],
            &self.flat,
            true,
            Some(a),
            prim_id,
        );
        out.add(
            self.setup,
            offset,
            [q[0], q[2], q[3]],
            &self.flat,
            true,
            Some(b),
            prim_id,
        );
        self.poly = poly;
    }
}
