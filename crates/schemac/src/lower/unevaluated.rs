//! `unevaluatedProperties` and `unevaluatedItems` beside in-place subschemas, as checks.
//!
//! Where a schema has no in-place subschema, `unevaluated*` means `additionalProperties` (the
//! items after the prefix), and the ordinary checks express it. Elsewhere what counts as
//! evaluated depends on the value: an `anyOf` branch's properties count only when the value
//! passes that branch. So the lowering walks the schema's in-place subschemas (`$ref`,
//! `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`; `not` contributes
//! nothing) into an [`Evaluates`] tree whose conditional parts carry the branch's check, and the
//! runtime marks what the value's passing branches evaluate before checking the rest.

use super::dynamic::Bindings;
use super::keywords::Part;
use super::{Ctx, Lowerer};
use crate::ir::{Check, DefId, Evaluates, ObjectCheck};
use crate::resolve::Loc;
use crate::schema::{Dependency, Items, Keyword};

impl<'r> Lowerer<'r> {
    /// Whether `part` has an `unevaluated*` keyword the ordinary object/array checks cannot
    /// express (see the module docs).
    pub(super) fn needs_unevaluated(part: &Part<'r>) -> (bool, bool) {
        let properties = part.has(Keyword::UnevaluatedProperties) && !part.has(Keyword::AdditionalProperties) && !part.is_leaf();
        let items =
            part.has(Keyword::UnevaluatedItems) && part.schema.items_schema().is_none() && (!part.is_leaf() || part.has(Keyword::Contains));
        (properties, items)
    }

    /// Whether what the schema at `loc` evaluates is the same for every value, so merging its
    /// parts into one type (`unevaluatedProperties` as the merged struct's rest) is exact: its
    /// `$ref`/`allOf` subtree has no conditional applicator, no pattern, no `contains` and no
    /// nested `unevaluated*` (its own `unevaluated*` aside).
    pub(super) fn evaluates_statically(&self, loc: &Loc, stack: &mut Vec<Loc>) -> bool {
        const DYNAMIC: &[Keyword] = &[
            Keyword::AnyOf,
            Keyword::OneOf,
            Keyword::If,
            Keyword::Not,
            Keyword::DependentSchemas,
            Keyword::Dependencies,
            Keyword::DynamicRef,
            Keyword::RecursiveRef,
            Keyword::PatternProperties,
            Keyword::Contains,
        ];
        let model = self.model;
        let Some(node) = model.at(loc) else { return true };
        let Some(schema) = node.schema() else { return true };
        if stack.contains(loc) {
            return true;
        }
        // Past the depth limit, not known to be static (flattening reports the chain).
        if stack.len() >= super::MAX_DEPTH {
            return false;
        }
        let part = Part::new(loc.clone(), schema, node.draft);
        let nested = !stack.is_empty() && (part.has(Keyword::UnevaluatedProperties) || part.has(Keyword::UnevaluatedItems));
        if DYNAMIC.iter().any(|k| part.has(*k)) || nested {
            return false;
        }
        stack.push(loc.clone());
        let targets: Vec<Loc> = schema.refs().filter_map(|(_, r)| r.target().ok().map(|t| t.loc.clone())).collect();
        let fine = targets.iter().chain(part.all_of().iter()).all(|l| self.evaluates_statically(l, stack));
        stack.pop();
        fine
    }

