//! Building the [`Model`]: every schema of each document the inputs reach is parsed into its
//! typed keywords once, each keyword of the wrong shape reported (`invalid-schema`,
//! `invalid-pattern`: what was expected, with a hint); then applicators and references are
//! followed from the inputs' roots, and each reference reached is resolved.
//!
//! Nothing here recurses on the input's depth: both walks keep explicit work lists.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::keyword::{Class, Keyword};
use super::kinds::{Kind, KindSet, kind_from_name};
use super::{Body, Dependency, Exclusive, Items, Model, Node, Ref, Resolution, Schema, SchemaId, Target};
use crate::diag::{Diagnostic, Severity};
use crate::doc::{DocId, Loc};
use crate::draft::Draft;
use crate::resolve::Registry;

const TYPE_NAMES: &str = "\"null\", \"boolean\", \"object\", \"array\", \"number\", \"integer\", \"string\"";

/// Models every document the inputs reach. The diagnostics are in document order.
pub fn build(registry: &Registry) -> (Model, Vec<Diagnostic>) {
    let mut builder = Builder {
        reg: registry,
        model: Model::default(),
        diags: Vec::new(),
        modeled: HashSet::new(),
        pending: Vec::new(),
        reach: Vec::new(),
        dynamic: !registry.dynamic_names().is_empty(),
    };
    for doc in registry.docs.iter().filter(|d| d.is_input) {
        match registry.at_pointer(doc.id, &doc.root_pointer) {
            Ok(root) => {
                builder.reach_loc(&root);
            }
            Err(diagnostic) => builder.diags.push((doc.id, diagnostic)),
        }
    }
    builder.follow();
    let Builder { model, mut diags, .. } = builder;
    diags.extend(super::cycles::check(&model, registry));
    // Document order: by document, then by position in it (the order of a depth-first read).
    diags.sort_by_key(|(doc, diagnostic)| (*doc, diagnostic.position.unwrap_or((usize::MAX, usize::MAX))));
    (model, diags.into_iter().map(|(_, d)| d).collect())
}

struct Builder<'r> {
    reg: &'r Registry,
    model: Model,
    /// Each with the document it is about, for sorting.
    diags: Vec<(DocId, Diagnostic)>,
    /// Documents whose schemas are all parsed.
    modeled: HashSet<DocId>,
    /// Nodes to parse: (id, JSON, whether its keywords are reported when of the wrong shape).
    pending: Vec<(SchemaId, &'r Value, bool)>,
    /// Nodes reached but not yet followed.
    reach: Vec<SchemaId>,
    /// Whether some dynamic reference exists: then every dynamic anchor is reached, as the
    /// dynamic scope may lead to any of them.
    dynamic: bool,
}

impl<'r> Builder<'r> {
    /// Marks the schema at `loc` reached (parsing its document first).
    fn reach_loc(&mut self, loc: &Loc) -> Option<SchemaId> {
        self.model_document(loc.doc);
        let id = match self.model.id_at(loc) {
            Some(id) => id,
            None => {
                // A ref may point anywhere in a document, also where the grammar has no schema
                // (`#/components/x`): that value is read as a schema, leniently.
                let value = self.reg.get(loc)?;
                let id = self.node(loc.clone(), value, false);
                self.parse_pending();
                id
            }
        };
        self.reach.push(id);
        Some(id)
    }

    /// Parses every schema of `doc` that the grammar reaches from its root, reporting
    /// keywords of the wrong shape.
    fn model_document(&mut self, doc: DocId) {
        if !self.modeled.insert(doc) {
            return;
        }
        let root = Loc { doc, pointer: String::new() };
        let Some(value) = self.reg.get(&root) else { return };
        let first = self.model.nodes.len();
        self.node(root, value, true);
        self.parse_pending();
        if self.dynamic {
            // The nodes parsed just now are this document's.
            let anchors = (first..self.model.nodes.len())
                .map(|i| SchemaId(i as u32))
                .filter(|id| self.model.node(*id).schema().is_some_and(|s| s.dynamic_anchor.is_some() || s.recursive_anchor == Some(true)));
            let anchors: Vec<SchemaId> = anchors.collect();
            self.reach.extend(anchors);
        }
    }

