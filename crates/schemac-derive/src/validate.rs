//! `impl schemac_runtime::Validate` for a checked type: the assertions its Rust types cannot
//! express (`maximum` on an `f64`, `pattern` on a `String`, `maxItems` on a `Vec`, `enum` on a
//! plain value, ...), called on each field's value with the runtime's assertion functions,
//! as generated `validate_at` bodies call them, and nested conforming types' own `validate_at`
//! with the pointer extended (`/attempts/0/score`).
//!
//! The walk follows the field's Rust type and its property's IR type together: a generated
//! type holds a `pattern` string in a checked newtype, a hand-written one in a `String`, so
//! here the newtype's checks apply to the `String`.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote};
use schemac::ir::{Assertion, DefKind, Subject, Ty};
use schemac_model::resolve::Loc;
use serde_json::{Number, Value};
use syn::Type;

use crate::check::{Bound, Outcome, Presence, Written};
use crate::raw;
use crate::rust_ty::{Shape, shape};
use crate::schema::Schema;

/// The `Validate` impl for `ident`; `checked` is false when the check reported errors, and
/// then the body stays empty so that the mismatches are the only errors.
pub fn validate_impl(ident: &syn::Ident, schema: &Schema, outcome: &Outcome<'_>, checked: bool) -> TokenStream {
    let rt = quote!(::schemac_runtime);
    let mut walker = Walker { ident, schema, bounds: &outcome.bounds, statics: 0 };
    let mut body = TokenStream::new();
    if checked {
        for field in &outcome.fields {
            let inner = walker.value(field.ty, &field.schema_ty, &field.raw);
            if inner.is_empty() {
                continue;
            }
            let (name, json) = (field.ident, &field.json_name);
            body.extend(quote! { { let v = &self.#name; let at = &at.key(#json); #inner } });
        }
        body.extend(object_assertions(&outcome.written));
        if let Some((variant, values)) = &outcome.open {
            let expected = format!("one of {}", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "));
            body.extend(quote! {
                if let Self::#variant(text) = self {
                    errors.push(#rt::ValidationError::new(at.pointer(), "enum", ::std::format!("{text:?} is not {}", #expected)));
                }
            });
        }
        if let Some(rest) = &outcome.rest {
            let inner = walker.value(rest.ty, &rest.schema_ty, &rest.raw);
            if !inner.is_empty() {
                let name = rest.ident;
                // The other properties sit beside the declared ones: their pointers are `/name`.
                body.extend(quote! {
                    for (name, v) in &self.#name {
                        let at = &at.key(::core::convert::AsRef::<str>::as_ref(name));
                        #inner
                    }
                });
            }
        }
    }
    schemac::emit::validate_impl_in(&rt, ident, body)
}

/// The object's own assertions (`minProperties`, `maxProperties`, `dependentRequired`) on the
/// names of the properties the value writes: its fields that are present, and the keys of
/// its flattened map. Empty when there are none.
fn object_assertions(written: &Written<'_>) -> TokenStream {
    let checks: Vec<TokenStream> = written.assertions.iter().filter_map(|assertion| names_check(&quote!(&names), assertion)).collect();
    if checks.is_empty() {
        return TokenStream::new();
    }
    let pushes = written.fields.iter().map(|(ident, json, presence)| match presence {
        Presence::Always => quote!(names.push(#json);),
        Presence::IfSome => quote!(if self.#ident.is_some() { names.push(#json); }),
        Presence::IfNotAbsent => quote!(if !self.#ident.is_absent() { names.push(#json); }),
    });
    let rest = written.map.map(|map| quote!(names.extend(self.#map.keys().map(|k| ::core::convert::AsRef::<str>::as_ref(k)));));
    quote! {
        {
            let mut names: ::std::vec::Vec<&str> = ::std::vec::Vec::new();
            #(#pushes)*
            #rest
            #(#checks)*
        }
    }
}

/// The check of an assertion about an object's property names (`minProperties`,
/// `maxProperties`, `dependentRequired`) on `names`, an expression for a `&[&str]`; `None`
/// for the other assertions.
fn names_check(names: &TokenStream, assertion: &Assertion) -> Option<TokenStream> {
    let rt = quote!(::schemac_runtime::__private::assert);
    let call = match assertion {
        Assertion::MinProperties(n) => quote!(#rt::min_properties(#names, #n)),
        Assertion::MaxProperties(n) => quote!(#rt::max_properties(#names, #n)),
        Assertion::DependentRequired { name, required } => quote!(#rt::dependent_required(#names, #name, &[#(#required),*])),
        _ => return None,
    };
    Some(quote! { errors.check(at, #call); })
}

struct Walker<'s, 'b> {
    ident: &'s syn::Ident,
    schema: &'s Schema,
    /// The nested field types, reached through `Nested<i>` (see `expand::assertion`).
    bounds: &'s [Bound<'b>],
    /// Numbers the `static`s (patterns, `enum` values) so nested blocks never shadow confusingly.
    statics: usize,
}

impl Walker<'_, '_> {
    /// Statements checking `v` (a `&rust`) against `ty` at `at`; empty when nothing can fail.
    fn value(&mut self, rust: &Type, ty: &Ty, raw: &[Loc]) -> TokenStream {
        let schema = self.schema;
        let ty = unalias(schema, ty);
        // A smart pointer holds its value as is; look through it.
        if let Some(inner) = pointee(rust) {
            let inner_checks = self.value(inner, ty, raw);
            return if inner_checks.is_empty() {
                inner_checks
            } else {
                quote! { { let v: &#inner = v; #inner_checks } }
            };
        }
        match (shape(rust), ty) {
            (Shape::Option(inner), _) => {
                let inner = self.value(inner, strip_null(ty), raw);
                if inner.is_empty() {
                    inner
                } else {
                    quote! { if let ::core::option::Option::Some(v) = v { #inner } }
                }
            }
            (Shape::Tristate(inner), _) => {
                let inner = self.value(inner, strip_null(ty), raw);
                if inner.is_empty() {
                    inner
                } else {
                    quote! { if let ::schemac_runtime::Tristate::Value(v) = v { #inner } }
                }
            }
            (_, Ty::Nullable(inner)) => self.value(rust, inner, raw),
            (_, Ty::Constrained(inner, assertions)) => {
                let mut out: TokenStream = assertions.iter().filter_map(|a| self.call(rust, a)).collect();
                out.extend(self.value(rust, inner, raw));
                out
            }
            (Shape::Named(named), Ty::Def(_)) => match self.bounds.iter().position(|bound| std::ptr::eq(bound.ty, named)) {
                Some(i) => {
                    let ident = self.ident;
                    quote! { (<#ident as ::schemac_runtime::__private::Nested<#i>>::parts().1)(v, at, errors); }
                }
                None => quote! { ::schemac_runtime::Validate::validate_at(v, at, errors); },
            },
            (Shape::Int(int), Ty::Integer(ir_int)) => {
                // The lowering drops a bound the IR's integer already enforces (`minimum: 0`
                // on a `u8`); the field's integer may be wider, so such bounds return here.
                let (low, high) = raw::integer_range(&self.schema.model, raw);
                let (ir_min, ir_max) = ir_range(&format!("{ir_int:?}").to_ascii_lowercase());
                let mut out = TokenStream::new();
                let v = num(rust);
                if let Some(low) = low.filter(|low| *low <= ir_min && int.min < *low) {
                    let limit = Literal::i128_suffixed(low);
                    out.extend(quote! { errors.check(at, ::schemac_runtime::__private::assert::minimum(#v, #limit)); });
                }
                if let Some(high) = high.filter(|high| *high >= ir_max && int.max > *high) {
                    let limit = Literal::i128_suffixed(high);
                    out.extend(quote! { errors.check(at, ::schemac_runtime::__private::assert::maximum(#v, #limit)); });
                }
                out
            }
            (Shape::Seq(item), Ty::Array(item_ty)) => {
                let items = raw::items(&self.schema.model, raw);
                let inner = self.value(item, item_ty, &items);
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
            (Shape::Map(_, value), Ty::Map(value_ty)) => {
                let values = raw::values(&self.schema.model, raw);
                let inner = self.value(value, value_ty, &values);
                if inner.is_empty() {
                    return inner;
                }
                quote! {
                    for (name, v) in v {
                        let at = &at.key(::core::convert::AsRef::<str>::as_ref(name));
                        #inner
                    }
                }
            }
            (shape, Ty::Def(id)) => match &schema.ir.def(*id).kind {
                DefKind::Newtype(newtype) => {
                    let mut out = TokenStream::new();
                    if let (Some(pattern), Shape::String) = (&newtype.pattern, &shape) {
                        let name = self.next_static("PATTERN");
                        let pattern = schemac::emit::pattern_static_in(&quote!(::schemac_runtime), &name, pattern);
                        out.extend(quote! {
                            #pattern
                            errors.check(at, ::schemac_runtime::__private::assert::pattern(v, &#name));
                        });
                    }
                    out.extend(newtype.assertions.iter().filter_map(|a| self.call(rust, a)));
                    out.extend(self.value(rust, &newtype.inner, raw));
                    if out.is_empty() {
                        out
                    } else {
                        quote! { { #out } }
                    }
                }
                DefKind::Const(value) => {
                    let name = self.next_static("CONST");
                    let text = value.to_string();
                    quote! {
                        {
                            static #name: ::std::sync::LazyLock<::schemac_runtime::__private::serde_json::Value> =
                                ::std::sync::LazyLock::new(|| ::schemac_runtime::__private::literal(#text));
                            errors.check(at, ::schemac_runtime::__private::assert::constant(v, &#name));
                        }
                    }
                }
                DefKind::ValueEnum(values) => {
                    let name = self.next_static("ENUM");
                    let text = Value::from(values.clone()).to_string();
                    quote! {
                        {
                            static #name: ::std::sync::LazyLock<::schemac_runtime::__private::serde_json::Value> =
                                ::std::sync::LazyLock::new(|| ::schemac_runtime::__private::literal(#text));
                            let allowed = #name.as_array().map_or(&[][..], ::std::vec::Vec::as_slice);
                            errors.check(at, ::schemac_runtime::__private::assert::one_of_values(v, allowed));
                        }
                    }
                }
                // A `serde_json::Value` for a union or a checked schema is checked when it is
                // read; a value built in Rust is not re-checked against the whole subschema.
                _ => TokenStream::new(),
            },
            _ => TokenStream::new(),
        }
    }

    /// One assertion on `v`, when the field's Rust type is one the assertion applies to.
    fn call(&self, rust: &Type, assertion: &Assertion) -> Option<TokenStream> {
        let rt = quote!(::schemac_runtime::__private::assert);
        let shape = shape(rust);
        let call = match (assertion.subject(), &shape) {
            (Subject::Number, Shape::Int(_) | Shape::Float(_)) => {
                // The IR keeps an integer's bounds that are tighter than its integer type;
                // they hold for a wider field too. The others are restored in `value`.
                let v = num(rust);
                let (function, limit) = match assertion {
                    Assertion::Minimum(n) => (quote!(minimum), n),
                    Assertion::Maximum(n) => (quote!(maximum), n),
                    Assertion::ExclusiveMinimum(n) => (quote!(exclusive_minimum), n),
                    Assertion::ExclusiveMaximum(n) => (quote!(exclusive_maximum), n),
                    Assertion::MultipleOf(n) => (quote!(multiple_of), n),
                    _ => return None,
                };
                let limit = number_literal(limit);
                quote!(#rt::#function(#v, #limit))
            }
            (Subject::String, Shape::String | Shape::Format(_)) => {
                let text = if matches!(shape, Shape::Format(_)) { quote!(v.as_str()) } else { quote!(v) };
                match assertion {
                    Assertion::MinLength(n) => quote!(#rt::min_length(#text, #n)),
                    Assertion::MaxLength(n) => quote!(#rt::max_length(#text, #n)),
                    _ => return None,
                }
            }
            (Subject::Array, Shape::Seq(_)) => match assertion {
                Assertion::MinItems(n) => quote!(#rt::min_items(v.len(), #n)),
                Assertion::MaxItems(n) => quote!(#rt::max_items(v.len(), #n)),
                // Through references, so a `VecDeque` (not a slice) works as well.
                Assertion::UniqueItems => quote!(#rt::unique_items(&v.iter().collect::<::std::vec::Vec<_>>())),
                // `contains` needs the item schema as a type to deserialize into; not modelled.
                _ => return None,
            },
            (Subject::Object, Shape::Map(..)) => {
                let names = quote!(&v.keys().map(|k| ::core::convert::AsRef::<str>::as_ref(k)).collect::<::std::vec::Vec<&str>>());
                return names_check(&names, assertion);
            }
            _ => return None,
        };
        Some(quote! { errors.check(at, #call); })
    }

    fn next_static(&mut self, prefix: &str) -> syn::Ident {
        self.statics += 1;
        format_ident!("{prefix}_{}", self.statics)
    }
}

/// Aliases followed (bounded: an alias may refer back to itself); `Constrained` kept.
fn unalias<'t>(schema: &'t Schema, mut ty: &'t Ty) -> &'t Ty {
    for _ in 0..64 {
        match ty {
            Ty::Def(id) => match &schema.ir.def(*id).kind {
                DefKind::Alias(inner) => ty = inner,
                _ => return ty,
            },
            _ => return ty,
        }
    }
    ty
}

/// `T` for `Box<T>`, `Rc<T>`, `Arc<T>` (not `Box<str>`, which is a string).
fn pointee(rust: &Type) -> Option<&Type> {
    let Type::Path(path) = rust else { return None };
    let last = path.path.segments.last()?;
    if !["Box", "Rc", "Arc"].contains(&last.ident.to_string().as_str()) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.first()? {
        syn::GenericArgument::Type(Type::Path(p)) if p.path.is_ident("str") => None,
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// `ty` without its `null`.
fn strip_null(ty: &Ty) -> &Ty {
    match ty {
        Ty::Nullable(inner) => inner,
        other => other,
    }
}

/// `*v` as something the runtime's `Num` converts from: every fixed-size integer and `f64`
/// do as they are; `f32` widens exactly; the pointer-sized and 128-bit ones go through `i128`.
fn num(rust: &Type) -> TokenStream {
    match shape(rust) {
        Shape::Float(false) => quote!(f64::from(*v)),
        Shape::Int(int) if int.name == "isize" => quote!(*v as i128),
        Shape::Int(int) if ["usize", "u128"].contains(&int.name) => quote!(i128::try_from(*v).unwrap_or(i128::MAX)),
        _ => quote!(*v),
    }
}

/// The range of an IR integer, by its lower-case name (`u8`, `i64`, ...).
fn ir_range(name: &str) -> (i128, i128) {
    crate::rust_ty::IntTy::named(name).map_or((i64::MIN.into(), i64::MAX.into()), |int| (int.min, int.max))
}

/// A JSON number as a literal `Num` converts from, as generated code writes it.
fn number_literal(n: &Number) -> TokenStream {
    if let Some(i) = n.as_i64() {
        return Literal::i128_suffixed(i.into()).into_token_stream();
    }
    if let Some(u) = n.as_u64() {
        return Literal::i128_suffixed(u.into()).into_token_stream();
    }
    // JSON numbers are finite; `f64_suffixed` would panic on anything else.
    Literal::f64_suffixed(n.as_f64().filter(|f| f.is_finite()).unwrap_or(0.0)).into_token_stream()
}
