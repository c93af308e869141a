//! From an inclusion proof to the verdicts of the changes: each place where the proof fails is
//! shown by a witness (a candidate the validator confirms at that place, lifted to a whole
//! document along the path from the root and confirmed again there) or stays undecided; the
//! changes at that place get it. A role whose proof holds has every change compatible.

use serde_json::Value;

use super::inclusion::{Failure, Prover, Rule, Step};
use super::{Change, ChangeKind, Effect, Oracle, Place, Proof, Role, Side, Verdict};
use crate::Front;
use crate::resolve::Loc;

/// How many candidates are tried per failing place, and parent values per level of the path.
const CANDIDATES: usize = 24;
const PARENTS: usize = 2;

/// Proves `role` for the root pair and gives its verdicts to `changes` (adding a change for a
/// failing place none of them is at).
pub(super) fn decide(
    prover: &mut Prover<'_>,
    oracle: &dyn Oracle,
    old: &Front,
    new: &Front,
    (old_root, new_root): (&Loc, &Loc),
    role: Role,
    changes: &mut Vec<Change>,
) -> Proof {
    let i = if role == Role::Reader { 0 } else { 1 };
    let (left, right) = if role == Role::Reader { (Side::Old, Side::New) } else { (Side::New, Side::Old) };
    let (left_root, right_root) = if role == Role::Reader { (old_root, new_root) } else { (new_root, old_root) };
    let holds = prover.check(left, left_root, right_root);
    let rules: Vec<Rule> = prover.rules.clone();
    let lenient: Vec<Loc> = prover.lenient_at.clone();
    let mut failures: Vec<Failure> = std::mem::take(&mut prover.failures);
    // Nearest the root first: the first witness a change gets is the shortest.
    failures.sort_by_key(|f| f.path.len());
    let in_root = |c: &Change| {
        let on = |p: &Option<Place>, root: &Loc| p.as_ref().is_some_and(|p| p.doc == root.doc.0);
        on(&c.old, old_root) || on(&c.new, new_root)
    };
    if rules.contains(&Rule::LenientUndeclared) {
        for change in changes.iter_mut().filter(|c| in_root(c)) {
            let place = if left == Side::Old { &change.old } else { &change.new };
            let at_open = place.as_ref().is_some_and(|p| lenient.iter().any(|l| l.doc.0 == p.doc && p.pointer.starts_with(&l.pointer)));
            if at_open && matches!(change.kind, ChangeKind::PropertyAddedOpen | ChangeKind::PropertyRemovedOpen) {
                change.lenient[i] = true;
            }
        }
    }
    let (mut witnessed, mut undecided) = (0, 0);
    let mut index = Index::of(changes);
    for failure in &failures {
        let witness = show(oracle, failure, left, right, left_root, right_root);
        let mut places: Vec<(Side, Loc)> = Vec::new();
        places.extend(failure.at_left.clone().map(|l| (left, l)));
        places.extend(failure.at_right.clone().map(|l| (right, l)));
        if let Some(doc) = &witness {
            places.extend(oracle.rejections(right, right_root, doc).into_iter().map(|l| (right, l)));
        }
        if places.is_empty() {
            places.push((right, failure.right.first().cloned().unwrap_or_else(|| right_root.clone())));
        }
        let verdict = match &witness {
            Some(_) => Verdict::Breaking,
            None => Verdict::Unknown(if failure.reason.is_empty() {
                format!("{}: no document was found that one version accepts and the other rejects here", failure.detail)
            } else {
                failure.reason.clone()
            }),
        };
        if witness.is_some() {
            witnessed += 1;
        } else {
            undecided += 1;
        }
        let mut hit = attribute(&index, &places);
        // Else the changes of the property or item it is inside, innermost first.
        for (at_left, at_right) in failure.origins.iter().rev() {
            if !hit.is_empty() {
                break;
            }
            let mut places = Vec::new();
            places.extend(at_left.clone().map(|l| (left, l)));
            places.extend(at_right.clone().map(|l| (right, l)));
            hit = attribute(&index, &places);
        }
        if hit.is_empty() {
            let place = |side: Side, loc: &Option<Loc>| {
                let front = if side == Side::Old { old } else { new };
                loc.as_ref().map(|l| Place { file: front.registry.doc(l.doc).display.clone(), pointer: l.pointer.clone(), doc: l.doc.0 })
            };
            let (at_old, at_new) =
                if left == Side::Old { (&failure.at_left, &failure.at_right) } else { (&failure.at_right, &failure.at_left) };
            let (mut po, mut pn) = (place(Side::Old, at_old), place(Side::New, at_new));
            if po.is_none() && pn.is_none() {
                let right_loc = failure.right.first().cloned();
                if right == Side::New { pn = place(Side::New, &right_loc) } else { po = place(Side::Old, &right_loc) }
            }
            changes.push(Change::new(failure.kind, po, pn, Effect::Changes, failure.detail.clone()));
            index.add(changes.len() - 1, &changes[changes.len() - 1]);
            hit.push(changes.len() - 1);
        }
        for index in hit {
            let change = &mut changes[index];
            match (&change.verdicts[i], &verdict) {
                (Verdict::Breaking, _) => {}
                (_, Verdict::Breaking) => {
                    change.verdicts[i] = Verdict::Breaking;
                    change.witnesses[i] = witness.clone();
                }
                (Verdict::Unknown(_), _) => {}
                (Verdict::Compatible, unknown) => change.verdicts[i] = unknown.clone(),
            }
        }
    }
    let holds = holds && failures.is_empty();
    Proof { role, holds, rules, witnessed, undecided }
}

