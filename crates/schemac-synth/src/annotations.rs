//! Instances from the schema's own `examples` and `default`s: each is put where its subschema
//! applies in a synthesized instance, and kept when the whole instance is valid. One that
//! cannot be made valid is reported: a schema whose example fails it is worth knowing about.

use std::collections::BTreeSet;

use schemac_model::resolve::Loc;
use schemac_model::schema::Keyword;
use serde_json::Value;

use super::Sample;
use super::walk::Schemas;

/// `(instances, problems)`.
pub(crate) fn instances(schemas: &Schemas<'_>, root: &Loc, hosts: &[Sample]) -> (Vec<Sample>, Vec<String>) {
    let mut done: BTreeSet<(Loc, usize)> = BTreeSet::new();
    let mut tried: BTreeSet<(Loc, usize)> = BTreeSet::new();
    let mut out = Vec::new();
    for host in hosts {
        for (ptr, loc) in schemas.visits(root, &host.value) {
            let Some(view) = schemas.view(&loc) else { continue };
            let mut values: Vec<(String, &Value)> = Vec::new();
            if let Some(default) = &view.schema.default {
                values.push((Keyword::Default.to_string(), default));
            }
            for (i, example) in view.schema.examples.iter().flatten().enumerate() {
                values.push((format!("{}/{i}", Keyword::Examples), example));
            }
            for (i, (what, value)) in values.into_iter().enumerate() {
                let key = (loc.clone(), i);
                if done.contains(&key) {
                    continue;
                }
                tried.insert(key.clone());
                let mut instance = host.value.clone();
                let Some(slot) = instance.pointer_mut(&ptr) else { continue };
                *slot = value.clone();
                if schemas.is_valid(root, &instance) {
                    out.push(Sample {
                        note: format!("{what} of {} at {}", loc.pointer, if ptr.is_empty() { "the root" } else { &ptr }),
                        value: instance,
                    });
                    done.insert(key);
                }
            }
        }
    }
    let problems = tried
        .difference(&done)
        .map(|(loc, i)| format!("annotation {i} (default or example) at {} is not valid where it applies", loc.pointer))
        .collect();
    (out, problems)
}
