//! Smoke test: a full-screen quad covers every pixel with the constant color,
//! which the fragment-invariant shader computes once per triangle and band.

mod common;

use common::Fixture;
use rgl_backend::driver::*;
use rgl_backend::exec::builtin;
use rgl_backend::format::Format;
use rgl_backend::Driver;

#[test]
fn full_screen_quad_fills_every_pixel() {
    for threads in [1, 2] {
        let (w, h) = (70u32, 130u32);
        let mut f = Fixture::new(w, h, Format::Rgba8Unorm, None, threads, 0);
        f.set_fs(builtin::constant_fs([1.0, 0.5, 0.0, 1.0]));
        let quad = [
            -1., -1., 0., 1., 1., -1., 0., 1., 1., 1., 0., 1., -1., 1., 0., 1.,
        ];
        f.draw_clip(PrimMode::TriangleFan, &quad).unwrap();
        let rect = Rect {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        let px = f.d.read_surface(f.color, rect).unwrap();
        let bad = px.chunks(4).filter(|p| *p != [255, 128, 0, 255]).count();
        assert_eq!(bad, 0, "threads {threads}");
        let c = f.d.counters();
        assert_eq!(c.fragments_written, (w * h) as u64);
        // The constant shader is fragment-invariant: it runs once per triangle
        // and raster band, not per pixel.
        assert!(
            c.fs_invocations > 0 && c.fs_invocations <= 2 * h as u64,
            "threads {threads}: {} invocations",
            c.fs_invocations
        );
    }
}
