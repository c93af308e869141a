//! The bundled schemas' generated types on arbitrary bytes: reading never panics; what they
//! accept serializes back to text they accept again as an equal value; and they agree with the
//! `jsonschema` crate on every JSON document without duplicate keys or integers beyond 64 bits
//! (where serde_json's `Value`, which `jsonschema` reads, changes the document).

#![no_main]

use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde::de::{DeserializeOwned, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use schema_types::madoo::attempts_report_v1::{self, AttemptsReport};
use schema_types::pi_glla::goal::{self, Goal};

/// A validator for a schema's text, `format` as an annotation (as the generated types).
fn validator(schema: &str) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(schema).expect("the bundled schema is JSON");
    jsonschema::options().should_validate_formats(false).build(&schema).expect("jsonschema compiles the bundled schema")
}

fn check<T: DeserializeOwned + Serialize + PartialEq + fmt::Debug>(name: &str, validator: &jsonschema::Validator, data: &[u8]) {
    let typed = schemac_runtime::from_slice::<T>(data);
    let document = serde_json::from_slice::<Strict>(data).ok().map(|strict| strict.0);
    match (typed, document) {
        (Ok(typed), document) => {
            let text = serde_json::to_string(&typed).expect("a generated type serializes");
            let again: T = match schemac_runtime::from_str(&text) {
                Ok(again) => again,
                Err(e) => panic!("{name}: its own output {text} is rejected: {e}"),
            };
            assert_eq!(typed, again, "{name}: the output {text} reads back as another value");
            let output: Value = serde_json::from_str(&text).expect("the output is JSON");
            assert!(validator.is_valid(&output), "{name}: jsonschema rejects the output {text}");
            if let Some(document) = document {
                assert!(validator.is_valid(&document), "{name}: accepted, but jsonschema rejects {document}");
                assert!(schemac_runtime::json_eq(&document, &output), "{name}: the round trip changed {document} to {text}");
            }
        }
        (Err(e), Some(document)) => {
            assert!(!validator.is_valid(&document), "{name}: rejected ({e}), but jsonschema accepts {document}");
        }
        (Err(_), None) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    static VALIDATORS: OnceLock<(jsonschema::Validator, jsonschema::Validator)> = OnceLock::new();
    let (report, goal) = VALIDATORS.get_or_init(|| (validator(attempts_report_v1::SCHEMA_JSON), validator(goal::SCHEMA_JSON)));
    check::<AttemptsReport>("AttemptsReport", report, data);
    check::<Goal>("Goal", goal, data);
});

/// A JSON document as `jsonschema` sees it, read only when that is the document written: no
/// key twice in an object (serde_json keeps the last), no integer outside `i64`/`u64` (it
/// becomes the nearest `f64`).
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Value, E> {
        // An integer-valued float this large was (or equals) an integer beyond 64 bits.
        if n.fract() == 0.0 && n.abs() >= 9.2e18 {
            return Err(E::custom("an integer beyond 64 bits"));
        }
        serde_json::Number::from_f64(n).map(Value::Number).ok_or_else(|| E::custom("not a finite number"))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut seen = BTreeSet::new();
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(A::Error::custom("a duplicate key"));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}
