//! Writes the generated schema (`generator.rs`) and its documents under `OUT_DIR`, and
//! compiles the schema into the crate there, as `tests/fixture-types/build.rs` does for the
//! fixtures. No round-trip tests: synthesizing instances of a schema this size would dwarf the
//! build; `tests/read.rs` reads the documents instead.

#[path = "generator.rs"]
mod generator;

use std::path::Path;

use schemac_project::{CrateSpec, Unit, included};

/// How deeply the deep documents nest: within serde_json's limit of 128 levels.
pub const DEPTH: usize = 120;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=generator.rs");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set for build scripts");
    let root = Path::new(&out).join("input");
    let write = |path: &Path, value: &serde_json::Value| {
        std::fs::create_dir_all(path.parent().expect("a file in a directory")).expect("OUT_DIR is writable");
        let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
        text.push('\n');
        if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(path, text).expect("OUT_DIR is writable");
        }
    };
    write(&root.join("schemas/chart.json"), &generator::schema(generator::Shape::FULL));
    for (name, document) in generator::documents(generator::Shape::FULL, DEPTH) {
        write(&Path::new(&out).join(format!("documents/{name}.json")), &document);
    }
    let mut spec = CrateSpec::new("tests/big-types", "big-types", "A generated few-megabyte schema shaped like a visualization grammar's");
    spec.units = vec![Unit { roots: vec!["schemas".to_owned()], assert_formats: false, plain_serde: false }];
    spec.root_names.insert("schemas/chart.json".to_owned(), "Chart".to_owned());
    spec.round_trips = false;
    spec.regenerate_command = "cargo build (tests/big-types/build.rs)".to_owned();
    if let Err(error) = included::build_crate(&root, &spec) {
        included::fail(&error);
    }
}