    /// Follows applicators and references from every reached node, resolving references.
    fn follow(&mut self) {
        while let Some(id) = self.reach.pop() {
            let node = &mut self.model.nodes[id.index()];
            if node.reached {
                continue;
            }
            node.reached = true;
            let loc = node.loc.clone();
            let Body::Object(schema) = &node.body else { continue };
            let children = applied(schema);
            let refs: Vec<(Keyword, String)> = schema.refs().map(|(k, r)| (k, r.reference.clone())).collect();
            self.reach.extend(children.into_iter().rev());
            for (keyword, reference) in refs {
                let resolution = self.resolve(&loc, keyword, &reference);
                if let Resolution::Failed(diagnostic) = &resolution {
                    self.diags.push((loc.doc, (**diagnostic).clone()));
                }
                let Some(schema) = self.model.nodes[id.index()].schema_mut() else { continue };
                let slot = [
                    (Keyword::Ref, &mut schema.ref_),
                    (Keyword::DynamicRef, &mut schema.dynamic_ref),
                    (Keyword::RecursiveRef, &mut schema.recursive_ref),
                ]
                .into_iter()
                .find_map(|(k, slot)| (k == keyword).then_some(slot));
                if let Some(Some(r)) = slot {
                    r.resolution = resolution;
                }
            }
        }
    }

    fn resolve(&mut self, from: &Loc, keyword: Keyword, reference: &str) -> Resolution {
        let loc = match self.reg.resolve(from, reference) {
            Ok(loc) => loc,
            Err(diagnostic) => return Resolution::Failed(Box::new(diagnostic)),
        };
        let Some(id) = self.reach_loc(&loc) else {
            let message = format!("there is no schema at `{}`", loc.pointer);
            let diagnostic = self
                .reg
                .error("unresolved-ref", &from.child(keyword.name()), message)
                .with_hint("the JSON pointer after `#` must name an existing schema");
            return Resolution::Failed(Box::new(diagnostic));
        };
        if matches!(self.model.node(id).body, Body::Invalid) {
            let found = self.reg.get(&loc).map(found).unwrap_or_default();
            let message = format!("`{reference}` leads to `{}`, which is not a schema (found {found})", loc.pointer);
            let diagnostic = self
                .reg
                .error("unresolved-ref", &from.child(keyword.name()), message)
                .with_hint("a reference must lead to a schema: an object or `true`/`false`");
            return Resolution::Failed(Box::new(diagnostic));
        }
        let dynamic = self.dynamic_anchor_of(keyword, reference, id);
        Resolution::Resolved(Target { id, loc, dynamic })
    }

    /// The anchor name a dynamic reference rebinds: its fragment when the static target
    /// declares it as `$dynamicAnchor` (2020-12), `""` when the target has
    /// `"$recursiveAnchor": true` (2019-09); `None` for a reference that stays static.
    fn dynamic_anchor_of(&self, keyword: Keyword, reference: &str, target: SchemaId) -> Option<String> {
        let schema = self.model.node(target).schema()?;
        match keyword {
            Keyword::DynamicRef => {
                let (_, fragment) = reference.split_once('#')?;
                let name = crate::uri::percent_decode(fragment);
                (schema.dynamic_anchor.as_deref() == Some(name.as_str())).then_some(name)
            }
            Keyword::RecursiveRef => (schema.recursive_anchor == Some(true)).then(String::new),
            _ => None,
        }
    }

    /// The node for the schema `value` at `loc`, created and queued for parsing when new.
    fn node(&mut self, loc: Loc, value: &'r Value, report: bool) -> SchemaId {
        if let Some(id) = self.model.id_at(&loc) {
            return id;
        }
        let id = SchemaId(self.model.nodes.len() as u32);
        let draft = self.reg.draft_at(&loc);
        self.model.by_loc.insert(loc.clone(), id);
        self.model.nodes.push(Node { loc, draft, body: Body::Invalid, reached: false });
        self.pending.push((id, value, report));
        id
    }

