//! The referee: the `jsonschema` crate validates each document against its target schema,
//! formats as annotations (the specification's default, and schemac's). It reads schemas on
//! its own, not through schemac: catalog URLs (`https://json.schemastore.org/NAME.json`,
//! also without `.json`, and the `www.` host) are files of the corpus, the official
//! metaschemas are built into `jsonschema`, and nothing else is fetched.
//!
//! One accommodation: a `$ref` with characters a URI may not hold (vega-lite's
//! `#/definitions/TopLevel<FacetedUnitSpec>`), which `jsonschema` refuses to read, is given to
//! it percent-encoded (`%3C`, `%3E`), as RFC 3986 spells it; a JSON pointer in a fragment is
//! percent-decoded before it is followed, so it names the same schema.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The URL prefixes under which the catalog's schemas are published; a `$ref` to either is a
/// file of `schemas/json/`.
pub const CATALOG_URLS: [&str; 2] = ["https://json.schemastore.org/", "https://www.schemastore.org/"];

/// A validator for one target, or why `jsonschema` has none.
pub struct Referee {
    validator: Result<jsonschema::Validator, String>,
}

impl std::fmt::Debug for Referee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Referee").field("ready", &self.validator.is_ok()).finish()
    }
}

/// The referee's verdict on one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// Invalid, with the first error and where.
    Invalid(String),
    /// No verdict: the schema does not compile in `jsonschema`, or the document is no JSON.
    None(String),
}

impl Referee {
    /// The referee of `schemas/json/NAME.json`, or of the metaschema of a metaschema target
    /// (`root` is the checkout).
    pub fn new(root: &Path, schema_dir: &Path, name: &str) -> Referee {
        if let Some(path) = super::metaschema::file(root, name) {
            return Referee::metaschema(&path);
        }
        let path = schema_dir.join(format!("{name}.json"));
        let validator = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
            .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| format!("{} is not JSON: {e}", path.display())))
            .map(encode_refs)
            .and_then(|schema| {
                jsonschema::options()
                    .should_validate_formats(false)
                    .with_base_uri(format!("{}{name}.json", CATALOG_URLS[0]))
                    .with_retriever(Corpus { dir: schema_dir.to_path_buf() })
                    .build(&schema)
                    .map_err(|e| format!("jsonschema cannot compile the schema: {}", crate::conformance::compile::one_line(&e.to_string())))
            });
        Referee { validator }
    }

    /// The referee of an official metaschema: `jsonschema` knows every one of them, so it
    /// reads nothing else.
    fn metaschema(path: &Path) -> Referee {
        let validator = fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
            .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| format!("{} is not JSON: {e}", path.display())))
            .and_then(|schema| {
                jsonschema::options().should_validate_formats(false).build(&schema).map_err(|e| {
                    format!("jsonschema cannot compile the metaschema: {}", crate::conformance::compile::one_line(&e.to_string()))
                })
            });
        Referee { validator }
    }

    /// Why there is no validator, if there is none.
    pub fn problem(&self) -> Option<&str> {
        self.validator.as_ref().err().map(String::as_str)
    }

    pub fn judge(&self, document: &Result<Value, String>) -> Verdict {
        let validator = match &self.validator {
            Ok(validator) => validator,
            Err(why) => return Verdict::None(why.clone()),
        };
        let value = match document {
            Ok(value) => value,
            Err(why) => return Verdict::None(why.clone()),
        };
        match validator.iter_errors(value).next() {
            None => Verdict::Valid,
            Some(error) => {
                let at = error.instance_path().to_string();
                let at = if at.is_empty() { "(root)".to_owned() } else { at };
                Verdict::Invalid(format!("{at}: {}", crate::conformance::compile::one_line(&error.to_string())))
            }
        }
    }
}

/// `schema` with each `$ref` percent-encoded where it holds a character no URI reference may
/// (see the module docs).
fn encode_refs(mut schema: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(members) => {
                for (key, member) in members.iter_mut() {
                    match member {
                        Value::String(reference) if key == "$ref" => *reference = encode(reference),
                        _ => walk(member),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    fn encode(reference: &str) -> String {
        let mut out = String::with_capacity(reference.len());
        for c in reference.chars() {
            match c {
                '<' | '>' | ' ' | '"' | '{' | '}' | '|' | '\\' | '^' | '`' => out.push_str(&format!("%{:02X}", c as u32)),
                _ => out.push(c),
            }
        }
        out
    }
    walk(&mut schema);
    schema
}

/// Catalog URLs read from the corpus's schema directory; anything else is refused.
struct Corpus {
    dir: PathBuf,
}

impl jsonschema::Retrieve for Corpus {
    fn retrieve(&self, uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let uri = uri.as_str();
        let name = CATALOG_URLS
            .iter()
            .find_map(|prefix| uri.strip_prefix(prefix))
            .ok_or_else(|| format!("{uri} is outside the catalog, and nothing is fetched"))?;
        let name = name.split('#').next().unwrap_or_default();
        if name.is_empty() || name.contains('/') || name.contains("..") {
            return Err(format!("{uri} names no file of the catalog").into());
        }
        let file = if name.ends_with(".json") { name.to_owned() } else { format!("{name}.json") };
        let path = self.dir.join(file);
        let text = fs::read_to_string(&path).map_err(|e| format!("{uri}: cannot read {}: {e}", path.display()))?;
        Ok(encode_refs(serde_json::from_str(&text)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_refs_are_corpus_files_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("xtask-corpus-referee-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("base.json"), r#"{"definitions": {"n": {"type": "integer"}}}"#).unwrap();
        fs::write(dir.join("a.json"), r#"{"properties": {"n": {"$ref": "https://www.schemastore.org/base#/definitions/n"}}}"#).unwrap();
        fs::write(dir.join("b.json"), r#"{"$ref": "https://example.com/elsewhere.json"}"#).unwrap();
        let a = Referee::new(&dir, &dir, "a");
        let b = Referee::new(&dir, &dir, "b");
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(a.judge(&Ok(serde_json::json!({"n": 3}))), Verdict::Valid);
        assert!(matches!(a.judge(&Ok(serde_json::json!({"n": "x"}))), Verdict::Invalid(why) if why.starts_with("/n: ")));
        assert!(b.problem().is_some_and(|why| why.contains("outside the catalog")), "{b:?}");
        assert_eq!(
            encode_refs(serde_json::json!({"a": [{"$ref": "#/definitions/T<U>"}], "$ref": "x y"})),
            serde_json::json!({"a": [{"$ref": "#/definitions/T%3CU%3E"}], "$ref": "x%20y"})
        );
    }
}
