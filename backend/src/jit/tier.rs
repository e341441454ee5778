//! Tiered compilation: the background worker that rebuilds first-tier code
//! optimised.
//!
//! With [`crate::jit::JitOptions::tier`] on, a shader's invocation function and
//! each fused pipeline variant are first compiled without Cranelift's optimizer
//! and with its `single_pass` register allocator (tier 0: a compile several
//! times faster, used by the draw that needed it), and a job rebuilding the same
//! function with the configured options (tier 1) is queued here. The job holds
//! only weak references to what it upgrades: when the shader or pipeline cache
//! is gone by the time the job runs, the job is skipped; when it goes while the
//! job compiles, the result is dropped (unmapped). Swapping the result in is
//! the owner's business (`JitShader` publishes it through a `OnceLock` read at
//! each batch, the pipeline cache at its next lookup); both keep the tier-0 code
//! mapped for as long as a draw may run it. This is the split Mesa's drivers
//! make for shader variants compiled on a thread (`util_queue` in radeonsi's
//! `si_shader_select`), here applied to the optimization level only.
//!
//! One [`TierQueue`] per [`crate::jit::JitCompiler`]: one worker thread,
//! started at the first job, jobs in submission order, except that urgent
//! jobs ([`TierQueue::submit_urgent`]: fused pipeline variants, which a draw
//! in flight switches to as soon as they are ready) run before the others
//! (shaders' invocation functions, queued at link time, which the fused
//! path does not run for fragments). Dropping the queue (the
//! compiler and every shader it built) stops taking jobs, discards those not
//! started, and joins the worker. A job that panics is caught and counted as
//! failed; the tier-0 code stays.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

/// A rebuild: returns whether it produced code (`false`: skipped, its target
/// is gone).
pub(crate) type Job = Box<dyn FnOnce() -> crate::Result<bool> + Send>;

/// Counters of one queue (cumulative).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TierStats {
    /// Rebuilds queued.
    pub queued: u64,
    /// Rebuilds that produced optimised code (handed to their owner).
    pub done: u64,
    /// Rebuilds skipped or discarded because their owner was gone (or the
    /// queue shut down first).
    pub skipped: u64,
    /// Rebuilds that failed (an error or a caught panic); the tier-0 code stays.
    pub failed: u64,
    /// Nanoseconds the worker spent running jobs.
    pub busy_ns: u64,
}

struct State {
    /// Urgent jobs, run first, in submission order.
    urgent: VecDeque<Job>,
    jobs: VecDeque<Job>,
    /// A job is running.
    running: bool,
    /// No more jobs are taken.
    closed: bool,
    stats: TierStats,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a job is queued or the queue closes (the worker waits).
    work: Condvar,
    /// Signalled when the worker finishes a job (waiters for idle wait).
    idle: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The background rebuild queue of one compiler.
pub struct TierQueue {
    shared: Arc<Shared>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for TierQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TierQueue")
            .field("stats", &self.stats())
            .finish()
    }
}

impl Default for TierQueue {
    fn default() -> Self {
        TierQueue {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    urgent: VecDeque::new(),
                    jobs: VecDeque::new(),
                    running: false,
                    closed: false,
                    stats: TierStats::default(),
                }),
                work: Condvar::new(),
                idle: Condvar::new(),
            }),
            worker: Mutex::new(None),
        }
    }
}

impl TierQueue {
    /// Queues `job`, starting the worker thread at the first one. When the
    /// thread cannot be started the job runs here, now (the code is then
    /// optimised at once, as without tiers).
    pub(crate) fn submit(&self, job: Job) {
        self.push(job, false);
    }

    /// Queues `job` ahead of every job [`TierQueue::submit`] queued (after
    /// the urgent ones already queued), as `submit` does otherwise.
    pub(crate) fn submit_urgent(&self, job: Job) {
        self.push(job, true);
    }

