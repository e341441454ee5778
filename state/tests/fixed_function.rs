//! Compatibility programs missing a vertex or fragment shader link with rgl's
//! fixed-function stand-ins, and their interface is what fixed function provides.

use rgl_state::{gl, Context};

fn link(ctx: &mut Context, sources: &[(u32, &str)]) -> (bool, String) {
    let program = ctx.create_program().expect("program name");
    for (kind, src) in sources {
        let s = ctx.create_shader(*kind).expect("shader name");
        ctx.shader_source(s, src);
        ctx.compile_shader(s);
        assert!(
            ctx.get_shader_compile_status(s),
            "{}",
            ctx.get_shader_info_log(s)
        );
        ctx.attach_shader(program, s);
    }
    ctx.link_program(program);
    (
        ctx.get_program_link_status(program),
        ctx.get_program_info_log(program),
    )
}

#[test]
fn fragment_only_program_links_with_fixed_function_vertex_processing() {
    let mut ctx = Context::new_headless(8, 8);
    let fs = "void main() { gl_FragColor = gl_Color * gl_TexCoord[0]; }";
    let (ok, log) = link(&mut ctx, &[(gl::FRAGMENT_SHADER, fs)]);
    assert!(ok, "link failed: {log}");
    assert_eq!(ctx.get_error(), gl::NO_ERROR);
}

#[test]
fn vertex_only_program_links_with_fixed_function_fragment_processing() {
    let mut ctx = Context::new_headless(8, 8);
    let vs = "void main() { gl_Position = gl_Vertex; gl_FrontColor = vec4(1.0); }";
    let (ok, log) = link(&mut ctx, &[(gl::VERTEX_SHADER, vs)]);
    assert!(ok, "link failed: {log}");
}
