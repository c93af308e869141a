//! Compiling each target with `schemac::compile`, as a user would (`schemac compile
//! schemas/json/NAME.json --map https://json.schemastore.org/=schemas/json/`), with the default
//! configuration (builders on), into one self-contained module of the corpus crate.

use std::path::Path;

use super::referee::CATALOG_URLS;
use crate::conformance::compile::{catch_panic, one_line};

/// What schemac made of one target.
#[derive(Debug, Clone)]
pub enum Compiled {
    /// The module's code, ending with the driver's entry `corpus_check`; how many lines
    /// schemac generated; the warnings it gave, one line each.
    Code { code: String, lines: usize, warnings: Vec<String> },
    /// schemac refused the schema (a located error) or panicked; why, in one line.
    Rejected { reason: String, panicked: bool },
}

/// Compiles `schemas/json/NAME.json` of the corpus, or the metaschema of a metaschema
/// target (`root` is the checkout).
pub fn compile(root: &Path, schema_dir: &Path, name: &str) -> Compiled {
    let (path, display) = match super::metaschema::file(root, name) {
        Some(path) => {
            let display = path.strip_prefix(root).unwrap_or(&path).display().to_string();
            (path, display)
        }
        None => (schema_dir.join(format!("{name}.json")), format!("schemas/json/{name}.json")),
    };
    let input = {
        let mut input = schemac::Input::new([schemac::SchemaSource::new(path).display(display)]);
        input.maps =
            CATALOG_URLS.iter().map(|prefix| schemac::UrlMap { prefix: (*prefix).to_owned(), dir: schema_dir.to_path_buf() }).collect();
        input
    };
    let config = schemac::Config::default().regenerate_command("cargo xtask corpus");
    let output = match catch_panic(|| schemac::compile(&input, &config).map(|output| (output.single_file(), output))) {
        Err(panic) => return Compiled::Rejected { reason: format!("schemac panicked: {panic}"), panicked: true },
        Ok(Err(diagnostics)) => return Compiled::Rejected { reason: located(&diagnostics), panicked: false },
        Ok(Ok(output)) => output,
    };
    let (mut code, output) = output;
    let Some(root) = output.modules.iter().find(|m| m.path.is_empty()).and_then(|m| m.root.clone()) else {
        return Compiled::Rejected { reason: "schemac emitted no root type".to_owned(), panicked: false };
    };
    let lines = code.lines().count();
    code.push_str(&format!(
        "\n/// The driver's entry to this target: reads a document as the root type.\n\
         pub fn corpus_check(doc: &crate::Doc) -> crate::Outcome {{\n    crate::check::<{root}>(doc)\n}}\n"
    ));
    let warnings = output.warnings.iter().map(|w| format!("[{}] {}", w.code, one_line(&w.message))).collect();
    Compiled::Code { code, lines, warnings }
}

/// The target's module name in the corpus crate: `s_` and the name in lower case, every
/// other character `_` (unique among targets: a clash gets the target's index).
pub fn module_name(name: &str, index: usize, taken: &mut std::collections::BTreeSet<String>) -> String {
    let plain: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let mut module = format!("s_{plain}");
    if !taken.insert(module.clone()) {
        module = format!("s_{plain}_{index}");
        taken.insert(module.clone());
    }
    module
}

/// The first error with its file, line:column and pointer, on one line, and how many more.
fn located(diagnostics: &schemac::Diagnostics) -> String {
    let mut all = diagnostics.iter();
    let Some(first) = all.next() else { return "schemac rejected the schema without a diagnostic".to_owned() };
    let position = first.position.map_or(String::new(), |(line, column)| format!(":{line}:{column}"));
    let pointer = if first.pointer.is_empty() { "(root)" } else { &first.pointer };
    let more = all.count();
    let more = if more == 0 { String::new() } else { format!(" (+{more} more)") };
    format!("[{}] {}{position} at {pointer}: {}{more}", first.code, first.file, one_line(&first.message))
}
