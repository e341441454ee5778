//! Misuse rows of buffer mapping (GL 3.3 §2.9.3) and of the commands that may
//! not touch a mapped store: sub-data upload and read-back (§2.9.2, §6.1.8),
//! copies (§2.9.5), and draws sourcing a mapped vertex or element buffer.

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE};
use rgl_state::Context;

use crate::fixture::Fx;
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

/// Maps all 48 bytes of the fixture's `ARRAY_BUFFER` / `COPY_READ_BUFFER` for
/// reading.
fn map_read(c: &mut Context, _: &Fx) {
    c.map_buffer_range(gl::ARRAY_BUFFER, 0, 48, gl::MAP_READ_BIT);
}

/// Maps bytes 8..24 of the same buffer for writing with explicit flushes.
fn map_flush(c: &mut Context, _: &Fx) {
    c.map_buffer_range(
        gl::ARRAY_BUFFER,
        8,
        16,
        gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT,
    );
}

/// Maps the first 4 bytes of the fixture's `ARRAY_BUFFER` with `access`.
fn range(c: &mut Context, access: u32) {
    c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, access);
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "map_buffer_range",
            ENUM,
            "§2.9.3: target is not a buffer target",
            |c, _| {
                c.map_buffer_range(BAD, 0, 4, gl::MAP_READ_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: no buffer bound to target",
            |c, _| {
                c.map_buffer_range(gl::PIXEL_PACK_BUFFER, 0, 4, gl::MAP_READ_BIT);
            },
        ),
        row("map_buffer_range", VALUE, "§2.9.3: offset < 0", |c, _| {
            c.map_buffer_range(gl::ARRAY_BUFFER, -4, 4, gl::MAP_READ_BIT);
        }),
        row("map_buffer_range", VALUE, "§2.9.3: length < 0", |c, _| {
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, -4, gl::MAP_READ_BIT);
        }),
        row(
            "map_buffer_range",
            VALUE,
            "§2.9.3: offset + length > BUFFER_SIZE",
            |c, _| {
                c.map_buffer_range(gl::ARRAY_BUFFER, 40, 16, gl::MAP_READ_BIT);
            },
        ),
        row(
            "map_buffer_range",
            VALUE,
            "§2.9.3: access has undefined bits",
            |c, _| {
                c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_READ_BIT | 0x100);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "GL 4.5 §6.3 (3.3 names no error; Mesa raises it in every version): length is zero",
            |c, _| {
                c.map_buffer_range(gl::ARRAY_BUFFER, 0, 0, gl::MAP_READ_BIT);
            },
        ),
        row_with(
            "map_buffer_range",
            OP,
            "§2.9.3: the buffer is already mapped",
            map_read,
            |c, _| {
                c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_READ_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: neither MAP_READ_BIT nor MAP_WRITE_BIT",
            |c, _| {
                range(c, gl::MAP_INVALIDATE_RANGE_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: MAP_READ_BIT with MAP_INVALIDATE_RANGE_BIT",
            |c, _| {
                range(c, gl::MAP_READ_BIT | gl::MAP_INVALIDATE_RANGE_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: MAP_READ_BIT with MAP_INVALIDATE_BUFFER_BIT",
            |c, _| {
                range(c, gl::MAP_READ_BIT | gl::MAP_INVALIDATE_BUFFER_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: MAP_READ_BIT with MAP_UNSYNCHRONIZED_BIT",
            |c, _| {
                range(c, gl::MAP_READ_BIT | gl::MAP_UNSYNCHRONIZED_BIT);
            },
        ),
        row(
            "map_buffer_range",
            OP,
            "§2.9.3: MAP_FLUSH_EXPLICIT_BIT without MAP_WRITE_BIT",
            |c, _| {
                range(c, gl::MAP_READ_BIT | gl::MAP_FLUSH_EXPLICIT_BIT);
            },
        ),
        row(
            "map_buffer",
            ENUM,
            "§2.9.3: target is not a buffer target",
            |c, _| {
                c.map_buffer(BAD, gl::READ_ONLY);
            },
        ),
        row(
            "map_buffer",
            ENUM,
            "§2.9.3: access is not READ_ONLY, WRITE_ONLY or READ_WRITE",
            |c, _| {
                c.map_buffer(gl::ARRAY_BUFFER, gl::STATIC_DRAW);
            },
        ),
        row(
            "map_buffer",
            OP,
            "§2.9.3: no buffer bound to target",
            |c, _| {
                c.map_buffer(gl::PIXEL_UNPACK_BUFFER, gl::READ_ONLY);
            },
        ),
        row_with(
            "map_buffer",
            OP,
            "§2.9.3: the buffer is already mapped",
            map_read,
            |c, _| {
                c.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE);
            },
        ),
        row(
            "flush_mapped_buffer_range",
            ENUM,
            "§2.9.3: target is not a buffer target",
            |c, _| c.flush_mapped_buffer_range(BAD, 0, 4),
        ),
        row(
            "flush_mapped_buffer_range",
            OP,
            "§2.9.3: no buffer bound to target",
            |c, _| c.flush_mapped_buffer_range(gl::PIXEL_PACK_BUFFER, 0, 4),
        ),
        row(
            "flush_mapped_buffer_range",
            OP,
            "§2.9.3: the buffer is not mapped",
            |c, _| c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 4),
        ),
        row_with(
            "flush_mapped_buffer_range",
            OP,
            "§2.9.3: mapped without MAP_FLUSH_EXPLICIT_BIT",
            map_read,
            |c, _| c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 4),
        ),
        row_with(
            "flush_mapped_buffer_range",
            VALUE,
            "§2.9.3: offset < 0",
            map_flush,
            |c, _| c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, -1, 4),
        ),
        row_with(
            "flush_mapped_buffer_range",
            VALUE,
            "§2.9.3: length < 0",
            map_flush,
            |c, _| c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, -1),
        ),
        row_with(
            "flush_mapped_buffer_range",
            VALUE,
            "§2.9.3: offset + length exceeds the mapping",
            map_flush,
            |c, _| c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 8, 9),
        ),
        row(
            "unmap_buffer",
            ENUM,
            "§2.9.3: target is not a buffer target",
            |c, _| {
                c.unmap_buffer(BAD);
            },
        ),
        row(
            "unmap_buffer",
            OP,
            "§2.9.3: no buffer bound to target",
            |c, _| {
                c.unmap_buffer(gl::PIXEL_PACK_BUFFER);
            },
        ),
        row(
            "unmap_buffer",
            OP,
            "§2.9.3: the buffer is not mapped",
            |c, _| {
                c.unmap_buffer(gl::ARRAY_BUFFER);
            },
        ),
        // The commands that may not touch a mapped store.
        row_with(
            "buffer_sub_data_u8_slice",
            OP,
            "GL 4.5 §6.2 (3.3 §2.9.3 allows it, Mesa raises it): the buffer is mapped",
            map_read,
            |c, _| c.buffer_sub_data_u8_slice(gl::ARRAY_BUFFER, 0, &[1]),
        ),
        row_with(
            "get_buffer_sub_data",
            OP,
            "§6.1.8: the buffer is mapped",
            map_read,
            |c, _| c.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, &mut [0; 4]),
        ),
        row_with(
            "copy_buffer_sub_data",
            OP,
            "§2.9.5: readtarget's buffer is mapped",
            map_read,
            |c, _| c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 4),
        ),
        row_with(
            "copy_buffer_sub_data",
            OP,
            "§2.9.5: writetarget's buffer is mapped",
            map_read,
            |c, _| c.copy_buffer_sub_data(gl::COPY_WRITE_BUFFER, gl::COPY_READ_BUFFER, 0, 0, 4),
        ),
        row_with(
            "draw_arrays",
            OP,
            "§2.9.3 (Mesa raises it): an enabled attribute's buffer is mapped",
            map_read,
            |c, _| c.draw_arrays(gl::TRIANGLES, 0, 3),
        ),
        row_with(
            "draw_elements",
            OP,
            "§2.9.3 (Mesa raises it): the element buffer is mapped",
            |c, _| {
                c.map_buffer(gl::ELEMENT_ARRAY_BUFFER, gl::READ_ONLY);
            },
            |c, _| c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0),
        ),
    ]
}
