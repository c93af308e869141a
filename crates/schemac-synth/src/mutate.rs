//! Invalid mutants: a valid instance with one value changed so that exactly one keyword fails
//! at one pointer. For each schema object the walk applies to a valid instance, each
//! assertion keyword gets candidate replacements; the first whose failures are exactly that
//! keyword at that place is kept, once per keyword location (and per property for `required`).
//!
//! Keywords inside `contains` and `propertyNames` never fail alone — a validator reports only
//! the keyword around them — so their mutants break one item or property name and are
//! labelled with the outer keyword, the inner one kept in [`Mutant::via`].

use std::collections::BTreeSet;

use schemac_model::resolve::Loc;
use schemac_model::schema::{Exclusive, Keyword};
use serde_json::{Map, Number, Value};

use super::referee::{Failure, Label};
use super::schema::{ItemRule, View, json_eq};
use super::strings;
use super::values::{Conj, Gen};
use super::{ASSERTIONS, Mutant, Sample};

/// A candidate: the whole mutated instance, and what it was changed to violate.
struct Candidate {
    instance: Value,
    why: String,
}

/// Values of every kind, for keywords about kinds (`type`, `enum`, combinators).
fn probes() -> Vec<Value> {
    vec![
        Value::Null,
        Value::Bool(true),
        Value::from(7),
        Value::from(1.5),
        Value::String("synth-probe".to_owned()),
        Value::Array(Vec::new()),
        Value::Object(Map::new()),
    ]
}

pub(crate) fn mutants(g: &mut Gen<'_>, root: &Loc, valid: &[Sample]) -> Vec<Mutant> {
    let mut done: BTreeSet<(Loc, String)> = BTreeSet::new();
    let mut out = Vec::new();
    for sample in valid {
        for (ptr, loc) in g.schemas.visits(root, &sample.value) {
            let Some(view) = g.schemas.view(&loc) else { continue };
            let Some(here) = sample.value.pointer(&ptr) else { continue };
            for keyword in ASSERTIONS {
                if !view.schema.has(keyword) || covered(&done, &view, keyword) {
                    continue;
                }
                for (detail, candidates) in candidates(g, &view, keyword, here, &sample.value, &ptr).unwrap_or_default() {
                    let key = (view.at_keyword(keyword), detail);
                    if done.contains(&key) {
                        continue;
                    }
                    for candidate in candidates {
                        let failures = g.schemas.failures(root, &candidate.instance);
                        if isolated(&failures, Label::Keyword(keyword), &key.0)
                            && let Some(first) = failures.first()
                        {
                            out.push(Mutant {
                                pointer: first.pointer.clone(),
                                keyword: keyword.name().to_owned(),
                                schema_path: key.0.pointer.clone(),
                                via: None,
                                why: candidate.why,
                                instance: candidate.instance,
                            });
                            done.insert(key.clone());
                            break;
                        }
                    }
                }
            }
            // A `false` property schema: the property may only be absent.
            for (name, id) in view.schema.properties.iter().flatten() {
                let key = (view.loc_of(*id), "false".to_owned());
                if view.boolean(*id) != Some(false) || done.contains(&key) || !here.is_object() {
                    continue;
                }
                let instance = replace(&sample.value, &ptr, |v| insert(v, name, Value::Null));
                if let [Failure { pointer, keyword: Label::False, schema }] = g.schemas.failures(root, &instance).as_slice()
                    && *schema == key.0
                {
                    let why = format!("property {name} has the schema false: it must be absent");
                    out.push(Mutant {
                        pointer: pointer.clone(),
                        keyword: Label::False.to_string(),
                        schema_path: schema.pointer.clone(),
                        via: None,
                        why,
                        instance,
                    });
                    done.insert(key);
                }
            }
            through(g, root, &view, &sample.value, &ptr, &mut done, &mut out);
        }
    }
    out
}

