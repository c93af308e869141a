//! What emission needs of the source documents, attached to the IR before it: each document's
//! text, identity and module, and the bundling plan of every subschema a type's `JsonSchema`
//! returns or refers to, with the JSON text of the reference targets.

use std::collections::BTreeMap;

use crate::ir::{Ir, Source};
use crate::modules::Modules;
use crate::resolve::{Loc, Registry};
use crate::schema::Keyword;
use crate::schema::bundle::{Plan, plan};

/// The plans emission needs for `ir`: the subschema of every type and of every document
/// root, and (transitively) of every reference target among them, with the JSON text of
/// targets in other documents (embedded beside the type that refers to them).
pub(crate) fn attach(registry: &Registry, modules: &Modules, ir: &mut Ir) {
    let mut todo: Vec<Loc> = ir.defs.iter().map(|d| d.origin.clone()).collect();
    todo.extend(ir.roots.iter().map(|(doc, _)| Loc { doc: *doc, pointer: String::new() }));
    let mut plans: BTreeMap<Loc, Plan> = BTreeMap::new();
    let mut texts: BTreeMap<Loc, String> = BTreeMap::new();
    while let Some(loc) = todo.pop() {
        if plans.contains_key(&loc) {
            continue;
        }
        let plan = plan(registry, &loc);
        for site in &plan.sites {
            if let Some(json) = registry.get(&site.target) {
                texts.entry(site.target.clone()).or_insert_with(|| json.to_string());
            }
            todo.push(site.target.clone());
        }
        plans.insert(loc, plan);
    }
    ir.sources.plans = plans;
    ir.sources.texts = texts;
    ir.sources.documents = registry
        .docs
        .iter()
        .map(|doc| {
            let source = Source {
                id: doc.id,
                display: doc.display.clone(),
                module: modules.path(doc.id).to_vec(),
                sha256: doc.sha256.clone(),
                text: doc.text.clone(),
                schema_id: doc.root_id().map_or_else(|| doc.display.clone(), str::to_owned),
                title: doc.root_string(Keyword::Title).map(str::to_owned),
                description: doc.root_string(Keyword::Description).map(str::to_owned),
            };
            (doc.id, source)
        })
        .collect();
}
