//! Tuples whose leading items are all present: a tuple struct, read and written as a JSON
//! array in one pass (the items after the leading ones, when allowed, in a last `Vec` field).

use proc_macro2::TokenStream;
use quote::quote;

use super::assert::{self as assertions, validate_impl};
use super::ty::{Ctx, ident};
use crate::ir::{DefId, TupleShape};

pub(super) fn tuple(ctx: &Ctx<'_>, id: DefId, shape: &TupleShape) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let count = shape.items.len();
    let mut fields: Vec<TokenStream> = shape.items.iter().map(|ty| ctx.rust(id, ty)).collect();
    let seeds: Vec<TokenStream> = shape.items.iter().map(|ty| ctx.seed(id, ty)).collect();
    let locals: Vec<proc_macro2::Ident> = (0..count).map(|i| quote::format_ident!("item{i}")).collect();
    let (what, rest) = match &shape.rest {
        Some(ty) => {
            let rust = ctx.rust(id, ty);
            fields.push(quote!(Vec<#rust>));
            let seed = ctx.seed(id, ty);
            (format!("an array of at least {count} items ({name})"), quote!(rest(#seed)))
        }
        None => (format!("an array of exactly {count} items ({name})"), quote!(closed)),
    };
    quote! {
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name(#(pub #fields),*);

        schemac_runtime::tuple! {
            #name;
            #what;
            #rest;
            #(#locals(#seeds);)*
        }
    }
}

/// `impl Validate`: each item at its index.
pub(super) fn validation(ctx: &Ctx<'_>, id: DefId, shape: &TupleShape) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let mut body = TokenStream::new();
    for (i, ty) in shape.items.iter().enumerate() {
        let inner = assertions::validate(ctx, id, ty);
        if !inner.is_empty() {
            let index = syn::Index::from(i);
            body.extend(quote! { { let v = &self.#index; let at = &at.index(#i); #inner } });
        }
    }
    if let Some(ty) = &shape.rest {
        let inner = assertions::validate(ctx, id, ty);
        if !inner.is_empty() {
            let count = shape.items.len();
            let last = syn::Index::from(count);
            body.extend(quote! {
                for (i, v) in self.#last.iter().enumerate() {
                    let at = &at.index(#count + i);
                    #inner
                }
            });
        }
    }
    validate_impl(&name, body)
}
