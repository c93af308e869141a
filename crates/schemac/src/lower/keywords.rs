//! Reading schema keywords: which keywords exist in which draft, the parts a schema flattens
//! into and the merged [`View`] over them, `type` as a [`KindSet`], and the annotations that
//! become docs.
//!
//! The getters here are lenient: a keyword with a value of the wrong shape reads as absent,
//! because `validate` has already reported it.

use serde_json::{Map, Value};

use crate::Draft;
use crate::ir::{Docs, Format, Kind};
use crate::resolve::Loc;

/// Keywords that make a schema more than documentation. Everything else (annotations,
/// `$defs`, unknown keywords) does not change which instances are valid.
const CONSTRAINING: &[&str] = &[
    "type",
    "enum",
    "const",
    "pattern",
    "format",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Keywords that apply subschemas to the instance itself (rather than to its children); a
/// schema without them is a "leaf" for `unevaluatedProperties`.
const IN_PLACE: &[&str] =
    &["$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "dependencies"];

/// Keywords only the `Checked` fallback expresses (and `dependencies` with a schema value).
pub(super) const CHECK_ONLY: &[&str] = &["not", "if", "dependentSchemas"];

/// Keywords that only constrain objects, arrays or strings and that give the type its shape.
const OBJECT_SHAPE: &[&str] = &["properties", "required", "additionalProperties", "patternProperties", "unevaluatedProperties"];
const ARRAY_SHAPE: &[&str] = &["items", "prefixItems", "additionalItems"];

/// Whether `keyword` means something in `draft` (e.g. `const` is unknown to draft 4, and
/// `items` after `prefixItems` is 2020-12 only).
pub(super) fn is_keyword(keyword: &str, draft: Draft) -> bool {
    match keyword {
        "const" | "contains" | "propertyNames" => draft >= Draft::Draft6,
        "if" | "then" | "else" => draft >= Draft::Draft7,
        // Split into `dependentRequired` and `dependentSchemas` in 2019-09; a later schema
        // that still writes it means the same (the suite's `optional/dependencies-compatibility`).
        "dependencies" => true,
        "additionalItems" => draft <= Draft::Draft2019_09,
        "dependentRequired" | "dependentSchemas" | "unevaluatedProperties" | "unevaluatedItems" | "minContains" | "maxContains" => {
            draft >= Draft::Draft2019_09
        }
        "$recursiveRef" => draft == Draft::Draft2019_09,
        "prefixItems" | "$dynamicRef" => draft >= Draft::Draft2020_12,
        _ => true,
    }
}

/// Whether a schema object constrains instances (rather than only documenting them), apart
/// from the `$ref`s and `allOf` that flattening has already followed.
pub(super) fn constrains(map: &Map<String, Value>, draft: Draft) -> bool {
    map.iter().any(|(keyword, value)| match keyword.as_str() {
        "$ref" | "$dynamicRef" | "$recursiveRef" | "allOf" => false,
        // A `format` the IR has no type for is an annotation.
        "format" => value.as_str().and_then(parse_format).is_some(),
        keyword => CONSTRAINING.contains(&keyword) && is_keyword(keyword, draft),
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
    pub map: &'r Map<String, Value>,
    pub draft: Draft,
    /// Keywords read as absent: a refinement's check enforces them instead of the type.
    pub hidden: &'static [&'static str],
}

impl<'r> Part<'r> {
    pub fn new(loc: Loc, map: &'r Map<String, Value>, draft: Draft) -> Part<'r> {
        Part { loc, map, draft, hidden: &[] }
    }

    /// The value of `keyword`, if it is a keyword of this part's draft.
    pub fn get(&self, keyword: &str) -> Option<&'r Value> {
        if is_keyword(keyword, self.draft) && !self.hidden.contains(&keyword) { self.map.get(keyword) } else { None }
    }

    pub fn has(&self, keyword: &str) -> bool {
        self.get(keyword).is_some()
    }

    pub fn at(&self, keyword: &str) -> Loc {
        self.loc.child(keyword)
    }

    pub fn str(&self, keyword: &str) -> Option<&'r str> {
        self.get(keyword).and_then(Value::as_str)
    }

    pub fn array(&self, keyword: &str) -> Option<&'r Vec<Value>> {
        self.get(keyword).and_then(Value::as_array)
    }

    pub fn object(&self, keyword: &str) -> Option<&'r Map<String, Value>> {
        self.get(keyword).and_then(Value::as_object)
    }

    /// Whether no keyword of this part applies another schema to the instance itself.
    pub fn is_leaf(&self) -> bool {
        !IN_PLACE.iter().any(|k| self.has(k))
    }

    /// The locations of the subschemas in the array keyword `keyword` (`allOf`, `oneOf`, ...).
    pub fn schema_list(&self, keyword: &str) -> Vec<Loc> {
        let at = self.at(keyword);
        let len = self.array(keyword).map_or(0, Vec::len);
        (0..len).map(|i| at.child(&i.to_string())).collect()
    }

    /// The `type` keyword as a set, `None` when absent (or invalid, which was reported).
    pub fn declared_kinds(&self) -> Option<KindSet> {
        match self.get("type")? {
            Value::String(name) => KindSet::from_name(name),
            // An empty array is reported by validation; read it as absent.
            Value::Array(names) if !names.is_empty() => {
                let mut set = KindSet::EMPTY;
                for name in names {
                    set = set.union(KindSet::from_name(name.as_str()?)?);
                }
                Some(set)
            }
            _ => None,
        }
    }

    /// The values `enum` and `const` allow (their intersection), `None` when neither is present.
    pub fn allowed_values(&self) -> Option<Vec<Value>> {
        let mut values: Option<Vec<Value>> = self.array("enum").cloned();
        if let Some(constant) = self.get("const") {
            values = Some(match values {
                Some(list) => list.into_iter().filter(|v| v == constant).collect(),
                None => vec![constant.clone()],
            });
        }
        values
    }
}

