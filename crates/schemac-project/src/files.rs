//! Generated files in memory and on disk: [`Files::write`] brings a crate's directory in line
//! with them, replacing it whole, [`Files::check`] reports where it has drifted. Both compare
//! through `compare`.

use std::collections::BTreeSet;
use std::fs;
use std::io::ErrorKind;
use std::path::Path;

pub use super::drift::{Change, Drift};
use super::error::{Context, Error};

/// Every file of the generated crates, by path relative to the project root.
#[derive(Clone, Debug, Default)]
pub struct Files {
    crates: Vec<CrateFiles>,
}

/// The files of one generated crate.
#[derive(Clone, Debug, Default)]
pub struct CrateFiles {
    /// The crate's directory, relative to the project root, with `/`.
    pub dir: String,
    /// File contents keyed by path relative to the project root with `/`, e.g.
    /// `generated/src/lib.rs`. Everything under the crate's `src/` is generated, and so are the
    /// `.rs`, `.json` and `.md` files under its `tests/`.
    pub files: std::collections::BTreeMap<String, String>,
    /// Every schema file the compile read (inputs and what their refs reached), absolute.
    pub read: Vec<std::path::PathBuf>,
    /// The open string enums, `schemas/x.json: TypeName` each: reader-side tolerances that
    /// accept what the schema rejects, which `check` reports.
    pub open_enums: Vec<String>,
}

impl Files {
    /// Adds one crate's files.
    pub fn push(&mut self, krate: CrateFiles) {
        self.crates.push(krate);
    }

    pub fn crates(&self) -> &[CrateFiles] {
        &self.crates
    }

