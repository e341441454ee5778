//! Fill-rule tests: meshes of triangles sharing edges (jittered grids, vertices on pixel
//! centers, fans, huge guard-band triangles) are drawn with additive blending into a
//! float target; every pixel of the covered region must be counted exactly once.

mod common;

use common::*;
use rgl_backend::driver::*;
use rgl_backend::format::Format;
use rgl_backend::Driver;

/// Tiny deterministic generator (xorshift) so the meshes are reproducible.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn additive(f: &mut Fixture) {
    let mut b = BlendState::default();
    b.rt[0] = RtBlend {
        enabled: true,
        src_rgb: BlendFactor::One,
        dst_rgb: BlendFactor::One,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::One,
        ..RtBlend::default()
    };
    let h = f.d.create_blend_state(&b).unwrap();
    f.d.bind_blend_state(h).unwrap();
}

/// Draws a (cols × rows) grid mesh over the whole framebuffer; inner vertices come
/// from `inner(ix, iy)`; each cell is split along a diagonal chosen by `flip`.
fn grid_mesh(
    f: &mut Fixture,
    cols: usize,
    rows: usize,
    inner: &mut dyn FnMut(usize, usize) -> (f32, f32),
    flip: &mut dyn FnMut() -> bool,
) {
    let (w, h) = (f.w as f32, f.h as f32);
    let mut pts = vec![vec![(0.0, 0.0); cols + 1]; rows + 1];
    for (iy, row) in pts.iter_mut().enumerate() {
        for (ix, p) in row.iter_mut().enumerate() {
            let edge_x = ix == 0 || ix == cols;
            let edge_y = iy == 0 || iy == rows;
            let base = (ix as f32 * w / cols as f32, iy as f32 * h / rows as f32);
            *p = if edge_x || edge_y {
                base
            } else {
                inner(ix, iy)
            };
        }
    }
    let mut tris = Vec::new();
    for iy in 0..rows {
        for ix in 0..cols {
            let (a, b, c, d) = (
                pts[iy][ix],
                pts[iy][ix + 1],
                pts[iy + 1][ix + 1],
                pts[iy + 1][ix],
            );
            if flip() {
                tris.extend_from_slice(&[a, b, c, a, c, d]);
            } else {
                tris.extend_from_slice(&[a, b, d, b, c, d]);
            }
        }
    }
    f.draw_win(PrimMode::Triangles, &tris).unwrap();
}

fn assert_once(f: &mut Fixture, what: &str) {
    let px = f.read();
    let w = f.w;
    for (i, p) in px.iter().enumerate() {
        assert_eq!(
            p[0],
            1.0,
            "{what}: pixel ({}, {}) covered {} times",
            i as u32 % w,
            i as u32 / w,
            p[0]
        );
    }
}

#[test]
fn jittered_grids_cover_every_pixel_once() {
    for (seed, threads) in [(1u64, 1usize), (2, 2), (3, 1), (4, 2), (5, 1)] {
        let mut f = Fixture::new(96, 80, Format::Rgba32Float, None, threads, 0);
        f.clear([0.0; 4]);
        additive(&mut f);
        let mut rng = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15));
        let mut rng2 = Rng(seed * 31 + 7);
        let (cw, ch) = (96.0 / 7.0, 80.0 / 6.0);
        grid_mesh(
            &mut f,
            7,
            6,
            &mut |ix, iy| {
                (
                    ix as f32 * cw + (rng.next() - 0.5) * cw * 0.4,
                    iy as f32 * ch + (rng.next() - 0.5) * ch * 0.4,
                )
            },
            &mut || rng2.next() > 0.5,
        );
        assert_once(&mut f, &format!("seed {seed}"));
    }
}

#[test]
fn vertices_on_pixel_centers_cover_every_pixel_once() {
    // Inner vertices snapped to pixel centers and to pixel corners: edges pass exactly
    // through many centers, so every tie is decided by the rule.
    for (k, threads) in [(0, 1usize), (1, 2)] {
        let mut f = Fixture::new(64, 64, Format::Rgba32Float, None, threads, 0);
        f.clear([0.0; 4]);
        additive(&mut f);
        let mut rng = Rng(99 + k);
        let mut flip = Rng(5 + k);
        grid_mesh(
            &mut f,
            8,
            8,
            &mut |ix, iy| {
                let jx = (rng.next() * 4.0).floor() - 2.0;
                let jy = (rng.next() * 4.0).floor() - 2.0;
                let half = if k == 0 { 0.5 } else { 0.0 };
                (ix as f32 * 8.0 + jx + half, iy as f32 * 8.0 + jy + half)
            },
            &mut || flip.next() > 0.5,
        );
        assert_once(&mut f, &format!("case {k}"));
    }
}

#[test]
fn fan_and_strip_cover_every_pixel_once() {
    let mut f = Fixture::new(40, 40, Format::Rgba32Float, None, 1, 0);
    f.clear([0.0; 4]);
    additive(&mut f);
    // A fan around an off-center point with rim vertices on the framebuffer border.
    let c = (17.3, 22.5);
    let rim = [
        (0.0, 0.0),
        (13.5, 0.0),
        (40.0, 0.0),
        (40.0, 20.5),
        (40.0, 40.0),
        (7.25, 40.0),
        (0.0, 40.0),
        (0.0, 21.0),
        (0.0, 0.0),
    ];
    let mut fan = vec![c];
    fan.extend_from_slice(&rim);
    f.draw_win(PrimMode::TriangleFan, &fan).unwrap();
    assert_once(&mut f, "fan");
    // A strip of two triangles per row, zig-zagging.
    f.clear([0.0; 4]);
    let mut strip = Vec::new();
    for i in 0..=8 {
        let x = i as f32 * 5.0;
        strip.push((x, 0.0));
        strip.push((x, 40.0));
    }
    f.draw_win(PrimMode::TriangleStrip, &strip).unwrap();
    assert_once(&mut f, "strip");
}

#[test]
fn guard_band_triangles_cover_once() {
    // Two huge triangles whose vertices lie far outside the framebuffer (beyond the
    // guard band, so they are clipped) sharing a diagonal through the framebuffer.
    for threads in [1, 2] {
        let mut f = Fixture::new(50, 30, Format::Rgba32Float, None, threads, 0);
        f.clear([0.0; 4]);
        additive(&mut f);
        let big = 1.0e6;
        let tris = [
            (-big, -big * 0.7),
            (big, -big * 0.7 + 3.0),
            (-big + 5.0, big),
            (big, -big * 0.7 + 3.0),
            (big, big),
            (-big + 5.0, big),
        ];
        f.draw_win(PrimMode::Triangles, &tris).unwrap();
        assert_once(&mut f, "guard band");
    }
}