/// The parts of one schema, read as the single schema they add up to (their `allOf`).
#[derive(Clone, Debug)]
pub(super) struct View<'r> {
    pub parts: Vec<Part<'r>>,
    /// Where the schema was written: the origin of the types it becomes and its docs.
    pub entry: Loc,
    /// The schema objects whose annotations document it (the entry, or each merged location).
    pub doc_maps: Vec<&'r Map<String, Value>>,
    /// The part that is an ancestor of all the others, when there is one (for the scope of
    /// `unevaluatedProperties`).
    pub top: Option<usize>,
}

impl<'r> View<'r> {
    /// The same schema with `keywords` read as absent in every part.
    pub fn without(&self, keywords: &'static [&'static str]) -> View<'r> {
        let parts = self.parts.iter().map(|p| Part { hidden: keywords, ..p.clone() }).collect();
        View { parts, ..self.clone() }
    }

    /// `(part, value)` for every part that has `keyword`.
    pub fn all(&self, keyword: &str) -> impl Iterator<Item = (&Part<'r>, &'r Value)> + '_ {
        let keyword = keyword.to_owned();
        self.parts.iter().filter_map(move |p| p.get(&keyword).map(|v| (p, v)))
    }

    pub fn has(&self, keyword: &str) -> bool {
        self.parts.iter().any(|p| p.has(keyword))
    }

    pub fn has_any(&self, keywords: &[&str]) -> bool {
        keywords.iter().any(|k| self.has(k))
    }

    /// The locations of `keywords` wherever they occur, for `Def::unenforced`.
    pub fn present(&self, keywords: &[&str]) -> Vec<Loc> {
        self.parts.iter().flat_map(|p| keywords.iter().filter(|k| p.has(k)).map(|k| p.at(k))).collect()
    }

    /// The intersection of every part's `type`; `None` when no part has one.
    pub fn declared_kinds(&self) -> Option<KindSet> {
        self.parts.iter().filter_map(Part::declared_kinds).reduce(KindSet::intersect)
    }

    /// The distinct string values of `keyword` across parts, with where the first one is.
    pub fn distinct_strs(&self, keyword: &str) -> Vec<(&'r str, Loc)> {
        let mut out: Vec<(&'r str, Loc)> = Vec::new();
        for part in &self.parts {
            if let Some(s) = part.str(keyword)
                && !out.iter().any(|(seen, _)| *seen == s)
            {
                out.push((s, part.at(keyword)));
            }
        }
        out
    }

    /// The first `format` the IR has a type for.
    pub fn known_format(&self) -> Option<Format> {
        self.parts.iter().filter_map(|p| p.str("format")).find_map(parse_format)
    }

    /// Keywords that give an object, array or string its shape (as opposed to assertions the
    /// IR lists as unenforced): with them but without `type`, the schema is not `Any`.
    pub fn has_shape(&self) -> bool {
        self.has_any(OBJECT_SHAPE)
            || self.has_any(ARRAY_SHAPE)
            || self.all("unevaluatedItems").any(|(_, v)| v != &Value::Bool(true))
            || self.has("pattern")
            || self.known_format().is_some()
    }

    /// `properties` merged across parts, in document order: name → every schema for it.
    pub fn properties(&self) -> Vec<(String, Vec<Loc>)> {
        let mut out: Vec<(String, Vec<Loc>)> = Vec::new();
        for part in &self.parts {
            let Some(props) = part.object("properties") else { continue };
            let at = part.at("properties");
            for name in props.keys() {
                let loc = at.child(name);
                match out.iter_mut().find(|(n, _)| n == name) {
                    Some((_, locs)) => locs.push(loc),
                    None => out.push((name.clone(), vec![loc])),
                }
            }
        }
        out
    }

    /// `required` merged across parts, without duplicates.
    pub fn required(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (_, value) in self.all("required") {
            for name in value.as_array().into_iter().flatten().filter_map(Value::as_str) {
                if !out.iter().any(|n| n == name) {
                    out.push(name.to_owned());
                }
            }
        }
        out
    }

    /// The title of the schema as written (not of what it refers to).
    pub fn title(&self) -> Option<String> {
        self.doc_maps.iter().find_map(|m| m.get("title").and_then(Value::as_str)).map(str::to_owned)
    }

    pub fn docs(&self) -> Docs {
        docs_of(&self.doc_maps)
    }
}

