//! Assertion keywords (`minimum`, `minLength`, `minItems`, `contains`, `minProperties`,
//! `propertyNames`, `dependentRequired`, ...) as [`Assertion`]s, read per part and per kind of
//! value. The typed shapes attach them to the value they constrain (`Ty::Constrained`, a
//! struct's or newtype's list); the `Checked` fallback wraps each in `Check::Assert`.

use serde_json::Value;

use super::keywords::{Part, View, parse_format};
use super::{Ctx, Lowerer};
use crate::Draft;
use crate::ir::{Assertion, Subject};
use crate::resolve::Loc;

/// Every assertion keyword; beside `enum`, `oneOf`/`anyOf`, or without a `type` that says
/// which kind they are about, they need the `Checked` fallback.
pub(super) const ASSERTION_KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    // Draft ≤ 7 only (`is_keyword`); its list form is `dependentRequired`, its schema form
    // is a check either way.
    "dependencies",
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
                out.extend(part.get("minLength").and_then(count).map(Assertion::MinLength));
                out.extend(part.get("maxLength").and_then(count).map(Assertion::MaxLength));
                if self.assert_formats {
                    out.extend(part.str("format").and_then(parse_format).map(Assertion::Format));
                }
                out
            }
            Subject::Array => self.array_assertions(part, ctx, loose),
            Subject::Object => self.object_assertions(part, ctx, loose),
        }
    }

    fn array_assertions(&mut self, part: &Part<'r>, ctx: &dyn Fn(&str) -> Ctx, loose: &mut Vec<Loc>) -> Vec<Assertion> {
        let mut out = Vec::new();
        out.extend(part.get("minItems").and_then(count).map(Assertion::MinItems));
        out.extend(part.get("maxItems").and_then(count).map(Assertion::MaxItems));
        if part.get("uniqueItems") == Some(&Value::Bool(true)) {
            out.push(Assertion::UniqueItems);
        }
        if part.has("contains") {
            let lowered = self.lower_at(&part.at("contains"), ctx("Contains"));
            loose.extend(lowered.loose);
            let min = part.get("minContains").and_then(count).unwrap_or(1);
            let max = part.get("maxContains").and_then(count);
            out.push(Assertion::Contains { schema: lowered.ty, min, max });
        }
        out
    }

    fn object_assertions(&mut self, part: &Part<'r>, ctx: &dyn Fn(&str) -> Ctx, loose: &mut Vec<Loc>) -> Vec<Assertion> {
        let mut out = Vec::new();
        out.extend(part.get("minProperties").and_then(count).map(Assertion::MinProperties));
        out.extend(part.get("maxProperties").and_then(count).map(Assertion::MaxProperties));
        if part.has("propertyNames") && part.get("propertyNames") != Some(&Value::Bool(true)) {
            let lowered = self.lower_at(&part.at("propertyNames"), ctx("Name"));
            loose.extend(lowered.loose);
            out.push(Assertion::PropertyNames(lowered.ty));
        }
        for keyword in ["dependentRequired", "dependencies"] {
            for (name, value) in part.object(keyword).into_iter().flatten() {
                // The schema form of `dependencies` is a check (see `needs_check`).
                if let Value::Array(names) = value {
                    let required = names.iter().filter_map(Value::as_str).map(str::to_owned).collect();
                    out.push(Assertion::DependentRequired { name: name.clone(), required });
                }
            }
        }
        out
    }
}

/// `minimum`, `maximum`, the exclusive bounds in both their draft-04 (boolean) and later
/// (numeric) forms, and `multipleOf`.
fn number_assertions(part: &Part<'_>) -> Vec<Assertion> {
    let mut out = Vec::new();
    let number = |keyword: &str| match part.get(keyword) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    };
    let draft4 = part.draft == Draft::Draft4;
    let flag = |keyword: &str| part.get(keyword) == Some(&Value::Bool(true));
    if let Some(n) = number("minimum") {
        out.push(if draft4 && flag("exclusiveMinimum") { Assertion::ExclusiveMinimum(n) } else { Assertion::Minimum(n) });
    }
    if let Some(n) = number("maximum") {
        out.push(if draft4 && flag("exclusiveMaximum") { Assertion::ExclusiveMaximum(n) } else { Assertion::Maximum(n) });
    }
    if !draft4 {
        out.extend(number("exclusiveMinimum").map(Assertion::ExclusiveMinimum));
        out.extend(number("exclusiveMaximum").map(Assertion::ExclusiveMaximum));
    }
    out.extend(number("multipleOf").map(Assertion::MultipleOf));
    out
}

/// A non-negative integer keyword value (`2.0` included; validation reported the rest).
fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64))
}
