//! Sync objects (GL 3.3 §5.2, ARB_sync): `glFenceSync`, `glClientWaitSync`,
//! `glWaitSync`, `glGetSynciv`, `glIsSync` and `glDeleteSync`.
//!
//! A fence is signaled once every command issued before it has completed. The
//! driver executes a context's commands in order on one queue, so the fence
//! flushes the driver when it is created (the `SYNC_FLUSH_COMMANDS_BIT` rule
//! then always holds), and it becomes signaled the first time the application
//! looks at it (a client wait or a status query) by waiting for the driver to
//! finish. A status poll therefore always makes progress: a loop on
//! `GL_SYNC_STATUS` ends, as GL requires ("in finite time"). `glWaitSync` is a
//! server-side wait; with a single in-order queue there is nothing to order,
//! so it only checks its arguments.

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::Fence;
use crate::Context;

/// A fence sync object's state.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncObject {
    /// Every command before the fence has completed.
    pub signaled: bool,
}

impl Context {
    fn sync_obj(&mut self, sync: Fence) -> GlResult<&mut SyncObject> {
        self.syncs.get_mut(sync.name()).ok_or(GlError::InvalidValue)
    }

    /// Finishes the driver's work and signals `sync`.
    fn signal(&mut self, sync: Fence) -> GlResult<()> {
        if self.sync_obj(sync)?.signaled {
            return Ok(());
        }
        self.driver.finish().map_err(|e| {
            self.draw_error = Some(e.to_string());
            GlError::OutOfMemory
        })?;
        // Every earlier fence is signaled by the same finish.
        for (_, s) in self.syncs.iter_mut() {
            s.signaled = true;
        }
        Ok(())
    }

    /// `glFenceSync(condition, flags)`: `condition` must be
    /// `GL_SYNC_GPU_COMMANDS_COMPLETE` and `flags` zero (GL 3.3 §5.2). `None`
    /// is GL's null sync, returned with the error.
    pub fn fence_sync(&mut self, condition: u32, flags: u32) -> Option<Fence> {
        let r = if condition != gl::SYNC_GPU_COMMANDS_COMPLETE {
            Err(GlError::InvalidEnum)
        } else if flags != 0 {
            Err(GlError::InvalidValue)
        } else {
            self.syncs
                .insert(SyncObject::default())
                .map(Fence)
                .ok_or(GlError::OutOfMemory)
        };
        let fence = self.check(r)?;
        if let Err(e) = self.driver.flush() {
            self.draw_error = Some(e.to_string());
            self.record(GlError::OutOfMemory);
        }
        Some(fence)
    }

    /// `glIsSync`.
    pub fn is_sync(&self, sync: Fence) -> bool {
        self.syncs.contains(sync.name())
    }

    /// `glDeleteSync`; `None` (the name zero) is silently ignored.
    pub fn delete_sync(&mut self, sync: Option<Fence>) {
        let Some(sync) = sync else { return };
        if self.syncs.remove(sync.name()).is_none() {
            self.record(GlError::InvalidValue);
        }
    }

    /// `glClientWaitSync`: `GL_ALREADY_SIGNALED`, `GL_CONDITION_SATISFIED`
    /// (it had to wait), or `GL_WAIT_FAILED` with an error. `flags` may only
    /// hold `GL_SYNC_FLUSH_COMMANDS_BIT`. The wait needs the driver's work
    /// done, so it never times out: a zero timeout (a poll) also completes it.
    pub fn client_wait_sync(&mut self, sync: Fence, flags: u32, _timeout_ns: u64) -> u32 {
        let r = (|| {
            let already = self.sync_obj(sync)?.signaled;
            if flags & !gl::SYNC_FLUSH_COMMANDS_BIT != 0 {
                return Err(GlError::InvalidValue);
            }
            if already {
                return Ok(gl::ALREADY_SIGNALED);
            }
            self.signal(sync)?;
            Ok(gl::CONDITION_SATISFIED)
        })();
        self.check(r).unwrap_or(gl::WAIT_FAILED)
    }

    /// `glWaitSync`: `flags` must be zero and `timeout` `GL_TIMEOUT_IGNORED`.
    pub fn wait_sync(&mut self, sync: Fence, flags: u32, timeout: u64) {
        let r = self.sync_obj(sync).and_then(|_| {
            if flags != 0 || timeout != gl::TIMEOUT_IGNORED {
                return Err(GlError::InvalidValue);
            }
            Ok(())
        });
        self.check(r);
    }

    /// `glGetSynciv` for one value: `GL_OBJECT_TYPE`, `GL_SYNC_STATUS`,
    /// `GL_SYNC_CONDITION` or `GL_SYNC_FLAGS` (GL 3.3 §6.1.7).
    pub fn get_sync_parameter_i32(&mut self, sync: Fence, pname: u32) -> i32 {
        let r = (|| {
            self.sync_obj(sync)?;
            Ok(match pname {
                gl::OBJECT_TYPE => gl::SYNC_FENCE as i32,
                gl::SYNC_CONDITION => gl::SYNC_GPU_COMMANDS_COMPLETE as i32,
                gl::SYNC_FLAGS => 0,
                gl::SYNC_STATUS => {
                    self.signal(sync)?;
                    gl::SIGNALED as i32
                }
                _ => return Err(GlError::InvalidEnum),
            })
        })();
        self.check(r).unwrap_or(0)
    }
}
