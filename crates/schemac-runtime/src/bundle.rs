//! `schemars::JsonSchema` for generated types: a type's schema is its source (sub)schema as
//! written, with every reference pointed at the generator's definitions (`$defs`), where the
//! target is bundled in turn. Nothing is re-derived from the Rust type.
//!
//! schemac resolves the references when it generates the code (base URIs, anchors, other
//! files), so at run time a reference is only a place in the subschema and a function that
//! registers its target with the [`SchemaGenerator`]: `generator.subschema_for::<Target>()`.
//! schemars then names the definitions, keeps them unique and handles recursion.

use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

/// A reference in a subschema, resolved when the code was generated.
#[derive(Clone, Copy, Debug)]
pub struct Ref {
    /// JSON pointer, relative to the subschema, of the schema object that holds the reference.
    pub holder: &'static str,
    /// The keyword that holds it: `$ref`, or `$dynamicRef`/`$recursiveRef`, which schemac
    /// resolves statically like `$ref` (as its generated types do).
    pub keyword: &'static str,
    /// Before draft 2019-09 the keywords beside `$ref` are ignored; they are dropped, so the
    /// bundled schema means the same under the generator's newer draft.
    pub alone: bool,
    /// Registers the target with the generator and returns the schema that refers to it.
    pub target: fn(&mut SchemaGenerator) -> Schema,
}

/// The draft of a source schema. schemars declares 2020-12 (by default), so the keywords of
/// older drafts are rewritten to their 2020-12 spelling (see [`Subschema::json_schema`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft2019_09,
    Draft2020_12,
}

/// A source subschema and what bundling changes in it.
#[derive(Clone, Copy, Debug)]
pub struct Subschema<'a> {
    /// The whole source document.
    pub document: &'a Value,
    /// JSON pointer of the subschema in `document` (`""` for the document root).
    pub pointer: &'a str,
    /// The draft the subschema is written in.
    pub draft: Draft,
    /// Every reference in the subschema, outside `moved`.
    pub refs: &'a [Ref],
    /// `$defs`/`definitions` entries (pointers relative to the subschema) that references
    /// target: they move to the generator's definitions, so they are removed here rather than
    /// appear twice.
    pub moved: &'a [&'a str],
    /// Schema objects inside the subschema (relative pointers) that declare `$id` or
    /// `$schema`: a base URI change would send the rewritten `#/$defs/...` references to the
    /// wrong place, so those keywords are removed.
    pub resources: &'a [&'a str],
}

impl Subschema<'_> {
    /// The subschema with its references bundled into `generator`'s definitions.
    ///
    /// The subschema's own `$id` and `$schema` are kept only when it becomes the root of the
    /// output (`schema_for!`), where they still name the document: `root_schema_for` calls the
    /// root's `json_schema` before any definition exists, while `subschema_for` registers a
    /// placeholder definition first. Nested in another schema, an `$id` would change the base
    /// URI of the references inside.
    ///
    /// A subschema of an older draft is rewritten to the same constraints in 2020-12 terms:
    /// array `items` → `prefixItems` (and `additionalItems` → `items`), `dependencies` →
    /// `dependentRequired`/`dependentSchemas`, draft 4's boolean `exclusiveMinimum`/`Maximum`
    /// → numbers and `id` → `$id`; before 2019-09, keywords beside `$ref` are dropped.
    pub fn json_schema(&self, generator: &mut SchemaGenerator) -> Schema {
        let is_root = generator.definitions().is_empty();
        // Absent only in a hand-edited generated file (which the drift check rejects): then
        // the schema accepts nothing rather than everything.
        let mut schema = self.document.pointer(self.pointer).cloned().unwrap_or(Value::Bool(false));
        for pointer in self.moved {
            remove_entry(&mut schema, pointer);
        }
        for pointer in self.resources {
            if let Some(Value::Object(object)) = schema.pointer_mut(pointer) {
                object.remove("$id");
                object.remove("$schema");
            }
        }
        // References first: their places are pointers into the source as written.
        for reference in self.refs {
            let target = (reference.target)(generator);
            if let Some(holder) = schema.pointer_mut(reference.holder) {
                place(holder, reference, target.to_value());
            }
        }
        if self.draft < Draft::Draft2020_12 {
            upgrade(&mut schema, self.draft, true);
        }
        if !is_root && let Value::Object(object) = &mut schema {
            object.remove("$id");
            object.remove("$schema");
        }
        Schema::try_from(schema).unwrap_or_else(|_| Schema::from(false))
    }
}

