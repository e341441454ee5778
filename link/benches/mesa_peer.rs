//! The Mesa peer of the compile+link benchmark: every shader-db program compiled
//! and linked by the host's GL (Mesa llvmpipe through EGL surfaceless, created with
//! glutin, called through glow), timed the same way as `--bench pipeline`.
//!
//! `cargo bench -p rgl-link --bench mesa_peer`. Needs libEGL with Mesa's EGL
//! driver (Debian: `libegl1 libegl-mesa0 libgl1-mesa-dri`); without them it says so
//! and exits successfully. Mesa's on-disk shader cache is disabled so each link
//! really compiles.

use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glow::HasContext;
use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::GlDisplay;
use rgl_conformance::shader_test::link_only::ProgramShader;
use rgl_conformance::shader_test::program;

fn shader_tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            shader_tests(&p, out);
        } else if p.extension().is_some_and(|x| x == "shader_test") {
            out.push(p);
        }
    }
}

/// A current surfaceless GL context on the first EGL device, or why there is none.
fn host_gl() -> Result<(glow::Context, String, impl Sized), String> {
    let devices: Vec<Device> = Device::query_devices()
        .map_err(|e| format!("no EGL devices: {e}"))?
        .collect();
    let device = devices
        .first()
        .ok_or_else(|| "EGL reports no devices".to_string())?;
    // SAFETY: no native display is involved (device platform).
    let display =
        unsafe { Display::with_device(device, None) }.map_err(|e| format!("EGL display: {e}"))?;
    let template = ConfigTemplateBuilder::new()
        .with_surface_type(ConfigSurfaceTypes::empty())
        .build();
    // SAFETY: the display is valid for the duration of the call.
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| format!("EGL configs: {e}"))?
        .next()
        .ok_or_else(|| "no surfaceless EGL config".to_string())?;
    let attrs = ContextAttributesBuilder::new()
        .with_profile(GlProfile::Compatibility)
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .build(None);
    // SAFETY: config comes from this display.
    let context = unsafe { display.create_context(&config, &attrs) }
        .map_err(|e| format!("GL context: {e}"))?;
    let context = context
        .make_current_surfaceless()
        .map_err(|e| format!("make current: {e}"))?;
    // SAFETY: the context is current on this thread; symbols come from its display.
    let gl = unsafe {
        glow::Context::from_loader_function_cstr(|name: &CStr| display.get_proc_address(name))
    };
    // SAFETY: a current context exists.
    let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) };
    Ok((gl, renderer, (context, display)))
}

/// Compiles and links one program; the link status query waits for completion.
fn compile_link(gl: &glow::Context, program: &[ProgramShader]) -> Result<(), String> {
    // SAFETY: plain GL calls on the current context with objects created here.
    unsafe {
        let prog = gl.create_program()?;
        let mut shaders = Vec::new();
        let mut result = Ok(());
        for section in program {
            let kind = match section.stage {
                rgl_glsl::Stage::Vertex => glow::VERTEX_SHADER,
                rgl_glsl::Stage::Geometry => glow::GEOMETRY_SHADER,
                rgl_glsl::Stage::Fragment => glow::FRAGMENT_SHADER,
                rgl_glsl::Stage::Compute => glow::COMPUTE_SHADER,
            };
            let shader = gl.create_shader(kind)?;
            gl.shader_source(shader, &section.source);
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) && result.is_ok() {
                result = Err(format!("compile: {}", gl.get_shader_info_log(shader)));
            }
            gl.attach_shader(prog, shader);
            shaders.push(shader);
        }
        gl.link_program(prog);
        if !gl.get_program_link_status(prog) && result.is_ok() {
            result = Err(format!("link: {}", gl.get_program_info_log(prog)));
        }
        for s in shaders {
            gl.delete_shader(s);
        }
        gl.delete_program(prog);
        result
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    // Before libEGL/Mesa are loaded: every link must really compile.
    std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    let (gl, renderer, _keep) = match host_gl() {
        Ok(x) => x,
        Err(why) => {
            println!("mesa_peer: skipped, no host GL through EGL ({why}); install libegl1 libegl-mesa0 libgl1-mesa-dri");
            return;
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db");
    let root = std::env::var_os("RGL_SHADER_DB").map_or(root, PathBuf::from);
    let mut files = Vec::new();
    shader_tests(&root, &mut files);
    files.sort();
    let programs: Vec<(PathBuf, Vec<ProgramShader>)> = files
        .into_iter()
        .filter_map(|p| Some((p.clone(), program::load(&p).ok()?)))
        .collect();
    let rounds: usize = std::env::var("RGL_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut totals = Vec::new();
    let mut per_program: Vec<Duration> = vec![Duration::MAX; programs.len()];
    let mut failed = 0;
    for round in 0..rounds {
        let start = Instant::now();
        for (i, (path, program)) in programs.iter().enumerate() {
            let t = Instant::now();
            let r = compile_link(&gl, program);
            per_program[i] = per_program[i].min(t.elapsed());
            if let Err(e) = r {
                if round == 0 {
                    failed += 1;
                    println!(
                        "  FAIL {}: {}",
                        path.display(),
                        e.lines().next().unwrap_or("")
                    );
                }
            }
        }
        totals.push(start.elapsed());
    }
    totals.sort();
    per_program.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let p90 = per_program[(per_program.len() * 9 / 10).min(per_program.len() - 1)];
    println!(
        "mesa_peer: {renderer}: {} programs ({} failed), {rounds} rounds: median total {:.0} ms (min {:.0}, max {:.0}), per program median {:.3} ms, p90 {:.3} ms",
        programs.len(),
        failed,
        ms(totals[totals.len() / 2]),
        ms(totals[0]),
        ms(totals[totals.len() - 1]),
        ms(per_program[per_program.len() / 2]),
        ms(p90),
    );
}
