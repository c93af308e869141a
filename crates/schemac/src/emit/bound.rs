//! What a generated module says about its schema: the source text (`SCHEMA_JSON`),
//! `schemac_runtime::SchemaBound` on the root type, and `schemars::JsonSchema` on every type.
//!
//! A type's `JsonSchema` is its source subschema, not a schema re-derived from the Rust type:
//! its references were resolved before emission ([`crate::schema::bundle`]: base URIs,
//! anchors, other files) and the generated code hands the resolved targets to
//! `schemac_runtime::bundle`, which points the references at the generator's `$defs`.
//! A reference to a schema that has no Rust type of its own (a plain `type` alias, a string
//! inlined as `String`) is bundled through a small type declared inside a function, so
//! schemars still names and deduplicates it.

use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::alias::is_type_alias;
use super::ty::{Ctx, ident};
use crate::ir::{DefId, DefKind, Source, Ty};
use crate::resolve::Loc;
use crate::schema::Keyword;
use crate::schema::bundle::Edit;

/// What this file adds to the module of a document.
pub(super) struct Items {
    /// Each type's `JsonSchema` impl (and the root's `SchemaBound`), in the order of `defs`.
    pub impls: Vec<TokenStream>,
    /// The `__JsonSchemaRefN` types the impls refer to.
    pub helpers: TokenStream,
    /// `SCHEMA_JSON` and `schema()`: the source text, which reads best at the end.
    pub source: TokenStream,
}

