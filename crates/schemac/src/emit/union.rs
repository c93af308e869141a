//! Unions (`oneOf`, `anyOf`, type arrays): a Rust enum per union. Variants of distinct JSON
//! kinds are dispatched on the kind while streaming; the rest buffer the value and try the
//! branches, as the schema's semantics require.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::ty::{Ctx, ident, value_static, visitor};
use crate::ir::{DefId, DefKind, Ty, Union, UnionMode};

/// JSON kinds as the deserializer reports them.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Kinds {
    null: bool,
    boolean: bool,
    integer: bool,
    /// Non-integral numbers.
    fraction: bool,
    string: bool,
    array: bool,
    object: bool,
}

impl Kinds {
    const ALL: Kinds = Kinds { null: true, boolean: true, integer: true, fraction: true, string: true, array: true, object: true };

    fn or(self, o: Kinds) -> Kinds {
        Kinds {
            null: self.null || o.null,
            boolean: self.boolean || o.boolean,
            integer: self.integer || o.integer,
            fraction: self.fraction || o.fraction,
            string: self.string || o.string,
            array: self.array || o.array,
            object: self.object || o.object,
        }
    }

    fn overlaps(self, o: Kinds) -> bool {
        (self.null && o.null)
            || (self.boolean && o.boolean)
            || (self.integer && o.integer)
            || (self.fraction && o.fraction)
            || (self.string && o.string)
            || (self.array && o.array)
            || (self.object && o.object)
    }

    fn of_value(value: &Value) -> Kinds {
        let mut k = Kinds::default();
        match value {
            Value::Null => k.null = true,
            Value::Bool(_) => k.boolean = true,
            Value::Number(n) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => k.integer = true,
            Value::Number(_) => k.fraction = true,
            Value::String(_) => k.string = true,
            Value::Array(_) => k.array = true,
            Value::Object(_) => k.object = true,
        }
        k
    }
}

fn kinds(ctx: &Ctx<'_>, ty: &Ty, depth: usize) -> Kinds {
    // Aliases and unions can refer to each other; past a few levels assume anything.
    if depth > 16 {
        return Kinds::ALL;
    }
    let mut k = Kinds::default();
    match ty {
        Ty::Any => return Kinds::ALL,
        Ty::Bool => k.boolean = true,
        Ty::Integer(_) => k.integer = true,
        Ty::Number => {
            k.integer = true;
            k.fraction = true;
        }
        Ty::String | Ty::Format(_) => k.string = true,
        Ty::Null => k.null = true,
        Ty::Array(_) => k.array = true,
        Ty::Map(_) => k.object = true,
        Ty::Nullable(inner) => {
            k = kinds(ctx, inner, depth + 1);
            k.null = true;
        }
        Ty::Constrained(inner, _) => return kinds(ctx, inner, depth + 1),
        Ty::Def(id) => {
            return match &ctx.def(*id).kind {
                DefKind::Struct(_) => Kinds { object: true, ..Kinds::default() },
                DefKind::StringEnum(_) => Kinds { string: true, ..Kinds::default() },
                DefKind::Const(v) => Kinds::of_value(v),
                DefKind::ValueEnum(vs) => vs.iter().fold(Kinds::default(), |acc, v| acc.or(Kinds::of_value(v))),
                DefKind::Newtype(n) => kinds(ctx, &n.inner, depth + 1),
                DefKind::Union(u) => u.variants.iter().fold(Kinds::default(), |acc, v| acc.or(kinds(ctx, &v.ty, depth + 1))),
                DefKind::Alias(t) => kinds(ctx, t, depth + 1),
                DefKind::Refined(r) => kinds(ctx, &r.base, depth + 1),
                DefKind::Tuple(_) => Kinds { array: true, ..Kinds::default() },
                DefKind::Checked(_) => Kinds::ALL,
            };
        }
    }
    k
}

