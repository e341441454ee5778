//! The state tracker's cost of a draw whose variant is cached, measured over a
//! driver that does nothing (every call succeeds at once), so the figure is the
//! state tracker's own work: key, cache lookup, state objects, uniforms, vertex
//! inputs and the driver calls' dispatch.
//!
//! `cargo bench -p rgl-state --bench draw_overhead`

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rgl_backend::driver::SamplerState;
use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::Result;
use rgl_state::{gl, Context};

/// A driver that accepts everything and draws nothing.
#[derive(Default)]
struct NullDriver {
    next: u32,
    textures: Vec<TextureDesc>,
}

impl NullDriver {
    fn id(&mut self) -> u32 {
        self.next += 1;
        self.next
    }
}

impl Driver for NullDriver {
    fn name(&self) -> &str {
        "null"
    }
    fn compiler_options(&self, _: ShaderStage) -> rgl_nir::options::CompilerOptions {
        rgl_nir::options::CompilerOptions::default()
    }
    fn create_buffer(&mut self, _: &[u8]) -> Result<BufferHandle> {
        Ok(BufferHandle(self.id()))
    }
    fn buffer_data(&mut self, _: BufferHandle, _: &[u8]) -> Result<()> {
        Ok(())
    }
    fn buffer_subdata(&mut self, _: BufferHandle, _: u64, _: &[u8]) -> Result<()> {
        Ok(())
    }
    fn read_buffer(&self, _: BufferHandle, _: u64, len: u64) -> Result<Vec<u8>> {
        Ok(vec![0; len as usize])
    }
    fn delete_buffer(&mut self, _: BufferHandle) -> Result<()> {
        Ok(())
    }
    fn create_texture(&mut self, desc: &TextureDesc) -> Result<TextureHandle> {
        self.textures.push(*desc);
        Ok(TextureHandle(self.textures.len() as u32 - 1))
    }
    fn texture_desc(&self, tex: TextureHandle) -> Result<TextureDesc> {
        self.textures
            .get(tex.0 as usize)
            .copied()
            .ok_or(rgl_backend::Error::InvalidHandle {
                kind: "texture",
                id: tex.0,
            })
    }
    fn texture_upload(&mut self, _: TextureHandle, _: u32, _: TexBox, _: &[u8]) -> Result<()> {
        Ok(())
    }
    fn texture_read(&self, tex: TextureHandle, _: u32, r: TexBox) -> Result<Vec<u8>> {
        let bpp = self.texture_desc(tex)?.format.bytes_per_pixel();
        Ok(vec![0; (r.width * r.height * r.depth) as usize * bpp])
    }
    fn delete_texture(&mut self, _: TextureHandle) -> Result<()> {
        Ok(())
    }
    fn create_shader(&mut self, _: &rgl_nir::ir::Shader) -> Result<ShaderHandle> {
        Ok(ShaderHandle(self.id()))
    }
    fn delete_shader(&mut self, _: ShaderHandle) -> Result<()> {
        Ok(())
    }
    fn bind_shader(&mut self, _: ShaderStage, _: Option<ShaderHandle>) -> Result<()> {
        Ok(())
    }
    fn create_blend_state(&mut self, _: &BlendState) -> Result<BlendHandle> {
        Ok(BlendHandle(self.id()))
    }
    fn bind_blend_state(&mut self, _: BlendHandle) -> Result<()> {
        Ok(())
    }
    fn create_depth_stencil_state(&mut self, _: &DepthStencilState) -> Result<DepthStencilHandle> {
        Ok(DepthStencilHandle(self.id()))
    }
    fn bind_depth_stencil_state(&mut self, _: DepthStencilHandle) -> Result<()> {
        Ok(())
    }
    fn create_rasterizer_state(&mut self, _: &RasterizerState) -> Result<RasterizerHandle> {
        Ok(RasterizerHandle(self.id()))
    }
    fn bind_rasterizer_state(&mut self, _: RasterizerHandle) -> Result<()> {
        Ok(())
    }
    fn create_sampler_state(&mut self, _: &SamplerState) -> Result<SamplerHandle> {
        Ok(SamplerHandle(self.id()))
    }
    fn bind_sampler_states(&mut self, _: &[Option<SamplerHandle>]) -> Result<()> {
        Ok(())
    }
    fn create_vertex_elements(&mut self, _: &[VertexSource]) -> Result<VertexElementsHandle> {
        Ok(VertexElementsHandle(self.id()))
    }
    fn bind_vertex_elements(&mut self, _: VertexElementsHandle) -> Result<()> {
        Ok(())
    }
    fn delete_state(&mut self, _: StateHandle) -> Result<()> {
        Ok(())
    }
    fn set_framebuffer(&mut self, _: &FramebufferState) -> Result<()> {
        Ok(())
    }
    fn set_viewport(&mut self, _: Viewport) -> Result<()> {
        Ok(())
    }
    fn set_scissor(&mut self, _: Rect) -> Result<()> {
        Ok(())
    }
    fn set_blend_color(&mut self, _: [f32; 4]) -> Result<()> {
        Ok(())
    }
    fn set_uniforms(&mut self, _: &[u32]) -> Result<()> {
        Ok(())
    }
    fn set_uniform_buffer(&mut self, _: u32, _: Option<BufferRange>) -> Result<()> {
        Ok(())
    }
    fn set_sampler_views(&mut self, _: &[Option<SamplerView>]) -> Result<()> {
        Ok(())
    }
    fn set_vertex_buffers(&mut self, _: &[VertexBufferBinding]) -> Result<()> {
        Ok(())
    }
    fn draw(&mut self, _: &DrawInfo) -> Result<()> {
        Ok(())
    }
    fn clear(&mut self, _: &ClearRequest) -> Result<()> {
        Ok(())
    }
    fn read_surface(&mut self, _: Surface, r: Rect) -> Result<Vec<u8>> {
        Ok(vec![0; (r.width * r.height * 4) as usize])
    }
    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
    fn counters(&self) -> Counters {
        Counters::default()
    }
    fn reset_counters(&mut self) {}
}

