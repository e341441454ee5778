//! Transcript calls for compute dispatch, memory barriers and the indexed
//! shader storage / atomic counter buffer bindings (the `compute*.gl`
//! scripts). Buffers are named through [`super::texfb::Objects`].

use rgl_state::{Buffer, Context};

use super::texfb::Objects;
use super::{Args, NOT_HANDLED};

/// Runs `name` if it is one of this module's calls.
pub fn call(
    ctx: &mut Context,
    objs: &mut Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    Ok(match name {
        // bind_buffer_base TARGET INDEX BUFFER
        "bind_buffer_base" => {
            let (target, index) = (a.u32()?, a.u32()?);
            ctx.bind_buffer_base(target, index, objs.get(a.next()?)?.map(Buffer));
            String::new()
        }
        // bind_buffer_range TARGET INDEX BUFFER OFFSET SIZE
        "bind_buffer_range" => {
            let (target, index) = (a.u32()?, a.u32()?);
            let buffer = objs.get(a.next()?)?.map(Buffer);
            let (offset, size) = (a.i32()?, a.i32()?);
            ctx.bind_buffer_range(target, index, buffer, offset, size);
            String::new()
        }
        // get_parameter_indexed PNAME INDEX
        "get_parameter_indexed" => {
            let (pname, index) = (a.u32()?, a.u32()?);
            ctx.get_parameter_indexed_i32(pname, index).to_string()
        }
        "dispatch_compute" => {
            let (x, y, z) = (a.u32()?, a.u32()?, a.u32()?);
            ctx.dispatch_compute(x, y, z);
            ctx.last_draw_error().unwrap_or_default()
        }
        "dispatch_compute_indirect" => {
            ctx.dispatch_compute_indirect(i64::from(a.i32()?));
            ctx.last_draw_error().unwrap_or_default()
        }
        "memory_barrier" => {
            ctx.memory_barrier(a.u32()?);
            String::new()
        }
        "memory_barrier_by_region" => {
            ctx.memory_barrier_by_region(a.u32()?);
            String::new()
        }
        // buffer_words TARGET OFFSET COUNT: little-endian u32 words read back.
        "buffer_words" => {
            let (target, offset, count) = (a.u32()?, a.i32()?, a.u32()?);
            let mut dst = vec![0u8; count as usize * 4];
            ctx.get_buffer_sub_data(target, offset, &mut dst);
            dst.chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
        _ => return Err(NOT_HANDLED.into()),
    })
}
