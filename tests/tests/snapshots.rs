//! Golden outputs: every keyword fixture compiled on its own, snapshotted with insta. The same
//! fixtures are compiled into `tests/fixture-types` by its build script, so every snapshot
//! is also code that builds.

mod common;

use schemac::{Config, Input, SchemaSource};
use serde_json::Value;

#[test]
fn fixtures_compile() {
    insta::glob!("../fixtures", "*.json", |path| {
        let display = common::display(path);
        let input = Input {
            schemas: vec![SchemaSource {
                path: path.to_path_buf(),
                display: display.clone(),
                module: vec![],
                root_name: None,
                pointer: String::new(),
            }],
            ..Input::default()
        };
        let output = schemac::compile(&input, &Config::default()).unwrap_or_else(|diagnostics| panic!("{display}:\n{diagnostics}"));
        insta::assert_snapshot!(output.single_file());
    });
}

/// The snapshot inputs themselves: schemas of their declared draft, each with a `title` so its
/// root type's name is predictable (`"Open Object"` → `OpenObject`).
#[test]
fn fixtures_are_schemas_with_titles() {
    let files = common::json_files(&common::tests_dir().join("fixtures"));
    for path in &files {
        let schema = common::read_json(path);
        let title = schema.get("title").and_then(Value::as_str);
        assert!(title.is_some_and(|t| !t.is_empty()), "{} has no title", path.display());
        common::validator(path);
    }
    println!("{} fixture schemas", files.len());
}
