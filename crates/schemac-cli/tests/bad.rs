//! The malformed-schema corpus, run through the `schemac` binary: every file in `tests/bad/`,
//! and the cases git cannot hold (directories, FIFOs, symlinks, clobbered outputs, closed
//! stdout) built in a scratch directory. Each case asserts the exit status and every error
//! printed, in order: its code, the file, the JSON pointer and line:column where there are
//! ones (`error[code]: file:line:column at /pointer: `), and that a `hint:` follows it.

mod common;

use common::TempDir;

use std::fs::{self, File, OpenOptions};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of `schemac` and what it must print.
struct Case {
    /// What the case is about, for failures.
    name: &'static str,
    /// Builds the scratch directory the case runs in; `None` runs in the repository root.
    setup: Option<fn(&Path)>,
    args: &'static [&'static str],
    stdout: Out,
    exit: i32,
    /// The start of each error printed, in order (`error[code]: …` or `error: …`).
    errors: &'static [&'static str],
    /// Checks the scratch directory after the run (that a schema is intact, ...).
    after: Option<fn(&Path)>,
}

/// Where stdout goes.
#[derive(Clone, Copy)]
enum Out {
    Null,
    /// `>&-`: closed before schemac starts.
    Closed,
    /// `>/dev/full`.
    Full,
    /// `>>FILE` in the scratch directory.
    Append(&'static str),
}

const fn case(name: &'static str, args: &'static [&'static str], exit: i32, errors: &'static [&'static str]) -> Case {
    Case { name, setup: None, args, stdout: Out::Null, exit, errors, after: None }
}

const fn scratch(name: &'static str, setup: fn(&Path), args: &'static [&'static str], exit: i32, errors: &'static [&'static str]) -> Case {
    Case { name, setup: Some(setup), args, stdout: Out::Null, exit, errors, after: None }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/schemac-cli is two levels down").to_path_buf()
}

/// One printed error: its first line and its hint.
#[derive(Debug)]
struct Printed {
    line: String,
    hint: Option<String>,
}

/// The errors in schemac's stderr: each starts with `error` (or, for a command line without a
/// command, clap's `Usage:`), and may be followed by a `  hint: ` line. Clap's usage errors end
/// with what to do instead: a `tip:`, `For more information, try '--help'.`, or the commands.
fn printed(stderr: &str) -> Vec<Printed> {
    let mut out: Vec<Printed> = Vec::new();
    for line in stderr.lines() {
        if line.starts_with("error") || (out.is_empty() && line.starts_with("Usage: ")) {
            out.push(Printed { line: line.to_owned(), hint: None });
        } else if let Some(last) = out.last_mut() {
            let hint = line.strip_prefix("  hint: ").or_else(|| line.strip_prefix("  tip: "));
            let clap = ["For more information, try '--help'.", "Commands:"].contains(&line);
            if let Some(hint) = hint.or(clap.then_some(line)) {
                last.hint.get_or_insert_with(|| hint.to_owned());
            }
        }
    }
    out
}

/// Runs each case; returns a description of every one that failed.
fn run(cases: &[Case]) {
    let mut failures = Vec::new();
    for case in cases {
        if let Err(why) = run_one(case) {
            failures.push(format!("case `{}` (schemac {}): {why}", case.name, case.args.join(" ")));
        }
    }
    println!("{} cases", cases.len());
    assert!(failures.is_empty(), "{} of {} cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

fn run_one(case: &Case) -> Result<(), String> {
    let scratch = case.setup.map(|setup| {
        let dir = TempDir::new("schemac-bad");
        setup(&dir.0);
        dir
    });
    let cwd = scratch.as_ref().map_or_else(repo_root, |dir| dir.0.clone());
    let mut command = match case.stdout {
        Out::Closed => {
            let mut command = Command::new("sh");
            command.arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(env!("CARGO_BIN_EXE_schemac"));
            command
        }
        _ => Command::new(env!("CARGO_BIN_EXE_schemac")),
    };
    command.args(case.args).current_dir(&cwd).stdin(Stdio::null()).stderr(Stdio::piped());
    match case.stdout {
        Out::Null | Out::Closed => command.stdout(Stdio::null()),
        Out::Full => command.stdout(File::options().write(true).open("/dev/full").map_err(|e| format!("/dev/full: {e}"))?),
        Out::Append(name) => command.stdout(OpenOptions::new().append(true).open(cwd.join(name)).map_err(|e| format!("{name}: {e}"))?),
    };
    let (code, stderr) = run_with_deadline(&mut command)?;
    let show = || format!("\n--- stderr:\n{stderr}---");
    if code != Some(case.exit) {
        return Err(format!("exit status {code:?}, expected {}{}", case.exit, show()));
    }
    let errors = printed(&stderr);
    if errors.len() != case.errors.len() {
        return Err(format!("{} errors printed, expected {}{}", errors.len(), case.errors.len(), show()));
    }
    for (got, expected) in errors.iter().zip(case.errors) {
        if !got.line.starts_with(expected) {
            return Err(format!("expected an error starting `{expected}`{}", show()));
        }
        if got.hint.is_none() {
            return Err(format!("no hint after `{}`{}", got.line, show()));
        }
    }
    if case.exit == 0 && !stderr.is_empty() {
        return Err(format!("succeeded with something on stderr{}", show()));
    }
    if let (Some(after), Some(dir)) = (case.after, &scratch) {
        after(&dir.0);
    }
    Ok(())
}

/// How long a case may take: a hang (reading a FIFO) is a failure, not a stuck test.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs `command` to its end or the deadline; its exit status and stderr.
fn run_with_deadline(command: &mut Command) -> Result<(Option<i32>, String), String> {
    let mut child = command.spawn().map_err(|err| format!("cannot run: {err}"))?;
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|err| format!("cannot wait: {err}"))? {
            Some(status) => break status,
            None if start.elapsed() > DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("did not finish within {DEADLINE:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    Ok((status.code(), reader.join().unwrap_or_default()))
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

fn symlink(dir: &Path, target: &str, name: &str) {
    std::os::unix::fs::symlink(target, dir.join(name)).expect("symlink");
}

fn mkfifo(dir: &Path, name: &str) {
    let status = Command::new("mkfifo").arg(dir.join(name)).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {name}");
}

/// The schema every output case compiles; it must survive every one of them.
const SCHEMA: &str = r#"{"type": "string"}"#;

fn schema_dir(dir: &Path) {
    write(dir, "s.json", SCHEMA);
    write(dir, "refs.json", r#"{"$ref": "r.json"}"#);
    write(dir, "r.json", r#"{"type": "integer"}"#);
    write(dir, "cat/c.json", r#"{"$id": "urn:c"}"#);
    fs::create_dir(dir.join("sub")).expect("mkdir");
    fs::create_dir(dir.join("out")).expect("mkdir");
}

fn schemas_intact(dir: &Path) {
    assert_eq!(fs::read_to_string(dir.join("s.json")).expect("s.json"), SCHEMA, "s.json was overwritten");
    assert_eq!(fs::read_to_string(dir.join("r.json")).expect("r.json"), r#"{"type": "integer"}"#, "r.json was overwritten");
    assert_eq!(fs::read_to_string(dir.join("cat/c.json")).expect("c.json"), r#"{"$id": "urn:c"}"#, "c.json was overwritten");
    let mut names: Vec<String> =
        fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert!(names.iter().all(|name| !name.ends_with(".tmp")), "a temporary file was left: {names:?}");
}

fn written(dir: &Path) {
    schemas_intact(dir);
    let code = fs::read_to_string(dir.join("s.rs")).expect("s.rs is written");
    assert!(code.starts_with("// @generated"), "{code:.80}");
}

/// A file of more than 64 bytes, and a schema that refers to it.
fn large(dir: &Path) {
    write(dir, "large.json", &format!(r#"{{"description": "{}"}}"#, "x".repeat(100)));
    write(dir, "main.json", r#"{"properties": {"a": {"$ref": "large.json"}}}"#);
}

#[test]
fn malformed_json() {
    run(&[
        case("empty file", &["compile", "tests/bad/empty.json"], 1, &["error[invalid-json]: tests/bad/empty.json:1:1: the file is empty"]),
        case("missing comma", &["compile", "tests/bad/invalid-json.json"], 1, &["error[invalid-json]: tests/bad/invalid-json.json:5:5: "]),
        case(
            "columns count characters",
            &["compile", "tests/bad/invalid-json-unicode.json"],
            1,
            &["error[invalid-json]: tests/bad/invalid-json-unicode.json:2:26: "],
        ),
        case("invalid YAML", &["compile", "tests/bad/invalid.yaml"], 1, &["error[invalid-yaml]: tests/bad/invalid.yaml:4:6: "]),
        case("a byte order mark is accepted", &["compile", "tests/bad/bom.json"], 0, &[]),
        case("two byte order marks", &["compile", "tests/bad/bom-twice.json"], 1, &["error[invalid-json]: tests/bad/bom-twice.json:1:1: "]),
        case("NaN", &["compile", "tests/bad/nan.json"], 1, &["error[invalid-json]: tests/bad/nan.json:3:14: "]),
        case("-Infinity", &["compile", "tests/bad/infinity.json"], 1, &["error[invalid-json]: tests/bad/infinity.json:3:15: "]),
        case(
            "1e400 is valid JSON beyond f64",
            &["compile", "tests/bad/number-1e400.json"],
            1,
            &["error[number-out-of-range]: tests/bad/number-1e400.json:3:14: the number 1e400 is valid JSON"],
        ),
        case(
            "Latin-1",
            &["compile", "tests/bad/invalid-utf8.json"],
            1,
            &["error[invalid-json]: tests/bad/invalid-utf8.json:2:16: the file is not UTF-8"],
        ),
        case("UTF-16", &["compile", "tests/bad/utf16.json"], 1, &["error[invalid-json]: tests/bad/utf16.json:1:1: the file is not UTF-8"]),
        case("a comment", &["compile", "tests/bad/comment.json"], 1, &["error[invalid-json]: tests/bad/comment.json:2:3: "]),
        case(
            "a trailing comma",
            &["compile", "tests/bad/trailing-comma.json"],
            1,
            &["error[invalid-json]: tests/bad/trailing-comma.json:3:25: "],
        ),
        case(
            "single quotes",
            &["compile", "tests/bad/single-quotes.json"],
            1,
            &["error[invalid-json]: tests/bad/single-quotes.json:2:3: "],
        ),
        case("cut short", &["compile", "tests/bad/truncated.json"], 1, &["error[invalid-json]: tests/bad/truncated.json:5:1: "]),
        case(
            "nested 128 deep",
            &["compile", "tests/bad/too-deep.json"],
            1,
            &["error[too-deep]: tests/bad/too-deep.json:1:1271: the JSON is nested deeper than 127"],
        ),
        case(
            "a duplicate key",
            &["compile", "tests/bad/duplicate-key.json"],
            1,
            &[
                "error[duplicate-key]: tests/bad/duplicate-key.json:6:3 at /type: the key \"type\" appears twice in one object (first at 2:3)",
            ],
        ),
        case(
            "duplicate keys below the root",
            &["compile", "tests/bad/duplicate-key-nested.json"],
            1,
            &[
                "error[duplicate-key]: tests/bad/duplicate-key-nested.json:5:5 at /properties/id: ",
                "error[duplicate-key]: tests/bad/duplicate-key-nested.json:6:49 at /properties/name/minLength: ",
            ],
        ),
        case(
            "an array",
            &["compile", "tests/bad/not-a-schema-array.json"],
            1,
            &["error[not-a-schema]: tests/bad/not-a-schema-array.json:1:1 at (document root): "],
        ),
        case(
            "a string",
            &["compile", "tests/bad/not-a-schema-string.json"],
            1,
            &["error[not-a-schema]: tests/bad/not-a-schema-string.json:1:1 at (document root): "],
        ),
        case(
            "null",
            &["compile", "tests/bad/not-a-schema-null.json"],
            1,
            &["error[not-a-schema]: tests/bad/not-a-schema-null.json:1:1 at (document root): "],
        ),
    ]);
}

#[test]
fn invalid_keywords() {
    run(&[
        case(
            "type 5",
            &["compile", "tests/bad/type-number.json"],
            1,
            &["error[invalid-schema]: tests/bad/type-number.json:4:20 at /properties/a/type: "],
        ),
        case(
            "required a string",
            &["compile", "tests/bad/required-string.json"],
            1,
            &["error[invalid-schema]: tests/bad/required-string.json:6:15 at /required: "],
        ),
        case(
            "unknown type names",
            &["compile", "tests/bad/unknown-type.json"],
            1,
            &[
                "error[invalid-schema]: tests/bad/unknown-type.json:4:23 at /properties/name/type: unknown type name \"strng\"",
                "error[invalid-schema]: tests/bad/unknown-type.json:5:34 at /properties/tags/type/1: unknown type name \"nul\"",
            ],
        ),
        case(
            "invalid pattern",
            &["compile", "tests/bad/invalid-pattern.json"],
            1,
            &["error[invalid-pattern]: tests/bad/invalid-pattern.json:4:44 at /properties/code/pattern: "],
        ),
        case(
            "invalid patternProperties",
            &["compile", "tests/bad/invalid-pattern-property.json"],
            1,
            &["error[invalid-pattern]: tests/bad/invalid-pattern-property.json:4:18 at /patternProperties/(unclosed: "],
        ),
        case(
            "unknown draft",
            &["compile", "tests/bad/unknown-draft.json"],
            1,
            &["error[unknown-draft]: tests/bad/unknown-draft.json:2:14 at /$schema: "],
        ),
        case(
            "$schema a number",
            &["compile", "tests/bad/schema-not-string.json"],
            1,
            &["error[unknown-draft]: tests/bad/schema-not-string.json:2:14 at /$schema: "],
        ),
        case(
            "three problems at once",
            &["compile", "tests/bad/three-problems.json"],
            1,
            &[
                // In the order of the file: the model reports shapes and references together.
                "error[invalid-schema]: tests/bad/three-problems.json:4:20 at /properties/a/type: ",
                "error[unresolved-ref]: tests/bad/three-problems.json:5:20 at /properties/b/$ref: ",
                "error[invalid-pattern]: tests/bad/three-problems.json:6:41 at /properties/c/pattern: ",
            ],
        ),
        case(
            "$anchor 1bad",
            &["compile", "tests/bad/anchor-digit.json"],
            1,
            &["error[invalid-anchor]: tests/bad/anchor-digit.json:3:26 at /$defs/item/$anchor: `$anchor` \"1bad\""],
        ),
        case(
            "$anchor 7",
            &["compile", "tests/bad/anchor-not-string.json"],
            1,
            &["error[invalid-anchor]: tests/bad/anchor-not-string.json:3:26 at /$defs/item/$anchor: "],
        ),
        case(
            "$anchor ns:item in 2020-12",
            &["compile", "tests/bad/anchor-colon.json"],
            1,
            &["error[invalid-anchor]: tests/bad/anchor-colon.json:4:26 at /$defs/item/$anchor: "],
        ),
        case(
            "$dynamicAnchor -node",
            &["compile", "tests/bad/dynamic-anchor.json"],
            1,
            &["error[invalid-anchor]: tests/bad/dynamic-anchor.json:2:21 at /$dynamicAnchor: "],
        ),
        case(
            "an anchor twice",
            &["compile", "tests/bad/duplicate-anchor.json"],
            1,
            &["error[duplicate-id]: tests/bad/duplicate-anchor.json:4:10 at /$defs/b: "],
        ),
        case(
            "an $id that is no URI",
            &["compile", "tests/bad/invalid-id.json"],
            1,
            &["error[invalid-id]: tests/bad/invalid-id.json:2:10 at /$id: "],
        ),
        case(
            "a~2b",
            &["compile", "tests/bad/pointer-escape.json"],
            1,
            &["error[invalid-ref]: tests/bad/pointer-escape.json:6:20 at /properties/x/$ref: `#/$defs/a~2b` is not a valid JSON pointer"],
        ),
        case(
            "a~",
            &["compile", "tests/bad/pointer-escape-end.json"],
            1,
            &["error[invalid-ref]: tests/bad/pointer-escape-end.json:6:20 at /properties/x/$ref: "],
        ),
        case(
            "a misspelt $defs name",
            &["compile", "tests/bad/unresolved-ref.json"],
            1,
            &["error[unresolved-ref]: tests/bad/unresolved-ref.json:5:24 at /properties/owner/$ref: "],
        ),
        case(
            "a ref loop",
            &["compile", "tests/bad/ref-cycle-root.json"],
            1,
            &["error[ref-cycle]: tests/bad/ref-cycle-root.json:2:11 at /$ref: "],
        ),
        case(
            "a ref loop in $defs",
            &["compile", "tests/bad/ref-cycle-defs.json"],
            1,
            &["error[ref-cycle]: tests/bad/ref-cycle-defs.json:7:23 at /$defs/loop/$ref: "],
        ),
        case(
            "a ref loop through allOf and anyOf, which consumes no data",
            &["compile", "tests/bad/ref-cycle-combinators.json"],
            1,
            &["error[ref-cycle]: tests/bad/ref-cycle-combinators.json:8:32 at /$defs/b/anyOf/0/$ref: `$ref` loop back to a schema \
               that already applies to the same value, through `anyOf`"],
        ),
        case(
            "a pattern only regress runs, without a step limit",
            &["compile", "tests/bad/unbounded-pattern.json"],
            1,
            &["error[unbounded-pattern]: tests/bad/unbounded-pattern.json:4:10 at /properties/p: the pattern `^(a+)+\\1$` has no \
               exact equivalent on an engine that bounds its time"],
        ),
        case(
            "no finite value",
            &["compile", "tests/bad/infinite-type.json"],
            1,
            &["error[infinite-type]: tests/bad/infinite-type.json:1:1 at (document root): "],
        ),
    ]);
}

#[test]
fn refs_stay_below_the_roots() {
    run(&[
        case(
            "file:///etc/passwd",
            &["compile", "tests/bad/ref-etc-passwd.json"],
            1,
            &[
                "error[outside-roots]: tests/bad/ref-etc-passwd.json:3:23 at /properties/user/$ref: `file:///etc/passwd` names the file /etc/passwd, which is outside",
            ],
        ),
        case(
            "../ forty times",
            &["compile", "tests/bad/ref-dotdot.json"],
            1,
            &["error[outside-roots]: tests/bad/ref-dotdot.json:3:23 at /properties/user/$ref: "],
        ),
        case(
            "file:///dev/zero",
            &["compile", "tests/bad/ref-dev-zero.json"],
            1,
            &["error[outside-roots]: tests/bad/ref-dev-zero.json:3:23 at /properties/zero/$ref: "],
        ),
        case(
            "a valid schema in a sibling directory",
            &["compile", "tests/bad/ref-sibling-dir.json"],
            1,
            &["error[outside-roots]: tests/bad/ref-sibling-dir.json:3:24 at /properties/other/$ref: "],
        ),
        case("--allow-root widens", &["compile", "tests/bad/ref-sibling-dir.json", "--allow-root", "tests/fixtures"], 0, &[]),
        case(
            "a file below the roots that does not exist",
            &["compile", "tests/bad/missing-file-ref.json"],
            1,
            &["error[unresolved-ref]: tests/bad/missing-file-ref.json:4:26 at /properties/address/$ref: "],
        ),
        scratch(
            "a symlink in a --map directory",
            |dir| {
                write(dir, "in/main.json", r#"{"properties": {"a": {"$ref": "https://example.com/s/x.json"}}}"#);
                write(dir, "secret/x.json", r#"{"type": "string"}"#);
                fs::create_dir(dir.join("in/mirror")).expect("mkdir");
                symlink(dir, "../../secret/x.json", "in/mirror/x.json");
            },
            &["compile", "in/main.json", "--map", "https://example.com/s/=in/mirror"],
            1,
            &["error[outside-roots]: in/main.json:1:31 at /properties/a/$ref: "],
        ),
        scratch(
            "a symlinked file in a --schema-dir",
            |dir| {
                write(dir, "in/main.json", "{}");
                write(dir, "secret/x.json", r#"{"type": "string"}"#);
                fs::create_dir(dir.join("in/cat")).expect("mkdir");
                symlink(dir, "../../secret/x.json", "in/cat/x.json");
            },
            &["compile", "in/main.json", "--schema-dir", "in/cat"],
            1,
            &["error[outside-roots]: in/cat/x.json: "],
        ),
        scratch(
            "a symlinked directory in a --schema-dir",
            |dir| {
                write(dir, "in/main.json", "{}");
                write(dir, "secret/x.json", r#"{"type": "string"}"#);
                fs::create_dir(dir.join("in/cat")).expect("mkdir");
                symlink(dir, "../../secret", "in/cat/linked");
            },
            &["compile", "in/main.json", "--schema-dir", "in/cat"],
            1,
            &["error[outside-roots]: in/cat/linked: "],
        ),
        scratch(
            "a relative ref out of the input's directory",
            |dir| {
                write(dir, "in/main.json", r#"{"$ref": "../other/x.json"}"#);
                write(dir, "other/x.json", "{}");
            },
            &["compile", "in/main.json"],
            1,
            &["error[outside-roots]: in/main.json:1:10 at /$ref: "],
        ),
        scratch(
            "a symlink to a file below the roots",
            |dir| {
                write(dir, "in/main.json", r#"{"$ref": "link.json"}"#);
                write(dir, "in/lib/x.json", r#"{"type": "string"}"#);
                symlink(dir, "lib/x.json", "in/link.json");
            },
            &["compile", "in/main.json"],
            0,
            &[],
        ),
        scratch(
            "--allow-root that does not exist",
            |dir| write(dir, "s.json", SCHEMA),
            &["compile", "s.json", "--allow-root", "nowhere"],
            1,
            &["error[io]: nowhere: cannot allow reading below nowhere"],
        ),
    ]);
}

#[test]
fn only_regular_files_within_the_limit_are_read() {
    run(&[
        scratch("a missing schema", |_| {}, &["compile", "nope.json"], 1, &["error[io]: nope.json: nope.json does not exist"]),
        scratch(
            "a directory as the schema",
            |dir| fs::create_dir(dir.join("dir.json")).expect("mkdir"),
            &["compile", "dir.json"],
            1,
            &["error[not-a-file]: dir.json: dir.json is a directory, not a schema file"],
        ),
        scratch(
            "a FIFO as the schema",
            |dir| mkfifo(dir, "pipe.json"),
            &["compile", "pipe.json"],
            1,
            &["error[not-a-file]: pipe.json: pipe.json is a FIFO"],
        ),
        scratch(
            "a ref to a FIFO",
            |dir| {
                write(dir, "main.json", r#"{"properties": {"a": {"$ref": "pipe.json"}}}"#);
                mkfifo(dir, "pipe.json");
            },
            &["compile", "main.json"],
            1,
            &["error[not-a-file]: main.json:1:31 at /properties/a/$ref: `pipe.json` names the file "],
        ),
        scratch(
            "a ref to a directory",
            |dir| {
                write(dir, "main.json", r#"{"properties": {"a": {"$ref": "sub"}}}"#);
                write(dir, "sub/x.json", "{}");
            },
            &["compile", "main.json"],
            1,
            &["error[not-a-file]: main.json:1:31 at /properties/a/$ref: "],
        ),
        scratch(
            "a FIFO in a --schema-dir",
            |dir| {
                write(dir, "main.json", "{}");
                fs::create_dir(dir.join("cat")).expect("mkdir");
                mkfifo(dir, "cat/pipe.json");
            },
            &["compile", "main.json", "--schema-dir", "cat"],
            1,
            &["error[not-a-file]: cat/pipe.json: "],
        ),
        scratch(
            "a symlink loop as the schema",
            |dir| symlink(dir, "loop.json", "loop.json"),
            &["compile", "loop.json"],
            1,
            &["error[symlink-loop]: loop.json: loop.json is a symlink that leads back to itself"],
        ),
        scratch(
            "a ref through a symlink loop",
            |dir| {
                write(dir, "main.json", r#"{"properties": {"a": {"$ref": "a.json"}}}"#);
                symlink(dir, "b.json", "a.json");
                symlink(dir, "a.json", "b.json");
            },
            &["compile", "main.json"],
            1,
            &["error[symlink-loop]: main.json:1:31 at /properties/a/$ref: "],
        ),
        scratch(
            "a ref through a directory that loops",
            |dir| {
                write(dir, "main.json", r#"{"properties": {"a": {"$ref": "d/x.json"}}}"#);
                symlink(dir, "d", "d");
            },
            &["compile", "main.json"],
            1,
            &["error[symlink-loop]: main.json:1:31 at /properties/a/$ref: "],
        ),
        scratch(
            "a ref to a dangling symlink",
            |dir| {
                write(dir, "main.json", r#"{"properties": {"a": {"$ref": "gone.json"}}}"#);
                symlink(dir, "nothing.json", "gone.json");
            },
            &["compile", "main.json"],
            1,
            &["error[io]: main.json:1:31 at /properties/a/$ref: `gone.json` names the file "],
        ),
        scratch(
            "a schema over --max-file-size",
            large,
            &["compile", "large.json", "--max-file-size", "64"],
            1,
            &["error[file-too-large]: large.json: large.json is 119 bytes, more than the limit of 64 bytes"],
        ),
        scratch(
            "a ref to a file over --max-file-size",
            large,
            &["compile", "main.json", "--max-file-size", "64"],
            1,
            &["error[file-too-large]: main.json:1:31 at /properties/a/$ref: "],
        ),
        scratch("the same within --max-file-size", large, &["compile", "main.json", "--max-file-size", "1K"], 0, &[]),
    ]);
}

#[test]
fn outputs_never_clobber_inputs() {
    const CLOBBER: &str = "error: refusing to write ";
    let clobber = |name, args, errors| Case { after: Some(schemas_intact as fn(&Path)), ..scratch(name, schema_dir, args, 2, errors) };
    let mut cases = vec![
        clobber("-o the schema", &["compile", "s.json", "-o", "s.json"], &["error: refusing to write s.json: it is the schema s.json"]),
        clobber(
            "-o the schema through ..",
            &["compile", "s.json", "-o", "sub/../s.json"],
            &["error: refusing to write sub/../s.json: it is another name for the schema s.json"],
        ),
        clobber(
            "-o a referenced schema",
            &["compile", "refs.json", "-o", "r.json"],
            &["error: refusing to write r.json: it is the schema r.json"],
        ),
        clobber(
            "-o a catalog schema",
            &["compile", "s.json", "--schema-dir", "cat", "-o", "cat/c.json"],
            &["error: refusing to write cat/c.json: it is the schema cat/c.json"],
        ),
        Case {
            setup: Some(|dir| {
                schema_dir(dir);
                symlink(dir, "s.json", "link.rs");
            }),
            ..clobber("-o a symlink to the schema", &["compile", "s.json", "-o", "link.rs"], &[CLOBBER])
        },
        Case {
            setup: Some(|dir| {
                schema_dir(dir);
                fs::hard_link(dir.join("s.json"), dir.join("hard.rs")).expect("hard link");
            }),
            ..clobber(
                "-o a hard link to the schema",
                &["compile", "s.json", "-o", "hard.rs"],
                &["error: refusing to write hard.rs: it is another name for the schema s.json"],
            )
        },
        Case {
            stdout: Out::Append("s.json"),
            ..clobber(
                "stdout appended to the schema",
                &["compile", "s.json"],
                &["error: refusing to write stdout: it is another name for the schema s.json"],
            )
        },
        Case { after: Some(written), ..scratch("-o a new file", schema_dir, &["compile", "s.json", "-o", "s.rs"], 0, &[]) },
        scratch("-o a directory", schema_dir, &["compile", "s.json", "-o", "out"], 1, &["error: cannot write out: it is a directory"]),
        scratch(
            "-o in a missing directory",
            schema_dir,
            &["compile", "s.json", "-o", "missing/s.rs"],
            1,
            &["error: cannot write missing/s.rs: "],
        ),
        scratch("-o /dev/null", schema_dir, &["compile", "s.json", "-o", "/dev/null"], 0, &[]),
        scratch(
            "-o /dev/full",
            schema_dir,
            &["compile", "s.json", "-o", "/dev/full"],
            1,
            &["error: cannot write /dev/full: No space left on device"],
        ),
        Case {
            stdout: Out::Closed,
            ..scratch("stdout closed", schema_dir, &["compile", "s.json"], 1, &["error: cannot write to stdout: it is closed"])
        },
        Case {
            stdout: Out::Full,
            ..scratch(
                "stdout on a full disk",
                schema_dir,
                &["compile", "s.json"],
                1,
                &["error: cannot write to stdout: No space left on device"],
            )
        },
    ];
    assert!(Path::new("/dev/full").exists(), "these cases need Linux's /dev/full");
    cases.push(Case {
        after: Some(schemas_intact),
        ..scratch("schema errors write nothing", schema_dir, &["compile", "nope.json", "-o", "s.json"], 1, &["error[io]: nope.json: "])
    });
    run(&cases);
}

#[test]
fn command_line_misuse() {
    run(&[
        case("no command", &[], 2, &["Usage: schemac <COMMAND>"]),
        case("an unknown command", &["frobnicate"], 2, &["error: unrecognized subcommand 'frobnicate'"]),
        case("no schema", &["compile"], 2, &["error: the following required arguments were not provided"]),
        case(
            "an unknown flag",
            &["compile", "tests/bad/bom.json", "--no-such-flag"],
            2,
            &["error: unexpected argument '--no-such-flag' found"],
        ),
        case(
            "--map without =",
            &["compile", "tests/bad/bom.json", "--map", "nope"],
            2,
            &["error: invalid value 'nope' for '--map <URL_PREFIX=DIR>'"],
        ),
        case(
            "--default-draft 5",
            &["compile", "tests/bad/bom.json", "--default-draft", "5"],
            2,
            &["error: invalid value '5' for '--default-draft <DRAFT>'"],
        ),
        case(
            "--max-file-size 64MB",
            &["compile", "tests/bad/bom.json", "--max-file-size", "64MB"],
            2,
            &["error: invalid value '64MB' for '--max-file-size <BYTES>'"],
        ),
        case("-o without a path", &["compile", "tests/bad/bom.json", "-o"], 2, &["error: a value is required for '--out <OUT.rs>'"]),
    ]);
}

/// Every file in `tests/bad/` is run by a case above, so none is left unchecked.
#[test]
fn every_file_in_tests_bad_is_a_case() {
    let source = include_str!("bad.rs");
    let mut missing = Vec::new();
    for entry in fs::read_dir(repo_root().join("tests/bad")).expect("tests/bad") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if !source.contains(&format!("\"tests/bad/{name}\"")) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "files in tests/bad/ that no case runs: {missing:?}");
}
