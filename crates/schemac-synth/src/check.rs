//! The synthesizer's own validator: which keywords an instance violates, and where.
//!
//! The synthesizer generates candidates and keeps only what this check confirms: a valid
//! instance has no failures, a mutant exactly one. It follows the specification's keyword
//! semantics for the keywords in scope (see [`super::KEYWORDS`]); the `jsonschema` crate
//! referees its verdicts again in `cargo xtask codegen`.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use super::schema::{ItemRule, View, escape, json_eq};
use schemac::resolve::{Loc, Registry};

/// One violated keyword: at which instance pointer, which keyword, and where the keyword is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub pointer: String,
    pub keyword: String,
    /// The keyword's location in the schema, e.g. `/properties/a/minimum`.
    pub schema: Loc,
}

/// Deeper than this, a schema is treated as failing: only a ref cycle that consumes no input
/// gets there, and the compiler rejects those.
const MAX_DEPTH: usize = 256;

/// Validates instances against subschemas of one registry, caching compiled patterns.
#[derive(Debug)]
pub(crate) struct Checker<'r> {
    pub reg: &'r Registry,
    patterns: RefCell<HashMap<String, Option<regress::Regex>>>,
}

/// Where a check records what it found.
struct Sink<'a> {
    failures: Vec<Failure>,
    /// `(instance pointer, schema)` of every schema object applied, when tracing.
    visits: Option<&'a mut Vec<(String, Loc)>>,
}

