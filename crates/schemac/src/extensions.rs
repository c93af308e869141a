//! What the `x-` extensions on a def's schema tell emission, besides `x-rust-type`
//! (`rust_type.rs`): `x-schemac-open-enum` opens or closes one string enum.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Diagnostic;
use crate::ir::{DefId, DefKind, Ir};
use crate::schema::Model;
use crate::schema::OPEN_ENUM_EXTENSION;

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
                    Diagnostic::warning("bad-extension", file, pointer, message)
                        .with_hint("write `\"x-schemac-open-enum\": true` to keep unknown values of this enum, `false` to reject them"),
                );
            }
            None => {}
        }
    }
    ir.open_enum_marks = marks;
    ir.warnings.extend(warnings);
}
