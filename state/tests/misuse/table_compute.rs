//! Misuse rows of compute dispatch, memory barriers and the shader storage
//! and atomic counter buffer bindings (GL 4.3 §19, §7.12.2, §6.1.1, §6.7).

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_OPERATION as OPERATION, INVALID_VALUE as VALUE,
};

use crate::table::{row, row_with, Row};

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "dispatch_compute",
            OPERATION,
            "§19: the current program has no compute shader",
            |c, _| c.dispatch_compute(1, 1, 1),
        ),
        row_with(
            "dispatch_compute",
            OPERATION,
            "§19: no program is current",
            |c, _| c.use_program(None),
            |c, _| c.dispatch_compute(1, 1, 1),
        ),
        row(
            "dispatch_compute_indirect",
            OPERATION,
            "§19: the current program has no compute shader",
            |c, _| c.dispatch_compute_indirect(0),
        ),
        row(
            "shader_storage_block_binding",
            VALUE,
            "§7.8: the program has no active storage block 0",
            |c, f| c.shader_storage_block_binding(f.prog, 0, 0),
        ),
        row(
            "shader_storage_block_binding",
            VALUE,
            "§7.8: binding at MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            |c, f| {
                let n = c.get_parameter_i32(gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS) as u32;
                c.shader_storage_block_binding(f.prog, 0, n)
            },
        ),
        row(
            "shader_storage_block_binding",
            VALUE,
            "§7.8: an unlinked program has no active blocks",
            |c, f| c.shader_storage_block_binding(f.unlinked, 0, 0),
        ),
        row(
            "memory_barrier",
            VALUE,
            "§7.12.2: an undefined bit",
            |c, _| c.memory_barrier(0x10),
        ),
        row(
            "memory_barrier_by_region",
            VALUE,
            "§7.12.2: a bit that does not order fragment-local accesses",
            |c, _| c.memory_barrier_by_region(gl::VERTEX_ATTRIB_ARRAY_BARRIER_BIT),
        ),
        row(
            "bind_buffer_base",
            VALUE,
            "§6.7.1: index at MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            |c, f| {
                let n = c.get_parameter_i32(gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS) as u32;
                c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, n, Some(f.buf))
            },
        ),
        row(
            "bind_buffer_base",
            VALUE,
            "§6.7.1: index at MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
            |c, f| {
                let n = c.get_parameter_i32(gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS) as u32;
                c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, n, Some(f.buf))
            },
        ),
        row(
            "bind_buffer_range",
            VALUE,
            "§6.7.1: offset not a multiple of SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
            |c, f| c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 0, Some(f.buf), 4, 16),
        ),
        row(
            "bind_buffer_range",
            VALUE,
            "§6.7.1: atomic counter buffer offset not a multiple of 4",
            |c, f| c.bind_buffer_range(gl::ATOMIC_COUNTER_BUFFER, 0, Some(f.buf), 2, 4),
        ),
        row(
            "bind_buffer",
            ENUM,
            "§6.1: an indexed target's enum plus one is no target",
            |c, f| c.bind_buffer(gl::ATOMIC_COUNTER_BUFFER + 1, Some(f.buf)),
        ),
        row(
            "get_parameter_indexed_i32",
            VALUE,
            "§22: MAX_COMPUTE_WORK_GROUP_COUNT has indices 0 to 2",
            |c, _| {
                c.get_parameter_indexed_i32(gl::MAX_COMPUTE_WORK_GROUP_COUNT, 3);
            },
        ),
        row(
            "get_parameter_indexed_i32",
            VALUE,
            "§22: SHADER_STORAGE_BUFFER_BINDING index past the bindings",
            |c, _| {
                let n = c.get_parameter_i32(gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS) as u32;
                c.get_parameter_indexed_i32(gl::SHADER_STORAGE_BUFFER_BINDING, n);
            },
        ),
    ]
}
