//! The generated code: a Rust module per document that has types, with what a writer and the
//! drift check need to know about it.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::emit::unparse;
use crate::stack::on_deep_stack;
use crate::write;

/// The generated code, one module per document that has types.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub modules: Vec<Module>,
    /// Every file the compiler read from disk (the input schemas and each file loaded to
    /// resolve refs), so that a writer can refuse to overwrite one:
    /// [`write::ensure_not_input`].
    pub sources: Vec<write::SourceFile>,
    /// What compiled but deserves attention (`Severity::Warning`), e.g. a `pattern` that
    /// runs on a backtracking engine; the CLI prints them to stderr.
    pub warnings: Vec<Diagnostic>,
}

/// The Rust source of one module.
#[derive(Clone, Debug)]
pub struct Module {
    /// e.g. `["madoo", "attempts_report_v1"]`.
    pub path: Vec<String>,
    /// The schema file, as displayed (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub source: String,
    /// The `$id` of the schema document; `source` when it has none.
    pub id: String,
    pub sha256: String,
    /// The name of the root type, for input schemas.
    pub root: Option<String>,
    /// Whether the root type is a type of its own (not a plain `type` alias), which then
    /// implements `SchemaBound` and `JsonSchema`.
    pub root_nominal: bool,
    /// Every type in the module with the first line of its docs, in output order.
    pub types: Vec<TypeSummary>,
    /// Formatted Rust source, `@generated` header included.
    pub code: String,
}

impl Output {
    /// All modules as one self-contained Rust file (for `schemac compile -o OUT.rs`): the module
    /// whose path is empty at the top level, the others nested as inline `pub mod`s.
    pub fn single_file(&self) -> String {
        on_deep_stack(|| single_file(self))
    }
}

#[derive(Clone, Debug)]
pub struct TypeSummary {
    pub name: String,
    pub summary: String,
    /// True for the checked `serde_json::Value` fallback (no precise Rust shape).
    pub fallback: bool,
    /// The most bytes `size_of` of this type takes on a 64-bit target: [`crate::emit::MAX_TYPE_SIZE`],
    /// or more for a struct that passes it with every field of a generated type boxed (see
    /// `emit/layout.rs`). The generated crate's `tests/sizes.rs` checks it.
    pub size_bound: usize,
    /// Whether this is an open string enum (`Other(String)`): a reader-side tolerance, which
    /// the drift check reports.
    pub open: bool,
    /// The user's type that this one is an alias of (`rust-type`, `x-rust-type`): its size is
    /// the user's business.
    pub replaced_by: Option<String>,
}

/// See [`Output::single_file`]: nests every module under the top-level one.
fn single_file(output: &Output) -> String {
    // A lone top-level module is already the file: its code is `unparse`'s output, which
    // `unparse` prints again unchanged (`lone_module_is_its_own_file` holds it to that), so
    // parsing and printing it again (a third of the work on a large schema) is skipped.
    if let [module] = output.modules.as_slice()
        && module.path.is_empty()
    {
        return module.code.clone();
    }
    single_file_reprinted(output)
}

/// [`single_file`] by parsing every module and printing them as one file.
fn single_file_reprinted(output: &Output) -> String {
    let mut header = String::new();
    let mut top: Vec<syn::Item> = Vec::new();
    let mut attrs: Vec<syn::Attribute> = Vec::new();
    let mut nested: BTreeMap<Vec<String>, syn::File> = BTreeMap::new();
    for module in &output.modules {
        // A module's code is the emitter's parsed output, so this cannot fail but by a bug,
        // which then fails the build with the reason instead of dropping the module.
        let file = syn::parse_file(&module.code).unwrap_or_else(|e| {
            let message = format!("schemac bug: the code of module `{}` does not parse: {e}", module.path.join("::"));
            syn::parse_quote! { ::core::compile_error!(#message); }
        });
        if module.path.is_empty() {
            header = module.code.lines().take_while(|l| l.starts_with("//")).map(|l| format!("{l}\n")).collect();
            attrs = file.attrs;
            top.extend(file.items);
        } else {
            nested.insert(module.path.clone(), file);
        }
    }
    for (path, file) in nested {
        insert_module(&mut top, &path, file);
    }
    let file = syn::File { shebang: None, attrs, items: top };
    format!("{header}\n{}", unparse(file))
}

/// Adds `file` as the inline module at `path` (creating parents) inside `items`.
fn insert_module(items: &mut Vec<syn::Item>, path: &[String], file: syn::File) {
    let Some((first, rest)) = path.split_first() else { return };
    let ident = syn::Ident::new(first, proc_macro2::Span::call_site());
    let position = items.iter().position(|item| matches!(item, syn::Item::Mod(m) if m.ident == ident));
    let index = position.unwrap_or_else(|| {
        items.push(syn::parse_quote! { pub mod #ident {} });
        items.len() - 1
    });
    let syn::Item::Mod(module) = &mut items[index] else { return };
    if rest.is_empty() {
        module.attrs.extend(file.attrs);
        module.content.get_or_insert_with(Default::default).1.extend(file.items);
    } else {
        insert_module(&mut module.content.get_or_insert_with(Default::default).1, rest, file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Input, SchemaSource};

    /// `single_file` returns a lone top-level module's code as it is: printing that code again
    /// must give it back byte for byte, on real schemas (the goal schema and the seed schemas,
    /// which call every runtime macro `unparse` lays out), with builders and without.
    #[test]
    fn lone_module_is_its_own_file() {
        let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seed-schemas");
        let mut schemas: Vec<_> = std::fs::read_dir(&seeds)
            .unwrap_or_else(|e| panic!("the seed schemas at {} are needed: {e}", seeds.display()))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        schemas.sort();
        assert!(schemas.len() >= 2, "{schemas:?}");
        for path in schemas {
            for builders in [true, false] {
                let display = path.file_name().unwrap().to_string_lossy().into_owned();
                let input =
                    Input { schemas: vec![SchemaSource { path: path.clone(), display, ..SchemaSource::default() }], ..Input::default() };
                let config = Config { builders, unbounded_patterns: true, ..Config::default() };
                let output = crate::compile(&input, &config).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
                assert_eq!(output.modules.len(), 1, "{}", path.display());
                let fast = output.single_file();
                assert!(fast.contains("::schemac_runtime::__private::object! {\n"), "{}", path.display());
                assert_eq!(fast, on_deep_stack(|| single_file_reprinted(&output)), "{}", path.display());
            }
        }
    }
}