/// Mutants for the assertion keywords inside `contains` and `propertyNames` of `view` (at
/// `ptr` in `instance`): one matching item, or one property name, is changed to violate the
/// inner keyword alone, which shows as the outer keyword failing at `ptr`.
fn through(
    g: &mut Gen<'_>,
    root: &Loc,
    view: &View<'_>,
    instance: &Value,
    ptr: &str,
    done: &mut BTreeSet<(Loc, String)>,
    out: &mut Vec<Mutant>,
) {
    let Some(here) = instance.pointer(ptr) else { return };
    let outers = [(Keyword::Contains, view.schema.contains), (Keyword::PropertyNames, view.schema.property_names)];
    for (outer, inner) in outers {
        let Some(inner_view) = inner.and_then(|id| g.schemas.view(&view.loc_of(id))) else { continue };
        let inner_loc = inner_view.loc;
        // What is changed: the items that match `contains`, or the property names.
        let parts: Vec<(usize, Value)> = match (outer, here) {
            (Keyword::Contains, Value::Array(items)) => {
                items.iter().cloned().enumerate().filter(|(_, item)| g.schemas.is_valid(inner_loc, item)).collect()
            }
            (Keyword::PropertyNames, Value::Object(map)) => map.keys().map(|k| Value::String(k.clone())).enumerate().collect(),
            _ => continue,
        };
        // Which keywords of the schema around show the inner one failing.
        let outer_keywords: &[Keyword] =
            if outer == Keyword::Contains { &[Keyword::Contains, Keyword::MinContains] } else { &[Keyword::PropertyNames] };
        for keyword in ASSERTIONS {
            let target = inner_view.at_keyword(keyword);
            let key = (target.clone(), "via".to_owned());
            if !inner_view.schema.has(keyword) || done.contains(&key) {
                continue;
            }
            'parts: for (index, part) in &parts {
                for (_, list) in candidates(g, &inner_view, keyword, part, part, "").unwrap_or_default() {
                    for candidate in list {
                        // The changed part must violate the inner keyword and nothing else.
                        let inner_failures = g.schemas.failures(inner_loc, &candidate.instance);
                        if inner_failures.is_empty()
                            || inner_failures.iter().any(|f| f.keyword != Label::Keyword(keyword) || f.schema != target)
                        {
                            continue;
                        }
                        let Some(changed) = rebuild(here, *index, &candidate.instance) else { continue };
                        let whole = replace(instance, ptr, |_| changed.clone());
                        let failures = g.schemas.failures(root, &whole);
                        let Some(first) = failures.first() else { continue };
                        let Label::Keyword(shown) = first.keyword else { continue };
                        let at = view.at_keyword(shown);
                        if outer_keywords.contains(&shown) && isolated(&failures, first.keyword, &at) {
                            out.push(Mutant {
                                pointer: first.pointer.clone(),
                                keyword: shown.name().to_owned(),
                                schema_path: at.pointer.clone(),
                                via: Some(target.pointer.clone()),
                                why: format!("{} ({keyword} inside {outer}), so {shown} fails", candidate.why),
                                instance: whole,
                            });
                            done.insert(key);
                            break 'parts;
                        }
                    }
                }
            }
        }
    }
}

/// `here` with part `index` (an item, or the name of a property) replaced by `part`.
fn rebuild(here: &Value, index: usize, part: &Value) -> Option<Value> {
    match here {
        Value::Array(items) => {
            let mut items = items.clone();
            *items.get_mut(index)? = part.clone();
            Some(Value::Array(items))
        }
        Value::Object(map) => {
            let name = part.as_str()?;
            if map.contains_key(name) {
                return None;
            }
            // Renamed in place, so that the order of the other properties is kept.
            let renamed: Map<String, Value> =
                map.iter().enumerate().map(|(i, (k, v))| (if i == index { name.to_owned() } else { k.clone() }, v.clone())).collect();
            Some(Value::Object(renamed))
        }
        _ => None,
    }
}

