//! One type per shape (`Config::dedup`): string enums of one module with the same values and
//! the same `default`, and structs of one module with the same fields, are one Rust type. The
//! first in definition order keeps its declaration and impls; every other name becomes a
//! `type` alias of it, so each existing path keeps compiling, and an edit that makes them
//! differ splits them again with their own names (no other type is renamed).
//!
//! What counts: for a string enum its values and `default`; for a struct every field (JSON
//! and Rust name, whether required, its type, its rustdoc, since the fields' docs are written
//! once, on the declaration), what it does with undeclared properties and its object
//! assertions. A field of a generated type counts as that type after merging, so two structs
//! holding two merged enums merge too. The type's own title and description are ignored: they
//! stay on the alias's rustdoc (and a merged name's `JsonSchema` is the first's source
//! schema, the same shape). Roots, open enums, replaced types (`rust-type`), types with
//! derives or attributes of their own, structs that hold themselves inline (through other
//! types; merging them could make a type of infinite size) and structs that share their
//! schema with another type (a union's object branch) are never merged.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use proc_macro2::TokenStream;
use quote::quote;

use super::ty::{Ctx, ident};
use crate::ir::{DefId, DefKind, Struct, Ty};

/// For each def of `defs` (one module) that is merged, the def whose type it is.
pub(super) fn merged(ctx: &Ctx<'_>, defs: &[DefId], config: &crate::Config) -> BTreeMap<DefId, DefId> {
    let roots: Vec<DefId> = ctx.ir.roots.iter().map(|(_, def)| *def).collect();
    let candidates: Vec<DefId> = defs
        .iter()
        .copied()
        .filter(|&id| {
            let def = ctx.def(id);
            // A type with derives or attributes of its own keeps its declaration, which has them.
            let own = super::derives::settings(ctx.ir, config, def).is_some_and(|s| !s.derives.is_empty() || !s.attributes.is_empty());
            // A root keeps its own type: `SchemaBound` and the registry name it.
            !(roots.contains(&id) || ctx.is_open(id) || ctx.ir.rust_types.contains_key(&id) || own)
        })
        .collect();
    let mut merged: BTreeMap<DefId, DefId> = BTreeMap::new();
    // Merging two defs can make the defs that hold them equal: repeat until nothing changes
    // (each round merges at least one more def, so at most `defs.len()` rounds).
    loop {
        let mut first: BTreeMap<String, DefId> = BTreeMap::new();
        let mut changed = false;
        for &id in &candidates {
            if merged.contains_key(&id) {
                continue;
            }
            let Some(key) = shape_key(ctx, id, &merged) else { continue };
            match first.get(&key) {
                Some(&canonical) => {
                    merged.insert(id, canonical);
                    changed = true;
                }
                None => {
                    first.insert(key, id);
                }
            }
        }
        if !changed {
            return merged;
        }
    }
}

/// What two defs must share to be one type; `None` for a def that is never merged.
fn shape_key(ctx: &Ctx<'_>, id: DefId, merged: &BTreeMap<DefId, DefId>) -> Option<String> {
    let def = ctx.def(id);
    match &def.kind {
        DefKind::StringEnum(values) => {
            Some(format!("enum {values:?} {}", def.docs.default.as_ref().map(ToString::to_string).unwrap_or_default()))
        }
        DefKind::Struct(s) if !ctx.holds_itself(id) && !shares_origin(ctx, id) => Some(struct_key(ctx, id, s, merged)),
        _ => None,
    }
}

fn struct_key(ctx: &Ctx<'_>, id: DefId, s: &Struct, merged: &BTreeMap<DefId, DefId>) -> String {
    let mut key = String::from("struct");
    for field in &s.fields {
        let boxed = held_def(&field.ty).is_some_and(|to| ctx.needs_box(id, to));
        let _ = write!(
            key,
            " {{{:?} {:?} {} {} {boxed} {:?}}}",
            field.json_name,
            field.rust_name,
            field.required,
            ty_key(&field.ty, merged),
            field.docs
        );
    }
    let rest = match &s.rest {
        crate::ir::Rest::Typed(ty) => format!("typed {}", ty_key(ty, merged)),
        other => format!("{other:?}"),
    };
    let def = ctx.def(id);
    let _ = write!(key, " rest {rest} assertions {:?} default {:?} unenforced {:?}", s.assertions, def.docs.default, def.unenforced);
    key
}

/// Whether another def comes from the same schema as `id` (the object branch of a union by
/// kind, the typed value of a refined type): its `JsonSchema`, that whole schema, says more
/// than the struct's shape, so it stays a type of its own.
fn shares_origin(ctx: &Ctx<'_>, id: DefId) -> bool {
    let origin = &ctx.def(id).origin;
    ctx.ir.defs.iter().enumerate().any(|(i, def)| i != id.0 && &def.origin == origin)
}