    /// The `unevaluated*` checks of `part` that [`Self::needs_unevaluated`] selects.
    pub(super) fn unevaluated_checks(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Vec<Check> {
        let wanted = Self::needs_unevaluated(part);
        self.unevaluated_where(id, part, wanted, loose)
    }

    /// `part`'s `unevaluated*` keywords as checks wherever they are, also where the ordinary
    /// object and array checks could express them (a refinement's type leaves them open).
    pub(super) fn unevaluated_anywhere(&mut self, id: DefId, part: &Part<'r>, loose: &mut Vec<Loc>) -> Vec<Check> {
        self.unevaluated_where(id, part, (true, true), loose)
    }

    /// The checks of `part`'s `unevaluatedProperties` and `unevaluatedItems`, as `wanted`.
    fn unevaluated_where(&mut self, id: DefId, part: &Part<'r>, wanted: (bool, bool), loose: &mut Vec<Loc>) -> Vec<Check> {
        let mut out = Vec::new();
        let model = self.model;
        let keywords = [
            (wanted.0, Keyword::UnevaluatedProperties, part.schema.unevaluated_properties, false, "Value"),
            (wanted.1, Keyword::UnevaluatedItems, part.schema.unevaluated_items, true, "Item"),
        ];
        for (wanted, keyword, schema, is_items, segment) in keywords {
            // `true` allows every value: nothing to check.
            if !wanted || schema.is_none_or(|id| model.node(id).boolean() == Some(true)) {
                continue;
            }
            let rest = self.sub_check(&part.at(keyword), Ctx::child(id, segment), loose);
            let bindings = self.bindings_at(&part.loc);
            let evaluated = self.evaluates(id, &part.loc, &bindings, is_items, &mut Vec::new(), loose);
            out.push(Check::Unevaluated { items: is_items, evaluated, rest: Box::new(rest) });
        }
        out
    }

    /// What the schema at `loc` (reached with dynamic anchor `bindings`) evaluates of
    /// properties (`items: false`) or items, through its in-place subschemas. `stack` cuts
    /// `$ref` loops (a loop that stays in place evaluates nothing more on the way round).
    fn evaluates(
        &mut self,
        id: DefId,
        loc: &Loc,
        bindings: &Bindings,
        items: bool,
        stack: &mut Vec<Loc>,
        loose: &mut Vec<Loc>,
    ) -> Evaluates {
        let model = self.model;
        let Some(node) = model.at(loc) else { return Evaluates::All(Vec::new()) };
        let Some(schema) = node.schema() else { return Evaluates::All(Vec::new()) };
        if stack.contains(loc) {
            return Evaluates::All(Vec::new());
        }
        let part = Part::new(loc.clone(), schema, node.draft);
        // The schema whose `unevaluated*` is being checked: its own keyword is not an annotation
        // it sees (nested ones are).
        let top = stack.is_empty();
        stack.push(loc.clone());
        let mut out = vec![self.own_evaluates(id, &part, items, top, loose)];
        for (keyword, reference) in schema.refs() {
            // An unresolvable reference is reported where the schema is flattened.
            if let Ok((target, inner)) = self.follow_ref(loc, keyword, reference, bindings) {
                // The subschemas checked below the target see its bindings.
                if let Some(frame) = self.frames.last_mut() {
                    frame.push((target.clone(), inner.clone()));
                }
                out.push(self.evaluates(id, &target, &inner, items, stack, loose));
            }
        }
        let descend = |this: &Self, child: &Loc| this.descend(bindings, Some(loc), child);
        for branch in part.all_of() {
            let inner = descend(self, &branch);
            out.push(self.evaluates(id, &branch, &inner, items, stack, loose));
        }
        for branches in [part.any_of(), part.one_of()] {
            for (i, branch) in branches.into_iter().enumerate() {
                let check = self.sub_check(&branch, Ctx::child(id, format!("Variant{i}")), loose);
                let inner = descend(self, &branch);
                let inner = self.evaluates(id, &branch, &inner, items, stack, loose);
                out.push(Evaluates::When(Box::new(check), Box::new(inner)));
            }
        }
        if part.has(Keyword::If) {
            let at_if = part.at(Keyword::If);
            let cond = self.sub_check(&at_if, Ctx::child(id, "If"), loose);
            let inner = descend(self, &at_if);
            let mut then = vec![self.evaluates(id, &at_if, &inner, items, stack, loose)];
            if part.has(Keyword::Then) {
                let at_then = part.at(Keyword::Then);
                let inner = descend(self, &at_then);
                then.push(self.evaluates(id, &at_then, &inner, items, stack, loose));
            }
            out.push(Evaluates::When(Box::new(cond.clone()), Box::new(Evaluates::All(then))));
            if part.has(Keyword::Else) {
                let at_else = part.at(Keyword::Else);
                let inner = descend(self, &at_else);
                let otherwise = self.evaluates(id, &at_else, &inner, items, stack, loose);
                out.push(Evaluates::When(Box::new(Check::Not(Box::new(cond))), Box::new(otherwise)));
            }
        }
        let schemas = part.schema.dependent_schemas.iter().flatten().map(|(name, _)| (Keyword::DependentSchemas, name));
        let legacy = part.schema.dependencies.iter().flatten().filter(|(_, d)| matches!(d, Dependency::Schema(_)));
        let dependencies: Vec<(Keyword, String)> =
            schemas.chain(legacy.map(|(name, _)| (Keyword::Dependencies, name))).map(|(k, n)| (k, n.clone())).collect();
        for (keyword, name) in dependencies {
            let required = vec![name.clone()];
            let present = Check::Object(ObjectCheck { properties: Vec::new(), required, patterns: Vec::new(), additional: None });
            let at = part.at(keyword).child(&name);
            let inner = descend(self, &at);
            let inner = self.evaluates(id, &at, &inner, items, stack, loose);
            out.push(Evaluates::When(Box::new(present), Box::new(inner)));
        }
        stack.pop();
        out.retain(|e| !e.is_empty());
        if out.len() == 1 { out.swap_remove(0) } else { Evaluates::All(out) }
    }

    /// What the keywords of `part` itself evaluate.
    fn own_evaluates(&mut self, id: DefId, part: &Part<'r>, items: bool, top: bool, loose: &mut Vec<Loc>) -> Evaluates {
        if items {
            // 2020-12 `prefixItems`; 2019-09 `items` as a list, with `additionalItems` after it.
            let schema = &part.schema;
            let listed_items = matches!(schema.items, Some(Items::Tuple(_)));
            let prefix = match (&schema.prefix_items, &schema.items) {
                (Some(list), _) | (None, Some(Items::Tuple(list))) => list.len(),
                (None, Some(Items::Schema(_)) | None) => 0,
            };
            let all = schema.items_schema().is_some()
                || (listed_items && part.has(Keyword::AdditionalItems))
                || (!top && part.has(Keyword::UnevaluatedItems));
            let contains = part
                .has(Keyword::Contains)
                .then(|| Box::new(self.sub_check(&part.at(Keyword::Contains), Ctx::child(id, "Contains"), loose)));
            return Evaluates::Items { prefix, all, contains };
        }
        let names = part.schema.properties.iter().flatten().map(|(name, _)| name.clone()).collect();
        let patterns = part.schema.pattern_properties.iter().flatten().filter_map(|(source, _)| self.pattern(source)).collect();
        let all = part.has(Keyword::AdditionalProperties) || (!top && part.has(Keyword::UnevaluatedProperties));
        Evaluates::Properties { names, patterns, all }
    }
}
