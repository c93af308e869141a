//! The schema model: every subschema reached from the inputs, parsed once into typed keywords
//! with resolved references, between resolve and lower. It is the one reader of schema JSON:
//! lowering, synthesis, the derive and the reference pages read keywords from here.
//!
//! Each [`Node`] is one subschema at a [`Loc`] (document, JSON pointer; line:column through the
//! [`Registry`](crate::resolve::Registry)). Keywords are fields of [`Schema`]: bounds as the
//! numbers written, `type` as a [`KindSet`], `required` as names, applicators as child
//! [`SchemaId`]s, references as their resolved targets. Values that are data (`const`, `enum`,
//! `default`, `examples`) and keywords the model does not know keep their JSON.
//!
//! [`build`] parses every schema of each document it reaches, reporting each keyword of the
//! wrong shape (what was expected, and a hint), then follows applicators and references from
//! the inputs' roots, resolving each reference it reaches.

mod build;
pub mod bundle;
mod cycles;
pub(crate) mod keyword;
mod kinds;
mod pointer;
pub(crate) mod scan;

use std::collections::HashMap;

use serde_json::{Number, Value};

use crate::diag::Diagnostic;
use crate::doc::Loc;
use crate::draft::Draft;

pub use build::build;
pub use keyword::{Applies, Class, Info, Keyword, Vocabulary};
pub use kinds::{Kind, KindSet, kind_hint, kind_of_value};
pub use pointer::{KeywordAt, defs_key, entry_key};

/// A node of the [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SchemaId(u32);

impl SchemaId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Every subschema reached from the inputs (and every schema of the documents they are in).
#[derive(Debug, Default)]
pub struct Model {
    nodes: Vec<Node>,
    by_loc: HashMap<Loc, SchemaId>,
}

