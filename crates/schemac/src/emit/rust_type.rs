//! A def replaced by the user's type (`Ir::rust_types`): a `type` alias of it, so every use
//! of the generated name is the user's type, and a compile-time assertion that the type
//! conforms to the def's schema node (`#[derive(Conforms)]` for it), so one that drifts from
//! the schema fails to build with the derive's messages, and one that is not checked at all
//! with a message that says how to check it.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::ty::{Ctx, docs, ident};
use crate::ir::{DefId, RustType};

/// The alias and the assertion.
pub(super) fn def(ctx: &Ctx<'_>, id: DefId, replacement: &RustType) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    let doc = docs(&def.docs, &[]);
    let separator = (!doc.is_empty()).then(|| quote!(#[doc = ""]));
    let display = &ctx.doc(def.origin.doc).display;
    let pointer = &def.origin.pointer;
    let line = format!(
        " The user's type for the schema at `{pointer}` ({}): it is checked at compile time to conform to that schema (`#[derive(schemac_runtime::Conforms)]` on it, for `{}`).",
        replacement.asked_by, replacement.key
    );
    // The path was checked to parse when the replacement was attached.
    let path: syn::Type = syn::parse_str(&replacement.path).unwrap_or_else(|_| syn::parse_quote!(()));
    let id_literal = Literal::u64_suffixed(crate::rust_type::node_id(&replacement.key));
    let trait_name = format_ident!("Replaces{}", def.name.trim_start_matches("r#"));
    let message = format!("`{{Self}}` replaces the generated `{}` but is not checked against `{}`", def.name, replacement.key);
    let label = format!("the type of `{display}#{pointer}` ({})", replacement.asked_by);
    let note =
        format!("derive `schemac_runtime::Conforms` on `{{Self}}` with `#[schemac(schema = \"{display}\", pointer = \"{pointer}\")]`");
    let rt = quote!(::schemac_runtime);
    quote! {
        #doc
        #separator
        #[doc = #line]
        pub type #name = #path;

        const _: () = {
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            trait #trait_name: #rt::Conforms<#id_literal> {}
            impl<T: ?::core::marker::Sized + #rt::Conforms<#id_literal>> #trait_name for T {}
            // What the generated code that holds the type needs of it besides.
            fn replaces<
                T: #trait_name
                    + ::core::clone::Clone
                    + ::core::fmt::Debug
                    + ::core::cmp::PartialEq
                    + ::serde::Serialize
                    + ::serde::de::DeserializeOwned,
            >() {
            }
            let _ = replaces::<#path>;
        };
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, TypeSettings};

    const SCHEMA: &str = r##"{"type": "object", "properties": {"item": {"$ref": "#/$defs/item"}, "kind": {"enum": ["a", "b"]}},
        "$defs": {"item": {"type": "object", "properties": {"n": {"type": "integer"}}}, "code": {"type": "string"}}}"##;

    fn compile(schema: &str, types: &[(&str, &str)]) -> Result<String, String> {
        let settings = types
            .iter()
            .map(|(p, t)| (p.to_string(), TypeSettings { rust_type: Some(t.to_string()), ..TypeSettings::default() }))
            .collect();
        let config = Config { types: [("s.json".to_owned(), settings)].into_iter().collect(), ..Config::default() };
        super::super::testing::compile_one(schema, &config).map(|o| super::super::testing::flat(&o)).map_err(|d| d.to_string())
    }

    #[test]
    fn a_replaced_def_is_an_alias_of_the_users_type_checked_against_its_node() {
        let code = compile(SCHEMA, &[("/$defs/item", "my_crate::Item"), ("/properties/kind", "my_crate::Kind")]).unwrap();
        assert!(code.contains("pub type Item = my_crate::Item;"), "{code}");
        assert!(!code.contains("pub struct Item"), "{code}");
        // The node as the derive names it: the path (no `$id`) and the pointer; a string enum by its values.
        let item = crate::rust_type::node_id("s.json#/$defs/item");
        assert!(code.contains(&format!("trait ReplacesItem: ::schemac_runtime::Conforms<{item}u64> {{}}")), "{code}");
        let kind = crate::rust_type::node_id(r#"enum:["a","b"]"#);
        assert!(code.contains(&format!("::schemac_runtime::Conforms<{kind}u64>")), "{code}");
        assert!(code.contains("let _ = replaces::<my_crate::Item>;"), "{code}");
        // Uses of the generated name stay: they are the user's type now.
        assert!(code.contains("pub item: ::core::option::Option<Item>,"), "{code}");
        assert!(!code.contains("JsonSchema for Item"), "{code}");
        assert!(!code.contains("ItemBuilder"), "{code}");
    }

    #[test]
    fn a_pointer_without_a_type_is_an_error_naming_the_pointers_that_have_one() {
        let errors = compile(SCHEMA, &[("/$defs/itme", "my_crate::Item")]).unwrap_err();
        assert!(
            errors.contains("error[unknown-type-pointer]: s.json at /$defs/itme: cannot set the type at `/$defs/itme`: the pointer `/$defs/itme` is no schema in the file"),
            "{errors}"
        );
        assert!(errors.contains("hint: the pointers with a type of their own are `/$defs/item`, `/properties/kind`"), "{errors}");
        let errors = compile(SCHEMA, &[("/$defs/code", "my_crate::Code")]).unwrap_err();
        assert!(errors.contains("the pointer `/$defs/code` has no type of its own"), "{errors}");
        let errors = compile(SCHEMA, &[("/$defs/item", "not a type")]).unwrap_err();
        assert!(errors.contains("error[bad-rust-type]") && errors.contains("`not a type`"), "{errors}");
        let errors = compile(SCHEMA, &[("", "my_crate::Root")]).unwrap_err();
        assert!(errors.contains("is the schema's root type, which cannot be replaced"), "{errors}");
    }

    #[test]
    fn x_rust_type_replaces_as_typify_does() {
        let schema = SCHEMA.replace(
            r#""item": {"type": "object","#,
            r#""item": {"x-rust-type": {"crate": "my-crate", "version": "1.2", "path": "my_crate::Item"}, "type": "object","#,
        );
        let code = compile(&schema, &[]).unwrap();
        assert!(code.contains("pub type Item = ::my_crate::Item;"), "{code}");
        assert!(code.contains("(`x-rust-type` in the schema)"), "{code}");
        let bad = SCHEMA.replace(r#""item": {"type": "object","#, r#""item": {"x-rust-type": "my_crate::Item", "type": "object","#);
        let errors = compile(&bad, &[]).unwrap_err();
        assert!(errors.contains("error[bad-rust-type]: s.json at /$defs/item/x-rust-type: `x-rust-type` must be an object with the strings `crate`, `version` and `path`"), "{errors}");
    }
}
