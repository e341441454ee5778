//! Shader storage buffer access from draw stages (GL 4.3 §7.8 "Shader Buffer
//! Variables and Shader Storage Blocks", GL 4.2 §7.7 atomic counters, which
//! rgl addresses as storage blocks): the words a draw's shaders read, write and
//! update atomically, shared by every raster thread of the draw.
//!
//! The driver copies each bound range into a [`StorageCopy`] of [`AtomicU32`]
//! words before the draw and writes the bytes the draw changed back into the
//! buffer after it (so bindings that alias one buffer keep each other's
//! writes, as in compute). Every access goes through an atomic operation on
//! those words: plain loads and stores are `Relaxed` (GL gives unsynchronised
//! shader memory accesses no ordering, GL 4.5 §7.12), the atomic functions are
//! read-modify-write operations (`SeqCst`), so concurrent invocations on
//! different threads never race in Rust's sense and every atomic of a draw is
//! atomic across threads.
//!
//! Robustness: a 32-bit access at byte `o` is in range when `o` is a multiple
//! of 4 and `o + 4` is at most the bound size; an out-of-range load gives 0, an
//! out-of-range store or atomic is dropped (an atomic returns 0), as
//! robust buffer access asks (GL 4.5 §6.4). GLSL's std140 and std430 layouts
//! put every 32-bit member on a 4-byte boundary, so a misaligned offset only
//! comes from a hostile or broken shader and is treated as out of range.

use std::sync::atomic::{AtomicU32, Ordering};

use rgl_nir::intrinsics::AtomicOp;

/// One bound storage range copied for a draw: its words and byte size.
#[derive(Debug, Default)]
pub struct StorageCopy {
    words: Vec<AtomicU32>,
    len: u64,
    original: Vec<u8>,
}

impl StorageCopy {
    /// A copy of `bytes` (the bound range).
    pub fn new(bytes: &[u8]) -> StorageCopy {
        let words = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                AtomicU32::new(u32::from_le_bytes(w))
            })
            .collect();
        StorageCopy {
            words,
            len: bytes.len() as u64,
            original: bytes.to_vec(),
        }
    }

    /// The view shaders access.
    pub fn view(&self) -> StorageView<'_> {
        StorageView {
            words: &self.words,
            len: self.len,
        }
    }

    /// The bytes now held, with the indices that differ from the copied ones:
    /// `(byte index, new value)` pairs.
    pub fn changes(&self) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for (i, w) in self.words.iter().enumerate() {
            let bytes = w.load(Ordering::Relaxed).to_le_bytes();
            for (k, b) in bytes.iter().enumerate() {
                let at = i * 4 + k;
                if let Some(old) = self.original.get(at) {
                    if old != b {
                        out.push((at, *b));
                    }
                }
            }
        }
        out
    }
}

/// The words of one storage binding as shaders see them (unbound: empty).
#[derive(Clone, Copy, Debug, Default)]
pub struct StorageView<'a> {
    words: &'a [AtomicU32],
    len: u64,
}

impl<'a> StorageView<'a> {
    /// A view of `words` whose bound size is `len` bytes (clamped to the words).
    pub fn new(words: &'a [AtomicU32], len: u64) -> StorageView<'a> {
        StorageView {
            words,
            len: len.min(words.len() as u64 * 4),
        }
    }

    /// `get_ssbo_size`: the bound size in bytes.
    #[inline]
    pub fn size(&self) -> u64 {
        self.len
    }

    /// The word at byte offset `byte`, if the whole word is in range.
    #[inline]
    fn word(&self, byte: i64) -> Option<&'a AtomicU32> {
        let b = u64::try_from(byte).ok()?;
        if b % 4 != 0 || b.checked_add(4)? > self.len {
            return None;
        }
        self.words.get(usize::try_from(b / 4).ok()?)
    }

    /// `load_ssbo` of one 32-bit component: 0 out of range.
    #[inline]
    pub fn load(&self, byte: i64) -> u32 {
        self.word(byte).map_or(0, |w| w.load(Ordering::Relaxed))
    }

    /// `store_ssbo` of one 32-bit component: dropped out of range.
    #[inline]
    pub fn store(&self, byte: i64, value: u32) {
        if let Some(w) = self.word(byte) {
            w.store(value, Ordering::Relaxed);
        }
    }

