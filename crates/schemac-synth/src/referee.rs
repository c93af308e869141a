//! The referee: the `jsonschema` crate decides whether an instance is valid against any
//! subschema of the loaded documents, and which keywords it violates where. The synthesizer
//! keeps only what it confirms, so there is one validator for synthesis and for the round-trip
//! tests that replay its instances.
//!
//! Every loaded document is a resource of one `jsonschema` registry, under each URI a `$ref`
//! reaches it by, so references to other files resolve without any retrieval (the registry
//! refuses to fetch). A subschema is validated through a one-line schema that refers to it
//! (`{"$ref": "<document URI>#<pointer>"}`), compiled once per location.
//!
//! `jsonschema` reports each failure at the keyword's absolute location; [`Referee::failures`]
//! reads that location as schema grammar ([`Model::keyword_at`]) to name the keyword, and
//! points at the value that is wrong: for `additionalProperties`, `unevaluatedProperties`,
//! `additionalItems` and `unevaluatedItems`, which jsonschema reports once at the object or
//! array, each offending property or item, as the generated types report them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use jsonschema::error::ValidationErrorKind;
use schemac::Draft;
use schemac_model::diag::{Diagnostic, Diagnostics, Kind};
use schemac_model::resolve::{Loc, Registry};
use schemac_model::schema::{Keyword, Model};
use serde_json::Value;

use super::schema::escape;

/// What failed: a keyword, or a `false` schema (which no value satisfies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Label {
    Keyword(Keyword),
    False,
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Keyword(keyword) => f.write_str(keyword.name()),
            Label::False => f.write_str("false"),
        }
    }
}

/// One violated keyword: at which instance pointer, which keyword, and where the keyword is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub pointer: String,
    pub keyword: Label,
    /// The keyword's location in the schema, e.g. `/properties/a/minimum` (a `false` schema's
    /// own location).
    pub schema: Loc,
}

/// The base URI of the one-line schemas that refer to the subschema validated: nothing is
/// ever resolved against it.
const WRAPPER: &str = "urn:schemac-synth:referee";

/// `jsonschema` over every loaded document, with a validator per subschema asked about.
pub(crate) struct Referee {
    resources: jsonschema::Registry<'static>,
    /// The URI each document (by `DocId`) is validated through.
    uris: Vec<String>,
    /// The validator of each subschema asked about, or why `jsonschema` cannot compile it.
    validators: RefCell<HashMap<Loc, Result<Rc<jsonschema::Validator>, String>>>,
}

impl fmt::Debug for Referee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Referee").field("uris", &self.uris).field("validators", &self.validators.borrow().len()).finish_non_exhaustive()
    }
}

impl Referee {
    /// Registers every document of the front end: under its base URI (its `$id`, else its file
    /// URL), the URLs it was loaded for, and every other URI a reached `$ref` names it by.
    pub fn new(front: &schemac::Front) -> Result<Referee, Diagnostics> {
        let registry = &front.registry;
        let mut names: Vec<Vec<String>> = registry
            .docs
            .iter()
            .map(|doc| {
                let root = Loc { doc: doc.id, pointer: String::new() };
                let mut names: Vec<String> = registry.base_uri(&root).map(|uri| uri.as_str().to_owned()).into_iter().collect();
                names.extend(doc.aliases.iter().cloned());
                names
            })
            .collect();
        for (_, node) in front.model.nodes() {
            let Some(schema) = node.schema() else { continue };
            for (_, reference) in schema.refs() {
                let Ok(target) = reference.target() else { continue };
                let Some(resource) = resource_uri(registry, &node.loc, &reference.reference) else { continue };
                // The URI names the whole document (not a resource embedded in it, which its
                // document's registration brings along).
                let root = Loc { doc: target.loc.doc, pointer: String::new() };
                let list = &mut names[target.loc.doc.0];
                if registry.lookup_uri(&resource).as_ref() == Some(&root) && !list.contains(&resource) {
                    list.push(resource);
                }
            }
        }
        let mut builder = jsonschema::Registry::new();
        for (doc, uris) in registry.docs.iter().zip(&names) {
            for uri in uris {
                let resource = jsonschema_draft(doc.draft).create_resource(doc.json.clone());
                builder = builder.add(uri, resource).map_err(|e| unreadable(registry, doc.id, uri, &e))?;
            }
        }
        let resources = builder.prepare().map_err(|e| {
            let message = format!("jsonschema cannot index the loaded schemas: {e}");
            Diagnostics(vec![Diagnostic::of(&SYNTHESIS, "", "", message)])
        })?;
        let uris = names.into_iter().map(|list| list.into_iter().next().unwrap_or_default()).collect();
        Ok(Referee { resources, uris, validators: RefCell::new(HashMap::new()) })
    }

