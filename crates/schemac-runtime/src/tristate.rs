//! [`Tristate`]: a property that may be absent, `null`, or a value, kept apart.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An optional property that may also be `null`. Absent and `null` are different JSON, so a
/// lossless round trip must keep them apart (`Option<Option<T>>` would, less readably).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tristate<T> {
    /// The property is not in the object.
    #[default]
    Absent,
    /// The property is `null`.
    Null,
    /// The property has a value.
    Value(T),
}

impl<T> Tristate<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Tristate::Absent)
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Tristate::Null)
    }

    /// The value, if there is one (absent and `null` both give `None`).
    pub fn value(&self) -> Option<&T> {
        match self {
            Tristate::Value(v) => Some(v),
            _ => None,
        }
    }

    pub fn into_value(self) -> Option<T> {
        match self {
            Tristate::Value(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_ref(&self) -> Tristate<&T> {
        match self {
            Tristate::Absent => Tristate::Absent,
            Tristate::Null => Tristate::Null,
            Tristate::Value(v) => Tristate::Value(v),
        }
    }
}

impl<T> From<Option<T>> for Tristate<T> {
    /// `None` is `null`: a present property. Use `Tristate::Absent` to leave it out.
    fn from(value: Option<T>) -> Self {
        match value {
            Some(v) => Tristate::Value(v),
            None => Tristate::Null,
        }
    }
}

impl<T: Serialize> Serialize for Tristate<T> {
    /// Writes `null` or the value; generated structs skip `Absent` fields with
    /// `#[serde(skip_serializing_if = "Tristate::is_absent")]`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Tristate::Value(v) => v.serialize(serializer),
            Tristate::Absent | Tristate::Null => serializer.serialize_unit(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tristate<T> {
    /// `null` is `Null`, anything else a `Value`. An absent property never reaches this: in a
    /// hand-written struct, mark the field `#[serde(default)]` so it stays `Absent`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Tristate::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Tristate;

    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct Patch {
        #[serde(default, skip_serializing_if = "Tristate::is_absent")]
        name: Tristate<String>,
    }

    #[test]
    fn absent_null_and_value_round_trip() {
        for (text, expected) in
            [("{}", Tristate::Absent), (r#"{"name":null}"#, Tristate::Null), (r#"{"name":"x"}"#, Tristate::Value("x".to_owned()))]
        {
            let patch: Patch = serde_json::from_str(text).unwrap();
            assert_eq!(patch.name, expected);
            assert_eq!(serde_json::to_string(&patch).unwrap(), text);
        }
    }
}
