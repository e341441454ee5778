//! Misuse rows of the program interface queries (GL 4.3 §7.3.1). The
//! fixture's program has a default-block uniform and no storage blocks.

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_OPERATION as OPERATION, INVALID_VALUE as VALUE,
};
use rgl_state::Program;

use crate::fixture::never;
use crate::table::{row, Row};

fn no_program() -> Program {
    Program(never(40))
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "get_program_interface_i32",
            ENUM,
            "§7.3.1: not a program interface",
            |c, f| {
                c.get_program_interface_i32(f.prog, gl::TEXTURE_2D, gl::ACTIVE_RESOURCES);
            },
        ),
        row(
            "get_program_interface_i32",
            ENUM,
            "§7.3.1: not an interface parameter",
            |c, f| {
                c.get_program_interface_i32(f.prog, gl::UNIFORM, gl::NAME_LENGTH);
            },
        ),
        row(
            "get_program_interface_i32",
            OPERATION,
            "§7.3.1: atomic counter buffers have no names",
            |c, f| {
                c.get_program_interface_i32(f.prog, gl::ATOMIC_COUNTER_BUFFER, gl::MAX_NAME_LENGTH);
            },
        ),
        row(
            "get_program_interface_i32",
            OPERATION,
            "§7.3.1: uniforms have no active variables",
            |c, f| {
                c.get_program_interface_i32(f.prog, gl::UNIFORM, gl::MAX_NUM_ACTIVE_VARIABLES);
            },
        ),
        row(
            "get_program_interface_i32",
            VALUE,
            "§7.3.1: program is no object",
            |c, _| {
                c.get_program_interface_i32(no_program(), gl::UNIFORM, gl::ACTIVE_RESOURCES);
            },
        ),
        row(
            "get_program_interface_i32",
            OPERATION,
            "§7.3.1: program names a shader",
            |c, f| {
                c.get_program_interface_i32(Program(f.vs.0), gl::UNIFORM, gl::ACTIVE_RESOURCES);
            },
        ),
        row(
            "get_program_resource_index",
            ENUM,
            "§7.3.1.1: atomic counter buffers have no names",
            |c, f| {
                c.get_program_resource_index(f.prog, gl::ATOMIC_COUNTER_BUFFER, "x");
            },
        ),
        row(
            "get_program_resource_index",
            VALUE,
            "§7.3.1.1: program is no object",
            |c, _| {
                c.get_program_resource_index(no_program(), gl::UNIFORM, "u_f");
            },
        ),
        row(
            "get_program_resource_name",
            VALUE,
            "§7.3.1.1: index past the active resources",
            |c, f| {
                c.get_program_resource_name(f.prog, gl::UNIFORM, 1000);
            },
        ),
        row(
            "get_program_resource_name",
            ENUM,
            "§7.3.1.1: atomic counter buffers have no names",
            |c, f| {
                c.get_program_resource_name(f.prog, gl::ATOMIC_COUNTER_BUFFER, 0);
            },
        ),
        row(
            "get_program_resource_i32",
            VALUE,
            "§7.3.1.1: index past the active resources",
            |c, f| {
                c.get_program_resource_i32(f.prog, gl::UNIFORM, 1000, &[gl::TYPE]);
            },
        ),
        row(
            "get_program_resource_i32",
            OPERATION,
            "§7.3.1.1: a property the interface does not have",
            |c, f| {
                c.get_program_resource_i32(f.prog, gl::UNIFORM, 0, &[gl::BUFFER_BINDING]);
            },
        ),
        row(
            "get_program_resource_i32",
            ENUM,
            "§7.3.1.1: not a property",
            |c, f| {
                c.get_program_resource_i32(f.prog, gl::UNIFORM, 0, &[gl::TEXTURE_2D]);
            },
        ),
        row(
            "get_program_resource_location",
            ENUM,
            "§7.3.1.1: blocks have no locations",
            |c, f| {
                c.get_program_resource_location(f.prog, gl::UNIFORM_BLOCK, "b");
            },
        ),
        row(
            "get_program_resource_location",
            OPERATION,
            "§7.3.1.1: the program is not linked",
            |c, f| {
                c.get_program_resource_location(f.unlinked, gl::UNIFORM, "u_f");
            },
        ),
        row(
            "get_program_resource_location_index",
            ENUM,
            "§7.3.1.1: only outputs have location indices",
            |c, f| {
                c.get_program_resource_location_index(f.prog, gl::PROGRAM_INPUT, "pos");
            },
        ),
        row(
            "get_program_resource_location_index",
            OPERATION,
            "§7.3.1.1: the program is not linked",
            |c, f| {
                c.get_program_resource_location_index(f.unlinked, gl::PROGRAM_OUTPUT, "c");
            },
        ),
    ]
}
