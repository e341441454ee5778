//! Misuse rows of the uniform APIs (GL 3.3 §2.11.4, §2.11.5, §6.1.10): the
//! location and active-uniform queries, uniform blocks, and every uniform
//! setter (three rows each, from `uniform_rows!`), and of the state queries
//! (§6.1).

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE};
use rgl_state::{Program, UniformLocation};

use crate::fixture::never;
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

fn fake_program() -> Program {
    Program(never(1))
}

/// A location no uniform of the fixture's program has.
const NOWHERE: UniformLocation = UniformLocation(9999);

/// Rows for a uniform setter: no current program, a location of a uniform of
/// another type or size, and a location the current program does not have
/// (GL 3.3 §2.11.4, "Loading uniform variables").
macro_rules! uniform_rows {
    ($out:ident; $($ep:ident ($($arg:expr),*) on $wrong:ident;)*) => {
        $(
            $out.push(row_with(
                stringify!($ep), OP, "§2.11.4: no current program object",
                |c, _| c.use_program(None),
                |c, f| c.$ep(Some(&f.loc_f) $(, $arg)*),
            ));
            $out.push(row(
                stringify!($ep), OP,
                "§2.11.4: command type or size differs from the uniform's",
                |c, f| c.$ep(Some(&f.$wrong) $(, $arg)*),
            ));
            $out.push(row(
                stringify!($ep), OP, "§2.11.4: location is not one of the current program",
                |c, _| c.$ep(Some(&NOWHERE) $(, $arg)*),
            ));
        )*
    };
}

