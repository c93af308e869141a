//! `include_schema!("schemas/order.json", root = "Order")`: the module `schemac compile` would
//! write for the schema, expanded in place, with the schema and every file it references as
//! inputs of the crate (editing one rebuilds it).

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{LitBool, LitStr, Token};

/// The macro's arguments: the schema's path, then `key = value` options.
struct Args {
    path: LitStr,
    root: Option<String>,
    schema_dirs: Vec<String>,
    assert_formats: bool,
    /// `rust_types = { "/definitions/task" = "crate::Task" }`: the user's types by pointer.
    rust_types: Vec<(String, String)>,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Args> {
        let path: LitStr = input.parse()?;
        let mut args = Args { path, root: None, schema_dirs: Vec::new(), assert_formats: false, rust_types: Vec::new() };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "root" => args.root = Some(input.parse::<LitStr>()?.value()),
                "schema_dir" => args.schema_dirs.push(input.parse::<LitStr>()?.value()),
                "assert_formats" => args.assert_formats = input.parse::<LitBool>()?.value,
                "rust_types" => {
                    let content;
                    syn::braced!(content in input);
                    while !content.is_empty() {
                        let pointer: LitStr = content.parse()?;
                        content.parse::<Token![=]>()?;
                        let ty: LitStr = content.parse()?;
                        args.rust_types.push((pointer.value(), ty.value()));
                        if !content.is_empty() {
                            content.parse::<Token![,]>()?;
                        }
                    }
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`\nhint: the options are `root = \"Name\"`, `schema_dir = \"dir\"`, `assert_formats = true` and `rust_types = {{ \"/pointer\" = \"path::Type\" }}`"
                        ),
                    ));
                }
            }
        }
        Ok(args)
    }
}

/// `source_dir` is the directory of the invoking file, where a path not under the crate's
/// directory is looked up (for crates built away from their sources, as trybuild's are).
pub fn expand(input: TokenStream, source_dir: Option<&Path>) -> TokenStream {
    let args: Args = match syn::parse2(input) {
        Ok(args) => args,
        Err(err) => return err.to_compile_error(),
    };
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    let relative = args.path.value();
    let mut path = manifest_dir.join(&relative);
    if let Some(beside) = source_dir.map(|dir| dir.join(&relative)).filter(|p| !path.exists() && p.exists()) {
        path = beside;
    }
    let mut source = schemac::SchemaSource::new(path).display(relative.clone());
    source.root_name = args.root.clone();
    let input = args.schema_dirs.iter().fold(schemac::Input::new([source]), |input, dir| input.catalog_dir(manifest_dir.join(dir)));
    let config = args.rust_types.iter().fold(
        schemac::Config::default().regenerate_command(format!("include_schema!({relative:?})")).assert_formats(args.assert_formats),
        |config, (pointer, ty)| {
            config.type_settings(relative.clone(), pointer.clone(), schemac::TypeSettings::default().rust_type(ty.clone()))
        },
    );
    let compiled = {
        let _fallback = Fallback::force();
        schemac::compile_reading(&input, &config).map(|(output, read)| (schemac::includable(&output), read))
    };
    match compiled {
        Ok((code, read)) => module(&code, &read, args.path.span()),
        Err(diagnostics) => {
            // Every error, each with file, pointer, line:column and hint, on the path.
            let errors = diagnostics.iter().map(|d| syn::Error::new(args.path.span(), d.to_string()).to_compile_error());
            quote! { #(#errors)* }
        }
    }
}

/// proc-macro2's own token implementation while it lives. The library runs its back end on a
/// thread of its own (a schema nested 256 deep needs more stack than rustc gives a macro), and
/// the compiler's `proc_macro` API panics off the macro's thread ("procedural macro API is used
/// outside of a procedural macro"); the library returns text, which is parsed into the
/// compiler's tokens after this is dropped.
struct Fallback;

impl Fallback {
    fn force() -> Fallback {
        proc_macro2::fallback::force();
        Fallback
    }
}

impl Drop for Fallback {
    fn drop(&mut self) {
        proc_macro2::fallback::unforce();
    }
}

/// The generated items (text), and an `include_bytes!` of each file read so the compiler tracks it.
fn module(code: &str, read: &[PathBuf], span: Span) -> TokenStream {
    let items: TokenStream = match code.parse() {
        Ok(items) => items,
        Err(err) => return syn::Error::new(span, format!("schemac generated code that does not parse (a bug): {err}")).to_compile_error(),
    };
    let files = read.iter().filter_map(|path| Path::to_str(path)).map(|path| quote! { const _: &[u8] = ::core::include_bytes!(#path); });
    quote! {
        #(#files)*
        #items
    }
}
