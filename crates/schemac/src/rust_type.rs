//! Types replaced by the user's own (`rust-type` in `Config::types`, `x-rust-type` in a
//! schema): which defs they replace, and the key that names each def's schema node in
//! `schemac_runtime::Conforms`, computed as `#[derive(Conforms)]` computes it, so that the
//! generated code can require the user's type to conform to exactly that node.

use serde_json::Value;

use crate::Config;
use crate::diag::Diagnostic;
use crate::extensions::{RUST_TYPE_EXTENSION, rust_type_extension};
use crate::ir::{Def, DefId, DefKind, Ir, RustType};
use crate::resolve::Loc;
use crate::schema::Model;

/// Fills `ir.rust_types`; returns every error (a pointer without a type of its own, a type that
/// does not parse, a replaced root, a malformed `x-rust-type`).
pub(crate) fn attach(model: &Model, config: &Config, ir: &mut Ir) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let roots: Vec<DefId> = ir.roots.iter().map(|(_, def)| *def).collect();
    let mut replaced = std::collections::BTreeMap::new();
    for (display, types) in &config.types {
        let doc = ir.sources.documents.values().find(|d| &d.display == display).map(|d| d.id);
        // A schema this compile does not have is another unit's (a project checks that every
        // table names one of its schemas).
        let Some(doc) = doc else { continue };
        for (pointer, settings) in types {
            let loc = Loc { doc, pointer: pointer.clone() };
            let Some(id) = def_at(ir, &loc) else {
                let why = if model.at(&loc).is_some() {
                    "has no type of its own: its values are written inline (a `String`, a `Vec`, ...) or it is a `$ref` to another schema"
                } else {
                    "is no schema in the file"
                };
                errors.push(unknown(display, pointer, format!("the pointer `{pointer}` {why}"), pointers_hint(ir, doc)));
                continue;
            };
            let Some(path) = &settings.rust_type else { continue };
            if syn::parse_str::<syn::Type>(path).is_err() {
                let message = format!("`{path}` (the `rust-type` of `{pointer}`) is not a Rust type");
                errors.push(Diagnostic::of(&crate::codes::BAD_RUST_TYPE, display.clone(), pointer.clone(), message));
                continue;
            }
            if roots.contains(&id) {
                let message =
                    format!("`{pointer}` is the schema's root type, which cannot be replaced (`SchemaBound` and the registry name it)");
                errors.push(
                    Diagnostic::of(&crate::codes::BAD_RUST_TYPE, display.clone(), pointer.clone(), message)
                        .with_hint("replace the types the root holds, or leave the schema out of the crate"),
                );
                continue;
            }
            let asked_by = "`rust-type` in the configuration".to_owned();
            replaced.insert(id, RustType { path: path.clone(), key: key(ir, id), asked_by, krate: None });
        }
    }
    for (i, def) in ir.defs.iter().enumerate() {
        let id = DefId(i);
        if replaced.contains_key(&id) {
            continue;
        }
        let Some(extension) = model.schema_at(&def.origin).and_then(rust_type_extension) else { continue };
        let display = ir.sources.documents.get(&def.origin.doc).map(|d| d.display.clone()).unwrap_or_default();
        let pointer = format!("{}/{RUST_TYPE_EXTENSION}", def.origin.pointer);
        match extension {
            Err(message) => errors.push(Diagnostic::of(&crate::codes::BAD_RUST_TYPE, display, pointer, message)),
            Ok(ext) if syn::parse_str::<syn::Path>(&ext.path).is_err() => {
                errors.push(Diagnostic::of(&crate::codes::BAD_RUST_TYPE, display, pointer, format!("`{}` is not a Rust path", ext.path)));
            }
            Ok(_) if roots.contains(&id) => {
                let message = "a schema's root type cannot be replaced (`SchemaBound` and the registry name it)";
                errors.push(Diagnostic::of(&crate::codes::BAD_RUST_TYPE, display, pointer, message));
            }
            Ok(ext) => {
                // typify writes the path from the crate root of the crate named: `::my_crate::Task`.
                let path = if ext.path.starts_with("::") || ext.path.starts_with("crate::") { ext.path } else { format!("::{}", ext.path) };
                let asked_by = format!("`{RUST_TYPE_EXTENSION}` in the schema");
                replaced.insert(id, RustType { path, key: key(ir, id), asked_by, krate: Some((ext.krate, ext.version)) });
            }
        }
    }
    ir.rust_types = replaced;
    errors
}

/// The def whose schema is at `loc` (the first, in IR order, when several share it).
fn def_at(ir: &Ir, loc: &Loc) -> Option<DefId> {
    ir.defs.iter().position(|def| &def.origin == loc).map(DefId)
}

/// What identifies def `id`'s node in `Conforms<{ node_id(key) }>`: as `schemac-derive`'s
/// `Schema::def_key` computes it (its `rust_types` test compiles only while the two agree).
pub(crate) fn key(ir: &Ir, id: DefId) -> String {
    let def: &Def = ir.def(id);
    match &def.kind {
        DefKind::StringEnum(values) => format!("enum:{}", Value::from(values.clone())),
        _ => {
            let schema_id = ir.sources.documents.get(&def.origin.doc).map(|d| d.schema_id.as_str()).unwrap_or_default();
            format!("{schema_id}#{}", def.origin.pointer)
        }
    }
}

/// 64-bit FNV-1a, as `schemac_runtime::node_id`.
pub(crate) fn node_id(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn unknown(display: &str, pointer: &str, message: String, hint: String) -> Diagnostic {
    Diagnostic::of(
        &crate::codes::UNKNOWN_TYPE_POINTER,
        display.to_owned(),
        pointer.to_owned(),
        format!("cannot set the type at `{pointer}`: {message}"),
    )
    .with_hint(hint)
}

/// The pointers in document `doc` that have a type of their own, the first few.
fn pointers_hint(ir: &Ir, doc: crate::ir::DocId) -> String {
    let mut pointers: Vec<&str> =
        ir.defs.iter().filter(|d| d.origin.doc == doc && !d.origin.pointer.is_empty()).map(|d| d.origin.pointer.as_str()).collect();
    pointers.sort_unstable();
    pointers.dedup();
    if pointers.is_empty() {
        return "only the schema's root has a type of its own here".to_owned();
    }
    let shown: Vec<String> = pointers.iter().take(12).map(|p| format!("`{p}`")).collect();
    let more = if pointers.len() > shown.len() { format!(" and {} more", pointers.len() - shown.len()) } else { String::new() };
    format!("the pointers with a type of their own are {}{more}", shown.join(", "))
}
