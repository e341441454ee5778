//! Background compilation in the manner of `GL_KHR_parallel_shader_compile`:
//! the worker pool that runs `glCompileShader` and `glLinkProgram` off the
//! calling thread, and the [`Pending`] handles through which the context waits
//! for (or polls) a job's result.
//!
//! A context owns one [`CompileQueue`]. Its size comes from
//! `RGL_COMPILE_THREADS` or the number of available cores and can be changed with
//! [`Context::max_shader_compiler_threads`](crate::Context::max_shader_compiler_threads)
//! (`glMaxShaderCompilerThreadsKHR`); with 0 threads every job runs on the calling
//! thread before the command returns. Jobs run in submission order (one FIFO
//! queue), so a link job that waits for the compile jobs of its shaders never
//! waits for a job queued behind it: those were submitted first, and some worker
//! has already taken them.
//!
//! A job that panics does not take the context down: the panic is caught on the
//! worker and the job's `on_panic` result (a failed compile or link with an info
//! log naming the internal error) is stored instead.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Environment variable giving the worker count of new contexts (0: compile and
/// link synchronously).
pub const THREADS_VAR: &str = "RGL_COMPILE_THREADS";

/// Where a job leaves its result.
struct Slot<T> {
    value: Mutex<Option<T>>,
    ready: Condvar,
}

/// The result of a compile or link job, available once the job has run. Cloning
/// the handle shares the result (a link job holds the handles of its shaders'
/// compiles).
pub(crate) struct Pending<T> {
    slot: Arc<Slot<T>>,
}

impl<T> Clone for Pending<T> {
    fn clone(&self) -> Self {
        Pending {
            slot: Arc::clone(&self.slot),
        }
    }
}

impl<T> std::fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("done", &self.is_done())
            .finish()
    }
}

