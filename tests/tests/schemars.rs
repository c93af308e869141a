//! `schemars::JsonSchema` on generated types returns the source schema: `schema_for!` of each
//! bundled root is its source file (references bundled into `$defs`), and for every schema of
//! both generated crates the generated schema accepts and rejects each instance file exactly as
//! the source schema does. Also the registry (`SCHEMAS`, `find`) and `SchemaBound`.

mod common;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use schema_types::madoo::attempts_report_v1::{Attempt, AttemptsReport};
use schema_types::pi_glla::goal::Goal;
use schemac_runtime::schemars::{JsonSchema, Schema, SchemaGenerator, json_schema, schema_for};
use schemac_runtime::{SchemaBound, SchemaEntry};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

fn source(path: &str) -> Value {
    common::read_json(&common::repo_root().join(path))
}

/// A 2020-12 validator for a generated schema (schemars writes 2020-12); `format` is an
/// annotation, as for the source schemas in `common::validator`.
fn validator(schema: &Value, assert_formats: bool) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(assert_formats)
        .build(schema)
        .unwrap_or_else(|e| panic!("jsonschema cannot compile the generated schema: {e}\n{schema:#}"))
}

#[test]
fn attempts_report_is_its_source_file() {
    // Already 2020-12 with its one definition in `$defs`: nothing to bundle or rename.
    let expected = source("schemas/madoo/attempts-report.v1.json");
    assert_eq!(schema_for!(AttemptsReport).to_value(), expected);
}

#[test]
fn goal_is_its_source_file_with_definitions_in_defs() {
    // Draft 7 keeps definitions under `definitions`; schemars bundles them under `$defs` and
    // declares 2020-12.
    let mut expected = source("schemas/pi-glla/goal.json");
    let object = expected.as_object_mut().expect("an object schema");
    let definitions = object.remove("definitions").expect("goal.json has definitions");
    object.insert("$defs".to_owned(), definitions);
    object.insert("$schema".to_owned(), json!(DRAFT_2020_12));
    let expected = rename_refs(expected, "#/definitions/", "#/$defs/");
    assert_eq!(schema_for!(Goal).to_value(), expected);
}

fn rename_refs(value: Value, from: &str, to: &str) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| match value {
                    Value::String(target) if key == "$ref" => (key, Value::String(target.replacen(from, to, 1))),
                    value => (key, rename_refs(value, from, to)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| rename_refs(v, from, to)).collect()),
        other => other,
    }
}

/// Every schema of both generated crates, with the directory of its instance files (if any).
fn all_entries() -> Vec<(&'static SchemaEntry, Option<PathBuf>)> {
    let bundled = schema_types::SCHEMAS.iter().map(|entry| {
        let name = match entry.reference {
            "madoo.attempts-report/v1" => "attempts-report",
            "pi-glla/goal" => "goal",
            other => panic!("a bundled schema without instances: {other}"),
        };
        (entry, Some(common::tests_dir().join("instances").join(name)))
    });
    let fixtures = fixture_types::SCHEMAS.iter().map(|entry| {
        let dir = common::tests_dir().join("fixture-instances").join(entry.reference);
        (entry, dir.is_dir().then_some(dir))
    });
    bundled.chain(fixtures).collect()
}

#[test]
fn generated_schemas_validate_like_their_sources() {
    let mut failures = Vec::new();
    let (mut schemas, mut instances) = (0, 0);
    for (entry, dir) in all_entries() {
        let Some(schema) = entry.json_schema(&mut SchemaGenerator::default()) else {
            panic!("{}: the root type is a plain alias, so it has no JsonSchema of its own", entry.source_path);
        };
        // Schemas compiled with `assert-formats` are held to their formats on both sides.
        let generated = validator(schema.as_value(), entry.source_path.starts_with("tests/fixtures-formats/"));
        schemas += 1;
        let Some(dir) = dir else { continue };
        let source = common::validator(&common::repo_root().join(entry.source_path));
        for (path, instance) in instance_files(&dir) {
            instances += 1;
            let (expected, actual) = (source.is_valid(&instance), generated.is_valid(&instance));
            if expected != actual {
                failures.push(format!(
                    "{}: the source {} it, the generated schema {} it\n{:#}",
                    common::display(&path),
                    verdict(expected),
                    verdict(actual),
                    schema.as_value()
                ));
            }
        }
    }
    println!("{schemas} generated schemas, {instances} instances");
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

fn verdict(valid: bool) -> &'static str {
    if valid { "accepts" } else { "rejects" }
}

