//! Object names: the typed handles the API hands out (like `glow`'s `Native*`
//! newtypes) and the table that maps names to objects.

use std::collections::HashMap;
use std::num::NonZeroU32;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub NonZeroU32);
        impl $name {
            /// The GL name.
            pub fn name(self) -> u32 {
                self.0.get()
            }
        }
    };
}

handle!(
    /// A shader object.
    Shader
);
handle!(
    /// A program object.
    Program
);
handle!(
    /// A buffer object.
    Buffer
);
handle!(
    /// A vertex array object.
    VertexArray
);
handle!(
    /// A texture object.
    Texture
);
handle!(
    /// A sampler object.
    Sampler
);
handle!(
    /// A framebuffer object.
    Framebuffer
);
handle!(
    /// A renderbuffer object.
    Renderbuffer
);
handle!(
    /// A fence sync object (`GLsync`).
    Fence
);
handle!(
    /// A query object.
    Query
);

/// A uniform location of a program (`glGetUniformLocation`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UniformLocation(pub u32);

/// Objects of one kind by name. Names start at 1 and are not reused while the
/// table lives, so a stale handle never aliases a newer object.
#[derive(Clone, Debug)]
pub struct NameTable<T> {
    objects: HashMap<u32, T>,
    next: u32,
}

impl<T> Default for NameTable<T> {
    fn default() -> Self {
        NameTable {
            objects: HashMap::new(),
            next: 1,
        }
    }
}

impl<T> NameTable<T> {
    /// Stores `object` under a fresh name; None when names are exhausted.
    pub fn insert(&mut self, object: T) -> Option<NonZeroU32> {
        let name = NonZeroU32::new(self.next)?;
        self.next = self.next.checked_add(1)?;
        self.objects.insert(name.get(), object);
        Some(name)
    }
    /// The object named `name`.
    pub fn get(&self, name: u32) -> Option<&T> {
        self.objects.get(&name)
    }
    /// The object named `name`, mutably.
    pub fn get_mut(&mut self, name: u32) -> Option<&mut T> {
        self.objects.get_mut(&name)
    }
    /// Removes and returns the object.
    pub fn remove(&mut self, name: u32) -> Option<T> {
        self.objects.remove(&name)
    }
    /// True when `name` names a live object.
    pub fn contains(&self, name: u32) -> bool {
        self.objects.contains_key(&name)
    }
    /// Every live object.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.objects.iter().map(|(k, v)| (*k, v))
    }
    /// Every live object, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u32, &mut T)> {
        self.objects.iter_mut().map(|(k, v)| (*k, v))
    }
}
