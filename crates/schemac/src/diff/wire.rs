//! The wire comparison: two versions of a schema walked side by side from their roots, every
//! keyword compared (an exhaustive match over [`Keyword`]), each difference a [`Change`] with
//! its [`Effect`] on the set of valid documents. Walks with a work list; a pair of schemas is
//! compared once, so recursive schemas end.

use std::collections::HashSet;

use serde_json::{Number, Value};

use super::{Change, ChangeKind, Effect};
use crate::Front;
use crate::ir::Kind;
use crate::resolve::Loc;
use crate::schema::{Body, Dependency, Exclusive, Keyword, KindSet, Model, Ref, Schema, SchemaId};

/// How a subschema's set of valid values feeds into the whole: the same way (`Same`), the
/// other way (inside `not`), or not monotonically (inside `if`, overlapping `oneOf`s).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Polarity {
    Same,
    Inverted,
    Unknown(String),
}

impl Polarity {
    fn invert(&self) -> Polarity {
        match self {
            Polarity::Same => Polarity::Inverted,
            Polarity::Inverted => Polarity::Same,
            Polarity::Unknown(why) => Polarity::Unknown(why.clone()),
        }
    }

    fn unknown(&self, why: &str) -> Polarity {
        match self {
            Polarity::Unknown(already) => Polarity::Unknown(already.clone()),
            Polarity::Same | Polarity::Inverted => Polarity::Unknown(why.to_owned()),
        }
    }

    fn apply(&self, effect: Effect) -> Effect {
        match (self, effect) {
            (_, Effect::Neutral) => Effect::Neutral,
            (Polarity::Same, effect) => effect,
            (Polarity::Inverted, Effect::Loosens) => Effect::Tightens,
            (Polarity::Inverted, Effect::Tightens) => Effect::Loosens,
            (Polarity::Inverted, effect) => effect,
            (Polarity::Unknown(why), _) => Effect::Unknown(why.clone()),
        }
    }
}

/// A pair of subschemas to compare. `None` on a side is the schema `true` (absent).
#[derive(Clone, Debug)]
struct Task {
    old: Option<SchemaId>,
    new: Option<SchemaId>,
    old_at: Loc,
    new_at: Loc,
    polarity: Polarity,
}

pub(super) struct Comparer<'a> {
    old: &'a Front,
    new: &'a Front,
    /// `format` asserts (the crate compiles with `assert-formats`); else it annotates.
    formats_assert: bool,
    seen: HashSet<(Option<SchemaId>, Option<SchemaId>, Polarity)>,
    todo: Vec<Task>,
    pub(super) changes: Vec<Change>,
}

