//! Shader subroutines in the GL API (GL 4.x §7.10 "Subroutine Uniform
//! Variables", ARB_shader_subroutine): the queries of a program's subroutines
//! and subroutine uniforms per stage, `glUniformSubroutinesuiv` and
//! `glGetUniformSubroutineuiv`.
//!
//! The front end stores each subroutine uniform's selection in a hidden `uint`
//! default-block uniform ([`rgl_glsl::hir::subroutine`]); this module writes the
//! selected indices there. As GL requires, the selections of a stage are reset
//! to defaults (the lowest compatible index) whenever the program is linked or
//! made current.

use rgl_glsl::hir::subroutine::{storage_name, Subroutines};
use rgl_glsl::Stage;
use rgl_link::LinkedProgram;

use crate::context::Context;
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::Program;
use crate::uniforms::UniformStorage;

use crate::gl::{
    ACTIVE_SUBROUTINES, ACTIVE_SUBROUTINE_MAX_LENGTH, ACTIVE_SUBROUTINE_UNIFORMS,
    ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH,
    COMPATIBLE_SUBROUTINES, NUM_COMPATIBLE_SUBROUTINES, TESS_CONTROL_SHADER,
    TESS_EVALUATION_SHADER,
};

/// The stage a `shadertype` names: `Ok(None)` for the tessellation stages,
/// which rgl's programs never have; `INVALID_ENUM` for anything else.
fn stage_of(shadertype: u32) -> GlResult<Option<Stage>> {
    match shadertype {
        gl::VERTEX_SHADER => Ok(Some(Stage::Vertex)),
        gl::GEOMETRY_SHADER => Ok(Some(Stage::Geometry)),
        gl::FRAGMENT_SHADER => Ok(Some(Stage::Fragment)),
        gl::COMPUTE_SHADER => Ok(Some(Stage::Compute)),
        TESS_CONTROL_SHADER | TESS_EVALUATION_SHADER => Ok(None),
        _ => Err(GlError::InvalidEnum),
    }
}

/// The subroutine tables of `stage` of `linked` (empty without the stage).
fn tables(linked: &LinkedProgram, stage: Option<Stage>) -> Subroutines {
    stage
        .and_then(|s| linked.stage(s))
        .map(|s| s.hir.subroutines.clone())
        .unwrap_or_default()
}

/// `GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`: one past the highest location.
fn location_count(t: &Subroutines) -> u32 {
    t.uniforms
        .iter()
        .map(|u| u.location + u.size())
        .max()
        .unwrap_or(0)
}

/// The uniform and element at `location`.
fn at_location(t: &Subroutines, location: u32) -> Option<(usize, u32)> {
    t.uniforms.iter().enumerate().find_map(|(i, u)| {
        (location >= u.location && location < u.location + u.size())
            .then(|| (i, location - u.location))
    })
}

/// The name GL reports for subroutine uniform `u`: arrays end in `[0]`.
fn uniform_name(t: &Subroutines, u: usize) -> String {
    let u = &t.uniforms[u];
    if u.dims.is_empty() {
        u.name.clone()
    } else {
        format!("{}[0]", u.name)
    }
}

/// Parses `name`, `name[i]`, `name[i][j]` into the base and indices.
fn split_indices(name: &str) -> Option<(&str, Vec<u32>)> {
    let Some(open) = name.find('[') else {
        return Some((name, Vec::new()));
    };
    let (base, mut rest) = name.split_at(open);
    let mut indices = Vec::new();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let close = inner.find(']')?;
        indices.push(inner[..close].parse().ok()?);
        rest = &inner[close + 1..];
    }
    Some((base, indices))
}

/// Sets every subroutine uniform of every stage to its lowest compatible
/// index: the selections the API reports, and the storage the shaders read.
pub(crate) fn reset_defaults(
    linked: &LinkedProgram,
    storage: &mut UniformStorage,
    selections: &mut Vec<(Stage, Vec<u32>)>,
) {
    selections.clear();
    for stage in &linked.stages {
        let t = &stage.hir.subroutines;
        let mut values = vec![0u32; location_count(t) as usize];
        for u in &t.uniforms {
            let default = t.compatible(u.ty).first().copied().unwrap_or(0);
            for e in 0..u.size() {
                if let Some(v) = values.get_mut((u.location + e) as usize) {
                    *v = default;
                }
            }
        }
        write_storage(linked, stage.stage, t, &values, storage);
        selections.push((stage.stage, values));
    }
    storage.serial += 1;
}

/// Writes the selection of every location of `stage` into the storage of the
/// subroutine uniforms the linker kept (an unused one has none: nothing reads
/// it).
fn write_storage(
    linked: &LinkedProgram,
    stage: Stage,
    t: &Subroutines,
    values: &[u32],
    storage: &mut UniformStorage,
) {
    for u in &t.uniforms {
        let Some(slot) = slot_of(linked, stage, &u.name) else {
            continue;
        };
        for e in 0..u.size() {
            let value = values.get((u.location + e) as usize).copied();
            let words = storage.slots.get_mut(slot as usize + e as usize);
            if let (Some(value), Some(words)) = (value, words) {
                words[0] = value;
            }
        }
    }
}

