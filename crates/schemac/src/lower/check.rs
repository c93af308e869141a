//! The `Checked` fallback: a `serde_json::Value` checked against a tree that expresses the
//! schema exactly, each part's keywords as `Check` nodes and each subschema as `Check::As` of
//! its own type. Used for keywords only a check can express (`not`, `if`, dependencies), and
//! for combinations that no single typed shape means exactly — unless `refined.rs` finds a
//! typed rest, which then takes only the checks of those keywords (built here too).

use super::array::tuple;
use super::assertions::ASSERTION_KEYWORDS;
use super::keywords::{CHECK_ONLY, Part, View, parse_format};
use super::object::{Extra, rest_sources};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{Assertion, Check, DefId, DefKind, Kind, ObjectCheck, Pattern, Subject, Ty};
use crate::resolve::Loc;
use crate::schema::{Dependency, Keyword};

/// Keywords beside which `enum`/`const` or `oneOf`/`anyOf` cannot keep their typed shape.
const SHAPE: &[Keyword] = &[
    Keyword::Properties,
    Keyword::Required,
    Keyword::AdditionalProperties,
    Keyword::PatternProperties,
    Keyword::Items,
    Keyword::PrefixItems,
    Keyword::AdditionalItems,
    Keyword::Pattern,
];

impl<'r> Lowerer<'r> {
    /// Whether the view needs a check to be exact: a refinement's, or the `Checked` fallback.
    pub(super) fn needs_check(&mut self, view: &View<'r>) -> bool {
        if view.has_any(CHECK_ONLY) || view.parts.iter().any(schema_dependencies) {
            return true;
        }
        // `unevaluated*` sees what its in-place subschemas evaluate. Where that depends on the
        // value (a branch, a pattern, a nested `unevaluated*`), or the keyword is in a part
        // merged into another's type (it sees only its own subtree), only a check is exact.
        let merged = view.parts.len() > 1;
        let unevaluated = |(i, p): (usize, &Part<'r>)| {
            let (has_properties, has_items) = (p.has(Keyword::UnevaluatedProperties), p.has(Keyword::UnevaluatedItems));
            if !has_properties && !has_items {
                return false;
            }
            (merged && view.top != Some(i)) || !self.evaluates_statically(&p.loc, &mut Vec::new())
        };
        if view.parts.iter().enumerate().any(unevaluated) {
            return true;
        }
        if view.parts.len() > 1 && !mergeable(view, self.model) {
            return true;
        }
        // Assertions are typed on the value of their kind (without `type`, in a union of every
        // kind); beside `enum`/`const` or a union, only a check is exact.
        let asserting = self.asserting(view);
        let (has_enum, has_const) = (view.has(Keyword::Enum), view.has(Keyword::Const));
        let (has_one_of, has_any_of) = (view.has(Keyword::OneOf), view.has(Keyword::AnyOf));
        if asserting && !has_enum && !has_const && !has_one_of && !has_any_of {
            return false;
        }
        let shaped = view.has_any(SHAPE) || view.known_format().is_some();
        let beside_values = [Keyword::OneOf, Keyword::AnyOf, Keyword::UnevaluatedProperties];
        if (has_enum || has_const) && (shaped || asserting || view.has_any(&beside_values)) {
            return true;
        }
        // Beside `oneOf`/`anyOf`, `unevaluatedProperties` depends on the branch taken: no
        // check expresses it, so the union keeps it as unenforced.
        if has_one_of || has_any_of {
            return (has_one_of && has_any_of) || shaped || asserting || !self.type_implied_by_branches(view);
        }
        false
    }

    /// Whether the view has assertion keywords (which apply to values of one kind each).
    pub(super) fn asserting(&self, view: &View<'r>) -> bool {
        view.has_any(ASSERTION_KEYWORDS) || (self.assert_formats && view.known_format().is_some())
    }

    /// Whether a `type` beside `oneOf`/`anyOf` is implied by every branch (so the union
    /// alone means the same).
    fn type_implied_by_branches(&mut self, view: &View<'r>) -> bool {
        let Some(declared) = view.declared_kinds() else { return true };
        let branches: Vec<Loc> = view.parts.iter().flat_map(|p| [p.one_of(), p.any_of()]).flatten().collect();
        branches.iter().all(|b| {
            let kinds = self.kinds_of(b);
            kinds.intersect(declared) == kinds
        })
    }

