//! Assertion keywords (`minimum`, `minLength`, `minItems`, `contains`, `minProperties`,
//! `propertyNames`, `dependentRequired`, ...) as [`Assertion`]s, read per part and per kind of
//! value. The typed shapes attach them to the value they constrain (`Ty::Constrained`, a
//! struct's or newtype's list); the `Checked` fallback wraps each in `Check::Assert`.

use super::keywords::{Part, View, parse_format};
use super::{Ctx, Lowerer};
use crate::ir::{Assertion, Subject};
use crate::resolve::Loc;
use crate::schema::{Dependency, Exclusive, Keyword};

/// Every assertion keyword about one kind of value; beside `enum`, `oneOf`/`anyOf`, or without
/// a `type` that says which kind they are about, they need the `Checked` fallback. Draft ≤ 7
/// `dependencies` is here too: its list form is `dependentRequired`, its schema form is a
/// check either way.
pub(super) const ASSERTION_KEYWORDS: &[Keyword] = &[
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
    Keyword::MultipleOf,
    Keyword::MinLength,
    Keyword::MaxLength,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::UniqueItems,
    Keyword::Contains,
    Keyword::MinContains,
    Keyword::MaxContains,
    Keyword::MinProperties,
    Keyword::MaxProperties,
    Keyword::PropertyNames,
    Keyword::DependentRequired,
    Keyword::Dependencies,
];

impl<'r> Lowerer<'r> {
    /// The assertions about `subject` in every part of the view, subschemas typed at
    /// `ctx(step)`.
    pub(super) fn view_assertions(
        &mut self,
        view: &View<'r>,
        subject: Subject,
        ctx: &dyn Fn(&str) -> Ctx,
        loose: &mut Vec<Loc>,
    ) -> Vec<Assertion> {
        let mut out = Vec::new();
        for part in &view.parts {
            out.extend(self.part_assertions(part, subject, ctx, loose));
        }
        out
    }

    /// The assertions about `subject` in one part.
    pub(super) fn part_assertions(
        &mut self,
        part: &Part<'r>,
        subject: Subject,
        ctx: &dyn Fn(&str) -> Ctx,
        loose: &mut Vec<Loc>,
    ) -> Vec<Assertion> {
        match subject {
            Subject::Number => number_assertions(part),
            Subject::String => {
                let mut out = Vec::new();
                out.extend(part.schema.min_length.map(Assertion::MinLength));
                out.extend(part.schema.max_length.map(Assertion::MaxLength));
                if self.assert_formats {
                    out.extend(part.schema.format.as_deref().and_then(parse_format).map(Assertion::Format));
                }
                out
            }
            Subject::Array => self.array_assertions(part, ctx, loose),
            Subject::Object => self.object_assertions(part, ctx, loose),
        }
    }

    fn array_assertions(&mut self, part: &Part<'r>, ctx: &dyn Fn(&str) -> Ctx, loose: &mut Vec<Loc>) -> Vec<Assertion> {
        let schema = &part.schema;
        let mut out = Vec::new();
        out.extend(schema.min_items.map(Assertion::MinItems));
        out.extend(schema.max_items.map(Assertion::MaxItems));
        if schema.unique_items == Some(true) {
            out.push(Assertion::UniqueItems);
        }
        if part.has(Keyword::Contains) {
            let lowered = self.lower_at(&part.at(Keyword::Contains), ctx("Contains"));
            loose.extend(lowered.loose);
            let min = schema.min_contains.unwrap_or(1);
            out.push(Assertion::Contains { schema: lowered.ty, min, max: schema.max_contains });
        }
        out
    }

    fn object_assertions(&mut self, part: &Part<'r>, ctx: &dyn Fn(&str) -> Ctx, loose: &mut Vec<Loc>) -> Vec<Assertion> {
        let model = self.model;
        let mut out = Vec::new();
        out.extend(part.schema.min_properties.map(Assertion::MinProperties));
        out.extend(part.schema.max_properties.map(Assertion::MaxProperties));
        if let Some(names) = part.schema.property_names
            && model.node(names).boolean() != Some(true)
        {
            let lowered = self.lower_at(&part.at(Keyword::PropertyNames), ctx("Name"));
            loose.extend(lowered.loose);
            out.push(Assertion::PropertyNames(lowered.ty));
        }
        for (name, required) in part.schema.dependent_required.iter().flatten() {
            out.push(Assertion::DependentRequired { name: name.clone(), required: required.clone() });
        }
        for (name, dependency) in part.schema.dependencies.iter().flatten() {
            // The schema form of `dependencies` is a check (see `needs_check`).
            if let Dependency::Names(required) = dependency {
                out.push(Assertion::DependentRequired { name: name.clone(), required: required.clone() });
            }
        }
        out
    }
}

/// `minimum`, `maximum`, the exclusive bounds in both their draft-04 (boolean) and later
/// (numeric) forms, and `multipleOf`.
fn number_assertions(part: &Part<'_>) -> Vec<Assertion> {
    let schema = &part.schema;
    let mut out = Vec::new();
    let flag = |exclusive: &Option<Exclusive>| *exclusive == Some(Exclusive::Flag(true));
    let bound = |exclusive: &Option<Exclusive>| match exclusive {
        Some(Exclusive::Bound(n)) => Some(n.clone()),
        Some(Exclusive::Flag(_)) | None => None,
    };
    if let Some(n) = schema.minimum.clone() {
        out.push(if flag(&schema.exclusive_minimum) { Assertion::ExclusiveMinimum(n) } else { Assertion::Minimum(n) });
    }
    if let Some(n) = schema.maximum.clone() {
        out.push(if flag(&schema.exclusive_maximum) { Assertion::ExclusiveMaximum(n) } else { Assertion::Maximum(n) });
    }
    out.extend(bound(&schema.exclusive_minimum).map(Assertion::ExclusiveMinimum));
    out.extend(bound(&schema.exclusive_maximum).map(Assertion::ExclusiveMaximum));
    out.extend(schema.multiple_of.clone().map(Assertion::MultipleOf));
    out
}
