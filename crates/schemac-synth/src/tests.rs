//! Tests of the synthesizer itself: small schemas in, and checks that the valid set covers
//! every property, enum value, branch and boundary, that every mutant violates exactly its
//! labelled keyword at its pointer (by the referee, `jsonschema`), that what cannot be reached is
//! proven so, that output is deterministic, that pattern strings match; and that the referee
//! names each failure as the types report it, resolves references to other files offline, and
//! that the walk reaches what jsonschema's own output does not say.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use schemac::{Config, Input, SchemaSource};
use schemac_model::resolve::Loc;
use schemac_model::schema::Keyword;
use serde_json::{Value, json};

use super::referee::{Label, Referee};
use super::rng::Rng;
use super::walk::Schemas;
use super::{ASSERTIONS, SynthConfig, Synthesis, strings, synthesize};

// ---------------------------------------------------------------------------------------------
// Helpers

/// The front end over `schema` alone, read from a file of its own as `schemac::front` reads
/// every schema (2020-12 without `$schema`).
pub(crate) fn front(schema: Value) -> schemac::Front {
    documents(&[("test.json", schema)])
}

/// The front end over files of these names and contents in a directory of their own, the
/// first of them the input.
fn documents(files: &[(&str, Value)]) -> schemac::Front {
    static DIRS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("schemac-synth-tests-{}-{}", std::process::id(), DIRS.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    for (name, schema) in files {
        let path = dir.join(name);
        std::fs::write(&path, schema.to_string()).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    let source = SchemaSource::new(dir.join(files[0].0)).display(format!("schemas/{}", files[0].0)).module(["test"]).root_name("Root");
    let front = schemac::front(&Input::new([source]), &Config::default());
    let _ = std::fs::remove_dir_all(&dir);
    front.unwrap_or_else(|d| panic!("front end: {d}"))
}

/// The root of the one input schema.
fn root(front: &schemac::Front) -> Loc {
    Loc { doc: front.registry.docs[0].id, pointer: String::new() }
}

fn synth_with(schema: Value, config: &SynthConfig) -> (schemac::Front, Synthesis) {
    let front = front(schema);
    let synthesis = synthesize(&front, &root(&front), config).unwrap_or_else(|d| panic!("synthesis: {d}"));
    (front, synthesis)
}

/// The referee over the front end's documents.
pub(crate) fn referee(front: &schemac::Front) -> Referee {
    Referee::new(front).unwrap_or_else(|d| panic!("referee: {d}"))
}

/// Synthesizes for `schema` and checks what must hold for every schema: each valid instance
/// passes the referee, and each mutant fails exactly its labelled keyword at its pointer.
#[track_caller]
fn synth(schema: Value) -> Synthesis {
    let (front, synthesis) = synth_with(schema, &SynthConfig::default());
    let referee = referee(&front);
    let schemas = Schemas::new(&front, &referee);
    let root = root(&front);
    assert!(!synthesis.valid.is_empty(), "no valid instance");
    for sample in &synthesis.valid {
        let failures = schemas.failures(&root, &sample.value);
        assert!(failures.is_empty(), "valid `{}` {} fails {failures:?}", sample.note, sample.value);
    }
    for mutant in &synthesis.invalid {
        let failures = schemas.failures(&root, &mutant.instance);
        assert!(!failures.is_empty(), "mutant {mutant:?} is valid");
        for failure in &failures {
            assert_eq!(
                (&failure.keyword.to_string(), &failure.pointer),
                (&mutant.keyword, &mutant.pointer),
                "mutant {mutant:?} also fails {failure:?}"
            );
        }
        assert!(failures.iter().any(|f| f.schema.pointer == mutant.schema_path), "mutant {mutant:?} fails elsewhere: {failures:?}");
        let labelled = Keyword::from_name(&mutant.keyword).map(Label::Keyword);
        assert!(
            mutant.keyword == Label::False.to_string() || labelled.is_some_and(|l| ASSERTIONS.iter().any(|k| Label::Keyword(*k) == l)),
            "label {}",
            mutant.keyword
        );
        assert!(mutant.schema_path.ends_with(&format!("/{}", mutant.keyword)) || mutant.keyword == "false", "{mutant:?}");
        if let Some(via) = &mutant.via {
            // The inner keyword sits inside `contains`/`propertyNames` of the labelled schema.
            let parent = mutant.schema_path.rsplit_once('/').map_or("", |(p, _)| p);
            assert!(via.starts_with(&format!("{parent}/contains/")) || via.starts_with(&format!("{parent}/propertyNames/")), "{mutant:?}");
        }
    }
    synthesis
}

/// The `(keyword, schema path)` of every mutant, with the inner keyword for those made through
/// `contains`/`propertyNames`.
fn labels(synthesis: &Synthesis) -> BTreeSet<String> {
    synthesis
        .invalid
        .iter()
        .map(|m| match &m.via {
            Some(via) => format!("{} {} via {via}", m.keyword, m.schema_path),
            None => format!("{} {}", m.keyword, m.schema_path),
        })
        .collect()
}

fn values(synthesis: &Synthesis) -> Vec<&Value> {
    synthesis.valid.iter().map(|s| &s.value).collect()
}

#[track_caller]
fn assert_labels(synthesis: &Synthesis, expected: &[&str]) {
    let got = labels(synthesis);
    for label in expected {
        assert!(got.contains(*label), "no mutant `{label}`; got {got:#?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Coverage, table-driven

/// Each case: a schema, and the mutant labels it must have. Every case must be covered
/// completely (no uncovered and no unreachable lines).
#[test]
fn small_schemas_are_covered_completely() {
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        (
            "object with required, enum, bounds",
            json!({
                "type": "object",
                "required": ["id"],
                "properties": {
                    "id": { "type": "string", "minLength": 1 },
                    "kind": { "enum": ["a", "b", 3] },
                    "n": { "type": "integer", "minimum": 0, "maximum": 9 }
                }
            }),
            vec![
                "type /type",
                "required /required",
                "minLength /properties/id/minLength",
                "enum /properties/kind/enum",
                "minimum /properties/n/minimum",
                "maximum /properties/n/maximum",
            ],
        ),
        (
            "maxItems beside uniqueItems",
            json!({ "type": "array", "items": { "type": "integer" }, "minItems": 1, "maxItems": 3, "uniqueItems": true }),
            vec!["maxItems /maxItems", "minItems /minItems", "uniqueItems /uniqueItems", "type /items/type"],
        ),
        (
            "property counts and names",
            json!({
                "type": "object",
                "minProperties": 1,
                "maxProperties": 3,
                "propertyNames": { "pattern": "^[a-z_]+$" },
                "dependentRequired": { "card": ["billing"] },
                "properties": { "card": { "type": "string" }, "billing": { "type": "string" } }
            }),
            vec![
                "minProperties /minProperties",
                "maxProperties /maxProperties",
                "propertyNames /propertyNames",
                "propertyNames /propertyNames via /propertyNames/pattern",
                "dependentRequired /dependentRequired",
            ],
        ),
        (
            "a map with short names",
            json!({
                "type": "object",
                "additionalProperties": { "type": "integer" },
                "maxProperties": 2,
                "propertyNames": { "maxLength": 3 }
            }),
            vec![
                "maxProperties /maxProperties",
                "propertyNames /propertyNames",
                "propertyNames /propertyNames via /propertyNames/maxLength",
                "type /additionalProperties/type",
            ],
        ),
        (
            "keywords inside contains",
            json!({ "type": "array", "contains": { "type": "integer", "minimum": 10 } }),
            vec!["contains /contains", "contains /contains via /contains/type", "contains /contains via /contains/minimum"],
        ),
        (
            "keywords inside contains with minContains",
            json!({ "type": "array", "contains": { "type": "string" }, "minContains": 2, "maxContains": 3 }),
            vec!["minContains /minContains", "maxContains /maxContains", "minContains /minContains via /contains/type"],
        ),
        (
            "oneOf of disjoint kinds",
            json!({ "oneOf": [{ "type": "string", "maxLength": 3 }, { "type": "integer" }] }),
            vec!["oneOf /oneOf"],
        ),
        (
            "if/then/else",
            json!({
                "type": "object",
                "properties": { "kind": { "type": "string" }, "n": { "type": "integer" } },
                "if": { "properties": { "kind": { "const": "num" } }, "required": ["kind"] },
                "then": { "required": ["n"] },
                "else": { "properties": { "n": { "maximum": 0 } } }
            }),
            vec!["type /properties/n/type"],
        ),
        (
            "numbers",
            json!({ "type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5 }),
            vec!["exclusiveMinimum /exclusiveMinimum", "multipleOf /multipleOf"],
        ),
        (
            "closed object",
            json!({ "type": "object", "properties": { "a": { "type": "boolean" } }, "additionalProperties": false }),
            vec!["additionalProperties /additionalProperties"],
        ),
    ];
    for (name, schema, expected) in cases {
        let synthesis = synth(schema);
        assert!(synthesis.uncovered.is_empty(), "{name}: uncovered {:#?}", synthesis.uncovered);
        assert!(synthesis.unreachable.is_empty(), "{name}: unreachable {:#?}", synthesis.unreachable);
        assert_labels(&synthesis, &expected);
    }
}

#[test]
fn every_property_and_enum_value_has_an_instance() {
    let synthesis = synth(json!({
        "type": "object",
        "properties": { "a": { "type": "string" }, "b": { "enum": [1, "two", null, [3]] }, "c": { "type": "boolean" } }
    }));
    let all = values(&synthesis);
    for name in ["a", "b", "c"] {
        assert!(all.iter().any(|v| v.get(name).is_some()), "no instance has {name}");
    }
    for value in [json!(1), json!("two"), json!(null), json!([3])] {
        assert!(all.iter().any(|v| v.get("b") == Some(&value)), "no instance has b = {value}");
    }
    for value in [true, false] {
        assert!(all.iter().any(|v| v.get("c") == Some(&json!(value))), "no instance has c = {value}");
    }
}

#[test]
fn boundaries_are_reached() {
    let synthesis = synth(json!({ "type": "integer", "minimum": 3, "maximum": 9 }));
    for bound in [3, 9] {
        assert!(values(&synthesis).contains(&&json!(bound)), "no {bound}");
    }
    let synthesis = synth(json!({ "type": "string", "minLength": 2, "maxLength": 5 }));
    let lengths: BTreeSet<usize> = values(&synthesis).iter().filter_map(|v| v.as_str()).map(|s| s.chars().count()).collect();
    assert!(lengths.contains(&2) && lengths.contains(&5), "lengths {lengths:?}");
    let synthesis = synth(json!({ "type": "array", "minItems": 1, "maxItems": 4 }));
    let lengths: BTreeSet<usize> = values(&synthesis).iter().filter_map(|v| v.as_array()).map(Vec::len).collect();
    assert!(lengths.contains(&1) && lengths.contains(&4), "lengths {lengths:?}");
    let synthesis = synth(json!({ "type": "number", "exclusiveMaximum": 1 }));
    assert!(values(&synthesis).iter().all(|v| v.as_f64().is_some_and(|n| n < 1.0)));
    assert_labels(&synthesis, &["exclusiveMaximum /exclusiveMaximum"]);
}

#[test]
fn every_branch_is_reached() {
    let synthesis = synth(json!({ "anyOf": [{ "type": "string" }, { "type": "array" }, { "type": "null" }] }));
    for kind in ["anyOf branch 0", "anyOf branch 1", "anyOf branch 2"] {
        assert!(synthesis.valid.iter().any(|s| s.note.starts_with(kind)), "no {kind}");
    }
    assert!(synthesis.uncovered.is_empty(), "{:?}", synthesis.uncovered);
}

// ---------------------------------------------------------------------------------------------
// Unreachable targets: only what is provable

#[test]
fn an_enum_value_a_sibling_rejects_is_unreachable() {
    let synthesis = synth(json!({ "enum": [1, 2, 3, "x"], "maximum": 2 }));
    assert!(synthesis.uncovered.is_empty(), "{:?}", synthesis.uncovered);
    assert_eq!(synthesis.unreachable.len(), 1, "{:?}", synthesis.unreachable);
    assert!(synthesis.unreachable[0].starts_with("enum value 3 at /enum: "), "{}", synthesis.unreachable[0]);
    assert!(synthesis.unreachable[0].contains("`maximum` at /maximum"), "{}", synthesis.unreachable[0]);
}

#[test]
fn a_oneof_branch_another_contains_is_unreachable() {
    let synthesis = synth(json!({ "oneOf": [{ "type": "integer" }, { "type": "number" }] }));
    assert!(synthesis.uncovered.is_empty(), "{:?}", synthesis.uncovered);
    assert_eq!(synthesis.unreachable.len(), 1, "{:?}", synthesis.unreachable);
    assert!(synthesis.unreachable[0].starts_with("oneOf branch at /oneOf/0: "), "{}", synthesis.unreachable[0]);
}

#[test]
fn an_unproven_gap_stays_uncovered() {
    // Branch 0 is never the only match either, but only `type` alone is decided exactly: with
    // `minimum` beside it the claim is not proven, so the gap stays loud.
    let synthesis = synth(json!({ "oneOf": [{ "type": "integer", "minimum": 0 }, { "type": "number" }] }));
    assert!(synthesis.unreachable.is_empty(), "{:?}", synthesis.unreachable);
    assert!(synthesis.uncovered.iter().any(|l| l.starts_with("oneOf branch at /oneOf/0")), "{:?}", synthesis.uncovered);
}

// ---------------------------------------------------------------------------------------------
// Determinism

#[test]
fn same_seed_same_output() {
    let schema = json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": { "type": "string", "pattern": "^wf_[0-9a-f]{32}$" },
            "tags": { "type": "array", "items": { "type": "string", "pattern": "^[a-z]{2,8}$" }, "uniqueItems": true, "maxItems": 4 },
            "n": { "oneOf": [{ "type": "integer" }, { "type": "string" }] }
        }
    });
    let config = SynthConfig::default();
    let (_, first) = synth_with(schema.clone(), &config);
    let (_, second) = synth_with(schema.clone(), &config);
    assert_eq!(first.valid, second.valid);
    assert_eq!(first.invalid, second.invalid);
    assert_eq!((first.uncovered, first.unreachable, first.unsupported), (second.uncovered, second.unreachable, second.unsupported));
    // Another seed changes only seeded choices: the set is still valid and covered.
    let (_, other) = synth_with(schema, &SynthConfig { seed: 7, ..SynthConfig::default() });
    assert!(other.uncovered.is_empty(), "{:?}", other.uncovered);
}

// ---------------------------------------------------------------------------------------------
// Pattern strings

#[test]
fn pattern_strings_match() {
    let patterns = [
        r"^wf_[0-9a-f]{32}$",
        r"^\d{14}-[a-z0-9]{6}$",
        r"^(draft|final|archived)$",
        r"^(ab|cd)+-(x|yz)?$",
        r"^[A-Z][a-z]+( [A-Z][a-z]+)*$",
        r"^[^\s@]+@[^\s@]+\.[a-z]{2,}$",
        r"^\w+\.\w+$",
        "^[😀-🙏]{2}$",
        "^x😀+$",
        r"^v\d+(\.\d+){2}$",
    ];
    let front = front(json!({}));
    let referee = referee(&front);
    let schemas = Schemas::new(&front, &referee);
    let mut rng = Rng::new(SynthConfig::default().seed);
    for pattern in patterns {
        let candidates = strings::pattern_candidates(pattern, &mut rng, 4).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        assert!(!candidates.is_empty(), "{pattern}: no candidate");
        for text in &candidates {
            assert!(schemas.matches(pattern, text), "{pattern}: {text:?} does not match");
        }
        // And through the whole synthesizer: every valid string matches, and a mutant does not.
        let synthesis = synth(json!({ "type": "string", "pattern": pattern }));
        for value in values(&synthesis) {
            let text = value.as_str().unwrap_or_default();
            assert!(schemas.matches(pattern, text), "{pattern}: valid {text:?} does not match");
        }
        assert_labels(&synthesis, &["pattern /pattern"]);
    }
    let lengths = |pattern: &str| -> Vec<usize> {
        let mut rng = Rng::new(1);
        strings::pattern_candidates(pattern, &mut rng, 4).unwrap_or_default().iter().map(|t| t.chars().count()).collect()
    };
    assert!(lengths(r"^wf_[0-9a-f]{32}$").iter().all(|n| *n == 35));
    assert!(lengths(r"^\d{14}-[a-z0-9]{6}$").iter().all(|n| *n == 21));
    assert!(lengths("^[😀-🙏]{2}$").iter().all(|n| *n == 2));
}

#[test]
fn alternations_reach_every_alternative_over_seeds() {
    let front = front(json!({}));
    let referee = referee(&front);
    let schemas = Schemas::new(&front, &referee);
    let mut seen = BTreeSet::new();
    let mut rng = Rng::new(3);
    for _ in 0..16 {
        for text in strings::pattern_candidates("^(red|green|blue)$", &mut rng, 4).unwrap_or_default() {
            assert!(schemas.matches("^(red|green|blue)$", &text), "{text:?}");
            seen.insert(text);
        }
    }
    assert!(seen.len() >= 2, "only {seen:?}");
}

// ---------------------------------------------------------------------------------------------
// The referee (jsonschema) and the walk

/// `(pointer, keyword, schema pointer)` of every failure of `instance` against the root.
fn failures(front: &schemac::Front, instance: Value) -> Vec<(String, String, String)> {
    let referee = referee(front);
    let schemas = Schemas::new(front, &referee);
    schemas.failures(&root(front), &instance).into_iter().map(|f| (f.pointer, f.keyword.to_string(), f.schema.pointer)).collect()
}

#[track_caller]
fn assert_failures(schema: Value, instance: Value, expected: &[(&str, &str, &str)]) {
    let got = failures(&front(schema.clone()), instance.clone());
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(p, k, s)| ((*p).to_owned(), (*k).to_owned(), (*s).to_owned())).collect();
    assert_eq!(got, expected, "{schema} with {instance}");
}

#[test]
fn the_referee_points_at_each_offending_property_and_item() {
    // jsonschema reports these once, at the object or array; the types report each member.
    assert_failures(
        json!({ "additionalProperties": false }),
        json!({ "x": 1, "y~/": 2 }),
        &[("/x", "additionalProperties", "/additionalProperties"), ("/y~0~1", "additionalProperties", "/additionalProperties")],
    );
    assert_failures(
        json!({ "properties": { "a": {} }, "additionalProperties": false }),
        json!({ "a": 1, "x": 1 }),
        &[("/x", "additionalProperties", "/additionalProperties")],
    );
    assert_failures(
        json!({ "properties": { "q": {} }, "unevaluatedProperties": false }),
        json!({ "q": 1, "x": 1 }),
        &[("/x", "unevaluatedProperties", "/unevaluatedProperties")],
    );
    // A schema for unevaluated properties fails where its own keywords do.
    assert_failures(
        json!({ "properties": { "q": {} }, "unevaluatedProperties": { "type": "string" } }),
        json!({ "q": 1, "x": 1, "y": "s" }),
        &[("/x", "type", "/unevaluatedProperties/type")],
    );
    // Of equal items, the unevaluated ones are the last.
    assert_failures(
        json!({ "prefixItems": [{}], "unevaluatedItems": false }),
        json!([1, 1, "x"]),
        &[("/1", "unevaluatedItems", "/unevaluatedItems"), ("/2", "unevaluatedItems", "/unevaluatedItems")],
    );
    assert_failures(
        json!({ "$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{}], "additionalItems": false }),
        json!([1, 2, 3]),
        &[("/1", "additionalItems", "/additionalItems"), ("/2", "additionalItems", "/additionalItems")],
    );
    assert_failures(json!({ "prefixItems": [{}], "items": false }), json!([1, 2]), &[("/1", "items", "/items")]);
}

#[test]
fn the_referee_names_the_keyword_from_its_location() {
    // `dependentRequired` fails as `required` below its value, where the document has nothing.
    assert_failures(json!({ "dependentRequired": { "a": ["b"] } }), json!({ "a": 1 }), &[("", "dependentRequired", "/dependentRequired")]);
    // Draft 4's boolean `exclusiveMinimum` makes `minimum` exclusive: `minimum` fails.
    assert_failures(
        json!({ "$schema": "http://json-schema.org/draft-04/schema#", "minimum": 3, "exclusiveMinimum": true }),
        json!(3),
        &[("", "minimum", "/minimum")],
    );
    // Beside `minContains`, too few matching items fail as `minContains`, none matching too.
    let contains = json!({ "contains": { "type": "string" }, "minContains": 2 });
    assert_failures(contains.clone(), json!(["a", 1]), &[("", "minContains", "/minContains")]);
    assert_failures(contains, json!([1]), &[("", "minContains", "/minContains")]);
    // `propertyNames` fails at the object, as the keyword around the one its `$ref` reaches.
    assert_failures(
        json!({ "$defs": { "name": { "maxLength": 2 } }, "propertyNames": { "$ref": "#/$defs/name" } }),
        json!({ "abc": 1 }),
        &[("", "propertyNames", "/propertyNames")],
    );
    assert_failures(
        json!({ "properties": { "a": false, "b": { "$ref": "#/$defs/x" } }, "$defs": { "x": { "minimum": 3 } } }),
        json!({ "a": 1, "b": 1 }),
        &[("/a", "false", "/properties/a"), ("/b", "minimum", "/$defs/x/minimum")],
    );
}

#[test]
fn references_to_other_files_resolve_without_network() {
    // One file without `$id` (known by its file URL), one with (known by its `$id`, and by its
    // file URL through the relative reference).
    let front = documents(&[
        ("root.json", json!({ "properties": { "a": { "$ref": "plain.json#/$defs/n" }, "b": { "$ref": "named.json" } } })),
        ("plain.json", json!({ "$defs": { "n": { "type": "integer", "minimum": 1 } } })),
        ("named.json", json!({ "$id": "https://example.com/named.json", "type": "string", "maxLength": 2 })),
    ]);
    assert!(failures(&front, json!({ "a": 1, "b": "ok" })).is_empty());
    let got = failures(&front, json!({ "a": 0, "b": "long" }));
    let (plain, named) = (&got[0], &got[1]);
    assert_eq!((plain.0.as_str(), plain.1.as_str(), plain.2.as_str()), ("/a", "minimum", "/$defs/n/minimum"), "{got:?}");
    assert_eq!((named.0.as_str(), named.1.as_str(), named.2.as_str()), ("/b", "maxLength", "/maxLength"), "{got:?}");
    assert_eq!(got.len(), 2, "{got:?}");
    // And synthesis over them is covered completely.
    let synthesis = synthesize(&front, &root(&front), &SynthConfig::default()).unwrap_or_else(|d| panic!("{d}"));
    assert!(synthesis.uncovered.is_empty() && synthesis.unsupported.is_empty(), "{synthesis:?}");
}

/// What the walk decides that jsonschema does not: of the subschemas jsonschema evaluates for a
/// valid instance (the schema under `not` among them, where a change never fails alone), the
/// ones whose keywords a single change can violate alone.
#[test]
fn the_walk_reaches_what_a_single_change_can_violate() {
    let schema = json!({ "oneOf": [{ "type": "string", "minLength": 2 }, { "type": "integer" }], "not": { "const": "zz" } });
    let front = front(schema.clone());
    let referee = referee(&front);
    let schemas = Schemas::new(&front, &referee);
    let instance = json!("abc");
    let visits: Vec<String> = schemas.visits(&root(&front), &instance).into_iter().map(|(_, loc)| loc.pointer).collect();
    assert_eq!(visits, ["", "/oneOf/0"]);
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let output = serde_json::to_value(validator.evaluate(&instance).list()).unwrap_or_default();
    let mut evaluated = BTreeSet::new();
    collect_paths(&output, &mut evaluated);
    assert!(evaluated.contains("/oneOf/0") && evaluated.contains("/not"), "jsonschema evaluated {evaluated:?}");
}

fn collect_paths(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(path)) = map.get("evaluationPath") {
                out.insert(path.clone());
            }
            map.values().for_each(|v| collect_paths(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_paths(v, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}
