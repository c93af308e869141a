//! A value's JSON text where the deserializer has it, the value itself where it does not.
//!
//! serde_json hands over the text of a value, exactly as written and borrowed from the input
//! where it can, to whoever asks for the newtype [`RAW_VALUE_TOKEN`] (that is how its own
//! `RawValue` deserializes). `Extra` keeps undeclared properties as that text; [`AnyValue`]
//! parses it into a `serde_json::Value` once it knows the `Value` will hold every number
//! exactly. Other formats answer the same request with the value, which both take as it is.

use std::fmt;

use serde::Deserialize;
use serde::de::value::SeqAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The name under which serde_json's deserializers hand over a value's text instead of the
/// value, as a map with this one key and the text as its value. Not public in serde_json, but
/// its protocol since 1.0.29; the tests `text_is_captured_as_written` (extra.rs) and
/// `any_value_keeps_integers_exact_or_fails` (here) fail if the text stops arriving.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// What to do with the text, or with the value when there is no text.
pub(crate) trait Sink {
    type Out;
    fn text<E: de::Error>(self, text: &str) -> Result<Self::Out, E>;
    fn value<E: de::Error>(self, value: Value) -> Result<Self::Out, E>;
}

/// Reads one value from `deserializer` into `sink`.
pub(crate) fn read<'de, D: Deserializer<'de>, S: Sink>(deserializer: D, sink: S) -> Result<S::Out, D::Error> {
    deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, TextOrValue(sink))
}

/// serde_json answers with `visit_map` (the raw-value protocol); other formats with
/// `visit_newtype_struct`, or with the value itself when they treat newtypes as transparent.
struct TextOrValue<S>(S);