/// Documentation merged from several schema objects: the first of each annotation wins.
pub(super) fn docs_of(maps: &[&Map<String, Value>]) -> Docs {
    let text = |key: &str| maps.iter().find_map(|m| m.get(key).and_then(Value::as_str)).map(str::to_owned);
    let flag = |key: &str| maps.iter().any(|m| m.get(key).and_then(Value::as_bool) == Some(true));
    Docs {
        title: text("title"),
        description: text("description"),
        examples: maps.iter().find_map(|m| m.get("examples").and_then(Value::as_array)).cloned().unwrap_or_default(),
        default: maps.iter().find_map(|m| m.get("default")).cloned(),
        deprecated: flag("deprecated"),
        read_only: flag("readOnly"),
        write_only: flag("writeOnly"),
        format: text("format"),
    }
}

/// A set of JSON kinds. `Integer` is a subset of `Number`; a set is kept normalized so that it
/// never holds both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KindSet(u8);

/// The kinds in the order union variants are listed.
const ORDER: [Kind; 7] = [Kind::Null, Kind::Boolean, Kind::Integer, Kind::Number, Kind::String, Kind::Array, Kind::Object];

impl KindSet {
    pub const EMPTY: KindSet = KindSet(0);
    /// Every JSON value (`Number` covers `Integer`).
    pub const ALL: KindSet = KindSet(0b111_1111 & !(1 << 2));

    const fn bit(kind: Kind) -> u8 {
        1 << match kind {
            Kind::Null => 0,
            Kind::Boolean => 1,
            Kind::Integer => 2,
            Kind::Number => 3,
            Kind::String => 4,
            Kind::Array => 5,
            Kind::Object => 6,
        }
    }

    pub fn of(kind: Kind) -> KindSet {
        KindSet(Self::bit(kind))
    }

