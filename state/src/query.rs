//! Asynchronous queries (GL 3.3 §2.14 and §6.1.6; ARB_occlusion_query2,
//! ARB_timer_query): `glGenQueries`, `glBeginQuery`, `glEndQuery`,
//! `glQueryCounter`, `glGetQueryiv`, `glGetQueryObject*v`, `glIsQuery`,
//! `glDeleteQueries`, and `glGetInteger64v(GL_TIMESTAMP)`.
//!
//! The software driver counts the fragments that pass every per-fragment test
//! (rgl has one sample per pixel, so that is `SAMPLES_PASSED`) and the
//! primitives generated after the geometry shader. A query reads those
//! counters when it begins and ends, with the driver's work finished both
//! times, so the difference covers exactly the commands in between; its
//! result is available as soon as it ends. `TIME_ELAPSED` and timestamps are
//! wall-clock nanoseconds around the same finishes, which on a CPU driver is
//! the time the commands took. rgl has no transform feedback, so a
//! `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query counts the primitives
//! written to feedback buffers: none.
//!
//! Binding points follow Mesa (`get_query_binding_point`): `SAMPLES_PASSED`
//! and `ANY_SAMPLES_PASSED` share the occlusion binding, so only one
//! occlusion query is active at a time.
//!
//! Conditional rendering (GL 3.3 §2.16, `glBeginConditionalRender`) is here
//! too: while it is on and its occlusion query counted zero samples, draws and
//! clears are validated (their errors still happen) and then discarded. The
//! four wait modes behave alike, since every result is complete when its
//! query ends.

use std::time::Instant;

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::names::Query;
use crate::Context;

/// The binding points of [`QueryState::active`].
const OCCLUSION: usize = 0;
const PRIMITIVES: usize = 1;
const XFB_WRITTEN: usize = 2;
const TIME: usize = 3;

/// A query object.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryObject {
    /// The target it was first begun (or counted) with; `None` while the name
    /// is only generated, which is not yet a query object (GL 3.3 §2.14).
    pub target: Option<u32>,
    /// The result of its last completed use.
    pub result: u64,
    /// Whether it is active now.
    pub active: bool,
}

/// A running query: its name and the counter it started from.
#[derive(Copy, Clone, Debug)]
struct Running {
    query: Query,
    start: u64,
}

/// The context's query state.
#[derive(Debug)]
pub struct QueryState {
    active: [Option<Running>; 4],
    /// The query of the conditional rendering in progress.
    conditional: Option<Query>,
    /// The epoch of `GL_TIMESTAMP`.
    epoch: Instant,
}

impl Default for QueryState {
    fn default() -> Self {
        QueryState {
            active: [None; 4],
            conditional: None,
            epoch: Instant::now(),
        }
    }
}

/// The binding point of a `glBeginQuery` target; `None` is `GL_INVALID_ENUM`.
fn binding(target: u32) -> Option<usize> {
    Some(match target {
        gl::SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED => OCCLUSION,
        gl::PRIMITIVES_GENERATED => PRIMITIVES,
        gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => XFB_WRITTEN,
        gl::TIME_ELAPSED => TIME,
        _ => return None,
    })
}

impl Context {
    /// The driver's work finished, then the value `target` counts: fragments
    /// passed, primitives generated, nanoseconds since the epoch, or zero
    /// primitives written to transform feedback.
    fn query_counter(&mut self, target: u32) -> GlResult<u64> {
        self.driver.finish().map_err(|e| {
            self.draw_error = Some(e.to_string());
            GlError::OutOfMemory
        })?;
        let c = self.driver.counters();
        Ok(match target {
            gl::SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED => c.fragments_written,
            gl::PRIMITIVES_GENERATED => c.primitives,
            gl::TIME_ELAPSED | gl::TIMESTAMP => self.timestamp_ns(),
            _ => 0,
        })
    }

    fn timestamp_ns(&self) -> u64 {
        self.queries.epoch.elapsed().as_nanos() as u64
    }

