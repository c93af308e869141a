//! Checks over a buffered `serde_json::Value`, for the schemas whose generated type is the
//! `Value` fallback: generated code composes these, so the fallback accepts exactly the JSON
//! its schema accepts.

use serde::de::{self, DeserializeSeed};
use serde_json::Value;

use crate::assert::Violation;
use crate::number::Num;
// `CheckError` is the errors module's (validation records it too); checks return it.
pub use crate::error::CheckError;
use crate::error::split_error;
use crate::json_eq;
use crate::pattern::Pattern;

/// A generated check of one subschema.
pub type CheckFn = fn(&Value) -> Result<(), CheckError>;

/// JSON value kinds, as in the `type` keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Boolean,
    Object,
    Array,
    Number,
    /// A number with no fractional part (`1.0` included).
    Integer,
    String,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::Number => "number",
            Kind::Integer => "integer",
            Kind::String => "string",
        }
    }

    fn matches(self, value: &Value) -> bool {
        match (self, value) {
            (Kind::Null, Value::Null) | (Kind::Boolean, Value::Bool(_)) => true,
            (Kind::Object, Value::Object(_)) | (Kind::Array, Value::Array(_)) => true,
            (Kind::String, Value::String(_)) | (Kind::Number, Value::Number(_)) => true,
            (Kind::Integer, Value::Number(n)) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
            _ => false,
        }
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `type`: the value is one of `kinds`.
pub fn kinds(value: &Value, kinds: &[Kind]) -> Result<(), CheckError> {
    if kinds.iter().any(|k| k.matches(value)) {
        return Ok(());
    }
    let expected: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    Err(CheckError::new(format!("expected {}, found {}", expected.join(" or "), kind_of(value))))
}

/// `const`.
pub fn constant(value: &Value, expected: &Value) -> Result<(), CheckError> {
    if json_eq(value, expected) { Ok(()) } else { Err(CheckError::new(format!("{value} is not the constant {expected}"))) }
}

/// `enum`.
pub fn one_of_values(value: &Value, allowed: &[Value]) -> Result<(), CheckError> {
    if allowed.iter().any(|a| json_eq(value, a)) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
    Err(CheckError::new(format!("{value} is not one of {}", list.join(", "))))
}

/// `pattern`: strings must match; other kinds pass.
pub fn pattern(value: &Value, pattern: &Pattern) -> Result<(), CheckError> {
    let Value::String(text) = value else { return Ok(()) };
    match pattern.is_match(text) {
        Ok(true) => Ok(()),
        Ok(false) => Err(CheckError::new(format!("{text:?} does not match the pattern {:?}", pattern.source()))),
        Err(e) => Err(CheckError::new(e.to_string())),
    }
}

/// The value deserializes through `seed`: a typed part of the schema enforces itself.
/// Runs `check` on the JSON form of a typed `value` (a refinement: the keywords its type does
/// not hold). Generated types serialize to the JSON they were read from, so this is the
/// instance the schema sees.
pub fn refine<T: serde::Serialize>(value: &T, check: CheckFn) -> Result<(), CheckError> {
    let json = serde_json::to_value(value).map_err(|e| CheckError::new(format!("cannot be written as JSON: {e}")))?;
    check(&json)
}

pub fn typed<'a, S: DeserializeSeed<'a>>(value: &'a Value, seed: S) -> Result<(), CheckError> {
    let mut track = serde_path_to_error::Track::new();
    let de = serde_path_to_error::Deserializer::new(value, &mut track);
    let result: Result<S::Value, serde_json::Error> = seed.deserialize(de);
    match result {
        Ok(_) => Ok(()),
        Err(error) => {
            let (pointer, message) = split_error(crate::error::pointer_of(&track.path()), &error.to_string());
            Err(CheckError { pointer, message })
        }
    }
}

/// `allOf`.
pub fn all_of(value: &Value, checks: &[CheckFn]) -> Result<(), CheckError> {
    checks.iter().try_for_each(|check| check(value))
}

/// `anyOf`.
pub fn any_of(value: &Value, checks: &[CheckFn]) -> Result<(), CheckError> {
    let mut first = None;
    for check in checks {
        match check(value) {
            Ok(()) => return Ok(()),
            Err(e) => first = first.or(Some(e)),
        }
    }
    Err(CheckError::new(match first {
        Some(e) => format!("matches none of the anyOf branches (first: {e})"),
        None => "matches none of the anyOf branches".to_owned(),
    }))
}

/// `oneOf`: exactly one branch.
pub fn one_of(value: &Value, checks: &[CheckFn]) -> Result<(), CheckError> {
    let passed: Vec<usize> = checks.iter().enumerate().filter(|(_, check)| check(value).is_ok()).map(|(i, _)| i).collect();
    match passed.as_slice() {
        [_] => Ok(()),
        [] => Err(CheckError::new("matches none of the oneOf branches")),
        many => Err(CheckError::new(format!("matches {} oneOf branches (#{:?}); exactly one must match", many.len(), many))),
    }
}

/// `not`.
pub fn not(value: &Value, check: CheckFn) -> Result<(), CheckError> {
    match check(value) {
        Ok(()) => Err(CheckError::new("matches the schema under `not`")),
        Err(_) => Ok(()),
    }
}

/// `if`/`then`/`else`.
pub fn if_then_else(value: &Value, cond: CheckFn, then: Option<CheckFn>, otherwise: Option<CheckFn>) -> Result<(), CheckError> {
    let branch = if cond(value).is_ok() { then } else { otherwise };
    branch.map_or(Ok(()), |check| check(value))
}

/// [`typed`] through `Plain::<T>`: the value deserializes as a `T`.
pub fn plain<'a, T: serde::Deserialize<'a>>(value: &'a Value) -> Result<(), CheckError> {
    typed(value, crate::de::Plain::<T>::new())
}

/// [`typed`] through `Nullable(Plain::<T>)`: the value is `null` or deserializes as a `T`.
pub fn nullable<'a, T: serde::Deserialize<'a>>(value: &'a Value) -> Result<(), CheckError> {
    typed(value, crate::de::Nullable(crate::de::Plain::<T>::new()))
}

/// `if`/`then` without `else`: [`if_then_else`] with `then` only.
pub fn if_then(value: &Value, cond: CheckFn, then: CheckFn) -> Result<(), CheckError> {
    if_then_else(value, cond, Some(then), None)
}

/// `if`/`else` without `then`: [`if_then_else`] with `otherwise` only.
pub fn if_else(value: &Value, cond: CheckFn, otherwise: CheckFn) -> Result<(), CheckError> {
    if_then_else(value, cond, None, Some(otherwise))
}

/// `false`.
pub fn never(_: &Value) -> Result<(), CheckError> {
    Err(CheckError::new("no value is allowed here (the schema is `false`)"))
}

/// Object keywords; other kinds pass.
#[derive(Debug)]
pub struct ObjectRules<'a> {
    pub properties: &'a [(&'a str, CheckFn)],
    pub required: &'a [&'a str],
    pub patterns: &'a [(&'a Pattern, CheckFn)],
    /// For properties matched by neither; `None`: anything.
    pub additional: Option<CheckFn>,
}

