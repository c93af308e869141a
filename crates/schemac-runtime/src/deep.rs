//! [`Deep`]: the value of a type cut out of a deeply nested one, behind a pointer rustc's drop
//! check and monomorphization do not look through.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A `T` on the heap, as a `Box<T>` is, but typed as a trait object inside.
///
/// A schema can nest arrays (maps, nullable values) deeper than rustc follows a type: its drop
/// check walks every level of `Vec<Vec<…>>`, through named types too, and stops at the crate's
/// recursion limit (128) with E0320; and writing such a value instantiates `Serialize` (and
/// `Debug`) once per level and a few times over, in whichever crate writes it (`serde_json`'s
/// `to_value` passes 128 at 64 levels). schemac cuts such a type into named types of at most
/// `MAX_INLINE_DEPTH` levels each, and each of those holds its value in a `Deep`, where both
/// walks end: a trait object has no drop glue for the check to follow, `T` appears only in
/// `fn() -> T`, and the value is written and shown through its vtable (`erased_serde`), made
/// where the value is built, so writing a cut level instantiates nothing below it. Every trait
/// a generated type has is the inner value's.
pub struct Deep<T> {
    value: Box<dyn Held>,
    of: PhantomData<fn() -> T>,
}

/// What a [`Deep`] keeps of its value's type: the value itself, how to write it and show it.
trait Held: Any + Send + Sync + erased_serde::Serialize {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> Held for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> Deep<T> {
    pub fn new(value: T) -> Deep<T> {
        Deep { value: Box::new(value), of: PhantomData }
    }

    pub fn get(&self) -> &T {
        // `new` is the only constructor, so the box always holds a `T`.
        self.value.as_any().downcast_ref().expect("a Deep<T> holds a T")
    }

    pub fn get_mut(&mut self) -> &mut T {
        self.value.as_any_mut().downcast_mut().expect("a Deep<T> holds a T")
    }

    pub fn into_inner(self) -> T {
        *self.value.into_any().downcast().expect("a Deep<T> holds a T")
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> From<T> for Deep<T> {
    fn from(value: T) -> Deep<T> {
        Deep::new(value)
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> Deref for Deep<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.get()
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> DerefMut for Deep<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.get_mut()
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + Clone> Clone for Deep<T> {
    fn clone(&self) -> Deep<T> {
        Deep::new(self.get().clone())
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> fmt::Debug for Deep<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Through the vtable: see the type's docs.
        self.value.debug(f)
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + Default> Default for Deep<T> {
    fn default() -> Deep<T> {
        Deep::new(T::default())
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + PartialEq> PartialEq for Deep<T> {
    fn eq(&self, other: &Deep<T>) -> bool {
        self.get() == other.get()
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + Eq> Eq for Deep<T> {}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + PartialOrd> PartialOrd for Deep<T> {
    fn partial_cmp(&self, other: &Deep<T>) -> Option<std::cmp::Ordering> {
        self.get().partial_cmp(other.get())
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + Ord> Ord for Deep<T> {
    fn cmp(&self, other: &Deep<T>) -> std::cmp::Ordering {
        self.get().cmp(other.get())
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + Hash> Hash for Deep<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.get().hash(state);
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug> serde::Serialize for Deep<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Through the vtable: see the type's docs.
        erased_serde::serialize(&*self.value, serializer)
    }
}

impl<'de, T: Any + Send + Sync + serde::Serialize + fmt::Debug + serde::Deserialize<'de>> serde::Deserialize<'de> for Deep<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Deep<T>, D::Error> {
        T::deserialize(deserializer).map(Deep::new)
    }
}

impl<T: Any + Send + Sync + serde::Serialize + fmt::Debug + crate::Validate> crate::Validate for Deep<T> {
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
