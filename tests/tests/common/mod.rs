//! The instance harness shared by `bundled.rs` and `fixtures.rs`: every valid instance must
//! round-trip losslessly through a generated type, every invalid one must be rejected at its
//! JSON pointer, and the `jsonschema` crate referees the instance files themselves.

#![allow(dead_code)] // Each test crate uses a different part of this module.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Parses JSON text as a generated type and serializes the result back, as a value and as text.
pub type RoundTrip = fn(&str) -> Result<(Value, String), schemac_runtime::Error>;

/// The [`RoundTrip`] of the generated type `T`.
pub fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> Result<(Value, String), schemac_runtime::Error> {
    let typed: T = schemac_runtime::from_str(text)?;
    let value = serde_json::to_value(&typed).expect("a generated type serializes to a JSON value");
    let text = serde_json::to_string(&typed).expect("a generated type serializes to JSON text");
    Ok((value, text))
}

/// `tests/`, the directory of the `schemac-tests` crate.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn repo_root() -> PathBuf {
    tests_dir().parent().expect("tests/ is inside the repository").to_path_buf()
}

/// `path` relative to the repository root, with `/`, as diagnostics and headers name files.
pub fn display(path: &Path) -> String {
    let root = repo_root();
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.clone());
    let relative = path
        .strip_prefix(&root)
        .or_else(|_| path.strip_prefix(&canonical_root))
        .unwrap_or_else(|_| panic!("{} is outside the repository {}", path.display(), root.display()));
    relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

pub fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The `*.json` files in `dir`, sorted. A missing or empty directory is a broken fixture set,
/// never a reason to check nothing.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("fixture directory {} is missing: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "fixture directory {} has no *.json files", dir.display());
    files
}

/// A validator for the schema at `path`, for the draft its `$schema` names (2020-12 without one,
/// as schemac's default). `format` is an annotation, as in the generated types, except for the
/// schemas under `tests/fixtures-formats/`, which are compiled with `assert-formats`.
pub fn validator(path: &Path) -> jsonschema::Validator {
    let assert_formats = path.components().any(|c| c.as_os_str() == "fixtures-formats");
    let schema = read_json(path);
    let draft = match schema.get("$schema").and_then(Value::as_str) {
        Some(uri) => {
            let draft = jsonschema::Draft::from_schema_uri(uri);
            assert_ne!(draft, jsonschema::Draft::Unknown, "{}: unknown $schema {uri}", path.display());
            draft
        }
        None => jsonschema::Draft::Draft202012,
    };
    // The schemas beside it, for `$ref`s to other files (`serde.json`, `with%20space.json`).
    let mut registry = jsonschema::Registry::new();
    for sibling in path.parent().map(json_files).unwrap_or_default() {
        let resource = draft.create_resource(read_json(&sibling));
        registry = registry.add(file_uri(&sibling), resource).unwrap_or_else(|e| panic!("{}: {e}", sibling.display()));
    }
    let registry = registry.prepare().unwrap_or_else(|e| panic!("the schemas beside {}: {e}", path.display()));
    jsonschema::options()
        .with_draft(draft)
        .with_registry(&registry)
        .with_base_uri(file_uri(path))
        .should_validate_formats(assert_formats)
        .build(&schema)
        .unwrap_or_else(|e| panic!("jsonschema cannot compile {}: {e}", path.display()))
}

/// The `file:` URI of `path`, spaces and control characters percent-encoded.
fn file_uri(path: &Path) -> String {
    let mut uri = "file://".to_owned();
    for c in path.display().to_string().chars() {
        if c == ' ' || c == '%' || c.is_control() {
            uri.push_str(&format!("%{:02X}", u32::from(c)));
        } else {
            uri.push(c);
        }
    }
    uri
}

/// An invalid instance file: `{"pointer": ..., "why": ..., "instance": ...}`.
pub struct Invalid {
    pub pointer: String,
    pub why: String,
    pub instance: Value,
}

pub fn read_invalid(path: &Path) -> Invalid {
    let file = read_json(path);
    let object = file.as_object().unwrap_or_else(|| panic!("{}: not an object", path.display()));
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["instance", "pointer", "why"], "{}: expected exactly pointer, why and instance", path.display());
    let text = |key: &str| object[key].as_str().unwrap_or_else(|| panic!("{}: {key} is not a string", path.display())).to_owned();
    Invalid { pointer: text("pointer"), why: text("why"), instance: object["instance"].clone() }
}