impl<'a> Comparer<'a> {
    pub(super) fn new(old: &'a Front, new: &'a Front, formats_assert: bool) -> Comparer<'a> {
        Comparer { old, new, formats_assert, seen: HashSet::new(), todo: Vec::new(), changes: Vec::new() }
    }

    /// Compares the schemas at `old` and `new` and everything below them.
    pub(super) fn compare_roots(&mut self, old: &Loc, new: &Loc) {
        let task = Task {
            old: self.old.model.id_at(old),
            new: self.new.model.id_at(new),
            old_at: old.clone(),
            new_at: new.clone(),
            polarity: Polarity::Same,
        };
        self.todo.push(task);
        while let Some(task) = self.todo.pop() {
            if self.seen.insert((task.old, task.new, task.polarity.clone())) {
                self.compare(&task);
            }
        }
        // Document order of the old side, then the new.
        self.changes.sort_by_key(|c| (c.old_sort_key(), c.new_sort_key()));
    }

    fn models(&self) -> (&'a Model, &'a Model) {
        (&self.old.model, &self.new.model)
    }

    fn push(&mut self, kind: ChangeKind, task: &Task, keyword: Option<Keyword>, effect: Effect, detail: String) {
        let at = |loc: &Loc| match keyword {
            Some(k) => loc.child(k.name()),
            None => loc.clone(),
        };
        let effect = task.polarity.apply(effect);
        let old = task.old.map(|_| self.locate(true, &at(&task.old_at)));
        let new = task.new.map(|_| self.locate(false, &at(&task.new_at)));
        let (old, new) = match (old, new) {
            (None, None) => (Some(self.locate(true, &task.old_at)), Some(self.locate(false, &task.new_at))),
            pair => pair,
        };
        self.changes.push(Change::new(kind, old, new, effect, detail));
    }

    /// `file#pointer` of a location on one side.
    fn locate(&self, old: bool, loc: &Loc) -> super::Place {
        let front = if old { self.old } else { self.new };
        let file = front.registry.doc(loc.doc).display.clone();
        super::Place { file, pointer: loc.pointer.clone(), doc: loc.doc.0 }
    }

    fn then(&mut self, old: Option<SchemaId>, new: Option<SchemaId>, old_at: Loc, new_at: Loc, polarity: Polarity) {
        self.todo.push(Task { old, new, old_at, new_at, polarity });
    }

    fn compare(&mut self, task: &Task) {
        let (old_model, new_model) = self.models();
        let old = task.old.map(|id| &old_model.node(id).body);
        let new = task.new.map(|id| &new_model.node(id).body);
        // `true`, `{}` and an absent schema are the same schema.
        let old_object = old.and_then(|b| match b {
            Body::Object(s) if !trivial(s) => Some(&**s),
            Body::Object(_) | Body::Bool(_) | Body::Invalid => None,
        });
        let new_object = new.and_then(|b| match b {
            Body::Object(s) if !trivial(s) => Some(&**s),
            Body::Object(_) | Body::Bool(_) | Body::Invalid => None,
        });
        let old_false = matches!(old, Some(Body::Bool(false)));
        let new_false = matches!(new, Some(Body::Bool(false)));
        match (old_false, new_false) {
            (true, true) => return,
            (false, true) => {
                return self.push(ChangeKind::SchemaNarrowed, task, None, Effect::Tightens, "now `false`: nothing is valid".into());
            }
            (true, false) => {
                return self.push(ChangeKind::SchemaWidened, task, None, Effect::Loosens, "was `false`: nothing was valid".into());
            }
            (false, false) => {}
        }
        match (old_object, new_object) {
            (None, None) => {}
            (None, Some(_)) => self.push(ChangeKind::SchemaNarrowed, task, None, Effect::Tightens, "was any value, now constrained".into()),
            (Some(_), None) => self.push(ChangeKind::SchemaWidened, task, None, Effect::Loosens, "now any value".into()),
            (Some(o), Some(n)) => self.objects(task, o, n),
        }
    }

    fn objects(&mut self, task: &Task, o: &'a Schema, n: &'a Schema) {
        let (om, nm) = self.models();
        let draft = |m: &Model, id: Option<SchemaId>| id.map(|id| m.node(id).draft);
        let (old_draft, new_draft) = (draft(om, task.old), draft(nm, task.new));
        if old_draft != new_draft {
            let why = format!("the draft changed ({old_draft:?} → {new_draft:?}): keywords may mean other things");
            self.push(ChangeKind::DraftChanged, task, None, Effect::Unknown(why.clone()), why);
        }
        for keyword in Keyword::ALL {
            self.keyword(task, keyword, o, n);
        }
    }

    /// One keyword of a pair of schema objects.
    fn keyword(&mut self, task: &Task, keyword: Keyword, o: &'a Schema, n: &'a Schema) {
        match keyword {
            Keyword::Title => self.annotated(task, keyword, &o.title, &n.title),
            Keyword::Description => self.annotated(task, keyword, &o.description, &n.description),
            Keyword::Comment => self.annotated(task, keyword, &o.comment, &n.comment),
            Keyword::Examples => self.annotated(task, keyword, &o.examples, &n.examples),
            Keyword::Deprecated => self.annotated(task, keyword, &o.deprecated, &n.deprecated),
            Keyword::ReadOnly => self.annotated(task, keyword, &o.read_only, &n.read_only),
            Keyword::WriteOnly => self.annotated(task, keyword, &o.write_only, &n.write_only),
            Keyword::ContentEncoding => self.annotated(task, keyword, &o.content_encoding, &n.content_encoding),
            Keyword::ContentMediaType => self.annotated(task, keyword, &o.content_media_type, &n.content_media_type),
            Keyword::ContentSchema => {
                let (a, b) = (json_of(self.old, o.content_schema), json_of(self.new, n.content_schema));
                self.annotated(task, keyword, &a, &b);
            }
            Keyword::Default => {
                if o.default != n.default {
                    let detail = format!("default {} → {}", show(o.default.as_ref()), show(n.default.as_ref()));
                    self.push(ChangeKind::DefaultChanged, task, Some(keyword), Effect::Neutral, detail);
                }
            }
            Keyword::Schema | Keyword::Vocabulary => {}
            Keyword::Id | Keyword::LegacyId => self.identified(task, keyword, &o.id, &n.id),
            Keyword::Anchor => self.identified(task, keyword, &o.anchor, &n.anchor),
            Keyword::DynamicAnchor => self.identified(task, keyword, &o.dynamic_anchor, &n.dynamic_anchor),
            Keyword::RecursiveAnchor => self.identified(task, keyword, &o.recursive_anchor, &n.recursive_anchor),
            Keyword::Defs => self.definitions(task, keyword, o.defs.as_deref(), n.defs.as_deref()),
            Keyword::Definitions => self.definitions(task, keyword, o.definitions.as_deref(), n.definitions.as_deref()),
            Keyword::Ref => self.reference(task, keyword, o.ref_.as_ref(), n.ref_.as_ref()),
            Keyword::DynamicRef => self.reference(task, keyword, o.dynamic_ref.as_ref(), n.dynamic_ref.as_ref()),
            Keyword::RecursiveRef => self.reference(task, keyword, o.recursive_ref.as_ref(), n.recursive_ref.as_ref()),
            Keyword::Type => self.types(task, o, n),
            Keyword::Enum => self.values(task, o, n),
            // With `enum`: the values both allow.
            Keyword::Const => {}
            Keyword::Minimum => self.bound(task, keyword, lower(o), lower(n), true),
            Keyword::Maximum => self.bound(task, keyword, upper(o), upper(n), false),
            // With `minimum`/`maximum`: one bound each way.
            Keyword::ExclusiveMinimum | Keyword::ExclusiveMaximum => {}
            Keyword::MultipleOf => self.multiple_of(task, o.multiple_of.as_ref(), n.multiple_of.as_ref()),
            Keyword::MinLength => self.count(task, keyword, o.min_length, n.min_length, true),
            Keyword::MaxLength => self.count(task, keyword, o.max_length, n.max_length, false),
            Keyword::MinItems => self.count(task, keyword, o.min_items, n.min_items, true),
            Keyword::MaxItems => self.count(task, keyword, o.max_items, n.max_items, false),
            Keyword::MinProperties => self.count(task, keyword, o.min_properties, n.min_properties, true),
            Keyword::MaxProperties => self.count(task, keyword, o.max_properties, n.max_properties, false),
            Keyword::MinContains => {
                if o.contains.is_some() && n.contains.is_some() {
                    self.count(task, keyword, Some(o.min_contains.unwrap_or(1)), Some(n.min_contains.unwrap_or(1)), true);
                }
            }
            Keyword::MaxContains => {
                if o.contains.is_some() && n.contains.is_some() {
                    self.count(task, keyword, o.max_contains, n.max_contains, false);
                }
            }
            Keyword::UniqueItems => {
                let (a, b) = (o.unique_items == Some(true), n.unique_items == Some(true));
                if a != b {
                    let (kind, effect) =
                        if b { (ChangeKind::BoundAdded, Effect::Tightens) } else { (ChangeKind::BoundRemoved, Effect::Loosens) };
                    self.push(kind, task, Some(keyword), effect, format!("uniqueItems {a} → {b}"));
                }
            }
            Keyword::Pattern => self.pattern(task, o.pattern.as_deref(), n.pattern.as_deref()),
            Keyword::Format => self.format(task, o.format.as_deref(), n.format.as_deref()),
            Keyword::Required => self.required(task, o, n),
            Keyword::DependentRequired => self.dependent_names(
                task,
                keyword,
                named_lists(o.dependent_required.as_deref()),
                named_lists(n.dependent_required.as_deref()),
            ),
            Keyword::Properties => self.properties(task, o, n),
            Keyword::PatternProperties => self.pattern_properties(task, o, n),
            Keyword::AdditionalProperties => {
                self.extra(task, keyword, o.additional_properties, n.additional_properties, ChangeKind::AdditionalPropertiesChanged)
            }
            Keyword::UnevaluatedProperties => {
                self.extra(task, keyword, o.unevaluated_properties, n.unevaluated_properties, ChangeKind::UnevaluatedChanged)
            }
            Keyword::PropertyNames => self.sub(task, keyword, o.property_names, n.property_names, task.polarity.clone()),
            Keyword::Items => self.items(task, o, n),
            // With `items`: the tuple's leading items and the items after them.
            Keyword::PrefixItems | Keyword::AdditionalItems => {}
            Keyword::UnevaluatedItems => {
                self.extra(task, keyword, o.unevaluated_items, n.unevaluated_items, ChangeKind::UnevaluatedChanged)
            }
            Keyword::Contains => match (o.contains, n.contains) {
                (None, None) => {}
                (None, Some(_)) => self.push(ChangeKind::BoundAdded, task, Some(keyword), Effect::Tightens, "`contains` added".into()),
                (Some(_), None) => self.push(ChangeKind::BoundRemoved, task, Some(keyword), Effect::Loosens, "`contains` removed".into()),
                (Some(a), Some(b)) => self.then(Some(a), Some(b), at(task, true, keyword), at(task, false, keyword), task.polarity.clone()),
            },
            Keyword::AllOf => self.all_of(task, o.all_of.as_deref().unwrap_or_default(), n.all_of.as_deref().unwrap_or_default()),
            Keyword::AnyOf => self.branches(task, keyword, o.any_of.as_deref(), n.any_of.as_deref()),
            Keyword::OneOf => self.branches(task, keyword, o.one_of.as_deref(), n.one_of.as_deref()),
            Keyword::Not => match (o.not, n.not) {
                (None, None) => {}
                (None, Some(_)) => self.push(ChangeKind::NotChanged, task, Some(keyword), Effect::Tightens, "`not` added".into()),
                (Some(_), None) => self.push(ChangeKind::NotChanged, task, Some(keyword), Effect::Loosens, "`not` removed".into()),
                (Some(a), Some(b)) => {
                    self.then(Some(a), Some(b), at(task, true, keyword), at(task, false, keyword), task.polarity.invert())
                }
            },
            Keyword::If => {
                if json_of(self.old, o.if_) != json_of(self.new, n.if_) {
                    let why = "the `if` condition changed: which documents `then`/`else` apply to moved".to_owned();
                    self.push(ChangeKind::ConditionChanged, task, Some(keyword), Effect::Unknown(why.clone()), why);
                }
            }
            Keyword::Then | Keyword::Else => {
                let (a, b) = if keyword == Keyword::Then { (o.then, n.then) } else { (o.else_, n.else_) };
                if o.if_.is_some() || n.if_.is_some() {
                    self.sub(task, keyword, a, b, task.polarity.clone());
                }
            }
            Keyword::DependentSchemas => {
                self.dependent_schemas(task, keyword, named_ids(o.dependent_schemas.as_deref()), named_ids(n.dependent_schemas.as_deref()))
            }
            Keyword::Dependencies => {
                let split = |s: &Schema| {
                    let mut names = Vec::new();
                    let mut schemas = Vec::new();
                    for (name, dependency) in s.dependencies.iter().flatten() {
                        match dependency {
                            Dependency::Names(list) => names.push((name.clone(), list.clone())),
                            Dependency::Schema(id) => schemas.push((name.clone(), *id)),
                        }
                    }
                    (names, schemas)
                };
                let ((on, os), (nn, ns)) = (split(o), split(n));
                self.dependent_names(task, keyword, on, nn);
                self.dependent_schemas(task, keyword, os, ns);
            }
        }
    }

    fn annotated<T: PartialEq>(&mut self, task: &Task, keyword: Keyword, a: &Option<T>, b: &Option<T>) {
        if a != b {
            self.push(ChangeKind::AnnotationChanged, task, Some(keyword), Effect::Neutral, format!("`{keyword}` changed"));
        }
    }

    fn identified<T: PartialEq>(&mut self, task: &Task, keyword: Keyword, a: &Option<T>, b: &Option<T>) {
        if a != b {
            self.push(ChangeKind::IdentifierChanged, task, Some(keyword), Effect::Neutral, format!("`{keyword}` changed"));
        }
    }

    fn reference(&mut self, task: &Task, keyword: Keyword, o: Option<&Ref>, n: Option<&Ref>) {
        let target = |r: Option<&Ref>| r.and_then(|r| r.target().ok()).map(|t| (t.id, t.loc.clone()));
        let (old, new) = (target(o), target(n));
        let polarity = task.polarity.clone();
        match (old, new) {
            (None, None) => {}
            (Some((a, at_a)), Some((b, at_b))) => {
                let (old_name, new_name) =
                    (self.old.registry.doc(at_a.doc).display.clone(), self.new.registry.doc(at_b.doc).display.clone());
                // Within the referring document on both sides, only the pointer can move.
                let both_local = at_a.doc == task.old_at.doc && at_b.doc == task.new_at.doc;
                if at_a.pointer != at_b.pointer || (!both_local && old_name != new_name) {
                    let detail = format!("`{keyword}` now goes to {new_name}#{} (was {old_name}#{})", at_b.pointer, at_a.pointer);
                    self.push(ChangeKind::RefRetargeted, task, Some(keyword), Effect::Neutral, detail);
                }
                self.then(Some(a), Some(b), at_a, at_b, polarity);
            }
            // A reference on one side only: what it refers to is compared with the other side's
            // whole schema, which stands in its place.
            (Some((a, at_a)), None) => self.then(Some(a), task.new, at_a, task.new_at.clone(), polarity),
            (None, Some((b, at_b))) => self.then(task.old, Some(b), task.old_at.clone(), at_b, polarity),
        }
    }

    fn definitions(&mut self, task: &Task, keyword: Keyword, o: Option<&[(String, SchemaId)]>, n: Option<&[(String, SchemaId)]>) {
        let (o, n) = (o.unwrap_or_default(), n.unwrap_or_default());
        let removed: Vec<&(String, SchemaId)> = o.iter().filter(|(name, _)| !n.iter().any(|(m, _)| m == name)).collect();
        let added: Vec<&(String, SchemaId)> = n.iter().filter(|(name, _)| !o.iter().any(|(m, _)| m == name)).collect();
        let mut renamed_to: Vec<&str> = Vec::new();
        for (name, id) in &removed {
            let same = added
                .iter()
                .find(|(m, other)| !renamed_to.contains(&m.as_str()) && json_of(self.old, Some(*id)) == json_of(self.new, Some(*other)));
            match same {
                Some((new_name, _)) => {
                    renamed_to.push(new_name);
                    let detail = format!("definition `{name}` renamed to `{new_name}`");
                    self.push(ChangeKind::DefinitionRenamed, task, Some(keyword), Effect::Neutral, detail);
                }
                None => {
                    let detail = format!("definition `{name}` removed");
                    self.push(ChangeKind::DefinitionRemoved, task, Some(keyword), Effect::Neutral, detail);
                }
            }
        }
        for (name, _) in added.iter().filter(|(name, _)| !renamed_to.contains(&name.as_str())) {
            self.push(ChangeKind::DefinitionAdded, task, Some(keyword), Effect::Neutral, format!("definition `{name}` added"));
        }
    }

    fn types(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (a, b) = (o.types.unwrap_or(KindSet::ALL), n.types.unwrap_or(KindSet::ALL));
        if a == b {
            return;
        }
        let subset = |x: KindSet, y: KindSet| x.intersect(y) == x;
        let words = |k: KindSet| k.kinds().iter().map(|k| format!("{k:?}").to_lowercase()).collect::<Vec<_>>().join(", ");
        let detail = format!("type [{}] → [{}]", words(a), words(b));
        let null_only = |x: KindSet, y: KindSet| x.union(KindSet::of(Kind::Null)) == y && !x.contains(Kind::Null);
        let (kind, effect) = if null_only(a, b) {
            (ChangeKind::NullableAdded, Effect::Loosens)
        } else if null_only(b, a) {
            (ChangeKind::NullableRemoved, Effect::Tightens)
        } else if subset(a, b) {
            (ChangeKind::TypeWidened, Effect::Loosens)
        } else if subset(b, a) {
            (ChangeKind::TypeNarrowed, Effect::Tightens)
        } else {
            (ChangeKind::TypeChanged, Effect::Changes)
        };
        self.push(kind, task, Some(Keyword::Type), effect, detail);
    }

    fn values(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (a, b) = (o.allowed_values(), n.allowed_values());
        let keyword = if o.has(Keyword::Enum) || n.has(Keyword::Enum) { Keyword::Enum } else { Keyword::Const };
        let (a, b) = match (a, b) {
            (None, None) => return,
            (None, Some(b)) => {
                return self.push(ChangeKind::EnumValuesRemoved, task, Some(keyword), Effect::Tightens, format!("now only {}", list(&b)));
            }
            (Some(a), None) => {
                return self.push(
                    ChangeKind::EnumValuesAdded,
                    task,
                    Some(keyword),
                    Effect::Loosens,
                    format!("was only {}, now any value", list(&a)),
                );
            }
            (Some(a), Some(b)) => (a, b),
        };
        let has = |list: &[Value], v: &Value| list.iter().any(|w| same_value(w, v));
        let added: Vec<Value> = b.iter().filter(|v| !has(&a, v)).cloned().collect();
        let removed: Vec<Value> = a.iter().filter(|v| !has(&b, v)).cloned().collect();
        let is_const = a.len() == 1 && b.len() == 1 && (o.const_value.is_some() || n.const_value.is_some());
        if is_const && !added.is_empty() {
            let detail = format!("const {} → {}", list(&a), list(&b));
            return self.push(ChangeKind::ConstChanged, task, Some(keyword), Effect::Changes, detail);
        }
        if !added.is_empty() {
            self.push(ChangeKind::EnumValuesAdded, task, Some(keyword), Effect::Loosens, format!("added {}", list(&added)));
        }
        if !removed.is_empty() {
            self.push(ChangeKind::EnumValuesRemoved, task, Some(keyword), Effect::Tightens, format!("removed {}", list(&removed)));
        }
    }

    /// A lower (`lower`) or upper bound of numbers: `(value, exclusive)`.
    fn bound(&mut self, task: &Task, keyword: Keyword, a: Option<(f64, bool, String)>, b: Option<(f64, bool, String)>, lower: bool) {
        let (kind, effect) = match (&a, &b) {
            (None, None) => return,
            (None, Some(_)) => (ChangeKind::BoundAdded, Effect::Tightens),
            (Some(_), None) => (ChangeKind::BoundRemoved, Effect::Loosens),
            (Some((x, xe, _)), Some((y, ye, _))) => {
                // A tighter bound: further in, or the same value made exclusive.
                let tighter = if lower { y > x || (y == x && *ye && !xe) } else { y < x || (y == x && *ye && !xe) };
                let looser = if lower { y < x || (y == x && !ye && *xe) } else { y > x || (y == x && !ye && *xe) };
                match (tighter, looser) {
                    (true, _) => (ChangeKind::BoundTightened, Effect::Tightens),
                    (_, true) => (ChangeKind::BoundLoosened, Effect::Loosens),
                    _ => return,
                }
            }
        };
        let show = |x: &Option<(f64, bool, String)>| x.as_ref().map_or("none".to_owned(), |(_, _, text)| text.clone());
        self.push(kind, task, Some(keyword), effect, format!("{keyword} {} → {}", show(&a), show(&b)));
    }

    fn count(&mut self, task: &Task, keyword: Keyword, a: Option<u64>, b: Option<u64>, lower: bool) {
        // `minItems: 0` is no bound.
        let a = a.filter(|n| !lower || *n > 0);
        let b = b.filter(|n| !lower || *n > 0);
        let (kind, effect) = match (a, b) {
            (None, None) => return,
            (None, Some(_)) => (ChangeKind::BoundAdded, Effect::Tightens),
            (Some(_), None) => (ChangeKind::BoundRemoved, Effect::Loosens),
            (Some(x), Some(y)) if x == y => return,
            (Some(x), Some(y)) if (y > x) == lower => (ChangeKind::BoundTightened, Effect::Tightens),
            (Some(_), Some(_)) => (ChangeKind::BoundLoosened, Effect::Loosens),
        };
        let show = |x: Option<u64>| x.map_or("none".to_owned(), |n| n.to_string());
        self.push(kind, task, Some(keyword), effect, format!("{keyword} {} → {}", show(a), show(b)));
    }

    fn multiple_of(&mut self, task: &Task, a: Option<&Number>, b: Option<&Number>) {
        let keyword = Keyword::MultipleOf;
        let (kind, effect) = match (a, b) {
            (None, None) => return,
            (None, Some(_)) => (ChangeKind::BoundAdded, Effect::Tightens),
            (Some(_), None) => (ChangeKind::BoundRemoved, Effect::Loosens),
            (Some(x), Some(y)) if x == y => return,
            (Some(x), Some(y)) => {
                // Every multiple of 4 is a multiple of 2: a multiple of the old step tightens.
                let divides = |big: &Number, small: &Number| match (big.as_f64(), small.as_f64()) {
                    (Some(big), Some(small)) if small > 0.0 => ((big / small) - (big / small).round()).abs() < 1e-9,
                    _ => false,
                };
                if divides(y, x) {
                    (ChangeKind::BoundTightened, Effect::Tightens)
                } else if divides(x, y) {
                    (ChangeKind::BoundLoosened, Effect::Loosens)
                } else {
                    (ChangeKind::BoundChanged, Effect::Changes)
                }
            }
        };
        let show = |x: Option<&Number>| x.map_or("none".to_owned(), Number::to_string);
        self.push(kind, task, Some(keyword), effect, format!("multipleOf {} → {}", show(a), show(b)));
    }

    fn pattern(&mut self, task: &Task, a: Option<&str>, b: Option<&str>) {
        let keyword = Keyword::Pattern;
        match (a, b) {
            (None, None) => {}
            (None, Some(b)) => self.push(ChangeKind::PatternAdded, task, Some(keyword), Effect::Tightens, format!("pattern “{b}” added")),
            (Some(a), None) => {
                self.push(ChangeKind::PatternRemoved, task, Some(keyword), Effect::Loosens, format!("pattern “{a}” removed"))
            }
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                let why = format!("whether “{a}” and “{b}” match the same strings was not decided");
                self.push(ChangeKind::PatternChanged, task, Some(keyword), Effect::Unknown(why), format!("pattern “{a}” → “{b}”"));
            }
        }
    }

    fn format(&mut self, task: &Task, a: Option<&str>, b: Option<&str>) {
        let keyword = Keyword::Format;
        if a == b {
            return;
        }
        let (kind, asserted) = match (a, b) {
            (None, Some(_)) => (ChangeKind::FormatAdded, Effect::Tightens),
            (Some(_), None) => (ChangeKind::FormatRemoved, Effect::Loosens),
            _ => (ChangeKind::FormatChanged, Effect::Unknown("two different formats: inclusion not decided".to_owned())),
        };
        // Formats annotate unless the crate asserts them.
        let effect = if self.formats_assert { asserted } else { Effect::Neutral };
        let show = |x: Option<&str>| x.unwrap_or("none").to_owned();
        self.push(kind, task, Some(keyword), effect, format!("format {} → {}", show(a), show(b)));
    }

    fn required(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (a, b) = (o.required.as_deref().unwrap_or_default(), n.required.as_deref().unwrap_or_default());
        for name in b.iter().filter(|name| !a.contains(name)) {
            let default = n
                .properties
                .iter()
                .flatten()
                .find(|(p, _)| p == name)
                .and_then(|(_, id)| self.new.model.node(*id).schema().and_then(|s| s.default.clone()));
            let detail = match default {
                // Validators do not fill in defaults: a document without it is still invalid.
                Some(default) => format!("`{name}` is now required (its default {} is not filled in by validation)", show(Some(&default))),
                None => format!("`{name}` is now required"),
            };
            self.push(ChangeKind::RequiredAdded, task, Some(Keyword::Required), Effect::Tightens, detail);
        }
        for name in a.iter().filter(|name| !b.contains(name)) {
            let detail = format!("`{name}` is no longer required");
            self.push(ChangeKind::RequiredRemoved, task, Some(Keyword::Required), Effect::Loosens, detail);
        }
    }

    fn properties(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (a, b) = (o.properties.as_deref().unwrap_or_default(), n.properties.as_deref().unwrap_or_default());
        let at_old = at(task, true, Keyword::Properties);
        let at_new = at(task, false, Keyword::Properties);
        for (name, old) in a {
            match b.iter().find(|(m, _)| m == name) {
                Some((_, new)) => self.then(Some(*old), Some(*new), at_old.child(name), at_new.child(name), task.polarity.clone()),
                None => self.property_gone(task, name, *old, n),
            }
        }
        for (name, new) in b.iter().filter(|(name, _)| !a.iter().any(|(m, _)| m == name)) {
            self.property_new(task, name, *new, o);
        }
    }

    /// A property the old version declares and the new one does not: the new version's rule
    /// for other properties applies to it now.
    fn property_gone(&mut self, task: &Task, name: &str, old: SchemaId, n: &Schema) {
        let at_old = at(task, true, Keyword::Properties).child(name);
        match self.rest_rule(&self.new.model, n.additional_properties) {
            Rest::Closed => {
                let detail = format!("`{name}` removed from a closed object: it is rejected now");
                self.push(ChangeKind::PropertyRemovedClosed, task, Some(Keyword::Properties), Effect::Tightens, detail);
            }
            Rest::Open => {
                let effect = if self.is_trivial(&self.old.model, old) { Effect::Neutral } else { Effect::Loosens };
                let detail = format!("`{name}` removed from an open object: it may be any value now");
                self.push(ChangeKind::PropertyRemovedOpen, task, Some(Keyword::Properties), effect, detail);
            }
            Rest::Schema(rest) => {
                let detail = format!("`{name}` removed: the schema for other properties applies to it now");
                self.push(ChangeKind::PropertyRemovedOpen, task, Some(Keyword::Properties), Effect::Neutral, detail);
                self.then(Some(old), Some(rest), at_old, at(task, false, Keyword::AdditionalProperties), task.polarity.clone());
            }
        }
    }

    /// A property only the new version declares: the old version's rule for other properties
    /// applied to it before.
    fn property_new(&mut self, task: &Task, name: &str, new: SchemaId, o: &Schema) {
        let at_new = at(task, false, Keyword::Properties).child(name);
        match self.rest_rule(&self.old.model, o.additional_properties) {
            Rest::Closed => {
                let detail = format!("`{name}` added to a closed object: it was rejected before");
                self.push(ChangeKind::PropertyAddedClosed, task, Some(Keyword::Properties), Effect::Loosens, detail);
            }
            Rest::Open => {
                // Old documents may carry the name with a value the new schema rejects.
                let effect = if self.is_trivial(&self.new.model, new) { Effect::Neutral } else { Effect::Tightens };
                let detail = format!("`{name}` added to an open object: old documents may carry it with another value");
                self.push(ChangeKind::PropertyAddedOpen, task, Some(Keyword::Properties), effect, detail);
            }
            Rest::Schema(rest) => {
                let detail = format!("`{name}` added: the schema for other properties applied to it before");
                self.push(ChangeKind::PropertyAddedOpen, task, Some(Keyword::Properties), Effect::Neutral, detail);
                self.then(Some(rest), Some(new), at(task, true, Keyword::AdditionalProperties), at_new, task.polarity.clone());
            }
        }
    }

    /// What `additionalProperties` says about a name nothing else declares.
    fn rest_rule(&self, model: &Model, rest: Option<SchemaId>) -> Rest {
        match rest {
            None => Rest::Open,
            Some(id) => match model.node(id).boolean() {
                Some(false) => Rest::Closed,
                Some(true) => Rest::Open,
                None if self.is_trivial(model, id) => Rest::Open,
                None => Rest::Schema(id),
            },
        }
    }

    fn is_trivial(&self, model: &Model, id: SchemaId) -> bool {
        match &model.node(id).body {
            Body::Bool(b) => *b,
            Body::Object(s) => trivial(s),
            Body::Invalid => false,
        }
    }

    fn pattern_properties(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (a, b) = (o.pattern_properties.as_deref().unwrap_or_default(), n.pattern_properties.as_deref().unwrap_or_default());
        let (at_old, at_new) = (at(task, true, Keyword::PatternProperties), at(task, false, Keyword::PatternProperties));
        let keyword = Some(Keyword::PatternProperties);
        for (pattern, old) in a {
            if let Some((_, new)) = b.iter().find(|(p, _)| p == pattern) {
                self.then(Some(*old), Some(*new), at_old.child(pattern), at_new.child(pattern), task.polarity.clone());
                continue;
            }
            let detail = format!("pattern property `{pattern}` removed");
            match self.rest_rule(&self.new.model, n.additional_properties) {
                Rest::Closed => self.push(ChangeKind::PatternPropertyRemoved, task, keyword, Effect::Tightens, detail),
                Rest::Open => {
                    let effect = if self.is_trivial(&self.old.model, *old) { Effect::Neutral } else { Effect::Loosens };
                    self.push(ChangeKind::PatternPropertyRemoved, task, keyword, effect, detail);
                }
                Rest::Schema(rest) => {
                    self.push(ChangeKind::PatternPropertyRemoved, task, keyword, Effect::Neutral, detail);
                    self.then(
                        Some(*old),
                        Some(rest),
                        at_old.child(pattern),
                        at(task, false, Keyword::AdditionalProperties),
                        task.polarity.clone(),
                    );
                }
            }
        }
        for (pattern, new) in b.iter().filter(|(p, _)| !a.iter().any(|(q, _)| q == p)) {
            let detail = format!("pattern property `{pattern}` added");
            match self.rest_rule(&self.old.model, o.additional_properties) {
                Rest::Closed => self.push(ChangeKind::PatternPropertyAdded, task, keyword, Effect::Loosens, detail),
                Rest::Open => {
                    let effect = if self.is_trivial(&self.new.model, *new) { Effect::Neutral } else { Effect::Tightens };
                    self.push(ChangeKind::PatternPropertyAdded, task, keyword, effect, detail);
                }
                Rest::Schema(rest) => {
                    self.push(ChangeKind::PatternPropertyAdded, task, keyword, Effect::Neutral, detail);
                    self.then(
                        Some(rest),
                        Some(*new),
                        at(task, true, Keyword::AdditionalProperties),
                        at_new.child(pattern),
                        task.polarity.clone(),
                    );
                }
            }
        }
    }

    /// `additionalProperties`, `unevaluated*`: the schema of what nothing else names.
    fn extra(&mut self, task: &Task, keyword: Keyword, a: Option<SchemaId>, b: Option<SchemaId>, kind: ChangeKind) {
        let boolean = |m: &Model, id: Option<SchemaId>| id.map_or(Some(true), |id| m.node(id).boolean());
        let (x, y) = (boolean(&self.old.model, a), boolean(&self.new.model, b));
        match (x, y) {
            (Some(true), Some(false)) => self.push(kind, task, Some(keyword), Effect::Tightens, format!("`{keyword}` closed")),
            (Some(false), Some(true)) => self.push(kind, task, Some(keyword), Effect::Loosens, format!("`{keyword}` opened")),
            _ => self.sub(task, keyword, a, b, task.polarity.clone()),
        }
    }

    /// A single-schema keyword, absent meaning `true`.
    fn sub(&mut self, task: &Task, keyword: Keyword, a: Option<SchemaId>, b: Option<SchemaId>, polarity: Polarity) {
        if a.is_none() && b.is_none() {
            return;
        }
        self.then(a, b, at(task, true, keyword), at(task, false, keyword), polarity);
    }

    fn items(&mut self, task: &Task, o: &Schema, n: &Schema) {
        let (om, nm) = self.models();
        let layout = |m: &Model, id: Option<SchemaId>, s: &Schema| {
            let draft = id.map_or(crate::Draft::Draft2020_12, |id| m.node(id).draft);
            match s.tuple(draft) {
                Some(t) => (Some((t.prefix.to_vec(), t.prefix_keyword)), t.rest, t.rest_keyword),
                None => (None, s.items_schema(), Keyword::Items),
            }
        };
        let (old_prefix, old_rest, old_rest_kw) = layout(om, task.old, o);
        let (new_prefix, new_rest, new_rest_kw) = layout(nm, task.new, n);
        match (&old_prefix, &new_prefix) {
            (None, Some(_)) => {
                self.push(ChangeKind::ArrayToTuple, task, Some(Keyword::Items), Effect::Neutral, "items became a tuple".into())
            }
            (Some(_), None) => {
                self.push(ChangeKind::TupleToArray, task, Some(Keyword::Items), Effect::Neutral, "a tuple became items".into())
            }
            _ => {}
        }
        let (op, okw) = old_prefix.unwrap_or((Vec::new(), Keyword::PrefixItems));
        let (np, nkw) = new_prefix.unwrap_or((Vec::new(), Keyword::PrefixItems));
        for i in 0..op.len().max(np.len()) {
            let old = op.get(i).copied().or(old_rest);
            let new = np.get(i).copied().or(new_rest);
            let old_at = if i < op.len() { at(task, true, okw).child(&i.to_string()) } else { at(task, true, old_rest_kw) };
            let new_at = if i < np.len() { at(task, false, nkw).child(&i.to_string()) } else { at(task, false, new_rest_kw) };
            self.then(old, new, old_at, new_at, task.polarity.clone());
        }
        let (x, y) = (old_rest.map(|id| om.node(id).boolean()), new_rest.map(|id| nm.node(id).boolean()));
        if (x, y) == (Some(Some(false)), None) || (x, y) == (None, Some(Some(false))) || old_rest.is_some() || new_rest.is_some() {
            self.then(old_rest, new_rest, at(task, true, old_rest_kw), at(task, false, new_rest_kw), task.polarity.clone());
        }
    }

    fn all_of(&mut self, task: &Task, a: &[SchemaId], b: &[SchemaId]) {
        let pairs = self.pair(a, b);
        for (i, j) in pairs {
            let keyword = Some(Keyword::AllOf);
            match (i, j) {
                (Some(i), Some(j)) => self.then(
                    Some(a[i]),
                    Some(b[j]),
                    item(task, true, Keyword::AllOf, i),
                    item(task, false, Keyword::AllOf, j),
                    task.polarity.clone(),
                ),
                (None, Some(j)) => self.push(ChangeKind::AllOfPartAdded, task, keyword, Effect::Tightens, format!("allOf part {j} added")),
                (Some(i), None) => {
                    self.push(ChangeKind::AllOfPartRemoved, task, keyword, Effect::Loosens, format!("allOf part {i} removed"))
                }
                (None, None) => {}
            }
        }
    }

    fn branches(&mut self, task: &Task, keyword: Keyword, a: Option<&[SchemaId]>, b: Option<&[SchemaId]>) {
        let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
        if a.is_empty() && b.is_empty() {
            return;
        }
        // Under `oneOf`, a document valid against two branches is invalid: a change to one
        // branch moves the whole only monotonically when the branches take disjoint kinds.
        let disjoint = keyword == Keyword::AnyOf || (self.disjoint(&self.old.model, a) && self.disjoint(&self.new.model, b));
        let inner = if disjoint {
            task.polarity.clone()
        } else {
            task.polarity.unknown("the `oneOf` branches overlap: a document may match several")
        };
        let added_effect =
            if disjoint { Effect::Loosens } else { Effect::Unknown("a document may match the new branch and an old one".to_owned()) };
        let removed_effect = if disjoint {
            Effect::Tightens
        } else {
            Effect::Unknown("a document may now match only one branch where it matched two".to_owned())
        };
        if a.is_empty() || b.is_empty() {
            let (kind, effect) =
                if a.is_empty() { (ChangeKind::BranchAdded, Effect::Tightens) } else { (ChangeKind::BranchRemoved, Effect::Loosens) };
            return self.push(kind, task, Some(keyword), effect, format!("`{keyword}` {}", if a.is_empty() { "added" } else { "removed" }));
        }
        for (i, j) in self.pair(a, b) {
            match (i, j) {
                (Some(i), Some(j)) => {
                    self.then(Some(a[i]), Some(b[j]), item(task, true, keyword, i), item(task, false, keyword, j), inner.clone())
                }
                (None, Some(j)) => {
                    self.push(ChangeKind::BranchAdded, task, Some(keyword), added_effect.clone(), format!("`{keyword}` branch {j} added"))
                }
                (Some(i), None) => self.push(
                    ChangeKind::BranchRemoved,
                    task,
                    Some(keyword),
                    removed_effect.clone(),
                    format!("`{keyword}` branch {i} removed"),
                ),
                (None, None) => {}
            }
        }
    }

    /// Whether each branch declares kinds none of the others take.
    fn disjoint(&self, model: &Model, branches: &[SchemaId]) -> bool {
        let kinds: Vec<Option<KindSet>> = branches.iter().map(|id| declared_kinds(model, *id)).collect();
        kinds.iter().enumerate().all(|(i, a)| a.is_some_and(|a| kinds.iter().skip(i + 1).all(|b| b.is_some_and(|b| !a.overlaps(b)))))
    }

    /// Pairs list members: equal JSON first, then the rest in order; `None` for a member
    /// without a partner.
    fn pair(&self, a: &[SchemaId], b: &[SchemaId]) -> Vec<(Option<usize>, Option<usize>)> {
        let mut taken = vec![false; b.len()];
        let mut partner: Vec<Option<usize>> = vec![None; a.len()];
        for (i, x) in a.iter().enumerate() {
            if let Some(j) = (0..b.len()).find(|j| !taken[*j] && json_of(self.old, Some(*x)) == json_of(self.new, Some(b[*j]))) {
                taken[j] = true;
                partner[i] = Some(j);
            }
        }
        let mut free = (0..b.len()).filter(|j| !taken[*j]).collect::<Vec<_>>().into_iter();
        let mut out = Vec::new();
        for (i, p) in partner.iter().enumerate() {
            let j = p.or_else(|| {
                let j = free.next();
                if let Some(j) = j {
                    taken[j] = true;
                }
                j
            });
            out.push((Some(i), j));
        }
        out.extend((0..b.len()).filter(|j| !taken[*j]).map(|j| (None, Some(j))));
        out
    }

    fn dependent_names(&mut self, task: &Task, keyword: Keyword, a: Vec<(String, Vec<String>)>, b: Vec<(String, Vec<String>)>) {
        for (name, required) in &b {
            let before = a.iter().find(|(n, _)| n == name).map(|(_, r)| r.clone()).unwrap_or_default();
            let added: Vec<&String> = required.iter().filter(|r| !before.contains(r)).collect();
            if !added.is_empty() {
                let detail = format!("with `{name}`, now also requires {}", names(&added));
                self.push(ChangeKind::RequiredAdded, task, Some(keyword), Effect::Tightens, detail);
            }
        }
        for (name, required) in &a {
            let after = b.iter().find(|(n, _)| n == name).map(|(_, r)| r.clone()).unwrap_or_default();
            let removed: Vec<&String> = required.iter().filter(|r| !after.contains(r)).collect();
            if !removed.is_empty() {
                let detail = format!("with `{name}`, no longer requires {}", names(&removed));
                self.push(ChangeKind::RequiredRemoved, task, Some(keyword), Effect::Loosens, detail);
            }
        }
    }

    fn dependent_schemas(&mut self, task: &Task, keyword: Keyword, a: Vec<(String, SchemaId)>, b: Vec<(String, SchemaId)>) {
        for (name, old) in &a {
            let new = b.iter().find(|(n, _)| n == name).map(|(_, id)| *id);
            let (old_at, new_at) = (at(task, true, keyword).child(name), at(task, false, keyword).child(name));
            if new.is_none() {
                self.push(
                    ChangeKind::DependentSchemaChanged,
                    task,
                    Some(keyword),
                    Effect::Neutral,
                    format!("the schema for `{name}` removed"),
                );
            }
            self.then(Some(*old), new, old_at, new_at, task.polarity.clone());
        }
        for (name, new) in b.iter().filter(|(n, _)| !a.iter().any(|(m, _)| m == n)) {
            self.push(ChangeKind::DependentSchemaChanged, task, Some(keyword), Effect::Neutral, format!("a schema for `{name}` added"));
            self.then(None, Some(*new), at(task, true, keyword).child(name), at(task, false, keyword).child(name), task.polarity.clone());
        }
    }
}

