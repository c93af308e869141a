//! The synthesizer's own validator: which keywords an instance violates, and where.
//!
//! The synthesizer generates candidates and keeps only what this check confirms: a valid
//! instance has no failures, a mutant exactly one. It follows the specification's keyword
//! semantics for the keywords in scope (see [`super::ASSERTIONS`]); the `jsonschema` crate
//! referees its verdicts again in `cargo xtask codegen`.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt;

use schemac::resolve::Loc;
use schemac::schema::{Exclusive, Keyword, Model};
use serde_json::Value;

use super::schema::{ItemRule, View, escape, json_eq};

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

/// Deeper than this, a schema is treated as failing: only a ref cycle that consumes no input
/// gets there, and the compiler rejects those.
const MAX_DEPTH: usize = 256;

/// Validates instances against subschemas of one model, caching compiled patterns.
#[derive(Debug)]
pub(crate) struct Checker<'f> {
    pub model: &'f Model,
    patterns: RefCell<HashMap<String, Option<regress::Regex>>>,
}

/// Where a check records what it found.
struct Sink<'a> {
    failures: Vec<Failure>,
    /// `(instance pointer, schema)` of every schema object applied, when tracing.
    visits: Option<&'a mut Vec<(String, Loc)>>,
}

impl Sink<'_> {
    fn fail(&mut self, pointer: &str, keyword: Keyword, schema: &View<'_>) {
        self.failures.push(Failure { pointer: pointer.to_owned(), keyword: Label::Keyword(keyword), schema: schema.at_keyword(keyword) });
    }
}

impl<'f> Checker<'f> {
    pub fn new(front: &'f schemac::Front) -> Checker<'f> {
        Checker { model: &front.model, patterns: RefCell::new(HashMap::new()) }
    }

    /// The schema object at `loc` (`None` for boolean schemas).
    pub fn view(&self, loc: &Loc) -> Option<View<'f>> {
        View::at(self.model, loc)
    }

    /// Every failure of `value` against the schema at `loc`.
    pub fn failures(&self, loc: &Loc, value: &Value) -> Vec<Failure> {
        let mut sink = Sink { failures: Vec::new(), visits: None };
        self.check(loc, value, "", 0, &mut sink);
        sink.failures
    }

    pub fn is_valid(&self, loc: &Loc, value: &Value) -> bool {
        self.valid_at(loc, value, 0)
    }

    /// Every `(instance pointer, schema)` pair the check applies, for the mutator to work on.
    pub fn visits(&self, loc: &Loc, value: &Value) -> Vec<(String, Loc)> {
        let mut visits = Vec::new();
        let mut sink = Sink { failures: Vec::new(), visits: Some(&mut visits) };
        self.check(loc, value, "", 0, &mut sink);
        visits
    }

    /// Whether `text` matches the ECMA-262 pattern; an uncompilable pattern matches nothing.
    pub fn matches(&self, pattern: &str, text: &str) -> bool {
        let mut cache = self.patterns.borrow_mut();
        let regex = cache.entry(pattern.to_owned()).or_insert_with(|| regress::Regex::with_flags(pattern, "u").ok());
        regex.as_ref().is_some_and(|regex| regex.find(text).is_some())
    }

    fn valid_at(&self, loc: &Loc, value: &Value, depth: usize) -> bool {
        let mut sink = Sink { failures: Vec::new(), visits: None };
        self.check(loc, value, "", depth, &mut sink);
        sink.failures.is_empty()
    }

