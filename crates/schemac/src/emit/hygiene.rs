//! Hygiene: the paths of the emitted code that name something outside the generated crate are
//! made absolute, so that no type or module a schema produces can shadow them.
//!
//! A schema can name a definition `Option`, `Some` or `Default`, and a file `serde.json`: the
//! generated module then holds a type `Option` (or a unit struct `Some`, which is a value too)
//! and its parent a `mod serde`. The emitters write the short forms (`Option<String>`,
//! `serde::Deserialize`, `Some(v)`); [`absolute`] rewrites every path that starts with one of
//! the crates generated code depends on ([`CRATES`]) to start with `::` (which in edition 2018
//! and later names only an extern crate), and every path that starts with a prelude name the
//! emitters use ([`PRELUDE`]) to that item's absolute path (`::core::option::Option`).
//!
//! Paths into `schemac_runtime` name its user API at the crate root ([`RUNTIME_API`]:
//! `Extra`, `Tristate`, `format::…`, `builder::Assign`, …), and everything else the generated
//! code calls (seeds, assertions, checks, the macros each type's impls are) through the
//! runtime's hidden `__private` module, the versioned contract between schemac and the
//! runtime ([`RUNTIME_CONTRACT`], stated by each module's `contract!` call): the emitters
//! write `schemac_runtime::de::Plain` and `schemac_runtime::object!`, and [`absolute`] makes
//! them `::schemac_runtime::__private::de::Plain` and `::schemac_runtime::__private::object!`.
//! `serde` and `serde_json` are reached through the runtime too (`::schemac_runtime::__private
//! ::serde::…`, with `#[serde(crate = "…")]` beside a serde derive), so a crate holding
//! generated code depends on `schemac-runtime` alone.
//!
//! The prelude names are also reserved type names ([`crate::name::RESERVED_TYPE_NAMES`]), so a
//! bare `Option` in the emitted tokens is always the prelude's and the rewrite cannot change
//! what a path means. Attributes are left alone but for `derive` lists (a derive macro lives in
//! the macro namespace, which generated code never fills, but `serde::Serialize` there is a
//! path into a crate); paths inside a `#[serde(...)]` string are spelled absolute by the
//! emitters themselves. Generic parameters and locals of emitted impls are `__`-prefixed
//! (`__D`, `__A`, `__Visitor`), which no generated name is.

use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};

/// The crates generated code names by path.
pub const CRATES: &[&str] = &["serde", "serde_json", "schemac_runtime", "std", "core"];

/// The version of the contract between generated code and `schemac-runtime` (its
/// `__private` module) this schemac generates for: each module states it in a
/// `contract!(N, "SCHEMAC VERSION")` call, which fails to compile against a runtime that does
/// not provide it. `tests/tests/contract.rs` holds it equal to the runtime's
/// `__private::CONTRACT`. ARCHITECTURE.md says when it changes.
pub const RUNTIME_CONTRACT: u32 = 1;

/// The runtime's user API: the names generated code reaches at `::schemac_runtime::NAME`.
/// Any other path into the runtime goes through `::schemac_runtime::__private`.
pub const RUNTIME_API: &[&str] = &[
    "__private",
    "BigInt",
    "Conforms",
    "ConstraintError",
    "Deep",
    "Error",
    "Extra",
    "ExtraBuilder",
    "ExtraIter",
    "Integer",
    "Number",
    "SchemaBound",
    "SchemaEntry",
    "Tristate",
    "Validate",
    "ValidationError",
    "ValidationErrors",
    "builder",
    "format",
    "from_reader",
    "from_slice",
    "from_str",
    "from_value",
    "json_eq",
    "node_id",
    "schemars",
];

/// The user API of the runtime's `builder` module (the traits and state a builder's
/// signatures name); its store, `Builder`, is the contract's.
pub const BUILDER_API: &[&str] = &["Assign", "IsSet", "Set"];

/// The path through which generated code reaches `serde` and `serde_json`.
const PRIVATE: &str = "::schemac_runtime::__private";

