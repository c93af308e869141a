//! Schema errors through the library: files under `tests/bad/` fail to compile with exactly the
//! expected diagnostics (code and JSON pointer), every one naming its file, its line:column
//! (except `io`) and a hint; and no schema, however mangled, makes the compiler panic. The whole
//! corpus, with exit codes, runs through the `schemac` binary in `crates/schemac-cli/tests/bad.rs`.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use schemac::{Config, Diagnostic, Diagnostics, Input, SchemaSource};
use serde_json::Value;

fn compile_path(path: PathBuf, display: &str) -> Result<schemac::Output, Diagnostics> {
    let input = Input::new([SchemaSource::new(path).display(display.to_owned())]);
    schemac::compile(&input, &Config::default())
}

/// Compiles `tests/bad/<file>` and checks that it reports exactly `expected` (code, pointer) in
/// any order, each diagnostic naming the file and, except `io`, the line:column of the value at
/// its pointer. Returns the diagnostics for further checks.
fn check(file: &str, expected: &[(&str, &str)]) -> Vec<Diagnostic> {
    let display = format!("tests/bad/{file}");
    let path = common::tests_dir().join("bad").join(file);
    let diagnostics = match compile_path(path.clone(), &display) {
        Ok(output) => panic!("{display} compiled to {} modules; expected {expected:?}", output.modules.len()),
        Err(diagnostics) => diagnostics.0,
    };
    let rendered = Diagnostics(diagnostics.clone()).to_string();
    let mut got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code, d.pointer.as_str())).collect();
    got.sort_unstable();
    let mut want = expected.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "{display}:\n{rendered}");

    let text = std::fs::read(&path).ok().map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    for d in &diagnostics {
        assert_eq!(d.file, display, "{d}");
        assert!(!d.message.is_empty(), "{d}");
        if d.code == "io" {
            continue;
        }
        let (line, column) = d.position.unwrap_or_else(|| panic!("no line:column in {d}"));
        assert!(line >= 1 && column >= 1, "positions are 1-based: {d}");
        // An error about the file as a whole (invalid JSON) has no pointer to show.
        let about_value = schemac::codes::kind_of(d.code).expect("a known kind").about_value;
        let after = if about_value { " at " } else { ": " };
        assert!(d.to_string().starts_with(&format!("error[{}]: {display}:{line}:{column}{after}", d.code)), "{d}");
        assert!(d.hint.is_some(), "no hint: {d}");
        if d.code != "invalid-json" && d.code != "invalid-yaml" {
            let text = text.as_deref().expect("the file was read");
            if let Some(expected) = value_position(text, &d.pointer) {
                assert_eq!((line, column), expected, "not the position of the value at {:?}: {d}", d.pointer);
            }
        }
    }
    diagnostics
}