/// The changes at the given places: for each place, the changes whose place on that side is
/// the place or its nearest enclosing one; failing that, those inside it. Looked up in an index
/// by side, document and pointer (a diff may list tens of thousands of changes).
fn attribute(index: &Index, places: &[(Side, Loc)]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (side, loc) in places {
        let map = &index.by_side[if *side == Side::Old { 0 } else { 1 }];
        let doc = loc.doc.0;
        // The place itself, then each enclosing pointer.
        let mut pointer = loc.pointer.as_str();
        let mut found = None;
        loop {
            if let Some(hits) = map.get(&(doc, pointer.to_owned())) {
                found = Some(hits);
                break;
            }
            match pointer.rfind('/') {
                Some(i) => pointer = &pointer[..i],
                None => break,
            }
        }
        let hits: Vec<usize> = match found {
            Some(hits) => hits.clone(),
            None => {
                let prefix = format!("{}/", loc.pointer);
                map.range((doc, loc.pointer.clone())..)
                    .take_while(|((d, p), _)| *d == doc && (*p == loc.pointer || p.starts_with(&prefix)))
                    .flat_map(|(_, v)| v.iter().copied())
                    .collect()
            }
        };
        for hit in hits {
            if seen.insert(hit) {
                out.push(hit);
            }
        }
    }
    out
}

/// The decisive changes by side, then document and pointer.
struct Index {
    by_side: [std::collections::BTreeMap<(usize, String), Vec<usize>>; 2],
}

impl Index {
    fn of(changes: &[Change]) -> Index {
        let mut index = Index { by_side: Default::default() };
        for (i, change) in changes.iter().enumerate() {
            index.add(i, change);
        }
        index
    }

    fn add(&mut self, i: usize, change: &Change) {
        if !decides(change.kind) {
            return;
        }
        for (side, place) in [(0, &change.old), (1, &change.new)] {
            if let Some(place) = place {
                self.by_side[side].entry((place.doc, place.pointer.clone())).or_default().push(i);
            }
        }
    }
}

