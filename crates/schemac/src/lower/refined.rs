//! Refinements: a typed value plus the keywords no Rust type expresses.
//!
//! `not`, `if`/`then`/`else`, `dependentSchemas` and `unevaluated*` beside branches say
//! nothing about a value's shape that a struct or enum could hold, but the rest of the schema
//! often does (`type: object` with `properties`). Rather than fall back to a checked
//! `serde_json::Value` for the whole schema, the rest becomes the value's type and those
//! keywords a [`Check`] on its JSON form. When the rest still needs a check (`oneOf` beside
//! `properties`, `enum` beside `type`), the branches and values move into the check too.

use super::check::all_of;
use super::keywords::{Part, View};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{Check, DefId, DefKind, Refined};
use crate::resolve::Loc;

/// Keywords a refinement checks rather than types.
const APPLICATORS: &[&str] =
    &["not", "if", "then", "else", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems"];

/// The same, plus the branches and values that no typed shape holds beside the rest.
const APPLICATORS_AND_VALUES: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
    "unevaluatedItems",
    "oneOf",
    "anyOf",
    "enum",
    "const",
];

impl<'r> Lowerer<'r> {
    /// The schema as a [`Refined`] type, when the keywords it would check leave a typed rest;
    /// `None` when the rest says nothing about the value's type (then the whole schema is a
    /// check) or still needs a check.
    pub(super) fn refined(&mut self, view: &View<'r>, mut ctx: Ctx) -> Option<Lowered> {
        let hidden = [APPLICATORS, APPLICATORS_AND_VALUES].into_iter().find(|hidden| {
            let rest = view.without(hidden);
            self.typed_rest(&rest) && !self.needs_check(&rest)
        })?;
        let rest = view.without(hidden);
        let id = self.begin_def(view, &mut ctx);
        let base = self.build(&rest, Ctx { own: false, ..Ctx::child(id, "Value") });
        let mut loose = base.loose;
        let checks: Vec<Check> = view.parts.iter().flat_map(|p| self.refinement(id, p, hidden, &mut loose)).collect();
        Some(self.finish_def(id, DefKind::Refined(Refined { base: base.ty, check: all_of(checks) }), &loose))
    }

    /// Whether the view's keywords say what Rust type its values have (rather than `Any`).
    fn typed_rest(&self, rest: &View<'r>) -> bool {
        rest.declared_kinds().is_some()
            || rest.has_shape()
            || self.asserting(rest)
            || rest.has_any(&["enum", "const", "oneOf", "anyOf"])
    }

    /// The checks of `part`'s keywords in `hidden`.
    fn refinement(&mut self, id: DefId, part: &Part<'r>, hidden: &[&str], loose: &mut Vec<Loc>) -> Vec<Check> {
        let mut checks = Vec::new();
        if hidden.contains(&"enum")
            && let Some(values) = part.array("enum")
        {
            checks.push(Check::Enum(values.clone()));
        }
        if hidden.contains(&"const")
            && let Some(value) = part.get("const")
        {
            checks.push(Check::Const(value.clone()));
        }
        if hidden.contains(&"oneOf") {
            checks.extend(self.branches(id, part, loose));
        }
        if part.has("not") {
            checks.push(Check::Not(Box::new(self.sub_check(&part.at("not"), Ctx::child(id, "Not"), loose))));
        }
        if part.has("if") {
            checks.push(self.conditional(id, part, loose));
        }
        checks.extend(self.dependency_checks(id, part, &["dependentSchemas", "dependencies"], loose));
        checks.extend(self.unevaluated_anywhere(id, part, loose));
        checks
    }
}
