//! Refinements: a typed value plus the keywords no Rust type expresses.
//!
//! `not`, `if`/`then`/`else`, `dependentSchemas` and `unevaluated*` beside branches say
//! nothing about a value's shape that a struct or enum could hold, but the rest of the schema
//! often does (`type: object` with `properties`). Rather than fall back to a checked
//! `serde_json::Value` for the whole schema, the rest becomes the value's type and those
//! keywords a [`Check`] on its JSON form. When the rest still needs a check (`oneOf` beside
//! `properties`, `enum` beside `type`), the branches and values move into the check too, and
//! after them the `additionalProperties` of `allOf` parts that do not merge.

use super::check::{Dependencies, all_of};
use super::keywords::{Part, View};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{Check, DefId, DefKind, ObjectCheck, Refined, Ty};
use crate::resolve::Loc;
use crate::schema::{Keyword, KindSet, Model, SchemaId};

/// Keywords a refinement may check rather than type, in the order they are tried: the
/// applicators no type expresses; then also the branches and values that no typed shape holds
/// beside the rest; then also the extra-property keywords of `allOf` parts that do not merge
/// (a part's `additionalProperties` sees only its own `properties`).
const CHECKED: &[Keyword] = &[
    Keyword::Not,
    Keyword::If,
    Keyword::Then,
    Keyword::Else,
    Keyword::DependentSchemas,
    Keyword::Dependencies,
    Keyword::UnevaluatedProperties,
    Keyword::UnevaluatedItems,
    Keyword::OneOf,
    Keyword::AnyOf,
    Keyword::Enum,
    Keyword::Const,
    Keyword::AdditionalProperties,
    Keyword::PatternProperties,
];

/// How much of [`CHECKED`] each attempt hides from the type: the applicators, then also the
/// branches and values, then also the extra-property keywords.
const LEVELS: [&[Keyword]; 3] = [CHECKED.split_at(8).0, CHECKED.split_at(12).0, CHECKED];

/// Keywords about the values of one kind only (objects or arrays): like an assertion, they
/// make the type a union of every kind even when no other keyword says which kinds there are.
/// (`unevaluated*: true` says nothing.)
fn one_kind(part: &Part<'_>, model: &Model) -> bool {
    let says_something = |id: Option<SchemaId>| id.is_some_and(|id| model.node(id).boolean() != Some(true));
    part.has(Keyword::DependentSchemas)
        || part.has(Keyword::Dependencies)
        || says_something(part.schema.unevaluated_properties)
        || says_something(part.schema.unevaluated_items)
}

impl<'r> Lowerer<'r> {
    /// The schema as a [`Refined`] type, when the keywords it would check leave a typed rest;
    /// `None` when the rest says nothing about the value's type (then the whole schema is a
    /// check) or still needs a check.
    pub(super) fn refined(&mut self, view: &View<'r>, mut ctx: Ctx) -> Option<Lowered> {
        let one_kind = view.parts.iter().any(|p| one_kind(p, self.model));
        // The first level whose rest is typed (or, for one-kind keywords, a union of every
        // kind) without a check of its own.
        let (hidden, rest, typed) = LEVELS.into_iter().find_map(|hidden| {
            let rest = view.without(hidden);
            let typed = self.typed_rest(&rest);
            ((one_kind || typed) && !self.needs_check(&rest)).then_some((hidden, rest, typed))
        })?;
        let id = self.begin_def(view, &mut ctx);
        let base_ctx = Ctx { own: false, ..Ctx::child(id, "Value") };
        let base = if typed { self.build(&rest, base_ctx) } else { self.of_kinds(&rest, KindSet::ALL, base_ctx) };
        let mut loose = base.loose;
        let checks: Vec<Check> = view.parts.iter().flat_map(|p| self.refinement(id, p, hidden, &mut loose)).collect();
        Some(self.finish_def(id, DefKind::Refined(Refined { base: base.ty, check: all_of(checks) }), &loose))
    }

    /// Whether the view's keywords say what Rust type its values have (rather than `Any`).
    fn typed_rest(&self, rest: &View<'r>) -> bool {
        rest.declared_kinds().is_some()
            || rest.has_shape(self.model)
            || self.asserting(rest)
            || rest.has_any(&[Keyword::Enum, Keyword::Const, Keyword::OneOf, Keyword::AnyOf])
    }

    /// The checks of `part`'s keywords in `hidden`.
    fn refinement(&mut self, id: DefId, part: &Part<'r>, hidden: &[Keyword], loose: &mut Vec<Loc>) -> Vec<Check> {
        let mut checks = Vec::new();
        if hidden.contains(&Keyword::Enum)
            && let Some(values) = &part.schema.enum_values
        {
            checks.push(Check::Enum(values.clone()));
        }
        if hidden.contains(&Keyword::Const)
            && let Some(value) = &part.schema.const_value
        {
            checks.push(Check::Const(value.clone()));
        }
        if hidden.contains(&Keyword::OneOf) {
            checks.extend(self.branches(id, part, loose));
        }
        if part.has(Keyword::Not) {
            checks.extend(self.negation(id, part, loose));
        }
        if part.has(Keyword::If) {
            checks.push(self.conditional(id, part, loose));
        }
        if hidden.contains(&Keyword::AdditionalProperties) {
            checks.extend(self.extras_check(id, part, loose));
        }
        checks.extend(self.dependency_checks(id, part, Dependencies::Schemas, loose));
        checks.extend(self.unevaluated_anywhere(id, part, loose));
        checks
    }

    /// `patternProperties` and `additionalProperties` of one part, over its own `properties`.
    fn extras_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<Check> {
        let patterns = self.pattern_checks(id, part, loose);
        let additional = match part.schema.additional_properties {
            Some(schema) if self.model.node(schema).boolean() != Some(true) => {
                Some(Box::new(self.sub_check(&part.at(Keyword::AdditionalProperties), Ctx::child(id, "Extra"), loose)))
            }
            Some(_) | None => None,
        };
        if patterns.is_empty() && additional.is_none() {
            return None;
        }
        // The part's own properties are not extra (their schemas are the type's business).
        let names: Vec<String> = part.schema.properties.iter().flatten().map(|(name, _)| name.clone()).collect();
        let properties = names.into_iter().map(|n| (n, Check::As(Ty::Any))).collect();
        Some(Check::Object(ObjectCheck { properties, required: Vec::new(), patterns, additional }))
    }
}