/// The line:column (1-based, in characters) where the value at `pointer` starts, for the files
/// in `tests/bad/`, which keep each key and the start of its value on one line. `None` for
/// pointers ending in an array index, which this does not locate.
fn value_position(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let Some(last) = pointer.rsplit('/').next().filter(|_| !pointer.is_empty()) else {
        // The document itself: its first non-blank character.
        return text.lines().enumerate().find_map(|(i, line)| line.chars().position(|c| !c.is_whitespace()).map(|col| (i + 1, col + 1)));
    };
    if last.parse::<usize>().is_ok() {
        return None;
    }
    let quote = |token: &str| serde_json::to_string(&token.replace("~1", "/").replace("~0", "~")).expect("a string serializes");
    // Find each key of the pointer in turn, after the previous one.
    let keys: Vec<String> = pointer.split('/').skip(1).filter(|t| t.parse::<usize>().is_err()).map(quote).collect();
    let mut from = 0;
    for (i, key) in keys.iter().enumerate() {
        from += text[from..].find(&format!("{key}:"))?;
        if i + 1 < keys.len() {
            from += key.len();
        }
    }
    let key = keys.last().expect("a key");
    let after_colon = from + key.len() + 1;
    let start = after_colon + (text[after_colon..].len() - text[after_colon..].trim_start().len());
    let line = text[..start].matches('\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    Some((line, text[line_start..start].chars().count() + 1))
}

#[test]
fn invalid_json_names_file_line_and_column() {
    let d = check("invalid-json.json", &[("invalid-json", "")]);
    assert_eq!(d[0].position, Some((5, 5)), "{}", d[0]);
    assert!(d[0].to_string().contains("tests/bad/invalid-json.json:5:5"), "{}", d[0]);
}

#[test]
fn invalid_json_columns_count_characters() {
    // serde_json reports byte column 29 here; the editor column is 26 ("é" and "—" are
    // multi-byte).
    let d = check("invalid-json-unicode.json", &[("invalid-json", "")]);
    assert_eq!(d[0].position, Some((2, 26)), "{}", d[0]);
}

#[test]
fn an_empty_file_is_invalid_json() {
    let d = check("empty.json", &[("invalid-json", "")]);
    assert_eq!(d[0].position.map(|(line, _)| line), Some(1), "{}", d[0]);
}

/// YAML schemas are read (issue 11); a file that is not YAML is an error at its line:column.
#[test]
fn yaml_syntax_error() {
    check("invalid.yaml", &[("invalid-yaml", "")]);
}

#[test]
fn type_must_be_a_string_or_array() {
    check("type-number.json", &[("invalid-schema", "/properties/a/type")]);
}

#[test]
fn required_must_be_an_array() {
    check("required-string.json", &[("invalid-schema", "/required")]);
}

#[test]
fn unknown_type_names() {
    let d = check("unknown-type.json", &[("invalid-schema", "/properties/name/type"), ("invalid-schema", "/properties/tags/type/1")]);
    assert!(d.iter().any(|d| d.message.contains("strng")), "the message names the bad type: {}", Diagnostics(d.clone()));
}

#[test]
fn unresolved_ref_names_ref_file_pointer_and_hint() {
    let d = check("unresolved-ref.json", &[("unresolved-ref", "/properties/owner/$ref")]);
    let shown = d[0].to_string();
    assert!(shown.contains("#/$defs/persn"), "names the ref: {shown}");
    assert!(shown.contains("tests/bad/unresolved-ref.json:5:24 at /properties/owner/$ref"), "{shown}");
    assert!(d[0].hint.is_some() && shown.contains("\n  hint: "), "has a hint: {shown}");
}

#[test]
fn ref_to_a_missing_file() {
    let d = check("missing-file-ref.json", &[("unresolved-ref", "/properties/address/$ref")]);
    assert!(d[0].to_string().contains("does-not-exist.json"), "names the ref: {}", d[0]);
}

#[test]
fn a_type_with_no_base_case_is_infinite() {
    // Every `a` must hold another object with an `a`: no finite JSON value matches, and a Rust
    // struct would contain itself.
    check("infinite-type.json", &[("infinite-type", "")]);
}

#[test]
fn ref_cycles() {
    check("ref-cycle-root.json", &[("ref-cycle", "/$ref")]);
    check("ref-cycle-defs.json", &[("ref-cycle", "/$defs/loop/$ref")]);
}

#[test]
fn documents_that_are_not_schemas() {
    check("not-a-schema-array.json", &[("not-a-schema", "")]);
    check("not-a-schema-string.json", &[("not-a-schema", "")]);
}

#[test]
fn invalid_patterns() {
    check("invalid-pattern.json", &[("invalid-pattern", "/properties/code/pattern")]);
    check("invalid-pattern-property.json", &[("invalid-pattern", "/patternProperties/(unclosed")]);
}

#[test]
fn unknown_draft() {
    check("unknown-draft.json", &[("unknown-draft", "/$schema")]);
}

#[test]
fn every_problem_in_a_file_is_reported() {
    check(
        "three-problems.json",
        &[("invalid-schema", "/properties/a/type"), ("unresolved-ref", "/properties/b/$ref"), ("invalid-pattern", "/properties/c/pattern")],
    );
}

#[test]
fn a_missing_input_file_is_an_io_error() {
    let display = "tests/bad/no-such-file.json";
    let d = compile_path(common::tests_dir().join("bad/no-such-file.json"), display).expect_err("there is no such file").0;
    assert_eq!(d.iter().map(|d| (d.code, d.file.as_str())).collect::<Vec<_>>(), [("io", display)], "{}", Diagnostics(d.clone()));
}

/// The values a mutation puts in place of each value of a schema.
const REPLACEMENTS: [&str; 7] = ["5", "\"x\"", "null", "[]", "{}", "true", "-1"];

/// About this many mutations per bundled schema are compiled.
const MUTATIONS_PER_SCHEMA: usize = 100;

/// Every mutation of `schema`: each value in turn replaced by each of [`REPLACEMENTS`], and each
/// property deleted; as (description, mutated schema).
fn mutations(schema: &Value) -> Vec<(String, Value)> {
    let mut pointers = Vec::new();
    collect_pointers(schema, String::new(), &mut pointers);
    let mut out = Vec::new();
    for (pointer, in_object) in pointers {
        for replacement in REPLACEMENTS {
            let mut mutated = schema.clone();
            *mutated.pointer_mut(&pointer).expect("collected pointer") = serde_json::from_str(replacement).expect("JSON");
            out.push((format!("{pointer} = {replacement}"), mutated));
        }
        if in_object {
            let (parent, key) = pointer.rsplit_once('/').expect("not the root");
            let key = key.replace("~1", "/").replace("~0", "~");
            let mut mutated = schema.clone();
            mutated.pointer_mut(parent).and_then(Value::as_object_mut).expect("an object").remove(&key);
            out.push((format!("delete {pointer}"), mutated));
        }
    }
    out
}

/// Every pointer below the root, and whether it names an object member.
fn collect_pointers(value: &Value, pointer: String, out: &mut Vec<(String, bool)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_pointer = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                out.push((child_pointer.clone(), true));
                collect_pointers(child, child_pointer, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let child_pointer = format!("{pointer}/{i}");
                out.push((child_pointer.clone(), false));
                collect_pointers(child, child_pointer, out);
            }
        }
        _ => {}
    }
}

