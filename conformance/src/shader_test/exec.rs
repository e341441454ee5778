//! The full shader_runner (`rgl-conformance shader-test` without `--link-only`):
//! an [`Executor`] that runs a parsed file's `[test]` script over any
//! [`GlContext`], the abstract GL-like context that rgl's state tracker and a
//! host-GL peer (`--peer host`) will each implement.
//!
//! The split follows shader_runner and piglit-util: what is the *runner's*
//! logic lives here (requirement checks, program set-up, the `link
//! error`/`link success` bookkeeping, the clear mask, the rectangles of `draw
//! rect` in clip coordinates, the projection of `ortho`/`frustum`, the texture
//! images of `texture …` ([`super::textures`]), probe tolerances and relative
//! coordinates, comparing query results, "a failing line is reported and
//! execution continues"); what is *GL* is a [`GlContext`] call, close to one
//! GL entry point each, so rgl's state tracker and a host GL (glow) adapt to
//! it in a few lines per method.
//!
//! The implementations are [`super::rgl_context::RglContext`] (rgl's state
//! tracker) and [`super::host::HostContext`] (the host's GL, `--peer host`);
//! [`super::isolate`] runs each file in its own process over one of them.

use super::command::{
    Command, Probe, ProbeRegion, QueryValue, RectSpace, TexParam, TextureTarget, UniformTarget,
    UniformType, UniformValues,
};
use super::gl_enum::GlEnum;
use super::includes::ShaderIncludes;
use super::link_only::{runner_bindings, runner_shaders, NotRunnable, ProgramShader};
use super::parse::ShaderTest;
use super::storage::{check_probe, StorageCommand};
use super::support::{self, Capabilities};
use super::textures::{self, TextureImage};
use crate::result::Status;

