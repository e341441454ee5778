//! The state tracker gives the link pipeline and draw-time finalisation the bound
//! driver's compiler options: a software driver whose shader compiler asks for scalar
//! ALU receives scalar NIR (the link-time split, and again after a draw-time lowering
//! added vector code), and draws the same pixels as the default answer.

mod common;

use std::sync::{Arc, Mutex};

use rgl_backend::driver::ShaderStage;
use rgl_backend::exec::{ShaderCompiler, ShaderExec};
use rgl_backend::lanes::LaneCompiler;
use rgl_backend::SoftDriver;
use rgl_nir::ir::{InstrKind, Shader};
use rgl_nir::opcodes::Opcode;
use rgl_nir::options::CompilerOptions;
use rgl_state::{gl, Context};

/// The lane compiler, asking for scalar code and recording the vector ALU
/// instructions (other than `vecN` gathers) of every shader it is given.
struct ScalarLanes {
    vector_alu: Arc<Mutex<Vec<String>>>,
}

fn vector_alu(nir: &Shader) -> Vec<String> {
    let mut out = Vec::new();
    for (_, f) in nir.functions.iter() {
        let Some(body) = &f.body else { continue };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                let data = &body.instrs[instr];
                let InstrKind::Alu(alu) = &data.kind else {
                    continue;
                };
                let comps = data.def.map_or(1, |d| body.defs[d].num_components);
                if comps > 1 && !matches!(alu.op, Opcode::vec2 | Opcode::vec3 | Opcode::vec4) {
                    out.push(format!("{:?}: {}x {}", nir.stage, comps, alu.op));
                }
            }
        }
    }
    out
}

impl ShaderCompiler for ScalarLanes {
    fn compile(&self, nir: &Shader) -> rgl_backend::Result<Arc<dyn ShaderExec>> {
        if let Ok(mut seen) = self.vector_alu.lock() {
            seen.extend(vector_alu(nir));
        }
        LaneCompiler.compile(nir)
    }
    fn compiler_options(&self, stage: ShaderStage) -> CompilerOptions {
        CompilerOptions {
            lower_to_scalar: true,
            ..LaneCompiler.compiler_options(stage)
        }
    }
}

const VS: &str = "#version 110
attribute vec2 pos;
uniform vec4 color;
uniform float scale;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_FrontColor = color * scale;
}";

const FS: &str = "#version 110
void main() { gl_FragColor = gl_Color; }";

/// Draws a full-screen quad whose vertex color needs clamping (a draw-time lowering)
/// and returns the center pixel.
fn draw(ctx: &mut Context) -> [u8; 4] {
    let program = common::program(ctx, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let pos = ctx
        .get_attrib_location(program, "pos")
        .expect("pos is active");
    let color = ctx.get_uniform_location(program, "color");
    let scale = ctx.get_uniform_location(program, "scale");
    ctx.uniform_4_f32(color.as_ref(), 0.25, 0.375, 0.75, 0.5);
    ctx.uniform_1_f32(scale.as_ref(), 2.0);
    common::fullscreen_quad(ctx, pos);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    common::pixel(ctx, 4, 4)
}

#[test]
fn a_scalar_driver_gets_scalar_code_and_draws_the_same() {
    let vector_alu = Arc::new(Mutex::new(Vec::new()));
    let mut driver = SoftDriver::new(1);
    driver.set_compiler(Arc::new(ScalarLanes {
        vector_alu: vector_alu.clone(),
    }));
    let mut scalar = Context::with_driver(Box::new(driver), 8, 8);
    let scalar_pixel = draw(&mut scalar);
    let seen = vector_alu.lock().expect("not poisoned").clone();
    assert_eq!(
        seen,
        Vec::<String>::new(),
        "vector ALU reached a scalar driver"
    );

    let mut default = Context::with_driver(Box::new(SoftDriver::new(1)), 8, 8);
    let default_pixel = draw(&mut default);
    // (0.5, 0.75, 1.5 -> 1.0, 1.0) after GL_CLAMP_VERTEX_COLOR.
    assert_eq!(default_pixel, [128, 191, 255, 255]);
    assert_eq!(scalar_pixel, default_pixel);
}
