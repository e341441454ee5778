//! Pipeline behaviour: depth and stencil tests per format, interpolation modes against
//! analytic values, near-plane and user-distance clipping, culling and front face,
//! scissor, instancing/divisors/strides in vertex fetch, and bad input (out-of-range
//! indices read zeros; oversized or invalid requests give errors, never panics).

mod common;

use std::sync::Arc;

use common::*;
use rgl_backend::driver::*;
use rgl_backend::exec::{
    builtin, sysval, ClosureShader, Interp, IoDecl, Reg, ShaderExec, ShaderInfo, LANES,
};
use rgl_backend::format::{Format, VertexFormat, VertexType};
use rgl_backend::{Driver, Error};
use rgl_nir::ir::names::{
    FRAG_RESULT_COLOR, VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_POS, VARYING_SLOT_VAR0,
};

fn full(f: &Fixture) -> Vec<(f32, f32)> {
    let (w, h) = (f.w as f32, f.h as f32);
    vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
}

fn quad_at_depth(f: &mut Fixture, x0: f32, x1: f32, z: f32) {
    let (h, w) = (f.h as f32, f.w as f32);
    let mut v = Vec::new();
    for (x, y) in [(x0, 0.0), (x1, 0.0), (x1, h), (x0, h)] {
        v.extend_from_slice(&[x / w * 2.0 - 1.0, y / h * 2.0 - 1.0, z, 1.0]);
    }
    f.draw_clip(PrimMode::TriangleFan, &v).unwrap();
}

fn dsa(f: &mut Fixture, s: DepthStencilState) {
    let h = f.d.create_depth_stencil_state(&s).unwrap();
    f.d.bind_depth_stencil_state(h).unwrap();
}

#[test]
fn depth_test_every_format_and_func() {
    let funcs = [
        (CompareFunc::Never, [false, false, false]),
        (CompareFunc::Less, [true, false, false]),
        (CompareFunc::Equal, [false, true, false]),
        (CompareFunc::LessEqual, [true, true, false]),
        (CompareFunc::Greater, [false, false, true]),
        (CompareFunc::NotEqual, [true, false, true]),
        (CompareFunc::GreaterEqual, [false, true, true]),
        (CompareFunc::Always, [true, true, true]),
    ];
    for fmt in [
        Format::Z16Unorm,
        Format::Z24UnormX8,
        Format::Z24UnormS8,
        Format::Z32Float,
        Format::Z32FloatS8,
    ] {
        for (func, want) in funcs {
            for threads in [1, 2] {
                let mut f = Fixture::new(12, 4, Format::Rgba8Unorm, Some(fmt), threads, 0);
                f.clear([0.0; 4]);
                // First pass writes depth 0.5 (ndc 0) everywhere, color black.
                dsa(
                    &mut f,
                    DepthStencilState {
                        depth_test: true,
                        depth_func: CompareFunc::Always,
                        ..Default::default()
                    },
                );
                f.set_fs(builtin::constant_fs([0.0, 0.0, 0.0, 1.0]));
                quad_at_depth(&mut f, 0.0, 12.0, 0.0);
                // Second pass: nearer / equal / farther thirds in white.
                dsa(
                    &mut f,
                    DepthStencilState {
                        depth_test: true,
                        depth_func: func,
                        ..Default::default()
                    },
                );
                f.set_fs(builtin::constant_fs([1.0; 4]));
                quad_at_depth(&mut f, 0.0, 4.0, -0.5);
                quad_at_depth(&mut f, 4.0, 8.0, 0.0);
                quad_at_depth(&mut f, 8.0, 12.0, 0.5);
                let px = f.read();
                for (third, w) in want.iter().enumerate() {
                    let p = px[third * 4 + 1];
                    assert_eq!(p[0] > 0.5, *w, "{fmt:?} {func:?} third {third}");
                }
                // Depth writes: the stored value of the nearer third follows the test.
                let raw =
                    f.d.read_surface(
                        f.zs.unwrap(),
                        Rect {
                            x: 1,
                            y: 1,
                            width: 1,
                            height: 1,
                        },
                    )
                    .unwrap();
                let z = fmt.decode_depth(&raw);
                let expect = if want[0] { 0.25 } else { 0.5 };
                assert!((z - expect).abs() < 1e-4, "{fmt:?} {func:?}: stored {z}");
            }
        }
    }
}

#[test]
fn depth_write_mask_and_clear() {
    let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, Some(Format::Z24UnormS8), 1, 0);
    f.clear([0.0; 4]);
    dsa(
        &mut f,
        DepthStencilState {
            depth_test: true,
            depth_write: false,
            depth_func: CompareFunc::Less,
            ..Default::default()
        },
    );
    quad_at_depth(&mut f, 0.0, 8.0, 0.0);
    let raw =
        f.d.read_surface(
            f.zs.unwrap(),
            Rect {
                x: 3,
                y: 3,
                width: 1,
                height: 1,
            },
        )
        .unwrap();
    assert_eq!(Format::Z24UnormS8.decode_depth(&raw), 1.0);
    assert!(f.read()[27][0] > 0.5);
}

fn stencil_value(f: &mut Fixture, x: i32, y: i32) -> u8 {
    let fmt = Format::Z24UnormS8;
    let raw =
        f.d.read_surface(
            f.zs.unwrap(),
            Rect {
                x,
                y,
                width: 1,
                height: 1,
            },
        )
        .unwrap();
    fmt.decode_stencil(&raw)
}

