//! The attributes the check reads: `#[schemac(...)]` (which schema node, and what the user
//! allows) and the `#[serde(...)]` attributes that change the JSON a type reads and writes.
//!
//! serde's attributes are parsed here rather than by serde_derive because the check needs
//! the same facts serde acts on: the serialized names, which fields are flattened or
//! skipped, and which may be absent. Attributes that do not change the JSON are skipped.

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::{Attribute, LitStr, Token, meta::ParseNestedMeta};

use crate::case::RenameRule;
use crate::errors::Errors;

/// `#[schemac(...)]` and `#[serde(...)]` on the struct or enum.
#[derive(Debug, Default)]
pub struct Container {
    /// `schema = "schemas/x.json"`: the schema file, relative to `CARGO_MANIFEST_DIR`.
    pub schema: Option<LitStr>,
    /// `pointer = "/$defs/x"`: the node within it; the document root when absent.
    pub pointer: Option<LitStr>,
    /// `ignore_unknown`: the user accepts that an open object's unknown properties are
    /// dropped (no `#[serde(flatten)]` map keeps them).
    pub ignore_unknown: bool,
    pub rename_all: Option<RenameRule>,
    /// Where `deny_unknown_fields` is written, for errors about it.
    pub deny_unknown_fields: Option<Span>,
    /// `#[serde(default)]`: every field may be absent.
    pub default: bool,
    /// A serde attribute that changes the whole type's representation (`tag`, `untagged`,
    /// `transparent`, `from`, `into`, ...), which the check does not model.
    pub representation: Option<(Span, String)>,
}

/// `#[schemac(...)]` and `#[serde(...)]` on a field.
#[derive(Debug, Default)]
pub struct Field {
    /// The serialized name from `rename`.
    pub rename: Option<String>,
    pub flatten: bool,
    /// `default` (with or without a function): the field may be absent.
    pub default: bool,
    pub skip_serializing_if: bool,
    /// `skip`, `skip_serializing` or `skip_deserializing`: not a property.
    pub skip: bool,
    /// `with`, `serialize_with` or `deserialize_with`: the JSON is whatever that code makes
    /// of the value, so the field's Rust type says nothing about it.
    pub custom: bool,
    /// `#[schemac(unchecked)]`: the user vouches for the field's type.
    pub unchecked: bool,
}

/// `#[schemac(...)]` and `#[serde(...)]` on an enum variant.
#[derive(Debug, Default)]
pub struct Variant {
    pub rename: Option<String>,
    pub skip: bool,
    /// `#[serde(untagged)]`: the variant reads what no other does (`Other(String)`).
    pub untagged: bool,
    /// `#[schemac(open)]`: the user accepts that the variant keeps values the schema rejects.
    pub open: bool,
}

