//! Generation plans for the `proptest` feature of generated crates (read by
//! `schemac_runtime::arbitrary`): structure the schema leaves free — optional properties, item
//! counts, integer and number ranges — is composed at random; anything with cross-cutting
//! keywords (`oneOf` exclusivity, `not`, `if`, `uniqueItems`, patterns, ...) is a pool of
//! synthesized values, so every value a plan makes is valid.

use schemac_model::resolve::Loc;
use schemac_model::schema::Kind;
use schemac_model::schema::{Items, Keyword};
use serde_json::{Value, json};

use super::schema::View;
use super::values::{Conj, Gen};

/// Pools hold at most this many values.
const POOL: usize = 16;
/// Deeper than this, plans are pools (recursive schemas would nest forever).
const MAX_DEPTH: usize = 4;

/// Keywords a structural plan honours; a schema with any other keyword gets a pool. The first
/// [`ASSERTING`] of them constrain values (beside a `$ref`, they make the schema a pool).
const STRUCTURAL: [Keyword; 22] = [
    Keyword::Type,
    Keyword::Properties,
    Keyword::Required,
    Keyword::AdditionalProperties,
    Keyword::Items,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::Ref,
    Keyword::Schema,
    Keyword::Id,
    Keyword::Defs,
    Keyword::Definitions,
    Keyword::Title,
    Keyword::Description,
    Keyword::Default,
    Keyword::Examples,
    Keyword::Comment,
    Keyword::Deprecated,
    Keyword::ReadOnly,
    Keyword::WriteOnly,
];
const ASSERTING: usize = 9;

pub(crate) fn plan(g: &mut Gen<'_>, loc: &Loc, depth: usize) -> Value {
    let pool = |g: &mut Gen<'_>| {
        let values: Vec<Value> = g.values(&Conj::of(loc.clone()), 2).into_iter().take(POOL).map(|s| s.value).collect();
        // No value at all (a `false` schema): `Null`, which the caller leaves out or passes up.
        if values.is_empty() { Value::Null } else { json!({ "pool": values }) }
    };
    let Some(view) = g.schemas.view(loc) else { return pool(g) };
    let schema = view.schema;
    // Before 2019-09 the members beside `$ref` are not keywords (the model keeps them as
    // unknown members), and nothing reads them: the plan is the target's.
    if view.ref_only() {
        return match view.ref_target() {
            Some(target) if depth <= MAX_DEPTH => plan(g, &target, depth + 1),
            _ => pool(g),
        };
    }
    // `x-` extensions and other unknown members may mean something to someone: a pool is safe.
    if depth > MAX_DEPTH || !schema.unknown.is_empty() || view.keywords().any(|k| !STRUCTURAL.contains(&k)) {
        return pool(g);
    }
    if schema.ref_.is_some() {
        // A `$ref` is followed only without assertions beside it.
        let siblings = view.keywords().any(|k| STRUCTURAL[..ASSERTING].contains(&k) && k != Keyword::Ref);
        return match view.ref_target() {
            Some(target) if !siblings => plan(g, &target, depth + 1),
            _ => pool(g),
        };
    }
    let Some(types) = &schema.type_order else { return pool(g) };
    let plans: Vec<Value> = types.iter().map(|kind| kind_plan(g, &view, *kind, depth)).collect();
    if plans.iter().any(Value::is_null) {
        return pool(g);
    }
    if plans.len() == 1 { plans.into_iter().next().unwrap_or(Value::Null) } else { json!({ "one_of": plans }) }
}

/// The plan for one kind of a schema's `type`; `Null` when it needs a pool instead.
fn kind_plan(g: &mut Gen<'_>, view: &View<'_>, kind: Kind, depth: usize) -> Value {
    let bounds = view.bounds();
    let schema = view.schema;
    match kind {
        Kind::Null => json!({ "pool": [null] }),
        Kind::Boolean => json!({ "pool": [true, false] }),
        Kind::Integer => {
            // Within ±2^53, where every validator and every JSON reader agrees.
            const SAFE: f64 = 9_007_199_254_740_991.0;
            let lo = bounds.min.map_or(-SAFE, |b| b.value.ceil()).max(-SAFE);
            let hi = bounds.max.map_or(SAFE, |b| b.value.floor()).min(SAFE);
            if lo > hi { Value::Null } else { json!({ "int": [lo as i64, hi as i64] }) }
        }
        Kind::Number => {
            let lo = bounds.min.map_or(-1e9, |b| b.value);
            let hi = bounds.max.map_or(1e9, |b| b.value);
            if lo > hi { Value::Null } else { json!({ "num": [lo, hi] }) }
        }
        Kind::String => {
            let values: Vec<Value> =
                g.values(&Conj::of(view.loc.clone()), 2).into_iter().filter(|s| s.value.is_string()).take(POOL).map(|s| s.value).collect();
            json!({ "pool": values })
        }
        Kind::Array => {
            let min = schema.min_items.unwrap_or(0);
            let max = schema.max_items.unwrap_or(min + 3).min(min + 4);
            let item = match &schema.items {
                Some(Items::Schema(id)) if view.boolean(*id) == Some(true) => json!({ "pool": ["item", 1, null] }),
                Some(Items::Schema(id)) if view.boolean(*id).is_none() => match plan(g, &view.loc_of(*id), depth + 1) {
                    Value::Null if min > 0 => return Value::Null,
                    Value::Null => json!({ "pool": [] }),
                    item => item,
                },
                None => json!({ "pool": ["item", 1, null] }),
                // `items: false` allows only `[]`, a tuple needs a pool.
                Some(Items::Schema(_) | Items::Tuple(_)) => return Value::Null,
            };
            json!({ "array": item, "min": min, "max": max })
        }
        Kind::Object => {
            // Open objects get no unknown properties here: the pools and round-trip tests
            // cover those; a plan must stay valid without knowing every name.
            let required: &[String] = schema.required.as_deref().unwrap_or_default();
            let mut fields = Vec::new();
            for (name, id) in schema.properties.iter().flatten() {
                let required = required.contains(name);
                match plan(g, &view.loc_of(*id), depth + 1) {
                    Value::Null if required => return Value::Null,
                    // A property no value is allowed for (`false`) stays absent.
                    Value::Null => {}
                    sub => fields.push(json!([name, required, sub])),
                }
            }
            if required.iter().any(|r| view.property(r).is_none()) {
                return Value::Null;
            }
            json!({ "object": fields })
        }
    }
}
