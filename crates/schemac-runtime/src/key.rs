//! [`Key`]: a property name as a map's reader gets it, borrowed from the input when it can be;
//! what the seeds of `de` and the raw reader of `raw` both read object keys as.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

/// A property name, borrowed from the input when it has no escapes.
#[derive(Debug)]
pub struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Key<'de> {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0.into_owned()
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor("a property name"))
    }
}

impl<'de> Key<'de> {
    /// A key read as a string from any value the deserializer offers (`de::Strict` reads
    /// strings this way).
    pub(crate) fn deserialize_as_string<D: Deserializer<'de>>(deserializer: D, expecting: &'static str) -> Result<Key<'de>, D::Error> {
        // Any, not str: see `de::Strict`.
        deserializer.deserialize_any(KeyVisitor(expecting))
    }
}

/// Reads a string as a [`Key`], borrowed when the input allows; the text says what was expected.
struct KeyVisitor(&'static str);

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(v.into()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(v.to_owned().into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key(v.into()))
    }
}
