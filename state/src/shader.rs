//! Shader and program objects (`glCreateShader` … `glUseProgram`): their shared
//! name space, compile and link through rgl's pipeline, info logs, attach/detach and
//! the deferred deletion rules of GL.

use std::collections::BTreeMap;

use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::{Bindings, LinkedProgram};

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
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
    /// Result of the last `glCompileShader`.
    pub compiled: Option<CompiledShader>,
    /// Info log of the last compile.
    pub info_log: String,
    /// `glDeleteShader` was called while attached.
    pub delete_pending: bool,
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
    /// Incremented at every successful link; variant caches key on it.
    pub generation: u64,
    /// What the draw-time variant key needs to know about the linked program,
    /// computed once per link.
    pub(crate) traits: ProgramTraits,
    /// `glDeleteProgram` was called while current.
    pub delete_pending: bool,
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
        let r = self
            .shader_obj_mut(shader)
            .map(|s| s.source = source.to_string());
        self.check(r);
    }

    /// `glCompileShader`: compiles the current source with rgl's front end.
    pub fn compile_shader(&mut self, shader: Shader) {
        let r = self.shader_obj_mut(shader).map(|s| {
            let mut options = CompileOptions::new(s.stage);
            options.name = Some(shader.name());
            let compiled = compile(&s.source, &options);
            s.info_log = compiled.info_log.to_string();
            s.compiled = Some(compiled);
        });
        self.check(r);
    }

    /// `glGetShaderiv(GL_COMPILE_STATUS)`.
    pub fn get_shader_compile_status(&mut self, shader: Shader) -> bool {
        let r = self
            .shader_obj(shader)
            .map(|s| s.compiled.as_ref().is_some_and(CompiledShader::success));
        self.check(r).unwrap_or(false)
    }

    /// `glGetShaderInfoLog`.
    pub fn get_shader_info_log(&mut self, shader: Shader) -> String {
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

    /// `glLinkProgram`: links the attached shaders and runs the NIR pipeline. A
    /// failed link sets the link status to false and loses the previous link's
    /// information; if the program is current, its previous executable stays in
    /// use until `glUseProgram` replaces it (GL 3.3 §2.11.2).
    pub fn link_program(&mut self, program: Program) {
        let attached = match self.program_obj(program) {
            Ok(p) => p.attached.clone(),
            Err(e) => return self.record(e),
        };
        // Compatibility: a missing vertex or fragment stage is fixed function.
        let stages: Vec<Stage> = attached
            .iter()
            .filter_map(|s| self.shader_obj(*s).ok().map(|s| s.stage))
            .collect();
        let mut stand_ins = Vec::new();
        if !stages.is_empty() {
            if !stages.contains(&Stage::Vertex) && !stages.contains(&Stage::Geometry) {
                stand_ins.push(Stage::Vertex);
            }
            if !stages.contains(&Stage::Fragment) {
                stand_ins.push(Stage::Fragment);
            }
        }
        for &stage in &stand_ins {
            self.fixed_function.get(stage);
        }
        let mut shaders = Vec::new();
        let mut log = String::new();
        for s in &attached {
            match self.shader_obj(*s).ok().and_then(|s| s.compiled.as_ref()) {
                Some(c) if c.success() => shaders.push(c),
                _ => log = "error: linking with uncompiled/unspecialized shader\n".into(),
            }
        }
        shaders.extend(
            stand_ins
                .iter()
                .filter_map(|&s| self.fixed_function.peek(s)),
        );
        let Ok(p) = self.program_obj(program) else {
            return;
        };
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
        let result = if !log.is_empty() {
            Err(log)
        } else {
            let options = PipelineOptions {
                name: program.name(),
                compiler: self.compiler_options,
                ..PipelineOptions::default()
            };
            build_program(&shaders, &bindings, options).map_err(|l| l.to_string())
        };
        let current = self.current_program == Some(program);
        let Ok(p) = self.program_obj_mut(program) else {
            return;
        };
        p.link_status = result.is_ok();
        match result {
            Ok(linked) => {
                p.info_log = linked
                    .warnings
                    .iter()
                    .map(|w| format!("warning: {w}\n"))
                    .collect();
                p.uniforms = UniformStorage::new(&linked);
                p.block_bindings = linked.uniform_blocks.iter().map(|b| b.binding).collect();
                p.traits = ProgramTraits::of(&linked);
                p.linked = Some(Box::new(linked));
                p.generation += 1;
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

    /// `glGetProgramiv(GL_LINK_STATUS)`.
    pub fn get_program_link_status(&mut self, program: Program) -> bool {
        let r = self.program_obj(program).map(|p| p.link_status);
        self.check(r).unwrap_or(false)
    }

    /// `glGetProgramInfoLog`.
    pub fn get_program_info_log(&mut self, program: Program) -> String {
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
        if let Some(p) = program {
            match self.program_obj(p) {
                Ok(obj) if !obj.link_status => return self.record(GlError::InvalidOperation),
                Ok(_) => {}
                Err(e) => return self.record(e),
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

    /// `glGetAttribLocation`: the generic index of an active attribute, or -1.
    pub fn get_attrib_location(&mut self, program: Program, name: &str) -> Option<u32> {
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
