//! Smoke test: a full-screen quad covers every pixel with the constant color.
use rgl_backend::driver::*;
use rgl_backend::exec::{builtin, ShaderStage};
use rgl_backend::format::{Format, VertexFormat};
use rgl_backend::{Driver, SoftDriver};

#[test]
fn full_screen_quad_fills_every_pixel() {
    for threads in [1, 2] {
        let mut d = SoftDriver::new(threads);
        let (w, h) = (70u32, 130u32);
        let tex = d
            .create_texture(&TextureDesc {
                target: TexTarget::D2,
                format: Format::Rgba8Unorm,
                width: w,
                height: h,
                depth: 1,
                levels: 1,
            })
            .unwrap();
        let surf = Surface {
            texture: tex,
            level: 0,
            layer: 0,
        };
        d.set_framebuffer(&FramebufferState {
            width: w,
            height: h,
            colors: vec![Some(surf)],
            zs: None,
        })
        .unwrap();
        d.set_viewport(Viewport {
            x: 0.0,
            y: 0.0,
            width: w as f32,
            height: h as f32,
            near: 0.0,
            far: 1.0,
        })
        .unwrap();
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
        let vs = d.create_exec_shader(builtin::passthrough_vs(0)).unwrap();
        let fs = d
            .create_exec_shader(builtin::constant_fs([1.0, 0.5, 0.0, 1.0]))
            .unwrap();
        d.bind_shader(ShaderStage::Vertex, Some(vs)).unwrap();
        d.bind_shader(ShaderStage::Fragment, Some(fs)).unwrap();
        d.draw(&DrawInfo::arrays(PrimMode::TriangleFan, 0, 4))
            .unwrap();
        let px = d
            .read_surface(
                surf,
                Rect {
                    x: 0,
                    y: 0,
                    width: w,
                    height: h,
                },
            )
            .unwrap();
        let bad = px.chunks(4).filter(|p| *p != [255, 128, 0, 255]).count();
        assert_eq!(bad, 0, "threads {threads}");
        assert_eq!(d.counters().fragments_written, (w * h) as u64);
    }
}
