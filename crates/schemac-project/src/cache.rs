//! The codegen cache under `target/`: a crate whose inputs did not change since the last run
//! is not compiled again. Never committed, never needed: a missing or unreadable entry only
//! means compiling.
//!
//! An entry is valid when its key and the hash of every file the compile read are as stored.
//! The key covers what decides the output besides those files: the generator itself (this
//! library's version and the running executable's size and modification time, so a rebuilt
//! schemac does not reuse output of the old one), the crate's settings, and every file under
//! its schema roots (so a new schema, or a new instance fixture, is seen).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::files::CrateFiles;
use super::spec::CrateSpec;

/// Where entries go, below the project root.
pub const CACHE_DIR: &str = "target/schemac-cache";

/// The cached files of `spec`'s crate, when nothing they came from changed.
pub fn load(dir: &Path, root: &Path, spec: &CrateSpec) -> Option<CrateFiles> {
    let entry: Value = serde_json::from_str(&fs::read_to_string(entry_path(dir, spec)).ok()?).ok()?;
    if entry["key"].as_str()? != key(root, spec)? {
        return None;
    }
    let mut read = Vec::new();
    for file in entry["read"].as_array()? {
        let path = PathBuf::from(file["path"].as_str()?);
        if file["sha256"].as_str()? != sha256(&fs::read(&path).ok()?) {
            return None;
        }
        read.push(path);
    }
    let files =
        entry["files"].as_object()?.iter().map(|(path, text)| Some((path.clone(), text.as_str()?.to_owned()))).collect::<Option<_>>()?;
    let open_enums = entry["open_enums"].as_array()?.iter().map(|e| e.as_str().map(str::to_owned)).collect::<Option<_>>()?;
    Some(CrateFiles { dir: spec.dir.clone(), files, read, open_enums })
}

/// Stores `krate` for the next run; a failure to store is not an error (the next run compiles).
pub fn store(dir: &Path, root: &Path, spec: &CrateSpec, krate: &CrateFiles) {
    let Some(key) = key(root, spec) else { return };
    let read: Option<Vec<Value>> =
        krate.read.iter().map(|path| Some(json!({ "path": path.to_str()?, "sha256": sha256(&fs::read(path).ok()?) }))).collect();
    let Some(read) = read else { return };
    let entry = json!({ "key": key, "read": read, "files": krate.files, "open_enums": krate.open_enums });
    let path = entry_path(dir, spec);
    let temporary = path.with_extension("json.tmp");
    if fs::create_dir_all(dir).is_ok() && fs::write(&temporary, entry.to_string()).is_ok() {
        let _ = fs::rename(&temporary, &path);
    }
}

fn entry_path(dir: &Path, spec: &CrateSpec) -> PathBuf {
    dir.join(format!("{}.json", spec.dir.replace('/', "__")))
}

/// The key of everything but the files read; `None` when it cannot be computed (no cache).
fn key(root: &Path, spec: &CrateSpec) -> Option<String> {
    let exe = fs::metadata(std::env::current_exe().ok()?).ok()?;
    let modified = exe.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    let mut hasher = Sha256::new();
    hasher.update(format!("{}\n{}\n{}\n{spec:?}\n", env!("CARGO_PKG_VERSION"), exe.len(), modified.as_nanos()));
    for unit in &spec.units {
        for dir in &unit.roots {
            hash_tree(&root.join(dir), &mut hasher);
        }
    }
    Some(hex(&hasher.finalize()))
}

/// Every file's path and contents below `path` (or the file itself), in sorted order.
fn hash_tree(path: &Path, hasher: &mut Sha256) {
    hasher.update(path.to_string_lossy().as_bytes());
    if let Ok(bytes) = fs::read(path) {
        hasher.update(sha256(&bytes));
        return;
    }
    let Ok(entries) = fs::read_dir(path) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        hash_tree(&path, hasher);
    }
}

fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