/// The instances under `dir/valid` and `dir/invalid` (the `instance` of each invalid file).
fn instance_files(dir: &Path) -> Vec<(PathBuf, Value)> {
    let valid = common::json_files(&dir.join("valid")).into_iter().map(|path| {
        let instance = common::read_json(&path);
        (path, instance)
    });
    let invalid = common::json_files(&dir.join("invalid")).into_iter().map(|path| {
        let instance = common::read_invalid(&path).instance;
        (path, instance)
    });
    valid.chain(invalid).collect()
}

/// A non-root type's schema is its subschema; nested in another schema, a root drops its `$id`
/// (which would move the base URI of its references) and still validates as its source.
#[test]
fn subschemas_and_nested_roots() {
    let attempt = schema_for!(Attempt).to_value();
    let mut expected = source("schemas/madoo/attempts-report.v1.json")["$defs"]["attempt"].clone();
    expected["$schema"] = json!(DRAFT_2020_12);
    expected["title"] = json!("attempt");
    assert_eq!(attempt, expected);

    struct Envelope;
    impl JsonSchema for Envelope {
        fn schema_name() -> Cow<'static, str> {
            "Envelope".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let goal = generator.subschema_for::<Goal>();
            let report = generator.subschema_for::<AttemptsReport>();
            json_schema!({"type": "object", "properties": {"goal": goal, "report": report}})
        }
    }
    let envelope = schema_for!(Envelope).to_value();
    let definitions: &Map<String, Value> = envelope["$defs"].as_object().expect("definitions");
    assert!(definitions["AttemptsReport"].get("$id").is_none(), "{envelope:#}");
    assert!(definitions["Goal"].get("$id").is_none(), "{envelope:#}");
    let validator = validator(&envelope, false);
    for (name, key) in [("attempts-report", "report"), ("goal", "goal")] {
        let source = common::validator(&common::repo_root().join(match key {
            "report" => AttemptsReport::SOURCE_PATH,
            _ => Goal::SOURCE_PATH,
        }));
        for (path, instance) in instance_files(&common::tests_dir().join("instances").join(name)) {
            let wrapped = json!({ key: instance });
            assert_eq!(validator.is_valid(&wrapped), source.is_valid(&instance), "{} nested as {key}", common::display(&path));
        }
    }
}

#[test]
fn schema_bound_names_the_source() {
    assert_eq!(AttemptsReport::SCHEMA_ID, "urn:madoo:schema:attempts-report:v1");
    assert_eq!(AttemptsReport::SOURCE_PATH, "schemas/madoo/attempts-report.v1.json");
    assert_eq!(AttemptsReport::POINTER, "");
    assert_eq!(AttemptsReport::schema(), &source(AttemptsReport::SOURCE_PATH));
    let text = std::fs::read(common::repo_root().join(Goal::SOURCE_PATH)).expect("readable schema");
    assert_eq!(Goal::SOURCE_SHA256, format!("{:x}", Sha256::digest(&text)));
    assert_eq!(Goal::SCHEMA_ID, "https://raw.githubusercontent.com/DraconDev/pi-goal-list-loop-audit/main/schemas/goal.schema.json");
}

#[test]
fn the_registry_serves_each_source_file_by_reference() {
    let report = schema_types::find("madoo.attempts-report/v1").expect("published");
    assert_eq!((report.id, report.version), ("urn:madoo:schema:attempts-report:v1", "1.0.0"));
    let goal = schema_types::find("pi-glla/goal").expect("published under its default reference");
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(common::repo_root().join("generated/Cargo.toml")).unwrap()).unwrap();
    let crate_version = manifest["package"]["version"].as_str().unwrap();
    assert_eq!(goal.version, crate_version, "by default a schema's version is its crate's");
    assert!(schema_types::find("madoo.attempts-report/v2").is_none());

    let entries: Vec<&SchemaEntry> = schema_types::SCHEMAS.iter().chain(fixture_types::SCHEMAS).collect();
    let fixtures = ["fixtures", "fixtures-formats", "fixtures-open", "fixtures-hostile"]
        .map(|dir| common::json_files(&common::tests_dir().join(dir)).len());
    assert_eq!(entries.len(), 2 + fixtures.iter().sum::<usize>());
    for entry in entries {
        let text = std::fs::read_to_string(common::repo_root().join(entry.source_path)).expect("readable schema");
        assert_eq!(entry.json, text, "{} is served byte for byte", entry.source_path);
        assert_eq!(entry.sha256, format!("{:x}", Sha256::digest(text.as_bytes())), "{}", entry.source_path);
        assert_eq!((entry.schema)(), &source(entry.source_path), "{}", entry.source_path);
    }
}
