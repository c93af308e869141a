//! Seeds: the `DeserializeSeed` expression that reads each inline type, and the assertion
//! calls an `Assert` seed runs. The two nest (a `Constrained` type's seed runs assertions;
//! `contains` and `propertyNames` read their values with seeds), so they are one module;
//! `assert.rs` writes the `validate_at` bodies from the same calls.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens as _, format_ident, quote};
use serde_json::Number;

use super::ty::{Ctx, int_ident};
use crate::ir::{Assertion, DefId, Format, IntTy, Subject, Ty};

impl Ctx<'_> {
    /// An expression for the `DeserializeSeed` of `ty` inside def `from`.
    pub fn seed(&self, from: DefId, ty: &Ty) -> TokenStream {
        self.seed_in(from, ty, true)
    }

    /// Whether `seed(from, ty)` is `Plain` of the type itself: the value is read with its own
    /// `Deserialize`, which the runtime's `object!` assumes when a row names no seed.
    pub fn is_plain_seed(&self, from: DefId, ty: &Ty) -> bool {
        match ty {
            Ty::Integer(IntTy::Big | IntTy::Exact) => true,
            Ty::Number => self.ir.exact_numbers,
            Ty::Integer(_) | Ty::Array(_) | Ty::Map(_) | Ty::Nullable(_) | Ty::Constrained(..) | Ty::Any => false,
            Ty::Def(id) => !self.needs_box(from, *id),
            _ => true,
        }
    }

    fn seed_in(&self, from: DefId, ty: &Ty, may_box: bool) -> TokenStream {
        match ty {
            Ty::Integer(IntTy::Big) => quote!(schemac_runtime::de::Plain::<schemac_runtime::BigInt>::new()),
            Ty::Integer(IntTy::Exact) => quote!(schemac_runtime::de::Plain::<schemac_runtime::Integer>::new()),
            Ty::Number if self.ir.exact_numbers => quote!(schemac_runtime::de::Plain::<schemac_runtime::Number>::new()),
            Ty::Integer(int) => {
                let int = int_ident(*int);
                quote!(schemac_runtime::de::Int::<#int>::new())
            }
            Ty::Array(item) => {
                let item = self.seed_in(from, item, false);
                quote!(schemac_runtime::de::Seq(#item))
            }
            Ty::Map(value) => {
                let value = self.seed_in(from, value, false);
                quote!(schemac_runtime::de::MapOf(#value))
            }
            Ty::Nullable(inner) => {
                let inner = self.seed_in(from, inner, may_box);
                quote!(schemac_runtime::de::Nullable(#inner))
            }
            Ty::Constrained(inner, assertions) => {
                let inner = self.seed_in(from, inner, may_box);
                let check = closure(self, from, assertions, None);
                quote!(schemac_runtime::de::Assert::new(#inner, #check))
            }
            Ty::Def(id) if may_box && self.needs_box(from, *id) => {
                let path = self.path(from, *id);
                quote!(schemac_runtime::de::Boxed(schemac_runtime::de::Plain::<#path>::new()))
            }
            Ty::Number => quote!(schemac_runtime::de::Float::new()),
            Ty::Any => quote!(schemac_runtime::de::AnyValue),
            other => {
                let rust = self.rust_unboxed(from, other);
                quote!(schemac_runtime::de::Plain::<#rust>::new())
            }
        }
    }
}

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
fn format_function(format: Format) -> TokenStream {
    let function = format_ident!("{}", format_function_name(format));
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

/// `let names = ...;` when an object assertion needs the property names of the map `v`.
pub(super) fn names_of_map(assertions: &[Assertion]) -> TokenStream {
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

/// The name of the `schemac_runtime::format::assert` function that asserts `format`.
fn format_function_name(format: Format) -> &'static str {
    match format {
        Format::DateTime => "date_time",
        Format::Date => "date",
        Format::Time => "time",
        Format::Duration => "duration",
        Format::Email => "email",
        Format::Hostname => "hostname",
        Format::Ipv4 => "ipv4",
        Format::Ipv6 => "ipv6",
        Format::Uri => "uri",
        Format::UriReference => "uri_reference",
        Format::Uuid => "uuid",
        Format::JsonPointer => "json_pointer",
        Format::Regex => "regex",
        Format::IdnEmail => "idn_email",
        Format::IdnHostname => "idn_hostname",
        Format::Iri => "iri",
        Format::IriReference => "iri_reference",
        Format::UriTemplate => "uri_template",
        Format::RelativeJsonPointer => "relative_json_pointer",
    }
}
