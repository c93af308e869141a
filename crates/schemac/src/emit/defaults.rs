//! The schema's `default`s as Rust: a typed associated function per property with one
//! (`GoalUsage::tokens_limit_default() -> u64`), and `Default` for a struct whose value needs no
//! choice (every required property has a `default`, and nothing about the object as a whole
//! can fail) and for a string enum whose schema names a `default`. Deserialization is unchanged:
//! an absent property stays absent. A struct whose default is every property absent (the empty
//! object, or required properties whose `default` is `null`) derives `Default`
//! ([`derives_default`]): the derived impl is that value.
//!
//! A `default` is written as a Rust expression only when it is decided here to be a valid value
//! of the field's type (a value of the right kind, inside the integer type and the bounds and
//! lengths the schema asserts, one of a string enum's values); any other is left to the rustdoc.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::ty::{Ctx, ident, int_ident};
use crate::ir::{Assertion, DefId, DefKind, IntTy, Struct, Ty};

/// What def `id` gets for its schema `default`s.
pub(super) fn for_def(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    match &ctx.def(id).kind {
        DefKind::Struct(s) => structure(ctx, id, s),
        DefKind::StringEnum(values) => string_enum(ctx, id, values),
        _ => quote!(),
    }
}

/// Whether def `id`'s `Default` is derived: a struct whose default value is every field at its
/// type's `Default` (`None`, `Tristate::Absent`, the empty `extra`) and which no object
/// assertion could reject.
pub(super) fn derives_default(ctx: &Ctx<'_>, id: DefId) -> bool {
    let DefKind::Struct(s) = &ctx.def(id).kind else { return false };
    s.assertions.is_empty()
        && s.fields.iter().all(|field| {
            let value = field.docs.default.as_ref();
            match (&field.ty, field.required) {
                // An optional field is absent in the default, whatever the schema suggests.
                (_, false) => true,
                // A required nullable field whose `default` is `null`.
                (Ty::Nullable(_), true) => value.is_some_and(Value::is_null),
                (_, true) => false,
            }
        })
}

