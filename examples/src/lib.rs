//! `rgl-examples`: example applications drawn with rgl's public GL API
//! (`rgl_state::Context`) and the harness they share.
//!
//! Apps: [`triangle`] (the classic RGB triangle), [`cube`] (a textured, lit,
//! spinning cube with depth), [`gears`] (three gears in the spirit of glxgears) and
//! [`fullscreen`] (a ray-marching fragment-shader demo over one full-screen
//! triangle). Each binary of the same name calls [`main_for`].
//!
//! The harness:
//! * [`args`]: command-line options (`--headless OUT.png`, `--frames N`,
//!   `--size WxH`, `--threads N`).
//! * [`headless`]: renders a fixed number of frames at a fixed time step with no
//!   display and writes a PNG; also what the golden tests call.
//! * [`window`]: a winit window presenting rgl's framebuffer through softbuffer.
//! * [`glutil`]: shader/program building and error checks; [`math`]: 4×4 matrices;
//!   [`compare`]: golden-image comparison.

pub mod args;
pub mod compare;
pub mod cube;
pub mod error;
pub mod fullscreen;
pub mod gears;
pub mod glutil;
pub mod headless;
pub mod math;
pub mod triangle;
pub mod window;

use std::process::ExitCode;

pub use args::Options;
pub use error::ExampleError;
use rgl_state::Context;

/// One example application. The harness owns the context and calls `init` once,
/// then `frame` for every frame.
pub trait App {
    /// Creates every GL object the app needs. `width` × `height` is the size of
    /// the default framebuffer.
    fn init(&mut self, gl: &mut Context, width: u32, height: u32) -> Result<(), ExampleError>;

    /// Draws one frame at time `t` seconds into the default framebuffer (whose
    /// size may have changed since the last frame: see
    /// `Context::default_framebuffer_size`).
    fn frame(&mut self, gl: &mut Context, t: f32) -> Result<(), ExampleError>;
}

/// Every example by binary name, for the golden tests and the harness.
pub const APPS: [&str; 4] = ["triangle", "cube", "gears", "fullscreen"];

/// A fresh instance of the app called `name`, or `None` for an unknown name.
pub fn app_by_name(name: &str) -> Option<Box<dyn App>> {
    Some(match name {
        "triangle" => Box::new(triangle::Triangle::default()),
        "cube" => Box::new(cube::Cube::default()),
        "gears" => Box::new(gears::Gears::default()),
        "fullscreen" => Box::new(fullscreen::Fullscreen::default()),
        _ => return None,
    })
}

/// The `main` of the binary `name`: parses the command line, then runs the app
/// headless or in a window. Errors are printed; the exit code is 1 on failure,
/// 2 on bad arguments.
pub fn main_for(name: &str) -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let opts = match Options::parse(name, std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS, // --help
        Err(e) => {
            eprintln!("{name}: {e}\n\n{}", args::usage(name));
            return ExitCode::from(2);
        }
    };
    if let Some(n) = opts.threads {
        // Read by `Context::new_headless`; no other thread exists yet.
        std::env::set_var("RGL_THREADS", n.to_string());
    }
    let Some(app) = app_by_name(name) else {
        eprintln!("{name}: no such example (known: {})", APPS.join(", "));
        return ExitCode::from(2);
    };
    let r = match &opts.headless {
        Some(out) => headless::run_to_png(app, &opts, out),
        None => window::run(app, name, &opts),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}
