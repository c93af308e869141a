//! Builders for structs (`Goal::builder()...build()`): required properties tracked in the
//! builder's type, so leaving one out is a compile error naming it; setters taking any value
//! that converts (`schemac_runtime::builder::Assign`); `build()` validates. The logic lives in
//! `schemac_runtime::builder`; what is emitted per struct is its field list and one short setter
//! per property.
//!
//! A struct with more than [`MAX_REQUIRED`] required properties gets a builder that checks them
//! at run time instead: each setter of a typestate builder names every state parameter, so its
//! code grows with the square of their number (20,000 required properties would be 400 million
//! tokens). Its `build()` reports each required property not set as a `required` violation at
//! its pointer, with every other violation. With `#[non_exhaustive]` types (a project's
//! default), a builder is how downstream code makes a struct, so every struct has one.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::items::field_types;
use super::ty::{Ctx, ident};
use crate::ident::Namespace;
use crate::ir::{DefId, DefKind, Rest, Struct, Ty};

/// The most required properties a struct's builder tracks in its type; past them, it checks
/// them when `build()` runs.
pub const MAX_REQUIRED: usize = 64;

/// The names the builders of one module use, claimed after the schema's own type names so
/// that they never collide with one.
pub(super) struct Names {
    /// The hidden module of the unset-state markers, one per required field name.
    fields: String,
    /// Per struct: its builder, the builder's private field store, and whether the builder
    /// tracks the required properties in its type (at most [`MAX_REQUIRED`] of them).
    structs: BTreeMap<DefId, (String, String, bool)>,
    /// The type parameters' names (`S0`, `S1`, ...), none of them a type of the module.
    params: Vec<String>,
}

/// Names for the builders of `defs`, the defs of the module at `path`. A struct merged into
/// another (`merged`, see `dedup`) is that one, and has its builder.
pub(super) fn names(ctx: &Ctx<'_>, path: &[String], defs: &[DefId], merged: &BTreeMap<DefId, DefId>) -> Names {
    let mut types = Namespace::with_reserved(crate::name::RESERVED_TYPE_NAMES);
    for &id in defs {
        types.claim(ctx.def(id).name.clone());
    }
    let mut structs = BTreeMap::new();
    let mut most = 0;
    for &id in defs {
        if let DefKind::Struct(s) = &ctx.def(id).kind
            && !ctx.ir.rust_types.contains_key(&id)
            && !merged.contains_key(&id)
        {
            // `Self_` (a def named `Self`) gets `SelfBuilder`: `Self_Builder` is no camel case.
            let name = ctx.def(id).name.trim_end_matches('_');
            let builder = types.claim(format!("{name}Builder"));
            let parts = types.claim(format!("{name}BuilderParts"));
            let required = s.fields.iter().filter(|f| f.required).count();
            let typestate = required <= MAX_REQUIRED;
            structs.insert(id, (builder, parts, typestate));
            if typestate {
                most = most.max(required);
            }
        }
    }
    let params = (0..most).map(|i| types.claim(format!("S{i}"))).collect();
    // A child module (a schema in a directory named like this one's file) takes precedence.
    let mut modules = Namespace::new();
    for doc in ctx.ir.sources.documents.values() {
        if doc.module.len() == path.len() + 1 && doc.module.starts_with(path) {
            modules.claim(doc.module[path.len()].clone());
        }
    }
    Names { fields: modules.claim("builder_fields".to_owned()), structs, params }
}

/// The module of markers for the required fields of the module's structs.
pub(super) fn markers(ctx: &Ctx<'_>, names: &Names) -> TokenStream {
    let mut fields = std::collections::BTreeSet::new();
    for (id, _) in names.structs.iter().filter(|(_, (_, _, typestate))| *typestate) {
        if let DefKind::Struct(s) = &ctx.def(*id).kind {
            let setters = setter_names(s);
            fields.extend(s.fields.iter().zip(setters).filter(|(f, _)| f.required).map(|(_, setter)| setter));
        }
    }
    if fields.is_empty() {
        return quote!();
    }
    let module = ident(&names.fields);
    let markers = fields.iter().map(|field| {
        let doc = format!(" A builder whose required property `{}` is not set yet.", field.trim_start_matches("r#"));
        let name = ident(field);
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug)]
            pub struct #name;
        }
    });
    quote! {
        /// The states of builders' required properties before their setters are called: the
        /// type a missing property's compile error names.
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        pub mod #module {
            #(#markers)*
        }
    }
}

