//! Layout rules the code must keep, checked over the source tree (as rust-analyzer's tidy
//! test does): every module opens with a `//!` line saying what it owns, and outside the schema
//! model's module no code looks up a JSON Schema keyword by its name.

#[path = "tidy/imports.rs"]
mod imports;

use std::path::{Path, PathBuf};

/// The directories of hand-written Rust (generated crates are checked by the drift check).
const SOURCES: &[&str] = &[
    "crates/schemac/src",
    "crates/schemac-model/src",
    "crates/schemac/benches",
    "crates/schemac-cli/src",
    "crates/schemac-derive/src",
    "crates/schemac-project/src",
    "crates/schemac-registry/src",
    "crates/schemac-runtime/src",
    "crates/schemac-synth/src",
    "xtask/src",
    "bench/src",
    "bench/benches",
];

/// The one module that reads keywords by name: the model and its keyword table.
const MODEL: &str = "crates/schemac-model/src/schema/";

/// Files where a keyword's spelling is not a lookup in schema JSON, each with the reason.
const NOT_LOOKUPS: &[(&str, &str)] = &[
    ("crates/schemac/src/ident.rs", "Rust's own keywords (`type`, `enum`, `const`, `if`, `else`), for raw identifiers"),
    (
        "crates/schemac-runtime/src/bundle.rs",
        "places schemars' references into a bundled schema at run time: `$ref`, `allOf`, `$id` and `$schema` are the \
         output it writes, as the generator planned (schemac::schema::bundle)",
    ),
    (
        "xtask/src/corpus/referee.rs",
        "the corpus's referee reads schemas on its own, never through schemac's model: it percent-encodes the `$ref`s of \
         the raw JSON it hands to jsonschema",
    ),
    (
        "xtask/src/corpus/metaschema.rs",
        "the corpus's schema files are the documents of the metaschema targets: a file's `$schema` says which \
         metaschema's document it is, a read of instance data, not of a schema",
    ),
    (
        "crates/schemac-project/src/init.rs",
        "the example schema `schemac init` writes, as text: a schema it writes, not schema JSON it reads",
    ),
    (
        "crates/schemac-registry/src/mcp.rs",
        "writes the input and output schemas of its MCP tools (`type`, `properties`, `required`, ...): schemas it \
         publishes, not schema JSON it reads",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the workspace").to_path_buf()
}

fn rust_files() -> Vec<(String, String)> {
    let root = root();
    let mut out = Vec::new();
    for dir in SOURCES {
        let mut todo = vec![root.join(dir)];
        while let Some(dir) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    todo.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(&root).expect("below the root").to_string_lossy().replace('\\', "/");
                    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
                    out.push((relative, text));
                }
            }
        }
    }
    out.sort();
    assert!(out.len() > 100, "found only {} Rust files: is the tree where the test thinks?", out.len());
    out
}

#[test]
fn every_module_opens_with_what_it_owns() {
    let missing: Vec<String> = rust_files()
        .into_iter()
        .filter(|(path, _)| !path.ends_with("/tests.rs"))
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(path, _)| path)
        .collect();
    assert!(missing.is_empty(), "these modules do not open with a `//!` line saying what they own:\n{}", missing.join("\n"));
}

/// The keywords of every draft, by name.
const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];

/// Whether `line` is a `#[cfg(..)]` that compiles what follows only in tests: `#[cfg(test)]`,
/// or `#[cfg(all(test, ..))]`.
fn is_test_cfg(line: &str) -> bool {
    let line = line.trim();
    line == "#[cfg(test)]" || (line.starts_with("#[cfg(all(test,") && line.ends_with("))]"))
}

/// `text` without `#[cfg(test)]` (or `#[cfg(all(test, ..))]`) modules and `//` comments.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let opens_module = |next: &&str| {
            let next = next.trim_start();
            next.starts_with("mod ") || next.starts_with("pub mod ") || next.starts_with("pub(crate) mod ")
        };
        if is_test_cfg(line) && lines.peek().is_some_and(opens_module) {
            // Skip the module: to the line that closes it at its indentation.
            let indent = lines.peek().map_or(0, |next| next.len() - next.trim_start().len());
            let close = format!("{}}}", " ".repeat(indent));
            if lines.peek().is_some_and(|next| next.trim_end().ends_with(';')) {
                lines.next();
                continue;
            }
            for inner in lines.by_ref() {
                if inner.trim_end() == close {
                    break;
                }
            }
            continue;
        }
        let code = match line.trim_start() {
            l if l.starts_with("//") => "",
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The string literals of one line, with where each starts.
fn literals(line: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let bytes: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == '"' && (i == 0 || bytes[i - 1] != '\'') {
            let start = i;
            let mut text = String::new();
            i += 1;
            while i < bytes.len() && bytes[i] != '"' {
                if bytes[i] == '\\' {
                    i += 1;
                }
                if let Some(c) = bytes.get(i) {
                    text.push(*c);
                }
                i += 1;
            }
            out.push((start, text));
        }
        i += 1;
    }
    out
}