    pub fn from_name(name: &str) -> Option<KindSet> {
        kind_from_name(name).map(KindSet::of)
    }

    /// The kind of a JSON value; numbers without a fractional part are `Integer`.
    pub fn of_value(value: &Value) -> KindSet {
        KindSet::of(kind_of_value(value))
    }

    pub fn contains(self, kind: Kind) -> bool {
        self.0 & Self::bit(kind) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0).normalized()
    }

    pub fn without(self, kind: Kind) -> KindSet {
        KindSet(self.0 & !Self::bit(kind))
    }

    /// Integers are numbers: `{integer} ∩ {number}` is `{integer}`.
    pub fn intersect(self, other: KindSet) -> KindSet {
        let mut out = KindSet(self.0 & other.0);
        if self.numeric() && other.numeric() && !out.contains(Kind::Number) {
            out.0 |= Self::bit(Kind::Integer);
        }
        out.normalized()
    }

    /// Whether some value has a kind in both sets.
    pub fn overlaps(self, other: KindSet) -> bool {
        !self.intersect(other).is_empty()
    }

    /// Whether `value` is of one of these kinds.
    pub fn accepts(self, value: &Value) -> bool {
        match kind_of_value(value) {
            Kind::Integer => self.numeric(),
            kind => self.contains(kind),
        }
    }

    fn numeric(self) -> bool {
        self.contains(Kind::Integer) || self.contains(Kind::Number)
    }

    fn normalized(self) -> KindSet {
        if self.contains(Kind::Number) { self.without(Kind::Integer) } else { self }
    }

    pub fn kinds(self) -> Vec<Kind> {
        ORDER.into_iter().filter(|k| self.contains(*k)).collect()
    }

    /// The single kind of the set, if it has exactly one.
    pub fn single(self) -> Option<Kind> {
        match self.kinds().as_slice() {
            [kind] => Some(*kind),
            _ => None,
        }
    }
}

pub(super) fn kind_from_name(name: &str) -> Option<Kind> {
    Some(match name {
        "null" => Kind::Null,
        "boolean" => Kind::Boolean,
        "object" => Kind::Object,
        "array" => Kind::Array,
        "number" => Kind::Number,
        "integer" => Kind::Integer,
        "string" => Kind::String,
        _ => return None,
    })
}

pub(super) fn kind_of_value(value: &Value) -> Kind {
    match value {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Integer,
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => Kind::Integer,
        Value::Number(_) => Kind::Number,
        Value::String(_) => Kind::String,
        Value::Array(_) => Kind::Array,
        Value::Object(_) => Kind::Object,
    }
}

/// The name of a kind as a union variant hint.
pub(super) fn kind_hint(kind: Kind) -> &'static str {
    match kind {
        Kind::Null => "Null",
        Kind::Boolean => "Boolean",
        Kind::Object => "Object",
        Kind::Array => "Array",
        Kind::Number => "Number",
        Kind::Integer => "Integer",
        Kind::String => "String",
    }
}

/// The `$defs`/`definitions` key when the schema at `pointer` is declared directly under one.
/// The pointer is read as schema grammar, so a property *named* `$defs` is not mistaken for it.
pub(super) fn defs_key(pointer: &str) -> Option<String> {
    let tokens: Vec<String> = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect();
    let mut key = None;
    let mut i = 0;
    while let Some(keyword) = tokens.get(i) {
        key = None;
        let keyword = keyword.as_str();
        match keyword {
            "properties" | "patternProperties" | "dependentSchemas" | "dependencies" | "$defs" | "definitions" => {
                let name = tokens.get(i + 1)?;
                if matches!(keyword, "$defs" | "definitions") {
                    key = Some(name.clone());
                }
                i += 2;
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => i += 2,
            // `items` is a schema, or (before 2020-12) an array of schemas.
            "items" if tokens.get(i + 1).is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())) => i += 2,
            "items"
            | "additionalItems"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contentSchema" => i += 1,
            _ => return None,
        }
    }
    key
}