/// Whether `failures` are one keyword at one pointer, `target` among them. The same keyword
/// may fail in several schemas there (`type: object` in two `allOf` branches): violating one
/// violates all, and it is still one keyword at one pointer.
fn isolated(failures: &[Failure], keyword: Label, target: &Loc) -> bool {
    let Some(first) = failures.first() else { return false };
    failures.iter().all(|f| f.keyword == keyword && f.pointer == first.pointer) && failures.iter().any(|f| f.schema == *target)
}

/// Whether every mutant `keyword` of `view` can stand for is already kept, so that no
/// candidates need to be built (building them clones the instance many times).
fn covered(done: &BTreeSet<(Loc, String)>, view: &View<'_>, keyword: Keyword) -> bool {
    let at = view.at_keyword(keyword);
    // `required` has a mutant per property and `dependentRequired` per trigger; every other
    // keyword one per location.
    if keyword == Keyword::Required {
        view.schema.required.iter().flatten().all(|name| done.contains(&(at.clone(), name.clone())))
    } else if matches!(keyword, Keyword::DependentRequired | Keyword::Dependencies) {
        let triggers = view.dependent_required();
        triggers.iter().filter(|(_, _, kw)| *kw == keyword).all(|(trigger, _, _)| done.contains(&(at.clone(), trigger.clone())))
    } else {
        done.contains(&(at, String::new()))
    }
}

