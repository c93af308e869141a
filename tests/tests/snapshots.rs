//! Golden outputs: every keyword fixture compiled on its own, snapshotted with insta. The same
//! fixtures are compiled into `tests/fixture-types` by its build script, so every snapshot
//! is also code that builds. Their reference pages are snapshotted beside them.

mod common;

use schemac::{Config, Input, SchemaSource};
use serde_json::Value;

#[test]
fn fixtures_compile() {
    insta::glob!("../fixtures", "*.json", |path| {
        let display = common::display(path);
        let input = Input::new([SchemaSource::new(path.to_path_buf()).display(display.clone())]);
        let output = schemac::compile(&input, &Config::default()).unwrap_or_else(|diagnostics| panic!("{display}:\n{diagnostics}"));
        insta::assert_snapshot!(output.single_file());
    });
}

/// Reference pages: every keyword fixture's page (`schemac docs`), snapshotted like its code,
/// so a change in how a keyword is worded shows in review.
#[test]
fn fixture_pages() {
    insta::glob!("../fixtures", "*.json", |path| {
        let display = common::display(path);
        let input = Input::new([SchemaSource::new(path.to_path_buf()).display(display.clone())]);
        let front = schemac::front(&input, &Config::default()).unwrap_or_else(|diagnostics| panic!("{display}:\n{diagnostics}"));
        let page = schemac::docs::page(&front, schemac::model::DocId(0), &schemac::docs::Header::default());
        // Every row of every Fields table has the header's five cells (a `|` in a cell is
        // escaped), so the Markdown renders as a table.
        let mut in_table = false;
        for line in page.lines() {
            in_table = if line.starts_with("| Field | Type |") { true } else { in_table && line.starts_with('|') };
            if in_table {
                let cells = line.replace("\\|", "").matches('|').count() - 1;
                assert_eq!(cells, 5, "{display}: a row of {cells} cells: {line}");
            }
        }
        insta::assert_snapshot!(page);
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