/// Where a keyword's name is used to look something up: the argument of a map lookup, a match
/// arm, or a list of keyword names.
fn lookups(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code_only(text).lines().enumerate() {
        let found = literals(line);
        let keyword_literals = found.iter().filter(|(_, t)| KEYWORDS.contains(&t.as_str())).count();
        for (start, literal) in &found {
            if !KEYWORDS.contains(&literal.as_str()) {
                continue;
            }
            let before: String = line.chars().take(*start).collect();
            let after: String = line.chars().skip(start + literal.chars().count() + 2).collect();
            let before = before.trim_end();
            let after = after.trim_start();
            let call = [".get(", ".get_mut(", ".contains_key(", ".remove(", ".entry(", ".insert(", ".pointer("]
                .iter()
                .any(|call| before.ends_with(call));
            // A match arm: the keyword alone, in an or-pattern, or in a tuple pattern that
            // opens the line (`("$ref", false) =>`).
            let in_tuple_pattern = before.trim_start() == "(" && after.contains(") =>");
            let arm = after.starts_with("=>") || after.starts_with('|') || before.ends_with('|') || in_tuple_pattern;
            let list = keyword_literals >= 2 && (line.contains("&[") || line.trim_start().starts_with('"') || line.contains("= ["));
            if call || arm || list {
                out.push((n + 1, literal.clone()));
            }
        }
    }
    out
}

#[test]
fn keywords_are_looked_up_only_in_the_model() {
    let mut found = Vec::new();
    for (path, text) in rust_files() {
        if path.starts_with(MODEL) || NOT_LOOKUPS.iter().any(|(p, _)| *p == path) || path.ends_with("/tests.rs") {
            continue;
        }
        found.extend(lookups(&text).into_iter().map(|(line, keyword)| format!("{path}:{line}: \"{keyword}\"")));
    }
    assert!(
        found.is_empty(),
        "outside {MODEL}, code looks keywords up by name; read them from schemac::schema (Keyword, the model's typed \
         fields, schema::scan before the model exists):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_lookup_rule_finds_what_it_forbids() {
    // The rule itself, on code it must flag and code it must leave alone.
    let flagged = lookups(
        "let t = map.get(\"type\");\nmatch k { \"minimum\" => 1, _ => 0 }\nconst L: &[&str] = &[\"items\", \"allOf\"];\n    (\"$ref\", false) => 1,\n",
    );
    assert_eq!(flagged.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 2, 3, 3, 4]);
    let clean = lookups(
        "// map.get(\"type\")\nlet s = \"type\";\nformat!(\"the type {x}\");\n#[cfg(test)]\nmod tests {\n    x.get(\"type\");\n}\n\
         #[cfg(all(test, unix))]\nmod unix {\n    x.get(\"type\");\n}\n",
    );
    assert!(clean.is_empty(), "{clean:?}");
}

/// Every crate of hand-written Rust, by its sources.
const CRATES: &[&str] = &[
    "crates/schemac/src",
    "crates/schemac-model/src",
    "crates/schemac-cli/src",
    "crates/schemac-derive/src",
    "crates/schemac-project/src",
    "crates/schemac-registry/src",
    "crates/schemac-runtime/src",
    "crates/schemac-synth/src",
    "xtask/src",
    "bench/src",
];

/// The circles still to break, each as its files joined by ` ⇄ `: a ratchet, so that no new
/// circle lands and a broken one leaves this list.
/// (Empty since every circle broke; it stays so that a circle a change must keep for a while is
/// written down here, with the change, rather than hidden.)
const KNOWN_CIRCLES: &[&str] = &[];

