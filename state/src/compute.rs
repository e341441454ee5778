//! Compute dispatch (GL 4.3 §19, "Compute Shaders") and memory barriers
//! (GL 4.3 §7.12.2): `glDispatchCompute`, `glDispatchComputeIndirect`,
//! `glMemoryBarrier` and `glMemoryBarrierByRegion`, with their GL errors.
//!
//! A dispatch runs the current program's compute stage on the driver with the
//! program's uniforms, uniform blocks and sampler units (bound as for a draw,
//! `Context::validate_textures`), every indexed shader storage binding
//! and every atomic counter buffer binding (in the binding space of
//! `rgl_nir::options::storage_bindings`). The driver finishes the dispatch
//! before the call returns and the storage buffers' contents are read back into
//! the buffer objects, so every later command sees the writes: the barriers
//! have nothing left to order and only check their arguments.

use std::collections::HashMap;

use rgl_backend::driver::{BufferRange, ComputeDispatch, ComputeShaderHandle};
use rgl_glsl::Stage;
use rgl_nir::options::storage_bindings::ATOMIC_COUNTER_BLOCK_BASE;

use crate::buffer::IndexedBinding;
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::{Buffer, Program};
use crate::Context;

/// The driver's compute shader of each program, by program name, with the
/// link generation it was created from.
#[derive(Debug, Default)]
pub(crate) struct ComputeShaders {
    by_program: HashMap<u32, (u64, ComputeShaderHandle)>,
}

/// The `glMemoryBarrier` bits of GL 4.3 §7.12.2 and the two GL 4.4 adds.
const BARRIER_BITS: u32 = gl::VERTEX_ATTRIB_ARRAY_BARRIER_BIT
    | gl::ELEMENT_ARRAY_BARRIER_BIT
    | gl::UNIFORM_BARRIER_BIT
    | gl::TEXTURE_FETCH_BARRIER_BIT
    | gl::SHADER_IMAGE_ACCESS_BARRIER_BIT
    | gl::COMMAND_BARRIER_BIT
    | gl::PIXEL_BUFFER_BARRIER_BIT
    | gl::TEXTURE_UPDATE_BARRIER_BIT
    | gl::BUFFER_UPDATE_BARRIER_BIT
    | gl::FRAMEBUFFER_BARRIER_BIT
    | gl::TRANSFORM_FEEDBACK_BARRIER_BIT
    | gl::ATOMIC_COUNTER_BARRIER_BIT
    | gl::SHADER_STORAGE_BARRIER_BIT
    | gl::CLIENT_MAPPED_BUFFER_BARRIER_BIT
    | gl::QUERY_BUFFER_BARRIER_BIT;

/// The bits `glMemoryBarrierByRegion` accepts (GL 4.5 §7.12.2).
const BY_REGION_BITS: u32 = gl::ATOMIC_COUNTER_BARRIER_BIT
    | gl::FRAMEBUFFER_BARRIER_BIT
    | gl::SHADER_IMAGE_ACCESS_BARRIER_BIT
    | gl::SHADER_STORAGE_BARRIER_BIT
    | gl::TEXTURE_FETCH_BARRIER_BIT
    | gl::UNIFORM_BARRIER_BIT;

/// Bytes of a `DispatchIndirectCommand` (three uints, GL 4.3 §19).
const INDIRECT_COMMAND_SIZE: usize = 12;

impl Context {
    /// `glShaderStorageBlockBinding` (GL 4.3 §7.8): binds active storage block
    /// `index` of `program` to shader storage binding `binding`. A binding at
    /// or past `GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS`, or an index that is no
    /// active block (an unlinked program has none), is `GL_INVALID_VALUE`.
    pub fn shader_storage_block_binding(&mut self, program: Program, index: u32, binding: u32) {
        let limit = limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS;
        self.set_block_binding(program, index, binding, limit, |p, i| {
            p.storage_block_bindings.get_mut(i).map(|s| &mut s.1)
        });
    }

    /// `glDispatchCompute` (GL 4.3 §19): `GL_INVALID_OPERATION` without a
    /// current program with a compute stage, `GL_INVALID_VALUE` for a count
    /// above `GL_MAX_COMPUTE_WORK_GROUP_COUNT`. A zero count dispatches nothing.
    pub fn dispatch_compute(&mut self, x: u32, y: u32, z: u32) {
        let r = self.dispatch_checked(|_| Ok([x, y, z]));
        self.check(r);
    }