#[test]
fn stencil_ops_and_two_sided() {
    let ops = [
        (StencilOp::Keep, 5),
        (StencilOp::Zero, 0),
        (StencilOp::Replace, 9),
        (StencilOp::Incr, 6),
        (StencilOp::Decr, 4),
        (StencilOp::Invert, !5u8),
        (StencilOp::IncrWrap, 6),
        (StencilOp::DecrWrap, 4),
    ];
    for (op, want) in ops {
        let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, Some(Format::Z24UnormS8), 1, 0);
        f.d.clear(&ClearRequest {
            color: None,
            color_masks: [0; 8],
            depth: Some(1.0),
            stencil: Some((5, 0xff)),
            scissor: None,
        })
        .unwrap();
        let face = StencilFace {
            func: CompareFunc::Always,
            reference: 9,
            zpass_op: op,
            ..Default::default()
        };
        dsa(
            &mut f,
            DepthStencilState {
                stencil_test: true,
                front: face,
                back: face,
                ..Default::default()
            },
        );
        quad_at_depth(&mut f, 0.0, 8.0, 0.0);
        assert_eq!(stencil_value(&mut f, 2, 2), want, "{op:?}");
    }
    // Saturation and wrap at the ends of the range, write mask, fail/zfail ops.
    let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, Some(Format::Z24UnormS8), 1, 0);
    f.d.clear(&ClearRequest {
        color: None,
        color_masks: [0; 8],
        depth: Some(0.0),
        stencil: Some((255, 0xff)),
        scissor: None,
    })
    .unwrap();
    let face = StencilFace {
        func: CompareFunc::Always,
        zfail_op: StencilOp::IncrWrap,
        write_mask: 0x0f,
        ..Default::default()
    };
    dsa(
        &mut f,
        DepthStencilState {
            depth_test: true,
            stencil_test: true,
            front: face,
            back: face,
            ..Default::default()
        },
    );
    quad_at_depth(&mut f, 0.0, 8.0, 0.0);
    assert_eq!(
        stencil_value(&mut f, 1, 1),
        0xf0,
        "wrap 255 -> 0 under write mask 0x0f"
    );
    // Two-sided: a CCW (front) triangle increments, a CW (back) one decrements.
    let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, Some(Format::Z24UnormS8), 1, 0);
    f.d.clear(&ClearRequest {
        color: None,
        color_masks: [0; 8],
        depth: Some(1.0),
        stencil: Some((10, 0xff)),
        scissor: None,
    })
    .unwrap();
    let front = StencilFace {
        zpass_op: StencilOp::Incr,
        ..Default::default()
    };
    let back = StencilFace {
        zpass_op: StencilOp::Decr,
        ..Default::default()
    };
    dsa(
        &mut f,
        DepthStencilState {
            stencil_test: true,
            front,
            back,
            ..Default::default()
        },
    );
    f.draw_win(PrimMode::Triangles, &[(0.0, 0.0), (4.0, 0.0), (0.0, 8.0)])
        .unwrap(); // CCW
    f.draw_win(PrimMode::Triangles, &[(8.0, 0.0), (4.0, 0.0), (8.0, 8.0)])
        .unwrap(); // CW
    assert_eq!(stencil_value(&mut f, 0, 0), 11);
    assert_eq!(stencil_value(&mut f, 7, 0), 9);
    // Stencil func with masks gates color.
    let test = StencilFace {
        func: CompareFunc::Equal,
        reference: 0x1b,
        value_mask: 0x0f,
        ..Default::default()
    };
    dsa(
        &mut f,
        DepthStencilState {
            stencil_test: true,
            front: test,
            back: test,
            ..Default::default()
        },
    );
    f.clear_color_only([0.0; 4]);
    quad_at_depth(&mut f, 0.0, 8.0, 0.0);
    let px = f.read();
    assert!(px[0][0] > 0.5, "11 & 0xf == 0x1b & 0xf");
    assert!(px[7][0] < 0.5, "9 & 0xf != 0xb");
}

trait ClearColor {
    fn clear_color_only(&mut self, c: [f32; 4]);
}
impl ClearColor for Fixture {
    fn clear_color_only(&mut self, c: [f32; 4]) {
        self.d
            .clear(&ClearRequest {
                color: Some(c),
                color_masks: [0xf; 8],
                depth: None,
                stencil: None,
                scissor: None,
            })
            .unwrap();
    }
}

/// Screen-space barycentrics of a pixel center.
fn bary(p: [(f32, f32); 3], x: f32, y: f32) -> [f64; 3] {
    let (x, y) = (x as f64, y as f64);
    let q: Vec<(f64, f64)> = p.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
    let det = (q[1].0 - q[0].0) * (q[2].1 - q[0].1) - (q[2].0 - q[0].0) * (q[1].1 - q[0].1);
    let l1 = ((x - q[0].0) * (q[2].1 - q[0].1) - (q[2].0 - q[0].0) * (y - q[0].1)) / det;
    let l2 = ((q[1].0 - q[0].0) * (y - q[0].1) - (x - q[0].0) * (q[1].1 - q[0].1)) / det;
    [1.0 - l1 - l2, l1, l2]
}

