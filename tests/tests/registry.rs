//! What a registry would serve works: `cargo package` packs `schemac-runtime`, the crates it
//! depends on (`schemac-derive`, `schemac`, `schemac-model`) and the generated `schema-types`; the `.crate` files
//! go into a local registry (cargo's local-registry layout: an index and the `.crate` files, the
//! index entries written as `cargo publish` sends them); a downstream crate that depends on
//! `schema-types = "0.1"` from that registry (`registry = "local"`, whose index URL its
//! `.cargo/config.toml` replaces with the local files), with no path dependency, is built offline and
//! reads a valid instance of a bundled schema and rejects an invalid one at its pointer, and
//! builds one with the builders (its types are `#[non_exhaustive]`).
//!
//! Its dependencies from crates.io come from cargo's cache (`--offline`): the index entries
//! name crates.io as their registry, as `cargo publish` writes them for an alternative registry.
//! Built in `target/registry-test/`, kept between runs, so a rerun only rebuilds what changed.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The crates a registry must hold, in the order `cargo publish` would upload them.
const PACKAGES: &[&str] = &["schemac-model", "schemac", "schemac-derive", "schemac-runtime", "schema-types"];

/// The crates.io index, as `cargo publish` names it in an alternative registry's entries.
const CRATES_IO: &str = "https://github.com/rust-lang/crates.io-index";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the workspace").to_path_buf()
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    // No debug info: the downstream build is checked by running it, not debugged.
    command.env("CARGO_PROFILE_DEV_DEBUG", "0").env_remove("RUSTFLAGS");
    command
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|err| panic!("cannot run {command:?}: {err}"));
    let (out, err) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{command:?} failed ({})\nstdout:\n{out}\nstderr:\n{err}", output.status);
    out.into_owned()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The normalized `Cargo.toml` that `cargo package` wrote into `file` (`NAME-VERSION.crate`).
fn packaged_manifest(file: &Path) -> toml::Table {
    let bytes = fs::read(file).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().into_owned();
        if path.components().count() == 2 && path.ends_with("Cargo.toml") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            return toml::from_str(&text).unwrap();
        }
    }
    panic!("{} holds no Cargo.toml", file.display());
}

/// One dependency as the index lists it: ours in this registry, the rest on crates.io.
fn index_dependency(name: &str, spec: &toml::Value, kind: &str, target: Option<&str>) -> Value {
    let table = spec.as_table().cloned().unwrap_or_default();
    let package = table.get("package").and_then(|p| p.as_str()).unwrap_or(name);
    let mut entry = json!({
        "name": name,
        "req": table.get("version").and_then(|v| v.as_str()).or(spec.as_str()).unwrap_or("*"),
        "features": table.get("features").cloned().unwrap_or(toml::Value::Array(Vec::new())),
        "optional": table.get("optional").and_then(|v| v.as_bool()).unwrap_or(false),
        "default_features": table.get("default-features").and_then(|v| v.as_bool()).unwrap_or(true),
        "target": target,
        "kind": kind,
    });
    if package != name {
        entry["package"] = json!(package);
    }
    if !PACKAGES.contains(&package) {
        entry["registry"] = json!(CRATES_IO);
    }
    entry
}

/// The index line for a packaged crate: what `cargo publish` sends a registry.
fn index_entry(file: &Path) -> (String, Value) {
    let manifest = packaged_manifest(file);
    let package = manifest["package"].as_table().unwrap();
    let name = package["name"].as_str().unwrap().to_owned();
    let mut deps = Vec::new();
    let mut add = |table: Option<&toml::Value>, kind: &str, target: Option<&str>| {
        for (dep, spec) in table.and_then(|t| t.as_table()).into_iter().flatten() {
            deps.push(index_dependency(dep, spec, kind, target));
        }
    };
    for (key, kind) in [("dependencies", "normal"), ("build-dependencies", "build"), ("dev-dependencies", "dev")] {
        add(manifest.get(key), kind, None);
    }
    for (target, tables) in manifest.get("target").and_then(|t| t.as_table()).into_iter().flatten() {
        for (key, kind) in [("dependencies", "normal"), ("build-dependencies", "build"), ("dev-dependencies", "dev")] {
            add(tables.get(key), kind, Some(target));
        }
    }
    // Features naming `dep:` or `?/` go into `features2`, as the index format asks.
    let (mut features, mut features2) = (BTreeMap::new(), BTreeMap::new());
    for (feature, values) in manifest.get("features").and_then(|f| f.as_table()).into_iter().flatten() {
        let new_syntax =
            values.as_array().into_iter().flatten().any(|v| v.as_str().is_some_and(|v| v.starts_with("dep:") || v.contains("?/")));
        if new_syntax { &mut features2 } else { &mut features }.insert(feature.clone(), values.clone());
    }
    let mut entry = json!({
        "name": name,
        "vers": package["version"].as_str().unwrap(),
        "deps": deps,
        "cksum": sha256_hex(&fs::read(file).unwrap()),
        "features": features,
        "yanked": false,
    });
    if !features2.is_empty() {
        entry["features2"] = json!(features2);
        entry["v"] = json!(2);
    }
    if let Some(rust_version) = package.get("rust-version").and_then(|v| v.as_str()) {
        entry["rust_version"] = json!(rust_version);
    }
    (name, entry)
}

