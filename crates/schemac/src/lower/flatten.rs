//! Flattening: a schema is the `allOf` of its own keywords, its `$ref` target (from 2019-09
//! on, beside other keywords; before, instead of them) and its `allOf` branches. Following
//! those recursively gives the *parts* whose keywords all apply to the instance.
//!
//! A chain of `$ref`/`allOf` that comes back to a schema on it never reaches a keyword that
//! looks at the instance: it is a `ref-cycle`.

use serde_json::Value;

use super::Lowerer;
use super::dynamic::Bindings;
use super::keywords::{Part, constrains};
use crate::Draft;
use crate::resolve::Loc;

/// The parts of a schema.
#[derive(Clone, Debug, Default)]
pub(super) struct Flat<'r> {
    /// Parts with constraining keywords, children before the schema that refers to them
    /// (so a base's properties come before the derived schema's), without duplicates.
    pub parts: Vec<Part<'r>>,
    /// A `false` schema is among them: nothing is valid.
    pub never: bool,
    /// A `$ref` could not be followed (reported); the schema lowers to `Any`.
    pub broken: bool,
    /// The dynamic anchor bindings of each part (parallel to `parts`).
    pub bindings: Vec<Bindings>,
    /// The index of the part that every other part was reached from, if there is one.
    pub top: Option<usize>,
}

impl<'r> Lowerer<'r> {
    pub(super) fn flatten(&mut self, locs: &[Loc]) -> Flat<'r> {
        let mut flat = Flat::default();
        let mut starts = Vec::new();
        for loc in locs {
            let bindings = self.bindings_at(loc);
            self.visit(loc, &bindings, None, &mut Vec::new(), &mut flat, &mut starts);
        }
        // The last part pushed is the outermost schema's own; it is the ancestor of all the
        // others when its visit started before any of them.
        if locs.len() == 1 && starts.last() == Some(&0) {
            flat.top = flat.parts.len().checked_sub(1);
        }
        flat
    }

    /// Adds the parts of the schema at `loc` (with dynamic anchor `bindings`), reached through the keyword at `via`.
    fn visit(
        &mut self,
        loc: &Loc,
        bindings: &Bindings,
        via: Option<&Loc>,
        stack: &mut Vec<Loc>,
        flat: &mut Flat<'r>,
        starts: &mut Vec<usize>,
    ) {
        if let Some(start) = stack.iter().position(|l| l == loc) {
            self.report_cycle(&stack[start..], loc, via);
            flat.broken = true;
            return;
        }
        self.validate_document(loc.doc);
        let reg = self.reg;
        let map = match reg.get(loc) {
            Some(Value::Object(map)) => map,
            Some(Value::Bool(true)) => return,
            Some(Value::Bool(false)) => {
                flat.never = true;
                return;
            }
            // Not a schema: reported by validation.
            Some(_) => {
                flat.broken = true;
                return;
            }
            None => {
                let at = via.unwrap_or(loc);
                let message = format!("there is no schema at `{}`", loc.pointer);
                let diagnostic =
                    reg.error("unresolved-ref", at, message).with_hint("the JSON pointer after `#` must name an existing schema");
                self.diags.push(diagnostic);
                flat.broken = true;
                return;
            }
        };
        let draft = reg.draft_at(loc);
        let start = flat.parts.len();
        stack.push(loc.clone());
        for (keyword, reference) in references(map, draft) {
            let at = loc.child(keyword);
            match self.follow_ref(loc, keyword, reference, bindings) {
                Ok((target, inner)) => self.visit(&target, &inner, Some(&at), stack, flat, starts),
                Err(diagnostic) => {
                    self.diags.push(diagnostic);
                    flat.broken = true;
                }
            }
        }
        if draft <= Draft::Draft7 && map.get("$ref").is_some_and(Value::is_string) {
            // Before 2019-09, keywords beside `$ref` are ignored.
            stack.pop();
            return;
        }
        if let Some(branches) = map.get("allOf").and_then(Value::as_array) {
            let at = loc.child("allOf");
            for i in 0..branches.len() {
                let branch = at.child(&i.to_string());
                let inner = self.descend(bindings, Some(loc), &branch);
                self.visit(&branch, &inner, Some(&at), stack, flat, starts);
            }
        }
        stack.pop();
        if constrains(map, draft) && !flat.parts.iter().any(|p| p.loc == *loc) {
            flat.parts.push(Part::new(loc.clone(), map, draft));
            flat.bindings.push(bindings.clone());
            starts.push(start);
        }
    }

    fn report_cycle(&mut self, cycle: &[Loc], back: &Loc, via: Option<&Loc>) {
        let at = via.unwrap_or(back);
        let path: Vec<String> = cycle
            .iter()
            .chain(std::iter::once(back))
            .map(|l| if l.pointer.is_empty() { "#".to_owned() } else { format!("#{}", l.pointer) })
            .collect();
        let message =
            format!("`$ref`/`allOf` loop back to the same schema without passing through a property or item: {}", path.join(" → "));
        let diagnostic = self
            .reg
            .error("ref-cycle", at, message)
            .with_hint("such a schema never says anything about the instance; point one of the `$ref`s in the loop at a real schema");
        self.diags.push(diagnostic);
    }
}

/// The reference keywords of a schema with their values: `$ref`, and the dynamic reference
/// of the draft (resolved by [`Lowerer::follow_ref`]).
pub(super) fn references(map: &serde_json::Map<String, Value>, draft: Draft) -> Vec<(&'static str, &str)> {
    let keywords: &[&'static str] = match draft {
        Draft::Draft2020_12 => &["$ref", "$dynamicRef"],
        Draft::Draft2019_09 => &["$ref", "$recursiveRef"],
        _ => &["$ref"],
    };
    keywords.iter().filter_map(|k| map.get(*k).and_then(Value::as_str).map(|r| (*k, r))).collect()
}