pub fn object(value: &Value, rules: &ObjectRules<'_>) -> Result<(), CheckError> {
    let Value::Object(map) = value else { return Ok(()) };
    if let Some(missing) = rules.required.iter().find(|name| !map.contains_key(**name)) {
        return Err(CheckError::new(format!("missing required property `{missing}`")));
    }
    for (name, item) in map {
        let mut matched = false;
        if let Some((_, check)) = rules.properties.iter().find(|(n, _)| n == name) {
            matched = true;
            check(item).map_err(|e| e.under(name))?;
        }
        for (pattern, check) in rules.patterns {
            if pattern.is_match(name).map_err(|e| CheckError::new(e.to_string()))? {
                matched = true;
                check(item).map_err(|e| e.under(name))?;
            }
        }
        if !matched && let Some(check) = rules.additional {
            check(item).map_err(|e| e.under(name))?;
        }
    }
    Ok(())
}

/// [`object`] with `additionalProperties` only (no `properties`, `required` or
/// `patternProperties`): every property's value passes `check`.
pub fn additional_properties(value: &Value, check: CheckFn) -> Result<(), CheckError> {
    object(value, &ObjectRules { properties: &[], required: &[], patterns: &[], additional: Some(check) })
}

/// Array keywords; other kinds pass.
pub fn array(value: &Value, prefix: &[CheckFn], items: Option<CheckFn>) -> Result<(), CheckError> {
    let Value::Array(list) = value else { return Ok(()) };
    for (i, item) in list.iter().enumerate() {
        let check = prefix.get(i).copied().or(items);
        if let Some(check) = check {
            check(item).map_err(|e| e.under(&i.to_string()))?;
        }
    }
    Ok(())
}