    /// `glDispatchComputeIndirect` (GL 4.3 §19): the counts are the three uints
    /// at byte `offset` of the buffer bound to `GL_DISPATCH_INDIRECT_BUFFER`.
    /// A negative offset or one that is not a multiple of 4 is
    /// `GL_INVALID_VALUE`; no buffer bound, a mapped buffer or a command past
    /// the buffer's end is `GL_INVALID_OPERATION`. Counts read from the buffer
    /// above the limit give undefined results in GL; rgl dispatches nothing and
    /// says why in [`Context::last_draw_error`].
    pub fn dispatch_compute_indirect(&mut self, offset: i64) {
        let r = self.dispatch_checked(|c| {
            let start = usize::try_from(offset).map_err(|_| GlError::InvalidValue)?;
            if !start.is_multiple_of(4) {
                return Err(GlError::InvalidValue);
            }
            let b = c.bound_buffer(gl::DISPATCH_INDIRECT_BUFFER)?;
            b.not_mapped()?;
            let words = start
                .checked_add(INDIRECT_COMMAND_SIZE)
                .and_then(|end| b.data.get(start..end))
                .ok_or(GlError::InvalidOperation)?;
            let word =
                |i: usize| u32::from_le_bytes([words[i], words[i + 1], words[i + 2], words[i + 3]]);
            Ok([word(0), word(4), word(8)])
        });
        self.check(r);
    }

    /// `glMemoryBarrier` (GL 4.3 §7.12.2): `GL_INVALID_VALUE` for a bit GL
    /// does not define (unless the value is `GL_ALL_BARRIER_BITS`). Dispatches
    /// and draws are complete when their call returns here, so there is
    /// nothing to wait for.
    pub fn memory_barrier(&mut self, barriers: u32) {
        if barriers != gl::ALL_BARRIER_BITS && barriers & !BARRIER_BITS != 0 {
            self.record(GlError::InvalidValue);
        }
    }

    /// `glMemoryBarrierByRegion` (GL 4.5 §7.12.2): only the bits that order
    /// fragment-local accesses, else `GL_INVALID_VALUE`.
    pub fn memory_barrier_by_region(&mut self, barriers: u32) {
        if barriers != gl::ALL_BARRIER_BITS && barriers & !BY_REGION_BITS != 0 {
            self.record(GlError::InvalidValue);
        }
    }

    /// Validates the current program, reads the counts, then dispatches.
    fn dispatch_checked(
        &mut self,
        counts: impl FnOnce(&mut Context) -> GlResult<[u32; 3]>,
    ) -> GlResult<()> {
        self.draw_error = None;
        self.finish_current_program();
        let Some(program) = self.current_program else {
            self.draw_error = Some("no program is current".into());
            return Err(GlError::InvalidOperation);
        };
        let p = self.program_obj(program)?;
        let has_compute = p
            .linked
            .as_deref()
            .is_some_and(|l| l.stage(Stage::Compute).is_some());
        if !has_compute {
            self.draw_error = Some("the current program has no compute shader".into());
            return Err(GlError::InvalidOperation);
        }
        let groups = counts(self)?;
        let over = groups
            .iter()
            .zip(limits::MAX_COMPUTE_WORK_GROUP_COUNT)
            .any(|(n, max)| *n > max);
        if over {
            self.draw_error = Some(format!(
                "workgroup counts {groups:?} exceed GL_MAX_COMPUTE_WORK_GROUP_COUNT {:?}",
                limits::MAX_COMPUTE_WORK_GROUP_COUNT
            ));
            return Err(GlError::InvalidValue);
        }
        if groups.contains(&0) {
            return Ok(());
        }
        self.dispatch(program, groups)
    }

    /// Runs one dispatch of `program` and reads the storage buffers back.
    fn dispatch(&mut self, program: Program, groups: [u32; 3]) -> GlResult<()> {
        let shader = self.compute_shader(program)?;
        self.upload_uniforms(program)?;
        self.bind_uniform_blocks(program)?;
        // Samplers read their units' textures as in draws (GL 4.3 §19: a
        // compute shader has the texture access of the other stages).
        let samplers = self.sampler_uses(program)?;
        self.validate_textures(&samplers)?;
        let (storage, used) = self.storage_bindings(program)?;
        let images = self.image_bindings(program)?;
        let dispatch = ComputeDispatch {
            groups,
            storage,
            images,
        };
        let result = self.driver.dispatch_compute(shader, &dispatch);
        // Writes made before a failure stay, as on hardware that lost the
        // context partway: read back whatever the driver holds.
        for buffer in used {
            self.read_back(buffer)?;
        }
        if let Err(e) = result {
            log::warn!("compute dispatch failed: {e}");
            self.draw_error = Some(e.to_string());
            return Err(match e {
                rgl_backend::Error::TooLarge(_) => GlError::OutOfMemory,
                _ => GlError::InvalidOperation,
            });
        }
        Ok(())
    }

