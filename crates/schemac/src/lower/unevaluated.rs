//! `unevaluatedProperties` and `unevaluatedItems` beside in-place subschemas, as checks.
//!
//! Where a schema has no in-place subschema, `unevaluated*` means `additionalProperties` (the
//! items after the prefix), and the ordinary checks express it. Elsewhere what counts as
//! evaluated depends on the value: an `anyOf` branch's properties count only when the value
//! passes that branch. So the lowering walks the schema's in-place subschemas (`$ref`,
//! `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`; `not` contributes
//! nothing) into an [`Evaluates`] tree whose conditional parts carry the branch's check, and the
//! runtime marks what the value's passing branches evaluate before checking the rest.

use serde_json::Value;

use super::dynamic::Bindings;
use super::flatten::references;
use super::keywords::Part;
use super::{Ctx, Lowerer};
use crate::ir::{Check, DefId, Evaluates, ObjectCheck};
use crate::resolve::Loc;

impl<'r> Lowerer<'r> {
    /// Whether `part` has an `unevaluated*` keyword the ordinary object/array checks cannot
    /// express (see the module docs).
    pub(super) fn needs_unevaluated(part: &Part<'r>) -> (bool, bool) {
        let properties = part.has("unevaluatedProperties") && !part.has("additionalProperties") && !part.is_leaf();
        let items = part.has("unevaluatedItems") && !items_schema(part) && (!part.is_leaf() || part.has("contains"));
        (properties, items)
    }

    /// Whether what the schema at `loc` evaluates is the same for every value, so merging its
    /// parts into one type (`unevaluatedProperties` as the merged struct's rest) is exact: its
    /// `$ref`/`allOf` subtree has no conditional applicator, no pattern, no `contains` and no
    /// nested `unevaluated*` (its own `unevaluated*` aside).
    pub(super) fn evaluates_statically(&self, loc: &Loc, stack: &mut Vec<Loc>) -> bool {
        const DYNAMIC: &[&str] = &[
            "anyOf",
            "oneOf",
            "if",
            "not",
            "dependentSchemas",
            "dependencies",
            "$dynamicRef",
            "$recursiveRef",
            "patternProperties",
            "contains",
        ];
        let reg = self.reg;
        let Some(Value::Object(map)) = reg.get(loc) else { return true };
        if stack.contains(loc) {
            return true;
        }
        let part = Part::new(loc.clone(), map, reg.draft_at(loc));
        if DYNAMIC.iter().any(|k| part.has(k)) || (!stack.is_empty() && (part.has("unevaluatedProperties") || part.has("unevaluatedItems")))
        {
            return false;
        }
        stack.push(loc.clone());
        let targets: Vec<Loc> = references(map, part.draft).into_iter().filter_map(|(_, r)| reg.resolve(loc, r).ok()).collect();
        let fine = targets.iter().chain(part.schema_list("allOf").iter()).all(|l| self.evaluates_statically(l, stack));
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
        for (wanted, keyword, is_items, segment) in
            [(wanted.0, "unevaluatedProperties", false, "Value"), (wanted.1, "unevaluatedItems", true, "Item")]
        {
            // `true` allows every value: nothing to check.
            if !wanted || !part.has(keyword) || part.get(keyword) == Some(&Value::Bool(true)) {
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
        let reg = self.reg;
        let Some(Value::Object(map)) = reg.get(loc) else { return Evaluates::All(Vec::new()) };
        if stack.contains(loc) {
            return Evaluates::All(Vec::new());
        }
        let part = Part::new(loc.clone(), map, reg.draft_at(loc));
        // The schema whose `unevaluated*` is being checked: its own keyword is not an annotation
        // it sees (nested ones are).
        let top = stack.is_empty();
        stack.push(loc.clone());
        let mut out = vec![self.own_evaluates(id, &part, items, top, loose)];
        for (keyword, reference) in references(map, part.draft) {
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
        for branch in part.schema_list("allOf") {
            let inner = descend(self, &branch);
            out.push(self.evaluates(id, &branch, &inner, items, stack, loose));
        }
        for keyword in ["anyOf", "oneOf"] {
            for (i, branch) in part.schema_list(keyword).into_iter().enumerate() {
                let check = self.sub_check(&branch, Ctx::child(id, format!("Variant{i}")), loose);
                let inner = descend(self, &branch);
                let inner = self.evaluates(id, &branch, &inner, items, stack, loose);
                out.push(Evaluates::When(Box::new(check), Box::new(inner)));
            }
        }
        if part.has("if") {
            let cond = self.sub_check(&part.at("if"), Ctx::child(id, "If"), loose);
            let inner = descend(self, &part.at("if"));
            let mut then = vec![self.evaluates(id, &part.at("if"), &inner, items, stack, loose)];
            if part.has("then") {
                let inner = descend(self, &part.at("then"));
                then.push(self.evaluates(id, &part.at("then"), &inner, items, stack, loose));
            }
            out.push(Evaluates::When(Box::new(cond.clone()), Box::new(Evaluates::All(then))));
            if part.has("else") {
                let inner = descend(self, &part.at("else"));
                let otherwise = self.evaluates(id, &part.at("else"), &inner, items, stack, loose);
                out.push(Evaluates::When(Box::new(Check::Not(Box::new(cond))), Box::new(otherwise)));
            }
        }
        for keyword in ["dependentSchemas", "dependencies"] {
            let Some(deps) = part.object(keyword) else { continue };
            for (name, dependency) in deps {
                if dependency.is_array() {
                    continue;
                }
                let required = vec![name.clone()];
                let present = Check::Object(ObjectCheck { properties: Vec::new(), required, patterns: Vec::new(), additional: None });
                let at = part.at(keyword).child(name);
                let inner = descend(self, &at);
                let inner = self.evaluates(id, &at, &inner, items, stack, loose);
                out.push(Evaluates::When(Box::new(present), Box::new(inner)));
            }
        }
        stack.pop();
        out.retain(|e| !e.is_empty());
        if out.len() == 1 { out.swap_remove(0) } else { Evaluates::All(out) }
    }

    /// What the keywords of `part` itself evaluate.
    fn own_evaluates(&mut self, id: DefId, part: &Part<'r>, items: bool, top: bool, loose: &mut Vec<Loc>) -> Evaluates {
        if items {
            // 2020-12 `prefixItems`; 2019-09 `items` as a list, with `additionalItems` after it.
            let listed = part.array("prefixItems").or_else(|| part.array("items"));
            let prefix = listed.map_or(0, Vec::len);
            let all = items_schema(part)
                || (part.array("items").is_some() && part.has("additionalItems"))
                || (!top && part.has("unevaluatedItems"));
            let contains = part.has("contains").then(|| Box::new(self.sub_check(&part.at("contains"), Ctx::child(id, "Contains"), loose)));
            return Evaluates::Items { prefix, all, contains };
        }
        let names = part.object("properties").map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let patterns =
            part.object("patternProperties").map(|m| m.keys().filter_map(|source| self.pattern(source)).collect()).unwrap_or_default();
        let all = part.has("additionalProperties") || (!top && part.has("unevaluatedProperties"));
        Evaluates::Properties { names, patterns, all }
    }
}

/// Whether `items` is a schema (not a 2019-09 list): then it evaluates every item after the
/// prefix.
fn items_schema(part: &Part<'_>) -> bool {
    part.get("items").is_some_and(|v| v.is_object() || v.is_boolean())
}
