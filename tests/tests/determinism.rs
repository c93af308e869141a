//! Compiling the same schemas twice gives byte-identical code, and every generated file's
//! `@generated` header names its source, the source's SHA-256 and the command that regenerates it.

mod common;

use schemac::{Config, Input, Module, SchemaSource};
use sha2::{Digest, Sha256};

/// The bundled schemas as `cargo xtask codegen` compiles them: (path, module, root type).
const BUNDLED: [(&str, [&str; 2], &str); 2] = [
    ("schemas/madoo/attempts-report.v1.json", ["madoo", "attempts_report_v1"], "AttemptsReport"),
    ("schemas/pi-glla/goal.json", ["pi_glla", "goal"], "Goal"),
];

/// A fresh `Input` for the bundled schemas.
fn bundled_input() -> Input {
    let schemas: Vec<SchemaSource> = BUNDLED
        .iter()
        .map(|(path, module, root)| {
            SchemaSource::new(common::repo_root().join(path))
                .display((*path).to_owned())
                .module(module.iter().copied())
                .root_name((*root).to_owned())
        })
        .collect();
    Input::new(schemas)
}

fn compile(config: &Config) -> Vec<Module> {
    schemac::compile(&bundled_input(), config).unwrap_or_else(|diagnostics| panic!("{diagnostics}")).modules
}

/// The leading comment lines of a generated file.
fn header(code: &str) -> String {
    code.lines().take_while(|line| line.starts_with("//")).collect::<Vec<_>>().join("\n")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn compiling_twice_gives_identical_code() {
    let first = compile(&Config::default());
    let second = compile(&Config::default());
    let key = |m: &Module| (m.path.clone(), m.source.clone(), m.sha256.clone(), m.root.clone(), m.code.clone());
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.path, b.path, "modules come in the same order");
        assert!(key(a) == key(b), "module {:?} differs between two compilations:\n{}", a.path, first_difference(&a.code, &b.code));
    }
    println!("{} modules, byte-identical", first.len());
}

fn first_difference(a: &str, b: &str) -> String {
    match a.lines().zip(b.lines()).enumerate().find(|(_, (x, y))| x != y) {
        Some((i, (x, y))) => format!("line {}:\n  {x}\n  {y}", i + 1),
        None => format!("one is a prefix of the other ({} vs {} lines)", a.lines().count(), b.lines().count()),
    }
}

#[test]
fn each_bundled_schema_has_its_module_and_root() {
    let modules = compile(&Config::default());
    for (path, module, root) in BUNDLED {
        let m = modules.iter().find(|m| m.path == module).unwrap_or_else(|| panic!("no module {module:?} for {path}"));
        assert_eq!(m.source, path);
        assert_eq!(m.root.as_deref(), Some(root));
        assert!(m.types.iter().any(|t| t.name == root), "{root} is not among {:?}", m.types.iter().map(|t| &t.name).collect::<Vec<_>>());
    }
}

#[test]
fn generated_headers_name_source_hash_and_command() {
    for module in compile(&Config::default()) {
        let source = common::repo_root().join(&module.source);
        let bytes = std::fs::read(&source).unwrap_or_else(|e| panic!("module {:?}: source {}: {e}", module.path, module.source));
        let sha256 = sha256_hex(&bytes);
        assert_eq!(module.sha256, sha256, "module {:?}", module.path);
        let header = header(&module.code);
        for expected in ["@generated", module.source.as_str(), sha256.as_str(), "cargo xtask codegen"] {
            assert!(header.contains(expected), "the header of {:?} does not mention {expected}:\n{header}", module.path);
        }
    }
}

#[test]
fn the_header_names_the_configured_command() {
    let config = Config::default().regenerate_command("make regenerate-types");
    for module in compile(&config) {
        let header = header(&module.code);
        assert!(header.contains("make regenerate-types"), "{header}");
        assert!(!header.contains("cargo xtask codegen"), "{header}");
    }
}
