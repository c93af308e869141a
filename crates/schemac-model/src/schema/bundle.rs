//! Bundling plans: what turning a subschema into a self-contained schemars schema changes
//! (the references it holds and where they lead, the definitions they target, the nested
//! resources, an older draft's keywords spelled as 2020-12's), decided from the schemas before
//! emission, which only prints the plans (`schemac_runtime::__private::bundle` applies them).

use std::collections::BTreeMap;

use serde_json::Value;

use super::scan::subschemas;
use crate::doc::Loc;
use crate::draft::Draft;
use crate::resolve::Registry;

/// What bundling a subschema changes, found by walking its schema positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub sites: Vec<Site>,
    /// `$defs`/`definitions` entries that references target (relative pointers).
    pub moved: Vec<String>,
    /// Schema objects declaring `$id` or `$schema`, below the top (relative pointers).
    pub resources: Vec<String>,
    /// The rewrites of an older draft's keywords to their 2020-12 spelling, in the order the
    /// runtime applies them (see [`Edit`]).
    pub edits: Vec<Edit>,
}

/// One rewrite that makes a subschema of an older draft mean the same under 2020-12, which
/// schemars declares: array `items` → `prefixItems` (and `additionalItems` → `items`),
/// `dependencies` → `dependentRequired`/`dependentSchemas`, draft 4's boolean
/// `exclusiveMinimum`/`Maximum` → numbers and `id` → `$id` (the top one; nested ones go, as
/// they would move the base URI of the bundled references).
///
/// Decided here and emitted as data (`schemac_runtime::__private::bundle::Edit`); the runtime applies
/// them after placing the references, children before their parents, so that each pointer
/// (relative to the subschema, as written) still leads where it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// The keyword `from` of the object at `at` becomes `to`.
    Rename { at: String, from: &'static str, to: &'static str },
    /// The keyword `key` of the object at `at` goes.
    Remove { at: String, key: &'static str },
    /// The map `from` of the object at `at` goes; each entry moves to the map named beside it
    /// (made if absent), in this order.
    Split { at: String, from: &'static str, into: Vec<(String, &'static str)> },
}

/// A reference: where it is (relative to the subschema) and where it leads.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    pub holder: String,
    pub keyword: &'static str,
    pub alone: bool,
    pub target: Loc,
}

/// What bundling the subschema at `loc` changes: its references, the definitions they
/// target (moved out) and the nested resources (their `$id`/`$schema` dropped).
pub fn plan(registry: &Registry, loc: &Loc) -> Plan {
    let mut plan = Plan::default();
    let mut entries: BTreeMap<String, Loc> = BTreeMap::new();
    if let Some(Value::Object(map)) = registry.get(loc) {
        walk(registry, loc, "", map, &mut plan, &mut entries);
    }
    // An entry moves to the generator's definitions when something refers to it; what lies
    // inside it is bundled with it, so its references are not this subschema's.
    plan.moved = entries.iter().filter(|(_, at)| plan.sites.iter().any(|s| &s.target == *at)).map(|(rel, _)| rel.clone()).collect();
    let inside = |pointer: &str, moved: &[String]| moved.iter().any(|m| pointer == m || pointer.starts_with(&format!("{m}/")));
    let moved = plan.moved.clone();
    plan.sites.retain(|s| !inside(&s.holder, &moved));
    plan.resources.retain(|r| !inside(r, &moved));
    let draft = registry.draft_at(loc);
    if draft < Draft::Draft2020_12
        && let Some(schema) = registry.get(loc)
    {
        // Moved entries are gone, and a lone reference's holder is replaced by its target,
        // before the runtime applies the edits: nothing there to rewrite.
        let alone: Vec<&str> = plan.sites.iter().filter(|s| s.alone).map(|s| s.holder.as_str()).collect();
        let skip = |rel: &str| inside(rel, &moved) || alone.contains(&rel);
        upgrade(draft, schema, "", true, &skip, &mut plan.edits);
    }
    plan
}

