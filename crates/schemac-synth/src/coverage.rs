//! What the synthesized instances cover, and what they miss: every declared property, enum
//! value, `oneOf`/`anyOf` branch and `then`/`else` needs a valid instance that reaches it,
//! and every assertion keyword a mutant. What no instance can reach by construction is
//! reported apart, with the proof: an enum value the schema around it rejects, a `oneOf` branch
//! another branch always matches too.

use std::collections::BTreeSet;

use schemac_model::resolve::Loc;
use schemac_model::schema::Kind;
use schemac_model::schema::{Exclusive, Items, Keyword};
use serde_json::Value;

use super::schema::{View, json_eq};
use super::walk::Schemas;
use super::{ASSERTIONS, Mutant, Sample};

/// Every target no instance covers, as `what at schema pointer` lines: the gaps, and apart
/// those that are unreachable (with the reason).
pub(crate) fn uncovered(schemas: &Schemas<'_>, root: &Loc, valid: &[Sample], invalid: &[Mutant]) -> (Vec<String>, Vec<String>) {
    let mut visits: Vec<(Value, Loc)> = Vec::new();
    for sample in valid {
        for (ptr, loc) in schemas.visits(root, &sample.value) {
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
    for (loc, inside) in reachable(schemas, root) {
        let Some(view) = schemas.view(&loc) else { continue };
        let schema = view.schema;
        for (name, id) in schema.properties.iter().flatten() {
            let at = view.loc_of(*id);
            if view.boolean(*id) != Some(false) && !visited.contains(&at) {
                out.push(format!("property `{name}` at {}", at.pointer));
            }
        }
        for value in schema.enum_values.iter().flatten() {
            if !visits.iter().any(|(v, l)| *l == loc && json_eq(v, value)) {
                let line = format!("enum value {value} at {}", view.at_keyword(Keyword::Enum).pointer);
                // The schema holding the enum rejects the value: no instance can have it.
                let failures = schemas.failures(&loc, value);
                if failures.is_empty() {
                    out.push(line);
                } else {
                    let keywords: BTreeSet<String> = failures.iter().map(|f| format!("`{}` at {}", f.keyword, f.schema.pointer)).collect();
                    let keywords: Vec<String> = keywords.into_iter().collect();
                    unreachable.push(format!("{line}: the schema holding it rejects it ({})", keywords.join(", ")));
                }
            }
        }
        for (keyword, list) in [(Keyword::OneOf, &schema.one_of), (Keyword::AnyOf, &schema.any_of)] {
            let branches = view.locs(list.as_ref());
            for branch in &branches {
                if visited.contains(branch) {
                    continue;
                }
                let line = format!("{keyword} branch at {}", branch.pointer);
                let wider = branches.iter().find(|other| *other != branch && keyword == Keyword::OneOf && subsumes(schemas, other, branch));
                match wider {
                    Some(other) => unreachable
                        .push(format!("{line}: every value it accepts also matches {}, so it is never the only match", other.pointer)),
                    None => out.push(line),
                }
            }
        }
        if schema.if_.is_some() {
            for (keyword, branch) in [(Keyword::Then, schema.then), (Keyword::Else, schema.else_)] {
                if let Some(branch) = branch
                    && !visited.contains(&view.loc_of(branch))
                {
                    out.push(format!("`{keyword}` at {}", view.loc_of(branch).pointer));
                }
            }
        }
        for keyword in ASSERTIONS {
            // With `enum`/`const` beside it, a value of another type fails both: `type` cannot
            // be violated alone there, and the `enum`/`const` mutants cover the place. Beside
            // `minContains`, which sets how many items must match, too few matching items fail
            // as `minContains` (so jsonschema reports it), never as `contains`.
            let implied = (keyword == Keyword::Type && (schema.enum_values.is_some() || schema.const_value.is_some()))
                || (keyword == Keyword::Contains && schema.min_contains.is_some());
            let at = view.at_keyword(keyword);
            if asserts(&view, keyword) && !implied && !inside && !mutated.contains(at.pointer.as_str()) && at.doc == root.doc {
                out.push(format!("no mutant for `{keyword}` at {}", at.pointer));
            }
        }
    }
    (out, unreachable)
}

/// Whether `keyword` of the schema asserts something a mutant must violate: applicators only
/// when they are `false` (a schema there is violated where its own keywords are), `uniqueItems`
/// when `true`, the exclusive bounds as numbers (draft 4's booleans modify `minimum`), and
/// `dependencies` when it lists names.
fn asserts(view: &View<'_>, keyword: Keyword) -> bool {
    let schema = view.schema;
    if !schema.has(keyword) {
        return false;
    }
    match keyword {
        Keyword::AdditionalProperties => view.is_false(schema.additional_properties),
        Keyword::UnevaluatedItems => view.is_false(schema.unevaluated_items),
        Keyword::UnevaluatedProperties => view.is_false(schema.unevaluated_properties),
        Keyword::AdditionalItems => view.is_false(schema.additional_items),
        Keyword::Items => matches!(schema.items, Some(Items::Schema(id)) if view.boolean(id) == Some(false)),
        Keyword::UniqueItems => schema.unique_items == Some(true),
        Keyword::ExclusiveMinimum => matches!(schema.exclusive_minimum, Some(Exclusive::Bound(_))),
        Keyword::ExclusiveMaximum => matches!(schema.exclusive_maximum, Some(Exclusive::Bound(_))),
        Keyword::Dependencies => {
            schema.dependencies.iter().flatten().any(|(_, dependency)| matches!(dependency, schemac_model::schema::Dependency::Names(_)))
        }
        keyword => ASSERTIONS.contains(&keyword),
    }
}

/// Keywords a schema may have beside `type` without accepting fewer values: annotations.
const ANNOTATIONS: [Keyword; 6] =
    [Keyword::Type, Keyword::Title, Keyword::Description, Keyword::Comment, Keyword::Examples, Keyword::Deprecated];

/// Whether `wide` provably accepts every value `narrow` accepts. Only the case that can be
/// decided exactly is: both are `type` alone (with annotations), and every kind of `narrow`
/// is a kind of `wide` (an integer is a number). Anything else is "not proven".
fn subsumes(schemas: &Schemas<'_>, wide: &Loc, narrow: &Loc) -> bool {
    let kinds = |loc: &Loc| -> Option<&Vec<Kind>> {
        let view = schemas.view(loc)?;
        if !view.schema.unknown.is_empty() || view.keywords().any(|k| !ANNOTATIONS.contains(&k)) {
            return None;
        }
        view.schema.type_order.as_ref()
    };
    let (Some(wide), Some(narrow)) = (kinds(wide), kinds(narrow)) else { return false };
    narrow.iter().all(|kind| wide.contains(kind) || (*kind == Kind::Integer && wide.contains(&Kind::Number)))
}

/// Every schema object reachable from `root` through applicators and refs, in document order,
/// and whether it is inside a branch of `anyOf`/`oneOf`/`not`/`if`: there a violated keyword
/// shows as the enclosing combinator (or flips the condition), never alone.
fn reachable(schemas: &Schemas<'_>, root: &Loc) -> Vec<(Loc, bool)> {
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    let mut work = vec![(root.clone(), false)];
    while let Some((loc, inside)) = work.pop() {
        if !seen.insert(loc.clone()) {
            continue;
        }
        let Some(view) = schemas.view(&loc) else { continue };
        let schema = view.schema;
        order.push((loc.clone(), inside));
        let mut next = Vec::new();
        if let Some(target) = view.ref_target() {
            next.push(target);
        }
        // Single subschemas (only schema objects: a boolean one has no keywords to cover).
        let objects = |id: Option<schemac_model::schema::SchemaId>| id.filter(|id| view.boolean(*id).is_none()).map(|id| view.loc_of(id));
        next.extend(objects(schema.additional_properties));
        match &schema.items {
            Some(Items::Schema(id)) => next.extend(objects(Some(*id))),
            Some(Items::Tuple(list)) => next.extend(view.locs(Some(list))),
            None => {}
        }
        for id in [schema.additional_items, schema.contains, schema.not, schema.if_, schema.then, schema.else_, schema.property_names] {
            next.extend(objects(id));
        }
        for list in [&schema.all_of, &schema.any_of, &schema.one_of, &schema.prefix_items] {
            next.extend(view.locs(list.as_ref()));
        }
        for map in [&schema.properties, &schema.pattern_properties, &schema.dependent_schemas] {
            next.extend(map.iter().flatten().map(|(_, id)| view.loc_of(*id)));
        }
        let mut branches: Vec<Loc> = view.locs(schema.any_of.as_ref());
        branches.extend(view.locs(schema.one_of.as_ref()));
        branches.extend([Keyword::Not, Keyword::If].map(|k| view.at_keyword(k)));
        work.extend(next.into_iter().rev().map(|l| {
            let inside = inside || branches.contains(&l);
            (l, inside)
        }));
    }
    order.sort();
    order
}