/// A GL-like context the executor drives. Errors are messages naming what
/// failed (a GL error, an unsupported feature); they fail the command's line.
pub trait GlContext {
    /// What the context advertises (versions, extensions, limits).
    fn capabilities(&self) -> Capabilities;
    /// What implementation this is (`GL_RENDERER` and version), for reports.
    fn describe(&self) -> String {
        "a GL context".to_string()
    }
    /// Creates a framebuffer of `width` x `height` (RGBA8 colour, plus depth
    /// and stencil when `depth`) and makes it current, as piglit's `-fbo` does.
    fn create_framebuffer(&mut self, width: u32, height: u32, depth: bool) -> Result<(), String>;
    /// Compiles `shaders`, attaches them to one program, applies `bindings`,
    /// links, and on success makes the program current and gives every active
    /// uniform block a buffer. `Ok(Err(log))` is a link failure; `Err` is a
    /// compile failure or context error (which fails the test).
    fn build_program(
        &mut self,
        shaders: &[ProgramShader],
        bindings: &rgl_link::Bindings,
    ) -> Result<Result<(), String>, String>;
    /// Uploads `[vertex data]` as one interleaved buffer bound to the program's
    /// attributes (after a successful link).
    fn load_vertex_data(&mut self, data: &super::vertex_data::VertexData) -> Result<(), String>;
    /// `glClearColor`/`glClearDepth`/`glClearStencil` with the values given,
    /// then `glClear` of the buffers that have one.
    fn clear(
        &mut self,
        color: Option<[f32; 4]>,
        depth: Option<f64>,
        stencil: Option<i32>,
    ) -> Result<(), String>;
    /// Draws a rectangle (see [`RectDraw`]).
    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), String>;
    /// `glDrawArrays[Instanced]` from the `[vertex data]` buffer.
    fn draw_arrays(
        &mut self,
        mode: GlEnum,
        first: i32,
        count: i32,
        instances: Option<u32>,
    ) -> Result<(), String>;
    /// Sets a uniform of the current program by name or location (names
    /// inside a uniform block are written to the block's buffer).
    fn uniform(
        &mut self,
        target: &UniformTarget,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String>;
    /// shader_runner's `subuniform STAGE NAME FUNCTION`: selects subroutine
    /// `function` for the subroutine uniform (element) `name` of `stage` of
    /// the current program, with `glUniformSubroutinesuiv` over all of the
    /// stage's locations (the runner remembers the earlier selections).
    fn subroutine_uniform(&mut self, stage: u32, name: &str, function: &str) -> Result<(), String> {
        let _ = (stage, name, function);
        Err("subuniform: subroutines are not supported by this context".into())
    }
    /// Whether the current program has a uniform `name` that a `uniform`
    /// command can set: `glGetUniformLocation` finds it, or it is a member of
    /// an active uniform block (shader_runner's `set_ubo_uniform` lookup).
    fn has_uniform(&mut self, name: &str) -> Result<bool, String>;
    /// shader_runner's `ubo array index N`: later block uniforms are written
    /// to element N of an array of blocks (the block index the member reports,
    /// which is the array's first block, plus N), until the next such command.
    fn ubo_array_index(&mut self, index: u32) -> Result<(), String>;
    /// Creates `image` on texture unit `unit` (replacing what was bound there).
    fn texture(&mut self, unit: u32, image: &TextureImage) -> Result<(), String>;
    /// `glTexParameter` on the texture bound to `target` of the active unit.
    fn tex_parameter(&mut self, target: TextureTarget, param: &TexParam) -> Result<(), String>;
    /// A fixed-function or rasterizer state change.
    fn state(&mut self, change: &StateChange) -> Result<(), String>;
    /// Reads colour pixels of the rectangle (window coordinates, origin bottom
    /// left) as RGBA floats, row by row from the bottom.
    fn read_color(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, String>;
    /// Reads the depth value of one pixel.
    fn read_depth(&mut self, x: i32, y: i32) -> Result<f32, String>;
    /// `glGetActiveUniformsiv` of the uniform called `name` for `pname`.
    fn active_uniform(&mut self, name: &str, pname: u32) -> Result<i64, String>;
    /// `glGetProgramiv(pname)` of the current program.
    fn program_query(&mut self, pname: u32) -> Result<i64, String>;
    /// `glGetProgramResourceiv(prop)` of the current program's resource
    /// `name` of `interface` (found with `glGetProgramResourceIndex`).
    fn program_resource(&mut self, interface: u32, name: &str, prop: u32) -> Result<i64, String>;
    /// `glDispatchCompute` between two `glMemoryBarrier(GL_ALL_BARRIER_BITS)`.
    fn dispatch_compute(&mut self, groups: [u32; 3]) -> Result<(), String>;
    /// `glMemoryBarrier(bits)`.
    fn memory_barrier(&mut self, bits: u32) -> Result<(), String>;
    /// shader_runner's `image texture N FORMAT`: the texture the runner made
    /// on unit `unit` bound to image unit `unit` (level 0, layer 0, not
    /// layered, `GL_READ_WRITE`) with `format`.
    fn image_texture(&mut self, unit: u32, format: u32) -> Result<(), String> {
        let _ = (unit, format);
        Err("image texture: images are not supported by this context".into())
    }
    /// shader_runner's `fb tex 2d N`: a new framebuffer object, bound for
    /// drawing and reading, whose colour attachment 0 is level 0 of the
    /// texture the runner made on unit `unit`; returns its size (the size
    /// later probes cover).
    fn fb_tex_2d(&mut self, unit: u32) -> Result<(u32, u32), String> {
        let _ = unit;
        Err("fb tex 2d: not supported by this context".into())
    }
    /// A new zero-filled buffer of `size` bytes bound to binding `index` of
    /// the indexed `target` (replacing the runner's buffer there).
    fn storage_buffer(&mut self, target: u32, index: u32, size: u32) -> Result<(), String>;
    /// `glBufferSubData` into the runner's buffer at binding `index` of `target`.
    fn storage_sub_data(
        &mut self,
        target: u32,
        index: u32,
        offset: u32,
        data: &[u8],
    ) -> Result<(), String>;
    /// Reads `len` bytes at `offset` of the runner's buffer at binding
    /// `index` of `target`.
    fn read_storage(
        &mut self,
        target: u32,
        index: u32,
        offset: u32,
        len: u32,
    ) -> Result<Vec<u8>, String>;
    /// Defines the named strings of `includes` (`glNamedStringARB`) and has
    /// every later shader compiled with its search paths
    /// (`glCompileShaderIncludeARB`, or `glCompileShader` when it has none).
    /// `Skip` when the context has no such entry points (the default).
    fn shader_includes(&mut self, includes: &ShaderIncludes) -> Result<(), NotRunnable> {
        let _ = includes;
        Err(NotRunnable::Skip(
            "this context has no named strings (GL_ARB_shading_language_include)".into(),
        ))
    }
}

/// A rectangle to draw as a 4-vertex `GL_TRIANGLE_STRIP` (or `GL_PATCHES`),
/// as piglit's `piglit_draw_rect*` helpers do.
#[derive(Clone, Debug, PartialEq)]
pub struct RectDraw {
    /// Clip-space positions (x, y, 0, 1) of the corners, in strip order
    /// (x, y), (x+w, y), (x, y+h), (x+w, y+h).
    pub positions: [[f32; 4]; 4],
    /// Texture coordinates of the corners (`draw rect tex`).
    pub texcoords: Option<[[f32; 2]; 4]>,
    /// Instance count (1 for a plain draw).
    pub instances: u32,
    /// Drawn as `GL_PATCHES` (`draw rect patch`).
    pub patches: bool,
    /// Positions go through `glVertexPointer` (`gl_Vertex`) rather than
    /// attribute 0 (`draw instanced rect` without `ortho`); otherwise the
    /// context uses attribute 0 when the program has an active
    /// `piglit_vertex` or the context is core/ES, `gl_Vertex` otherwise.
    pub fixed_function_positions: bool,
}

/// A state change the runner asks of the context.
#[derive(Clone, Debug, PartialEq)]
pub enum StateChange {
    /// `glEnable(cap)`.
    Enable(GlEnum),
    /// `glDisable(cap)`.
    Disable(GlEnum),
    /// `glClipPlane(GL_CLIP_PLANE0 + index, plane)`.
    ClipPlane {
        /// Plane number.
        index: u32,
        /// Equation.
        plane: [f64; 4],
    },
    /// `glColor4f`.
    Color([f32; 4]),
    /// `glMultiTexCoord4f(GL_TEXTURE0 + unit, …)`.
    TexCoord {
        /// Unit.
        unit: u32,
        /// Coordinates.
        coords: [f32; 4],
    },
    /// `glShadeModel(GL_FLAT or GL_SMOOTH)`.
    ShadeModelFlat(bool),
    /// `glProvokingVertex(GL_FIRST_VERTEX_CONVENTION or GL_LAST_…)`.
    ProvokingVertexFirst(bool),
    /// `glPolygonMode(face, mode)`.
    PolygonMode {
        /// Face.
        face: GlEnum,
        /// Mode.
        mode: GlEnum,
    },
    /// `glHint(target, mode)`.
    Hint {
        /// Target.
        target: GlEnum,
        /// Mode.
        mode: GlEnum,
    },
    /// `glDepthFunc(func)`.
    DepthFunc(GlEnum),
    /// Projection matrix = `glOrtho` (or `glFrustum`) of the six planes
    /// (left, right, bottom, top, near, far), modelview = identity.
    Projection {
        /// `glFrustum` rather than `glOrtho`.
        frustum: bool,
        /// l, r, b, t, n, f.
        planes: [f64; 6],
    },
}

/// The outcome of running one file's script.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Pass, warn (only `probe warn` lines mismatched), fail or skip.
    pub status: Status,
    /// One line per failing command (`line N: …`, `line N: warning: …` for a
    /// `probe warn` mismatch), or the skip reason.
    pub messages: Vec<String>,
}

