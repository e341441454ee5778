//! What the invocations of one evaluated workgroup share: storage-buffer and shared
//! memory ([`Memory`]) and the scheduler ([`Group`]) that runs them one at a time.
//!
//! Every invocation runs on its own thread, but only the one holding the turn
//! executes, so a run is deterministic: the lowest-numbered runnable invocation runs
//! until it finishes or reaches a *rendezvous* — a workgroup `barrier` (every
//! invocation of the workgroup) or a subgroup operation (the invocations of its
//! subgroup). A rendezvous completes when every live member waits at it (finished
//! invocations do not count, so an early `return` never deadlocks); the members then
//! see each other's deposited values and run on, lowest first. This is how
//! llvmpipe splits compute shaders at barriers (its coroutines), and it makes
//! shared-memory communication between invocations well defined.
//!
//! When no invocation can run (members of one group wait at different subgroup
//! operations — divergent control flow), the lowest waiting invocation's rendezvous
//! completes with the members that reached it; the others count as inactive there.

use std::sync::{Condvar, Mutex, MutexGuard};

/// A value deposited at a rendezvous: components and their undefined mask.
pub(crate) type Deposit = (Vec<u64>, u16);

/// Key of every workgroup barrier (any barrier matches any other, as on hardware).
pub(crate) const BARRIER_KEY: u64 = u64::MAX;

/// Storage shared by the invocations.
#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    /// Storage buffers by block index.
    pub(crate) ssbos: Vec<Vec<u8>>,
    /// Workgroup shared memory.
    pub(crate) shared: Vec<u8>,
    /// Images by image index.
    pub(crate) images: Vec<super::EvalImage>,
}

impl Memory {
    fn buffer(&mut self, block: Option<u32>) -> Option<&mut Vec<u8>> {
        match block {
            Some(b) => self.ssbos.get_mut(b as usize),
            None => Some(&mut self.shared),
        }
    }

    /// Reads `size` bytes (little-endian) at `byte` of a block (`None`: shared
    /// memory); `None` when out of bounds.
    pub(crate) fn read(&mut self, block: Option<u32>, byte: i64, size: usize) -> Option<u64> {
        let buf = self.buffer(block)?;
        let start = usize::try_from(byte).ok()?;
        let bytes = buf.get(start..start.checked_add(size)?)?;
        Some(
            bytes
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, b)| v | (u64::from(*b) << (8 * i))),
        )
    }

    /// Writes `size` bytes of `value`; false (nothing written) when out of bounds.
    pub(crate) fn write(&mut self, block: Option<u32>, byte: i64, size: usize, value: u64) -> bool {
        let Some(buf) = self.buffer(block) else {
            return false;
        };
        let Ok(start) = usize::try_from(byte) else {
            return false;
        };
        let Some(bytes) = start
            .checked_add(size)
            .and_then(|end| buf.get_mut(start..end))
        else {
            return false;
        };
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (value >> (8 * i)) as u8;
        }
        true
    }

    /// Size in bytes of storage buffer `block` (0 when unbound).
    pub(crate) fn ssbo_size(&self, block: u32) -> usize {
        self.ssbos.get(block as usize).map_or(0, Vec::len)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    Runnable,
    Waiting,
    Done,
}

struct Wait {
    lo: usize,
    hi: usize,
    key: u64,
    value: Deposit,
}

struct Sched {
    state: Vec<State>,
    waits: Vec<Option<Wait>>,
    results: Vec<Option<Vec<Option<Deposit>>>>,
    current: Option<usize>,
}

/// One workgroup's shared memory and scheduler.
pub(crate) struct Group {
    /// The storage (locked by the running invocation for each access).
    pub(crate) memory: Mutex<Memory>,
    sched: Mutex<Sched>,
    /// One per invocation: only the invocation given the turn is woken (a
    /// single shared condition variable woke every thread of the group at
    /// every turn).
    turns: Vec<Condvar>,
    /// Invocations per subgroup.
    pub(crate) subgroup_size: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere cannot leave the scheduler half-updated in a way that
    // matters more than the panic itself; keep going with the data.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Group {
    /// A group of `invocations` (≥ 1) over `memory`.
    pub(crate) fn new(invocations: usize, subgroup_size: usize, memory: Memory) -> Group {
        let n = invocations.max(1);
        Group {
            memory: Mutex::new(memory),
            sched: Mutex::new(Sched {
                state: vec![State::Runnable; n],
                waits: (0..n).map(|_| None).collect(),
                results: vec![None; n],
                current: Some(0),
            }),
            turns: (0..n).map(|_| Condvar::new()).collect(),
            subgroup_size: subgroup_size.max(1),
        }
    }

