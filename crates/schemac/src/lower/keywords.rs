//! Reading a schema's keywords for lowering: the parts a schema flattens into and the merged
//! [`View`] over them, and the annotations that become docs. Keywords come typed from the
//! [`crate::schema`] model; this module says which of them matter to the Rust shape.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::Draft;
use crate::ir::{Docs, Format};
use crate::resolve::Loc;
use crate::schema::{Class, Keyword, KindSet, Model, Schema, SchemaId};

/// Keywords that apply subschemas to the instance itself (rather than to its children); a
/// schema without them is a "leaf" for `unevaluatedProperties`.
const IN_PLACE: &[Keyword] = &[
    Keyword::Ref,
    Keyword::DynamicRef,
    Keyword::RecursiveRef,
    Keyword::AllOf,
    Keyword::AnyOf,
    Keyword::OneOf,
    Keyword::Not,
    Keyword::If,
    Keyword::DependentSchemas,
    Keyword::Dependencies,
];

/// Keywords only the `Checked` fallback expresses (and `dependencies` with a schema value).
pub(super) const CHECK_ONLY: &[Keyword] = &[Keyword::Not, Keyword::If, Keyword::DependentSchemas];

/// Keywords that only constrain objects or arrays and that give the type its shape.
const OBJECT_SHAPE: &[Keyword] =
    &[Keyword::Properties, Keyword::Required, Keyword::AdditionalProperties, Keyword::PatternProperties, Keyword::UnevaluatedProperties];
const ARRAY_SHAPE: &[Keyword] = &[Keyword::Items, Keyword::PrefixItems, Keyword::AdditionalItems];

/// Whether a schema constrains instances (rather than only documenting them), apart from the
/// `$ref`s and `allOf` that flattening has already followed: an assertion or applicator other
/// than those (`then`/`else` say nothing without `if`), or a `format` the IR has a type for.
pub(super) fn constrains(schema: &Schema) -> bool {
    schema.keywords().any(|keyword| match keyword {
        Keyword::Ref | Keyword::DynamicRef | Keyword::RecursiveRef | Keyword::AllOf | Keyword::Then | Keyword::Else => false,
        Keyword::Format => schema.format.as_deref().and_then(parse_format).is_some(),
        keyword => matches!(keyword.info().class, Class::Assertion | Class::Applicator),
    })
}

/// The string formats that have a runtime type.
pub(super) fn parse_format(name: &str) -> Option<Format> {
    Some(match name {
        "date-time" => Format::DateTime,
        "date" => Format::Date,
        "time" => Format::Time,
        "duration" => Format::Duration,
        "email" => Format::Email,
        "hostname" => Format::Hostname,
        "ipv4" => Format::Ipv4,
        "ipv6" => Format::Ipv6,
        "uri" => Format::Uri,
        "uri-reference" => Format::UriReference,
        "uuid" => Format::Uuid,
        "json-pointer" => Format::JsonPointer,
        "regex" => Format::Regex,
        "idn-email" => Format::IdnEmail,
        "idn-hostname" => Format::IdnHostname,
        "iri" => Format::Iri,
        "iri-reference" => Format::IriReference,
        "uri-template" => Format::UriTemplate,
        "relative-json-pointer" => Format::RelativeJsonPointer,
        _ => return None,
    })
}

/// One schema object whose keywords all apply to the instance: the schema itself, or one
/// reached through `$ref`/`allOf` from it.
#[derive(Clone, Debug)]
pub(super) struct Part<'r> {
    pub loc: Loc,
    /// Its keywords; a refinement's rest has the keywords its check enforces removed.
    pub schema: Cow<'r, Schema>,
    pub draft: Draft,
}

impl<'r> Part<'r> {
    pub fn new(loc: Loc, schema: &'r Schema, draft: Draft) -> Part<'r> {
        Part { loc, schema: Cow::Borrowed(schema), draft }
    }

    pub fn has(&self, keyword: Keyword) -> bool {
        self.schema.has(keyword)
    }

    /// The location of `keyword`'s value (for one subschema, the subschema's location).
    pub fn at(&self, keyword: Keyword) -> Loc {
        self.loc.child(keyword.name())
    }

    /// Whether no keyword of this part applies another schema to the instance itself.
    pub fn is_leaf(&self) -> bool {
        !IN_PLACE.iter().any(|k| self.has(*k))
    }

    /// The locations of the subschemas in the list `list` of keyword `keyword` (`allOf`,
    /// `oneOf`, ...).
    pub fn list_locs(&self, keyword: Keyword, list: Option<&Vec<SchemaId>>) -> Vec<Loc> {
        let at = self.at(keyword);
        let len = list.map_or(0, Vec::len);
        (0..len).map(|i| at.child(&i.to_string())).collect()
    }

    pub fn all_of(&self) -> Vec<Loc> {
        self.list_locs(Keyword::AllOf, self.schema.all_of.as_ref())
    }

    pub fn any_of(&self) -> Vec<Loc> {
        self.list_locs(Keyword::AnyOf, self.schema.any_of.as_ref())
    }

    pub fn one_of(&self) -> Vec<Loc> {
        self.list_locs(Keyword::OneOf, self.schema.one_of.as_ref())
    }

    /// The `type` keyword as a set, `None` when absent.
    pub fn declared_kinds(&self) -> Option<KindSet> {
        self.schema.types
    }

    /// The values `enum` and `const` allow (their intersection), `None` when neither is present.
    pub fn allowed_values(&self) -> Option<Vec<Value>> {
        self.schema.allowed_values()
    }
}

/// The parts of one schema, read as the single schema they add up to (their `allOf`).
#[derive(Clone, Debug)]
pub(super) struct View<'r> {
    pub parts: Vec<Part<'r>>,
    /// Where the schema was written: the origin of the types it becomes and its docs.
    pub entry: Loc,
    /// The schema objects whose annotations document it (the entry, or each merged location).
    pub doc_schemas: Vec<&'r Schema>,
    /// The part that is an ancestor of all the others, when there is one (for the scope of
    /// `unevaluatedProperties`).
    pub top: Option<usize>,
}

