//! The `x-` extensions schemac reads from a schema: `x-rust-type` (typify's shape: the Rust
//! type a node stands for; `rust_type.rs` attaches it) and `x-schemac-open-enum` (a string enum
//! that keeps unknown values, marked here). The model keeps them in `Schema::unknown` as
//! written; this gives them their meaning.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Diagnostic;
use crate::ir::{DefId, DefKind, Ir};
use crate::schema::{Model, Schema};

/// typify's extension naming the Rust type of a node: `{"crate": "my-crate", "version":
/// "1.2", "path": "my_crate::Task"}`.
pub const RUST_TYPE_EXTENSION: &str = "x-rust-type";

/// A string enum that keeps a value the schema does not list (`true`), or never does
/// (`false`), whatever `open-enums` says. typify's mk2 has no such extension, so this one is
/// schemac's own.
pub const OPEN_ENUM_EXTENSION: &str = "x-schemac-open-enum";

/// A parsed `x-rust-type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RustTypeExtension {
    /// The crate the type comes from, as Cargo names it (`my-crate`).
    pub krate: String,
    /// The crate's version requirement (`1.2`).
    pub version: String,
    /// The type's path, its first segment the crate (`my_crate::Task`).
    pub path: String,
}

/// `x-rust-type`, when present: the type, or what is wrong with the member (a message).
pub(crate) fn rust_type_extension(schema: &Schema) -> Option<Result<RustTypeExtension, String>> {
    let value = schema.extension(RUST_TYPE_EXTENSION)?;
    let field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_owned);
    let parameters = value.get("parameters").and_then(Value::as_array).is_some_and(|p| !p.is_empty());
    Some(match (value.is_object(), field("crate"), field("version"), field("path")) {
        (true, Some(krate), Some(version), Some(path)) if !parameters => Ok(RustTypeExtension { krate, version, path }),
        (true, Some(_), Some(_), Some(_)) => Err(format!("`{RUST_TYPE_EXTENSION}` has `parameters`, which schemac does not support")),
        _ => Err(format!("`{RUST_TYPE_EXTENSION}` must be an object with the strings `crate`, `version` and `path`, not `{value}`")),
    })
}

/// The string enums whose schema says `x-schemac-open-enum: true|false`, into
/// `ir.open_enum_marks`; a value that is not a boolean is a warning (the enum stays as the
/// configuration says).
pub(crate) fn mark_open_enums(model: &Model, ir: &mut Ir) {
    let mut warnings = Vec::new();
    let mut marks = BTreeMap::new();
    for (i, def) in ir.defs.iter().enumerate() {
        if !matches!(def.kind, DefKind::StringEnum(_)) {
            continue;
        }
        let Some(schema) = model.schema_at(&def.origin) else { continue };
        match schema.extension(OPEN_ENUM_EXTENSION) {
            Some(Value::Bool(open)) => {
                marks.insert(DefId(i), *open);
            }
            Some(other) => {
                let file = ir.sources.documents.get(&def.origin.doc).map_or_else(String::new, |doc| doc.display.clone());
                let pointer = format!("{}/{OPEN_ENUM_EXTENSION}", def.origin.pointer);
                let message = format!("`{OPEN_ENUM_EXTENSION}` must be `true` or `false`, not `{other}`: it is ignored");
                warnings.push(
                    Diagnostic::of(&crate::codes::BAD_EXTENSION, file, pointer, message)
                        .into_warning()
                        .with_hint("write `\"x-schemac-open-enum\": true` to keep unknown values of this enum, `false` to reject them"),
                );
            }
            None => {}
        }
    }
    ir.open_enum_marks = marks;
    ir.warnings.extend(warnings);
}