pub(super) fn union(ctx: &Ctx<'_>, id: DefId, u: &Union) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let variants: Vec<_> = u.variants.iter().map(|v| ident(&v.name)).collect();
    let types: Vec<_> = u.variants.iter().map(|v| ctx.rust(id, &v.ty)).collect();
    let seeds: Vec<_> = u.variants.iter().map(|v| ctx.seed(id, &v.ty)).collect();
    let variant_kinds: Vec<Kinds> = u.variants.iter().map(|v| kinds(ctx, &v.ty, 0)).collect();
    let declaration = quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        pub enum #name {
            #(#variants(#types),)*
        }
    };
    if macro_takes(ctx, id, u) {
        // The union macros write `Serialize` too, as `untagged` would.
        let declaration = quote! {
            #[derive(Clone, Debug, PartialEq)]
            pub enum #name {
                #(#variants(#types),)*
            }
        };
        let deserialize = match &u.mode {
            UnionMode::ByKind if dispatched_by_kind(u, &variant_kinds) => {
                let seeds: Vec<_> = u
                    .variants
                    .iter()
                    .map(|v| {
                        let seed = branch_seed(ctx, id, &v.ty);
                        let plain = ctx.is_plain_seed(id, &v.ty) && seed.to_string() == ctx.seed(id, &v.ty).to_string();
                        (seed, plain)
                    })
                    .collect();
                Some(by_kind_macro(&name, &variants, &seeds, &variant_kinds))
            }
            UnionMode::Tagged { .. } => None,
            UnionMode::ExactlyOne => {
                let rows = branch_rows(ctx, id, u, &variants, &seeds);
                Some(quote! { ::schemac_runtime::one_of! { #name; #(#rows)* } })
            }
            UnionMode::ByKind | UnionMode::FirstMatch => {
                let rows = branch_rows(ctx, id, u, &variants, &seeds);
                Some(quote! { ::schemac_runtime::first_match! { #name; #(#rows)* } })
            }
        };
        if let Some(deserialize) = deserialize {
            return quote! { #declaration #deserialize };
        }
    }
    let body = match &u.mode {
        UnionMode::ByKind if dispatched_by_kind(u, &variant_kinds) => {
            let seeds: Vec<_> = u.variants.iter().map(|v| branch_seed(ctx, id, &v.ty)).collect();
            by_kind(&name, &variants, &seeds, &variant_kinds)
        }
        UnionMode::Tagged { tag } => tagged(&name, tag, u, &variants, &seeds),
        UnionMode::ExactlyOne => exactly_one(&name, &variants, &seeds),
        UnionMode::ByKind | UnionMode::FirstMatch => first_match(&name, &variants, &seeds),
    };
    quote! {
        #declaration

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                #body
            }
        }
    }
}

/// The rows of `one_of!` and `first_match!`: `Variant(SEED);`, or `Variant;` where the seed is
/// `Plain` of the variant's type (the macros' default).
fn branch_rows(ctx: &Ctx<'_>, id: DefId, u: &Union, variants: &[proc_macro2::Ident], seeds: &[TokenStream]) -> Vec<TokenStream> {
    u.variants
        .iter()
        .zip(variants)
        .zip(seeds)
        .map(|((v, variant), seed)| {
            if ctx.is_plain_seed(id, &v.ty) {
                quote! { #variant; }
            } else {
                quote! { #variant(#seed); }
            }
        })
        .collect()
}

/// Whether the union's `Deserialize` (and `Validate`) is a call of one of the runtime's union
/// macros (`by_kind!`, `one_of!`, `first_match!`): not for a tagged union, or raw names
/// (`stringify!` would keep their `r#`).
pub(super) fn macro_takes(ctx: &Ctx<'_>, id: DefId, u: &Union) -> bool {
    let raw = ctx.def(id).name.starts_with("r#") || u.variants.iter().any(|v| v.name.starts_with("r#"));
    !raw && !u.variants.is_empty() && !matches!(u.mode, UnionMode::Tagged { .. })
}

/// Whether the union reads its value streaming, each JSON kind going to the one branch that
/// takes it (else it buffers the value and tries the branches).
fn dispatched_by_kind(u: &Union, variant_kinds: &[Kinds]) -> bool {
    u.mode == UnionMode::ByKind
        && variant_kinds.iter().enumerate().all(|(i, a)| variant_kinds[i + 1..].iter().all(|b| !a.overlaps(*b) || numeric_only(*a, *b)))
}

/// The seed of a branch of a union dispatched by kind, which gets a deserializer of the one
/// value already read. A plain `type` alias of an `Option` would be read by serde's own
/// `Option` impl, which takes only `deserialize_option`'s answers and so rejects every value
/// but `null` from such a deserializer; the aliased type's own seed (`de::Nullable`) takes
/// every kind. A boxed alias keeps its seed: the box is around the alias, not inside it.
fn branch_seed(ctx: &Ctx<'_>, id: DefId, ty: &Ty) -> TokenStream {
    let mut ty = ty;
    // Aliases of aliases are newtypes, not `type` aliases, so one step is all there is.
    if let Ty::Def(target) = ty
        && !ctx.needs_box(id, *target)
        && super::alias::is_type_alias(ctx, *target)
        && let DefKind::Alias(aliased) = &ctx.def(*target).kind
    {
        ty = aliased;
    }
    ctx.seed(id, ty)
}

/// What a union dispatched by kind tells apart: the value kinds serde's `Visitor` gets, one
/// visit method each (`visit_unit`, `visit_bool`, `visit_i64`/`visit_u64`, `visit_f64`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Visit {
    Null,
    Boolean,
    /// A number serde_json reads as an integer (`1`, not `1.0`).
    Integer,
    /// A number serde_json reads as a float (`1.5`, `1.0`, `1e3`).
    Float,
    String,
    Array,
    Object,
}

impl Visit {
    pub const ALL: [Visit; 7] = [Visit::Null, Visit::Boolean, Visit::Integer, Visit::Float, Visit::String, Visit::Array, Visit::Object];

    /// How serde_json hands `value` to a visitor.
    pub fn of(value: &Value) -> Visit {
        match value {
            Value::Null => Visit::Null,
            Value::Bool(_) => Visit::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => Visit::Integer,
            Value::Number(_) => Visit::Float,
            Value::String(_) => Visit::String,
            Value::Array(_) => Visit::Array,
            Value::Object(_) => Visit::Object,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Visit::Null => "null",
            Visit::Boolean => "boolean",
            Visit::Integer => "integer",
            Visit::Float => "float",
            Visit::String => "string",
            Visit::Array => "array",
            Visit::Object => "object",
        }
    }
}

/// The branch a union dispatched by kind gives a value of `visit` to. A float with no
/// fractional part is an integer to JSON Schema: a number branch takes floats, else the
/// integer branch takes `1.0`.
fn route(kinds: &[Kinds], visit: Visit) -> Option<usize> {
    let pick = |want: fn(&Kinds) -> bool| kinds.iter().position(want);
    match visit {
        Visit::Null => pick(|k| k.null),
        Visit::Boolean => pick(|k| k.boolean),
        Visit::Integer => pick(|k| k.integer),
        Visit::Float => pick(|k| k.fraction).or_else(|| pick(|k| k.integer)),
        Visit::String => pick(|k| k.string),
        Visit::Array => pick(|k| k.array),
        Visit::Object => pick(|k| k.object),
    }
}

/// A nullable branch (an `Option`, directly or through aliases) of a union dispatched by
/// kind, and the kinds the union hands it: what the generated round-trip tests feed each such
/// branch, since it gets a deserializer of one value already read and must take every kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NullableBranch {
    pub union: DefId,
    pub variant: String,
    pub visits: Vec<Visit>,
}

/// Every [`NullableBranch`] of `ir`, in def and variant order.
pub fn nullable_branches(ir: &crate::ir::Ir) -> Vec<NullableBranch> {
    let ctx = Ctx::new(ir);
    let mut out = Vec::new();
    for (i, def) in ir.defs.iter().enumerate() {
        let DefKind::Union(u) = &def.kind else { continue };
        let variant_kinds: Vec<Kinds> = u.variants.iter().map(|v| kinds(&ctx, &v.ty, 0)).collect();
        if !dispatched_by_kind(u, &variant_kinds) {
            continue;
        }
        for (index, variant) in u.variants.iter().enumerate() {
            if !nullable(&ctx, &variant.ty, 0) {
                continue;
            }
            let visits: Vec<Visit> = Visit::ALL.into_iter().filter(|v| route(&variant_kinds, *v) == Some(index)).collect();
            out.push(NullableBranch { union: DefId(i), variant: variant.name.clone(), visits });
        }
    }
    out
}

/// Whether values of `ty` are read through `de::Nullable` or serde's `Option`.
fn nullable(ctx: &Ctx<'_>, ty: &Ty, depth: usize) -> bool {
    match ty {
        Ty::Nullable(_) => true,
        Ty::Constrained(inner, _) => nullable(ctx, inner, depth),
        Ty::Def(id) if depth < 16 => matches!(&ctx.def(*id).kind, DefKind::Alias(inner) if nullable(ctx, inner, depth + 1)),
        _ => false,
    }
}

/// `["integer", "number"]`-style overlaps are resolved by preferring the exact kind.
fn numeric_only(a: Kinds, b: Kinds) -> bool {
    let strip = |k: Kinds| Kinds { integer: false, fraction: false, ..k };
    !strip(a).overlaps(strip(b))
}

fn by_kind(name: &proc_macro2::Ident, variants: &[proc_macro2::Ident], seeds: &[TokenStream], kinds: &[Kinds]) -> TokenStream {
    let pick = |visit: Visit| route(kinds, visit);
    let mut methods = Vec::new();
    let mut expected = Vec::new();
    let forward = |i: usize, arg: TokenStream| {
        let (variant, seed) = (&variants[i], &seeds[i]);
        quote! { serde::de::DeserializeSeed::deserialize(#seed, #arg).map(#name::#variant) }
    };
    if let Some(i) = pick(Visit::Null) {
        expected.push("null");
        let call = forward(i, quote!(serde::de::IntoDeserializer::<'de, __E>::into_deserializer(())));
        methods.push(quote! { fn visit_unit<__E: serde::de::Error>(self) -> Result<#name, __E> { #call } });
    }
    if let Some(i) = pick(Visit::Boolean) {
        expected.push("a boolean");
        let call = forward(i, quote!(serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v)));
        methods.push(quote! { fn visit_bool<__E: serde::de::Error>(self, v: bool) -> Result<#name, __E> { #call } });
    }
    if let Some(i) = pick(Visit::Integer) {
        expected.push("an integer");
        let signed = forward(i, quote!(serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v)));
        let unsigned = signed.clone();
        methods.push(quote! {
            fn visit_i64<__E: serde::de::Error>(self, v: i64) -> Result<#name, __E> { #signed }
            fn visit_u64<__E: serde::de::Error>(self, v: u64) -> Result<#name, __E> { #unsigned }
        });
    }
    if let Some(i) = pick(Visit::Float) {
        expected.push("a number");
        let call = forward(i, quote!(serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v)));
        methods.push(quote! { fn visit_f64<__E: serde::de::Error>(self, v: f64) -> Result<#name, __E> { #call } });
    }
    if let Some(i) = pick(Visit::String) {
        expected.push("a string");
        let call = forward(i, quote!(serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v)));
        methods.push(quote! { fn visit_str<__E: serde::de::Error>(self, v: &str) -> Result<#name, __E> { #call } });
    }
    if let Some(i) = pick(Visit::Array) {
        expected.push("an array");
        let call = forward(i, quote!(serde::de::value::SeqAccessDeserializer::new(seq)));
        methods.push(quote! { fn visit_seq<__A: serde::de::SeqAccess<'de>>(self, seq: __A) -> Result<#name, __A::Error> { #call } });
    }
    if let Some(i) = pick(Visit::Object) {
        expected.push("an object");
        let call = forward(i, quote!(serde::de::value::MapAccessDeserializer::new(map)));
        methods.push(quote! { fn visit_map<__A: serde::de::MapAccess<'de>>(self, map: __A) -> Result<#name, __A::Error> { #call } });
    }
    visitor(name, &expected.join(" or "), quote!(#(#methods)*), quote!(deserialize_any))
}

/// `by_kind`'s visitor as a call of the runtime's `by_kind!`: a row per kind a branch takes.
/// `seeds` pairs each variant's seed with whether it is `Plain` of the variant's type. A row
/// leaves out the seed `by_kind!` assumes: that one, or `Float` in a `number` or `float` row.
/// A variant no kind goes to gets a `none` row, which only its `Validate` reads.
fn by_kind_macro(
    name: &proc_macro2::Ident,
    variants: &[proc_macro2::Ident],
    seeds: &[(TokenStream, bool)],
    kinds: &[Kinds],
) -> TokenStream {
    let visits = [
        (Visit::Null, quote!(null)),
        (Visit::Boolean, quote!(boolean)),
        (Visit::Integer, quote!(integer)),
        (Visit::Float, quote!(float)),
        (Visit::String, quote!(string)),
        (Visit::Array, quote!(array)),
        (Visit::Object, quote!(object)),
    ];
    let mut rows = Vec::new();
    // Integers and floats going to the same branch are one `number` row.
    let number = route(kinds, Visit::Integer).filter(|&i| route(kinds, Visit::Float) == Some(i));
    let float = quote!(schemac_runtime::de::Float::new()).to_string();
    let row = |kind: TokenStream, i: usize| {
        let variant = &variants[i];
        let (seed, plain) = &seeds[i];
        let default = match kind.to_string().as_str() {
            "number" | "float" => seed.to_string() == float,
            _ => *plain,
        };
        if default {
            quote! { #kind(#variant); }
        } else {
            quote! { #kind(#variant, #seed); }
        }
    };
    let mut routed = vec![false; variants.len()];
    for (visit, kind) in visits {
        if let Some(i) = route(kinds, visit) {
            routed[i] = true;
            match (visit, number) {
                (Visit::Integer, Some(_)) => rows.push(row(quote!(number), i)),
                (Visit::Float, Some(_)) => {}
                _ => rows.push(row(kind, i)),
            }
        }
    }
    for (i, _) in routed.iter().enumerate().filter(|(_, routed)| !**routed) {
        rows.push(row(quote!(none), i));
    }
    // The macro spells what it expects from the rows ("a boolean or an integer or a number").
    quote! { ::schemac_runtime::by_kind! { #name; #(#rows)* } }
}

fn buffer() -> TokenStream {
    quote! { let value = schemac_runtime::de::any_value(deserializer)?; }
}

fn tagged(name: &proc_macro2::Ident, tag: &str, u: &Union, variants: &[proc_macro2::Ident], seeds: &[TokenStream]) -> TokenStream {
    let buffer = buffer();
    let all_tags: Vec<String> = u.variants.iter().flat_map(|v| v.tags.iter().map(Value::to_string)).collect();
    let missing = format!("missing the tag property `{tag}` (one of {})", all_tags.join(", "));
    let expected = all_tags.join(", ");
    let arms = u.variants.iter().zip(variants).zip(seeds).enumerate().map(|(i, ((v, variant), seed))| {
        let tags_name = format_ident!("TAGS_{i}");
        let tags = value_static(&tags_name, &Value::Array(v.tags.clone()));
        quote! {
            {
                #tags
                if schemac_runtime::check::one_of_values(tag, #tags_name.as_array().map_or(&[], Vec::as_slice)).is_ok() {
                    return schemac_runtime::de::nested(#seed, &value).map(#name::#variant);
                }
            }
        }
    });
    quote! {
        #buffer
        let Some(tag) = value.get(#tag) else {
            return Err(serde::de::Error::custom(#missing));
        };
        #(#arms)*
        Err(schemac_runtime::de::unknown_tag(#tag, tag, #expected))
    }
}

/// Each branch in order; the first that takes the value wins. When none does, the error
/// says where each branch failed (`de::no_branch`).
fn first_match(name: &proc_macro2::Ident, variants: &[proc_macro2::Ident], seeds: &[TokenStream]) -> TokenStream {
    let buffer = buffer();
    let message = format!("matches none of the variants of {name}");
    let labels: Vec<String> = variants.iter().map(ToString::to_string).collect();
    quote! {
        #buffer
        let mut failures = Vec::new();
        #(
            match schemac_runtime::de::nested::<_, serde_json::Error>(#seeds, &value) {
                Ok(v) => return Ok(#name::#variants(v)),
                Err(error) => failures.push((#labels, error)),
            }
        )*
        Err(schemac_runtime::de::no_branch(#message, &failures))
    }
}

fn exactly_one(name: &proc_macro2::Ident, variants: &[proc_macro2::Ident], seeds: &[TokenStream]) -> TokenStream {
    let buffer = buffer();
    let none = format!("matches none of the oneOf branches of {name}");
    let labels: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let many = format!("matches more than one oneOf branch of {name} ({}); exactly one must match", names(variants));
    quote! {
        #buffer
        let mut found = None;
        let mut matches = 0usize;
        // A branch that fails only because a Rust integer cannot hold the value may match as
        // far as the schema goes: it counts, so the union never takes another branch instead.
        let mut unrepresentable = None;
        let mut failures = Vec::new();
        #(
            match schemac_runtime::de::nested::<_, serde_json::Error>(#seeds, &value) {
                Ok(v) => {
                    matches += 1;
                    if found.is_none() {
                        found = Some(#name::#variants(v));
                    }
                }
                Err(error) if schemac_runtime::de::unrepresentable(&error) => {
                    matches += 1;
                    unrepresentable = Some(error.to_string());
                }
                Err(error) => failures.push((#labels, error)),
            }
        )*
        match (matches, found, unrepresentable) {
            (1, Some(v), _) => Ok(v),
            (1, None, Some(error)) => Err(serde::de::Error::custom(error)),
            (0, _, _) => Err(schemac_runtime::de::no_branch(#none, &failures)),
            _ => Err(serde::de::Error::custom(#many)),
        }
    }
}

/// `impl Validate`: the value of whichever variant it is. (Which variant a value built in Rust
/// is in is the caller's choice; `oneOf` exclusivity is enforced when deserializing.)
pub(super) fn validation(ctx: &Ctx<'_>, id: DefId, u: &Union) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let arms: Vec<TokenStream> = u
        .variants
        .iter()
        .filter_map(|v| {
            let inner = super::assert::validate(ctx, id, &v.ty);
            let variant = ident(&v.name);
            (!inner.is_empty()).then(|| quote! { #name::#variant(v) => { #inner } })
        })
        .collect();
    let body = if arms.is_empty() {
        quote!()
    } else if let ([_], [variant]) = (arms.as_slice(), u.variants.iter().filter(|v| ctx.ty_validates(&v.ty)).collect::<Vec<_>>().as_slice())
    {
        let inner = super::assert::validate(ctx, id, &variant.ty);
        let variant = ident(&variant.name);
        quote! { if let #name::#variant(v) = self { #inner } }
    } else if arms.len() == u.variants.len() {
        quote! { match self { #(#arms)* } }
    } else {
        quote! { match self { #(#arms)* _ => {} } }
    };
    super::assert::validate_impl(&name, body)
}

fn names(variants: &[proc_macro2::Ident]) -> String {
    variants.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}
