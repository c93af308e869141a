//! Assertions in generated code: each [`Assertion`] as a call into
//! `schemac_runtime::assert` over the value `v`, composed into the closure of an `Assert` seed
//! (first violation stops deserialization) and into `validate_at` bodies (every violation is
//! recorded), and the walk of a type's value that `validate_at` does.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Number;

use super::ty::Ctx;
use crate::ir::{Assertion, DefId, Subject, Ty};

/// A call that checks `assertion` on `v` (a reference to the value), of type
/// `Result<(), schemac_runtime::assert::Violation>`. Object assertions read `names`, the
/// property names as `&[&str]`.
pub(super) fn call(ctx: &Ctx<'_>, from: DefId, assertion: &Assertion) -> TokenStream {
    let rt = quote!(schemac_runtime::assert);
    match assertion {
        Assertion::Minimum(n) => number_call(quote!(#rt::minimum), n),
        Assertion::Maximum(n) => number_call(quote!(#rt::maximum), n),
        Assertion::ExclusiveMinimum(n) => number_call(quote!(#rt::exclusive_minimum), n),
        Assertion::ExclusiveMaximum(n) => number_call(quote!(#rt::exclusive_maximum), n),
        Assertion::MultipleOf(n) => number_call(quote!(#rt::multiple_of), n),
        Assertion::MinLength(n) => quote!(#rt::min_length(v, #n)),
        Assertion::MaxLength(n) => quote!(#rt::max_length(v, #n)),
        Assertion::Format(format) => {
            let function = format_function(*format);
            quote!(#function(v))
        }
        Assertion::MinItems(n) => quote!(#rt::min_items(v.len(), #n)),
        Assertion::MaxItems(n) => quote!(#rt::max_items(v.len(), #n)),
        Assertion::UniqueItems => quote!(#rt::unique_items(v)),
        Assertion::Contains { schema, min, max } => {
            let seed = ctx.seed(from, schema);
            let max = match max {
                Some(max) => quote!(Some(#max)),
                None => quote!(None),
            };
            quote!(#rt::contains(v, #min, #max, |item| schemac_runtime::check::typed(item, #seed).is_ok()))
        }
        Assertion::MinProperties(n) => quote!(#rt::min_properties(names, #n)),
        Assertion::MaxProperties(n) => quote!(#rt::max_properties(names, #n)),
        Assertion::PropertyNames(schema) => {
            let seed = ctx.seed(from, schema);
            quote!(#rt::property_names(names, |name| schemac_runtime::check::typed(name, #seed)))
        }
        Assertion::DependentRequired { name, required } => quote!(#rt::dependent_required(names, #name, &[#(#required),*])),
    }
}

/// The path of the `schemac_runtime::format::assert` function that asserts `format`.
fn format_function(format: crate::ir::Format) -> TokenStream {
    let function = format_ident!("{}", super::ty::format_function(format));
    quote!(schemac_runtime::format::assert::#function)
}

/// The value by reference: an exact `Number` or `Integer` is no `Copy` value (the runtime's
/// `Num` converts from a reference to every number type).
fn number_call(function: TokenStream, limit: &Number) -> TokenStream {
    let limit = number_literal(limit);
    quote!(#function(v, #limit))
}

/// A JSON number as a Rust literal the runtime's `Num` converts from: `5_i128`, `0.5_f64`.
fn number_literal(n: &Number) -> TokenStream {
    if let Some(i) = n.as_i64() {
        return Literal::i128_suffixed(i.into()).into_token_stream();
    }
    if let Some(u) = n.as_u64() {
        return Literal::i128_suffixed(u.into()).into_token_stream();
    }
    Literal::f64_suffixed(n.as_f64().unwrap_or(0.0)).into_token_stream()
}

use quote::ToTokens as _;

/// `let names = ...;` when an object assertion needs the property names of the map `v`.
fn names_of_map(assertions: &[Assertion]) -> TokenStream {
    if assertions.iter().any(|a| a.subject() == Subject::Object) {
        quote! { let names: &[&str] = &v.keys().map(String::as_str).collect::<Vec<_>>(); }
    } else {
        quote!()
    }
}

/// The check closure of an `Assert` seed over a `Ty::Constrained` value, returning one
/// `Result` or an array of them (`schemac_runtime::validate::Checks`); `param` types its
/// argument where no seed bound does.
pub(super) fn closure(ctx: &Ctx<'_>, from: DefId, assertions: &[Assertion], param: Option<TokenStream>) -> TokenStream {
    let calls: Vec<TokenStream> = assertions.iter().map(|a| call(ctx, from, a)).collect();
    let names = names_of_map(assertions);
    let param = match param {
        Some(ty) => quote!(v: &#ty),
        None => quote!(v),
    };
    // The function itself, as clippy prefers to a closure that only forwards `v`.
    if let [Assertion::Format(format)] = assertions {
        return format_function(*format);
    }
    // One check is its result; several are an array of results, which reading takes the
    // first violation of and `validate()` records each of (the runtime's `Checks`).
    match calls.as_slice() {
        [only] if names.is_empty() => quote!(|#param| #only),
        [only] => quote! {
            |#param| {
                #names
                #only
            }
        },
        _ if names.is_empty() => quote!(|#param| [#(#calls),*]),
        _ => quote! {
            |#param| {
                #names
                [#(#calls),*]
            }
        },
    }
}

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