/// The prelude items the emitters may name bare, with their absolute paths.
pub const PRELUDE: &[(&str, &str)] = &[
    ("Option", "::core::option::Option"),
    ("Some", "::core::option::Option::Some"),
    ("None", "::core::option::Option::None"),
    ("Result", "::core::result::Result"),
    ("Ok", "::core::result::Result::Ok"),
    ("Err", "::core::result::Result::Err"),
    ("Vec", "::std::vec::Vec"),
    ("String", "::std::string::String"),
    ("ToString", "::std::string::ToString"),
    ("Box", "::std::boxed::Box"),
    ("ToOwned", "::std::borrow::ToOwned"),
    ("Default", "::core::default::Default"),
    ("From", "::core::convert::From"),
    ("Into", "::core::convert::Into"),
    ("TryFrom", "::core::convert::TryFrom"),
    ("TryInto", "::core::convert::TryInto"),
    ("AsRef", "::core::convert::AsRef"),
    ("AsMut", "::core::convert::AsMut"),
    ("Clone", "::core::clone::Clone"),
    ("Copy", "::core::marker::Copy"),
    ("Send", "::core::marker::Send"),
    ("Sync", "::core::marker::Sync"),
    ("Sized", "::core::marker::Sized"),
    ("PartialEq", "::core::cmp::PartialEq"),
    ("Eq", "::core::cmp::Eq"),
    ("PartialOrd", "::core::cmp::PartialOrd"),
    ("Ord", "::core::cmp::Ord"),
    ("Iterator", "::core::iter::Iterator"),
    ("IntoIterator", "::core::iter::IntoIterator"),
    ("Extend", "::core::iter::Extend"),
    ("Fn", "::core::ops::Fn"),
    ("FnMut", "::core::ops::FnMut"),
    ("FnOnce", "::core::ops::FnOnce"),
    ("Drop", "::core::ops::Drop"),
];

/// Makes every crate and prelude path in `file` absolute (the emitter calls
/// [`absolute_with_stand_ins`]).
#[cfg(test)]
pub fn absolute(file: &mut syn::File) {
    Absolute::default().visit_file_mut(file);
}

