//! Reference loops that never reach the instance's children: a `$ref` back to a schema that is
//! already applying to the same value, through in-place applicators (`allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`). Validating such a schema never
//! ends, and the specification forbids it (2020-12 core, section 9.4.1). A loop of `$ref` and
//! `allOf` alone is lowering's to report (`lower/flatten.rs`, with the same code); this check
//! finds the loops that pass through a branch, which lowering would otherwise turn into a
//! recursive type.

use super::{Model, SchemaId};
use crate::diag::Diagnostic;
use crate::doc::{DocId, Loc};
use crate::resolve::Registry;

/// How a schema applies another to the same instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    /// `$ref` or `allOf`: what lowering follows itself.
    Flat,
    /// Any other in-place applicator, by its keyword.
    Branch(&'static str),
}

/// An in-place subschema, how it applies, and the reference keyword when it is a `$ref`'s target.
type Child = (SchemaId, Edge, Option<&'static str>);

/// The in-place subschemas of `id`, with how each applies; `$ref`s by their targets.
fn in_place(model: &Model, id: SchemaId) -> Vec<Child> {
    let Some(schema) = model.node(id).schema() else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(Ok(target)) = schema.ref_.as_ref().map(|r| r.target()) {
        out.push((target.id, Edge::Flat, Some("$ref")));
    }
    let lists = [("allOf", &schema.all_of), ("anyOf", &schema.any_of), ("oneOf", &schema.one_of)];
    for (keyword, list) in lists {
        let edge = if keyword == "allOf" { Edge::Flat } else { Edge::Branch(keyword) };
        out.extend(list.iter().flatten().map(|&child| (child, edge, None)));
    }
    let singles = [("not", schema.not), ("if", schema.if_), ("then", schema.then), ("else", schema.else_)];
    out.extend(singles.into_iter().filter_map(|(keyword, child)| Some((child?, Edge::Branch(keyword), None))));
    out.extend(schema.dependent_schemas.iter().flatten().map(|(_, child)| (*child, Edge::Branch("dependentSchemas"), None)));
    out.extend(schema.dependencies.iter().flatten().filter_map(|(_, dependency)| match dependency {
        super::Dependency::Schema(child) => Some((*child, Edge::Branch("dependencies"), None)),
        super::Dependency::Names(_) => None,
    }));
    out
}

/// A `ref-cycle` error for every loop of in-place applicators that passes through a branch,
/// located at the `$ref` that closes it.
pub(super) fn check(model: &Model, registry: &Registry) -> Vec<(DocId, Diagnostic)> {
    const WHITE: u8 = 0;
    const GRAY: u8 = 1;
    const BLACK: u8 = 2;
    let mut color = vec![WHITE; model.len()];
    let mut diagnostics = Vec::new();
    for (start, _) in model.nodes() {
        if color[start.index()] != WHITE {
            continue;
        }
        // An explicit stack: schemas nest as deep as a document does.
        let mut path: Vec<(SchemaId, Edge)> = Vec::new();
        let mut stack: Vec<(SchemaId, Vec<Child>)> = vec![(start, in_place(model, start))];
        color[start.index()] = GRAY;
        while let Some((node, children)) = stack.last_mut() {
            let node = *node;
            let Some((child, edge, via)) = children.pop() else {
                color[node.index()] = BLACK;
                stack.pop();
                path.pop();
                continue;
            };
            match color[child.index()] {
                WHITE => {
                    color[child.index()] = GRAY;
                    path.push((node, edge));
                    let grandchildren = in_place(model, child);
                    stack.push((child, grandchildren));
                }
                GRAY => {
                    // The loop: from `child` on the stack down to `node`, then back.
                    let from = stack.iter().position(|(id, _)| *id == child).unwrap_or(0);
                    let mut edges: Vec<Edge> = path[from..].iter().map(|(_, e)| *e).collect();
                    edges.push(edge);
                    if let Some(Edge::Branch(keyword)) = edges.iter().find(|e| matches!(e, Edge::Branch(_))) {
                        let members: Vec<&Loc> = stack[from..].iter().map(|(id, _)| model.loc(*id)).collect();
                        diagnostics.push((model.loc(node).doc, report(registry, model.loc(node), via, &members, keyword)));
                    }
                }
                _ => {}
            }
        }
    }
    diagnostics
}

fn report(registry: &Registry, at: &Loc, via: Option<&str>, members: &[&Loc], keyword: &str) -> Diagnostic {
    let at = match via {
        Some(keyword) => at.child(keyword),
        None => at.clone(),
    };
    let path: Vec<String> = members
        .iter()
        .copied()
        .chain(members.first().copied())
        .map(|l| if l.pointer.is_empty() { "#".to_owned() } else { format!("#{}", l.pointer) })
        .collect();
    let message = format!(
        "`$ref` loop back to a schema that already applies to the same value, through `{keyword}`, without passing through a \
         property or item: {}; validating it would never end",
        path.join(" → ")
    );
    registry.error("ref-cycle", &at, message).with_hint(
        "the specification forbids a reference loop that consumes no part of the instance; point one of the `$ref`s in \
         the loop at a real schema",
    )
}