    /// The `N` bytes from byte offset `byte` (image texels, see
    /// [`crate::image`]); `None` unless all are in range.
    pub fn load_bytes<const N: usize>(&self, byte: u64) -> Option<[u8; N]> {
        if byte.checked_add(N as u64)? > self.len {
            return None;
        }
        let mut out = [0u8; N];
        for (i, o) in out.iter_mut().enumerate() {
            let b = byte + i as u64;
            let w = self.words.get(usize::try_from(b / 4).ok()?)?;
            *o = w.load(Ordering::Relaxed).to_le_bytes()[(b % 4) as usize];
        }
        Some(out)
    }

    /// Writes `bytes` from byte offset `byte` when all are in range (dropped
    /// otherwise). A word written in part is updated with a compare-and-swap
    /// loop, so a texel store never loses a neighbour's bytes that another
    /// thread writes at the same time.
    pub fn store_bytes(&self, byte: u64, bytes: &[u8]) {
        let Some(end) = byte.checked_add(bytes.len() as u64) else {
            return;
        };
        if end > self.len {
            return;
        }
        let mut b = byte;
        while b < end {
            let word = b / 4;
            let Some(w) = usize::try_from(word).ok().and_then(|i| self.words.get(i)) else {
                return;
            };
            let first = (b % 4) as usize;
            let last = ((end - word * 4).min(4)) as usize;
            let src = &bytes[(b - byte) as usize..];
            if first == 0 && last == 4 {
                let v = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
                w.store(v, Ordering::Relaxed);
            } else {
                let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |m| {
                    let mut le = m.to_le_bytes();
                    le[first..last].copy_from_slice(&src[..last - first]);
                    Some(u32::from_le_bytes(le))
                });
            }
            b = word * 4 + last as u64;
        }
    }

    /// `ssbo_atomic` (`swap` is `None`) or `ssbo_atomic_swap` (`data` is the
    /// comparand, `swap` the new value) on the word at `byte`: the old value,
    /// or 0 with nothing changed when out of range. `Cmpxchg` without a swap
    /// value, or another op with one, changes nothing and returns the old
    /// value (the lane compiler never builds those).
    pub fn atomic(&self, op: AtomicOp, byte: i64, data: u32, swap: Option<u32>) -> u32 {
        let Some(w) = self.word(byte) else {
            return 0;
        };
        let o = Ordering::SeqCst;
        match (op, swap) {
            (AtomicOp::Cmpxchg, Some(new)) => match w.compare_exchange(data, new, o, o) {
                Ok(v) | Err(v) => v,
            },
            (AtomicOp::Iadd, None) => w.fetch_add(data, o),
            (AtomicOp::Umin, None) => w.fetch_min(data, o),
            (AtomicOp::Umax, None) => w.fetch_max(data, o),
            (AtomicOp::Iand, None) => w.fetch_and(data, o),
            (AtomicOp::Ior, None) => w.fetch_or(data, o),
            (AtomicOp::Ixor, None) => w.fetch_xor(data, o),
            (AtomicOp::Xchg, None) => w.swap(data, o),
            _ => match w.fetch_update(o, o, |m| Some(atomic_result(op, m, data, swap))) {
                Ok(v) | Err(v) => v,
            },
        }
    }
}

