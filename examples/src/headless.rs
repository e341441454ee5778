//! Rendering without a display: a fixed number of frames at a fixed 1/60 s time
//! step (so the output is deterministic), the last frame read back with
//! `read_pixels`, and PNG output. Nothing here touches the window system.

use std::path::Path;
use std::time::Instant;

use rgl_state::{gl, Context};

use crate::{glutil, App, ExampleError, Options};

/// An RGBA8 image, rows top-down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, the first row is the top one.
    pub rgba: Vec<u8>,
}

/// A finished headless run.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The last frame.
    pub image: Image,
    /// Frames drawn.
    pub frames: u32,
    /// Wall time of `init` excluded, every frame and the final `finish` included.
    pub seconds: f64,
    /// Part of `seconds` spent building shader variants (compiling at first draw).
    pub variant_build_seconds: f64,
}

impl Rendered {
    /// Frames per second of the run.
    pub fn fps(&self) -> f64 {
        self.frames as f64 / self.seconds.max(1e-9)
    }
}

/// Time of frame `i` in seconds: a fixed 60 Hz step.
pub fn frame_time(i: u32) -> f32 {
    i as f32 / 60.0
}

/// Runs `app` on a fresh `width` × `height` headless context for `frames` frames
/// (times 0, 1/60, ...) and reads back the last one.
pub fn render(
    app: &mut dyn App,
    width: u32,
    height: u32,
    frames: u32,
) -> Result<Rendered, ExampleError> {
    render_with(
        app,
        Context::new_headless(width, height),
        width,
        height,
        frames,
    )
}

/// [`render`] on the driver called `driver` in `rgl_backend::registry`
/// (`jit`, `interp`) instead of the one `RGL_DRIVER` picks.
pub fn render_on(
    driver: &str,
    app: &mut dyn App,
    width: u32,
    height: u32,
    frames: u32,
) -> Result<Rendered, ExampleError> {
    let gl = Context::new_headless_on(driver, width, height)
        .map_err(|e| ExampleError::Driver(e.to_string()))?;
    render_with(app, gl, width, height, frames)
}

fn render_with(
    app: &mut dyn App,
    mut gl: Context,
    width: u32,
    height: u32,
    frames: u32,
) -> Result<Rendered, ExampleError> {
    app.init(&mut gl, width, height)?;
    glutil::check(&mut gl, "init")?;
    let start = Instant::now();
    for i in 0..frames {
        app.frame(&mut gl, frame_time(i))?;
        glutil::check(&mut gl, &format!("frame {i}"))?;
    }
    gl.finish();
    glutil::check(&mut gl, "finish")?;
    let seconds = start.elapsed().as_secs_f64();
    let stats = gl.variant_stats();
    log::info!("variant cache: {stats:?}");
    let image = read_back(&mut gl)?;
    Ok(Rendered {
        image,
        frames,
        seconds,
        variant_build_seconds: stats.build_time.as_secs_f64(),
    })
}

/// The default framebuffer as an [`Image`]: `read_pixels` returns rows
/// bottom-up, so they are flipped.
pub fn read_back(gl: &mut Context) -> Result<Image, ExampleError> {
    let (w, h) = gl.default_framebuffer_size();
    let mut bottom_up = vec![0u8; w as usize * h as usize * 4];
    gl.bind_framebuffer(gl::FRAMEBUFFER, None);
    gl.read_pixels(
        0,
        0,
        w as i32,
        h as i32,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &mut bottom_up,
    );
    glutil::check(gl, "read_pixels")?;
    let row = w as usize * 4;
    let mut rgba = Vec::with_capacity(bottom_up.len());
    for r in bottom_up.chunks_exact(row).rev() {
        rgba.extend_from_slice(r);
    }
    Ok(Image {
        width: w,
        height: h,
        rgba,
    })
}

/// Writes `img` as an RGBA8 PNG.
pub fn write_png(img: &Image, path: &Path) -> Result<(), ExampleError> {
    let err = |msg: String| ExampleError::Png {
        path: path.to_path_buf(),
        msg,
    };
    let file = std::fs::File::create(path).map_err(|e| err(e.to_string()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| err(e.to_string()))?;
    w.write_image_data(&img.rgba)
        .map_err(|e| err(e.to_string()))?;
    w.finish().map_err(|e| err(e.to_string()))
}

/// Reads an 8-bit RGBA or RGB PNG (the goldens) as an [`Image`].
pub fn read_png(path: &Path) -> Result<Image, ExampleError> {
    let err = |msg: String| ExampleError::Png {
        path: path.to_path_buf(),
        msg,
    };
    let file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| err(e.to_string()))?;
    let mut buf = vec![
        0;
        reader
            .output_buffer_size()
            .ok_or_else(|| err("image too large".into()))?
    ];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| err(e.to_string()))?;
    if info.bit_depth != png::BitDepth::Eight {
        return Err(err(format!("bit depth {:?}, want 8", info.bit_depth)));
    }
    let data = &buf[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgba => data.to_vec(),
        png::ColorType::Rgb => data
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => return Err(err(format!("color type {other:?}, want RGB(A)"))),
    };
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba,
    })
}

/// `--headless OUT.png`: renders, writes the PNG and prints the frame rate.
pub fn run_to_png(mut app: Box<dyn App>, opts: &Options, out: &Path) -> Result<(), ExampleError> {
    let r = render(
        app.as_mut(),
        opts.width,
        opts.height,
        opts.headless_frames(),
    )?;
    write_png(&r.image, out)?;
    println!(
        "{} frames in {:.3} s = {:.1} fps ({}x{}, {:.1} ms of it building shader variants; wrote {})",
        r.frames,
        r.seconds,
        r.fps(),
        opts.width,
        opts.height,
        r.variant_build_seconds * 1e3,
        out.display()
    );
    Ok(())
}