/// The index file of a crate, by the registry's layout rule (`1/a`, `3/a/abc`, `sc/he/schemac`).
fn index_path(name: &str) -> String {
    let name = name.to_lowercase();
    match name.len() {
        1 => format!("1/{name}"),
        2 => format!("2/{name}"),
        3 => format!("3/{}/{name}", &name[..1]),
        _ => format!("{}/{}/{name}", &name[..2], &name[2..4]),
    }
}

/// A registry at `dir` in cargo's local-registry layout: the `.crate` files, and the index
/// under `index/`. A dependency names it through `[registries.local]`, whose index URL the
/// downstream's config replaces with these files (source replacement), so nothing is fetched.
fn make_registry(dir: &Path, crates: &[PathBuf]) {
    let _ = fs::remove_dir_all(dir);
    let index = dir.join("index");
    fs::create_dir_all(&index).unwrap();
    for file in crates {
        fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
        let (name, entry) = index_entry(file);
        let path = index.join(index_path(&name));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, format!("{entry}\n")).unwrap();
    }
}

/// The downstream's `.cargo/config.toml`: the registry `local`, served from `dir`.
fn registry_config(dir: &Path) -> (String, String) {
    let index = format!("file://{}/index", dir.display());
    let config = format!(
        "[registries.local]\nindex = \"{index}\"\n\n[source.local-index]\nregistry = \"{index}\"\nreplace-with = \"local-files\"\n\n\
         [source.local-files]\nlocal-registry = \"{}\"\n",
        dir.display()
    );
    (index, config)
}

const MAIN_RS: &str = r#"//! Reads an attempts report given as a path: `ok` or the error's pointer, exit 1. With
//! `--build`, builds one with the builders (the generated structs and enums are
//! `#[non_exhaustive]`, so a struct literal would not compile here) and matches its enum with
//! the wildcard arm a non-exhaustive enum needs.
use schema_types::madoo::attempts_report_v1::{
    Attempt, AttemptsReport, AttemptsReportBody, AttemptsReportDisposition, AttemptsReportPolicy,
    AttemptsReportPolicyOnExhausted, AttemptsReportSchema,
};
use schemac_runtime::{Integer, Number, Validate as _, ValidationErrors};

fn built() -> Result<AttemptsReport, ValidationErrors> {
    AttemptsReport::builder()
        .schema(AttemptsReportSchema)
        .body(AttemptsReportBody::builder().workflow(None).version(3u8).build()?)
        .policy(
            AttemptsReportPolicy::builder()
                .max_attempts(3)
                .on_exhausted(AttemptsReportPolicyOnExhausted::Best)
                .minimum_score_to_deliver(Number::new(0.0))
                .build()?,
        )
        .attempts(vec![
            Attempt::builder()
                .attempt(1)
                .execution("run_5d41402abc4b2a76b9719d911017c592")
                .accepted(true)
                .score(1.0)
                .feedback(None)
                .build()?,
        ])
        .selected_attempt(Integer::from(1))
        .disposition("accepted")
        .reason("Attempt 1 was accepted.")
        .build()
}

fn main() {
    let path = std::env::args().nth(1).expect("a path");
    if path == "--build" {
        let report = built().expect("the built report is valid");
        assert!(report.validate().is_ok());
        let disposition = match report.disposition {
            AttemptsReportDisposition::Accepted => "accepted",
            AttemptsReportDisposition::BestUnaccepted => "best_unaccepted",
            AttemptsReportDisposition::Discarded => "discarded",
            // A value a later version of the schema adds.
            _ => "another disposition",
        };
        println!("built: {} attempts, {disposition}", report.attempts.len());
        return;
    }
    let text = std::fs::read_to_string(&path).expect("readable");
    match schemac_runtime::from_str::<AttemptsReport>(&text) {
        Ok(report) => println!("ok: {} attempts", report.attempts.len()),
        Err(err) => {
            println!("rejected at {}: {err}", err.pointer());
            std::process::exit(1);
        }
    }
}
"#;

