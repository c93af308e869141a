//! What the check needs from the schema model that the IR does not keep: the exact integer
//! bounds (the IR keeps only the narrowest Rust integer that holds them, but `i8` is fine for
//! `1..=5` although the IR says `u8`), and where a property's schema is.
//!
//! A schema's *parts* are the schema objects whose keywords all apply: itself, its `allOf`
//! members and `$ref` targets, transitively, as the lowering's `flatten` sees them.

use schemac_model::resolve::Loc;
use schemac_model::schema::{Exclusive, Model};
use serde_json::Number;

/// The schemas whose keywords apply at `loc`, `$ref` and `allOf` followed.
pub fn parts(model: &Model, loc: &Loc) -> Vec<Loc> {
    let mut out = Vec::new();
    let mut todo = vec![loc.clone()];
    while let Some(loc) = todo.pop() {
        // A `$ref` loop is the lowering's error to report; here it just stops.
        if out.contains(&loc) {
            continue;
        }
        let Some(schema) = model.schema_at(&loc) else { continue };
        out.push(loc.clone());
        // Visited in document order: the `$ref` target first, then the `allOf` members.
        let members = schema.all_of.iter().flatten().rev().map(|id| model.loc(*id).clone());
        todo.extend(members);
        if let Some(target) = schema.ref_.as_ref().and_then(|r| r.target().ok()) {
            todo.push(target.loc.clone());
        }
    }
    out
}

/// The schemas of property `name` declared by any part of the object schema at `object`.
pub fn property(model: &Model, object: &[Loc], name: &str) -> Vec<Loc> {
    let mut out = Vec::new();
    for part in object.iter().flat_map(|loc| parts(model, loc)) {
        let declared = model.schema_at(&part).and_then(|s| s.properties.as_ref()?.iter().find(|(n, _)| n == name).map(|(_, id)| *id));
        if let Some(id) = declared {
            for inner in parts(model, model.loc(id)) {
                if !out.contains(&inner) {
                    out.push(inner);
                }
            }
        }
    }
    out
}

/// The schemas of the items of the array schemas at `locs`.
pub fn items(model: &Model, locs: &[Loc]) -> Vec<Loc> {
    sub(model, locs, |s| s.items_schema())
}

/// The schemas of the values of the map schemas at `locs`.
pub fn values(model: &Model, locs: &[Loc]) -> Vec<Loc> {
    sub(model, locs, |s| s.additional_properties)
}

fn sub(model: &Model, locs: &[Loc], child: impl Fn(&schemac_model::schema::Schema) -> Option<schemac_model::schema::SchemaId>) -> Vec<Loc> {
    let mut out = Vec::new();
    for loc in locs {
        let Some(id) = model.schema_at(loc).and_then(&child) else { continue };
        if model.node(id).schema().is_some() {
            out.extend(parts(model, model.loc(id)));
        }
    }
    out
}

/// The inclusive integer range the bounds keywords of `locs` allow (`None`: unbounded).
pub fn integer_range(model: &Model, locs: &[Loc]) -> (Option<i128>, Option<i128>) {
    let mut low: Option<i128> = None;
    let mut high: Option<i128> = None;
    for loc in locs {
        let Some(schema) = model.schema_at(loc) else { continue };
        for (bound, exclusive, lower) in
            [(&schema.minimum, &schema.exclusive_minimum, true), (&schema.maximum, &schema.exclusive_maximum, false)]
        {
            let mut bounds = Vec::new();
            if let Some(n) = bound {
                // Draft 4's `exclusiveMinimum: true` makes `minimum` exclusive.
                bounds.push(inclusive(n, lower, *exclusive == Some(Exclusive::Flag(true))));
            }
            if let Some(Exclusive::Bound(n)) = exclusive {
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
