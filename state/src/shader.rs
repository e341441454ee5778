//! Shader and program objects (`glCreateShader` … `glUseProgram`): their shared
//! name space, compile and link through rgl's pipeline, info logs, attach/detach and
//! the deferred deletion rules of GL.
//!
//! Compiles and links run as jobs of the context's [`CompileQueue`]
//! (`GL_KHR_parallel_shader_compile`): `glCompileShader` and `glLinkProgram`
//! return once the job is queued, and the first command whose result depends on
//! the job (a status or info-log query, a resource query, `glUseProgram`, a
//! draw with the program current, a relink, a detach, `glShaderSource`) waits
//! for it and applies its result exactly as a synchronous compile or link
//! would have at the time of the call. `GL_COMPLETION_STATUS_KHR` polls without
//! waiting.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use rgl_glsl::compile::compile_with_includes;
use rgl_glsl::{CompileOptions, CompiledShader, Stage};
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::{Bindings, LinkedProgram};
use rgl_nir::options::StageOptions;

use crate::background::{CompileQueue, Pending};
use crate::disk_cache::{source_digest, DiskCache, ProgramLookup};
use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::named_strings::IncludeSnapshot;
use crate::names::{Program, Shader};
use crate::uniforms::UniformStorage;
use crate::variants::ProgramTraits;
use crate::Context;

/// A shader object.
#[derive(Debug)]
pub struct ShaderObject {
    /// Stage from `glCreateShader`'s type.
    pub stage: Stage,
    /// `glShaderSource` text.
    pub source: String,
    /// Result of the last `glCompileShader` (shared with the link jobs that
    /// read it); `None` before the first compile, after a compile that
    /// failed internally, or after one the shader cache skipped (see
    /// `skipped`).
    pub compiled: Option<Arc<CompiledShader>>,
    /// Info log of the last compile.
    pub info_log: String,
    /// `glDeleteShader` was called while attached.
    pub delete_pending: bool,
    /// The compile job still in flight, if any: `compiled` and `info_log` are
    /// those of the previous compile until [`Context::finish_shader`] applies it.
    pub(crate) pending: Option<Pending<CompileOutcome>>,
    /// Digest of the stage and source of the last `glCompileShader` (the
    /// on-disk shader cache's program keys are built from it); `None` before
    /// the first compile and after a compile that could read named strings.
    pub(crate) source_digest: Option<[u8; 32]>,
    /// The last compile was skipped: the shader cache recorded that this source
    /// compiles, with `info_log`; `compiled` is then `None` until a link that
    /// misses the cache needs the front end's result.
    pub(crate) skipped: Option<Arc<SkippedCompile>>,
}

impl ShaderObject {
    /// `GL_COMPILE_STATUS`.
    pub(crate) fn compile_status(&self) -> bool {
        self.skipped.is_some() || self.compiled.as_ref().is_some_and(|c| c.success())
    }
}

/// A compile the shader cache answered (Mesa's `COMPILE_SKIPPED`): what to
/// compile if a link needs it, and the result once one did.
#[derive(Debug)]
pub(crate) struct SkippedCompile {
    stage: Stage,
    name: u32,
    source: String,
    includes: Arc<IncludeSnapshot>,
    result: OnceLock<Arc<CompiledShader>>,
}

impl SkippedCompile {
    /// The front end's result, compiled at the first call.
    fn compiled(&self) -> Arc<CompiledShader> {
        Arc::clone(self.result.get_or_init(|| {
            Arc::new(run_compile(
                self.stage,
                self.name,
                &self.source,
                &self.includes,
            ))
        }))
    }
}

/// What one compile job produces.
#[derive(Debug, Clone)]
pub(crate) struct CompileOutcome {
    compiled: Option<Arc<CompiledShader>>,
    skipped: Option<Arc<SkippedCompile>>,
    info_log: String,
}