impl<'de, S: Sink> Visitor<'de> for TextOrValue<S> {
    type Value = S::Out;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Out, A::Error> {
        let Some(first) = map.next_key::<crate::key::Key<'de>>()? else {
            return self.0.value(Value::Object(serde_json::Map::new()));
        };
        if first.as_str() == RAW_VALUE_TOKEN {
            // Raised here, not inside the map's value, so that an error's path is the value's
            // own and not `.../$serde_json::private::RawValue`.
            return map.next_value_seed(Text(self.0))?.map_err(de::Error::custom);
        }
        let mut object = serde_json::Map::new();
        object.insert(first.into_string(), map.next_value()?);
        while let Some((name, value)) = map.next_entry::<String, Value>()? {
            object.insert(name, value);
        }
        self.0.value(Value::Object(object))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Out, D::Error> {
        self.0.value(Value::deserialize(deserializer)?)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<S::Out, A::Error> {
        self.0.value(Value::deserialize(SeqAccessDeserializer::new(seq))?)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Out, D::Error> {
        self.visit_newtype_struct(deserializer)
    }
    fn visit_none<E: de::Error>(self) -> Result<S::Out, E> {
        self.0.value(Value::Null)
    }
    fn visit_unit<E: de::Error>(self) -> Result<S::Out, E> {
        self.0.value(Value::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<S::Out, E> {
        self.0.value(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<S::Out, E> {
        self.0.value(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<S::Out, E> {
        self.0.value(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<S::Out, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => self.0.value(Value::Number(n)),
            None => Err(E::invalid_value(de::Unexpected::Float(v), &"a finite number (JSON has no NaN or infinity)")),
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<S::Out, E> {
        self.0.value(Value::from(v))
    }
}

/// The value of serde_json's raw-value map: the text itself, and what the sink made of it.
struct Text<S>(S);

type Made<S> = Result<<S as Sink>::Out, de::value::Error>;

impl<'de, S: Sink> DeserializeSeed<'de> for Text<S> {
    type Value = Made<S>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Made<S>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, S: Sink> Visitor<'de> for Text<S> {
    type Value = Made<S>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the JSON text of a value")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Made<S>, E> {
        // serde_json hands the text over with its escapes unchecked; half a surrogate pair
        // (`"\ude00"`) is no Unicode text, which serde_json refuses in a `String` or a `Value`
        // (and so `jsonschema` can read no document with one). Found by fuzzing.
        if let Some(escape) = lone_surrogate(text) {
            return Ok(Err(de::Error::custom(format_args!(
                "the escape `{escape}` is half of a UTF-16 surrogate pair without the other half, which is no Unicode text"
            ))));
        }
        Ok(self.0.text(text))
    }
}

/// The first `\uXXXX` escape in the JSON text `text` that is a surrogate without its pair.
fn lone_surrogate(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = text.get(at + 2..at + 6)?;
        (bytes.get(at..at + 2)? == b"\\u").then(|| u16::from_str_radix(hex, 16).ok()).flatten()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xD800..=0xDBFF) if matches!(unit(i + 6), Some(0xDC00..=0xDFFF)) => i += 12,
            Some(0xD800..=0xDFFF) => return text.get(i..i + 6),
            Some(_) => i += 6,
            // `\\`, `\"`, `\n`, ...: two bytes.
            None => i += 2,
        }
    }
    None
}

/// Any JSON value as a `serde_json::Value`, refusing one the `Value` would change: an integer
/// beyond `i64` and `u64` (a `Value` keeps it as a rounded `f64`, and the round trip would write
/// another number) is an error naming it, never silently rounded. Generated code reads every
/// `serde_json::Value` (fields the schema leaves open, the checked fallback, buffered unions,
/// pattern properties) through this seed.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyValue;

impl<'de> DeserializeSeed<'de> for AnyValue {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        read(deserializer, AnyValue)
    }
}

impl Sink for AnyValue {
    type Out = Value;
    fn text<E: de::Error>(self, text: &str) -> Result<Value, E> {
        if let Some(integer) = inexact_integer(text) {
            return Err(E::custom(format_args!(
                "integer {integer}{}serde_json::Value, which would round it to an f64",
                crate::error::OUT_OF_RANGE
            )));
        }
        serde_json::from_str(text).map_err(|err| {
            // The position is within this value's text, not the document: leave it out (the
            // error's pointer says where the value is).
            let message = err.to_string();
            E::custom(message.rsplit_once(" at line ").map_or(message.as_str(), |(message, _)| message))
        })
    }
    fn value<E: de::Error>(self, value: Value) -> Result<Value, E> {
        Ok(value)
    }
}

/// The first integer literal in the JSON `text` that neither `i64` nor `u64` holds.
pub(crate) fn inexact_integer(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                // Past the string, escapes included (`\"` does not end it).
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    i += if b == b'\\' { 2 } else { 1 };
                    if b == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while bytes.get(i).is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
                    i += 1;
                }
                let token = &text[start..i];
                // Only 19 digits and more can leave `i64` and `u64` both.
                let integer = !token.contains(['.', 'e', 'E']);
                if integer && token.len() >= 19 && token.parse::<i64>().is_err() && token.parse::<u64>().is_err() {
                    return Some(token);
                }
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn any(text: &str) -> Result<Value, String> {
        AnyValue.deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(|e| e.to_string())
    }

    /// The fuzz finding: `"kept \u2603\ude00"` in an undeclared property was kept as text
    /// that serde_json (and `jsonschema`) cannot read back.
    #[test]
    fn half_a_surrogate_pair_is_refused() {
        assert_eq!(lone_surrogate(r#""kept \u2603\ude00""#), Some("\\ude00"));
        assert_eq!(lone_surrogate(r#"["\ud800"]"#), Some("\\ud800"));
        assert_eq!(lone_surrogate(r#"{"a": "\ud83d\ude00", "b": "\\ude00 \u00e9"}"#), None);
        assert_eq!(lone_surrogate(r#""\ud83d\u0041""#), Some("\\ud83d"));
    }

    #[test]
    fn any_value_keeps_integers_exact_or_fails() {
        assert_eq!(
            any(r#"{"a": [1, -2, 2.5, 1e3, "18446744073709551616"], "b": null}"#),
            Ok(json!({"a": [1, -2, 2.5, 1000.0, "18446744073709551616"], "b": null}))
        );
        assert_eq!(any("18446744073709551615"), Ok(json!(u64::MAX)));
        assert_eq!(any("-9223372036854775808"), Ok(json!(i64::MIN)));
        for (text, integer) in [
            ("18446744073709551616", "18446744073709551616"),
            ("-9223372036854775809", "-9223372036854775809"),
            (r#"{"s": "a\"1", "n": [0, 123456789012345678901234567890]}"#, "123456789012345678901234567890"),
        ] {
            let err = any(text).unwrap_err();
            assert_eq!(err, format!("integer {integer} is out of range for serde_json::Value, which would round it to an f64"));
            assert!(crate::de::unrepresentable(&err));
        }
        // Big floats are `f64`s by definition; one beyond `f64` is an error, without a position
        // inside the value.
        assert_eq!(any("1.8446744073709552e19"), Ok(json!(1.8446744073709552e19)));
        assert_eq!(any("[1e400]"), Err("number out of range".to_owned()));
    }

    #[test]
    fn any_value_from_other_deserializers() {
        // `serde_json::Value` as the input answers with its text; a reader with an owned one.
        assert_eq!(AnyValue.deserialize(json!({"a": [1, 2.5]})).unwrap(), json!({"a": [1, 2.5]}));
        let mut reader = serde_json::Deserializer::from_reader(&b"[1, 99999999999999999999]"[..]);
        assert!(AnyValue.deserialize(&mut reader).is_err());
        let value = AnyValue.deserialize(toml::de::ValueDeserializer::parse("{ a = 1, b = [true] }").unwrap()).unwrap();
        assert_eq!(value, json!({"a": 1, "b": [true]}));
    }
}