    fn push(&self, job: Job, urgent: bool) {
        {
            let mut st = self.shared.lock();
            st.stats.queued += 1;
            if urgent {
                st.urgent.push_back(job);
            } else {
                st.jobs.push_back(job);
            }
        }
        self.shared.work.notify_one();
        let mut worker = self.worker.lock().unwrap_or_else(PoisonError::into_inner);
        if worker.is_none() {
            let shared = Arc::clone(&self.shared);
            match std::thread::Builder::new()
                .name("rgl-jit-tier".into())
                .spawn(move || work(&shared))
            {
                Ok(h) => *worker = Some(h),
                Err(e) => {
                    log::warn!("jit: no tier-up thread ({e}); optimising on the caller");
                    drop(worker);
                    let job = {
                        let mut st = self.shared.lock();
                        if urgent {
                            st.urgent.pop_back()
                        } else {
                            st.jobs.pop_back()
                        }
                    };
                    if let Some(job) = job {
                        run(&self.shared, job);
                    }
                }
            }
        }
    }

    /// Blocks until every queued rebuild has run (tests and benchmarks use it
    /// to make the swap deterministic).
    pub fn wait_idle(&self) {
        let mut st = self.shared.lock();
        while !st.jobs.is_empty() || !st.urgent.is_empty() || st.running {
            st = self
                .shared
                .idle
                .wait(st)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> TierStats {
        self.shared.lock().stats
    }
}

impl Drop for TierQueue {
    fn drop(&mut self) {
        {
            let mut st = self.shared.lock();
            st.closed = true;
            let discarded = (st.jobs.len() + st.urgent.len()) as u64;
            st.stats.skipped += discarded;
            st.jobs.clear();
            st.urgent.clear();
        }
        self.shared.work.notify_all();
        let handle = self
            .worker
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(h) = handle {
            // The last owner of the queue is never the worker itself: jobs hold
            // no reference to a queue (only weak ones to their targets).
            if h.thread().id() != std::thread::current().id() && h.join().is_err() {
                log::warn!("jit: the tier-up thread panicked");
            }
        }
    }
}

/// The worker's loop: take a job, run it, until the queue closes.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut st = shared.lock();
            loop {
                if st.closed {
                    return;
                }
                if let Some(job) = st.urgent.pop_front().or_else(|| st.jobs.pop_front()) {
                    st.running = true;
                    break job;
                }
                st = shared.work.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
        };
        run(shared, job);
    }
}

/// Runs `job` and records its outcome.
fn run(shared: &Shared, job: Job) {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(job));
    let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
    let mut st = shared.lock();
    st.running = false;
    st.stats.busy_ns += ns;
    match outcome {
        Ok(Ok(true)) => st.stats.done += 1,
        Ok(Ok(false)) => st.stats.skipped += 1,
        Ok(Err(e)) => {
            st.stats.failed += 1;
            log::warn!("jit: optimised rebuild failed, the tier-0 code stays: {e}");
        }
        Err(_) => {
            st.stats.failed += 1;
            log::warn!("jit: optimised rebuild panicked, the tier-0 code stays");
        }
    }
    drop(st);
    shared.idle.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Urgent jobs run before the ordinary ones queued earlier, each kind in
    /// submission order; `wait_idle` waits for both kinds.
    #[test]
    fn urgent_jobs_run_first_in_order() {
        // (job name, urgent) after a first job that holds the worker until
        // everything is queued.
        let cases: &[&[(&str, bool)]] = &[
            &[("a", false), ("b", false), ("u1", true), ("u2", true)],
            &[("u1", true), ("a", false), ("u2", true), ("b", false)],
            &[("a", false), ("b", false)],
        ];
        for case in cases {
            let q = TierQueue::default();
            let order = Arc::new(Mutex::new(Vec::new()));
            let (release, gate) = mpsc::channel::<()>();
            let (started, running) = mpsc::channel::<()>();
            q.submit(Box::new(move || {
                let _ = started.send(());
                let _ = gate.recv();
                Ok(true)
            }));
            running.recv().expect("the worker started the first job");
            for &(name, urgent) in *case {
                let order = Arc::clone(&order);
                let job: Job = Box::new(move || {
                    order.lock().unwrap().push(name);
                    Ok(true)
                });
                if urgent {
                    q.submit_urgent(job);
                } else {
                    q.submit(job);
                }
            }
            release.send(()).expect("the first job waits");
            q.wait_idle();
            let mut want: Vec<&str> = case.iter().filter(|c| c.1).map(|c| c.0).collect();
            want.extend(case.iter().filter(|c| !c.1).map(|c| c.0));
            assert_eq!(*order.lock().unwrap(), want, "{case:?}");
            let stats = q.stats();
            assert_eq!(
                (stats.queued, stats.done),
                (case.len() as u64 + 1, case.len() as u64 + 1)
            );
        }
    }
}