/// A link job in flight.
#[derive(Debug)]
pub(crate) struct PendingLink {
    /// The pipeline's result: the program, or the info log of a failed link.
    job: Pending<Result<Box<LinkedProgram>, String>>,
    /// Whether the program was current when `glLinkProgram` was called (a
    /// failed relink of the current program keeps its executable).
    current: bool,
    /// The program's on-disk cache key, when it has one.
    cache_key: Option<crate::disk_cache::CacheKey>,
}

impl PendingLink {
    /// Whether the link job has finished.
    pub(crate) fn is_done(&self) -> bool {
        self.job.is_done()
    }
}

/// One attached shader as a link job sees it: the result of its last compile,
/// or the compile job that will produce it.
enum LinkInput {
    Ready(Option<Arc<CompiledShader>>, Option<Arc<SkippedCompile>>),
    Compiling(Pending<CompileOutcome>),
}

/// A successfully compiled shader as a link job sees it.
enum LinkShader {
    Compiled(Arc<CompiledShader>),
    Skipped(Arc<SkippedCompile>),
}

impl LinkInput {
    /// The shader, or `None` if its compile failed (or never happened).
    fn resolve(self) -> Option<LinkShader> {
        let (compiled, skipped) = match self {
            LinkInput::Ready(c, s) => (c, s),
            LinkInput::Compiling(job) => {
                let outcome = job.wait_cloned();
                (outcome.compiled, outcome.skipped)
            }
        };
        match (compiled, skipped) {
            (_, Some(s)) => Some(LinkShader::Skipped(s)),
            (Some(c), None) if c.success() => Some(LinkShader::Compiled(c)),
            _ => None,
        }
    }
}

/// `glCompileShader` proper: rgl's front end on `source`, `#include` reading
/// `includes`.
fn run_compile(
    stage: Stage,
    name: u32,
    source: &str,
    includes: &IncludeSnapshot,
) -> CompiledShader {
    let mut options = CompileOptions::new(stage);
    options.name = Some(name);
    compile_with_includes(source, &options, Some(includes.options()))
}

/// The compile job of one shader: skipped when `cache` records that the
/// source (`digest`) compiles, else compiled (and a success recorded).
fn compile_job(
    queue: &mut CompileQueue,
    stage: Stage,
    name: u32,
    source: String,
    includes: Arc<IncludeSnapshot>,
    cache: Option<(Arc<DiskCache>, [u8; 32])>,
) -> Pending<CompileOutcome> {
    queue.run(
        move || {
            if let Some((cache, digest)) = &cache {
                if let Some(info_log) = cache.load_shader_record(digest) {
                    return CompileOutcome {
                        compiled: None,
                        skipped: Some(Arc::new(SkippedCompile {
                            stage,
                            name,
                            source,
                            includes,
                            result: OnceLock::new(),
                        })),
                        info_log,
                    };
                }
            }
            let compiled = run_compile(stage, name, &source, &includes);
            let info_log = compiled.info_log.to_string();
            if let (Some((cache, digest)), true) = (&cache, compiled.success()) {
                cache.store_shader_record(digest, &info_log);
            }
            CompileOutcome {
                info_log,
                compiled: Some(Arc::new(compiled)),
                skipped: None,
            }
        },
        |message| CompileOutcome {
            compiled: None,
            skipped: None,
            info_log: format!("0:0(0): error: internal compiler error: {message}\n"),
        },
    )
}