/// The word an atomic leaves in memory: `op(old, data)`, or for a
/// compare-and-swap with its `swap` value, `swap` when `old` equals `data`
/// ([`AtomicOp::apply_32`], [`AtomicOp::swap_32`]). A mismatched form (a
/// compare-and-swap without a swap value, another op with one) leaves `old`,
/// as [`StorageView::atomic`] does. Shared memory atomics use it directly: a
/// workgroup runs on one thread, one lane after another.
pub(crate) fn atomic_result(op: AtomicOp, old: u32, data: u32, swap: Option<u32>) -> u32 {
    match swap {
        Some(new) => op.swap_32(old, data, new),
        None => op.apply_32(old, data),
    }
    .unwrap_or(old)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_accesses_are_dropped_or_zero() {
        let copy = StorageCopy::new(&[1, 0, 0, 0, 2, 0, 0, 0, 9, 9]);
        let v = copy.view();
        assert_eq!(v.size(), 10);
        assert_eq!(v.load(4), 2);
        // The last two bytes are no whole word; negative and misaligned
        // offsets and offsets past the end are out of range.
        assert_eq!(v.load(8), 0);
        assert_eq!(v.load(-4), 0);
        assert_eq!(v.load(2), 0);
        v.store(8, 0xdead_beef);
        v.store(1 << 40, 1);
        assert_eq!(v.atomic(AtomicOp::Iadd, 8, 5, None), 0);
        assert_eq!(v.atomic(AtomicOp::Iadd, 0, 5, None), 1);
        assert_eq!(copy.changes(), vec![(0, 6)]);
    }

    #[test]
    fn atomics_match_the_reference_semantics() {
        let copy = StorageCopy::new(&[0; 4]);
        let v = copy.view();
        let cases: &[(AtomicOp, u32, Option<u32>, u32)] = &[
            (AtomicOp::Xchg, (-5i32) as u32, None, (-5i32) as u32),
            (AtomicOp::Imin, 3, None, (-5i32) as u32),
            (AtomicOp::Umin, 3, None, 3),
            (AtomicOp::Imax, (-7i32) as u32, None, 3),
            (AtomicOp::Umax, 10, None, 10),
            (AtomicOp::Iand, 6, None, 2),
            (AtomicOp::Ior, 5, None, 7),
            (AtomicOp::Ixor, 1, None, 6),
            (AtomicOp::Cmpxchg, 5, Some(9), 6),
            (AtomicOp::Cmpxchg, 6, Some(9), 9),
            (AtomicOp::Xchg, 1.5f32.to_bits(), None, 1.5f32.to_bits()),
            (AtomicOp::Fadd, 2.25f32.to_bits(), None, 3.75f32.to_bits()),
            (AtomicOp::Fmin, 2.0f32.to_bits(), None, 2.0f32.to_bits()),
            (AtomicOp::Fmax, (-1.0f32).to_bits(), None, 2.0f32.to_bits()),
            // A quiet NaN orders above every number, a signaling NaN below.
            (AtomicOp::Fmin, 0x7fc0_0001, None, 2.0f32.to_bits()),
            (AtomicOp::Fmax, 0xffc0_0002, None, 0xffc0_0002),
            (AtomicOp::Fmin, 0x7f80_0003, None, 0x7f80_0003),
            (
                AtomicOp::Xchg,
                (-0.0f32).to_bits(),
                None,
                (-0.0f32).to_bits(),
            ),
            (AtomicOp::Fmax, 0.0f32.to_bits(), None, 0.0f32.to_bits()),
            (
                AtomicOp::Fmin,
                (-0.0f32).to_bits(),
                None,
                (-0.0f32).to_bits(),
            ),
            // fcmpxchg compares values: -0 equals +0; a NaN equals nothing.
            (
                AtomicOp::Fcmpxchg,
                0.0f32.to_bits(),
                Some(5.0f32.to_bits()),
                5.0f32.to_bits(),
            ),
            (
                AtomicOp::Fcmpxchg,
                6.0f32.to_bits(),
                Some(7.0f32.to_bits()),
                5.0f32.to_bits(),
            ),
            (AtomicOp::Xchg, 0x7fc0_0000, None, 0x7fc0_0000),
            (AtomicOp::Fcmpxchg, 0x7fc0_0000, Some(1), 0x7fc0_0000),
            (AtomicOp::Cmpxchg, 0x7fc0_0000, Some(1), 1),
        ];
        for &(op, data, swap, after) in cases {
            let before = v.load(0);
            assert_eq!(
                v.atomic(op, 0, data, swap),
                before,
                "{op:?} returns the old value"
            );
            assert_eq!(v.load(0), after, "{op:?}");
        }
    }

    #[test]
    fn atomics_are_atomic_across_threads() {
        let copy = StorageCopy::new(&[0; 8]);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let v = copy.view();
                    for _ in 0..10_000 {
                        v.atomic(AtomicOp::Iadd, 4, 1, None);
                    }
                });
            }
        });
        assert_eq!(copy.view().load(4), 40_000);
    }
}