/// The def a field of type `ty` holds inline (which it may box).
fn held_def(ty: &Ty) -> Option<DefId> {
    match ty {
        Ty::Def(id) => Some(*id),
        Ty::Nullable(inner) | Ty::Constrained(inner, _) => held_def(inner),
        _ => None,
    }
}

/// `ty` with every def as the one it is merged into.
fn ty_key(ty: &Ty, merged: &BTreeMap<DefId, DefId>) -> String {
    match ty {
        Ty::Def(id) => format!("Def({})", merged.get(id).unwrap_or(id).0),
        Ty::Array(inner) => format!("Array({})", ty_key(inner, merged)),
        Ty::Map(inner) => format!("Map({})", ty_key(inner, merged)),
        Ty::Nullable(inner) => format!("Nullable({})", ty_key(inner, merged)),
        Ty::Constrained(inner, assertions) => format!("Constrained({}, {assertions:?})", ty_key(inner, merged)),
        other => format!("{other:?}"),
    }
}

/// The alias def `id` is emitted as: `pub type TaskAgentRole = GoalAgentRole;`.
pub(super) fn alias(ctx: &Ctx<'_>, id: DefId, canonical: DefId) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    let target = ident(&ctx.def(canonical).name);
    let line = format!(
        " The schema at `{}` has the same shape as [`{}`] (`{}`), so it is that type.",
        def.origin.pointer,
        super::ty::type_link(&ctx.def(canonical).name),
        ctx.def(canonical).origin.pointer
    );
    let doc = super::ty::docs(&def.docs, &def.unenforced);
    let separator = (!doc.is_empty()).then(|| quote!(#[doc = ""]));
    quote! {
        #doc
        #separator
        #[doc = #line]
        pub type #name = #target;
    }
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn compile(schema: &str, config: &Config) -> String {
        super::super::testing::compile_one(schema, config).unwrap().single_file()
    }

    /// The declarations, in order: `struct A`, `type B = A`, ...
    fn declarations(code: &str) -> Vec<String> {
        code.lines()
            .filter_map(|l| l.strip_prefix("pub struct ").or_else(|| l.strip_prefix("pub type ")).or_else(|| l.strip_prefix("pub enum ")))
            .map(|l| l.split([' ', '(', '<', ';']).next().unwrap_or_default().to_owned() + if l.contains(" = ") { " alias" } else { "" })
            .filter(|l| !l.contains("Builder"))
            .collect()
    }

    const SCHEMA: &str = r##"{"type": "object", "properties": {
        "a": {"$ref": "#/$defs/a"}, "b": {"$ref": "#/$defs/b"}, "c": {"$ref": "#/$defs/c"},
        "outA": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}},
        "outB": {"type": "object", "properties": {"x": {"$ref": "#/$defs/b"}}}
    }, "$defs": {
        "a": {"title": "A", "type": "object", "properties": {"n": {"type": "integer"}, "kind": {"enum": ["x", "y"]}}},
        "b": {"title": "B", "description": "another title", "type": "object", "properties": {"n": {"type": "integer"}, "kind": {"enum": ["x", "y"]}}},
        "c": {"type": "object", "properties": {"n": {"type": "integer"}, "kind": {"enum": ["x", "y", "z"]}}}
    }}"##;

    #[test]
    fn identical_structs_merge_and_an_edit_splits_them_renaming_nothing() {
        let merged = declarations(&compile(SCHEMA, &Config::default()));
        assert_eq!(merged, ["Root", "A", "AKind", "B alias", "BKind alias", "C", "CKind", "RootOutA", "RootOutB alias"]);
        let edited = SCHEMA.replacen(
            r#""n": {"type": "integer"}, "kind": {"enum": ["x", "y"]}}}"#,
            r#""n": {"type": "integer", "minimum": 0}, "kind": {"enum": ["x", "y"]}}}"#,
            2,
        );
        let edited = edited.replacen(r#""n": {"type": "integer", "minimum": 0}"#, r#""n": {"type": "integer"}"#, 1);
        let split = declarations(&compile(&edited, &Config::default()));
        assert_eq!(split, ["Root", "A", "AKind", "B", "BKind alias", "C", "CKind", "RootOutA", "RootOutB"]);
        let off = declarations(&compile(SCHEMA, &Config { dedup: false, ..Config::default() }));
        assert_eq!(off, ["Root", "A", "AKind", "B", "BKind", "C", "CKind", "RootOutA", "RootOutB"]);
    }
}
