//! Generation plans for the `proptest` feature of generated crates (read by
//! `schemac_runtime::arbitrary`): structure the schema leaves free — optional properties, item
//! counts, integer and number ranges — is composed at random; anything with cross-cutting
//! keywords (`oneOf` exclusivity, `not`, `if`, `uniqueItems`, patterns, ...) is a pool of
//! synthesized values, so every value a plan makes is valid.

use serde_json::{Value, json};

use super::schema::View;
use super::values::{Conj, Gen};
use schemac::resolve::Loc;

/// Pools hold at most this many values.
const POOL: usize = 16;
/// Deeper than this, plans are pools (recursive schemas would nest forever).
const MAX_DEPTH: usize = 4;

/// Keywords a structural plan honours; a schema with any other assertion gets a pool.
const STRUCTURAL: [&str; 22] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "$ref",
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

pub(crate) fn plan(g: &mut Gen<'_>, loc: &Loc, depth: usize) -> Value {
    let pool = |g: &mut Gen<'_>| {
        let values: Vec<Value> = g.values(&Conj::of(loc.clone()), 2).into_iter().take(POOL).map(|s| s.value).collect();
        // No value at all (a `false` schema): `Null`, which the caller leaves out or passes up.
        if values.is_empty() { Value::Null } else { json!({ "pool": values }) }
    };
    let Some(schema) = g.check.reg.get(loc) else { return pool(g) };
    let view = View { reg: g.check.reg, loc, value: schema };
    let Some(map) = schema.as_object() else { return pool(g) };
    if depth > MAX_DEPTH || map.keys().any(|k| !STRUCTURAL.contains(&k.as_str())) {
        return pool(g);
    }
    if map.contains_key("$ref") {
        // A `$ref` is followed only without assertions beside it (or where drafts ignore them).
        let siblings = map.keys().any(|k| STRUCTURAL[..9].contains(&k.as_str()) && k != "$ref");
        return match view.ref_target() {
            Some(target) if !siblings || view.ref_only() => plan(g, &target, depth + 1),
            _ => pool(g),
        };
    }
    let Some(types) = view.types() else { return pool(g) };
    let plans: Vec<Value> = types.iter().map(|kind| kind_plan(g, &view, kind, depth)).collect();
    if plans.iter().any(Value::is_null) {
        return pool(g);
    }
    if plans.len() == 1 { plans.into_iter().next().unwrap_or(Value::Null) } else { json!({ "one_of": plans }) }
}

/// The plan for one kind of a schema's `type`; `Null` when it needs a pool instead.
fn kind_plan(g: &mut Gen<'_>, view: &View<'_>, kind: &str, depth: usize) -> Value {
    let bounds = view.bounds();
    match kind {
        "null" => json!({ "pool": [null] }),
        "boolean" => json!({ "pool": [true, false] }),
        "integer" => {
            // Within ±2^53, where every validator and every JSON reader agrees.
            const SAFE: f64 = 9_007_199_254_740_991.0;
            let lo = bounds.min.map_or(-SAFE, |(m, _)| m.ceil()).max(-SAFE);
            let hi = bounds.max.map_or(SAFE, |(m, _)| m.floor()).min(SAFE);
            if lo > hi { Value::Null } else { json!({ "int": [lo as i64, hi as i64] }) }
        }
        "number" => {
            let lo = bounds.min.map_or(-1e9, |(m, _)| m);
            let hi = bounds.max.map_or(1e9, |(m, _)| m);
            if lo > hi { Value::Null } else { json!({ "num": [lo, hi] }) }
        }
        "string" => {
            let values: Vec<Value> =
                g.values(&Conj::of(view.loc.clone()), 2).into_iter().filter(|s| s.value.is_string()).take(POOL).map(|s| s.value).collect();
            json!({ "pool": values })
        }
        "array" => {
            let min = view.u64("minItems").unwrap_or(0);
            let max = view.u64("maxItems").unwrap_or(min + 3).min(min + 4);
            let item = match view.get("items") {
                Some(Value::Object(_)) => match plan(g, &view.loc.child("items"), depth + 1) {
                    Value::Null if min > 0 => return Value::Null,
                    Value::Null => json!({ "pool": [] }),
                    item => item,
                },
                None | Some(Value::Bool(true)) => json!({ "pool": ["item", 1, null] }),
                _ => return Value::Null,
            };
            json!({ "array": item, "min": min, "max": max })
        }
        "object" => {
            // Open objects get no unknown properties here: the pools and round-trip tests
            // cover those; a plan must stay valid without knowing every name.
            let required: Vec<&str> =
                view.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
            let mut fields = Vec::new();
            for name in view.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()) {
                let required = required.contains(&name.as_str());
                match plan(g, &view.loc.child("properties").child(name), depth + 1) {
                    Value::Null if required => return Value::Null,
                    // A property no value is allowed for (`false`) stays absent.
                    Value::Null => {}
                    sub => fields.push(json!([name, required, sub])),
                }
            }
            let declared = view.get("properties").and_then(Value::as_object);
            if required.iter().any(|r| !declared.is_some_and(|p| p.contains_key(*r))) {
                return Value::Null;
            }
            json!({ "object": fields })
        }
        _ => Value::Null,
    }
}
