//! One Rust item (plus its impls) per IR definition.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::assert::{self as assertions, validate_impl};
use super::patterns::pattern_static;
use super::ty::{Ctx, docs, ident, visitor};
use super::{alias, check, seed, tuple, union};
use crate::ir::{DefId, DefKind, Field, Newtype, Rest, Struct, Ty};

pub(super) fn def(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let def = ctx.def(id);
    let doc = docs(&def.docs, &def.unenforced);
    let body = match &def.kind {
        DefKind::Struct(s) => structure(ctx, id, s),
        DefKind::StringEnum(values) => string_enum(ctx, id, values),
        DefKind::Newtype(newtype) => constrained(ctx, id, newtype),
        DefKind::Const(value) => constant(ctx, id, value),
        DefKind::ValueEnum(values) => value_enum(ctx, id, values),
        DefKind::Union(u) => union::union(ctx, id, u),
        DefKind::Alias(ty) => alias::alias(ctx, id, ty),
        DefKind::Checked(crate::ir::Check::Never) => check::never(ctx, id),
        DefKind::Checked(c) => check::checked(ctx, id, c),
        DefKind::Refined(r) => check::refined(ctx, id, r),
        DefKind::Tuple(t) => tuple::tuple(ctx, id, t),
    };
    let name = ident(&def.name);
    let validate = match &def.kind {
        // The runtime's `object!` and union macros write `Validate` from their seeds;
        // `string_enum!`, `string_newtype!`, `constant!`, `value_enum!`, `checked!`, `refined!`
        // and `never!` the empty one: those types check everything when they are built.
        DefKind::Struct(s) if object_macro_takes(ctx, id, s) => quote!(),
        DefKind::Const(_) | DefKind::ValueEnum(_) | DefKind::Checked(_) | DefKind::Refined(_) => quote!(),
        DefKind::Union(u) if union::macro_takes(ctx, id, u) => quote!(),
        DefKind::StringEnum(_) if uses_string_enum(ctx, id) => quote!(),
        DefKind::Newtype(_) if uses_string_newtype(ctx, id) => quote!(),
        DefKind::Struct(s) => validate_impl(&name, struct_validation(ctx, id, s)),
        DefKind::Union(u) => union::validation(ctx, id, u),
        DefKind::Tuple(t) => tuple::validation(ctx, id, t),
        // A `type` alias has the `Validate` of the type it names.
        DefKind::Alias(_) if alias::is_type_alias(ctx, id) => quote!(),
        DefKind::Alias(ty) => alias::validation(ctx, id, ty),
        // A raw type name's string enum or newtype is written out; it checks everything
        // when it is built.
        DefKind::StringEnum(_) | DefKind::Newtype(_) => validate_impl(&name, quote!()),
    };
    quote! { #doc #body #validate }
}

fn is_nullable(ty: &Ty) -> bool {
    matches!(ty, Ty::Nullable(_))
}

/// The most fields a struct derives `PartialEq` with; a wider one gets a flat impl.
const WIDE_STRUCT: usize = 128;

/// A struct with a hand-rolled `Deserialize` visitor: one pass over the input, unknown
/// properties kept (or rejected, with their pointer), required ones checked at the end.
fn structure(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let mut fields = Vec::new();
    let mut locals = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    // The runtime's `object!` writes `Serialize` from its rows, so the declaration has no
    // serde attributes. Else serde's derive: it counts the fields it writes in one
    // `a + b + …` expression, which overflows rustc's stack at thousands of fields; with a
    // `flatten` field it counts none. A wide struct without one gets a flat impl
    // (`wide_serialize`) instead.
    let by_macro = object_macro_takes(ctx, id, s);
    let flat_serialize = !by_macro && s.fields.len() > WIDE_STRUCT && matches!(s.rest, Rest::Closed);
    for (i, field) in s.fields.iter().enumerate() {
        let local = format_ident!("f{i}");
        let json = &field.json_name;
        let rust_name = ident(&field.rust_name);
        let (field_ty, local_ty, seed) = field_types(ctx, id, field);
        let doc = docs(&field.docs, &[]);
        let rename = (rust_name.to_string().trim_start_matches("r#") != json.as_str()).then(|| quote!(#[serde(rename = #json)]));
        let skip = match (field.required, is_nullable(&field.ty)) {
            (true, _) => None,
            (false, false) => Some(quote!(#[serde(skip_serializing_if = "::core::option::Option::is_none")])),
            (false, true) => Some(quote!(#[serde(skip_serializing_if = "::schemac_runtime::Tristate::is_absent")])),
        };
        fields.push(if flat_serialize || by_macro {
            quote! { #doc pub #rust_name: #field_ty, }
        } else {
            quote! { #doc #rename #skip pub #rust_name: #field_ty, }
        });
        locals.push(quote! { let mut #local: Option<#local_ty> = None; });
        arms.push(quote! { #json => schemac_runtime::de::field(&mut map, &mut #local, #json, #seed)?, });
        inits.push(match (field.required, is_nullable(&field.ty)) {
            (true, _) => quote! { #rust_name: #local.ok_or_else(|| schemac_runtime::de::missing(#json))?, },
            (false, false) => quote! { #rust_name: #local, },
            (false, true) => quote! { #rust_name: #local.map_or(schemac_runtime::Tristate::Absent, schemac_runtime::Tristate::from), },
        });
    }
    let declared: Vec<&str> = s.fields.iter().map(|f| f.json_name.as_str()).collect();
    let (extra_field, extra_local, extra_arm, extra_init) = rest(ctx, id, &s.rest, &declared, !by_macro);
    let dispatch = if arms.is_empty() {
        extra_arm
    } else {
        quote! {
            match key.as_str() {
                #(#arms)*
                _ => { #extra_arm }
            }
        }
    };
    // A closed struct with no properties fails on the first key: `if let`, since a loop that
    // never loops is a clippy error.
    let looping = if arms.is_empty() && matches!(s.rest, Rest::Closed) { quote!(if let) } else { quote!(while let) };
    let type_name = ctx.def(id).name.as_str();
    let expecting = format!("an object ({type_name})");
    let (present, object_checks) = object_assertions(ctx, id, s);
    let build = if object_checks.is_empty() {
        quote! { Ok(#name { #(#inits)* #extra_init }) }
    } else {
        quote! {
            let value = #name { #(#inits)* #extra_init };
            #object_checks
            Ok(value)
        }
    };
    let visit_map = quote! {
        fn visit_map<__A: serde::de::MapAccess<'de>>(self, mut map: __A) -> Result<#name, __A::Error> {
            #(#locals)*
            #extra_local
            #looping Some(key) = map.next_key::<schemac_runtime::de::Key<'de>>()? {
                #dispatch
            }
            #build
        }
    };
    let body = visitor(&name, &expecting, visit_map, quote!(deserialize_map));
    let (derive_eq, eq_impl) = if s.fields.len() > WIDE_STRUCT {
        let names: Vec<Ident> = s.fields.iter().map(|f| ident(&f.rust_name)).collect();
        let extra = (!extra_field.is_empty()).then(|| format_ident!("{}", crate::name::EXTRA_FIELD)).into_iter();
        let eq = quote! {
            /// Field by field, one statement each: the `a == b && …` chain `derive(PartialEq)`
            /// writes overflows rustc's stack at thousands of fields.
            impl PartialEq for #name {
                fn eq(&self, other: &Self) -> bool {
                    #(if self.#names != other.#names { return false; })*
                    #(if self.#extra != other.#extra { return false; })*
                    true
                }
            }
        };
        (quote!(), eq)
    } else {
        (quote!(PartialEq,), quote!())
    };
    let (derive_serialize, serialize_impl) = if by_macro {
        (quote!(), quote!())
    } else if flat_serialize {
        (quote!(), wide_serialize(&name, &s.fields))
    } else {
        (quote!(serde::Serialize), quote!())
    };
    let declaration = quote! {
        #serialize_impl
        #[derive(Clone, Debug, #derive_eq #derive_serialize)]
        pub struct #name {
            #(#fields)*
            #extra_field
        }

        #present
        #eq_impl
    };
    let deserialize = object_macro(ctx, id, s).unwrap_or_else(|| {
        quote! {
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                    #body
                }
            }
        }
    });
    quote! {
        #declaration

        #deserialize
    }
}

/// The struct's `Deserialize` as a call of the runtime's `object!`, which expands to the
/// visitor `structure` spells out: a row per property (`required`, `optional` or `tristate`,
/// the field, the JSON name, the seed). `None` for what the macro does not take: a
/// `patternProperties` rest, or a raw type name (`stringify!` would keep its `r#`).
fn object_macro(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> Option<TokenStream> {
    let def = ctx.def(id);
    if !object_macro_takes(ctx, id, s) {
        return None;
    }
    let name = ident(&def.name);
    let rest = match &s.rest {
        Rest::Closed => quote!(closed),
        Rest::Open => quote!(open),
        Rest::Typed(ty) => {
            let seed = ctx.seed(id, ty);
            quote!(typed(#seed))
        }
        Rest::Patterns { .. } => return None,
    };
    let check = (!s.assertions.is_empty()).then(|| {
        let calls = s.assertions.iter().map(|a| seed::call(ctx, id, a));
        quote! {
            .check(|value: &#name| {
                let names: &[&str] = &value.present_properties();
                [#(#calls),*]
            })
        }
    });
    let rows = s.fields.iter().map(|field| {
        let json = &field.json_name;
        let rust_name = ident(&field.rust_name);
        let (kind, read) = match (field.required, &field.ty) {
            (true, ty) => (quote!(required), ty),
            (false, Ty::Nullable(inner)) => (quote!(tristate), inner.as_ref()),
            (false, ty) => (quote!(optional), ty),
        };
        if ctx.is_plain_seed(id, read) {
            return quote! { #kind(#rust_name, #json); };
        }
        let seed = ctx.seed(id, &field.ty);
        quote! { #kind(#rust_name, #json, #seed); }
    });
    Some(quote! {
        ::schemac_runtime::object! {
            #name;
            #rest #check;
            #(#rows)*
        }
    })
}

/// Whether the struct's `Deserialize` (and `Validate`) is a call of the runtime's `object!`:
/// not for a `patternProperties` rest, or a raw type name (`stringify!` would keep its `r#`).
fn object_macro_takes(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> bool {
    !ctx.def(id).name.starts_with("r#") && !matches!(s.rest, Rest::Patterns { .. })
}

/// `Serialize` for a wide struct without a `flatten` field, as serde derives it (a struct of
/// the fields present, optional ones skipped when absent), one statement per field.
fn wide_serialize(name: &Ident, fields: &[Field]) -> TokenStream {
    let mut count = Vec::new();
    let mut writes = Vec::new();
    for field in fields {
        let rust_name = ident(&field.rust_name);
        let json = &field.json_name;
        let present = match (field.required, is_nullable(&field.ty)) {
            (true, _) => None,
            (false, false) => Some(quote!(self.#rust_name.is_some())),
            (false, true) => Some(quote!(!self.#rust_name.is_absent())),
        };
        match present {
            None => {
                count.push(quote! { len += 1; });
                writes.push(quote! { state.serialize_field(#json, &self.#rust_name)?; });
            }
            Some(present) => {
                count.push(quote! { if #present { len += 1; } });
                writes.push(quote! {
                    if #present { state.serialize_field(#json, &self.#rust_name)?; } else { state.skip_field(#json)?; }
                });
            }
        }
    }
    let type_name = name.to_string();
    quote! {
        impl serde::Serialize for #name {
            fn serialize<__S: serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                use ::serde::ser::SerializeStruct as _;
                let mut len = 0usize;
                #(#count)*
                let mut state = serializer.serialize_struct(#type_name, len)?;
                #(#writes)*
                state.end()
            }
        }
    }
}

/// The struct's object assertions: a `present_properties` method, and the statements that
/// check `value` after it is read (empty when it has none).
fn object_assertions(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> (TokenStream, TokenStream) {
    if s.assertions.is_empty() {
        return (quote!(), quote!());
    }
    let name = ident(&ctx.def(id).name);
    let pushes = s.fields.iter().map(|field| {
        let json = &field.json_name;
        let rust_name = ident(&field.rust_name);
        match (field.required, is_nullable(&field.ty)) {
            (true, _) => quote! { names.push(#json); },
            (false, false) => quote! { if self.#rust_name.is_some() { names.push(#json); } },
            (false, true) => quote! { if !self.#rust_name.is_absent() { names.push(#json); } },
        }
    });
    let extra = match s.rest {
        Rest::Closed => quote!(),
        Rest::Open => quote! { names.extend(self.extra.keys()); },
        _ => quote! { names.extend(self.extra.keys().map(String::as_str)); },
    };
    let present = quote! {
        impl #name {
            /// The names of the properties this object has, for its object assertions.
            fn present_properties(&self) -> Vec<&str> {
                let mut names = Vec::new();
                #(#pushes)*
                #extra
                names
            }
        }
    };
    let calls = s.assertions.iter().map(|a| seed::call(ctx, id, a));
    let checks = quote! {
        let names: &[&str] = &value.present_properties();
        #(#calls.map_err(serde::de::Error::custom)?;)*
    };
    (present, checks)
}

/// The body of a struct's `validate_at`: each field's value, the object assertions, and the
/// undeclared properties where the schema says what they must be.
fn struct_validation(ctx: &Ctx<'_>, id: DefId, s: &Struct) -> TokenStream {
    let mut out = Vec::new();
    for field in &s.fields {
        let json = &field.json_name;
        let rust_name = ident(&field.rust_name);
        // An optional field's value is inside its `Option`/`Tristate`.
        let ty = match (field.required, &field.ty) {
            (false, Ty::Nullable(inner)) => inner.as_ref(),
            (_, ty) => ty,
        };
        let inner = assertions::validate(ctx, id, ty);
        if inner.is_empty() {
            continue;
        }
        let statements = match (field.required, &field.ty) {
            (true, _) => quote! { { let v = &self.#rust_name; let at = &at.key(#json); #inner } },
            (false, Ty::Nullable(_)) => quote! {
                if let schemac_runtime::Tristate::Value(v) = &self.#rust_name {
                    let at = &at.key(#json);
                    #inner
                }
            },
            (false, _) => quote! {
                if let Some(v) = &self.#rust_name {
                    let at = &at.key(#json);
                    #inner
                }
            },
        };
        out.push(statements);
    }
    if !s.assertions.is_empty() {
        let calls = s.assertions.iter().map(|a| seed::call(ctx, id, a));
        out.push(quote! {
            let names: &[&str] = &self.present_properties();
            #(errors.check(at, #calls);)*
        });
    }
    match &s.rest {
        Rest::Closed | Rest::Open => {}
        Rest::Typed(ty) => {
            let inner = assertions::validate(ctx, id, ty);
            if !inner.is_empty() {
                out.push(quote! {
                    for (name, v) in &self.extra {
                        let at = &at.key(name);
                        #inner
                    }
                });
            }
        }
        Rest::Patterns { patterns, additional } => {
            let statics = patterns.iter().enumerate().map(|(i, (p, _))| pattern_static(&format_ident!("PATTERN_{i}"), p));
            let checks = patterns.iter().enumerate().map(|(i, (_, ty))| {
                let pattern = format_ident!("PATTERN_{i}");
                let seed = ctx.seed(id, ty);
                quote! { (&#pattern, |v| schemac_runtime::check::typed(v, #seed)) }
            });
            let additional = match additional {
                Some(ty) => {
                    let seed = ctx.seed(id, ty);
                    quote! { Some(|v| schemac_runtime::check::typed(v, #seed)) }
                }
                None => quote!(None),
            };
            out.push(quote! {
                #(#statics)*
                schemac_runtime::validate::pattern_properties(&self.extra, at, errors, &[#(#checks),*], #additional);
            });
        }
    }
    quote! { #(#out)* }
}

/// (field type, type of the parsed value, seed) for a struct field.
pub(super) fn field_types(ctx: &Ctx<'_>, id: DefId, field: &Field) -> (TokenStream, TokenStream, TokenStream) {
    let parsed = ctx.rust(id, &field.ty);
    let seed = ctx.seed(id, &field.ty);
    let declared = match (field.required, &field.ty) {
        (true, _) => parsed.clone(),
        (false, Ty::Nullable(inner)) => {
            let inner = ctx.rust(id, inner);
            quote!(schemac_runtime::Tristate<#inner>)
        }
        (false, _) => quote!(Option<#parsed>),
    };
    (declared, parsed, seed)
}

/// The `extra` field, its local, the `_ =>` arm and the initializer for undeclared properties.
fn rest(ctx: &Ctx<'_>, id: DefId, rest: &Rest, declared: &[&str], flatten: bool) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
    // serde's derive needs `flatten`; the runtime's `object!` writes the properties itself.
    let flatten = flatten.then(|| quote!(#[serde(flatten)]));
    let doc = quote! {
        /// Properties the schema does not declare, kept so that a round trip loses nothing.
        #flatten
    };
    let insert = quote! {
        let key = key.into_string();
        if extra.contains_key(&key) {
            return Err(schemac_runtime::de::duplicate(&key));
        }
    };
    match rest {
        Rest::Closed => (
            quote!(),
            quote!(),
            quote! {
                let unknown = schemac_runtime::de::UnknownProperty { name: key.as_str(), expected: &[#(#declared),*] };
                match map.next_value_seed(unknown)? {}
            },
            quote!(),
        ),
        // Kept as text in one buffer per object: a `serde_json::Map` costs allocations per
        // property and per string, array and object inside its value.
        Rest::Open => (
            quote! { #doc pub extra: schemac_runtime::Extra, },
            quote! { let mut extra = schemac_runtime::ExtraBuilder::default(); },
            quote! { schemac_runtime::de::extra(&mut map, &mut extra, key)?; },
            quote! { extra: extra.finish(), },
        ),
        Rest::Typed(ty) => {
            let value_ty = ctx.rust(id, ty);
            let seed = ctx.seed(id, ty);
            (
                quote! { #doc pub extra: std::collections::BTreeMap<String, #value_ty>, },
                quote! { let mut extra = std::collections::BTreeMap::new(); },
                quote! { #insert extra.insert(key, map.next_value_seed(#seed)?); },
                quote! { extra, },
            )
        }
        Rest::Patterns { patterns, additional } => {
            let statics = patterns.iter().enumerate().map(|(i, (p, _))| pattern_static(&format_ident!("PATTERN_{i}"), p));
            let checks = patterns.iter().enumerate().map(|(i, (_, ty))| {
                let pattern = format_ident!("PATTERN_{i}");
                let seed = ctx.seed(id, ty);
                quote! {
                    if #pattern.is_match(&key).map_err(serde::de::Error::custom)? {
                        matched = true;
                        schemac_runtime::de::check_property(&key, #seed, &value)?;
                    }
                }
            });
            let otherwise = match additional {
                Some(ty) => {
                    let seed = ctx.seed(id, ty);
                    quote! { schemac_runtime::de::check_property(&key, #seed, &value)?; }
                }
                None => quote! { return Err(schemac_runtime::de::unmatched_property(&key)); },
            };
            (
                quote! { #doc pub extra: serde_json::Map<String, serde_json::Value>, },
                quote! { let mut extra = serde_json::Map::new(); #(#statics)* },
                quote! {
                    #insert
                    let value = map.next_value_seed(schemac_runtime::de::AnyValue)?;
                    let mut matched = false;
                    #(#checks)*
                    if !matched {
                        #otherwise
                    }
                    extra.insert(key, value);
                },
                quote! { extra, },
            )
        }
    }
}

fn string_enum(ctx: &Ctx<'_>, id: DefId, values: &[String]) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let variants = variant_idents(values);
    let docs = values.iter().map(|v| format!(" `{v:?}`"));
    let expecting = format!("one of {}", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "));
    if uses_string_enum(ctx, id) {
        // The runtime's `string_enum!` spells out the impls below and the conversions
        // (`conversions::for_def` adds none then).
        return quote! {
            #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub enum #name {
                #(#[doc = #docs] #variants,)*
            }

            ::schemac_runtime::string_enum!(#name, #expecting, [#(#variants = #values),*]);
        };
    }
    quote! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum #name {
            #(#[doc = #docs] #variants,)*
        }

        impl #name {
            /// Every allowed value, in schema order.
            pub const ALL: &'static [#name] = &[#(#name::#variants),*];

            /// The JSON string of this value.
            pub fn as_str(self) -> &'static str {
                match self {
                    #(#name::#variants => #values,)*
                }
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for #name {
            fn serialize<__S: serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                schemac_runtime::de::string(deserializer, #expecting, |s| match s {
                    #(#values => Some(#name::#variants),)*
                    _ => None,
                })
            }
        }
    }
}

/// Variant identifiers for a string enum's values, unique within the enum.
pub(super) fn variant_idents(values: &[String]) -> Vec<proc_macro2::Ident> {
    let mut taken = crate::ident::Namespace::new();
    values.iter().map(|v| ident(&taken.claim(crate::ident::variant_name(v)))).collect()
}

fn constant(ctx: &Ctx<'_>, id: DefId, value: &Value) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let impls = match value {
        Value::String(text) => {
            let expecting = format!("the constant {text:?}");
            quote! { ::schemac_runtime::constant!(#name, str = #text, #expecting); }
        }
        _ => {
            let json = value.to_string();
            quote! { ::schemac_runtime::constant!(#name, json = #json); }
        }
    };
    quote! {
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct #name;

        #impls
    }
}

fn value_enum(ctx: &Ctx<'_>, id: DefId, values: &[Value]) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let allowed = Value::Array(values.to_vec()).to_string();
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(serde_json::Value);

        ::schemac_runtime::value_enum!(#name, #allowed);
    }
}

/// A string newtype whose constructor checks its `pattern`: no public way to hold an invalid
/// value.
fn constrained(ctx: &Ctx<'_>, id: DefId, newtype: &Newtype) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let inner = ctx.rust(id, &newtype.inner);
    let pattern = newtype.pattern.as_ref().map(|pattern| {
        let pattern_static = pattern_static(&format_ident!("PATTERN"), pattern);
        quote! {
            #pattern_static
            if !PATTERN.is_match(v).map_err(|e| schemac_runtime::ConstraintError::new(e.to_string()))? {
                return Err(schemac_runtime::ConstraintError::new(format!("{v:?} does not match the pattern {:?}", PATTERN.source())));
            }
        }
    });
    let calls = newtype.assertions.iter().map(|a| seed::call(ctx, id, a));
    let check = quote! {
        #pattern
        #(#calls?;)*
        Ok(())
    };
    let eq = if matches!(newtype.inner, Ty::Number) { quote!() } else { quote!(Eq, Hash, PartialOrd, Ord,) };
    let declaration = quote! {
        #[derive(Clone, Debug, PartialEq, #eq serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(#inner);

        impl #name {
            fn check(v: &str) -> Result<(), schemac_runtime::ConstraintError> {
                #check
            }
        }
    };
    if uses_string_newtype(ctx, id) {
        return quote! {
            #declaration
            ::schemac_runtime::string_newtype!(#name);
        };
    }
    // A raw type name (`r#type`), which `stringify!` in the macro would keep: written out.
    quote! {
        #declaration

        impl #name {
            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl TryFrom<String> for #name {
            type Error = schemac_runtime::ConstraintError;
            fn try_from(text: String) -> Result<Self, Self::Error> {
                #name::check(&text).map(|()| #name(text))
            }
        }

        impl TryFrom<&str> for #name {
            type Error = schemac_runtime::ConstraintError;
            fn try_from(text: &str) -> Result<Self, Self::Error> {
                #name::check(text).map(|()| #name(text.to_owned()))
            }
        }

        impl AsRef<str> for #name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                #name::try_from(text).map_err(serde::de::Error::custom)
            }
        }
    }
}

/// Whether def `id` is a `String` newtype whose accessors and conversions (`FromStr` included)
/// come from the runtime's `string_newtype!`.
pub(super) fn uses_string_newtype(ctx: &Ctx<'_>, id: DefId) -> bool {
    let def = ctx.def(id);
    matches!(&def.kind, DefKind::Newtype(newtype) if matches!(newtype.inner, Ty::String)) && !def.name.starts_with("r#")
}

/// Whether def `id` is a string enum whose impls and conversions come from the runtime's
/// `string_enum!`.
pub(super) fn uses_string_enum(ctx: &Ctx<'_>, id: DefId) -> bool {
    let def = ctx.def(id);
    matches!(def.kind, DefKind::StringEnum(_)) && !ctx.is_open(id) && !def.name.starts_with("r#")
}