/// The link job of one program: waits for the attached shaders' compiles,
/// then runs the link pipeline over them and the fixed-function stand-ins.
fn link_job(
    queue: &mut CompileQueue,
    inputs: Vec<LinkInput>,
    stand_ins: Vec<Arc<CompiledShader>>,
    bindings: Bindings,
    name: u32,
    compiler: StageOptions,
    lookup: Option<ProgramLookup>,
) -> Pending<Result<Box<LinkedProgram>, String>> {
    queue.run(
        move || {
            const UNCOMPILED: &str = "error: linking with uncompiled/unspecialized shader\n";
            let mut resolved = Vec::with_capacity(inputs.len());
            for input in inputs {
                resolved.push(input.resolve().ok_or_else(|| UNCOMPILED.to_string())?);
            }
            if let Some(lookup) = &lookup {
                if let Some(program) = lookup.cache.load_program(&lookup.key) {
                    return Ok(Box::new(program));
                }
            }
            // A miss: the skipped compiles run now.
            let mut shaders = Vec::with_capacity(resolved.len() + stand_ins.len());
            for shader in resolved {
                let compiled = match shader {
                    LinkShader::Compiled(c) => c,
                    LinkShader::Skipped(s) => s.compiled(),
                };
                if !compiled.success() {
                    // Only a record that lied (another compiler under the same
                    // build identity) can get here; the link fails as GL says.
                    log::warn!(
                        "shader cache: a recorded compile failed:\n{}",
                        compiled.info_log
                    );
                    return Err(UNCOMPILED.into());
                }
                shaders.push(compiled);
            }
            shaders.extend(stand_ins);
            let refs: Vec<&CompiledShader> = shaders.iter().map(|c| &**c).collect();
            let options = PipelineOptions {
                name,
                compiler,
                ..PipelineOptions::default()
            };
            let linked = build_program(&refs, &bindings, options).map_err(|l| l.to_string())?;
            if let Some(lookup) = &lookup {
                lookup.cache.store_program(&lookup.key, &linked);
            }
            Ok(Box::new(linked))
        },
        |message| Err(format!("error: internal linker error: {message}\n")),
    )
}

/// A program object.
#[derive(Debug, Default)]
pub struct ProgramObject {
    /// Attached shaders in attach order.
    pub attached: Vec<Shader>,
    /// `glBindAttribLocation` bindings, applied at the next link.
    pub attrib_bindings: BTreeMap<String, u32>,
    /// `glBindFragDataLocationIndexed` bindings: name → (color, index).
    pub frag_data_bindings: BTreeMap<String, (u32, u32)>,
    /// The executable: the result of the last successful link, which draws run
    /// while the program is current. A failed relink of the program in use
    /// keeps it until `glUseProgram` moves away (GL 3.3 §2.11.2, "Program
    /// Objects"); any other failed link drops it. Queries of the program object
    /// go through [`ProgramObject::link_result`] instead.
    pub linked: Option<Box<LinkedProgram>>,
    /// `GL_LINK_STATUS`: whether the last link succeeded.
    pub link_status: bool,
    /// Info log of the last link.
    pub info_log: String,
    /// Default-block uniform values and sampler units of the linked program.
    pub uniforms: UniformStorage,
    /// Uniform block bindings (`glUniformBlockBinding`), per active block.
    pub block_bindings: Vec<u32>,
    /// Shader storage blocks, per active block: the binding the program was
    /// linked with (its NIR's block source) and the binding
    /// `glShaderStorageBlockBinding` set (initially the same).
    pub storage_block_bindings: Vec<(u32, u32)>,
    /// The selected subroutine index of every subroutine uniform location,
    /// per stage (`glUniformSubroutinesuiv`, GL 4.x §7.10).
    pub subroutine_selections: Vec<(rgl_glsl::Stage, Vec<u32>)>,
    /// Incremented at every successful link; variant caches key on it.
    pub generation: u64,
    /// What the draw-time variant key needs to know about the linked program,
    /// computed once per link.
    pub(crate) traits: ProgramTraits,
    /// The on-disk cache key of the linked executable (its driver variants are
    /// stored under keys derived from it); `None` without a cache.
    pub(crate) cache_key: Option<crate::disk_cache::CacheKey>,
    /// `glDeleteProgram` was called while current.
    pub delete_pending: bool,
    /// The link job in flight, if any: every other field but the bindings and
    /// attachments is that of the previous link until
    /// [`Context::finish_program`] applies it.
    pub(crate) pending: Option<PendingLink>,
}

impl ProgramObject {
    /// The last link's result as the program object's queries see it
    /// (locations, active resources, `glUniform*`): `None` after a failed link,
    /// even while the previous executable stays in use, since a failed link
    /// loses the information of the previous one (GL 3.3 §2.11.2).
    pub fn link_result(&self) -> Option<&LinkedProgram> {
        if self.link_status {
            self.linked.as_deref()
        } else {
            None
        }
    }
}