/// Keywords whose value is one schema, after [`upgrade`] has renamed the old ones.
const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is an array of schemas.
const ARRAY_KEYWORDS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf"];
/// Keywords whose value maps names to schemas.
const MAP_KEYWORDS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Rewrites the keywords of `draft` that 2020-12 spells differently, in `schema` and every
/// subschema. References are already bundled (2020-12 schemas), which this leaves as they are.
fn upgrade(schema: &mut Value, draft: Draft, top: bool) {
    let Value::Object(object) = schema else { return };
    if matches!(object.get("items"), Some(Value::Array(_))) {
        if let Some(prefix) = object.remove("items") {
            object.insert("prefixItems".to_owned(), prefix);
        }
        if let Some(rest) = object.remove("additionalItems") {
            object.insert("items".to_owned(), rest);
        }
    } else {
        // Without an array `items`, `additionalItems` has no effect.
        object.remove("additionalItems");
    }
    if draft <= Draft::Draft7
        && let Some(Value::Object(dependencies)) = object.remove("dependencies")
    {
        for (name, dependency) in dependencies {
            let keyword = if dependency.is_array() { "dependentRequired" } else { "dependentSchemas" };
            if let Value::Object(map) = object.entry(keyword).or_insert_with(|| Value::Object(Map::new())) {
                map.insert(name, dependency);
            }
        }
    }
    if draft == Draft::Draft4 {
        for (bound, exclusive) in [("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")] {
            if let Some(Value::Bool(is_exclusive)) = object.get(exclusive) {
                let is_exclusive = *is_exclusive;
                object.remove(exclusive);
                if is_exclusive && let Some(limit) = object.remove(bound) {
                    object.insert(exclusive.to_owned(), limit);
                }
            }
        }
        // Only the top `id` names the schema; nested ones would move the base URI of the
        // bundled references (as for `$id` in `resources`).
        if let Some(Value::String(id)) = object.remove("id")
            && top
        {
            object.insert("$id".to_owned(), Value::String(id));
        }
    }
    for (keyword, value) in object.iter_mut() {
        let keyword = keyword.as_str();
        match value {
            Value::Object(_) if SCHEMA_KEYWORDS.contains(&keyword) => upgrade(value, draft, false),
            Value::Array(list) if ARRAY_KEYWORDS.contains(&keyword) => list.iter_mut().for_each(|v| upgrade(v, draft, false)),
            Value::Object(map) if MAP_KEYWORDS.contains(&keyword) => map.values_mut().for_each(|v| upgrade(v, draft, false)),
            _ => {}
        }
    }
}

/// Replaces the reference in `holder` by `target` (normally `{"$ref": "#/$defs/Name"}`).
fn place(holder: &mut Value, reference: &Ref, target: Value) {
    let Value::Object(object) = holder else { return };
    object.remove(reference.keyword);
    if reference.alone {
        object.clear();
    }
    if object.is_empty() {
        *holder = target;
        return;
    }
    match target {
        Value::Object(mut target) if target.len() == 1 && !object.contains_key("$ref") => {
            if let Some(link) = target.remove("$ref") {
                object.insert("$ref".to_owned(), link);
            } else {
                all_of(object, Value::Object(target));
            }
        }
        target => all_of(object, target),
    }
}

/// Adds `schema` to the `allOf` of `object`: it must hold as well as the keywords beside it.
fn all_of(object: &mut Map<String, Value>, schema: Value) {
    match object.get_mut("allOf") {
        Some(Value::Array(list)) => list.push(schema),
        // schemac rejects a schema whose `allOf` is not an array before generating code.
        Some(_) => {}
        None => {
            object.insert("allOf".to_owned(), Value::Array(vec![schema]));
        }
    }
}