    /// `glGenQueries` (one name). The name becomes a query object at its first
    /// `begin_query` / `query_counter`.
    pub fn create_query(&mut self) -> Result<Query, CreateError> {
        match self.query_objects.insert(QueryObject::default()) {
            Some(n) => Ok(Query(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("query"))
            }
        }
    }

    /// `glIsQuery`: true only for a name that has been begun or counted.
    pub fn is_query(&self, query: Query) -> bool {
        self.query_objects
            .get(query.name())
            .is_some_and(|q| q.target.is_some())
    }

    /// `glDeleteQueries` (one). An active query ends first, as in Mesa;
    /// unknown names are ignored.
    pub fn delete_query(&mut self, query: Query) {
        for slot in &mut self.queries.active {
            if slot.is_some_and(|r| r.query == query) {
                *slot = None;
            }
        }
        self.query_objects.remove(query.name());
    }

    /// `GL_INVALID_OPERATION` unless `query` is a generated name that may
    /// start counting `target`: not active, and not a query of another target
    /// (GL 3.3 §2.14). Changes nothing.
    fn check_query_use(&self, query: Query, target: u32) -> GlResult<()> {
        match self.query_objects.get(query.name()) {
            Some(q) if !q.active && q.target.is_none_or(|t| t == target) => Ok(()),
            _ => Err(GlError::InvalidOperation),
        }
    }

    /// `query`, now a query object of `target` (after [`Self::check_query_use`]).
    fn take_query(&mut self, query: Query, target: u32) -> Option<&mut QueryObject> {
        let q = self.query_objects.get_mut(query.name())?;
        q.target = Some(target);
        Some(q)
    }

    /// The query running at binding point `slot` if it counts `target`.
    fn running(&self, slot: usize, target: u32) -> Option<Running> {
        self.queries.active[slot].filter(|r| {
            self.query_objects
                .get(r.query.name())
                .is_some_and(|q| q.target == Some(target))
        })
    }

    /// `glBeginQuery`.
    pub fn begin_query(&mut self, target: u32, query: Query) {
        let r = (|| {
            let slot = binding(target).ok_or(GlError::InvalidEnum)?;
            if self.queries.active[slot].is_some() {
                return Err(GlError::InvalidOperation);
            }
            self.check_query_use(query, target)?;
            let start = self.query_counter(target)?;
            if let Some(q) = self.take_query(query, target) {
                q.active = true;
            }
            self.queries.active[slot] = Some(Running { query, start });
            Ok(())
        })();
        self.check(r);
    }

    /// `glEndQuery`: the result is available at once.
    pub fn end_query(&mut self, target: u32) {
        let r = (|| {
            let slot = binding(target).ok_or(GlError::InvalidEnum)?;
            let running = self
                .running(slot, target)
                .ok_or(GlError::InvalidOperation)?;
            let end = self.query_counter(target)?;
            let delta = end.saturating_sub(running.start);
            self.queries.active[slot] = None;
            if let Some(q) = self.query_objects.get_mut(running.query.name()) {
                q.active = false;
                q.result = match target {
                    gl::ANY_SAMPLES_PASSED => u64::from(delta > 0),
                    _ => delta,
                };
            }
            Ok(())
        })();
        self.check(r);
    }

    /// `glQueryCounter(query, GL_TIMESTAMP)`: the time the commands before it
    /// completed.
    pub fn query_counter_timestamp(&mut self, query: Query, target: u32) {
        let r = (|| {
            if target != gl::TIMESTAMP {
                return Err(GlError::InvalidEnum);
            }
            self.check_query_use(query, target)?;
            let now = self.query_counter(target)?;
            if let Some(q) = self.take_query(query, target) {
                q.result = now;
            }
            Ok(())
        })();
        self.check(r);
    }

