//! A new repository adopts schemac as a user would, in each of the three styles, and the
//! crates build against schemac as a registry dependency (`schemac-runtime = "0.1.0"`, patched
//! to this checkout with `[patch.crates-io]`, as a published crate would be used):
//!
//! 1. checked-in crate: `schemac init`, a YAML schema, `cargo xtask codegen`, a binary that
//!    reads, round-trips and rejects documents; `schemac check` passes, fails with the diff
//!    after a schema edit, passes after `cargo xtask codegen`;
//! 2. build.rs: `schemac::Builder` into `OUT_DIR`, rerun-if-changed for the schema it read;
//! 3. the macro: `include_schema!`, rebuilt when the schema changes.
//!
//! The crates of styles 2 and 3 depend on `schemac-runtime` alone, as the README says: the
//! generated code reaches serde and serde_json through it.
//!
//! One test, one workspace, one target directory kept under `CARGO_TARGET_TMPDIR` between
//! runs, so the crates are compiled once (it runs `cargo --offline` with this workspace's
//! `Cargo.lock`: every crate it needs is one this workspace already fetched). Its build
//! directory (`CARGO_BUILD_BUILD_DIR`: dependencies, build scripts, fingerprints) is this
//! workspace's target directory: the third-party crates, at the same locked versions and with
//! the same profile, are the ones `cargo test --workspace` has just built, and are not
//! compiled a second time; its own binaries stay in its target directory.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Repo {
    dir: PathBuf,
    target: PathBuf,
    build: PathBuf,
}

impl Repo {
    fn write(&self, path: &str, contents: &str) {
        let path = self.dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.dir.join(path)).unwrap()
    }

    fn run(&self, program: &str, args: &[&str], code: i32) -> String {
        let output: Output = Command::new(program)
            .args(args)
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_BUILD_BUILD_DIR", &self.build)
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        let (out, err) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(code), "{program} {args:?}\nstdout:\n{out}\nstderr:\n{err}");
        format!("{out}{err}")
    }

    fn cargo(&self, args: &[&str]) -> String {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut all = args.to_vec();
        all.push("--offline");
        self.run(&cargo, &all, 0)
    }

    fn schemac(&self, args: &[&str], code: i32) -> String {
        self.run(env!("CARGO_BIN_EXE_schemac"), args, code)
    }
}

fn checkout() -> PathBuf {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap()
}

const CUSTOMER_YAML: &str = "\
$schema: https://json-schema.org/draft/2020-12/schema
title: Customer
type: object
properties:
  name: {type: string, minLength: 1}
  tier: {enum: [free, pro]}
required: [name, tier]
";

const APP: &str = r##"fn main() {
    let text = r#"{"name": "Ada", "tier": "pro", "since": 2024}"#;
    let customer: schema_types::customer::Customer = schemac_runtime::from_str(text).expect("valid");
    let back = serde_json::to_value(&customer).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(text).unwrap(), "lossless");
    let err = schemac_runtime::from_str::<schema_types::customer::Customer>(r#"{"name": "", "tier": "pro"}"#).unwrap_err();
    println!("rejected at {}", err.pointer());
    let order: schema_types::order::Order = schemac_runtime::from_str(r#"{"id": "ord_1", "quantity": 2}"#).expect("valid");
    println!("order {}", serde_json::to_string(&order).unwrap());
}
"##;

const BUILD_RS: &str = r#"fn main() -> Result<(), schemac::BuildError> {
    schemac::Builder::new().schema("schemas/point.json").root_name("Point").compile_to_out_dir()
}
"#;

const POINT: &str = r#"{"type": "object", "properties": {"x": {"type": "number", "maximum": 10}}, "required": ["x"]}"#;

const TYPES_TEST: &str = r##"include!(concat!(env!("OUT_DIR"), "/point.rs"));

