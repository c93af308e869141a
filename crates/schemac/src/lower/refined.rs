//! Refinements: a typed value plus the keywords no Rust type expresses.
//!
//! `not`, `if`/`then`/`else`, `dependentSchemas` and `unevaluated*` beside branches say
//! nothing about a value's shape that a struct or enum could hold, but the rest of the schema
//! often does (`type: object` with `properties`). Rather than fall back to a checked
//! `serde_json::Value` for the whole schema, the rest becomes the value's type and those
//! keywords a [`Check`] on its JSON form. When the rest still needs a check (`oneOf` beside
//! `properties`, `enum` beside `type`), the branches and values move into the check too, and
//! after them the `additionalProperties` of `allOf` parts that do not merge.

use super::check::all_of;
use super::keywords::{KindSet, Part, View};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{Check, DefId, DefKind, ObjectCheck, Refined, Ty};
use crate::resolve::Loc;

/// Keywords a refinement may check rather than type, in the order they are tried: the
/// applicators no type expresses; then also the branches and values that no typed shape holds
/// beside the rest; then also the extra-property keywords of `allOf` parts that do not merge
/// (a part's `additionalProperties` sees only its own `properties`).
const CHECKED: &[&str] = &[
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
    "additionalProperties",
    "patternProperties",
];

/// How much of [`CHECKED`] each attempt hides from the type.
const LEVELS: [&[&str]; 3] = [CHECKED.split_at(8).0, CHECKED.split_at(12).0, CHECKED];

/// Keywords about the values of one kind only (objects or arrays): like an assertion, they
/// make the type a union of every kind even when no other keyword says which kinds there are.
const ONE_KIND: &[&str] = &["dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems"];

impl<'r> Lowerer<'r> {
    /// The schema as a [`Refined`] type, when the keywords it would check leave a typed rest;
    /// `None` when the rest says nothing about the value's type (then the whole schema is a
    /// check) or still needs a check.
    pub(super) fn refined(&mut self, view: &View<'r>, mut ctx: Ctx) -> Option<Lowered> {
        let one_kind = ONE_KIND.iter().flat_map(|k| view.all(k)).any(|(_, v)| v != &serde_json::Value::Bool(true));
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
        rest.declared_kinds().is_some() || rest.has_shape() || self.asserting(rest) || rest.has_any(&["enum", "const", "oneOf", "anyOf"])
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
            checks.extend(self.negation(id, part, loose));
        }
        if part.has("if") {
            checks.push(self.conditional(id, part, loose));
        }
        if hidden.contains(&"additionalProperties") {
            checks.extend(self.extras_check(id, part, loose));
        }
        checks.extend(self.dependency_checks(id, part, &["dependentSchemas", "dependencies"], loose));
        checks.extend(self.unevaluated_anywhere(id, part, loose));
        checks
    }

    /// `patternProperties` and `additionalProperties` of one part, over its own `properties`.
    fn extras_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<Check> {
        let patterns = self.pattern_checks(id, part, loose);
        let additional = match part.get("additionalProperties") {
            Some(serde_json::Value::Bool(true)) | None => None,
            Some(_) => Some(Box::new(self.sub_check(&part.at("additionalProperties"), Ctx::child(id, "Extra"), loose))),
        };
        if patterns.is_empty() && additional.is_none() {
            return None;
        }
        // The part's own properties are not extra (their schemas are the type's business).
        let names = part.object("properties").map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        let properties = names.into_iter().map(|n| (n, Check::As(Ty::Any))).collect();
        Some(Check::Object(ObjectCheck { properties, required: Vec::new(), patterns, additional }))
    }
}
