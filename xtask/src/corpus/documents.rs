//! The catalog's test documents: every file of `test/NAME/` (valid, the catalog says) and
//! `negative_test/NAME/` (invalid), read into the JSON value a validator sees.
//!
//! The documents are configuration files, YAML and TOML. They become JSON as the catalog's own
//! tests read them: YAML merge keys (`<<`) applied, mapping keys that are scalars written as
//! their text, TOML date-times as their RFC 3339 text. The driver also reads each file with its
//! own format's serde deserializer (`serde_norway`, `toml`), which is how a user reads a
//! configuration file into the generated types.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{Map, Value};

/// What the catalog says of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Label {
    Valid,
    Invalid,
}

/// A document's syntax, from its file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Yaml,
    Toml,
}

impl Format {
    fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            "toml" => Some(Format::Toml),
            _ => None,
        }
    }
}

/// One test document.
#[derive(Debug, Clone)]
pub struct Document {
    /// `test/NAME/file.yaml`, relative to the corpus: the id in the report and the baseline.
    pub id: String,
    /// The target schema it is a test of.
    pub schema: String,
    pub label: Label,
    pub format: Format,
    /// The file's text, as written.
    pub text: String,
    /// Which YAML document of the file it is (0-based), for a file of several (`---`): each
    /// is a document of its own, `#1`, `#2`, ... after the file's name in the id.
    pub part: Option<usize>,
    /// The JSON value it stands for, or why it has none.
    pub value: Result<Value, String>,
}

/// The documents of every target in `targets`, in target order, then by file name: a
/// catalog target's `test/` and `negative_test/` files, a metaschema target's schema files.
pub fn load(corpus: &Path, targets: &[String]) -> Result<Vec<Document>> {
    let mut documents = Vec::new();
    for target in targets {
        if super::metaschema::TARGETS.iter().any(|(name, ..)| name == target) {
            for (name, text) in super::metaschema::documents(&corpus.join("schemas/json"), target)? {
                let id = format!("{}/{target}/{name}", super::metaschema::FOLDER);
                let value = to_json(Format::Json, &text);
                documents.push(Document { id, schema: target.clone(), label: Label::Valid, format: Format::Json, text, part: None, value });
            }
            continue;
        }
        for (folder, label) in [("test", Label::Valid), ("negative_test", Label::Invalid)] {
            let dir = corpus.join(folder).join(target);
            if !dir.is_dir() {
                continue;
            }
            let mut files: Vec<_> = fs::read_dir(&dir)
                .with_context(|| format!("cannot list {}", dir.display()))?
                .map(|entry| entry.map(|e| e.path()))
                .collect::<Result<_, _>>()
                .with_context(|| format!("cannot list {}", dir.display()))?;
            files.sort();
            for path in files {
                let Some(format) = Format::of(&path) else { continue };
                let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let id = format!("{folder}/{target}/{name}");
                let mut values = if format == Format::Yaml { yaml_values(&text) } else { vec![to_json(format, &text)] };
                if values.len() == 1 {
                    let value = values.remove(0);
                    documents.push(Document { id, schema: target.clone(), label, format, text, part: None, value });
                    continue;
                }
                for (part, value) in values.into_iter().enumerate() {
                    let (id, text) = (format!("{id}#{}", part + 1), text.clone());
                    documents.push(Document { id, schema: target.clone(), label, format, text, part: Some(part), value });
                }
            }
        }
    }
    Ok(documents)
}

/// The JSON value of a document's text, or why it has none.
pub fn to_json(format: Format, text: &str) -> Result<Value, String> {
    match format {
        Format::Json => serde_json::from_str(text).map_err(|e| format!("not JSON: {e}")),
        Format::Yaml => {
            let mut value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| format!("not YAML: {e}"))?;
            value.apply_merge().map_err(|e| format!("a YAML merge key cannot be applied: {e}"))?;
            yaml_to_json(value)
        }
        Format::Toml => {
            let table: toml::Table = toml::from_str(text).map_err(|e| format!("not TOML: {e}"))?;
            toml_to_json(toml::Value::Table(table))
        }
    }
}

/// The most YAML documents read from one file: the catalog's files hold one or a few.
const MAX_YAML_DOCUMENTS: usize = 1_000;

/// The JSON value of each YAML document of `text` (`---` separates them), in order, each
/// parsed once. A document that does not parse ends the list with its error: the parser
/// cannot resynchronize after one, and serde_norway's iterator then yields the same error
/// forever (counting its documents never ended, which held CI until its own timeout).
fn yaml_values(text: &str) -> Vec<Result<Value, String>> {
    use serde::Deserialize as _;
    let mut values = Vec::new();
    for document in serde_norway::Deserializer::from_str(text).take(MAX_YAML_DOCUMENTS) {
        let value = serde_norway::Value::deserialize(document).map_err(|e| format!("not YAML: {e}")).and_then(|mut value| {
            value.apply_merge().map_err(|e| format!("a YAML merge key cannot be applied: {e}"))?;
            yaml_to_json(value)
        });
        let failed = value.is_err();
        values.push(value);
        if failed {
            break;
        }
    }
    if values.is_empty() {
        // An empty stream is one document, `null`, as `serde_norway::from_str` reads it.
        values.push(to_json(Format::Yaml, text));
    }
    values
}

