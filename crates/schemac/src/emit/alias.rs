//! Aliases (`DefKind::Alias`): a plain `type` alias where serde's own impls agree with the
//! schema, else a transparent newtype read with schemac's seeds (a cut piece of a deep type in a
//! `Deep`, a value with assertions behind a checking constructor).

use proc_macro2::TokenStream;
use quote::quote;

use super::assert::{self as assertions, validate_impl};
use super::seed;
use super::ty::{Ctx, ident};
use crate::ir::{DefId, DefKind, Ty};

/// A plain `type` alias when serde's own impls agree with the schema; a transparent newtype
/// when the type needs schemac's seeds (integers accept `1.0`, maps reject duplicate keys).
pub(super) fn alias(ctx: &Ctx<'_>, id: DefId, ty: &Ty) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let rust = ctx.rust(id, ty);
    if is_type_alias(ctx, id) {
        return quote! { pub type #name = #rust; };
    }
    if is_cut(ty) {
        return deep_alias(ctx, id, ty);
    }
    if let Ty::Constrained(inner, assertions) = ty {
        return constrained_alias(ctx, id, inner, assertions);
    }
    let seed = ctx.seed(id, ty);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(pub #rust);

        ::schemac_runtime::newtype!(#name, #seed);
    }
}

/// Whether def `id` is emitted as a plain `type` alias, which is not a type of its own (so it
/// cannot carry trait impls).
pub(super) fn is_type_alias(ctx: &Ctx<'_>, id: DefId) -> bool {
    matches!(&ctx.def(id).kind, DefKind::Alias(ty) if serde_agrees(ty) && !mentions_alias(ctx, ty) && !is_cut(ty))
}

/// Whether an alias of `ty` is a piece of a deeper type that lowering cut (see
/// `lower::MAX_INLINE_DEPTH`): its value is held in a `schemac_runtime::Deep`, so that neither
/// rustc's trait solver nor its drop check follows a chain of them further than one piece.
fn is_cut(ty: &Ty) -> bool {
    crate::lower::inline_depth(ty) >= crate::lower::MAX_INLINE_DEPTH
}

/// The newtype of a cut piece: its value in a `Deep`, read with the seeds of its type (and
/// its assertions), written as that value.
fn deep_alias(ctx: &Ctx<'_>, id: DefId, ty: &Ty) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let rust = ctx.rust(id, ty);
    let seed = ctx.seed(id, ty);
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(pub schemac_runtime::Deep<#rust>);

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                serde::de::DeserializeSeed::deserialize(#seed, deserializer).map(|value| #name(schemac_runtime::Deep::new(value)))
            }
        }
    }
}

/// An alias of a value with assertions: a newtype whose constructor checks them, so no
/// value of it breaks them.
fn constrained_alias(ctx: &Ctx<'_>, id: DefId, inner: &Ty, assertions: &[crate::ir::Assertion]) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let rust = ctx.rust(id, inner);
    let seed = ctx.seed(id, inner);
    let check = seed::closure(ctx, id, assertions, Some(rust.clone()));
    quote! {
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct #name(#rust);

        ::schemac_runtime::constrained_newtype!(#name, #rust, #seed, #check);
    }
}

/// A `type` alias that mentions an alias may be recursive (`type T = Vec<T>`), which Rust
/// rejects; the newtype form is always valid.
fn mentions_alias(ctx: &Ctx<'_>, ty: &Ty) -> bool {
    match ty {
        Ty::Def(id) => matches!(ctx.def(*id).kind, DefKind::Alias(_)),
        Ty::Array(inner) | Ty::Map(inner) | Ty::Nullable(inner) | Ty::Constrained(inner, _) => mentions_alias(ctx, inner),
        _ => false,
    }
}

fn serde_agrees(ty: &Ty) -> bool {
    match ty {
        Ty::Integer(_) | Ty::Map(_) | Ty::Constrained(..) => false,
        Ty::Array(inner) | Ty::Nullable(inner) => serde_agrees(inner),
        _ => true,
    }
}

/// The `Validate` of an alias that is a type of its own: its value's, at the same place.
pub(super) fn validation(ctx: &Ctx<'_>, id: DefId, ty: &Ty) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let inner = assertions::validate(ctx, id, ty);
    let body = if inner.is_empty() {
        inner
    } else if is_cut(ty) {
        let rust = ctx.rust(id, ty);
        quote! { let v: &#rust = &self.0; #inner }
    } else {
        quote! { let v = &self.0; #inner }
    };
    validate_impl(&name, body)
}
