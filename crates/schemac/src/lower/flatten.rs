//! Flattening: a schema is the `allOf` of its own keywords, its `$ref` target (from 2019-09
//! on, beside other keywords; before, instead of them) and its `allOf` branches. Following
//! those recursively gives the *parts* whose keywords all apply to the instance.
//!
//! A chain of `$ref`/`allOf` that comes back to a schema on it never reaches a keyword that
//! looks at the instance: it is a `ref-cycle`.

use std::collections::HashSet;

use super::Lowerer;
use super::dynamic::Bindings;
use super::keywords::{Part, constrains};
use crate::Draft;
use crate::resolve::Loc;
use crate::schema::{Body, Keyword};

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

/// The state of one flattening walk.
#[derive(Default)]
struct Walk {
    /// The schemas being visited, outermost first (a `$ref` back to one of them is a cycle).
    stack: Vec<Loc>,
    /// The schemas visited, with the bindings they were visited with.
    done: HashSet<(Loc, Bindings)>,
    /// The locations of `Flat::parts`, so a part is added once in constant time.
    parts: HashSet<Loc>,
    /// Per part, how many parts there were when its visit started.
    starts: Vec<usize>,
}

impl<'r> Lowerer<'r> {
    pub(super) fn flatten(&mut self, locs: &[Loc]) -> Flat<'r> {
        let mut flat = Flat::default();
        let mut walk = Walk::default();
        for loc in locs {
            let bindings = self.bindings_at(loc);
            self.visit(loc, &bindings, None, &mut flat, &mut walk);
        }
        let starts = walk.starts;
        // The last part pushed is the outermost schema's own; it is the ancestor of all the
        // others when its visit started before any of them.
        if locs.len() == 1 && starts.last() == Some(&0) {
            flat.top = flat.parts.len().checked_sub(1);
        }
        flat
    }

    /// Adds the parts of the schema at `loc` (with dynamic anchor `bindings`), reached through the keyword at `via`.
    fn visit(&mut self, loc: &Loc, bindings: &Bindings, via: Option<&Loc>, flat: &mut Flat<'r>, walk: &mut Walk) {
        let stack = &mut walk.stack;
        if let Some(start) = stack.iter().position(|l| l == loc) {
            self.report_cycle(&stack[start..], loc, via);
            flat.broken = true;
            return;
        }
        // A schema reached again (a diamond of `allOf`s) adds nothing new: its parts are
        // already there, and its errors reported. Without this, `allOf: [{"$ref": "#/$defs/n"},
        // {"$ref": "#/$defs/n"}]` at every level would double the walk per level.
        if !walk.done.insert((loc.clone(), bindings.clone())) {
            return;
        }
        if stack.len() >= super::MAX_DEPTH {
            self.too_deep(via.unwrap_or(loc), "`$ref`s and `allOf`s");
            flat.broken = true;
            return;
        }
        let model = self.model;
        let Some(node) = model.at(loc) else {
            let at = via.unwrap_or(loc);
            let message = format!("there is no schema at `{}`", loc.pointer);
            let diagnostic =
                self.reg.error("unresolved-ref", at, message).with_hint("the JSON pointer after `#` must name an existing schema");
            self.diags.push(diagnostic);
            flat.broken = true;
            return;
        };
        let schema = match &node.body {
            Body::Object(schema) => schema,
            Body::Bool(true) => return,
            Body::Bool(false) => {
                flat.never = true;
                return;
            }
            // Not a schema: reported by the model.
            Body::Invalid => {
                flat.broken = true;
                return;
            }
        };
        let start = flat.parts.len();
        stack.push(loc.clone());
        for (keyword, reference) in schema.refs() {
            let at = loc.child(keyword.name());
            match self.follow_ref(loc, keyword, reference, bindings) {
                Ok((target, inner)) => self.visit(&target, &inner, Some(&at), flat, walk),
                Err(diagnostic) => {
                    self.diags.push(diagnostic);
                    flat.broken = true;
                }
            }
        }
        if node.draft <= Draft::Draft7 && schema.ref_.is_some() {
            // Before 2019-09, keywords beside `$ref` are ignored (the model keeps only the
            // annotations, which document the schema but do not constrain it).
            walk.stack.pop();
            return;
        }
        let part = Part::new(loc.clone(), schema, node.draft);
        let at = part.at(Keyword::AllOf);
        for branch in part.all_of() {
            let inner = self.descend(bindings, Some(loc), &branch);
            self.visit(&branch, &inner, Some(&at), flat, walk);
        }
        walk.stack.pop();
        if constrains(schema) && walk.parts.insert(loc.clone()) {
            flat.parts.push(part);
            flat.bindings.push(bindings.clone());
            walk.starts.push(start);
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
