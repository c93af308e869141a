//! Tuples whose leading items are all present: a tuple struct, read and written as a JSON
//! array in one pass (the items after the leading ones, when allowed, in a last `Vec` field).

use proc_macro2::TokenStream;
use quote::quote;

use super::assert::{self as assertions, validate_impl};
use super::ty::{Ctx, ident, visitor};
use crate::ir::{DefId, TupleShape};

pub(super) fn tuple(ctx: &Ctx<'_>, id: DefId, shape: &TupleShape) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let count = shape.items.len();
    let mut fields: Vec<TokenStream> = shape.items.iter().map(|ty| ctx.rust(id, ty)).collect();
    let seeds: Vec<TokenStream> = shape.items.iter().map(|ty| ctx.seed(id, ty)).collect();
    let locals: Vec<proc_macro2::Ident> = (0..count).map(|i| quote::format_ident!("item{i}")).collect();
    let indices: Vec<syn::Index> = (0..count).map(syn::Index::from).collect();
    let what = match shape.rest {
        Some(_) => format!("an array of at least {count} items ({name})"),
        None => format!("an array of exactly {count} items ({name})"),
    };
    let (read_rest, write_rest, rest_len, built) = match &shape.rest {
        Some(ty) => {
            let rust = ctx.rust(id, ty);
            fields.push(quote!(Vec<#rust>));
            let seed = ctx.seed(id, ty);
            let last = syn::Index::from(count);
            (
                quote! {
                    let mut rest = Vec::new();
                    while let Some(item) = seq.next_element_seed(#seed)? {
                        rest.push(item);
                    }
                },
                quote! {
                    for item in &self.#last {
                        seq.serialize_element(item)?;
                    }
                },
                quote!(+ self.#last.len()),
                quote!(#name(#(#locals,)* rest)),
            )
        }
        None => (
            quote! {
                if let Some(never) = seq.next_element_seed(schemac_runtime::de::ExtraItem { count: #count })? {
                    match never {}
                }
            },
            quote!(),
            quote!(),
            quote!(#name(#(#locals),*)),
        ),
    };
    let visit_seq = quote! {
        fn visit_seq<__A: serde::de::SeqAccess<'de>>(self, mut seq: __A) -> Result<#name, __A::Error> {
            #(
                let Some(#locals) = seq.next_element_seed(#seeds)? else {
                    return Err(serde::de::Error::invalid_length(#indices, &self));
                };
            )*
            #read_rest
            Ok(#built)
        }
    };
    let body = visitor(&name, &what, visit_seq, quote!(deserialize_seq));
    quote! {
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name(#(pub #fields),*);

        impl serde::Serialize for #name {
            fn serialize<__S: serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                use ::serde::ser::SerializeSeq as _;
                let mut seq = serializer.serialize_seq(Some(#count #rest_len))?;
                #(seq.serialize_element(&self.#indices)?;)*
                #write_rest
                seq.end()
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                #body
            }
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
