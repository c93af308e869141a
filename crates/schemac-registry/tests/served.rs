//! What `schemac serve` serves from a repository's schemas (`Project::served`) is what the
//! generated crate's `SCHEMAS` serve: the same references, versions, `$id`s, SHA-256s, texts
//! and pages, so the two registries answer alike.

mod common;

use schemac_registry::Catalog;

#[test]
fn a_projects_served_schemas_are_its_generated_crates() {
    let project = schemac_project::Project::load(common::repo().join("schemac.toml")).unwrap();
    let served = project.served().unwrap();
    let registered = schema_types::SCHEMAS;
    assert_eq!(served.len(), registered.len());
    for (served, entry) in served.iter().zip(registered) {
        assert_eq!(
            (served.reference.as_str(), served.version.as_str(), served.id.as_str(), served.source_path.as_str(), served.sha256.as_str()),
            (entry.reference, entry.version, entry.id, entry.source_path, entry.sha256)
        );
        assert_eq!(served.json, entry.json, "{}", entry.reference);
        assert_eq!(served.page.as_deref(), entry.page, "{}", entry.reference);
        assert!(entry.page.is_some(), "this repository's crate has pages");
    }
    // And so do the catalogs built from them, rendered pages included.
    let from_project = Catalog::new(
        served.into_iter().map(|s| schemac_registry::Schema::new(s.reference, s.version, s.id, s.source_path, s.sha256, s.json, s.page)),
    )
    .unwrap();
    let from_crate = Catalog::from_entries(registered).unwrap();
    for (a, b) in from_project.iter().zip(from_crate.iter()) {
        assert_eq!((a.etag(), a.json.as_ref(), a.text()), (b.etag(), b.json.as_ref(), b.text()));
    }
}

/// What a server needs (this crate, `axum`, `rmcp`, `tokio`, `hyper`, ...) is not what the
/// generated crate needs: its manifest names none of them, in no feature, and its dependency
/// closure (as `cargo tree` resolves it from this workspace's lock) holds none of them.
#[test]
fn the_generated_crate_depends_on_no_server() {
    const SERVERS: [&str; 8] = ["schemac-registry", "axum", "rmcp", "tokio", "hyper", "tower", "tower-http", "reqwest"];
    let manifest = std::fs::read_to_string(common::repo().join("generated/Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&manifest).unwrap();
    let mut named: Vec<String> = Vec::new();
    for table in ["dependencies", "build-dependencies"] {
        named.extend(manifest.get(table).and_then(toml::Value::as_table).into_iter().flat_map(|deps| deps.keys().cloned()));
    }
    for (feature, enables) in manifest.get("features").and_then(toml::Value::as_table).into_iter().flatten() {
        named.extend(enables.as_array().unwrap().iter().map(|item| format!("{feature}: {}", item.as_str().unwrap())));
    }
    assert!(named.iter().any(|name| name == "schemac-runtime"), "{named:?}");
    for name in &named {
        assert!(!SERVERS.iter().any(|server| name.contains(server)), "the generated crate's manifest names {name}");
    }

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .args(["tree", "-p", "schema-types", "-e", "normal,build", "--prefix", "none", "--offline", "--locked", "-f", "{p}"])
        .current_dir(common::repo())
        .output()
        .unwrap();
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&output.stderr));
    let packages: std::collections::BTreeSet<&str> = tree.lines().filter_map(|line| line.split(' ').next()).collect();
    assert!(packages.contains("schemac-runtime") && packages.contains("serde_json"), "{tree}");
    let servers: Vec<&&str> = packages.iter().filter(|name| SERVERS.contains(name)).collect();
    assert!(servers.is_empty(), "the generated crate depends on {servers:?}:\n{tree}");
}
