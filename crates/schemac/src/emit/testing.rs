//! What the emitters' unit tests share: one schema, the file `s.json` whose root type is
//! `Root`, compiled in a scratch directory of its own.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{Config, Diagnostics, Input, Output, SchemaSource};

/// Compiles `schema` as `s.json` (root type `Root`) with `config`.
pub(super) fn compile_one(schema: &str, config: &Config) -> Result<Output, Diagnostics> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("schemac-emit-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    std::fs::write(&path, schema).unwrap();
    let source = SchemaSource { path, display: "s.json".to_owned(), root_name: Some("Root".to_owned()), ..SchemaSource::default() };
    let output = crate::compile(&Input { schemas: vec![source], ..Input::default() }, config);
    std::fs::remove_dir_all(&dir).unwrap();
    output
}

/// The module as one file with every run of whitespace a single space, for `contains` checks
/// that do not depend on how the code is wrapped.
pub(super) fn flat(output: &Output) -> String {
    output.single_file().split_whitespace().collect::<Vec<_>>().join(" ")
}