pub fn container(attrs: &[Attribute], errors: &mut Errors) -> Container {
    let mut out = Container::default();
    each_item(attrs, errors, |source, meta| match source {
        Source::Schemac => {
            if meta.path.is_ident("schema") {
                out.schema = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("pointer") {
                out.pointer = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("ignore_unknown") {
                out.ignore_unknown = true;
            } else {
                return Err(meta.error(format!(
                    "unknown `schemac` attribute `{}`; on a struct or enum: `schema = \"...\"`, `pointer = \"...\"`, `ignore_unknown`",
                    path_text(meta)
                )));
            }
            Ok(())
        }
        Source::Serde => {
            if meta.path.is_ident("rename_all") {
                let name = one_name(meta, "rename_all")?;
                match RenameRule::parse(&name.value()) {
                    Some(rule) => out.rename_all = Some(rule),
                    None => {
                        return Err(syn::Error::new(
                            name.span(),
                            format!("unknown `rename_all` rule \"{}\"; serde accepts {}", name.value(), RenameRule::spellings()),
                        ));
                    }
                }
            } else if meta.path.is_ident("deny_unknown_fields") {
                out.deny_unknown_fields = Some(meta.path.get_ident().map_or_else(Span::call_site, |i| i.span()));
            } else if meta.path.is_ident("default") {
                out.default = true;
                skip_value(meta.input)?;
            } else if ["tag", "content", "untagged", "transparent", "from", "try_from", "into", "remote"]
                .iter()
                .any(|name| meta.path.is_ident(name))
            {
                out.representation = Some((meta.path.get_ident().map_or_else(Span::call_site, |i| i.span()), path_text(meta)));
                skip_value(meta.input)?;
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        }
    });
    out
}

pub fn field(attrs: &[Attribute], errors: &mut Errors) -> Field {
    let mut out = Field::default();
    each_item(attrs, errors, |source, meta| match source {
        Source::Schemac => {
            if meta.path.is_ident("unchecked") {
                out.unchecked = true;
                Ok(())
            } else {
                Err(meta.error(format!("unknown `schemac` attribute `{}`; on a field: `unchecked`", path_text(meta))))
            }
        }
        Source::Serde => {
            if meta.path.is_ident("rename") {
                out.rename = Some(one_name(meta, "rename")?.value());
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.path.is_ident("default") {
                out.default = true;
                skip_value(meta.input)?;
            } else if meta.path.is_ident("skip_serializing_if") {
                out.skip_serializing_if = true;
                skip_value(meta.input)?;
            } else if ["skip", "skip_serializing", "skip_deserializing"].iter().any(|name| meta.path.is_ident(name)) {
                out.skip = true;
            } else if ["with", "serialize_with", "deserialize_with"].iter().any(|name| meta.path.is_ident(name)) {
                out.custom = true;
                skip_value(meta.input)?;
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        }
    });
    out
}

pub fn variant(attrs: &[Attribute], errors: &mut Errors) -> Variant {
    let mut out = Variant::default();
    for attr in attrs {
        if attr.path().is_ident("schemac") {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("open") {
                    out.open = true;
                    Ok(())
                } else {
                    Err(meta.error("on a variant, `schemac` takes only `open` (a catch-all `Other(String)`); the others go on the enum"))
                }
            });
            if let Err(err) = result {
                errors.push(err);
            }
            continue;
        }
        if !attr.path().is_ident("serde") {
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                out.rename = Some(one_name(&meta, "rename")?.value());
            } else if ["skip", "skip_serializing", "skip_deserializing"].iter().any(|name| meta.path.is_ident(name)) {
                out.skip = true;
            } else if meta.path.is_ident("untagged") {
                out.untagged = true;
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        });
        if let Err(err) = result {
            errors.push(err);
        }
    }
    out
}

/// Which attribute a nested item is in.
#[derive(Clone, Copy)]
enum Source {
    Schemac,
    Serde,
}

/// Runs `read` on every item of the `#[schemac(...)]` and `#[serde(...)]` attributes in
/// `attrs`, in order, collecting the errors (each attribute stops at its first).
fn each_item(attrs: &[Attribute], errors: &mut Errors, mut read: impl FnMut(Source, &ParseNestedMeta<'_>) -> syn::Result<()>) {
    for attr in attrs {
        let source = if attr.path().is_ident("schemac") {
            Source::Schemac
        } else if attr.path().is_ident("serde") {
            Source::Serde
        } else {
            continue;
        };
        if let Err(err) = attr.parse_nested_meta(|meta| read(source, &meta)) {
            errors.push(err);
        }
    }
}

/// `rename = "x"`, or `rename(serialize = "x", deserialize = "y")` with both the same: a JSON
/// property has one name, so a type that reads and writes different names cannot match it.
fn one_name(meta: &ParseNestedMeta<'_>, what: &str) -> syn::Result<LitStr> {
    if meta.input.peek(Token![=]) {
        return meta.value()?.parse();
    }
    let mut serialize: Option<LitStr> = None;
    let mut deserialize: Option<LitStr> = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            serialize = Some(inner.value()?.parse()?);
        } else if inner.path.is_ident("deserialize") {
            deserialize = Some(inner.value()?.parse()?);
        } else {
            skip_value(inner.input)?;
        }
        Ok(())
    })?;
    match (serialize, deserialize) {
        (Some(ser), Some(de)) if ser.value() != de.value() => Err(syn::Error::new(
            de.span(),
            format!("`{what}` gives different names for serializing and deserializing; a JSON Schema property has one name"),
        )),
        (Some(name), _) | (None, Some(name)) => Ok(name),
        (None, None) => Err(meta.error(format!("expected `{what} = \"...\"`"))),
    }
}

/// Consumes the value of an attribute the check does not read: `= expr`, `(...)` or nothing.
fn skip_value(input: ParseStream<'_>) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        input.parse::<syn::Expr>()?;
    } else if input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

fn path_text(meta: &ParseNestedMeta<'_>) -> String {
    meta.path.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}
