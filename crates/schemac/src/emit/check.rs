//! The `Value` fallback: a newtype over `serde_json::Value` whose constructor runs the
//! schema's checks, composed from `schemac_runtime::check` with one function per subschema.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::patterns::pattern_static;
use super::ty::{Ctx, ident, value_static};
use crate::ir::{Check, DefId, Evaluates, Kind, Refined, Subject};

pub(super) fn checked(ctx: &Ctx<'_>, id: DefId, check: &Check) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let rows = functions(ctx, id, check);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(serde_json::Value);

        schemac_runtime::checked! {
            #name;
            #rows
        }
    }
}

/// The `false` schema: an enum without variants, so no Rust value of it exists either.
pub(super) fn never(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub enum #name {}

        schemac_runtime::never!(#name);
    }
}

/// A typed value whose JSON form is also checked: a newtype over the base type that only a
/// checked constructor builds.
pub(super) fn refined(ctx: &Ctx<'_>, id: DefId, refined: &Refined) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let base = ctx.rust(id, &refined.base);
    let seed = ctx.seed(id, &refined.base);
    let rows = functions(ctx, id, &refined.check);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(#base);

        schemac_runtime::refined! {
            type #name = #base;
            let seed = #seed;
            #rows
        }
    }
}

/// The rows of `check`'s functions for `checked!`/`refined!`: `check_N(|v| BODY);`, the root
/// first, then the `eval_N(|v, seen| { .. });` of `unevaluated*` checks.
fn functions(ctx: &Ctx<'_>, id: DefId, check: &Check) -> TokenStream {
    let mut fns = Functions { ctx, id, bodies: Vec::new(), evals: Vec::new() };
    fns.function(check);
    let evals = &fns.evals;
    let bodies = fns.bodies.iter().enumerate().map(|(i, body)| {
        let f = format_ident!("check_{i}");
        quote! { #f(|v| #body); }
    });
    quote! { #(#bodies)* #(#evals)* }
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
                quote! { kinds(v, &[#(#rt::Kind::#kinds),*]) }
            }
            Check::Const(value) => {
                let value = value_static(&format_ident!("VALUE"), value);
                quote! { { #value #rt::constant(v, &VALUE) } }
            }
            Check::Enum(values) => {
                let allowed = value_static(&format_ident!("ALLOWED"), &Value::Array(values.clone()));
                quote! { { #allowed #rt::one_of_values(v, ALLOWED.as_array().map_or(&[], Vec::as_slice)) } }
            }
            Check::Pattern(pattern) => {
                let pattern = pattern_static(&format_ident!("PATTERN"), pattern);
                quote! { { #pattern #rt::pattern(v, &PATTERN) } }
            }
            Check::As(ty) => {
                let seed = self.ctx.seed(self.id, ty);
                match plain_seed(&seed) {
                    Some((false, ty)) => quote! { plain::<#ty>(v) },
                    Some((true, ty)) => quote! { nullable::<#ty>(v) },
                    None => quote! { typed(v, #seed) },
                }
            }
            Check::AllOf(checks) => {
                let refs = self.references(checks);
                quote! { all_of(v, &[#(#refs),*]) }
            }
            Check::AnyOf(checks) => {
                let refs = self.references(checks);
                quote! { any_of(v, &[#(#refs),*]) }
            }
            Check::OneOf(checks) => {
                let refs = self.references(checks);
                quote! { one_of(v, &[#(#refs),*]) }
            }
            Check::Not(inner) => {
                let r = self.reference(inner);
                quote! { not(v, #r) }
            }
            Check::IfThenElse { cond, then, otherwise } => {
                let cond = self.reference(cond);
                match (then.as_deref(), otherwise.as_deref()) {
                    (Some(then), None) => {
                        let then = self.reference(then);
                        quote! { if_then(v, #cond, #then) }
                    }
                    (None, Some(otherwise)) => {
                        let otherwise = self.reference(otherwise);
                        quote! { if_else(v, #cond, #otherwise) }
                    }
                    (then, otherwise) => {
                        let then = self.optional(then);
                        let otherwise = self.optional(otherwise);
                        quote! { if_then_else(v, #cond, #then, #otherwise) }
                    }
                }
            }
            Check::Object(object) if object.properties.is_empty() && object.required.is_empty() && object.patterns.is_empty() => {
                match object.additional.as_deref() {
                    Some(additional) => {
                        let r = self.reference(additional);
                        quote! { additional_properties(v, #r) }
                    }
                    // No object keyword: every value passes.
                    None => quote! { object(v, &#rt::ObjectRules { properties: &[], required: &[], patterns: &[], additional: None }) },
                }
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
                let rules = quote! {
                    &#rt::ObjectRules {
                        properties: &[#((#names, #checks as #rt::CheckFn)),*],
                        required: &[#(#required),*],
                        patterns: &[#((&#pattern_names, #pattern_checks as #rt::CheckFn)),*],
                        additional: #additional,
                    }
                };
                if statics.is_empty() {
                    quote! { object(v, #rules) }
                } else {
                    quote! { { #(#statics)* #rt::object(v, #rules) } }
                }
            }
            Check::Array { prefix, items } => {
                let prefix = self.references(prefix);
                let items = self.optional(items.as_deref());
                quote! { array(v, &[#(#prefix),*], #items) }
            }
            Check::Assert(assertion) => {
                let call = super::seed::call(self.ctx, self.id, assertion);
                match assertion.subject() {
                    Subject::Number => quote! { number(v, |v| #call) },
                    Subject::String => quote! { string(v, |v| #call) },
                    Subject::Array => quote! { items(v, |v| #call) },
                    Subject::Object => quote! { properties(v, |names| #call) },
                }
            }
            Check::Never => quote! { never(v) },
            Check::Unevaluated { items, evaluated, rest } => {
                let eval = self.evaluation(evaluated);
                let rest = self.reference(rest);
                let f = if *items { quote!(unevaluated_items) } else { quote!(unevaluated_properties) };
                quote! { #f(v, #eval, #rest) }
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
        self.evals[index] = quote! { #f(|#v, #seen| { #body }); };
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

/// The type `T` of a seed that is `Plain::<T>::new()` (`false`) or
/// `Nullable(Plain::<T>::new())` (`true`), which `check::plain` and `check::nullable` read.
fn plain_seed(seed: &TokenStream) -> Option<(bool, syn::Type)> {
    fn plain(expr: &syn::Expr) -> Option<syn::Type> {
        let syn::Expr::Call(call) = expr else { return None };
        let syn::Expr::Path(path) = &*call.func else { return None };
        let names: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
        if !call.args.is_empty() || names != ["schemac_runtime", "de", "Plain", "new"] {
            return None;
        }
        let syn::PathArguments::AngleBracketed(args) = &path.path.segments[2].arguments else { return None };
        match args.args.first() {
            Some(syn::GenericArgument::Type(ty)) if args.args.len() == 1 => Some(ty.clone()),
            _ => None,
        }
    }
    let expr: syn::Expr = syn::parse2(seed.clone()).ok()?;
    if let Some(ty) = plain(&expr) {
        return Some((false, ty));
    }
    let syn::Expr::Call(call) = &expr else { return None };
    let syn::Expr::Path(path) = &*call.func else { return None };
    let names: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
    if names != ["schemac_runtime", "de", "Nullable"] || call.args.len() != 1 {
        return None;
    }
    plain(&call.args[0]).map(|ty| (true, ty))
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use schemac_model::schema::KindSet;

    /// The model's `Kind` and the runtime's are two enums (the runtime cannot depend on the
    /// compiler, which depends on the runtime's derive): each model kind names a runtime
    /// variant of the same name, and the two accept the same values.
    #[test]
    fn each_kind_names_the_runtime_kind_that_accepts_the_same_values() {
        use schemac_runtime::__private::check::{Kind as Runtime, kinds};
        let pairs = [
            (Kind::Null, Runtime::Null),
            (Kind::Boolean, Runtime::Boolean),
            (Kind::Object, Runtime::Object),
            (Kind::Array, Runtime::Array),
            (Kind::Number, Runtime::Number),
            (Kind::Integer, Runtime::Integer),
            (Kind::String, Runtime::String),
        ];
        let values = [json!(null), json!(true), json!({}), json!([]), json!(1.5), json!(2), json!(2.0), json!(-3), json!("s")];
        for (model, runtime) in pairs {
            assert_eq!(kind(model).to_string(), format!("{runtime:?}"));
            for value in &values {
                assert_eq!(KindSet::of(model).accepts(value), kinds(value, &[runtime]).is_ok(), "{model:?} on {value}");
            }
        }
    }
}