/// Runs a parsed file over a context.
pub struct Executor<'c> {
    context: &'c mut dyn GlContext,
    tolerance: [f32; 4],
    size: (u32, u32),
    clear_color: Option<[f32; 4]>,
    clear_depth: Option<f64>,
    clear_stencil: Option<i32>,
    ignore_missing_uniforms: bool,
    /// Time the script's first draw (see [`Executor::time_first_draw`]).
    time_first_draw: bool,
    first_draw: Option<std::time::Duration>,
}

/// piglit's default per-channel tolerance for shader_runner probes (a channel
/// matches when the difference is strictly below it).
pub const DEFAULT_TOLERANCE: f32 = 0.01;

/// The fixed tolerance of `probe depth` (`piglit_probe_pixel_depth`).
pub const DEPTH_TOLERANCE: f32 = 0.01;

impl<'c> Executor<'c> {
    /// An executor over `context`.
    pub fn new(context: &'c mut dyn GlContext) -> Executor<'c> {
        Executor {
            context,
            tolerance: [DEFAULT_TOLERANCE; 4],
            size: (250, 250),
            clear_color: None,
            clear_depth: None,
            clear_stencil: None,
            ignore_missing_uniforms: false,
            time_first_draw: false,
            first_draw: None,
        }
    }

    /// Makes [`Executor::run`] time the script's first draw command, waited for
    /// with a one-pixel read-back (which changes no GL state). That draw is the
    /// one that builds the program's variant on rgl and llvmpipe alike (the
    /// fill benchmark's first-draw figure); the time is [`Executor::first_draw`].
    pub fn time_first_draw(&mut self, on: bool) {
        self.time_first_draw = on;
    }

    /// The first draw's time, when [`Executor::time_first_draw`] was on and a
    /// draw ran without error.
    pub fn first_draw(&self) -> Option<std::time::Duration> {
        self.first_draw
    }

    /// Makes a `uniform` command naming a uniform the program does not have
    /// do nothing instead of failing, as shader_runner's
    /// `-ignore-missing-uniforms` does (generated workloads set uniforms that
    /// one implementation's optimizer may have removed).
    pub fn ignore_missing_uniforms(&mut self, ignore: bool) {
        self.ignore_missing_uniforms = ignore;
    }

    /// Runs `test` (read from `path`, for `[… shader file]` sections).
    pub fn run(&mut self, test: &ShaderTest, path: &std::path::Path) -> Outcome {
        let skip = |why: String| Outcome {
            status: Status::Skip,
            messages: vec![why],
        };
        let fail = |why: String| Outcome {
            status: Status::Fail,
            messages: vec![why],
        };
        if let Err(why) = support::check(&test.requirements, &self.context.capabilities()) {
            return skip(why);
        }
        let (shaders, includes) = match runner_shaders(test, path) {
            Ok(found) => found,
            Err(NotRunnable::Skip(why)) => return skip(why),
            Err(NotRunnable::Error(why)) => return fail(why),
        };
        if !includes.is_empty() {
            match self.context.shader_includes(&includes) {
                Ok(()) => {}
                Err(NotRunnable::Skip(why)) => return skip(why),
                Err(NotRunnable::Error(why)) => return fail(why),
            }
        }
        self.size = test.requirements.size();
        if let Err(e) = self.context.create_framebuffer(
            self.size.0,
            self.size.1,
            test.requirements.depth_buffer(),
        ) {
            return fail(format!("cannot create the framebuffer: {e}"));
        }
        let linked = if shaders.is_empty() {
            None
        } else {
            match self.context.build_program(&shaders, &runner_bindings()) {
                Err(e) => return fail(e),
                Ok(Ok(())) => Some(Ok(())),
                Ok(Err(log)) => Some(Err(log)),
            }
        };
        if let (Some(Ok(())), Some(data)) = (&linked, &test.vertex_data) {
            if let Err(e) = self.context.load_vertex_data(data) {
                return fail(format!("[vertex data]: {e}"));
            }
        }
        // shader_runner reads the whole script for `link error` before linking:
        // an unexpected link failure fails the file whatever follows.
        let expects_link_error = test
            .commands
            .iter()
            .any(|c| matches!(c.value, Command::LinkError));
        let mut messages = Vec::new();
        let mut failed = false;
        let mut warned = false;
        let mut unsupported = None;
        for located in &test.commands {
            let line = located.line;
            let result = match &located.value {
                Command::LinkError => match &linked {
                    Some(Ok(())) => Err("expected a link error, but the program linked".into()),
                    _ => Ok(()),
                },
                Command::LinkSuccess => match &linked {
                    Some(Ok(())) => Ok(()),
                    Some(Err(log)) => Err(format!("link failed: {}", first_line(log))),
                    None => Err("no program to link".into()),
                },
                Command::Tolerance(t) => {
                    self.tolerance = *t;
                    Ok(())
                }
                Command::Probe(probe) => match self.probe(probe) {
                    Err(e) if probe.warn => {
                        warned = true;
                        messages.push(format!("line {line}: warning: {e}"));
                        Ok(())
                    }
                    other => other,
                },
                Command::ProbeDepth { x, y, depth } => {
                    self.context.read_depth(*x, *y).and_then(|got| {
                        // piglit_probe_pixel_depth: |observed - expected| < 0.01.
                        if (got - depth).abs() < DEPTH_TOLERANCE {
                            Ok(())
                        } else {
                            Err(format!(
                                "probe depth at ({x}, {y}): expected {depth}, observed {got}"
                            ))
                        }
                    })
                }
                Command::ActiveUniform {
                    name,
                    pname,
                    expected,
                } => self
                    .context
                    .active_uniform(name, pname.value)
                    .and_then(|got| compare_query(&format!("{name} {pname}"), got, expected)),
                Command::VerifyProgramQuery { pname, expected } => self
                    .context
                    .program_query(pname.value)
                    .and_then(|got| compare_query(pname.name, got, expected)),
                Command::VerifyInterfaceQuery {
                    interface,
                    name,
                    prop,
                    expected,
                } => self
                    .context
                    .program_resource(interface.value, name, prop.value)
                    .and_then(|got| {
                        compare_query(&format!("{interface} {name} {prop}"), got, expected)
                    }),
                Command::Storage(cmd) => {
                    let needs_program = matches!(cmd, StorageCommand::Compute(_));
                    if needs_program && !matches!(linked, Some(Ok(()))) {
                        Err("needs a linked program".into())
                    } else {
                        self.storage(cmd)
                    }
                }
                Command::Unsupported { head, .. } => {
                    unsupported = Some(format!(
                        "line {line}: the `{head}` command is not supported by this runner"
                    ));
                    break;
                }
                other => {
                    let draw = matches!(
                        other,
                        Command::DrawRect { .. }
                            | Command::DrawInstancedRect { .. }
                            | Command::DrawArrays { .. }
                    );
                    let needs_program = draw
                        || matches!(other, Command::Uniform { .. } | Command::SubUniform { .. });
                    if needs_program && !matches!(linked, Some(Ok(()))) {
                        Err("needs a linked program".into())
                    } else if draw && self.time_first_draw && self.first_draw.is_none() {
                        let start = std::time::Instant::now();
                        let done = self
                            .gl_command(other)
                            .and_then(|()| self.context.read_color(0, 0, 1, 1).map(drop));
                        if done.is_ok() {
                            self.first_draw = Some(start.elapsed());
                        }
                        done
                    } else {
                        self.gl_command(other)
                    }
                }
            };
            if let Err(e) = result {
                failed = true;
                messages.push(format!("line {line}: {e}"));
            }
        }
        if let Some(Err(log)) = &linked {
            if !expects_link_error {
                // First: it is the cause of the lines that needed the program.
                failed = true;
                messages.insert(0, format!("link failed: {}", first_line(log)));
            }
        }
        let status = match unsupported {
            // A line the runner cannot run ends the script; what failed before
            // it still fails the file, otherwise the file is not run.
            Some(why) if failed => {
                messages.push(format!("{why}; the script stopped there"));
                Status::Fail
            }
            Some(why) => return skip(why),
            None if failed => Status::Fail,
            // piglit's WARN: only `probe warn` lines mismatched.
            None if warned => Status::Warn,
            None => Status::Pass,
        };
        Outcome { status, messages }
    }

    /// Clip-space corners of `rect`, converting window pixels for `ortho`
    /// (`-1 + 2 * x / width`, …) as shader_runner does.
    fn rect_positions(&self, space: RectSpace, rect: [f32; 4]) -> [[f32; 4]; 4] {
        let [mut x, mut y, mut w, mut h] = rect;
        if space == RectSpace::Ortho {
            let (fw, fh) = (self.size.0 as f32, self.size.1 as f32);
            x = -1.0 + 2.0 * x / fw;
            y = -1.0 + 2.0 * y / fh;
            w = 2.0 * w / fw;
            h = 2.0 * h / fh;
        }
        [
            [x, y, 0.0, 1.0],
            [x + w, y, 0.0, 1.0],
            [x, y + h, 0.0, 1.0],
            [x + w, y + h, 0.0, 1.0],
        ]
    }

    /// Runs a command that ends in GL calls.
    /// Runs one GL command of a script again after [`Executor::run`] (the
    /// fill-rate benchmark replays a file's `draw rect`).
    pub fn replay(&mut self, command: &Command) -> Result<(), String> {
        match command {
            Command::Storage(cmd) => self.storage(cmd),
            other => self.gl_command(other),
        }
    }

    /// Runs a compute, storage buffer or atomic counter command.
    fn storage(&mut self, cmd: &StorageCommand) -> Result<(), String> {
        let bytes =
            |words: &[u32]| -> Vec<u8> { words.iter().flat_map(|w| w.to_le_bytes()).collect() };
        match cmd {
            StorageCommand::Compute(groups) => self.context.dispatch_compute(*groups),
            StorageCommand::MemoryBarrier(bits) => self.context.memory_barrier(*bits),
            StorageCommand::ImageTexture { unit, format } => {
                self.context.image_texture(*unit, *format)
            }
            StorageCommand::FbTex2d(unit) => {
                self.size = self.context.fb_tex_2d(*unit)?;
                Ok(())
            }
            StorageCommand::Buffer {
                target,
                index,
                size,
            } => self.context.storage_buffer(*target, *index, *size),
            StorageCommand::SubData {
                target,
                index,
                offset,
                words,
            } => self
                .context
                .storage_sub_data(*target, *index, *offset, &bytes(words)),
            StorageCommand::Probe {
                target,
                index,
                offset,
                ty,
                op,
                words,
            } => {
                let len = u32::try_from(words.len() * 4).map_err(|_| "probe too long")?;
                let got = self.context.read_storage(*target, *index, *offset, len)?;
                let observed: Vec<u32> = got
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                // shader_runner's `probe ssbo float ~=` uses the script's
                // tolerance (0.01 by default).
                let tolerance = self.tolerance[0];
                check_probe(*ty, *op, words, &observed, tolerance)
                    .map_err(|e| format!("{} binding {index} offset {offset}: {e}", cmd.name()))
            }
        }
    }

    /// The context the executor drives.
    pub fn context(&mut self) -> &mut dyn GlContext {
        &mut *self.context
    }

    fn gl_command(&mut self, command: &Command) -> Result<(), String> {
        let state = |c: StateChange| Some(c);
        let change = match command {
            Command::ClearColor(c) => {
                self.clear_color = Some(*c);
                return Ok(());
            }
            Command::ClearDepth(d) => {
                self.clear_depth = Some(*d);
                return Ok(());
            }
            Command::ClearStencil(s) => {
                self.clear_stencil = Some(*s);
                return Ok(());
            }
            Command::Clear => {
                return self
                    .context
                    .clear(self.clear_color, self.clear_depth, self.clear_stencil)
            }
            Command::DrawRect {
                space,
                patch,
                rect,
                tex,
            } => {
                let texcoords = tex.map(|[tx, ty, tw, th]| {
                    [[tx, ty], [tx + tw, ty], [tx, ty + th], [tx + tw, ty + th]]
                });
                let draw = RectDraw {
                    positions: self.rect_positions(*space, *rect),
                    texcoords,
                    instances: 1,
                    patches: *patch,
                    fixed_function_positions: false,
                };
                return self.context.draw_rect(&draw);
            }
            Command::DrawInstancedRect {
                space,
                instances,
                rect,
            } => {
                let draw = RectDraw {
                    positions: self.rect_positions(*space, *rect),
                    texcoords: None,
                    instances: *instances,
                    patches: false,
                    fixed_function_positions: *space == RectSpace::Clip,
                };
                return self.context.draw_rect(&draw);
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => return self.context.draw_arrays(*mode, *first, *count, *instances),
            Command::Uniform { ty, target, values } => {
                if let (true, UniformTarget::Name(name)) = (self.ignore_missing_uniforms, target) {
                    if !self.context.has_uniform(name)? {
                        return Ok(());
                    }
                }
                return self.context.uniform(target, *ty, values);
            }
            Command::SubUniform {
                stage,
                name,
                function,
            } => return self.context.subroutine_uniform(stage.value, name, function),
            Command::Texture { unit, spec } => {
                let image = textures::build(spec)?;
                return self.context.texture(*unit, &image);
            }
            Command::TexParameter { target, param } => {
                return self.context.tex_parameter(*target, param)
            }
            Command::Ortho(planes) => {
                let [l, r, b, t] = match planes {
                    Some(p) => p.map(f64::from),
                    None => [0.0, f64::from(self.size.0), 0.0, f64::from(self.size.1)],
                };
                state(StateChange::Projection {
                    frustum: false,
                    planes: [l, r, b, t, -1.0, 1.0],
                })
            }
            Command::Frustum(p) => state(StateChange::Projection {
                frustum: true,
                planes: p.map(f64::from),
            }),
            Command::ClipPlane { index, plane } => state(StateChange::ClipPlane {
                index: *index,
                plane: *plane,
            }),
            Command::Enable(cap) => state(StateChange::Enable(*cap)),
            Command::Disable(cap) => state(StateChange::Disable(*cap)),
            Command::Color(c) => state(StateChange::Color(*c)),
            Command::TexCoord { unit, coords } => state(StateChange::TexCoord {
                unit: *unit,
                coords: *coords,
            }),
            Command::ShadeModelFlat(flat) => state(StateChange::ShadeModelFlat(*flat)),
            Command::ProvokingVertexFirst(first) => {
                state(StateChange::ProvokingVertexFirst(*first))
            }
            Command::PolygonMode { face, mode } => state(StateChange::PolygonMode {
                face: *face,
                mode: *mode,
            }),
            Command::Hint { target, mode } => state(StateChange::Hint {
                target: *target,
                mode: *mode,
            }),
            Command::DepthFunc(func) => state(StateChange::DepthFunc(*func)),
            Command::UboArrayIndex(index) => return self.context.ubo_array_index(*index),
            Command::BlockLayout { .. } => {
                return Err(format!(
                    "`{}` (explicit uniform block layout) is not supported by this runner yet",
                    command.name()
                ))
            }
            // Handled by `run` before it gets here.
            Command::Probe(_)
            | Command::ProbeDepth { .. }
            | Command::Tolerance(_)
            | Command::Storage(_)
            | Command::LinkError
            | Command::LinkSuccess
            | Command::ActiveUniform { .. }
            | Command::VerifyProgramQuery { .. }
            | Command::VerifyInterfaceQuery { .. }
            | Command::Unsupported { .. } => None,
        };
        match change {
            Some(change) => self.context.state(&change),
            None => Err(format!("`{}` is not a GL command", command.name())),
        }
    }

    fn probe(&mut self, probe: &Probe) -> Result<(), String> {
        // i64 throughout: coordinates come from the test file and must not overflow.
        let (w, h) = (i64::from(self.size.0), i64::from(self.size.1));
        let scale = |f: f32, size: i64| (f64::from(f) * size as f64) as i64;
        let rel = |f: f32, size: i64| scale(f, size).min(size - 1);
        let (x, y, pw, ph) = match probe.region {
            ProbeRegion::Pixel { x, y } => (i64::from(x), i64::from(y), 1, 1),
            ProbeRegion::Rect { rect } => (
                i64::from(rect[0]),
                i64::from(rect[1]),
                i64::from(rect[2]),
                i64::from(rect[3]),
            ),
            ProbeRegion::RelativePixel { at } => (rel(at[0], w), rel(at[1], h), 1, 1),
            ProbeRegion::RelativeRect { rect } => (
                scale(rect[0], w),
                scale(rect[1], h),
                scale(rect[2], w),
                scale(rect[3], h),
            ),
            ProbeRegion::All => (0, 0, w, h),
        };
        if pw <= 0 || ph <= 0 || x < 0 || y < 0 || x + pw > w || y + ph > h {
            return Err(format!(
                "probe region ({x}, {y}, {pw}, {ph}) is outside the {w}x{h} framebuffer"
            ));
        }
        // Inside a framebuffer whose sides are u32: each value fits in i32 here
        // (framebuffers larger than i32::MAX fail the context's creation).
        let to_i32 =
            |v: i64| i32::try_from(v).map_err(|_| format!("probe coordinate {v} is too large"));
        let pixels = self
            .context
            .read_color(to_i32(x)?, to_i32(y)?, to_i32(pw)?, to_i32(ph)?)?;
        let n = probe.channels.count();
        for (i, px) in pixels.iter().enumerate() {
            let bad = (0..n).any(|c| {
                let expected = probe.expected.get(c).copied().unwrap_or(0.0);
                // piglit passes a channel iff |observed - expected| < tolerance
                // (strictly); a NaN never matches.
                let diff = (px[c] - expected).abs();
                diff.is_nan() || diff >= self.tolerance[c]
            });
            if bad {
                let i = i as i64;
                return Err(format!(
                    "probe at ({}, {}): expected {:?}, observed {:?}",
                    x + i % pw,
                    y + i / pw,
                    probe.expected,
                    &px[..n]
                ));
            }
        }
        Ok(())
    }
}

fn first_line(log: &str) -> &str {
    log.lines().next().unwrap_or("(empty log)")
}

fn compare_query(what: &str, got: i64, expected: &QueryValue) -> Result<(), String> {
    let want = match expected {
        QueryValue::Int(v) => *v,
        QueryValue::Enum(e) => i64::from(e.value),
    };
    if got == want {
        Ok(())
    } else {
        let shown = match expected {
            QueryValue::Int(v) => v.to_string(),
            QueryValue::Enum(e) => format!("{} (0x{:x})", e.name, e.value),
        };
        Err(format!("{what}: expected {shown}, got {got} (0x{got:x})"))
    }
}
