//! Mapping buffer objects (GL 3.3 §2.9.3): `glMapBufferRange`, `glMapBuffer`,
//! `glFlushMappedBufferRange`, `glUnmapBuffer`, the mapping queries of
//! `glGetBufferParameteriv`, and the rule that commands which read or write a
//! mapped buffer's store fail with `GL_INVALID_OPERATION`.
//!
//! GL returns a pointer into the store. rgl's safe API hands out the mapped
//! range as a slice borrowed from the context instead ([`Context::mapped_bytes`],
//! [`Context::mapped_bytes_mut`]): it is valid exactly as long as GL's pointer
//! would be usable without another GL call in between. The store is rgl's own
//! copy, so a mapping never waits for the driver; what the application writes
//! reaches the driver at the next draw after `glUnmapBuffer`.

use crate::buffer::BufferObject;
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::Context;

/// The access bits `glMapBufferRange` defines (GL 3.3 §2.9.3).
const ACCESS_BITS: u32 = gl::MAP_READ_BIT
    | gl::MAP_WRITE_BIT
    | gl::MAP_INVALIDATE_RANGE_BIT
    | gl::MAP_INVALIDATE_BUFFER_BIT
    | gl::MAP_FLUSH_EXPLICIT_BIT
    | gl::MAP_UNSYNCHRONIZED_BIT;

/// A buffer's current mapping.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Mapping {
    /// First mapped byte.
    pub offset: usize,
    /// Mapped length in bytes (never zero).
    pub length: usize,
    /// The `MAP_*_BIT` flags it was mapped with (`glMapBuffer`'s access enum
    /// is translated to `MAP_READ_BIT` / `MAP_WRITE_BIT`).
    pub access: u32,
}

impl BufferObject {
    /// `GL_INVALID_OPERATION` while the store is mapped: the rule for commands
    /// that read or write a mapped buffer (GL 3.3 §2.9.3 "Effects of Mapping
    /// Buffers on Other Commands"; Mesa's `_mesa_check_disallowed_mapping`).
    pub(crate) fn not_mapped(&self) -> GlResult<()> {
        match self.mapping {
            Some(_) => Err(GlError::InvalidOperation),
            None => Ok(()),
        }
    }
}

impl Context {
    /// `glMapBufferRange`: maps `length` bytes from `offset` of the buffer bound
    /// to `target`. Returns whether the buffer is now mapped (GL's non-null
    /// pointer); the range is then [`Context::mapped_bytes`] /
    /// [`Context::mapped_bytes_mut`].
    pub fn map_buffer_range(&mut self, target: u32, offset: i64, length: i64, access: u32) -> bool {
        let r = self.bound_buffer(target).and_then(|b| {
            // GL 3.3 §2.9.3: negative values, a range past the end and
            // undefined bits are INVALID_VALUE.
            let start = usize::try_from(offset).map_err(|_| GlError::InvalidValue)?;
            let len = usize::try_from(length).map_err(|_| GlError::InvalidValue)?;
            if start.checked_add(len).is_none_or(|end| end > b.data.len())
                || access & !ACCESS_BITS != 0
            {
                return Err(GlError::InvalidValue);
            }
            let read = access & gl::MAP_READ_BIT != 0;
            let write = access & gl::MAP_WRITE_BIT != 0;
            let invalidate_or_unsync = access
                & (gl::MAP_INVALIDATE_RANGE_BIT
                    | gl::MAP_INVALIDATE_BUFFER_BIT
                    | gl::MAP_UNSYNCHRONIZED_BIT)
                != 0;
            // GL 3.3 §2.9.3's INVALID_OPERATION list. A zero length is not in
            // 3.3's list; GL 4.5 §6.3 adds it as INVALID_OPERATION, and Mesa
            // (validate_map_buffer_range) raises it in every version, as rgl does.
            if len == 0
                || b.mapping.is_some()
                || !(read || write)
                || (read && invalidate_or_unsync)
                || (access & gl::MAP_FLUSH_EXPLICIT_BIT != 0 && !write)
            {
                return Err(GlError::InvalidOperation);
            }
            b.mapping = Some(Mapping {
                offset: start,
                length: len,
                access,
            });
            Ok(())
        });
        self.check(r).is_some()
    }

