//! Misuse rows of the subroutine entry points (GL 4.x §7.10). The fixture's
//! programs declare no subroutines: the vertex/fragment program is current,
//! and neither has tessellation stages.

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_OPERATION as OPERATION, INVALID_VALUE as VALUE,
};
use rgl_state::Program;

use crate::fixture::never;
use crate::table::{row, row_with, Row};

fn no_program() -> Program {
    Program(never(41))
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "get_subroutine_uniform_location",
            ENUM,
            "§7.10: shadertype is not a shader stage",
            |c, f| {
                c.get_subroutine_uniform_location(f.prog, gl::TEXTURE_2D, "u");
            },
        ),
        row(
            "get_subroutine_uniform_location",
            VALUE,
            "§7.10: program is no object",
            |c, _| {
                c.get_subroutine_uniform_location(no_program(), gl::VERTEX_SHADER, "u");
            },
        ),
        row(
            "get_subroutine_uniform_location",
            OPERATION,
            "§7.10: the program has no geometry stage (Mesa's error)",
            |c, f| {
                c.get_subroutine_uniform_location(f.prog, gl::GEOMETRY_SHADER, "u");
            },
        ),
        row(
            "get_subroutine_index",
            ENUM,
            "§7.10: shadertype is not a shader stage",
            |c, f| {
                c.get_subroutine_index(f.prog, gl::TEXTURE_2D, "f");
            },
        ),
        row(
            "get_subroutine_index",
            OPERATION,
            "§7.10: program is not linked",
            |c, f| {
                c.get_subroutine_index(f.unlinked, gl::VERTEX_SHADER, "f");
            },
        ),
        row(
            "get_active_subroutine_name",
            VALUE,
            "§7.10: no subroutine has index 0",
            |c, f| {
                c.get_active_subroutine_name(f.prog, gl::FRAGMENT_SHADER, 0);
            },
        ),
        row(
            "get_active_subroutine_name",
            OPERATION,
            "§7.10: the program has no tessellation stage",
            |c, f| {
                c.get_active_subroutine_name(f.prog, gl::TESS_CONTROL_SHADER, 0);
            },
        ),
        row(
            "get_active_subroutine_uniform_name",
            VALUE,
            "§7.10: index past GL_ACTIVE_SUBROUTINE_UNIFORMS",
            |c, f| {
                c.get_active_subroutine_uniform_name(f.prog, gl::VERTEX_SHADER, 0);
            },
        ),
        row(
            "get_active_subroutine_uniform_iv",
            VALUE,
            "§7.10: index past GL_ACTIVE_SUBROUTINE_UNIFORMS",
            |c, f| {
                c.get_active_subroutine_uniform_iv(
                    f.prog,
                    gl::VERTEX_SHADER,
                    0,
                    gl::NUM_COMPATIBLE_SUBROUTINES,
                );
            },
        ),
        row(
            "get_active_subroutine_uniform_iv",
            ENUM,
            "§7.10: shadertype is not a shader stage",
            |c, f| {
                c.get_active_subroutine_uniform_iv(f.prog, gl::TEXTURE_2D, 0, gl::UNIFORM_SIZE);
            },
        ),
        row(
            "get_program_stage_iv",
            ENUM,
            "§7.13: not a stage parameter",
            |c, f| {
                c.get_program_stage_iv(f.prog, gl::VERTEX_SHADER, gl::TEXTURE_2D);
            },
        ),
        row(
            "get_program_stage_iv",
            VALUE,
            "§7.13: program is no object",
            |c, _| {
                c.get_program_stage_iv(no_program(), gl::VERTEX_SHADER, gl::ACTIVE_SUBROUTINES);
            },
        ),
        row(
            "uniform_subroutines_uiv",
            VALUE,
            "§7.10: count differs from GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS",
            |c, _| c.uniform_subroutines_uiv(gl::FRAGMENT_SHADER, &[0]),
        ),
        row(
            "uniform_subroutines_uiv",
            ENUM,
            "§7.10: shadertype is not a shader stage",
            |c, _| c.uniform_subroutines_uiv(gl::TEXTURE_2D, &[]),
        ),
        row_with(
            "uniform_subroutines_uiv",
            OPERATION,
            "§7.10: no current program",
            |c, _| c.use_program(None),
            |c, _| c.uniform_subroutines_uiv(gl::FRAGMENT_SHADER, &[]),
        ),
        row(
            "uniform_subroutines_uiv",
            OPERATION,
            "§7.10: the current program has no geometry stage",
            |c, _| c.uniform_subroutines_uiv(gl::GEOMETRY_SHADER, &[]),
        ),
        row(
            "get_uniform_subroutine_uiv",
            VALUE,
            "§7.10: location past GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS",
            |c, _| {
                c.get_uniform_subroutine_uiv(gl::FRAGMENT_SHADER, 0);
            },
        ),
        row_with(
            "get_uniform_subroutine_uiv",
            OPERATION,
            "§7.10: no current program",
            |c, _| c.use_program(None),
            |c, _| {
                c.get_uniform_subroutine_uiv(gl::FRAGMENT_SHADER, 0);
            },
        ),
    ]
}