#[test]
fn interpolation_modes_match_analytic_values() {
    // Clip-space vertices with different w; varying = (a, b, c, 1).
    let clip = [
        [-0.9f32, -0.8, 0.0, 1.0],
        [2.4, -1.6, 0.5, 3.0],
        [-0.5, 1.8, -0.5, 2.0],
    ];
    let vals = [
        [1.0f32, 0.0, 0.25, 1.0],
        [0.0, 1.0, 0.5, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    ];
    for interp in [Interp::Smooth, Interp::NoPerspective, Interp::Flat] {
        for threads in [1, 2] {
            let (w, h) = (64u32, 48u32);
            let mut f = Fixture::new(w, h, Format::Rgba32Float, None, threads, 1);
            f.set_fs(builtin::varying_fs(interp));
            f.clear([-1.0; 4]);
            let mut v = Vec::new();
            for i in 0..3 {
                v.extend_from_slice(&clip[i]);
                v.extend_from_slice(&vals[i]);
            }
            f.draw_clip(PrimMode::Triangles, &v).unwrap();
            let win: Vec<(f32, f32)> = clip
                .iter()
                .map(|c| {
                    (
                        (c[0] / c[3] + 1.0) * w as f32 / 2.0,
                        (c[1] / c[3] + 1.0) * h as f32 / 2.0,
                    )
                })
                .collect();
            let cov = analytic_tri(w, h, [win[0], win[1], win[2]]);
            let px = f.read();
            let mut checked = 0;
            for y in 0..h {
                for x in 0..w {
                    let i = (y * w + x) as usize;
                    assert_eq!(px[i][0] != -1.0, cov[i], "coverage at {x},{y}");
                    if !cov[i] {
                        continue;
                    }
                    let b = bary([win[0], win[1], win[2]], x as f32 + 0.5, y as f32 + 0.5);
                    for c in 0..4 {
                        let want = match interp {
                            Interp::Flat => vals[2][c] as f64,
                            Interp::NoPerspective => (0..3).map(|k| b[k] * vals[k][c] as f64).sum(),
                            _ => {
                                let num: f64 = (0..3)
                                    .map(|k| b[k] * vals[k][c] as f64 / clip[k][3] as f64)
                                    .sum();
                                let den: f64 = (0..3).map(|k| b[k] / clip[k][3] as f64).sum();
                                num / den
                            }
                        };
                        assert!(
                            (px[i][c] as f64 - want).abs() < 2e-4,
                            "{interp:?} at {x},{y} c{c}: {} vs {want}",
                            px[i][c]
                        );
                    }
                    checked += 1;
                }
            }
            assert!(checked > 300);
        }
    }
}

#[test]
fn near_plane_clipping_matches_depth_of_projected_triangle() {
    let (w, h) = (40u32, 40u32);
    let mut f = Fixture::new(w, h, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.0; 4]);
    // Vertex 2 is in front of the near plane (z < -w).
    let clip = [
        [-0.8f32, -0.8, 0.5, 1.0],
        [0.9, -0.7, 0.2, 1.0],
        [0.0, 0.9, -3.0, 1.5],
    ];
    let v: Vec<f32> = clip.iter().flatten().copied().collect();
    f.draw_clip(PrimMode::Triangles, &v).unwrap();
    let win: Vec<(f32, f32)> = clip
        .iter()
        .map(|c| ((c[0] / c[3] + 1.0) * 20.0, (c[1] / c[3] + 1.0) * 20.0))
        .collect();
    let zn: Vec<f64> = clip.iter().map(|c| (c[2] / c[3]) as f64).collect();
    let cov = analytic_tri(w, h, [win[0], win[1], win[2]]);
    let px = f.read();
    let mut inside = 0;
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            let b = bary([win[0], win[1], win[2]], x as f32 + 0.5, y as f32 + 0.5);
            let z: f64 = (0..3).map(|k| b[k] * zn[k]).sum();
            if (z + 1.0).abs() < 0.02 || b.iter().any(|v| v.abs() < 1e-3) {
                continue; // too close to the plane or an edge to call
            }
            let want = cov[i] && z >= -1.0;
            assert_eq!(px[i][0] > 0.5, want, "pixel {x},{y} z {z}");
            inside += want as u32;
        }
    }
    assert!(inside > 100);
}

#[test]
fn user_clip_distance_and_clipped_vertex_attributes() {
    let (w, h) = (32u32, 32u32);
    let mut f = Fixture::new(w, h, Format::Rgba32Float, None, 2, 1);
    // VS: position passthrough, varying passthrough, clip distance = x + 0.25.
    let info = ShaderInfo {
        stage: ShaderStage::Vertex,
        inputs: vec![IoDecl::vec4(0), IoDecl::vec4(1)],
        outputs: vec![
            IoDecl::vec4(VARYING_SLOT_POS),
            IoDecl::vec4(VARYING_SLOT_VAR0),
            IoDecl::vec4(VARYING_SLOT_CLIP_DIST0),
        ],
        sysvals: 0,
        uses_discard: false,
        storage: Default::default(),
        gs: None,
    };
    f.set_vs(ClosureShader::new(info, |inv| {
        for c in 0..8 {
            inv.outputs[c] = inv.inputs[c];
        }
        for l in 0..LANES {
            let x = inv.inputs[0].f(l);
            inv.outputs[8].set_f(l, x + 0.25);
        }
        Ok(())
    }));
    f.set_fs(builtin::varying_fs(Interp::NoPerspective));
    let r =
        f.d.create_rasterizer_state(&RasterizerState {
            clip_plane_enable: 1,
            ..Default::default()
        })
        .unwrap();
    f.d.bind_rasterizer_state(r).unwrap();
    f.clear([-1.0; 4]);
    // Full-screen quad with varying.x = ndc x.
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, x, y, 0.0, 1.0]);
    }
    f.draw_clip(PrimMode::TriangleFan, &v).unwrap();
    let px = f.read();
    for y in 0..h {
        for x in 0..w {
            let ndc = (x as f32 + 0.5) / 16.0 - 1.0;
            let p = px[(y * w + x) as usize];
            if ndc > -0.25 + 0.01 {
                assert!((p[0] - ndc).abs() < 1e-4, "{x},{y}: {p:?}");
            } else if ndc < -0.25 - 0.01 {
                assert_eq!(p[0], -1.0, "{x},{y} should be clipped");
            }
        }
    }
}

