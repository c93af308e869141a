//! Attributes the configuration adds to a generated type's declaration (`#[non_exhaustive]`,
//! derives and attributes, crate-wide and per type) and a derived `Default` where
//! [`defaults`](super::defaults) decides the derived value is the default,
//! applied to the item the other emitters wrote, so that they need not know the options.

use proc_macro2::TokenStream;
use quote::ToTokens;

use super::ty::Ctx;
use crate::Config;
use crate::ir::DefId;

/// `tokens` (a def's items) with the configured attributes on the declaration of def `id`,
/// and `Default` in its derive list when `derive_default`.
pub(super) fn decorate(ctx: &Ctx<'_>, id: DefId, tokens: TokenStream, config: &Config, derive_default: bool) -> TokenStream {
    let def = ctx.def(id);
    let mut attrs: Vec<syn::Attribute> = Vec::new();
    if config.is_non_exhaustive(&def.kind) {
        attrs.push(syn::parse_quote!(#[non_exhaustive]));
    }
    let own = super::derives::settings(ctx.ir, config, def).is_some_and(|s| !s.derives.is_empty() || !s.attributes.is_empty());
    if attrs.is_empty() && config.derives.is_empty() && config.attributes.is_empty() && !own && !derive_default {
        return tokens;
    }
    let Ok(mut file) = syn::parse2::<syn::File>(tokens.clone()) else { return tokens };
    let name = def.name.trim_start_matches("r#");
    for item in &mut file.items {
        let (ident, item_attrs) = match item {
            syn::Item::Struct(s) => (&s.ident, &mut s.attrs),
            syn::Item::Enum(e) => (&e.ident, &mut e.attrs),
            _ => continue,
        };
        if ident == name {
            if derive_default {
                add_default(item_attrs);
            }
            let existing = derived(item_attrs);
            item_attrs.extend(attrs);
            item_attrs.extend(super::derives::attributes(ctx.ir, config, def, &existing));
            break;
        }
    }
    file.into_token_stream()
}

/// `Default` added to the first `#[derive(...)]` list of `attrs`, after `Debug` (where the
/// standard derives read in the order generated declarations write them).
fn add_default(attrs: &mut Vec<syn::Attribute>) {
    use syn::punctuated::Punctuated;
    let Some(attr) = attrs.iter_mut().find(|a| a.path().is_ident("derive")) else {
        attrs.push(syn::parse_quote!(#[derive(Default)]));
        return;
    };
    let Ok(paths) = attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else { return };
    let mut paths: Vec<syn::Path> = paths.into_iter().collect();
    let at = paths.iter().position(|p| p.is_ident("Debug")).map_or(paths.len(), |i| i + 1);
    paths.insert(at, syn::parse_quote!(Default));
    *attr = syn::parse_quote!(#[derive(#(#paths),*)]);
}

/// The paths an item's `#[derive(...)]` attributes name, as written (`serde::Serialize`).
fn derived(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut names = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            names.push(meta.path.to_token_stream().to_string().replace(' ', ""));
            Ok(())
        });
    }
    names
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn compile(schema: &str, config: &Config) -> String {
        super::super::testing::compile_one(schema, config).unwrap().single_file()
    }

    #[test]
    fn non_exhaustive_marks_what_can_grow_and_only_when_asked() {
        let schema = r#"{"type": "object", "properties": {
            "kind": {"enum": ["a", "b"]},
            "either": {"type": ["string", "integer"]},
            "tag": {"const": "t"},
            "code": {"type": "string", "pattern": "^[a-z]+$"}
        }}"#;
        let marked = compile(schema, &Config { non_exhaustive: true, ..Config::default() });
        let before = |name: &str| {
            let at = marked.find(name).unwrap_or_else(|| panic!("{name} in {marked}"));
            marked[..at].lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or_default().to_owned()
        };
        for declaration in ["pub struct Root {", "pub enum RootKind {", "pub enum RootEither {"] {
            assert_eq!(before(declaration), "#[non_exhaustive]", "{declaration}");
        }
        // A unit struct stays constructible; a newtype's field is private anyway.
        assert_eq!(marked.matches("#[non_exhaustive]").count(), 3, "{marked}");
        assert!(!compile(schema, &Config::default()).contains("non_exhaustive"));
    }
}
