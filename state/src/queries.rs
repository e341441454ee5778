//! Object and hint queries: `glGetProgramiv`, `glGetShaderiv`,
//! `glGetActiveAttrib`, `glGetUniformIndices`, and `glHint` with its
//! `glGetIntegerv` read-back.

use rgl_glsl::types::Type;
use rgl_nir::ir::Primitive;

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::{Program, Shader};
use crate::uniforms::{gl_type, ActiveUniformInfo};
use crate::Context;

/// The `glHint` targets rgl accepts (core and compatibility), in the order of
/// [`crate::fixed_state::FixedState::hints`]. Hints never change rgl's output.
pub const HINT_TARGETS: [u32; 8] = [
    gl::PERSPECTIVE_CORRECTION_HINT,
    gl::POINT_SMOOTH_HINT,
    gl::LINE_SMOOTH_HINT,
    gl::POLYGON_SMOOTH_HINT,
    gl::FOG_HINT,
    gl::GENERATE_MIPMAP_HINT,
    gl::TEXTURE_COMPRESSION_HINT,
    gl::FRAGMENT_SHADER_DERIVATIVE_HINT,
];

fn primitive_enum(p: Primitive) -> u32 {
    match p {
        Primitive::Points => gl::POINTS,
        Primitive::Lines => gl::LINES,
        Primitive::LinesAdjacency => gl::LINES_ADJACENCY,
        Primitive::Triangles => gl::TRIANGLES,
        Primitive::TrianglesAdjacency => gl::TRIANGLES_ADJACENCY,
        Primitive::LineStrip => gl::LINE_STRIP,
        Primitive::TriangleStrip => gl::TRIANGLE_STRIP,
    }
}

/// Length of a name as GL counts it: with the terminating NUL.
fn name_len(s: &str) -> i32 {
    s.len() as i32 + 1
}

impl Context {
    /// `glHint`: `GL_INVALID_ENUM` for an unknown target or mode.
    pub fn hint(&mut self, target: u32, mode: u32) {
        if !matches!(mode, gl::DONT_CARE | gl::FASTEST | gl::NICEST) {
            return self.record(GlError::InvalidEnum);
        }
        match HINT_TARGETS.iter().position(|&t| t == target) {
            Some(i) => self.fixed.hints[i] = mode,
            None => self.record(GlError::InvalidEnum),
        }
    }

    /// The mode of hint `pname`, for `glGetIntegerv`.
    pub(crate) fn hint_parameter(&self, pname: u32) -> Option<i32> {
        let i = HINT_TARGETS.iter().position(|&t| t == pname)?;
        Some(self.fixed.hints[i] as i32)
    }

    /// `glGetProgramiv`. Unknown `pname` → `GL_INVALID_ENUM`; the geometry
    /// queries of a program without a linked geometry shader →
    /// `GL_INVALID_OPERATION`. Counts of an unlinked program are 0.
    pub fn get_program_parameter_i32(&mut self, program: Program, pname: u32) -> i32 {
        if pname != gl::COMPLETION_STATUS_KHR {
            self.finish_program(program);
        }
        let r = self.program_parameter(program, pname);
        self.check(r).unwrap_or(0)
    }

    fn program_parameter(&self, program: Program, pname: u32) -> GlResult<i32> {
        let p = self.program_obj(program)?;
        let linked = p.link_result();
        let max_len =
            |names: &mut dyn Iterator<Item = &str>| names.map(name_len).max().unwrap_or(0);
        Ok(match pname {
            gl::DELETE_STATUS => p.delete_pending as i32,
            // GL_KHR_parallel_shader_compile: whether the link has finished.
            gl::COMPLETION_STATUS_KHR => p.pending.as_ref().is_none_or(|l| l.is_done()) as i32,
            gl::LINK_STATUS => linked.is_some() as i32,
            gl::VALIDATE_STATUS => linked.is_some() as i32,
            gl::INFO_LOG_LENGTH => match p.info_log.len() {
                0 => 0,
                n => n as i32 + 1,
            },
            gl::ATTACHED_SHADERS => p.attached.len() as i32,
            gl::ACTIVE_ATTRIBUTES => linked.map_or(0, |l| l.attributes.len() as i32),
            // Array names are reported with `[0]` (get_active_attrib).
            gl::ACTIVE_ATTRIBUTE_MAX_LENGTH => linked.map_or(0, |l| {
                l.attributes
                    .iter()
                    .map(|a| name_len(&a.name) + if a.ty.is_array() { 3 } else { 0 })
                    .max()
                    .unwrap_or(0)
            }),
            gl::ACTIVE_UNIFORMS => linked.map_or(0, |l| l.uniforms.len() as i32),
            gl::ACTIVE_UNIFORM_MAX_LENGTH => linked.map_or(0, |l| {
                max_len(&mut l.uniforms.iter().map(|u| u.name.as_str()))
            }),
            gl::ACTIVE_UNIFORM_BLOCKS => linked.map_or(0, |l| l.uniform_blocks.len() as i32),
            gl::ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH => linked.map_or(0, |l| {
                max_len(&mut l.uniform_blocks.iter().map(|b| b.name.as_str()))
            }),
            gl::GEOMETRY_VERTICES_OUT
            | gl::GEOMETRY_INPUT_TYPE
            | gl::GEOMETRY_OUTPUT_TYPE
            | gl::GEOMETRY_SHADER_INVOCATIONS => {
                let gs = linked
                    .and_then(|l| l.stage(rgl_glsl::Stage::Geometry))
                    .and_then(|s| s.nir.as_ref())
                    .and_then(|n| n.info.gs)
                    .ok_or(GlError::InvalidOperation)?;
                match pname {
                    gl::GEOMETRY_VERTICES_OUT => gs.vertices_out as i32,
                    gl::GEOMETRY_INPUT_TYPE => primitive_enum(gs.input_primitive) as i32,
                    gl::GEOMETRY_OUTPUT_TYPE => primitive_enum(gs.output_primitive) as i32,
                    _ => gs.invocations as i32,
                }
            }
            _ => return Err(GlError::InvalidEnum),
        })
    }