/// Shader and program objects share one name space, as in GL.
#[derive(Debug)]
pub enum GlslObject {
    /// A shader.
    Shader(ShaderObject),
    /// A program.
    Program(ProgramObject),
}

fn stage_of(shader_type: u32) -> Option<Stage> {
    match shader_type {
        gl::VERTEX_SHADER => Some(Stage::Vertex),
        gl::GEOMETRY_SHADER => Some(Stage::Geometry),
        gl::FRAGMENT_SHADER => Some(Stage::Fragment),
        // GL 4.3: compute shaders compile; their programs fail to link until
        // the NIR backend has a compute stage (a typed glsl_to_nir error).
        gl::COMPUTE_SHADER => Some(Stage::Compute),
        _ => None,
    }
}

impl Context {
    pub(crate) fn shader_obj(&self, shader: Shader) -> GlResult<&ShaderObject> {
        match self.glsl_objects.get(shader.name()) {
            Some(GlslObject::Shader(s)) => Ok(s),
            Some(GlslObject::Program(_)) => Err(GlError::InvalidOperation),
            None => Err(GlError::InvalidValue),
        }
    }
    fn shader_obj_mut(&mut self, shader: Shader) -> GlResult<&mut ShaderObject> {
        match self.glsl_objects.get_mut(shader.name()) {
            Some(GlslObject::Shader(s)) => Ok(s),
            Some(GlslObject::Program(_)) => Err(GlError::InvalidOperation),
            None => Err(GlError::InvalidValue),
        }
    }
    pub(crate) fn program_obj(&self, program: Program) -> GlResult<&ProgramObject> {
        match self.glsl_objects.get(program.name()) {
            Some(GlslObject::Program(p)) => Ok(p),
            Some(GlslObject::Shader(_)) => Err(GlError::InvalidOperation),
            None => Err(GlError::InvalidValue),
        }
    }
    pub(crate) fn program_obj_mut(&mut self, program: Program) -> GlResult<&mut ProgramObject> {
        match self.glsl_objects.get_mut(program.name()) {
            Some(GlslObject::Program(p)) => Ok(p),
            Some(GlslObject::Shader(_)) => Err(GlError::InvalidOperation),
            None => Err(GlError::InvalidValue),
        }
    }

