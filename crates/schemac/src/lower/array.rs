//! Arrays: `items` (one schema) is a `Vec`; a tuple (`prefixItems`, or array-form `items`
//! before 2020-12) whose leading items are all present is a tuple struct, other tuples are
//! checked item by item.

use super::keywords::{Part, View};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{Assertion, Check, DefId, DefKind, Kind, Subject, TupleShape, Ty};
use crate::resolve::Loc;
use crate::schema::Keyword;

/// An array keyword layout, per draft.
pub(super) struct Tuple {
    pub prefix: Vec<Loc>,
    /// The schema of the items after the prefix; `None`: anything.
    pub rest: Option<Loc>,
}

/// The tuple form of a part, if it has one: 2020-12 `prefixItems` + `items`, or before that
/// array-form `items` + `additionalItems`.
pub(super) fn tuple(part: &Part<'_>) -> Option<Tuple> {
    let tuple = part.schema.tuple(part.draft)?;
    let at = part.at(tuple.prefix_keyword);
    let prefix = (0..tuple.prefix.len()).map(|i| at.child(&i.to_string())).collect();
    Some(Tuple { prefix, rest: tuple.rest.map(|_| part.at(tuple.rest_keyword)) })
}

/// The schema for every item of a part without a tuple form.
fn items(part: &Part<'_>) -> Option<Loc> {
    part.schema.items_schema().map(|_| part.at(Keyword::Items))
}

impl<'r> Lowerer<'r> {
    pub(super) fn array(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let mut loose = Vec::new();
        if let Some(tuple) = view.parts.iter().find_map(tuple) {
            // A view merged from several parts with a tuple is checked as a whole (see
            // `needs_check`), so this is the only part with array keywords.
            let id = self.begin_def(view, &mut ctx);
            let tuple = self.tuple_unevaluated(view, tuple, &mut loose);
            if let Some(shape) = self.tuple_shape(view, id, &tuple, &mut loose) {
                return self.finish_def(id, DefKind::Tuple(shape), &loose);
            }
            let mut checks = vec![Check::Kinds(vec![Kind::Array]), self.tuple_check(id, &tuple, &mut loose)];
            let assertions = self.view_assertions(view, Subject::Array, &|step| Ctx::child(id, step), &mut loose);
            checks.extend(assertions.into_iter().map(Check::Assert));
            return self.finish_def(id, DefKind::Checked(Check::AllOf(checks)), &loose);
        }
        let mut locs: Vec<Loc> = view.parts.iter().filter_map(items).collect();
        if let Some(unevaluated) = self.unevaluated_items(view, &mut loose)
            && locs.is_empty()
        {
            locs.push(unevaluated);
        }
        let array = if locs.is_empty() {
            Lowered::new(Ty::Array(Box::new(Ty::Any)))
        } else {
            self.lower_items(&locs, ctx.nested("Item")).map(|t| Ty::Array(Box::new(t)))
        };
        let assertions = self.view_assertions(view, Subject::Array, &|step| ctx.nested(step), &mut loose);
        array.map(|t| Ty::constrained(t, assertions)).with_loose(loose)
    }

    /// `unevaluatedItems` of a view without a tuple: every item is evaluated by an `items` of
    /// some part (then it has no effect, `None`), or by nothing, when it means `items` (its
    /// location). Beside `contains`, which evaluates the items it matches, it stays unenforced.
    fn unevaluated_items(&mut self, view: &View<'r>, loose: &mut Vec<Loc>) -> Option<Loc> {
        let part = view.with(Keyword::UnevaluatedItems).next()?;
        let allows_all = part.schema.unevaluated_items.is_some_and(|id| self.model.node(id).boolean() == Some(true));
        if view.parts.iter().any(|p| items(p).is_some()) || allows_all {
            return None;
        }
        if view.has(Keyword::Contains) || view.with(Keyword::UnevaluatedItems).count() > 1 {
            loose.extend(view.present(&[Keyword::UnevaluatedItems]));
            return None;
        }
        Some(part.at(Keyword::UnevaluatedItems))
    }