    fn parse_pending(&mut self) {
        while let Some((id, value, report)) = self.pending.pop() {
            let loc = self.model.loc(id).clone();
            let draft = self.model.node(id).draft;
            let body = match value {
                Value::Bool(b) => Body::Bool(*b),
                Value::Object(map) => {
                    let mut parser = Parser { b: self, loc: &loc, draft, report };
                    Body::Object(Box::new(parser.schema(map)))
                }
                other => {
                    if report {
                        self.error(
                            &loc,
                            format!("expected a schema (an object or `true`/`false`), found {}", found(other)),
                            "write the schema as an object such as `{\"type\": \"string\"}`; `true` accepts anything and `false` nothing",
                        );
                    }
                    Body::Invalid
                }
            };
            self.model.nodes[id.index()].body = body;
        }
    }

    fn error(&mut self, loc: &Loc, message: impl Into<String>, hint: impl Into<String>) {
        let diagnostic = self.reg.error("invalid-schema", loc, message).with_hint(hint);
        self.diags.push((loc.doc, diagnostic));
    }
}

impl Node {
    fn schema_mut(&mut self) -> Option<&mut Schema> {
        match &mut self.body {
            Body::Object(schema) => Some(schema),
            Body::Bool(_) | Body::Invalid => None,
        }
    }
}

/// The subschemas that apply where `schema` applies (to the instance or its children), in
/// document order: what lowering may reach. `$defs` apply nowhere, `then`/`else` only beside
/// `if`, `additionalItems` only after a tuple, `contentSchema` never (it is an annotation).
fn applied(schema: &Schema) -> Vec<SchemaId> {
    let mut out = Vec::new();
    let lists = [&schema.all_of, &schema.any_of, &schema.one_of, &schema.prefix_items];
    out.extend(lists.into_iter().flatten().flatten().copied());
    let named = [&schema.properties, &schema.pattern_properties, &schema.dependent_schemas];
    out.extend(named.into_iter().flatten().flatten().map(|(_, id)| *id));
    for (_, dependency) in schema.dependencies.iter().flatten() {
        if let Dependency::Schema(id) = dependency {
            out.push(*id);
        }
    }
    match &schema.items {
        Some(Items::Schema(id)) => out.push(*id),
        Some(Items::Tuple(list)) => {
            out.extend(list.iter().copied());
            out.extend(schema.additional_items);
        }
        None => {}
    }
    if schema.if_.is_some() {
        out.extend([schema.if_, schema.then, schema.else_].into_iter().flatten());
    }
    let single = [
        schema.not,
        schema.contains,
        schema.additional_properties,
        schema.property_names,
        schema.unevaluated_items,
        schema.unevaluated_properties,
    ];
    out.extend(single.into_iter().flatten());
    out
}

/// Parses one schema object's keywords.
struct Parser<'b, 'r> {
    b: &'b mut Builder<'r>,
    loc: &'b Loc,
    draft: Draft,
    /// Report keywords of the wrong shape (schemas in grammar positions), or read them as
    /// unknown members (values a ref reaches elsewhere).
    report: bool,
}