/// Keywords whose value is one schema, after [`upgrade`] has renamed the old ones.
const UPGRADED_SCHEMA_KEYWORDS: &[&str] = &[
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
/// Keywords whose value is an array of schemas, after [`upgrade`].
const UPGRADED_ARRAY_KEYWORDS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf"];
/// Keywords whose value maps names to schemas, after [`upgrade`].
const UPGRADED_MAP_KEYWORDS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Appends the [`Edit`]s that rewrite `schema` (at `rel` in the subschema; `top` for the
/// subschema itself) and the subschemas it holds from `draft` to 2020-12: those of its
/// subschemas first, then its own, in the order the keywords are rewritten.
fn upgrade(draft: Draft, schema: &Value, rel: &str, top: bool, skip: &dyn Fn(&str) -> bool, out: &mut Vec<Edit>) {
    let Value::Object(object) = schema else { return };
    if skip(rel) {
        return;
    }
    let at = || rel.to_owned();
    let mut own = Vec::new();
    // The schemas inside, with their pointers as written, that are still schemas once
    // rewritten; their edits come first.
    let mut children: Vec<(String, &Value)> = Vec::new();
    let array_items = matches!(object.get("items"), Some(Value::Array(_)));
    if array_items {
        own.push(Edit::Rename { at: at(), from: "items", to: "prefixItems" });
        if object.contains_key("additionalItems") {
            own.push(Edit::Rename { at: at(), from: "additionalItems", to: "items" });
        }
    } else if object.contains_key("additionalItems") {
        // Without an array `items`, `additionalItems` has no effect.
        own.push(Edit::Remove { at: at(), key: "additionalItems" });
    }
    let split = draft <= Draft::Draft7 && object.contains_key("dependencies");
    if split {
        match object.get("dependencies") {
            Some(Value::Object(dependencies)) => {
                let mut into = Vec::new();
                for (name, dependency) in dependencies {
                    if dependency.is_array() {
                        into.push((name.clone(), "dependentRequired"));
                    } else {
                        into.push((name.clone(), "dependentSchemas"));
                        children.push((format!("{rel}/dependencies/{}", escape(name)), dependency));
                    }
                }
                own.push(Edit::Split { at: at(), from: "dependencies", into });
            }
            _ => own.push(Edit::Remove { at: at(), key: "dependencies" }),
        }
    }
    if draft == Draft::Draft4 {
        for (bound, exclusive) in [("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")] {
            if let Some(Value::Bool(is_exclusive)) = object.get(exclusive) {
                own.push(Edit::Remove { at: at(), key: exclusive });
                if *is_exclusive && object.contains_key(bound) {
                    own.push(Edit::Rename { at: at(), from: bound, to: exclusive });
                }
            }
        }
        match object.get("id") {
            Some(Value::String(_)) if top => own.push(Edit::Rename { at: at(), from: "id", to: "$id" }),
            Some(_) => own.push(Edit::Remove { at: at(), key: "id" }),
            None => {}
        }
    }
    for (keyword, value) in object {
        let rewritten = match keyword.as_str() {
            "items" if array_items => "prefixItems",
            "additionalItems" if array_items => "items",
            // Removed, moved above, or overwritten by the renamed `items`.
            "additionalItems" => continue,
            "dependencies" if split => continue,
            "prefixItems" if array_items => continue,
            other => other,
        };
        let pointer = format!("{rel}/{}", escape(keyword));
        match value {
            Value::Object(_) if UPGRADED_SCHEMA_KEYWORDS.contains(&rewritten) => children.push((pointer, value)),
            Value::Array(list) if UPGRADED_ARRAY_KEYWORDS.contains(&rewritten) => {
                children.extend(list.iter().enumerate().map(|(i, item)| (format!("{pointer}/{i}"), item)));
            }
            Value::Object(map) if UPGRADED_MAP_KEYWORDS.contains(&rewritten) => {
                children.extend(map.iter().map(|(name, item)| (format!("{pointer}/{}", escape(name)), item)));
            }
            _ => {}
        }
    }
    for (pointer, child) in children {
        upgrade(draft, child, &pointer, false, skip, out);
    }
    out.extend(own);
}

/// A JSON pointer token for `name`.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn walk(
    registry: &Registry,
    loc: &Loc,
    rel: &str,
    map: &serde_json::Map<String, Value>,
    plan: &mut Plan,
    entries: &mut BTreeMap<String, Loc>,
) {
    let draft = registry.draft_at(loc);
    let keywords: &[&'static str] = match draft {
        Draft::Draft2020_12 => &["$ref", "$dynamicRef"],
        Draft::Draft2019_09 => &["$ref", "$recursiveRef"],
        _ => &["$ref"],
    };
    // Before 2019-09 the keywords beside `$ref` are ignored, so nothing below them counts.
    let alone = draft <= Draft::Draft7 && map.get("$ref").is_some_and(Value::is_string);
    for &keyword in keywords {
        let Some(reference) = map.get(keyword).and_then(Value::as_str) else { continue };
        // An unresolvable ref has been reported by the lowering; it stays as written.
        if let Ok(target) = registry.resolve(loc, reference) {
            plan.sites.push(Site { holder: rel.to_owned(), keyword, alone: alone && map.len() > 1, target });
        }
    }
    if alone {
        return;
    }
    if !rel.is_empty() && (map.get("$id").is_some_and(Value::is_string) || map.contains_key("$schema")) {
        plan.resources.push(rel.to_owned());
    }
    for (suffix, child) in subschemas(map) {
        let child_rel = format!("{rel}{suffix}");
        let child_loc = Loc { doc: loc.doc, pointer: format!("{}{suffix}", loc.pointer) };
        if (suffix.starts_with("/$defs/") || suffix.starts_with("/definitions/")) && suffix.matches('/').count() == 2 {
            entries.insert(child_rel.clone(), child_loc.clone());
        }
        walk(registry, &child_loc, &child_rel, child, plan, entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `schema` of `draft` with its upgrade edits applied by the runtime, as generated code
    /// applies them (`skip` as for a lone reference's holder).
    fn upgraded(draft: Draft, schema: Value, skip: &[&str]) -> Value {
        use schemac_runtime::__private::bundle;
        let mut edits = Vec::new();
        upgrade(draft, &schema, "", true, &|rel| skip.contains(&rel), &mut edits);
        let leak = |s: &str| -> &'static str { String::from(s).leak() };
        let edits: Vec<bundle::Edit> = edits
            .iter()
            .map(|edit| match edit {
                Edit::Rename { at, from, to } => bundle::Edit::Rename { at: leak(at), from, to },
                Edit::Remove { at, key } => bundle::Edit::Remove { at: leak(at), key },
                Edit::Split { at, from, into } => {
                    let into: Vec<(&'static str, &'static str)> = into.iter().map(|(name, to)| (leak(name), *to)).collect();
                    bundle::Edit::Split { at: leak(at), from, into: into.leak() }
                }
            })
            .collect();
        let subschema = bundle::Subschema { document: &schema, pointer: "", refs: &[], moved: &[], resources: &[], edits: &edits };
        let mut value = subschema.json_schema(&mut schemac_runtime::schemars::SchemaGenerator::default()).to_value();
        value.as_object_mut().map(|object| object.remove("$schema"));
        value
    }

    #[test]
    fn upgrades_old_keywords() {
        let schema = serde_json::json!({
            "id": "urn:x",
            "properties": {
                "pair": {"items": [{"type": "string"}], "additionalItems": false},
                "list": {"items": {"type": "string"}, "additionalItems": false},
                "n": {"minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": false, "id": "nested"}
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}
        });
        assert_eq!(
            upgraded(Draft::Draft4, schema, &[]),
            serde_json::json!({
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

    /// Children are rewritten before their parents move them: inside an array `items`, its
    /// `additionalItems`, a moved `dependencies` entry and `definitions`; not inside what
    /// stops being a schema, nor inside a lone reference's holder.
    #[test]
    fn upgrades_nested_schemas_before_their_parents() {
        let nested = || serde_json::json!({"items": [true], "additionalItems": {"items": [false]}});
        let schema = serde_json::json!({
            "items": [nested()],
            "additionalItems": nested(),
            "dependencies": {"a": nested(), "b": ["c"]},
            "definitions": {"d": nested()},
            "const": nested(),
            "properties": {"alone": {"$ref": "#/definitions/d", "items": [true]}}
        });
        let done = serde_json::json!({"prefixItems": [true], "items": {"prefixItems": [false]}});
        assert_eq!(
            upgraded(Draft::Draft7, schema, &["/properties/alone"]),
            serde_json::json!({
                "prefixItems": [done],
                "items": done,
                "dependentSchemas": {"a": done},
                "dependentRequired": {"b": ["c"]},
                "definitions": {"d": done},
                "const": nested(),
                "properties": {"alone": {"$ref": "#/definitions/d", "items": [true]}}
            })
        );
        // 2019-09 has `dependentSchemas`; its `dependencies` is not a keyword to rewrite.
        let schema = serde_json::json!({"dependencies": {"a": nested()}, "items": [nested()]});
        let upgraded_2019 = upgraded(Draft::Draft2019_09, schema, &[]);
        assert_eq!(upgraded_2019, serde_json::json!({"dependencies": {"a": nested()}, "prefixItems": [done]}));
    }
}
