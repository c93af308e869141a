//! Model tests: inline documents → the typed model.

use serde_json::{Value, json};

use super::*;
use crate::doc::{DocId, Document};
use crate::resolve::Registry;

fn document(id: usize, name: &str, json: Value, is_input: bool) -> Document {
    let draft = json.get("$schema").and_then(Value::as_str).and_then(Draft::from_schema_uri).unwrap_or(Draft::Draft2020_12);
    Document {
        id: DocId(id),
        path: format!("/schemas/{name}").into(),
        display: format!("schemas/{name}"),
        text: serde_json::to_string_pretty(&json).unwrap_or_default(),
        sha256: String::new(),
        json,
        draft,
        is_input,
        root_pointer: String::new(),
        aliases: Vec::new(),
    }
}

fn model_of(docs: Vec<Document>) -> (Registry, Model, Vec<Diagnostic>) {
    let registry = Registry::new(docs).expect("the test documents index");
    let (model, diagnostics) = build(&registry);
    (registry, model, diagnostics)
}

fn one(json: Value) -> (Model, Vec<Diagnostic>) {
    let (_, model, diagnostics) = model_of(vec![document(0, "test.json", json, true)]);
    (model, diagnostics)
}

fn at<'m>(model: &'m Model, pointer: &str) -> &'m Schema {
    model.schema_at(&Loc { doc: DocId(0), pointer: pointer.to_owned() }).unwrap_or_else(|| panic!("no schema at {pointer:?}"))
}

#[test]
fn keywords_are_typed() {
    let (model, diagnostics) = one(json!({
        "type": ["string", "null"], "minLength": 2.0, "maxLength": 5, "pattern": "^a", "format": "email",
        "enum": ["ab", null], "title": "T", "deprecated": true, "x-extra": {"kept": 1},
        "properties": {"a": {"minimum": 1.5, "exclusiveMaximum": 10}}, "required": ["a"],
        "additionalProperties": false, "$defs": {"d": {"const": 3}}
    }));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let root = at(&model, "");
    assert_eq!(root.types, Some(KindSet::of(Kind::String).union(KindSet::of(Kind::Null))));
    assert_eq!((root.min_length, root.max_length), (Some(2), Some(5)));
    assert_eq!(root.pattern.as_deref(), Some("^a"));
    assert_eq!(root.enum_values, Some(vec![json!("ab"), Value::Null]));
    assert_eq!(root.required, Some(vec!["a".to_owned()]));
    assert_eq!(root.unknown, vec![("x-extra".to_owned(), json!({"kept": 1}))]);
    let property = root.properties.as_ref().and_then(|p| p.first()).map(|(name, id)| (name.as_str(), model.node(*id)));
    let (name, node) = property.expect("one property");
    assert_eq!(name, "a");
    let a = node.schema().expect("an object schema");
    assert_eq!(a.minimum, serde_json::Number::from_f64(1.5));
    assert_eq!(a.exclusive_maximum, Some(Exclusive::Bound(10.into())));
    let closed = root.additional_properties.map(|id| model.node(id).boolean());
    assert_eq!(closed, Some(Some(false)));
    assert_eq!(at(&model, "/$defs/d").const_value, Some(json!(3)));
    let keywords: Vec<&str> = root.keywords().map(Keyword::name).collect();
    assert!(keywords.contains(&"additionalProperties") && keywords.contains(&"$defs") && !keywords.contains(&"x-extra"));
}

#[test]
fn keywords_of_other_drafts_are_unknown_members() {
    let (model, diagnostics) = one(json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "const": 1, "prefixItems": [], "minimum": 0, "exclusiveMinimum": true
    }));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let root = at(&model, "");
    let unknown: Vec<&str> = root.unknown.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(unknown, ["const", "prefixItems"]);
    assert_eq!(root.exclusive_minimum, Some(Exclusive::Flag(true)));
}

#[test]
fn before_2019_09_only_annotations_stand_beside_a_ref() {
    let (model, diagnostics) = one(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/s", "description": "an a", "minLength": "not checked", "type": "integer"}}
    }));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let a = at(&model, "/properties/a");
    assert_eq!(a.description.as_deref(), Some("an a"));
    assert_eq!((a.types, a.min_length), (None, None));
    let unknown: Vec<&str> = a.unknown.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(unknown, ["minLength", "type"]);
    let target = a.ref_.as_ref().map(|r| r.target().map(|t| t.loc.pointer.clone()));
    assert_eq!(target, Some(Ok("/definitions/s".to_owned())));
}

#[test]
fn references_resolve_where_the_inputs_reach() {
    let main = json!({"properties": {"x": {"$ref": "other.json#/$defs/y"}}, "$defs": {"unused": {"$ref": "missing.json"}}});
    let other = json!({"$defs": {"y": {"type": "string"}, "z": {"$ref": "#/nowhere"}}});
    let (_, model, diagnostics) = model_of(vec![document(0, "main.json", main, true), document(1, "other.json", other, false)]);
    assert!(diagnostics.is_empty(), "an unreached broken ref is no error: {diagnostics:?}");
    let x = at(&model, "/properties/x");
    let target = x.ref_.as_ref().and_then(|r| r.target().ok()).expect("resolved");
    assert_eq!((target.loc.doc, target.loc.pointer.as_str()), (DocId(1), "/$defs/y"));
    assert!(model.node(target.id).reached);
    let unused = at(&model, "/$defs/unused");
    assert!(matches!(unused.ref_.as_ref().map(|r| &r.resolution), Some(Resolution::Unreached)));
}