#[test]
fn culling_front_face_and_scissor() {
    let ccw = [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)];
    let cw = [(8.0, 8.0), (8.0, 0.0), (0.0, 8.0)];
    for (cull, front_ccw, want_ccw, want_cw) in [
        (CullFace::None, true, true, true),
        (CullFace::Back, true, true, false),
        (CullFace::Front, true, false, true),
        (CullFace::Back, false, false, true),
        (CullFace::FrontAndBack, true, false, false),
    ] {
        let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, None, 1, 0);
        f.clear([0.0; 4]);
        let r =
            f.d.create_rasterizer_state(&RasterizerState {
                cull,
                front_ccw,
                ..Default::default()
            })
            .unwrap();
        f.d.bind_rasterizer_state(r).unwrap();
        f.draw_win(PrimMode::Triangles, &ccw).unwrap();
        f.draw_win(PrimMode::Triangles, &cw).unwrap();
        let px = f.read();
        assert_eq!(px[0][0] > 0.5, want_ccw, "{cull:?} ccw");
        assert_eq!(px[63][0] > 0.5, want_cw, "{cull:?} cw");
    }
    // Scissor restricts drawing and clearing.
    let mut f = Fixture::new(16, 16, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.0; 4]);
    let r =
        f.d.create_rasterizer_state(&RasterizerState {
            scissor: true,
            ..Default::default()
        })
        .unwrap();
    f.d.bind_rasterizer_state(r).unwrap();
    f.d.set_scissor(Rect {
        x: 3,
        y: 5,
        width: 7,
        height: 4,
    })
    .unwrap();
    let q = full(&f);
    f.draw_win(PrimMode::TriangleFan, &q).unwrap();
    let px = f.read();
    for y in 0..16 {
        for x in 0..16 {
            let inside = (3..10).contains(&x) && (5..9).contains(&y);
            assert_eq!(px[y * 16 + x][0] > 0.5, inside, "{x},{y}");
        }
    }
}

/// FS writing `gl_FragCoord` and a per-instance varying (flat) for fetch tests.
fn flat_fs() -> Arc<dyn ShaderExec> {
    builtin::varying_fs(Interp::Flat)
}

#[test]
fn vertex_fetch_divisors_strides_and_out_of_range() {
    let mut f = Fixture::new(8, 1, Format::Rgba32Float, None, 1, 1);
    f.set_fs(flat_fs());
    f.clear([-1.0; 4]);
    // Buffer 0: positions of 8 one-pixel points (stride 16). Buffer 1: u8 normalized
    // colors per instance (divisor 1, stride 4), only 2 entries.
    let mut pos = Vec::new();
    for i in 0..8 {
        for v in [(i as f32 + 0.5) / 4.0 - 1.0, 0.0, 0.0, 1.0] {
            pos.extend_from_slice(&f32::to_le_bytes(v));
        }
    }
    let pb = f.d.create_buffer(&pos).unwrap();
    let cb =
        f.d.create_buffer(&[255, 0, 51, 255, 0, 255, 102, 255])
            .unwrap();
    f.d.set_vertex_buffers(&[
        VertexBufferBinding {
            buffer: pb,
            offset: 0,
            stride: 16,
        },
        VertexBufferBinding {
            buffer: cb,
            offset: 0,
            stride: 4,
        },
    ])
    .unwrap();
    let fmt = VertexFormat {
        ty: VertexType::U8,
        size: 4,
        normalized: true,
        pure_integer: false,
        bgra: false,
    };
    let ve =
        f.d.create_vertex_elements(&[
            VertexSource::Array {
                buffer: 0,
                offset: 0,
                format: VertexFormat::float(4),
                divisor: 0,
            },
            VertexSource::Array {
                buffer: 1,
                offset: 0,
                format: fmt,
                divisor: 1,
            },
        ])
        .unwrap();
    f.d.bind_vertex_elements(ve).unwrap();
    // Instance i draws points 2i, 2i+1 via an index buffer; instance 2 reads past the
    // color buffer (zeros); base_vertex shifts the last instance's positions.
    let idx: Vec<u8> = [0u16, 1, 2, 3, 4, 5, 1000]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let ib = f.d.create_buffer(&idx).unwrap();
    for inst in 0..3u32 {
        f.d.draw(&DrawInfo {
            mode: PrimMode::Points,
            start: 2 * inst,
            count: 2,
            instance_count: 1,
            start_instance: inst,
            base_vertex: 0,
            index: Some(IndexBuffer {
                buffer: ib,
                offset: 0,
                size: IndexSize::U16,
            }),
            restart_index: None,
        })
        .unwrap();
    }
    let px = f.read();
    assert_eq!(px[0], [1.0, 0.0, 0.2, 1.0]);
    assert_eq!(px[1], [1.0, 0.0, 0.2, 1.0]);
    assert_eq!(px[2], [0.0, 1.0, 0.4, 1.0]);
    assert_eq!(
        px[4],
        [0.0, 0.0, 0.0, 0.0],
        "instance past the buffer reads zeros"
    );
    assert_eq!(px[6], [-1.0; 4]);
    // Index 1000 is past the position buffer: its position is (0,0,0,0) (w = 0 → clipped).
    f.d.draw(&DrawInfo {
        mode: PrimMode::Points,
        start: 6,
        count: 1,
        instance_count: 1,
        start_instance: 0,
        base_vertex: 0,
        index: Some(IndexBuffer {
            buffer: ib,
            offset: 0,
            size: IndexSize::U16,
        }),
        restart_index: None,
    })
    .unwrap();
    assert_eq!(f.read()[6], [-1.0; 4]);
}