/// Files that import each other in a loop cannot be read, tested or moved one at a time. This
/// prints every circle of every crate with what ties it (`cargo test -p schemac-tests --test
/// tidy no_import_circles -- --nocapture`).
#[test]
fn no_import_circles() {
    let root = root();
    let mut found = Vec::new();
    let mut report = Vec::new();
    for krate in CRATES {
        let graph = imports::graph(&root, krate);
        for circle in graph.circles() {
            let name = circle.join(" ⇄ ");
            report.push(format!("{name}:\n{}", graph.ties(&circle).join("\n")));
            found.push(name);
        }
    }
    println!("{} import circles:\n{}", found.len(), report.join("\n"));
    let new: Vec<&String> = found.iter().filter(|c| !KNOWN_CIRCLES.contains(&c.as_str())).collect();
    assert!(new.is_empty(), "new import circles (break them: move what both sides need below both):\n{}", report.join("\n"));
    let gone: Vec<&&str> = KNOWN_CIRCLES.iter().filter(|c| !found.iter().any(|f| f == **c)).collect();
    assert!(gone.is_empty(), "these circles are broken, or changed: take them off KNOWN_CIRCLES:\n{gone:#?}");
}

/// The crates whose manifests are written by hand (the generated crates' are checked by the
/// drift check), each with the directories its `[dependencies]` are used from.
const MANIFESTS: &[&str] = &[
    "crates/schemac",
    "crates/schemac-model",
    "crates/schemac-cli",
    "crates/schemac-derive",
    "crates/schemac-project",
    "crates/schemac-registry",
    "crates/schemac-runtime",
    "crates/schemac-synth",
    "xtask",
    "bench",
];

/// Dependencies no source names, each with the reason it is one.
const UNNAMED_DEPENDENCIES: &[(&str, &str, &str)] = &[];

/// Whether `code` names the crate `ident` (as a path, a macro, or in a `use`).
fn names_crate(code: &str, ident: &str) -> bool {
    code.match_indices(ident).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = &code[at + ident.len()..];
        before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            && (after.starts_with("::") || after.starts_with('!') || after.starts_with(';') || after.starts_with(" as "))
    })
}

/// An unused dependency costs every build its compile time and every user its download, and
/// nothing else reports it: each `[dependencies]` entry of a hand-written crate is named by
/// its `src/` (a `[build-dependencies]` entry by `build.rs`).
#[test]
fn every_dependency_is_used() {
    let root = root();
    let mut unused = Vec::new();
    for krate in MANIFESTS {
        let manifest_path = root.join(krate).join("Cargo.toml");
        let manifest: toml::Table = std::fs::read_to_string(&manifest_path)
            .unwrap_or_else(|e| panic!("{}: {e}", manifest_path.display()))
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", manifest_path.display()));
        let mut src = String::new();
        let mut todo = vec![root.join(krate).join("src")];
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    todo.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    src.push_str(&code_only(&std::fs::read_to_string(&path).expect("a source file")));
                }
            }
        }
        let build = std::fs::read_to_string(root.join(krate).join("build.rs")).map(|t| code_only(&t)).unwrap_or_default();
        for (table, code) in [("dependencies", &src), ("build-dependencies", &build)] {
            let Some(deps) = manifest.get(table).and_then(toml::Value::as_table) else { continue };
            for name in deps.keys() {
                let ident = name.replace('-', "_");
                if names_crate(code, &ident) || UNNAMED_DEPENDENCIES.iter().any(|(k, d, _)| k == krate && d == name) {
                    continue;
                }
                unused.push(format!("{krate}/Cargo.toml [{table}] {name}"));
            }
        }
    }
    assert!(
        unused.is_empty(),
        "dependencies no source names (remove them, or list them in UNNAMED_DEPENDENCIES with the reason):\n{}",
        unused.join("\n")
    );
}

#[test]
fn the_dependency_rule_finds_what_it_forbids() {
    assert!(names_crate("use serde_json::Value;", "serde_json"));
    assert!(names_crate("quote::quote!(x)", "quote"));
    assert!(names_crate("let v = json!({});\nuse serde_json::json;", "serde_json"));
    assert!(!names_crate("use serde_json_ext::Value;\nlet serde_json = 1;", "serde_json"));
    assert!(!names_crate(&code_only("// jsonc_parser::parse\n"), "jsonc_parser"), "a comment names no crate");
}

/// Where the files of `prefix` (in the compiler's import graph) import from outside it, each
/// with the importing file.
fn imports_out_of(graph: &imports::Graph, prefix: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (from, targets) in &graph.edges {
        if from.starts_with(prefix) {
            out.extend(targets.iter().filter(|t| !t.starts_with(prefix)).map(|t| (from.clone(), t.clone())));
        }
    }
    out
}

