//! Robustness sweep: pseudo-random draws with hostile data — huge, tiny, NaN and
//! infinite coordinates, w ≤ 0, random primitive modes, indices past the buffers,
//! restart indices, odd viewports and scissors, depth/stencil/blend state, points and
//! lines of any size, formats of every kind — must return Ok or an error, never panic,
//! and leave the driver usable.

mod common;

use common::*;
use rgl_backend::driver::*;
use rgl_backend::format::Format;
use rgl_backend::Driver;

struct Rng(u64);
impl Rng {
    fn u(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self) -> f32 {
        match self.u() % 12 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1e30,
            3 => 1e9,
            4 => 0.0,
            _ => ((self.u() >> 40) as f32 / (1u64 << 24) as f32) * 4.0 - 2.0,
        }
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.u() % v.len() as u64) as usize]
    }
}

#[test]
fn random_hostile_draws_never_panic() {
    use PrimMode::*;
    let modes = [
        Points,
        Lines,
        LineStrip,
        LineLoop,
        Triangles,
        TriangleStrip,
        TriangleFan,
        Quads,
        QuadStrip,
        Polygon,
        LinesAdjacency,
        TrianglesAdjacency,
        TriangleStripAdjacency,
        LineStripAdjacency,
    ];
    let formats = [
        Format::Rgba8Unorm,
        Format::R8Unorm,
        Format::Rg8Unorm,
        Format::Rgba16Float,
        Format::Rgba32Float,
    ];
    let zformats = [
        None,
        Some(Format::Z16Unorm),
        Some(Format::Z24UnormS8),
        Some(Format::Z32Float),
        Some(Format::Z32FloatS8),
    ];
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for iter in 0..150 {
        let w = 1 + (rng.u() % 70) as u32;
        let h = 1 + (rng.u() % 70) as u32;
        let threads = 1 + (rng.u() % 2) as usize;
        let mut f = Fixture::new(w, h, rng.pick(&formats), rng.pick(&zformats), threads, 1);
        f.clear([rng.f(), rng.f(), 0.5, 1.0]);
        let rast = RasterizerState {
            cull: rng.pick(&[CullFace::None, CullFace::Back, CullFace::Front]),
            point_size: rng.f(),
            line_width: rng.f(),
            offset_fill: rng.u().is_multiple_of(2),
            offset_scale: rng.f(),
            offset_units: rng.f(),
            scissor: rng.u().is_multiple_of(3),
            depth_clamp: rng.u().is_multiple_of(4),
            flatshade_first: rng.u().is_multiple_of(2),
            ..Default::default()
        };
        let r = f.d.create_rasterizer_state(&rast).unwrap();
        f.d.bind_rasterizer_state(r).unwrap();
        f.d.set_scissor(Rect {
            x: (rng.u() % 100) as i32 - 50,
            y: (rng.u() % 100) as i32 - 50,
            width: (rng.u() % 200) as u32,
            height: u32::MAX,
        })
        .unwrap();
        let _ = f.d.set_viewport(Viewport {
            x: rng.f(),
            y: rng.f(),
            width: rng.f().abs() * 50.0,
            height: rng.f().abs() * 50.0,
            near: rng.f(),
            far: rng.f(),
        });
        let dsa = DepthStencilState {
            depth_test: rng.u().is_multiple_of(2),
            depth_func: rng.pick(&[
                CompareFunc::Less,
                CompareFunc::Always,
                CompareFunc::GreaterEqual,
            ]),
            stencil_test: rng.u().is_multiple_of(2),
            front: StencilFace {
                zpass_op: StencilOp::IncrWrap,
                ..Default::default()
            },
            ..Default::default()
        };
        let ds = f.d.create_depth_stencil_state(&dsa).unwrap();
        f.d.bind_depth_stencil_state(ds).unwrap();
        let mut b = BlendState::default();
        b.rt[0].enabled = rng.u().is_multiple_of(2);
        b.rt[0].src_rgb = BlendFactor::SrcAlphaSaturate;
        b.rt[0].dst_rgb = BlendFactor::OneMinusSrc1Color;
        let bh = f.d.create_blend_state(&b).unwrap();
        f.d.bind_blend_state(bh).unwrap();
        if rng.u().is_multiple_of(2) {
            f.set_fs(rgl_backend::exec::builtin::varying_fs(rng.pick(&[
                rgl_backend::exec::Interp::Smooth,
                rgl_backend::exec::Interp::Flat,
                rgl_backend::exec::Interp::NoPerspective,
            ])));
        }
        let n = (rng.u() % 40) as usize;
        let verts: Vec<f32> = (0..n * 8).map(|_| rng.f()).collect();
        let mode = rng.pick(&modes);
        let _ = f.draw_clip(mode, &verts);
        // Indexed draw with random indices, restart and base vertex.
        let idx: Vec<u8> = (0..n * 2).map(|_| rng.u() as u8).collect();
        let ib = f.d.create_buffer(&idx).unwrap();
        let _ = f.d.draw(&DrawInfo {
            mode,
            start: (rng.u() % 8) as u32,
            count: (rng.u() % 64) as u32,
            instance_count: 1 + (rng.u() % 3) as u32,
            start_instance: rng.u() as u32,
            base_vertex: rng.u() as i32,
            index: Some(IndexBuffer {
                buffer: ib,
                offset: rng.u() % 4,
                size: rng.pick(&[IndexSize::U8, IndexSize::U16, IndexSize::U32]),
            }),
            restart_index: if rng.u().is_multiple_of(2) {
                Some(rng.u() as u8 as u32)
            } else {
                None
            },
        });
        // The driver stays usable: a plain clear and read work.
        f.clear([0.0; 4]);
        assert_eq!(f.read().len(), (w * h) as usize, "iteration {iter}");
    }
}
