//! `#[derive(Conforms)]`: checks at compile time that a hand-written struct or enum matches a
//! node of a JSON Schema, and fails the build, pointing at the field, when they drift apart.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize, schemac_runtime::Conforms)]
//! #[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
//! #[serde(deny_unknown_fields)]
//! struct Attempt {
//!     attempt: u8,
//!     execution: String,
//!     accepted: bool,
//!     score: f64,
//!     feedback: Option<String>,
//! }
//! ```
//!
//! The schema is compiled with the schemac library, as for the generated types, and the
//! type is compared with the IR of the node: properties and fields (serde's `rename`,
//! `rename_all`, `flatten`, `default`, `skip*` and `skip_serializing_if` honoured), required,
//! nullable and optional against `T`, `Option` and `Tristate`, JSON types and integer ranges,
//! string enums against unit variants, `additionalProperties` against
//! `deny_unknown_fields` and a flattened map. A field whose schema is another node requires
//! its type to implement `schemac_runtime::Conforms` for that node. The derive implements
//! `Conforms` and `SchemaBound` for the type, `schemars::JsonSchema` (the node's source
//! subschema, bundled as generated types do it) and `schemac_runtime::Validate` (the
//! assertions the Rust types cannot express, such as `maximum` on an `f64` or `pattern` on a
//! `String`), as generated types do.
//!
//! The pipeline: `attrs` → `schema` (load the node) → `check` → `expand`, which
//! emits `json_schema` and `validate` too.

mod attrs;
mod case;
mod check;
mod errors;
mod expand;
mod include;
mod json_schema;
mod raw;
mod rust_ty;
mod schema;
mod validate;

use proc_macro::TokenStream;

/// `include_schema!("schemas/order.json", root = "Order")`: the types `schemac compile` would
/// write for the schema (path relative to the crate's directory), expanded in place; options
/// `schema_dir = "dir"` (repeatable) and `assert_formats = true`. The schema and every file it
/// references are inputs of the crate, so editing one rebuilds it. Schema errors are compile
/// errors with file, pointer, line:column and hint.
#[proc_macro]
pub fn include_schema(input: TokenStream) -> TokenStream {
    let source_dir =
        proc_macro::Span::call_site().local_file().and_then(|file| Some(std::env::current_dir().ok()?.join(file).parent()?.to_path_buf()));
    include::expand(input.into(), source_dir.as_deref()).into()
}

/// See the crate documentation.
#[proc_macro_derive(Conforms, attributes(schemac))]
pub fn derive_conforms(input: TokenStream) -> TokenStream {
    let input = match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error().into(),
    };
    // A bug in the check must not take the build down with a panic message: it becomes an
    // ordinary error on the type.
    // The file that derives, for schema paths relative to it (rustc may name it relative to
    // its working directory). A test harness such as trybuild builds the file from a crate
    // directory of its own, under the target directory, far from the workspace's `schemas/`.
    let source_dir =
        proc_macro::Span::call_site().local_file().and_then(|file| Some(std::env::current_dir().ok()?.join(file).parent()?.to_path_buf()));
    match std::panic::catch_unwind(|| expand::derive(&input, source_dir.as_deref())) {
        Ok(tokens) => tokens.into(),
        Err(_) => {
            syn::Error::new(input.ident.span(), "internal error in `#[derive(Conforms)]`; please report it with this type and its schema")
                .to_compile_error()
                .into()
        }
    }
}