/// What checking one directory of instances found.
#[derive(Debug, Default)]
pub struct Report {
    pub valid: usize,
    pub invalid: usize,
    pub failures: Vec<String>,
}

impl Report {
    /// Panics with every failure, after printing the counts.
    pub fn finish(self, name: &str) {
        if self.valid + self.invalid > 0 {
            println!("{name}: {} valid, {} invalid instances", self.valid, self.invalid);
        }
        assert!(self.failures.is_empty(), "{name}: {} failures:\n\n{}", self.failures.len(), self.failures.join("\n\n"));
    }
}

/// Checks `dir/valid/*.json` and `dir/invalid/*.json` against the schema at `schema` and the
/// generated type behind `parse`.
pub fn check_instances(schema: &Path, dir: &Path, parse: RoundTrip) -> Report {
    let validator = validator(schema);
    let mut report = Report::default();
    for path in json_files(&dir.join("valid")) {
        report.valid += 1;
        check_valid(&validator, &path, parse, &mut report.failures);
    }
    for path in json_files(&dir.join("invalid")) {
        report.invalid += 1;
        check_invalid(&validator, &path, parse, &mut report.failures);
    }
    report
}

fn check_valid(validator: &jsonschema::Validator, path: &Path, parse: RoundTrip, failures: &mut Vec<String>) {
    let name = display(path);
    let text = fs::read_to_string(path).expect("readable instance");
    let input: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
    if !validator.is_valid(&input) {
        failures.push(format!("{name}: fixture bug: jsonschema rejects it: {:?}", validator.validate(&input).err()));
        return;
    }
    let (output, output_text) = match parse(&text) {
        Ok(result) => result,
        Err(e) => {
            failures.push(format!("{name}: rejected at {:?}: {e}", e.pointer()));
            return;
        }
    };
    if !schemac_runtime::json_eq(&input, &output) {
        failures.push(format!("{name}: the round trip changed the value; it wrote\n{}", pretty(&output)));
        return;
    }
    if !validator.is_valid(&output) {
        failures.push(format!("{name}: jsonschema rejects the round-tripped value: {:?}", validator.validate(&output).err()));
    }
    // Strings (date-times included) and property names must come back byte for byte.
    let mut strings = Vec::new();
    collect_strings(&input, &mut strings);
    for s in strings {
        let quoted = serde_json::to_string(&s).expect("a string serializes");
        if !output_text.contains(&quoted) {
            failures.push(format!("{name}: {quoted} is not in the output text"));
        }
    }
    // What the type writes, it reads back unchanged.
    match parse(&output_text) {
        Ok((again, _)) if schemac_runtime::json_eq(&again, &output) => {}
        Ok((again, _)) => failures.push(format!("{name}: a second round trip changed the value to\n{}", pretty(&again))),
        Err(e) => failures.push(format!("{name}: the type rejects its own output at {:?}: {e}", e.pointer())),
    }
}

fn check_invalid(validator: &jsonschema::Validator, path: &Path, parse: RoundTrip, failures: &mut Vec<String>) {
    let name = display(path);
    let case = read_invalid(path);
    if case.instance.pointer(&case.pointer).is_none() {
        failures.push(format!("{name}: fixture bug: pointer {:?} names no value in the instance", case.pointer));
        return;
    }
    if validator.is_valid(&case.instance) {
        failures.push(format!("{name}: fixture bug: jsonschema accepts it ({})", case.why));
        return;
    }
    match parse(&case.instance.to_string()) {
        Ok((output, _)) => failures.push(format!("{name}: accepted ({}); it read as\n{}", case.why, pretty(&output))),
        Err(e) if e.pointer() == case.pointer => {}
        Err(e) => failures.push(format!("{name}: rejected at {:?}, expected {:?} ({}): {e}", e.pointer(), case.pointer, case.why)),
    }
}

/// Every string value and property name in `value`.
fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                collect_strings(v, out);
            }
        }
        _ => {}
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("a value serializes")
}