    /// Why `jsonschema` cannot compile the schema at `loc`, once it was asked about it.
    pub fn problem(&self, loc: &Loc) -> Option<String> {
        self.validators.borrow().get(loc)?.as_ref().err().cloned()
    }

    /// Whether `value` is valid against the schema at `loc`. A subschema `jsonschema` cannot
    /// compile accepts nothing (and [`Referee::problem`] says why).
    pub fn is_valid(&self, model: &Model, loc: &Loc, value: &Value) -> bool {
        self.validator(model, loc).is_ok_and(|validator| validator.is_valid(value))
    }

    /// Every keyword `value` violates against the schema at `loc`, each at the pointer of the
    /// offending value (relative to `value`).
    pub fn failures(&self, model: &Model, registry: &Registry, loc: &Loc, value: &Value) -> Vec<Failure> {
        let Ok(validator) = self.validator(model, loc) else {
            let schema = loc.child(Keyword::Ref.name());
            return vec![Failure { pointer: String::new(), keyword: Label::Keyword(Keyword::Ref), schema }];
        };
        let mut out = Vec::new();
        for error in validator.iter_errors(value) {
            let pointer = error.instance_path().as_str().to_owned();
            let at = error.absolute_keyword_location().and_then(|uri| locate(registry, uri.as_str()));
            let (keyword, schema) = match &at {
                Some(at) => label(model, at, error.kind()),
                None => (kind_label(error.kind()), loc.clone()),
            };
            let here = value.pointer(&pointer);
            match error.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    out.extend(unexpected.iter().map(|name| Failure { pointer: member(&pointer, name), keyword, schema: schema.clone() }));
                }
                // `additionalProperties: false` alone: jsonschema fails the object as a whole;
                // every property of it is one too many.
                ValidationErrorKind::FalseSchema if keyword == Label::Keyword(Keyword::AdditionalProperties) => {
                    let names = here.and_then(Value::as_object).into_iter().flat_map(|map| map.keys());
                    out.extend(names.map(|name| Failure { pointer: member(&pointer, name), keyword, schema: schema.clone() }));
                }
                ValidationErrorKind::AdditionalItems { limit } => {
                    let count = here.and_then(Value::as_array).map_or(0, Vec::len);
                    out.extend((*limit..count).map(|i| Failure { pointer: format!("{pointer}/{i}"), keyword, schema: schema.clone() }));
                }
                ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                    let parts = unexpected.iter().map(|name| (member(&pointer, name), here.and_then(|object| object.get(name))));
                    self.unevaluated(model, registry, &schema, keyword, parts.collect(), &mut out);
                }
                ValidationErrorKind::UnevaluatedItems { unexpected } => {
                    let items = here.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                    let parts = unevaluated_items(items, unexpected).into_iter().map(|i| (format!("{pointer}/{i}"), items.get(i)));
                    self.unevaluated(model, registry, &schema, keyword, parts.collect(), &mut out);
                }
                _ => out.push(Failure { pointer, keyword, schema }),
            }
        }
        out
    }

    /// The failures of properties or items no other keyword evaluates: `false` fails each
    /// where it is; a schema fails where its own keywords do, as for any other applicator.
    fn unevaluated(
        &self,
        model: &Model,
        registry: &Registry,
        schema: &Loc,
        keyword: Label,
        parts: Vec<(String, Option<&Value>)>,
        out: &mut Vec<Failure>,
    ) {
        let closed = model.at(schema).and_then(|node| node.boolean()) == Some(false);
        for (pointer, value) in parts {
            let inner = match value {
                Some(value) if !closed => self.failures(model, registry, schema, value),
                Some(_) | None => Vec::new(),
            };
            if inner.is_empty() {
                out.push(Failure { pointer, keyword, schema: schema.clone() });
            } else {
                out.extend(inner.into_iter().map(|f| Failure { pointer: format!("{pointer}{}", f.pointer), ..f }));
            }
        }
    }

    fn validator(&self, model: &Model, loc: &Loc) -> Result<Rc<jsonschema::Validator>, String> {
        if let Some(cached) = self.validators.borrow().get(loc) {
            return cached.clone();
        }
        let draft = model.at(loc).map_or(Draft::Draft2020_12, |node| node.draft);
        let uri = self.uris.get(loc.doc.0).cloned().unwrap_or_default();
        let target = Value::String(format!("{uri}#{}", fragment(&loc.pointer)));
        let wrapper = Value::Object([(Keyword::Ref.name().to_owned(), target)].into_iter().collect());
        let built = jsonschema::options()
            .with_draft(jsonschema_draft(draft))
            .with_registry(&self.resources)
            .with_base_uri(WRAPPER)
            .offline()
            .should_validate_formats(false)
            .build(&wrapper);
        let validator =
            built.map(Rc::new).map_err(|error| format!("jsonschema cannot compile the schema at {uri}#{}: {error}", loc.pointer));
        self.validators.borrow_mut().insert(loc.clone(), validator.clone());
        validator
    }
}

