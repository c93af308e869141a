//! Generated files on disk: `cargo xtask codegen` brings them in line with the schemas,
//! `cargo xtask check` reports where they have drifted. Both go through [`ensure_file_contents`].

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::codegen::{self, GeneratedCrate, REGENERATE_COMMAND};

/// Whether to fix the files on disk or only report how they differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// How one file on disk differs from what codegen produces.
#[derive(Debug, PartialEq, Eq)]
pub enum Drift {
    /// The file exists with other contents; `diff` is a unified diff from disk to generated.
    Changed { path: String, diff: String },
    /// Codegen produces the file; it is not on disk.
    Missing { path: String },
    /// The file is on disk in a generated crate's `src/`, but nothing generates it any more.
    Stale { path: String },
}

impl Drift {
    pub fn path(&self) -> &str {
        match self {
            Drift::Changed { path, .. } | Drift::Missing { path } | Drift::Stale { path } => path,
        }
    }
}

/// The lines of a diff shown per file; the rest is summarized.
const DIFF_LINES: usize = 40;

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::Changed { path, diff } => {
                writeln!(f, "{path}: differs from what the schemas generate")?;
                let lines: Vec<&str> = diff.lines().collect();
                for line in lines.iter().take(DIFF_LINES) {
                    writeln!(f, "    {line}")?;
                }
                if lines.len() > DIFF_LINES {
                    writeln!(f, "    ... {} more diff lines", lines.len() - DIFF_LINES)?;
                }
                Ok(())
            }
            Drift::Missing { path } => writeln!(f, "{path}: missing; codegen generates it"),
            Drift::Stale { path } => writeln!(f, "{path}: stale; no schema generates it any more"),
        }
    }
}

/// `cargo xtask codegen`: writes the files that changed, deletes stale ones.
pub fn codegen(root: &Path) -> Result<()> {
    let crates = codegen::generate(root)?;
    let drift = sync(root, &crates, Mode::Write)?;
    for d in &drift {
        let verb = match d {
            Drift::Changed { .. } => "updated",
            Drift::Missing { .. } => "created",
            Drift::Stale { .. } => "deleted",
        };
        println!("{verb} {}", d.path());
    }
    println!("{}", summary(&crates, drift.len()));
    Ok(())
}

/// `cargo xtask check`: fails, showing where, if the files on disk are not what codegen writes.
pub fn check(root: &Path) -> Result<()> {
    let crates = codegen::generate(root)?;
    let drift = sync(root, &crates, Mode::Check)?;
    if drift.is_empty() {
        println!("generated code is up to date ({})", summary(&crates, 0));
        return Ok(());
    }
    for d in &drift {
        eprint!("{d}");
    }
    bail!(
        "{} generated file{} out of date; run `{REGENERATE_COMMAND}` and commit",
        drift.len(),
        if drift.len() == 1 { " is" } else { "s are" }
    )
}

fn summary(crates: &[GeneratedCrate], changed: usize) -> String {
    let files: usize = crates.iter().map(|c| c.files.len()).sum();
    let dirs: Vec<&str> = crates.iter().map(|c| c.dir.as_str()).collect();
    format!("{files} files in {}, {changed} changed", dirs.join(", "))
}

/// Compares every crate's files with the disk (and in [`Mode::Write`] fixes them), returning the
/// differences in path order.
pub fn sync(root: &Path, crates: &[GeneratedCrate], mode: Mode) -> Result<Vec<Drift>> {
    let mut drift = Vec::new();
    for krate in crates {
        for (path, contents) in &krate.files {
            drift.extend(ensure_file_contents(root, path, contents, mode)?);
        }
        drift.extend(stale_files(root, krate, mode)?);
    }
    Ok(drift)
}

/// The one comparison behind both codegen and check: is `path` (repo-relative) exactly
/// `contents`? In [`Mode::Write`] a file that is not gets written.
pub fn ensure_file_contents(root: &Path, path: &str, contents: &str, mode: Mode) -> Result<Option<Drift>> {
    let full = root.join(path);
    let drift = match fs::read(&full) {
        Ok(old) if old == contents.as_bytes() => return Ok(None),
        Ok(old) => {
            let old = String::from_utf8_lossy(&old);
            let diff = similar::TextDiff::from_lines(old.as_ref(), contents)
                .unified_diff()
                .context_radius(3)
                .header(&format!("{path} (on disk)"), &format!("{path} (generated)"))
                .to_string();
            Drift::Changed { path: path.to_owned(), diff }
        }
        Err(err) if err.kind() == ErrorKind::NotFound => Drift::Missing { path: path.to_owned() },
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", full.display())),
    };
    if mode == Mode::Write {
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        fs::write(&full, contents).with_context(|| format!("cannot write {}", full.display()))?;
    }
    Ok(Some(drift))
}