/// The first storage slot of subroutine uniform `name` of `stage`.
fn slot_of(linked: &LinkedProgram, stage: Stage, name: &str) -> Option<u32> {
    let hidden = storage_name(stage, name);
    linked
        .subroutine_slots
        .iter()
        .find(|(n, _)| *n == hidden)
        .map(|(_, s)| *s)
}

impl Context {
    /// The link result of `program` for a query (after any pending link).
    fn linked_for_query(&mut self, program: Program) -> GlResult<LinkedProgram> {
        self.finish_program(program);
        let obj = self.program_obj(program)?;
        obj.link_result().cloned().ok_or(GlError::InvalidOperation)
    }

    /// The subroutine tables of the stage `shadertype` of `program`. A stage
    /// the program lacks is `GL_INVALID_OPERATION`, as in Mesa's
    /// `_mesa_GetSubroutineIndex` and its kin.
    fn subroutine_tables(&mut self, program: Program, shadertype: u32) -> GlResult<Subroutines> {
        let stage = stage_of(shadertype)?;
        let linked = self.linked_for_query(program)?;
        if stage.is_none_or(|s| linked.stage(s).is_none()) {
            return Err(GlError::InvalidOperation);
        }
        Ok(tables(&linked, stage))
    }

    /// `glGetSubroutineUniformLocation`: -1 for a name that is not an active
    /// subroutine uniform of the stage (or an element past its end).
    pub fn get_subroutine_uniform_location(
        &mut self,
        program: Program,
        shadertype: u32,
        name: &str,
    ) -> i32 {
        let r = self.subroutine_tables(program, shadertype).map(|t| {
            let Some((base, indices)) = split_indices(name) else {
                return -1;
            };
            let Some(u) = t.uniforms.iter().find(|u| u.name == base) else {
                return -1;
            };
            if indices.len() > u.dims.len() {
                return -1;
            }
            let mut element = 0u32;
            for (d, &n) in u.dims.iter().enumerate() {
                let i = indices.get(d).copied().unwrap_or(0);
                if i >= n {
                    return -1;
                }
                element = element * n + i;
            }
            (u.location + element) as i32
        });
        self.check(r).unwrap_or(-1)
    }

    /// `glGetSubroutineIndex`: `GL_INVALID_INDEX` for a name that is not a
    /// subroutine function of the stage.
    pub fn get_subroutine_index(&mut self, program: Program, shadertype: u32, name: &str) -> u32 {
        let r = self.subroutine_tables(program, shadertype).map(|t| {
            t.functions
                .iter()
                .find(|f| f.name == name)
                .map_or(gl::INVALID_INDEX, |f| f.index)
        });
        self.check(r).unwrap_or(gl::INVALID_INDEX)
    }