    /// The storage ranges `program` reads by block, in the compiler's binding
    /// space (`rgl_nir::options::storage_bindings`), and the buffers behind
    /// them (to read back after the driver wrote them). Shared by dispatches
    /// and draws.
    pub(crate) fn storage_bindings(
        &mut self,
        program: Program,
    ) -> GlResult<(Vec<Option<BufferRange>>, Vec<Buffer>)> {
        // Block sources: each storage block's linked binding reads the
        // indexed binding `glShaderStorageBlockBinding` chose; atomic counter
        // buffer binding k is block ATOMIC_COUNTER_BLOCK_BASE + k.
        let mut sources: Vec<(usize, u32, u32)> = Vec::new();
        for (linked, api) in self.program_obj(program)?.storage_block_bindings.clone() {
            if let Some(other) = sources.iter().find(|(b, _, _)| *b == linked as usize) {
                if other.2 != api {
                    self.draw_error = Some(format!(
                        "storage blocks linked at binding {linked} were rebound to bindings {} \
                         and {api}: rgl reads one buffer per linked binding",
                        other.2
                    ));
                    return Err(GlError::InvalidOperation);
                }
                continue;
            }
            sources.push((linked as usize, gl::SHADER_STORAGE_BUFFER, api));
        }
        for k in 0..limits::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS {
            let block = (ATOMIC_COUNTER_BLOCK_BASE + k) as usize;
            sources.push((block, gl::ATOMIC_COUNTER_BUFFER, k));
        }
        let mut storage = Vec::new();
        let mut used = Vec::new();
        for (block, target, index) in sources {
            let b = self
                .buffer_bindings
                .indexed(target)
                .and_then(|slots| slots.get(index as usize))
                .copied()
                .unwrap_or_default();
            let Some(buffer) = b.buffer else { continue };
            let range = self.storage_range(buffer, &b)?;
            if storage.len() <= block {
                storage.resize(block + 1, None);
            }
            storage[block] = Some(range);
            if !used.contains(&buffer) {
                used.push(buffer);
            }
        }
        Ok((storage, used))
    }

    /// The driver range of an indexed binding (`glBindBufferBase` binds the
    /// whole buffer; a range is clamped to the buffer's current size).
    fn storage_range(&mut self, buffer: Buffer, b: &IndexedBinding) -> GlResult<BufferRange> {
        let handle = self.sync_buffer(buffer)?;
        let len = self.buffers.get(buffer.name()).map_or(0, |o| o.data.len());
        let offset = b.offset.min(len);
        let size = b.size.unwrap_or(len - offset).min(len - offset);
        Ok(BufferRange {
            buffer: handle,
            offset: offset as u64,
            size: size as u64,
        })
    }

    /// Copies a buffer's driver contents back into its object after a dispatch.
    pub(crate) fn read_back(&mut self, buffer: Buffer) -> GlResult<()> {
        let Some(obj) = self.buffers.get(buffer.name()) else {
            return Ok(());
        };
        let Some(handle) = obj.driver else {
            return Ok(());
        };
        let len = obj.data.len() as u64;
        let data = self.driver.read_buffer(handle, 0, len).map_err(|e| {
            self.draw_error = Some(e.to_string());
            GlError::OutOfMemory
        })?;
        if let Some(obj) = self.buffers.get_mut(buffer.name()) {
            obj.data = data;
            obj.synced = true;
        }
        Ok(())
    }

    /// The driver's compute shader of `program`'s current link, created on
    /// first use.
    fn compute_shader(&mut self, program: Program) -> GlResult<ComputeShaderHandle> {
        let p = self.program_obj(program)?;
        let generation = p.generation;
        if let Some((g, h)) = self.compute_shaders.by_program.get(&program.name()) {
            if *g == generation {
                return Ok(*h);
            }
        }
        let nir = p
            .linked
            .as_deref()
            .and_then(|l| l.stage(Stage::Compute))
            .and_then(|s| s.nir.clone());
        let Some(nir) = nir else {
            self.draw_error = Some("the compute stage has no NIR (not translated)".into());
            return Err(GlError::InvalidOperation);
        };
        let created = self.driver.create_compute_shader(&nir);
        let handle = match created {
            Ok(h) => h,
            Err(e) => {
                log::warn!("driver cannot compile the compute shader: {e}");
                self.draw_error = Some(e.to_string());
                return Err(GlError::InvalidOperation);
            }
        };
        self.compute_invalidate(program);
        self.compute_shaders
            .by_program
            .insert(program.name(), (generation, handle));
        Ok(handle)
    }

    /// Deletes the driver compute shader of `program` (relink or deletion).
    pub(crate) fn compute_invalidate(&mut self, program: Program) {
        if let Some((_, h)) = self.compute_shaders.by_program.remove(&program.name()) {
            if let Err(e) = self.driver.delete_compute_shader(h) {
                log::warn!("driver failed to delete a compute shader: {e}");
            }
        }
    }
}