/// Removes the entry at `pointer` (e.g. `/$defs/a`), and its map when that becomes empty.
fn remove_entry(schema: &mut Value, pointer: &str) {
    let Some((parent, token)) = pointer.rsplit_once('/') else { return };
    let token = token.replace("~1", "/").replace("~0", "~");
    let Some(Value::Object(map)) = schema.pointer_mut(parent) else { return };
    map.remove(&token);
    if !map.is_empty() {
        return;
    }
    if let Some((grandparent, key)) = parent.rsplit_once('/')
        && let Some(Value::Object(owner)) = schema.pointer_mut(grandparent)
    {
        owner.remove(&key.replace("~1", "/").replace("~0", "~"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;
    use serde_json::json;
    use std::borrow::Cow;
    use std::sync::LazyLock;

    static DOCUMENT: LazyLock<Value> = LazyLock::new(|| {
        json!({
            "$id": "urn:example:list",
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
            "$defs": {"item": {"type": "object", "properties": {"next": {"$ref": "#/$defs/item"}}, "required": ["next"]}}
        })
    });

    struct List;
    struct Item;

    impl JsonSchema for List {
        fn schema_name() -> Cow<'static, str> {
            "List".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let refs = [Ref { holder: "/properties/items/items", keyword: "$ref", alone: false, target: |g| g.subschema_for::<Item>() }];
            Subschema { document: &DOCUMENT, pointer: "", draft: Draft::Draft2020_12, refs: &refs, moved: &["/$defs/item"], resources: &[] }
                .json_schema(generator)
        }
    }

    impl JsonSchema for Item {
        fn schema_name() -> Cow<'static, str> {
            "item".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let refs = [Ref { holder: "/properties/next", keyword: "$ref", alone: false, target: |g| g.subschema_for::<Item>() }];
            Subschema { document: &DOCUMENT, pointer: "/$defs/item", draft: Draft::Draft2020_12, refs: &refs, moved: &[], resources: &[] }
                .json_schema(generator)
        }
    }

    #[test]
    fn the_root_is_the_source_with_its_refs_bundled() {
        let mut expected = DOCUMENT.clone();
        expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        expected["title"] = json!("List");
        assert_eq!(schemars::schema_for!(List).to_value(), expected);
    }

    #[test]
    fn a_nested_root_drops_its_id_and_a_recursive_ref_points_at_the_definitions() {
        let schema = schemars::schema_for!(Item).to_value();
        assert_eq!(schema["properties"]["next"], json!({"$ref": "#"}));
        let mut generator = SchemaGenerator::default();
        assert_eq!(generator.subschema_for::<List>().to_value(), json!({"$ref": "#/$defs/List"}));
        let definitions = generator.definitions();
        assert!(definitions["List"].get("$id").is_none(), "{definitions:?}");
        assert_eq!(definitions["item"]["properties"]["next"], json!({"$ref": "#/$defs/item"}));
    }

    #[test]
    fn places_targets_beside_other_keywords() {
        let target = json!({"$ref": "#/$defs/t"});
        let check = |holder: Value, alone: bool, keyword: &'static str, expected: Value| {
            let mut holder = holder;
            let reference = Ref { holder: "", keyword, alone, target: |_| Schema::from(true) };
            place(&mut holder, &reference, target.clone());
            assert_eq!(holder, expected);
        };
        check(json!({"$ref": "x"}), false, "$ref", json!({"$ref": "#/$defs/t"}));
        check(json!({"$ref": "x", "type": "string"}), false, "$ref", json!({"$ref": "#/$defs/t", "type": "string"}));
        check(json!({"$ref": "x", "type": "string"}), true, "$ref", json!({"$ref": "#/$defs/t"}));
        check(
            json!({"$ref": "#/$defs/t", "$dynamicRef": "x"}),
            false,
            "$dynamicRef",
            json!({"$ref": "#/$defs/t", "allOf": [{"$ref": "#/$defs/t"}]}),
        );
    }

    #[test]
    fn upgrades_old_keywords() {
        let mut schema = json!({
            "id": "urn:x",
            "properties": {
                "pair": {"items": [{"type": "string"}], "additionalItems": false},
                "list": {"items": {"type": "string"}, "additionalItems": false},
                "n": {"minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": false, "id": "nested"}
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}
        });
        upgrade(&mut schema, Draft::Draft4, true);
        assert_eq!(
            schema,
            json!({
                "$id": "urn:x",
                "properties": {
                    "pair": {"prefixItems": [{"type": "string"}], "items": false},
                    "list": {"items": {"type": "string"}},
                    "n": {"exclusiveMinimum": 0, "maximum": 1}
                },
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"c": {"required": ["d"]}}
            })
        );
    }

    #[test]
    fn removes_moved_entries_and_empty_maps() {
        let mut schema = json!({"definitions": {"a/b": {}, "c": {}}, "$defs": {"d": {}}});
        remove_entry(&mut schema, "/definitions/a~1b");
        remove_entry(&mut schema, "/$defs/d");
        assert_eq!(schema, json!({"definitions": {"c": {}}}));
    }
}
