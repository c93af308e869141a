//! `proptest` strategies for the generated types (feature `proptest`): a generation plan,
//! computed from the schema by `cargo xtask codegen`, becomes a strategy over JSON values,
//! each of which the type then reads. A plan only composes structure the schema leaves free
//! (properties, item counts, integer ranges); everything else is a pool of values the
//! synthesizer made and `jsonschema` refereed, so the values are schema-valid by construction.
//!
//! Plans (JSON): `{"pool": [v, ..]}`, `{"one_of": [plan, ..]}`, `{"int": [lo, hi]}`,
//! `{"num": [lo, hi]}`, `{"array": plan, "min": n, "max": n}`,
//! `{"object": [[name, required, plan], ..]}`.

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The strategy for `T` from its plan (JSON text). A plan that is not JSON, or a value `T`
/// does not read, is a generator bug: the strategy then rejects every case, so the property
/// test fails loudly instead of testing nothing.
pub fn strategy<T: DeserializeOwned + std::fmt::Debug + 'static>(plan: &str) -> BoxedStrategy<T> {
    let plan: Value = serde_json::from_str(plan).unwrap_or(Value::Null);
    json(&plan).prop_filter_map("the generated type rejects a value its plan made", |v| crate::from_value(v).ok()).boxed()
}

/// The strategy over JSON values for one plan.
pub fn json(plan: &Value) -> BoxedStrategy<Value> {
    let Some((kind, body)) = plan.as_object().and_then(|m| m.iter().next()) else {
        return Just(Value::Null).prop_filter("malformed plan", |_| false).boxed();
    };
    match (kind.as_str(), body) {
        ("pool", Value::Array(values)) if !values.is_empty() => proptest::sample::select(values.clone()).boxed(),
        ("one_of", Value::Array(plans)) if !plans.is_empty() => {
            let strategies: Vec<BoxedStrategy<Value>> = plans.iter().map(json).collect();
            proptest::strategy::Union::new(strategies).boxed()
        }
        ("int", Value::Array(bounds)) => {
            let lo = bounds.first().and_then(Value::as_i64).unwrap_or(i64::MIN);
            let hi = bounds.get(1).and_then(Value::as_i64).unwrap_or(i64::MAX);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        ("num", Value::Array(bounds)) => {
            let lo = bounds.first().and_then(Value::as_f64).unwrap_or(-1e9);
            let hi = bounds.get(1).and_then(Value::as_f64).unwrap_or(1e9);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        // An array whose items can have no value: only the empty array.
        ("array", Value::Object(item)) if item.get("pool").and_then(Value::as_array).is_some_and(Vec::is_empty) => {
            Just(Value::Array(Vec::new())).boxed()
        }
        ("array", item) => {
            let min = plan.get("min").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = plan.get("max").and_then(Value::as_u64).unwrap_or(min as u64 + 3) as usize;
            proptest::collection::vec(json(item), min..=max.max(min)).prop_map(Value::Array).boxed()
        }
        ("object", Value::Array(fields)) => {
            let mut strategy: BoxedStrategy<Map<String, Value>> = Just(Map::new()).boxed();
            for field in fields {
                let (Some(name), Some(required), Some(plan)) =
                    (field.get(0).and_then(Value::as_str), field.get(1).and_then(Value::as_bool), field.get(2))
                else {
                    continue;
                };
                let name = name.to_owned();
                let value = if required { json(plan).prop_map(Some).boxed() } else { proptest::option::of(json(plan)).boxed() };
                strategy = (strategy, value)
                    .prop_map(move |(mut map, value)| {
                        if let Some(value) = value {
                            map.insert(name.clone(), value);
                        }
                        map
                    })
                    .boxed();
            }
            strategy.prop_map(Value::Object).boxed()
        }
        _ => Just(Value::Null).prop_filter("malformed plan", |_| false).boxed(),
    }
}
