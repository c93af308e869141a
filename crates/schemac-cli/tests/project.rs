//! `schemac init`, `codegen` and `check` end to end on scratch repositories: what they write,
//! their exit codes, and their errors for bad input.

mod common;

use common::TempDir;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

impl TempDir {
    fn read(&self, name: &str) -> String {
        fs::read_to_string(self.0.join(name)).unwrap()
    }

    /// Runs schemac in this directory and asserts its exit code, showing both streams when it differs.
    fn run(&self, args: &[&str], code: i32) -> (String, String) {
        let output: Output =
            Command::new(env!("CARGO_BIN_EXE_schemac")).args(args).current_dir(&self.0).output().expect("cannot run schemac");
        let (out, err) = (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned());
        assert_eq!(output.status.code(), Some(code), "schemac {args:?}\nstdout:\n{out}\nstderr:\n{err}");
        (out, err)
    }
}

fn is_dir(path: &Path) -> bool {
    path.is_dir()
}

#[test]
fn init_codegen_check_and_drift() {
    let repo = TempDir::new("schemac-cli-project");
    let (out, _) = repo.run(&["init"], 0);
    for file in ["schemac.toml", "schemas/order.json", "xtask/Cargo.toml", "xtask/src/main.rs", ".cargo/config.toml", "Cargo.toml"] {
        assert!(out.contains(&format!("created {file}")), "{file} not created:\n{out}");
    }
    let (out, _) = repo.run(&["init"], 0);
    assert!(out.contains("left alone schemac.toml (it exists)") && !out.contains("created"), "{out}");

    let (out, _) = repo.run(&["codegen"], 0);
    assert!(out.contains("created schema-types/src/order.rs"), "{out}");
    assert!(repo.read("schema-types/src/order.rs").contains("pub struct Order"));
    let (out, _) = repo.run(&["check"], 0);
    assert!(out.starts_with("generated code is up to date"), "{out}");

    repo.write("schemas/order.json", &repo.read("schemas/order.json").replace("\"note\"", "\"comment\""));
    let (_, err) = repo.run(&["check"], 1);
    assert!(err.contains("schema-types/src/order.rs: differs from what the schemas generate"), "{err}");
    assert!(err.contains("+    pub comment: ::core::option::Option<::std::string::String>,"), "{err}");
    assert!(err.contains("run `schemac codegen` (or `cargo xtask codegen`) and commit"), "{err}");
    repo.run(&["codegen"], 0);
    repo.run(&["check"], 0);

    fs::remove_dir_all(repo.0.join("schema-types")).unwrap();
    let (_, err) = repo.run(&["check", "--config", "schemac.toml"], 1);
    assert!(err.contains("schema-types/Cargo.toml: missing; codegen generates it"), "{err}");
    assert!(!is_dir(&repo.0.join("schema-types")), "check wrote nothing");
}

#[test]
fn config_errors_exit_2_with_file_key_position_and_hint() {
    let repo = TempDir::new("schemac-cli-project");
    let (_, err) = repo.run(&["check"], 2);
    assert!(err.contains("error: schemac.toml: cannot read it"), "{err}");
    assert!(err.contains("hint: create it with `schemac init`"), "{err}");

    repo.run(&["init"], 0);
    let config = repo.read("schemac.toml");
    repo.write("schemac.toml", &config.replace("output =", "outptu ="));
    let (_, err) = repo.run(&["codegen"], 2);
    assert!(err.contains("error: schemac.toml:8:1: crate.outptu: unknown field `outptu`, expected one of `name`"), "{err}");
    assert!(err.contains("hint: check the spelling"), "{err}");

    repo.write("schemac.toml", &config.replace("roots = [\"schemas\"]", "roots = 3"));
    let (_, err) = repo.run(&["codegen", "--config", "schemac.toml"], 2);
    assert!(err.contains("schemac.toml:11:9: schemas.roots: invalid type: integer `3`, expected a sequence"), "{err}");
    assert!(!is_dir(&repo.0.join("schema-types")));
}

#[test]
fn a_missing_root_or_a_bad_schema_exits_1_writing_nothing() {
    let repo = TempDir::new("schemac-cli-project");
    repo.run(&["init"], 0);
    fs::remove_dir_all(repo.0.join("schemas")).unwrap();
    let (_, err) = repo.run(&["codegen"], 1);
    assert!(err.contains("schemac.toml: schema root `schemas` is not a directory"), "{err}");
    repo.write("schemas/order.json", "{ \"type\": \"object\", }");
    let (_, err) = repo.run(&["codegen"], 1);
    assert!(err.contains("error[invalid-json]: schemas/order.json:1:"), "{err}");
    assert!(!is_dir(&repo.0.join("schema-types")), "nothing of the crate is written");
}

#[test]
fn help_shows_the_project_commands_with_examples() {
    let repo = TempDir::new("schemac-cli-project");
    let (out, _) = repo.run(&["--help"], 0);
    for line in
        ["schemac init [DIR]", "schemac codegen [--config FILE]", "schemac check [--config FILE]", "schemac release [--config FILE]"]
    {
        assert!(out.contains(line), "{line} missing:\n{out}");
    }
    for command in ["init", "codegen", "check", "release"] {
        let (out, _) = repo.run(&[command, "--help"], 0);
        assert!(out.contains("Examples:"), "{command}:\n{out}");
    }
    repo.run(&["codegen", "--bogus"], 2);
}

/// The version rule and `release` through the binary: check fails on a change the version does
/// not cover, `release --dry-run` proposes the bump and writes nothing, `release` writes it, and
/// a second `release` does nothing.
#[test]
fn check_holds_the_version_to_the_baseline_and_release_bumps_it() {
    let repo = TempDir::new("schemac-cli-project");
    repo.run(&["init"], 0);
    repo.run(&["codegen"], 0);
    let (out, _) = repo.run(&["release", "--no-package"], 0);
    assert!(out.starts_with("released schema-types 0.1.0 (the first release: no baseline yet)"), "{out}");
    assert!(repo.read("schemac.baseline.toml").contains("path = \"schemas/order.json\""));

    // A field renamed: the Rust API breaks whatever the role.
    repo.write("schemas/order.json", &repo.read("schemas/order.json").replace("\"note\"", "\"comment\""));
    repo.run(&["codegen"], 0);
    let (_, err) = repo.run(&["check"], 1);
    assert!(err.contains("the crate needs 0.2.0, schemac.toml says 0.1.0"), "{err}");
    assert!(err.contains("hint: run `schemac release` (or `cargo xtask release`)"), "{err}");

    let config = repo.read("schemac.toml");
    let (out, _) = repo.run(&["release", "--dry-run", "--no-package"], 0);
    assert!(out.starts_with("would release schema-types 0.2.0 (from 0.1.0: a major bump)"), "{out}");
    assert_eq!(repo.read("schemac.toml"), config, "a dry run writes nothing");

    repo.run(&["release", "--no-package"], 0);
    assert!(repo.read("schemac.toml").contains("version = \"0.2.0\""));
    let changelog = repo.read("schema-types/CHANGELOG.md");
    assert!(changelog.contains("## [0.2.0] - ") && changelog.contains("`note` removed from `order::Order`"), "{changelog}");
    let (out, _) = repo.run(&["check"], 0);
    assert!(out.contains("version 0.2.0 covers the 0 changes since release 0.2.0"), "{out}");
    let (out, _) = repo.run(&["release"], 0);
    assert_eq!(out, "nothing to release: the schemas and crate.version (0.2.0) are those of the last release\n");
}