impl Model {
    pub fn node(&self, id: SchemaId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The node at `loc`, if the model has one (every reached location has one).
    pub fn at(&self, loc: &Loc) -> Option<&Node> {
        self.by_loc.get(loc).map(|id| self.node(*id))
    }

    pub fn id_at(&self, loc: &Loc) -> Option<SchemaId> {
        self.by_loc.get(loc).copied()
    }

    /// The schema object at `loc` (not a boolean schema).
    pub fn schema_at(&self, loc: &Loc) -> Option<&Schema> {
        self.at(loc).and_then(Node::schema)
    }

    pub fn loc(&self, id: SchemaId) -> &Loc {
        &self.node(id).loc
    }

    /// Every node with its id, in the order they were parsed (document order per document).
    pub fn nodes(&self) -> impl Iterator<Item = (SchemaId, &Node)> {
        self.nodes.iter().enumerate().map(|(i, node)| (SchemaId(i as u32), node))
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// One subschema.
#[derive(Clone, Debug)]
pub struct Node {
    pub loc: Loc,
    /// The draft in force here.
    pub draft: Draft,
    pub body: Body,
    /// Whether the inputs reach it (through applicators and references): what lowering sees.
    /// References of nodes that are not reached are not resolved.
    pub reached: bool,
}

impl Node {
    pub fn schema(&self) -> Option<&Schema> {
        match &self.body {
            Body::Object(schema) => Some(schema),
            Body::Bool(_) | Body::Invalid => None,
        }
    }

    /// `Some(b)` for the boolean schemas `true` and `false`.
    pub fn boolean(&self) -> Option<bool> {
        match self.body {
            Body::Bool(b) => Some(b),
            Body::Object(_) | Body::Invalid => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Body {
    /// `true` accepts every value, `false` none.
    Bool(bool),
    Object(Box<Schema>),
    /// A JSON value that is not a schema (reported where a schema was expected).
    Invalid,
}

/// A reference keyword's value and where it goes.
#[derive(Clone, Debug)]
pub struct Ref {
    pub reference: String,
    pub resolution: Resolution,
}

#[derive(Clone, Debug)]
pub enum Resolution {
    /// The schema holding the reference is not reached from the inputs.
    Unreached,
    Resolved(Target),
    /// It resolves to no loaded schema (the diagnostic says why, with a hint).
    Failed(Box<Diagnostic>),
}

/// The schema a reference resolves to.
#[derive(Clone, Debug)]
pub struct Target {
    pub id: SchemaId,
    pub loc: Loc,
    /// For a `$dynamicRef` whose static target declares the `$dynamicAnchor` it names (or a
    /// `$recursiveRef` whose target has `"$recursiveAnchor": true`, the name `""`): the anchor
    /// name the dynamic scope rebinds.
    pub dynamic: Option<String>,
}

impl Ref {
    /// The target, or why there is none.
    pub fn target(&self) -> Result<&Target, Option<&Diagnostic>> {
        match &self.resolution {
            Resolution::Resolved(target) => Ok(target),
            Resolution::Failed(diagnostic) => Err(Some(diagnostic)),
            Resolution::Unreached => Err(None),
        }
    }
}

/// Draft ≤ 2019-09 array-form `items` is a tuple; otherwise `items` applies to every item.
#[derive(Clone, Debug, PartialEq)]
pub enum Items {
    Schema(SchemaId),
    Tuple(Vec<SchemaId>),
}

/// Draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum` (modifying `minimum`/`maximum`), or
/// the bound itself (draft 6 on).
#[derive(Clone, Debug, PartialEq)]
pub enum Exclusive {
    Flag(bool),
    Bound(Number),
}

/// A value of draft ≤ 7 `dependencies`.
#[derive(Clone, Debug, PartialEq)]
pub enum Dependency {
    /// The properties the named one requires (what `dependentRequired` says later).
    Names(Vec<String>),
    /// The schema an object with the named property must satisfy (`dependentSchemas`).
    Schema(SchemaId),
}

/// A schema object's keywords, each typed; `None` when absent (or of the wrong shape, which
/// was reported). A field is filled only where its keyword means something in the node's
/// draft ([`Keyword::in_draft`]); other members are [`Schema::unknown`].
#[derive(Clone, Debug, Default)]
pub struct Schema {
    // Identifiers.
    pub schema: Option<String>,
    /// `$id` (draft 4: `id`).
    pub id: Option<String>,
    pub anchor: Option<String>,
    pub dynamic_anchor: Option<String>,
    pub recursive_anchor: Option<bool>,
    pub vocabulary: Option<Value>,
    pub comment: Option<String>,
    pub defs: Option<Vec<(String, SchemaId)>>,
    pub definitions: Option<Vec<(String, SchemaId)>>,
    // References.
    pub ref_: Option<Ref>,
    pub dynamic_ref: Option<Ref>,
    pub recursive_ref: Option<Ref>,
    // Applicators.
    pub all_of: Option<Vec<SchemaId>>,
    pub any_of: Option<Vec<SchemaId>>,
    pub one_of: Option<Vec<SchemaId>>,
    pub not: Option<SchemaId>,
    pub if_: Option<SchemaId>,
    pub then: Option<SchemaId>,
    pub else_: Option<SchemaId>,
    pub dependent_schemas: Option<Vec<(String, SchemaId)>>,
    pub dependencies: Option<Vec<(String, Dependency)>>,
    pub prefix_items: Option<Vec<SchemaId>>,
    pub items: Option<Items>,
    pub additional_items: Option<SchemaId>,
    pub contains: Option<SchemaId>,
    pub properties: Option<Vec<(String, SchemaId)>>,
    /// Pattern source → schema (the patterns compile: invalid ones were reported).
    pub pattern_properties: Option<Vec<(String, SchemaId)>>,
    pub additional_properties: Option<SchemaId>,
    pub property_names: Option<SchemaId>,
    pub unevaluated_items: Option<SchemaId>,
    pub unevaluated_properties: Option<SchemaId>,
    // Assertions.
    pub types: Option<KindSet>,
    /// `type` as written: its kinds in their order, `integer` beside `number` kept (the set
    /// [`Schema::types`] folds it into `number`). Present exactly when `types` is; for readers to
    /// whom the order matters, as synthesis, which tries the kinds in the schema's order.
    pub type_order: Option<Vec<Kind>>,
    pub enum_values: Option<Vec<Value>>,
    pub const_value: Option<Value>,
    pub multiple_of: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_maximum: Option<Exclusive>,
    pub minimum: Option<Number>,
    pub exclusive_minimum: Option<Exclusive>,
    pub max_length: Option<u64>,
    pub min_length: Option<u64>,
    pub pattern: Option<String>,
    pub max_items: Option<u64>,
    pub min_items: Option<u64>,
    pub unique_items: Option<bool>,
    pub max_contains: Option<u64>,
    pub min_contains: Option<u64>,
    pub max_properties: Option<u64>,
    pub min_properties: Option<u64>,
    pub required: Option<Vec<String>>,
    pub dependent_required: Option<Vec<(String, Vec<String>)>>,
    // Annotations.
    pub format: Option<String>,
    pub content_encoding: Option<String>,
    pub content_media_type: Option<String>,
    pub content_schema: Option<SchemaId>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub deprecated: Option<bool>,
    pub read_only: Option<bool>,
    pub write_only: Option<bool>,
    pub examples: Option<Vec<Value>>,
    /// Members that are no keyword of this draft (`x-` extensions, keywords of other drafts,
    /// and before 2019-09 whatever stands beside `$ref`), as written, in document order.
    pub unknown: Vec<(String, Value)>,
}

impl Schema {
    /// The value of the extension `name` (an `x-` member, kept in [`Schema::unknown`]), as
    /// written.
    pub fn extension(&self, name: &str) -> Option<&Value> {
        self.unknown.iter().find(|(key, _)| key == name).map(|(_, value)| value)
    }

    /// Whether the keyword is present.
    pub fn has(&self, keyword: Keyword) -> bool {
        match keyword {
            Keyword::Schema => self.schema.is_some(),
            Keyword::Id | Keyword::LegacyId => self.id.is_some(),
            Keyword::Anchor => self.anchor.is_some(),
            Keyword::DynamicAnchor => self.dynamic_anchor.is_some(),
            Keyword::RecursiveAnchor => self.recursive_anchor.is_some(),
            Keyword::Vocabulary => self.vocabulary.is_some(),
            Keyword::Comment => self.comment.is_some(),
            Keyword::Defs => self.defs.is_some(),
            Keyword::Definitions => self.definitions.is_some(),
            Keyword::Ref => self.ref_.is_some(),
            Keyword::DynamicRef => self.dynamic_ref.is_some(),
            Keyword::RecursiveRef => self.recursive_ref.is_some(),
            Keyword::AllOf => self.all_of.is_some(),
            Keyword::AnyOf => self.any_of.is_some(),
            Keyword::OneOf => self.one_of.is_some(),
            Keyword::Not => self.not.is_some(),
            Keyword::If => self.if_.is_some(),
            Keyword::Then => self.then.is_some(),
            Keyword::Else => self.else_.is_some(),
            Keyword::DependentSchemas => self.dependent_schemas.is_some(),
            Keyword::Dependencies => self.dependencies.is_some(),
            Keyword::PrefixItems => self.prefix_items.is_some(),
            Keyword::Items => self.items.is_some(),
            Keyword::AdditionalItems => self.additional_items.is_some(),
            Keyword::Contains => self.contains.is_some(),
            Keyword::Properties => self.properties.is_some(),
            Keyword::PatternProperties => self.pattern_properties.is_some(),
            Keyword::AdditionalProperties => self.additional_properties.is_some(),
            Keyword::PropertyNames => self.property_names.is_some(),
            Keyword::UnevaluatedItems => self.unevaluated_items.is_some(),
            Keyword::UnevaluatedProperties => self.unevaluated_properties.is_some(),
            Keyword::Type => self.types.is_some(),
            Keyword::Enum => self.enum_values.is_some(),
            Keyword::Const => self.const_value.is_some(),
            Keyword::MultipleOf => self.multiple_of.is_some(),
            Keyword::Maximum => self.maximum.is_some(),
            Keyword::ExclusiveMaximum => self.exclusive_maximum.is_some(),
            Keyword::Minimum => self.minimum.is_some(),
            Keyword::ExclusiveMinimum => self.exclusive_minimum.is_some(),
            Keyword::MaxLength => self.max_length.is_some(),
            Keyword::MinLength => self.min_length.is_some(),
            Keyword::Pattern => self.pattern.is_some(),
            Keyword::MaxItems => self.max_items.is_some(),
            Keyword::MinItems => self.min_items.is_some(),
            Keyword::UniqueItems => self.unique_items.is_some(),
            Keyword::MaxContains => self.max_contains.is_some(),
            Keyword::MinContains => self.min_contains.is_some(),
            Keyword::MaxProperties => self.max_properties.is_some(),
            Keyword::MinProperties => self.min_properties.is_some(),
            Keyword::Required => self.required.is_some(),
            Keyword::DependentRequired => self.dependent_required.is_some(),
            Keyword::Format => self.format.is_some(),
            Keyword::ContentEncoding => self.content_encoding.is_some(),
            Keyword::ContentMediaType => self.content_media_type.is_some(),
            Keyword::ContentSchema => self.content_schema.is_some(),
            Keyword::Title => self.title.is_some(),
            Keyword::Description => self.description.is_some(),
            Keyword::Default => self.default.is_some(),
            Keyword::Deprecated => self.deprecated.is_some(),
            Keyword::ReadOnly => self.read_only.is_some(),
            Keyword::WriteOnly => self.write_only.is_some(),
            Keyword::Examples => self.examples.is_some(),
        }
    }

    /// The same schema with `keywords` removed (as if never written).
    pub fn without(&self, keywords: &[Keyword]) -> Schema {
        let mut out = self.clone();
        for keyword in keywords {
            out.clear(*keyword);
        }
        out
    }

    fn clear(&mut self, keyword: Keyword) {
        match keyword {
            Keyword::Schema => self.schema = None,
            Keyword::Id | Keyword::LegacyId => self.id = None,
            Keyword::Anchor => self.anchor = None,
            Keyword::DynamicAnchor => self.dynamic_anchor = None,
            Keyword::RecursiveAnchor => self.recursive_anchor = None,
            Keyword::Vocabulary => self.vocabulary = None,
            Keyword::Comment => self.comment = None,
            Keyword::Defs => self.defs = None,
            Keyword::Definitions => self.definitions = None,
            Keyword::Ref => self.ref_ = None,
            Keyword::DynamicRef => self.dynamic_ref = None,
            Keyword::RecursiveRef => self.recursive_ref = None,
            Keyword::AllOf => self.all_of = None,
            Keyword::AnyOf => self.any_of = None,
            Keyword::OneOf => self.one_of = None,
            Keyword::Not => self.not = None,
            Keyword::If => self.if_ = None,
            Keyword::Then => self.then = None,
            Keyword::Else => self.else_ = None,
            Keyword::DependentSchemas => self.dependent_schemas = None,
            Keyword::Dependencies => self.dependencies = None,
            Keyword::PrefixItems => self.prefix_items = None,
            Keyword::Items => self.items = None,
            Keyword::AdditionalItems => self.additional_items = None,
            Keyword::Contains => self.contains = None,
            Keyword::Properties => self.properties = None,
            Keyword::PatternProperties => self.pattern_properties = None,
            Keyword::AdditionalProperties => self.additional_properties = None,
            Keyword::PropertyNames => self.property_names = None,
            Keyword::UnevaluatedItems => self.unevaluated_items = None,
            Keyword::UnevaluatedProperties => self.unevaluated_properties = None,
            Keyword::Type => {
                self.types = None;
                self.type_order = None;
            }
            Keyword::Enum => self.enum_values = None,
            Keyword::Const => self.const_value = None,
            Keyword::MultipleOf => self.multiple_of = None,
            Keyword::Maximum => self.maximum = None,
            Keyword::ExclusiveMaximum => self.exclusive_maximum = None,
            Keyword::Minimum => self.minimum = None,
            Keyword::ExclusiveMinimum => self.exclusive_minimum = None,
            Keyword::MaxLength => self.max_length = None,
            Keyword::MinLength => self.min_length = None,
            Keyword::Pattern => self.pattern = None,
            Keyword::MaxItems => self.max_items = None,
            Keyword::MinItems => self.min_items = None,
            Keyword::UniqueItems => self.unique_items = None,
            Keyword::MaxContains => self.max_contains = None,
            Keyword::MinContains => self.min_contains = None,
            Keyword::MaxProperties => self.max_properties = None,
            Keyword::MinProperties => self.min_properties = None,
            Keyword::Required => self.required = None,
            Keyword::DependentRequired => self.dependent_required = None,
            Keyword::Format => self.format = None,
            Keyword::ContentEncoding => self.content_encoding = None,
            Keyword::ContentMediaType => self.content_media_type = None,
            Keyword::ContentSchema => self.content_schema = None,
            Keyword::Title => self.title = None,
            Keyword::Description => self.description = None,
            Keyword::Default => self.default = None,
            Keyword::Deprecated => self.deprecated = None,
            Keyword::ReadOnly => self.read_only = None,
            Keyword::WriteOnly => self.write_only = None,
            Keyword::Examples => self.examples = None,
        }
    }

    /// The keywords present, in table order.
    pub fn keywords(&self) -> impl Iterator<Item = Keyword> + '_ {
        Keyword::ALL.into_iter().filter(|k| self.has(*k))
    }

    /// Whether the schema object is `{}`: no keyword, known or not.
    pub fn is_empty(&self) -> bool {
        self.unknown.is_empty() && self.keywords().next().is_none()
    }

    /// The reference keywords present, with their refs: `$ref`, then the draft's dynamic one.
    pub fn refs(&self) -> impl Iterator<Item = (Keyword, &Ref)> {
        [(Keyword::Ref, &self.ref_), (Keyword::DynamicRef, &self.dynamic_ref), (Keyword::RecursiveRef, &self.recursive_ref)]
            .into_iter()
            .filter_map(|(k, r)| r.as_ref().map(|r| (k, r)))
    }

    /// The tuple form: 2020-12 `prefixItems` with `items` after it, or before that array-form
    /// `items` with `additionalItems`. The keywords are returned for locations.
    pub fn tuple(&self, draft: Draft) -> Option<Tuple<'_>> {
        if draft >= Draft::Draft2020_12 {
            let prefix = self.prefix_items.as_deref()?;
            let rest = match &self.items {
                Some(Items::Schema(id)) => Some(*id),
                Some(Items::Tuple(_)) | None => None,
            };
            Some(Tuple { prefix, prefix_keyword: Keyword::PrefixItems, rest, rest_keyword: Keyword::Items })
        } else {
            let Some(Items::Tuple(prefix)) = &self.items else { return None };
            Some(Tuple { prefix, prefix_keyword: Keyword::Items, rest: self.additional_items, rest_keyword: Keyword::AdditionalItems })
        }
    }

    /// `items` as one schema for every item (not a tuple).
    pub fn items_schema(&self) -> Option<SchemaId> {
        match self.items {
            Some(Items::Schema(id)) => Some(id),
            Some(Items::Tuple(_)) | None => None,
        }
    }

    /// The values `enum` and `const` allow (their intersection), `None` when neither is present.
    pub fn allowed_values(&self) -> Option<Vec<Value>> {
        let mut values: Option<Vec<Value>> = self.enum_values.clone();
        if let Some(constant) = &self.const_value {
            values = Some(match values {
                Some(list) => list.into_iter().filter(|v| v == constant).collect(),
                None => vec![constant.clone()],
            });
        }
        values
    }
}

/// A tuple: the schemas of the leading items, and of the items after them.
#[derive(Clone, Copy, Debug)]
pub struct Tuple<'s> {
    pub prefix: &'s [SchemaId],
    pub prefix_keyword: Keyword,
    pub rest: Option<SchemaId>,
    pub rest_keyword: Keyword,
}

#[cfg(test)]
mod tests;