    /// `glGetQueryiv(target, pname)`: `GL_CURRENT_QUERY` (the active query's
    /// name, or 0) or `GL_QUERY_COUNTER_BITS` (64: rgl's counters do not
    /// wrap). `GL_TIMESTAMP` has only a counter size (Mesa).
    pub fn get_query_parameter_i32(&mut self, target: u32, pname: u32) -> i32 {
        let r = (|| {
            let slot = match target {
                gl::TIMESTAMP => None,
                t => Some(binding(t).ok_or(GlError::InvalidEnum)?),
            };
            Ok(match (pname, slot) {
                (gl::QUERY_COUNTER_BITS, _) => 64,
                (gl::CURRENT_QUERY, Some(slot)) => self
                    .running(slot, target)
                    .map_or(0, |r| r.query.name() as i32),
                _ => return Err(GlError::InvalidEnum),
            })
        })();
        self.check(r).unwrap_or(0)
    }

    /// `glGetQueryObjectui64v(query, pname)`: `GL_QUERY_RESULT` or
    /// `GL_QUERY_RESULT_AVAILABLE` (always true: results are complete when a
    /// query ends). A name that is not a query object, or an active query, is
    /// `GL_INVALID_OPERATION`.
    pub fn get_query_object_u64(&mut self, query: Query, pname: u32) -> u64 {
        let r = (|| {
            let q = self
                .query_objects
                .get(query.name())
                .filter(|q| q.target.is_some() && !q.active)
                .ok_or(GlError::InvalidOperation)?;
            match pname {
                gl::QUERY_RESULT => Ok(q.result),
                gl::QUERY_RESULT_AVAILABLE => Ok(1),
                _ => Err(GlError::InvalidEnum),
            }
        })();
        self.check(r).unwrap_or(0)
    }

    /// `glGetQueryObjectuiv`: the 64-bit result saturated to 32 bits.
    pub fn get_query_object_u32(&mut self, query: Query, pname: u32) -> u32 {
        self.get_query_object_u64(query, pname)
            .min(u64::from(u32::MAX)) as u32
    }

    /// `glBeginConditionalRender(id, mode)`: `id` must be a finished
    /// `SAMPLES_PASSED` or `ANY_SAMPLES_PASSED` query (GL 3.3 §2.16).
    pub fn begin_conditional_render(&mut self, query: Query, mode: u32) {
        let r = (|| {
            if !matches!(
                mode,
                gl::QUERY_WAIT
                    | gl::QUERY_NO_WAIT
                    | gl::QUERY_BY_REGION_WAIT
                    | gl::QUERY_BY_REGION_NO_WAIT
            ) {
                return Err(GlError::InvalidEnum);
            }
            if self.queries.conditional.is_some() {
                return Err(GlError::InvalidOperation);
            }
            let q = self
                .query_objects
                .get(query.name())
                .filter(|q| q.target.is_some())
                .ok_or(GlError::InvalidValue)?;
            if q.active || !matches!(q.target, Some(gl::SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED)) {
                return Err(GlError::InvalidOperation);
            }
            self.queries.conditional = Some(query);
            Ok(())
        })();
        self.check(r);
    }

    /// `glEndConditionalRender`.
    pub fn end_conditional_render(&mut self) {
        if self.queries.conditional.take().is_none() {
            self.record(GlError::InvalidOperation);
        }
    }

    /// Whether conditional rendering discards rendering now: it is on and its
    /// query counted no samples. A query deleted meanwhile discards nothing.
    pub(crate) fn render_discarded(&self) -> bool {
        self.queries
            .conditional
            .and_then(|q| self.query_objects.get(q.name()))
            .is_some_and(|q| q.result == 0)
    }

    /// `glGetInteger64v` for the 64-bit values (`GL_TIMESTAMP`: the time the
    /// commands issued so far completed, in nanoseconds;
    /// `GL_MAX_SERVER_WAIT_TIMEOUT`); every other name as `glGetIntegerv`.
    pub fn get_parameter_i64(&mut self, pname: u32) -> i64 {
        match pname {
            gl::TIMESTAMP => {
                let r = self.query_counter(gl::TIMESTAMP);
                self.check(r).unwrap_or(0) as i64
            }
            _ => i64::from(self.get_parameter_i32(pname)),
        }
    }
}