impl<'r> Parser<'_, 'r> {
    fn schema(&mut self, map: &'r Map<String, Value>) -> Schema {
        let mut out = Schema::default();
        // Before 2019-09, the other keywords beside `$ref` are ignored, whatever they hold;
        // the containers still hold schemas refs point into, and annotations still document.
        let only_ref = self.draft <= Draft::Draft7 && map.contains_key(Keyword::Ref.name());
        for (name, value) in map {
            let Some(keyword) = Keyword::in_draft(name, self.draft) else {
                out.unknown.push((name.clone(), value.clone()));
                continue;
            };
            let read = if only_ref {
                match keyword.info().class {
                    Class::Container | Class::Reference => self.keyword(&mut out, keyword, value),
                    Class::Annotation => self.quietly(|this| this.keyword(&mut out, keyword, value)),
                    Class::Identifier | Class::Applicator | Class::Assertion => false,
                }
            } else {
                self.keyword(&mut out, keyword, value)
            };
            if !read {
                out.unknown.push((name.clone(), value.clone()));
            }
        }
        out
    }

    /// Runs `f` without reporting.
    fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let report = std::mem::replace(&mut self.report, false);
        let out = f(self);
        self.report = report;
        out
    }

    fn at(&self, keyword: Keyword) -> Loc {
        self.loc.child(keyword.name())
    }

    /// Reads one keyword into `out`; `false` when its value has the wrong shape (reported when
    /// reporting).
    fn keyword(&mut self, out: &mut Schema, keyword: Keyword, value: &'r Value) -> bool {
        let at = self.at(keyword);
        let name = keyword.name();
        match keyword {
            Keyword::Schema => set(&mut out.schema, value.as_str().map(str::to_owned)),
            Keyword::Id | Keyword::LegacyId => set(&mut out.id, value.as_str().map(str::to_owned)),
            Keyword::Anchor => set(&mut out.anchor, value.as_str().map(str::to_owned)),
            Keyword::DynamicAnchor => set(&mut out.dynamic_anchor, value.as_str().map(str::to_owned)),
            Keyword::RecursiveAnchor => set(&mut out.recursive_anchor, value.as_bool()),
            Keyword::Vocabulary => set(&mut out.vocabulary, value.is_object().then(|| value.clone())),
            Keyword::Comment => set(&mut out.comment, self.annotation_string(&at, value, name)),
            Keyword::Defs => set(&mut out.defs, self.schema_map(&at, value, name)),
            Keyword::Definitions => set(&mut out.definitions, self.schema_map(&at, value, name)),
            Keyword::Ref => set(&mut out.ref_, self.reference(&at, value, name)),
            Keyword::DynamicRef => set(&mut out.dynamic_ref, self.reference(&at, value, name)),
            Keyword::RecursiveRef => set(&mut out.recursive_ref, self.reference(&at, value, name)),
            Keyword::AllOf => set(&mut out.all_of, self.schema_array(&at, value, name)),
            Keyword::AnyOf => set(&mut out.any_of, self.schema_array(&at, value, name)),
            Keyword::OneOf => set(&mut out.one_of, self.schema_array(&at, value, name)),
            Keyword::PrefixItems => set(&mut out.prefix_items, self.schema_array(&at, value, name)),
            Keyword::Not => set(&mut out.not, self.subschema(&at, value)),
            Keyword::If => set(&mut out.if_, self.subschema(&at, value)),
            Keyword::Then => set(&mut out.then, self.subschema(&at, value)),
            Keyword::Else => set(&mut out.else_, self.subschema(&at, value)),
            Keyword::AdditionalItems => set(&mut out.additional_items, self.subschema(&at, value)),
            Keyword::Contains => set(&mut out.contains, self.subschema(&at, value)),
            Keyword::AdditionalProperties => set(&mut out.additional_properties, self.subschema(&at, value)),
            Keyword::PropertyNames => set(&mut out.property_names, self.subschema(&at, value)),
            Keyword::UnevaluatedItems => set(&mut out.unevaluated_items, self.subschema(&at, value)),
            Keyword::UnevaluatedProperties => set(&mut out.unevaluated_properties, self.subschema(&at, value)),
            Keyword::ContentSchema => set(&mut out.content_schema, self.subschema(&at, value)),
            Keyword::Properties => set(&mut out.properties, self.schema_map(&at, value, name)),
            Keyword::PatternProperties => set(&mut out.pattern_properties, self.schema_map(&at, value, name)),
            Keyword::DependentSchemas => set(&mut out.dependent_schemas, self.schema_map(&at, value, name)),
            Keyword::Dependencies => set(&mut out.dependencies, self.dependencies(&at, value)),
            Keyword::Items => set(&mut out.items, self.items(&at, value)),
            Keyword::Type => {
                let parsed = self.types(&at, value);
                out.type_order = parsed.as_ref().map(|(_, order)| order.clone());
                set(&mut out.types, parsed.map(|(set, _)| set))
            }
            Keyword::Enum => set(&mut out.enum_values, self.enum_values(&at, value)),
            Keyword::Const => set(&mut out.const_value, Some(value.clone())),
            Keyword::MultipleOf => set(&mut out.multiple_of, self.number(&at, value, name)),
            Keyword::Maximum => set(&mut out.maximum, self.number(&at, value, name)),
            Keyword::Minimum => set(&mut out.minimum, self.number(&at, value, name)),
            Keyword::ExclusiveMaximum => set(&mut out.exclusive_maximum, self.exclusive(keyword, Keyword::Maximum, value)),
            Keyword::ExclusiveMinimum => set(&mut out.exclusive_minimum, self.exclusive(keyword, Keyword::Minimum, value)),
            Keyword::MaxLength => set(&mut out.max_length, self.count(&at, value, name)),
            Keyword::MinLength => set(&mut out.min_length, self.count(&at, value, name)),
            Keyword::MaxItems => set(&mut out.max_items, self.count(&at, value, name)),
            Keyword::MinItems => set(&mut out.min_items, self.count(&at, value, name)),
            Keyword::MaxContains => set(&mut out.max_contains, self.count(&at, value, name)),
            Keyword::MinContains => set(&mut out.min_contains, self.count(&at, value, name)),
            Keyword::MaxProperties => set(&mut out.max_properties, self.count(&at, value, name)),
            Keyword::MinProperties => set(&mut out.min_properties, self.count(&at, value, name)),
            Keyword::Pattern => set(&mut out.pattern, self.pattern(&at, value)),
            Keyword::UniqueItems => set(&mut out.unique_items, self.boolean(&at, value, name)),
            Keyword::Required => {
                set(&mut out.required, self.string_array(&at, value, name, "list the property names: `\"required\": [\"id\"]`"))
            }
            Keyword::DependentRequired => set(&mut out.dependent_required, self.dependent_required(&at, value)),
            Keyword::Format => set(&mut out.format, self.annotation_string(&at, value, name)),
            // Not reported before, and annotations: read when they have the usual shape.
            Keyword::ContentEncoding => set(&mut out.content_encoding, value.as_str().map(str::to_owned)),
            Keyword::ContentMediaType => set(&mut out.content_media_type, value.as_str().map(str::to_owned)),
            Keyword::Title => set(&mut out.title, self.annotation_string(&at, value, name)),
            Keyword::Description => set(&mut out.description, self.annotation_string(&at, value, name)),
            Keyword::Default => set(&mut out.default, Some(value.clone())),
            Keyword::Deprecated => set(&mut out.deprecated, self.annotation_boolean(&at, value, name)),
            Keyword::ReadOnly => set(&mut out.read_only, self.annotation_boolean(&at, value, name)),
            Keyword::WriteOnly => set(&mut out.write_only, self.annotation_boolean(&at, value, name)),
            Keyword::Examples => set(&mut out.examples, self.examples(&at, value)),
        }
    }

    fn error(&mut self, at: &Loc, message: impl Into<String>, hint: impl Into<String>) {
        if self.report {
            self.b.error(at, message, hint);
        }
    }

    fn subschema(&mut self, at: &Loc, value: &'r Value) -> Option<SchemaId> {
        match value {
            Value::Bool(_) | Value::Object(_) => Some(self.b.node(at.clone(), value, self.report)),
            other => {
                self.error(
                    at,
                    format!("expected a schema (an object or `true`/`false`), found {}", found(other)),
                    "write the schema as an object such as `{\"type\": \"string\"}`; `true` accepts anything and `false` nothing",
                );
                None
            }
        }
    }

    fn schema_map(&mut self, at: &Loc, value: &'r Value, keyword: &str) -> Option<Vec<(String, SchemaId)>> {
        let Value::Object(map) = value else {
            let hint = match keyword {
                "properties" => "map each property name to its schema: `\"properties\": {\"id\": {\"type\": \"string\"}}`",
                "patternProperties" => "map each regular expression to a schema: `\"patternProperties\": {\"^x-\": {}}`",
                _ => "map each name to a schema",
            };
            self.error(at, format!("`{keyword}` must be an object of schemas, found {}", found(value)), hint);
            return None;
        };
        let mut out = Vec::with_capacity(map.len());
        let container = keyword == Keyword::Defs.name() || keyword == Keyword::Definitions.name();
        for (name, schema) in map {
            let loc = at.child(name);
            if container && !(schema.is_object() || schema.is_boolean()) {
                // A definition nothing refers to changes nothing: a warning here, an error
                // where a reference leads to it.
                if self.report {
                    let message = format!("`{name}` in `{keyword}` is not a schema (found {}); nothing may refer to it", found(schema));
                    let diagnostic = self
                        .b
                        .reg
                        .error("not-a-schema", &loc, message)
                        .with_hint("write the definition as a schema object, or move data that is not a schema out of the definitions");
                    self.b.diags.push((loc.doc, Diagnostic { severity: Severity::Warning, ..diagnostic }));
                }
                out.push((name.clone(), self.b.node(loc, schema, false)));
                continue;
            }
            if keyword == Keyword::PatternProperties.name() && !self.check_pattern(&loc, name) {
                // Its schema is still parsed, so refs into it resolve; the pattern is dropped.
                let _ = self.subschema(&loc, schema);
                continue;
            }
            if let Some(id) = self.subschema(&loc, schema) {
                out.push((name.clone(), id));
            }
        }
        Some(out)
    }

    fn schema_array(&mut self, at: &Loc, value: &'r Value, keyword: &str) -> Option<Vec<SchemaId>> {
        match value {
            Value::Array(items) if !items.is_empty() => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    // A member that is not a schema is reported and left out.
                    if let Some(id) = self.subschema(&at.child(&i.to_string()), item) {
                        out.push(id);
                    }
                }
                Some(out)
            }
            Value::Array(_) => {
                self.error(
                    at,
                    format!("`{keyword}` is empty"),
                    format!("`{keyword}` needs at least one schema; remove it if there is none"),
                );
                None
            }
            other => {
                self.error(
                    at,
                    format!("`{keyword}` must be a non-empty array of schemas, found {}", found(other)),
                    format!("wrap the schema in an array: `\"{keyword}\": [{{...}}]`"),
                );
                None
            }
        }
    }

    fn items(&mut self, at: &Loc, value: &'r Value) -> Option<Items> {
        match value {
            Value::Array(_) if self.draft >= Draft::Draft2020_12 => {
                self.error(
                    at,
                    "in draft 2020-12, `items` is one schema for every item, not an array",
                    "for a tuple, use `prefixItems` (and `items` for the items after it)",
                );
                None
            }
            Value::Array(_) => self.schema_array(at, value, "items").map(Items::Tuple),
            Value::Object(_) | Value::Bool(_) => self.subschema(at, value).map(Items::Schema),
            other => {
                self.error(
                    at,
                    format!("`items` must be a schema, found {}", found(other)),
                    "describe every item with a schema: `\"items\": {\"type\": \"string\"}`",
                );
                None
            }
        }
    }

    /// `type` as a set, and its kinds in the written order.
    fn types(&mut self, at: &Loc, value: &Value) -> Option<(KindSet, Vec<Kind>)> {
        let names: Vec<(Loc, &Value)> = match value {
            Value::String(_) => vec![(at.clone(), value)],
            Value::Array(items) if !items.is_empty() => items.iter().enumerate().map(|(i, v)| (at.child(&i.to_string()), v)).collect(),
            Value::Array(_) => {
                self.error(at, "`type` is an empty array, which no value satisfies", format!("list at least one of {TYPE_NAMES}"));
                return None;
            }
            other => {
                self.error(
                    at,
                    format!("`type` must be a type name or an array of them, found {}", found(other)),
                    format!("use one of {TYPE_NAMES}, or an array such as `[\"string\", \"null\"]`"),
                );
                return None;
            }
        };
        let mut set = KindSet::EMPTY;
        let mut order = Vec::new();
        let mut valid = true;
        let mut seen = Vec::new();
        for (loc, name) in names {
            match name.as_str().map(|n| (n, kind_from_name(n))) {
                Some((n, Some(kind))) => {
                    if seen.contains(&n) {
                        self.error(&loc, format!("`type` lists \"{n}\" twice"), "list each type once");
                    } else {
                        order.push(kind);
                    }
                    seen.push(n);
                    set = set.union(KindSet::of(kind));
                }
                Some((n, None)) => {
                    self.error(&loc, format!("unknown type name \"{n}\""), format!("the type names are {TYPE_NAMES}"));
                    valid = false;
                }
                None => {
                    self.error(&loc, format!("a type name must be a string, found {}", found(name)), format!("use one of {TYPE_NAMES}"));
                    valid = false;
                }
            }
        }
        valid.then_some((set, order))
    }

    fn enum_values(&mut self, at: &Loc, value: &Value) -> Option<Vec<Value>> {
        match value {
            Value::Array(values) if values.is_empty() => {
                // Valid since draft 6 (and accepted by validators in draft 4): nothing matches.
                if self.report {
                    let message = "`enum` is empty, so no value is valid";
                    let diagnostic = self.b.reg.error("uninhabited", at, message);
                    let hint = "list the allowed values; a schema that accepts nothing is `false`";
                    self.b.diags.push((at.doc, Diagnostic { severity: Severity::Warning, ..diagnostic.with_hint(hint) }));
                }
                Some(Vec::new())
            }
            Value::Array(values) => Some(values.clone()),
            other => {
                self.error(
                    at,
                    format!("`enum` must be an array of the allowed values, found {}", found(other)),
                    "write `\"enum\": [\"a\", \"b\"]`, or `\"const\": value` for a single value",
                );
                None
            }
        }
    }

    fn number(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<serde_json::Number> {
        match value {
            Value::Number(n) if keyword == "multipleOf" && n.as_f64().is_none_or(|f| f <= 0.0) => {
                self.error(at, format!("`multipleOf` must be greater than 0, found {n}"), "use a positive number such as `0.01`");
                None
            }
            Value::Number(n) => Some(n.clone()),
            other => {
                self.error(
                    at,
                    format!("`{keyword}` must be a number, found {}", found(other)),
                    format!("write the number without quotes: `\"{keyword}\": 3`"),
                );
                None
            }
        }
    }

    /// Draft 4 `exclusiveMinimum: true` modifies `minimum`; later drafts give the bound itself.
    fn exclusive(&mut self, keyword: Keyword, bound: Keyword, value: &Value) -> Option<Exclusive> {
        let at = self.at(keyword);
        let (keyword, bound_name) = (keyword.name(), bound.name());
        match (self.draft, value) {
            (Draft::Draft4, Value::Bool(true)) => {
                let has_bound = self.b.reg.get(&self.at(bound)).is_some();
                if !has_bound {
                    self.error(
                        &at,
                        format!("draft-04 `{keyword}: true` makes `{bound_name}` exclusive, but there is no `{bound_name}`"),
                        format!("add `\"{bound_name}\"`, or remove `{keyword}`"),
                    );
                }
                Some(Exclusive::Flag(true))
            }
            (Draft::Draft4, Value::Bool(false)) => Some(Exclusive::Flag(false)),
            (Draft::Draft4, other) => {
                self.error(
                    &at,
                    format!("in draft-04, `{keyword}` must be a boolean, found {}", found(other)),
                    format!("write `\"{bound_name}\": n, \"{keyword}\": true`, or declare a later draft in `$schema`"),
                );
                None
            }
            (_, Value::Number(n)) => Some(Exclusive::Bound(n.clone())),
            (_, Value::Bool(_)) => {
                self.error(
                    &at,
                    format!("since draft-06, `{keyword}` is the exclusive bound itself, not a boolean"),
                    format!("write `\"{keyword}\": n` instead of `\"{bound_name}\": n, \"{keyword}\": true`"),
                );
                None
            }
            (_, other) => {
                self.error(&at, format!("`{keyword}` must be a number, found {}", found(other)), "write the bound as a number");
                None
            }
        }
    }

    fn count(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<u64> {
        let count = match value {
            Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64)),
            _ => None,
        };
        if count.is_none() {
            self.error(
                at,
                format!("`{keyword}` must be a non-negative integer, found {}", found(value)),
                format!("write a count: `\"{keyword}\": 1`"),
            );
        }
        count
    }

    fn boolean(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<bool> {
        if !value.is_boolean() {
            self.error(at, format!("`{keyword}` must be `true` or `false`, found {}", found(value)), "write the boolean without quotes");
        }
        value.as_bool()
    }

    /// An annotation of the wrong shape changes no verdict: validators ignore it, so does
    /// schemac, with a warning.
    fn ignored(&mut self, at: &Loc, message: String, hint: &str) {
        if self.report {
            let diagnostic = self.b.reg.error("ignored-annotation", at, message).with_hint(hint);
            self.b.diags.push((at.doc, Diagnostic { severity: Severity::Warning, ..diagnostic }));
        }
    }

    fn annotation_string(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<String> {
        if !value.is_string() {
            self.ignored(
                at,
                format!("`{keyword}` should be a string, found {}; it is ignored", found(value)),
                "write the value in double quotes",
            );
        }
        value.as_str().map(str::to_owned)
    }

    fn annotation_boolean(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<bool> {
        if !value.is_boolean() {
            self.ignored(
                at,
                format!("`{keyword}` should be `true` or `false`, found {}; it is ignored", found(value)),
                "write the boolean without quotes",
            );
        }
        value.as_bool()
    }

    fn examples(&mut self, at: &Loc, value: &Value) -> Option<Vec<Value>> {
        match value {
            Value::Array(values) => Some(values.clone()),
            other => {
                let message = format!("`examples` should be an array of example values, found {}; it is ignored", found(other));
                self.ignored(at, message, "wrap a single example in an array: `\"examples\": [...]`");
                None
            }
        }
    }

    fn reference(&mut self, at: &Loc, value: &Value, keyword: &str) -> Option<Ref> {
        match value.as_str() {
            Some(reference) => Some(Ref { reference: reference.to_owned(), resolution: Resolution::Unreached }),
            None => {
                self.error(
                    at,
                    format!("`{keyword}` must be a URI reference string, found {}", found(value)),
                    "write a reference such as `\"#/$defs/Name\"` or `\"other.json\"`",
                );
                None
            }
        }
    }

    fn pattern(&mut self, at: &Loc, value: &Value) -> Option<String> {
        match value.as_str() {
            Some(source) => self.check_pattern(at, source).then(|| source.to_owned()),
            None => {
                self.error(
                    at,
                    format!("`pattern` must be a regular expression string, found {}", found(value)),
                    "write the expression in double quotes, escaping `\\` as `\\\\`",
                );
                None
            }
        }
    }

    /// Whether `source` is a pattern schemac runs (an `invalid-pattern` error when not).
    fn check_pattern(&mut self, at: &Loc, source: &str) -> bool {
        match crate::pattern::validate(source) {
            Ok(_) => true,
            Err(err) => {
                if self.report {
                    let mut diagnostic = self.b.reg.error("invalid-pattern", at, err.message);
                    if let Some(hint) = err.hint {
                        diagnostic = diagnostic.with_hint(hint);
                    }
                    self.b.diags.push((at.doc, diagnostic));
                }
                false
            }
        }
    }

    fn string_array(&mut self, at: &Loc, value: &Value, keyword: &str, hint: &str) -> Option<Vec<String>> {
        let Value::Array(items) = value else {
            self.error(at, format!("`{keyword}` must be an array of strings, found {}", found(value)), hint);
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(name) => out.push(name.to_owned()),
                None => self.error(&at.child(&i.to_string()), format!("`{keyword}` must list strings, found {}", found(item)), hint),
            }
        }
        Some(out)
    }

    fn dependent_required(&mut self, at: &Loc, value: &Value) -> Option<Vec<(String, Vec<String>)>> {
        let hint = "map each property to the properties it requires: `{\"card\": [\"billing_address\"]}`";
        let Value::Object(map) = value else {
            self.error(at, format!("`dependentRequired` must be an object, found {}", found(value)), hint);
            return None;
        };
        let mut out = Vec::with_capacity(map.len());
        for (name, names) in map {
            if let Some(names) = self.string_array(&at.child(name), names, "dependentRequired", hint) {
                out.push((name.clone(), names));
            }
        }
        Some(out)
    }

    /// Draft ≤ 7: each value is an array of property names or a schema.
    fn dependencies(&mut self, at: &Loc, value: &'r Value) -> Option<Vec<(String, Dependency)>> {
        let Value::Object(map) = value else {
            self.error(
                at,
                format!("`dependencies` must be an object, found {}", found(value)),
                "map each property to the properties it requires or to a schema",
            );
            return None;
        };
        let mut out = Vec::with_capacity(map.len());
        for (name, dependency) in map {
            let loc = at.child(name);
            let parsed = if dependency.is_array() {
                self.string_array(&loc, dependency, "dependencies", "list property names, or give a schema").map(Dependency::Names)
            } else {
                self.subschema(&loc, dependency).map(Dependency::Schema)
            };
            if let Some(parsed) = parsed {
                out.push((name.clone(), parsed));
            }
        }
        Some(out)
    }
}

/// Stores a parsed value; `false` when there is none (the member is kept as unknown).
fn set<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    let read = value.is_some();
    *slot = value;
    read
}

/// A short description of a JSON value for "found ..." in messages.
pub(crate) fn found(value: &Value) -> String {
    match value {
        Value::Null => "`null`".to_owned(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => format!("a string ({:?}…)", s.chars().take(40).collect::<String>()),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}
