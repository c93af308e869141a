//! [`Deep`]: the value of a type cut out of a deeply nested one, behind a pointer rustc's drop
//! check does not look through.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A `T` on the heap, as a `Box<T>` is, but typed `dyn Any` inside.
///
/// A schema can nest arrays (maps, nullable values) deeper than rustc follows a type: its drop
/// check walks every level of `Vec<Vec<…>>`, through named types too, and stops at the crate's
/// recursion limit (128) with E0320. schemac cuts such a type into named types of at most
/// `MAX_INLINE_DEPTH` levels each, and each of those holds its value in a `Deep`, where the
/// walk ends: a trait object has no drop glue for the check to follow, and `T` appears only
/// in `fn() -> T`. Every trait a generated type has is the inner value's.
pub struct Deep<T> {
    value: Box<dyn Any + Send + Sync>,
    of: PhantomData<fn() -> T>,
}

impl<T: Any + Send + Sync> Deep<T> {
    pub fn new(value: T) -> Deep<T> {
        Deep { value: Box::new(value), of: PhantomData }
    }

    pub fn get(&self) -> &T {
        // `new` is the only constructor, so the box always holds a `T`.
        self.value.downcast_ref().expect("a Deep<T> holds a T")
    }

    pub fn get_mut(&mut self) -> &mut T {
        self.value.downcast_mut().expect("a Deep<T> holds a T")
    }

    pub fn into_inner(self) -> T {
        *self.value.downcast().expect("a Deep<T> holds a T")
    }
}

impl<T: Any + Send + Sync> From<T> for Deep<T> {
    fn from(value: T) -> Deep<T> {
        Deep::new(value)
    }
}

impl<T: Any + Send + Sync> Deref for Deep<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.get()
    }
}

impl<T: Any + Send + Sync> DerefMut for Deep<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.get_mut()
    }
}

impl<T: Any + Send + Sync + Clone> Clone for Deep<T> {
    fn clone(&self) -> Deep<T> {
        Deep::new(self.get().clone())
    }
}

impl<T: Any + Send + Sync + fmt::Debug> fmt::Debug for Deep<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl<T: Any + Send + Sync + Default> Default for Deep<T> {
    fn default() -> Deep<T> {
        Deep::new(T::default())
    }
}

impl<T: Any + Send + Sync + PartialEq> PartialEq for Deep<T> {
    fn eq(&self, other: &Deep<T>) -> bool {
        self.get() == other.get()
    }
}

impl<T: Any + Send + Sync + Eq> Eq for Deep<T> {}

impl<T: Any + Send + Sync + PartialOrd> PartialOrd for Deep<T> {
    fn partial_cmp(&self, other: &Deep<T>) -> Option<std::cmp::Ordering> {
        self.get().partial_cmp(other.get())
    }
}

impl<T: Any + Send + Sync + Ord> Ord for Deep<T> {
    fn cmp(&self, other: &Deep<T>) -> std::cmp::Ordering {
        self.get().cmp(other.get())
    }
}

impl<T: Any + Send + Sync + Hash> Hash for Deep<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.get().hash(state);
    }
}

impl<T: Any + Send + Sync + serde::Serialize> serde::Serialize for Deep<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

impl<'de, T: Any + Send + Sync + serde::Deserialize<'de>> serde::Deserialize<'de> for Deep<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Deep<T>, D::Error> {
        T::deserialize(deserializer).map(Deep::new)
    }
}

impl<T: Any + Send + Sync + crate::Validate> crate::Validate for Deep<T> {
    fn validate_at(&self, at: &crate::validate::Path<'_>, errors: &mut crate::ValidationErrors) {
        self.get().validate_at(at, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::Deep;

    #[test]
    fn holds_and_gives_back_its_value() {
        let mut deep = Deep::new(vec![vec!["a".to_owned()]]);
        assert_eq!(deep.get(), &vec![vec!["a".to_owned()]]);
        deep.get_mut().push(Vec::new());
        assert_eq!(deep.len(), 2);
        assert_eq!(deep.clone(), deep);
        assert_eq!(format!("{deep:?}"), r#"[["a"], []]"#);
        assert_eq!(serde_json::to_string(&deep).unwrap(), r#"[["a"],[]]"#);
        let read: Deep<Vec<Vec<String>>> = serde_json::from_str(r#"[["a"],[]]"#).unwrap();
        assert_eq!(read.into_inner(), deep.into_inner());
    }
}