    /// `glGetActiveSubroutineName` for the function with index `index`.
    pub fn get_active_subroutine_name(
        &mut self,
        program: Program,
        shadertype: u32,
        index: u32,
    ) -> String {
        let r = self.subroutine_tables(program, shadertype).and_then(|t| {
            t.functions
                .iter()
                .find(|f| f.index == index)
                .map(|f| f.name.clone())
                .ok_or(GlError::InvalidValue)
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetActiveSubroutineUniformName` for active subroutine uniform `index`.
    pub fn get_active_subroutine_uniform_name(
        &mut self,
        program: Program,
        shadertype: u32,
        index: u32,
    ) -> String {
        let r = self.subroutine_tables(program, shadertype).and_then(|t| {
            if (index as usize) < t.uniforms.len() {
                Ok(uniform_name(&t, index as usize))
            } else {
                Err(GlError::InvalidValue)
            }
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetActiveSubroutineUniformiv`: `GL_NUM_COMPATIBLE_SUBROUTINES`,
    /// `GL_COMPATIBLE_SUBROUTINES` (the list), `GL_UNIFORM_SIZE`,
    /// `GL_UNIFORM_NAME_LENGTH` (with the terminator).
    pub fn get_active_subroutine_uniform_iv(
        &mut self,
        program: Program,
        shadertype: u32,
        index: u32,
        pname: u32,
    ) -> Vec<i32> {
        let r = self.subroutine_tables(program, shadertype).and_then(|t| {
            let i = index as usize;
            let u = t.uniforms.get(i).ok_or(GlError::InvalidValue)?;
            let compatible = t.compatible(u.ty);
            Ok(match pname {
                NUM_COMPATIBLE_SUBROUTINES => vec![compatible.len() as i32],
                COMPATIBLE_SUBROUTINES => compatible.iter().map(|&c| c as i32).collect(),
                gl::UNIFORM_SIZE => vec![u.size() as i32],
                gl::UNIFORM_NAME_LENGTH => vec![uniform_name(&t, i).len() as i32 + 1],
                _ => return Err(GlError::InvalidEnum),
            })
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetProgramStageiv`.
    /// A stage the program lacks has no subroutines (every count is 0).
    pub fn get_program_stage_iv(&mut self, program: Program, shadertype: u32, pname: u32) -> i32 {
        let r = stage_of(shadertype).and_then(|stage| {
            let t = tables(&self.linked_for_query(program)?, stage);
            let longest = |names: &mut dyn Iterator<Item = String>| {
                names.map(|n| n.len() as i32 + 1).max().unwrap_or(0)
            };
            Ok(match pname {
                ACTIVE_SUBROUTINES => t.functions.len() as i32,
                ACTIVE_SUBROUTINE_UNIFORMS => t.uniforms.len() as i32,
                ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS => location_count(&t) as i32,
                ACTIVE_SUBROUTINE_MAX_LENGTH => {
                    longest(&mut t.functions.iter().map(|f| f.name.clone()))
                }
                ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH => {
                    longest(&mut (0..t.uniforms.len()).map(|i| uniform_name(&t, i)))
                }
                _ => return Err(GlError::InvalidEnum),
            })
        });
        self.check(r).unwrap_or(0)
    }

    /// `glUniformSubroutinesuiv`: selects a function for every subroutine
    /// uniform location of the stage of the current program. Nothing changes
    /// on an error.
    pub fn uniform_subroutines_uiv(&mut self, shadertype: u32, indices: &[u32]) {
        self.finish_current_program();
        let r = self.uniform_subroutines_inner(shadertype, indices);
        self.check(r);
    }

    /// The current program, its executable (the one in use, also after a
    /// failed relink) and the stage `shadertype`, which it must have.
    fn current_stage(&self, shadertype: u32) -> GlResult<(Program, &LinkedProgram, Stage)> {
        let stage = stage_of(shadertype)?;
        let program = self.current_program.ok_or(GlError::InvalidOperation)?;
        let obj = self.program_obj(program)?;
        let linked = obj.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        match stage.filter(|s| linked.stage(*s).is_some()) {
            Some(stage) => Ok((program, linked, stage)),
            None => Err(GlError::InvalidOperation),
        }
    }

    fn uniform_subroutines_inner(&mut self, shadertype: u32, indices: &[u32]) -> GlResult<()> {
        let (program, linked, stage) = self.current_stage(shadertype)?;
        let t = tables(linked, Some(stage));
        if indices.len() as u32 != location_count(&t) {
            return Err(GlError::InvalidValue);
        }
        for (location, &index) in indices.iter().enumerate() {
            let Some((u, _)) = at_location(&t, location as u32) else {
                // A location no uniform uses (explicit locations leave gaps).
                continue;
            };
            if !t.functions.iter().any(|f| f.index == index) {
                return Err(GlError::InvalidValue);
            }
            if !t.compatible(t.uniforms[u].ty).contains(&index) {
                return Err(GlError::InvalidOperation);
            }
        }
        let linked = linked.clone();
        let obj = self.program_obj_mut(program)?;
        write_storage(&linked, stage, &t, indices, &mut obj.uniforms);
        match obj
            .subroutine_selections
            .iter_mut()
            .find(|(s, _)| *s == stage)
        {
            Some((_, values)) => *values = indices.to_vec(),
            None => obj.subroutine_selections.push((stage, indices.to_vec())),
        }
        obj.uniforms.serial += 1;
        Ok(())
    }

    /// `glGetUniformSubroutineuiv`: the function selected at `location` of
    /// the stage of the current program.
    pub fn get_uniform_subroutine_uiv(&mut self, shadertype: u32, location: i32) -> u32 {
        self.finish_current_program();
        let r = (|| {
            let (program, _, stage) = self.current_stage(shadertype)?;
            let obj = self.program_obj(program)?;
            let location = usize::try_from(location).map_err(|_| GlError::InvalidValue)?;
            obj.subroutine_selections
                .iter()
                .find(|(s, _)| *s == stage)
                .and_then(|(_, values)| values.get(location).copied())
                .ok_or(GlError::InvalidValue)
        })();
        self.check(r).unwrap_or(0)
    }
}
#[cfg(test)]
mod tests {
    use super::split_indices;

    #[test]
    fn splits_array_names() {
        assert_eq!(split_indices("f"), Some(("f", vec![])));
        assert_eq!(split_indices("f[3]"), Some(("f", vec![3])));
        assert_eq!(split_indices("g[1][0]"), Some(("g", vec![1, 0])));
        assert_eq!(split_indices("g[1"), None);
        assert_eq!(split_indices("g[x]"), None);
        assert_eq!(split_indices("g[1]x"), None);
    }
}