/// What emit may import from the rest of the compiler, each with what it takes: the IR and the
/// few pieces ARCHITECTURE.md's "Emit reads only the IR" names.
const EMIT_READS: &[(&str, &str)] = &[
    ("ir.rs", "the IR, its one input"),
    ("config.rs", "the settings it emits by"),
    ("output.rs", "`Module` and `TypeSummary`, what it produces"),
    ("ident.rs", "Rust identifiers from names"),
    ("name.rs", "`RESERVED_TYPE_NAMES`"),
    ("pattern.rs", "a `pattern`'s translation and anchored runs"),
    ("lower/mod.rs", "`inline_depth` and `MAX_INLINE_DEPTH`, where lowering cut a deep type"),
    ("rust_type.rs", "`node_id`, the key `#[derive(Conforms)]` names a node by"),
    ("lib.rs", "the model's diagnostics, re-exported"),
    ("codes.rs", "the compiler's diagnostic kinds"),
];

/// ARCHITECTURE.md's layering of the compiler, from its import graph: emit reads the IR and
/// the few shared pieces the document names ([`EMIT_READS`]), and the readers beside the back
/// end (`diff/`, `docs/`) import nothing of emit.
#[test]
fn the_compilers_layers_hold() {
    let graph = imports::graph(&root(), "crates/schemac/src");
    let src = "crates/schemac/src/";
    // `emit/testing.rs` is the tests' helper (`#[cfg(test)] mod testing;`): it compiles schemas.
    let beyond: Vec<String> = imports_out_of(&graph, &format!("{src}emit/"))
        .into_iter()
        .filter(|(from, to)| !from.ends_with("emit/testing.rs") && !EMIT_READS.iter().any(|(file, _)| to.trim_start_matches(src) == *file))
        .map(|(from, to)| format!("{from} -> {to}"))
        .collect();
    assert!(
        beyond.is_empty(),
        "emit imports what it should read from the IR (or add it to EMIT_READS, and to ARCHITECTURE.md):\n{}",
        beyond.join("\n")
    );
    for reader in ["diff/", "docs/"] {
        let into_emit: Vec<String> = imports_out_of(&graph, &format!("{src}{reader}"))
            .into_iter()
            .filter(|(_, to)| to.starts_with(&format!("{src}emit/")))
            .map(|(from, to)| format!("{from} -> {to}"))
            .collect();
        assert!(into_emit.is_empty(), "{reader} imports emit (move what both need below both):\n{}", into_emit.join("\n"));
    }
}

/// The files of the model and the compiler that may touch the file system, each with why: the
/// reading phase, and the writers and build-script glue around `compile`.
const IO_FILES: &[(&str, &str)] = &[
    ("crates/schemac-model/src/load.rs", "the one phase that reads schema files"),
    ("crates/schemac-model/src/source.rs", "the identity (canonical path, device and inode) of each file load reads"),
    ("crates/schemac-model/src/front.rs", "`Front::files_read`: the files load read, canonicalized for cargo's rerun-if-changed"),
    ("crates/schemac-model/src/testing.rs", "`Fixture`, the tests' temporary schema files (feature `testing`)"),
    ("crates/schemac/src/write.rs", "the writers' atomic write, which refuses to overwrite an input"),
    ("crates/schemac/src/builder.rs", "`Builder`, which writes a build script's output into OUT_DIR"),
];

/// ARCHITECTURE.md's "IO only at the edges": outside [`IO_FILES`], no code of the model or
/// the compiler (tests aside) names the file system, a process or the network.
#[test]
fn io_only_at_the_edges() {
    let mut found = Vec::new();
    for (path, text) in rust_files() {
        let ours = path.starts_with("crates/schemac/src/") || path.starts_with("crates/schemac-model/src/");
        // `emit/testing.rs` is `#[cfg(test)] mod testing;`, the emitter tests' helper.
        if !ours || path.ends_with("/tests.rs") || path.ends_with("emit/testing.rs") {
            continue;
        }
        if IO_FILES.iter().any(|(file, _)| *file == path) {
            continue;
        }
        for (n, line) in code_only(&text).lines().enumerate() {
            if ["std::fs", "fs::", "File::", "std::net", "std::process::Command", "OpenOptions"].iter().any(|io| line.contains(io)) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "IO outside the edges (move it to load or a writer, or list the file in IO_FILES with why):\n{}",
        found.join("\n")
    );
}
