//! Hostile shapes and sizes, run through the `schemac` binary on inputs generated here (too
//! large to commit): chains of 100,000 `$ref`s (also through `allOf`, items and properties) and
//! 100,000-deep nesting end in a located `schema-too-deep`/`too-deep` error, not a stack
//! overflow, and within a deadline; shorter chains compile.

mod common;

use common::TempDir;

use std::fmt::Write as _;
use std::fs;
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Generous for a debug build on a shared machine (a 100,000-level chain took 33-62 s at a load
/// of 9 on 2 cores): what is asserted is that the run ends with the right error (a stack
/// overflow aborts at once; the quadratic walks took many minutes). The timings that matter are
/// the release binary's, measured with `/usr/bin/time`.
const DEADLINE: Duration = Duration::from_secs(240);

/// What one run printed.
struct Run {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// `schemac compile NAME -o out.rs` on `text` written to `NAME` in a scratch directory.
fn compile(name: &str, text: &str) -> (Run, String) {
    let dir = TempDir::new("schemac-hostile");
    fs::write(dir.0.join(name), text).expect("write the schema");
    let run = schemac(&dir.0, &["compile", name, "-o", "out.rs"]);
    let out = fs::read_to_string(dir.0.join("out.rs")).unwrap_or_default();
    (run, out)
}

fn schemac(cwd: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_schemac"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("schemac runs");
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait().expect("wait") {
            Some(status) => break status,
            None if start.elapsed() > DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("schemac {} did not finish within {DEADLINE:?}", args.join(" "));
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    Run { code: status.code(), stderr: reader.join().unwrap_or_default(), elapsed: start.elapsed() }
}

/// One level of a chain: the schema of `d{i}`, given the `$ref` to `d{i+1}`.
type Step = fn(&str) -> String;

/// `{"$ref": "#/$defs/d0", "$defs": {"d0": step(0), ..., "dN": {"type": "string"}}}`, where
/// `step(i)` refers to `d{i+1}`.
fn chain(n: usize, step: Step) -> String {
    let mut text = String::from(r##"{"$ref": "#/$defs/d0", "$defs": {"##);
    for i in 0..n {
        let next = format!(r##"{{"$ref": "#/$defs/d{}"}}"##, i + 1);
        write!(text, r#""d{i}": {}, "#, step(&next)).expect("write to a string");
    }
    write!(text, r#""d{n}": {{"type": "string"}}}}}}"#).expect("write to a string");
    text
}

/// Asserts errors `error[code]: NAME:line:column at POINTER: ...` (one per branch that reaches
/// the limit), each with a hint, the first at `pointer`.
fn assert_located(run: &Run, name: &str, code: &str, pointer: &str) {
    let stderr = &run.stderr;
    assert_eq!(run.code, Some(1), "{name}: exit status\n{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert!(!errors.is_empty() && errors.len() <= 2, "{name}: one error, or one per branch\n{stderr}");
    let prefix = format!("error[{code}]: {name}:1:");
    assert!(errors.iter().all(|e| e.starts_with(&prefix)), "{name}: expected `{prefix}`\n{stderr}");
    assert!(errors[0].contains(&format!(" at {pointer}: ")), "{name}: expected the pointer {pointer}\n{stderr}");
    assert_eq!(stderr.matches("\n  hint: ").count(), errors.len(), "{name}: a hint for each\n{stderr}");
}

#[test]
fn long_reference_chains_end_in_a_located_error() {
    let cases: [(&str, Step, &str); 6] = [
        ("ref.json", |next| next.to_owned(), "/$defs/d254/$ref"),
        ("all-of.json", |next| format!(r#"{{"allOf": [{next}]}}"#), "/$defs/d127/allOf"),
        // Every level reaches the next twice: a walk that revisits doubles per level.
        ("diamond.json", |next| format!(r#"{{"allOf": [{next}, {next}]}}"#), "/$defs/d127/allOf"),
        ("items.json", |next| format!(r#"{{"type": "array", "items": {next}}}"#), "/$defs/d255/items"),
        ("property.json", |next| format!(r#"{{"type": "object", "properties": {{"a": {next}}}}}"#), "/$defs/d255/properties/a"),
        ("any-of.json", |next| format!(r#"{{"anyOf": [{next}, {{"type": "null"}}]}}"#), "/$defs/d255/anyOf/0"),
    ];
    for (name, step, pointer) in cases {
        let (run, _) = compile(name, &chain(100_000, step));
        assert_located(&run, name, "schema-too-deep", pointer);
        println!("{name}: 100,000 levels refused in {:?}", run.elapsed);
    }
}

#[test]
fn chains_within_the_limit_compile() {
    let cases: [(&str, Step); 4] = [
        ("ref.json", |next| next.to_owned()),
        ("all-of.json", |next| format!(r#"{{"allOf": [{next}, {next}]}}"#)),
        ("property.json", |next| format!(r#"{{"type": "object", "properties": {{"a": {next}}}}}"#)),
        ("items.json", |next| format!(r#"{{"type": "array", "items": {next}}}"#)),
    ];
    for (name, step) in cases {
        let (run, out) = compile(name, &chain(120, step));
        assert_eq!(run.code, Some(0), "{name}\n{}", run.stderr);
        assert!(out.contains("pub "), "{name}: some code\n{out}");
    }
}

#[test]
fn deep_nesting_ends_in_a_located_error() {
    let json = format!("{}{}{}", r#"{"items": "#.repeat(100_000), r#"{"type": "string"}"#, "}".repeat(100_000));
    let yaml = format!("{}{}{}", "{items: ".repeat(100_000), "{type: string}", "}".repeat(100_000));
    for (name, text) in [("deep.json", json), ("deep.yaml", yaml)] {
        let (run, _) = compile(name, &text);
        assert_eq!(run.code, Some(1), "{name}\n{}", run.stderr);
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with(&format!("error[too-deep]: {name}:1:")), "{name}\n{}", run.stderr);
        assert!(run.stderr.contains("\n  hint: "), "{name}: a hint\n{}", run.stderr);
        println!("{name}: 100,000 levels refused in {:?}", run.elapsed);
    }
}

/// `[{body(0)}, {body(1)}, ...]`-style lists, joined with commas.
fn list(n: usize, item: impl Fn(usize) -> String) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(", ")
}

#[test]
fn many_enum_values_properties_and_errors_finish() {
    // Each was quadratic: `enum` values deduplicated by scanning those kept, each property
    // looked up among the merged ones and in `required`, each unresolved `$ref` copying the
    // object it missed in. The timings are in the report, from the release binary.
    // 20,000 distinct values, not 100,000: a debug build spends a minute printing 100,000
    // variants with prettyplease (a release build 5 s in all, in the report).
    let values = format!(r#"{{"enum": [{}]}}"#, list(20_000, |i| format!(r#""v{i}", "v{i}""#)));
    let (run, out) = compile("enum.json", &values);
    assert_eq!(run.code, Some(0), "enum\n{}", run.stderr);
    assert!(out.contains("V19999") && !out.contains("V19999_2"), "one variant per distinct value");
    println!("enum.json: 40,000 values (20,000 distinct) in {:?}", run.elapsed);

    let names = list(20_000, |i| format!(r#""p{i}""#));
    let properties = list(20_000, |i| format!(r#""p{i}": {{"type": "string"}}"#));
    let object = format!(r#"{{"type": "object", "required": [{names}], "properties": {{{properties}}}}}"#);
    let (run, out) = compile("object.json", &object);
    assert_eq!(run.code, Some(0), "object\n{}", run.stderr);
    assert!(out.contains("pub p19999: ::std::string::String,"), "a required field of each property");
    println!("object.json: 20,000 required properties in {:?}", run.elapsed);

    let refs = list(100_000, |i| format!(r##""p{i}": {{"$ref": "#/$defs/missing"}}"##));
    let (run, _) = compile("refs.json", &format!(r#"{{"type": "object", "properties": {{{refs}}}}}"#));
    assert_eq!(run.code, Some(1), "refs\n{}", run.stderr.lines().next().unwrap_or_default());
    assert_eq!(run.stderr.matches("error[unresolved-ref]: refs.json:1:").count(), 100_000, "one error per `$ref`");
    println!("refs.json: 100,000 unresolved refs in {:?}", run.elapsed);
}
