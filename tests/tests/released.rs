//! The generated crates of earlier releases (`tests/released/`, frozen) build against this
//! checkout's `schemac-runtime` and pass their own round-trip tests: a crate published by an
//! older schemac keeps building for its users when they update the runtime within its minor
//! line, which the runtime's contract versions promise (`schemac_runtime::__private`).
//!
//! Each crate is copied into a workspace of its own under `CARGO_TARGET_TMPDIR`, as a
//! downstream user would have it (the published manifest, `schemac-runtime` from the registry,
//! patched to this checkout with `[patch.crates-io]`), and built with `cargo --offline` with
//! this workspace's `Cargo.lock`. Its build directory (`CARGO_BUILD_BUILD_DIR`) is this
//! workspace's target directory, so the third-party crates are the ones `cargo test
//! --workspace` has built already.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn checkout() -> PathBuf {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn the_crates_of_earlier_releases_build_against_this_runtime() {
    let root = checkout();
    let released = root.join("tests/released");
    // A dot name is a crate `cargo xtask release` is still writing (`xtask/src/released.rs`).
    let frozen = |p: &PathBuf| p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
    let mut crates: Vec<PathBuf> = fs::read_dir(&released).unwrap().map(|e| e.unwrap().path()).filter(frozen).collect();
    crates.sort();
    assert!(!crates.is_empty(), "no frozen crate under {}", released.display());
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let build = tmp.parent().expect("CARGO_TARGET_TMPDIR is inside the target directory").to_path_buf();
    for krate in crates {
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        // Each was generated for a contract version, which it states in every module.
        let module = fs::read_to_string(krate.join("src/madoo/attempts_report_v1.rs")).unwrap();
        assert!(module.contains("::schemac_runtime::__private::contract!("), "{name} states no contract version");
        let workspace = tmp.join("released").join(&name);
        let _ = fs::remove_dir_all(&workspace);
        copy_dir(&krate, &workspace.join("crate"));
        let manifest = format!(
            "[workspace]\nresolver = \"3\"\nmembers = [\"crate\"]\n\n[profile.dev]\ndebug = false\n\n\
             [patch.crates-io]\nschemac-runtime = {{ path = {:?} }}\n",
            root.join("crates/schemac-runtime")
        );
        fs::write(workspace.join("Cargo.toml"), manifest).unwrap();
        fs::copy(root.join("Cargo.lock"), workspace.join("Cargo.lock")).unwrap();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let output = Command::new(cargo)
            .args(["test", "--offline", "-q", "--test", "schemas"])
            .current_dir(&workspace)
            .env("CARGO_TARGET_DIR", workspace.join("target"))
            .env("CARGO_BUILD_BUILD_DIR", &build)
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap();
        let (out, err) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success(), "{name} does not build or pass its tests against this runtime:\n{out}\n{err}");
        assert!(out.contains("test result: ok."), "{name}: {out}");
    }
}
