//! The Rust module of every loaded document and the configured name of each input's root
//! type: an input's module is the one it was given; a document loaded only to resolve refs
//! gets one named after its file, unique among all module paths.

use std::collections::{HashMap, HashSet};

use crate::input::SchemaSource;
use crate::ir::DocId;
use crate::load::Document;

/// Per document (by [`DocId`]): its module path and, for an input, its root type's name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Modules {
    paths: Vec<Vec<String>>,
    root_names: Vec<Option<String>>,
}

impl Modules {
    /// The modules of `docs`, whose inputs are `inputs` in order (the front end loads them
    /// first, one document each).
    pub(crate) fn new(inputs: &[SchemaSource], docs: &[Document]) -> Modules {
        let mut paths: Vec<Vec<String>> = Vec::with_capacity(docs.len());
        let mut root_names = Vec::with_capacity(docs.len());
        let mut given = inputs.iter();
        for doc in docs {
            let input = if doc.is_input { given.next() } else { None };
            paths.push(input.map(|s| s.module.clone()).unwrap_or_default());
            root_names.push(input.and_then(|s| s.root_name.clone()));
        }
        name_dependencies(docs, &mut paths);
        Modules { paths, root_names }
    }

    /// Documents in the modules `paths`, by index, with no root names.
    #[cfg(test)]
    pub(crate) fn of_paths(paths: Vec<Vec<String>>) -> Modules {
        let root_names = vec![None; paths.len()];
        Modules { paths, root_names }
    }

    /// These modules with every input's root type named `name`.
    #[cfg(test)]
    pub(crate) fn with_root_names(mut self, name: Option<&str>) -> Modules {
        self.root_names = vec![name.map(str::to_owned); self.paths.len()];
        self
    }

    /// The module path of `doc`'s types, e.g. `["madoo", "attempts_report_v1"]`.
    pub(crate) fn path(&self, doc: DocId) -> &[String] {
        self.paths.get(doc.0).map_or(&[], Vec::as_slice)
    }

    /// The configured name of `doc`'s root type (inputs only).
    pub(crate) fn root_name(&self, doc: DocId) -> Option<&str> {
        self.root_names.get(doc.0)?.as_deref()
    }
}

/// Gives every non-input document a module named after its file, unique among all module
/// paths (and their parents, which are modules too), in document order.
fn name_dependencies(docs: &[Document], paths: &mut [Vec<String>]) {
    let mut taken: HashSet<Vec<String>> = HashSet::new();
    for (_, path) in docs.iter().zip(paths.iter()).filter(|(doc, _)| doc.is_input) {
        for end in 1..=path.len() {
            taken.insert(path[..end].to_vec());
        }
    }
    // The next suffix to try per name: names only get taken, so the search for a free one
    // resumes where it stopped, and many files of one name cost linear time.
    let mut next: HashMap<String, usize> = HashMap::new();
    for (doc, path) in docs.iter().zip(paths.iter_mut()).filter(|(doc, _)| !doc.is_input) {
        let stem = doc.path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
        let base = module_name(&stem);
        let n = next.entry(base.clone()).or_insert(1);
        let mut candidate = if *n == 1 { base.clone() } else { format!("{base}_{n}") };
        while taken.contains(std::slice::from_ref(&candidate)) {
            *n += 1;
            candidate = format!("{base}_{n}");
        }
        taken.insert(vec![candidate.clone()]);
        *path = vec![candidate];
    }
}

/// A module name from a file stem: snake case, ASCII letters, digits and `_` only, never
/// starting with a digit, never a Rust keyword.
fn module_name(stem: &str) -> String {
    let snake = heck::ToSnakeCase::to_snake_case(stem);
    let mut name = String::with_capacity(snake.len());
    for c in snake.chars() {
        let c = if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' };
        // Runs of `_` come from separators next to non-ASCII characters; one is enough.
        if !(c == '_' && name.ends_with('_')) {
            name.push(c);
        }
    }
    let mut name = name.trim_matches('_').to_owned();
    if name.is_empty() {
        name = "schema".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    // A keyword cannot name a module (`r#` does not help for `self`, `super`, `crate`), and a
    // crate's name must not: `mod serde` would shadow the crate.
    if crate::ident::is_reserved_module(&name) {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use schemac_model::testing::Fixture;

    use super::*;
    use crate::Draft;

    /// The modules of `inputs` (each `(file, module)`) and of the catalog directories' files.
    fn modules(fx: &Fixture, inputs: &[(&str, &[&str])], catalog: &[&str]) -> Vec<String> {
        let mut input = fx.inputs(&[]);
        input.schemas = inputs.iter().map(|(name, _)| fx.source(name)).collect();
        input.catalog_dirs = catalog.iter().map(|dir| fx.path(dir)).collect();
        let docs = schemac_model::load::load(&input, Draft::Draft2020_12).unwrap_or_else(|d| panic!("load: {d:#?}"));
        let sources: Vec<SchemaSource> = inputs
            .iter()
            .map(|(name, module)| SchemaSource {
                path: fx.path(name),
                display: (*name).to_owned(),
                module: module.iter().map(|s| (*s).to_owned()).collect(),
                ..SchemaSource::default()
            })
            .collect();
        let modules = Modules::new(&sources, &docs);
        docs.iter().map(|d| modules.path(d.id).join("::")).collect()
    }

    #[test]
    fn module_names_are_unique_and_deterministic() {
        let fx = Fixture::new(&[
            ("madoo/x.json", "{}"),
            ("one/Common Types.json", "{}"),
            ("one/madoo.json", "{}"),
            ("one/type.json", "{}"),
            ("one/2020-12.json", "{}"),
            ("one/é.json", "{}"),
            ("two/common-types.json", "{}"),
            ("two/x.json", "{}"),
        ]);
        let first = modules(&fx, &[("madoo/x.json", &["madoo", "x"])], &["one", "two"]);
        assert_eq!(first, ["madoo::x", "_2020_12", "common_types", "madoo_2", "type_", "schema", "common_types_2", "x"]);
        assert_eq!(modules(&fx, &[("madoo/x.json", &["madoo", "x"])], &["one", "two"]), first);
    }

    #[test]
    fn module_name_cases() {
        for (stem, expected) in [
            ("attempts-report.v1", "attempts_report_v1"),
            ("CamelCase", "camel_case"),
            ("9lives", "_9lives"),
            ("self", "self_"),
            ("serde", "serde_"),
            ("schemac_runtime", "schemac_runtime_"),
            ("--", "schema"),
            ("a--b", "a_b"),
        ] {
            assert_eq!(module_name(stem), expected, "stem {stem:?}");
        }
    }

    #[test]
    fn modules_of_one_file_name_count_up() {
        let fx = Fixture::new(&[("main.json", "{}"), ("a/x.json", "{}"), ("b/x.json", "{}"), ("c/x.json", "{}"), ("d/x.json", "{}")]);
        let found = modules(&fx, &[("main.json", &["x_2"])], &["a", "b", "c", "d"]);
        assert_eq!(found, ["x_2", "x", "x_3", "x_4", "x_5"]);
    }

    #[test]
    fn a_chain_of_files_names_every_link() {
        let fx = Fixture::new(&[("f0.json", r#"{"items": {"$ref": "f1.json"}}"#), ("f1.json", "{}")]);
        assert_eq!(modules(&fx, &[("f0.json", &["f0"])], &[]), ["f0", "f1"]);
    }
}