#[test]
fn vertex_formats_decode() {
    use VertexType::*;
    let f = |ty, size, normalized, pure_integer| VertexFormat {
        ty,
        size,
        normalized,
        pure_integer,
        bgra: false,
    };
    let fl = |w: [u32; 4]| w.map(f32::from_bits);
    assert_eq!(
        fl(f(U8, 2, true, false).decode(&[255, 0])),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        fl(f(I8, 3, true, false).decode(&[127, 0x81, 0x80])),
        [1.0, -1.0, -1.0, 1.0]
    );
    assert_eq!(
        fl(f(I16, 1, false, false).decode(&(-300i16).to_le_bytes())),
        [-300.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        f(I16, 2, false, true).decode(&[0xff, 0xff, 7, 0]),
        [u32::MAX, 7, 0, 1]
    );
    assert_eq!(
        f(U32, 1, false, true).decode(&0xdead_beefu32.to_le_bytes()),
        [0xdead_beef, 0, 0, 1]
    );
    assert_eq!(
        fl(f(F16, 2, false, false).decode(&[0x00, 0x3c, 0x00, 0xc0])),
        [1.0, -2.0, 0.0, 1.0]
    );
    assert_eq!(
        fl(f(F64, 1, false, false).decode(&2.5f64.to_le_bytes())),
        [2.5, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        fl(f(Fixed, 1, false, false).decode(&(3i32 << 15).to_le_bytes())),
        [1.5, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        fl(f(U16, 4, true, false).decode(&[0xff, 0xff, 0, 0, 0, 0x80, 0xff, 0xff])),
        [1.0, 0.0, 32768.0 / 65535.0, 1.0]
    );
    // 2_10_10_10: x = 1023, y = 0, z = 512, w = 3.
    let word: u32 = 1023 | (512 << 20) | (3 << 30);
    assert_eq!(
        fl(f(U2_10_10_10Rev, 4, true, false).decode(&word.to_le_bytes())),
        [1.0, 0.0, 512.0 / 1023.0, 1.0]
    );
    let signed: u32 = 511 | (0x200 << 10) | (1 << 30);
    assert_eq!(
        fl(f(I2_10_10_10Rev, 4, true, false).decode(&signed.to_le_bytes())),
        [1.0, -1.0, 0.0, 1.0]
    );
    let bgra = VertexFormat {
        bgra: true,
        ..f(U8, 4, true, false)
    };
    assert_eq!(fl(bgra.decode(&[255, 0, 0, 255])), [0.0, 0.0, 1.0, 1.0]);
    // Short input reads zeros, never panics.
    assert_eq!(
        fl(f(F32, 4, false, false).decode(&[0, 0])),
        [0.0, 0.0, 0.0, 0.0]
    );
    assert!(f(F32, 5, false, false).validate().is_err());
    assert!(f(F32, 2, false, true).validate().is_err());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, None, 1, 0);
    // Index buffer range past the end.
    let ib = f.d.create_buffer(&[0, 1, 2]).unwrap();
    let draw = DrawInfo {
        mode: PrimMode::Triangles,
        start: 0,
        count: 6,
        instance_count: 1,
        start_instance: 0,
        base_vertex: 0,
        index: Some(IndexBuffer {
            buffer: ib,
            offset: u64::MAX - 1,
            size: IndexSize::U32,
        }),
        restart_index: None,
    };
    assert!(matches!(f.d.draw(&draw), Err(Error::InvalidArgument(_))));
    // Huge vertex counts.
    assert!(matches!(
        f.d.draw(&DrawInfo::arrays(PrimMode::Triangles, 0, u32::MAX)),
        Err(Error::TooLarge(_))
    ));
    // Huge start with a tiny buffer: every fetch is out of range, positions are 0.
    f.draw_win(PrimMode::Triangles, &[(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)])
        .unwrap();
    f.d.draw(&DrawInfo::arrays(PrimMode::Triangles, u32::MAX - 10, 6))
        .unwrap();
    // Huge textures, bad handles, bad boxes.
    let big = TextureDesc {
        target: TexTarget::D2,
        format: Format::Rgba32Float,
        width: 16384,
        height: 16384,
        depth: 1,
        levels: 1,
    };
    assert!(matches!(f.d.create_texture(&big), Err(Error::TooLarge(_))));
    assert!(f
        .d
        .texture_upload(TextureHandle(9999), 0, TexBox::default(), &[])
        .is_err());
    let t =
        f.d.create_texture(&TextureDesc {
            target: TexTarget::D2,
            format: Format::R8Unorm,
            width: 4,
            height: 4,
            depth: 1,
            levels: 3,
        })
        .unwrap();
    let b = TexBox {
        x: 3,
        y: 0,
        z: 0,
        width: 2,
        height: 1,
        depth: 1,
    };
    assert!(f.d.texture_upload(t, 0, b, &[0; 2]).is_err());
    assert!(f
        .d
        .texture_upload(
            t,
            3,
            TexBox {
                width: 1,
                height: 1,
                depth: 1,
                ..Default::default()
            },
            &[0]
        )
        .is_err());
    assert!(f
        .d
        .read_surface(
            f.color,
            Rect {
                x: -1,
                y: 0,
                width: 2,
                height: 2
            }
        )
        .is_err());
    assert!(f.d.buffer_subdata(ib, u64::MAX, &[1]).is_err());
    f.d.delete_buffer(ib).unwrap();
    assert!(f.d.delete_buffer(ib).is_err());
    // Draw without shaders.
    f.d.bind_shader(ShaderStage::Vertex, None).unwrap();
    assert!(f
        .d
        .draw(&DrawInfo::arrays(PrimMode::Triangles, 0, 3))
        .is_err());
    // NaN / infinite positions are dropped.
    let mut f = Fixture::new(8, 8, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.0; 4]);
    let v = [
        f32::NAN,
        0.0,
        0.0,
        1.0,
        f32::INFINITY,
        1.0,
        0.0,
        1.0,
        0.0,
        -1.0,
        0.0,
        0.0,
    ];
    f.draw_clip(PrimMode::Triangles, &v).unwrap();
    assert!(f.read().iter().all(|p| p[0] == 0.0));
}

#[test]
fn instruction_budget_stops_the_draw() {
    let mut f = Fixture::new(16, 16, Format::Rgba8Unorm, None, 2, 0);
    let info = ShaderInfo {
        stage: ShaderStage::Fragment,
        inputs: vec![],
        outputs: vec![IoDecl::vec4(FRAG_RESULT_COLOR)],
        sysvals: sysval::FRAG_COORD,
        uses_discard: false,
        storage: Default::default(),
        gs: None,
    };
    // A shader that "loops forever", charging the budget each iteration.
    f.set_fs(ClosureShader::new(info, |inv| loop {
        inv.budget.charge(1000)?;
        inv.outputs[0] = Reg::splat_f(1.0);
    }));
    f.d.set_instruction_budget(1_000_000);
    let q = full(&f);
    assert!(matches!(
        f.draw_win(PrimMode::TriangleFan, &q),
        Err(Error::BudgetExceeded(_))
    ));
    // The driver stays usable.
    f.set_fs(builtin::constant_fs([1.0; 4]));
    f.draw_win(PrimMode::TriangleFan, &q).unwrap();
}

#[test]
fn geometry_shader_expands_points_into_quads() {
    use rgl_backend::exec::{GsInfo, GsOutput};
    let mut f = Fixture::new(16, 16, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.0; 4]);
    // GS: each input point becomes a 4-vertex strip (a square of half-size 0.25 NDC),
    // then a second degenerate strip that must not draw.
    let info = ShaderInfo {
        stage: ShaderStage::Geometry,
        inputs: vec![IoDecl::vec4(VARYING_SLOT_POS)],
        outputs: vec![IoDecl::vec4(VARYING_SLOT_POS)],
        sysvals: 0,
        uses_discard: false,
        storage: Default::default(),
        gs: Some(GsInfo {
            vertices_in: 1,
            output: GsOutput::TriangleStrip,
            max_vertices: 5,
        }),
    };
    let gs = ClosureShader::new(info, |inv| {
        let m = inv.mask;
        let mut out = vec![Reg::default(); 4];
        for (dx, dy) in [
            (-0.25f32, -0.25f32),
            (0.25, -0.25),
            (-0.25, 0.25),
            (0.25, 0.25),
        ] {
            for l in 0..LANES {
                out[0].set_f(l, inv.inputs[0].f(l) + dx);
                out[1].set_f(l, inv.inputs[1].f(l) + dy);
                out[2].set_f(l, 0.0);
                out[3].set_f(l, 1.0);
            }
            inv.gs.as_mut().unwrap().emit_vertex(m, &out);
        }
        inv.gs.as_mut().unwrap().end_primitive(m);
        // Past max_vertices after one more: only one vertex of this strip survives.
        inv.gs.as_mut().unwrap().emit_vertex(m, &out);
        inv.gs.as_mut().unwrap().emit_vertex(m, &out);
        Ok(())
    });
    let h = f.d.create_exec_shader(gs).unwrap();
    f.d.bind_shader(ShaderStage::Geometry, Some(h)).unwrap();
    f.draw_clip(
        PrimMode::Points,
        &[-0.5, -0.5, 0.0, 1.0, 0.5, 0.5, 0.0, 1.0],
    )
    .unwrap();
    let text = f.coverage_text();
    let want = analytic_union(16, 16, &[(2.0, 2.0, 6.0, 6.0), (10.0, 10.0, 14.0, 14.0)]);
    assert_eq!(text, want);
    // A draw mode that does not match the GS input is an error.
    assert!(f.draw_clip(PrimMode::Triangles, &[0.0; 12]).is_err());
}

