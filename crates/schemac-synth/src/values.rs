//! Valid instances: for a conjunction of subschemas (everything that applies at one place in
//! the instance), a minimal instance first, then one variant per feature — each property, enum
//! value, branch, boundary — so that the set as a whole covers the schema.
//!
//! Generation works on what the keywords promise (types, bounds, properties, branches); the
//! cross-cutting keywords (`not`, `oneOf` exclusivity, the `if` condition, `dependentSchemas`,
//! `uniqueItems` across branches) are settled by keeping only candidates the referee accepts.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use schemac_model::resolve::Loc;
use schemac_model::schema::Keyword;
use schemac_model::schema::Kind;
use serde_json::{Map, Number, Value};

use super::SynthConfig;
use super::rng::Rng;
use super::schema::{ItemRule, View, json_eq};
use super::strings;
use super::walk::Schemas;

/// Deeper than this the generator gives up on a branch (only unbounded recursion gets here).
const HARD_DEPTH: usize = 32;

/// A valid value and what it was made to cover, relative to where it stands.
#[derive(Clone, Debug)]
pub(crate) struct Sample {
    pub value: Value,
    pub note: String,
}

impl Sample {
    fn new(value: Value, note: impl Into<String>) -> Sample {
        Sample { value, note: note.into() }
    }
}

/// Subschemas that all apply to one instance location, and the choice points (`oneOf`,
/// `anyOf`, `if`) already decided for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conj {
    pub locs: Vec<Loc>,
    decided: BTreeSet<Loc>,
}

impl Conj {
    pub fn of(loc: Loc) -> Conj {
        Conj { locs: vec![loc], decided: BTreeSet::new() }
    }

    /// Every schema at `locs` at once.
    pub fn all(locs: Vec<Loc>) -> Conj {
        Conj { locs, decided: BTreeSet::new() }
    }
}

/// A place where the instance takes one of several alternatives.
struct Choice {
    at: Loc,
    alternatives: Vec<(String, Vec<Loc>)>,
}

/// The schema objects of a conjunction after following `$ref` and `allOf`.
struct Expanded {
    atoms: Vec<Loc>,
    choices: Vec<Choice>,
    impossible: bool,
}

pub(crate) struct Gen<'r> {
    pub schemas: &'r Schemas<'r>,
    pub cfg: &'r SynthConfig,
    pub rng: Rng,
    /// What the generator could not do, e.g. a pattern it cannot generate from.
    pub notes: BTreeSet<String>,
}

