//! `oneOf`/`anyOf`: an enum with a variant per branch, told apart by JSON kind when the
//! branches take disjoint kinds, by a tag property when they are objects with disjoint
//! `const`/`enum` values of a required property, and otherwise by trying the branches.

use serde_json::Value;

use super::keywords::View;
use super::{Ctx, Lowered, Lowerer, nullable};
use crate::ir::{DefKind, Kind, Union, UnionMode, Variant};
use crate::resolve::Loc;
use crate::schema::{Keyword, KindSet, defs_key, kind_hint};

impl<'r> Lowerer<'r> {
    /// A view whose only constraining keywords are one `oneOf`/`anyOf` (and a `type` that
    /// every branch already satisfies; see `needs_check`).
    pub(super) fn union(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let found = view.parts.iter().find_map(|p| match (p.has(Keyword::OneOf), p.has(Keyword::AnyOf)) {
            (true, _) => Some((true, p.one_of())),
            (false, true) => Some((false, p.any_of())),
            (false, false) => None,
        });
        let Some((exactly_one, branches)) = found else {
            return self.by_kinds(view, ctx);
        };
        let mut loose = Vec::new();
        loose.extend(view.present(&[Keyword::UnevaluatedProperties]));
        if let [only] = branches.as_slice() {
            return self.lower_at(only, ctx.inner()).with_loose(loose);
        }
        let kinds: Vec<KindSet> = branches.iter().map(|b| self.kinds_of(b)).collect();
        if let Some(other) = nullable_other(&kinds, exactly_one) {
            return self.lower_at(&branches[other], ctx.inner()).map(nullable).with_loose(loose);
        }
        let id = self.begin_def(view, &mut ctx);
        let mut variants = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let lowered = self.lower_at(branch, Ctx::child(id, format!("Variant{i}")));
            loose.extend(lowered.loose);
            let hint = self.variant_hint(branch).unwrap_or_else(|| kind_or_index(kinds[i], i));
            variants.push(Variant { name: String::new(), hint, ty: lowered.ty, tags: Vec::new() });
        }
        let mode = if disjoint(&kinds) {
            UnionMode::ByKind
        } else if let Some((tag, tags)) = self.find_tag(&branches, &kinds) {
            for ((variant, values), branch) in variants.iter_mut().zip(tags).zip(&branches) {
                // Without a title or key, a single string tag names the variant best.
                if let ([Value::String(value)], None) = (values.as_slice(), self.variant_hint(branch)) {
                    variant.hint = value.clone();
                }
                variant.tags = values;
            }
            UnionMode::Tagged { tag }
        } else if exactly_one {
            UnionMode::ExactlyOne
        } else {
            UnionMode::FirstMatch
        };
        self.finish_def(id, DefKind::Union(Union { variants, mode }), &loose)
    }

    /// The kinds the schema at `loc` may accept (all kinds when unknown). Memoized; a
    /// schema whose kinds depend on themselves (`anyOf: [{"$ref": "#"}, ...]`) may be anything.
    pub(super) fn kinds_of(&mut self, loc: &Loc) -> KindSet {
        let key = (loc.clone(), self.bindings_at(loc));
        if let Some(done) = self.kinds.get(&key) {
            return *done;
        }
        self.kinds.insert(key.clone(), KindSet::ALL);
        let kinds = self.compute_kinds(loc);
        self.kinds.insert(key, kinds);
        kinds
    }

    fn compute_kinds(&mut self, loc: &Loc) -> KindSet {
        // Past the depth limit nothing is known; lowering the same chain reports it.
        if self.frames.len() >= super::MAX_DEPTH {
            return KindSet::ALL;
        }
        let flat = self.flatten(std::slice::from_ref(loc));
        if flat.broken {
            return KindSet::ALL;
        }
        if flat.never {
            return KindSet::EMPTY;
        }
        let mut kinds = KindSet::ALL;
        // The branches below see the bindings of their parts.
        self.frames.push(flat.parts.iter().map(|p| p.loc.clone()).zip(flat.bindings.iter().cloned()).collect());
        for part in &flat.parts {
            if let Some(declared) = part.declared_kinds() {
                kinds = kinds.intersect(declared);
            }
            if let Some(values) = part.allowed_values() {
                kinds = kinds.intersect(values.iter().map(KindSet::of_value).fold(KindSet::EMPTY, KindSet::union));
            }
            for (present, branches) in [(part.has(Keyword::OneOf), part.one_of()), (part.has(Keyword::AnyOf), part.any_of())] {
                if present {
                    let any = branches.iter().map(|b| self.kinds_of(b)).fold(KindSet::EMPTY, KindSet::union);
                    kinds = kinds.intersect(any);
                }
            }
        }
        self.frames.pop();
        kinds
    }

    /// The branch's title, else the `$defs` key it refers to.
    fn variant_hint(&self, branch: &Loc) -> Option<String> {
        let schema = self.model.schema_at(branch)?;
        if let Some(title) = &schema.title {
            return Some(title.clone());
        }
        let target = schema.ref_.as_ref()?.target().ok()?;
        defs_key(&target.loc.pointer)
    }

    /// A property every branch requires and gives disjoint `const`/`enum` values: the first
    /// such property of the first branch, with each branch's values.
    fn find_tag(&mut self, branches: &[Loc], kinds: &[KindSet]) -> Option<(String, Vec<Vec<Value>>)> {
        if kinds.iter().any(|k| *k != KindSet::of(Kind::Object)) {
            return None;
        }
        let views: Vec<View<'r>> = branches
            .iter()
            .map(|b| {
                let flat = self.flatten(std::slice::from_ref(b));
                self.view(&flat, std::slice::from_ref(b))
            })
            .collect();
        let candidates: Vec<String> = views.first()?.properties().into_iter().map(|(name, _)| name).collect();
        'candidates: for name in candidates {
            let mut all: Vec<Vec<Value>> = Vec::new();
            for view in &views {
                if !view.required().contains(&name) {
                    continue 'candidates;
                }
                let Some((_, locs)) = view.properties().into_iter().find(|(n, _)| *n == name) else { continue 'candidates };
                let Some(values) = self.tag_values(&locs) else { continue 'candidates };
                if all.iter().flatten().any(|seen| values.contains(seen)) {
                    continue 'candidates;
                }
                all.push(values);
            }
            return Some((name, all));
        }
        None
    }

    /// The values a tag property's schemas allow, when they list them.
    fn tag_values(&mut self, locs: &[Loc]) -> Option<Vec<Value>> {
        let flat = self.flatten(locs);
        let mut values: Option<Vec<Value>> = None;
        for part in &flat.parts {
            if let Some(allowed) = part.allowed_values() {
                values = Some(match values {
                    Some(previous) => previous.into_iter().filter(|v| allowed.contains(v)).collect(),
                    None => allowed,
                });
            }
        }
        values.filter(|v| !v.is_empty())
    }
}

/// For `[null, X]` (either order): the index of `X`, when `Option<X>` means the same. Under
/// `oneOf` it does only when `X` rejects `null` (else `null` would match both).
fn nullable_other(kinds: &[KindSet], exactly_one: bool) -> Option<usize> {
    let [a, b] = kinds else { return None };
    let null = KindSet::of(Kind::Null);
    let other = match (*a == null, *b == null) {
        (true, false) => 1,
        (false, true) => 0,
        _ => return None,
    };
    (!exactly_one || !kinds[other].contains(Kind::Null)).then_some(other)
}

/// The kind of a branch that takes one, else `Variant{index}`.
fn kind_or_index(kinds: KindSet, index: usize) -> String {
    match kinds.single() {
        Some(kind) => kind_hint(kind).to_owned(),
        None => format!("Variant{index}"),
    }
}

/// Whether no two branches accept the same kind (integers count as numbers).
fn disjoint(kinds: &[KindSet]) -> bool {
    kinds.iter().enumerate().all(|(i, a)| kinds.iter().skip(i + 1).all(|b| !a.overlaps(*b)))
}