    /// A tuple without a schema for the items after its prefix takes `unevaluatedItems` as that
    /// schema, when nothing else (`contains`, another part) evaluates items.
    fn tuple_unevaluated(&mut self, view: &View<'r>, mut tuple: Tuple, loose: &mut Vec<Loc>) -> Tuple {
        let Some(part) = view.with(Keyword::UnevaluatedItems).next() else { return tuple };
        if tuple.rest.is_some() {
            return tuple;
        }
        if view.has(Keyword::Contains) || view.parts.len() > 1 {
            loose.extend(view.present(&[Keyword::UnevaluatedItems]));
            return tuple;
        }
        tuple.rest = Some(part.at(Keyword::UnevaluatedItems));
        tuple
    }

    /// A tuple as a tuple struct, when its shape says everything: every leading item is
    /// present (`minItems` is their count) and no other array keyword applies. Otherwise the
    /// tuple is checked (optional leading items would let a Rust value skip one in the middle).
    fn tuple_shape(&mut self, view: &View<'r>, id: DefId, tuple: &Tuple, loose: &mut Vec<Loc>) -> Option<TupleShape> {
        let count = tuple.prefix.len() as u64;
        let assertions = self.view_assertions(view, Subject::Array, &|step| Ctx::child(id, step), &mut Vec::new());
        let closed = tuple.rest.as_ref().is_some_and(|loc| self.boolean_at(loc) == Some(false));
        let min = assertions.iter().filter_map(|a| if let Assertion::MinItems(n) = a { Some(*n) } else { None }).max();
        let shaped = assertions.iter().all(|a| match a {
            Assertion::MinItems(_) => true,
            // Implied by a closed tuple of that many items.
            Assertion::MaxItems(n) => closed && *n >= count,
            _ => false,
        });
        if count == 0 || min != Some(count) || !shaped {
            return None;
        }
        let mut items = Vec::new();
        for (i, loc) in tuple.prefix.iter().enumerate() {
            if self.boolean_at(loc) == Some(false) {
                return None;
            }
            let lowered = self.lower_at(loc, Ctx::child(id, format!("Item{i}")));
            loose.extend(lowered.loose);
            items.push(lowered.ty);
        }
        let rest = match &tuple.rest {
            None => Some(Ty::Any),
            Some(_) if closed => None,
            Some(loc) => {
                let lowered = self.lower_at(loc, Ctx::child(id, "Item"));
                loose.extend(lowered.loose);
                Some(lowered.ty)
            }
        };
        Some(TupleShape { items, rest })
    }

    /// `Check::Array` for a tuple, its items typed as the children of `id`.
    pub(super) fn tuple_check(&mut self, id: DefId, tuple: &Tuple, loose: &mut Vec<Loc>) -> Check {
        let prefix =
            tuple.prefix.iter().enumerate().map(|(i, loc)| self.sub_check(loc, Ctx::child(id, format!("Item{i}")), loose)).collect();
        let items = tuple.rest.as_ref().map(|loc| Box::new(self.sub_check(loc, Ctx::child(id, "Item"), loose)));
        Check::Array { prefix, items }
    }

    /// The check that an instance is valid against the subschema at `loc`.
    pub(super) fn sub_check(&mut self, loc: &Loc, ctx: Ctx, loose: &mut Vec<Loc>) -> Check {
        match self.boolean_at(loc) {
            Some(false) => Check::Never,
            Some(true) => Check::As(Ty::Any),
            None => {
                let lowered = self.lower_at(loc, ctx);
                loose.extend(lowered.loose);
                match lowered.ty {
                    // A schema that lowered to `false` (`allOf: [false]`, `not: {}`, ...).
                    Ty::Def(id) if matches!(self.ir.def(id).kind, DefKind::Checked(Check::Never)) => Check::Never,
                    ty => Check::As(ty),
                }
            }
        }
    }
}
