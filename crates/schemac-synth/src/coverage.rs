//! What the synthesized instances cover, and what they miss: every declared property, enum
//! value, `oneOf`/`anyOf` branch and `then`/`else` needs a valid instance that reaches it,
//! and every assertion keyword a mutant. What no instance can reach by construction is
//! reported apart, with the proof: an enum value the schema around it rejects, a `oneOf` branch
//! another branch always matches too.

use std::collections::BTreeSet;

use serde_json::Value;

use super::check::Checker;
use super::schema::{View, json_eq};
use super::{ASSERTIONS, Mutant, Sample};
use schemac::resolve::Loc;

/// Every target no instance covers, as `what at schema pointer` lines: the gaps, and apart
/// those that are unreachable (with the reason).
pub(crate) fn uncovered(check: &Checker<'_>, root: &Loc, valid: &[Sample], invalid: &[Mutant]) -> (Vec<String>, Vec<String>) {
    let mut visits: Vec<(Value, Loc)> = Vec::new();
    for sample in valid {
        for (ptr, loc) in check.visits(root, &sample.value) {
            if let Some(value) = sample.value.pointer(&ptr) {
                visits.push((value.clone(), loc));
            }
        }
    }
    let visited: BTreeSet<&Loc> = visits.iter().map(|(_, loc)| loc).collect();
    // A keyword inside `contains`/`propertyNames` is covered by the mutant that breaks it there.
    let mutated: BTreeSet<&str> = invalid.iter().flat_map(|m| std::iter::once(m.schema_path.as_str()).chain(m.via.as_deref())).collect();
    let mut out = Vec::new();
    let mut unreachable = Vec::new();
    for (loc, inside) in reachable(check, root) {
        let Some(schema) = check.reg.get(&loc) else { continue };
        let view = View { reg: check.reg, loc: &loc, value: schema };
        for (name, sub) in view.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let at = loc.child("properties").child(name);
            if sub != &Value::Bool(false) && !visited.contains(&at) {
                out.push(format!("property `{name}` at {}", at.pointer));
            }
        }
        if let Some(Value::Array(values)) = view.get("enum") {
            for value in values {
                if !visits.iter().any(|(v, l)| *l == loc && json_eq(v, value)) {
                    let line = format!("enum value {value} at {}", loc.child("enum").pointer);
                    // The schema holding the enum rejects the value: no instance can have it.
                    let failures = check.failures(&loc, value);
                    if failures.is_empty() {
                        out.push(line);
                    } else {
                        let keywords: BTreeSet<String> =
                            failures.iter().map(|f| format!("`{}` at {}", f.keyword, f.schema.pointer)).collect();
                        let keywords: Vec<String> = keywords.into_iter().collect();
                        unreachable.push(format!("{line}: the schema holding it rejects it ({})", keywords.join(", ")));
                    }
                }
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            let branches = view.list(keyword);
            for branch in &branches {
                if visited.contains(branch) {
                    continue;
                }
                let line = format!("{keyword} branch at {}", branch.pointer);
                let wider = branches.iter().find(|other| *other != branch && keyword == "oneOf" && subsumes(check, other, branch));
                match wider {
                    Some(other) => unreachable
                        .push(format!("{line}: every value it accepts also matches {}, so it is never the only match", other.pointer)),
                    None => out.push(line),
                }
            }
        }
        for keyword in ["then", "else"] {
            if view.get("if").is_some() && view.get(keyword).is_some() && !visited.contains(&loc.child(keyword)) {
                out.push(format!("`{keyword}` at {}", loc.child(keyword).pointer));
            }
        }
        for keyword in ASSERTIONS {
            let present = match (keyword, view.get(keyword)) {
                (_, None) => false,
                // Applicators only, when they hold a schema rather than `false`.
                ("additionalProperties" | "items" | "additionalItems" | "unevaluatedItems" | "unevaluatedProperties", Some(v)) => {
                    v == &Value::Bool(false)
                }
                ("uniqueItems", Some(v)) => v == &Value::Bool(true),
                ("exclusiveMinimum" | "exclusiveMaximum", Some(v)) => v.is_number(),
                ("dependencies", Some(v)) => v.as_object().is_some_and(|m| m.values().any(Value::is_array)),
                _ => true,
            };
            // With `enum`/`const` beside it, a value of another type fails both: `type` cannot
            // be violated alone there, and the `enum`/`const` mutants cover the place.
            let implied = keyword == "type" && (view.get("enum").is_some() || view.get("const").is_some());
            let at = loc.child(keyword);
            if present && !implied && !inside && !mutated.contains(at.pointer.as_str()) && at.doc == root.doc {
                out.push(format!("no mutant for `{keyword}` at {}", at.pointer));
            }
        }
    }
    (out, unreachable)
}