/// Candidate mutants for `keyword` of `view` at `ptr`, grouped by detail (e.g. the required
/// property removed); each group counts as covered once one candidate is kept.
///
/// Every keyword is decided here: `Ok` with its candidates (none where this instance gives
/// nothing to change, e.g. `minLength` on a number), or `Err` saying why no instance violates
/// it alone. [`ASSERTIONS`] is exactly the keywords with candidates (a test holds them equal).
fn candidates(
    g: &mut Gen<'_>,
    view: &View<'_>,
    keyword: Keyword,
    here: &Value,
    root: &Value,
    ptr: &str,
) -> Result<Vec<(String, Vec<Candidate>)>, Unviolable> {
    let at = |value: Value, why: String| Candidate { instance: replace(root, ptr, |_| value.clone()), why };
    let single = |list: Vec<Candidate>| vec![(String::new(), list)];
    let schema = view.schema;
    Ok(match keyword {
        Keyword::Type => {
            let list = probes().into_iter().map(|p| at(p.clone(), format!("{p} is not of the declared type"))).collect();
            single(list)
        }
        Keyword::Enum | Keyword::Const => {
            let mut values = probes();
            if let Value::String(s) = here {
                values.insert(0, Value::String(format!("{s}-not")));
            }
            if let Some(n) = here.as_f64() {
                values.insert(0, Value::from(n + 1.0));
            }
            single(values.into_iter().map(|p| at(p.clone(), format!("{p} is not allowed by {keyword}"))).collect())
        }
        Keyword::Minimum => single(out_of_bounds(keyword, schema.minimum.as_ref(), Side::Below, root, ptr)),
        Keyword::ExclusiveMinimum => single(out_of_bounds(keyword, exclusive_bound(&schema.exclusive_minimum), Side::Below, root, ptr)),
        Keyword::Maximum => single(out_of_bounds(keyword, schema.maximum.as_ref(), Side::Above, root, ptr)),
        Keyword::ExclusiveMaximum => single(out_of_bounds(keyword, exclusive_bound(&schema.exclusive_maximum), Side::Above, root, ptr)),
        Keyword::MultipleOf => {
            let step = schema.multiple_of.as_ref().and_then(Number::as_f64).unwrap_or(1.0);
            let list = [here.as_f64().unwrap_or(0.0) + step / 2.0, step / 2.0, step * 1.5]
                .into_iter()
                .filter_map(|v| number(v).map(|n| at(n, format!("{v} is not a multiple of {step}"))))
                .collect();
            single(list)
        }
        Keyword::MinLength | Keyword::MaxLength => {
            let Some(text) = here.as_str() else { return Ok(Vec::new()) };
            let limit = if keyword == Keyword::MinLength { schema.min_length } else { schema.max_length };
            let limit = limit.unwrap_or(0) as usize;
            let length = if keyword == Keyword::MinLength { limit.checked_sub(1) } else { Some(limit + 1) };
            let Some(length) = length else { return Ok(Vec::new()) };
            let mut list =
                vec![at(Value::String(text.chars().cycle().take(length).collect()), format!("{length} characters ({keyword} {limit})"))];
            for unit in strings::UNITS {
                list.push(at(Value::String(strings::of_length(length, unit)), format!("{length} characters ({keyword} {limit})")));
            }
            single(list)
        }
        Keyword::Pattern => {
            let text = here.as_str().unwrap_or_default();
            let pattern = schema.pattern.as_deref().unwrap_or_default();
            let mut chopped: String = text.chars().collect();
            chopped.pop();
            let mut texts =
                vec!["".to_owned(), "!".to_owned(), format!("{text}!"), format!("!{text}"), format!("{chopped}!"), format!(" {text}")];
            // Plain words, for a pattern beside a stricter one (`^a` with `^[a-z]+$`).
            texts.extend(["b", "zz", "A", "Z9", "0", "a_b", "aaaa"].map(str::to_owned));
            let list = texts.into_iter().map(|s| at(Value::String(s.clone()), format!("{s:?} does not match {pattern}"))).collect();
            single(list)
        }
        Keyword::Required => {
            let Some(map) = here.as_object() else { return Ok(Vec::new()) };
            let names = schema.required.iter().flatten();
            names
                .filter(|name| map.contains_key(*name))
                .map(|name| {
                    let instance = replace(root, ptr, |v| remove(v, name));
                    (name.clone(), vec![Candidate { instance, why: format!("required property {name} is missing") }])
                })
                .collect()
        }
        Keyword::AdditionalProperties | Keyword::UnevaluatedProperties => {
            let rule = if keyword == Keyword::AdditionalProperties { schema.additional_properties } else { schema.unevaluated_properties };
            // A schema here is violated where its own keywords are (the walk reaches it).
            if !view.is_false(rule) {
                return Ok(Vec::new());
            }
            let instance = replace(root, ptr, |v| insert(v, "zz_synth_unknown", Value::from(1)));
            single(vec![Candidate { instance, why: "zz_synth_unknown is not a declared property".to_owned() }])
        }
        Keyword::PropertyNames => {
            // The value must satisfy whatever applies to the new property, so several are tried.
            let existing = here.as_object().and_then(|m| m.values().next().cloned());
            let values: Vec<Value> =
                [Some(Value::Null), existing, Some(Value::from(1)), Some(Value::String("x".to_owned()))].into_iter().flatten().collect();
            let mut list = Vec::new();
            for name in ["!!", "NOT a name", "x", "", "ABCDEFGH"] {
                for value in &values {
                    list.push(Candidate {
                        instance: replace(root, ptr, |v| insert(v, name, value.clone())),
                        why: format!("{name:?} is not an allowed property name"),
                    });
                }
            }
            single(list)
        }
        Keyword::MinItems => single(fewer_items(view, here, root, ptr)),
        Keyword::MaxItems => single(more_items(g, view, here, root, ptr)),
        Keyword::UniqueItems => single(duplicate_item(view, here, root, ptr)),
        Keyword::Items | Keyword::AdditionalItems | Keyword::UnevaluatedItems => single(item_past_allowed(view, keyword, here, root, ptr)),
        Keyword::MinProperties | Keyword::MaxProperties => {
            let Some(map) = here.as_object() else { return Ok(Vec::new()) };
            let list = if keyword == Keyword::MinProperties {
                let limit = schema.min_properties.unwrap_or(0) as usize;
                let mut list: Vec<Candidate> = map
                    .keys()
                    .map(|name| Candidate {
                        instance: replace(root, ptr, |v| remove(v, name)),
                        why: format!("without {name}, too few properties"),
                    })
                    .collect();
                // Exactly `limit - 1` properties, each run of consecutive ones in turn: the
                // valid instances may all have more than `limit`, and which are kept matters
                // to `required` and `dependentRequired`.
                let keys: Vec<&String> = map.keys().collect();
                if let Some(keep) = limit.checked_sub(1).filter(|k| *k < keys.len()) {
                    for start in 0..=keys.len() - keep {
                        let kept: Map<String, Value> =
                            keys[start..start + keep].iter().map(|k| ((*k).clone(), map[k.as_str()].clone())).collect();
                        list.push(Candidate {
                            instance: replace(root, ptr, |_| Value::Object(kept.clone())),
                            why: format!("{keep} properties (minProperties {limit})"),
                        });
                    }
                }
                list
            } else {
                let limit = schema.max_properties.unwrap_or(0) as usize;
                // Names and values in several styles: `propertyNames` and the schema for
                // unknown properties beside `maxProperties` must still accept them.
                let mut list = Vec::new();
                let existing = map.values().next().cloned();
                let values = [Some(Value::from(1)), existing, Some(Value::Null), Some(Value::String("x".to_owned()))];
                for style in 0..3 {
                    for value in values.iter().flatten() {
                        let mut grown = here.clone();
                        let mut i = 0usize;
                        while grown.as_object().map_or(usize::MAX, Map::len) <= limit && i <= limit + 64 {
                            grown = insert(&grown, &extra_name(style, i), value.clone());
                            i += 1;
                        }
                        list.push(Candidate {
                            instance: replace(root, ptr, |_| grown.clone()),
                            why: format!("{} properties (maxProperties {limit})", limit + 1),
                        });
                    }
                }
                list
            };
            single(list)
        }
        Keyword::DependentRequired | Keyword::Dependencies => {
            let Some(map) = here.as_object() else { return Ok(Vec::new()) };
            view.dependent_required()
                .into_iter()
                .filter(|(trigger, _, kw)| *kw == keyword && map.contains_key(trigger))
                .map(|(trigger, needs, _)| {
                    let list = needs
                        .iter()
                        .map(|need| Candidate {
                            instance: replace(root, ptr, |v| remove(v, need)),
                            why: format!("{trigger} is present without {need}"),
                        })
                        .collect();
                    (trigger, list)
                })
                .collect()
        }
        Keyword::OneOf => {
            let branches = view.locs(schema.one_of.as_ref());
            single(matching_branches(g, branches, "matches no branch, or more than one", here, root, ptr))
        }
        Keyword::AnyOf => single(matching_branches(g, view.locs(schema.any_of.as_ref()), "matches no branch", here, root, ptr)),
        Keyword::Not => {
            let branches = schema.not.map(|id| view.loc_of(id)).into_iter().collect();
            single(matching_branches(g, branches, "matches the schema under not", here, root, ptr))
        }
        Keyword::MinContains | Keyword::MaxContains => {
            let (Some(items), Some(contains)) = (here.as_array(), schema.contains) else { return Ok(Vec::new()) };
            let contains = view.loc_of(contains);
            let matching: Vec<Value> = items.iter().filter(|item| g.schemas.is_valid(&contains, item)).cloned().collect();
            let limit = if keyword == Keyword::MinContains { schema.min_contains } else { schema.max_contains };
            let limit = limit.unwrap_or(0) as usize;
            let mut list = Vec::new();
            if keyword == Keyword::MinContains && limit >= 2 && !matching.is_empty() {
                let mut fewer: Vec<Value> = items.iter().filter(|item| !g.schemas.is_valid(&contains, item)).cloned().collect();
                fewer.extend(matching.iter().take(limit - 1).cloned());
                list.push(at(Value::Array(fewer), format!("{} items match contains (minContains {limit})", limit - 1)));
            }
            if keyword == Keyword::MaxContains
                && let Some(first) = matching.first()
            {
                let mut more = items.clone();
                while more.iter().filter(|item| g.schemas.is_valid(&contains, item)).count() <= limit {
                    more.push(first.clone());
                }
                list.push(at(Value::Array(more), format!("{} items match contains (maxContains {limit})", limit + 1)));
            }
            single(list)
        }
        Keyword::Contains => {
            let (Some(items), Some(contains)) = (here.as_array(), schema.contains) else { return Ok(Vec::new()) };
            let contains = view.loc_of(contains);
            let kept: Vec<Value> = items.iter().filter(|item| !g.schemas.is_valid(&contains, item)).cloned().collect();
            single(vec![at(Value::Array(kept), "no item matches contains".to_owned())])
        }
        Keyword::Schema
        | Keyword::Id
        | Keyword::LegacyId
        | Keyword::Anchor
        | Keyword::DynamicAnchor
        | Keyword::RecursiveAnchor
        | Keyword::Vocabulary
        | Keyword::Defs
        | Keyword::Definitions => return Err(Unviolable::NoAssertion),
        Keyword::Comment
        | Keyword::Format
        | Keyword::ContentEncoding
        | Keyword::ContentMediaType
        | Keyword::ContentSchema
        | Keyword::Title
        | Keyword::Description
        | Keyword::Default
        | Keyword::Deprecated
        | Keyword::ReadOnly
        | Keyword::WriteOnly
        | Keyword::Examples => return Err(Unviolable::Annotation),
        Keyword::Ref
        | Keyword::DynamicRef
        | Keyword::RecursiveRef
        | Keyword::AllOf
        | Keyword::DependentSchemas
        | Keyword::PrefixItems
        | Keyword::Properties
        | Keyword::PatternProperties => return Err(Unviolable::AppliesInPlace),
        Keyword::If | Keyword::Then | Keyword::Else => return Err(Unviolable::Conditional),
    })
}

