//! Generates the crate from the snapshot-test fixtures: `tests/fixtures/` as they are,
//! `tests/fixtures-formats/` with `format` asserted, with round-trip tests for the first.

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
    ];
    spec.regenerate_command = "cargo build (tests/fixture-types/build.rs)".to_owned();
    if let Err(error) = included::build_crate(&root, &spec) {
        included::fail(&error);
    }
}
