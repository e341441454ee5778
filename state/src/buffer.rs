//! Buffer objects: names, binding points (array, element array through the bound
//! VAO, uniform, shader storage and atomic counter with indexed bindings, dispatch
//! indirect, copy and pixel targets), data upload and read-back, with GL's error
//! rules. Mapping is in `buffer_map`.

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::Buffer;
use crate::Context;

/// A buffer object's store.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferObject {
    /// Contents.
    pub data: Vec<u8>,
    /// `usage` hint of the last `glBufferData`.
    pub usage: u32,
    /// The driver's copy, created by the first draw that reads the buffer.
    pub driver: Option<rgl_backend::driver::BufferHandle>,
    /// The driver's copy matches `data`.
    pub synced: bool,
    /// The current mapping (`glMapBufferRange`), if any.
    pub mapping: Option<crate::buffer_map::Mapping>,
}

/// An indexed binding (`glBindBufferRange`); `size == None` binds the whole buffer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexedBinding {
    /// The bound buffer.
    pub buffer: Option<Buffer>,
    /// Start offset in bytes.
    pub offset: usize,
    /// Size in bytes, or the whole buffer.
    pub size: Option<usize>,
}

/// Non-indexed buffer binding points held by the context.
#[derive(Clone, Debug, Default)]
pub struct BufferBindings {
    pub(crate) array: Option<Buffer>,
    pub(crate) uniform: Option<Buffer>,
    pub(crate) copy_read: Option<Buffer>,
    pub(crate) copy_write: Option<Buffer>,
    pub(crate) pixel_pack: Option<Buffer>,
    pub(crate) pixel_unpack: Option<Buffer>,
    pub(crate) uniform_indexed: Vec<IndexedBinding>,
    pub(crate) shader_storage: Option<Buffer>,
    pub(crate) shader_storage_indexed: Vec<IndexedBinding>,
    pub(crate) atomic_counter: Option<Buffer>,
    pub(crate) atomic_counter_indexed: Vec<IndexedBinding>,
    pub(crate) dispatch_indirect: Option<Buffer>,
}

/// What distinguishes the indexed targets (GL 4.3 §6.1.1, §6.7): binding count
/// and `glBindBufferRange` offset alignment.
struct IndexedTarget {
    bindings: u32,
    alignment: u32,
}

fn indexed_target(target: u32) -> Option<IndexedTarget> {
    let (bindings, alignment) = match target {
        gl::UNIFORM_BUFFER => (
            limits::MAX_UNIFORM_BUFFER_BINDINGS,
            limits::UNIFORM_BUFFER_OFFSET_ALIGNMENT,
        ),
        gl::SHADER_STORAGE_BUFFER => (
            limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
            limits::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
        ),
        // GL 4.3 §6.7.1: atomic counter buffer offsets are multiples of 4.
        gl::ATOMIC_COUNTER_BUFFER => (limits::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, 4),
        _ => return None,
    };
    Some(IndexedTarget {
        bindings,
        alignment,
    })
}

impl BufferBindings {
    /// The indexed bindings of an indexed target (`None` for other targets).
    pub(crate) fn indexed(&self, target: u32) -> Option<&[IndexedBinding]> {
        Some(match target {
            gl::UNIFORM_BUFFER => &self.uniform_indexed,
            gl::SHADER_STORAGE_BUFFER => &self.shader_storage_indexed,
            gl::ATOMIC_COUNTER_BUFFER => &self.atomic_counter_indexed,
            _ => return None,
        })
    }

    /// The indexed bindings and the generic binding of an indexed target.
    fn indexed_mut(
        &mut self,
        target: u32,
    ) -> Option<(&mut Vec<IndexedBinding>, &mut Option<Buffer>)> {
        Some(match target {
            gl::UNIFORM_BUFFER => (&mut self.uniform_indexed, &mut self.uniform),
            gl::SHADER_STORAGE_BUFFER => {
                (&mut self.shader_storage_indexed, &mut self.shader_storage)
            }
            gl::ATOMIC_COUNTER_BUFFER => {
                (&mut self.atomic_counter_indexed, &mut self.atomic_counter)
            }
            _ => return None,
        })
    }
}