/// Number assertions (`minimum`, `multipleOf`, ...); other kinds pass.
pub fn number(value: &Value, assert: impl Fn(&Num) -> Result<(), Violation>) -> Result<(), CheckError> {
    match Num::of_value(value) {
        Some(n) => assert(&n).map_err(violation),
        None => Ok(()),
    }
}

/// String assertions (`minLength`, `maxLength`); other kinds pass.
pub fn string(value: &Value, assert: impl Fn(&String) -> Result<(), Violation>) -> Result<(), CheckError> {
    match value {
        Value::String(text) => assert(text).map_err(violation),
        _ => Ok(()),
    }
}

/// Array assertions (`minItems`, `uniqueItems`, `contains`, ...); other kinds pass.
pub fn items(value: &Value, assert: impl Fn(&Vec<Value>) -> Result<(), Violation>) -> Result<(), CheckError> {
    match value {
        Value::Array(items) => assert(items).map_err(violation),
        _ => Ok(()),
    }
}

/// Object assertions (`minProperties`, `propertyNames`, ...) over the property names; other
/// kinds pass.
pub fn properties(value: &Value, assert: impl Fn(&[&str]) -> Result<(), Violation>) -> Result<(), CheckError> {
    match value {
        Value::Object(map) => {
            let names: Vec<&str> = map.keys().map(String::as_str).collect();
            assert(&names).map_err(violation)
        }
        _ => Ok(()),
    }
}

fn violation(v: Violation) -> CheckError {
    CheckError::new(v.message())
}

/// What the in-place subschemas a value passes *evaluated* of it (their annotations), for
/// `unevaluatedProperties` and `unevaluatedItems`. Generated `eval_N` functions fill it in.
#[derive(Clone, Debug, Default)]
pub struct Evaluated {
    all_properties: bool,
    names: std::collections::BTreeSet<String>,
    all_items: bool,
    prefix: usize,
    items: std::collections::BTreeSet<usize>,
}

/// A generated function marking what a schema evaluates of a value.
pub type EvalFn = fn(&Value, &mut Evaluated) -> Result<(), CheckError>;

impl Evaluated {
    /// `additionalProperties`, or a nested `unevaluatedProperties`: every property.
    pub fn all_properties(&mut self) {
        self.all_properties = true;
    }

    /// `properties`: these names.
    pub fn properties(&mut self, names: &[&str]) {
        self.names.extend(names.iter().map(|n| (*n).to_owned()));
    }

    /// `patternProperties`: the value's property names that match one of `patterns`.
    pub fn patterns(&mut self, value: &Value, patterns: &[&Pattern]) -> Result<(), CheckError> {
        let Value::Object(map) = value else { return Ok(()) };
        for name in map.keys() {
            for pattern in patterns {
                if pattern.is_match(name).map_err(|e| CheckError::new(e.to_string()))? {
                    self.names.insert(name.clone());
                    break;
                }
            }
        }
        Ok(())
    }

    /// `items`, or a nested `unevaluatedItems`: every item.
    pub fn all_items(&mut self) {
        self.all_items = true;
    }

    /// `prefixItems`: the first `len` items.
    pub fn prefix(&mut self, len: usize) {
        self.prefix = self.prefix.max(len);
    }

