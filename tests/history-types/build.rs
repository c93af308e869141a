//! Generates the crate from the goal schema's history: each version under `tests/history/` is
//! compiled on its own (they share one `$id`) into a module of its own, its root named `Goal`
//! (the title changed over time; one name keeps the tests alike). No round-trip tests: those
//! of 31 versions of one schema would add little but build time; `tests/tests/history.rs`
//! checks every version on every goal instance instead.

use std::path::Path;

use schemac_project::{CrateSpec, Unit, included, krate};

const HISTORY_ROOT: &str = "tests/history";

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut spec = CrateSpec::new(
        "tests/history-types",
        "history-types",
        "Every published version of the goal schema, under `tests/history/`, compiled for the history tests",
    );
    let versions = match krate::schema_paths(&root, &[HISTORY_ROOT.to_owned()]) {
        Ok(versions) => versions,
        Err(error) => included::fail(&error),
    };
    spec.units = versions.iter().map(|path| Unit { roots: vec![path.clone()], assert_formats: false, plain_serde: false }).collect();
    spec.root_names = versions.iter().map(|path| (path.clone(), "Goal".to_owned())).collect();
    spec.round_trips = false;
    spec.regenerate_command = "cargo build (tests/history-types/build.rs)".to_owned();
    println!("cargo::rerun-if-changed={}", root.join(HISTORY_ROOT).display());
    if let Err(error) = included::build_crate(&root, &spec) {
        included::fail(&error);
    }
}
