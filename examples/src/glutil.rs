//! GL helpers the apps share: building a program from GLSL sources with its logs
//! checked, turning the GL error flag into an [`ExampleError`], and uploading
//! `f32`/`u16` slices into buffers.

use rgl_state::{gl, Buffer, Context, Program, UniformLocation, VertexArray};

use crate::ExampleError;

/// Fails with the pending GL error, if any, naming `what` the app was doing and
/// the context's reason when a draw failed.
pub fn check(gl: &mut Context, what: &str) -> Result<(), ExampleError> {
    match gl.get_error() {
        gl::NO_ERROR => Ok(()),
        code => Err(ExampleError::Gl {
            what: what.to_string(),
            code,
            detail: gl.last_draw_error(),
        }),
    }
}

/// Compiles `vs` and `fs`, links them into a program and checks every status,
/// returning the info log of the stage that failed.
pub fn program(
    gl: &mut Context,
    app: &'static str,
    vs: &str,
    fs: &str,
) -> Result<Program, ExampleError> {
    let create = |what, source| ExampleError::Create { what, source };
    let mut shaders = Vec::new();
    for (ty, stage, src) in [
        (gl::VERTEX_SHADER, "vertex", vs),
        (gl::FRAGMENT_SHADER, "fragment", fs),
    ] {
        let sh = gl
            .create_shader(ty)
            .map_err(|m| create("create_shader", m))?;
        gl.shader_source(sh, src);
        gl.compile_shader(sh);
        if !gl.get_shader_compile_status(sh) {
            let log = gl.get_shader_info_log(sh);
            gl.delete_shader(sh);
            return Err(ExampleError::Compile { app, stage, log });
        }
        let log = gl.get_shader_info_log(sh);
        if !log.trim().is_empty() {
            log::info!("{app}: {stage} shader log:\n{log}");
        }
        shaders.push(sh);
    }
    let p = gl
        .create_program()
        .map_err(|m| create("create_program", m))?;
    for &sh in &shaders {
        gl.attach_shader(p, sh);
    }
    gl.link_program(p);
    let linked = gl.get_program_link_status(p);
    let log = gl.get_program_info_log(p);
    // The program keeps its executable; the shader objects are no longer needed.
    for sh in shaders {
        gl.detach_shader(p, sh);
        gl.delete_shader(sh);
    }
    if !linked {
        gl.delete_program(p);
        return Err(ExampleError::Link { app, log });
    }
    if !log.trim().is_empty() {
        log::info!("{app}: link log:\n{log}");
    }
    check(gl, "building the program")?;
    Ok(p)
}

/// The location of uniform `name` of `program`, failing when it is not an active
/// uniform (a typo or a uniform the compiler removed).
pub fn uniform(
    gl: &mut Context,
    program: Program,
    name: &str,
) -> Result<UniformLocation, ExampleError> {
    gl.get_uniform_location(program, name)
        .ok_or_else(|| ExampleError::NoUniform {
            name: name.to_string(),
        })
}

/// A new buffer bound to `target` holding `data` (`GL_STATIC_DRAW`).
pub fn buffer_with(gl: &mut Context, target: u32, data: &[u8]) -> Result<Buffer, ExampleError> {
    let b = gl.create_buffer().map_err(|source| ExampleError::Create {
        what: "create_buffer",
        source,
    })?;
    gl.bind_buffer(target, Some(b));
    gl.buffer_data_u8_slice(target, data, gl::STATIC_DRAW);
    Ok(b)
}

/// A new vertex array object, bound.
pub fn vertex_array(gl: &mut Context) -> Result<VertexArray, ExampleError> {
    let v = gl
        .create_vertex_array()
        .map_err(|source| ExampleError::Create {
            what: "create_vertex_array",
            source,
        })?;
    gl.bind_vertex_array(Some(v));
    Ok(v)
}

/// `f32`s as native-endian bytes (what `buffer_data_u8_slice` takes).
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// `u16`s as native-endian bytes.
pub fn u16_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// Sets up float attribute `index` of the bound VAO: `size` components at byte
/// `offset` of each `stride`-byte vertex of the bound `GL_ARRAY_BUFFER`.
pub fn float_attrib(gl: &mut Context, index: u32, size: i32, stride: usize, offset: usize) {
    gl.vertex_attrib_pointer_f32(index, size, gl::FLOAT, false, stride as i32, offset as i32);
    gl.enable_vertex_attrib_array(index);
}

/// Draws `frame` and checks the error flag after it, naming `app`.
pub fn check_frame(gl: &mut Context, app: &str) -> Result<(), ExampleError> {
    check(gl, &format!("drawing a {app} frame"))
}
