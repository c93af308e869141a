//! A read-only view of one schema object of the model, for the synthesizer: its typed keywords,
//! where its subschemas are, and what the drafts spell differently (bounds with draft 4's
//! boolean `exclusiveMinimum`, the tuple form of `items` before 2020-12, `dependencies` before
//! 2019-09), read the one way synthesis needs.

use schemac::Draft;
use schemac_model::resolve::Loc;
use schemac_model::schema::{Dependency, Exclusive, Keyword, Model, Schema, SchemaId};
use serde_json::{Number, Value};

/// One schema object at a location. Boolean schemas have no view.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'m> {
    pub model: &'m Model,
    pub loc: &'m Loc,
    /// The draft in force here.
    pub draft: Draft,
    pub schema: &'m Schema,
}

/// A numeric bound: the number as written (also as `f64`), and whether it is exclusive.
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    pub number: Number,
    pub value: f64,
    pub exclusive: bool,
}

/// Numeric bounds with their exclusivity, as every draft spells them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bounds {
    pub min: Option<Bound>,
    pub max: Option<Bound>,
}

/// What may stand at one array index.
#[derive(Clone, Debug)]
pub(crate) enum ItemRule {
    Any,
    Schema(Loc),
    /// `items: false`, `additionalItems: false` or `unevaluatedItems: false`, by that keyword.
    Forbidden(Keyword),
}

impl<'m> View<'m> {
    /// The schema object at `loc`; `None` for a boolean schema or a location the model lacks.
    pub fn at(model: &'m Model, loc: &Loc) -> Option<View<'m>> {
        let node = model.at(loc)?;
        Some(View { model, loc: &node.loc, draft: node.draft, schema: node.schema()? })
    }

    /// The keywords present, as this draft spells them (the model's one `id` field answers for
    /// both `$id` and draft 4's `id`).
    pub fn keywords(&self) -> impl Iterator<Item = Keyword> + 'm {
        let draft = self.draft;
        let other_id = if draft == Draft::Draft4 { Keyword::Id } else { Keyword::LegacyId };
        self.schema.keywords().filter(move |keyword| *keyword != other_id)
    }

    /// The location of `keyword`'s value.
    pub fn at_keyword(&self, keyword: Keyword) -> Loc {
        self.loc.child(keyword.name())
    }

    /// The location of a subschema.
    pub fn loc_of(&self, id: SchemaId) -> Loc {
        self.model.loc(id).clone()
    }

    /// The locations of a list of subschemas (`allOf`, `anyOf`, `oneOf`); none when absent.
    pub fn locs(&self, list: Option<&Vec<SchemaId>>) -> Vec<Loc> {
        list.into_iter().flatten().map(|id| self.loc_of(*id)).collect()
    }

    /// `Some(b)` when the subschema is the boolean schema `b`.
    pub fn boolean(&self, id: SchemaId) -> Option<bool> {
        self.model.node(id).boolean()
    }

    /// Whether the subschema is the `false` schema.
    pub fn is_false(&self, id: Option<SchemaId>) -> bool {
        id.is_some_and(|id| self.boolean(id) == Some(false))
    }

    /// Draft 7 and older ignore every keyword beside `$ref` (the model keeps them as unknown
    /// members, so they are not fields here either).
    pub fn ref_only(&self) -> bool {
        self.draft <= Draft::Draft7 && self.schema.ref_.is_some()
    }

    /// The schema `$ref` points to, if it resolves.
    pub fn ref_target(&self) -> Option<Loc> {
        Some(self.schema.ref_.as_ref()?.target().ok()?.loc.clone())
    }

    /// Every reference keyword present with the schema it resolves to (statically: a
    /// `$dynamicRef` goes where its URI points), `None` for one that does not resolve.
    pub fn ref_targets(&self) -> Vec<(Keyword, Option<Loc>)> {
        self.schema.refs().map(|(keyword, reference)| (keyword, reference.target().ok().map(|t| t.loc.clone()))).collect()
    }

    /// The declared property `name`'s schema.
    pub fn property(&self, name: &str) -> Option<SchemaId> {
        self.schema.properties.as_ref()?.iter().find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    /// `patternProperties` as (pattern, schema), in document order.
    pub fn pattern_properties(&self) -> &'m [(String, SchemaId)] {
        self.schema.pattern_properties.as_deref().unwrap_or_default()
    }