    /// The generated text of `path` (relative to the project root), if it is generated.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.crates.iter().find_map(|c| c.files.get(path)).map(String::as_str)
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.crates.iter().map(|c| c.files.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How the files under `root` differ from these; nothing is written.
    pub fn check(&self, root: &Path) -> Result<Drift, Error> {
        let mut changes = Vec::new();
        for krate in &self.crates {
            changes.extend(crate_changes(root, krate)?);
        }
        Ok(Drift { changes })
    }

    /// Brings the crates under `root` in line with these files: each crate whose files differ
    /// is rebuilt beside its directory and swapped in whole (`replace_dir`), so a failure
    /// leaves the old crate, never a partly written one. Returns what changed.
    pub fn write(&self, root: &Path) -> Result<Drift, Error> {
        let mut changes = Vec::new();
        for krate in &self.crates {
            let drift = crate_changes(root, krate)?;
            if !drift.is_empty() {
                let stale: BTreeSet<&str> = drift.iter().filter(|c| matches!(c, Change::Stale { .. })).map(Change::path).collect();
                replace_dir(root, krate, &stale).with_context(|| format!("cannot write the crate `{}`", krate.dir))?;
            }
            changes.extend(drift);
        }
        Ok(Drift { changes })
    }

    /// `N files in generated, other, M changed`.
    /// The open string enums of every crate (see [`CrateFiles::open_enums`]), for the report.
    pub fn open_enums(&self) -> Vec<&str> {
        self.crates.iter().flat_map(|c| c.open_enums.iter().map(String::as_str)).collect()
    }

    pub fn summary(&self, changed: usize) -> String {
        let dirs: Vec<&str> = self.crates.iter().map(|c| c.dir.as_str()).collect();
        format!("{} files in {}, {changed} changed", self.len(), dirs.join(", "))
    }
}

/// The differences of one crate: its files, then the stale ones.
fn crate_changes(root: &Path, krate: &CrateFiles) -> Result<Vec<Change>, Error> {
    let mut changes = Vec::new();
    for (path, contents) in &krate.files {
        changes.extend(compare(root, path, contents)?);
    }
    changes.extend(stale_files(root, krate)?);
    Ok(changes)
}

/// The one comparison behind both write and check: is `path` (root-relative) exactly
/// `contents`?
fn compare(root: &Path, path: &str, contents: &str) -> Result<Option<Change>, Error> {
    let full = root.join(path);
    Ok(Some(match fs::read(&full) {
        Ok(old) if old == contents.as_bytes() => return Ok(None),
        Ok(old) => {
            let old = String::from_utf8_lossy(&old);
            let diff = similar::TextDiff::from_lines(old.as_ref(), contents)
                .unified_diff()
                .context_radius(3)
                .header(&format!("{path} (on disk)"), &format!("{path} (generated)"))
                .to_string();
            Change::Changed { path: path.to_owned(), diff }
        }
        Err(err) if err.kind() == ErrorKind::NotFound => Change::Missing { path: path.to_owned() },
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", full.display())),
    }))
}

/// Generated files under the crate's `src/`, `tests/` and `docs/` that nothing generates any more.
fn stale_files(root: &Path, krate: &CrateFiles) -> Result<Vec<Change>, Error> {
    let expected: BTreeSet<&str> = krate.files.keys().map(String::as_str).collect();
    let mut on_disk = Vec::new();
    list_files(root, &format!("{}/src", krate.dir), SRC_EXTENSIONS, &mut on_disk)?;
    // The round-trip tests and their data are generated too.
    list_files(root, &format!("{}/tests", krate.dir), TESTS_EXTENSIONS, &mut on_disk)?;
    // So are the schemas' reference pages.
    list_files(root, &format!("{}/docs", krate.dir), DOCS_EXTENSIONS, &mut on_disk)?;
    on_disk.sort();
    Ok(on_disk.into_iter().filter(|path| !expected.contains(path.as_str())).map(|path| Change::Stale { path }).collect())
}

/// The `.rs` files a crate's `src/` holds: everything codegen writes there.
const SRC_EXTENSIONS: &[&str] = &[".rs"];
/// The `.rs`, `.json` and `.md` files under a crate's `tests/`: everything codegen writes there.
const TESTS_EXTENSIONS: &[&str] = &[".rs", ".json", ".md"];
/// The `.md` files under a crate's `docs/`: the reference pages.
const DOCS_EXTENSIONS: &[&str] = &[".md"];

/// Root-relative paths of the files under `dir` (root-relative) whose names end in one of
/// `extensions`; none if `dir` does not exist.
fn list_files(root: &Path, dir: &str, extensions: &[&str], out: &mut Vec<String>) -> Result<(), Error> {
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

/// Replaces the crate's directory with one holding the generated files and every other file
/// it had, minus the `stale` ones: built as `.NAME.schemac-new` beside
/// it, then swapped in by two renames, so at no point is a half-written crate in its place.
/// (A crash between the renames leaves the old crate as `.NAME.schemac-old`, which the next
/// run puts back.) The library's one writer of generated output, kept apart so a shared
/// atomic-write helper can take its place.
fn replace_dir(root: &Path, krate: &CrateFiles, stale: &BTreeSet<&str>) -> Result<(), Error> {
    let dir = root.join(&krate.dir);
    let (parent, name) = match (dir.parent(), dir.file_name()) {
        (Some(parent), Some(name)) => (parent.to_path_buf(), name.to_string_lossy().into_owned()),
        _ => return Err(Error::other(format!("{}: not a directory a crate can be written to", dir.display()))),
    };
    fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let new = parent.join(format!(".{name}.schemac-new"));
    let old = parent.join(format!(".{name}.schemac-old"));
    if !dir.exists() && old.exists() {
        fs::rename(&old, &dir).with_context(|| format!("cannot restore {} from {}", dir.display(), old.display()))?;
    }
    remove_if_present(&new)?;
    remove_if_present(&old)?;
    let stale: BTreeSet<std::path::PathBuf> = stale.iter().map(|path| root.join(path)).collect();
    if dir.exists() {
        copy_kept(&dir, &new, &stale)?;
        // A build of the crate on its own is kept, moved rather than copied.
        let target = dir.join("target");
        if target.is_dir() {
            fs::create_dir_all(&new).with_context(|| format!("cannot create {}", new.display()))?;
            fs::rename(&target, new.join("target")).with_context(|| format!("cannot move {}", target.display()))?;
        }
    }
    for (path, contents) in &krate.files {
        let relative = path.strip_prefix(&krate.dir).map(|p| p.trim_start_matches('/')).unwrap_or(path);
        let target = new.join(relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        fs::write(&target, contents).with_context(|| format!("cannot write {}", target.display()))?;
    }
    if dir.exists() {
        fs::rename(&dir, &old).with_context(|| format!("cannot move {} aside", dir.display()))?;
        fs::rename(&new, &dir).with_context(|| format!("cannot move {} into place", new.display()))?;
        fs::remove_dir_all(&old).with_context(|| format!("cannot delete {}", old.display()))?;
    } else {
        fs::rename(&new, &dir).with_context(|| format!("cannot move {} into place", new.display()))?;
    }
    Ok(())
}

fn remove_if_present(dir: &Path) -> Result<(), Error> {
    match fs::remove_dir_all(dir) {
        Err(err) if err.kind() != ErrorKind::NotFound => Err(err).with_context(|| format!("cannot delete {}", dir.display())),
        _ => Ok(()),
    }
}

/// Copies `from` to `to`, leaving out `target/`, the `stale` files and directories left empty.
fn copy_kept(from: &Path, to: &Path, stale: &BTreeSet<std::path::PathBuf>) -> Result<(), Error> {
    let entries = fs::read_dir(from).with_context(|| format!("cannot list {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", from.display()))?;
        let path = entry.path();
        let file_type = entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?;
        let target = to.join(entry.file_name());
        if file_type.is_dir() {
            if entry.file_name() != "target" {
                copy_kept(&path, &target, stale)?;
            }
        } else if !stale.contains(&path) {
            fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
            fs::copy(&path, &target).with_context(|| format!("cannot copy {}", path.display()))?;
        }
    }
    Ok(())
}
