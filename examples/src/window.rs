//! Windowed mode: a winit window whose contents are rgl's default framebuffer,
//! read back with `read_pixels` after each frame and presented through
//! softbuffer. Prints the frame rate every 5 s (like glxgears); Esc or closing the
//! window quits, as does reaching `--frames`.

use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::Instant;

use rgl_state::{gl, Context};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::{glutil, App, ExampleError, Options};

/// Seconds between frame-rate reports.
const REPORT_INTERVAL: f64 = 5.0;

type Surface = softbuffer::Surface<Rc<Window>, Rc<Window>>;

/// Everything that exists once the window does.
struct Live {
    window: Rc<Window>,
    surface: Surface,
    gl: Context,
    /// Read-back scratch (RGBA8, bottom-up).
    pixels: Vec<u8>,
}

struct Handler {
    app: Box<dyn App>,
    title: String,
    opts: Options,
    live: Option<Live>,
    error: Option<ExampleError>,
    start: Instant,
    report_start: Instant,
    report_frames: u32,
    frames: u32,
    /// Set once the loop has been asked to exit (events may still arrive).
    exiting: bool,
}

/// Opens a window for `app` and runs it until it is closed.
pub fn run(app: Box<dyn App>, name: &str, opts: &Options) -> Result<(), ExampleError> {
    let event_loop = EventLoop::new().map_err(|e| {
        ExampleError::Window(format!(
            "{e} (no display? use --headless OUT.png to render without one)"
        ))
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut h = Handler {
        app,
        title: format!("rgl {name}"),
        opts: opts.clone(),
        live: None,
        error: None,
        start: Instant::now(),
        report_start: Instant::now(),
        report_frames: 0,
        frames: 0,
        exiting: false,
    };
    event_loop
        .run_app(&mut h)
        .map_err(|e| ExampleError::Window(e.to_string()))?;
    match h.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn window_err(e: impl std::fmt::Display) -> ExampleError {
    ExampleError::Window(e.to_string())
}

impl Handler {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Live, ExampleError> {
        let attrs = Window::default_attributes()
            .with_title(self.title.clone())
            .with_inner_size(PhysicalSize::new(self.opts.width, self.opts.height));
        let window = Rc::new(event_loop.create_window(attrs).map_err(window_err)?);
        let context = softbuffer::Context::new(window.clone()).map_err(window_err)?;
        let surface = Surface::new(&context, window.clone()).map_err(window_err)?;
        let size = window.inner_size();
        let (w, h) = (size.width.max(1), size.height.max(1));
        let mut gl = Context::new_headless(w, h);
        self.app.init(&mut gl, w, h)?;
        glutil::check(&mut gl, "init")?;
        println!(
            "{}: {} by {}, {}x{}",
            self.title,
            gl.get_parameter_string(gl::RENDERER),
            gl.get_parameter_string(gl::VENDOR),
            w,
            h
        );
        self.start = Instant::now();
        self.report_start = self.start;
        Ok(Live {
            window,
            surface,
            gl,
            pixels: Vec::new(),
        })
    }

    /// Draws one frame and presents it.
    fn redraw(&mut self) -> Result<(), ExampleError> {
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        let size = live.window.inner_size();
        let (Some(sw), Some(sh)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height))
        else {
            return Ok(()); // minimized
        };
        let gl = &mut live.gl;
        if gl.default_framebuffer_size() != (sw.get(), sh.get()) {
            gl.resize_default_framebuffer(sw.get(), sh.get());
        }
        self.app.frame(gl, self.start.elapsed().as_secs_f32())?;
        glutil::check(gl, "drawing a frame")?;
        let (w, h) = gl.default_framebuffer_size();
        live.pixels.resize(w as usize * h as usize * 4, 0);
        gl.read_pixels(
            0,
            0,
            w as i32,
            h as i32,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &mut live.pixels,
        );
        glutil::check(gl, "read_pixels")?;
        live.surface.resize(sw, sh).map_err(window_err)?;
        let mut buf = live.surface.buffer_mut().map_err(window_err)?;
        let row = w as usize * 4;
        // GL rows are bottom-up; the window's are top-down. The sizes agree
        // unless the context clamped an oversized window.
        for (y, dst) in buf
            .chunks_exact_mut(sw.get() as usize)
            .enumerate()
            .take(h as usize)
        {
            let src = &live.pixels[(h as usize - 1 - y) * row..][..row];
            for (d, p) in dst.iter_mut().zip(src.chunks_exact(4)) {
                *d = (p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32;
            }
        }
        buf.present().map_err(window_err)?;
        self.frames += 1;
        self.report_frames += 1;
        let dt = self.report_start.elapsed().as_secs_f64();
        if dt >= REPORT_INTERVAL {
            println!(
                "{} frames in {:.1} seconds = {:.3} FPS",
                self.report_frames,
                dt,
                self.report_frames as f64 / dt
            );
            self.report_start = Instant::now();
            self.report_frames = 0;
        }
        Ok(())
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: ExampleError) {
        self.error.get_or_insert(e);
        self.exiting = true;
        event_loop.exit();
    }

    fn finish(&mut self, event_loop: &ActiveEventLoop) {
        if std::mem::replace(&mut self.exiting, true) {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64();
        if self.report_frames > 0 || self.frames > 0 {
            println!(
                "{} frames in {:.1} seconds = {:.3} FPS (whole run)",
                self.frames,
                secs,
                self.frames as f64 / secs.max(1e-9)
            );
        }
        event_loop.exit();
    }
}

impl ApplicationHandler for Handler {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_some() || self.error.is_some() {
            return;
        }
        match self.open(event_loop) {
            Ok(l) => {
                l.window.request_redraw();
                self.live = Some(l);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if self.exiting {
            return;
        }
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => self.finish(event_loop),
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed
                    && event.logical_key == Key::Named(NamedKey::Escape) =>
            {
                self.finish(event_loop)
            }
            WindowEvent::Resized(_) => {
                if let Some(l) = &self.live {
                    l.window.request_redraw();
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw() {
                    self.fail(event_loop, e);
                } else if self.opts.frames.is_some_and(|n| self.frames >= n) {
                    self.finish(event_loop);
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if self.exiting {
            return;
        }
        if let Some(l) = &self.live {
            l.window.request_redraw();
        }
    }
}