/// The draft `jsonschema` reads a document in.
pub(crate) fn jsonschema_draft(draft: Draft) -> jsonschema::Draft {
    match draft {
        Draft::Draft4 => jsonschema::Draft::Draft4,
        Draft::Draft6 => jsonschema::Draft::Draft6,
        Draft::Draft7 => jsonschema::Draft::Draft7,
        Draft::Draft2019_09 => jsonschema::Draft::Draft201909,
        Draft::Draft2020_12 => jsonschema::Draft::Draft202012,
    }
}

/// The keyword and schema location of a failure `jsonschema` reports at `at`.
///
/// At a keyword's value (`/properties/a/minimum`, `/dependentRequired/0`, draft 4's
/// `exclusiveMinimum` reported at `/minimum`): that keyword of the schema holding it. At a
/// subschema (`/contains`, `/propertyNames`, `/additionalProperties`), whose keyword failed as
/// a whole: the keyword holding it. A `false` schema fails as `false`, except as the whole
/// value of a keyword that says which properties or items may exist (`additionalProperties:
/// false`, `items: false`, ...): then that keyword is what the instance violates.
fn label(model: &Model, at: &Loc, kind: &ValidationErrorKind) -> (Label, Loc) {
    let Some(held) = model.keyword_at(at) else { return (kind_label(kind), at.clone()) };
    if model.at(at).is_none() {
        let schema = model.loc(held.schema).child(held.keyword.name());
        return (Label::Keyword(held.keyword), schema);
    }
    let limits = matches!(
        held.keyword,
        Keyword::AdditionalProperties
            | Keyword::UnevaluatedProperties
            | Keyword::PropertyNames
            | Keyword::Items
            | Keyword::AdditionalItems
            | Keyword::UnevaluatedItems
            | Keyword::Contains
    );
    match kind {
        ValidationErrorKind::FalseSchema if !(held.whole && limits) => (Label::False, at.clone()),
        _ => (Label::Keyword(held.keyword), at.clone()),
    }
}

