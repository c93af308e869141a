//! The README and the user guide (`docs/`) are built as they are written: every fenced snippet
//! is either built here or marked `text`; every relative link between the README, the guide,
//! ARCHITECTURE.md and BENCHMARKS.md resolves; every repository file they name exists, and
//! every path into schemac's crates they name is in that crate's public API snapshot.
//!
//! A reader follows the README and then the guide's chapters in `docs/SUMMARY.md` order, in
//! one repository (`repo/`) beside a checkout of schemac (`schemac`, here a symlink to this
//! checkout), so a path the text names (`../schemac/crates/schemac-runtime`) is the path used.
//! Each fence's info string says what it is:
//!
//! - `rust|toml|json|yaml file=PATH...`: the file `PATH` of the repository (each `file=` one
//!   copy). A `Cargo.toml` fence is what the text tells the reader to add to that manifest: the
//!   first one of a crate comes after what `cargo new` writes (`[package]` with the directory's
//!   name, version 0.1.0, edition 2024; the crate becomes a workspace member), later ones are
//!   merged into it table by table, and the workspace's `Cargo.toml` is a `[workspace]` the test
//!   writes first. The crates depend on `schemac-runtime = "0.1.0"` and so on as a published
//!   crate would be used: the README's `[patch.crates-io]` snippet points those versions at the
//!   checkout, which is how the test substitutes the local crates for crates.io.
//! - `sh [cwd=DIR]`: run by bash (`set -euo pipefail`) in the repository (or `DIR`, relative to
//!   it), with the `schemac` just built first on `PATH`, and `cargo` offline on the scratch
//!   target directory. `cargo install --path P` is checked, not run (a release build of the
//!   command would take minutes): `P` must be the package whose binary is this `schemac`. A
//!   `text output` fence right after it lists lines its output must contain (`...` skips).
//! - `text`: not built (an error message, a synopsis, an excerpt).
//!
//! Any other fence (no info string, another language, a `rust` block without a file) fails the
//! test, naming the file and line. Snippets are taken in reading order, so a `sh` snippet runs
//! when the files before it exist; then the whole repository is built by one `cargo build
//! --workspace` and every program a snippet wrote (`src/main.rs`, `src/bin/*`) is run.
//!
//! CI time: one scratch workspace, one target directory kept under `CARGO_TARGET_TMPDIR`
//! between runs, `cargo --offline` with this workspace's `Cargo.lock` (every crate it needs is
//! one this workspace already fetched), and this workspace's target directory as its build
//! directory (`CARGO_BUILD_BUILD_DIR`: dependencies, build scripts, fingerprints), so the
//! third-party crates, at the same locked versions and profile, are the ones `cargo test
//! --workspace` has just built. Beyond the snippets it checks what the text claims about them:
//! a build script's rerun set is its schema, a schema edit rebuilds the crate, and `schemac
//! check` fails with the diff after a schema edit and passes after `cargo xtask codegen`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output};

fn checkout() -> PathBuf {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap()
}

/// A fenced block of a Markdown file.
#[derive(Debug)]
struct Fence {
    /// `README.md:12`, for messages.
    at: String,
    lang: String,
    attrs: Vec<(String, String)>,
    body: String,
}

impl Fence {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn files(&self) -> Vec<&str> {
        self.attrs.iter().filter(|(k, _)| k == "file").map(|(_, v)| v.as_str()).collect()
    }
}

/// The fences of `text`, with their content unindented as far as the fence is.
fn fences(name: &str, text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else { continue };
        let indent = line.len() - trimmed.len();
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("").to_owned();
        let attrs = words
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (w.to_owned(), String::new()),
            })
            .collect();
        let mut body = String::new();
        let mut closed = false;
        for (_, line) in lines.by_ref() {
            if line.trim() == "```" {
                closed = true;
                break;
            }
            body.push_str(line.get(indent..).filter(|_| line[..indent.min(line.len())].trim().is_empty()).unwrap_or(line.trim_start()));
            body.push('\n');
        }
        assert!(closed, "{name}:{}: the fence is never closed", i + 1);
        out.push(Fence { at: format!("{name}:{}", i + 1), lang, attrs, body });
    }
    out
}