    fn check(&self, loc: &Loc, value: &Value, ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let unresolved = |sink: &mut Sink<'_>| {
            sink.failures.push(Failure {
                pointer: ptr.to_owned(),
                keyword: Label::Keyword(Keyword::Ref),
                schema: loc.child(Keyword::Ref.name()),
            })
        };
        let Some(node) = self.model.at(loc) else { return unresolved(sink) };
        if depth > MAX_DEPTH {
            return unresolved(sink);
        }
        match node.boolean() {
            Some(true) => {
                if let Some(visits) = sink.visits.as_deref_mut() {
                    visits.push((ptr.to_owned(), loc.clone()));
                }
                return;
            }
            Some(false) => {
                sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: Label::False, schema: loc.clone() });
                return;
            }
            None => {}
        }
        if let Some(visits) = sink.visits.as_deref_mut() {
            visits.push((ptr.to_owned(), loc.clone()));
        }
        let Some(view) = self.view(loc) else { return };
        for (keyword, target) in view.ref_targets() {
            match target {
                Some(target) => self.check(&target, value, ptr, depth + 1, sink),
                None => sink.fail(ptr, keyword, &view),
            }
        }
        if view.ref_only() {
            return;
        }
        self.check_generic(&view, value, ptr, sink);
        match value {
            Value::Number(_) => self.check_number(&view, value, ptr, sink),
            Value::String(text) => self.check_string(&view, text, ptr, sink),
            Value::Array(items) => self.check_array(&view, items, ptr, depth, sink),
            Value::Object(_) => self.check_object(&view, value, ptr, depth, sink),
            Value::Null | Value::Bool(_) => {}
        }
        self.check_combinators(&view, value, ptr, depth, sink);
    }

    fn check_generic(&self, view: &View<'_>, value: &Value, ptr: &str, sink: &mut Sink<'_>) {
        let schema = view.schema;
        if schema.types.is_some_and(|types| !types.accepts(value)) {
            sink.fail(ptr, Keyword::Type, view);
        }
        if schema.enum_values.as_ref().is_some_and(|values| !values.iter().any(|allowed| json_eq(allowed, value))) {
            sink.fail(ptr, Keyword::Enum, view);
        }
        if schema.const_value.as_ref().is_some_and(|constant| !json_eq(constant, value)) {
            sink.fail(ptr, Keyword::Const, view);
        }
    }

    fn check_number(&self, view: &View<'_>, value: &Value, ptr: &str, sink: &mut Sink<'_>) {
        let Some(n) = value.as_f64() else { return };
        let schema = view.schema;
        // Each bound keyword is checked on its own, so that the failure names it (draft 4's
        // boolean `exclusiveMinimum` makes `minimum` exclusive, and fails as `minimum`).
        let flag = |exclusive: &Option<Exclusive>| matches!(exclusive, Some(Exclusive::Flag(true)));
        if let Some(min) = schema.minimum.as_ref().and_then(serde_json::Number::as_f64)
            && (n < min || (flag(&schema.exclusive_minimum) && n == min))
        {
            sink.fail(ptr, Keyword::Minimum, view);
        }
        if let Some(max) = schema.maximum.as_ref().and_then(serde_json::Number::as_f64)
            && (n > max || (flag(&schema.exclusive_maximum) && n == max))
        {
            sink.fail(ptr, Keyword::Maximum, view);
        }
        if let Some(Exclusive::Bound(min)) = &schema.exclusive_minimum
            && min.as_f64().is_some_and(|min| n <= min)
        {
            sink.fail(ptr, Keyword::ExclusiveMinimum, view);
        }
        if let Some(Exclusive::Bound(max)) = &schema.exclusive_maximum
            && max.as_f64().is_some_and(|max| n >= max)
        {
            sink.fail(ptr, Keyword::ExclusiveMaximum, view);
        }
        if let Some(step) = schema.multiple_of.as_ref().and_then(serde_json::Number::as_f64).filter(|step| *step > 0.0) {
            let quotient = n / step;
            // Past 2^50 an f64 quotient cannot tell a multiple from a near miss; validators
            // that compute exactly may disagree, so such values count as failing.
            if (quotient - quotient.round()).abs() > 1e-9 || quotient.abs() > 1e15 {
                sink.fail(ptr, Keyword::MultipleOf, view);
            }
        }
    }

    fn check_string(&self, view: &View<'_>, text: &str, ptr: &str, sink: &mut Sink<'_>) {
        let schema = view.schema;
        let length = text.chars().count() as u64;
        if schema.min_length.is_some_and(|min| length < min) {
            sink.fail(ptr, Keyword::MinLength, view);
        }
        if schema.max_length.is_some_and(|max| length > max) {
            sink.fail(ptr, Keyword::MaxLength, view);
        }
        if schema.pattern.as_deref().is_some_and(|pattern| !self.matches(pattern, text)) {
            sink.fail(ptr, Keyword::Pattern, view);
        }
    }

    fn check_array(&self, view: &View<'_>, items: &[Value], ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let schema = view.schema;
        for (i, item) in items.iter().enumerate() {
            let at = format!("{ptr}/{i}");
            match view.item(i) {
                ItemRule::Any => {}
                ItemRule::Schema(loc) => self.check(&loc, item, &at, depth + 1, sink),
                ItemRule::Forbidden(keyword) => sink.fail(&at, keyword, view),
            }
        }
        if let Some(rule) = schema.unevaluated_items {
            let evaluated = self.evaluated_items(view.loc, items, depth);
            for (i, item) in items.iter().enumerate().filter(|(i, _)| !evaluated.contains(i)) {
                let at = format!("{ptr}/{i}");
                if view.boolean(rule) == Some(false) {
                    sink.fail(&at, Keyword::UnevaluatedItems, view);
                } else {
                    self.check(&view.loc_of(rule), item, &at, depth + 1, sink);
                }
            }
        }
        let count = items.len() as u64;
        if schema.min_items.is_some_and(|min| count < min) {
            sink.fail(ptr, Keyword::MinItems, view);
        }
        if schema.max_items.is_some_and(|max| count > max) {
            sink.fail(ptr, Keyword::MaxItems, view);
        }
        if schema.unique_items == Some(true) {
            let duplicate = items.iter().enumerate().any(|(i, a)| items[i + 1..].iter().any(|b| json_eq(a, b)));
            if duplicate {
                sink.fail(ptr, Keyword::UniqueItems, view);
            }
        }
        if let Some(contains) = schema.contains {
            let contains = view.loc_of(contains);
            let matching = items.iter().filter(|item| self.valid_at(&contains, item, depth + 1)).count() as u64;
            let min = schema.min_contains.unwrap_or(1);
            if matching < min {
                sink.fail(ptr, if schema.min_contains.is_some() && matching > 0 { Keyword::MinContains } else { Keyword::Contains }, view);
            }
            if schema.max_contains.is_some_and(|max| matching > max) {
                sink.fail(ptr, Keyword::MaxContains, view);
            }
        }
    }

    fn check_object(&self, view: &View<'_>, value: &Value, ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let Some(map) = value.as_object() else { return };
        let schema = view.schema;
        for (name, item) in map {
            let at = format!("{ptr}/{}", escape(name));
            let mut matched = false;
            if let Some(property) = view.property(name) {
                matched = true;
                self.check(&view.loc_of(property), item, &at, depth + 1, sink);
            }
            for (pattern, id) in view.pattern_properties() {
                if self.matches(pattern, name) {
                    matched = true;
                    self.check(&view.loc_of(*id), item, &at, depth + 1, sink);
                }
            }
            if !matched && let Some(additional) = schema.additional_properties {
                match view.boolean(additional) {
                    Some(false) => sink.fail(&at, Keyword::AdditionalProperties, view),
                    Some(true) => {}
                    None => self.check(&view.loc_of(additional), item, &at, depth + 1, sink),
                }
            }
            if let Some(names) = schema.property_names
                && !self.valid_at(&view.loc_of(names), &Value::String(name.clone()), depth + 1)
            {
                // At the object, as the types and `jsonschema` report it: a name is not a value.
                sink.fail(ptr, Keyword::PropertyNames, view);
            }
        }
        if let Some(rule) = schema.unevaluated_properties {
            let evaluated = self.evaluated_properties(view.loc, value, depth);
            for (name, item) in map.iter().filter(|(name, _)| !evaluated.contains(name.as_str())) {
                let at = format!("{ptr}/{}", escape(name));
                if view.boolean(rule) == Some(false) {
                    sink.fail(&at, Keyword::UnevaluatedProperties, view);
                } else {
                    self.check(&view.loc_of(rule), item, &at, depth + 1, sink);
                }
            }
        }
        if schema.required.as_ref().is_some_and(|required| required.iter().any(|name| !map.contains_key(name))) {
            sink.fail(ptr, Keyword::Required, view);
        }
        let count = map.len() as u64;
        if schema.min_properties.is_some_and(|min| count < min) {
            sink.fail(ptr, Keyword::MinProperties, view);
        }
        if schema.max_properties.is_some_and(|max| count > max) {
            sink.fail(ptr, Keyword::MaxProperties, view);
        }
        for (name, needs, keyword) in view.dependent_required() {
            if map.contains_key(&name) && needs.iter().any(|need| !map.contains_key(need)) {
                sink.fail(ptr, keyword, view);
            }
        }
        for (name, dependent) in view.dependent_schemas() {
            if map.contains_key(&name) {
                self.check(&dependent, value, ptr, depth + 1, sink);
            }
        }
    }

    fn check_combinators(&self, view: &View<'_>, value: &Value, ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let schema = view.schema;
        for branch in view.locs(schema.all_of.as_ref()) {
            self.check(&branch, value, ptr, depth + 1, sink);
        }
        let any = view.locs(schema.any_of.as_ref());
        if !any.is_empty() && !any.iter().any(|branch| self.valid_at(branch, value, depth + 1)) {
            sink.fail(ptr, Keyword::AnyOf, view);
        }
        let one = view.locs(schema.one_of.as_ref());
        if !one.is_empty() && one.iter().filter(|branch| self.valid_at(branch, value, depth + 1)).count() != 1 {
            sink.fail(ptr, Keyword::OneOf, view);
        }
        if let Some(not) = schema.not
            && self.valid_at(&view.loc_of(not), value, depth + 1)
        {
            sink.fail(ptr, Keyword::Not, view);
        }
        if let Some(condition) = schema.if_ {
            let branch = if self.valid_at(&view.loc_of(condition), value, depth + 1) { schema.then } else { schema.else_ };
            if let Some(branch) = branch {
                self.check(&view.loc_of(branch), value, ptr, depth + 1, sink);
            }
        }
        // In tracing mode, the branches of anyOf/oneOf/not/if are applied too, so that the
        // mutator sees the keywords inside them.
        if sink.visits.is_some() {
            let mut scratch = Sink { failures: Vec::new(), visits: sink.visits.as_deref_mut() };
            for branch in any.iter().chain(&one) {
                if self.valid_at(branch, value, depth + 1) {
                    self.check(branch, value, ptr, depth + 1, &mut scratch);
                }
            }
            if let Some(condition) = schema.if_ {
                self.check(&view.loc_of(condition), value, ptr, depth + 1, &mut scratch);
            }
        }
    }
}