/// Keys a schema may have beside `type` without accepting fewer values: annotations.
const ANNOTATIONS: [&str; 6] = ["type", "title", "description", "$comment", "examples", "deprecated"];

/// Whether `wide` provably accepts every value `narrow` accepts. Only the case that can be
/// decided exactly is: both are `type` alone (with annotations), and every kind of `narrow`
/// is a kind of `wide` (an integer is a number). Anything else is "not proven".
fn subsumes(check: &Checker<'_>, wide: &Loc, narrow: &Loc) -> bool {
    let kinds = |loc: &Loc| -> Option<Vec<String>> {
        let map = check.reg.get(loc)?.as_object()?;
        if map.keys().any(|k| !ANNOTATIONS.contains(&k.as_str())) {
            return None;
        }
        match map.get("type")? {
            Value::String(kind) => Some(vec![kind.clone()]),
            Value::Array(kinds) => kinds.iter().map(|k| k.as_str().map(str::to_owned)).collect(),
            _ => None,
        }
    };
    let (Some(wide), Some(narrow)) = (kinds(wide), kinds(narrow)) else { return false };
    narrow.iter().all(|kind| wide.contains(kind) || (kind == "integer" && wide.iter().any(|w| w == "number")))
}

/// Every schema object reachable from `root` through applicators and refs, in document order,
/// and whether it is inside a branch of `anyOf`/`oneOf`/`not`/`if`: there a violated keyword
/// shows as the enclosing combinator (or flips the condition), never alone.
fn reachable(check: &Checker<'_>, root: &Loc) -> Vec<(Loc, bool)> {
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    let mut work = vec![(root.clone(), false)];
    while let Some((loc, inside)) = work.pop() {
        if !seen.insert(loc.clone()) {
            continue;
        }
        let Some(schema) = check.reg.get(&loc) else { continue };
        if !schema.is_object() {
            continue;
        }
        order.push((loc.clone(), inside));
        let view = View { reg: check.reg, loc: &loc, value: schema };
        let mut next = Vec::new();
        if let Some(target) = view.ref_target() {
            next.push(target);
        }
        for keyword in ["additionalProperties", "items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames"] {
            match view.get(keyword) {
                Some(Value::Object(_)) => next.push(loc.child(keyword)),
                Some(Value::Array(items)) => next.extend((0..items.len()).map(|i| loc.child(keyword).child(&i.to_string()))),
                _ => {}
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            next.extend(view.list(keyword));
        }
        for keyword in ["properties", "patternProperties", "dependentSchemas"] {
            for name in view.get(keyword).and_then(Value::as_object).into_iter().flat_map(|m| m.keys()) {
                next.push(loc.child(keyword).child(name));
            }
        }
        let branches: Vec<Loc> = ["anyOf", "oneOf"].iter().flat_map(|k| view.list(k)).chain(["not", "if"].map(|k| loc.child(k))).collect();
        work.extend(next.into_iter().rev().map(|l| {
            let inside = inside || branches.contains(&l);
            (l, inside)
        }));
    }
    order.sort();
    order
}