const USAGES: [u32; 9] = [
    gl::STREAM_DRAW,
    gl::STREAM_READ,
    gl::STREAM_COPY,
    gl::STATIC_DRAW,
    gl::STATIC_READ,
    gl::STATIC_COPY,
    gl::DYNAMIC_DRAW,
    gl::DYNAMIC_READ,
    gl::DYNAMIC_COPY,
];

impl Context {
    /// The binding slot of `target`, or `GL_INVALID_ENUM`.
    fn buffer_target(&mut self, target: u32) -> GlResult<&mut Option<Buffer>> {
        Ok(match target {
            gl::ARRAY_BUFFER => &mut self.buffer_bindings.array,
            gl::ELEMENT_ARRAY_BUFFER => &mut self.vao_mut().element_buffer,
            gl::UNIFORM_BUFFER => &mut self.buffer_bindings.uniform,
            gl::SHADER_STORAGE_BUFFER => &mut self.buffer_bindings.shader_storage,
            gl::ATOMIC_COUNTER_BUFFER => &mut self.buffer_bindings.atomic_counter,
            gl::DISPATCH_INDIRECT_BUFFER => &mut self.buffer_bindings.dispatch_indirect,
            gl::COPY_READ_BUFFER => &mut self.buffer_bindings.copy_read,
            gl::COPY_WRITE_BUFFER => &mut self.buffer_bindings.copy_write,
            gl::PIXEL_PACK_BUFFER => &mut self.buffer_bindings.pixel_pack,
            gl::PIXEL_UNPACK_BUFFER => &mut self.buffer_bindings.pixel_unpack,
            _ => return Err(GlError::InvalidEnum),
        })
    }

    /// The buffer bound to `target`: `GL_INVALID_OPERATION` when none.
    pub(crate) fn bound_buffer(&mut self, target: u32) -> GlResult<&mut BufferObject> {
        let buffer = (*self.buffer_target(target)?).ok_or(GlError::InvalidOperation)?;
        self.buffers
            .get_mut(buffer.name())
            .ok_or(GlError::InvalidOperation)
    }

    /// `glGenBuffers` (one name; the object exists from now on).
    pub fn create_buffer(&mut self) -> Result<Buffer, CreateError> {
        match self.buffers.insert(BufferObject::default()) {
            Some(n) => Ok(Buffer(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("buffer"))
            }
        }
    }

    /// `glIsBuffer`.
    pub fn is_buffer(&self, buffer: Buffer) -> bool {
        self.buffers.contains(buffer.name())
    }