impl<T> Pending<T> {
    fn new() -> Self {
        Pending {
            slot: Arc::new(Slot {
                value: Mutex::new(None),
                ready: Condvar::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<T>> {
        // The lock is only held to store or read the value, never across a job,
        // so poisoning cannot leave a half-written value behind.
        self.slot
            .value
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn fill(&self, value: T) {
        *self.lock() = Some(value);
        self.slot.ready.notify_all();
    }

    /// `GL_COMPLETION_STATUS_KHR`: whether the job has finished, without waiting.
    pub(crate) fn is_done(&self) -> bool {
        self.lock().is_some()
    }

    /// Waits for the job and gives access to its result (`Some` until a caller
    /// takes it).
    pub(crate) fn wait(&self) -> MutexGuard<'_, Option<T>> {
        let mut guard = self.lock();
        while guard.is_none() {
            guard = self
                .slot
                .ready
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        guard
    }

    /// Waits for the job and returns a copy of its result.
    pub(crate) fn wait_cloned(&self) -> T
    where
        T: Clone,
    {
        self.wait().clone().expect(
            "Pending::wait returns only once a value is stored, and shared results are never taken",
        )
    }
}

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The worker pool of one context.
pub(crate) struct CompileQueue {
    /// Worker count; 0 runs jobs on the calling thread.
    threads: u32,
    /// The queue of the running workers, started at the first job.
    sender: Option<Sender<Job>>,
}

impl std::fmt::Debug for CompileQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompileQueue")
            .field("threads", &self.threads)
            .field("started", &self.sender.is_some())
            .finish()
    }
}

/// The worker count when neither `RGL_COMPILE_THREADS` nor the application
/// chose one: every available core.
fn default_threads() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

impl CompileQueue {
    /// A pool sized by `RGL_COMPILE_THREADS` (a number; 0 is synchronous) or else
    /// by the available cores. A value that is not a number is ignored with a
    /// warning.
    pub(crate) fn from_env() -> CompileQueue {
        let threads = match std::env::var(THREADS_VAR) {
            Ok(v) => v.trim().parse().unwrap_or_else(|_| {
                log::warn!("{THREADS_VAR}={v:?} is not a thread count; using the core count");
                default_threads()
            }),
            Err(_) => default_threads(),
        };
        CompileQueue {
            threads,
            sender: None,
        }
    }

    /// The worker count (`GL_MAX_SHADER_COMPILER_THREADS_KHR`).
    pub(crate) fn threads(&self) -> u32 {
        self.threads
    }

    /// `glMaxShaderCompilerThreadsKHR`: `count` workers for the jobs submitted
    /// from now on; 0 compiles and links synchronously, `u32::MAX`
    /// (`0xFFFFFFFF`) restores the implementation's choice. Jobs already queued
    /// still run on the workers they were queued for, which exit when their
    /// queue is empty.
    pub(crate) fn set_threads(&mut self, count: u32) {
        let count = if count == u32::MAX {
            default_threads()
        } else {
            count
        };
        if count != self.threads {
            self.threads = count;
            self.sender = None;
        }
    }

    fn start(&mut self) -> &Sender<Job> {
        self.sender.get_or_insert_with(|| {
            let (sender, receiver) = channel::<Job>();
            let receiver = Arc::new(Mutex::new(receiver));
            for i in 0..self.threads {
                let receiver = Arc::clone(&receiver);
                let spawned = std::thread::Builder::new()
                    .name(format!("rgl-compile-{i}"))
                    .spawn(move || worker(&receiver));
                if let Err(e) = spawned {
                    log::warn!("cannot start shader compiler thread {i}: {e}");
                }
            }
            sender
        })
    }

    /// Runs `job`, on a worker or (with 0 threads) right away on this thread,
    /// and returns the handle of its result. A panic in `job` stores
    /// `on_panic(message)` instead.
    pub(crate) fn run<T, F, P>(&mut self, job: F, on_panic: P) -> Pending<T>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
        P: FnOnce(String) -> T + Send + 'static,
    {
        let pending = Pending::new();
        let out = pending.clone();
        let task: Job = Box::new(move || {
            let value = catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|payload| {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                log::error!("shader compiler job panicked: {message}");
                on_panic(message)
            });
            out.fill(value);
        });
        if self.threads == 0 {
            task();
            return pending;
        }
        if let Err(returned) = self.start().send(task) {
            // Every worker failed to start (or died): run it here instead.
            self.sender = None;
            (returned.0)();
        }
        pending
    }
}

/// A worker: runs jobs until the context drops its queue or changes the pool.
fn worker(receiver: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(PoisonError::into_inner);
            receiver.recv()
        };
        match job {
            // Jobs catch their own panics, so a worker outlives every job.
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panicking job stores its `on_panic` result, in both modes, and the
    /// worker that ran it goes on to run the next job.
    #[test]
    fn panicking_job_becomes_a_failed_result() {
        for threads in [0, 1] {
            let mut queue = CompileQueue {
                threads,
                sender: None,
            };
            let failed = queue.run(
                || -> String { panic!("boom in the front end") },
                |message| format!("internal error: {message}"),
            );
            let next = queue.run(|| "next job ran".to_string(), |m| m);
            assert_eq!(
                failed.wait_cloned(),
                "internal error: boom in the front end"
            );
            assert_eq!(next.wait_cloned(), "next job ran");
            assert!(failed.is_done() && next.is_done());
        }
    }

    /// Changing the pool keeps the jobs already queued: they still finish.
    #[test]
    fn resizing_keeps_queued_jobs() {
        let mut queue = CompileQueue {
            threads: 1,
            sender: None,
        };
        let jobs: Vec<_> = (0..8u32)
            .map(|i| queue.run(move || i * 2, |_| u32::MAX))
            .collect();
        queue.set_threads(0);
        let inline = queue.run(|| 99, |_| u32::MAX);
        assert!(inline.is_done());
        let results: Vec<u32> = jobs.iter().map(Pending::wait_cloned).collect();
        assert_eq!(results, (0..8).map(|i| i * 2).collect::<Vec<_>>());
    }
}
