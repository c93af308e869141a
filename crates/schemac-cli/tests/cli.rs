//! The `schemac` binary end to end: help, exit codes, and files written.

mod common;

use common::TempDir;

use std::fs;
use std::process::{Command, Output};

fn schemac(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schemac")).args(args).output().expect("cannot run schemac")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs schemac and asserts its exit code, showing both streams when it differs.
fn check_exit(args: &[&str], code: i32) -> Output {
    let output = schemac(args);
    assert_eq!(output.status.code(), Some(code), "schemac {args:?}\nstdout:\n{}\nstderr:\n{}", stdout(&output), stderr(&output));
    output
}

#[test]
fn help_lists_commands() {
    let help = stdout(&check_exit(&["--help"], 0));
    assert!(help.contains("compile"), "{help}");
    for flag in ["--root-name", "--default-draft", "--schema-dir", "--map", "-o OUT.rs"] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("Examples:"), "{help}");
    assert!(help.contains("Exit status"), "{help}");
}

#[test]
fn compile_help_lists_every_flag() {
    let help = stdout(&check_exit(&["compile", "--help"], 0));
    for flag in [
        "SCHEMA",
        "--root-name",
        "--default-draft",
        "--schema-dir",
        "--map",
        "URL_PREFIX=DIR",
        "--allow-root",
        "--max-file-size",
        "--no-builders",
        "--allow-unbounded-patterns",
        "--primitive-numbers",
        "-o, --out",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("2020-12, 2019-09, 7, 6 or 4"), "{help}");
    assert!(help.contains("schemac compile schemas/goal.json -o src/goal.rs"), "{help}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = TempDir::new("schemac-cli");
    let schema = dir.write("s.json", "{}");
    let schema = schema.to_str().unwrap();
    for args in [
        &[][..],
        &["frobnicate"],
        &["compile"],
        &["compile", schema, "--no-such-flag"],
        &["compile", schema, "--map", "no-equals-sign"],
        &["compile", schema, "--map", "=dir"],
        &["compile", schema, "--default-draft", "5"],
        &["compile", schema, "--default-draft", "2020"],
    ] {
        let output = check_exit(args, 2);
        assert!(!stderr(&output).is_empty(), "{args:?} printed no error");
    }
    let err = stderr(&schemac(&["compile", schema, "--map", "nope"]));
    assert!(err.contains("URL_PREFIX=DIR"), "{err}");
    let err = stderr(&schemac(&["compile", schema, "--default-draft", "5"]));
    assert!(err.contains("2020-12, 2019-09, 7, 6, 4"), "{err}");
}

#[test]
fn invalid_json_exits_1_naming_the_file() {
    let dir = TempDir::new("schemac-cli");
    let schema = dir.write("broken-schema.json", "{ \"type\": ");
    let out = dir.0.join("out.rs");
    let output = check_exit(&["compile", schema.to_str().unwrap(), "-o", out.to_str().unwrap()], 1);
    let err = stderr(&output);
    assert!(err.contains("broken-schema.json"), "{err}");
    assert!(err.contains("error["), "{err}");
    assert!(!out.exists(), "no output is written for a broken schema");
}

#[test]
fn valid_schema_exits_0_and_writes_the_file() {
    let dir = TempDir::new("schemac-cli");
    let schema = dir.write(
        "goal.json",
        r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "required": ["id"],
  "properties": { "id": { "type": "string" } }
}"#,
    );
    let out = dir.0.join("goal.rs");
    let schema = schema.to_str().unwrap();
    check_exit(&["compile", schema, "--root-name", "Goal", "-o", out.to_str().unwrap()], 0);
    let code = fs::read_to_string(&out).expect("the output file is written");
    assert!(code.contains("@generated"), "{code}");
    assert!(code.contains("pub struct Goal"), "{code}");

    // Without -o the same code goes to stdout.
    let printed = stdout(&check_exit(&["compile", schema, "--root-name", "Goal"], 0));
    assert!(printed.contains("pub struct Goal"), "{printed}");
    assert!(printed.contains("pub fn builder() -> GoalBuilder"), "{printed}");

    // `--no-builders` leaves the builder out, and nothing else.
    let bare = stdout(&check_exit(&["compile", schema, "--root-name", "Goal", "--no-builders"], 0));
    assert!(bare.contains("pub struct Goal") && !bare.contains("GoalBuilder"), "{bare}");
}

/// Numbers are exact by default; `--primitive-numbers` makes them Rust primitives.
#[test]
fn numbers_are_exact_unless_primitive() {
    let dir = TempDir::new("schemac-cli-numbers");
    let schema = dir.write(
        "reading.json",
        r#"{
  "type": "object",
  "required": ["value", "count"],
  "properties": { "value": { "type": "number" }, "count": { "type": "integer", "minimum": 0 } }
}"#,
    );
    let schema = schema.to_str().unwrap();
    let exact = stdout(&check_exit(&["compile", schema, "--root-name", "Reading"], 0));
    assert!(exact.contains("pub value: ::schemac_runtime::Number"), "{exact}");
    assert!(exact.contains("pub count: ::schemac_runtime::Integer"), "{exact}");
    let primitive = stdout(&check_exit(&["compile", schema, "--root-name", "Reading", "--primitive-numbers"], 0));
    assert!(primitive.contains("pub value: f64"), "{primitive}");
    assert!(primitive.contains("pub count: u64"), "{primitive}");
}