#[test]
fn mutated_bundled_schemas_never_panic() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-panic");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut panics = Vec::new();
    let mut missing_positions = Vec::new();
    let (mut compiled, mut ok, mut failed) = (0, 0, 0);
    for (stem, schema) in [("attempts-report", "schemas/madoo/attempts-report.v1.json"), ("goal", "schemas/pi-glla/goal.json")] {
        let all = mutations(&common::read_json(&common::repo_root().join(schema)));
        // A stride that is not a multiple of 8 walks through every kind of mutation.
        let mut step = (all.len() / MUTATIONS_PER_SCHEMA).max(1);
        if step.is_multiple_of(8) {
            step += 1;
        }
        for (i, (description, mutated)) in all.into_iter().enumerate().step_by(step) {
            let display = format!("{stem}-{i}.json");
            let path = dir.join(&display);
            std::fs::write(&path, serde_json::to_string_pretty(&mutated).expect("serializes")).expect("write");
            compiled += 1;
            match catch_unwind(AssertUnwindSafe(|| compile_path(path.clone(), &display))) {
                Ok(Ok(_)) => ok += 1,
                Ok(Err(diagnostics)) => {
                    failed += 1;
                    for d in diagnostics.iter().filter(|d| d.code != "io" && d.position.is_none()) {
                        missing_positions.push(format!("{schema} with {description}: {d}"));
                    }
                }
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_default();
                    panics.push(format!("{schema} with {description}: {message}"));
                }
            }
        }
    }
    println!("compiled {compiled} mutated schemas: {ok} ok, {failed} rejected, {} panicked", panics.len());
    assert!(compiled >= 150, "only {compiled} mutations");
    assert!(panics.is_empty(), "the compiler panicked on {} schemas:\n{}", panics.len(), panics.join("\n"));
    assert!(missing_positions.is_empty(), "diagnostics without line:column:\n{}", missing_positions.join("\n"));
}
