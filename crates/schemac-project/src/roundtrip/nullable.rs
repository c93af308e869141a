//! The nullable branches of unions dispatched by JSON kind: such a branch is handed a
//! deserializer of the one value already read, and must take every kind the union gives it,
//! not only `null`. For every such branch of a crate, the synthesizer's valid instances of the
//! union's schema are sorted by kind; the test binary `<crate>/tests/schemas/` reads an
//! instance of each kind the branch takes as the union type itself, checks it lands in that
//! branch and writes it back unchanged (data in `<crate>/tests/data/nullable-branches.json`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::error::{Error, bail};
use schemac::emit::Visit;
use schemac_synth::SynthConfig;
use serde_json::{Value, json};

/// The test module's name in `tests/schemas/`.
pub const MODULE: &str = "nullable_branches";
/// Instances of one kind per branch: a few, so the data file stays small.
const PER_KIND: usize = 3;

/// The generated test module and its data file, or `None` when no union of the crate has a
/// nullable branch.
pub struct Tests {
    pub module: String,
    pub data: String,
}

/// The tests of the crate `krate` compiled from `input`; fails when a kind a branch takes has
/// no synthesized instance, so a branch is never left partly untested.
pub fn tests(krate: &str, command: &str, input: &schemac::Input, config: &schemac::Config) -> Result<Option<Tests>, Error> {
    let front = schemac::front(input, config)?;
    let ir = front.lower(config)?;
    let branches = schemac::emit::nullable_branches(&ir);
    if branches.is_empty() {
        return Ok(None);
    }
    let synth = SynthConfig::default();
    let mut cases = Vec::new();
    let mut calls = Vec::new();
    let mut samples_at: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    for branch in &branches {
        let def = ir.def(branch.union);
        let doc = front.registry.doc(def.origin.doc);
        let label = format!("{}#{} ({}::{})", doc.display, def.origin.pointer, def.name, branch.variant);
        let samples = match samples_at.entry(branch.union.0) {
            std::collections::btree_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::btree_map::Entry::Vacant(entry) => {
                let synthesis = schemac_synth::synthesize(&front, &def.origin, &synth)?;
                entry.insert(synthesis.valid.into_iter().map(|s| s.value).collect())
            }
        };
        let mut path = front.module(def.origin.doc).to_vec();
        path.push(def.name.clone());
        let union = path.join("::");
        let mut count = 0;
        for visit in &branch.visits {
            let of_kind = of_kind(samples, *visit);
            if of_kind.is_empty() {
                bail!(
                    "{label}: the union hands this nullable branch every {} value, but no synthesized instance of the union's \
                     schema is one, so the generated test could not exercise it; extend the synthesizer (crates/schemac-synth/)",
                    visit.name()
                );
            }
            for instance in &of_kind {
                cases.push(json!({ "union": union, "variant": branch.variant, "kind": visit.name(), "instance": instance }));
                count += 1;
            }
        }
        let test = schemac::ident::module_name(&format!("{}_{}", path.join("_"), branch.variant));
        calls.push((label, test, union, branch.variant.clone(), count));
    }
    let mut module = super::header(command, "the schemas of this crate");
    module.push_str("//! Every nullable branch of a union dispatched by JSON kind takes a value of each kind the\n");
    module.push_str("//! union hands it, not only `null`; see `harness::nullable_branch`.\n\n");
    module.push_str("const CASES: &str = include_str!(\"../data/nullable-branches.json\");\n");
    let krate = krate.replace('-', "_");
    for (label, test, union, variant, count) in &calls {
        let _ = write!(
            module,
            "\n/// `{label}`.\n#[test]\nfn {test}() {{\n    super::harness::nullable_branch::<{krate}::{union}>(CASES, {union:?}, {variant:?}, {count});\n}}\n"
        );
    }
    let mut data = serde_json::to_string_pretty(&Value::Array(cases))?;
    data.push('\n');
    Ok(Some(Tests { module, data }))
}

/// Up to [`PER_KIND`] of `samples` that serde_json hands a visitor as `visit`. A float the
/// synthesizer did not make is an integer it made, written as a float (`1.0`): the same
/// number to JSON Schema, read through `visit_f64`.
fn of_kind(samples: &[Value], visit: Visit) -> Vec<Value> {
    let found: Vec<Value> = samples.iter().filter(|v| Visit::of(v) == visit).take(PER_KIND).cloned().collect();
    if !found.is_empty() || visit != Visit::Float {
        return found;
    }
    samples
        .iter()
        .filter_map(|v| v.as_i64().filter(|n| n.unsigned_abs() < 1 << 53))
        .filter_map(|n| serde_json::Number::from_f64(n as f64).map(Value::Number))
        .take(PER_KIND)
        .collect()
}
