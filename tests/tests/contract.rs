//! The contract between generated code and `schemac-runtime`: the generator writes for the
//! contract version the runtime provides, and generated code names the runtime's user API at
//! its root and everything else through `schemac_runtime::__private`, serde and serde_json
//! included (so a crate holding generated code depends on the runtime alone).

use std::path::{Path, PathBuf};

#[test]
fn the_generator_writes_for_the_contract_the_runtime_provides() {
    let (written, provided) = (schemac::emit::RUNTIME_CONTRACT, schemac_runtime::__private::CONTRACT);
    assert_eq!(written, provided, "schemac generates for contract {written}, the runtime provides {provided}");
    assert!(schemac_runtime::__private::OLDEST_CONTRACT <= provided);
}

/// Every `.rs` file under `dir`, and the snapshots of generated code.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs" || e == "snap") {
            out.push(path);
        }
    }
}

/// The paths into the runtime, serde and serde_json that `text` names outside the contract.
fn outside_the_contract(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("::schemac_runtime::") {
        let rest = &text[at + "::schemac_runtime::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let public = match name.as_str() {
            "builder" => {
                let item: String = rest["builder::".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                schemac::emit::BUILDER_API.contains(&item.as_str())
            }
            name => schemac::emit::RUNTIME_API.contains(&name),
        };
        if !public {
            found.push(format!("::schemac_runtime::{}", rest.chars().take(40).collect::<String>()));
        }
    }
    for krate in ["::serde::", "::serde_json::"] {
        for (at, _) in text.match_indices(krate) {
            let before = &text[..at];
            // `::schemac_runtime::__private::serde::…` is the runtime's re-export.
            if !before.ends_with("__private") {
                found.push(text[at..].chars().take(40).collect());
            }
        }
    }
    found
}

#[test]
fn generated_code_calls_the_runtime_through_the_contract() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    for dir in ["generated/src", "bench/plain-types/src", "tests/tests/snapshots"] {
        files(&root.join(dir), &mut paths);
    }
    assert!(paths.len() > 50, "{paths:?}");
    let mut outside = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        outside.extend(outside_the_contract(&text).into_iter().map(|p| format!("{}: {p}", path.display())));
    }
    assert!(outside.is_empty(), "generated code names the runtime outside its contract:\n{}", outside.join("\n"));
}

#[test]
fn the_rule_finds_what_it_forbids() {
    assert_eq!(outside_the_contract("::schemac_runtime::de::Plain::<u8>::new()"), ["::schemac_runtime::de::Plain::<u8>::new()"]);
    assert_eq!(outside_the_contract("#[derive(::serde::Serialize)]"), ["::serde::Serialize)]"]);
    assert_eq!(outside_the_contract("::schemac_runtime::builder::Builder<P, S>").len(), 1);
    let allowed = "::schemac_runtime::__private::serde::Serialize ::schemac_runtime::builder::Assign<u8> ::schemac_runtime::Tristate<u8>";
    assert!(outside_the_contract(allowed).is_empty());
}
