//! [`Extra`]: the properties an open object does not declare, kept for a lossless round trip.
//!
//! Reading documents with undeclared (often `x-` extension) properties is dominated by
//! keeping them: what costs is every allocation that lives as long as the document. A
//! `serde_json::Map<String, Value>` has a tree node per object, a `String` per name and an
//! allocation per string, array and object inside each value. `Extra` holds the names and
//! the value texts of one object in one `String`: one allocation per object that has
//! undeclared properties, none for the others.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// The undeclared properties of an object, in the order read: each name and the JSON text of
/// its value, exactly as read. Written back as that text, in name order; compared, like a
/// `serde_json::Map`, by names and values.
#[derive(Clone, Default)]
pub struct Extra {
    /// Per property: the name's length in bytes, `:`, the name, the value text's length, `:`,
    /// the value text (`5:x-foo4:null`).
    buf: String,
}

impl Extra {
    pub fn new() -> Extra {
        Extra::default()
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Each property's name and its value's JSON text, in the order read.
    pub fn iter(&self) -> Iter<'_> {
        Iter { rest: &self.buf }
    }

    /// The property names, in the order read.
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.iter().map(|(name, _)| name)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.keys().any(|n| n == name)
    }

    /// The JSON text of property `name`'s value, as read.
    pub fn get_raw(&self, name: &str) -> Option<&str> {
        self.iter().find(|&(n, _)| n == name).map(|(_, text)| text)
    }

    /// Property `name`'s value, parsed.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.get_raw(name).map(parse)
    }

    /// Sets property `name` to `value`, replacing a property of that name in its place.
    pub fn insert(&mut self, name: &str, value: &Value) {
        let text = value.to_string();
        if self.contains_key(name) {
            *self = self.iter().map(|(n, old)| (n, if n == name { text.as_str() } else { old })).collect();
        } else {
            self.push(name, &text);
        }
    }

    /// Removes property `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let removed = self.get(name)?;
        *self = self.iter().filter(|&(n, _)| n != name).collect();
        Some(removed)
    }

    /// The properties as a map of parsed values.
    pub fn to_map(&self) -> serde_json::Map<String, Value> {
        self.iter().map(|(name, text)| (name.to_owned(), parse(text))).collect()
    }

    /// Appends a property; `text` is one JSON value and `name` is not there yet.
    fn push(&mut self, name: &str, text: &str) {
        if self.buf.is_empty() {
            // Room for a few small properties: growing copies the buffer and frees the old
            // one, which cost the large goal benchmark 0.05x with a 64-byte start.
            self.buf.reserve((2 * (name.len() + text.len()) + 8).max(128));
        }
        for part in [name, text] {
            push_length(&mut self.buf, part.len());
            self.buf.push_str(part);
        }
    }
}

/// `length` in decimal and `:`, without the formatting machinery (this runs per property read).
fn push_length(buf: &mut String, length: usize) {
    buf.push_str(itoa::Buffer::new().format(length));
    buf.push(':');
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("Extra holds valid JSON values")
}

/// The properties of an [`Extra`]: name and value text.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    rest: &'a str,
}

impl<'a> Iter<'a> {
    /// The next length-prefixed part of `rest`.
    fn part(&mut self) -> &'a str {
        let (length, rest) = self.rest.split_once(':').expect("Extra's parts are length-prefixed");
        let (part, rest) = rest.split_at(length.parse().expect("Extra's lengths are numbers"));
        self.rest = rest;
        part
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let name = self.part();
        Some((name, self.part()))
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl From<serde_json::Map<String, Value>> for Extra {
    fn from(map: serde_json::Map<String, Value>) -> Extra {
        let mut extra = Extra::new();
        for (name, value) in &map {
            extra.push(name, &value.to_string());
        }
        extra
    }
}

impl From<Extra> for serde_json::Map<String, Value> {
    fn from(extra: Extra) -> Self {
        extra.to_map()
    }
}

/// From names and value texts (each one JSON value, the names distinct), kept as they are:
/// the other properties of an `insert` or `remove` keep their text byte for byte.
impl<'a> FromIterator<(&'a str, &'a str)> for Extra {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a str)>>(iter: I) -> Extra {
        let mut extra = Extra::new();
        for (name, text) in iter {
            extra.push(name, text);
        }
        extra
    }
}

impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Extra {
        Extra::from(iter.into_iter().collect::<serde_json::Map<String, Value>>())
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Extra) -> bool {
        self.buf == other.buf || self.to_map() == other.to_map()
    }
}

/// JSON values are equal or not (there is no NaN), so the equality above is total.
impl Eq for Extra {}

/// Hashes the parsed values, as equality compares them (a generated type may derive `Hash`).
impl std::hash::Hash for Extra {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.to_map().hash(state);
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter().map(|(name, text)| (name, Text(text)))).finish()
    }
}

/// JSON text, shown as it is.
struct Text<'a>(&'a str);

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A map of the properties in name order (as the `serde_json::Map` this replaces wrote
/// them): to serde_json each value as its text, to another format each value.
impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        self.write_entries::<S, _>(&mut map)?;
        map.end()
    }
}

impl Extra {
    /// Writes the properties into `map`, an object being written by the serializer `S` (a
    /// struct's `Serialize` puts its undeclared properties after its declared ones so).
    #[doc(hidden)]
    pub fn write_entries<S: Serializer, M: serde::ser::SerializeMap<Error = S::Error>>(&self, map: &mut M) -> Result<(), S::Error> {
        let mut entries: Vec<(&str, &str)> = self.iter().collect();
        entries.sort_by_key(|&(name, _)| name);
        let json = writes_json::<S>();
        for (name, text) in entries {
            if json {
                let raw = RawValue::from_string(text.to_owned()).map_err(serde::ser::Error::custom)?;
                map.serialize_entry(name, &raw)?;
            } else {
                map.serialize_entry(name, &exact_value(text).map_err(serde::ser::Error::custom)?)?;
            }
        }
        Ok(())
    }
}

/// Whether `S` is one of serde_json's serializers, which write a `RawValue`'s text as it is
/// (any other serializer would write serde_json's private raw-value struct instead).
///
/// serde cannot ask a serializer which format it writes, and no behaviour of one tells
/// before it has written something, so the name of its type does: `std::any::type_name`,
/// whose text std does not promise. The day that text stops naming `serde_json::` (a
/// flattened field's serializer wraps serde_json's, and names it too), the test
/// `serde_json_serializers_are_recognized` fails; until it is fixed, serde_json is then
/// written the values instead, as any other format is: equal values, re-spelled (`2.50` as
/// `2.5`), never a rounded one ([`exact_value`]).
pub(crate) fn writes_json<S: ?Sized>() -> bool {
    std::any::type_name::<S>().contains("serde_json::")
}

/// The value of the JSON `text`, for a format that is written values: an error rather than a
/// `serde_json::Value` that would round an integer beyond `i64` and `u64` to an `f64`.
fn exact_value(text: &str) -> Result<Value, String> {
    match crate::raw::inexact_integer(text) {
        Some(integer) => Err(format!("integer {integer} cannot be written to this format without rounding it to an f64")),
        None => Ok(parse(text)),
    }
}

/// Collects an open object's undeclared properties while its visitor reads them (see
/// [`crate::de::extra`]), rejecting a name given twice.
#[derive(Debug, Default)]
pub struct ExtraBuilder {
    extra: Extra,
    count: usize,
    /// The names, once there are too many to compare one by one (a `BTreeSet`: nothing to set
    /// up for the many objects that never need it).
    seen: std::collections::BTreeSet<String>,
}

/// Above this many properties, duplicates are found through a set.
const LINEAR: usize = 16;

