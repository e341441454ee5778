//! Program interface queries (GL 4.3 §7.3.1 "Program Interfaces",
//! ARB_program_interface_query): `glGetProgramInterfaceiv`,
//! `glGetProgramResourceIndex`, `glGetProgramResourceName`,
//! `glGetProgramResourceiv` and `glGetProgramResourceLocation(Index)` over the
//! linked program's resource lists (`rgl_link::LinkedProgram`).
//!
//! The interfaces and their resources, in index order:
//! * `GL_UNIFORM`: the active uniforms of `glGetActiveUniform` (default block
//!   and uniform block members), then the atomic counter uniforms;
//! * `GL_UNIFORM_BLOCK`, `GL_SHADER_STORAGE_BLOCK`, `GL_ATOMIC_COUNTER_BUFFER`:
//!   the blocks and counter buffers as linked (an array of blocks has one
//!   resource per element);
//! * `GL_BUFFER_VARIABLE`: every storage block's variables, block after block;
//! * `GL_PROGRAM_INPUT`: the vertex attributes of a program with a vertex
//!   stage (a compute program has none); `GL_PROGRAM_OUTPUT`: the fragment
//!   outputs;
//! * `GL_*_SUBROUTINE`: the stage's subroutine functions by ascending index
//!   (the resource index is the subroutine index when no `layout(index)`
//!   leaves gaps); `GL_*_SUBROUTINE_UNIFORM`: its subroutine uniforms, with
//!   their locations and compatible subroutines (`state/src/subroutines.rs`);
//! * the transform feedback interfaces are valid and empty: rgl has no
//!   transform feedback.
//!
//! Errors follow §7.3.1: an unknown interface or property is
//! `GL_INVALID_ENUM`, a property the interface does not have or a
//! `GL_MAX_NAME_LENGTH` / `GL_MAX_NUM_ACTIVE_VARIABLES` query the interface
//! cannot answer is `GL_INVALID_OPERATION`, an index past the list is
//! `GL_INVALID_VALUE`. A program that is not linked has no resources;
//! `glGetProgramResourceLocation` on it is `GL_INVALID_OPERATION`.

use rgl_glsl::types::Type;
use rgl_glsl::Stage;
use rgl_link::program::{AtomicCounterBuffer, StorageBlock};
use rgl_link::LinkedProgram;

use crate::context::Context;
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::Program;
use crate::shader::ProgramObject;
use crate::uniforms::gl_type;

/// `GL_UNSIGNED_INT_ATOMIC_COUNTER`.
const UNSIGNED_INT_ATOMIC_COUNTER: u32 = 0x92DB;

/// The program interfaces (GL 4.3 Table 7.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Interface {
    Uniform,
    UniformBlock,
    AtomicCounterBuffer,
    ProgramInput,
    ProgramOutput,
    BufferVariable,
    ShaderStorageBlock,
    /// `GL_*_SUBROUTINE` of a stage (`None`: a tessellation stage, which rgl's
    /// programs never have), in subroutine index order.
    Subroutine(Option<Stage>),
    /// `GL_*_SUBROUTINE_UNIFORM` of a stage, in declaration order.
    SubroutineUniform(Option<Stage>),
    /// Transform feedback varyings and buffers: valid names, no resources in
    /// rgl.
    Empty,
}