/// [`absolute`], and each call of the runtime's brace macros among the file's items replaced by
/// `stand_in(name, contents)` (see `unparse`), from the contents as rewritten: parsed once.
pub(crate) fn absolute_with_stand_ins(file: &mut syn::File, stand_in: fn(&'static str, syn::Block) -> syn::Item) {
    let mut visitor = Absolute::default();
    file.attrs.iter_mut().for_each(|attr| visitor.visit_attribute_mut(attr));
    for item in &mut file.items {
        visitor.keep = matches!(item, syn::Item::Macro(call) if call.attrs.is_empty() && call.ident.is_none());
        visitor.visit_item_mut(item);
        visitor.keep = false;
        if let Some((name, block)) = visitor.kept.take() {
            *item = stand_in(name, block);
        }
    }
}

#[derive(Default)]
struct Absolute {
    /// Whether the macro call visited next is an item to keep the contents of, in `kept`.
    keep: bool,
    /// The rewritten contents of a kept brace call of one of `unparse`'s macros, with its name.
    kept: Option<(&'static str, syn::Block)>,
}

impl VisitMut for Absolute {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let Some(first) = path.segments.first() {
            let name = first.ident.to_string();
            if name == "schemac_runtime" {
                through_contract(path);
            } else if path.leading_colon.is_some() {
                if name == "serde" || name == "serde_json" {
                    through_runtime(path);
                }
            } else if name == "serde" || name == "serde_json" {
                through_runtime(path);
            } else if CRATES.contains(&name.as_str()) {
                path.leading_colon = Some(Default::default());
            } else if let Some((_, full)) = PRELUDE.iter().find(|(short, _)| *short == name) {
                let full: syn::Path = syn::parse_str(full).unwrap_or_else(|_| unreachable!("PRELUDE holds paths"));
                let mut segments = full.segments;
                let mut rest = std::mem::take(&mut path.segments).into_iter();
                if let (Some(last), Some(first)) = (segments.last_mut(), rest.next()) {
                    // `Option::<T>::None`, `Vec::<u8>::new`: the arguments stay.
                    last.arguments = first.arguments;
                }
                segments.extend(rest);
                path.leading_colon = full.leading_colon;
                path.segments = segments;
            }
        }
        visit_mut::visit_path_mut(self, path);
    }

    // `<T as serde::Deserialize>::deserialize`: the trait's segments grow at the front, so the
    // qualified self's position (how many segments are the trait's) grows with them.
    fn visit_expr_path_mut(&mut self, expr: &mut syn::ExprPath) {
        let before = expr.path.segments.len();
        visit_mut::visit_expr_path_mut(self, expr);
        if let Some(qself) = &mut expr.qself {
            qself.position += expr.path.segments.len() - before;
        }
    }

    fn visit_type_path_mut(&mut self, ty: &mut syn::TypePath) {
        let before = ty.path.segments.len();
        visit_mut::visit_type_path_mut(self, ty);
        if let Some(qself) = &mut ty.qself {
            qself.position += ty.path.segments.len() - before;
        }
    }

    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        visit_mut::visit_item_struct_mut(self, item);
        serde_crate(&mut item.attrs);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        visit_mut::visit_item_enum_mut(self, item);
        serde_crate(&mut item.attrs);
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        // `None` in a pattern parses as a binding; it is the prelude's unit variant.
        if let syn::Pat::Ident(binding) = pat
            && binding.by_ref.is_none()
            && binding.mutability.is_none()
            && binding.subpat.is_none()
            && binding.ident == "None"
        {
            let path: syn::Path = syn::parse_quote!(::core::option::Option::None);
            *pat = syn::Pat::Path(syn::ExprPath { attrs: std::mem::take(&mut binding.attrs), qself: None, path });
            return;
        }
        visit_mut::visit_pat_mut(self, pat);
    }

    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        // Only `derive` lists hold paths into crates; other attributes' tokens stay as written.
        if !attr.path().is_ident("derive") {
            return;
        }
        let syn::Meta::List(list) = &mut attr.meta else { return };
        let Ok(mut paths) = list.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else { return };
        for path in &mut paths {
            let crate_path = path.segments.len() > 1 && CRATES.iter().any(|name| path.segments[0].ident == name);
            if crate_path {
                self.visit_path_mut(path);
            }
        }
        list.tokens = quote::quote! { #paths };
    }

    // Macro bodies are token streams the emitters write in full (`::core::matches!`...), but
    // for the runtime's macros, whose contents are Rust (see `unparse`): their seeds, closures
    // and lists are visited; the names in them (a field `core`, a variant `String`) are not.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        // Only the item itself is kept, not the calls inside it.
        let keep = std::mem::take(&mut self.keep);
        let runtime = mac.path.segments.first().is_some_and(|first| first.ident == "schemac_runtime");
        visit_mut::visit_macro_mut(self, mac);
        if !runtime {
            return;
        }
        let tokens = &mac.tokens;
        match mac.delimiter {
            syn::MacroDelimiter::Brace(_) => {
                let Ok(mut block) = syn::parse2::<syn::Block>(quote::quote!({ #tokens })) else { return };
                for stmt in &mut block.stmts {
                    match stmt {
                        syn::Stmt::Expr(expr, _) => self.visit_row(expr),
                        // `type Name = Base;` and `let seed = SEED;` (`refined!`): the type, the seed.
                        syn::Stmt::Item(syn::Item::Type(alias)) => self.visit_type_mut(&mut alias.ty),
                        syn::Stmt::Local(local) => {
                            if let Some(init) = &mut local.init {
                                self.visit_expr_mut(&mut init.expr);
                            }
                        }
                        _ => {}
                    }
                }
                if keep
                    && !block.stmts.is_empty()
                    && let Some(name) = super::unparse::runtime_macro(&mac.path)
                {
                    self.kept = Some((name, block));
                    return;
                }
                let stmts = &block.stmts;
                mac.tokens = quote::quote!(#(#stmts)*);
            }
            syn::MacroDelimiter::Paren(_) => {
                let Ok(mut args) = Punctuated::<MacroArg, syn::Token![,]>::parse_terminated.parse2(tokens.clone()) else { return };
                for arg in &mut args {
                    match arg {
                        MacroArg::Expr(expr) => self.visit_row(expr),
                        MacroArg::Type(ty) => self.visit_type_mut(ty),
                    }
                }
                mac.tokens = quote::quote!(#args);
            }
            syn::MacroDelimiter::Bracket(_) => {}
        }
    }
}

/// An argument of a runtime macro called with parentheses: an expression (a seed, a check), or
/// a type where the macro takes one (`constrained_newtype!(Name, Vec<Item>, seed, check)`: a
/// generic type does not parse as an expression, and a list that does not parse would be left
/// unrewritten, its seed's paths outside the contract).
enum MacroArg {
    Expr(syn::Expr),
    Type(syn::Type),
}

impl syn::parse::Parse for MacroArg {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let fork = input.fork();
        if fork.parse::<syn::Expr>().is_ok() && (fork.is_empty() || fork.peek(syn::Token![,])) {
            return input.parse().map(MacroArg::Expr);
        }
        input.parse().map(MacroArg::Type)
    }
}

impl ToTokens for MacroArg {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        match self {
            MacroArg::Expr(expr) => expr.to_tokens(tokens),
            MacroArg::Type(ty) => ty.to_tokens(tokens),
        }
    }
}

/// `path`, which starts with `schemac_runtime`, made absolute, through `__private` unless it
/// names the runtime's user API.
fn through_contract(path: &mut syn::Path) {
    path.leading_colon = Some(Default::default());
    let second = path.segments.iter().nth(1).map(|s| s.ident.to_string());
    let third = path.segments.iter().nth(2).map(|s| s.ident.to_string());
    let public = match (second.as_deref(), third.as_deref()) {
        (Some("builder"), Some(item)) => BUILDER_API.contains(&item),
        (Some(name), _) => RUNTIME_API.contains(&name),
        (None, _) => true,
    };
    if !public {
        let segments = std::mem::take(&mut path.segments);
        let mut iter = segments.into_pairs();
        path.segments.extend(iter.next().map(|p| p.into_value()));
        path.segments.push(syn::PathSegment::from(syn::Ident::new("__private", proc_macro2::Span::call_site())));
        path.segments.extend(iter.map(|p| p.into_value()));
    }
}

/// `path`, which starts with `serde` or `serde_json`, through the runtime's re-export.
fn through_runtime(path: &mut syn::Path) {
    let prefix: syn::Path = syn::parse_str(PRIVATE).unwrap_or_else(|_| unreachable!("PRIVATE is a path"));
    let rest = std::mem::take(&mut path.segments);
    path.leading_colon = prefix.leading_colon;
    path.segments = prefix.segments;
    path.segments.extend(rest);
}

/// Adds `#[serde(crate = "::schemac_runtime::__private::serde")]` beside a derive of serde's
/// (which otherwise names the `serde` crate, a dependency the user's crate need not have).
fn serde_crate(attrs: &mut Vec<syn::Attribute>) {
    let serde: syn::Path = syn::parse_str(&format!("{PRIVATE}::serde")).unwrap_or_else(|_| unreachable!("a path"));
    let derives_serde = attrs.iter().any(|attr| {
        let syn::Meta::List(list) = &attr.meta else { return false };
        attr.path().is_ident("derive")
            && list.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated).is_ok_and(|paths| {
                paths.iter().any(|p| {
                    p.segments.len() == serde.segments.len() + 1 && p.segments.iter().zip(&serde.segments).all(|(a, b)| a.ident == b.ident)
                })
            })
    });
    let has_crate = attrs.iter().any(|attr| attr.path().is_ident("serde") && attr.to_token_stream().to_string().contains("crate ="));
    if derives_serde && !has_crate {
        let krate = format!("{PRIVATE}::serde");
        attrs.push(syn::parse_quote!(#[serde(crate = #krate)]));
    }
}

impl Absolute {
    /// A statement or argument of a runtime macro: a bare name (a type, field, variant or
    /// keyword of the macro) stays; so do the names a row starts with (`required(name, ..)`,
    /// `Variant(SEED)`, `open.check(..)`, `edits = [..]`, `[A = "a"]`); everything else is Rust
    /// the emitters wrote (seeds, closures, struct literals) and is visited.
    fn visit_row(&mut self, expr: &mut syn::Expr) {
        match expr {
            syn::Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {}
            syn::Expr::Lit(_) => {}
            syn::Expr::Call(call) if matches!(&*call.func, syn::Expr::Path(p) if p.path.get_ident().is_some()) => {
                call.args.iter_mut().for_each(|arg| self.visit_row(arg));
            }
            syn::Expr::MethodCall(call) => {
                self.visit_row(&mut call.receiver);
                call.args.iter_mut().for_each(|arg| self.visit_expr_mut(arg));
            }
            syn::Expr::Assign(assign) => self.visit_row(&mut assign.right),
            syn::Expr::Array(array) => array.elems.iter_mut().for_each(|elem| self.visit_row(elem)),
            other => self.visit_expr_mut(other),
        }
    }
}

#[cfg(test)]
mod tests {
    fn check(code: &str, expect: &str) {
        let mut file: syn::File = syn::parse_str(code).unwrap();
        super::absolute(&mut file);
        // As the files are printed: the runtime's macro calls laid out from their tokens.
        let out = super::super::unparse(file.clone());
        let expect = super::super::unparse(syn::parse_str(expect).unwrap());
        assert_eq!(out, expect);
    }

    /// As [`check`], ignoring the layout of a macro call's tokens (their spacing depends on
    /// whether they were parsed or rebuilt).
    fn check_tokens(code: &str, expect: &str) {
        let mut file: syn::File = syn::parse_str(code).unwrap();
        super::absolute(&mut file);
        let strip = |text: String| text.split_whitespace().collect::<String>();
        let expect: syn::File = syn::parse_str(expect).unwrap();
        assert_eq!(strip(super::super::unparse(file.clone())), strip(super::super::unparse(expect.clone())));
    }

    #[test]
    fn prelude_names_are_reserved() {
        for (short, _) in super::PRELUDE {
            assert!(crate::name::RESERVED_TYPE_NAMES.contains(short), "{short} is not reserved");
        }
    }

    #[test]
    fn crate_and_prelude_paths_become_absolute() {
        check(
            "#[derive(Clone, serde::Serialize)] pub struct X { pub a: Option<Vec<String>>, pub b: schemac_runtime::Extra }",
            "#[derive(Clone, ::schemac_runtime::__private::serde::Serialize)] #[serde(crate = \"::schemac_runtime::__private::serde\")] pub struct X { pub a: ::core::option::Option<::std::vec::Vec<::std::string::String>>, pub b: ::schemac_runtime::Extra }",
        );
        check(
            "fn f<__D: serde::Deserializer<'static>>(d: __D) -> Result<Option<u8>, __D::Error> { match g() { Some(v) => Ok(Some(v)), None => Ok(Option::<u8>::None) } }",
            "fn f<__D: ::schemac_runtime::__private::serde::Deserializer<'static>>(d: __D) -> ::core::result::Result<::core::option::Option<u8>, __D::Error> { match g() { ::core::option::Option::Some(v) => ::core::result::Result::Ok(::core::option::Option::Some(v)), ::core::option::Option::None => ::core::result::Result::Ok(::core::option::Option::<u8>::None) } }",
        );
        // In the runtime's macros: the seeds and closures, not the names the rows start with;
        // the macros and what only generated code calls, through the contract.
        check(
            "schemac_runtime::object! { Option; typed(schemac_runtime::de::AnyValue); required(core, \"core\", schemac_runtime::de::Int::<i64>::new()); optional(name, \"name\"); } \
             ::schemac_runtime::by_kind! { X; \"a string\"; string(String, schemac_runtime::de::Plain::<String>::new()); } \
             ::schemac_runtime::json_schema!(X, SCHEMA_VALUE, \"\", edits = [schemac_runtime::bundle::Edit::Remove { at: \"\", key: \"id\" }]);",
            "::schemac_runtime::__private::object! { Option; typed(::schemac_runtime::__private::de::AnyValue); required(core, \"core\", ::schemac_runtime::__private::de::Int::<i64>::new()); optional(name, \"name\"); } \
             ::schemac_runtime::__private::by_kind! { X; \"a string\"; string(String, ::schemac_runtime::__private::de::Plain::<::std::string::String>::new()); } \
             ::schemac_runtime::__private::json_schema!(X, SCHEMA_VALUE, \"\", edits = [::schemac_runtime::__private::bundle::Edit::Remove { at: \"\", key: \"id\" }]);",
        );
        // A macro that takes a type among its expressions: a generic type is one (found by the
        // corpus: `sublime-syntax`'s unique array of rules kept its seed outside the contract).
        check_tokens(
            "::schemac_runtime::constrained_newtype!(Rules, Vec<Item>, schemac_runtime::de::Seq(schemac_runtime::de::Plain::<Item>::new()), |v: &Vec<Item>| schemac_runtime::assert::unique_items(v));",
            "::schemac_runtime::__private::constrained_newtype!(Rules, ::std::vec::Vec<Item>, ::schemac_runtime::__private::de::Seq(::schemac_runtime::__private::de::Plain::<Item>::new()), |v: &::std::vec::Vec<Item>| ::schemac_runtime::__private::assert::unique_items(v));",
        );
        // A qualified path's trait grows at the front.
        check(
            "fn f() { <String as serde::Deserialize>::deserialize(d); }",
            "fn f() { <::std::string::String as ::schemac_runtime::__private::serde::Deserialize>::deserialize(d); }",
        );
        // The user API stays at the root; serde_json goes through the runtime.
        check(
            "fn f(v: schemac_runtime::builder::Assign<u8>, w: schemac_runtime::builder::Builder<(), ()>, x: serde_json::Value, y: ::serde_json::Map<String, u8>) {}",
            "fn f(v: ::schemac_runtime::builder::Assign<u8>, w: ::schemac_runtime::__private::builder::Builder<(), ()>, x: ::schemac_runtime::__private::serde_json::Value, y: ::schemac_runtime::__private::serde_json::Map<::std::string::String, u8>) {}",
        );
        // Already absolute, relative to the crate, or a generated name: unchanged.
        check(
            "impl ::core::default::Default for X { fn default() -> Self { crate::a::Y::new(super::Z, Self::W) } }",
            "impl ::core::default::Default for X { fn default() -> Self { crate::a::Y::new(super::Z, Self::W) } }",
        );
    }
}