/// `.rs` files under the crate's `src/` that codegen no longer produces. The whole of `src/`
/// is generated, so nothing else belongs there. In [`Mode::Write`] they are deleted, with the
/// directories they leave empty.
fn stale_files(root: &Path, krate: &GeneratedCrate, mode: Mode) -> Result<Vec<Drift>> {
    let expected: BTreeSet<&str> = krate.files.keys().map(String::as_str).collect();
    let mut on_disk = Vec::new();
    let src = format!("{}/src", krate.dir);
    list_files(root, &src, SRC_EXTENSIONS, &mut on_disk)?;
    // The round-trip tests and their data are generated too.
    let tests = format!("{}/tests", krate.dir);
    list_files(root, &tests, TESTS_EXTENSIONS, &mut on_disk)?;
    on_disk.sort();
    let stale: Vec<Drift> =
        on_disk.into_iter().filter(|path| !expected.contains(path.as_str())).map(|path| Drift::Stale { path }).collect();
    if mode == Mode::Write {
        for d in &stale {
            let full = root.join(d.path());
            fs::remove_file(&full).with_context(|| format!("cannot delete {}", full.display()))?;
        }
        remove_empty_dirs(&root.join(&src))?;
        remove_empty_dirs(&root.join(&tests))?;
    }
    Ok(stale)
}

/// The `.rs` files a crate's `src/` holds: everything codegen writes there.
const SRC_EXTENSIONS: &[&str] = &[".rs"];
/// The `.rs`, `.json` and `.md` files under a crate's `tests/`: everything codegen writes there.
const TESTS_EXTENSIONS: &[&str] = &[".rs", ".json", ".md"];