    /// Number of invocations.
    pub(crate) fn len(&self) -> usize {
        lock(&self.sched).state.len()
    }

    /// The first and one-past-last invocation of `i`'s subgroup.
    pub(crate) fn subgroup_of(&self, i: usize) -> (usize, usize) {
        let lo = i / self.subgroup_size * self.subgroup_size;
        (lo, (lo + self.subgroup_size).min(self.len()))
    }

    fn wait_turn<'a>(&'a self, mut s: MutexGuard<'a, Sched>, i: usize) -> MutexGuard<'a, Sched> {
        let Some(turn) = self.turns.get(i) else {
            return s;
        };
        while s.current != Some(i) {
            s = turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s
    }

    /// Wakes the invocation holding the turn.
    fn wake(&self, s: &Sched) {
        if let Some(turn) = s.current.and_then(|c| self.turns.get(c)) {
            turn.notify_one();
        }
    }

    /// Blocks until invocation `i` may start.
    pub(crate) fn start(&self, i: usize) {
        let s = lock(&self.sched);
        drop(self.wait_turn(s, i));
    }

    /// Invocation `i` has ended (normally or not).
    pub(crate) fn finish(&self, i: usize) {
        let mut s = lock(&self.sched);
        if let Some(st) = s.state.get_mut(i) {
            *st = State::Done;
        }
        s.waits[i] = None;
        Self::release_complete(&mut s);
        Self::schedule(&mut s);
        self.wake(&s);
    }

    /// Invocation `i` waits at the rendezvous `key` of invocations `lo..hi`,
    /// depositing `value`; returns every member's deposit (`None` for members that
    /// did not take part), indexed from `lo`.
    pub(crate) fn rendezvous(
        &self,
        i: usize,
        lo: usize,
        hi: usize,
        key: u64,
        value: Deposit,
    ) -> Vec<Option<Deposit>> {
        let mut s = lock(&self.sched);
        s.state[i] = State::Waiting;
        s.waits[i] = Some(Wait { lo, hi, key, value });
        Self::release_complete(&mut s);
        Self::schedule(&mut s);
        self.wake(&s);
        let mut s = self.wait_turn(s, i);
        s.results[i].take().unwrap_or_default()
    }

    /// Completes every rendezvous whose live members all wait at it.
    fn release_complete(s: &mut Sched) {
        let n = s.state.len();
        for i in 0..n {
            let Some(w) = &s.waits[i] else { continue };
            let (lo, hi, key) = (w.lo, w.hi, w.key);
            let complete = (lo..hi.min(n)).all(|j| match s.state[j] {
                State::Done => true,
                State::Waiting => s.waits[j]
                    .as_ref()
                    .is_some_and(|o| o.key == key && o.lo == lo && o.hi == hi),
                State::Runnable => false,
            });
            if complete {
                Self::release(s, lo, hi, key);
            }
        }
    }

    /// Releases the members of `lo..hi` waiting at `key` with everyone's deposits.
    fn release(s: &mut Sched, lo: usize, hi: usize, key: u64) {
        let n = s.state.len();
        let members: Vec<usize> = (lo..hi.min(n))
            .filter(|j| {
                s.waits[*j]
                    .as_ref()
                    .is_some_and(|o| o.key == key && o.lo == lo && o.hi == hi)
            })
            .collect();
        let deposits: Vec<Option<Deposit>> = (lo..hi.min(n))
            .map(|j| {
                if members.contains(&j) {
                    s.waits[j].as_ref().map(|w| w.value.clone())
                } else {
                    None
                }
            })
            .collect();
        for j in members {
            s.waits[j] = None;
            s.state[j] = State::Runnable;
            s.results[j] = Some(deposits.clone());
        }
    }

    /// Gives the turn to the lowest runnable invocation, forcing the lowest waiting
    /// rendezvous to complete when nothing can run.
    fn schedule(s: &mut Sched) {
        loop {
            if let Some(i) = s.state.iter().position(|st| *st == State::Runnable) {
                s.current = Some(i);
                return;
            }
            let Some(w) = s.waits.iter().flatten().next() else {
                s.current = None;
                return;
            };
            let (lo, hi, key) = (w.lo, w.hi, w.key);
            Self::release(s, lo, hi, key);
        }
    }
}
