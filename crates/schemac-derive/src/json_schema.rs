//! `impl schemac_runtime::schemars::JsonSchema` for a checked type: its schema is the node's
//! source subschema, bundled as generated types bundle theirs (`schemac_runtime::bundle`, with
//! the references planned by `schemac_model::schema::bundle::plan`).
//!
//! A reference to the node a field's type was checked against becomes
//! `generator.subschema_for::<FieldType>()`, so the hand-written types share definitions as
//! generated ones do; a reference to the type's own node is `subschema_for::<Self>()`; any
//! other target is embedded and bundled through a small type declared inside
//! `json_schema`, so schemars still names and deduplicates it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemac_model::resolve::Loc;
use serde_json::Value;

use crate::check::Bound;
use crate::schema::Schema;

pub fn json_schema_impl(ident: &syn::Ident, schema: &Schema, bounds: &[Bound<'_>]) -> TokenStream {
    let mut bundler = Bundler { ident, schema, bounds, raws: Vec::new() };
    let own = schema.pointer_loc();
    let document = quote!(<#ident as ::schemac_runtime::SchemaBound>::schema());
    let body = bundler.subschema(&own, document);
    // Bundling one raw target can reach others; `raws` grows while they are emitted.
    let mut raw_fns = TokenStream::new();
    let mut next = 0;
    while next < bundler.raws.len() {
        let loc = bundler.raws[next].clone();
        raw_fns.extend(bundler.raw_fn(next, &loc));
        next += 1;
    }
    let plain = ident.to_string();
    let plain = plain.trim_start_matches("r#");
    let schema_name = schemac::emit::defs_key(&schema.pointer).unwrap_or_else(|| plain.to_owned());
    quote! {
        impl ::schemac_runtime::schemars::JsonSchema for #ident {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#schema_name)
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #plain))
            }

            fn json_schema(generator: &mut ::schemac_runtime::schemars::SchemaGenerator) -> ::schemac_runtime::schemars::Schema {
                #raw_fns
                #body
            }
        }
    }
}

struct Bundler<'s, 'b> {
    ident: &'s syn::Ident,
    schema: &'s Schema,
    bounds: &'s [Bound<'b>],
    /// Reference targets with no Rust type here, in the order first reached.
    raws: Vec<Loc>,
}

impl Bundler<'_, '_> {
    /// A `bundle::Subschema { .. }.json_schema(generator)` expression for the schema at `loc`,
    /// which is the whole of (the JSON value) `document`.
    fn subschema(&mut self, loc: &Loc, document: TokenStream) -> TokenStream {
        let plan = schemac_model::schema::bundle::plan(&self.schema.registry, loc);
        let refs: Vec<TokenStream> = plan
            .sites
            .iter()
            .map(|site| {
                let (holder, keyword, alone) = (&site.holder, site.keyword, site.alone);
                let target = self.target(&site.target);
                quote! {
                    ::schemac_runtime::__private::bundle::Ref { holder: #holder, keyword: #keyword, alone: #alone, target: #target }
                }
            })
            .collect();
        let (moved, resources) = (&plan.moved, &plan.resources);
        let edits = schemac::emit::edits_tokens(&quote!(::schemac_runtime), &plan.edits);
        quote! {
            ::schemac_runtime::__private::bundle::Subschema {
                document: #document,
                pointer: "",
                refs: &[#(#refs),*],
                moved: &[#(#moved),*],
                resources: &[#(#resources),*],
                edits: #edits,
            }
            .json_schema(generator)
        }
    }

    /// The function that registers the schema at `target` and returns a reference to it.
    fn target(&mut self, target: &Loc) -> TokenStream {
        if target == self.schema.target_loc() || *target == self.schema.pointer_loc() {
            // `Self` is not usable inside the items nested in `json_schema`; the name is.
            let ident = self.ident;
            return quote!(|generator| generator.subschema_for::<#ident>());
        }
        if let Some(i) = self.bounds.iter().position(|bound| &bound.loc == target) {
            // Through `Nested<i>`, so a field type that does not conform fails only there.
            let ident = self.ident;
            return quote!(|generator| (<#ident as ::schemac_runtime::__private::Nested<#i>>::parts().0)(generator));
        }
        let n = self.raws.iter().position(|loc| loc == target).unwrap_or_else(|| {
            self.raws.push(target.clone());
            self.raws.len() - 1
        });
        let name = format_ident!("json_schema_ref_{n}");
        quote!(#name)
    }

    /// `json_schema_ref_N`: registers a target that has no Rust type with the generator.
    fn raw_fn(&mut self, n: usize, loc: &Loc) -> TokenStream {
        let fn_name = format_ident!("json_schema_ref_{n}");
        let schema_id = self.schema.loc_uri(loc);
        let schema_name = schemac::emit::defs_key(&loc.pointer).unwrap_or_else(|| schema_id.clone());
        let json = self.schema.registry.get(loc).map(Value::to_string).unwrap_or_else(|| "false".to_owned());
        let body = self.subschema(loc, quote!(&TARGET));
        quote! {
            fn #fn_name(generator: &mut ::schemac_runtime::schemars::SchemaGenerator) -> ::schemac_runtime::schemars::Schema {
                struct Target;

                impl ::schemac_runtime::schemars::JsonSchema for Target {
                    fn schema_name() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(#schema_name)
                    }

                    fn schema_id() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(#schema_id)
                    }

                    fn json_schema(generator: &mut ::schemac_runtime::schemars::SchemaGenerator) -> ::schemac_runtime::schemars::Schema {
                        static TARGET: ::std::sync::LazyLock<::schemac_runtime::__private::serde_json::Value> =
                            ::std::sync::LazyLock::new(|| ::schemac_runtime::__private::literal(#json));
                        #body
                    }
                }

                generator.subschema_for::<Target>()
            }
        }
    }
}
