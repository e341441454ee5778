//! Misuse rows of query objects (GL 3.3 §2.14 and §6.1.6), conditional
//! rendering (§2.16) and `glGetInteger64v`.

use std::num::NonZeroU32;

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE};
use rgl_state::{Context, Query};

use crate::fixture::{never, Fx};
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

/// The first and second query names of a fresh context.
fn q1() -> Query {
    Query(NonZeroU32::MIN)
}

fn q2() -> Query {
    Query(NonZeroU32::MIN.saturating_add(1))
}

/// Generates two names; the first becomes an active SAMPLES_PASSED query.
fn active(c: &mut Context, _: &Fx) {
    let a = c.create_query().expect("query");
    c.create_query().expect("query");
    c.begin_query(gl::SAMPLES_PASSED, a);
}

/// Generates two names; the first is a finished SAMPLES_PASSED query.
fn finished(c: &mut Context, fx: &Fx) {
    active(c, fx);
    c.end_query(gl::SAMPLES_PASSED);
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "begin_query",
            ENUM,
            "§2.14: target is not a query target",
            |c, _| c.begin_query(BAD, Query(never(6))),
        ),
        row_with(
            "begin_query",
            ENUM,
            "§2.14: TIMESTAMP cannot be begun",
            finished,
            |c, _| c.begin_query(gl::TIMESTAMP, q2()),
        ),
        row(
            "begin_query",
            OP,
            "§2.14: id is not a name from glGenQueries",
            |c, _| c.begin_query(gl::SAMPLES_PASSED, Query(never(6))),
        ),
        row_with(
            "begin_query",
            OP,
            "§2.14: a query is already active for target",
            active,
            |c, _| c.begin_query(gl::SAMPLES_PASSED, q2()),
        ),
        row_with(
            "begin_query",
            OP,
            "§2.14 (Mesa's shared occlusion binding): an occlusion query is active",
            active,
            |c, _| c.begin_query(gl::ANY_SAMPLES_PASSED, q2()),
        ),
        row_with(
            "begin_query",
            OP,
            "§2.14: id is the active query of another target",
            active,
            |c, _| c.begin_query(gl::PRIMITIVES_GENERATED, q1()),
        ),
        row_with(
            "begin_query",
            OP,
            "§2.14: id is a query object of another target",
            finished,
            |c, _| c.begin_query(gl::TIME_ELAPSED, q1()),
        ),
        row(
            "end_query",
            ENUM,
            "§2.14: target is not a query target",
            |c, _| c.end_query(BAD),
        ),
        row(
            "end_query",
            OP,
            "§2.14: no query is active for target",
            |c, _| c.end_query(gl::SAMPLES_PASSED),
        ),
        row_with(
            "end_query",
            OP,
            "§2.14: the active occlusion query has the other occlusion target",
            active,
            |c, _| c.end_query(gl::ANY_SAMPLES_PASSED),
        ),
        row_with(
            "query_counter_timestamp",
            ENUM,
            "§2.14: target is not TIMESTAMP",
            finished,
            |c, _| c.query_counter_timestamp(q2(), gl::SAMPLES_PASSED),
        ),
        row(
            "query_counter_timestamp",
            OP,
            "§2.14: id is not a name from glGenQueries",
            |c, _| c.query_counter_timestamp(Query(never(6)), gl::TIMESTAMP),
        ),
        row_with(
            "query_counter_timestamp",
            OP,
            "§2.14: id is an active query",
            active,
            |c, _| c.query_counter_timestamp(q1(), gl::TIMESTAMP),
        ),
        row_with(
            "query_counter_timestamp",
            OP,
            "§2.14: id is a query object of another target",
            finished,
            |c, _| c.query_counter_timestamp(q1(), gl::TIMESTAMP),
        ),
        row(
            "get_query_parameter_i32",
            ENUM,
            "§6.1.6: target is not a query target",
            |c, _| {
                c.get_query_parameter_i32(BAD, gl::CURRENT_QUERY);
            },
        ),
        row(
            "get_query_parameter_i32",
            ENUM,
            "§6.1.6: pname is not a query property",
            |c, _| {
                c.get_query_parameter_i32(gl::SAMPLES_PASSED, gl::QUERY_RESULT);
            },
        ),
        row(
            "get_query_parameter_i32",
            ENUM,
            "§6.1.6 (Mesa): TIMESTAMP has no current query",
            |c, _| {
                c.get_query_parameter_i32(gl::TIMESTAMP, gl::CURRENT_QUERY);
            },
        ),
        row_with(
            "get_query_object_u64",
            OP,
            "§6.1.6: id is an active query",
            active,
            |c, _| {
                c.get_query_object_u64(q1(), gl::QUERY_RESULT);
            },
        ),
        row_with(
            "get_query_object_u64",
            OP,
            "§6.1.6: id is generated but not yet a query object",
            finished,
            |c, _| {
                c.get_query_object_u64(q2(), gl::QUERY_RESULT);
            },
        ),
        row(
            "get_query_object_u64",
            OP,
            "§6.1.6: id is not a name",
            |c, _| {
                c.get_query_object_u64(Query(never(6)), gl::QUERY_RESULT);
            },
        ),
        row_with(
            "get_query_object_u64",
            ENUM,
            "§6.1.6: pname is not a result",
            finished,
            |c, _| {
                c.get_query_object_u64(q1(), gl::CURRENT_QUERY);
            },
        ),
        row_with(
            "get_query_object_u32",
            OP,
            "§6.1.6: id is an active query",
            active,
            |c, _| {
                c.get_query_object_u32(q1(), gl::QUERY_RESULT);
            },
        ),
        row_with(
            "get_query_object_u32",
            ENUM,
            "§6.1.6: pname is not a result",
            finished,
            |c, _| {
                c.get_query_object_u32(q1(), gl::CURRENT_QUERY);
            },
        ),
        row_with(
            "begin_conditional_render",
            ENUM,
            "§2.16: mode is not a wait mode",
            finished,
            |c, _| c.begin_conditional_render(q1(), gl::TRIANGLES),
        ),
        row_with(
            "begin_conditional_render",
            OP,
            "§2.16: conditional rendering is already in progress",
            |c, fx| {
                finished(c, fx);
                c.begin_conditional_render(q1(), gl::QUERY_WAIT);
            },
            |c, _| c.begin_conditional_render(q1(), gl::QUERY_WAIT),
        ),
        row(
            "begin_conditional_render",
            VALUE,
            "§2.16: id is not a query object",
            |c, _| c.begin_conditional_render(Query(never(6)), gl::QUERY_WAIT),
        ),
        row_with(
            "begin_conditional_render",
            VALUE,
            "§2.16: id is generated but never begun",
            finished,
            |c, _| c.begin_conditional_render(q2(), gl::QUERY_WAIT),
        ),
        row_with(
            "begin_conditional_render",
            OP,
            "§2.16: id is an active query",
            active,
            |c, _| c.begin_conditional_render(q1(), gl::QUERY_WAIT),
        ),
        row_with(
            "begin_conditional_render",
            OP,
            "§2.16: id is not an occlusion query",
            |c, _| {
                c.create_query().expect("query");
                c.query_counter_timestamp(q1(), gl::TIMESTAMP);
            },
            |c, _| c.begin_conditional_render(q1(), gl::QUERY_WAIT),
        ),
        row(
            "end_conditional_render",
            OP,
            "§2.16: no conditional rendering in progress",
            |c, _| c.end_conditional_render(),
        ),
        row(
            "get_parameter_i64",
            ENUM,
            "§6.1.1: pname is not a state value",
            |c, _| {
                c.get_parameter_i64(BAD);
            },
        ),
    ]
}
