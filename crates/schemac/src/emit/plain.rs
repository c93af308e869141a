//! `Front::compile_plain_serde`: the same shapes with serde's derives and no checks, as a reference
//! point for benchmarks (what a hand-written `#[derive(Deserialize)]` model of the schema costs).
//!
//! Every struct has the same fields with the same Rust types as the checked output, except that
//! an optional nullable field is a plain `Option` and undeclared properties are ignored (serde's
//! `#[serde(flatten)]` would buffer the whole object, which no hand-written model pays for).
//! Pattern newtypes, constants and the `Value` fallback become the plain type they wrap;
//! `Ty::Constrained` is its inner type. Nothing here enforces the schema: the output is not
//! meant for anything but comparisons.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::ty::{Ctx, docs, ident};
use crate::ir::{DefId, DefKind, Struct, Ty};

pub(super) fn def(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let def = ctx.def(id);
    let doc = docs(&def.docs, &[]);
    let name = ident(&def.name);
    let body = match &def.kind {
        DefKind::Struct(s) => structure(ctx, id, s),
        DefKind::StringEnum(values) => {
            let variants = super::items::variant_idents(values);
            quote! {
                #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
                pub enum #name {
                    #(#[serde(rename = #values)] #variants,)*
                }
            }
        }
        DefKind::Newtype(newtype) => {
            let inner = ctx.rust(id, &newtype.inner);
            quote! { pub type #name = #inner; }
        }
        DefKind::Const(value) => {
            let rust = match value {
                Value::String(_) => quote!(String),
                Value::Bool(_) => quote!(bool),
                Value::Number(n) if n.is_i64() || n.is_u64() => quote!(i64),
                Value::Number(_) => quote!(f64),
                _ => quote!(serde_json::Value),
            };
            quote! { pub type #name = #rust; }
        }
        DefKind::ValueEnum(_) | DefKind::Checked(_) | DefKind::Tuple(_) => quote! { pub type #name = serde_json::Value; },
        DefKind::Union(u) => {
            let variants = u.variants.iter().map(|v| ident(&v.name));
            let types = u.variants.iter().map(|v| ctx.rust(id, &v.ty));
            quote! {
                #[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
                #[serde(untagged)]
                pub enum #name {
                    #(#variants(#types),)*
                }
            }
        }
        DefKind::Alias(ty) | DefKind::Refined(crate::ir::Refined { base: ty, .. }) => {
            let rust = ctx.rust(id, ty);
            quote! {
                #[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
                #[serde(transparent)]
                pub struct #name(pub #rust);
            }
        }
    };
    quote! { #doc #body }
}

fn structure(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let fields = s.fields.iter().map(|field| {
        let json = &field.json_name;
        let rust_name = ident(&field.rust_name);
        let doc = docs(&field.docs, &[]);
        let ty = match (field.required, &field.ty) {
            (false, Ty::Nullable(inner)) => {
                let inner = ctx.rust(id, inner);
                quote!(Option<#inner>)
            }
            (false, ty) => {
                let ty = ctx.rust(id, ty);
                quote!(Option<#ty>)
            }
            (true, ty) => ctx.rust(id, ty),
        };
        let skip = (!field.required).then(|| quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]));
        quote! { #doc #[serde(rename = #json)] #skip pub #rust_name: #ty, }
    });
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
        pub struct #name {
            #(#fields)*
        }
    }
}
