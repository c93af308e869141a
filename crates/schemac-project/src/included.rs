//! A generated crate built by a build script instead of committed: its files go under
//! `OUT_DIR`, and the crate's committed roots `include!` small wrappers that load them as
//! modules (`include!` itself cannot take a file with inner attributes such as `//!` docs).
//!
//! ```text
//! src/lib.rs:          include!(concat!(env!("OUT_DIR"), "/lib.rs"));
//! tests/schemas.rs:    include!(concat!(env!("OUT_DIR"), "/tests/schemas.rs"));
//! tests/proptest.rs:   include!(concat!(env!("OUT_DIR"), "/tests/proptest.rs"));
//! ```

use std::fs;
use std::path::Path;

use super::error::{Context, Error};
use super::files::CrateFiles;

/// What a build script runs for a crate generated at build time: generates `spec`'s crate
/// (paths relative to `root`) into `OUT_DIR` with [`write_included`], and tells cargo to rerun
/// it when a schema root changes. On an error, the build script reports it with [`fail`].
pub fn build_crate(root: &Path, spec: &super::CrateSpec) -> Result<(), Error> {
    let out_dir = std::env::var_os("OUT_DIR").context("OUT_DIR is not set: call this from a build script")?;
    for unit in &spec.units {
        for dir in &unit.roots {
            println!("cargo::rerun-if-changed={}", root.join(dir).display());
        }
    }
    let krate = super::generate_crate(root, spec)?;
    write_included(&krate, Path::new(&out_dir))
}

/// Reports `error` as cargo build-script errors, one per line, and exits with status 1.
pub fn fail(error: &Error) -> ! {
    for line in error.to_string().lines() {
        println!("cargo::error={line}");
    }
    std::process::exit(1)
}

/// Writes every file of `krate` under `out_dir/crate/` and a wrapper for each of its roots:
/// `out_dir/lib.rs` (the library, re-exported whole) and `out_dir/tests/NAME.rs` for each
/// test target (`tests/NAME.rs` or `tests/NAME/main.rs`). Files already as generated are not
/// rewritten, so an unchanged crate is not rebuilt.
pub fn write_included(krate: &CrateFiles, out_dir: &Path) -> Result<(), Error> {
    let base = out_dir.join("crate");
    for (path, contents) in &krate.files {
        let relative = path.strip_prefix(&krate.dir).map(|p| p.trim_start_matches('/')).unwrap_or(path);
        write_if_changed(&base.join(relative), contents)?;
        if let Some((target, wrapper)) = wrapper(relative, &base.join(relative)) {
            write_if_changed(&out_dir.join(target), &wrapper)?;
        }
    }
    Ok(())
}

/// The wrapper of a crate root at `relative` (whose file is at `full`): where it goes below
/// `OUT_DIR`, and its text. `None` for files that are not roots.
fn wrapper(relative: &str, full: &Path) -> Option<(String, String)> {
    let path = full.display().to_string();
    if relative == "src/lib.rs" {
        return Some(("lib.rs".to_owned(), format!("#[path = {path:?}]\nmod generated;\npub use generated::*;\n")));
    }
    let test = relative.strip_prefix("tests/")?;
    let name = match test.split_once('/') {
        None => test.strip_suffix(".rs")?,
        Some((name, "main.rs")) => name,
        Some(_) => return None,
    };
    Some((format!("tests/{name}.rs"), format!("#[path = {path:?}]\nmod {};\n", name.replace('-', "_"))))
}

fn write_if_changed(path: &Path, contents: &str) -> Result<(), Error> {
    if fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, contents).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrappers_load_each_root_as_a_module() {
        let full = Path::new("/out/crate/src/lib.rs");
        assert_eq!(
            wrapper("src/lib.rs", full),
            Some(("lib.rs".to_owned(), "#[path = \"/out/crate/src/lib.rs\"]\nmod generated;\npub use generated::*;\n".to_owned()))
        );
        let full = Path::new("/out/crate/tests/schemas/main.rs");
        assert_eq!(
            wrapper("tests/schemas/main.rs", full),
            Some(("tests/schemas.rs".to_owned(), "#[path = \"/out/crate/tests/schemas/main.rs\"]\nmod schemas;\n".to_owned()))
        );
        assert_eq!(wrapper("tests/proptest.rs", Path::new("/p.rs")).map(|w| w.0), Some("tests/proptest.rs".to_owned()));
        assert_eq!(wrapper("tests/schemas/harness.rs", full), None);
        assert_eq!(wrapper("src/a/b.rs", full), None);
        assert_eq!(wrapper("Cargo.toml", full), None);
    }
}