    pub fn bounds(&self) -> Bounds {
        let schema = self.schema;
        let flag = |exclusive: &Option<Exclusive>| matches!(exclusive, Some(Exclusive::Flag(true)));
        let mut bounds = Bounds {
            min: schema.minimum.as_ref().map(|n| bound(n, flag(&schema.exclusive_minimum))),
            max: schema.maximum.as_ref().map(|n| bound(n, flag(&schema.exclusive_maximum))),
        };
        if let Some(Exclusive::Bound(n)) = &schema.exclusive_minimum {
            bounds.min = Some(tighter_min(bounds.min, bound(n, true)));
        }
        if let Some(Exclusive::Bound(n)) = &schema.exclusive_maximum {
            bounds.max = Some(tighter_max(bounds.max, bound(n, true)));
        }
        bounds
    }

    /// How many leading items have schemas of their own (`prefixItems`, or before 2020-12 the
    /// array form of `items`).
    pub fn prefix_len(&self) -> usize {
        self.schema.tuple(self.draft).map_or(0, |tuple| tuple.prefix.len())
    }

    /// The schema for array item `index` (`Forbidden`: no item may be there), with the keyword
    /// that decides it.
    pub fn item(&self, index: usize) -> ItemRule {
        let schema = self.schema;
        let (rest, rest_keyword) = match schema.tuple(self.draft) {
            Some(tuple) if index < tuple.prefix.len() => return ItemRule::Schema(self.loc_of(tuple.prefix[index])),
            Some(tuple) => (tuple.rest, tuple.rest_keyword),
            None => (schema.items_schema(), Keyword::Items),
        };
        let (rest, keyword) = match rest {
            Some(id) => (id, rest_keyword),
            // Nothing else here evaluates the item: `unevaluatedItems` decides (as far as this
            // schema object can tell; the walk looks through the in-place applicators).
            None => match schema.unevaluated_items {
                Some(id) => (id, Keyword::UnevaluatedItems),
                None => return ItemRule::Any,
            },
        };
        match self.boolean(rest) {
            Some(false) => ItemRule::Forbidden(keyword),
            Some(true) => ItemRule::Any,
            None => ItemRule::Schema(self.loc_of(rest)),
        }
    }

    /// `dependentRequired` (and the array form of `dependencies`): property → what it needs,
    /// with the keyword that says so.
    pub fn dependent_required(&self) -> Vec<(String, Vec<String>, Keyword)> {
        let mut out: Vec<(String, Vec<String>, Keyword)> = Vec::new();
        for (name, needs) in self.schema.dependent_required.iter().flatten() {
            out.push((name.clone(), needs.clone(), Keyword::DependentRequired));
        }
        for (name, dependency) in self.schema.dependencies.iter().flatten() {
            if let Dependency::Names(needs) = dependency {
                out.push((name.clone(), needs.clone(), Keyword::Dependencies));
            }
        }
        out
    }

    /// `dependentSchemas` (and the schema form of `dependencies`): property → the schema an
    /// object with it must satisfy.
    pub fn dependent_schemas(&self) -> Vec<(String, Loc)> {
        let mut out: Vec<(String, Loc)> = Vec::new();
        for (name, id) in self.schema.dependent_schemas.iter().flatten() {
            out.push((name.clone(), self.loc_of(*id)));
        }
        for (name, dependency) in self.schema.dependencies.iter().flatten() {
            if let Dependency::Schema(id) = dependency {
                out.push((name.clone(), self.loc_of(*id)));
            }
        }
        out
    }
}

fn bound(number: &Number, exclusive: bool) -> Bound {
    Bound { number: number.clone(), value: number.as_f64().unwrap_or(0.0), exclusive }
}

fn tighter_min(current: Option<Bound>, new: Bound) -> Bound {
    match current {
        Some(old) if old.value > new.value || (old.value == new.value && old.exclusive) => old,
        _ => new,
    }
}

fn tighter_max(current: Option<Bound>, new: Bound) -> Bound {
    match current {
        Some(old) if old.value < new.value || (old.value == new.value && old.exclusive) => old,
        _ => new,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`), as JSON Schema does.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

/// Escapes one JSON pointer token.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
