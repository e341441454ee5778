//! Misuse rows of sync objects (GL 3.3 §5.2 and §6.1.7).

use std::num::NonZeroU32;

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_VALUE as VALUE};
use rgl_state::{Context, Fence};

use crate::fixture::{never, Fx};
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

/// The first fence of a fresh context: what [`make_fence`] creates.
fn first_fence() -> Fence {
    Fence(NonZeroU32::MIN)
}

fn make_fence(c: &mut Context, _: &Fx) {
    c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
}

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "fence_sync",
            ENUM,
            "§5.2: condition is not SYNC_GPU_COMMANDS_COMPLETE",
            |c, _| {
                c.fence_sync(BAD, 0);
            },
        ),
        row("fence_sync", VALUE, "§5.2: flags is not zero", |c, _| {
            c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 1);
        }),
        row(
            "client_wait_sync",
            VALUE,
            "§5.2.1: sync is not a sync object",
            |c, _| {
                c.client_wait_sync(Fence(never(5)), 0, 0);
            },
        ),
        row_with(
            "client_wait_sync",
            VALUE,
            "§5.2.1: flags has a bit other than SYNC_FLUSH_COMMANDS_BIT",
            make_fence,
            |c, _| {
                c.client_wait_sync(first_fence(), 2, 0);
            },
        ),
        row(
            "wait_sync",
            VALUE,
            "§5.2.1: sync is not a sync object",
            |c, _| c.wait_sync(Fence(never(5)), 0, gl::TIMEOUT_IGNORED),
        ),
        row_with(
            "wait_sync",
            VALUE,
            "§5.2.1: flags is not zero",
            make_fence,
            |c, _| c.wait_sync(first_fence(), 1, gl::TIMEOUT_IGNORED),
        ),
        row_with(
            "wait_sync",
            VALUE,
            "§5.2.1: timeout is not TIMEOUT_IGNORED",
            make_fence,
            |c, _| c.wait_sync(first_fence(), 0, 1000),
        ),
        row(
            "get_sync_parameter_i32",
            VALUE,
            "§6.1.7: sync is not a sync object",
            |c, _| {
                c.get_sync_parameter_i32(Fence(never(5)), gl::SYNC_STATUS);
            },
        ),
        row_with(
            "get_sync_parameter_i32",
            ENUM,
            "§6.1.7: pname is not a sync property",
            make_fence,
            |c, _| {
                c.get_sync_parameter_i32(first_fence(), BAD);
            },
        ),
        row(
            "delete_sync",
            VALUE,
            "§5.2: sync is neither zero nor a sync object",
            |c, _| c.delete_sync(Some(Fence(never(5)))),
        ),
    ]
}
