//! The `Value` fallback: a newtype over `serde_json::Value` whose constructor runs the
//! schema's checks, composed from `schemac_runtime::check` with one function per subschema.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::items::pattern_static;
use super::ty::{Ctx, ident, value_static};
use crate::ir::{Check, DefId, Evaluates, Kind, Refined, Subject};

pub(super) fn checked(ctx: &Ctx<'_>, id: DefId, check: &Check) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let (root, functions) = functions(ctx, id, check);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(serde_json::Value);

        impl #name {
            /// Checks `value` against the schema, with the pointer of the first failure.
            pub fn check(value: &serde_json::Value) -> Result<(), schemac_runtime::check::CheckError> {
                #name::#root(value)
            }

            pub fn value(&self) -> &serde_json::Value {
                &self.0
            }

            pub fn into_value(self) -> serde_json::Value {
                self.0
            }

            #functions
        }

        impl TryFrom<serde_json::Value> for #name {
            type Error = schemac_runtime::check::CheckError;
            fn try_from(value: serde_json::Value) -> Result<Self, Self::Error> {
                #name::check(&value).map(|()| #name(value))
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                let value = schemac_runtime::de::any_value(deserializer)?;
                #name::check(&value).map_err(schemac_runtime::check::CheckError::into_de_error)?;
                Ok(#name(value))
            }
        }
    }
}

/// The `false` schema: an enum without variants, so no Rust value of it exists either.
pub(super) fn never(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub enum #name {}

        impl #name {
            /// Fails for every value: the schema allows none.
            pub fn check(value: &serde_json::Value) -> Result<(), schemac_runtime::check::CheckError> {
                schemac_runtime::check::never(value)
            }
        }

        impl TryFrom<serde_json::Value> for #name {
            type Error = schemac_runtime::check::CheckError;
            fn try_from(value: serde_json::Value) -> Result<Self, Self::Error> {
                #name::check(&value).and_then(|()| Err(schemac_runtime::check::CheckError::new("no value is allowed here")))
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                let value = schemac_runtime::de::any_value(deserializer)?;
                #name::try_from(value).map_err(schemac_runtime::check::CheckError::into_de_error)
            }
        }
    }
}