fn yaml_to_json(value: serde_norway::Value) -> Result<Value, String> {
    use serde_norway::Value as Y;
    Ok(match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => yaml_number(&n)?,
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect::<Result<_, _>>()?),
        Y::Mapping(mapping) => {
            let mut object = Map::new();
            for (key, value) in mapping {
                object.insert(yaml_key(key)?, yaml_to_json(value)?);
            }
            Value::Object(object)
        }
        Y::Tagged(tagged) => yaml_to_json(tagged.value)?,
    })
}

fn yaml_number(n: &serde_norway::Number) -> Result<Value, String> {
    if let Some(i) = n.as_i64() {
        return Ok(Value::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Ok(Value::from(u));
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    serde_json::Number::from_f64(f).map(Value::Number).ok_or_else(|| format!("the YAML number {n} has no JSON form"))
}

/// A mapping key as JSON names it: strings as they are, other scalars as their text.
fn yaml_key(key: serde_norway::Value) -> Result<String, String> {
    use serde_norway::Value as Y;
    Ok(match key {
        Y::String(s) => s,
        Y::Null => "null".to_owned(),
        Y::Bool(b) => b.to_string(),
        Y::Number(n) => n.to_string(),
        Y::Tagged(tagged) => yaml_key(tagged.value)?,
        Y::Sequence(_) | Y::Mapping(_) => return Err("a YAML mapping key that is a sequence or mapping has no JSON form".to_owned()),
    })
}

fn toml_to_json(value: toml::Value) -> Result<Value, String> {
    use toml::Value as T;
    Ok(match value {
        T::String(s) => Value::String(s),
        T::Integer(i) => Value::from(i),
        T::Float(f) => serde_json::Number::from_f64(f).map(Value::Number).ok_or_else(|| format!("the TOML float {f} has no JSON form"))?,
        T::Boolean(b) => Value::Bool(b),
        T::Datetime(d) => Value::String(d.to_string()),
        T::Array(items) => Value::Array(items.into_iter().map(toml_to_json).collect::<Result<_, _>>()?),
        T::Table(table) => Value::Object(table.into_iter().map(|(k, v)| Ok((k, toml_to_json(v)?))).collect::<Result<_, String>>()?),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn yaml_reads_as_the_catalog_reads_it() {
        let text = "base: &b {a: 1, b: x}\nderived:\n  <<: *b\n  b: y\n1: one\ntrue: yes\nf: 1.5\n";
        assert_eq!(
            to_json(Format::Yaml, text).unwrap(),
            json!({"base": {"a": 1, "b": "x"}, "derived": {"a": 1, "b": "y"}, "1": "one", "true": "yes", "f": 1.5})
        );
        assert!(to_json(Format::Yaml, "a: .nan\n").unwrap_err().contains("no JSON form"));
        assert!(to_json(Format::Yaml, "a: [\n").unwrap_err().starts_with("not YAML"));
    }

    #[test]
    fn each_yaml_document_of_a_file_is_one() {
        assert_eq!(yaml_values("a: 1\n---\na: 2\n"), [Ok(json!({"a": 1})), Ok(json!({"a": 2}))]);
        assert_eq!(yaml_values("a: 1\n"), [Ok(json!({"a": 1}))]);
        assert_eq!(yaml_values(""), [Ok(Value::Null)]);
    }

    #[test]
    fn a_yaml_document_that_does_not_parse_ends_the_list() {
        // serde_norway's iterator yields the error of "[" forever; the list ends with it.
        let values = yaml_values("a: 1\n---\n[\n");
        assert_eq!(values.len(), 2, "{values:?}");
        assert_eq!(values[0], Ok(json!({"a": 1})));
        assert!(values[1].as_ref().is_err_and(|e| e.starts_with("not YAML")), "{values:?}");
        let values = yaml_values("a: [\n");
        assert_eq!(values.len(), 1, "{values:?}");
        assert!(values[0].is_err());
    }

    #[test]
    fn toml_date_times_are_their_text() {
        let text = "when = 1979-05-27T07:32:00Z\nday = 1979-05-27\n[t]\nn = 3\nx = [1.5, true]\n";
        assert_eq!(
            to_json(Format::Toml, text).unwrap(),
            json!({"when": "1979-05-27T07:32:00Z", "day": "1979-05-27", "t": {"n": 3, "x": [1.5, true]}})
        );
    }
}
