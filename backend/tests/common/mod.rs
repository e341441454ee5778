//! Shared test fixture: a software driver with one color target (and optional
//! depth/stencil), a passthrough vertex shader and helpers to draw client-side vertex
//! arrays given in window coordinates or clip space.
#![allow(dead_code)]

pub mod sampling;

use std::sync::Arc;

use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::exec::{builtin, ShaderExec};
use rgl_backend::format::{Format, VertexFormat};
use rgl_backend::{Driver, SoftDriver};

pub struct Fixture {
    pub d: SoftDriver,
    pub w: u32,
    pub h: u32,
    pub color: Surface,
    pub color_format: Format,
    pub zs: Option<Surface>,
    /// Floats per vertex: position (4) then varyings (4 each).
    pub varyings: usize,
}

impl Fixture {
    pub fn new(
        w: u32,
        h: u32,
        format: Format,
        zs: Option<Format>,
        threads: usize,
        varyings: usize,
    ) -> Fixture {
        let mut d = SoftDriver::new(threads);
        let tex = d
            .create_texture(&TextureDesc {
                target: TexTarget::D2,
                format,
                width: w,
                height: h,
                depth: 1,
                levels: 1,
            })
            .unwrap();
        let color = Surface {
            texture: tex,
            level: 0,
            layer: 0,
        };
        let zs = zs.map(|f| {
            let t = d
                .create_texture(&TextureDesc {
                    target: TexTarget::D2,
                    format: f,
                    width: w,
                    height: h,
                    depth: 1,
                    levels: 1,
                })
                .unwrap();
            Surface {
                texture: t,
                level: 0,
                layer: 0,
            }
        });
        d.set_framebuffer(&FramebufferState {
            width: w,
            height: h,
            colors: vec![Some(color)],
            zs,
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
        let vs = d
            .create_exec_shader(builtin::passthrough_vs(varyings))
            .unwrap();
        d.bind_shader(ShaderStage::Vertex, Some(vs)).unwrap();
        let fs = d
            .create_exec_shader(builtin::constant_fs([1.0, 1.0, 1.0, 1.0]))
            .unwrap();
        d.bind_shader(ShaderStage::Fragment, Some(fs)).unwrap();
        let mut f = Fixture {
            d,
            w,
            h,
            color,
            color_format: format,
            zs,
            varyings,
        };
        f.set_layout();
        f
    }

    fn set_layout(&mut self) {
        let n = 1 + self.varyings;
        let elems: Vec<VertexSource> = (0..n)
            .map(|i| VertexSource::Array {
                buffer: 0,
                offset: 16 * i as u32,
                format: VertexFormat::float(4),
                divisor: 0,
            })
            .collect();
        let ve = self.d.create_vertex_elements(&elems).unwrap();
        self.d.bind_vertex_elements(ve).unwrap();
    }

    pub fn set_fs(&mut self, fs: Arc<dyn ShaderExec>) {
        let h = self.d.create_exec_shader(fs).unwrap();
        self.d.bind_shader(ShaderStage::Fragment, Some(h)).unwrap();
    }

    pub fn set_vs(&mut self, vs: Arc<dyn ShaderExec>) {
        let h = self.d.create_exec_shader(vs).unwrap();
        self.d.bind_shader(ShaderStage::Vertex, Some(h)).unwrap();
    }

    pub fn clear(&mut self, c: [f32; 4]) {
        self.d
            .clear(&ClearRequest {
                color: Some(c),
                color_masks: [0xf; 8],
                depth: Some(1.0),
                stencil: Some((0, 0xff)),
                scissor: None,
            })
            .unwrap();
    }

    /// Uploads vertices (`(4 + 4 * varyings)` floats each) into a new vertex
    /// buffer and binds it; returns the vertex count.
    pub fn bind_vertices(&mut self, verts: &[f32]) -> rgl_backend::Result<u32> {
        let stride = 16 * (1 + self.varyings) as u32;
        let bytes: Vec<u8> = verts.iter().flat_map(|f| f.to_le_bytes()).collect();
        let vb = self.d.create_buffer(&bytes)?;
        self.d.set_vertex_buffers(&[VertexBufferBinding {
            buffer: vb,
            offset: 0,
            stride,
        }])?;
        Ok(verts.len() as u32 / (4 + 4 * self.varyings as u32))
    }

    /// Uploads vertices (`(4 + 4 * varyings)` floats each) and draws.
    pub fn draw_clip(&mut self, mode: PrimMode, verts: &[f32]) -> rgl_backend::Result<()> {
        let n = self.bind_vertices(verts)?;
        self.d.draw(&DrawInfo::arrays(mode, 0, n))
    }

    /// Window coordinates (x, y) → clip space with w = 1, z = 0.
    pub fn win_to_clip(&self, x: f32, y: f32) -> [f32; 4] {
        [
            x / self.w as f32 * 2.0 - 1.0,
            y / self.h as f32 * 2.0 - 1.0,
            0.0,
            1.0,
        ]
    }

    /// Draws primitives given as window-coordinate points.
    pub fn draw_win(&mut self, mode: PrimMode, pts: &[(f32, f32)]) -> rgl_backend::Result<()> {
        let mut v = Vec::new();
        for &(x, y) in pts {
            v.extend_from_slice(&self.win_to_clip(x, y));
            for _ in 0..self.varyings {
                v.extend_from_slice(&[0.0; 4]);
            }
        }
        self.draw_clip(mode, &v)
    }

    /// Pixels as RGBA floats, row 0 = bottom.
    pub fn read(&mut self) -> Vec<[f32; 4]> {
        let raw = self
            .d
            .read_surface(
                self.color,
                Rect {
                    x: 0,
                    y: 0,
                    width: self.w,
                    height: self.h,
                },
            )
            .unwrap();
        let bpp = self.color_format.bytes_per_pixel();
        raw.chunks(bpp)
            .map(|p| self.color_format.decode_rgba(p))
            .collect()
    }

    /// Coverage grid text: '#' where red > 0.5, '.' elsewhere, top row first.
    pub fn coverage_text(&mut self) -> String {
        let px = self.read();
        let mut s = String::new();
        for y in (0..self.h).rev() {
            for x in 0..self.w {
                s.push(if px[(y * self.w + x) as usize][0] > 0.5 {
                    '#'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s
    }
}

/// Analytic pixel-center coverage of a triangle given in window coordinates, with the
/// driver's documented sub-pixel snapping (1/256) and top-left rule (an edge owns its
/// pixel centers when it is a "left" edge or a horizontal "top" edge, with rows
/// counted upward from 0). Computed with barycentric signs per pixel, independent of
/// the rasterizer's block stepping.
pub fn analytic_tri(w: u32, h: u32, p: [(f32, f32); 3]) -> Vec<bool> {
    let s = |v: f32| (v * 256.0).round() as i128;
    let mut v: Vec<(i128, i128)> = p.iter().map(|&(x, y)| (s(x), s(y))).collect();
    let area = (v[1].0 - v[0].0) * (v[2].1 - v[0].1) - (v[2].0 - v[0].0) * (v[1].1 - v[0].1);
    let mut out = vec![false; (w * h) as usize];
    if area == 0 {
        return out;
    }
    if area < 0 {
        v.swap(1, 2);
    }
    for py in 0..h {
        for px in 0..w {
            let (cx, cy) = (px as i128 * 256 + 128, py as i128 * 256 + 128);
            let mut inside = true;
            for i in 0..3 {
                let (a, b) = (v[i], v[(i + 1) % 3]);
                let e = (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
                let owns = (b.1 - a.1) < 0 || ((b.1 - a.1) == 0 && (b.0 - a.0) > 0);
                if e < 0 || (e == 0 && !owns) {
                    inside = false;
                }
            }
            out[(py * w + px) as usize] = inside;
        }
    }
    out
}

/// Coverage vector → text grid (top row first).
pub fn grid_text(w: u32, h: u32, cov: &[bool]) -> String {
    let mut s = String::new();
    for y in (0..h).rev() {
        for x in 0..w {
            s.push(if cov[(y * w + x) as usize] { '#' } else { '.' });
        }
        s.push('\n');
    }
    s
}

/// Compares `actual` with the expectation file at `path`, rewriting it under BLESS=1.
pub fn check_expect(path: &std::path::Path, actual: &str) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        expected,
        actual,
        "mismatch with {} (BLESS=1 rewrites)",
        path.display()
    );
}