/// Axis-aligned squares (x0, y0, x1, y1) in window coordinates as a coverage grid.
fn analytic_union(w: u32, h: u32, rects: &[(f32, f32, f32, f32)]) -> String {
    let mut cov = vec![false; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            cov[(y * w + x) as usize] = rects
                .iter()
                .any(|r| cx >= r.0 && cx < r.2 && cy >= r.1 && cy < r.3);
        }
    }
    grid_text(w, h, &cov)
}

#[test]
fn render_to_array_layers_and_mip_levels() {
    // Two color targets on layers 1 and 2 of the same 2D array (second one works on a
    // copy that is written back), plus a 1D array layer as a third target at level 1.
    let mut d = rgl_backend::SoftDriver::new(2);
    let arr = d
        .create_texture(&TextureDesc {
            target: TexTarget::D2Array,
            format: Format::Rgba8Unorm,
            width: 8,
            height: 8,
            depth: 3,
            levels: 1,
        })
        .unwrap();
    let one = d
        .create_texture(&TextureDesc {
            target: TexTarget::D1Array,
            format: Format::Rgba8Unorm,
            width: 16,
            height: 4,
            depth: 1,
            levels: 2,
        })
        .unwrap();
    let s1 = Surface {
        texture: arr,
        level: 0,
        layer: 1,
    };
    let s2 = Surface {
        texture: arr,
        level: 0,
        layer: 2,
    };
    let s3 = Surface {
        texture: one,
        level: 1,
        layer: 3,
    };
    d.set_framebuffer(&FramebufferState {
        width: 8,
        height: 8,
        colors: vec![Some(s1), Some(s2)],
        zs: None,
    })
    .unwrap();
    d.set_viewport(Viewport {
        x: 0.0,
        y: 0.0,
        width: 8.0,
        height: 8.0,
        near: 0.0,
        far: 1.0,
    })
    .unwrap();
    let vs = d.create_exec_shader(builtin::passthrough_vs(0)).unwrap();
    let fs = d
        .create_exec_shader(builtin::constant_fs([1.0, 0.0, 1.0, 1.0]))
        .unwrap();
    d.bind_shader(ShaderStage::Vertex, Some(vs)).unwrap();
    d.bind_shader(ShaderStage::Fragment, Some(fs)).unwrap();
    let quad: [f32; 16] = [
        -1., -1., 0., 1., 1., -1., 0., 1., 1., 1., 0., 1., -1., 1., 0., 1.,
    ];
    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
    let vb = d.create_buffer(&bytes).unwrap();
    d.set_vertex_buffers(&[VertexBufferBinding {
        buffer: vb,
        offset: 0,
        stride: 16,
    }])
    .unwrap();
    let ve = d
        .create_vertex_elements(&[VertexSource::Array {
            buffer: 0,
            offset: 0,
            format: VertexFormat::float(4),
            divisor: 0,
        }])
        .unwrap();
    d.bind_vertex_elements(ve).unwrap();
    d.draw(&DrawInfo::arrays(PrimMode::TriangleFan, 0, 4))
        .unwrap();
    // The framebuffer is as large as its smallest surface: a 1D array layer is 1 row.
    d.set_framebuffer(&FramebufferState {
        width: 8,
        height: 8,
        colors: vec![Some(s3)],
        zs: None,
    })
    .unwrap();
    d.draw(&DrawInfo::arrays(PrimMode::TriangleFan, 0, 4))
        .unwrap();
    let magenta = [255u8, 0, 255, 255];
    for s in [s1, s2] {
        let px = d
            .read_surface(
                s,
                Rect {
                    x: 0,
                    y: 0,
                    width: 8,
                    height: 8,
                },
            )
            .unwrap();
        assert!(px.chunks(4).all(|p| p == magenta), "{s:?}");
    }
    let l0 = d
        .read_surface(
            Surface { layer: 0, ..s1 },
            Rect {
                x: 0,
                y: 0,
                width: 8,
                height: 8,
            },
        )
        .unwrap();
    assert!(l0.iter().all(|&b| b == 0), "layer 0 untouched");
    let row = d
        .read_surface(
            s3,
            Rect {
                x: 0,
                y: 0,
                width: 8,
                height: 1,
            },
        )
        .unwrap();
    assert!(
        row.chunks(4).all(|p| p == magenta),
        "1D array layer 3, level 1"
    );
    let other = d
        .read_surface(
            Surface { layer: 2, ..s3 },
            Rect {
                x: 0,
                y: 0,
                width: 8,
                height: 1,
            },
        )
        .unwrap();
    assert!(other.iter().all(|&b| b == 0));
}