pub fn rows() -> Vec<Row> {
    let mut r = vec![
        // Uniform variables and blocks, GL 3.3 §2.11.4, §6.1.10.
        row(
            "get_uniform_location",
            OP,
            "§2.11.4: program is not linked",
            |c, f| {
                c.get_uniform_location(f.unlinked, "u_f");
            },
        ),
        row(
            "get_uniform_location",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_uniform_location(fake_program(), "u_f");
            },
        ),
        row(
            "get_uniform_location",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_uniform_location(Program(f.vs.0), "u_f");
            },
        ),
        row(
            "get_active_uniform",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS",
            |c, f| {
                c.get_active_uniform(f.prog, 100);
            },
        ),
        row(
            "get_active_uniform",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS (0 for an unlinked program)",
            |c, f| {
                c.get_active_uniform(f.unlinked, 0);
            },
        ),
        row(
            "get_active_uniform",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform(fake_program(), 0);
            },
        ),
        row(
            "get_active_uniform",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_active_uniform(Program(f.vs.0), 0);
            },
        ),
        row(
            "get_active_uniform_name",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS",
            |c, f| {
                c.get_active_uniform_name(f.prog, 100);
            },
        ),
        row(
            "get_active_uniform_name",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS (0 for an unlinked program)",
            |c, f| {
                c.get_active_uniform_name(f.unlinked, 0);
            },
        ),
        row(
            "get_active_uniform_name",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform_name(fake_program(), 0);
            },
        ),
        row(
            "get_active_uniform_name",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_active_uniform_name(Program(f.vs.0), 0);
            },
        ),
        row(
            "get_active_uniform_block_name",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORM_BLOCKS",
            |c, f| {
                c.get_active_uniform_block_name(f.prog, 100);
            },
        ),
        row(
            "get_active_uniform_block_name",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORM_BLOCKS (0 for an unlinked program)",
            |c, f| {
                c.get_active_uniform_block_name(f.unlinked, 0);
            },
        ),
        row(
            "get_active_uniform_block_name",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform_block_name(fake_program(), 0);
            },
        ),
        row(
            "get_active_uniform_block_name",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_active_uniform_block_name(Program(f.vs.0), 0);
            },
        ),
        row(
            "get_active_uniform_block_uniform_indices",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORM_BLOCKS",
            |c, f| {
                c.get_active_uniform_block_uniform_indices(f.prog, 100);
            },
        ),
        row(
            "get_active_uniform_block_uniform_indices",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORM_BLOCKS (0 for an unlinked program)",
            |c, f| {
                c.get_active_uniform_block_uniform_indices(f.unlinked, 0);
            },
        ),
        row(
            "get_active_uniform_block_uniform_indices",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform_block_uniform_indices(fake_program(), 0);
            },
        ),
        row(
            "get_active_uniform_block_uniform_indices",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_active_uniform_block_uniform_indices(Program(f.vs.0), 0);
            },
        ),
        row(
            "get_active_attrib",
            VALUE,
            "§2.11.3: index >= ACTIVE_ATTRIBUTES",
            |c, f| {
                c.get_active_attrib(f.prog, 100);
            },
        ),
        row(
            "get_active_attrib",
            VALUE,
            "§2.11.3: index >= ACTIVE_ATTRIBUTES (0 for an unlinked program)",
            |c, f| {
                c.get_active_attrib(f.unlinked, 0);
            },
        ),
        row(
            "get_active_attrib",
            VALUE,
            "§2.11.3: program is not a name",
            |c, _| {
                c.get_active_attrib(fake_program(), 0);
            },
        ),
        row(
            "get_active_attrib",
            OP,
            "§2.11.3: program names a shader",
            |c, f| {
                c.get_active_attrib(Program(f.vs.0), 0);
            },
        ),
        row(
            "get_active_uniform_parameter_i32",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS",
            |c, f| {
                c.get_active_uniform_parameter_i32(f.prog, 100, gl::UNIFORM_TYPE);
            },
        ),
        row(
            "get_active_uniform_parameter_i32",
            VALUE,
            "§2.11.4: index >= ACTIVE_UNIFORMS (0 for an unlinked program)",
            |c, f| {
                c.get_active_uniform_parameter_i32(f.unlinked, 0, gl::UNIFORM_TYPE);
            },
        ),
        row(
            "get_active_uniform_parameter_i32",
            ENUM,
            "§2.11.4: pname is not a uniform parameter",
            |c, f| {
                c.get_active_uniform_parameter_i32(f.prog, 0, BAD);
            },
        ),
        row(
            "get_active_uniform_parameter_i32",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform_parameter_i32(fake_program(), 0, gl::UNIFORM_TYPE);
            },
        ),
        row(
            "get_uniform_indices",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_uniform_indices(fake_program(), &["u_f"]);
            },
        ),
        row(
            "get_uniform_indices",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_uniform_indices(Program(f.vs.0), &["u_f"]);
            },
        ),
        row(
            "get_uniform_block_index",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_uniform_block_index(fake_program(), "Block");
            },
        ),
        row(
            "get_uniform_block_index",
            OP,
            "§2.11.4: program names a shader",
            |c, f| {
                c.get_uniform_block_index(Program(f.vs.0), "Block");
            },
        ),
        row(
            "uniform_block_binding",
            VALUE,
            "§2.11.4: uniformBlockIndex is not an active block",
            |c, f| c.uniform_block_binding(f.prog, 5, 1),
        ),
        row(
            "uniform_block_binding",
            VALUE,
            "§2.11.4: binding >= MAX_UNIFORM_BUFFER_BINDINGS",
            |c, f| c.uniform_block_binding(f.prog, 0, 1000),
        ),
        row(
            "uniform_block_binding",
            VALUE,
            "§2.11.4: uniformBlockIndex is not an active block (an unlinked program)",
            |c, f| c.uniform_block_binding(f.unlinked, 0, 1),
        ),
        row(
            "uniform_block_binding",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| c.uniform_block_binding(fake_program(), 0, 1),
        ),
        row(
            "get_active_uniform_block_parameter_i32",
            VALUE,
            "§2.11.4: uniformBlockIndex >= ACTIVE_UNIFORM_BLOCKS",
            |c, f| {
                c.get_active_uniform_block_parameter_i32(f.prog, 5, gl::UNIFORM_BLOCK_BINDING);
            },
        ),
        row(
            "get_active_uniform_block_parameter_i32",
            VALUE,
            "§2.11.4: uniformBlockIndex >= ACTIVE_UNIFORM_BLOCKS (an unlinked program)",
            |c, f| {
                let p = gl::UNIFORM_BLOCK_BINDING;
                c.get_active_uniform_block_parameter_i32(f.unlinked, 0, p);
            },
        ),
        row(
            "get_active_uniform_block_parameter_i32",
            ENUM,
            "§2.11.4: pname is not a block parameter",
            |c, f| {
                c.get_active_uniform_block_parameter_i32(f.prog, 0, BAD);
            },
        ),
        row(
            "get_active_uniform_block_parameter_i32",
            VALUE,
            "§2.11.4: program is not a name",
            |c, _| {
                c.get_active_uniform_block_parameter_i32(
                    fake_program(),
                    0,
                    gl::UNIFORM_BLOCK_BINDING,
                );
            },
        ),
        row(
            "get_uniform_words",
            OP,
            "§6.1.10: program is not linked",
            |c, f| {
                c.get_uniform_words(f.unlinked, &f.loc_f);
            },
        ),
        row(
            "get_uniform_words",
            OP,
            "§6.1.10: location is not of the program",
            |c, f| {
                c.get_uniform_words(f.prog, &NOWHERE);
            },
        ),
        row(
            "get_uniform_words",
            VALUE,
            "§6.1.10: program is not a name",
            |c, f| {
                c.get_uniform_words(fake_program(), &f.loc_f);
            },
        ),
        row(
            "get_uniform_words",
            OP,
            "§6.1.10: program names a shader",
            |c, f| {
                c.get_uniform_words(Program(f.vs.0), &f.loc_f);
            },
        ),
        row(
            "uniform_1_i32",
            VALUE,
            "§2.11.5: a sampler set to a unit >= MAX_COMBINED_TEXTURE_IMAGE_UNITS",
            |c, f| c.uniform_1_i32(Some(&f.loc_s), 1000),
        ),
        row(
            "uniform_1_f32",
            OP,
            "§2.11.4: a sampler loaded with Uniform1f",
            |c, f| c.uniform_1_f32(Some(&f.loc_s), 1.0),
        ),
        row(
            "uniform_1_f32_slice",
            OP,
            "§2.11.4: count > 1 for a uniform that is not an array",
            |c, f| c.uniform_1_f32_slice(Some(&f.loc_f), &[1.0, 2.0]),
        ),
        row(
            "uniform_2_f32_slice",
            OP,
            "§2.11.4: command size differs from the array element's",
            |c, f| c.uniform_2_f32_slice(Some(&f.loc_arr), &[1.0, 2.0]),
        ),
        row(
            "uniform_4_f32_slice",
            OP,
            "§2.11.4: count > 1 for a uniform that is not an array",
            |c, f| c.uniform_4_f32_slice(Some(&f.loc_v), &[1.0; 8]),
        ),
        row(
            "uniform_1_u32_slice",
            OP,
            "§2.11.4: count > 1 for a uniform that is not an array",
            |c, f| c.uniform_1_u32_slice(Some(&f.loc_u), &[1, 2]),
        ),
        // State queries, GL 3.3 §6.1.
        row(
            "get_parameter_i32",
            ENUM,
            "§6.1.1: pname is not a state variable",
            |c, _| {
                c.get_parameter_i32(BAD);
            },
        ),
        row(
            "get_parameter_i32_slice",
            ENUM,
            "§6.1.1: pname is not a state variable",
            |c, _| c.get_parameter_i32_slice(BAD, &mut [0; 4]),
        ),
        row(
            "get_parameter_f32_slice",
            ENUM,
            "§6.1.1: pname is not a state variable",
            |c, _| c.get_parameter_f32_slice(BAD, &mut [0.0; 4]),
        ),
        row(
            "get_parameter_indexed_i32",
            VALUE,
            "§6.1.15: index >= MAX_UNIFORM_BUFFER_BINDINGS",
            |c, _| {
                c.get_parameter_indexed_i32(gl::UNIFORM_BUFFER_BINDING, 1000);
            },
        ),
        row(
            "get_parameter_indexed_i32",
            ENUM,
            "§6.1.15: pname is not indexed state",
            |c, _| {
                c.get_parameter_indexed_i32(gl::VIEWPORT, 0);
            },
        ),
        row(
            "get_parameter_string",
            ENUM,
            "§6.1.5: name is not a string name",
            |c, _| {
                c.get_parameter_string(BAD);
            },
        ),
        row(
            "get_parameter_string_indexed",
            ENUM,
            "§6.1.5: name is not an indexed string name",
            |c, _| {
                c.get_parameter_string_indexed(gl::VENDOR, 0);
            },
        ),
        row(
            "get_parameter_string_indexed",
            VALUE,
            "§6.1.5: index >= NUM_EXTENSIONS",
            |c, _| {
                c.get_parameter_string_indexed(gl::EXTENSIONS, 100_000);
            },
        ),
    ];
    uniform_rows! { r;
        uniform_1_f32(1.0) on loc_i;
        uniform_2_f32(1.0, 2.0) on loc_v;
        uniform_3_f32(1.0, 2.0, 3.0) on loc_v;
        uniform_4_f32(1.0, 2.0, 3.0, 4.0) on loc_f;
        uniform_1_i32(1) on loc_f;
        uniform_2_i32(1, 2) on loc_i;
        uniform_3_i32(1, 2, 3) on loc_i;
        uniform_4_i32(1, 2, 3, 4) on loc_v;
        uniform_1_u32(1) on loc_i;
        uniform_4_u32(1, 2, 3, 4) on loc_u;
        uniform_1_f32_slice(&[1.0]) on loc_u;
        uniform_2_f32_slice(&[1.0; 2]) on loc_f;
        uniform_3_f32_slice(&[1.0; 3]) on loc_v;
        uniform_4_f32_slice(&[1.0; 4]) on loc_m;
        uniform_1_i32_slice(&[1]) on loc_f;
        uniform_2_i32_slice(&[1; 2]) on loc_i;
        uniform_3_i32_slice(&[1; 3]) on loc_i;
        uniform_4_i32_slice(&[1; 4]) on loc_v;
        uniform_1_u32_slice(&[1]) on loc_i;
        uniform_2_u32_slice(&[1; 2]) on loc_u;
        uniform_3_u32_slice(&[1; 3]) on loc_u;
        uniform_4_u32_slice(&[1; 4]) on loc_u;
        uniform_matrix_2_f32_slice(false, &[1.0; 4]) on loc_v;
        uniform_matrix_3_f32_slice(false, &[1.0; 9]) on loc_f;
        uniform_matrix_4_f32_slice(false, &[1.0; 16]) on loc_m;
        uniform_matrix_2x3_f32_slice(false, &[1.0; 6]) on loc_m;
        uniform_matrix_2x4_f32_slice(false, &[1.0; 8]) on loc_m;
        uniform_matrix_3x2_f32_slice(false, &[1.0; 6]) on loc_m;
        uniform_matrix_3x4_f32_slice(false, &[1.0; 12]) on loc_m;
        uniform_matrix_4x2_f32_slice(false, &[1.0; 8]) on loc_m;
        uniform_matrix_4x3_f32_slice(false, &[1.0; 12]) on loc_m;
    }
    r
}
