//! What the check needs from the schema JSON that the IR does not keep: the exact integer
//! bounds (the IR keeps only the narrowest Rust integer that holds them, but `i8` is fine for
//! `1..=5` although the IR says `u8`), and where a property's schema is.
//!
//! A schema's *parts* are the schema objects whose keywords all apply: itself, its `allOf`
//! members and `$ref` targets, transitively, as the lowering's `flatten` sees them.

use schemac::Draft;
use schemac::resolve::{Loc, Registry};
use serde_json::{Number, Value};

/// The schemas whose keywords apply at `loc`, `$ref` and `allOf` followed.
pub fn parts(registry: &Registry, loc: &Loc) -> Vec<Loc> {
    let mut out = Vec::new();
    collect(registry, loc, &mut out, 0);
    out
}

fn collect(registry: &Registry, loc: &Loc, out: &mut Vec<Loc>, depth: usize) {
    // A `$ref` loop is the lowering's error to report; here it just stops.
    if depth > 32 || out.contains(loc) {
        return;
    }
    let Some(Value::Object(schema)) = registry.get(loc) else { return };
    out.push(loc.clone());
    if let Some(Value::String(reference)) = schema.get("$ref")
        && let Ok(target) = registry.resolve(loc, reference)
    {
        collect(registry, &target, out, depth + 1);
    }
    if let Some(Value::Array(members)) = schema.get("allOf") {
        for i in 0..members.len() {
            collect(registry, &loc.child("allOf").child(&i.to_string()), out, depth + 1);
        }
    }
}

/// The schemas of property `name` declared by any part of the object schema at `object`.
pub fn property(registry: &Registry, object: &[Loc], name: &str) -> Vec<Loc> {
    let mut out = Vec::new();
    for part in object.iter().flat_map(|loc| parts(registry, loc)) {
        let loc = part.child("properties").child(name);
        if registry.get(&loc).is_some() {
            for inner in parts(registry, &loc) {
                if !out.contains(&inner) {
                    out.push(inner);
                }
            }
        }
    }
    out
}

/// The schemas of the items of the array schemas at `locs`.
pub fn items(registry: &Registry, locs: &[Loc]) -> Vec<Loc> {
    sub(registry, locs, "items")
}

/// The schemas of the values of the map schemas at `locs`.
pub fn values(registry: &Registry, locs: &[Loc]) -> Vec<Loc> {
    sub(registry, locs, "additionalProperties")
}

fn sub(registry: &Registry, locs: &[Loc], keyword: &str) -> Vec<Loc> {
    let mut out = Vec::new();
    for loc in locs {
        let child = loc.child(keyword);
        if matches!(registry.get(&child), Some(Value::Object(_))) {
            out.extend(parts(registry, &child));
        }
    }
    out
}

/// The inclusive integer range the bounds keywords of `locs` allow (`None`: unbounded).
pub fn integer_range(registry: &Registry, locs: &[Loc]) -> (Option<i128>, Option<i128>) {
    let mut low: Option<i128> = None;
    let mut high: Option<i128> = None;
    for loc in locs {
        let Some(Value::Object(schema)) = registry.get(loc) else { continue };
        let draft4 = registry.draft_at(loc) == Draft::Draft4;
        for (keyword, exclusive_keyword, lower) in [("minimum", "exclusiveMinimum", true), ("maximum", "exclusiveMaximum", false)] {
            let mut bounds = Vec::new();
            if let Some(Value::Number(n)) = schema.get(keyword) {
                let exclusive = draft4 && schema.get(exclusive_keyword) == Some(&Value::Bool(true));
                bounds.push(inclusive(n, lower, exclusive));
            }
            if !draft4 && let Some(Value::Number(n)) = schema.get(exclusive_keyword) {
                bounds.push(inclusive(n, lower, true));
            }
            for bound in bounds.into_iter().flatten() {
                if lower {
                    low = Some(low.map_or(bound, |l| l.max(bound)));
                } else {
                    high = Some(high.map_or(bound, |h| h.min(bound)));
                }
            }
        }
    }
    (low, high)
}

/// The inclusive integer bound a (possibly fractional, possibly exclusive) bound means.
fn inclusive(n: &Number, lower: bool, exclusive: bool) -> Option<i128> {
    let step = i128::from(exclusive);
    if let Some(i) = n.as_i64() {
        return Some(if lower { i128::from(i) + step } else { i128::from(i) - step });
    }
    if let Some(u) = n.as_u64() {
        return Some(if lower { i128::from(u) + step } else { i128::from(u) - step });
    }
    let f = n.as_f64().filter(|f| f.is_finite())?;
    // `as` saturates; bounds beyond i128 are as good as none for any Rust integer.
    Some(if lower {
        let c = f.ceil();
        if exclusive && c == f { c as i128 + 1 } else { c as i128 }
    } else {
        let c = f.floor();
        if exclusive && c == f { c as i128 - 1 } else { c as i128 }
    })
}

#[cfg(test)]
mod tests {
    use super::inclusive;
    use serde_json::Number;

    #[test]
    fn bounds_become_inclusive_integers() {
        let n = |f: f64| Number::from_f64(f).unwrap_or_else(|| Number::from(0));
        assert_eq!(inclusive(&Number::from(1), true, false), Some(1));
        assert_eq!(inclusive(&Number::from(1), true, true), Some(2));
        assert_eq!(inclusive(&Number::from(5), false, true), Some(4));
        assert_eq!(inclusive(&n(0.5), true, false), Some(1));
        assert_eq!(inclusive(&n(0.5), true, true), Some(1));
        assert_eq!(inclusive(&n(2.0), false, true), Some(1));
        assert_eq!(inclusive(&n(2.5), false, false), Some(2));
    }
}