#[test]
fn a_downstream_crate_builds_from_the_packaged_crates_alone() {
    let root = root();
    let work = root.join("target/registry-test");
    let package_dir = work.join("package-target");
    // Packed as a release would (`--no-verify`: the downstream build below is the check that
    // matters), offline, from the committed sources.
    let mut package = cargo();
    package.args(["package", "--offline", "--no-verify", "--allow-dirty", "--target-dir"]).arg(&package_dir).current_dir(&root);
    for name in PACKAGES {
        package.args(["-p", name]);
    }
    run(&mut package);
    let (schemac_version, types_version) = (schemac_version(&root), types_version(&root));
    let crates: Vec<PathBuf> = PACKAGES
        .iter()
        .map(|name| {
            let version = if *name == "schema-types" { &types_version } else { &schemac_version };
            package_dir.join("package").join(format!("{name}-{version}.crate"))
        })
        .collect();
    // Cargo caches a registry's crates by name and version under its URL: a registry named by
    // the hash of its crates is never served from a stale cache. Older ones go.
    let mut hash = Sha256::new();
    for file in &crates {
        hash.update(fs::read(file).unwrap());
    }
    let registry = format!("registry-{}", &sha256_hex(&hash.finalize())[..12]);
    for entry in fs::read_dir(&work).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.starts_with("registry-") && name != registry {
            let _ = fs::remove_dir_all(work.join(name));
        }
    }
    make_registry(&work.join(&registry), &crates);
    let (index, config) = registry_config(&work.join(&registry));

    // The downstream crate: dependencies by version from the registry, nothing by path.
    let downstream = work.join("downstream");
    fs::create_dir_all(downstream.join("src")).unwrap();
    fs::create_dir_all(downstream.join(".cargo")).unwrap();
    let minor = types_version.rsplit_once('.').unwrap().0.to_owned();
    let manifest = format!(
        "[package]\nname = \"downstream\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\nschema-types = {{ version = \"{minor}\", registry = \"local\" }}\n\
         schemac-runtime = {{ version = \"{}\", registry = \"local\" }}\n",
        schemac_version
    );
    fs::write(downstream.join("Cargo.toml"), manifest).unwrap();
    fs::write(downstream.join("src/main.rs"), MAIN_RS).unwrap();
    fs::write(downstream.join(".cargo/config.toml"), config).unwrap();
    // This workspace's lock, so crates.io dependencies resolve to the versions it builds with;
    // the registry's crates, whose checksums change with the sources, are resolved afresh each
    // run (the lock has no entry for them). The build directory is this workspace's target
    // directory: those dependencies are the ones `cargo test --workspace` has just built.
    fs::copy(root.join("Cargo.lock"), downstream.join("Cargo.lock")).unwrap();
    let target = work.join("downstream-target");
    run(cargo()
        .args(["build", "--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .env("CARGO_BUILD_BUILD_DIR", root.join("target"))
        .current_dir(&downstream));

    // It resolved schema-types from the registry, at the generated crate's version.
    let lock = fs::read_to_string(downstream.join("Cargo.lock")).unwrap();
    let entry = lock.split("[[package]]").find(|p| p.contains("name = \"schema-types\"")).expect("schema-types is in the lock");
    assert!(entry.contains(&format!("version = \"{types_version}\"")), "{entry}");
    assert!(entry.contains(&format!("source = \"registry+{index}\"")), "{entry}");
    assert!(!lock.contains("path+"), "no path dependency: {lock}");

    let examples = root.join("schemas/madoo/attempts-report.v1.examples");
    let binary = target.join("debug/downstream");
    let built = run(Command::new(&binary).arg("--build"));
    assert_eq!(built, "built: 1 attempts, accepted\n");
    let valid = run(Command::new(&binary).arg(examples.join("valid/boundary-upper.json")));
    assert!(valid.starts_with("ok: "), "{valid}");
    let invalid_case: Value = serde_json::from_str(&fs::read_to_string(examples.join("invalid/score-above-one.json")).unwrap()).unwrap();
    let instance = work.join("score-above-one.instance.json");
    fs::write(&instance, invalid_case["instance"].to_string()).unwrap();
    let output = Command::new(&binary).arg(&instance).output().unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.starts_with(&format!("rejected at {}: ", invalid_case["pointer"].as_str().unwrap())), "{printed}");
}

/// The generated crate's version.
fn types_version(root: &Path) -> String {
    let text = fs::read_to_string(root.join("generated/Cargo.toml")).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["package"]["version"].as_str().unwrap().to_owned()
}

/// The workspace version, which `schemac`, `schemac-derive` and `schemac-runtime` share.
fn schemac_version(root: &Path) -> String {
    let text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["workspace"]["package"]["version"].as_str().unwrap().to_owned()
}
