//! A crate of generated modules and the driver binary that runs them (`target/<run>/crate/`):
//! one module per compiled schema, and a table from each member's id to its entry point.
//! Members whose generated code does not build are found from rustc's JSON diagnostics (or,
//! failing that, by bisection), left out, and the crate rebuilt.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::conformance::compile::one_line;
use crate::conformance::suite::sha256_hex;

/// What a run's crate is: its package, its driver and what the driver needs.
#[derive(Debug)]
pub struct Spec {
    /// The package and driver binary name (`schemac-conformance`); with several shards, each
    /// is this name and its number (`schemac-corpus-3`).
    pub package: &'static str,
    /// The command that writes the crate, for the `@generated` headers.
    pub command: &'static str,
    /// The driver's `main.rs`: it defines `type Entry` (what a member's entry point is) and
    /// reads the table `members::MEMBERS`.
    pub main: &'static str,
    /// The name of the function every member module ends with, of type `crate::Entry`.
    pub entry: &'static str,
    /// The `[dependencies]` lines besides `schemac-runtime` (the workspace's versions).
    pub dependencies: &'static str,
    /// The runtime's features the members need.
    pub runtime_features: &'static [&'static str],
    /// The most lines of member code one shard crate holds (rustc's memory grows with a
    /// crate's size, and shards build on every core); a bigger member is a shard alone.
    pub shard_lines: usize,
}

/// One member's module in the crate.
#[derive(Debug)]
pub struct Member {
    /// What the driver's input names the member by.
    pub id: String,
    /// Its module name in the crate (`src/members/<module>.rs`), unique among members.
    pub module: String,
    pub code: String,
}

/// The shards on disk (a workspace of driver crates) and how to build them.
#[derive(Debug)]
pub struct Krate {
    pub spec: &'static Spec,
    /// `target/<run>/crate`.
    pub dir: PathBuf,
    /// The workspace's target directory, shared so dependencies are built once.
    pub target_dir: PathBuf,
    /// The workspace root, for `Cargo.lock` and the runtime's sources.
    pub root: PathBuf,
}

/// What [`Krate::build`] made: the members that do not build, with the reason, and the driver
/// of each that does.
#[derive(Debug, Default)]
pub struct Built {
    pub failed: BTreeMap<String, String>,
    pub drivers: BTreeMap<String, PathBuf>,
}

/// Members known to fail to build, keyed by module, remembered between runs so that an
/// unchanged crate is not rebuilt twice (once to fail, once without them) on every run.
#[derive(Debug, Default, Serialize, Deserialize)]
struct FailureCache {
    /// What the failures were observed with: the runtime's sources, the driver, `Cargo.lock`.
    fingerprint: String,
    /// Module → (SHA-256 of its code, the build error).
    failures: BTreeMap<String, (String, String)>,
}

/// Which shard each member is in, by module: fixed for one build, so that leaving a member out
/// changes only its own shard.
type Shards = BTreeMap<String, usize>;

impl Krate {
    fn shard_count(shards: &Shards) -> usize {
        shards.values().max().map_or(1, |most| most + 1)
    }

    /// The package name of shard `k` of `count`.
    fn package(&self, k: usize, count: usize) -> String {
        if count == 1 { self.spec.package.to_owned() } else { format!("{}-{k}", self.spec.package) }
    }

    /// The driver executable of shard `k` of `count`.
    fn driver(&self, k: usize, count: usize) -> PathBuf {
        self.target_dir.join("debug").join(format!("{}{}", self.package(k, count), std::env::consts::EXE_SUFFIX))
    }

    /// Shards for `members`: as few as hold them within [`Spec::shard_lines`] each, the largest
    /// member first into the shard with the fewest lines (ties to the lowest number).
    fn shards(&self, members: &[Member]) -> Shards {
        let lines = |m: &Member| m.code.lines().count().max(1);
        let total: usize = members.iter().map(lines).sum();
        let count = total.div_ceil(self.spec.shard_lines.max(1)).max(1);
        let mut order: Vec<&Member> = members.iter().collect();
        order.sort_by(|a, b| lines(b).cmp(&lines(a)).then_with(|| a.module.cmp(&b.module)));
        let mut load = vec![0_usize; count];
        let mut shards = Shards::new();
        for member in order {
            let k = (0..count).min_by_key(|&k| (load[k], k)).unwrap_or(0);
            load[k] += lines(member);
            shards.insert(member.module.clone(), k);
        }
        shards
    }