/// Why the mutator has no candidates for a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unviolable {
    /// Identifiers and containers say nothing about instances.
    NoAssertion,
    /// Annotations (`format` too: synthesis reads it as the specification does, and the
    /// round-trip tests referee with formats unasserted) make no instance invalid.
    Annotation,
    /// It applies subschemas whose own keywords are what fails (`$ref`, `allOf`,
    /// `properties`, ...): those are mutated where the walk reaches them (a `false` property
    /// schema by [`mutants`] itself).
    AppliesInPlace,
    /// `if` only chooses between `then` and `else`, whose keywords are mutated where they apply.
    Conditional,
}

/// The bound an exclusive keyword sets itself (draft 6 on); draft 4's boolean sets none.
fn exclusive_bound(exclusive: &Option<Exclusive>) -> Option<&Number> {
    match exclusive {
        Some(Exclusive::Bound(n)) => Some(n),
        Some(Exclusive::Flag(_)) | None => None,
    }
}

/// Which side of a bound its violations lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Below,
    Above,
}

/// Numbers past `bound` (set by `keyword`); none without a numeric bound (draft 4's boolean
/// exclusive keywords are mutated through `minimum`/`maximum`).
fn out_of_bounds(keyword: Keyword, bound: Option<&Number>, side: Side, root: &Value, ptr: &str) -> Vec<Candidate> {
    let Some(bound) = bound.and_then(Number::as_f64) else { return Vec::new() };
    // The last candidate is far off: `bound ± 1` rounds back to the bound near 2^64.
    let values = match side {
        Side::Below => [bound - 1.0, bound, bound - 0.5, bound * 2.0 - 1.0],
        Side::Above => [bound + 1.0, bound, bound + 0.5, bound * 2.0 + 1.0],
    };
    let candidate = |v: f64| {
        let value = number(v)?;
        Some(Candidate { instance: replace(root, ptr, |_| value.clone()), why: format!("{v} is out of bounds ({keyword} {bound})") })
    };
    values.into_iter().filter_map(candidate).collect()
}