#[test]
fn huge_instance_counts_are_refused() {
    let mut f = Fixture::new(4, 4, Format::Rgba8Unorm, None, 1, 0);
    let mut d = DrawInfo::arrays(PrimMode::Triangles, 0, 3);
    d.instance_count = u32::MAX;
    assert!(matches!(f.d.draw(&d), Err(Error::TooLarge(_))));
}

#[test]
fn clear_honours_scissor_masks_and_formats() {
    let mut f = Fixture::new(8, 6, Format::Rgba8Unorm, Some(Format::Z24UnormS8), 1, 0);
    f.clear([0.0, 0.0, 0.0, 0.0]);
    let mut masks = [0xf; 8];
    masks[0] = 0b1010; // G and A only
    f.d.clear(&ClearRequest {
        color: Some([1.0, 1.0, 1.0, 1.0]),
        color_masks: masks,
        depth: None,
        stencil: Some((0xab, 0x0f)),
        scissor: Some(Rect {
            x: 2,
            y: 1,
            width: 3,
            height: 10,
        }),
    })
    .unwrap();
    let px = f.read();
    for y in 0..6 {
        for x in 0..8 {
            let inside = (2..5).contains(&x) && y >= 1;
            let want = if inside {
                [0.0, 1.0, 0.0, 1.0]
            } else {
                [0.0; 4]
            };
            assert_eq!(px[y * 8 + x], want, "{x},{y}");
            let raw =
                f.d.read_surface(
                    f.zs.unwrap(),
                    Rect {
                        x: x as i32,
                        y: y as i32,
                        width: 1,
                        height: 1,
                    },
                )
                .unwrap();
            assert_eq!(
                Format::Z24UnormS8.decode_stencil(&raw),
                if inside { 0x0b } else { 0 },
                "{x},{y}"
            );
            assert_eq!(Format::Z24UnormS8.decode_depth(&raw), 1.0);
        }
    }
    // Float targets keep values outside [0, 1].
    let mut g = Fixture::new(4, 4, Format::Rgba16Float, None, 1, 0);
    g.clear([2.5, -1.0, 0.5, 1.0]);
    assert_eq!(g.read()[5], [2.5, -1.0, 0.5, 1.0]);
}