/// What each kind of `jsonschema` error is about, for a failure whose location names no
/// keyword of the model (which only a schema jsonschema reads differently would give).
fn kind_label(kind: &ValidationErrorKind) -> Label {
    let keyword = match kind {
        ValidationErrorKind::FalseSchema => return Label::False,
        ValidationErrorKind::AdditionalItems { .. } => Keyword::AdditionalItems,
        ValidationErrorKind::AdditionalProperties { .. } => Keyword::AdditionalProperties,
        ValidationErrorKind::AnyOf { .. } => Keyword::AnyOf,
        ValidationErrorKind::BacktrackLimitExceeded { .. }
        | ValidationErrorKind::RegexEngineFailure { .. }
        | ValidationErrorKind::Pattern { .. } => Keyword::Pattern,
        ValidationErrorKind::Constant { .. } => Keyword::Const,
        ValidationErrorKind::Contains => Keyword::Contains,
        ValidationErrorKind::ContentEncoding { .. } | ValidationErrorKind::FromUtf8 { .. } => Keyword::ContentEncoding,
        ValidationErrorKind::ContentMediaType { .. } => Keyword::ContentMediaType,
        ValidationErrorKind::Enum { .. } => Keyword::Enum,
        ValidationErrorKind::ExclusiveMaximum { .. } => Keyword::ExclusiveMaximum,
        ValidationErrorKind::ExclusiveMinimum { .. } => Keyword::ExclusiveMinimum,
        ValidationErrorKind::Format { .. } => Keyword::Format,
        ValidationErrorKind::MaxItems { .. } => Keyword::MaxItems,
        ValidationErrorKind::Maximum { .. } => Keyword::Maximum,
        ValidationErrorKind::MaxLength { .. } => Keyword::MaxLength,
        ValidationErrorKind::MaxProperties { .. } => Keyword::MaxProperties,
        ValidationErrorKind::MinItems { .. } => Keyword::MinItems,
        ValidationErrorKind::Minimum { .. } => Keyword::Minimum,
        ValidationErrorKind::MinLength { .. } => Keyword::MinLength,
        ValidationErrorKind::MinProperties { .. } => Keyword::MinProperties,
        ValidationErrorKind::MultipleOf { .. } => Keyword::MultipleOf,
        ValidationErrorKind::Not { .. } => Keyword::Not,
        ValidationErrorKind::OneOfMultipleValid { .. } | ValidationErrorKind::OneOfNotValid { .. } => Keyword::OneOf,
        ValidationErrorKind::PropertyNames { .. } => Keyword::PropertyNames,
        ValidationErrorKind::Required { .. } => Keyword::Required,
        ValidationErrorKind::Type { .. } => Keyword::Type,
        ValidationErrorKind::UnevaluatedItems { .. } => Keyword::UnevaluatedItems,
        ValidationErrorKind::UnevaluatedProperties { .. } => Keyword::UnevaluatedProperties,
        ValidationErrorKind::UniqueItems => Keyword::UniqueItems,
        // A reference jsonschema cannot follow; and custom keywords, of which none is
        // registered, so that jsonschema reports none.
        ValidationErrorKind::Referencing(_) | ValidationErrorKind::Custom { .. } => Keyword::Ref,
    };
    Label::Keyword(keyword)
}

/// The indices of the items `jsonschema` lists (as their JSON text) for `unevaluatedItems`.
/// The items some keyword evaluates are a prefix (`prefixItems`, `items`) and those `contains`
/// matches, which match by value; so of equal items, the unevaluated ones are the last.
fn unevaluated_items(items: &[Value], unexpected: &[String]) -> Vec<usize> {
    let mut left: Vec<&str> = unexpected.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate().rev() {
        let text = item.to_string();
        if let Some(at) = left.iter().rposition(|t| *t == text) {
            left.remove(at);
            out.push(i);
        }
    }
    out.reverse();
    out
}

/// The location an absolute keyword location names. `jsonschema` places some failures below
/// the keyword's value, where the document has nothing (`dependentRequired` at
/// `/dependentRequired/0`): then the deepest location above it that exists.
fn locate(registry: &Registry, uri: &str) -> Option<Loc> {
    let mut uri = uri;
    loop {
        if let Some(loc) = registry.lookup_uri(uri) {
            return Some(loc);
        }
        let (base, fragment) = uri.split_once('#')?;
        let cut = fragment.rfind('/')?;
        uri = &uri[..base.len() + 1 + cut];
    }
}

/// The pointer of property `name` of the object at `pointer`.
fn member(pointer: &str, name: &str) -> String {
    format!("{pointer}/{}", escape(name))
}

/// The resource part (without fragment) of `reference` resolved against the base URI at
/// `from`, as `jsonschema` resolves it.
fn resource_uri(registry: &Registry, from: &Loc, reference: &str) -> Option<String> {
    let mut uri = registry.base_uri(from)?.join(reference).ok()?;
    uri.set_fragment(None);
    Some(uri.as_str().to_owned())
}

/// A JSON pointer as a URI fragment: every character a fragment may not hold percent-encoded
/// (`jsonschema` decodes it before following the pointer).
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        let keep = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte);
        if keep {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The referee cannot read the loaded schemas (synthesis's own diagnostic: jsonschema must
/// accept what the model accepted).
const SYNTHESIS: Kind = Kind::new("synthesis", false, "synthesis needs every schema readable by jsonschema");

fn unreadable(registry: &Registry, doc: schemac_model::DocId, uri: &str, error: &jsonschema::ReferencingError) -> Diagnostics {
    let root = Loc { doc, pointer: String::new() };
    let diagnostic = registry
        .error_of(&SYNTHESIS, &root, format!("jsonschema cannot register the schema as {uri}: {error}"))
        .with_hint("synthesis referees every instance with jsonschema, which must read every loaded schema");
    Diagnostics(vec![diagnostic])
}