    /// `glCreateShader`.
    pub fn create_shader(&mut self, shader_type: u32) -> Result<Shader, CreateError> {
        let Some(stage) = stage_of(shader_type) else {
            self.record(GlError::InvalidEnum);
            return Err(CreateError::InvalidShaderType(shader_type));
        };
        let object = GlslObject::Shader(ShaderObject {
            stage,
            source: String::new(),
            compiled: None,
            info_log: String::new(),
            delete_pending: false,
            pending: None,
            source_digest: None,
            skipped: None,
        });
        match self.glsl_objects.insert(object) {
            Some(name) => Ok(Shader(name)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("shader"))
            }
        }
    }

    /// `glShaderSource`.
    pub fn shader_source(&mut self, shader: Shader, source: &str) {
        self.finish_shader(shader);
        let r = self
            .shader_obj_mut(shader)
            .map(|s| s.source = source.to_string());
        self.check(r);
    }

    /// `glCompileShader`: compiles the current source with rgl's front end, on
    /// the compiler threads (see [`Context::max_shader_compiler_threads`]). A
    /// compile still in flight is superseded: its result is never applied.
    pub fn compile_shader(&mut self, shader: Shader) {
        let includes = self.named_strings.snapshot(Vec::new());
        self.compile_shader_with(shader, includes);
    }

    /// `glCompileShader` and `glCompileShaderIncludeARB`: `#include` reads
    /// `includes`. The shader cache answers only compiles `#include` can find
    /// nothing for (its records are keyed by the source alone), and only
    /// their shaders give links a program key.
    pub(crate) fn compile_shader_with(&mut self, shader: Shader, includes: IncludeSnapshot) {
        let (stage, source) = match self.shader_obj(shader) {
            Ok(s) => (s.stage, s.source.clone()),
            Err(e) => return self.record(e),
        };
        let digest = source_digest(stage, &source);
        // Keyed by the source alone, the cache cannot tell apart compiles
        // whose named strings differ: such a compile has no digest, so neither
        // it nor the links of its shader use the cache.
        let digest = includes.is_empty().then_some(digest);
        let cache = digest.and_then(|d| self.disk_cache.as_ref().map(|c| (Arc::clone(c), d)));
        let job = compile_job(
            &mut self.compile_queue,
            stage,
            shader.name(),
            source,
            Arc::new(includes),
            cache,
        );
        if let Ok(s) = self.shader_obj_mut(shader) {
            s.pending = Some(job);
            s.source_digest = digest;
        }
        if self.compile_queue.threads() == 0 {
            self.finish_shader(shader);
        }
    }

    /// Waits for the compile job of `shader`, if one is in flight, and applies
    /// its result. Not a shader: nothing happens (the caller reports errors).
    pub(crate) fn finish_shader(&mut self, shader: Shader) {
        if let Ok(s) = self.shader_obj_mut(shader) {
            if let Some(job) = s.pending.take() {
                let outcome = job.wait_cloned();
                s.compiled = outcome.compiled;
                s.skipped = outcome.skipped;
                s.info_log = outcome.info_log;
            }
        }
    }

    /// Waits for the link job of `program`, if one is in flight, and applies
    /// its result. Not a program: nothing happens (the caller reports errors).
    pub(crate) fn finish_program(&mut self, program: Program) {
        let Ok(p) = self.program_obj_mut(program) else {
            return;
        };
        let Some(PendingLink {
            job,
            current,
            cache_key,
        }) = p.pending.take()
        else {
            return;
        };
        let result = job.wait().take().unwrap_or_else(|| {
            Err("error: internal linker error: the link result was already taken\n".into())
        });
        p.link_status = result.is_ok();
        match result {
            Ok(linked) => {
                p.info_log = linked
                    .warnings
                    .iter()
                    .map(|w| format!("warning: {w}\n"))
                    .collect();
                p.uniforms = UniformStorage::new(&linked);
                crate::subroutines::reset_defaults(
                    &linked,
                    &mut p.uniforms,
                    &mut p.subroutine_selections,
                );
                p.block_bindings = linked.uniform_blocks.iter().map(|b| b.binding).collect();
                p.storage_block_bindings = linked
                    .storage_blocks()
                    .iter()
                    .map(|b| (b.binding, b.binding))
                    .collect();
                p.traits = ProgramTraits::of(&linked);
                p.linked = Some(linked);
                p.generation += 1;
                p.cache_key = cache_key;
            }
            Err(log) => {
                p.info_log = log;
                if !current {
                    p.linked = None;
                }
            }
        }
        self.variants_invalidate(program);
    }

    /// Waits for the link of the current program, if one is in flight (a draw
    /// or `glUniform*` with a relinked current program).
    pub(crate) fn finish_current_program(&mut self) {
        if let Some(program) = self.current_program {
            self.finish_program(program);
        }
    }

    /// `glMaxShaderCompilerThreadsKHR`: the number of threads compiles and links
    /// run on from now on. 0 makes `compile_shader` and `link_program`
    /// synchronous; `0xFFFFFFFF` restores the default (`RGL_COMPILE_THREADS`
    /// does not apply, the core count does).
    pub fn max_shader_compiler_threads(&mut self, count: u32) {
        self.compile_queue.set_threads(count);
    }

    /// `glGetShaderiv(GL_COMPILE_STATUS)`.
    pub fn get_shader_compile_status(&mut self, shader: Shader) -> bool {
        self.finish_shader(shader);
        let r = self.shader_obj(shader).map(ShaderObject::compile_status);
        self.check(r).unwrap_or(false)
    }

    /// `glGetShaderInfoLog`.
    pub fn get_shader_info_log(&mut self, shader: Shader) -> String {
        self.finish_shader(shader);
        let r = self.shader_obj(shader).map(|s| s.info_log.clone());
        self.check(r).unwrap_or_default()
    }

    /// `glGetShaderSource`.
    pub fn get_shader_source(&mut self, shader: Shader) -> String {
        let r = self.shader_obj(shader).map(|s| s.source.clone());
        self.check(r).unwrap_or_default()
    }

    /// `glIsShader`.
    pub fn is_shader(&self, shader: Shader) -> bool {
        matches!(
            self.glsl_objects.get(shader.name()),
            Some(GlslObject::Shader(s)) if !s.delete_pending
        )
    }

    /// `glDeleteShader`: deleted now, or once no program has it attached.
    pub fn delete_shader(&mut self, shader: Shader) {
        if let Err(e) = self.shader_obj(shader) {
            self.record(e);
            return;
        }
        let attached = self
            .glsl_objects
            .iter()
            .any(|(_, o)| matches!(o, GlslObject::Program(p) if p.attached.contains(&shader)));
        if attached {
            if let Ok(s) = self.shader_obj_mut(shader) {
                s.delete_pending = true;
            }
        } else {
            self.glsl_objects.remove(shader.name());
        }
    }

    /// `glCreateProgram`.
    pub fn create_program(&mut self) -> Result<Program, CreateError> {
        match self
            .glsl_objects
            .insert(GlslObject::Program(ProgramObject::default()))
        {
            Some(name) => Ok(Program(name)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("program"))
            }
        }
    }

    /// `glAttachShader`.
    pub fn attach_shader(&mut self, program: Program, shader: Shader) {
        let r = self.shader_obj(shader).map(|_| ()).and_then(|()| {
            let p = self.program_obj_mut(program)?;
            if p.attached.contains(&shader) {
                return Err(GlError::InvalidOperation);
            }
            p.attached.push(shader);
            Ok(())
        });
        self.check(r);
    }

    /// `glDetachShader`.
    pub fn detach_shader(&mut self, program: Program, shader: Shader) {
        self.finish_program(program);
        let r = self.shader_obj(shader).map(|_| ()).and_then(|()| {
            let p = self.program_obj_mut(program)?;
            let Some(i) = p.attached.iter().position(|s| *s == shader) else {
                return Err(GlError::InvalidOperation);
            };
            p.attached.remove(i);
            Ok(())
        });
        if self.check(r).is_some() {
            self.reap_shader(shader);
        }
    }

    /// Deletes a delete-pending shader that no program holds any more.
    fn reap_shader(&mut self, shader: Shader) {
        let pending = self.shader_obj(shader).is_ok_and(|s| s.delete_pending);
        let attached = self
            .glsl_objects
            .iter()
            .any(|(_, o)| matches!(o, GlslObject::Program(p) if p.attached.contains(&shader)));
        if pending && !attached {
            self.glsl_objects.remove(shader.name());
        }
    }

    /// `glGetAttachedShaders`.
    pub fn get_attached_shaders(&mut self, program: Program) -> Vec<Shader> {
        let r = self.program_obj(program).map(|p| p.attached.clone());
        self.check(r).unwrap_or_default()
    }

    /// `glBindAttribLocation`: takes effect at the next link.
    pub fn bind_attrib_location(&mut self, program: Program, index: u32, name: &str) {
        if index >= crate::limits::MAX_VERTEX_ATTRIBS {
            self.record(GlError::InvalidValue);
            return;
        }
        if name.starts_with("gl_") {
            self.record(GlError::InvalidOperation);
            return;
        }
        let r = self
            .program_obj_mut(program)
            .map(|p| p.attrib_bindings.insert(name.to_string(), index));
        self.check(r);
    }

    /// `glBindFragDataLocation`.
    pub fn bind_frag_data_location(&mut self, program: Program, color: u32, name: &str) {
        self.bind_frag_data_location_indexed(program, color, 0, name);
    }

    /// `glBindFragDataLocationIndexed`: takes effect at the next link.
    pub fn bind_frag_data_location_indexed(
        &mut self,
        program: Program,
        color: u32,
        index: u32,
        name: &str,
    ) {
        if index > 1
            || (index == 0 && color >= crate::limits::MAX_DRAW_BUFFERS)
            || (index == 1 && color >= crate::limits::MAX_DUAL_SOURCE_DRAW_BUFFERS)
        {
            self.record(GlError::InvalidValue);
            return;
        }
        if name.starts_with("gl_") {
            self.record(GlError::InvalidOperation);
            return;
        }
        let r = self.program_obj_mut(program).map(|p| {
            p.frag_data_bindings
                .insert(name.to_string(), (color, index))
        });
        self.check(r);
    }

    /// `glLinkProgram`: links the attached shaders and runs the NIR pipeline, on
    /// the compiler threads (see [`Context::max_shader_compiler_threads`]). A
    /// failed link sets the link status to false and loses the previous link's
    /// information; if the program is current, its previous executable stays in
    /// use until `glUseProgram` replaces it (GL 3.3 §2.11.2).
    pub fn link_program(&mut self, program: Program) {
        if let Err(e) = self.program_obj(program) {
            return self.record(e);
        }
        // The previous link's result decides what a failed relink keeps.
        self.finish_program(program);
        let Ok(p) = self.program_obj(program) else {
            return;
        };
        let attached = p.attached.clone();
        let bindings = Bindings {
            attribs: p
                .attrib_bindings
                .iter()
                .map(|(n, i)| (n.clone(), *i))
                .collect(),
            frag_data: p
                .frag_data_bindings
                .iter()
                .map(|(n, (c, i))| (n.clone(), *c, *i))
                .collect(),
        };
        // Compatibility: a missing vertex or fragment stage is fixed function.
        let mut stages = Vec::new();
        let mut inputs = Vec::new();
        // What the program is linked from, for the shader cache's key (`None`
        // once a shader was never compiled: such a link fails anyway).
        let mut sources = Some(Vec::with_capacity(attached.len()));
        for s in &attached {
            let Ok(s) = self.shader_obj(*s) else {
                inputs.push(LinkInput::Ready(None, None));
                sources = None;
                continue;
            };
            stages.push(s.stage);
            match (&mut sources, s.source_digest) {
                (Some(list), Some(digest)) => list.push((s.stage, digest)),
                _ => sources = None,
            }
            inputs.push(match &s.pending {
                Some(job) => LinkInput::Compiling(job.clone()),
                None => LinkInput::Ready(s.compiled.clone(), s.skipped.clone()),
            });
        }
        let mut stand_ins = Vec::new();
        // GL 4.3 §7.3: a compute program has no other stages, so no stand-ins.
        if !stages.is_empty() && !stages.contains(&Stage::Compute) {
            if !stages.contains(&Stage::Vertex) && !stages.contains(&Stage::Geometry) {
                stand_ins.push(Stage::Vertex);
            }
            if !stages.contains(&Stage::Fragment) {
                stand_ins.push(Stage::Fragment);
            }
        }
        let lookup =
            sources.and_then(|sources| self.program_lookup(&sources, &stand_ins, &bindings));
        let stand_ins: Vec<_> = stand_ins
            .into_iter()
            .filter_map(|stage| self.fixed_function.get(stage))
            .collect();
        let cache_key = lookup.as_ref().map(|l| l.key);
        let job = link_job(
            &mut self.compile_queue,
            inputs,
            stand_ins,
            bindings,
            program.name(),
            self.compiler_options,
            lookup,
        );
        let current = self.current_program == Some(program);
        if let Ok(p) = self.program_obj_mut(program) {
            p.pending = Some(PendingLink {
                job,
                current,
                cache_key,
            });
        }
        if self.compile_queue.threads() == 0 {
            self.finish_program(program);
        }
    }

    /// `glGetProgramiv(GL_LINK_STATUS)`.
    pub fn get_program_link_status(&mut self, program: Program) -> bool {
        self.finish_program(program);
        let r = self.program_obj(program).map(|p| p.link_status);
        self.check(r).unwrap_or(false)
    }

    /// `glGetProgramInfoLog`.
    pub fn get_program_info_log(&mut self, program: Program) -> String {
        self.finish_program(program);
        let r = self.program_obj(program).map(|p| p.info_log.clone());
        self.check(r).unwrap_or_default()
    }

    /// `glIsProgram`.
    pub fn is_program(&self, program: Program) -> bool {
        matches!(
            self.glsl_objects.get(program.name()),
            Some(GlslObject::Program(p)) if !p.delete_pending
        )
    }

    /// `glUseProgram`; `None` unbinds.
    pub fn use_program(&mut self, program: Option<Program>) {
        // Both the program made current and the one it replaces must have their
        // link results: the latter's decides whether a kept executable goes.
        self.finish_current_program();
        if let Some(p) = program {
            self.finish_program(p);
            match self.program_obj(p) {
                Ok(obj) if !obj.link_status => return self.record(GlError::InvalidOperation),
                Ok(_) => {}
                Err(e) => return self.record(e),
            }
        }
        // GL 4.x §7.10: making a program current resets its subroutine
        // uniforms to defaults.
        if let Some(p) = program {
            if let Ok(obj) = self.program_obj_mut(p) {
                if let Some(linked) = obj.linked.as_deref() {
                    crate::subroutines::reset_defaults(
                        linked,
                        &mut obj.uniforms,
                        &mut obj.subroutine_selections,
                    );
                }
            }
        }
        let previous = std::mem::replace(&mut self.current_program, program);
        if let Some(prev) = previous.filter(|prev| Some(*prev) != program) {
            // The executable a failed relink left in use goes with it.
            if let Ok(p) = self.program_obj_mut(prev) {
                if !p.link_status && p.linked.take().is_some() {
                    self.variants_invalidate(prev);
                }
            }
            self.reap_program(prev);
        }
    }

    /// `glDeleteProgram`: deleted now, or when it stops being current.
    pub fn delete_program(&mut self, program: Program) {
        if let Err(e) = self.program_obj(program) {
            return self.record(e);
        }
        if self.current_program == Some(program) {
            if let Ok(p) = self.program_obj_mut(program) {
                p.delete_pending = true;
            }
        } else {
            self.remove_program(program);
        }
    }

    fn reap_program(&mut self, program: Program) {
        if self.program_obj(program).is_ok_and(|p| p.delete_pending) {
            self.remove_program(program);
        }
    }

    fn remove_program(&mut self, program: Program) {
        if let Some(GlslObject::Program(p)) = self.glsl_objects.remove(program.name()) {
            self.variants_invalidate(program);
            for s in p.attached {
                self.reap_shader(s);
            }
        }
    }

    /// The program in use and its link result, if it has one (not after a
    /// failed relink, though its previous executable still draws).
    pub(crate) fn current_linked(&self) -> Option<(Program, &ProgramObject, &LinkedProgram)> {
        let program = self.current_program?;
        let obj = self.program_obj(program).ok()?;
        Some((program, obj, obj.link_result()?))
    }

    /// rgl's own introspection: the result of `program`'s last link as its
    /// queries see it (waiting for a link in flight), with every stage's final
    /// NIR. `None` after a failed link, before any link, or for a name that is
    /// not a program; it records no GL error.
    pub fn linked_program(&mut self, program: Program) -> Option<&LinkedProgram> {
        self.finish_program(program);
        self.program_obj(program).ok()?.link_result()
    }

    /// `glGetAttribLocation`: the generic index of an active attribute, or -1.
    pub fn get_attrib_location(&mut self, program: Program, name: &str) -> Option<u32> {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let linked = p.link_result().ok_or(GlError::InvalidOperation)?;
            Ok(linked
                .attributes
                .iter()
                .find(|a| a.name == name && a.location >= 0)
                .map(|a| a.location as u32))
        });
        self.check(r).flatten()
    }

    /// `glGetFragDataLocation`: the color number of an active output, or -1.
    pub fn get_frag_data_location(&mut self, program: Program, name: &str) -> i32 {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let linked = p.link_result().ok_or(GlError::InvalidOperation)?;
            Ok(linked
                .frag_outputs
                .iter()
                .find(|a| a.name == name)
                .map_or(-1, |a| a.location))
        });
        self.check(r).unwrap_or(-1)
    }
}