fn interface(e: u32) -> GlResult<Interface> {
    Ok(match e {
        gl::UNIFORM => Interface::Uniform,
        gl::UNIFORM_BLOCK => Interface::UniformBlock,
        gl::ATOMIC_COUNTER_BUFFER => Interface::AtomicCounterBuffer,
        gl::PROGRAM_INPUT => Interface::ProgramInput,
        gl::PROGRAM_OUTPUT => Interface::ProgramOutput,
        gl::BUFFER_VARIABLE => Interface::BufferVariable,
        gl::SHADER_STORAGE_BLOCK => Interface::ShaderStorageBlock,
        gl::VERTEX_SUBROUTINE => Interface::Subroutine(Some(Stage::Vertex)),
        gl::GEOMETRY_SUBROUTINE => Interface::Subroutine(Some(Stage::Geometry)),
        gl::FRAGMENT_SUBROUTINE => Interface::Subroutine(Some(Stage::Fragment)),
        gl::COMPUTE_SUBROUTINE => Interface::Subroutine(Some(Stage::Compute)),
        gl::TESS_CONTROL_SUBROUTINE | gl::TESS_EVALUATION_SUBROUTINE => Interface::Subroutine(None),
        gl::VERTEX_SUBROUTINE_UNIFORM => Interface::SubroutineUniform(Some(Stage::Vertex)),
        gl::GEOMETRY_SUBROUTINE_UNIFORM => Interface::SubroutineUniform(Some(Stage::Geometry)),
        gl::FRAGMENT_SUBROUTINE_UNIFORM => Interface::SubroutineUniform(Some(Stage::Fragment)),
        gl::COMPUTE_SUBROUTINE_UNIFORM => Interface::SubroutineUniform(Some(Stage::Compute)),
        gl::TESS_CONTROL_SUBROUTINE_UNIFORM | gl::TESS_EVALUATION_SUBROUTINE_UNIFORM => {
            Interface::SubroutineUniform(None)
        }
        gl::TRANSFORM_FEEDBACK_VARYING | gl::TRANSFORM_FEEDBACK_BUFFER => Interface::Empty,
        _ => return Err(GlError::InvalidEnum),
    })
}

/// The `GL_REFERENCED_BY_*_SHADER` property's stage, if `prop` is one (the
/// tessellation stages, which rgl lacks, are never referenced).
fn referenced_by(prop: u32) -> Option<Option<Stage>> {
    Some(match prop {
        gl::REFERENCED_BY_VERTEX_SHADER => Some(Stage::Vertex),
        gl::REFERENCED_BY_GEOMETRY_SHADER => Some(Stage::Geometry),
        gl::REFERENCED_BY_FRAGMENT_SHADER => Some(Stage::Fragment),
        gl::REFERENCED_BY_COMPUTE_SHADER => Some(Stage::Compute),
        gl::REFERENCED_BY_TESS_CONTROL_SHADER | gl::REFERENCED_BY_TESS_EVALUATION_SHADER => None,
        _ => return None,
    })
}

/// Whether `prop` is a property GL 4.3 Table 7.2 names at all.
fn known_property(prop: u32) -> bool {
    matches!(
        prop,
        gl::NAME_LENGTH
            | gl::TYPE
            | gl::ARRAY_SIZE
            | gl::OFFSET
            | gl::BLOCK_INDEX
            | gl::ARRAY_STRIDE
            | gl::MATRIX_STRIDE
            | gl::IS_ROW_MAJOR
            | gl::ATOMIC_COUNTER_BUFFER_INDEX
            | gl::BUFFER_BINDING
            | gl::BUFFER_DATA_SIZE
            | gl::NUM_ACTIVE_VARIABLES
            | gl::ACTIVE_VARIABLES
            | gl::TOP_LEVEL_ARRAY_SIZE
            | gl::TOP_LEVEL_ARRAY_STRIDE
            | gl::LOCATION
            | gl::LOCATION_INDEX
            | gl::IS_PER_PATCH
            | gl::LOCATION_COMPONENT
            | gl::NUM_COMPATIBLE_SUBROUTINES
            | gl::COMPATIBLE_SUBROUTINES
    ) || referenced_by(prop).is_some()
}

/// A linked program's resources, gathered once per query.
struct Resources<'a> {
    obj: &'a ProgramObject,
    linked: &'a LinkedProgram,
    storage: Vec<StorageBlock>,
    counters: Vec<AtomicCounterBuffer>,
}