impl<'r> View<'r> {
    /// The same schema with `keywords` removed from every part.
    pub fn without(&self, keywords: &[Keyword]) -> View<'r> {
        let parts = self.parts.iter().map(|p| Part { schema: Cow::Owned(p.schema.without(keywords)), ..p.clone() }).collect();
        View { parts, ..self.clone() }
    }

    /// Every part that has `keyword`.
    pub fn with(&self, keyword: Keyword) -> impl Iterator<Item = &Part<'r>> + '_ {
        self.parts.iter().filter(move |p| p.has(keyword))
    }

    pub fn has(&self, keyword: Keyword) -> bool {
        self.parts.iter().any(|p| p.has(keyword))
    }

    pub fn has_any(&self, keywords: &[Keyword]) -> bool {
        keywords.iter().any(|k| self.has(*k))
    }

    /// The locations of `keywords` wherever they occur, for `Def::unenforced`.
    pub fn present(&self, keywords: &[Keyword]) -> Vec<Loc> {
        self.parts.iter().flat_map(|p| keywords.iter().filter(|k| p.has(**k)).map(|k| p.at(*k))).collect()
    }

    /// The intersection of every part's `type`; `None` when no part has one.
    pub fn declared_kinds(&self) -> Option<KindSet> {
        self.parts.iter().filter_map(Part::declared_kinds).reduce(KindSet::intersect)
    }

    /// The distinct `pattern`s across parts, with where the first one is.
    pub fn distinct_patterns(&self) -> Vec<(&str, Loc)> {
        self.distinct(Keyword::Pattern, |s| s.pattern.as_deref())
    }

    /// The distinct `format`s across parts, with where the first one is.
    pub fn distinct_formats(&self) -> Vec<(&str, Loc)> {
        self.distinct(Keyword::Format, |s| s.format.as_deref())
    }

    fn distinct<'v>(&'v self, keyword: Keyword, get: impl Fn(&'v Schema) -> Option<&'v str>) -> Vec<(&'v str, Loc)> {
        let mut out: Vec<(&str, Loc)> = Vec::new();
        for part in &self.parts {
            if let Some(s) = get(&part.schema)
                && !out.iter().any(|(seen, _)| *seen == s)
            {
                out.push((s, part.at(keyword)));
            }
        }
        out
    }

    /// The first `format` the IR has a type for.
    pub fn known_format(&self) -> Option<Format> {
        self.parts.iter().filter_map(|p| p.schema.format.as_deref()).find_map(parse_format)
    }

    /// Keywords that give an object, array or string its shape (as opposed to assertions the
    /// IR lists as unenforced): with them but without `type`, the schema is not `Any`.
    pub fn has_shape(&self, model: &Model) -> bool {
        self.has_any(OBJECT_SHAPE)
            || self.has_any(ARRAY_SHAPE)
            || self.parts.iter().filter_map(|p| p.schema.unevaluated_items).any(|id| model.node(id).boolean() != Some(true))
            || self.has(Keyword::Pattern)
            || self.known_format().is_some()
    }

    /// `properties` merged across parts, in document order: name → every schema for it.
    pub fn properties(&self) -> Vec<(String, Vec<Loc>)> {
        let mut out: Vec<(String, Vec<Loc>)> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for part in &self.parts {
            let Some(props) = &part.schema.properties else { continue };
            let at = part.at(Keyword::Properties);
            for (name, _) in props {
                let loc = at.child(name);
                match index.get(name.as_str()) {
                    Some(&i) => out[i].1.push(loc),
                    None => {
                        index.insert(name, out.len());
                        out.push((name.clone(), vec![loc]));
                    }
                }
            }
        }
        out
    }

    /// `required` merged across parts, without duplicates.
    pub fn required(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for part in &self.parts {
            for name in part.schema.required.iter().flatten() {
                if seen.insert(name) {
                    out.push(name.clone());
                }
            }
        }
        out
    }

    /// The title of the schema as written (not of what it refers to).
    pub fn title(&self) -> Option<String> {
        self.doc_schemas.iter().find_map(|s| s.title.clone())
    }

    pub fn docs(&self) -> Docs {
        docs_of(&self.doc_schemas)
    }
}

/// Documentation merged from several schema objects: the first of each annotation wins.
pub(super) fn docs_of(schemas: &[&Schema]) -> Docs {
    let text = |get: fn(&Schema) -> &Option<String>| schemas.iter().find_map(|s| get(s).clone());
    let flag = |get: fn(&Schema) -> Option<bool>| schemas.iter().any(|s| get(s) == Some(true));
    Docs {
        title: text(|s| &s.title),
        description: text(|s| &s.description),
        examples: schemas.iter().find_map(|s| s.examples.clone()).unwrap_or_default(),
        default: schemas.iter().find_map(|s| s.default.clone()),
        deprecated: flag(|s| s.deprecated),
        read_only: flag(|s| s.read_only),
        write_only: flag(|s| s.write_only),
        format: text(|s| &s.format),
    }
}
