//! Misuse rows of named strings (`GL_ARB_shading_language_include`, sections
//! 2.11.1, 2.11.2 and 6.1.10 of the extension). The extension names no error
//! for a bad `type` or `pname`: those rows follow GL 3.3 §2.5 (an enum out of
//! range is `INVALID_ENUM`).

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE};
use rgl_state::{Context, Shader};

use crate::fixture::{never, Fx};
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

/// Defines `/inc/a.h` (so `/inc` exists in the tree without a string).
fn define(c: &mut Context, _: &Fx) {
    c.named_string(gl::SHADER_INCLUDE_ARB, "/inc/a.h", "int a;\n");
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "named_string",
            ENUM,
            "ext §2.11.1: type is not SHADER_INCLUDE_ARB",
            |c, _| c.named_string(BAD, "/x", ""),
        ),
        row(
            "named_string",
            VALUE,
            "ext §2.11.1: name does not begin with '/'",
            |c, _| c.named_string(gl::SHADER_INCLUDE_ARB, "x", ""),
        ),
        row(
            "named_string",
            VALUE,
            "ext §2.11.1: name ends with '/' (App. A)",
            |c, _| c.named_string(gl::SHADER_INCLUDE_ARB, "/x/", ""),
        ),
        row(
            "named_string",
            VALUE,
            "ext §2.11.1: name has consecutive '/' (App. A)",
            |c, _| c.named_string(gl::SHADER_INCLUDE_ARB, "/x//y", ""),
        ),
        row(
            "named_string",
            VALUE,
            "ext §2.11.1: name has a character outside the set (App. A)",
            |c, _| c.named_string(gl::SHADER_INCLUDE_ARB, "/x\ty", ""),
        ),
        row(
            "named_string",
            VALUE,
            "ext §2.11.1: name is empty (App. A)",
            |c, _| c.named_string(gl::SHADER_INCLUDE_ARB, "", ""),
        ),
        row(
            "delete_named_string",
            VALUE,
            "ext §2.11.1: name is not a valid path beginning with '/'",
            |c, _| c.delete_named_string("inc/a.h"),
        ),
        row(
            "delete_named_string",
            OP,
            "ext §2.11.1: no string at the location",
            |c, _| c.delete_named_string("/x/y"),
        ),
        row_with(
            "delete_named_string",
            OP,
            "ext §2.11.1: the location exists but has no string",
            define,
            |c, _| c.delete_named_string("/inc"),
        ),
        row(
            "get_named_string",
            VALUE,
            "ext §6.1.10: name is not a valid path beginning with '/'",
            |c, _| drop(c.get_named_string("/inc/")),
        ),
        row_with(
            "get_named_string",
            OP,
            "ext §6.1.10: no string at the location",
            define,
            |c, _| drop(c.get_named_string("/inc/b.h")),
        ),
        row(
            "get_named_string_iv",
            VALUE,
            "ext §6.1.10: name is not a valid path beginning with '/'",
            |c, _| {
                c.get_named_string_iv("a.h", gl::NAMED_STRING_LENGTH_ARB);
            },
        ),
        row_with(
            "get_named_string_iv",
            OP,
            "ext §6.1.10: no string at the location",
            define,
            |c, _| {
                c.get_named_string_iv("/inc", gl::NAMED_STRING_TYPE_ARB);
            },
        ),
        row_with(
            "get_named_string_iv",
            ENUM,
            "ext §6.1.10 / §2.5: pname is not a named-string property",
            define,
            |c, _| {
                c.get_named_string_iv("/inc/a.h", BAD);
            },
        ),
        row(
            "compile_shader_include",
            VALUE,
            "ext §2.11.2: a search path does not begin with '/'",
            |c, f| c.compile_shader_include(f.lone, &["/inc", "inc"]),
        ),
        row(
            "compile_shader_include",
            VALUE,
            "ext §2.11.2: a search path has consecutive '/'",
            |c, f| c.compile_shader_include(f.lone, &["/inc//x"]),
        ),
        row(
            "compile_shader_include",
            OP,
            "ext §2.11.2: shader is not a name",
            |c, _| c.compile_shader_include(Shader(never(2)), &["/inc"]),
        ),
        row(
            "compile_shader_include",
            OP,
            "ext §2.11.2: shader names a program",
            |c, f| c.compile_shader_include(Shader(f.prog.0), &[]),
        ),
    ]
}