#[test]
fn a_reached_broken_ref_is_reported_once_with_its_pointer() {
    let (model, diagnostics) = one(json!({"items": {"$ref": "#/$defs/nope"}, "$defs": {"yes": {}}}));
    let found: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code, d.pointer.as_str())).collect();
    assert_eq!(found, [("unresolved-ref", "/items/$ref")]);
    assert!(diagnostics[0].hint.as_deref().is_some_and(|h| h.contains("yes")), "{:?}", diagnostics[0].hint);
    assert!(matches!(at(&model, "/items").ref_.as_ref().map(|r| &r.resolution), Some(Resolution::Failed(_))));
}

#[test]
fn a_ref_outside_the_grammar_is_read_as_a_schema() {
    let (model, diagnostics) = one(json!({"$ref": "#/components/thing", "components": {"thing": {"type": "integer", "minimum": "x"}}}));
    // Not a schema position: read leniently (the bad `minimum` kept as a member), no error.
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let thing = at(&model, "/components/thing");
    assert_eq!(thing.types, Some(KindSet::of(Kind::Integer)));
    assert_eq!(thing.unknown, vec![("minimum".to_owned(), json!("x"))]);
}

#[test]
fn keyword_errors_come_in_document_order_with_hints() {
    let (_, diagnostics) = one(json!({
        "properties": {"a": {"type": "strin"}, "b": {"minItems": -1}},
        "enum": 3,
        "allOf": []
    }));
    let found: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code, d.pointer.as_str())).collect();
    assert_eq!(
        found,
        [
            ("invalid-schema", "/properties/a/type"),
            ("invalid-schema", "/properties/b/minItems"),
            ("invalid-schema", "/enum"),
            ("invalid-schema", "/allOf")
        ]
    );
    assert!(diagnostics.iter().all(|d| d.hint.is_some() && d.position.is_some()));
}

#[test]
fn without_removes_keywords_as_if_never_written() {
    let (model, _) = one(json!({"type": "object", "not": {"required": ["a"]}, "if": true, "properties": {}}));
    let root = at(&model, "");
    let rest = root.without(&[Keyword::Not, Keyword::If]);
    assert!(root.has(Keyword::Not) && !rest.has(Keyword::Not) && !rest.has(Keyword::If));
    assert!(rest.has(Keyword::Type) && rest.has(Keyword::Properties));
    assert!(!rest.is_empty() && Schema::default().is_empty());
}

#[test]
fn type_keeps_its_written_order() {
    let (model, diagnostics) = one(json!({
        "type": ["string", "integer", "null", "number"],
        "properties": { "a": { "type": "boolean" } }
    }));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let root = at(&model, "");
    assert_eq!(root.type_order, Some(vec![Kind::String, Kind::Integer, Kind::Null, Kind::Number]));
    // The set folds `integer` into `number`; the order keeps both.
    assert_eq!(root.types, Some(KindSet::of(Kind::String).union(KindSet::of(Kind::Null)).union(KindSet::of(Kind::Number))));
    assert_eq!(at(&model, "/properties/a").type_order, Some(vec![Kind::Boolean]));
    assert_eq!(root.without(&[Keyword::Type]).type_order, None);
}

#[test]
fn a_location_names_the_keyword_that_holds_it() {
    let (model, diagnostics) = one(json!({
        "properties": { "minimum": { "maximum": 3 }, "b": false },
        "additionalProperties": false,
        "dependentRequired": { "card": ["billing"] },
        "x-extra": { "minimum": 1 }
    }));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let loc = |pointer: &str| Loc { doc: DocId(0), pointer: pointer.to_owned() };
    let root = model.id_at(&loc("")).expect("the root");
    let property = model.id_at(&loc("/properties/minimum")).expect("a property's schema");
    let held = |pointer: &str| model.keyword_at(&loc(pointer)).map(|k| (k.schema, k.keyword, k.whole));
    assert_eq!(held("/properties/minimum/maximum"), Some((property, Keyword::Maximum, true)));
    // A property named like a keyword is a part of `properties`, not `minimum`.
    assert_eq!(held("/properties/minimum"), Some((root, Keyword::Properties, false)));
    assert_eq!(held("/properties/b"), Some((root, Keyword::Properties, false)));
    assert_eq!(held("/additionalProperties"), Some((root, Keyword::AdditionalProperties, true)));
    assert_eq!(held("/dependentRequired/card/0"), Some((root, Keyword::DependentRequired, false)));
    // `x-extra` is no keyword, so nothing inside it belongs to one.
    assert_eq!(held("/x-extra/minimum"), None);
    assert_eq!(held(""), None);
}