impl<'r> Checker<'r> {
    pub fn new(reg: &'r Registry) -> Checker<'r> {
        Checker { reg, patterns: RefCell::new(HashMap::new()) }
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
        let fail = |sink: &mut Sink<'_>, pointer: String, keyword: &str| {
            sink.failures.push(Failure { pointer, keyword: keyword.to_owned(), schema: loc.child(keyword) });
        };
        let Some(schema) = self.reg.get(loc) else {
            return fail(sink, ptr.to_owned(), "$ref");
        };
        if depth > MAX_DEPTH {
            return fail(sink, ptr.to_owned(), "$ref");
        }
        if schema == &Value::Bool(true) {
            if let Some(visits) = sink.visits.as_deref_mut() {
                visits.push((ptr.to_owned(), loc.clone()));
            }
            return;
        }
        if schema == &Value::Bool(false) {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: "false".to_owned(), schema: loc.clone() });
            return;
        }
        if let Some(visits) = sink.visits.as_deref_mut() {
            visits.push((ptr.to_owned(), loc.clone()));
        }
        let view = View { reg: self.reg, loc, value: schema };
        for keyword in ["$ref", "$dynamicRef", "$recursiveRef"] {
            if let Some(reference) = view.get(keyword).and_then(Value::as_str) {
                match self.reg.resolve(loc, reference) {
                    Ok(target) => self.check(&target, value, ptr, depth + 1, sink),
                    Err(_) => fail(sink, ptr.to_owned(), keyword),
                }
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
            _ => {}
        }
        self.check_combinators(&view, value, ptr, depth, sink);
    }

    fn check_generic(&self, view: &View<'_>, value: &Value, ptr: &str, sink: &mut Sink<'_>) {
        let loc = view.loc;
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        if let Some(types) = view.types()
            && !types.iter().any(|name| kind_matches(name, value))
        {
            fail("type");
        }
        if let Some(Value::Array(values)) = view.get("enum")
            && !values.iter().any(|allowed| json_eq(allowed, value))
        {
            fail("enum");
        }
        if let Some(constant) = view.get("const")
            && !json_eq(constant, value)
        {
            fail("const");
        }
    }

    fn check_number(&self, view: &View<'_>, value: &Value, ptr: &str, sink: &mut Sink<'_>) {
        let Some(n) = value.as_f64() else { return };
        let loc = view.loc;
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        let draft4 = view.draft() == schemac::Draft::Draft4;
        if let Some(min) = view.f64("minimum") {
            let exclusive = draft4 && view.get("exclusiveMinimum") == Some(&Value::Bool(true));
            if n < min || (exclusive && n == min) {
                fail("minimum");
            }
        }
        if let Some(max) = view.f64("maximum") {
            let exclusive = draft4 && view.get("exclusiveMaximum") == Some(&Value::Bool(true));
            if n > max || (exclusive && n == max) {
                fail("maximum");
            }
        }
        if !draft4 {
            if view.f64("exclusiveMinimum").is_some_and(|min| n <= min) {
                fail("exclusiveMinimum");
            }
            if view.f64("exclusiveMaximum").is_some_and(|max| n >= max) {
                fail("exclusiveMaximum");
            }
        }
        if let Some(step) = view.f64("multipleOf").filter(|step| *step > 0.0) {
            let quotient = n / step;
            // Past 2^50 an f64 quotient cannot tell a multiple from a near miss; validators
            // that compute exactly may disagree, so such values count as failing.
            if (quotient - quotient.round()).abs() > 1e-9 || quotient.abs() > 1e15 {
                fail("multipleOf");
            }
        }
    }

    fn check_string(&self, view: &View<'_>, text: &str, ptr: &str, sink: &mut Sink<'_>) {
        let loc = view.loc;
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        let length = text.chars().count() as u64;
        if view.u64("minLength").is_some_and(|min| length < min) {
            fail("minLength");
        }
        if view.u64("maxLength").is_some_and(|max| length > max) {
            fail("maxLength");
        }
        if let Some(pattern) = view.get("pattern").and_then(Value::as_str)
            && !self.matches(pattern, text)
        {
            fail("pattern");
        }
    }

    fn check_array(&self, view: &View<'_>, items: &[Value], ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let loc = view.loc;
        for (i, item) in items.iter().enumerate() {
            let at = format!("{ptr}/{i}");
            match view.item(i) {
                ItemRule::Any => {}
                ItemRule::Schema(schema) => self.check(&schema, item, &at, depth + 1, sink),
                ItemRule::Forbidden(keyword) => {
                    sink.failures.push(Failure { pointer: at, keyword: keyword.to_owned(), schema: loc.child(keyword) })
                }
            }
        }
        if let Some(rule) = view.get("unevaluatedItems") {
            let evaluated = self.evaluated_items(loc, items, depth);
            for (i, item) in items.iter().enumerate().filter(|(i, _)| !evaluated.contains(i)) {
                let at = format!("{ptr}/{i}");
                if rule == &Value::Bool(false) {
                    let schema = loc.child("unevaluatedItems");
                    sink.failures.push(Failure { pointer: at, keyword: "unevaluatedItems".to_owned(), schema });
                } else {
                    self.check(&loc.child("unevaluatedItems"), item, &at, depth + 1, sink);
                }
            }
        }
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        let count = items.len() as u64;
        if view.u64("minItems").is_some_and(|min| count < min) {
            fail("minItems");
        }
        if view.u64("maxItems").is_some_and(|max| count > max) {
            fail("maxItems");
        }
        if view.get("uniqueItems") == Some(&Value::Bool(true)) {
            let duplicate = items.iter().enumerate().any(|(i, a)| items[i + 1..].iter().any(|b| json_eq(a, b)));
            if duplicate {
                fail("uniqueItems");
            }
        }
        if view.get("contains").is_some() {
            let contains = loc.child("contains");
            let matching = items.iter().filter(|item| self.valid_at(&contains, item, depth + 1)).count() as u64;
            let min = view.u64("minContains").unwrap_or(1);
            if matching < min {
                fail(if view.get("minContains").is_some() && matching > 0 { "minContains" } else { "contains" });
            }
            if view.u64("maxContains").is_some_and(|max| matching > max) {
                fail("maxContains");
            }
        }
    }

    fn check_object(&self, view: &View<'_>, value: &Value, ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let Some(map) = value.as_object() else { return };
        let loc = view.loc;
        let properties = view.get("properties").and_then(Value::as_object);
        let patterns = view.get("patternProperties").and_then(Value::as_object);
        for (name, item) in map {
            let at = format!("{ptr}/{}", escape(name));
            let mut matched = false;
            if properties.is_some_and(|p| p.contains_key(name)) {
                matched = true;
                self.check(&loc.child("properties").child(name), item, &at, depth + 1, sink);
            }
            for pattern in patterns.into_iter().flat_map(|p| p.keys()) {
                if self.matches(pattern, name) {
                    matched = true;
                    self.check(&loc.child("patternProperties").child(pattern), item, &at, depth + 1, sink);
                }
            }
            if !matched {
                match view.get("additionalProperties") {
                    Some(Value::Bool(false)) => sink.failures.push(Failure {
                        pointer: at.clone(),
                        keyword: "additionalProperties".to_owned(),
                        schema: loc.child("additionalProperties"),
                    }),
                    Some(Value::Object(_)) => self.check(&loc.child("additionalProperties"), item, &at, depth + 1, sink),
                    _ => {}
                }
            }
            if view.get("propertyNames").is_some() && !self.valid_at(&loc.child("propertyNames"), &Value::String(name.clone()), depth + 1) {
                // At the object, as the types and `jsonschema` report it: a name is not a value.
                sink.failures.push(Failure {
                    pointer: ptr.to_owned(),
                    keyword: "propertyNames".to_owned(),
                    schema: loc.child("propertyNames"),
                });
            }
        }
        if let Some(rule) = view.get("unevaluatedProperties") {
            let evaluated = self.evaluated_properties(loc, value, depth);
            for (name, item) in map.iter().filter(|(name, _)| !evaluated.contains(name.as_str())) {
                let at = format!("{ptr}/{}", escape(name));
                if rule == &Value::Bool(false) {
                    let schema = loc.child("unevaluatedProperties");
                    sink.failures.push(Failure { pointer: at, keyword: "unevaluatedProperties".to_owned(), schema });
                } else {
                    self.check(&loc.child("unevaluatedProperties"), item, &at, depth + 1, sink);
                }
            }
        }
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        if let Some(Value::Array(required)) = view.get("required")
            && required.iter().filter_map(Value::as_str).any(|name| !map.contains_key(name))
        {
            fail("required");
        }
        let count = map.len() as u64;
        if view.u64("minProperties").is_some_and(|min| count < min) {
            fail("minProperties");
        }
        if view.u64("maxProperties").is_some_and(|max| count > max) {
            fail("maxProperties");
        }
        for (name, needs, keyword) in view.dependent_required() {
            if map.contains_key(&name) && needs.iter().any(|need| !map.contains_key(need)) {
                fail(keyword);
            }
        }
        for (name, schema) in view.dependent_schemas() {
            if map.contains_key(&name) {
                self.check(&schema, value, ptr, depth + 1, sink);
            }
        }
    }

    fn check_combinators(&self, view: &View<'_>, value: &Value, ptr: &str, depth: usize, sink: &mut Sink<'_>) {
        let loc = view.loc;
        for branch in view.list("allOf") {
            self.check(&branch, value, ptr, depth + 1, sink);
        }
        let mut fail = |keyword: &str| {
            sink.failures.push(Failure { pointer: ptr.to_owned(), keyword: keyword.to_owned(), schema: loc.child(keyword) })
        };
        let any = view.list("anyOf");
        if !any.is_empty() && !any.iter().any(|branch| self.valid_at(branch, value, depth + 1)) {
            fail("anyOf");
        }
        let one = view.list("oneOf");
        if !one.is_empty() && one.iter().filter(|branch| self.valid_at(branch, value, depth + 1)).count() != 1 {
            fail("oneOf");
        }
        if view.get("not").is_some() && self.valid_at(&loc.child("not"), value, depth + 1) {
            fail("not");
        }
        if view.get("if").is_some() {
            let branch = if self.valid_at(&loc.child("if"), value, depth + 1) { "then" } else { "else" };
            if view.get(branch).is_some() {
                self.check(&loc.child(branch), value, ptr, depth + 1, sink);
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
            if view.get("if").is_some() {
                self.check(&loc.child("if"), value, ptr, depth + 1, &mut scratch);
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
        let Some(schema) = self.reg.get(loc).filter(|s| s.is_object()) else { return };
        out.push(loc.clone());
        let view = View { reg: self.reg, loc, value: schema };
        if let Some(target) = view.ref_target() {
            self.in_place(&target, value, depth + 1, out);
        }
        for branch in view.list("allOf") {
            self.in_place(&branch, value, depth + 1, out);
        }
        for branch in view.list("anyOf").into_iter().chain(view.list("oneOf")) {
            if self.valid_at(&branch, value, depth + 1) {
                self.in_place(&branch, value, depth + 1, out);
            }
        }
        if view.get("if").is_some() {
            let holds = self.valid_at(&loc.child("if"), value, depth + 1);
            if holds {
                self.in_place(&loc.child("if"), value, depth + 1, out);
            }
            let branch = loc.child(if holds { "then" } else { "else" });
            self.in_place(&branch, value, depth + 1, out);
        }
        if let Value::Object(map) = value {
            for (name, schema) in view.dependent_schemas() {
                if map.contains_key(&name) {
                    self.in_place(&schema, value, depth + 1, out);
                }
            }
        }
    }

    fn evaluated_items(&self, loc: &Loc, items: &[Value], depth: usize) -> std::collections::BTreeSet<usize> {
        let mut schemas = Vec::new();
        let array = Value::Array(items.to_vec());
        self.in_place(loc, &array, depth, &mut schemas);
        let mut out = std::collections::BTreeSet::new();
        for schema in &schemas {
            let Some(value) = self.reg.get(schema) else { continue };
            let view = View { reg: self.reg, loc: schema, value };
            for i in 0..items.len() {
                let nested = schema != loc && view.get("unevaluatedItems").is_some();
                if !matches!(view.item(i), ItemRule::Any) || view.get("items").is_some() || nested {
                    out.insert(i);
                }
            }
            if view.get("contains").is_some() {
                let contains = schema.child("contains");
                out.extend((0..items.len()).filter(|i| self.valid_at(&contains, &items[*i], depth + 1)));
            }
        }
        out
    }

    fn evaluated_properties(&self, loc: &Loc, value: &Value, depth: usize) -> std::collections::BTreeSet<String> {
        let mut schemas = Vec::new();
        self.in_place(loc, value, depth, &mut schemas);
        let mut out = std::collections::BTreeSet::new();
        let Some(map) = value.as_object() else { return out };
        for schema in &schemas {
            let Some(body) = self.reg.get(schema) else { continue };
            let view = View { reg: self.reg, loc: schema, value: body };
            let all = view.get("additionalProperties").is_some() || (schema != loc && view.get("unevaluatedProperties").is_some());
            let properties = view.get("properties").and_then(Value::as_object);
            let patterns: Vec<&String> =
                view.get("patternProperties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()).collect();
            for name in map.keys() {
                if all || properties.is_some_and(|p| p.contains_key(name)) || patterns.iter().any(|p| self.matches(p, name)) {
                    out.insert(name.clone());
                }
            }
        }
        out
    }
}

/// Whether `value` is of the JSON Schema type `name` (`integer`: a number without fraction).
pub(crate) fn kind_matches(name: &str, value: &Value) -> bool {
    match (name, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("object", Value::Object(_)) => true,
        ("array", Value::Array(_)) | ("string", Value::String(_)) | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}