    /// `glBindBuffer`; `None` unbinds.
    pub fn bind_buffer(&mut self, target: u32, buffer: Option<Buffer>) {
        if let Some(b) = buffer {
            if !self.buffers.contains(b.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        let r = self.buffer_target(target).map(|slot| *slot = buffer);
        self.check(r);
    }

    /// `glBindBufferBase`.
    pub fn bind_buffer_base(&mut self, target: u32, index: u32, buffer: Option<Buffer>) {
        self.bind_buffer_range_inner(target, index, buffer, 0, None);
    }

    /// `glBindBufferRange` (GL 4.3 §6.1.1): the offset of a uniform, shader
    /// storage or atomic counter binding must be a multiple of the target's
    /// alignment, else `GL_INVALID_VALUE`.
    pub fn bind_buffer_range(
        &mut self,
        target: u32,
        index: u32,
        buffer: Option<Buffer>,
        offset: i32,
        size: i32,
    ) {
        if buffer.is_some() && (offset < 0 || size <= 0) {
            return self.record(GlError::InvalidValue);
        }
        if indexed_target(target).is_some_and(|t| !(offset as u32).is_multiple_of(t.alignment)) {
            return self.record(GlError::InvalidValue);
        }
        self.bind_buffer_range_inner(target, index, buffer, offset as usize, Some(size as usize));
    }

    fn bind_buffer_range_inner(
        &mut self,
        target: u32,
        index: u32,
        buffer: Option<Buffer>,
        offset: usize,
        size: Option<usize>,
    ) {
        let Some(t) = indexed_target(target) else {
            return self.record(GlError::InvalidEnum);
        };
        if index >= t.bindings {
            return self.record(GlError::InvalidValue);
        }
        if let Some(b) = buffer {
            if !self.buffers.contains(b.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        let Some((slots, generic)) = self.buffer_bindings.indexed_mut(target) else {
            return self.record(GlError::InvalidEnum);
        };
        if slots.len() <= index as usize {
            slots.resize(index as usize + 1, IndexedBinding::default());
        }
        slots[index as usize] = IndexedBinding {
            buffer,
            offset,
            size,
        };
        *generic = buffer;
    }

    /// `glBufferData(target, size, NULL, usage)`: a zero-filled store.
    pub fn buffer_data_size(&mut self, target: u32, size: i32, usage: u32) {
        if size < 0 {
            return self.record(GlError::InvalidValue);
        }
        self.buffer_data_inner(target, BufferInit::Zeros(size as usize), usage);
    }

    /// `glBufferData(target, data.len(), data, usage)`.
    pub fn buffer_data_u8_slice(&mut self, target: u32, data: &[u8], usage: u32) {
        self.buffer_data_inner(target, BufferInit::Data(data), usage);
    }

    fn buffer_data_inner(&mut self, target: u32, init: BufferInit<'_>, usage: u32) {
        if !USAGES.contains(&usage) {
            return self.record(GlError::InvalidEnum);
        }
        let len = match init {
            BufferInit::Zeros(n) => n,
            BufferInit::Data(d) => d.len(),
        };
        if len > limits::MAX_BUFFER_SIZE {
            return self.record(GlError::OutOfMemory);
        }
        let r = self.bound_buffer(target).map(|b| {
            // GL 3.3 §2.9.2: a mapped store is unmapped before it is replaced.
            b.mapping = None;
            b.data = match init {
                BufferInit::Zeros(n) => vec![0; n],
                BufferInit::Data(d) => d.to_vec(),
            };
            b.usage = usage;
            b.synced = false;
        });
        self.check(r);
    }

    /// `glBufferSubData`.
    pub fn buffer_sub_data_u8_slice(&mut self, target: u32, offset: i32, data: &[u8]) {
        let r = self.bound_buffer(target).and_then(|b| {
            let start = usize::try_from(offset).map_err(|_| GlError::InvalidValue)?;
            let end = start.checked_add(data.len()).ok_or(GlError::InvalidValue)?;
            // GL 4.5 §6.2 names this error; GL 3.3 §2.9.3 allows it, as Mesa does.
            b.not_mapped()?;
            let dst = b.data.get_mut(start..end).ok_or(GlError::InvalidValue)?;
            dst.copy_from_slice(data);
            b.synced = false;
            Ok(())
        });
        self.check(r);
    }

    /// `glGetBufferSubData`.
    pub fn get_buffer_sub_data(&mut self, target: u32, offset: i32, dst: &mut [u8]) {
        let r = self.bound_buffer(target).and_then(|b| {
            let start = usize::try_from(offset).map_err(|_| GlError::InvalidValue)?;
            let end = start.checked_add(dst.len()).ok_or(GlError::InvalidValue)?;
            // GL 3.3 §6.1.8: reading a mapped store is INVALID_OPERATION.
            b.not_mapped()?;
            let src = b.data.get(start..end).ok_or(GlError::InvalidValue)?;
            dst.copy_from_slice(src);
            Ok(())
        });
        self.check(r);
    }

    /// `glCopyBufferSubData`.
    pub fn copy_buffer_sub_data(
        &mut self,
        src_target: u32,
        dst_target: u32,
        src_offset: i32,
        dst_offset: i32,
        size: i32,
    ) {
        let r = (|| {
            let (so, d_o, n) = (
                usize::try_from(src_offset).map_err(|_| GlError::InvalidValue)?,
                usize::try_from(dst_offset).map_err(|_| GlError::InvalidValue)?,
                usize::try_from(size).map_err(|_| GlError::InvalidValue)?,
            );
            // GL 3.3 §2.9.5: one buffer bound to both targets with overlapping
            // ranges is GL_INVALID_VALUE.
            let read = (*self.buffer_target(src_target)?).ok_or(GlError::InvalidOperation)?;
            let write = (*self.buffer_target(dst_target)?).ok_or(GlError::InvalidOperation)?;
            if read == write && so < d_o.saturating_add(n) && d_o < so.saturating_add(n) {
                return Err(GlError::InvalidValue);
            }
            // GL 3.3 §2.9.5: either buffer mapped is INVALID_OPERATION.
            self.bound_buffer(src_target)?.not_mapped()?;
            self.bound_buffer(dst_target)?.not_mapped()?;
            let src: Vec<u8> = {
                let b = self.bound_buffer(src_target)?;
                b.data
                    .get(so..so.checked_add(n).ok_or(GlError::InvalidValue)?)
                    .ok_or(GlError::InvalidValue)?
                    .to_vec()
            };
            let dst = self.bound_buffer(dst_target)?;
            let end = d_o.checked_add(n).ok_or(GlError::InvalidValue)?;
            dst.data
                .get_mut(d_o..end)
                .ok_or(GlError::InvalidValue)?
                .copy_from_slice(&src);
            dst.synced = false;
            Ok(())
        })();
        self.check(r);
    }

    /// `glGetBufferParameteriv`.
    pub fn get_buffer_parameter_i32(&mut self, target: u32, pname: u32) -> i32 {
        let r = self.bound_buffer(target).and_then(|b| match pname {
            gl::BUFFER_SIZE => Ok(b.data.len() as i32),
            gl::BUFFER_USAGE => Ok(b.usage as i32),
            _ => crate::buffer_map::mapping_parameter(b, pname)
                .map(|v| v as i32)
                .ok_or(GlError::InvalidEnum),
        });
        self.check(r).unwrap_or(0)
    }

    /// `glDeleteBuffers` (one): unbinds it everywhere first.
    pub fn delete_buffer(&mut self, buffer: Buffer) {
        let Some(object) = self.buffers.remove(buffer.name()) else {
            return;
        };
        if let Some(h) = object.driver {
            if let Err(e) = self.driver.delete_buffer(h) {
                log::warn!("driver failed to delete buffer {}: {e}", buffer.name());
            }
        }
        let b = Some(buffer);
        let bb = &mut self.buffer_bindings;
        for slot in [
            &mut bb.array,
            &mut bb.uniform,
            &mut bb.copy_read,
            &mut bb.copy_write,
            &mut bb.pixel_pack,
            &mut bb.pixel_unpack,
            &mut bb.shader_storage,
            &mut bb.atomic_counter,
            &mut bb.dispatch_indirect,
        ] {
            if *slot == b {
                *slot = None;
            }
        }
        for binding in bb
            .uniform_indexed
            .iter_mut()
            .chain(&mut bb.shader_storage_indexed)
            .chain(&mut bb.atomic_counter_indexed)
        {
            if binding.buffer == b {
                *binding = IndexedBinding::default();
            }
        }
        let vao = self.vao_mut();
        if vao.element_buffer == b {
            vao.element_buffer = None;
        }
        for attrib in vao.attribs.iter_mut().chain(vao.legacy.iter_mut()) {
            if attrib.buffer == b {
                attrib.buffer = None;
            }
        }
    }
}

impl Context {
    /// The driver buffer holding `buffer`'s current contents (created or refreshed
    /// when the state tracker's copy changed since the last draw).
    pub(crate) fn sync_buffer(
        &mut self,
        buffer: Buffer,
    ) -> GlResult<rgl_backend::driver::BufferHandle> {
        let b = self
            .buffers
            .get_mut(buffer.name())
            .ok_or(GlError::InvalidOperation)?;
        // GL 3.3 §2.9.3: a draw may not source a mapped buffer (Mesa raises
        // INVALID_OPERATION, as rgl does).
        b.not_mapped()?;
        match b.driver {
            Some(h) if b.synced => Ok(h),
            Some(h) => {
                self.driver
                    .buffer_data(h, &b.data)
                    .map_err(|_| GlError::OutOfMemory)?;
                b.synced = true;
                Ok(h)
            }
            None => {
                let h = self
                    .driver
                    .create_buffer(&b.data)
                    .map_err(|_| GlError::OutOfMemory)?;
                b.driver = Some(h);
                b.synced = true;
                Ok(h)
            }
        }
    }
}

impl Context {
    /// The source of a pixel-unpack command (GL 3.3 §3.7.2, §2.9.7): with a
    /// buffer bound to `GL_PIXEL_UNPACK_BUFFER` the command reads that buffer's
    /// store, else the client's `pixels`. rgl's API passes no buffer offsets, so
    /// with an unpack buffer bound the client data must be absent or empty (the
    /// null pointer, offset 0); other client data is `GL_INVALID_OPERATION`.
    pub(crate) fn unpack_source(&self, pixels: Option<&[u8]>) -> GlResult<Option<Vec<u8>>> {
        let Some(b) = self.buffer_bindings.pixel_unpack else {
            return Ok(pixels.map(<[u8]>::to_vec));
        };
        if pixels.is_some_and(|p| !p.is_empty()) {
            log::warn!(
                "client pixels with a pixel unpack buffer bound: rgl reads the buffer from \
                 offset 0 and takes no client pointer then"
            );
            return Err(GlError::InvalidOperation);
        }
        let obj = self
            .buffers
            .get(b.name())
            .ok_or(GlError::InvalidOperation)?;
        // GL 3.3 §3.7.2: unpacking from a mapped buffer is INVALID_OPERATION.
        obj.not_mapped()?;
        Ok(Some(obj.data.clone()))
    }

    /// Runs a pixel-pack command (GL 3.3 §4.3.1, §2.9.7): into the store of the
    /// buffer bound to `GL_PIXEL_PACK_BUFFER` from offset 0 when there is one
    /// (then `pixels` must be empty, as for [`Context::unpack_source`]), else
    /// into `pixels`. The buffer changes only when `pack` succeeds.
    pub(crate) fn pack_into(
        &mut self,
        pixels: &mut [u8],
        pack: impl FnOnce(&mut Context, &mut [u8]) -> GlResult<()>,
    ) -> GlResult<()> {
        let Some(b) = self.buffer_bindings.pixel_pack else {
            return pack(self, pixels);
        };
        if !pixels.is_empty() {
            log::warn!(
                "client memory with a pixel pack buffer bound: rgl writes the buffer from \
                 offset 0 and takes no client pointer then"
            );
            return Err(GlError::InvalidOperation);
        }
        let obj = self
            .buffers
            .get(b.name())
            .ok_or(GlError::InvalidOperation)?;
        // GL 3.3 §4.3.1: packing into a mapped buffer is INVALID_OPERATION.
        obj.not_mapped()?;
        let mut data = obj.data.clone();
        pack(self, &mut data)?;
        if let Some(obj) = self.buffers.get_mut(b.name()) {
            obj.data = data;
            obj.synced = false;
        }
        Ok(())
    }
}

enum BufferInit<'a> {
    Zeros(usize),
    Data(&'a [u8]),
}
