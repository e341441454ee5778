//! Runs one function over many test files on a few threads, each test on its
//! own freshly spawned thread named after the test, with results in input
//! order whatever the timing.
//!
//! Why a thread per test: a stack overflow cannot be caught and ends the
//! process, but Rust's overflow message names the thread, so it names the
//! test; and each test starts on a fresh, large stack. Why a watchdog: a test
//! that runs longer than the timeout means the code under test hangs; the run
//! then stops with a message naming the test instead of hanging CI.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Stack of each test thread. Input nesting must give an error, not a crash;
/// a large (virtual, lazily committed) stack keeps a recursion bug from
/// aborting the run before the test is reported.
const TEST_STACK: usize = 256 << 20;

/// Exit status used when the watchdog stops the run.
pub const TIMEOUT_EXIT: i32 = 3;

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads.
    pub jobs: usize,
    /// A single test running longer than this stops the whole run.
    pub timeout: Option<Duration>,
}

/// Runs `f` on every item. `label` names an item in thread names and in the
/// watchdog message. An item whose thread died (a panic `f` did not catch)
/// yields `Err` with the reason.
pub fn run<T, R>(
    items: &[T],
    options: Options,
    label: impl Fn(&T) -> String + Sync,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Result<R, String>>
where
    T: Sync,
    R: Send,
{
    let jobs = options.jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    let running: Mutex<Vec<Option<(Instant, usize)>>> = Mutex::new(vec![None; jobs]);
    let mut indexed: Vec<(usize, Result<R, String>)> = Vec::with_capacity(items.len());

    let run_item = |item: &T| -> Result<R, String> {
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name(format!("test {}", label(item)))
                .stack_size(TEST_STACK)
                .spawn_scoped(scope, || f(item));
            match spawned {
                Ok(handle) => handle
                    .join()
                    .map_err(|_| "the test thread panicked outside the compile".to_string()),
                // Could not start a thread: run it here instead.
                Err(_) => Ok(f(item)),
            }
        })
    };

    std::thread::scope(|scope| {
        if let Some(timeout) = options.timeout {
            let (done, running, label) = (&done, &running, &label);
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    let slots = running.lock().map(|s| s.clone()).unwrap_or_default();
                    for (started, index) in slots.into_iter().flatten() {
                        if started.elapsed() > timeout {
                            eprintln!(
                                "error: {} has run for more than {} s: the code under test seems to hang on it; stopping the run",
                                label(&items[index]),
                                timeout.as_secs()
                            );
                            std::process::exit(TIMEOUT_EXIT);
                        }
                    }
                }
            });
        }
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                let (next, running, run_item) = (&next, &running, &run_item);
                scope.spawn(move || {
                    let mut local = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else { break };
                        if let Ok(mut slots) = running.lock() {
                            slots[worker] = Some((Instant::now(), index));
                        }
                        local.push((index, run_item(item)));
                        if let Ok(mut slots) = running.lock() {
                            slots[worker] = None;
                        }
                    }
                    local
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(local) => indexed.extend(local),
                Err(_) => eprintln!("error: a worker thread died"),
            }
        }
        done.store(true, Ordering::Relaxed);
    });
    indexed.sort_by_key(|(index, _)| *index);
    indexed.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_input_order() {
        let items: Vec<u64> = (0..50).collect();
        let options = Options {
            jobs: 3,
            timeout: Some(Duration::from_secs(60)),
        };
        let out = run(
            &items,
            options,
            |i| i.to_string(),
            |i| {
                std::thread::sleep(Duration::from_micros((50 - i) * 10));
                i * 2
            },
        );
        let expected: Vec<Result<u64, String>> = items.iter().map(|i| Ok(i * 2)).collect();
        assert_eq!(out, expected);
    }
}