/// A typed value whose JSON form is also checked: a newtype over the base type that only a
/// checked constructor builds.
pub(super) fn refined(ctx: &Ctx<'_>, id: DefId, refined: &Refined) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let base = ctx.rust(id, &refined.base);
    let seed = ctx.seed(id, &refined.base);
    let (root, functions) = functions(ctx, id, &refined.check);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(#base);

        impl #name {
            /// Checks the keywords the type does not hold (`value` is the JSON form of a value of
            /// the base type), with the pointer of the first failure.
            pub fn check(value: &serde_json::Value) -> Result<(), schemac_runtime::check::CheckError> {
                #name::#root(value)
            }

            pub fn get(&self) -> &#base {
                &self.0
            }

            pub fn into_inner(self) -> #base {
                self.0
            }

            #functions
        }

        impl TryFrom<#base> for #name {
            type Error = schemac_runtime::check::CheckError;
            fn try_from(value: #base) -> Result<Self, Self::Error> {
                schemac_runtime::check::refine(&value, #name::check).map(|()| #name(value))
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                let value = serde::de::DeserializeSeed::deserialize(#seed, deserializer)?;
                schemac_runtime::check::refine(&value, #name::check).map_err(schemac_runtime::check::CheckError::into_de_error)?;
                Ok(#name(value))
            }
        }
    }
}

/// The associated functions that check `check`, and the one to call.
fn functions(ctx: &Ctx<'_>, id: DefId, check: &Check) -> (Ident, TokenStream) {
    let mut fns = Functions { ctx, id, bodies: Vec::new(), evals: Vec::new() };
    let root = fns.function(check);
    let evals = &fns.evals;
    let bodies = fns.bodies.iter().enumerate().map(|(i, body)| {
        let f = format_ident!("check_{i}");
        quote! {
            fn #f(v: &serde_json::Value) -> Result<(), schemac_runtime::check::CheckError> {
                #body
            }
        }
    });
    (root, quote! { #(#bodies)* #(#evals)* })
}

/// Allocates one associated function per check node that another check refers to.
struct Functions<'c, 'a> {
    ctx: &'c Ctx<'a>,
    id: DefId,
    bodies: Vec<TokenStream>,
    /// The `eval_N` functions of `unevaluated*` checks, complete.
    evals: Vec<TokenStream>,
}

/// Which parameters an `eval_N` function's body refers to.
#[derive(Default)]
struct Uses {
    value: bool,
    seen: bool,
}

impl Functions<'_, '_> {
    /// The name of a new function implementing `check`.
    fn function(&mut self, check: &Check) -> Ident {
        let index = self.bodies.len();
        self.bodies.push(TokenStream::new());
        let body = self.body(check);
        self.bodies[index] = body;
        format_ident!("check_{index}")
    }

    fn reference(&mut self, check: &Check) -> TokenStream {
        let f = self.function(check);
        quote!(Self::#f)
    }

    fn references(&mut self, checks: &[Check]) -> Vec<TokenStream> {
        checks.iter().map(|c| self.reference(c)).collect()
    }

    fn body(&mut self, check: &Check) -> TokenStream {
        let rt = quote!(schemac_runtime::check);
        match check {
            Check::Kinds(kinds) => {
                let kinds = kinds.iter().map(|k| kind(*k));
                quote! { #rt::kinds(v, &[#(#rt::Kind::#kinds),*]) }
            }
            Check::Const(value) => {
                let value = value_static(&format_ident!("VALUE"), value);
                quote! { #value #rt::constant(v, &VALUE) }
            }
            Check::Enum(values) => {
                let allowed = value_static(&format_ident!("ALLOWED"), &Value::Array(values.clone()));
                quote! { #allowed #rt::one_of_values(v, ALLOWED.as_array().map_or(&[], Vec::as_slice)) }
            }
            Check::Pattern(pattern) => {
                let pattern = pattern_static(&format_ident!("PATTERN"), pattern);
                quote! { #pattern #rt::pattern(v, &PATTERN) }
            }
            Check::As(ty) => {
                let seed = self.ctx.seed(self.id, ty);
                quote! { #rt::typed(v, #seed) }
            }
            Check::AllOf(checks) => {
                let refs = self.references(checks);
                quote! { #rt::all_of(v, &[#(#refs),*]) }
            }
            Check::AnyOf(checks) => {
                let refs = self.references(checks);
                quote! { #rt::any_of(v, &[#(#refs),*]) }
            }
            Check::OneOf(checks) => {
                let refs = self.references(checks);
                quote! { #rt::one_of(v, &[#(#refs),*]) }
            }
            Check::Not(inner) => {
                let r = self.reference(inner);
                quote! { #rt::not(v, #r) }
            }
            Check::IfThenElse { cond, then, otherwise } => {
                let cond = self.reference(cond);
                let then = self.optional(then.as_deref());
                let otherwise = self.optional(otherwise.as_deref());
                quote! { #rt::if_then_else(v, #cond, #then, #otherwise) }
            }
            Check::Object(object) => {
                let names: Vec<&str> = object.properties.iter().map(|(n, _)| n.as_str()).collect();
                let checks: Vec<TokenStream> = object.properties.iter().map(|(_, c)| self.reference(c)).collect();
                let required = &object.required;
                let statics = object
                    .patterns
                    .iter()
                    .enumerate()
                    .map(|(i, (p, _))| pattern_static(&format_ident!("PATTERN_{i}"), p))
                    .collect::<Vec<_>>();
                let pattern_names = (0..object.patterns.len()).map(|i| format_ident!("PATTERN_{i}"));
                let pattern_checks: Vec<TokenStream> = object.patterns.iter().map(|(_, c)| self.reference(c)).collect();
                let additional = self.optional(object.additional.as_deref());
                quote! {
                    #(#statics)*
                    #rt::object(v, &#rt::ObjectRules {
                        properties: &[#((#names, #checks as #rt::CheckFn)),*],
                        required: &[#(#required),*],
                        patterns: &[#((&#pattern_names, #pattern_checks as #rt::CheckFn)),*],
                        additional: #additional,
                    })
                }
            }
            Check::Array { prefix, items } => {
                let prefix = self.references(prefix);
                let items = self.optional(items.as_deref());
                quote! { #rt::array(v, &[#(#prefix),*], #items) }
            }
            Check::Assert(assertion) => {
                let call = super::assert::call(self.ctx, self.id, assertion);
                match assertion.subject() {
                    Subject::Number => quote! { #rt::number(v, |v| #call) },
                    Subject::String => quote! { #rt::string(v, |v| #call) },
                    Subject::Array => quote! { #rt::items(v, |v| #call) },
                    Subject::Object => quote! { #rt::properties(v, |names| #call) },
                }
            }
            Check::Never => quote! { #rt::never(v) },
            Check::Unevaluated { items, evaluated, rest } => {
                let eval = self.evaluation(evaluated);
                let rest = self.reference(rest);
                let f = if *items { quote!(unevaluated_items) } else { quote!(unevaluated_properties) };
                quote! { #rt::#f(v, #eval, #rest) }
            }
        }
    }

    /// A new `eval_N` function that marks what `evaluated` evaluates of the value.
    fn evaluation(&mut self, evaluated: &Evaluates) -> TokenStream {
        let index = self.evals.len();
        self.evals.push(TokenStream::new());
        let mut uses = Uses::default();
        let body = self.marks(evaluated, &mut uses);
        // Unused parameters would warn: name them `_` where the marks do not need them.
        let v = if uses.value { quote!(v) } else { quote!(_) };
        let seen = if uses.seen { quote!(seen) } else { quote!(_) };
        let f = format_ident!("eval_{index}");
        self.evals[index] = quote! {
            fn #f(#v: &serde_json::Value, #seen: &mut schemac_runtime::check::Evaluated) -> Result<(), schemac_runtime::check::CheckError> {
                #body
                Ok(())
            }
        };
        quote!(Self::#f)
    }

    /// Statements marking what `evaluated` evaluates, in an `eval_N` function.
    fn marks(&mut self, evaluated: &Evaluates, uses: &mut Uses) -> TokenStream {
        match evaluated {
            Evaluates::Properties { all: true, .. } => {
                uses.seen = true;
                quote! { seen.all_properties(); }
            }
            Evaluates::Properties { names, patterns, all: false } => {
                let mut out = TokenStream::new();
                if !names.is_empty() {
                    uses.seen = true;
                    out.extend(quote! { seen.properties(&[#(#names),*]); });
                }
                if !patterns.is_empty() {
                    uses.seen = true;
                    uses.value = true;
                    let statics = patterns.iter().enumerate().map(|(i, p)| pattern_static(&format_ident!("PATTERN_{i}"), p));
                    let names = (0..patterns.len()).map(|i| format_ident!("PATTERN_{i}"));
                    out.extend(quote! { { #(#statics)* seen.patterns(v, &[#(&#names),*])?; } });
                }
                out
            }
            Evaluates::Items { all: true, .. } => {
                uses.seen = true;
                quote! { seen.all_items(); }
            }
            Evaluates::Items { prefix, contains, all: false } => {
                let mut out = TokenStream::new();
                if *prefix > 0 {
                    uses.seen = true;
                    out.extend(quote! { seen.prefix(#prefix); });
                }
                if let Some(contains) = contains {
                    uses.seen = true;
                    uses.value = true;
                    let r = self.reference(contains);
                    out.extend(quote! { seen.contains(v, #r); });
                }
                out
            }
            Evaluates::All(list) => list.iter().map(|e| self.marks(e, uses)).collect(),
            Evaluates::When(check, inner) => {
                uses.value = true;
                let r = self.reference(check);
                let inner = self.marks(inner, uses);
                quote! { if #r(v).is_ok() { #inner } }
            }
        }
    }

    fn optional(&mut self, check: Option<&Check>) -> TokenStream {
        match check {
            Some(c) => {
                let r = self.reference(c);
                quote!(Some(#r))
            }
            None => quote!(None),
        }
    }
}

fn kind(kind: Kind) -> Ident {
    format_ident!(
        "{}",
        match kind {
            Kind::Null => "Null",
            Kind::Boolean => "Boolean",
            Kind::Object => "Object",
            Kind::Array => "Array",
            Kind::Number => "Number",
            Kind::Integer => "Integer",
            Kind::String => "String",
        }
    )
}
