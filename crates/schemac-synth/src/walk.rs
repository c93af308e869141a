//! Where each subschema applies in an instance: the walk that tells the mutator which schema
//! objects to violate at which pointer, and the values of their `default`s and `examples`
//! where. The verdicts it needs (a branch holds, `if` holds, a property name matches
//! `propertyNames`) are the referee's; it decides none itself.
//!
//! This is what `jsonschema` does not answer: its output formats list the subschemas it
//! evaluated, the schema under `not` and those of `contains` and `propertyNames` included
//! (where a change never fails alone, only as the keyword around them), while the mutator needs
//! the schema objects whose keywords one change of a valid instance can violate alone (an
//! `anyOf` or `oneOf` branch the value matches, `if` itself, `then` or `else` as `if`
//! decides), in the order of the instance. A test
//! (`the_walk_reaches_what_a_single_change_can_violate`) shows the difference.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use schemac_model::resolve::{Loc, Registry};
use schemac_model::schema::Model;
use serde_json::Value;

use super::referee::{Failure, Referee};
use super::schema::{ItemRule, View, escape};

/// Deeper than this the walk stops: only a ref cycle that consumes no input gets there, and
/// the compiler rejects those.
const MAX_DEPTH: usize = 256;

/// The loaded schemas as synthesis reads them: the model, and the referee's verdicts.
#[derive(Debug)]
pub(crate) struct Schemas<'f> {
    pub model: &'f Model,
    pub registry: &'f Registry,
    referee: &'f Referee,
    patterns: RefCell<HashMap<String, Option<regress::Regex>>>,
    /// Why `jsonschema` could not compile schemas asked about, for the synthesis to report.
    problems: RefCell<BTreeSet<String>>,
}

