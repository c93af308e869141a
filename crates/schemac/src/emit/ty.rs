//! Inline types: their Rust spelling (`seed.rs` writes the seeds that read them), paths between modules,
//! boxing of recursive and big fields (`layout`), and rustdoc.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use serde_json::Value;

use crate::ir::{Def, DefId, DefKind, DocId, Docs, Format, IntTy, Ir, Rest, Source, Ty};

/// What every emitter function reads.
pub(crate) struct Ctx<'a> {
    pub ir: &'a Ir,
    /// `reach[d]`: the defs stored inline (not behind a `Vec` or map) in `d`, transitively.
    reach: Vec<BTreeSet<DefId>>,
    /// `validates[d]`: a value of `d` built in Rust can break its schema (it has public
    /// parts with assertions, directly or through the defs it holds).
    validates: Vec<bool>,
    /// Estimated sizes, and the fields boxed so that no type passes the bound.
    layouts: super::layout::Layouts,
    /// The string enums that keep an unknown value (`Config::open_enums`).
    open: BTreeSet<DefId>,
}

impl<'a> Ctx<'a> {
    pub fn new(ir: &'a Ir) -> Self {
        Ctx::with_open_enums(ir, BTreeSet::new())
    }

    /// A context in which the string enums `open` keep unknown values (which `validate()`
    /// then reports, so their holders validate too).
    pub fn with_open_enums(ir: &'a Ir, open: BTreeSet<DefId>) -> Self {
        let direct: Vec<BTreeSet<DefId>> = ir.defs.iter().map(super::layout::inline_defs).collect();
        let reach: Vec<BTreeSet<DefId>> = (0..ir.defs.len())
            .map(|start| {
                let mut seen = BTreeSet::new();
                let mut stack: Vec<DefId> = direct[start].iter().copied().collect();
                while let Some(id) = stack.pop() {
                    if seen.insert(id) {
                        stack.extend(direct[id.0].iter().copied());
                    }
                }
                seen
            })
            .collect();
        let validates = validating_defs(ir, &open);
        let layouts = super::layout::Layouts::plan(ir, |from, to| recursive(&reach, from, to), &open);
        Ctx { ir, reach, validates, layouts, open }
    }

    /// See [`super::layout::Layouts`].
    pub fn layouts(&self) -> &super::layout::Layouts {
        &self.layouts
    }

    /// Whether def `id` holds itself inline (directly or through other defs), boxed somewhere.
    pub fn holds_itself(&self, id: DefId) -> bool {
        self.reach[id.0].contains(&id)
    }

    /// Whether def `id` is an open string enum.
    pub fn is_open(&self, id: DefId) -> bool {
        self.open.contains(&id)
    }

    /// See `Ctx::validates`.
    pub fn validates(&self, id: DefId) -> bool {
        self.validates.get(id.0).copied().unwrap_or(true)
    }

    /// Whether a value of `ty` built in Rust can break its schema.
    pub fn ty_validates(&self, ty: &Ty) -> bool {
        ty_validates(ty, &self.validates)
    }