/// Whether a change of this kind can be what makes an inclusion fail: annotations,
/// identifiers and definitions as such cannot (what uses a definition is compared where it is
/// used).
fn decides(kind: ChangeKind) -> bool {
    !matches!(
        kind,
        ChangeKind::AnnotationChanged
            | ChangeKind::DefaultChanged
            | ChangeKind::IdentifierChanged
            | ChangeKind::DefinitionAdded
            | ChangeKind::DefinitionRemoved
            | ChangeKind::DefinitionRenamed
            | ChangeKind::SchemaAdded
            | ChangeKind::SchemaRemoved
    )
}

/// A whole document the left root accepts and the right root rejects, made from the failure's
/// candidates (or samples of its left side) and the path down to its place.
fn show(oracle: &dyn Oracle, failure: &Failure, left: Side, right: Side, left_root: &Loc, right_root: &Loc) -> Option<Value> {
    // No validator, nothing confirmed.
    oracle.valid(left, left_root, &Value::Null)?;
    let all = |side: Side, locs: &[Loc], value: &Value| locs.iter().all(|l| oracle.valid(side, l, value) == Some(true));
    let mut candidates: Vec<Value> = failure.candidates.clone();
    let mut tried = 0;
    let mut sampled = false;
    let mut index = 0;
    loop {
        if index >= candidates.len() {
            if sampled {
                return None;
            }
            sampled = true;
            candidates.extend(oracle.samples(left, &failure.left, CANDIDATES));
            if index >= candidates.len() {
                return None;
            }
        }
        let value = candidates[index].clone();
        index += 1;
        if candidates[..index - 1].contains(&value) {
            continue;
        }
        tried += 1;
        if tried > CANDIDATES * 2 {
            return None;
        }
        if !all(left, &failure.left, &value) {
            continue;
        }
        if !failure.right.is_empty() && all(right, &failure.right, &value) {
            continue;
        }
        for document in lift(oracle, left, &failure.path, value) {
            if oracle.valid(left, left_root, &document) == Some(true) && oracle.valid(right, right_root, &document) == Some(false) {
                return Some(document);
            }
        }
    }
}

/// Documents that carry `value` at the end of `path`: at each level up, a value of that
/// level's left schemas with the slot filled (several tried), or the bare container.
fn lift(oracle: &dyn Oracle, left: Side, path: &[(Vec<Loc>, Step)], value: Value) -> Vec<Value> {
    let mut current = vec![value];
    for (locs, step) in path.iter().rev() {
        // Minimal objects suffice around a property; an item needs arrays long enough, which
        // the varied samples have.
        let wanted = if matches!(step, Step::Index(i) if *i > 0) { PARENTS * 3 } else { PARENTS };
        let mut parents = oracle.samples(left, locs, wanted);
        parents.push(match step {
            Step::Key(_) => Value::Object(serde_json::Map::new()),
            Step::Index(_) => Value::Array(Vec::new()),
        });
        let mut next = Vec::new();
        for inner in &current {
            let mut placed: Vec<Value> = parents.iter().filter_map(|p| place(p, step, inner)).collect();
            let valid: Vec<Value> =
                placed.iter().filter(|v| locs.iter().all(|l| oracle.valid(left, l, v) == Some(true))).cloned().collect();
            if !valid.is_empty() {
                next.extend(valid.into_iter().take(2));
            } else if let Some(first) = placed.drain(..).next() {
                next.push(first);
            }
        }
        next.dedup();
        next.truncate(4);
        current = next;
        if current.is_empty() {
            break;
        }
    }
    current
}

fn place(parent: &Value, step: &Step, inner: &Value) -> Option<Value> {
    match (parent, step) {
        (Value::Object(map), Step::Key(key)) => {
            let mut map = map.clone();
            map.insert(key.clone(), inner.clone());
            Some(Value::Object(map))
        }
        (Value::Array(items), Step::Index(i)) => {
            let mut items = items.clone();
            if *i < items.len() {
                items[*i] = inner.clone();
            } else if *i == items.len() {
                items.push(inner.clone());
            } else {
                return None;
            }
            Some(Value::Array(items))
        }
        _ => None,
    }
}