impl<'r> Gen<'r> {
    /// Valid values for `conj`, the minimal one first; empty when none could be made.
    pub fn values(&mut self, conj: &Conj, depth: usize) -> Vec<Sample> {
        if depth > HARD_DEPTH {
            return Vec::new();
        }
        let expanded = self.expand(conj);
        if expanded.impossible {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Some(choice) = expanded.choices.first() {
            for (label, alternative) in &choice.alternatives {
                let mut next = conj.clone();
                next.decided.insert(choice.at.clone());
                next.locs.extend(alternative.iter().cloned());
                for sample in self.values(&next, depth) {
                    let note = if sample.note.is_empty() { label.clone() } else { format!("{label}; {}", sample.note) };
                    out.push(Sample::new(sample.value, note));
                }
            }
        } else {
            out = self.facets(&expanded.atoms, depth);
        }
        let mut seen = BTreeSet::new();
        out.retain(|sample| conj.locs.iter().all(|loc| self.schemas.is_valid(loc, &sample.value)) && seen.insert(sample.value.to_string()));
        out
    }

    fn expand(&mut self, conj: &Conj) -> Expanded {
        let mut expanded = Expanded { atoms: Vec::new(), choices: Vec::new(), impossible: false };
        let mut work: Vec<Loc> = conj.locs.iter().rev().cloned().collect();
        let mut seen = BTreeSet::new();
        while let Some(loc) = work.pop() {
            if !seen.insert(loc.clone()) {
                continue;
            }
            let Some(node) = self.schemas.model.at(&loc) else {
                expanded.impossible = true;
                continue;
            };
            match node.boolean() {
                Some(true) => continue,
                Some(false) => {
                    expanded.impossible = true;
                    continue;
                }
                None => {}
            }
            let Some(view) = self.schemas.view(&loc) else {
                expanded.impossible = true;
                continue;
            };
            let schema = view.schema;
            let mut next = Vec::new();
            for (_, target) in view.ref_targets() {
                match target {
                    Some(target) => next.push(target),
                    None => expanded.impossible = true,
                }
            }
            if !view.ref_only() {
                expanded.atoms.push(loc.clone());
                next.extend(view.locs(schema.all_of.as_ref()));
                for (keyword, list) in [(Keyword::OneOf, &schema.one_of), (Keyword::AnyOf, &schema.any_of)] {
                    let at = view.at_keyword(keyword);
                    let branches = view.locs(list.as_ref());
                    if !branches.is_empty() && !conj.decided.contains(&at) {
                        let alternatives =
                            branches.into_iter().enumerate().map(|(i, b)| (format!("{keyword} branch {i}"), vec![b])).collect();
                        expanded.choices.push(Choice { at, alternatives });
                    }
                }
                let at = view.at_keyword(Keyword::If);
                if let Some(condition) = schema.if_
                    && !conj.decided.contains(&at)
                {
                    let mut then = vec![view.loc_of(condition)];
                    then.extend(schema.then.map(|id| view.loc_of(id)));
                    let otherwise: Vec<Loc> = schema.else_.map(|id| view.loc_of(id)).into_iter().collect();
                    let alternatives = vec![("if holds, then".to_owned(), then), ("if fails, else".to_owned(), otherwise)];
                    expanded.choices.push(Choice { at, alternatives });
                }
            }
            work.extend(next.into_iter().rev());
        }
        expanded
    }

    /// Values for atoms with no choice left: by `const`/`enum` if any, else for each kind the
    /// atoms allow, in the order the schema lists them.
    fn facets(&mut self, atoms: &[Loc], depth: usize) -> Vec<Sample> {
        let views: Vec<View<'_>> = atoms.iter().filter_map(|loc| self.schemas.view(loc)).collect();
        if let Some(constant) = views.iter().find_map(|v| v.schema.const_value.as_ref()) {
            return vec![Sample::new(constant.clone(), Keyword::Const.name())];
        }
        if let Some(values) = views.iter().find_map(|v| v.schema.enum_values.as_ref()) {
            return values.iter().enumerate().map(|(i, v)| Sample::new(v.clone(), format!("enum value {i}"))).collect();
        }
        let kinds = allowed_kinds(&views);
        let mut out = Vec::new();
        for kind in kinds {
            let samples = match kind {
                Kind::Null => vec![Sample::new(Value::Null, "null")],
                Kind::Boolean => vec![Sample::new(Value::Bool(true), "true"), Sample::new(Value::Bool(false), "false")],
                Kind::Integer => integers(&views),
                Kind::Number => numbers(&views),
                Kind::String => self.strings(&views),
                Kind::Array => self.arrays(&views, depth),
                Kind::Object => self.objects(&views, depth),
            };
            out.extend(samples);
        }
        out
    }

    fn strings(&mut self, views: &[View<'_>]) -> Vec<Sample> {
        let min = views.iter().filter_map(|v| v.schema.min_length).max().unwrap_or(0) as usize;
        let max = views.iter().filter_map(|v| v.schema.max_length).min().map(|m| m as usize);
        let patterns: Vec<&str> = views.iter().filter_map(|v| v.schema.pattern.as_deref()).collect();
        let format = views.iter().find_map(|v| v.schema.format.as_deref());
        let mut out = Vec::new();
        if let Some(pattern) = patterns.first() {
            match strings::pattern_candidates(pattern, &mut self.rng, self.cfg.pattern_samples) {
                Ok(candidates) => {
                    for (i, text) in candidates.into_iter().enumerate() {
                        let note = if i == 0 { "shortest match of the pattern" } else { "pattern match" };
                        out.push(Sample::new(Value::String(text), note));
                    }
                }
                Err(why) => {
                    self.notes.insert(why);
                }
            }
            return out;
        }
        if let Some(samples) = format.and_then(strings::format_samples) {
            return samples
                .iter()
                .map(|s| Sample::new(Value::String((*s).to_owned()), format!("format {}", format.unwrap_or(""))))
                .collect();
        }
        let clamp = |n: usize| max.map_or(n.max(min), |max| n.max(min).min(max));
        out.push(Sample::new(Value::String(strings::of_length(clamp(10), "synthesized")), "text"));
        out.push(Sample::new(Value::String(strings::of_length(min, "abc")), format!("shortest ({min} characters)")));
        if let Some(max) = max.filter(|m| *m <= self.cfg.max_string) {
            out.push(Sample::new(Value::String(strings::of_length(max, "xyz")), format!("longest ({max} characters)")));
        }
        for unit in &strings::UNITS[1..] {
            out.push(Sample::new(Value::String(strings::of_length(clamp(4), unit)), "non-ASCII characters"));
        }
        out
    }

    fn arrays(&mut self, views: &[View<'_>], depth: usize) -> Vec<Sample> {
        let max = views.iter().filter_map(|v| v.schema.max_items).min().map(|m| m as usize);
        let unique = views.iter().any(|v| v.schema.unique_items == Some(true));
        let contains: Vec<Loc> = views.iter().filter_map(|v| Some(v.loc_of(v.schema.contains?))).collect();
        // The first `need` items are made to match `contains` (`minContains`, default 1).
        let need = if contains.is_empty() { 0 } else { views.iter().filter_map(|v| v.schema.min_contains).max().unwrap_or(1) as usize };
        let min = (views.iter().filter_map(|v| v.schema.min_items).max().unwrap_or(0) as usize).max(need);
        // Positions with their own rule: the longest prefix of any atom, then "the rest".
        let prefix = views.iter().map(View::prefix_len).max().unwrap_or(0);
        let mut pools: HashMap<(usize, bool), Vec<Sample>> = HashMap::new();
        let mut pool = |g: &mut Gen<'r>, index: usize| -> Vec<Sample> {
            let class = index.min(prefix);
            if let Some(p) = pools.get(&(class, index < need)) {
                return p.clone();
            }
            let mut conj = Conj::default();
            let mut forbidden = false;
            for view in views {
                match view.item(class) {
                    ItemRule::Any => {}
                    ItemRule::Schema(loc) => conj.locs.push(loc),
                    ItemRule::Forbidden(_) => forbidden = true,
                }
            }
            if index < need {
                conj.locs.extend(contains.iter().cloned());
            }
            let values = if forbidden {
                Vec::new()
            } else if conj.locs.is_empty() {
                vec![Sample::new(Value::String("item".to_owned()), "any item"), Sample::new(Value::from(1), "any item")]
            } else {
                g.values(&conj, depth + 1)
            };
            pools.insert((class, index < need), values.clone());
            values
        };
        let mut base: Vec<Value> = Vec::new();
        for i in 0..min {
            let candidates = pool(self, i);
            let Some(item) = candidates.iter().find(|c| !unique || !base.iter().any(|b| json_eq(b, &c.value))) else {
                return Vec::new();
            };
            base.push(item.value.clone());
        }
        let mut out = vec![Sample::new(Value::Array(base.clone()), format!("{min} items"))];
        if depth >= self.cfg.max_depth {
            return out;
        }
        let limit = max.unwrap_or(usize::MAX);
        for class in 0..=prefix {
            let candidates = pool(self, class);
            for candidate in &candidates {
                let mut items = base.clone();
                while items.len() < class {
                    let filler = pool(self, items.len());
                    let Some(f) = filler.iter().find(|c| !unique || !items.iter().any(|b| json_eq(b, &c.value))) else { break };
                    items.push(f.value.clone());
                }
                if items.len() < class {
                    continue;
                }
                if unique && items.iter().enumerate().any(|(i, b)| i != class && json_eq(b, &candidate.value)) {
                    continue;
                }
                if class < items.len() {
                    items[class] = candidate.value.clone();
                } else {
                    items.push(candidate.value.clone());
                }
                if items.len() <= limit {
                    out.push(Sample::new(Value::Array(items), format!("/{class}: {}", candidate.note)));
                }
            }
        }
        if let Some(max) = max.filter(|m| *m > min && *m <= self.cfg.max_items) {
            let mut items = base.clone();
            let mut next = 0usize;
            while items.len() < max {
                let candidates = pool(self, items.len());
                let found = candidates
                    .iter()
                    .cycle()
                    .skip(next)
                    .take(candidates.len())
                    .find(|c| !unique || !items.iter().any(|b| json_eq(b, &c.value)));
                let Some(found) = found else { break };
                items.push(found.value.clone());
                next += 1;
            }
            if items.len() == max {
                out.push(Sample::new(Value::Array(items), format!("{max} items (maxItems)")));
            }
        }
        out
    }

    fn objects(&mut self, views: &[View<'_>], depth: usize) -> Vec<Sample> {
        let mut names: Vec<String> = Vec::new();
        for view in views {
            for (name, _) in view.schema.properties.iter().flatten() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        let mut required: Vec<String> = Vec::new();
        for view in views {
            for name in view.schema.required.iter().flatten() {
                if !required.contains(name) {
                    required.push(name.clone());
                }
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        let deps: Vec<(String, Vec<String>)> =
            views.iter().flat_map(|v| v.dependent_required()).map(|(name, needs, _)| (name, needs)).collect();
        let closed = views.iter().any(|v| v.is_false(v.schema.additional_properties) || v.is_false(v.schema.unevaluated_properties));
        let min_props = views.iter().filter_map(|v| v.schema.min_properties).max().unwrap_or(0) as usize;

        let mut pools: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
        let mut pool = |g: &mut Gen<'r>, name: &str| -> Vec<Sample> {
            if let Some(p) = pools.get(name) {
                return p.clone();
            }
            let conj = g.property_conj(views, name);
            let values = if conj.locs.is_empty() {
                vec![Sample::new(Value::String("value".to_owned()), "any value")]
            } else {
                g.values(&conj, depth + 1)
            };
            pools.insert(name.to_owned(), values.clone());
            values
        };
        // Adds `name` (with its dependencies) to `map` unless present; false if impossible.
        let add =
            |g: &mut Gen<'r>, map: &mut Map<String, Value>, name: &str, pool: &mut dyn FnMut(&mut Gen<'r>, &str) -> Vec<Sample>| -> bool {
                let mut todo = vec![name.to_owned()];
                while let Some(name) = todo.pop() {
                    if map.contains_key(&name) {
                        continue;
                    }
                    let Some(first) = pool(g, &name).into_iter().next() else { return false };
                    map.insert(name.clone(), first.value);
                    for (trigger, needs) in &deps {
                        if *trigger == name {
                            todo.extend(needs.iter().cloned());
                        }
                    }
                }
                true
            };
        let mut base = Map::new();
        for name in &required {
            if !add(self, &mut base, name, &mut pool) {
                return Vec::new();
            }
        }
        for name in &names {
            if base.len() >= min_props {
                break;
            }
            add(self, &mut base, name, &mut pool);
        }
        let mut out = vec![Sample::new(Value::Object(base.clone()), "required properties only")];
        if depth >= self.cfg.max_depth {
            return out;
        }
        let mut full = base.clone();
        for name in &names {
            add(self, &mut full, name, &mut pool);
        }
        out.push(Sample::new(Value::Object(full), "every declared property"));
        for name in &names {
            for candidate in pool(self, name) {
                let mut map = base.clone();
                map.insert(name.clone(), candidate.value.clone());
                let complete =
                    deps.iter().filter(|(t, _)| t == name).flat_map(|(_, needs)| needs).all(|need| add(self, &mut map, need, &mut pool));
                if complete {
                    let token = super::schema::escape(name);
                    out.push(Sample::new(Value::Object(map), format!("/{token}: {}", candidate.note)));
                }
            }
        }
        // The unknown property's name must pass every `propertyNames` here, or the instance
        // is dropped and `additionalProperties` is never reached.
        let unknown = unknown_names(&names).into_iter().find(|name| {
            let name = Value::String(name.clone());
            views.iter().filter_map(|v| Some(v.loc_of(v.schema.property_names?))).all(|names| self.schemas.is_valid(&names, &name))
        });
        if let Some(name) = unknown.filter(|_| !closed) {
            let conj = self.property_conj(views, &name);
            let value = if conj.locs.is_empty() {
                Some(Value::String("kept ☃ 😀".to_owned()))
            } else {
                self.values(&conj, depth + 1).into_iter().next().map(|s| s.value)
            };
            if let Some(value) = value {
                let mut map = base.clone();
                map.insert(name.clone(), value);
                out.push(Sample::new(Value::Object(map), format!("unknown property {name}")));
            }
        }
        for (pattern, _) in views.iter().flat_map(|v| v.pattern_properties()) {
            let Ok(candidates) = strings::pattern_candidates(pattern, &mut self.rng, 4) else {
                self.notes.insert(format!("patternProperties `{pattern}`: cannot generate a property name"));
                continue;
            };
            let Some(name) = candidates.into_iter().find(|n| !names.contains(n) && self.schemas.matches(pattern, n)) else { continue };
            let conj = self.property_conj(views, &name);
            for sample in self.values(&conj, depth + 1) {
                let mut map = base.clone();
                map.insert(name.clone(), sample.value);
                out.push(Sample::new(Value::Object(map), format!("property {name} matching patternProperties {pattern}: {}", sample.note)));
            }
        }
        out
    }

    /// Every subschema that applies to property `name` of an object that all `views` apply to.
    fn property_conj(&self, views: &[View<'_>], name: &str) -> Conj {
        let mut conj = Conj::default();
        for view in views {
            let mut matched = false;
            if let Some(property) = view.property(name) {
                matched = true;
                conj.locs.push(view.loc_of(property));
            }
            for (pattern, id) in view.pattern_properties() {
                if self.schemas.matches(pattern, name) {
                    matched = true;
                    conj.locs.push(view.loc_of(*id));
                }
            }
            if !matched && let Some(additional) = view.schema.additional_properties {
                conj.locs.push(view.loc_of(additional));
            } else if !matched && let Some(unevaluated) = view.schema.unevaluated_properties {
                conj.locs.push(view.loc_of(unevaluated));
            }
        }
        conj
    }
}

/// The kinds the atoms allow, in the order the first `type` lists them; without any `type`,
/// the kinds their keywords suggest, else every kind.
fn allowed_kinds(views: &[View<'_>]) -> Vec<Kind> {
    let mut kinds: Option<Vec<Kind>> = None;
    for view in views {
        if let Some(allowed) = &view.schema.type_order {
            kinds = Some(match kinds {
                None => allowed.clone(),
                Some(previous) => previous
                    .into_iter()
                    .filter_map(|k| {
                        if allowed.contains(&k) {
                            Some(k)
                        } else if (k == Kind::Number && allowed.contains(&Kind::Integer))
                            || (k == Kind::Integer && allowed.contains(&Kind::Number))
                        {
                            // `integer` is the narrower of the two.
                            Some(Kind::Integer)
                        } else {
                            None
                        }
                    })
                    .collect(),
            });
        }
    }
    if let Some(kinds) = kinds {
        return kinds;
    }
    // The kinds keywords are about (`minLength` is about strings, ...), in this order.
    let mut inferred = Vec::new();
    for kind in [Kind::Object, Kind::Array, Kind::String, Kind::Number] {
        let suggested = views.iter().any(|v| v.keywords().any(|k| suggests(k) == Some(kind)));
        if suggested {
            inferred.push(kind);
        }
    }
    if inferred.is_empty() { vec![Kind::String, Kind::Integer, Kind::Object, Kind::Array, Kind::Boolean, Kind::Null] } else { inferred }
}

/// The kind of value a keyword's presence suggests the instance is, for a schema without
/// `type`: the keywords whose only purpose is to shape that kind of value.
fn suggests(keyword: Keyword) -> Option<Kind> {
    match keyword {
        Keyword::Properties
        | Keyword::Required
        | Keyword::AdditionalProperties
        | Keyword::PatternProperties
        | Keyword::MinProperties
        | Keyword::MaxProperties => Some(Kind::Object),
        Keyword::Items | Keyword::PrefixItems | Keyword::MinItems | Keyword::MaxItems | Keyword::UniqueItems | Keyword::Contains => {
            Some(Kind::Array)
        }
        Keyword::Pattern | Keyword::MinLength | Keyword::MaxLength | Keyword::Format => Some(Kind::String),
        Keyword::Minimum | Keyword::Maximum | Keyword::ExclusiveMinimum | Keyword::ExclusiveMaximum | Keyword::MultipleOf => {
            Some(Kind::Number)
        }
        // The others either apply to any value, or are about one kind but were not read as
        // suggesting it (`propertyNames`, `dependentRequired`, `minContains`, `unevaluated*`,
        // the content keywords): their schemas usually say `type` anyway.
        Keyword::Schema
        | Keyword::Id
        | Keyword::LegacyId
        | Keyword::Anchor
        | Keyword::DynamicAnchor
        | Keyword::RecursiveAnchor
        | Keyword::Vocabulary
        | Keyword::Comment
        | Keyword::Defs
        | Keyword::Definitions
        | Keyword::Ref
        | Keyword::DynamicRef
        | Keyword::RecursiveRef
        | Keyword::AllOf
        | Keyword::AnyOf
        | Keyword::OneOf
        | Keyword::Not
        | Keyword::If
        | Keyword::Then
        | Keyword::Else
        | Keyword::DependentSchemas
        | Keyword::Dependencies
        | Keyword::AdditionalItems
        | Keyword::PropertyNames
        | Keyword::UnevaluatedItems
        | Keyword::UnevaluatedProperties
        | Keyword::Type
        | Keyword::Enum
        | Keyword::Const
        | Keyword::MaxContains
        | Keyword::MinContains
        | Keyword::DependentRequired
        | Keyword::ContentEncoding
        | Keyword::ContentMediaType
        | Keyword::ContentSchema
        | Keyword::Title
        | Keyword::Description
        | Keyword::Default
        | Keyword::Deprecated
        | Keyword::ReadOnly
        | Keyword::WriteOnly
        | Keyword::Examples => None,
    }
}

/// Property names no declared property has, the most telling first, then shorter ones for a
/// `propertyNames` that limits the length or the characters.
fn unknown_names(names: &[String]) -> Vec<String> {
    let mut name = "zz_synth_extra".to_owned();
    while names.contains(&name) {
        name.push('_');
    }
    let mut out = vec![name];
    out.extend(["zz", "z", "zzz", "x1", "Z"].into_iter().map(str::to_owned).filter(|n| !names.contains(n)));
    out
}

/// An integer bound as `i128`: exact for every JSON integer up to `u64::MAX`.
fn int_bound(value: &Number, up: bool) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = value.as_u64() {
        return Some(i128::from(u));
    }
    let f = value.as_f64()?;
    Some(if up { f.ceil() } else { f.floor() } as i128)
}

fn integers(views: &[View<'_>]) -> Vec<Sample> {
    let mut lo: Option<i128> = None;
    let mut hi: Option<i128> = None;
    let mut step: Option<i128> = None;
    for view in views {
        let bounds = view.bounds();
        if let Some(min) = bounds.min
            && let Some(raw) = int_bound(&min.number, true)
        {
            let bound = if min.exclusive && min.value.fract() == 0.0 { raw + 1 } else { raw };
            lo = Some(lo.map_or(bound, |l| l.max(bound)));
        }
        if let Some(max) = bounds.max
            && let Some(raw) = int_bound(&max.number, false)
        {
            let bound = if max.exclusive && max.value.fract() == 0.0 { raw - 1 } else { raw };
            hi = Some(hi.map_or(bound, |h| h.min(bound)));
        }
        if let Some(m) = view.schema.multiple_of.as_ref().and_then(Number::as_u64).filter(|m| *m > 0) {
            step = Some(i128::from(m));
        }
    }
    // Each bound is noted by the keyword's name (as the number samples below are).
    let (minimum, maximum) = (Keyword::Minimum.name(), Keyword::Maximum.name());
    let mut candidates: Vec<(i128, &str)> = match (lo, hi) {
        (Some(l), Some(h)) => vec![(l, minimum), (h, maximum), (l + (h - l) / 2, "between the bounds")],
        (Some(l), None) => vec![(l, minimum), (l + 1, "above the minimum"), (l + 1_000_000, "far above the minimum")],
        (None, Some(h)) => vec![(h, maximum), (h - 1, "below the maximum"), (h - 1_000_000, "far below the maximum")],
        (None, None) => vec![(0, "zero"), (42, "positive"), (-7, "negative"), (9_007_199_254_740_993, "beyond 2^53")],
    };
    if let Some(step) = step {
        for (value, _) in &mut candidates {
            let rounded = value.div_euclid(step) * step;
            *value = if lo.is_some_and(|l| rounded < l) { rounded + step } else { rounded };
        }
    }
    candidates
        .into_iter()
        .filter(|(v, _)| lo.is_none_or(|l| *v >= l) && hi.is_none_or(|h| *v <= h))
        .filter_map(|(v, note)| Some(Sample::new(int_value(v)?, note)))
        .collect()
}

fn int_value(v: i128) -> Option<Value> {
    if let Ok(i) = i64::try_from(v) {
        return Some(Value::from(i));
    }
    u64::try_from(v).ok().map(Value::from)
}

fn numbers(views: &[View<'_>]) -> Vec<Sample> {
    let mut lo: Option<(f64, bool)> = None;
    let mut hi: Option<(f64, bool)> = None;
    let mut step: Option<f64> = None;
    for view in views {
        let bounds = view.bounds();
        if let Some(min) = bounds.min.map(|b| (b.value, b.exclusive)) {
            lo = Some(match lo {
                Some(old) if old.0 > min.0 || (old.0 == min.0 && old.1) => old,
                _ => min,
            });
        }
        if let Some(max) = bounds.max.map(|b| (b.value, b.exclusive)) {
            hi = Some(match hi {
                Some(old) if old.0 < max.0 || (old.0 == max.0 && old.1) => old,
                _ => max,
            });
        }
        step = step.or(view.schema.multiple_of.as_ref().and_then(Number::as_f64).filter(|m| *m > 0.0));
    }
    let span = match (lo, hi) {
        (Some((l, _)), Some((h, _))) => (h - l).abs().max(f64::MIN_POSITIVE),
        _ => 1.0,
    };
    let nudge = (span / 1024.0).min(0.5);
    let mut candidates: Vec<(f64, &str)> = Vec::new();
    if let Some((l, exclusive)) = lo {
        candidates.push(if exclusive { (l + nudge, "just above the exclusive minimum") } else { (l, Keyword::Minimum.name()) });
    }
    if let Some((h, exclusive)) = hi {
        candidates.push(if exclusive { (h - nudge, "just below the exclusive maximum") } else { (h, Keyword::Maximum.name()) });
    }
    match (lo, hi) {
        (Some((l, _)), Some((h, _))) => candidates.push((l + (h - l) / 2.0, "between the bounds")),
        (Some((l, _)), None) => candidates.push((l + 2.5, "above the minimum")),
        (None, Some((h, _))) => candidates.push((h - 2.5, "below the maximum")),
        (None, None) => candidates.extend([(0.5, "fraction"), (-2.25, "negative fraction"), (1e21, "large"), (3.0, "integral")]),
    }
    if let Some(step) = step {
        candidates = candidates.into_iter().map(|(v, note)| ((v / step).ceil() * step, note)).collect();
    }
    candidates
        .into_iter()
        .filter(|(v, _)| lo.is_none_or(|(l, x)| *v > l || (!x && *v == l)) && hi.is_none_or(|(h, x)| *v < h || (!x && *v == h)))
        .filter_map(|(v, note)| Some(Sample::new(Value::Number(Number::from_f64(v)?), note)))
        .collect()
}
