//! The keywords read before the model exists: loading settles each document's draft from
//! `$schema` (and a custom metaschema's `$vocabulary`), and resolving indexes identifiers,
//! anchors and references, which the model's references are then resolved against. These
//! readers work on the JSON as loaded; they keep the keyword names in this module, like the
//! rest of the model.

use serde_json::{Map, Value};

use super::keyword::{Keyword, Step, step};
use crate::draft::Draft;

/// The raw `$schema` of a document or resource.
pub(crate) fn declared_schema(schema: &Map<String, Value>) -> Option<&Value> {
    schema.get(Keyword::Schema.name())
}

/// A metaschema's `$vocabulary`.
pub(crate) fn vocabulary(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get(Keyword::Vocabulary.name()).and_then(Value::as_object)
}

/// The keyword that holds a resource's identifier in `draft` (`id` in draft 4, `$id` later).
pub(crate) fn id_keyword(draft: Draft) -> Keyword {
    if draft == Draft::Draft4 { Keyword::LegacyId } else { Keyword::Id }
}

/// The identifier the schema declares in `draft`; before 2019-09, `$id` beside `$ref` is
/// ignored like every keyword there.
pub(crate) fn id(schema: &Map<String, Value>, draft: Draft) -> Option<&str> {
    if draft <= Draft::Draft7 && schema.contains_key(Keyword::Ref.name()) {
        return None;
    }
    schema.get(id_keyword(draft).name()).and_then(Value::as_str)
}

/// Which identifier keyword (either spelling) holds a string, for pointing at it.
pub(crate) fn id_keyword_present(schema: &Map<String, Value>) -> Option<Keyword> {
    [Keyword::Id, Keyword::LegacyId].into_iter().find(|k| schema.get(k.name()).is_some_and(Value::is_string))
}

/// The value of an anchor keyword (`$anchor`, `$dynamicAnchor`).
pub(crate) fn anchor(schema: &Map<String, Value>, keyword: Keyword) -> Option<&Value> {
    schema.get(keyword.name())
}

/// `"$recursiveAnchor": true`.
pub(crate) fn recursive_anchor(schema: &Map<String, Value>) -> bool {
    schema.get(Keyword::RecursiveAnchor.name()) == Some(&Value::Bool(true))
}

/// The reference keywords with a string value, in table order (`$ref`, `$dynamicRef`,
/// `$recursiveRef`), whatever the draft: the index records every reference written.
pub(crate) fn refs(schema: &Map<String, Value>) -> impl Iterator<Item = (Keyword, &str)> {
    [Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef]
        .into_iter()
        .filter_map(|k| schema.get(k.name()).and_then(Value::as_str).map(|r| (k, r)))
}

/// The direct subschemas of `schema` in schema positions, with the pointer suffix leading to
/// each, in document order. Only objects: a boolean schema holds no `$id`, anchor or ref.
/// Values of `enum`, `const`, `default` and `examples` are data and never visited.
pub(crate) fn subschemas(schema: &Map<String, Value>) -> Vec<(String, &Map<String, Value>)> {
    let mut out = Vec::new();
    for (name, value) in schema {
        let Some(keyword) = Keyword::from_name(name) else { continue };
        match (step(keyword), value) {
            (Step::One, Value::Object(child)) => out.push((format!("/{name}"), child)),
            // `items` before 2020-12, as a list.
            (Step::One, Value::Array(children)) if keyword == Keyword::Items => {
                out.extend(children.iter().enumerate().filter_map(|(i, c)| c.as_object().map(|c| (format!("/{name}/{i}"), c))));
            }
            (Step::Indexed, Value::Array(children)) => {
                out.extend(children.iter().enumerate().filter_map(|(i, c)| c.as_object().map(|c| (format!("/{name}/{i}"), c))));
            }
            (Step::Named, Value::Object(children)) => {
                for (child_name, child) in children {
                    if let Value::Object(child) = child {
                        out.push((format!("/{name}/{}", escape(child_name)), child));
                    }
                }
            }
            (Step::One | Step::Indexed | Step::Named | Step::None, _) => {}
        }
    }
    out
}

/// Escapes a JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subschemas_are_found_in_schema_positions_only() {
        let schema = json!({
            "items": [{"a": 1}, true], "not": {"b": 2}, "properties": {"x/y": {"c": 3}}, "allOf": [{"d": 4}],
            "enum": [{"e": 5}], "const": {"f": 6}, "x-ext": {"g": 7}, "dependencies": {"p": ["q"], "r": {"h": 8}}
        });
        let found: Vec<String> = subschemas(schema.as_object().expect("an object")).into_iter().map(|(p, _)| p).collect();
        assert_eq!(found, ["/items/0", "/not", "/properties/x~1y", "/allOf/0", "/dependencies/r"]);
    }

    #[test]
    fn identifiers_follow_the_draft() {
        let four = json!({"id": "a", "$id": "b"});
        assert_eq!(id(four.as_object().expect("object"), Draft::Draft4), Some("a"));
        assert_eq!(id(four.as_object().expect("object"), Draft::Draft7), Some("b"));
        let beside_ref = json!({"$id": "b", "$ref": "#"});
        assert_eq!(id(beside_ref.as_object().expect("object"), Draft::Draft7), None);
        assert_eq!(id(beside_ref.as_object().expect("object"), Draft::Draft2019_09), Some("b"));
    }
}
