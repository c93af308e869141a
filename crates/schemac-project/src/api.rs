//! The public Rust API of a generated crate, read from its source: every public item, field
//! (with its type), variant, method signature and trait impl, one line each. The baseline
//! records it for a release ([`crate::release`]), so that `check` can tell when a newer schemac
//! generates a different API for the same schemas, and demand the version bump that difference
//! requires, as it does for a schema change.
//!
//! The lines are `KEY: WHAT`, sorted by key. Keys are paths: `module::Type` (its kind and
//! attributes), `module::Type.field` (its type), `module::Type::Variant`, `module::Type::method()`
//! (its signature), `module::Type: Trait` (an impl, derived, written, or made by one of the
//! runtime's macros). Types are spelled as written, with the prelude's paths shortened
//! (`Option<String>`). What is `#[doc(hidden)]` or not `pub` is not API.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use schemac::diff::Bump;
use sha2::{Digest, Sha256};

use super::error::{Error, bail};

/// The version of the listing's format ([`Api::to_text`]). A baseline whose listing has another
/// format cannot be compared with this schemac's: `check` says so, and `release` records the
/// listing again. Bump it with every change to what the listing says or how it spells it.
pub const FORMAT: u32 = 1;

/// A crate's public API: key → what it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Api {
    entries: BTreeMap<String, String>,
}

/// One difference between two APIs, with the bump it requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiChange {
    /// The entry's key (`module::Type.field`).
    pub key: String,
    pub class: Bump,
    pub kind: ApiChangeKind,
    /// In words: "`goal::Goal` is `struct, non-exhaustive` now (was `struct`)".
    pub detail: String,
}

/// Whether an entry was added, removed or changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiChangeKind {
    Added,
    Removed,
    Changed,
}

impl Api {
    /// The API of the crate whose files (`path` → text, as generated) are in `files`, under
    /// its directory `dir`: `dir/src/lib.rs` and every module file under `dir/src/`.
    pub fn of_crate(files: &BTreeMap<String, String>, dir: &str) -> Result<Api, Error> {
        let src = format!("{dir}/src/");
        let mut api = Api::default();
        for (path, text) in files.iter().filter(|(p, _)| p.starts_with(&src) && p.ends_with(".rs")) {
            let relative = &path[src.len()..path.len() - ".rs".len()];
            let module: Vec<String> = match relative {
                "lib" => Vec::new(),
                other => other.split('/').map(str::to_owned).collect(),
            };
            let file = syn::parse_file(text).map_err(|e| Error::other(format!("{path}: the generated code does not parse: {e}")))?;
            // `arbitrary.rs` is the `proptest` feature's, for the crate's own property tests.
            if relative == "arbitrary" {
                continue;
            }
            if !module.is_empty() {
                api.entries.insert(module.join("::"), "mod".to_owned());
            }
            Reader { api: &mut api, module }.items(&file.items);
        }
        Ok(api)
    }

    /// The listing, a line per entry: what the baseline records.
    pub fn to_text(&self) -> String {
        self.entries.iter().fold(String::new(), |mut out, (key, what)| {
            let _ = writeln!(out, "{key}: {what}");
            out
        })
    }