    /// `contains`: the items that pass `check`.
    pub fn contains(&mut self, value: &Value, check: CheckFn) {
        let Value::Array(list) = value else { return };
        self.items.extend(list.iter().enumerate().filter(|(_, item)| check(item).is_ok()).map(|(i, _)| i));
    }
}

/// `unevaluatedProperties` beside in-place subschemas: each property that `evaluate` does not
/// mark must pass `rest`. Other kinds pass.
pub fn unevaluated_properties(value: &Value, evaluate: EvalFn, rest: CheckFn) -> Result<(), CheckError> {
    let Value::Object(map) = value else { return Ok(()) };
    let mut seen = Evaluated::default();
    evaluate(value, &mut seen)?;
    if seen.all_properties {
        return Ok(());
    }
    for (name, item) in map.iter().filter(|(name, _)| !seen.names.contains(*name)) {
        rest(item).map_err(|e| CheckError { message: format!("unevaluated property `{name}`: {}", e.message), ..e }.under(name))?;
    }
    Ok(())
}

/// `unevaluatedItems` beside in-place subschemas or `contains`: each item that `evaluate`
/// does not mark must pass `rest`. Other kinds pass.
pub fn unevaluated_items(value: &Value, evaluate: EvalFn, rest: CheckFn) -> Result<(), CheckError> {
    let Value::Array(list) = value else { return Ok(()) };
    let mut seen = Evaluated::default();
    evaluate(value, &mut seen)?;
    if seen.all_items {
        return Ok(());
    }
    for (i, item) in list.iter().enumerate().skip(seen.prefix).filter(|(i, _)| !seen.items.contains(i)) {
        rest(item).map_err(|e| CheckError { message: format!("unevaluated item {i}: {}", e.message), ..e }.under(&i.to_string()))?;
    }
    Ok(())
}

/// Checks the buffered value of property `name` through `seed` (for `patternProperties`); the
/// error's pointer names the property and the place inside it.
pub fn check_property<'v, S: DeserializeSeed<'v>, E: de::Error>(name: &str, seed: S, value: &'v serde_json::Value) -> Result<(), E> {
    typed(value, seed).map_err(|e| e.under(name).into_de_error())
}

/// The error for an undeclared property that no `patternProperties` pattern matches, pointing
/// at the property.
pub fn unmatched_property<E: de::Error>(name: &str) -> E {
    CheckError::new(format!("property `{name}` is not declared and matches no patternProperties pattern (additionalProperties is false)"))
        .under(name)
        .into_de_error()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn is_a(v: &Value) -> Result<(), CheckError> {
        if v.get("a").is_some() { Ok(()) } else { Err(CheckError::new("no a")) }
    }

    fn is_string(v: &Value) -> Result<(), CheckError> {
        kinds(v, &[Kind::String])
    }

    /// `properties: {x}` always, `properties: {a}` only when the value passes `is_a`.
    fn eval(v: &Value, seen: &mut Evaluated) -> Result<(), CheckError> {
        seen.properties(&["x"]);
        if is_a(v).is_ok() {
            seen.properties(&["a"]);
        }
        Ok(())
    }

    #[test]
    fn unevaluated_properties_see_passing_branches_only() {
        assert!(unevaluated_properties(&json!({"x": 1, "a": 2}), eval, never).is_ok());
        let error = unevaluated_properties(&json!({"x": 1, "b": 2}), eval, never).unwrap_err();
        assert_eq!(error.pointer(), "/b");
        assert!(unevaluated_properties(&json!([1]), eval, never).is_ok());
    }

    #[test]
    fn unevaluated_items_see_prefix_and_contains() {
        fn eval(v: &Value, seen: &mut Evaluated) -> Result<(), CheckError> {
            seen.prefix(1);
            seen.contains(v, is_string);
            Ok(())
        }
        assert!(unevaluated_items(&json!([1, "a", "b"]), eval, never).is_ok());
        let error = unevaluated_items(&json!([1, "a", 2]), eval, never).unwrap_err();
        assert_eq!(error.pointer(), "/2");
    }
}
