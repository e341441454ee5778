//! Typed arenas: every IR entity lives in an [`Arena`] owned by its module and is
//! referred to by a copyable [`Handle`], a non-max `u32` newtype so that
//! `Option<Handle<T>>` is four bytes. Side tables keyed by handle use [`HandleVec`].

use std::fmt;
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// A reference to a `T` stored in an [`Arena<T>`].
pub struct Handle<T> {
    /// Index + 1, so that the niche makes `Option<Handle>` free.
    raw: NonZeroU32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// Builds a handle from a zero-based index.
    ///
    /// Panics only if the index does not fit in `u32 - 1`, which arenas rule out
    /// by refusing to grow that large.
    pub fn from_index(index: usize) -> Self {
        let raw = u32::try_from(index + 1).ok().and_then(NonZeroU32::new);
        Handle {
            raw: raw.expect("arena index overflow"),
            marker: PhantomData,
        }
    }
    /// The zero-based index of this handle.
    pub fn index(self) -> usize {
        (self.raw.get() - 1) as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.raw.cmp(&other.raw)
    }
}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<T>();
        let short = name.rsplit("::").next().unwrap_or(name);
        write!(f, "{}{}", short.to_ascii_lowercase(), self.index())
    }
}

/// A growable store of `T`s addressed by [`Handle<T>`].
#[derive(Clone, Debug, PartialEq)]
pub struct Arena<T> {
    data: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { data: Vec::new() }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a value and returns its handle.
    pub fn append(&mut self, value: T) -> Handle<T> {
        let handle = Handle::from_index(self.data.len());
        self.data.push(value);
        handle
    }
    /// Makes room for `additional` more values without reallocating (a size hint;
    /// handles and contents are unaffected).
    pub fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
    }
    /// Number of stored values.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Checked access.
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        self.data.get(handle.index())
    }
    /// Iterates over handles and values in insertion order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Handle<T>, &T)> + ExactSizeIterator {
        self.data
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }
    /// Iterates mutably over handles and values in insertion order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Handle<T>, &mut T)> {
        self.data
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.data[handle.index()]
    }
}
impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.data[handle.index()]
    }
}

/// Dense side table keyed by handle (spans, analysis results).
#[derive(Clone, Debug, PartialEq)]
pub struct HandleVec<K, V> {
    data: Vec<V>,
    marker: PhantomData<fn(K)>,
}

impl<K, V> Default for HandleVec<K, V> {
    fn default() -> Self {
        HandleVec {
            data: Vec::new(),
            marker: PhantomData,
        }
    }
}

impl<K, V: Clone + Default> HandleVec<K, V> {
    /// Makes room for `additional` more entries without reallocating (a size hint).
    pub fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
    }
    /// Sets the value for `handle`, growing the table with defaults as needed.
    pub fn insert(&mut self, handle: Handle<K>, value: V) {
        if self.data.len() <= handle.index() {
            self.data.resize(handle.index() + 1, V::default());
        }
        self.data[handle.index()] = value;
    }
    /// The value for `handle`, or the default when never set.
    pub fn get(&self, handle: Handle<K>) -> V {
        self.data.get(handle.index()).cloned().unwrap_or_default()
    }
}
