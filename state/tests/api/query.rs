//! Transcript calls for query objects (the `query.gl` script). Queries share
//! the script-name table of [`super::texfb::Objects`]; a bare number names a
//! GL query directly.

use rgl_state::{Context, Query};

use super::texfb::Objects;
use super::{Args, NOT_HANDLED};

fn query(objs: &Objects, w: &str) -> Result<Query, String> {
    objs.get(w)?.map(Query).ok_or_else(|| "query 0".into())
}

/// Runs `name` if it is one of this module's calls.
pub fn call(
    ctx: &mut Context,
    objs: &mut Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    Ok(match name {
        "create_query" => {
            let w = a.next()?;
            let q = ctx.create_query().map_err(|e| e.to_string())?;
            objs.bind(w, q.name())
        }
        "begin_query" => {
            let target = a.u32()?;
            ctx.begin_query(target, query(objs, a.next()?)?);
            String::new()
        }
        "end_query" => {
            ctx.end_query(a.u32()?);
            String::new()
        }
        "query_counter" => {
            let q = query(objs, a.next()?)?;
            ctx.query_counter_timestamp(q, a.u32()?);
            String::new()
        }
        "get_query" => {
            let target = a.u32()?;
            format!("{}", ctx.get_query_parameter_i32(target, a.u32()?))
        }
        "get_query_object" => {
            let q = query(objs, a.next()?)?;
            format!("{}", ctx.get_query_object_u64(q, a.u32()?))
        }
        "is_query" => match objs.get(a.next()?)? {
            Some(q) => format!("{}", ctx.is_query(Query(q))),
            None => "false".into(),
        },
        "delete_query" => {
            if let Some(q) = objs.get(a.next()?)? {
                ctx.delete_query(Query(q));
            }
            String::new()
        }
        // timestamp_advances Q1 Q2: whether Q2's timestamp is later than
        // Q1's and GL_TIMESTAMP is later than both (times vary per run).
        "timestamp_advances" => {
            let (q1, q2) = (query(objs, a.next()?)?, query(objs, a.next()?)?);
            let t1 = ctx.get_query_object_u64(q1, rgl_state::gl::QUERY_RESULT);
            let t2 = ctx.get_query_object_u64(q2, rgl_state::gl::QUERY_RESULT);
            let now = ctx.get_parameter_i64(rgl_state::gl::TIMESTAMP) as u64;
            format!("{}", t1 > 0 && t1 <= t2 && t2 <= now)
        }
        "begin_conditional_render" => {
            let q = query(objs, a.next()?)?;
            ctx.begin_conditional_render(q, a.u32()?);
            String::new()
        }
        "end_conditional_render" => {
            ctx.end_conditional_render();
            String::new()
        }
        _ => return Err(NOT_HANDLED.to_string()),
    })
}
