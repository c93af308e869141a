//! The derive's output: the `Conforms`, `SchemaBound`, `JsonSchema` and `Validate` impls, the assertions that nested
//! types conform to their nodes, the schema files as compiler inputs, and the errors.

use proc_macro2::Literal;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::attrs;
use crate::check::{self, Bound};
use crate::errors::Errors;
use crate::schema::{self, Schema};
use crate::{json_schema, validate};

/// `#[derive(Conforms)]`: parse the attributes, load the node, check, emit. `source_dir` is
/// the directory of the file that derives, when the compiler says.
pub fn derive(input: &DeriveInput, source_dir: Option<&std::path::Path>) -> TokenStream {
    let mut errors = Errors::default();
    let container = attrs::container(&input.attrs, &mut errors);
    if !input.generics.params.is_empty() {
        let message =
            "`#[derive(Conforms)]` does not support generic types yet\nhint: check a non-generic type, e.g. one per instantiation";
        errors.push(syn::Error::new(input.generics.span(), message));
        return errors.to_tokens();
    }
    let Some(schema_path) = &container.schema else {
        let message = "which schema? add `#[schemac(schema = \"path/to/schema.json\", pointer = \"/$defs/name\")]`\n\
                       hint: the path is relative to the crate's directory; leave `pointer` out for the document root";
        errors.push(syn::Error::new(input.ident.span(), message));
        return errors.to_tokens();
    };
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from).unwrap_or_default();
    let schema = match schema::load(&manifest_dir, source_dir, schema_path, container.pointer.as_ref()) {
        Ok(schema) => schema,
        Err(err) => {
            errors.push(err);
            return errors.to_tokens();
        }
    };
    let outcome = check::check(input, &container, &schema, &mut errors);
    let mut out = errors.to_tokens();
    // The impls are emitted even when the check fails, so that types using this one report
    // only their own mismatches; `validate` then checks nothing, since its calls assume the
    // field types the check demands.
    out.extend(impls(input, &schema));
    out.extend(json_schema::json_schema_impl(&input.ident, &schema, &outcome.bounds));
    out.extend(validate::validate_impl(&input.ident, &schema, &outcome, errors.is_empty()));
    out.extend(outcome.bounds.iter().enumerate().map(|(i, bound)| assertion(&input.ident, i, bound)));
    out
}

fn impls(input: &DeriveInput, schema: &Schema) -> TokenStream {
    let ident = &input.ident;
    let node = node_id(&schema.target_key());
    let schema_id = schema.schema_id();
    let source_path = &schema.display;
    let sha256 = schema.sha256();
    let pointer = &schema.pointer;
    let text = schema.subschema_text();
    // Each file the check read is an input of the crate: editing it runs the check again.
    let files = schema.files.iter().filter_map(|path| path.to_str()).map(|path| quote! { const _: &[u8] = ::core::include_bytes!(#path); });
    quote! {
        #(#files)*

        impl ::schemac_runtime::Conforms<#node> for #ident {}

        impl ::schemac_runtime::SchemaBound for #ident {
            const SCHEMA_ID: &'static str = #schema_id;
            const SOURCE_PATH: &'static str = #source_path;
            const SOURCE_SHA256: &'static str = #sha256;
            const POINTER: &'static str = #pointer;

            fn schema() -> &'static ::schemac_runtime::__private::serde_json::Value {
                static SCHEMA: ::std::sync::OnceLock<::schemac_runtime::__private::serde_json::Value> = ::std::sync::OnceLock::new();
                SCHEMA.get_or_init(|| ::schemac_runtime::__private::literal(#text))
            }
        }
    }
}

/// `ty: Conforms<{ node_id(key) }>`, through a local trait whose diagnostic names the node,
/// the field and the fix, and spanned on the field's type. The one generic call that asserts
/// it also hands the field type's `JsonSchema` and `Validate` to `Nested<i>`, which the
/// other impls use: a type that does not conform is then one error, not three.
fn assertion(ident: &syn::Ident, i: usize, bound: &Bound<'_>) -> TokenStream {
    let ty = bound.ty;
    let id = node_id(&bound.key);
    let node = &bound.node;
    let trait_name = format_ident!("ConformsTo{i}");
    let message = format!("`{{Self}}` is not checked against `{node}`");
    let label = format!("{} must conform to `{node}`", bound.place);
    let note = format!("derive `schemac_runtime::Conforms` on `{{Self}}` with `{}`", bound.derive_hint);
    let span = ty.span();
    let rt = quote!(::schemac_runtime);
    quote_spanned! {span=>
        const _: () = {
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            trait #trait_name: #rt::Conforms<#id> {}
            impl<T: ?::core::marker::Sized + #rt::Conforms<#id>> #trait_name for T {}
            #[allow(clippy::type_complexity)]
            fn conforms<T: ?::core::marker::Sized + #trait_name>() -> (
                fn(&mut #rt::schemars::SchemaGenerator) -> #rt::schemars::Schema,
                fn(&T, &#rt::__private::validate::Path<'_>, &mut #rt::ValidationErrors),
            ) {
                (|generator| generator.subschema_for::<T>(), |v, at, errors| #rt::Validate::validate_at(v, at, errors))
            }
            impl #rt::__private::Nested<#i> for #ident {
                type Field = #ty;
                fn parts() -> (
                    fn(&mut #rt::schemars::SchemaGenerator) -> #rt::schemars::Schema,
                    fn(&Self::Field, &#rt::__private::validate::Path<'_>, &mut #rt::ValidationErrors),
                ) {
                    conforms::<#ty>()
                }
            }
        };
    }
}

/// `schemac_runtime::node_id(key)`, as a literal: the derive cannot depend on the runtime (the
/// runtime re-exports the derive), so the hash is computed here too; a test checks that the
/// two agree. A literal also reads better than a const block in rustc's messages.
fn node_id(key: &str) -> Literal {
    Literal::u64_suffixed(fnv1a(key))
}

/// 64-bit FNV-1a, as `schemac_runtime::node_id`.
pub(crate) fn fnv1a(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_ids_agree_with_the_runtime() {
        for key in ["", "a", "urn:madoo:schema:attempts-report:v1#/$defs/attempt", "enum:[\"designer\"]"] {
            assert_eq!(super::fnv1a(key), schemac_runtime::node_id(key), "{key}");
        }
    }
}
