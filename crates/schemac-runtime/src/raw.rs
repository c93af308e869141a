//! [`RawJson`]: the value of a property the schema does not declare, kept as its JSON text.
//!
//! Open objects keep their undeclared properties for a lossless round trip. Building each
//! one into a `serde_json::Value` costs an allocation per string, array and object inside it,
//! and dominates reading documents with extension (`x-`) properties; the text costs one, and
//! is parsed only when asked for.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A JSON value kept as the text it was read from (with its insignificant whitespace).
/// Written back as that text; compared, like `serde_json::Value`, by the value it denotes.
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The JSON text, as read.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The value, parsed.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.0.get()).expect("a RawJson holds valid JSON")
    }

    /// The value, deserialized into `T`.
    pub fn deserialize_into<'a, T: Deserialize<'a>>(&'a self) -> serde_json::Result<T> {
        serde_json::from_str(self.0.get())
    }

    /// `text`, if it is one JSON value.
    pub fn from_text(text: String) -> serde_json::Result<RawJson> {
        RawValue::from_string(text).map(RawJson)
    }
}

impl From<&Value> for RawJson {
    fn from(value: &Value) -> RawJson {
        RawJson(serde_json::value::to_raw_value(value).expect("a Value serializes"))
    }
}

impl From<Value> for RawJson {
    fn from(value: Value) -> RawJson {
        RawJson::from(&value)
    }
}

impl From<RawJson> for Value {
    fn from(raw: RawJson) -> Value {
        raw.to_value()
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.get() == other.get() || self.to_value() == other.to_value()
    }
}

impl PartialEq<Value> for RawJson {
    fn eq(&self, other: &Value) -> bool {
        self.to_value() == *other
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawJson").field(&format_args!("{}", self.get())).finish()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Reads the value's text from `serde_json`'s deserializers (text, `Value` and `&Value`,
/// also through `serde_path_to_error`).
impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(RawJson)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_text_and_compares_by_value() {
        let raw: RawJson = serde_json::from_str(r#"{ "a": [1, 2.5, "é"] }"#).unwrap();
        assert_eq!(raw.get(), r#"{ "a": [1, 2.5, "é"] }"#);
        assert_eq!(serde_json::to_string(&raw).unwrap(), r#"{ "a": [1, 2.5, "é"] }"#);
        assert_eq!(raw.to_value(), json!({"a": [1, 2.5, "é"]}));
        assert_eq!(raw, RawJson::from(json!({"a": [1, 2.5, "é"]})));
        assert_eq!(raw, json!({"a": [1, 2.5, "é"]}));
        assert_ne!(raw, RawJson::from(json!({"a": [1, 2.5]})));
        assert_eq!(serde_json::to_value(&raw).unwrap(), json!({"a": [1, 2.5, "é"]}));
    }

    #[test]
    fn reads_from_values_too() {
        let raw: RawJson = serde_json::from_value(json!([null, true])).unwrap();
        assert_eq!(raw.to_value(), json!([null, true]));
        let value = json!({"k": 1});
        let raw = RawJson::deserialize(&value).unwrap();
        assert_eq!(raw.get(), r#"{"k":1}"#);
        let raw: RawJson = crate::from_str("\"x\"").unwrap();
        assert_eq!(raw.deserialize_into::<String>().unwrap(), "x");
    }
}