    pub fn def(&self, id: DefId) -> &'a Def {
        self.ir.def(id)
    }

    /// The source document `id` (every document the IR's types come from has one).
    pub fn doc(&self, id: DocId) -> &'a Source {
        static NONE: std::sync::LazyLock<Source> = std::sync::LazyLock::new(Source::default);
        self.ir.sources.documents.get(&id).unwrap_or(&NONE)
    }

    fn module_of(&self, id: DefId) -> &'a [String] {
        &self.doc(self.def(id).origin.doc).module
    }

    /// Whether a field of type `to` inside `from` is boxed: `to` contains `from` inline, or
    /// `to` is big (see [`super::layout`]).
    pub fn needs_box(&self, from: DefId, to: DefId) -> bool {
        recursive(&self.reach, from, to) || self.layouts.boxed(from, to)
    }

    /// The path of def `to` as written inside the module of `from`.
    pub fn path(&self, from: DefId, to: DefId) -> TokenStream {
        let here = self.module_of(from);
        let there = self.module_of(to);
        let name = ident(&self.def(to).name);
        let common = here.iter().zip(there).take_while(|(a, b)| a == b).count();
        let supers = (common..here.len()).map(|_| quote!(super::));
        let downs = there[common..].iter().map(|m| {
            let m = ident(m);
            quote!(#m::)
        });
        // `self::` keeps a path down into a child module from reading as a crate's path.
        let down = (common == here.len() && there.len() > common).then(|| quote!(self::));
        quote! { #down #(#supers)* #(#downs)* #name }
    }

    /// The Rust type of `ty` written inside def `from`; `boxed` boxes a recursive def.
    pub fn rust(&self, from: DefId, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Any => quote!(serde_json::Value),
            Ty::Bool => quote!(bool),
            Ty::Integer(IntTy::Big) => quote!(schemac_runtime::BigInt),
            Ty::Integer(IntTy::Exact) => quote!(schemac_runtime::Integer),
            Ty::Integer(int) => int_ident(*int).into_token_stream(),
            Ty::Number if self.ir.exact_numbers => quote!(schemac_runtime::Number),
            Ty::Number => quote!(f64),
            Ty::String => quote!(String),
            Ty::Format(format) => {
                let name = format_ident!("{}", format_type(*format));
                quote!(schemac_runtime::format::#name)
            }
            Ty::Null => quote!(()),
            Ty::Def(id) => {
                let path = self.path(from, *id);
                if self.needs_box(from, *id) { quote!(Box<#path>) } else { path }
            }
            Ty::Array(item) => {
                let item = self.rust_unboxed(from, item);
                quote!(Vec<#item>)
            }
            Ty::Map(value) => {
                let value = self.rust_unboxed(from, value);
                quote!(std::collections::BTreeMap<String, #value>)
            }
            Ty::Nullable(inner) => {
                let inner = self.rust(from, inner);
                quote!(Option<#inner>)
            }
            Ty::Constrained(inner, _) => self.rust(from, inner),
        }
    }

    /// Like [`Ctx::rust`], for positions that are already behind a heap indirection.
    pub(super) fn rust_unboxed(&self, from: DefId, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Def(id) => self.path(from, *id),
            Ty::Nullable(inner) => {
                let inner = self.rust_unboxed(from, inner);
                quote!(Option<#inner>)
            }
            Ty::Constrained(inner, _) => self.rust_unboxed(from, inner),
            other => self.rust(from, other),
        }
    }
}

/// The least fixpoint of "can hold an invalid value": structs, unions and aliases whose
/// values reach a `Ty::Constrained`, object assertions or typed extra properties. The other
/// kinds check everything when they are built.
fn validating_defs(ir: &Ir, open: &BTreeSet<DefId>) -> Vec<bool> {
    let mut validates = vec![false; ir.defs.len()];
    loop {
        let mut changed = false;
        for (i, def) in ir.defs.iter().enumerate() {
            if validates[i] {
                continue;
            }
            let now = match &def.kind {
                // The user's type may hold anything; its `Validate` (which `Conforms` demands) says.
                _ if ir.rust_types.contains_key(&DefId(i)) => true,
                DefKind::Struct(s) => {
                    !s.assertions.is_empty()
                        || s.fields.iter().any(|f| ty_validates(&f.ty, &validates))
                        || match &s.rest {
                            Rest::Closed | Rest::Open => false,
                            Rest::Typed(ty) => ty_validates(ty, &validates),
                            Rest::Patterns { .. } => true,
                        }
                }
                DefKind::Union(u) => u.variants.iter().any(|v| ty_validates(&v.ty, &validates)),
                DefKind::Alias(ty) => ty_validates(ty, &validates),
                // Only built checked, and never changed: the inner value is not public.
                DefKind::Refined(_) => false,
                DefKind::Tuple(t) => t.items.iter().chain(&t.rest).any(|ty| ty_validates(ty, &validates)),
                DefKind::StringEnum(_) => open.contains(&DefId(i)),
                DefKind::Newtype(_) | DefKind::Const(_) | DefKind::ValueEnum(_) | DefKind::Checked(_) => false,
            };
            if now {
                validates[i] = true;
                changed = true;
            }
        }
        if !changed {
            return validates;
        }
    }
}

fn ty_validates(ty: &Ty, validates: &[bool]) -> bool {
    match ty {
        Ty::Constrained(..) => true,
        Ty::Def(id) => validates.get(id.0).copied().unwrap_or(true),
        Ty::Array(inner) | Ty::Map(inner) | Ty::Nullable(inner) => ty_validates(inner, validates),
        _ => false,
    }
}

/// Whether `to` holds `from` inline (`reach[to]`: what `to` holds inline, transitively).
fn recursive(reach: &[BTreeSet<DefId>], from: DefId, to: DefId) -> bool {
    from == to || reach[to.0].contains(&from)
}

pub(crate) fn int_ident(int: IntTy) -> Ident {
    let name = match int {
        IntTy::U8 => "u8",
        IntTy::U16 => "u16",
        IntTy::U32 => "u32",
        IntTy::U64 => "u64",
        IntTy::I8 => "i8",
        IntTy::I16 => "i16",
        IntTy::I32 => "i32",
        IntTy::I64 => "i64",
        IntTy::I128 => "i128",
        IntTy::Big => "BigInt",
        IntTy::Exact => "Integer",
    };
    Ident::new(name, Span::call_site())
}

fn format_type(format: Format) -> &'static str {
    match format {
        Format::DateTime => "DateTime",
        Format::Date => "Date",
        Format::Time => "Time",
        Format::Duration => "Duration",
        Format::Email => "Email",
        Format::Hostname => "Hostname",
        Format::Ipv4 => "Ipv4",
        Format::Ipv6 => "Ipv6",
        Format::Uri => "Uri",
        Format::UriReference => "UriReference",
        Format::Uuid => "Uuid",
        Format::JsonPointer => "JsonPointer",
        Format::Regex => "Regex",
        Format::IdnEmail => "IdnEmail",
        Format::IdnHostname => "IdnHostname",
        Format::Iri => "Iri",
        Format::IriReference => "IriReference",
        Format::UriTemplate => "UriTemplate",
        Format::RelativeJsonPointer => "RelativeJsonPointer",
    }
}

/// The body of a hand-rolled `Deserialize::deserialize`: a `Visitor` producing `name` with
/// `methods` (its `visit_*`), driven by `deserializer.#entry(__Visitor)`.
pub(crate) fn visitor(name: &Ident, expecting: &str, methods: TokenStream, entry: TokenStream) -> TokenStream {
    quote! {
        struct __Visitor;
        impl<'de> serde::de::Visitor<'de> for __Visitor {
            type Value = #name;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(#expecting)
            }
            #methods
        }
        deserializer.#entry(__Visitor)
    }
}

/// An identifier from a name the naming phase produced (`r#type` included).
pub(crate) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// `#[doc]` lines from a schema's annotations, plus the keywords not enforced yet.
pub(crate) fn docs(docs: &Docs, unenforced: &[String]) -> TokenStream {
    let mut lines: Vec<String> = Vec::new();
    let paragraph = |text: &str, lines: &mut Vec<String>| {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(doc_lines(text));
    };
    if let Some(title) = &docs.title {
        paragraph(title, &mut lines);
    }
    if let Some(description) = &docs.description {
        paragraph(description, &mut lines);
    }
    if docs.deprecated {
        paragraph("**Deprecated** in the schema.", &mut lines);
    }
    match (docs.read_only, docs.write_only) {
        (true, _) => paragraph("Read-only: the owner of the data sets it; requests should not.", &mut lines),
        (_, true) => paragraph("Write-only: sent in requests, never returned.", &mut lines),
        _ => {}
    }
    if let Some(default) = &docs.default {
        paragraph(&format!("Default: `{}`", compact(default)), &mut lines);
    }
    for example in &docs.examples {
        paragraph(&format!("Example: `{}`", compact(example)), &mut lines);
    }
    if !unenforced.is_empty() {
        let list: Vec<String> = unenforced.iter().map(|k| format!("`{k}`")).collect();
        paragraph(&format!("Not enforced by this type yet: {}.", list.join(", ")), &mut lines);
    }
    let lines = lines.iter().map(|l| if l.is_empty() { String::new() } else { format!(" {}", escape_doc(l)) });
    quote! { #(#[doc = #lines])* }
}

/// The lines of a schema's prose for a doc comment. A carriage return alone (old Mac line
/// ends, seen in real schemas) ends a line too: left in a `///` comment it is a "bare CR",
/// which rustc refuses to lex.
/// The target of an intra-doc link to the generated type `name`: the name itself, or
/// `type@name` where a derive macro of the prelude has the same name (a definition named
/// `Debug`), which rustdoc would otherwise call ambiguous. Types are CamelCase, so the prelude's
/// derives are the only other items a type's name can meet in the docs' scope.
pub(crate) fn type_link(name: &str) -> String {
    const DERIVES: [&str; 9] = ["Clone", "Copy", "Debug", "Default", "Eq", "Hash", "Ord", "PartialEq", "PartialOrd"];
    if DERIVES.contains(&name) { format!("type@{name}") } else { name.to_owned() }
}

pub(crate) fn doc_lines(text: &str) -> Vec<String> {
    text.replace("\r\n", "\n").replace('\r', "\n").lines().map(str::to_owned).collect()
}

/// Rustdoc treats `[x]` as a link and indented text as code; schema prose means neither.
fn escape_doc(line: &str) -> String {
    line.trim_start().replace('[', "\\[").replace(']', "\\]").replace('<', "&lt;").replace('>', "&gt;")
}

fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 200 { format!("{}…", text.chars().take(200).collect::<String>()) } else { text }
}

/// A `serde_json::Value` literal as an expression (parsed once, in a `LazyLock`).
pub(crate) fn value_static(name: &Ident, value: &Value) -> TokenStream {
    let text = value.to_string();
    quote! {
        static #name: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| schemac_runtime::literal(#text));
    }
}