/// The items for the module of `doc`, whose types are `defs`.
pub(super) fn items(ctx: &Ctx<'_>, doc: &Source, defs: &[DefId]) -> Items {
    let root = root_of(ctx, doc);
    let mut bundler = Bundler { ctx, doc, nominal: nominal_defs(ctx), raws: Vec::new(), planned: HashMap::new() };
    let text = source_literal(&doc.text);
    // `SCHEMA_JSON`, `SCHEMA_VALUE` (parsed on first use) and `schema()`.
    let source = quote! {
        ::schemac_runtime::schema_source!(#text);
    };
    let mut impls = Vec::new();
    for &id in defs {
        let mut out = TokenStream::new();
        // A replaced def's impls are the user's type's (`Conforms` demands `JsonSchema`).
        if !is_type_alias(ctx, id) && !ctx.ir.rust_types.contains_key(&id) {
            let pointer = if Some(id) == root { String::new() } else { ctx.def(id).origin.pointer.clone() };
            let loc = Loc { doc: doc.id, pointer };
            out.extend(json_schema_impl(&mut bundler, id, &loc));
            if Some(id) == root {
                out.extend(schema_bound_impl(ctx, doc, id));
            }
        }
        impls.push(out);
    }
    // Bundling one raw target can reach others; `raws` grows while it is emitted.
    let mut helpers = TokenStream::new();
    let mut next = 0;
    while next < bundler.raws.len() {
        let (loc, from) = bundler.raws[next].clone();
        helpers.extend(raw_target(&mut bundler, next, &loc, from));
        next += 1;
    }
    Items { impls, helpers, source }
}

/// The root type of `doc`'s module, when it is a type of its own.
///
/// A root whose own name is an alias of a type named after the place that references it (its
/// title was a reserved name, `serde` or `Option`) has that type: it is the same schema, the
/// document's root, so its `JsonSchema` and `SchemaBound` are the root's.
pub(super) fn root_of(ctx: &Ctx<'_>, doc: &Source) -> Option<DefId> {
    let (_, root) = ctx.ir.roots.iter().find(|(d, _)| *d == doc.id)?;
    if !is_type_alias(ctx, *root) {
        return Some(*root);
    }
    let document_root = Loc { doc: doc.id, pointer: String::new() };
    match &ctx.def(*root).kind {
        DefKind::Alias(Ty::Def(target)) if ctx.def(*target).origin == document_root && !is_type_alias(ctx, *target) => Some(*target),
        _ => None,
    }
}

fn schema_bound_impl(ctx: &Ctx<'_>, doc: &Source, id: DefId) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let schema_id = &doc.schema_id;
    let (path, sha256) = (&doc.display, &doc.sha256);
    if !ctx.def(id).name.starts_with("r#") {
        return quote! { ::schemac_runtime::schema_bound!(#name, #schema_id, #path, #sha256); };
    }
    quote! {
        impl schemac_runtime::SchemaBound for #name {
            const SCHEMA_ID: &'static str = #schema_id;
            const SOURCE_PATH: &'static str = #path;
            const SOURCE_SHA256: &'static str = #sha256;
            const POINTER: &'static str = "";

            fn schema() -> &'static serde_json::Value {
                &SCHEMA_VALUE
            }
        }
    }
}

fn json_schema_impl(bundler: &mut Bundler<'_, '_>, id: DefId, loc: &Loc) -> TokenStream {
    let def = bundler.ctx.def(id);
    let name = ident(&def.name);
    let plain_name = def.name.trim_start_matches("r#");
    let schema_name = defs_key(&loc.pointer).unwrap_or_else(|| plain_name.to_owned());
    if !def.name.starts_with("r#") {
        // The runtime's `json_schema!` spells the impl out; its schema id is the same
        // `module_path!()::Name`.
        let pointer = &loc.pointer;
        let rows = bundler.plan_rows(id, loc);
        if rows.is_empty() {
            let named = (schema_name != plain_name).then(|| quote!(#schema_name,));
            return quote! { ::schemac_runtime::json_schema!(#name, #named #pointer); };
        }
        // A second type with the schema of the same place (a union and its object branch)
        // takes the first one's.
        if let Some(first) = bundler.planned.get(loc) {
            let named = (schema_name != plain_name).then(|| quote!(#schema_name,));
            return quote! { ::schemac_runtime::json_schema!(#name, #named like = #first); };
        }
        bundler.planned.insert(loc.clone(), name.clone());
        let named = (schema_name != plain_name).then(|| quote!(named(#schema_name);));
        return quote! { ::schemac_runtime::json_schema! { #name; #named at(#pointer); #rows } };
    }
    let body = bundler.subschema(id, loc, quote!(&SCHEMA_VALUE), &loc.pointer);
    quote! {
        impl schemac_runtime::schemars::JsonSchema for #name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(#schema_name)
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(concat!(module_path!(), "::", #plain_name))
            }

            fn json_schema(generator: &mut schemac_runtime::schemars::SchemaGenerator) -> schemac_runtime::schemars::Schema {
                #body
            }
        }
    }
}

/// `__JsonSchemaRefN`: a ref target that has no Rust type, declared with its `JsonSchema`
/// (a `__` name, which no generated type has).
fn raw_target(bundler: &mut Bundler<'_, '_>, n: usize, loc: &Loc, from: DefId) -> TokenStream {
    let name = raw_name(n);
    let target_doc = bundler.ctx.doc(loc.doc);
    let schema_name = defs_key(&loc.pointer).unwrap_or_else(|| format!("{}#{}", target_doc.display, loc.pointer));
    let schema_id = format!("{}#{}", target_doc.display, loc.pointer);
    // A target in another document is embedded on its own (that document's module, if it has
    // one, keeps its text private).
    let document = if loc.doc == bundler.doc.id {
        let pointer = &loc.pointer;
        quote!(at(#pointer);)
    } else {
        let json = bundler.ctx.ir.sources.texts.get(loc).cloned().unwrap_or_else(|| "false".to_owned());
        quote!(text(#json);)
    };
    let rows = bundler.plan_rows(from, loc);
    quote! {
        ::schemac_runtime::json_schema! { #name; target(#schema_name, #schema_id); #document #rows }
    }
}

/// The type of the `n`th ref target without a Rust type.
fn raw_name(n: usize) -> proc_macro2::Ident {
    quote::format_ident!("__JsonSchemaRef{n}")
}

/// Emits the bundling of subschemas for one module.
struct Bundler<'c, 'a> {
    ctx: &'c Ctx<'a>,
    doc: &'a Source,
    /// The type whose schema is at each location: the first nominal def with that origin.
    nominal: HashMap<Loc, DefId>,
    /// Ref targets without a nominal type, in the order first reached, with a def of this
    /// module (for paths to other types).
    raws: Vec<(Loc, DefId)>,
    /// The first type of this module whose `json_schema!` has the bundling rows of each
    /// location; the others there are `like` it.
    planned: HashMap<Loc, proc_macro2::Ident>,
}

impl Bundler<'_, '_> {
    /// A `bundle::Subschema { .. }.json_schema(generator)` expression for the schema at `loc`,
    /// found in (the JSON value) `document` at `pointer`.
    fn subschema(&mut self, from: DefId, loc: &Loc, document: TokenStream, pointer: &str) -> TokenStream {
        let value = self.subschema_value(from, loc, document, pointer);
        quote! { #value.json_schema(generator) }
    }

    /// The bundling plan of the schema at `loc` as `json_schema!`'s rows (`reference(..);`,
    /// `moved(..);`, `resource(..);`, `edit(..);`), empty when there is nothing to bundle.
    fn plan_rows(&mut self, from: DefId, loc: &Loc) -> TokenStream {
        let Some(plan) = self.ctx.ir.sources.plans.get(loc) else { return TokenStream::new() };
        let plan = plan.clone();
        let mut out = TokenStream::new();
        for site in &plan.sites {
            let (holder, keyword, alone) = (&site.holder, site.keyword, site.alone);
            let target = self.target(from, &site.target);
            // The most common site, a `$ref` that is not `alone`, has the short row.
            out.extend(if keyword == Keyword::Ref.name() && !alone {
                quote! { reference(#holder, #target); }
            } else {
                quote! { reference(#holder, #keyword, #alone, #target); }
            });
        }
        for moved in &plan.moved {
            out.extend(quote! { moved(#moved); });
        }
        for resource in &plan.resources {
            out.extend(quote! { resource(#resource); });
        }
        for edit in &plan.edits {
            out.extend(match edit {
                Edit::Rename { at, from, to } => quote! { edit(rename, #at, #from, #to); },
                Edit::Remove { at, key } => quote! { edit(remove, #at, #key); },
                Edit::Split { at, from, into } => {
                    let into = into.iter().map(|(name, to)| quote!((#name, #to)));
                    quote! { edit(split, #at, #from, [#(#into),*]); }
                }
            });
        }
        out
    }

    /// The `bundle::Subschema { .. }` of the schema at `loc`.
    fn subschema_value(&mut self, from: DefId, loc: &Loc, document: TokenStream, pointer: &str) -> TokenStream {
        let empty = crate::schema::bundle::Plan::default();
        let plan = self.ctx.ir.sources.plans.get(loc).unwrap_or(&empty);
        let refs: Vec<TokenStream> = plan
            .sites
            .iter()
            .map(|site| {
                let (holder, keyword, alone) = (&site.holder, site.keyword, site.alone);
                let target = self.target(from, &site.target);
                quote! {
                    schemac_runtime::bundle::Ref {
                        holder: #holder, keyword: #keyword, alone: #alone,
                        target: |generator| generator.subschema_for::<#target>(),
                    }
                }
            })
            .collect();
        let (moved, resources) = (&plan.moved, &plan.resources);
        let edits = edits_tokens(&quote!(schemac_runtime), &plan.edits);
        quote! {
            schemac_runtime::bundle::Subschema {
                document: #document,
                pointer: #pointer,
                refs: &[#(#refs),*],
                moved: &[#(#moved),*],
                resources: &[#(#resources),*],
                edits: #edits,
            }
        }
    }

    /// The type whose `JsonSchema` is the schema at `target`: its nominal def's, or a
    /// `__JsonSchemaRefN` declared for it.
    fn target(&mut self, from: DefId, target: &Loc) -> TokenStream {
        if let Some(&id) = self.nominal.get(target) {
            return self.ctx.path(from, id);
        }
        let n = match self.raws.iter().position(|(loc, _)| loc == target) {
            Some(n) => n,
            None => {
                self.raws.push((target.clone(), from));
                self.raws.len() - 1
            }
        };
        raw_name(n).into_token_stream()
    }
}

/// Every nominal def by the location of its schema; a document's root type also by `""`.
fn nominal_defs(ctx: &Ctx<'_>) -> HashMap<Loc, DefId> {
    let mut map = HashMap::new();
    for &(doc, root) in &ctx.ir.roots {
        if !is_type_alias(ctx, root) {
            map.insert(Loc { doc, pointer: String::new() }, root);
        }
    }
    for (i, def) in ctx.ir.defs.iter().enumerate() {
        if !is_type_alias(ctx, DefId(i)) {
            map.entry(def.origin.clone()).or_insert(DefId(i));
        }
    }
    map
}

/// The `$defs`/`definitions` key when `pointer` names such an entry: it stays the
/// definition's name in the bundled schema, as in the source.
pub fn defs_key(pointer: &str) -> Option<String> {
    crate::schema::entry_key(pointer)
}

/// The source text as a string literal: raw and multi-line, so the schema reads as in its
/// file, unless it holds a carriage return (which a raw string cannot keep byte for byte).
fn source_literal(text: &str) -> TokenStream {
    if !text.contains('\r') {
        let mut hashes = String::from("#");
        while text.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        if let Ok(literal) = format!("r{hashes}\"{text}\"{hashes}").parse::<Literal>() {
            return quote!(#literal);
        }
    }
    let literal = Literal::string(text);
    quote!(#literal)
}

/// The `&[schemac_runtime::bundle::Edit]` of `edits`, with the runtime crate spelled `rt`.
pub fn edits_tokens(rt: &TokenStream, edits: &[Edit]) -> TokenStream {
    let edits = edit_list(rt, edits);
    quote!(&[#(#edits),*])
}

/// Each of `edits` as a `bundle::Edit` expression.
fn edit_list(rt: &TokenStream, edits: &[Edit]) -> Vec<TokenStream> {
    edits
        .iter()
        .map(|edit| match edit {
            Edit::Rename { at, from, to } => quote!(#rt::__private::bundle::Edit::Rename { at: #at, from: #from, to: #to }),
            Edit::Remove { at, key } => quote!(#rt::__private::bundle::Edit::Remove { at: #at, key: #key }),
            Edit::Split { at, from, into } => {
                let into = into.iter().map(|(name, to)| quote!((#name, #to)));
                quote!(#rt::__private::bundle::Edit::Split { at: #at, from: #from, into: &[#(#into),*] })
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defs_keys() {
        assert_eq!(defs_key("/$defs/attempt").as_deref(), Some("attempt"));
        assert_eq!(defs_key("/definitions/a~1b~0c").as_deref(), Some("a/b~c"));
        assert_eq!(defs_key("/properties/attempt"), None);
        assert_eq!(defs_key(""), None);
    }

    #[test]
    fn source_literals_stay_raw_unless_they_hold_a_carriage_return() {
        assert_eq!(source_literal("{\"a\": \"#\"}\n").to_string(), "r##\"{\"a\": \"#\"}\n\"##");
        assert_eq!(source_literal("{}\r\n").to_string(), "\"{}\\r\\n\"");
    }
}
