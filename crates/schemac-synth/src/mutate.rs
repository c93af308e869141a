//! Invalid mutants: a valid instance with one value changed so that exactly one keyword fails
//! at one pointer. For each schema object the checker applies to a valid instance, each
//! assertion keyword gets candidate replacements; the first whose failures are exactly that
//! keyword at that place is kept, once per keyword location (and per property for `required`).
//!
//! Keywords inside `contains` and `propertyNames` never fail alone — a validator reports only
//! the keyword around them — so their mutants break one item or property name and are
//! labelled with the outer keyword, the inner one kept in [`Mutant::via`].

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::check::Failure;
use super::schema::{ItemRule, View, json_eq};
use super::strings;
use super::values::{Conj, Gen};
use super::{Mutant, Sample};
use schemac::resolve::Loc;

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
        for (ptr, loc) in g.check.visits(root, &sample.value) {
            let Some(schema) = g.check.reg.get(&loc) else { continue };
            let view = View { reg: g.check.reg, loc: &loc, value: schema };
            let Some(here) = sample.value.pointer(&ptr) else { continue };
            for keyword in super::ASSERTIONS {
                if view.get(keyword).is_none() || covered(&done, &view, keyword) {
                    continue;
                }
                for (detail, candidates) in candidates(g, &view, keyword, here, &sample.value, &ptr) {
                    let key = (loc.child(keyword), detail);
                    if done.contains(&key) {
                        continue;
                    }
                    for candidate in candidates {
                        let failures = g.check.failures(root, &candidate.instance);
                        if isolated(&failures, keyword, &key.0)
                            && let Some(first) = failures.first()
                        {
                            out.push(Mutant {
                                pointer: first.pointer.clone(),
                                keyword: (*keyword).to_owned(),
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
            for (name, value) in view.get("properties").and_then(Value::as_object).into_iter().flatten() {
                let key = (loc.child("properties").child(name), "false".to_owned());
                if value != &Value::Bool(false) || done.contains(&key) || !here.is_object() {
                    continue;
                }
                let instance = replace(&sample.value, &ptr, |v| insert(v, name, Value::Null));
                if let [Failure { pointer, keyword, schema }] = g.check.failures(root, &instance).as_slice()
                    && keyword == "false"
                    && *schema == key.0
                {
                    let why = format!("property {name} has the schema false: it must be absent");
                    out.push(Mutant {
                        pointer: pointer.clone(),
                        keyword: "false".to_owned(),
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
    for outer in ["contains", "propertyNames"] {
        let inner_loc = view.loc.child(outer);
        let Some(inner) = g.check.reg.get(&inner_loc).filter(|v| v.is_object()) else { continue };
        let inner_view = View { reg: g.check.reg, loc: &inner_loc, value: inner };
        // What is changed: the items that match `contains`, or the property names.
        let parts: Vec<(usize, Value)> = match (outer, here) {
            ("contains", Value::Array(items)) => {
                items.iter().cloned().enumerate().filter(|(_, item)| g.check.is_valid(&inner_loc, item)).collect()
            }
            ("propertyNames", Value::Object(map)) => map.keys().map(|k| Value::String(k.clone())).enumerate().collect(),
            _ => continue,
        };
        for keyword in super::ASSERTIONS {
            let target = inner_loc.child(keyword);
            let key = (target.clone(), "via".to_owned());
            if inner_view.get(keyword).is_none() || done.contains(&key) {
                continue;
            }
            'parts: for (index, part) in &parts {
                for (_, list) in candidates(g, &inner_view, keyword, part, part, "") {
                    for candidate in list {
                        // The changed part must violate the inner keyword and nothing else.
                        let inner_failures = g.check.failures(&inner_loc, &candidate.instance);
                        if inner_failures.is_empty() || inner_failures.iter().any(|f| f.keyword != keyword || f.schema != target) {
                            continue;
                        }
                        let Some(changed) = rebuild(here, *index, &candidate.instance) else { continue };
                        let whole = replace(instance, ptr, |_| changed.clone());
                        let failures = g.check.failures(root, &whole);
                        let Some(first) = failures.first() else { continue };
                        let outer_keywords: &[&str] = if outer == "contains" { &["contains", "minContains"] } else { &["propertyNames"] };
                        let at = view.loc.child(&first.keyword);
                        if outer_keywords.contains(&first.keyword.as_str()) && isolated(&failures, &first.keyword, &at) {
                            out.push(Mutant {
                                pointer: first.pointer.clone(),
                                keyword: first.keyword.clone(),
                                schema_path: at.pointer.clone(),
                                via: Some(target.pointer.clone()),
                                why: format!("{} ({keyword} inside {outer}), so {} fails", candidate.why, first.keyword),
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
fn isolated(failures: &[Failure], keyword: &str, target: &Loc) -> bool {
    let Some(first) = failures.first() else { return false };
    failures.iter().all(|f| f.keyword == keyword && f.pointer == first.pointer) && failures.iter().any(|f| f.schema == *target)
}

/// Whether every mutant `keyword` of `view` can stand for is already kept, so that no
/// candidates need to be built (building them clones the instance many times).
fn covered(done: &BTreeSet<(Loc, String)>, view: &View<'_>, keyword: &str) -> bool {
    let at = view.loc.child(keyword);
    match keyword {
        "required" => view
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .all(|name| done.contains(&(at.clone(), name.to_owned()))),
        "dependentRequired" | "dependencies" => view
            .dependent_required()
            .iter()
            .filter(|(_, _, kw)| kw == &keyword)
            .all(|(trigger, _, _)| done.contains(&(at.clone(), trigger.clone()))),
        _ => done.contains(&(at, String::new())),
    }
}

/// Candidate mutants for `keyword` of `view` at `ptr`, grouped by detail (e.g. the required
/// property removed); each group counts as covered once one candidate is kept.
fn candidates(g: &mut Gen<'_>, view: &View<'_>, keyword: &str, here: &Value, root: &Value, ptr: &str) -> Vec<(String, Vec<Candidate>)> {
    let at = |value: Value, why: String| Candidate { instance: replace(root, ptr, |_| value.clone()), why };
    let single = |list: Vec<Candidate>| vec![(String::new(), list)];
    match keyword {
        "type" => {
            let list = probes().into_iter().map(|p| at(p.clone(), format!("{p} is not of the declared type"))).collect();
            single(list)
        }
        "enum" | "const" => {
            let mut values = probes();
            if let Value::String(s) = here {
                values.insert(0, Value::String(format!("{s}-not")));
            }
            if let Some(n) = here.as_f64() {
                values.insert(0, Value::from(n + 1.0));
            }
            single(values.into_iter().map(|p| at(p.clone(), format!("{p} is not allowed by {keyword}"))).collect())
        }
        "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" => {
            let Some(bound) = view.f64(keyword).or_else(|| view.f64(keyword.replace("exclusive", "").to_lowercase().as_str())) else {
                // Draft 4: the boolean exclusive keywords are mutated through minimum/maximum.
                return Vec::new();
            };
            let down = keyword.ends_with("inimum");
            // The last candidate is far off: `bound ± 1` rounds back to the bound near 2^64.
            let values = if down {
                [bound - 1.0, bound, bound - 0.5, bound * 2.0 - 1.0]
            } else {
                [bound + 1.0, bound, bound + 0.5, bound * 2.0 + 1.0]
            };
            let list =
                values.into_iter().filter_map(|v| number(v).map(|n| at(n, format!("{v} is out of bounds ({keyword} {bound})")))).collect();
            single(list)
        }
        "multipleOf" => {
            let step = view.f64(keyword).unwrap_or(1.0);
            let list = [here.as_f64().unwrap_or(0.0) + step / 2.0, step / 2.0, step * 1.5]
                .into_iter()
                .filter_map(|v| number(v).map(|n| at(n, format!("{v} is not a multiple of {step}"))))
                .collect();
            single(list)
        }
        "minLength" | "maxLength" => {
            let Some(text) = here.as_str() else { return Vec::new() };
            let limit = view.u64(keyword).unwrap_or(0) as usize;
            let length = if keyword == "minLength" { limit.checked_sub(1) } else { Some(limit + 1) };
            let Some(length) = length else { return Vec::new() };
            let mut list =
                vec![at(Value::String(text.chars().cycle().take(length).collect()), format!("{length} characters ({keyword} {limit})"))];
            for unit in strings::UNITS {
                list.push(at(Value::String(strings::of_length(length, unit)), format!("{length} characters ({keyword} {limit})")));
            }
            single(list)
        }
        "pattern" => {
            let text = here.as_str().unwrap_or_default();
            let pattern = view.get(keyword).and_then(Value::as_str).unwrap_or_default();
            let mut chopped: String = text.chars().collect();
            chopped.pop();
            let mut texts =
                vec!["".to_owned(), "!".to_owned(), format!("{text}!"), format!("!{text}"), format!("{chopped}!"), format!(" {text}")];
            // Plain words, for a pattern beside a stricter one (`^a` with `^[a-z]+$`).
            texts.extend(["b", "zz", "A", "Z9", "0", "a_b", "aaaa"].map(str::to_owned));
            let list = texts.into_iter().map(|s| at(Value::String(s.clone()), format!("{s:?} does not match {pattern}"))).collect();
            single(list)
        }
        "required" => {
            let Some(map) = here.as_object() else { return Vec::new() };
            let names = view.get(keyword).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
            names
                .filter(|name| map.contains_key(*name))
                .map(|name| {
                    let instance = replace(root, ptr, |v| remove(v, name));
                    (name.to_owned(), vec![Candidate { instance, why: format!("required property {name} is missing") }])
                })
                .collect()
        }
        "additionalProperties" | "unevaluatedProperties" if view.get(keyword) == Some(&Value::Bool(false)) => {
            let instance = replace(root, ptr, |v| insert(v, "zz_synth_unknown", Value::from(1)));
            single(vec![Candidate { instance, why: "zz_synth_unknown is not a declared property".to_owned() }])
        }
        "propertyNames" => {
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
        "minItems" | "maxItems" | "uniqueItems" | "items" | "additionalItems" | "unevaluatedItems" => {
            array_candidates(g, view, keyword, here, root, ptr)
        }
        "minProperties" | "maxProperties" => {
            let Some(map) = here.as_object() else { return Vec::new() };
            let limit = view.u64(keyword).unwrap_or(0) as usize;
            let list = if keyword == "minProperties" {
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
        "dependentRequired" | "dependencies" => {
            let Some(map) = here.as_object() else { return Vec::new() };
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
        "oneOf" | "anyOf" | "not" => {
            let mut values = probes();
            let branches = if keyword == "not" { vec![view.loc.child("not")] } else { view.list(keyword) };
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
            let why = match keyword {
                "oneOf" => "matches no branch, or more than one",
                "anyOf" => "matches no branch",
                _ => "matches the schema under not",
            };
            single(values.into_iter().map(|v| at(v.clone(), format!("{v} {why}"))).collect())
        }
        "minContains" | "maxContains" => {
            let Some(items) = here.as_array() else { return Vec::new() };
            let contains = view.loc.child("contains");
            let matching: Vec<Value> = items.iter().filter(|item| g.check.is_valid(&contains, item)).cloned().collect();
            let limit = view.u64(keyword).unwrap_or(0) as usize;
            let mut list = Vec::new();
            if keyword == "minContains" && limit >= 2 && !matching.is_empty() {
                let mut fewer: Vec<Value> = items.iter().filter(|item| !g.check.is_valid(&contains, item)).cloned().collect();
                fewer.extend(matching.iter().take(limit - 1).cloned());
                list.push(at(Value::Array(fewer), format!("{} items match contains (minContains {limit})", limit - 1)));
            }
            if keyword == "maxContains"
                && let Some(first) = matching.first()
            {
                let mut more = items.clone();
                while more.iter().filter(|item| g.check.is_valid(&contains, item)).count() <= limit {
                    more.push(first.clone());
                }
                list.push(at(Value::Array(more), format!("{} items match contains (maxContains {limit})", limit + 1)));
            }
            single(list)
        }
        "contains" => {
            let Some(items) = here.as_array() else { return Vec::new() };
            let contains = view.loc.child("contains");
            let kept: Vec<Value> = items.iter().filter(|item| !g.check.is_valid(&contains, item)).cloned().collect();
            single(vec![at(Value::Array(kept), "no item matches contains".to_owned())])
        }
        _ => Vec::new(),
    }
}

fn array_candidates(
    g: &mut Gen<'_>,
    view: &View<'_>,
    keyword: &str,
    here: &Value,
    root: &Value,
    ptr: &str,
) -> Vec<(String, Vec<Candidate>)> {
    let Some(items) = here.as_array() else { return Vec::new() };
    // Items to grow the array with that differ from every item there (for `maxItems` beside
    // `uniqueItems`): values the next item's schema allows, then variations of the first.
    let fillers = if keyword == "maxItems" { fillers(g, view, items) } else { Vec::new() };
    let with = |items: Vec<Value>, why: String| Candidate { instance: replace(root, ptr, |_| Value::Array(items.clone())), why };
    let limit = view.u64(keyword).unwrap_or(0) as usize;
    let list = match keyword {
        "minItems" => match limit.checked_sub(1) {
            Some(n) if n < items.len() => vec![with(items[..n].to_vec(), format!("{n} items (minItems {limit})"))],
            _ => Vec::new(),
        },
        "maxItems" => {
            let mut grown = items.clone();
            let mut list = Vec::new();
            if let Some(first) = items.first() {
                while grown.len() <= limit {
                    grown.push(first.clone());
                }
                list.push(with(grown, format!("{} items (maxItems {limit})", limit + 1)));
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
                    list.push(with(distinct, format!("{} distinct items (maxItems {limit})", limit + 1)));
                }
            }
            list
        }
        "uniqueItems" if view.get(keyword) == Some(&Value::Bool(true)) => match items.first() {
            Some(first) => {
                let mut list = Vec::new();
                let mut dup = items.clone();
                dup.push(first.clone());
                list.push(with(dup, "the first item twice".to_owned()));
                if items.len() >= 2 {
                    let mut swapped = items.clone();
                    swapped[1] = first.clone();
                    list.push(with(swapped, "the first item twice".to_owned()));
                }
                list
            }
            None => Vec::new(),
        },
        "items" | "additionalItems" | "unevaluatedItems" => match view.item(items.len()) {
            ItemRule::Forbidden(kw) if kw == keyword => {
                let mut grown = items.clone();
                grown.push(items.last().cloned().unwrap_or(Value::Null));
                let mut other = items.clone();
                other.push(Value::Null);
                vec![with(grown, format!("an item past the allowed ones ({keyword}: false)")), with(other, "an extra item".to_owned())]
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    vec![(String::new(), list)]
}

/// Candidate extra items for an array: valid values of the schema for the next position, then
/// numbers counting up from the first item, or the first string with a suffix.
fn fillers(g: &mut Gen<'_>, view: &View<'_>, items: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    if let ItemRule::Schema(loc) = view.item(items.len()) {
        out.extend(g.values(&Conj::of(loc), 1).into_iter().map(|s| s.value));
    }
    let count = view.u64("maxItems").unwrap_or(0).min(64) + 1;
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
