//! Assertions in `validate_at` bodies: the walk of a type's value that records every
//! violation, from the same assertion calls (`seed::call`) that an `Assert` seed stops at the
//! first of while reading.

use proc_macro2::TokenStream;
use quote::quote;

use super::seed::{call, names_of_map};
use super::ty::Ctx;
use crate::ir::{DefId, Ty};

/// Statements of a `validate_at` body that check the value `v` (a reference to a `ty`) at
/// `at`, recording into `errors`; empty when the type holds no constraint a Rust value could
/// break.
pub(super) fn validate(ctx: &Ctx<'_>, from: DefId, ty: &Ty) -> TokenStream {
    match ty {
        Ty::Def(id) if ctx.validates(*id) => quote! { schemac_runtime::Validate::validate_at(v, at, errors); },
        Ty::Constrained(inner, assertions) => {
            let names = names_of_map(assertions);
            let calls = assertions.iter().map(|a| call(ctx, from, a));
            let inner = validate(ctx, from, inner);
            let statements = quote! {
                #(errors.check(at, #calls);)*
                #inner
            };
            // The names are a local of their own block.
            if names.is_empty() {
                statements
            } else {
                quote! { { #names #statements } }
            }
        }
        Ty::Array(item) => {
            let inner = validate(ctx, from, item);
            if inner.is_empty() {
                return inner;
            }
            quote! {
                for (i, v) in v.iter().enumerate() {
                    let at = &at.index(i);
                    #inner
                }
            }
        }
        Ty::Map(item) => {
            let inner = validate(ctx, from, item);
            if inner.is_empty() {
                return inner;
            }
            quote! {
                for (name, v) in v {
                    let at = &at.key(name);
                    #inner
                }
            }
        }
        Ty::Nullable(inner) => {
            let inner = validate(ctx, from, inner);
            if inner.is_empty() {
                return inner;
            }
            quote! {
                if let Some(v) = v {
                    #inner
                }
            }
        }
        _ => quote!(),
    }
}

/// `impl Validate for #name` with `body` (statements over `self`, `at` and `errors`); when
/// there is nothing to check, the runtime's `always_valid!` writes the empty impl instead.
pub(super) fn validate_impl(name: &proc_macro2::Ident, body: TokenStream) -> TokenStream {
    validate_impl_in(&quote!(schemac_runtime), name, body)
}

/// `validate_impl` with the runtime crate spelled `rt` (the derive macro writes
/// `::schemac_runtime`, generated modules `schemac_runtime`).
pub fn validate_impl_in(rt: &TokenStream, name: &proc_macro2::Ident, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return quote! { #rt::__private::always_valid!(#name); };
    }
    quote! {
        impl #rt::Validate for #name {
            fn validate_at(&self, at: &#rt::__private::validate::Path<'_>, errors: &mut #rt::ValidationErrors) {
                #body
            }
        }
    }
}