impl<'a> Resources<'a> {
    fn new(obj: &'a ProgramObject, linked: &'a LinkedProgram) -> Resources<'a> {
        Resources {
            obj,
            linked,
            storage: linked.storage_blocks(),
            counters: linked.atomic_counter_buffers(),
        }
    }

    /// The atomic counter uniforms, as (buffer index, counter).
    fn counter_uniforms(&self) -> impl Iterator<Item = (usize, &rgl_link::program::AtomicCounter)> {
        self.counters
            .iter()
            .enumerate()
            .flat_map(|(b, buf)| buf.counters.iter().map(move |c| (b, c)))
    }

    /// The subroutine tables of `stage` (empty without the stage).
    fn subroutines(&self, stage: Option<Stage>) -> rgl_glsl::hir::subroutine::Subroutines {
        stage
            .and_then(|s| self.linked.stage(s))
            .map(|s| s.hir.subroutines.clone())
            .unwrap_or_default()
    }

    /// The subroutine functions of `stage`, by ascending index.
    fn subroutine_functions(
        &self,
        stage: Option<Stage>,
    ) -> Vec<rgl_glsl::hir::subroutine::SubroutineFunction> {
        let mut list = self.subroutines(stage).functions;
        list.sort_by_key(|f| f.index);
        list
    }

    fn has_vertex_inputs(&self) -> bool {
        self.linked.stage(Stage::Vertex).is_some()
    }

    /// The names of `iface`'s resources, in index order.
    fn names(&self, iface: Interface) -> Vec<String> {
        let l = self.linked;
        match iface {
            Interface::Uniform => l
                .uniforms
                .iter()
                .map(|u| u.name.clone())
                .chain(self.counter_uniforms().map(|(_, c)| {
                    if c.array_size > 1 {
                        format!("{}[0]", c.name)
                    } else {
                        c.name.clone()
                    }
                }))
                .collect(),
            Interface::UniformBlock => l.uniform_blocks.iter().map(|b| b.name.clone()).collect(),
            Interface::ShaderStorageBlock => self.storage.iter().map(|b| b.name.clone()).collect(),
            Interface::BufferVariable => self
                .storage
                .iter()
                .flat_map(|b| b.variables.iter().map(|v| v.name.clone()))
                .collect(),
            Interface::ProgramInput if self.has_vertex_inputs() => {
                l.attributes.iter().map(interface_name).collect()
            }
            Interface::ProgramOutput => l.frag_outputs.iter().map(interface_name).collect(),
            Interface::Subroutine(stage) => self
                .subroutine_functions(stage)
                .into_iter()
                .map(|f| f.name)
                .collect(),
            // GL 4.3 §7.3.1.1: an array is listed as its element 0.
            Interface::SubroutineUniform(stage) => self
                .subroutines(stage)
                .uniforms
                .into_iter()
                .map(|u| {
                    if u.dims.is_empty() {
                        u.name
                    } else {
                        format!("{}[0]", u.name)
                    }
                })
                .collect(),
            Interface::ProgramInput | Interface::AtomicCounterBuffer | Interface::Empty => {
                vec![String::new(); self.count(iface)]
            }
        }
    }

    fn count(&self, iface: Interface) -> usize {
        match iface {
            Interface::AtomicCounterBuffer => self.counters.len(),
            Interface::Empty => 0,
            Interface::ProgramInput if !self.has_vertex_inputs() => 0,
            _ => self.names(iface).len(),
        }
    }

    /// The active variables of block-like resource `index`: indices into the
    /// `GL_UNIFORM` or `GL_BUFFER_VARIABLE` list.
    fn active_variables(&self, iface: Interface, index: usize) -> Option<Vec<i32>> {
        match iface {
            Interface::UniformBlock => self
                .linked
                .uniform_blocks
                .get(index)
                .map(|b| b.members.iter().map(|m| *m as i32).collect()),
            Interface::ShaderStorageBlock => {
                let first: usize = self.storage[..index.min(self.storage.len())]
                    .iter()
                    .map(|b| b.variables.len())
                    .sum();
                self.storage.get(index).map(|b| {
                    (first..first + b.variables.len())
                        .map(|i| i as i32)
                        .collect()
                })
            }
            Interface::AtomicCounterBuffer => {
                let first = self.linked.uniforms.len()
                    + self.counters[..index.min(self.counters.len())]
                        .iter()
                        .map(|b| b.counters.len())
                        .sum::<usize>();
                self.counters.get(index).map(|b| {
                    (first..first + b.counters.len())
                        .map(|i| i as i32)
                        .collect()
                })
            }
            _ => None,
        }
    }

    /// Property `prop` of resource `index` of `iface` (already range-checked).
    fn property(&self, iface: Interface, index: usize, prop: u32) -> GlResult<Vec<i32>> {
        if !known_property(prop) {
            return Err(GlError::InvalidEnum);
        }
        let stage_bit = |stages: u32| -> Option<Vec<i32>> {
            let s = referenced_by(prop)?;
            Some(vec![s.map_or(0, |s| (stages >> s as u32) & 1) as i32])
        };
        let one = |v: i32| Ok(vec![v]);
        let name_length = |names: Vec<String>| names.get(index).map_or(0, |n| n.len() as i32 + 1);
        match iface {
            Interface::Uniform => {
                let l = self.linked;
                if let Some(u) = l.uniforms.get(index) {
                    if let Some(v) = stage_bit(u.stages) {
                        return Ok(v);
                    }
                    return match prop {
                        gl::NAME_LENGTH => one(u.name.len() as i32 + 1),
                        gl::TYPE => one(gl_type(&u.ty) as i32),
                        gl::ARRAY_SIZE => one(u.array_size.max(1) as i32),
                        gl::OFFSET => one(u.offset),
                        gl::BLOCK_INDEX => one(u.block.map_or(-1, |b| b as i32)),
                        gl::ARRAY_STRIDE => one(u.array_stride),
                        gl::MATRIX_STRIDE => one(u.matrix_stride),
                        gl::IS_ROW_MAJOR => one(u.row_major as i32),
                        gl::ATOMIC_COUNTER_BUFFER_INDEX => one(-1),
                        gl::LOCATION => one(if u.block.is_some() { -1 } else { u.location }),
                        _ => Err(GlError::InvalidOperation),
                    };
                }
                let (buffer, c) = self
                    .counter_uniforms()
                    .nth(index - l.uniforms.len())
                    .ok_or(GlError::InvalidValue)?;
                if let Some(v) = stage_bit(c.stages) {
                    return Ok(v);
                }
                match prop {
                    gl::NAME_LENGTH => one(name_length(self.names(iface))),
                    gl::TYPE => one(UNSIGNED_INT_ATOMIC_COUNTER as i32),
                    gl::ARRAY_SIZE => one(c.array_size.max(1) as i32),
                    gl::OFFSET => one(c.offset as i32),
                    gl::BLOCK_INDEX | gl::LOCATION => one(-1),
                    gl::ARRAY_STRIDE => one(if c.array_size > 1 { 4 } else { 0 }),
                    gl::MATRIX_STRIDE | gl::IS_ROW_MAJOR => one(0),
                    gl::ATOMIC_COUNTER_BUFFER_INDEX => one(buffer as i32),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::UniformBlock | Interface::ShaderStorageBlock => {
                let (binding, size, stages) = if iface == Interface::UniformBlock {
                    let b = &self.linked.uniform_blocks[index];
                    let binding = self.obj.block_bindings.get(index).copied();
                    (binding.unwrap_or(b.binding), b.data_size, b.stages)
                } else {
                    let b = &self.storage[index];
                    let binding = self.obj.storage_block_bindings.get(index).map(|b| b.1);
                    (binding.unwrap_or(b.binding), b.data_size, b.stages)
                };
                if let Some(v) = stage_bit(stages) {
                    return Ok(v);
                }
                let vars = self.active_variables(iface, index).unwrap_or_default();
                match prop {
                    gl::NAME_LENGTH => one(name_length(self.names(iface))),
                    gl::BUFFER_BINDING => one(binding as i32),
                    gl::BUFFER_DATA_SIZE => one(size as i32),
                    gl::NUM_ACTIVE_VARIABLES => one(vars.len() as i32),
                    gl::ACTIVE_VARIABLES => Ok(vars),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::AtomicCounterBuffer => {
                let b = &self.counters[index];
                if let Some(v) = stage_bit(b.stages) {
                    return Ok(v);
                }
                let vars = self.active_variables(iface, index).unwrap_or_default();
                match prop {
                    gl::BUFFER_BINDING => one(b.binding as i32),
                    gl::BUFFER_DATA_SIZE => one(b.data_size as i32),
                    gl::NUM_ACTIVE_VARIABLES => one(vars.len() as i32),
                    gl::ACTIVE_VARIABLES => Ok(vars),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::BufferVariable => {
                let (block, v) = self
                    .storage
                    .iter()
                    .enumerate()
                    .flat_map(|(k, b)| b.variables.iter().map(move |v| (k, v)))
                    .nth(index)
                    .ok_or(GlError::InvalidValue)?;
                if let Some(bits) = stage_bit(self.storage[block].stages) {
                    return Ok(bits);
                }
                match prop {
                    gl::NAME_LENGTH => one(v.name.len() as i32 + 1),
                    gl::TYPE => one(gl_type(&v.ty) as i32),
                    gl::ARRAY_SIZE => one(v.array_size as i32),
                    gl::OFFSET => one(v.offset),
                    gl::BLOCK_INDEX => one(block as i32),
                    gl::ARRAY_STRIDE => one(v.array_stride),
                    gl::MATRIX_STRIDE => one(v.matrix_stride),
                    gl::IS_ROW_MAJOR => one(v.row_major as i32),
                    gl::TOP_LEVEL_ARRAY_SIZE => one(v.top_level_array_size as i32),
                    gl::TOP_LEVEL_ARRAY_STRIDE => one(v.top_level_array_stride),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::ProgramInput | Interface::ProgramOutput => {
                let input = iface == Interface::ProgramInput;
                let list = if input {
                    &self.linked.attributes
                } else {
                    &self.linked.frag_outputs
                };
                let var = &list[index];
                let stage = if input {
                    Stage::Vertex
                } else {
                    Stage::Fragment
                };
                if let Some(s) = referenced_by(prop) {
                    return one((s == Some(stage)) as i32);
                }
                let (elem, len) = match &var.ty {
                    Type::Array(e, n) => ((**e).clone(), n.unwrap_or(0) as i32),
                    t => (t.clone(), 1),
                };
                match prop {
                    gl::NAME_LENGTH => one(var.name.len() as i32 + 1),
                    gl::TYPE => one(gl_type(&elem) as i32),
                    gl::ARRAY_SIZE => one(len),
                    gl::LOCATION => one(var.location),
                    gl::LOCATION_INDEX if !input => one(if var.location < 0 {
                        -1
                    } else {
                        var.index as i32
                    }),
                    gl::IS_PER_PATCH => one(0),
                    gl::LOCATION_COMPONENT => one(var.component as i32),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::Subroutine(_) => match prop {
                gl::NAME_LENGTH => one(name_length(self.names(iface))),
                _ => Err(GlError::InvalidOperation),
            },
            Interface::SubroutineUniform(stage) => {
                let t = self.subroutines(stage);
                let u = t.uniforms.get(index).ok_or(GlError::InvalidValue)?;
                let compatible = t.compatible(u.ty);
                // GL 4.3 Table 7.2: no `GL_REFERENCED_BY_*` here (the
                // interface names its stage).
                match prop {
                    gl::NAME_LENGTH => one(name_length(self.names(iface))),
                    gl::ARRAY_SIZE => one(u.size() as i32),
                    gl::NUM_COMPATIBLE_SUBROUTINES => one(compatible.len() as i32),
                    gl::COMPATIBLE_SUBROUTINES => {
                        Ok(compatible.iter().map(|&c| c as i32).collect())
                    }
                    gl::LOCATION => one(u.location as i32),
                    _ => Err(GlError::InvalidOperation),
                }
            }
            Interface::Empty => Err(GlError::InvalidValue),
        }
    }
}

/// The resource name of a program input or output: an array is listed as
/// its element 0 (`a[0]`), as GL 4.3 §7.3.1.1 names arrays of basic types.
fn interface_name(v: &rgl_link::program::ProgramVariable) -> String {
    match v.ty {
        Type::Array(..) => format!("{}[0]", v.name),
        _ => v.name.clone(),
    }
}

/// The location of input or output `name` (`v`, `v[2]`): the variable's
/// location plus the element's slots (a matrix element takes one per column).
fn io_location(list: &[rgl_link::program::ProgramVariable], name: &str) -> Option<i32> {
    let (base, element) = match name.strip_suffix(']').and_then(|n| n.rsplit_once('[')) {
        Some((base, k)) => (base, k.parse::<u32>().ok()?),
        None => (name, 0),
    };
    let v = list.iter().find(|v| v.name == base && v.location >= 0)?;
    let (elem, len) = match &v.ty {
        Type::Array(e, n) => (&**e, n.unwrap_or(0)),
        t if element == 0 => (t, 1),
        _ => return None,
    };
    if element >= len {
        return None;
    }
    let slots = match elem {
        Type::Matrix { columns, .. } => u32::from(*columns),
        _ => 1,
    };
    Some(v.location + (element * slots) as i32)
}

/// Whether `query` names resource `name`: exactly, or with `[0]` dropped
/// from an array resource's name (GL 4.3 §7.3.1.1).
fn names_resource(name: &str, query: &str) -> bool {
    name == query || name.strip_suffix("[0]") == Some(query)
}

impl Context {
    /// The program's resources, or `None` when it is not linked.
    fn with_resources<T>(
        &mut self,
        program: Program,
        f: impl FnOnce(Option<&Resources<'_>>) -> GlResult<T>,
    ) -> Option<T> {
        self.finish_program(program);
        let r = self
            .program_obj(program)
            .and_then(|p| match p.link_result() {
                Some(l) => f(Some(&Resources::new(p, l))),
                None => f(None),
            });
        self.check(r)
    }

    /// `glGetProgramInterfaceiv`: `GL_ACTIVE_RESOURCES`, `GL_MAX_NAME_LENGTH`
    /// (not for `GL_ATOMIC_COUNTER_BUFFER`, whose resources have no names),
    /// `GL_MAX_NUM_ACTIVE_VARIABLES` (block-like interfaces only) and
    /// `GL_MAX_NUM_COMPATIBLE_SUBROUTINES` (subroutine uniforms only).
    pub fn get_program_interface_i32(
        &mut self,
        program: Program,
        program_interface: u32,
        pname: u32,
    ) -> i32 {
        self.with_resources(program, |res| {
            let iface = interface(program_interface)?;
            let subroutine_uniforms = (gl::VERTEX_SUBROUTINE_UNIFORM
                ..=gl::COMPUTE_SUBROUTINE_UNIFORM)
                .contains(&program_interface);
            match pname {
                gl::ACTIVE_RESOURCES => Ok(res.map_or(0, |r| r.count(iface) as i32)),
                gl::MAX_NAME_LENGTH => {
                    if iface == Interface::AtomicCounterBuffer {
                        return Err(GlError::InvalidOperation);
                    }
                    Ok(res.map_or(0, |r| {
                        r.names(iface)
                            .iter()
                            .map(|n| n.len() as i32 + 1)
                            .max()
                            .unwrap_or(0)
                    }))
                }
                gl::MAX_NUM_ACTIVE_VARIABLES => match iface {
                    Interface::UniformBlock
                    | Interface::ShaderStorageBlock
                    | Interface::AtomicCounterBuffer => Ok(res.map_or(0, |r| {
                        (0..r.count(iface))
                            .filter_map(|i| r.active_variables(iface, i))
                            .map(|v| v.len() as i32)
                            .max()
                            .unwrap_or(0)
                    })),
                    _ if program_interface == gl::TRANSFORM_FEEDBACK_BUFFER => Ok(0),
                    _ => Err(GlError::InvalidOperation),
                },
                gl::MAX_NUM_COMPATIBLE_SUBROUTINES if subroutine_uniforms => {
                    Ok(res.map_or(0, |r| match iface {
                        Interface::SubroutineUniform(stage) => {
                            let t = r.subroutines(stage);
                            t.uniforms
                                .iter()
                                .map(|u| t.compatible(u.ty).len() as i32)
                                .max()
                                .unwrap_or(0)
                        }
                        _ => 0,
                    }))
                }
                gl::MAX_NUM_COMPATIBLE_SUBROUTINES => Err(GlError::InvalidOperation),
                _ => Err(GlError::InvalidEnum),
            }
        })
        .unwrap_or(0)
    }

    /// `glGetProgramResourceIndex`: `None` is `GL_INVALID_INDEX` (also for an
    /// unlinked program). `GL_ATOMIC_COUNTER_BUFFER` resources have no names:
    /// `GL_INVALID_ENUM`.
    pub fn get_program_resource_index(
        &mut self,
        program: Program,
        program_interface: u32,
        name: &str,
    ) -> Option<u32> {
        self.with_resources(program, |res| {
            let iface = interface(program_interface)?;
            if iface == Interface::AtomicCounterBuffer {
                return Err(GlError::InvalidEnum);
            }
            Ok(res.and_then(|r| {
                r.names(iface)
                    .iter()
                    .position(|n| names_resource(n, name))
                    .map(|i| i as u32)
            }))
        })
        .flatten()
    }

    /// `glGetProgramResourceName`.
    pub fn get_program_resource_name(
        &mut self,
        program: Program,
        program_interface: u32,
        index: u32,
    ) -> String {
        self.with_resources(program, |res| {
            let iface = interface(program_interface)?;
            if iface == Interface::AtomicCounterBuffer {
                return Err(GlError::InvalidEnum);
            }
            res.and_then(|r| r.names(iface).get(index as usize).cloned())
                .ok_or(GlError::InvalidValue)
        })
        .unwrap_or_default()
    }

    /// `glGetProgramResourceiv`: the values of `props` in order (a property
    /// like `GL_ACTIVE_VARIABLES` gives several).
    pub fn get_program_resource_i32(
        &mut self,
        program: Program,
        program_interface: u32,
        index: u32,
        props: &[u32],
    ) -> Vec<i32> {
        self.with_resources(program, |res| {
            let iface = interface(program_interface)?;
            if props.is_empty() {
                return Err(GlError::InvalidValue);
            }
            let r = res.ok_or(GlError::InvalidValue)?;
            if index as usize >= r.count(iface) {
                return Err(GlError::InvalidValue);
            }
            let mut out = Vec::new();
            for &p in props {
                out.extend(r.property(iface, index as usize, p)?);
            }
            Ok(out)
        })
        .unwrap_or_default()
    }

    /// `glGetProgramResourceLocation`: the location `name` (an element like
    /// `a[2]` included) has in `GL_UNIFORM`, `GL_PROGRAM_INPUT` or
    /// `GL_PROGRAM_OUTPUT`, or -1.
    pub fn get_program_resource_location(
        &mut self,
        program: Program,
        program_interface: u32,
        name: &str,
    ) -> i32 {
        match program_interface {
            gl::UNIFORM => {
                if self.linked_program(program).is_none() {
                    return self.location_error(program);
                }
                self.get_uniform_location(program, name)
                    .map_or(-1, |l| l.0 as i32)
            }
            gl::PROGRAM_INPUT | gl::PROGRAM_OUTPUT => {
                if self.linked_program(program).is_none() {
                    return self.location_error(program);
                }
                let input = program_interface == gl::PROGRAM_INPUT;
                self.linked_program(program)
                    .and_then(|l| {
                        let list = if input {
                            &l.attributes
                        } else {
                            &l.frag_outputs
                        };
                        io_location(list, name)
                    })
                    .unwrap_or(-1)
            }
            gl::VERTEX_SUBROUTINE_UNIFORM
            | gl::TESS_CONTROL_SUBROUTINE_UNIFORM
            | gl::TESS_EVALUATION_SUBROUTINE_UNIFORM
            | gl::GEOMETRY_SUBROUTINE_UNIFORM
            | gl::FRAGMENT_SUBROUTINE_UNIFORM
            | gl::COMPUTE_SUBROUTINE_UNIFORM => {
                if self.linked_program(program).is_none() {
                    return self.location_error(program);
                }
                let shadertype = match program_interface {
                    gl::VERTEX_SUBROUTINE_UNIFORM => gl::VERTEX_SHADER,
                    gl::TESS_CONTROL_SUBROUTINE_UNIFORM => gl::TESS_CONTROL_SHADER,
                    gl::TESS_EVALUATION_SUBROUTINE_UNIFORM => gl::TESS_EVALUATION_SHADER,
                    gl::GEOMETRY_SUBROUTINE_UNIFORM => gl::GEOMETRY_SHADER,
                    gl::FRAGMENT_SUBROUTINE_UNIFORM => gl::FRAGMENT_SHADER,
                    _ => gl::COMPUTE_SHADER,
                };
                self.get_subroutine_uniform_location(program, shadertype, name)
            }
            _ => {
                self.record(GlError::InvalidEnum);
                -1
            }
        }
    }

    /// `glGetProgramResourceLocationIndex`: the blend index of fragment output
    /// `name`, or -1.
    pub fn get_program_resource_location_index(
        &mut self,
        program: Program,
        program_interface: u32,
        name: &str,
    ) -> i32 {
        if program_interface != gl::PROGRAM_OUTPUT {
            self.record(GlError::InvalidEnum);
            return -1;
        }
        if self.linked_program(program).is_none() {
            return self.location_error(program);
        }
        self.linked_program(program)
            .and_then(|l| {
                l.frag_outputs
                    .iter()
                    .find(|o| names_resource(&o.name, name) && o.location >= 0)
            })
            .map_or(-1, |o| o.index as i32)
    }

    /// The error of a location query on `program` when it is not a linked
    /// program: the name's own error, else `GL_INVALID_OPERATION`.
    fn location_error(&mut self, program: Program) -> i32 {
        let r = self
            .program_obj(program)
            .and(Err::<(), _>(GlError::InvalidOperation));
        self.check(r);
        -1
    }
}