/// `Name::builder()`, the builder struct, its setters and `build()`.
pub(super) fn builder(ctx: &Ctx<'_>, id: DefId, s: &Struct, names: &Names) -> TokenStream {
    let Some((builder_name, parts_name, typestate)) = names.structs.get(&id) else { return quote!() };
    let typestate = *typestate;
    let def = ctx.def(id);
    let name = ident(&def.name);
    let builder = ident(builder_name);
    let parts = ident(parts_name);
    let module = ident(&names.fields);
    let rt = quote!(schemac_runtime::builder);
    let required: Vec<usize> = (0..s.fields.len()).filter(|&i| s.fields[i].required).collect();
    // A builder checked at run time has no state parameters.
    let params: Vec<_> = if typestate { names.params[..required.len()].iter().map(|p| ident(p)).collect() } else { Vec::new() };
    let setter_names = setter_names(s);
    let defaults = required.iter().zip(&params).map(|(&i, param)| {
        let marker = ident(&setter_names[i]);
        quote!(#param = #module::#marker)
    });
    let mut slots = Vec::new();
    let mut setters = Vec::new();
    let mut inits = Vec::new();
    for (i, field) in s.fields.iter().enumerate() {
        let rust_name = ident(&field.rust_name);
        let setter = ident(&setter_names[i]);
        let json = &field.json_name;
        let (field_ty, parsed, _) = field_types(ctx, id, field);
        let plain = field.rust_name.trim_start_matches("r#");
        let mut doc = if field.rust_name.starts_with("r#") {
            format!(" Sets `{plain}` (the property `{json}`).")
        } else {
            format!(" Sets [`{}::{plain}`].", def.name)
        };
        if setter_names[i] != field.rust_name {
            doc.push_str(&format!(" Not `{plain}()`: the builder's own method has that name."));
        }
        let setter = match (field.required, &field.ty) {
            (true, _) if !typestate => {
                slots.push(quote! { #rust_name: Option<#field_ty>, });
                inits.push(quote! { #rust_name: p.#rust_name?, });
                quote! {
                    #[doc = #doc]
                    pub fn #setter(self, value: impl #rt::Assign<#field_ty>) -> Self {
                        #builder(self.0.set(|p| &mut p.#rust_name, #json, value))
                    }
                }
            }
            (true, _) => {
                let position = required.iter().position(|&r| r == i).unwrap_or_default();
                let state = params.iter().enumerate().map(|(k, p)| if k == position { quote!(#rt::Set) } else { quote!(#p) });
                slots.push(quote! { #rust_name: Option<#field_ty>, });
                inits.push(quote! { #rust_name: p.#rust_name?, });
                quote! {
                    #[doc = #doc]
                    pub fn #setter(self, value: impl #rt::Assign<#field_ty>) -> #builder<#(#state),*> {
                        #builder(self.0.set(|p| &mut p.#rust_name, #json, value))
                    }
                }
            }
            (false, Ty::Nullable(inner)) => {
                let inner = ctx.rust(id, inner);
                slots.push(quote! { #rust_name: #field_ty, });
                inits.push(quote! { #rust_name: p.#rust_name, });
                quote! {
                    #[doc = #doc]
                    #[doc = " `None` writes `null`; without a call the property is absent."]
                    pub fn #setter(self, value: impl #rt::Assign<Option<#inner>>) -> Self {
                        #builder(self.0.set_tristate(|p| &mut p.#rust_name, #json, value))
                    }
                }
            }
            (false, _) => {
                slots.push(quote! { #rust_name: #field_ty, });
                inits.push(quote! { #rust_name: p.#rust_name, });
                quote! {
                    #[doc = #doc]
                    pub fn #setter(self, value: impl #rt::Assign<#parsed>) -> Self {
                        #builder(self.0.set(|p| &mut p.#rust_name, #json, value))
                    }
                }
            }
        };
        setters.push(setter);
    }
    let declared: Vec<&str> = s.fields.iter().map(|f| f.json_name.as_str()).collect();
    let extra_doc = quote! {
        /// Adds the property `name`, which the schema does not declare (a declared one is a
        /// violation `build()` reports: it has its own setter).
    };
    let (extra_slot, extra_setter) = match &s.rest {
        Rest::Closed => (quote!(), quote!()),
        Rest::Open => (
            quote! { extra: schemac_runtime::Extra, },
            quote! {
                #extra_doc
                pub fn extra(self, name: &str, value: impl serde::Serialize) -> Self {
                    #builder(self.0.undeclared_json(&[#(#declared),*], name, value, |p, v| p.extra.insert(name, &v)))
                }
            },
        ),
        Rest::Typed(ty) => {
            let value_ty = ctx.rust(id, ty);
            (
                quote! { extra: std::collections::BTreeMap<String, #value_ty>, },
                quote! {
                    #extra_doc
                    pub fn extra(self, name: &str, value: impl #rt::Assign<#value_ty>) -> Self {
                        #builder(self.0.undeclared(&[#(#declared),*], name, value, |p, v| {
                            p.extra.insert(name.to_owned(), v);
                        }))
                    }
                },
            )
        }
        Rest::Patterns { .. } => (
            quote! { extra: serde_json::Map<String, serde_json::Value>, },
            quote! {
                #extra_doc
                pub fn extra(self, name: &str, value: impl serde::Serialize) -> Self {
                    #builder(self.0.undeclared_json(&[#(#declared),*], name, value, |p, v| {
                        p.extra.insert(name.to_owned(), v);
                    }))
                }
            },
        ),
    };
    if !matches!(s.rest, Rest::Closed) {
        inits.push(quote! { extra: p.extra, });
    }
    let bounds = params.iter().map(|p| quote!(#p: #rt::IsSet<#name>));
    // A setter's return type names every state parameter: past ten, clippy calls it complex.
    let complexity = (params.len() > 10).then(|| quote!(#[allow(clippy::type_complexity)]));
    let list: Vec<String> = required.iter().map(|&i| format!("`{}`", setter_names[i].trim_start_matches("r#"))).collect();
    let tracked = if list.is_empty() {
        String::from(" It has no required properties.")
    } else if !typestate {
        format!(
            " It has {} required properties, more than a builder tracks in its type ({MAX_REQUIRED}): `build()` reports each one not set.",
            list.len()
        )
    } else {
        format!(" Its type parameters track the required properties ({}): `build()` compiles once each is set.", list.join(", "))
    };
    // The required properties `build()` checks at run time, each with whether it is set.
    let build = if typestate {
        quote! { self.0.build(|p| Some(#name { #(#inits)* })) }
    } else {
        let checks = required.iter().map(|&i| {
            let (json, field) = (&s.fields[i].json_name, ident(&s.fields[i].rust_name));
            quote! { (#json, p.#field.is_some()), }
        });
        quote! { self.0.build_checked(|p| vec![#(#checks)*], |p| Some(#name { #(#inits)* })) }
    };
    let builder_doc = format!(
        " Builds a [`{}`]: start with [`{}::builder`], call a setter per property, then `build()`.",
        super::ty::type_link(&def.name),
        def.name
    );
    let start_doc = if typestate {
        format!(
            " A builder for a `{}`: required properties are checked at compile time, the value against its schema by `build()`.",
            def.name
        )
    } else {
        format!(" A builder for a `{}`: `build()` checks the required properties and the value against its schema.", def.name)
    };
    quote! {
        impl #name {
            #[doc = #start_doc]
            pub fn builder() -> #builder {
                #builder(::core::default::Default::default())
            }
        }

        #[doc = #builder_doc]
        #[doc = ""]
        #[doc = #tracked]
        #[derive(Clone, Debug)]
        #[must_use = "a builder does nothing until `build()` is called"]
        #[allow(clippy::type_complexity)]
        pub struct #builder<#(#defaults),*>(#rt::Builder<#parts, (#(#params,)*)>);

        #[derive(Clone, Debug, Default)]
        struct #parts {
            #(#slots)*
            #extra_slot
        }

        #complexity
        impl<#(#params),*> #builder<#(#params),*> {
            #(#setters)*
            #extra_setter

            /// The value, if it satisfies its schema; otherwise every violation, each with its
            /// pointer (values a setter could not convert first, then what `validate()` finds).
            pub fn build(self) -> Result<#name, schemac_runtime::ValidationErrors>
            where
                #(#bounds,)*
            {
                #build
            }
        }
    }
}

/// The methods of every builder besides its setters (its `extra` is there only for a struct
/// whose field namespace reserves `extra` already, so no property takes it).
const BUILDER_METHODS: &[&str] = &["build"];

/// Each field's setter name: the field's, unless a builder method has it (a property named
/// `build` is set with `build_2()`), deterministic and collision-free.
fn setter_names(s: &Struct) -> Vec<String> {
    let mut names = Namespace::with_reserved(BUILDER_METHODS);
    s.fields.iter().map(|field| names.claim(field.rust_name.clone())).collect()
}

/// `Assign` from the raw value for a type whose constructor checks it: a setter then takes
/// `"goal_1"` for a `GoalId`, and `build()` reports a value that does not match.
pub(super) fn raw_assign(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    let rt = quote!(schemac_runtime::builder);
    // A pattern newtype's error is a `ConstraintError` already; a constrained alias's a `Violation`.
    let (raw, convert): (Vec<TokenStream>, TokenStream) = match &def.kind {
        // String enums and pattern newtypes: `TryFrom<&str>` and `TryFrom<String>`.
        DefKind::Newtype(newtype) if matches!(newtype.inner, Ty::String) => (vec![quote!(&str), quote!(String)], quote!()),
        // An open enum is `From<&str>`, which the blanket `Assign` covers.
        DefKind::StringEnum(_) if !ctx.is_open(id) => (vec![quote!(&str), quote!(String)], quote!()),
        DefKind::Alias(Ty::Constrained(inner, _)) if !super::alias::is_type_alias(ctx, id) => {
            (vec![ctx.rust(id, inner)], quote!(.map_err(schemac_runtime::ConstraintError::from)))
        }
        _ => return quote!(),
    };
    let impls = raw.iter().map(|raw| {
        quote! {
            impl #rt::Assign<#name> for #raw {
                fn assign(self) -> Result<#name, schemac_runtime::ConstraintError> {
                    #name::try_from(self) #convert
                }
            }
        }
    });
    quote! { #(#impls)* }
}

/// What def `id` adds for builders: a struct's builder, a checked type's raw `Assign`s.
pub(super) fn for_def(ctx: &Ctx<'_>, id: DefId, names: &Names) -> TokenStream {
    match &ctx.def(id).kind {
        DefKind::Struct(s) => builder(ctx, id, s, names),
        _ => raw_assign(ctx, id),
    }
}
