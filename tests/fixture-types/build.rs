//! Generates the crate from the snapshot-test fixtures: `tests/fixtures/` as they are,
//! `tests/fixtures-formats/` with `format` asserted, `tests/fixtures-open/` with one schema's
//! string enums open and another's types with derives of their own, `tests/fixtures-hostile/`
//! (names that could break generated code), with round-trip tests for the first.

use std::path::Path;

use schemac_project::{CrateSpec, Unit, included};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut spec = CrateSpec::new(
        "tests/fixture-types",
        "fixture-types",
        "The snapshot-test fixtures under `tests/fixtures/`, compiled to prove their code builds",
    );
    spec.units = vec![
        Unit { roots: vec!["tests/fixtures".to_owned()], assert_formats: false, plain_serde: false },
        Unit { roots: vec!["tests/fixtures-formats".to_owned()], assert_formats: true, plain_serde: false },
        Unit { roots: vec!["tests/fixtures-open".to_owned()], assert_formats: false, plain_serde: false },
        Unit { roots: vec!["tests/fixtures-hostile".to_owned()], assert_formats: false, plain_serde: false },
    ];
    // A file name with a space is no default reference (`SCHEMAS` key); its module is `with_space`.
    spec.references.insert("tests/fixtures-hostile/with space.json".to_owned(), "with-space".to_owned());
    // One schema with open string enums, one without, of the same shape.
    spec.types.configure(|c| c.open_enums_of("tests/fixtures-open/open-enums.json", true));
    // Derives and attributes of single types.
    let settings = |derives: &[&str], attributes: &[&str]| {
        schemac::TypeSettings::default().derives(derives.iter().copied()).attributes(attributes.iter().copied())
    };
    let types = [
        ("/$defs/cell", settings(&["Copy", "Eq", "Hash", "PartialOrd", "Ord"], &[])),
        ("/$defs/label", settings(&["Eq", "Hash"], &["#[doc(alias = \"tag\")]"])),
    ];
    for (pointer, settings) in types {
        spec.types.configure(|c| c.type_settings("tests/fixtures-open/type-options.json", pointer, settings));
    }
    spec.regenerate_command = "cargo build (tests/fixture-types/build.rs)".to_owned();
    if let Err(error) = included::build_crate(&root, &spec) {
        included::fail(&error);
    }
}