/// Values of every kind, then (tried first) values of the branches and, for an object, the
/// object with a branch's value merged in: for `oneOf`, `anyOf` and `not`, one of them matches
/// no branch, two, or the negated one.
fn matching_branches(g: &mut Gen<'_>, branches: Vec<Loc>, why: &str, here: &Value, root: &Value, ptr: &str) -> Vec<Candidate> {
    let mut values = probes();
    for branch in branches {
        for sample in g.values(&Conj::of(branch), 1).into_iter().take(3) {
            if let (Value::Object(a), Value::Object(b)) = (here, &sample.value) {
                let mut merged = a.clone();
                merged.extend(b.clone());
                values.insert(0, Value::Object(merged));
            }
            values.insert(0, sample.value);
        }
    }
    values.into_iter().map(|v| Candidate { instance: replace(root, ptr, |_| v.clone()), why: format!("{v} {why}") }).collect()
}

/// `minItems`: the array cut to one item fewer than allowed.
fn fewer_items(view: &View<'_>, here: &Value, root: &Value, ptr: &str) -> Vec<Candidate> {
    let Some(items) = here.as_array() else { return Vec::new() };
    let limit = view.schema.min_items.unwrap_or(0) as usize;
    match limit.checked_sub(1) {
        Some(n) if n < items.len() => vec![array(root, ptr, items[..n].to_vec(), format!("{n} items (minItems {limit})"))],
        _ => Vec::new(),
    }
}

