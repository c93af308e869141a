//! Schema file syntaxes: JSON, and YAML for `.yaml`/`.yml` files, which is read into the same
//! JSON value (and re-rendered as JSON text, which the generated code embeds).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diag::Diagnostic;

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
    if let Some((line, column)) = too_deep_flow(text) {
        let message = format!("the YAML is nested deeper than {MAX_FLOW_DEPTH} flow collections (`{{...}}`, `[...]`)");
        let hint = "schemac reads YAML nested at most 127 levels deep, which keeps its time and stack bounded; \
                    move deep parts into `$defs` and refer to them with `$ref`";
        return Err(Box::new(Diagnostic::new("too-deep", display, "", message).at(line, column).with_hint(hint)));
    }
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

/// The deepest flow nesting read, as for JSON (`load.rs`). The YAML parser stops at 128 levels
/// too, but only after scanning the whole document, in time quadratic in the nesting (100,000
/// nested `{a: ...}` took minutes); this check runs first, in linear time.
const MAX_FLOW_DEPTH: usize = 127;

/// The line:column of the first flow collection nested deeper than [`MAX_FLOW_DEPTH`]. Quoted
/// scalars and comments are skipped; a bracket in a plain scalar (`a{2}`) counts, which can
/// only overstate the depth by the brackets left unclosed in such scalars.
fn too_deep_flow(text: &str) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut chars = text.chars().peekable();
    // The character before, for where a quote or comment may start.
    let mut before = '\n';
    while let Some(c) = chars.next() {
        column += 1;
        match c {
            '\n' => (line, column) = (line + 1, 0),
            '#' if before.is_whitespace() => while chars.next_if(|&c| c != '\n').is_some() {},
            '\'' | '"' if before.is_whitespace() || matches!(before, ':' | ',' | '[' | '{' | '-' | '?') => {
                // To the closing quote (`''` inside single quotes, `\"` inside double ones).
                while let Some(inner) = chars.next() {
                    column += 1;
                    match inner {
                        '\n' => (line, column) = (line + 1, 0),
                        '\\' if c == '"' => {
                            chars.next();
                            column += 1;
                        }
                        _ if inner == c => {
                            if c == '\'' && chars.next_if_eq(&'\'').is_some() {
                                column += 1;
                                continue;
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
            '{' | '[' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some((line, column));
                }
            }
            '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        before = c;
    }
    None
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
    fn deep_flow_yaml_is_refused_before_parsing() {
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let err = parse_yaml("deep.yaml", &deep).unwrap_err();
        assert_eq!((err.code, err.position), ("too-deep", Some((1, 128))), "{err}");
        // Brackets in quoted scalars and comments do not count; 127 levels are read.
        let quoted = format!(
            "a: '{}'\nb: \"{}\" # {}\nc: {}1{}\n",
            "[".repeat(200),
            "{\\\"".repeat(200),
            "[".repeat(200),
            "[".repeat(127),
            "]".repeat(127)
        );
        assert!(parse_yaml("ok.yaml", &quoted).is_ok());
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