    /// `glMapBuffer`: maps the whole store with `GL_READ_ONLY`, `GL_WRITE_ONLY`
    /// or `GL_READ_WRITE` access (GL 3.3 §2.9.3: the same as
    /// `glMapBufferRange(0, BUFFER_SIZE)` with the matching read/write bits).
    pub fn map_buffer(&mut self, target: u32, access: u32) -> bool {
        let bits = match access {
            gl::READ_ONLY => gl::MAP_READ_BIT,
            gl::WRITE_ONLY => gl::MAP_WRITE_BIT,
            gl::READ_WRITE => gl::MAP_READ_BIT | gl::MAP_WRITE_BIT,
            _ => {
                // The target is checked first, as GL lists it first.
                let r = self.bound_buffer(target).and(Err(GlError::InvalidEnum));
                self.check::<()>(r);
                return false;
            }
        };
        let r = self.bound_buffer(target).and_then(|b| {
            if b.mapping.is_some() {
                return Err(GlError::InvalidOperation);
            }
            // A zero-sized store maps to an empty range: GL 3.3's glMapBuffer
            // has no size error, so it succeeds and exposes no bytes.
            b.mapping = Some(Mapping {
                offset: 0,
                length: b.data.len(),
                access: bits,
            });
            Ok(())
        });
        self.check(r).is_some()
    }

    /// The mapped range of the buffer bound to `target` (rgl's view of GL's
    /// mapped pointer), or `None` when nothing is bound or it is not mapped.
    /// Raises no GL error (it takes `&mut self` only because it shares the
    /// binding lookup of every other buffer call).
    pub fn mapped_bytes(&mut self, target: u32) -> Option<&[u8]> {
        let b = self.bound_buffer(target).ok()?;
        let m = b.mapping?;
        b.data.get(m.offset..m.offset + m.length)
    }

    /// The mapped range for writing: `None` unless the buffer bound to `target`
    /// is mapped with `MAP_WRITE_BIT` (writing through a read-only mapping is
    /// undefined in GL; rgl does not offer it). Raises no GL error.
    pub fn mapped_bytes_mut(&mut self, target: u32) -> Option<&mut [u8]> {
        let b = self.bound_buffer(target).ok()?;
        let m = b.mapping.filter(|m| m.access & gl::MAP_WRITE_BIT != 0)?;
        b.data.get_mut(m.offset..m.offset + m.length)
    }

    /// `glFlushMappedBufferRange`: `offset` is relative to the mapping.
    pub fn flush_mapped_buffer_range(&mut self, target: u32, offset: i64, length: i64) {
        let r = self.bound_buffer(target).and_then(|b| {
            let start = usize::try_from(offset).map_err(|_| GlError::InvalidValue)?;
            let len = usize::try_from(length).map_err(|_| GlError::InvalidValue)?;
            let m = b
                .mapping
                .filter(|m| m.access & gl::MAP_FLUSH_EXPLICIT_BIT != 0)
                .ok_or(GlError::InvalidOperation)?;
            if start.checked_add(len).is_none_or(|end| end > m.length) {
                return Err(GlError::InvalidValue);
            }
            // The store is the context's own copy: flushed bytes are already
            // there; the driver's copy is refreshed after the unmap.
            b.synced = false;
            Ok(())
        });
        self.check(r);
    }

    /// `glUnmapBuffer`: `false` with `GL_INVALID_OPERATION` when the buffer is
    /// not mapped. rgl's store cannot be lost while mapped, so a successful
    /// unmap always returns `true` (GL 3.3 §2.9.3).
    pub fn unmap_buffer(&mut self, target: u32) -> bool {
        let r = self.bound_buffer(target).and_then(|b| {
            let m = b.mapping.take().ok_or(GlError::InvalidOperation)?;
            if m.access & gl::MAP_WRITE_BIT != 0 {
                b.synced = false;
            }
            Ok(())
        });
        self.check(r).is_some()
    }
}

/// `glGetBufferParameteriv`'s mapping state (GL 3.3 §6.1.8, table 6.9).
pub(crate) fn mapping_parameter(b: &BufferObject, pname: u32) -> Option<i64> {
    let m = b.mapping;
    Some(match pname {
        gl::BUFFER_MAPPED => i64::from(m.is_some()),
        gl::BUFFER_ACCESS_FLAGS => m.map_or(0, |m| i64::from(m.access)),
        gl::BUFFER_MAP_OFFSET => m.map_or(0, |m| m.offset as i64),
        gl::BUFFER_MAP_LENGTH => m.map_or(0, |m| m.length as i64),
        // glMapBuffer's access enum; the initial value is READ_WRITE, and a
        // range mapping reports the enum matching its read/write bits.
        gl::BUFFER_ACCESS => {
            let rw = m.map_or(gl::MAP_READ_BIT | gl::MAP_WRITE_BIT, |m| {
                m.access & (gl::MAP_READ_BIT | gl::MAP_WRITE_BIT)
            });
            i64::from(match rw {
                gl::MAP_READ_BIT => gl::READ_ONLY,
                gl::MAP_WRITE_BIT => gl::WRITE_ONLY,
                _ => gl::READ_WRITE,
            })
        }
        _ => return None,
    })
}