    /// Builds every shard with every member whose code compiles; returns the others (by
    /// member id) with the reason, and the driver of each member that builds.
    pub fn build(&self, members: &[Member]) -> Result<Built> {
        let shards = self.shards(members);
        let cache_path = self.dir.with_file_name("build-failures.json");
        let fingerprint = self.fingerprint()?;
        let mut cache: FailureCache = fs::read_to_string(&cache_path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .filter(|c: &FailureCache| c.fingerprint == fingerprint)
            .unwrap_or_else(|| FailureCache { fingerprint, failures: BTreeMap::new() });
        let mut excluded: BTreeMap<String, String> = BTreeMap::new();
        for member in members {
            if let Some((hash, reason)) = cache.failures.get(&member.module)
                && *hash == sha256_hex(member.code.as_bytes())
            {
                excluded.insert(member.module.clone(), reason.clone());
            }
        }
        loop {
            let included: Vec<&Member> = members.iter().filter(|m| !excluded.contains_key(&m.module)).collect();
            let errors = self.try_build(&included, &shards)?;
            if errors.is_empty() {
                break;
            }
            let mut blamed = attribute(&errors);
            if blamed.is_empty() {
                eprintln!("{}: build errors name no member module; bisecting {} members", self.spec.package, included.len());
                blamed = self.bisect(&included, &shards)?;
            }
            if blamed.is_empty() {
                let text: Vec<&str> = errors.iter().map(|e| e.rendered.as_str()).collect();
                bail!("the {} crate does not build and no member is to blame:\n{}", self.spec.package, text.join("\n"));
            }
            eprintln!("{}: {} member(s) do not build; rebuilding without them", self.spec.package, blamed.len());
            excluded.extend(blamed);
        }
        cache.failures = members
            .iter()
            .filter_map(|m| Some((m.module.clone(), (sha256_hex(m.code.as_bytes()), excluded.get(&m.module)?.clone()))))
            .collect();
        let text = serde_json::to_string_pretty(&cache).context("cannot serialize the build-failure cache")?;
        fs::write(&cache_path, text).with_context(|| format!("cannot write {}", cache_path.display()))?;
        let count = Self::shard_count(&shards);
        let mut built = Built::default();
        for member in members {
            if let Some(reason) = excluded.get(&member.module) {
                built.failed.insert(member.id.clone(), reason.clone());
            } else {
                built.drivers.insert(member.id.clone(), self.driver(shards[&member.module], count));
            }
        }
        Ok(built)
    }

    /// Finds members that fail to build on their own, halving the set while the errors cannot
    /// be attributed from their spans.
    fn bisect(&self, members: &[&Member], shards: &Shards) -> Result<BTreeMap<String, String>> {
        if members.len() <= 1 {
            let errors = self.try_build(members, shards)?;
            return Ok(match (members.first(), errors.first()) {
                (Some(member), Some(error)) => BTreeMap::from([(member.module.clone(), error.summary())]),
                _ => BTreeMap::new(),
            });
        }
        let (left, right) = members.split_at(members.len() / 2);
        let mut blamed = BTreeMap::new();
        for half in [left, right] {
            let errors = self.try_build(half, shards)?;
            if errors.is_empty() {
                continue;
            }
            let attributed = attribute(&errors);
            blamed.extend(if attributed.is_empty() { self.bisect(half, shards)? } else { attributed });
        }
        Ok(blamed)
    }

    /// Writes the shards with `members` and runs `cargo build` over all of them (going on past
    /// a shard that fails, so one pass finds every failing member); returns rustc's errors.
    fn try_build(&self, members: &[&Member], shards: &Shards) -> Result<Vec<RustcError>> {
        self.write(members, shards)?;
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let manifest = self.dir.join("Cargo.toml");
        let output = Command::new(&cargo)
            .args(["build", "--quiet", "--workspace", "--keep-going", "--message-format=json", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            // The crate is built once per run of generated code: incremental state would only
            // cost time and disk (18 GB for the corpus's shards).
            .env("CARGO_INCREMENTAL", "0")
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("cannot run {}", cargo.to_string_lossy()))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let errors = parse_errors(&stdout);
        if !output.status.success() && errors.is_empty() {
            bail!("cargo build of {} exited with {} without a compiler error", manifest.display(), output.status);
        }
        Ok(errors)
    }

    /// Writes every file of the workspace, touching only those whose contents changed so that
    /// cargo sees an unchanged shard as fresh; deletes modules and shards no longer there.
    fn write(&self, members: &[&Member], shards: &Shards) -> Result<()> {
        let count = Self::shard_count(shards);
        fs::create_dir_all(&self.dir).with_context(|| format!("cannot create {}", self.dir.display()))?;
        let lock = self.root.join("Cargo.lock");
        // The workspace's lock pins the same dependency versions, so their builds are shared;
        // cargo prunes what these crates do not use.
        let text = fs::read_to_string(&lock).with_context(|| format!("cannot read {}", lock.display()))?;
        write_if_changed(&self.dir.join("Cargo.lock"), &text)?;
        write_if_changed(&self.dir.join("Cargo.toml"), &self.workspace_toml(count))?;
        let names: BTreeSet<String> = (0..count).map(|k| format!("shard-{k}")).collect();
        for entry in fs::read_dir(&self.dir).with_context(|| format!("cannot list {}", self.dir.display()))? {
            let entry = entry.with_context(|| format!("cannot list {}", self.dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if (name.starts_with("shard-") || name == "src") && !names.contains(&name) {
                fs::remove_dir_all(entry.path()).with_context(|| format!("cannot delete {}", entry.path().display()))?;
            }
        }
        for k in 0..count {
            let mine: Vec<&Member> = members.iter().copied().filter(|m| shards.get(&m.module) == Some(&k)).collect();
            let shard = self.dir.join(format!("shard-{k}"));
            let src = shard.join("src");
            let modules = src.join("members");
            fs::create_dir_all(&modules).with_context(|| format!("cannot create {}", modules.display()))?;
            write_if_changed(&shard.join("Cargo.toml"), &self.shard_toml(k, count))?;
            write_if_changed(&src.join("main.rs"), self.spec.main)?;
            write_if_changed(&src.join("members.rs"), &self.members_rs(&mine))?;
            let keep: BTreeSet<String> = mine.iter().map(|m| format!("{}.rs", m.module)).collect();
            for entry in fs::read_dir(&modules).with_context(|| format!("cannot list {}", modules.display()))? {
                let entry = entry.with_context(|| format!("cannot list {}", modules.display()))?;
                if !keep.contains(entry.file_name().to_string_lossy().as_ref()) {
                    fs::remove_file(entry.path()).with_context(|| format!("cannot delete {}", entry.path().display()))?;
                }
            }
            for member in mine {
                write_if_changed(&modules.join(format!("{}.rs", member.module)), &member.code)?;
            }
        }
        Ok(())
    }

    /// What a remembered build failure depends on besides the module's own code.
    fn fingerprint(&self) -> Result<String> {
        let mut text = format!("{}{}", self.spec.main, self.shard_toml(0, 1));
        let mut files = Vec::new();
        collect_files(&self.root.join("crates/schemac-runtime"), &mut files)?;
        files.push(self.root.join("Cargo.lock"));
        files.sort();
        for file in files {
            let bytes = fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let _ = writeln!(text, "{} {}", file.display(), sha256_hex(&bytes));
        }
        Ok(sha256_hex(text.as_bytes()))
    }

    /// The workspace of the shards, with the workspace's dev profile, so the dependencies'
    /// artifacts are the very ones the workspace builds. The shards themselves get no debug
    /// info: they are big, and only their results matter.
    fn workspace_toml(&self, count: usize) -> String {
        let members: Vec<String> = (0..count).map(|k| format!("\"shard-{k}\"")).collect();
        let mut out = format!(
            "# @generated by `{}`; rewritten on every run.\n[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n\
             [profile.dev]\ndebug = \"line-tables-only\"\n\n[profile.dev.package.\"*\"]\ndebug = false\n",
            self.spec.command,
            members.join(", ")
        );
        for k in 0..count {
            let _ = write!(out, "\n[profile.dev.package.{}]\ndebug = false\n", self.package(k, count));
        }
        out
    }

    /// Shard `k`'s manifest.
    fn shard_toml(&self, k: usize, count: usize) -> String {
        let Spec { command, dependencies, runtime_features, .. } = self.spec;
        let runtime = self.root.join("crates/schemac-runtime");
        let features: Vec<String> = runtime_features.iter().map(|f| format!("{f:?}")).collect();
        format!(
            "# @generated by `{command}`; rewritten on every run.
[package]
name = \"{package}\"
version = \"0.0.0\"
edition = \"2024\"
publish = false

[dependencies]
schemac-runtime = {{ path = {runtime:?}, features = [{features}] }}
{dependencies}",
            package = self.package(k, count),
            runtime = runtime.display().to_string(),
            features = features.join(", "),
        )
    }

    /// The module declarations and the driver's table from member id to entry point.
    fn members_rs(&self, members: &[&Member]) -> String {
        let mut out = format!("// @generated by `{}`; rewritten on every run.\n", self.spec.command);
        out.push_str("//! Every member module, and the table the driver looks members up in.\n\n");
        for member in members {
            let _ = writeln!(out, "pub mod {};", member.module);
        }
        out.push_str("\npub const MEMBERS: &[(&str, crate::Entry)] = &[\n");
        for member in members {
            let _ = writeln!(out, "    ({:?}, {}::{}),", member.id, member.module, self.spec.entry);
        }
        out.push_str("];\n");
        out
    }
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        if entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn write_if_changed(path: &Path, contents: &str) -> Result<()> {
    if fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(());
    }
    fs::write(path, contents).with_context(|| format!("cannot write {}", path.display()))
}

/// One error from rustc: the files its spans point into (with the first line in each), and
/// its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustcError {
    pub files: BTreeMap<String, u64>,
    pub message: String,
    pub rendered: String,
}

impl RustcError {
    fn summary(&self) -> String {
        format!("generated code does not compile: {}", one_line(&self.message))
    }
}

/// The errors in cargo's `--message-format=json` output, without rustc's closing summaries.
pub fn parse_errors(stdout: &str) -> Vec<RustcError> {
    let mut errors = Vec::new();
    for line in stdout.lines() {
        let Ok(record) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if record["reason"] != "compiler-message" || record["message"]["level"] != "error" {
            continue;
        }
        let message = &record["message"];
        let text = message["message"].as_str().unwrap_or_default().to_owned();
        if text.starts_with("aborting due to") {
            continue;
        }
        let mut files = BTreeMap::new();
        span_files(message, &mut files);
        errors.push(RustcError { files, message: text, rendered: message["rendered"].as_str().unwrap_or_default().to_owned() });
    }
    errors
}

/// The files of every span of a diagnostic, its children and the macro expansions involved.
fn span_files(message: &serde_json::Value, out: &mut BTreeMap<String, u64>) {
    for span in message["spans"].as_array().into_iter().flatten() {
        let mut span = span;
        loop {
            if let Some(file) = span["file_name"].as_str() {
                out.entry(file.to_owned()).or_insert_with(|| span["line_start"].as_u64().unwrap_or(0));
            }
            match span.get("expansion").and_then(|e| e.get("span")) {
                Some(next) if next.is_object() => span = next,
                _ => break,
            }
        }
    }
    for child in message["children"].as_array().into_iter().flatten() {
        span_files(child, out);
    }
}

/// The member modules the errors point into, with the first error in each as the reason.
pub fn attribute(errors: &[RustcError]) -> BTreeMap<String, String> {
    let mut blamed = BTreeMap::new();
    for error in errors {
        for (file, line) in &error.files {
            let file = file.replace('\\', "/");
            let Some(module) = file.split_once("src/members/").and_then(|(_, f)| f.strip_suffix(".rs")) else { continue };
            blamed.entry(module.to_owned()).or_insert_with(|| format!("{} (line {line} of its module)", error.summary()));
        }
    }
    blamed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(level: &str, text: &str, files: &[&str]) -> String {
        let spans: Vec<serde_json::Value> =
            files.iter().map(|f| serde_json::json!({ "file_name": f, "line_start": 7, "expansion": null })).collect();
        serde_json::json!({
            "reason": "compiler-message",
            "message": { "level": level, "message": text, "spans": spans, "children": [], "rendered": text },
        })
        .to_string()
    }

    #[test]
    fn blames_the_member_modules_that_errors_point_into() {
        let stdout = [
            r#"{"reason":"compiler-artifact","target":{"name":"serde"}}"#.to_owned(),
            message("warning", "unused", &["src/members/draft7_ref_1.rs"]),
            message("error", "mismatched types\nexpected u8", &["src/members/draft7_ref_2.rs", "src/main.rs"]),
            message("error", "cannot find type `X`", &["src/members/draft7_ref_2.rs"]),
            message(
                "error",
                "trait bound not satisfied",
                &["/home/u/.cargo/registry/serde/src/de.rs", "src/members/draft2020_12_not_0.rs"],
            ),
            message("error", "aborting due to 3 previous errors", &[]),
        ]
        .join("\n");
        let errors = parse_errors(&stdout);
        assert_eq!(errors.len(), 3);
        let blamed = attribute(&errors);
        assert_eq!(
            blamed.into_iter().collect::<Vec<_>>(),
            [
                (
                    "draft2020_12_not_0".to_owned(),
                    "generated code does not compile: trait bound not satisfied (line 7 of its module)".to_owned()
                ),
                (
                    "draft7_ref_2".to_owned(),
                    "generated code does not compile: mismatched types expected u8 (line 7 of its module)".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn follows_macro_expansions_and_children() {
        let stdout = serde_json::json!({
            "reason": "compiler-message",
            "message": {
                "level": "error", "message": "e", "rendered": "e",
                "spans": [{ "file_name": "/rustlib/core/src/macros.rs",
                            "expansion": { "span": { "file_name": "src/members/draft7_enum_4.rs", "expansion": null } } }],
                "children": [{ "level": "note", "message": "n", "spans": [{ "file_name": "src/members/draft7_enum_5.rs" }], "children": [] }],
            },
        })
        .to_string();
        let blamed = attribute(&parse_errors(&stdout));
        assert_eq!(blamed.keys().collect::<Vec<_>>(), ["draft7_enum_4", "draft7_enum_5"]);
    }

    #[test]
    fn errors_outside_member_modules_blame_nobody() {
        let errors = parse_errors(&message("error", "linker failed", &[]));
        assert_eq!(errors.len(), 1);
        assert!(attribute(&errors).is_empty());
    }

    fn spec(shard_lines: usize) -> &'static Spec {
        Box::leak(Box::new(Spec {
            package: "p",
            command: "cargo xtask p",
            main: "",
            entry: "check_it",
            dependencies: "",
            runtime_features: &["bignum"],
            shard_lines,
        }))
    }

    fn krate(shard_lines: usize) -> Krate {
        Krate { spec: spec(shard_lines), dir: PathBuf::from("d"), target_dir: PathBuf::from("t"), root: PathBuf::from("/r") }
    }

    fn member(module: &str, lines: usize) -> Member {
        Member { id: module.replace('_', "/"), module: module.to_owned(), code: "x\n".repeat(lines) }
    }

    #[test]
    fn the_table_names_every_member() {
        let krate = krate(usize::MAX);
        let member = member("draft7_ref_1", 1);
        let text = krate.members_rs(&[&member]);
        assert!(text.contains("pub mod draft7_ref_1;"), "{text}");
        assert!(text.contains("(\"draft7/ref/1\", draft7_ref_1::check_it),"), "{text}");
        let manifest = krate.shard_toml(0, 1);
        assert!(manifest.contains("name = \"p\""), "{manifest}");
        assert!(manifest.contains("schemac-runtime = { path = \"/r/crates/schemac-runtime\", features = [\"bignum\"] }"), "{manifest}");
        assert!(krate.workspace_toml(1).contains("members = [\"shard-0\"]"));
    }

    #[test]
    fn shards_hold_their_line_budget_largest_first() {
        let members = [member("a", 70), member("b", 40), member("c", 30), member("d", 20), member("e", 250)];
        let shards = krate(100).shards(&members);
        // 410 lines in 5 shards of 100: the big one alone, then each next into the lightest.
        assert_eq!(shards.values().max(), Some(&4));
        assert_eq!([shards["e"], shards["a"], shards["b"], shards["c"], shards["d"]], [0, 1, 2, 3, 4]);
        assert!(krate(usize::MAX).shards(&members).values().all(|&k| k == 0));
        assert_eq!(krate(100).package(3, 5), "p-3");
        assert_eq!(krate(100).package(0, 1), "p");
    }
}