fn structure(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> TokenStream {
    let def = ctx.def(id);
    let derived = derives_default(ctx, id);
    let name = ident(&def.name);
    let mut fns = Vec::new();
    // Per required field, how `Default` initializes it; `None`: it has no usable default.
    let mut inits = Vec::new();
    for field in &s.fields {
        let rust_name = ident(&field.rust_name);
        let value = field.docs.default.as_ref();
        let (inner, nullable) = match &field.ty {
            Ty::Nullable(inner) => (inner.as_ref(), true),
            ty => (ty, false),
        };
        let typed = value.filter(|v| !v.is_null()).and_then(|v| expression(ctx, id, inner, v));
        if let (Some(expr), Some(v)) = (&typed, value) {
            let fn_name = format_ident!("{}_default", field.rust_name.trim_start_matches("r#"));
            let ty = ctx.rust(id, inner);
            let json = &field.json_name;
            let doc = if field.required {
                format!(
                    " The schema's `default` for `{json}`: `{v}`, which `Default` uses. Documents must still have `{json}`: it is required."
                )
            } else {
                format!(
                    " The schema's `default` for `{json}`: `{v}`. Reading a document leaves an absent `{json}` absent; this is the value the schema suggests in its place."
                )
            };
            fns.push(quote! {
                #[doc = #doc]
                pub fn #fn_name() -> #ty {
                    #expr
                }
            });
            if field.required {
                let value = if nullable { quote!(Some(#name::#fn_name())) } else { quote!(#name::#fn_name()) };
                inits.push(Some(quote! { #rust_name: #value, }));
            }
        } else if field.required {
            inits.push((nullable && value.is_some_and(Value::is_null)).then(|| quote! { #rust_name: None, }));
        }
        if !field.required {
            let absent = if nullable { quote!(schemac_runtime::Tristate::Absent) } else { quote!(None) };
            inits.push(Some(quote! { #rust_name: #absent, }));
        }
    }
    let fns = (!fns.is_empty()).then(|| quote! { impl #name { #(#fns)* } });
    // Object assertions (`minProperties`, `dependentRequired`, ...) could reject the default.
    let default = match inits.into_iter().collect::<Option<Vec<_>>>() {
        Some(inits) if s.assertions.is_empty() && !derived => {
            let extra = (!matches!(s.rest, crate::ir::Rest::Closed)).then(|| quote! { extra: ::core::default::Default::default(), });
            quote! {
                impl ::core::default::Default for #name {
                    /// Every required property at its schema `default`, the others absent.
                    fn default() -> Self {
                        #name { #(#inits)* #extra }
                    }
                }
            }
        }
        _ => quote!(),
    };
    quote! { #fns #default }
}

fn string_enum(ctx: &Ctx<'_>, id: DefId, values: &[String]) -> TokenStream {
    let def = ctx.def(id);
    let Some(Value::String(default)) = &def.docs.default else { return quote!() };
    let Some(index) = values.iter().position(|v| v == default) else { return quote!() };
    let name = ident(&def.name);
    let variant = &super::items::variant_idents(values)[index];
    let doc = format!(" The schema's `default`, `{default:?}`.");
    quote! {
        impl ::core::default::Default for #name {
            #[doc = #doc]
            fn default() -> Self {
                #name::#variant
            }
        }
    }
}

/// `value` as a Rust expression of type `ty` (written in def `from`), when it is a valid one.
fn expression(ctx: &Ctx<'_>, from: DefId, ty: &Ty, value: &Value) -> Option<TokenStream> {
    match (ty, value) {
        (Ty::Bool, Value::Bool(b)) => Some(quote!(#b)),
        (Ty::Integer(IntTy::Exact), Value::Number(n)) if n.is_i64() || n.is_u64() => {
            let text = n.to_string();
            Some(quote!(schemac_runtime::Integer::literal(#text)))
        }
        (Ty::Integer(int), Value::Number(n)) => integer(*int, n),
        (Ty::Number, Value::Number(n)) if ctx.ir.exact_numbers => {
            let text = n.to_string();
            Some(quote!(schemac_runtime::Number::literal(#text)))
        }
        (Ty::Number, Value::Number(n)) => {
            let f = n.as_f64().filter(|f| f.is_finite())?;
            // The nearest `f64`, as deserialization reads it; written so that it reads back.
            let literal = Literal::f64_unsuffixed(f);
            Some(quote!(#literal))
        }
        (Ty::String, Value::String(s)) => Some(quote!(String::from(#s))),
        (Ty::Format(_), Value::String(s)) => {
            let rust = ctx.rust(from, ty);
            Some(quote!(#rust::from(#s)))
        }
        (Ty::Def(id), _) => {
            let path = ctx.path(from, *id);
            match &ctx.def(*id).kind {
                DefKind::StringEnum(values) => {
                    let index = values.iter().position(|v| Some(v.as_str()) == value.as_str())?;
                    let variant = &super::items::variant_idents(values)[index];
                    Some(quote!(#path::#variant))
                }
                DefKind::Const(constant) if constant == value => Some(path),
                _ => None,
            }
        }
        (Ty::Constrained(inner, assertions), _) => {
            if assertions.iter().all(|a| holds(a, value)) {
                expression(ctx, from, inner, value)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// An integer literal of `int` for `n`, if `n` is an integer that `int` holds.
fn integer(int: IntTy, n: &serde_json::Number) -> Option<TokenStream> {
    let value: i128 = match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i128::from(i),
        (None, Some(u)) => i128::from(u),
        _ => return None,
    };
    let fits = match int {
        IntTy::U8 => u8::try_from(value).is_ok(),
        IntTy::U16 => u16::try_from(value).is_ok(),
        IntTy::U32 => u32::try_from(value).is_ok(),
        IntTy::U64 => u64::try_from(value).is_ok(),
        IntTy::I8 => i8::try_from(value).is_ok(),
        IntTy::I16 => i16::try_from(value).is_ok(),
        IntTy::I32 => i32::try_from(value).is_ok(),
        IntTy::I64 => i64::try_from(value).is_ok(),
        IntTy::I128 => true,
        // A `BigInt` has no literal; an `Integer` is written above.
        IntTy::Big | IntTy::Exact => false,
    };
    if !fits {
        return None;
    }
    let literal = syn::LitInt::new(&format!("{}_{}", value.unsigned_abs(), int_ident(int)), proc_macro2::Span::call_site());
    Some(if value < 0 { quote!(-#literal) } else { quote!(#literal) })
}

/// Whether `value` satisfies `assertion`, decided here; `false` for what is not decided here.
fn holds(assertion: &Assertion, value: &Value) -> bool {
    let number = |limit: &serde_json::Number| Some((value.as_f64()?, limit.as_f64()?));
    let length = || value.as_str().map(|s| s.chars().count() as u64);
    match assertion {
        Assertion::Minimum(limit) => number(limit).is_some_and(|(v, l)| v >= l),
        Assertion::Maximum(limit) => number(limit).is_some_and(|(v, l)| v <= l),
        Assertion::ExclusiveMinimum(limit) => number(limit).is_some_and(|(v, l)| v > l),
        Assertion::ExclusiveMaximum(limit) => number(limit).is_some_and(|(v, l)| v < l),
        Assertion::MinLength(min) => length().is_some_and(|n| n >= *min),
        Assertion::MaxLength(max) => length().is_some_and(|n| n <= *max),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compile_one, flat};
    use crate::Config;

    fn compile(schema: &str) -> String {
        flat(&compile_one(schema, &Config::default()).unwrap())
    }

    #[test]
    fn valid_defaults_become_functions_and_default_impls() {
        let code = compile(
            r#"{"type": "object", "required": ["mode", "limit"], "properties": {
                "mode": {"enum": ["fast", "slow"], "default": "slow"},
                "limit": {"type": "integer", "minimum": -5, "maximum": 100, "default": -3},
                "ratio": {"type": "number", "default": 0.1},
                "name": {"type": "string", "maxLength": 3, "default": "abc"},
                "tooLong": {"type": "string", "maxLength": 2, "default": "abc"},
                "outOfRange": {"type": "integer", "minimum": 0, "maximum": 9, "default": 10},
                "wrongKind": {"type": "boolean", "default": "yes"},
                "nested": {"type": "object", "properties": {"on": {"type": "boolean", "default": true}}, "minProperties": 1},
                "empty": {"type": "object", "properties": {"on": {"type": "boolean"}}}
            }}"#,
        );
        for expected in [
            "pub fn mode_default() -> RootMode { RootMode::Slow }",
            "pub fn limit_default() -> i8 { -3_i8 }",
            r#"pub fn ratio_default() -> ::schemac_runtime::Number { ::schemac_runtime::Number::literal("0.1") }"#,
            r#"pub fn name_default() -> ::std::string::String { ::std::string::String::from("abc") }"#,
            "pub fn on_default() -> bool { true }",
            // Every required property has a default: `Default` needs no choice.
            "impl ::core::default::Default for Root {",
            "mode: Root::mode_default(), limit: Root::limit_default(), ratio: ::core::option::Option::None,",
            // No required properties, no object assertions: the derived `Default`.
            "#[derive(Clone, Debug, Default, PartialEq)] pub struct RootEmpty {",
        ] {
            assert!(code.contains(expected), "missing `{expected}` in {code}");
        }
        for absent in ["too_long_default", "out_of_range_default", "wrong_kind_default", "Default for RootNested", "Default for RootEmpty"]
        {
            assert!(!code.contains(absent), "unexpected `{absent}` in {code}");
        }
    }

    #[test]
    fn a_string_enum_with_a_default_is_default() {
        let code = compile(r#"{"enum": ["a", "b"], "default": "b"}"#);
        assert!(code.contains("impl ::core::default::Default for Root {"), "{code}");
        assert!(code.contains("fn default() -> Self { Root::B }"), "{code}");
    }
}
