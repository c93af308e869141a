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

/// The program that reads the 200-deep chain's documents. serde_json reads text at most 128
/// levels deep, so the 200-deep document is read from a `Value` (`from_value`, which has no
/// such limit) and a 100-deep one from text.
const DEEP_MAIN: &str = r##"#![recursion_limit = "512"]
mod chain;

use serde_json::Value;

fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| Value::Array(vec![inner]))
}

fn main() {
    let doc = serde_json::json!({"deep": nested(200, "x".into())});
    let value: chain::Chain = schemac_runtime::from_value(doc.clone()).expect("a 200-deep document is valid");
    assert_eq!(serde_json::to_value(&value).unwrap(), doc, "lossless");
    schemac_runtime::Validate::validate(&value).expect("and valid once read");
    let text = format!(r#"{{"deep":{}[]{}}}"#, "[".repeat(99), "]".repeat(99));
    let read: chain::Chain = schemac_runtime::from_str(&text).expect("a 100-deep text is valid");
    assert_eq!(serde_json::to_string(&read).unwrap(), text, "lossless");
    let bad = serde_json::json!({"deep": nested(200, "".into())});
    let err = schemac_runtime::from_value::<chain::Chain>(bad).unwrap_err();
    println!("rejected at {}", err.pointer());
}
"##;

#[test]
fn arrays_nested_200_deep_compile_and_round_trip() {
    // `l0` .. `l199` arrays, each of the next, and `l200` a non-empty string: lowered, one
    // type 200 `Vec`s deep, which rustc cannot compile (its drop check, trait solver and
    // monomorphizer stop at 128 levels, serde_derive overflows its stack); cut, named types of
    // 32 levels each (`L9`, `L41`, ..., `L169`).
    let mut defs: Vec<String> =
        (0..200).map(|i| format!(r##""l{i}": {{"type": "array", "items": {{"$ref": "#/$defs/l{}"}}}}"##, i + 1)).collect();
    defs.push(r#""l200": {"type": "string", "minLength": 1}"#.to_owned());
    let schema = format!(
        r##"{{"title": "Chain", "type": "object", "properties": {{"deep": {{"$ref": "#/$defs/l0"}}}}, "$defs": {{{}}}}}"##,
        defs.join(", ")
    );
    let (run, out) = compile("chain.json", &schema);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let tokens: String = out.split_whitespace().collect();
    for piece in ["L9", "L41", "L73", "L105", "L137", "L169"] {
        assert!(tokens.contains(&format!("pubstruct{piece}(pub::schemac_runtime::Deep<")), "{piece}:\n{out}");
    }

    // A scratch crate built as the docs test (`tests/docs.rs`) builds its own: this workspace's lock file,
    // and its target directory as the build directory, so no dependency is compiled again.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = tmp.join("deep-arrays");
    let build = tmp.parent().expect("CARGO_TARGET_TMPDIR is inside the target directory");
    let dir = base.join("crate");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src")).expect("create the scratch crate");
    let root = fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).expect("the checkout");
    let manifest = format!(
        "[package]\nname = \"deep-arrays\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n\
         schemac-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n\
         [profile.dev]\ndebug = false\n\n[workspace]\n",
        root.join("crates/schemac-runtime")
    );
    fs::write(dir.join("Cargo.toml"), manifest).expect("write the manifest");
    fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy the lock file");
    fs::write(dir.join("src/chain.rs"), &out).expect("write the module");
    fs::write(dir.join("src/main.rs"), DEEP_MAIN).expect("write main");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let start = Instant::now();
    let output = Command::new(cargo)
        .args(["run", "-q", "--offline"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env("CARGO_BUILD_BUILD_DIR", build)
        // A full build each time, as on a first run: what is measured is what it costs.
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let pointer = format!("/deep{}", "/0".repeat(200));
    assert_eq!(stdout.trim(), format!("rejected at {pointer}"), "{stderr}");
    println!("chain.json: 200 levels compiled and run in {:?}", start.elapsed());
}