/// The README, then the guide's chapters in `docs/SUMMARY.md` order; every Markdown file of
/// `docs/` must be one of them.
fn documents(root: &Path) -> Vec<(String, String)> {
    let summary = fs::read_to_string(root.join("docs/SUMMARY.md")).unwrap();
    let mut names = vec!["README.md".to_owned()];
    for link in links(&summary) {
        names.push(format!("docs/{link}"));
    }
    let listed: BTreeSet<&String> = names.iter().collect();
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            assert!(listed.contains(&format!("docs/{name}")), "docs/{name} is not in docs/SUMMARY.md");
        }
    }
    names.into_iter().map(|name| (fs::read_to_string(root.join(&name)).unwrap(), name)).map(|(text, name)| (name, text)).collect()
}

/// The targets of the inline links `[text](target)` outside code.
fn links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Code spans hold no links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    out
}

/// The code spans of the lines outside fences.
fn code_spans(markdown: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            out.extend(line.split('`').skip(1).step_by(2));
        }
    }
    out
}

/// The anchors GitHub gives a file's headings: lower case, punctuation but `-` and `_` dropped,
/// spaces as `-`, repeats numbered.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !in_fence) else { continue };
        let heading = heading.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 { slug.clone() } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// Every relative link of the README, the guide, ARCHITECTURE.md and BENCHMARKS.md names a file
