//! What the `x-` extensions on a def's schema tell emission, besides `x-rust-type`
//! (`rust_type.rs`): `x-schemac-open-enum` opens or closes one string enum.

use std::collections::BTreeMap;

use crate::ir::{DefId, DefKind, Ir};
use crate::schema::Model;

/// The string enums whose schema says `x-schemac-open-enum: true|false`.
pub(crate) fn open_enum_marks(model: &Model, ir: &Ir) -> BTreeMap<DefId, bool> {
    ir.defs
        .iter()
        .enumerate()
        .filter(|(_, def)| matches!(def.kind, DefKind::StringEnum(_)))
        .filter_map(|(i, def)| Some((DefId(i), model.schema_at(&def.origin)?.open_enum_extension()?)))
        .collect()
}