/// What a version says about properties nothing else declares.
enum Rest {
    Open,
    Closed,
    Schema(SchemaId),
}

/// Whether a schema object says nothing about instances (only annotations and identifiers).
fn trivial(schema: &Schema) -> bool {
    schema.keywords().all(|k| {
        matches!(k.info().class, crate::schema::Class::Annotation | crate::schema::Class::Identifier | crate::schema::Class::Container)
    })
}

fn declared_kinds(model: &Model, id: SchemaId) -> Option<KindSet> {
    let schema = model.node(id).schema()?;
    if let Some(values) = schema.allowed_values() {
        return Some(values.iter().map(KindSet::of_value).fold(KindSet::EMPTY, KindSet::union));
    }
    schema.types
}

fn at(task: &Task, old: bool, keyword: Keyword) -> Loc {
    if old { task.old_at.child(keyword.name()) } else { task.new_at.child(keyword.name()) }
}

fn item(task: &Task, old: bool, keyword: Keyword, i: usize) -> Loc {
    at(task, old, keyword).child(&i.to_string())
}

/// A subschema's JSON as written (for deciding that two are the same).
fn json_of(front: &Front, id: Option<SchemaId>) -> Option<String> {
    id.and_then(|id| front.registry.get(front.model.loc(id))).map(Value::to_string)
}

