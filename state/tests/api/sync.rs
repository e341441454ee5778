//! Transcript calls for sync objects (the `sync.gl` script). Fences share the
//! script-name table of [`super::texfb::Objects`]; a bare number names a GL
//! sync directly.

use rgl_state::{gl, Context, Fence};

use super::texfb::Objects;
use super::{Args, NOT_HANDLED};

fn status_name(v: u32) -> String {
    match v {
        gl::ALREADY_SIGNALED => "GL_ALREADY_SIGNALED".into(),
        gl::CONDITION_SATISFIED => "GL_CONDITION_SATISFIED".into(),
        gl::TIMEOUT_EXPIRED => "GL_TIMEOUT_EXPIRED".into(),
        gl::WAIT_FAILED => "GL_WAIT_FAILED".into(),
        gl::SIGNALED => "GL_SIGNALED".into(),
        gl::UNSIGNALED => "GL_UNSIGNALED".into(),
        gl::SYNC_FENCE => "GL_SYNC_FENCE".into(),
        gl::SYNC_GPU_COMMANDS_COMPLETE => "GL_SYNC_GPU_COMMANDS_COMPLETE".into(),
        other => format!("{other:#x}"),
    }
}

/// A fence argument: a script name, or a bare number (0 is an error here,
/// since the API takes no null fence except in `delete_sync`).
fn fence(objs: &Objects, w: &str) -> Result<Fence, String> {
    objs.get(w)?.map(Fence).ok_or_else(|| "fence 0".into())
}

/// Runs `name` if it is one of this module's calls.
pub fn call(
    ctx: &mut Context,
    objs: &mut Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    Ok(match name {
        // fence_sync NAME CONDITION FLAGS
        "fence_sync" => {
            let w = a.next()?;
            let (condition, flags) = (a.u32()?, a.u32()?);
            match ctx.fence_sync(condition, flags) {
                Some(f) => objs.bind(w, f.name()),
                None => "null".into(),
            }
        }
        // client_wait_sync FENCE FLAGS TIMEOUT_NS
        "client_wait_sync" => {
            let f = fence(objs, a.next()?)?;
            let flags = a.u32()?;
            let timeout = a.u32()?;
            status_name(ctx.client_wait_sync(f, flags, u64::from(timeout)))
        }
        // wait_sync FENCE FLAGS (ignored|NUMBER)
        "wait_sync" => {
            let f = fence(objs, a.next()?)?;
            let flags = a.u32()?;
            let timeout = match a.next()? {
                "ignored" => gl::TIMEOUT_IGNORED,
                w => w.parse().map_err(|_| format!("bad timeout `{w}`"))?,
            };
            ctx.wait_sync(f, flags, timeout);
            String::new()
        }
        "get_sync" => {
            let f = fence(objs, a.next()?)?;
            status_name(ctx.get_sync_parameter_i32(f, a.u32()?) as u32)
        }
        "is_sync" => match objs.get(a.next()?)? {
            Some(f) => format!("{}", ctx.is_sync(Fence(f))),
            None => "false".into(),
        },
        "delete_sync" => {
            ctx.delete_sync(objs.get(a.next()?)?.map(Fence));
            String::new()
        }
        _ => return Err(NOT_HANDLED.to_string()),
    })
}