/// that exists, and its `#anchor` a heading of that file.
#[test]
fn links_between_the_documents_resolve() {
    let root = checkout();
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md"), PathBuf::from("BENCHMARKS.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path.strip_prefix(&root).unwrap().to_path_buf());
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = fs::read_to_string(root.join(file)).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = link.split_once('#').map_or((link.as_str(), None), |(p, a)| (p, Some(a)));
            let target = if path.is_empty() { root.join(file) } else { root.join(file).parent().unwrap().join(path) };
            if !target.exists() {
                broken.push(format!("{}: `{link}`: no file {}", file.display(), target.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let headings = if target.is_file() { anchors(&fs::read_to_string(&target).unwrap()) } else { BTreeSet::new() };
                if !headings.contains(anchor) {
                    broken.push(format!("{}: `{link}`: no heading `#{anchor}` in {}", file.display(), target.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 30, "only {checked} relative links found: is the link parser broken?");
}

/// Repository paths the README and the guide name in code that are not in a checkout: the
/// reader's repository's (written by the snippets), and what `cargo xtask fuzz` writes.
const NOT_IN_A_CHECKOUT: [&str; 4] = ["schemas/point.json", "schemas/order.json", "fuzz/corpus", "fuzz/artifacts"];

/// Every repository path the README and the guide name in code (`crates/schemac/src/diff/`,
/// `tests/tests/builders.rs`) exists, from the root or, for a path inside a crate
/// (`tests/ui/...`), from one of the crates or test crates.
#[test]
fn the_files_the_documents_name_exist() {
    let root = checkout();
    let mut bases = vec![root.clone(), root.join("generated")];
    for dir in ["crates", "tests"] {
        for entry in fs::read_dir(root.join(dir)).unwrap() {
            bases.push(entry.unwrap().path());
        }
    }
    let tops = ["crates", "tests", "xtask", "docs", "bench", "fuzz", "schemas", "generated", ".ci", "src"];
    let mut missing = Vec::new();
    let mut checked = 0;
    for (name, text) in documents(&root) {
        for span in code_spans(&text) {
            let path = span.split('#').next().unwrap().trim_end_matches('/');
            let path = path.split(':').next().unwrap();
            let plain = path.chars().all(|c| c.is_alphanumeric() || "/._-".contains(c));
            if !plain || !path.contains('/') || !tops.contains(&path.split('/').next().unwrap()) || NOT_IN_A_CHECKOUT.contains(&path) {
                continue;
            }
            checked += 1;
            if !bases.iter().any(|base| base.join(path).exists()) {
                missing.push(format!("{name}: `{path}`"));
            }
        }
    }
    assert!(missing.is_empty(), "the documents name files that do not exist:\n{}", missing.join("\n"));
    assert!(checked > 30, "only {checked} paths found: is the scan broken?");
}

/// The scratch repository: `base/repo` beside `base/schemac` (this checkout).
struct Repo {
    dir: PathBuf,
    bin: PathBuf,
    target: PathBuf,
    build: PathBuf,
}

impl Repo {
    fn command(&self, program: &Path, cwd: &Path) -> Command {
        let mut command = Command::new(program);
        let path = std::env::join_paths(
            std::iter::once(self.bin.clone()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
        )
        .unwrap();
        command
            .current_dir(cwd)
            .env("PATH", path)
            .env("DOCS_CARGO", std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_BUILD_BUILD_DIR", &self.build)
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TERM_COLOR", "never")
            .env_remove("RUSTFLAGS");
        command
    }

    fn run(&self, mut command: Command, what: &str, code: i32) -> String {
        let output: Output = command.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
        let (out, err) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(code), "{what}\nstdout:\n{out}\nstderr:\n{err}");
        format!("{out}{err}")
    }

    fn sh(&self, script: &str, cwd: &Path, what: &str, code: i32) -> String {
        let mut command = self.command(Path::new("bash"), cwd);
        command.args(["-c", &format!("set -euo pipefail\n{script}")]);
        self.run(command, what, code)
    }

    fn cargo(&self, args: &str) -> String {
        self.sh(&format!("cargo {args}"), &self.dir, &format!("cargo {args}"), 0)
    }
}

/// What the snippets did, for the summary line and the assertions after them.
#[derive(Default)]
struct Tally {
    files: BTreeMap<String, usize>,
    written: BTreeSet<PathBuf>,
    shell: usize,
    text: usize,
    outputs: usize,
    programs: Vec<(String, String)>,
}

/// `cargo install --path P`, checked rather than run: `P` is the package of this `schemac`.
const CARGO_WRAPPER: &str = r#"#!/usr/bin/env bash
if [ "${1:-}" = install ]; then
    if [ "$#" -ne 3 ] || [ "$2" != --path ]; then echo "docs test: only 'cargo install --path P' is understood: $*" >&2; exit 2; fi
    grep -q '^name = "schemac-cli"$' "$3/Cargo.toml" && grep -q '^name = "schemac"$' "$3/Cargo.toml" \
        || { echo "docs test: $3 is not the schemac-cli package" >&2; exit 1; }
    echo "checked, not run: cargo install --path $3"
    exit 0
fi
exec "$DOCS_CARGO" "$@"
"#;

const WORKSPACE: &str = "[workspace]\nresolver = \"3\"\nmembers = []\n\n# No debug info: the crates are only run, and it keeps the target directory small.\n[profile.dev]\ndebug = false\n";

/// Adds the fence's tables to a manifest, key by key, as a reader adds lines to theirs.
fn merge_manifest(path: &Path, fence: &Fence) {
    let mut doc: toml_edit::DocumentMut = fs::read_to_string(path).unwrap().parse().unwrap();
    let add: toml_edit::DocumentMut = fence.body.parse().unwrap_or_else(|e| panic!("{}: not TOML: {e}", fence.at));
    for (key, item) in add.iter() {
        match (doc.get_mut(key).and_then(|t| t.as_table_like_mut()), item.as_table_like()) {
            (Some(table), Some(new)) => {
                for (k, v) in new.iter() {
                    assert!(table.get(k).is_none(), "{}: `{key}.{k}` is already in {}", fence.at, path.display());
                    table.insert(k, v.clone());
                }
            }
            _ => {
                assert!(doc.get(key).is_none(), "{}: `{key}` is already in {}", fence.at, path.display());
                doc.insert(key, item.clone());
            }
        }
    }
    fs::write(path, doc.to_string()).unwrap();
}

fn add_member(repo: &Repo, member: &str) {
    let path = repo.dir.join("Cargo.toml");
    let mut doc: toml_edit::DocumentMut = fs::read_to_string(&path).unwrap().parse().unwrap();
    let members = doc["workspace"]["members"].as_array_mut().expect("the workspace's members");
    if !members.iter().any(|m| m.as_str() == Some(member)) {
        members.push(member);
    }
    fs::write(&path, doc.to_string()).unwrap();
}

fn write_file(repo: &Repo, fence: &Fence, file: &str, tally: &mut Tally) {
    let relative = Path::new(file);
    assert!(
        relative.components().all(|c| matches!(c, Component::Normal(_))),
        "{}: file={file} must be a path inside the repository",
        fence.at
    );
    let path = repo.dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    if relative.file_name().is_some_and(|n| n == "Cargo.toml") {
        assert_eq!(fence.lang, "toml", "{}: a manifest is TOML", fence.at);
        if !path.exists() {
            let dir = relative.parent().unwrap();
            let name = dir.file_name().unwrap().to_string_lossy();
            fs::write(&path, format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n")).unwrap();
            add_member(repo, &dir.to_string_lossy());
        }
        merge_manifest(&path, fence);
    } else {
        assert!(!path.exists(), "{}: {file} is written twice", fence.at);
        fs::write(&path, &fence.body).unwrap();
        tally.written.insert(relative.to_path_buf());
        let parts: Vec<&str> = file.split('/').collect();
        let program = match parts.as_slice() {
            [krate, "src", "main.rs"] => Some(((*krate).to_owned(), (*krate).to_owned())),
            [krate, "src", "bin", name] => name.strip_suffix(".rs").map(|n| ((*krate).to_owned(), n.to_owned())),
            [krate, "src", "bin", name, "main.rs"] => Some(((*krate).to_owned(), (*name).to_owned())),
            _ => None,
        };
        tally.programs.extend(program);
    }
    *tally.files.entry(fence.lang.clone()).or_default() += 1;
}

#[test]
fn every_snippet_builds_as_written() {
    let root = checkout();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = tmp.join("docs");
    let build = tmp.parent().expect("CARGO_TARGET_TMPDIR is inside the target directory").to_path_buf();
    let repo = Repo { dir: base.join("repo"), bin: base.join("bin"), target: base.join("target"), build };
    let _ = fs::remove_dir_all(&repo.dir);
    let _ = fs::remove_dir_all(&repo.bin);
    let _ = fs::remove_file(base.join("schemac"));
    fs::create_dir_all(&repo.dir).unwrap();
    fs::create_dir_all(&repo.bin).unwrap();
    std::os::unix::fs::symlink(&root, base.join("schemac")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_schemac"), repo.bin.join("schemac")).unwrap();
    fs::write(repo.bin.join("cargo"), CARGO_WRAPPER).unwrap();
    let mut permissions = fs::metadata(repo.bin.join("cargo")).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(repo.bin.join("cargo"), permissions).unwrap();
    fs::write(repo.dir.join("Cargo.toml"), WORKSPACE).unwrap();
    fs::copy(root.join("Cargo.lock"), repo.dir.join("Cargo.lock")).unwrap();

    let mut tally = Tally::default();
    let mut last_output: Option<(String, String)> = None;
    for (name, text) in documents(&root) {
        for fence in fences(&name, &text) {
            let output = last_output.take();
            match fence.lang.as_str() {
                "text" if fence.attrs.is_empty() => tally.text += 1,
                "text" if fence.attrs.len() == 1 && fence.attr("output").is_some() => {
                    let (at, output) = output.unwrap_or_else(|| panic!("{}: a `text output` fence follows no `sh` fence", fence.at));
                    for line in fence.body.lines().filter(|l| *l != "...") {
                        assert!(output.contains(line), "{}: the output of {at} lacks `{line}`:\n{output}", fence.at);
                    }
                    tally.outputs += 1;
                }
                "sh" if fence.attrs.iter().all(|(k, _)| k == "cwd") => {
                    let cwd = repo.dir.join(fence.attr("cwd").unwrap_or("."));
                    let out = repo.sh(&fence.body, &cwd, &format!("{}: the sh snippet", fence.at), 0);
                    last_output = Some((fence.at.clone(), out));
                    tally.shell += 1;
                }
                "rust" | "toml" | "json" | "yaml" if !fence.files().is_empty() && fence.attrs.iter().all(|(k, _)| k == "file") => {
                    for file in fence.files() {
                        write_file(&repo, &fence, file, &mut tally);
                    }
                }
                _ => panic!(
                    "{}: a fence with the info string `{} {:?}`: mark it `text` (not built), `sh` (run), or `rust|toml|json|yaml file=PATH` (a file of the reader's repository)",
                    fence.at, fence.lang, fence.attrs
                ),
            }
        }
    }

    // One build of everything, then every program a snippet wrote.
    let built = repo.cargo("build --workspace");
    // A snippet compiles without a warning, and so does the code a build script of one writes
    // into `OUT_DIR` (the types `schemac::Builder` generates).
    for at in built.lines().filter_map(|l| l.trim_start().strip_prefix("--> ")) {
        let file = Path::new(at.split(':').next().unwrap());
        let generated = file.starts_with(repo.build.join("debug/build")) && file.components().any(|c| c.as_os_str() == "out");
        let file = file.strip_prefix(&repo.dir).unwrap_or(file);
        assert!(!tally.written.contains(file) && !generated, "a snippet builds with a warning at {at}:\n{built}");
    }
    for (krate, program) in &tally.programs {
        let command = repo.command(&repo.target.join("debug").join(program), &repo.dir.join(krate));
        repo.run(command, &format!("the program {program} of {krate}/"), 0);
    }
    eprintln!(
        "docs: {} files written ({:?}), {} sh snippets run, {} programs run, {} outputs checked, {} text snippets not built",
        tally.files.values().sum::<usize>(),
        tally.files,
        tally.shell,
        tally.programs.len(),
        tally.outputs,
        tally.text
    );
    assert!(tally.programs.len() >= 5 && tally.shell >= 5, "too few snippets found: is the fence parser broken?");

    // What the text claims about the snippets beyond their output.
    // The build script's rerun set is the schema it read.
    let outputs: Vec<String> = fs::read_dir(repo.build.join("debug/build"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("point-build-"))
        .filter_map(|p| fs::read_to_string(p.join("output")).ok())
        .collect();
    let point = fs::canonicalize(repo.dir.join("point-build/schemas/point.json")).unwrap();
    let rerun = format!("cargo::rerun-if-changed={}", point.display());
    assert!(outputs.iter().any(|o| o.lines().filter(|l| l.starts_with("cargo::rerun-if-changed=")).eq([rerun.as_str()])), "{outputs:?}");
    // Editing the schema rebuilds the crate, in both ways.
    for krate in ["point-build", "point-macro"] {
        let schema = repo.dir.join(format!("{krate}/schemas/point.json"));
        let original = fs::read_to_string(&schema).unwrap();
        fs::write(&schema, original.replace("\"maximum\": 10", "\"maximum\": 20")).unwrap();
        let rebuilt = repo.cargo(&format!("build -p {krate}"));
        assert!(rebuilt.contains(&format!("Compiling {krate}")), "{krate} not rebuilt after its schema changed:\n{rebuilt}");
        fs::write(&schema, original).unwrap();
    }
    // The drift check, as "Getting started" shows it.
    let schemac = Path::new(env!("CARGO_BIN_EXE_schemac"));
    let customer = repo.dir.join("schemas/customer.yaml");
    let original = fs::read_to_string(&customer).unwrap();
    fs::write(&customer, original.replace("  tier:", "  email: {type: string}\n  tier:")).unwrap();
    let mut check = repo.command(schemac, &repo.dir);
    check.arg("check");
    let drift = repo.run(check, "schemac check after a schema edit", 1);
    assert!(drift.contains("schema-types/src/customer.rs: differs from what the schemas generate"), "{drift}");
    assert!(drift.contains("+    pub email: ::core::option::Option<::std::string::String>,"), "{drift}");
    repo.cargo("xtask codegen");
    repo.cargo("xtask check");
    let mut check = repo.command(schemac, &repo.dir);
    check.arg("check");
    repo.run(check, "schemac check after cargo xtask codegen", 0);
}

/// The fence parser: info strings, attributes, indented fences.
#[test]
fn fences_are_read_with_their_attributes() {
    let text = "a\n```rust file=x/src/main.rs file=y/src/main.rs\nfn main() {}\n```\n- item\n\n  ```sh cwd=../a\n  ls\n    b\n  ```\n```text\nout\n```\n";
    let fences = fences("t.md", text);
    let got: Vec<(&str, &str, Vec<&str>, &str)> =
        fences.iter().map(|f| (f.at.as_str(), f.lang.as_str(), f.files(), f.body.as_str())).collect();
    assert_eq!(
        got,
        [
            ("t.md:2", "rust", vec!["x/src/main.rs", "y/src/main.rs"], "fn main() {}\n"),
            ("t.md:7", "sh", vec![], "ls\n  b\n"),
            ("t.md:11", "text", vec![], "out\n")
        ]
    );
    assert_eq!(fences[1].attr("cwd"), Some("../a"));
    assert_eq!(links("[a](b.md#c) `[x](y)` [d](#e)"), ["b.md#c", "#e"]);
    assert_eq!(
        anchors("# A `b` c\n## What's new?\n## What's new?\n```\n# no\n```\n"),
        BTreeSet::from(["a-b-c".into(), "whats-new".into(), "whats-new-1".into()])
    );
}

/// A library crate's public API as its committed snapshot lists it (`crates/<crate>/api.txt`,
/// held to rustdoc by `cargo xtask api`): each item's path and the names of its fields, methods
/// and associated constants.
fn public_api(root: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut crates = BTreeMap::new();
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(dir.join("api.txt")) else { continue };
        let mut items: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut current = String::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if !line.starts_with(' ') {
                current = line.split_whitespace().nth(1).unwrap_or_default().to_owned();
                items.entry(current.clone()).or_default();
                continue;
            }
            let members = items.get_mut(&current).unwrap();
            if line.trim_start().starts_with("impl Default for ") {
                members.insert("default".to_owned());
            }
            let words: Vec<&str> = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
            for pair in words.windows(2) {
                // `pub fn name`, `pub const NAME`, and a declaration's `pub field: Type`.
                match pair {
                    ["fn" | "const", name] => {
                        members.insert((*name).to_owned());
                    }
                    ["pub", name] if !["fn", "const", "struct", "enum", "trait", "type", "async", "unsafe", "crate"].contains(name) => {
                        members.insert((*name).to_owned());
                    }
                    _ => {}
                }
            }
        }
        crates.insert(dir.file_name().unwrap().to_string_lossy().replace('-', "_"), items);
    }
    crates
}

/// Public paths the snapshots do not list: rustdoc documents the crates with their default
/// features, and lists a re-exported crate under "Re-exports" only.
const OUTSIDE_SNAPSHOT: [(&str, &str); 2] = [
    ("schemac_runtime", "BigInt"),   // behind the runtime's `bignum` feature
    ("schemac_runtime", "schemars"), // `pub use schemars;`
];

/// Every path into schemac's crates that the README and the guide name in code
/// (`schemac::emit::MAX_TYPE_SIZE`, `schemac_runtime::Extra`) is public: an item of the crate's
/// API snapshot, a module some item is in, or a field, method or constant of an item.
#[test]
fn the_paths_the_documents_name_are_public() {
    let root = checkout();
    let api = public_api(&root);
    assert!(api.contains_key("schemac") && api.contains_key("schemac_runtime"), "no API snapshots under crates/: {:?}", api.keys());
    let mut unknown = Vec::new();
    let mut checked = 0;
    for (name, text) in documents(&root) {
        let mut rest = text.as_str();
        while let Some(i) = rest.find("schemac") {
            let boundary = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == '/' || c == '.');
            let tail = &rest[i..];
            let len = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
            let path = tail[..len].trim_end_matches(':');
            rest = &tail[len.max(1)..];
            let Some((krate, item)) = path.split_once("::") else { continue };
            if !boundary || !api.contains_key(krate) || tail[len..].starts_with('!') || item.contains("__private") {
                continue;
            }
            let Some(items) = api.get(krate) else { continue };
            checked += 1;
            let module = format!("{item}::");
            // An item re-exported nearer the root is listed where it is defined (`Registry`
            // as `catalog::Registry`).
            let named = |path: &str| -> Vec<&BTreeSet<String>> {
                let nested = format!("::{path}");
                items.iter().filter(|(k, _)| *k == path || k.ends_with(&nested)).map(|(_, m)| m).collect()
            };
            let known = !named(item).is_empty()
                || items.keys().any(|k| k.starts_with(&module))
                || item.rsplit_once("::").is_some_and(|(owner, member)| named(owner).iter().any(|m| m.contains(member)))
                || OUTSIDE_SNAPSHOT.contains(&(krate, item));
            if !known {
                unknown.push(format!("{name}: `{path}`"));
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "the documents name paths that are not in the crates' public API (crates/*/api.txt):\n{}",
        unknown.join("\n")
    );
    assert!(checked > 20, "only {checked} paths found: is the scan broken?");
}