    /// `glGetShaderiv`. Unknown `pname` → `GL_INVALID_ENUM`.
    pub fn get_shader_parameter_i32(&mut self, shader: Shader, pname: u32) -> i32 {
        if pname != gl::COMPLETION_STATUS_KHR {
            self.finish_shader(shader);
        }
        let r = self.shader_obj(shader).and_then(|s| {
            Ok(match pname {
                gl::SHADER_TYPE => {
                    (match s.stage {
                        rgl_glsl::Stage::Vertex => gl::VERTEX_SHADER,
                        rgl_glsl::Stage::Geometry => gl::GEOMETRY_SHADER,
                        rgl_glsl::Stage::Fragment => gl::FRAGMENT_SHADER,
                        rgl_glsl::Stage::Compute => gl::COMPUTE_SHADER,
                    }) as i32
                }
                gl::DELETE_STATUS => s.delete_pending as i32,
                // GL_KHR_parallel_shader_compile: whether the compile has finished.
                gl::COMPLETION_STATUS_KHR => s.pending.as_ref().is_none_or(|j| j.is_done()) as i32,
                gl::COMPILE_STATUS => s.compile_status() as i32,
                gl::INFO_LOG_LENGTH => match s.info_log.len() {
                    0 => 0,
                    n => n as i32 + 1,
                },
                gl::SHADER_SOURCE_LENGTH => match s.source.len() {
                    0 => 0,
                    n => n as i32 + 1,
                },
                _ => return Err(GlError::InvalidEnum),
            })
        });
        self.check(r).unwrap_or(0)
    }

    /// `glGetActiveAttrib`: the `index`th active vertex attribute of `program`
    /// (GL 3.3 §2.11.3), in the order `GL_ACTIVE_ATTRIBUTES` counts them,
    /// built-ins such as `gl_Vertex` included. An array reports its element
    /// type, its length as the size, and its name with `[0]` (as GL 4.3's
    /// program interface names arrays, which Mesa also does here). An index
    /// past the count, and any index of a program without a link result, is
    /// `GL_INVALID_VALUE`.
    pub fn get_active_attrib(&mut self, program: Program, index: u32) -> Option<ActiveUniformInfo> {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let a = p
                .link_result()
                .and_then(|l| l.attributes.get(index as usize))
                .ok_or(GlError::InvalidValue)?;
            let (elem, size, name) = match &a.ty {
                Type::Array(elem, n) => (&**elem, n.unwrap_or(1) as i32, format!("{}[0]", a.name)),
                ty => (ty, 1, a.name.clone()),
            };
            Ok(ActiveUniformInfo {
                size,
                utype: gl_type(elem),
                name,
            })
        });
        self.check(r)
    }

    /// `glGetUniformIndices`: the active-uniform index of each name, `None` for
    /// `GL_INVALID_INDEX`. A name may carry a trailing `[0]`.
    pub fn get_uniform_indices(&mut self, program: Program, names: &[&str]) -> Vec<Option<u32>> {
        // GL 3.3 §2.11.4: names that are no active uniform give INVALID_INDEX;
        // an unlinked program has none, and that is no error.
        self.finish_program(program);
        let r = self.program_obj(program).map(|p| {
            let base = |s: &str| s.strip_suffix("[0]").unwrap_or(s).to_owned();
            names
                .iter()
                .map(|n| {
                    p.link_result()?
                        .uniforms
                        .iter()
                        .position(|u| base(&u.name) == base(n))
                        .map(|i| i as u32)
                })
                .collect()
        });
        self.check(r).unwrap_or_else(|| vec![None; names.len()])
    }
}