    /// Reads a listing written by [`Api::to_text`].
    pub fn parse(text: &str) -> Result<Api, Error> {
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            // Only an impl's key holds `: ` (`Type: Trait`), and its value is `impl`; any other
            // key ends at the first `: ` (a signature's value holds more).
            let entry = match line.strip_suffix(": impl") {
                Some(key) => Some((key, "impl")),
                None => line.split_once(": "),
            };
            let Some((key, what)) = entry.filter(|(k, _)| !k.is_empty()) else {
                bail!("line {}: {line:?} is not `KEY: WHAT`", n + 1);
            };
            entries.insert(key.to_owned(), what.to_owned());
        }
        Ok(Api { entries })
    }

    /// The SHA-256 of the listing, hex.
    pub fn sha256(&self) -> String {
        Sha256::digest(self.to_text().as_bytes()).iter().fold(String::with_capacity(64), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The exhaustive struct or enum `key` is a member of, if `key` names a field or variant.
    fn owner_is_exhaustive(&self, key: &str) -> bool {
        let owner = match key.rsplit_once('.') {
            Some((owner, _)) => owner,
            None => match key.rsplit_once("::") {
                Some((owner, last)) if !last.ends_with("()") && !key.contains(": ") => owner,
                _ => return false,
            },
        };
        self.entries
            .get(owner)
            .is_some_and(|what| (what.starts_with("struct") || what.starts_with("enum")) && !what.contains("non-exhaustive"))
    }
}

/// The changes from `old` to `new`, each with its class, in key order. An entry removed or
/// changed is major (code naming it breaks), but for `#[non_exhaustive]` dropped from a type;
/// one added is minor, but for a field or variant added to an exhaustive struct or enum that
/// existed before (literals and matches downstream break).
pub fn compare(old: &Api, new: &Api) -> Vec<ApiChange> {
    let mut out = Vec::new();
    for (key, was) in &old.entries {
        match new.entries.get(key) {
            None => out.push(ApiChange {
                key: key.clone(),
                class: Bump::Major,
                kind: ApiChangeKind::Removed,
                detail: format!("`{key}` ({was}) removed"),
            }),
            Some(now) if now != was => {
                let relaxed = was.contains("non-exhaustive") && now == &was.replace(", non-exhaustive", "");
                out.push(ApiChange {
                    key: key.clone(),
                    class: if relaxed { Bump::Minor } else { Bump::Major },
                    kind: ApiChangeKind::Changed,
                    detail: format!("`{key}` is `{now}` now (was `{was}`)"),
                });
            }
            Some(_) => {}
        }
    }
    for (key, now) in new.entries.iter().filter(|(k, _)| !old.entries.contains_key(*k)) {
        let owner_existed =
            key.rsplit_once('.').or_else(|| key.rsplit_once("::")).is_some_and(|(owner, _)| old.entries.contains_key(owner));
        let breaking = owner_existed && new.owner_is_exhaustive(key);
        out.push(ApiChange {
            key: key.clone(),
            class: if breaking { Bump::Major } else { Bump::Minor },
            kind: ApiChangeKind::Added,
            detail: if breaking { format!("`{key}` ({now}) added to an exhaustive type") } else { format!("`{key}` ({now}) added") },
        });
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

/// Reads the items of one module into the API.
struct Reader<'a> {
    api: &'a mut Api,
    module: Vec<String>,
}

impl Reader<'_> {
    fn path(&self, name: &str) -> String {
        if self.module.is_empty() { name.to_owned() } else { format!("{}::{name}", self.module.join("::")) }
    }

    fn insert(&mut self, key: String, what: String) {
        self.api.entries.insert(key, what);
    }

    fn items(&mut self, items: &[syn::Item]) {
        for item in items {
            self.item(item);
        }
    }

    fn item(&mut self, item: &syn::Item) {
        match item {
            syn::Item::Struct(s) if public(&s.vis, &s.attrs) => {
                let path = self.path(&s.ident.to_string());
                self.insert(path.clone(), format!("struct{}{}", generics(&s.generics), exhaustive(&s.attrs)));
                self.derives(&path, &s.attrs);
                for (i, field) in s.fields.iter().enumerate() {
                    if !public(&field.vis, &field.attrs) {
                        continue;
                    }
                    let name = field.ident.as_ref().map_or_else(|| i.to_string(), |f| f.to_string());
                    self.insert(format!("{path}.{name}"), spell(&field.ty));
                }
            }
            syn::Item::Enum(e) if public(&e.vis, &e.attrs) => {
                let path = self.path(&e.ident.to_string());
                self.insert(path.clone(), format!("enum{}{}", generics(&e.generics), exhaustive(&e.attrs)));
                self.derives(&path, &e.attrs);
                for variant in e.variants.iter().filter(|v| !hidden(&v.attrs)) {
                    let what = match &variant.fields {
                        syn::Fields::Unit => "variant".to_owned(),
                        fields => format!("variant{}", spell(fields)),
                    };
                    self.insert(format!("{path}::{}", variant.ident), what);
                }
            }
            syn::Item::Type(t) if public(&t.vis, &t.attrs) => {
                let path = self.path(&t.ident.to_string());
                self.insert(path, format!("type{} = {}", generics(&t.generics), spell(&t.ty)));
            }
            syn::Item::Const(c) if public(&c.vis, &c.attrs) => {
                self.insert(self.path(&c.ident.to_string()), format!("const {}", spell(&c.ty)));
            }
            syn::Item::Static(s) if public(&s.vis, &s.attrs) => {
                self.insert(self.path(&s.ident.to_string()), format!("static {}", spell(&s.ty)));
            }
            syn::Item::Fn(f) if public(&f.vis, &f.attrs) => {
                self.insert(format!("{}()", self.path(&f.sig.ident.to_string())), signature(&f.sig));
            }
            syn::Item::Mod(m) if public(&m.vis, &m.attrs) => {
                let path = self.path(&m.ident.to_string());
                self.insert(path, "mod".to_owned());
                if let Some((_, items)) = &m.content {
                    self.module.push(m.ident.to_string());
                    self.items(items);
                    self.module.pop();
                }
            }
            syn::Item::Impl(i) if !hidden(&i.attrs) => self.implementation(i),
            syn::Item::Macro(m) => self.macro_call(&m.mac),
            _ => {}
        }
    }

    /// `#[derive(Clone, ::schemac_runtime::__private::serde::Serialize)]`: an impl each.
    fn derives(&mut self, path: &str, attrs: &[syn::Attribute]) {
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let Ok(paths) = attr.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else {
                continue;
            };
            for derived in paths {
                let name = derived.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                self.insert(format!("{path}: {name}"), "impl".to_owned());
            }
        }
    }

    fn implementation(&mut self, item: &syn::ItemImpl) {
        let Some(owner) = self_path(&item.self_ty, &self.module) else {
            // A trait of another crate for a type of another crate, over this module's type
            // (`&str: Assign<GoalId>`): keyed by the module, so two modules' impls stay apart.
            if let Some((_, trait_path, _)) = &item.trait_ {
                let name = shorten(&tokens(trait_path.to_token_stream()));
                let module = self.module.join("::");
                self.insert(format!("{module}::<{} as {name}>", spell(&item.self_ty)), "impl".to_owned());
            }
            return;
        };
        match &item.trait_ {
            Some((_, trait_path, _)) => {
                let name = shorten(&tokens(trait_path.to_token_stream()));
                self.insert(format!("{owner}: {name}"), "impl".to_owned());
            }
            None => {
                for member in &item.items {
                    match member {
                        syn::ImplItem::Fn(f) if public(&f.vis, &f.attrs) => {
                            self.insert(format!("{owner}::{}()", f.sig.ident), signature(&f.sig));
                        }
                        syn::ImplItem::Const(c) if public(&c.vis, &c.attrs) => {
                            self.insert(format!("{owner}::{}", c.ident), format!("const {}", spell(&c.ty)));
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// A call of one of the runtime's macros (`object! { Goal; ... }`): the impls it makes for
    /// the type it names first are the macro's, listed as `Type: object!`. The contract, not
    /// this listing, keeps what each macro implements stable.
    fn macro_call(&mut self, mac: &syn::Macro) {
        let segments: Vec<String> = mac.path.segments.iter().map(|s| s.ident.to_string()).collect();
        let (Some(first), Some(name)) = (segments.first(), segments.last()) else { return };
        if first != "schemac_runtime" || name == "contract" || name == "schema_source" {
            return;
        }
        let Some(TokenTree::Ident(ty)) = mac.tokens.clone().into_iter().next() else { return };
        self.insert(format!("{}: {name}!", self.path(&ty.to_string())), "impl".to_owned());
    }
}

fn hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("doc") && a.to_token_stream().to_string().replace(' ', "").contains("doc(hidden)"))
}

fn public(vis: &syn::Visibility, attrs: &[syn::Attribute]) -> bool {
    matches!(vis, syn::Visibility::Public(_)) && !hidden(attrs)
}

fn exhaustive(attrs: &[syn::Attribute]) -> &'static str {
    if attrs.iter().any(|a| a.path().is_ident("non_exhaustive")) { ", non-exhaustive" } else { "" }
}

fn generics(generics: &syn::Generics) -> String {
    if generics.params.is_empty() { String::new() } else { shorten(&tokens(generics.to_token_stream())) }
}

fn spell(node: &impl ToTokens) -> String {
    shorten(&tokens(node.to_token_stream()))
}

/// A function's signature without its name: `fn(self, value: impl Assign<u8>) -> Self`.
fn signature(sig: &syn::Signature) -> String {
    let mut sig = sig.clone();
    sig.ident = syn::Ident::new("f", proc_macro2::Span::call_site());
    let text = shorten(&tokens(sig.to_token_stream()));
    text.replacen("fn f", "fn", 1)
}

/// The path of the type an impl is for, from the module it is in: `Goal` in `pi_glla::goal` is
/// `pi_glla::goal::Goal`; `crate::a::B` is `a::B`; a generic builder `GoalBuilder<S0, ..>` is
/// `pi_glla::goal::GoalBuilder`. `None` for a type of another crate (`::std::string::String`,
/// `&str`: the builders' `Assign`).
fn self_path(ty: &syn::Type, module: &[String]) -> Option<String> {
    let syn::Type::Path(path) = ty else { return None };
    let mut segments: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
    if segments.first().is_some_and(|s| s == "crate") {
        segments.remove(0);
        return Some(segments.join("::"));
    }
    if path.path.leading_colon.is_some() {
        return None;
    }
    let mut full = module.to_vec();
    full.extend(segments);
    Some(full.join("::"))
}

/// Tokens as text, with a space only between two words (`impl Assign<u8>`, `&'a mut T`).
fn tokens(stream: TokenStream) -> String {
    let mut out = String::new();
    write_tokens(stream, &mut out);
    out
}

fn write_tokens(stream: TokenStream, out: &mut String) {
    // The last word written, to tell `impl ::path` (a space) from `Option::` (none).
    let mut word = String::new();
    for tree in stream {
        let wordy = out.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '>' || c == ')');
        match tree {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Brace => (" { ", " }"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_tokens(group.stream(), out);
                out.push_str(close);
                word.clear();
            }
            TokenTree::Ident(ident) => {
                if wordy {
                    out.push(' ');
                }
                word = ident.to_string();
                out.push_str(&word);
            }
            TokenTree::Punct(punct) => {
                let joint = punct.spacing() == proc_macro2::Spacing::Joint;
                match punct.as_char() {
                    // The first colon of `::`: after a keyword, a path from the root.
                    ':' if joint => {
                        if matches!(word.as_str(), "impl" | "dyn" | "as" | "mut" | "for" | "where" | "in") && out.ends_with(word.as_str()) {
                            out.push(' ');
                        }
                        out.push(':');
                    }
                    ':' if out.ends_with(':') => out.push(':'),
                    '-' if joint => out.push_str(" -"),
                    '>' if out.ends_with('-') => out.push_str("> "),
                    c @ (':' | ',' | ';') => {
                        out.push(c);
                        out.push(' ');
                    }
                    c @ ('=' | '+') => {
                        out.push(' ');
                        out.push(c);
                        out.push(' ');
                    }
                    c => out.push(c),
                }
                word.clear();
            }
            TokenTree::Literal(literal) => {
                if wordy {
                    out.push(' ');
                }
                out.push_str(&literal.to_string());
                word.clear();
            }
        }
    }
}

/// The absolute paths generated code spells, as downstream code names them.
fn shorten(text: &str) -> String {
    const SHORT: &[(&str, &str)] = &[
        ("::core::option::Option", "Option"),
        ("::core::result::Result", "Result"),
        ("::std::string::String", "String"),
        ("::std::vec::Vec", "Vec"),
        ("::std::boxed::Box", "Box"),
        ("::std::collections::BTreeMap", "BTreeMap"),
        ("::core::", "core::"),
        ("::std::", "std::"),
        ("::schemac_runtime::__private::serde_json::", "serde_json::"),
        ("::schemac_runtime::__private::serde::", "serde::"),
        ("::schemac_runtime::", "schemac_runtime::"),
    ];
    // Trailing commas, which the emitters write in lists, read as no comma.
    let mut text = text.replace(", )", ")").replace(", >", ">").replace(", ]", "]").replace("  ", " ");
    text = text.trim().trim_end_matches(',').trim_end().to_owned();
    for (long, short) in SHORT {
        text = text.replace(long, short);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(code: &str) -> Api {
        let files = BTreeMap::from([("c/src/m.rs".to_owned(), code.to_owned())]);
        Api::of_crate(&files, "c").unwrap()
    }

    #[test]
    fn items_fields_variants_impls_and_methods_are_listed() {
        let listing = api(r#"
            #[derive(Clone, ::schemac_runtime::__private::serde::Serialize)]
            #[non_exhaustive]
            pub struct Goal { pub id: ::core::option::Option<::std::string::String>, hidden: u8 }
            pub enum Status { Active, Other(::std::string::String) }
            pub type Alias = Goal;
            impl Goal { pub fn builder() -> GoalBuilder { todo!() } fn private() {} }
            impl<S0> GoalBuilder<S0> { pub fn id(self, value: impl ::schemac_runtime::builder::Assign<u8>) -> Self { self } }
            impl ::core::str::FromStr for Status { type Err = (); fn from_str(_: &str) -> Result<Self, ()> { Err(()) } }
            impl ::schemac_runtime::builder::Assign<Status> for &str { fn assign(self) -> Result<Status, ()> { Err(()) } }
            ::schemac_runtime::__private::object! { Goal; open; }
            ::schemac_runtime::__private::contract!(1, "0.1.0");
            #[doc(hidden)] pub mod builder_fields { pub struct id; }
        "#)
        .to_text();
        let expect = "\
m: mod
m::<&str as schemac_runtime::builder::Assign<Status>>: impl
m::Alias: type = Goal
m::Goal: struct, non-exhaustive
m::Goal.id: Option<String>
m::Goal: Clone: impl
m::Goal: Serialize: impl
m::Goal: object!: impl
m::Goal::builder(): fn() -> GoalBuilder
m::GoalBuilder::id(): fn(self, value: impl schemac_runtime::builder::Assign<u8>) -> Self
m::Status: enum
m::Status: core::str::FromStr: impl
m::Status::Active: variant
m::Status::Other: variant(String)
";
        assert_eq!(listing, expect);
        assert_eq!(Api::parse(&listing).unwrap().to_text(), listing);
    }

    #[test]
    fn removed_and_changed_are_major_added_minor_but_members_of_exhaustive_types() {
        let old = api("pub struct A { pub x: u8 } pub enum E { One } #[non_exhaustive] pub struct N { pub x: u8 }");
        let new = api(
            "pub struct A { pub x: u16, pub y: u8 } pub enum E { One, Two } #[non_exhaustive] pub struct N { pub x: u8, pub y: u8 } pub struct B;",
        );
        let changes: Vec<(String, Bump)> = compare(&old, &new).into_iter().map(|c| (c.key, c.class)).collect();
        let expect: Vec<(String, Bump)> =
            [("m::A.x", Bump::Major), ("m::A.y", Bump::Major), ("m::B", Bump::Minor), ("m::E::Two", Bump::Major), ("m::N.y", Bump::Minor)]
                .iter()
                .map(|(k, b)| (k.to_string(), *b))
                .collect();
        assert_eq!(changes, expect);
        let gone = compare(&new, &old);
        assert!(gone.iter().any(|c| c.key == "m::B" && c.class == Bump::Major && c.kind == ApiChangeKind::Removed), "{gone:?}");
        // Made non-exhaustive: major; the other way, minor.
        let closed = api("#[non_exhaustive] pub struct A { pub x: u8 }");
        let open = api("pub struct A { pub x: u8 }");
        assert_eq!(compare(&open, &closed)[0].class, Bump::Major);
        assert_eq!(compare(&closed, &open)[0].class, Bump::Minor);
        assert_eq!(compare(&open, &closed)[0].detail, "`m::A` is `struct, non-exhaustive` now (was `struct`)");
    }
}