/// FS writing (PointCoord.s, PointCoord.t, FragCoord.x / 64, front ? 1 : 0).
fn sysval_fs() -> Arc<dyn ShaderExec> {
    let info = ShaderInfo {
        stage: ShaderStage::Fragment,
        inputs: vec![],
        outputs: vec![IoDecl::vec4(FRAG_RESULT_COLOR)],
        sysvals: sysval::POINT_COORD | sysval::FRAG_COORD | sysval::FRONT_FACE,
        uses_discard: false,
        storage: Default::default(),
        gs: None,
    };
    ClosureShader::new(info, |inv| {
        inv.outputs[0] = inv.sys.point_coord[0];
        inv.outputs[1] = inv.sys.point_coord[1];
        for l in 0..LANES {
            inv.outputs[2].set_f(l, inv.sys.frag_coord[0].f(l) / 64.0);
            inv.outputs[3].set_f(
                l,
                if inv.sys.front_face.0[l] != 0 {
                    1.0
                } else {
                    0.0
                },
            );
        }
        Ok(())
    })
}

#[test]
fn point_coord_frag_coord_and_front_face() {
    for upper_left in [true, false] {
        let mut f = Fixture::new(16, 16, Format::Rgba32Float, None, 1, 0);
        f.set_fs(sysval_fs());
        f.clear([-1.0; 4]);
        let r =
            f.d.create_rasterizer_state(&RasterizerState {
                point_size: 4.0,
                point_coord_upper_left: upper_left,
                ..Default::default()
            })
            .unwrap();
        f.d.bind_rasterizer_state(r).unwrap();
        f.draw_win(PrimMode::Points, &[(6.0, 10.0)]).unwrap();
        let px = f.read();
        for y in 0..16usize {
            for x in 0..16usize {
                let p = px[y * 16 + x];
                let inside = (4..8).contains(&x) && (8..12).contains(&y);
                if !inside {
                    assert_eq!(p, [-1.0; 4], "{x},{y}");
                    continue;
                }
                let s = (x as f32 + 0.5 - 4.0) / 4.0;
                let t_up = (y as f32 + 0.5 - 8.0) / 4.0;
                let t = if upper_left { 1.0 - t_up } else { t_up };
                assert!(
                    (p[0] - s).abs() < 1e-5 && (p[1] - t).abs() < 1e-5,
                    "{x},{y}: {p:?}"
                );
                assert_eq!(p[2], (x as f32 + 0.5) / 64.0);
                assert_eq!(p[3], 1.0);
            }
        }
    }
    // Front facing follows the winding and glFrontFace.
    let mut f = Fixture::new(8, 8, Format::Rgba32Float, None, 2, 0);
    f.set_fs(sysval_fs());
    f.draw_win(PrimMode::Triangles, &[(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)])
        .unwrap();
    f.draw_win(PrimMode::Triangles, &[(8.0, 8.0), (8.0, 0.0), (0.0, 8.0)])
        .unwrap();
    let px = f.read();
    assert_eq!(px[0][3], 1.0);
    assert_eq!(px[63][3], 0.0);
}

#[test]
fn polygon_modes_draw_boundary_edges_and_vertices() {
    let quad = [(2.5f32, 2.5f32), (13.5, 3.5), (12.5, 12.5), (3.5, 11.5)];
    let draw = |mode: PolygonMode, prim: PrimMode, pts: &[(f32, f32)]| {
        let mut f = Fixture::new(16, 16, Format::Rgba8Unorm, None, 1, 0);
        f.clear([0.0; 4]);
        let r =
            f.d.create_rasterizer_state(&RasterizerState {
                polygon_mode_front: mode,
                polygon_mode_back: mode,
                point_size: 1.0,
                ..Default::default()
            })
            .unwrap();
        f.d.bind_rasterizer_state(r).unwrap();
        f.draw_win(prim, pts).unwrap();
        f.coverage_text()
    };
    // GL_LINE on a quad: its four edges, no diagonal — the same pixels as a line loop.
    let lines = draw(PolygonMode::Line, PrimMode::Quads, &quad);
    assert_eq!(lines, draw(PolygonMode::Fill, PrimMode::LineLoop, &quad));
    assert!(lines.contains('#'));
    // Same through a polygon and a triangle fan's outer boundary equivalents.
    assert_eq!(draw(PolygonMode::Line, PrimMode::Polygon, &quad), lines);
    // GL_POINT: the four vertices.
    assert_eq!(
        draw(PolygonMode::Point, PrimMode::Quads, &quad),
        draw(PolygonMode::Fill, PrimMode::Points, &quad)
    );
    // Different front/back modes: a CW (back) triangle in point mode, CCW (front) filled.
    let mut f = Fixture::new(16, 16, Format::Rgba8Unorm, None, 1, 0);
    f.clear([0.0; 4]);
    let r =
        f.d.create_rasterizer_state(&RasterizerState {
            polygon_mode_back: PolygonMode::Point,
            ..Default::default()
        })
        .unwrap();
    f.d.bind_rasterizer_state(r).unwrap();
    f.draw_win(PrimMode::Triangles, &[(1.5, 1.5), (1.5, 9.5), (9.5, 1.5)])
        .unwrap();
    let px = f.read();
    let lit: usize = px.iter().filter(|p| p[0] > 0.5).count();
    assert_eq!(lit, 3, "three vertices as points");
}