const VS: &str = "#version 130
in vec4 position;
in vec3 color;
uniform mat4 mvp;
out vec3 v_color;
void main() { gl_Position = mvp * position; v_color = color; }";

const FS: &str = "#version 130
in vec3 v_color;
uniform float brightness;
uniform sampler2D tex;
void main() { gl_FragColor = vec4(v_color * brightness, 1.0) * texture(tex, v_color.xy); }";

/// A context with a linked program, a vertex buffer and the variant built.
fn setup() -> Context {
    let mut ctx = Context::with_driver(Box::<NullDriver>::default(), 64, 64);
    let program = common::program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
    );
    let vertices = common::f32_bytes(&[0.0f32, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0].repeat(3));
    common::buffer(&mut ctx, gl::ARRAY_BUFFER, &vertices);
    let vao = ctx.create_vertex_array().expect("vao");
    ctx.bind_vertex_array(Some(vao));
    let pos = ctx
        .get_attrib_location(program, "position")
        .expect("position");
    let col = ctx.get_attrib_location(program, "color").expect("color");
    ctx.vertex_attrib_pointer_f32(pos, 4, gl::FLOAT, false, 28, 0);
    ctx.vertex_attrib_pointer_f32(col, 3, gl::FLOAT, false, 28, 16);
    ctx.enable_vertex_attrib_array(pos);
    ctx.enable_vertex_attrib_array(col);
    let b = ctx.get_uniform_location(program, "brightness");
    ctx.uniform_1_f32(b.as_ref(), 0.5);
    ctx.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    assert_eq!(ctx.variant_stats().misses, 1);
    ctx
}

fn cached_draw(c: &mut Criterion) {
    let mut ctx = setup();
    c.bench_function("state/cached_draw_null_driver", |b| {
        b.iter(|| ctx.draw_arrays(black_box(gl::TRIANGLES), 0, 3))
    });
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
    assert_eq!(
        ctx.variant_stats().misses,
        1,
        "every measured draw hit the cache"
    );
}

criterion_group!(benches, cached_draw);
criterion_main!(benches);
