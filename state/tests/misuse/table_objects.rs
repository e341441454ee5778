//! Misuse rows of the object APIs: buffers (GL 3.3 §2.9), vertex arrays and
//! attributes (§2.8, §2.10, §2.7), shaders and programs (§2.11.1–2.11.3),
//! uniforms and uniform blocks (§2.11.4), the program and shader queries
//! (§6.1.10) and the state queries (§6.1).

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE};
use rgl_state::{Buffer, Program, Shader, VertexArray};

use crate::fixture::never;
use crate::table::{row, row_with, Row};

/// An enum no command accepts.
pub const BAD: u32 = 0x1234;

fn fake_program() -> Program {
    Program(never(1))
}

fn fake_shader() -> Shader {
    Shader(never(2))
}

pub fn rows() -> Vec<Row> {
    vec![
        // Buffer objects, GL 3.3 §2.9.
        row(
            "bind_buffer",
            ENUM,
            "§2.9.1: target is not a buffer target",
            |c, f| c.bind_buffer(BAD, Some(f.buf)),
        ),
        row(
            "bind_buffer",
            OP,
            "§2.9.1: buffer is a deleted name",
            |c, f| c.bind_buffer(gl::ARRAY_BUFFER, Some(f.dead_buf)),
        ),
        row(
            "bind_buffer",
            OP,
            "§2.9.1: buffer was never generated",
            |c, _| c.bind_buffer(gl::ARRAY_BUFFER, Some(Buffer(never(3)))),
        ),
        row(
            "bind_buffer_base",
            ENUM,
            "§2.9.1: target is not indexed",
            |c, f| c.bind_buffer_base(gl::ARRAY_BUFFER, 0, Some(f.buf)),
        ),
        row(
            "bind_buffer_base",
            VALUE,
            "§2.9.1: index >= MAX_UNIFORM_BUFFER_BINDINGS",
            |c, f| c.bind_buffer_base(gl::UNIFORM_BUFFER, 1000, Some(f.buf)),
        ),
        row(
            "bind_buffer_base",
            OP,
            "§2.9.1: buffer is a deleted name",
            |c, f| c.bind_buffer_base(gl::UNIFORM_BUFFER, 1, Some(f.dead_buf)),
        ),
        row(
            "bind_buffer_range",
            ENUM,
            "§2.9.1: target is not indexed",
            |c, f| c.bind_buffer_range(BAD, 0, Some(f.ubuf), 0, 16),
        ),
        row(
            "bind_buffer_range",
            VALUE,
            "§2.9.1: index >= MAX_UNIFORM_BUFFER_BINDINGS",
            |c, f| c.bind_buffer_range(gl::UNIFORM_BUFFER, 1000, Some(f.ubuf), 0, 16),
        ),
        row("bind_buffer_range", VALUE, "§2.9.1: size <= 0", |c, f| {
            c.bind_buffer_range(gl::UNIFORM_BUFFER, 1, Some(f.ubuf), 0, 0)
        }),
        row("bind_buffer_range", VALUE, "§2.9.1: offset < 0", |c, f| {
            c.bind_buffer_range(gl::UNIFORM_BUFFER, 1, Some(f.ubuf), -256, 16)
        }),
        row(
            "bind_buffer_range",
            VALUE,
            "§2.9.1: offset not a multiple of UNIFORM_BUFFER_OFFSET_ALIGNMENT",
            |c, f| c.bind_buffer_range(gl::UNIFORM_BUFFER, 1, Some(f.ubuf), 3, 16),
        ),
        row(
            "bind_buffer_range",
            OP,
            "§2.9.1: buffer is a deleted name",
            |c, f| c.bind_buffer_range(gl::UNIFORM_BUFFER, 1, Some(f.dead_buf), 0, 16),
        ),
        row(
            "buffer_data_size",
            ENUM,
            "§2.9.2: target is not a buffer target",
            |c, _| c.buffer_data_size(BAD, 16, gl::STATIC_DRAW),
        ),
        row(
            "buffer_data_size",
            ENUM,
            "§2.9.2: usage is not a usage",
            |c, _| c.buffer_data_size(gl::ARRAY_BUFFER, 16, BAD),
        ),
        row("buffer_data_size", VALUE, "§2.9.2: size < 0", |c, _| {
            c.buffer_data_size(gl::ARRAY_BUFFER, -1, gl::STATIC_DRAW)
        }),
        row(
            "buffer_data_size",
            OP,
            "§2.9.2: no buffer bound to target",
            |c, _| c.buffer_data_size(gl::PIXEL_PACK_BUFFER, 16, gl::STATIC_DRAW),
        ),
        row(
            "buffer_data_u8_slice",
            ENUM,
            "§2.9.2: target is not a buffer target",
            |c, _| c.buffer_data_u8_slice(BAD, &[1, 2], gl::STATIC_DRAW),
        ),
        row(
            "buffer_data_u8_slice",
            ENUM,
            "§2.9.2: usage is not a usage",
            |c, _| c.buffer_data_u8_slice(gl::ARRAY_BUFFER, &[1, 2], BAD),
        ),
        row(
            "buffer_data_u8_slice",
            OP,
            "§2.9.2: no buffer bound to target",
            |c, _| c.buffer_data_u8_slice(gl::PIXEL_UNPACK_BUFFER, &[1, 2], gl::STATIC_DRAW),
        ),
        row(
            "buffer_sub_data_u8_slice",
            ENUM,
            "§2.9.2: target is not a buffer target",
            |c, _| c.buffer_sub_data_u8_slice(BAD, 0, &[1]),
        ),
        row(
            "buffer_sub_data_u8_slice",
            VALUE,
            "§2.9.2: offset < 0",
            |c, _| c.buffer_sub_data_u8_slice(gl::ARRAY_BUFFER, -1, &[1]),
        ),
        row(
            "buffer_sub_data_u8_slice",
            VALUE,
            "§2.9.2: offset + size > BUFFER_SIZE",
            |c, _| c.buffer_sub_data_u8_slice(gl::ARRAY_BUFFER, 47, &[1, 2]),
        ),
        row(
            "buffer_sub_data_u8_slice",
            OP,
            "§2.9.2: no buffer bound to target",
            |c, _| c.buffer_sub_data_u8_slice(gl::PIXEL_PACK_BUFFER, 0, &[1]),
        ),
        row(
            "get_buffer_sub_data",
            ENUM,
            "§6.1.8: target is not a buffer target",
            |c, _| c.get_buffer_sub_data(BAD, 0, &mut [0; 4]),
        ),
        row(
            "get_buffer_sub_data",
            VALUE,
            "§6.1.8: offset < 0",
            |c, _| c.get_buffer_sub_data(gl::ARRAY_BUFFER, -4, &mut [0; 4]),
        ),
        row(
            "get_buffer_sub_data",
            VALUE,
            "§6.1.8: offset + size > BUFFER_SIZE",
            |c, _| c.get_buffer_sub_data(gl::ARRAY_BUFFER, 46, &mut [0; 4]),
        ),
        row(
            "get_buffer_sub_data",
            OP,
            "§6.1.8: no buffer bound to target",
            |c, _| c.get_buffer_sub_data(gl::PIXEL_PACK_BUFFER, 0, &mut [0; 4]),
        ),
        row(
            "copy_buffer_sub_data",
            ENUM,
            "§2.9.5: readtarget is not a buffer target",
            |c, _| c.copy_buffer_sub_data(BAD, gl::COPY_WRITE_BUFFER, 0, 0, 4),
        ),
        row(
            "copy_buffer_sub_data",
            ENUM,
            "§2.9.5: writetarget is not a buffer target",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, BAD, 0, 0, 4),
        ),
        row(
            "copy_buffer_sub_data",
            OP,
            "§2.9.5: no buffer bound to readtarget",
            |c, _| c.copy_buffer_sub_data(gl::PIXEL_PACK_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 4),
        ),
        row(
            "copy_buffer_sub_data",
            OP,
            "§2.9.5: no buffer bound to writetarget",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::PIXEL_PACK_BUFFER, 0, 0, 4),
        ),
        row(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: readoffset < 0",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, -4, 0, 4),
        ),
        row(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: writeoffset < 0",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, -4, 4),
        ),
        row(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: size < 0",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, -4),
        ),
        row(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: readoffset + size > the read buffer's size",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 40, 0, 16),
        ),
        row(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: writeoffset + size > the write buffer's size",
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, 24, 16),
        ),
        row_with(
            "copy_buffer_sub_data",
            VALUE,
            "§2.9.5: same buffer and overlapping ranges",
            |c, f| c.bind_buffer(gl::COPY_WRITE_BUFFER, Some(f.buf)),
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, 8, 16),
        ),
        row(
            "get_buffer_parameter_i32",
            ENUM,
            "§6.1.8: target is not a buffer target",
            |c, _| {
                c.get_buffer_parameter_i32(BAD, gl::BUFFER_SIZE);
            },
        ),
        row(
            "get_buffer_parameter_i32",
            ENUM,
            "§6.1.8: pname is not a buffer parameter",
            |c, _| {
                c.get_buffer_parameter_i32(gl::ARRAY_BUFFER, BAD);
            },
        ),
        row(
            "get_buffer_parameter_i32",
            OP,
            "§6.1.8: no buffer bound to target",
            |c, _| {
                c.get_buffer_parameter_i32(gl::PIXEL_PACK_BUFFER, gl::BUFFER_SIZE);
            },
        ),
        // Vertex array objects and attribute arrays, GL 3.3 §2.8, §2.10, §2.7.
        row(
            "bind_vertex_array",
            OP,
            "§2.10: array is a deleted name",
            |c, f| c.bind_vertex_array(Some(f.dead_vao)),
        ),
        row(
            "bind_vertex_array",
            OP,
            "§2.10: array was never generated",
            |c, _| c.bind_vertex_array(Some(VertexArray(never(4)))),
        ),
        row(
            "vertex_attrib_pointer_f32",
            VALUE,
            "§2.8: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_pointer_f32(16, 4, gl::FLOAT, false, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_f32",
            VALUE,
            "§2.8: size is not 1..4",
            |c, _| c.vertex_attrib_pointer_f32(1, 5, gl::FLOAT, false, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_f32",
            VALUE,
            "§2.8: size is not 1..4",
            |c, _| c.vertex_attrib_pointer_f32(1, 0, gl::FLOAT, false, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_f32",
            VALUE,
            "§2.8: stride < 0",
            |c, _| c.vertex_attrib_pointer_f32(1, 4, gl::FLOAT, false, -4, 0),
        ),
        row(
            "vertex_attrib_pointer_f32",
            ENUM,
            "§2.8: type is not a vertex type",
            |c, _| c.vertex_attrib_pointer_f32(1, 4, BAD, false, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_f32",
            OP,
            "§2.8: a packed type with size other than 4",
            |c, _| c.vertex_attrib_pointer_f32(1, 3, gl::INT_2_10_10_10_REV, true, 0, 0),
        ),
        row_with(
            "vertex_attrib_pointer_f32",
            OP,
            "§2.8: VAO bound, no ARRAY_BUFFER, and a non-null pointer",
            |c, _| c.bind_buffer(gl::ARRAY_BUFFER, None),
            |c, _| c.vertex_attrib_pointer_f32(1, 4, gl::FLOAT, false, 0, 16),
        ),
        row(
            "vertex_attrib_pointer_i32",
            VALUE,
            "§2.8: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_pointer_i32(16, 4, gl::INT, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_i32",
            VALUE,
            "§2.8: size is not 1..4",
            |c, _| c.vertex_attrib_pointer_i32(1, 5, gl::INT, 0, 0),
        ),
        row(
            "vertex_attrib_pointer_i32",
            VALUE,
            "§2.8: stride < 0",
            |c, _| c.vertex_attrib_pointer_i32(1, 4, gl::INT, -1, 0),
        ),
        row(
            "vertex_attrib_pointer_i32",
            ENUM,
            "§2.8: type is not an integer type",
            |c, _| c.vertex_attrib_pointer_i32(1, 4, gl::FLOAT, 0, 0),
        ),
        row_with(
            "vertex_attrib_pointer_i32",
            OP,
            "§2.8: VAO bound, no ARRAY_BUFFER, and a non-null pointer",
            |c, _| c.bind_buffer(gl::ARRAY_BUFFER, None),
            |c, _| c.vertex_attrib_pointer_i32(1, 4, gl::INT, 0, 16),
        ),
        row(
            "enable_vertex_attrib_array",
            VALUE,
            "§2.8: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.enable_vertex_attrib_array(16),
        ),
        row(
            "disable_vertex_attrib_array",
            VALUE,
            "§2.8: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.disable_vertex_attrib_array(16),
        ),
        row(
            "vertex_attrib_divisor",
            VALUE,
            "§2.8.2: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_divisor(16, 1),
        ),
        row(
            "vertex_attrib_4_f32",
            VALUE,
            "§2.7: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_4_f32(16, 1.0, 2.0, 3.0, 4.0),
        ),
        row(
            "vertex_attrib_4_i32",
            VALUE,
            "§2.7: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_4_i32(16, 1, 2, 3, 4),
        ),
        row(
            "vertex_attrib_4_u32",
            VALUE,
            "§2.7: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.vertex_attrib_4_u32(16, 1, 2, 3, 4),
        ),
        row(
            "vertex_pointer",
            VALUE,
            "compat §2.8: size is not 2..4",
            |c, _| c.vertex_pointer(1, gl::FLOAT, 0, 0),
        ),
        row(
            "vertex_pointer",
            ENUM,
            "compat §2.8: type not allowed (table 2.5)",
            |c, _| c.vertex_pointer(4, gl::UNSIGNED_BYTE, 0, 0),
        ),
        row(
            "vertex_pointer",
            VALUE,
            "compat §2.8: stride < 0",
            |c, _| c.vertex_pointer(4, gl::FLOAT, -1, 0),
        ),
        row(
            "normal_pointer",
            ENUM,
            "compat §2.8: type not allowed (table 2.5)",
            |c, _| c.normal_pointer(gl::UNSIGNED_BYTE, 0, 0),
        ),
        row(
            "normal_pointer",
            VALUE,
            "compat §2.8: stride < 0",
            |c, _| c.normal_pointer(gl::FLOAT, -1, 0),
        ),
        row(
            "color_pointer",
            VALUE,
            "compat §2.8: size is not 3 or 4",
            |c, _| c.color_pointer(2, gl::FLOAT, 0, 0),
        ),
        row(
            "color_pointer",
            ENUM,
            "compat §2.8: type not allowed (table 2.5)",
            |c, _| c.color_pointer(4, BAD, 0, 0),
        ),
        row(
            "color_pointer",
            VALUE,
            "compat §2.8: stride < 0",
            |c, _| c.color_pointer(4, gl::FLOAT, -1, 0),
        ),
        row(
            "secondary_color_pointer",
            VALUE,
            "compat §2.8: size is not 3",
            |c, _| c.secondary_color_pointer(4, gl::FLOAT, 0, 0),
        ),
        row(
            "secondary_color_pointer",
            ENUM,
            "compat §2.8: type not allowed (table 2.5)",
            |c, _| c.secondary_color_pointer(3, BAD, 0, 0),
        ),
        row(
            "tex_coord_pointer",
            VALUE,
            "compat §2.8: size is not 1..4",
            |c, _| c.tex_coord_pointer(5, gl::FLOAT, 0, 0),
        ),
        row(
            "tex_coord_pointer",
            ENUM,
            "compat §2.8: type not allowed (table 2.5)",
            |c, _| c.tex_coord_pointer(2, gl::UNSIGNED_BYTE, 0, 0),
        ),
        row(
            "tex_coord_pointer",
            VALUE,
            "compat §2.8: stride < 0",
            |c, _| c.tex_coord_pointer(2, gl::FLOAT, -2, 0),
        ),
        row(
            "client_active_texture",
            ENUM,
            "compat §2.8: not TEXTUREi of a unit",
            |c, _| c.client_active_texture(gl::TEXTURE0 + 64),
        ),
        row(
            "enable_client_state",
            ENUM,
            "compat §2.8: not a client array",
            |c, _| c.enable_client_state(BAD),
        ),
        row(
            "disable_client_state",
            ENUM,
            "compat §2.8: not a client array",
            |c, _| c.disable_client_state(BAD),
        ),
        row(
            "get_vertex_attrib_i32",
            VALUE,
            "§6.1.12: index >= MAX_VERTEX_ATTRIBS",
            |c, _| {
                c.get_vertex_attrib_i32(16, gl::VERTEX_ATTRIB_ARRAY_SIZE);
            },
        ),
        row(
            "get_vertex_attrib_i32",
            ENUM,
            "§6.1.12: pname is not an attribute parameter",
            |c, _| {
                c.get_vertex_attrib_i32(0, BAD);
            },
        ),
        row(
            "get_vertex_attrib_f32_slice",
            VALUE,
            "§6.1.12: index >= MAX_VERTEX_ATTRIBS",
            |c, _| c.get_vertex_attrib_f32_slice(16, gl::CURRENT_VERTEX_ATTRIB, &mut [0.0; 4]),
        ),
        row(
            "get_vertex_attrib_f32_slice",
            ENUM,
            "§6.1.12: pname is not an attribute parameter",
            |c, _| c.get_vertex_attrib_f32_slice(0, BAD, &mut [0.0; 4]),
        ),
        // Shader objects, GL 3.3 §2.11.1; names of the wrong kind, §2.11 intro.
        row(
            "create_shader",
            ENUM,
            "§2.11.1: type is not a shader type",
            |c, _| {
                let _ = c.create_shader(BAD);
            },
        ),
        row(
            "shader_source",
            VALUE,
            "§2.11.1: shader is not a name",
            |c, _| c.shader_source(fake_shader(), "void main() {}"),
        ),
        row(
            "shader_source",
            OP,
            "§2.11.1: shader names a program",
            |c, f| c.shader_source(Shader(f.prog.0), "void main() {}"),
        ),
        row(
            "compile_shader",
            VALUE,
            "§2.11.1: shader is not a name",
            |c, _| c.compile_shader(fake_shader()),
        ),
        row(
            "compile_shader",
            OP,
            "§2.11.1: shader names a program",
            |c, f| c.compile_shader(Shader(f.prog.0)),
        ),
        row(
            "delete_shader",
            VALUE,
            "§2.11.1: shader is not a name",
            |c, _| c.delete_shader(fake_shader()),
        ),
        row(
            "delete_shader",
            OP,
            "§2.11.1: shader names a program",
            |c, f| c.delete_shader(Shader(f.unlinked.0)),
        ),
        row(
            "get_shader_compile_status",
            VALUE,
            "§6.1.10: shader is not a name",
            |c, _| {
                c.get_shader_compile_status(fake_shader());
            },
        ),
        row(
            "get_shader_compile_status",
            OP,
            "§6.1.10: shader names a program",
            |c, f| {
                c.get_shader_compile_status(Shader(f.prog.0));
            },
        ),
        row(
            "get_shader_info_log",
            VALUE,
            "§6.1.10: shader is not a name",
            |c, _| {
                c.get_shader_info_log(fake_shader());
            },
        ),
        row(
            "get_shader_info_log",
            OP,
            "§6.1.10: shader names a program",
            |c, f| {
                c.get_shader_info_log(Shader(f.prog.0));
            },
        ),
        row(
            "get_shader_source",
            VALUE,
            "§6.1.10: shader is not a name",
            |c, _| {
                c.get_shader_source(fake_shader());
            },
        ),
        row(
            "get_shader_source",
            OP,
            "§6.1.10: shader names a program",
            |c, f| {
                c.get_shader_source(Shader(f.prog.0));
            },
        ),
        row(
            "get_shader_parameter_i32",
            VALUE,
            "§6.1.10: shader is not a name",
            |c, _| {
                c.get_shader_parameter_i32(fake_shader(), gl::SHADER_TYPE);
            },
        ),
        row(
            "get_shader_parameter_i32",
            OP,
            "§6.1.10: shader names a program",
            |c, f| {
                c.get_shader_parameter_i32(Shader(f.prog.0), gl::SHADER_TYPE);
            },
        ),
        row(
            "get_shader_parameter_i32",
            ENUM,
            "§6.1.10: pname is not a shader parameter",
            |c, f| {
                c.get_shader_parameter_i32(f.vs, BAD);
            },
        ),
        // Program objects, GL 3.3 §2.11.2.
        row(
            "attach_shader",
            VALUE,
            "§2.11.2: program is not a name",
            |c, f| c.attach_shader(fake_program(), f.lone),
        ),
        row(
            "attach_shader",
            VALUE,
            "§2.11.2: shader is not a name",
            |c, f| c.attach_shader(f.unlinked, fake_shader()),
        ),
        row(
            "attach_shader",
            OP,
            "§2.11.2: program names a shader",
            |c, f| c.attach_shader(Program(f.vs.0), f.lone),
        ),
        row(
            "attach_shader",
            OP,
            "§2.11.2: shader names a program",
            |c, f| c.attach_shader(f.unlinked, Shader(f.prog.0)),
        ),
        row(
            "attach_shader",
            OP,
            "§2.11.2: shader is already attached",
            |c, f| c.attach_shader(f.prog, f.vs),
        ),
        row(
            "detach_shader",
            VALUE,
            "§2.11.2: program is not a name",
            |c, f| c.detach_shader(fake_program(), f.vs),
        ),
        row(
            "detach_shader",
            VALUE,
            "§2.11.2: shader is not a name",
            |c, f| c.detach_shader(f.prog, fake_shader()),
        ),
        row(
            "detach_shader",
            OP,
            "§2.11.2: shader names a program",
            |c, f| c.detach_shader(f.prog, Shader(f.unlinked.0)),
        ),
        row(
            "detach_shader",
            OP,
            "§2.11.2: shader is not attached",
            |c, f| c.detach_shader(f.prog, f.lone),
        ),
        row(
            "get_attached_shaders",
            VALUE,
            "§6.1.10: program is not a name",
            |c, _| {
                c.get_attached_shaders(fake_program());
            },
        ),
        row(
            "get_attached_shaders",
            OP,
            "§6.1.10: program names a shader",
            |c, f| {
                c.get_attached_shaders(Program(f.vs.0));
            },
        ),
        row(
            "link_program",
            VALUE,
            "§2.11.2: program is not a name",
            |c, _| c.link_program(fake_program()),
        ),
        row(
            "link_program",
            OP,
            "§2.11.2: program names a shader",
            |c, f| c.link_program(Program(f.vs.0)),
        ),
        row(
            "use_program",
            VALUE,
            "§2.11.2: program is not a name",
            |c, _| c.use_program(Some(fake_program())),
        ),
        row(
            "use_program",
            OP,
            "§2.11.2: program names a shader",
            |c, f| c.use_program(Some(Program(f.vs.0))),
        ),
        row(
            "use_program",
            OP,
            "§2.11.2: program is not linked",
            |c, f| c.use_program(Some(f.unlinked)),
        ),
        row(
            "use_program",
            VALUE,
            "§2.11.2: program was deleted",
            |c, f| c.use_program(Some(f.dead_prog)),
        ),
        row(
            "delete_program",
            VALUE,
            "§2.11.2: program is not a name",
            |c, _| c.delete_program(fake_program()),
        ),
        row(
            "delete_program",
            OP,
            "§2.11.2: program names a shader",
            |c, f| c.delete_program(Program(f.vs.0)),
        ),
        row(
            "get_program_link_status",
            VALUE,
            "§6.1.10: program is not a name",
            |c, _| {
                c.get_program_link_status(fake_program());
            },
        ),
        row(
            "get_program_link_status",
            OP,
            "§6.1.10: program names a shader",
            |c, f| {
                c.get_program_link_status(Program(f.vs.0));
            },
        ),
        row(
            "get_program_info_log",
            VALUE,
            "§6.1.10: program is not a name",
            |c, _| {
                c.get_program_info_log(fake_program());
            },
        ),
        row(
            "get_program_info_log",
            OP,
            "§6.1.10: program names a shader",
            |c, f| {
                c.get_program_info_log(Program(f.vs.0));
            },
        ),
        row(
            "get_program_parameter_i32",
            VALUE,
            "§6.1.10: program is not a name",
            |c, _| {
                c.get_program_parameter_i32(fake_program(), gl::LINK_STATUS);
            },
        ),
        row(
            "get_program_parameter_i32",
            OP,
            "§6.1.10: program names a shader",
            |c, f| {
                c.get_program_parameter_i32(Program(f.vs.0), gl::LINK_STATUS);
            },
        ),
        row(
            "get_program_parameter_i32",
            ENUM,
            "§6.1.10: pname is not a program parameter",
            |c, f| {
                c.get_program_parameter_i32(f.prog, BAD);
            },
        ),
        row(
            "get_program_parameter_i32",
            OP,
            "§6.1.10: a geometry parameter of a program without a geometry shader",
            |c, f| {
                c.get_program_parameter_i32(f.prog, gl::GEOMETRY_VERTICES_OUT);
            },
        ),
        // Vertex attribute and fragment output locations, §2.11.3, §3.9.2.
        row(
            "bind_attrib_location",
            VALUE,
            "§2.11.3: index >= MAX_VERTEX_ATTRIBS",
            |c, f| c.bind_attrib_location(f.prog, 16, "pos"),
        ),
        row(
            "bind_attrib_location",
            OP,
            "§2.11.3: name starts with gl_",
            |c, f| c.bind_attrib_location(f.prog, 1, "gl_Vertex"),
        ),
        row(
            "bind_attrib_location",
            VALUE,
            "§2.11.3: program is not a name",
            |c, _| c.bind_attrib_location(fake_program(), 1, "pos"),
        ),
        row(
            "bind_attrib_location",
            OP,
            "§2.11.3: program names a shader",
            |c, f| c.bind_attrib_location(Program(f.vs.0), 1, "pos"),
        ),
        row(
            "get_attrib_location",
            OP,
            "§2.11.3: program is not linked",
            |c, f| {
                c.get_attrib_location(f.unlinked, "pos");
            },
        ),
        row(
            "get_attrib_location",
            VALUE,
            "§2.11.3: program is not a name",
            |c, _| {
                c.get_attrib_location(fake_program(), "pos");
            },
        ),
        row(
            "get_attrib_location",
            OP,
            "§2.11.3: program names a shader",
            |c, f| {
                c.get_attrib_location(Program(f.vs.0), "pos");
            },
        ),
        row(
            "bind_frag_data_location",
            VALUE,
            "§3.9.2: color >= MAX_DRAW_BUFFERS",
            |c, f| c.bind_frag_data_location(f.prog, 8, "color"),
        ),
        row(
            "bind_frag_data_location",
            OP,
            "§3.9.2: name starts with gl_",
            |c, f| c.bind_frag_data_location(f.prog, 0, "gl_FragColor"),
        ),
        row(
            "bind_frag_data_location",
            VALUE,
            "§3.9.2: program is not a name",
            |c, _| c.bind_frag_data_location(fake_program(), 0, "color"),
        ),
        row(
            "bind_frag_data_location",
            OP,
            "§3.9.2: program names a shader",
            |c, f| c.bind_frag_data_location(Program(f.vs.0), 0, "color"),
        ),
        row(
            "bind_frag_data_location_indexed",
            VALUE,
            "§3.9.2: index > 1",
            |c, f| c.bind_frag_data_location_indexed(f.prog, 0, 2, "color"),
        ),
        row(
            "bind_frag_data_location_indexed",
            VALUE,
            "§3.9.2: index 1 and color >= MAX_DUAL_SOURCE_DRAW_BUFFERS",
            |c, f| c.bind_frag_data_location_indexed(f.prog, 1, 1, "color"),
        ),
        row(
            "bind_frag_data_location_indexed",
            VALUE,
            "§3.9.2: color >= MAX_DRAW_BUFFERS",
            |c, f| c.bind_frag_data_location_indexed(f.prog, 8, 0, "color"),
        ),
        row(
            "bind_frag_data_location_indexed",
            OP,
            "§3.9.2: name starts with gl_",
            |c, f| c.bind_frag_data_location_indexed(f.prog, 0, 0, "gl_FragData"),
        ),
        row(
            "bind_frag_data_location_indexed",
            VALUE,
            "§3.9.2: program is not a name",
            |c, _| c.bind_frag_data_location_indexed(fake_program(), 0, 0, "color"),
        ),
        row(
            "get_frag_data_location",
            OP,
            "§3.9.2: program is not linked",
            |c, f| {
                c.get_frag_data_location(f.unlinked, "color");
            },
        ),
        row(
            "get_frag_data_location",
            VALUE,
            "§3.9.2: program is not a name",
            |c, _| {
                c.get_frag_data_location(fake_program(), "color");
            },
        ),
        row(
            "get_frag_data_location",
            OP,
            "§3.9.2: program names a shader",
            |c, f| {
                c.get_frag_data_location(Program(f.vs.0), "color");
            },
        ),
    ]
}