/// Repo-relative paths of the files under `dir` (repo-relative) whose names end in one of
/// `extensions`; none if `dir` does not exist.
fn list_files(root: &Path, dir: &str, extensions: &[&str], out: &mut Vec<String>) -> Result<()> {
    let full = root.join(dir);
    let entries = match fs::read_dir(&full) {
        Ok(entries) => entries,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err).with_context(|| format!("cannot list {}", full.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", full.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = format!("{dir}/{name}");
        if entry.file_type().with_context(|| format!("cannot stat {path}"))?.is_dir() {
            list_files(root, &path, extensions, out)?;
        } else if extensions.iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
    Ok(())
}

/// Removes the directories below `dir` that are empty (after stale files went), keeping `dir`.
fn remove_empty_dirs(dir: &Path) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        if entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?.is_dir() {
            remove_empty_dirs(&path)?;
            if fs::read_dir(&path).is_ok_and(|mut rest| rest.next().is_none()) {
                fs::remove_dir(&path).with_context(|| format!("cannot delete {}", path.display()))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A scratch repository, removed on drop.
    struct TempRepo(PathBuf);

    impl TempRepo {
        /// A repository with `schemac.toml` and two schemas, already generated.
        fn generated() -> TempRepo {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("xtask-sync-{}-{n}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            let repo = TempRepo(dir);
            repo.write(
                "schemac.toml",
                r#"
                [crate]
                name = "schema-types"
                version = "0.1.0"
                description = "Test types"
                output = "generated"

                [schemas]
                roots = ["schemas"]

                [schema."schemas/team/user.json"]
                root-name = "User"
                "#,
            );
            repo.write("schemas/team/user.json", &object_schema("name"));
            repo.write("schemas/order.json", &object_schema("id"));
            codegen(&repo.0).unwrap();
            assert_eq!(repo.drift(), [], "check must pass right after codegen");
            repo
        }

        fn write(&self, path: &str, contents: &str) {
            let path = self.0.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, contents).unwrap();
        }

        fn read(&self, path: &str) -> String {
            fs::read_to_string(self.0.join(path)).unwrap()
        }

        fn drift(&self) -> Vec<Drift> {
            sync(&self.0, &codegen::generate(&self.0).unwrap(), Mode::Check).unwrap()
        }

        /// Asserts `check` fails naming `path`, `codegen` repairs it, and `check` then passes.
        fn assert_caught_and_repaired(&self, expected: impl Fn(&Drift) -> bool) {
            let drift = self.drift();
            assert!(drift.iter().any(&expected), "drift not caught: {drift:#?}");
            let err = check(&self.0).unwrap_err().to_string();
            assert!(err.contains("run `cargo xtask codegen` and commit"), "{err}");
            codegen(&self.0).unwrap();
            assert_eq!(self.drift(), []);
        }
    }

    impl Drop for TempRepo {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn object_schema(property: &str) -> String {
        format!(
            r#"{{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {{ "{property}": {{ "type": "string" }} }},
  "required": ["{property}"]
}}
"#
        )
    }

    #[test]
    fn codegen_writes_the_crate_and_is_idempotent() {
        let repo = TempRepo::generated();
        let lib = repo.read("generated/src/lib.rs");
        assert!(lib.contains("#![forbid(unsafe_code)]"), "{lib}");
        assert!(repo.read("generated/Cargo.toml").contains("name = \"schema-types\""));
        assert!(repo.read("tests/fixture-types/Cargo.toml").contains("publish = false"));
        let crates = codegen::generate(&repo.0).unwrap();
        assert_eq!(sync(&repo.0, &crates, Mode::Write).unwrap(), [], "a second codegen writes nothing");
    }

    #[test]
    fn catches_a_schema_changed_without_regenerating() {
        let repo = TempRepo::generated();
        repo.write("schemas/team/user.json", &object_schema("email"));
        repo.assert_caught_and_repaired(|d| {
            matches!(d, Drift::Changed { path, diff }
                if path == "generated/src/team/user.rs" && diff.contains("email"))
        });
    }

    #[test]
    fn catches_a_generated_file_edited_by_hand() {
        let repo = TempRepo::generated();
        let path = "generated/src/lib.rs";
        repo.write(path, &repo.read(path).replace("#![forbid(unsafe_code)]", "#![allow(unsafe_code)]"));
        repo.assert_caught_and_repaired(|d| {
            matches!(d, Drift::Changed { path: p, diff } if p == path
                && diff.contains("-#![allow(unsafe_code)]\n+#![forbid(unsafe_code)]"))
        });
    }

    #[test]
    fn catches_a_stale_file_whose_schema_was_deleted() {
        let repo = TempRepo::generated();
        fs::remove_file(repo.0.join("schemas/order.json")).unwrap();
        repo.assert_caught_and_repaired(|d| matches!(d, Drift::Stale { path } if path == "generated/src/order.rs"));
        assert!(!repo.0.join("generated/src/order.rs").exists());
    }

    #[test]
    fn catches_a_stray_rs_file_and_deletes_emptied_directories() {
        let repo = TempRepo::generated();
        repo.write("generated/src/gone/old.rs", "// @generated from a schema since deleted\n");
        repo.assert_caught_and_repaired(|d| matches!(d, Drift::Stale { path } if path == "generated/src/gone/old.rs"));
        assert!(!repo.0.join("generated/src/gone").exists());
    }

    #[test]
    fn catches_a_missing_file() {
        let repo = TempRepo::generated();
        fs::remove_file(repo.0.join("generated/README.md")).unwrap();
        repo.assert_caught_and_repaired(|d| matches!(d, Drift::Missing { path } if path == "generated/README.md"));
    }

    #[test]
    fn catches_a_missing_module_file() {
        let repo = TempRepo::generated();
        fs::remove_file(repo.0.join("generated/src/team/user.rs")).unwrap();
        repo.assert_caught_and_repaired(|d| matches!(d, Drift::Missing { path } if path == "generated/src/team/user.rs"));
    }

    #[test]
    fn reports_schema_errors_with_the_file_name() {
        let repo = TempRepo::generated();
        repo.write("schemas/broken.json", "{ not json");
        let err = format!("{:#}", codegen::generate(&repo.0).unwrap_err());
        assert!(err.contains("schemas/broken.json"), "{err}");
    }

    #[test]
    fn rejects_config_naming_a_missing_schema() {
        let repo = TempRepo::generated();
        fs::remove_file(repo.0.join("schemas/team/user.json")).unwrap();
        let err = format!("{:#}", codegen::generate(&repo.0).unwrap_err());
        assert!(err.contains("[schema.\"schemas/team/user.json\"] names a schema that is not under"), "{err}");
    }
}