impl Checker<'_> {
    /// The schemas applied in place at `loc` (itself, `$ref`, `allOf`, and the `anyOf`/`oneOf`
    /// branches, `if`/`then`/`else` and `dependentSchemas` that `value` passes): what
    /// `unevaluatedItems`/`unevaluatedProperties` look through.
    fn in_place(&self, loc: &Loc, value: &Value, depth: usize, out: &mut Vec<Loc>) {
        if depth > MAX_DEPTH || out.contains(loc) {
            return;
        }
        let Some(view) = self.view(loc) else { return };
        let schema = view.schema;
        out.push(loc.clone());
        if let Some(target) = view.ref_target() {
            self.in_place(&target, value, depth + 1, out);
        }
        for branch in view.locs(schema.all_of.as_ref()) {
            self.in_place(&branch, value, depth + 1, out);
        }
        for branch in view.locs(schema.any_of.as_ref()).into_iter().chain(view.locs(schema.one_of.as_ref())) {
            if self.valid_at(&branch, value, depth + 1) {
                self.in_place(&branch, value, depth + 1, out);
            }
        }
        if let Some(condition) = schema.if_ {
            let condition = view.loc_of(condition);
            let holds = self.valid_at(&condition, value, depth + 1);
            if holds {
                self.in_place(&condition, value, depth + 1, out);
            }
            if let Some(branch) = if holds { schema.then } else { schema.else_ } {
                self.in_place(&view.loc_of(branch), value, depth + 1, out);
            }
        }
        if let Value::Object(map) = value {
            for (name, dependent) in view.dependent_schemas() {
                if map.contains_key(&name) {
                    self.in_place(&dependent, value, depth + 1, out);
                }
            }
        }
    }

    fn evaluated_items(&self, loc: &Loc, items: &[Value], depth: usize) -> BTreeSet<usize> {
        let mut schemas = Vec::new();
        let array = Value::Array(items.to_vec());
        self.in_place(loc, &array, depth, &mut schemas);
        let mut out = BTreeSet::new();
        for at in &schemas {
            let Some(view) = self.view(at) else { continue };
            for i in 0..items.len() {
                let nested = at != loc && view.schema.unevaluated_items.is_some();
                if !matches!(view.item(i), ItemRule::Any) || view.schema.items.is_some() || nested {
                    out.insert(i);
                }
            }
            if let Some(contains) = view.schema.contains {
                let contains = view.loc_of(contains);
                out.extend((0..items.len()).filter(|i| self.valid_at(&contains, &items[*i], depth + 1)));
            }
        }
        out
    }

    fn evaluated_properties(&self, loc: &Loc, value: &Value, depth: usize) -> BTreeSet<String> {
        let mut schemas = Vec::new();
        self.in_place(loc, value, depth, &mut schemas);
        let mut out = BTreeSet::new();
        let Some(map) = value.as_object() else { return out };
        for at in &schemas {
            let Some(view) = self.view(at) else { continue };
            let all = view.schema.additional_properties.is_some() || (at != loc && view.schema.unevaluated_properties.is_some());
            for name in map.keys() {
                let declared = view.property(name).is_some();
                if all || declared || view.pattern_properties().iter().any(|(p, _)| self.matches(p, name)) {
                    out.insert(name.clone());
                }
            }
        }
        out
    }
}