#[test]
fn reads_and_rejects() {
    let point: Point = schemac_runtime::from_str(r#"{"x": 1.5}"#).unwrap();
    assert_eq!(point.x, 1.5);
    let err = schemac_runtime::from_str::<Point>(r#"{"x": 11}"#).unwrap_err();
    assert_eq!(err.pointer(), "/x");
}
"##;

const MACRO_TEST: &str = r##"schemac_runtime::include_schema!("schemas/point.json", root = "Point");

#[test]
fn reads_and_rejects() {
    let point: Point = schemac_runtime::from_str(r#"{"x": 1.5}"#).unwrap();
    assert_eq!(point.x, 1.5);
    let err = schemac_runtime::from_str::<Point>(r#"{"x": 11}"#).unwrap_err();
    assert_eq!(err.pointer(), "/x");
}
"##;

fn manifest(name: &str, dependencies: &str, extra: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{dependencies}{extra}"
    )
}

#[test]
fn a_new_repository_adopts_schemac_in_three_styles() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = tmp.join("adoption");
    let build = tmp.parent().expect("CARGO_TARGET_TMPDIR is inside the target directory").to_path_buf();
    let repo = Repo { dir: base.join("repo"), target: base.join("target"), build };
    let _ = fs::remove_dir_all(&repo.dir);
    fs::create_dir_all(&repo.dir).unwrap();
    let root = checkout();
    let patch = format!(
        "\n[patch.crates-io]\nschemac = {{ path = {:?} }}\nschemac-project = {{ path = {:?} }}\nschemac-synth = {{ path = {:?} }}\n\
         schemac-runtime = {{ path = {:?} }}\nschemac-derive = {{ path = {:?} }}\n",
        root.join("crates/schemac"),
        root.join("crates/schemac-project"),
        root.join("crates/schemac-synth"),
        root.join("crates/schemac-runtime"),
        root.join("crates/schemac-derive")
    );
    // No debug info: the crates are only run, and it keeps the target directory small.
    let profile = "\n[profile.dev]\ndebug = false\n";
    repo.write("Cargo.toml", &format!("[workspace]\nresolver = \"3\"\nmembers = []\n{profile}{patch}"));
    fs::copy(root.join("Cargo.lock"), repo.dir.join("Cargo.lock")).unwrap();

    // 1. The checked-in crate.
    let init = repo.schemac(&["init"], 0);
    assert!(init.contains("updated Cargo.toml (workspace member `xtask` added)"), "{init}");
    repo.write("schemas/customer.yaml", CUSTOMER_YAML);
    let codegen = repo.cargo(&["xtask", "codegen"]);
    assert!(codegen.contains("created schema-types/src/customer.rs"), "{codegen}");
    assert!(repo.read("schema-types/Cargo.toml").contains("schemac-runtime = { version = \"0.1.0\" }"));
    repo.write(
        "app/Cargo.toml",
        &manifest("app", "schema-types = { path = \"../schema-types\" }\nschemac-runtime = \"0.1.0\"\nserde_json = \"1\"\n", ""),
    );
    repo.write("app/src/main.rs", APP);
    let members =
        repo.read("Cargo.toml").replace("members = [\"xtask\"]", "members = [\"xtask\", \"app\", \"types-build\", \"types-macro\"]");
    repo.write("Cargo.toml", &members);
    repo.write("types-build/schemas/point.json", POINT);
    repo.write("types-macro/schemas/point.json", POINT);
    repo.write(
        "types-build/Cargo.toml",
        &manifest("types-build", "schemac-runtime = \"0.1.0\"\n", "\n[build-dependencies]\nschemac = \"0.1.0\"\n"),
    );
    repo.write("types-build/build.rs", BUILD_RS);
    repo.write("types-build/src/lib.rs", TYPES_TEST);
    repo.write(
        "types-macro/Cargo.toml",
        &manifest("types-macro", "schemac-runtime = { version = \"0.1.0\", features = [\"derive\"] }\n", ""),
    );
    repo.write("types-macro/src/lib.rs", MACRO_TEST);

    let run = repo.cargo(&["run", "-q", "-p", "app"]);
    assert!(run.contains("rejected at /name"), "{run}");
    assert!(run.contains("order {\"id\":\"ord_1\",\"quantity\":2}"), "{run}");
    repo.cargo(&["test", "-q", "-p", "schema-types", "--test", "schemas"]);
    repo.schemac(&["check"], 0);
    repo.write("schemas/customer.yaml", &CUSTOMER_YAML.replace("  tier:", "  email: {type: string}\n  tier:"));
    let drift = repo.schemac(&["check"], 1);
    assert!(drift.contains("schema-types/src/customer.rs: differs from what the schemas generate"), "{drift}");
    assert!(drift.contains("+    pub email: ::core::option::Option<::std::string::String>,"), "{drift}");
    repo.cargo(&["xtask", "codegen"]);
    repo.cargo(&["xtask", "check"]);
    repo.schemac(&["check"], 0);

    // 2 and 3. build.rs and the macro: both read and reject; the rerun set is the one schema.
    repo.cargo(&["test", "-q", "-p", "types-build", "-p", "types-macro"]);
    let outputs: Vec<String> = fs::read_dir(repo.build.join("debug/build"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("types-build-"))
        .filter_map(|p| fs::read_to_string(p.join("output")).ok())
        .collect();
    let point = fs::canonicalize(repo.dir.join("types-build/schemas/point.json")).unwrap();
    assert!(
        outputs.iter().any(|o| o.lines().filter(|l| l.starts_with("cargo::rerun-if-changed=")).eq([format!(
            "cargo::rerun-if-changed={}",
            point.display()
        )
        .as_str()])),
        "{outputs:?}"
    );
    for krate in ["types-build", "types-macro"] {
        let schema = format!("{krate}/schemas/point.json");
        repo.write(&schema, &POINT.replace("\"maximum\": 10", "\"maximum\": 20"));
        let rebuilt = repo.cargo(&["test", "-p", krate, "--no-run"]);
        assert!(rebuilt.contains(&format!("Compiling {krate}")), "{krate} not rebuilt after its schema changed:\n{rebuilt}");
        repo.write(&schema, POINT);
    }
}
