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

/// One rewrite of an older draft's keyword to its 2020-12 spelling (schemars declares
/// 2020-12), decided when the code was generated: array `items` → `prefixItems`,
/// `dependencies` → `dependentRequired`/`dependentSchemas`, draft 4's boolean
/// `exclusiveMinimum`/`Maximum` → numbers, `id` → `$id`. Each `at` is a JSON pointer, relative
/// to the subschema as written, of the schema object it changes.
#[derive(Clone, Copy, Debug)]
pub enum Edit {
    /// The keyword `from` becomes `to`.
    Rename { at: &'static str, from: &'static str, to: &'static str },
    /// The keyword `key` goes.
    Remove { at: &'static str, key: &'static str },
    /// The map `from` goes; each of its entries named in `into` moves to the map named beside
    /// it (made if absent), in that order.
    Split { at: &'static str, from: &'static str, into: &'static [(&'static str, &'static str)] },
}

/// A source subschema and what bundling changes in it.
#[derive(Clone, Copy, Debug)]
pub struct Subschema<'a> {
    /// The whole source document.
    pub document: &'a Value,
    /// JSON pointer of the subschema in `document` (`""` for the document root).
    pub pointer: &'a str,
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
    /// For a subschema of an older draft, the rewrites that make it mean the same in 2020-12
    /// terms, children before their parents (so each pointer still leads where it did).
    pub edits: &'a [Edit],
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
    /// A subschema of an older draft is rewritten to the same constraints in 2020-12 terms by
    /// its [`Edit`]s; before 2019-09, keywords beside `$ref` are dropped.
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
        for edit in self.edits {
            apply(&mut schema, edit);
        }
        if !is_root && let Value::Object(object) = &mut schema {
            object.remove("$id");
            object.remove("$schema");
        }
        Schema::try_from(schema).unwrap_or_else(|_| Schema::from(false))
    }
}

/// Applies `edit` to `schema`; an edit whose object is not there (it was inside a reference
/// replaced by its target) changes nothing.
fn apply(schema: &mut Value, edit: &Edit) {
    let at = match edit {
        Edit::Rename { at, .. } | Edit::Remove { at, .. } | Edit::Split { at, .. } => at,
    };
    let Some(Value::Object(object)) = schema.pointer_mut(at) else { return };
    match *edit {
        Edit::Rename { from, to, .. } => {
            if let Some(value) = object.remove(from) {
                object.insert(to.to_owned(), value);
            }
        }
        Edit::Remove { key, .. } => {
            object.remove(key);
        }
        Edit::Split { from, into, .. } => {
            let Some(Value::Object(mut entries)) = object.remove(from) else { return };
            for &(name, to) in into {
                if let Some(entry) = entries.remove(name)
                    && let Value::Object(map) = object.entry(to).or_insert_with(|| Value::Object(Map::new()))
                {
                    map.insert(name.to_owned(), entry);
                }
            }
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
            Subschema { document: &DOCUMENT, pointer: "", refs: &refs, moved: &["/$defs/item"], resources: &[], edits: &[] }
                .json_schema(generator)
        }
    }

    impl JsonSchema for Item {
        fn schema_name() -> Cow<'static, str> {
            "item".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let refs = [Ref { holder: "/properties/next", keyword: "$ref", alone: false, target: |g| g.subschema_for::<Item>() }];
            Subschema { document: &DOCUMENT, pointer: "/$defs/item", refs: &refs, moved: &[], resources: &[], edits: &[] }
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
    fn applies_edits() {
        let mut schema = json!({
            "id": "urn:x",
            "properties": {"pair": {"items": [{"type": "string"}], "additionalItems": false}, "n": {"minimum": 0, "exclusiveMinimum": true}},
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
            "dependentSchemas": true
        });
        let edits = [
            Edit::Rename { at: "/properties/pair", from: "items", to: "prefixItems" },
            Edit::Rename { at: "/properties/pair", from: "additionalItems", to: "items" },
            Edit::Remove { at: "/properties/n", key: "exclusiveMinimum" },
            Edit::Rename { at: "/properties/n", from: "minimum", to: "exclusiveMinimum" },
            // Not there: nothing changes.
            Edit::Remove { at: "/properties/gone", key: "id" },
            Edit::Rename { at: "", from: "absent", to: "present" },
            Edit::Split { at: "", from: "dependencies", into: &[("a", "dependentRequired"), ("c", "dependentSchemas")] },
            Edit::Rename { at: "", from: "id", to: "$id" },
        ];
        for edit in &edits {
            apply(&mut schema, edit);
        }
        assert_eq!(
            schema,
            json!({
                "$id": "urn:x",
                "properties": {"pair": {"prefixItems": [{"type": "string"}], "items": false}, "n": {"exclusiveMinimum": 0}},
                "dependentRequired": {"a": ["b"]},
                // An entry cannot join a `dependentSchemas` that is not a map: it goes.
                "dependentSchemas": true
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