    pub(super) fn checked(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let id = self.begin_def(view, &mut ctx);
        let mut loose = Vec::new();
        let checks: Vec<Check> = view.parts.iter().map(|p| self.part_check(id, p, &mut loose)).collect();
        let kind = match all_of(checks) {
            // Nothing left to check (e.g. `not: false`): any value.
            Check::AllOf(none) if none.is_empty() => DefKind::Alias(Ty::Any),
            check if check.contains_never() => DefKind::Checked(Check::Never),
            check => DefKind::Checked(check),
        };
        self.finish_def(id, kind, &loose)
    }

    /// One part's own keywords as a check; `$ref` and `allOf` are the other parts.
    fn part_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Check {
        let mut checks = Vec::new();
        if let Some(kinds) = part.declared_kinds() {
            checks.push(Check::Kinds(kinds.kinds()));
        }
        if let Some(values) = &part.schema.enum_values {
            checks.push(Check::Enum(values.clone()));
        }
        if let Some(value) = &part.schema.const_value {
            checks.push(Check::Const(value.clone()));
        }
        if let Some(source) = &part.schema.pattern
            && let Some(pattern) = self.pattern(source)
        {
            checks.push(Check::Pattern(pattern));
        }
        if let Some(format) = part.schema.format.as_deref().and_then(parse_format) {
            checks.push(only_for(Kind::String, Check::As(Ty::Format(format))));
        }
        if let Some(object) = self.object_check(id, part, loose)
            && !(object.properties.is_empty() && object.required.is_empty() && object.patterns.is_empty() && object.additional.is_none())
        {
            checks.push(Check::Object(object));
        }
        if let Some(array) = self.array_check(id, part, loose) {
            checks.push(array);
        }
        checks.extend(self.branches(id, part, loose));
        if part.has(Keyword::Not) {
            checks.extend(self.negation(id, part, loose));
        }
        if part.has(Keyword::If) {
            checks.push(self.conditional(id, part, loose));
        }
        checks.extend(self.dependency_checks(id, part, Dependencies::All, loose));
        checks.extend(self.unevaluated_checks(id, part, loose));
        for subject in [Subject::Number, Subject::String, Subject::Array, Subject::Object] {
            let assertions = self.part_assertions(part, subject, &|step| Ctx::child(id, step), loose);
            // `dependency_checks` has the dependencies already.
            let assertions = assertions.into_iter().filter(|a| !matches!(a, Assertion::DependentRequired { .. }));
            checks.extend(assertions.map(Check::Assert));
        }
        all_of(checks)
    }