impl ExtraBuilder {
    /// Whether property `name` was read already.
    #[inline]
    pub(crate) fn contains(&self, name: &str) -> bool {
        if self.count <= LINEAR { self.extra.contains_key(name) } else { self.seen.contains(name) }
    }

    #[inline]
    pub(crate) fn push(&mut self, name: &str, text: &str) {
        self.extra.push(name, text);
        self.count += 1;
        if self.count > LINEAR {
            if self.seen.is_empty() {
                self.seen.extend(self.extra.keys().map(str::to_owned));
            } else {
                self.seen.insert(name.to_owned());
            }
        }
    }

    #[inline]
    pub fn finish(self) -> Extra {
        self.extra
    }
}

/// Reads the value of undeclared property `name` into `builder` as JSON text (see
/// [`crate::raw`]): from serde_json, the text as written, borrowed where the input allows (no
/// `Box<RawValue>` per property); from another format, the value, written as JSON.
pub(crate) struct ValueText<'a> {
    pub(crate) builder: &'a mut ExtraBuilder,
    pub(crate) name: &'a str,
}

impl<'de> DeserializeSeed<'de> for ValueText<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        crate::raw::read(deserializer, self)
    }
}

impl crate::raw::Sink for ValueText<'_> {
    type Out = ();
    fn text<E: de::Error>(self, text: &str) -> Result<(), E> {
        self.builder.push(self.name, text);
        Ok(())
    }
    fn value<E: de::Error>(self, value: Value) -> Result<(), E> {
        self.text(&value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde::de::{MapAccess, Visitor};
    use serde_json::json;

    fn built(properties: &[(&str, &str)]) -> Extra {
        let mut builder = ExtraBuilder::default();
        for (name, text) in properties {
            assert!(!builder.contains(name));
            builder.push(name, text);
            assert!(builder.contains(name));
        }
        builder.finish()
    }

    #[test]
    fn keeps_names_and_texts() {
        let extra = built(&[("x-b", r#"{ "deep": [1, 2.50] }"#), ("x-a", "null"), ("quo\"te:1", "\"é\""), ("", "0")]);
        assert_eq!(extra.len(), 4);
        assert_eq!(extra.keys().collect::<Vec<_>>(), ["x-b", "x-a", "quo\"te:1", ""]);
        assert_eq!(extra.get_raw("x-b"), Some(r#"{ "deep": [1, 2.50] }"#));
        assert_eq!(extra.get("x-a"), Some(Value::Null));
        assert_eq!(extra.get(""), Some(json!(0)));
        assert_eq!(extra.get("missing"), None);
        assert_eq!(serde_json::to_string(&extra).unwrap(), r#"{"":0,"quo\"te:1":"é","x-a":null,"x-b":{ "deep": [1, 2.50] }}"#);
        let map = extra.to_map();
        assert_eq!(Value::Object(map.clone()), json!({"x-b": {"deep": [1, 2.5]}, "x-a": null, "quo\"te:1": "é", "": 0}));
        assert_eq!(Extra::from(map), extra);
        assert_eq!(format!("{extra:?}"), r#"{"x-b": { "deep": [1, 2.50] }, "x-a": null, "quo\"te:1": "é", "": 0}"#);
    }

    #[test]
    fn compares_by_value_in_any_order() {
        assert_eq!(built(&[("a", "1"), ("b", "[ ]")]), built(&[("b", "[]"), ("a", "1")]));
        assert_ne!(built(&[("a", "1")]), built(&[("a", "1.0")]));
        assert_ne!(built(&[("a", "1")]), built(&[]));
        assert!(Extra::new().is_empty());
        assert_eq!(Extra::new().len(), 0);
    }

    #[test]
    fn insert_and_remove() {
        let mut extra = built(&[("a", "1")]);
        extra.insert("b", &json!([true]));
        extra.insert("a", &json!(2));
        assert_eq!(extra, Extra::from_iter([("a".to_owned(), json!(2)), ("b".to_owned(), json!([true]))]));
        assert_eq!(extra.remove("a"), Some(json!(2)));
        assert_eq!(extra.remove("a"), None);
        assert_eq!(extra.keys().collect::<Vec<_>>(), ["b"]);
        // The other properties keep their text, and a replaced one its place.
        let mut extra = built(&[("a", "1.50"), ("b", "[ 1 ]"), ("c", "2.0")]);
        extra.insert("b", &json!("x"));
        assert_eq!(extra.remove("c"), Some(json!(2.0)));
        assert_eq!(extra.iter().collect::<Vec<_>>(), [("a", "1.50"), ("b", "\"x\"")]);
    }

    #[test]
    fn many_names_are_deduplicated_too() {
        let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let mut builder = ExtraBuilder::default();
        for name in &names {
            assert!(!builder.contains(name));
            builder.push(name, "0");
        }
        assert!(names.iter().all(|name| builder.contains(name)));
        assert!(!builder.contains("p40"));
        assert_eq!(builder.finish().len(), 40);
    }

    /// An open object, read as generated code reads one.
    #[derive(Debug)]
    struct Open(Extra);

    impl<'de> Deserialize<'de> for Open {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Open, D::Error> {
            struct OpenVisitor;
            impl<'de> Visitor<'de> for OpenVisitor {
                type Value = Open;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Open, A::Error> {
                    let mut extra = ExtraBuilder::default();
                    while let Some(key) = map.next_key::<crate::de::Key<'de>>()? {
                        crate::de::extra(&mut map, &mut extra, key)?;
                    }
                    Ok(Open(extra.finish()))
                }
            }
            deserializer.deserialize_map(OpenVisitor)
        }
    }

    const SPACED: &str = r#"{"a" : { "b" :[1, 2.50 ] } , "c":"\u00e9", "d": null}"#;

    #[test]
    fn text_is_captured_as_written() {
        let from_str: Open = serde_json::from_str(SPACED).unwrap();
        let from_reader: Open = serde_json::from_reader(SPACED.as_bytes()).unwrap();
        for Open(extra) in [from_str, from_reader] {
            assert_eq!(extra.iter().collect::<Vec<_>>(), [("a", r#"{ "b" :[1, 2.50 ] }"#), ("c", r#""\u00e9""#), ("d", "null")]);
        }
        let from_value: Open = serde_json::from_value(serde_json::from_str(SPACED).unwrap()).unwrap();
        assert_eq!(from_value.0.iter().collect::<Vec<_>>(), [("a", r#"{"b":[1,2.5]}"#), ("c", "\"é\""), ("d", "null")]);
        let err = serde_json::from_str::<Open>(r#"{"a": 1, "a": 2}"#).unwrap_err();
        assert!(err.to_string().starts_with("duplicate property `a`"), "{err}");
        let err = serde_json::from_str::<Open>(r#"{"a": [1,}"#).unwrap_err();
        assert!(err.to_string().contains("line 1 column 10"), "{err}");
    }

    #[test]
    fn reads_other_formats() {
        // toml hands a newtype its value (`visit_newtype_struct`).
        let Open(extra) = toml::from_str("a = 1\nb = 'x'\n[c]\nd = [true, 2.5]\ne = {}\n").unwrap();
        assert_eq!(Value::Object(extra.to_map()), json!({"a": 1, "b": "x", "c": {"d": [true, 2.5], "e": {}}}));
        // serde's value deserializers treat newtypes as transparent (`visit_str`, ...).
        let pairs = [("s", "text"), ("t", "quo\"te")];
        let Open(extra) = Open::deserialize(de::value::MapDeserializer::<_, de::value::Error>::new(pairs.into_iter())).unwrap();
        assert_eq!(extra.iter().collect::<Vec<_>>(), [("s", "\"text\""), ("t", r#""quo\"te""#)]);
    }

    /// A struct that keeps its undeclared properties, as generated code declares one.
    #[derive(serde::Serialize)]
    struct Holder {
        id: u8,
        #[serde(flatten)]
        extra: Extra,
    }

    #[test]
    fn writes_other_formats() {
        let Open(extra) = serde_json::from_str(r#"{"b": {"c": [1, 2.50]}, "a": "x"}"#).unwrap();
        // serde_json: the text as read, alone, flattened, and into a `Value`.
        assert_eq!(serde_json::to_string(&extra).unwrap(), r#"{"a":"x","b":{"c": [1, 2.50]}}"#);
        let holder = Holder { id: 1, extra };
        assert_eq!(serde_json::to_string(&holder).unwrap(), r#"{"id":1,"a":"x","b":{"c": [1, 2.50]}}"#);
        assert_eq!(serde_json::to_value(&holder).unwrap(), json!({"id": 1, "a": "x", "b": {"c": [1, 2.5]}}));
        // Another format: the values.
        assert_eq!(toml::to_string(&holder).unwrap(), "id = 1\na = \"x\"\n\n[b]\nc = [1, 2.5]\n");
        assert_eq!(toml::to_string(&holder.extra).unwrap(), "a = \"x\"\n\n[b]\nc = [1, 2.5]\n");
    }

    /// Records whether `writes_json` takes the serializer it is written to for serde_json's.
    struct Probe<'a>(&'a std::cell::Cell<Option<(bool, &'static str)>>);

    impl Serialize for Probe<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.set(Some((writes_json::<S>(), std::any::type_name::<S>())));
            serializer.serialize_unit()
        }
    }

    #[derive(serde::Serialize)]
    struct FlatProbe<'a> {
        #[serde(flatten)]
        probe: Probe<'a>,
    }

    /// The day `std::any::type_name` stops naming serde_json's serializers as `serde_json::...`
    /// this fails, naming the text it now gives; `Extra` then writes serde_json values instead
    /// of the texts as read (see `writes_json`).
    #[test]
    fn serde_json_serializers_are_recognized() {
        let cell = std::cell::Cell::new(None);
        let check = |write: &dyn Fn(&Probe<'_>), json: bool| {
            write(&Probe(&cell));
            let (recognized, name) = cell.take().expect("the probe was written");
            assert_eq!(recognized, json, "std::any::type_name gave {name:?}: update `writes_json`");
        };
        check(&|p| drop(serde_json::to_string(p)), true);
        check(&|p| drop(serde_json::to_string_pretty(p)), true);
        check(&|p| drop(serde_json::to_writer(std::io::sink(), p)), true);
        check(&|p| drop(serde_json::to_value(p)), true);
        check(&|p| drop(toml::to_string(p)), false);
        // Flattened, as generated structs hold `Extra`: serde's wrapper around serde_json's.
        let flat = std::cell::Cell::new(None);
        drop(serde_json::to_string(&FlatProbe { probe: Probe(&flat) }));
        let (recognized, name) = flat.take().expect("the probe was written");
        assert!(recognized, "std::any::type_name gave {name:?}: update `writes_json`");
    }

    /// Written values, not texts, lose nothing either: an integer a `Value` would round is an
    /// error.
    #[test]
    fn other_formats_never_get_a_rounded_number() {
        let Open(extra) = serde_json::from_str(r#"{"big": 123456789012345678901234567890, "ok": 1.5}"#).unwrap();
        assert_eq!(serde_json::to_string(&extra).unwrap(), r#"{"big":123456789012345678901234567890,"ok":1.5}"#);
        let err = toml::to_string(&extra).unwrap_err().to_string();
        assert!(err.contains("integer 123456789012345678901234567890 cannot be written to this format without rounding"), "{err}");
    }

    #[test]
    fn long_texts_have_long_length_prefixes() {
        let long = format!("\"{}\"", "é".repeat(600));
        let extra = built(&[("a", &long), ("b", "1")]);
        assert_eq!(extra.get_raw("a"), Some(long.as_str()));
        assert_eq!(extra.get("b"), Some(json!(1)));
    }
}
