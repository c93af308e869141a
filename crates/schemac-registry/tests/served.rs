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