/// What validators accept compiles with warnings (file, pointer, line:column, hint), unless
/// `--deny-warnings` makes them errors.
#[test]
fn lenient_schemas_compile_with_warnings_unless_denied() {
    let dir = TempDir::new("schemac-cli");
    let schema = dir.write(
        "lenient.json",
        r#"{"type": "object", "description": null, "$defs": {"x": 3}, "properties": {"e": {"type": "string", "enum": [1]}}}"#,
    );
    let schema = schema.to_str().unwrap();
    let output = check_exit(&["compile", schema], 0);
    let err = stderr(&output);
    for code in ["warning[ignored-annotation]", "warning[not-a-schema]", "warning[uninhabited]"] {
        assert!(err.contains(code), "{code} in:\n{err}");
    }
    assert_eq!(err.matches("\n  hint: ").count(), 3, "{err}");
    assert!(err.contains("lenient.json:1:35 at /description:"), "{err}");
    assert!(stdout(&output).contains("pub struct"), "the code is written");
    let denied = check_exit(&["compile", schema, "--deny-warnings"], 1);
    let err = stderr(&denied);
    assert!(err.contains("error[ignored-annotation]") && err.contains("3 errors"), "{err}");
    assert!(stdout(&denied).is_empty());
}

/// `schemac diff`: the exit status follows the role's verdicts; a breaking change comes with
/// its witness; an undecided one with its reason; `--format json` is machine-readable; the
/// lenient policy says which verdicts it decided.
#[test]
fn diff_exits_by_the_role_verdict() {
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/diff/cases/");
    let pair = |name: &str| (format!("{cases}{name}/old.json"), format!("{cases}{name}/new.json"));
    let (old, new) = pair("required-added");
    let breaking = check_exit(&["diff", &old, &new], 1);
    let text = stdout(&breaking);
    assert!(text.contains("required-added") && text.contains("witness for readers (valid under old, invalid under new): {}"), "{text}");
    assert!(
        text.contains("policy: strict") && text.contains("writers (new ⊆ old): proved, by rules") && text.contains("bump: major"),
        "{text}"
    );
    check_exit(&["diff", "--role", "writer", "--no-witnesses", &old, &new], 0);
    // Without confirming witnesses nothing is breaking: the failing place is undecided.
    check_exit(&["diff", "--role", "reader", "--no-witnesses", &old, &new], 2);
    let (old, new) = pair("pattern-changed");
    let json = check_exit(&["diff", "--format", "json", &old, &new], 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON output");
    assert_eq!(json["changes"][0]["kind"], "pattern-changed");
    assert_eq!(json["changes"][0]["witnesses"]["readers"], serde_json::json!({"a": "x"}));
    let (old, new) = pair("if-changed");
    let unknown = check_exit(&["diff", "--role", "writer", "--format", "json", &old, &new], 2);
    let json: serde_json::Value = serde_json::from_str(&stdout(&unknown)).expect("JSON output");
    assert_eq!(json["changes"][0]["writers"], "unknown");
    assert!(json["changes"][0]["reason"].as_str().is_some_and(|r| r.contains("not decided")), "{json}");
    let (old, new) = pair("annotations-only");
    let same = check_exit(&["diff", &old, &new], 0);
    assert!(stdout(&same).contains("bump: patch"), "{}", stdout(&same));
    let (old, new) = pair("property-added-open");
    check_exit(&["diff", "--role", "reader", &old, &new], 1);
    let lenient = check_exit(&["diff", "--role", "reader", "--policy", "lenient", &old, &new], 0);
    let text = stdout(&lenient);
    assert!(text.contains("policy: lenient") && text.contains("[readers: compatible (lenient policy)"), "{text}");
}

/// `schemac diff --map`/`--schema-dir`: two versions of a schema that refer to a shared file
/// are diffed through it, on both sides.
#[test]
fn diff_follows_refs_between_files() {
    let dir = TempDir::new("schemac-diff-refs");
    dir.write(
        "common/base.json",
        r#"{"$id": "https://example.com/schemas/base.json", "type": "object", "properties": {"id": {"type": "string"}}}"#,
    );
    let app = |extra: &str| {
        format!(r#"{{"type": "object", "properties": {{"base": {{"$ref": "https://example.com/schemas/base.json"}}{extra}}}}}"#)
    };
    let old = dir.write("v1/app.json", &app(""));
    let new = dir.write("v2/app.json", &app(r#", "count": {"type": "integer"}"#));
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let common = dir.0.join("common");
    let map = format!("https://example.com/schemas/={}", common.display());
    let mapped = check_exit(&["diff", "--role", "writer", "--map", &map, old, new], 0);
    assert!(stdout(&mapped).contains("property-added-open"), "{}", stdout(&mapped));
    let catalog = check_exit(&["diff", "--role", "reader", "--schema-dir", common.to_str().unwrap(), old, new], 1);
    assert!(stdout(&catalog).contains("witness for readers"), "{}", stdout(&catalog));
    // Without either, the ref cannot be resolved: an error naming it.
    let unresolved = check_exit(&["diff", old, new], 1);
    assert!(stderr(&unresolved).contains("base.json"), "{}", stderr(&unresolved));
}

/// `schemac docs`: the page of the repository's attempts report with the publisher's header
/// given as flags is the page `codegen` commits from `schemac.toml`; a page never overwrites a
/// schema; a schema error exits 1 naming the file.
#[test]
fn docs_writes_the_page_codegen_commits() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let schema = format!("{root}schemas/madoo/attempts-report.v1.json");
    let dir = TempDir::new("schemac-cli");
    let out = dir.0.join("page.md");
    #[rustfmt::skip]
    let flags = [
        "docs", &schema,
        "--reference", "madoo.attempts-report/v1",
        "--summary", "What Repeat Until Accepted did: the body and its version, the policy, every attempt with its run, acceptance, score and feedback, and which attempt was delivered and why.",
        "--schema-version", "1.0.0",
        "--served-at", "GET /api/v1/json-schemas/{reference}", "--served-at", "MCP get_json_schema",
        "--appears", "Produced by: workflow/repeat → report",
        "-o", out.to_str().unwrap(),
    ];
    check_exit(&flags, 0);
    let committed = fs::read_to_string(format!("{root}generated/docs/madoo/attempts-report.v1.md")).unwrap();
    let body = committed.split_once("-->\n\n").map(|(_, body)| body).expect("the committed page starts with its @generated line");
    assert_eq!(fs::read_to_string(&out).unwrap(), body);

    let copy = dir.write("s.json", r#"{"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}"#);
    let printed = stdout(&check_exit(&["docs", copy.to_str().unwrap()], 0));
    assert!(printed.contains("| a | string |  | max length 3 |"), "{printed}");
    let refused = check_exit(&["docs", copy.to_str().unwrap(), "-o", copy.to_str().unwrap()], 2);
    assert!(stderr(&refused).contains("refusing to write"), "{}", stderr(&refused));
    let broken = dir.write("b.json", "{ \"type\": 3 }");
    let failed = check_exit(&["docs", broken.to_str().unwrap()], 1);
    assert!(stderr(&failed).contains("b.json"), "{}", stderr(&failed));
}

/// `schemac docs A B -o DIR`: a page per schema, named after its file; what describes one schema
/// is refused for several, and so are two pages with one name.
#[test]
fn docs_writes_a_page_per_schema_into_a_directory() {
    let dir = TempDir::new("schemac-cli");
    let a = dir.write("a.json", r#"{"title": "A", "type": "object", "properties": {"x": {"type": "integer", "minimum": 1}}}"#);
    fs::create_dir_all(dir.0.join("y")).unwrap();
    let b = dir.write("y/b.yaml", "title: B\ntype: array\nitems: {type: string}\n");
    let pages = dir.0.join("pages");
    fs::create_dir_all(&pages).unwrap();
    check_exit(&["docs", a.to_str().unwrap(), b.to_str().unwrap(), "-o", pages.to_str().unwrap()], 0);
    let mut names: Vec<String> = fs::read_dir(&pages).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["a.md", "b.md"]);
    let page_a = fs::read_to_string(pages.join("a.md")).unwrap();
    assert!(page_a.contains("| x | integer |  | ≥ 1 |"), "{page_a}");
    // Each page is what `schemac docs` prints for that schema alone.
    assert_eq!(page_a, stdout(&check_exit(&["docs", a.to_str().unwrap()], 0)));
    assert_eq!(fs::read_to_string(pages.join("b.md")).unwrap(), stdout(&check_exit(&["docs", b.to_str().unwrap()], 0)));

    // A path ending in `/` is a directory too, even with one schema (it must exist).
    let slash = format!("{}/", pages.display());
    fs::remove_file(pages.join("a.md")).unwrap();
    check_exit(&["docs", a.to_str().unwrap(), "-o", &slash], 0);
    assert!(pages.join("a.md").is_file());

    let refused = check_exit(&["docs", a.to_str().unwrap(), b.to_str().unwrap(), "--reference", "x/v1", "-o", pages.to_str().unwrap()], 2);
    assert!(stderr(&refused).contains("--reference describes one schema, and 2 were given"), "{}", stderr(&refused));
    let no_dir = check_exit(&["docs", a.to_str().unwrap(), b.to_str().unwrap()], 2);
    assert!(stderr(&no_dir).contains("-o DIR"), "{}", stderr(&no_dir));
    let twin = dir.write("y/a.json", r#"{"type": "string"}"#);
    let clash = check_exit(&["docs", a.to_str().unwrap(), twin.to_str().unwrap(), "-o", pages.to_str().unwrap()], 2);
    assert!(stderr(&clash).contains("would both be written to"), "{}", stderr(&clash));
}