impl<'f> Schemas<'f> {
    pub fn new(front: &'f schemac::Front, referee: &'f Referee) -> Schemas<'f> {
        let patterns = RefCell::new(HashMap::new());
        Schemas { model: &front.model, registry: &front.registry, referee, patterns, problems: RefCell::new(BTreeSet::new()) }
    }

    /// Each schema asked about that `jsonschema` cannot compile, with why (which accepts nothing).
    pub fn problems(&self) -> Vec<String> {
        self.problems.borrow().iter().cloned().collect()
    }

    fn note_problem(&self, loc: &Loc) {
        if let Some(problem) = self.referee.problem(loc) {
            self.problems.borrow_mut().insert(problem);
        }
    }

    /// The schema object at `loc` (`None` for boolean schemas).
    pub fn view(&self, loc: &Loc) -> Option<View<'f>> {
        View::at(self.model, loc)
    }

    /// Every keyword `value` violates against the schema at `loc`, by the referee.
    pub fn failures(&self, loc: &Loc, value: &Value) -> Vec<Failure> {
        let failures = self.referee.failures(self.model, self.registry, loc, value);
        self.note_problem(loc);
        failures
    }

    /// Whether `value` is valid against the schema at `loc`, by the referee.
    pub fn is_valid(&self, loc: &Loc, value: &Value) -> bool {
        let valid = self.referee.is_valid(self.model, loc, value);
        if !valid {
            self.note_problem(loc);
        }
        valid
    }

    /// Whether `text` matches the ECMA-262 pattern, as the compiler reads patterns (`regress`
    /// with the `u` flag), for which `patternProperties` apply to a name and which generated
    /// names to try; an uncompilable pattern matches nothing. A name `jsonschema`'s engine
    /// reads otherwise only misleads a candidate, which the referee then rejects.
    pub fn matches(&self, pattern: &str, text: &str) -> bool {
        let mut cache = self.patterns.borrow_mut();
        let regex = cache.entry(pattern.to_owned()).or_insert_with(|| regress::Regex::with_flags(pattern, "u").ok());
        regex.as_ref().is_some_and(|regex| regex.find(text).is_some())
    }

    /// Every `(instance pointer, schema)` pair where a schema applies in `value`, which should
    /// be valid against the schema at `loc`: schema objects and `true` (a `false` schema applies
    /// nowhere in a valid instance), in the order the walk meets them.
    pub fn visits(&self, loc: &Loc, value: &Value) -> Vec<(String, Loc)> {
        let mut out = Vec::new();
        self.visit(loc, value, "", 0, &mut out);
        out
    }

    fn visit(&self, loc: &Loc, value: &Value, ptr: &str, depth: usize, out: &mut Vec<(String, Loc)>) {
        let Some(node) = self.model.at(loc) else { return };
        if depth > MAX_DEPTH || node.boolean() == Some(false) {
            return;
        }
        out.push((ptr.to_owned(), loc.clone()));
        let Some(view) = self.view(loc) else { return };
        for target in view.ref_targets().into_iter().filter_map(|(_, target)| target) {
            self.visit(&target, value, ptr, depth + 1, out);
        }
        if view.ref_only() {
            return;
        }
        match value {
            Value::Array(items) => self.visit_items(&view, items, ptr, depth, out),
            Value::Object(_) => self.visit_properties(&view, value, ptr, depth, out),
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
        }
        let schema = view.schema;
        for branch in view.locs(schema.all_of.as_ref()) {
            self.visit(&branch, value, ptr, depth + 1, out);
        }
        let condition = schema.if_.map(|id| view.loc_of(id));
        if let Some(condition) = &condition {
            let branch = if self.is_valid(condition, value) { schema.then } else { schema.else_ };
            if let Some(branch) = branch {
                self.visit(&view.loc_of(branch), value, ptr, depth + 1, out);
            }
        }
        // The `anyOf`/`oneOf` branches the value matches, and `if` itself: a change inside
        // them shows as the combinator failing (or the condition flipping), which the mutator
        // checks; what is inside still has defaults and examples.
        let mut branches = view.locs(schema.any_of.as_ref());
        branches.extend(view.locs(schema.one_of.as_ref()));
        for branch in branches {
            if self.is_valid(&branch, value) {
                self.visit(&branch, value, ptr, depth + 1, out);
            }
        }
        if let Some(condition) = &condition {
            self.visit(condition, value, ptr, depth + 1, out);
        }
    }

    fn visit_items(&self, view: &View<'_>, items: &[Value], ptr: &str, depth: usize, out: &mut Vec<(String, Loc)>) {
        for (i, item) in items.iter().enumerate() {
            if let ItemRule::Schema(loc) = view.item(i) {
                self.visit(&loc, item, &format!("{ptr}/{i}"), depth + 1, out);
            }
        }
        if let Some(rule) = view.schema.unevaluated_items {
            let evaluated = self.evaluated_items(view.loc, items, depth);
            for (i, item) in items.iter().enumerate().filter(|(i, _)| !evaluated.contains(i)) {
                self.visit(&view.loc_of(rule), item, &format!("{ptr}/{i}"), depth + 1, out);
            }
        }
    }

    fn visit_properties(&self, view: &View<'_>, value: &Value, ptr: &str, depth: usize, out: &mut Vec<(String, Loc)>) {
        let Some(map) = value.as_object() else { return };
        let schema = view.schema;
        for (name, item) in map {
            let at = format!("{ptr}/{}", escape(name));
            let mut matched = false;
            if let Some(property) = view.property(name) {
                matched = true;
                self.visit(&view.loc_of(property), item, &at, depth + 1, out);
            }
            for (pattern, id) in view.pattern_properties() {
                if self.matches(pattern, name) {
                    matched = true;
                    self.visit(&view.loc_of(*id), item, &at, depth + 1, out);
                }
            }
            if !matched
                && let Some(additional) = schema.additional_properties
                && view.boolean(additional).is_none()
            {
                self.visit(&view.loc_of(additional), item, &at, depth + 1, out);
            }
        }
        if let Some(rule) = schema.unevaluated_properties {
            let evaluated = self.evaluated_properties(view.loc, value, depth);
            for (name, item) in map.iter().filter(|(name, _)| !evaluated.contains(name.as_str())) {
                self.visit(&view.loc_of(rule), item, &format!("{ptr}/{}", escape(name)), depth + 1, out);
            }
        }
        for (name, dependent) in view.dependent_schemas() {
            if map.contains_key(&name) {
                self.visit(&dependent, value, ptr, depth + 1, out);
            }
        }
    }
}

impl Schemas<'_> {
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
            if self.is_valid(&branch, value) {
                self.in_place(&branch, value, depth + 1, out);
            }
        }
        if let Some(condition) = schema.if_ {
            let condition = view.loc_of(condition);
            let holds = self.is_valid(&condition, value);
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
                out.extend((0..items.len()).filter(|i| self.is_valid(&contains, &items[*i])));
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
