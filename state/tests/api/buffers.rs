//! Transcript calls for buffer objects: data upload and read-back, copies,
//! parameters and mapping (the `buffers*.gl` scripts). Buffers share the
//! script-name table of [`super::texfb::Objects`]; a bare number names a GL
//! buffer directly.

use rgl_state::{Buffer, Context};

use super::texfb::Objects;
use super::{Args, NOT_HANDLED};

/// `bytes` as a space-separated list.
fn show(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The remaining arguments as bytes.
fn bytes(a: &mut Args<'_>) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while let Ok(w) = a.next() {
        out.push(w.parse().map_err(|_| format!("bad byte `{w}`"))?);
    }
    Ok(out)
}

/// A signed 64-bit argument (offsets and lengths).
fn i64_arg(a: &mut Args<'_>) -> Result<i64, String> {
    let w = a.next()?;
    w.parse().map_err(|_| format!("bad integer `{w}`"))
}

/// Runs `name` if it is one of this module's calls.
pub fn call(
    ctx: &mut Context,
    objs: &mut Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    Ok(match name {
        "create_buffer" => {
            let w = a.next()?;
            let b = ctx.create_buffer().map_err(|e| e.to_string())?;
            objs.bind(w, b.name())
        }
        "bind_buffer" => {
            let target = a.u32()?;
            ctx.bind_buffer(target, objs.get(a.next()?)?.map(Buffer));
            String::new()
        }
        "delete_buffer" => {
            if let Some(b) = objs.get(a.next()?)? {
                ctx.delete_buffer(Buffer(b));
            }
            String::new()
        }
        // buffer_data TARGET USAGE BYTE...
        "buffer_data" => {
            let (target, usage) = (a.u32()?, a.u32()?);
            ctx.buffer_data_u8_slice(target, &bytes(a)?, usage);
            String::new()
        }
        // buffer_sub_data TARGET OFFSET BYTE...
        "buffer_sub_data" => {
            let (target, offset) = (a.u32()?, a.i32()?);
            ctx.buffer_sub_data_u8_slice(target, offset, &bytes(a)?);
            String::new()
        }
        // get_buffer_sub_data TARGET OFFSET LEN: the bytes (zeros on error).
        "get_buffer_sub_data" => {
            let (target, offset, len) = (a.u32()?, a.i32()?, a.u32()?);
            let mut dst = vec![0u8; len as usize];
            ctx.get_buffer_sub_data(target, offset, &mut dst);
            show(&dst)
        }
        "copy_buffer_sub_data" => {
            let (src, dst) = (a.u32()?, a.u32()?);
            let (so, d_o, n) = (a.i32()?, a.i32()?, a.i32()?);
            ctx.copy_buffer_sub_data(src, dst, so, d_o, n);
            String::new()
        }
        "get_buffer_parameter" => {
            let (target, pname) = (a.u32()?, a.u32()?);
            format!("{}", ctx.get_buffer_parameter_i32(target, pname))
        }
        // map_buffer_range TARGET OFFSET LENGTH ACCESS
        "map_buffer_range" => {
            let target = a.u32()?;
            let (offset, length) = (i64_arg(a)?, i64_arg(a)?);
            format!("{}", ctx.map_buffer_range(target, offset, length, a.u32()?))
        }
        "map_buffer" => {
            let target = a.u32()?;
            format!("{}", ctx.map_buffer(target, a.u32()?))
        }
        // mapped_bytes TARGET: the mapped range, or `none`.
        "mapped_bytes" => match ctx.mapped_bytes(a.u32()?) {
            Some(b) => show(b),
            None => "none".into(),
        },
        // write_mapped TARGET OFFSET BYTE...: writes through the mapping.
        "write_mapped" => {
            let (target, offset) = (a.u32()?, a.u32()? as usize);
            let data = bytes(a)?;
            match ctx.mapped_bytes_mut(target) {
                Some(m) => match m.get_mut(offset..offset + data.len()) {
                    Some(dst) => {
                        dst.copy_from_slice(&data);
                        "written".into()
                    }
                    None => "outside the mapping".into(),
                },
                None => "not writable".into(),
            }
        }
        "flush_mapped_buffer_range" => {
            let target = a.u32()?;
            let (offset, length) = (i64_arg(a)?, i64_arg(a)?);
            ctx.flush_mapped_buffer_range(target, offset, length);
            String::new()
        }
        "unmap_buffer" => format!("{}", ctx.unmap_buffer(a.u32()?)),
        _ => return Err(NOT_HANDLED.to_string()),
    })
}
