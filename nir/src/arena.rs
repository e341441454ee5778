//! Arenas with typed `u32` handles and dense secondary maps (Cranelift `entity` style).
//!
//! [`entity!`] declares a handle newtype with a print prefix; [`Arena`] owns the data;
//! [`SecondaryMap`] stores per-entity side data (layout links, metadata) keyed by handle.

use std::marker::PhantomData;

/// A typed index into an [`Arena`].
pub trait EntityRef: Copy + Eq + std::hash::Hash + Ord + std::fmt::Debug {
    /// Creates the handle for arena slot `index`.
    fn new(index: usize) -> Self;
    /// The arena slot of this handle.
    fn index(self) -> usize;
}

/// Declares a handle newtype `$name(u32)` printing as `$prefix<index>`.
#[macro_export]
macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:expr) => {
        $(#[$attr])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);
        impl $crate::arena::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).expect("arena overflow: more than u32::MAX entities"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl $name {
            /// Print prefix of this handle kind.
            pub const PREFIX: &'static str = $prefix;
        }
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

/// Owner of entities of type `V`, addressed by handles `K`. Entities are never removed
/// (removal is a layout concern), so handles stay stable for the arena's lifetime.
#[derive(Clone, Debug)]
pub struct Arena<K, V> {
    data: Vec<V>,
    marker: PhantomData<K>,
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Arena {
            data: Vec::new(),
            marker: PhantomData,
        }
    }
}

impl<K: EntityRef, V> Arena<K, V> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends `value` and returns its handle.
    pub fn push(&mut self, value: V) -> K {
        let key = K::new(self.data.len());
        self.data.push(value);
        key
    }
    /// Number of entities ever created.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// True when nothing was ever created.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// True when `key` addresses an existing slot.
    pub fn contains(&self, key: K) -> bool {
        key.index() < self.data.len()
    }
    /// Checked access.
    pub fn get(&self, key: K) -> Option<&V> {
        self.data.get(key.index())
    }
    /// Checked mutable access.
    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        self.data.get_mut(key.index())
    }
    /// All handles in creation order.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        (0..self.data.len()).map(K::new)
    }
    /// All (handle, value) pairs in creation order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> + '_ {
        self.data.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// Every value in creation order, mutably.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.data.iter_mut()
    }
    /// All (handle, value) pairs in creation order, by value (moves out of the arena).
    pub fn into_iter_keyed(self) -> impl Iterator<Item = (K, V)> {
        self.data
            .into_iter()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.data[key.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.data[key.index()]
    }
}

/// Dense side table keyed by handles; reading an unset key yields the default value.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V: Clone> {
    data: Vec<V>,
    default: V,
    marker: PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        SecondaryMap {
            data: Vec::new(),
            default: V::default(),
            marker: PhantomData,
        }
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Removes every entry.
    pub fn clear(&mut self) {
        self.data.clear();
    }
    /// Returns the value for `key` (the default when unset).
    pub fn get(&self, key: K) -> &V {
        self.data.get(key.index()).unwrap_or(&self.default)
    }
}

impl<K: EntityRef, V: Clone + Default> std::ops::Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        self.get(key)
    }
}

impl<K: EntityRef, V: Clone + Default> std::ops::IndexMut<K> for SecondaryMap<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        let i = key.index();
        if i >= self.data.len() {
            // `default` is always `V::default()`; building fresh values is cheaper
            // than cloning for types with inline storage.
            self.data.resize_with(i + 1, V::default);
        }
        &mut self.data[i]
    }
}
