//! One type per shape (`Config::dedup`): string enums of one module with the same values and
//! the same `default` are one Rust type. The first in definition order keeps its declaration
//! and impls; every other name becomes a `type` alias of it, so each existing path keeps
//! compiling, and an edit that makes them differ splits them again with their own names
//! (no other type is renamed). Annotations other than `default` (title, description) are
//! ignored: they differ between the aliases' rustdoc only. Only string enums are merged so far.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::ty::{Ctx, ident};
use crate::ir::{DefId, DefKind};

/// For each def of `defs` (one module) that is merged, the def whose type it is.
pub(super) fn merged(ctx: &Ctx<'_>, defs: &[DefId], config: &crate::Config) -> BTreeMap<DefId, DefId> {
    let mut first: BTreeMap<(Vec<String>, String), DefId> = BTreeMap::new();
    let mut merged = BTreeMap::new();
    let roots: Vec<DefId> = ctx.ir.roots.iter().map(|(_, def)| *def).collect();
    for &id in defs {
        let def = ctx.def(id);
        // A root keeps its own type: `SchemaBound` and the registry name it.
        let DefKind::StringEnum(values) = &def.kind else { continue };
        // A type with derives or attributes of its own keeps its declaration, which has them.
        let own = super::derives::settings(ctx.ir, config, def).is_some_and(|s| !s.derives.is_empty() || !s.attributes.is_empty());
        if roots.contains(&id) || ctx.is_open(id) || ctx.ir.rust_types.contains_key(&id) || own {
            continue;
        }
        let key = (values.clone(), def.docs.default.as_ref().map(ToString::to_string).unwrap_or_default());
        match first.get(&key) {
            Some(&canonical) => {
                merged.insert(id, canonical);
            }
            None => {
                first.insert(key, id);
            }
        }
    }
    merged
}

/// The alias def `id` is emitted as: `pub type TaskAgentRole = GoalAgentRole;`.
pub(super) fn alias(ctx: &Ctx<'_>, id: DefId, canonical: DefId) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    let target = ident(&ctx.def(canonical).name);
    let line = format!(
        " The schema at `{}` has the same shape as [`{}`] (`{}`), so it is that type.",
        def.origin.pointer,
        ctx.def(canonical).name,
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