/// `maxItems`: the array grown to one item more than allowed, by repeating its first item, and
/// by items that differ from every item there (for `maxItems` beside `uniqueItems`): values
/// the next item's schema allows, then variations of the first.
fn more_items(g: &mut Gen<'_>, view: &View<'_>, here: &Value, root: &Value, ptr: &str) -> Vec<Candidate> {
    let Some(items) = here.as_array() else { return Vec::new() };
    let limit = view.schema.max_items.unwrap_or(0) as usize;
    let fillers = fillers(g, view, items);
    let mut grown = items.clone();
    let mut list = Vec::new();
    if let Some(first) = items.first() {
        while grown.len() <= limit {
            grown.push(first.clone());
        }
        list.push(array(root, ptr, grown, format!("{} items (maxItems {limit})", limit + 1)));
        let mut distinct = items.clone();
        for filler in &fillers {
            if distinct.len() > limit {
                break;
            }
            if !distinct.iter().any(|d| json_eq(d, filler)) {
                distinct.push(filler.clone());
            }
        }
        if distinct.len() > limit {
            list.push(array(root, ptr, distinct, format!("{} distinct items (maxItems {limit})", limit + 1)));
        }
    }
    list
}

/// `uniqueItems: true`: the first item again, added or in place of the second
/// (`uniqueItems: false` allows anything).
fn duplicate_item(view: &View<'_>, here: &Value, root: &Value, ptr: &str) -> Vec<Candidate> {
    let (Some(items), Some(true)) = (here.as_array(), view.schema.unique_items) else { return Vec::new() };
    let Some(first) = items.first() else { return Vec::new() };
    let mut list = Vec::new();
    let mut dup = items.clone();
    dup.push(first.clone());
    list.push(array(root, ptr, dup, "the first item twice".to_owned()));
    if items.len() >= 2 {
        let mut swapped = items.clone();
        swapped[1] = first.clone();
        list.push(array(root, ptr, swapped, "the first item twice".to_owned()));
    }
    list
}

/// `items`, `additionalItems` or `unevaluatedItems` as `false` where the array ends: one item
/// more. (As a schema, such a keyword is violated where its own keywords are.)
fn item_past_allowed(view: &View<'_>, keyword: Keyword, here: &Value, root: &Value, ptr: &str) -> Vec<Candidate> {
    let Some(items) = here.as_array() else { return Vec::new() };
    match view.item(items.len()) {
        ItemRule::Forbidden(by) if by == keyword => {
            let mut grown = items.clone();
            grown.push(items.last().cloned().unwrap_or(Value::Null));
            let mut other = items.clone();
            other.push(Value::Null);
            vec![
                array(root, ptr, grown, format!("an item past the allowed ones ({keyword}: false)")),
                array(root, ptr, other, "an extra item".to_owned()),
            ]
        }
        ItemRule::Forbidden(_) | ItemRule::Any | ItemRule::Schema(_) => Vec::new(),
    }
}