/// JSON equality with numbers by value (`1` is `1.0`), as `enum` compares.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().is_some_and(|x| y.as_f64() == Some(x)),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w))),
        (a, b) => a == b,
    }
}

/// `(bound, exclusive, as written)` of the lower number bound.
fn lower(s: &Schema) -> Option<(f64, bool, String)> {
    number_bound(s.minimum.as_ref(), s.exclusive_minimum.as_ref(), true)
}

fn upper(s: &Schema) -> Option<(f64, bool, String)> {
    number_bound(s.maximum.as_ref(), s.exclusive_maximum.as_ref(), false)
}

/// The tighter of the inclusive and the exclusive bound.
fn number_bound(inclusive: Option<&Number>, exclusive: Option<&Exclusive>, lower: bool) -> Option<(f64, bool, String)> {
    let flag = exclusive == Some(&Exclusive::Flag(true));
    let inclusive = inclusive.and_then(|n| Some((n.as_f64()?, flag, format!("{}{n}", if flag { "exclusive " } else { "" }))));
    let exclusive = match exclusive {
        Some(Exclusive::Bound(n)) => n.as_f64().map(|f| (f, true, format!("exclusive {n}"))),
        Some(Exclusive::Flag(_)) | None => None,
    };
    match (inclusive, exclusive) {
        (Some(a), Some(b)) => {
            let b_tighter = if lower { b.0 >= a.0 } else { b.0 <= a.0 };
            Some(if b_tighter { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

fn named_lists(list: Option<&[(String, Vec<String>)]>) -> Vec<(String, Vec<String>)> {
    list.unwrap_or_default().to_vec()
}

fn named_ids(list: Option<&[(String, SchemaId)]>) -> Vec<(String, SchemaId)> {
    list.unwrap_or_default().to_vec()
}

fn show(value: Option<&Value>) -> String {
    value.map_or("none".to_owned(), Value::to_string)
}

fn list(values: &[Value]) -> String {
    values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
}

fn names(list: &[&String]) -> String {
    list.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
