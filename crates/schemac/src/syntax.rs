//! Schema file syntaxes: JSON, and YAML for `.yaml`/`.yml` files, which is read into the same
//! JSON value (and re-rendered as JSON text, which the generated code embeds).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Diagnostic;

/// The syntax of a schema file, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Yaml,
}

impl Syntax {
    /// YAML for `.yaml`/`.yml`, JSON for anything else.
    pub fn of(path: &Path) -> Syntax {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => Syntax::Yaml,
            _ => Syntax::Json,
        }
    }
}

/// The extensions of schema files, as a catalog directory is searched for them.
pub const EXTENSIONS: &[&str] = &["json", "yaml", "yml"];

/// Whether `path` names a schema file by its extension.
pub fn is_schema_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e))
}

/// For a path without an extension that is not a file (a URL like `…/schemas/order`, as many
/// catalogs serve), the first of `NAME.json`, `NAME.yaml`, `NAME.yml` that is; else `path`.
pub fn with_schema_extension(path: PathBuf) -> PathBuf {
    if path.extension().is_some() || path.is_file() {
        return path;
    }
    EXTENSIONS.iter().map(|ext| path.with_extension(ext)).find(|p| p.is_file()).unwrap_or(path)
}

/// Parses YAML `text` (the file `display`) into a JSON value; a syntax error, or YAML that has
/// no JSON form (a non-string key, a tag), is an `invalid-yaml` diagnostic at its line:column.
pub fn parse_yaml(display: &str, text: &str) -> Result<Value, Box<Diagnostic>> {
    serde_norway::from_str::<Value>(text).map_err(|err| {
        let mut message = err.to_string();
        // The position is shown by the diagnostic itself.
        if let Some(at) = message.find(" at line ") {
            message.truncate(at);
        }
        let diagnostic = Diagnostic::new("invalid-yaml", display, "", format!("invalid YAML: {message}"))
            .with_hint("a YAML schema must have a JSON form: string keys, no tags or anchors to merge, one document");
        Box::new(match err.location() {
            Some(location) => diagnostic.at(location.line(), location.column()),
            None => diagnostic,
        })
    })
}

/// The JSON text of a value read from YAML: pretty, as `serde_json` writes it, with a final
/// newline. It is what the generated code embeds as the schema's source.
pub fn json_text(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_reads_as_json_in_order() {
        let value = parse_yaml("a.yaml", "type: object\nproperties:\n  b: {type: integer, maximum: 3}\n  a: {type: string}\n").unwrap();
        assert_eq!(
            json_text(&value),
            "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"b\": {\n      \"type\": \"integer\",\n      \"maximum\": 3\n    },\n    \"a\": {\n      \"type\": \"string\"\n    }\n  }\n}\n"
        );
    }

    #[test]
    fn a_yaml_syntax_error_has_its_line_and_column() {
        let err = parse_yaml("schemas/a.yaml", "type: object\nproperties:\n  a: [1, 2\n  b: 3\n").unwrap_err();
        assert_eq!((err.code, err.file.as_str()), ("invalid-yaml", "schemas/a.yaml"));
        assert_eq!(err.position, Some((4, 4)), "{err}");
        assert!(err.message.starts_with("invalid YAML: "), "{err}");
        assert!(!err.message.contains(" at line "), "{err}");
    }

    #[test]
    fn syntax_by_extension() {
        assert_eq!(Syntax::of(Path::new("a.yml")), Syntax::Yaml);
        assert_eq!(Syntax::of(Path::new("a.yaml")), Syntax::Yaml);
        assert_eq!(Syntax::of(Path::new("a.json")), Syntax::Json);
        assert_eq!(Syntax::of(Path::new("a")), Syntax::Json);
        assert!(is_schema_file(Path::new("x/a.yml")) && !is_schema_file(Path::new("x/a.md")));
    }
}