/// `root` with the array at `ptr` replaced by `items`.
fn array(root: &Value, ptr: &str, items: Vec<Value>, why: String) -> Candidate {
    Candidate { instance: replace(root, ptr, |_| Value::Array(items.clone())), why }
}

/// Candidate extra items for an array: valid values of the schema for the next position, then
/// numbers counting up from the first item, or the first string with a suffix.
fn fillers(g: &mut Gen<'_>, view: &View<'_>, items: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    if let ItemRule::Schema(loc) = view.item(items.len()) {
        out.extend(g.values(&Conj::of(loc), 1).into_iter().map(|s| s.value));
    }
    let count = view.schema.max_items.unwrap_or(0).min(64) + 1;
    match items.first() {
        Some(Value::Number(n)) if n.as_i64().is_some() => {
            let start = n.as_i64().unwrap_or(0);
            out.extend((1..=count).filter_map(|k| start.checked_add(k as i64)).map(Value::from));
        }
        Some(Value::String(text)) => out.extend((1..=count).map(|k| Value::String(format!("{text}{k}")))),
        _ => {}
    }
    out
}

fn number(v: f64) -> Option<Value> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        return Some(Value::from(v as i64));
    }
    serde_json::Number::from_f64(v).map(Value::Number)
}

/// The `i`th extra property name in one of three styles: dashed, snake_case, short lowercase.
fn extra_name(style: usize, i: usize) -> String {
    let letters = |mut n: usize| {
        let mut out = String::new();
        loop {
            out.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
            if n == 0 {
                break out;
            }
        }
    };
    match style {
        0 => format!("x-synth-{i}"),
        1 => format!("zz_synth_{}", letters(i)),
        _ => format!("z{}", letters(i)),
    }
}

/// A copy of `root` with the value at `ptr` replaced by `f(old)`.
fn replace(root: &Value, ptr: &str, f: impl Fn(&Value) -> Value) -> Value {
    let mut copy = root.clone();
    if let Some(slot) = copy.pointer_mut(ptr) {
        let new = f(slot);
        *slot = new;
    }
    copy
}

fn insert(value: &Value, name: &str, item: Value) -> Value {
    let mut copy = value.clone();
    if let Value::Object(map) = &mut copy {
        map.insert(name.to_owned(), item);
    }
    copy
}

fn remove(value: &Value, name: &str) -> Value {
    let mut copy = value.clone();
    if let Value::Object(map) = &mut copy {
        map.shift_remove(name);
    }
    copy
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use schemac_model::resolve::Loc;
    use schemac_model::schema::Keyword;
    use serde_json::json;

    use super::candidates;
    use crate::rng::Rng;
    use crate::values::Gen;
    use crate::walk::Schemas;
    use crate::{ASSERTIONS, SynthConfig};

    /// The match in `candidates` decides every keyword, and [`ASSERTIONS`], the order the
    /// mutator tries them in, lists exactly those it has candidates for.
    #[test]
    fn the_mutator_decides_every_keyword_and_assertions_lists_the_violable_ones() {
        let front = crate::tests::front(json!({ "type": "object" }));
        let referee = crate::tests::referee(&front);
        let schemas = Schemas::new(&front, &referee);
        let config = SynthConfig::default();
        let mut generator = Gen { schemas: &schemas, cfg: &config, rng: Rng::new(config.seed), notes: BTreeSet::new() };
        let root = Loc { doc: front.registry.docs[0].id, pointer: String::new() };
        let view = schemas.view(&root).expect("an object schema");
        let instance = json!({});
        let violable: Vec<Keyword> = Keyword::ALL
            .into_iter()
            .filter(|keyword| candidates(&mut generator, &view, *keyword, &instance, &instance, "").is_ok())
            .collect();
        let listed: BTreeSet<Keyword> = ASSERTIONS.into_iter().collect();
        assert_eq!(listed.len(), ASSERTIONS.len(), "ASSERTIONS lists a keyword twice");
        assert_eq!(violable.into_iter().collect::<BTreeSet<_>>(), listed);
        assert!(!ASSERTIONS.contains(&Keyword::Format), "format is an annotation");
    }
}