    /// `not`, without the double negations of `not: {}` (nothing passes) and `not: false`
    /// (everything does).
    pub(super) fn negation(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<Check> {
        match self.sub_check(&part.at(Keyword::Not), Ctx::child(id, "Not"), loose) {
            Check::As(Ty::Any) => Some(Check::Never),
            Check::Never => None,
            not => Some(Check::Not(Box::new(not))),
        }
    }

    /// `anyOf` and `oneOf` of one part, each branch a check.
    pub(super) fn branches(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Vec<Check> {
        let mut checks = Vec::new();
        let keywords =
            [(Keyword::AnyOf, part.any_of(), Check::AnyOf as fn(Vec<Check>) -> Check), (Keyword::OneOf, part.one_of(), Check::OneOf)];
        for (keyword, branches, combine) in keywords {
            if part.has(keyword) {
                let list =
                    branches.iter().enumerate().map(|(i, b)| self.sub_check(b, Ctx::child(id, format!("Variant{i}")), loose)).collect();
                checks.push(combine(list));
            }
        }
        checks
    }

    pub(super) fn conditional(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Check {
        let cond = self.sub_check(&part.at(Keyword::If), Ctx::child(id, "If"), loose);
        let then = part.has(Keyword::Then).then(|| Box::new(self.sub_check(&part.at(Keyword::Then), Ctx::child(id, "Then"), loose)));
        let otherwise = part.has(Keyword::Else).then(|| Box::new(self.sub_check(&part.at(Keyword::Else), Ctx::child(id, "Else"), loose)));
        Check::IfThenElse { cond: Box::new(cond), then, otherwise }
    }

    /// `dependentRequired`/`dependentSchemas`, and draft ≤ 7 `dependencies` (either form):
    /// when an object has the property, it must also have these / satisfy this.
    pub(super) fn dependency_checks(&mut self, id: DefId, part: &Part<'r>, which: Dependencies, loose: &mut Vec<Loc>) -> Vec<Check> {
        // Each dependency in document order per keyword: `dependentRequired`, `dependentSchemas`,
        // then `dependencies`; `None` names a schema's location, `Some` the required names.
        let mut listed: Vec<(String, Result<Vec<String>, Loc>)> = Vec::new();
        if which == Dependencies::All {
            for (name, names) in part.schema.dependent_required.iter().flatten() {
                listed.push((name.clone(), Ok(names.clone())));
            }
        }
        let at = part.at(Keyword::DependentSchemas);
        for (name, _) in part.schema.dependent_schemas.iter().flatten() {
            listed.push((name.clone(), Err(at.child(name))));
        }
        let at = part.at(Keyword::Dependencies);
        for (name, dependency) in part.schema.dependencies.iter().flatten() {
            let then = match dependency {
                Dependency::Names(names) => Ok(names.clone()),
                Dependency::Schema(_) => Err(at.child(name)),
            };
            listed.push((name.clone(), then));
        }
        let mut checks = Vec::new();
        for (name, dependency) in listed {
            let cond = Check::AllOf(vec![Check::Kinds(vec![Kind::Object]), has_property(&name)]);
            let then = match dependency {
                Ok(required) => Check::Object(ObjectCheck { properties: Vec::new(), required, patterns: Vec::new(), additional: None }),
                Err(loc) => self.sub_check(&loc, Ctx::child(id, format!("{name} Dependency")), loose),
            };
            checks.push(Check::IfThenElse { cond: Box::new(cond), then: Some(Box::new(then)), otherwise: None });
        }
        checks
    }

    /// `properties`, `required`, `patternProperties` and `additionalProperties` of one part.
    fn object_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<ObjectCheck> {
        let keywords = [
            Keyword::Properties,
            Keyword::Required,
            Keyword::PatternProperties,
            Keyword::AdditionalProperties,
            Keyword::UnevaluatedProperties,
        ];
        if !keywords.iter().any(|k| part.has(*k)) {
            return None;
        }
        let mut properties = Vec::new();
        let at = part.at(Keyword::Properties);
        for (name, _) in part.schema.properties.iter().flatten() {
            properties.push((name.clone(), self.sub_check(&at.child(name), Ctx::child(id, name.as_str()), loose)));
        }
        let required = part.schema.required.clone().unwrap_or_default();
        let patterns = self.pattern_checks(id, part, loose);
        let additional = self.additional_check(id, part, loose);
        Some(ObjectCheck { properties, required, patterns, additional })
    }

    /// `patternProperties` of one part: each pattern with the check of its schema.
    pub(super) fn pattern_checks(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Vec<(Pattern, Check)> {
        let mut patterns = Vec::new();
        let at = part.at(Keyword::PatternProperties);
        for (i, (source, _)) in part.schema.pattern_properties.iter().flatten().enumerate() {
            if let Some(pattern) = self.pattern(source) {
                patterns.push((pattern, self.sub_check(&at.child(source), Ctx::child(id, format!("Pattern{i}")), loose)));
            }
        }
        patterns
    }

    /// `additionalProperties`, or `unevaluatedProperties` where it means the same (a part
    /// without in-place subschemas); otherwise `unevaluatedProperties` is not enforced.
    fn additional_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<Box<Check>> {
        let (keyword, schema) = if let Some(schema) = part.schema.additional_properties {
            (Keyword::AdditionalProperties, schema)
        } else if let Some(schema) = part.schema.unevaluated_properties
            && part.is_leaf()
        {
            (Keyword::UnevaluatedProperties, schema)
        } else {
            // Beside in-place subschemas: `unevaluated_checks`.
            return None;
        };
        if self.model.node(schema).boolean() == Some(true) {
            return None;
        }
        Some(Box::new(self.sub_check(&part.at(keyword), Ctx::child(id, "Value"), loose)))
    }

    /// `items`, `prefixItems` and `additionalItems` of one part.
    ///
    /// `unevaluatedItems` means the schema of the items nothing else evaluated: on a part
    /// without in-place subschemas or `contains`, the items after the prefix (all of them
    /// without `items`). Elsewhere it is not enforced.
    fn array_check(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Option<Check> {
        // Beside in-place subschemas or `contains`, `unevaluated_checks` has it instead.
        let applies_here = part.has(Keyword::UnevaluatedItems) && part.is_leaf() && !part.has(Keyword::Contains);
        let unevaluated = applies_here.then(|| part.at(Keyword::UnevaluatedItems));
        if let Some(mut tuple) = tuple(part) {
            if tuple.rest.is_none() {
                tuple.rest = unevaluated;
            }
            return Some(self.tuple_check(id, &tuple, loose));
        }
        let items = match part.schema.items_schema() {
            Some(_) => part.at(Keyword::Items),
            None => unevaluated?,
        };
        let check = self.sub_check(&items, Ctx::child(id, "Item"), loose);
        Some(Check::Array { prefix: Vec::new(), items: Some(Box::new(check)) })
    }
}

/// Which dependency keywords [`Lowerer::dependency_checks`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dependencies {
    /// `dependentRequired`, `dependentSchemas` and `dependencies`.
    All,
    /// The schema forms only (`dependentSchemas`, `dependencies`): a refinement's type
    /// enforces `dependentRequired`.
    Schemas,
}

/// Whether the parts add up to one typed schema: `allOf` merges property by property, which
/// is exact unless a part restricts extra properties without seeing the others' properties,
/// or the parts disagree on something a type holds once (a pattern, a format, a tuple).
fn mergeable(view: &View<'_>, model: &crate::schema::Model) -> bool {
    if view.has(Keyword::OneOf) || view.has(Keyword::AnyOf) || view.parts.iter().any(|p| tuple(p).is_some()) {
        return false;
    }
    if view.distinct_patterns().len() > 1 {
        return false;
    }
    let formats: Vec<_> = view.distinct_formats().into_iter().filter(|(f, _)| parse_format(f).is_some()).collect();
    if formats.len() > 1 {
        return false;
    }
    if view.with(Keyword::PatternProperties).count() > 1 {
        return false;
    }
    let names: Vec<String> = view.properties().into_iter().map(|(n, _)| n).collect();
    let (sources, _) = rest_sources(view, model);
    let restricting = sources.iter().filter(|s| s.value != Extra::Open).filter_map(|s| s.part);
    let pattern_parts = view.parts.iter().enumerate().filter(|(_, p)| p.has(Keyword::PatternProperties)).map(|(i, _)| i);
    for i in restricting.chain(pattern_parts) {
        let Some(part) = view.parts.get(i) else { continue };
        let own = part.schema.properties.as_deref().unwrap_or_default();
        if names.iter().any(|n| !own.iter().any(|(name, _)| name == n)) {
            return false;
        }
    }
    true
}

/// Whether a part has draft-07 `dependencies` with a schema (not a list of names) as a value.
fn schema_dependencies(part: &Part<'_>) -> bool {
    part.schema.dependencies.iter().flatten().any(|(_, d)| matches!(d, Dependency::Schema(_)))
}

/// The conjunction of `checks`, without a wrapper for one.
pub(super) fn all_of(checks: Vec<Check>) -> Check {
    let mut flat: Vec<Check> = Vec::with_capacity(checks.len());
    for check in checks {
        match check {
            Check::AllOf(inner) => flat.extend(inner),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 { flat.swap_remove(0) } else { Check::AllOf(flat) }
}

/// `check` for instances of `kind`; other kinds pass.
fn only_for(kind: Kind, check: Check) -> Check {
    Check::IfThenElse { cond: Box::new(Check::Kinds(vec![kind])), then: Some(Box::new(check)), otherwise: None }
}

/// The object has property `name` (other kinds pass).
fn has_property(name: &str) -> Check {
    Check::Object(ObjectCheck { properties: Vec::new(), required: vec![name.to_owned()], patterns: Vec::new(), additional: None })
}
