//! Instance synthesis for schemac: valid JSON instances that together cover a schema, and
//! invalid mutants that each violate exactly one keyword at one pointer.
//!
//! Pure and deterministic: the same schemas, root and [`SynthConfig`] give the same instances
//! on every machine. Reads the schema model ([`schemac_model::schema::Model`]: typed keywords,
//! resolved references), not the IR, because the instances must follow what the schema says,
//! not what the types make of it.
//!
//! Candidates are generated from what the keywords promise and kept only when the referee, the
//! `jsonschema` crate (`referee.rs`), confirms them: a valid instance has no failure, a mutant
//! exactly one keyword failing at one pointer. Where in an instance each subschema applies is
//! the synthesizer's own walk (`walk.rs`), which decides no validity itself.

mod annotations;
mod coverage;
mod diff;
mod mutate;
mod plan;
mod referee;
mod rng;
mod schema;
mod strings;
#[cfg(test)]
mod tests;
mod values;
mod walk;
mod witness;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use schemac::ir::Ir;
use schemac::{Config, Draft, Input};
use schemac_model::diag::Diagnostics;
use schemac_model::resolve::{Loc, Registry};
use schemac_model::schema::Keyword;

pub use diff::{RefereeOracle, diff};
pub use witness::{Counterexample, Search, witnesses};

/// The assertion keywords the mutator knows how to violate, in the order it tries them.
/// `format` is missing on purpose: it is an annotation, and no instance is invalid by it.
pub const ASSERTIONS: [Keyword; 31] = [
    Keyword::Type,
    Keyword::Enum,
    Keyword::Const,
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
    Keyword::MultipleOf,
    Keyword::MinLength,
    Keyword::MaxLength,
    Keyword::Pattern,
    Keyword::Required,
    Keyword::AdditionalProperties,
    Keyword::PropertyNames,
    Keyword::MinProperties,
    Keyword::MaxProperties,
    Keyword::DependentRequired,
    Keyword::Dependencies,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::UniqueItems,
    Keyword::Items,
    Keyword::AdditionalItems,
    Keyword::Contains,
    Keyword::MinContains,
    Keyword::MaxContains,
    Keyword::UnevaluatedItems,
    Keyword::UnevaluatedProperties,
    Keyword::OneOf,
    Keyword::AnyOf,
    Keyword::Not,
];

/// How to synthesize.
#[derive(Clone, Debug)]
pub struct SynthConfig {
    /// Seeds the choices inside pattern-generated strings.
    pub seed: u64,
    /// Below this nesting depth every feature gets its own variant; deeper, only minimal values.
    pub max_depth: usize,
    /// The largest `maxItems` filled completely for the "largest item count" instance.
    pub max_items: usize,
    /// The longest `maxLength` string generated for the "largest length" instance.
    pub max_string: usize,
    /// How many strings to try for each `pattern`.
    pub pattern_samples: usize,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig { seed: 0x5EED_5C4E_AAC0_0001, max_depth: 8, max_items: 32, max_string: 256, pattern_samples: 4 }
    }
}

/// One synthesized valid instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// What this instance was made to cover, e.g. `/policy/on_exhausted: enum value 2`.
    pub note: String,
    pub value: Value,
}

/// An invalid instance violating exactly one keyword at one pointer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutant {
    /// The JSON pointer, into the instance, of the value that violates the keyword.
    pub pointer: String,
    /// The violated keyword, e.g. `minimum` (`false` for a property whose schema is `false`).
    pub keyword: String,
    /// Where that keyword is in the schema document, e.g. `/$defs/attempt/properties/score/maximum`.
    pub schema_path: String,
    /// For a keyword inside `contains` or `propertyNames`, which only ever fails as the
    /// keyword around it: where the inner keyword the changed item or name violates is, e.g.
    /// `/properties/some/contains/minimum`. `None` when `keyword` itself is what was violated.
    pub via: Option<String>,
    pub why: String,
    pub instance: Value,
}

/// What the synthesizer made for one schema.
#[derive(Clone, Debug, Default)]
pub struct Synthesis {
    pub valid: Vec<Sample>,
    pub invalid: Vec<Mutant>,
    /// What could not be covered: a property, enum value or branch no valid instance has, or
    /// an assertion keyword with no mutant. Listed so that a gap is never silent.
    pub uncovered: Vec<String>,
    /// Targets no instance can reach, each with the proof (e.g. an enum value a sibling
    /// `maximum` rejects): listed apart so that `uncovered` holds only real gaps.
    pub unreachable: Vec<String>,
    /// What the synthesizer does not support here (e.g. a pattern it cannot generate from).
    pub unsupported: Vec<String>,
}

impl Synthesis {
    /// How many mutants violate each keyword.
    pub fn mutants_by_keyword(&self) -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for mutant in &self.invalid {
            *counts.entry(mutant.keyword.clone()).or_insert(0) += 1;
        }
        counts
    }
}

/// Synthesizes valid instances and mutants for the schema at `root` of the front end's
/// documents. Fails only when `jsonschema`, which referees every instance, cannot read the
/// documents.
pub fn synthesize(front: &schemac::Front, root: &Loc, config: &SynthConfig) -> Result<Synthesis, Diagnostics> {
    let referee = referee::Referee::new(front)?;
    Ok(synthesize_with(&walk::Schemas::new(front, &referee), root, config))
}

fn synthesize_with(schemas: &walk::Schemas<'_>, root: &Loc, config: &SynthConfig) -> Synthesis {
    let mut generator = values::Gen { schemas, cfg: config, rng: rng::Rng::new(config.seed), notes: BTreeSet::new() };
    let valid: Vec<Sample> = generator
        .values(&values::Conj::of(root.clone()), 0)
        .into_iter()
        .map(|s| Sample { note: if s.note.is_empty() { "minimal".to_owned() } else { s.note }, value: s.value })
        .collect();
    let invalid = mutate::mutants(&mut generator, root, &valid);
    let (uncovered, unreachable) = coverage::uncovered(schemas, root, &valid, &invalid);
    let (annotated, problems) = annotations::instances(schemas, root, &valid);
    let mut unsupported: Vec<String> = generator.notes.into_iter().collect();
    unsupported.extend(problems);
    unsupported.extend(schemas.problems());
    let mut valid = valid;
    valid.extend(annotated);
    Synthesis { valid, invalid, uncovered, unreachable, unsupported }
}

/// The synthesis for one compiled module: its schema document, root type, and every type with
/// where it comes from and which keywords it does not enforce yet.
#[derive(Clone, Debug)]
pub struct ModuleSynthesis {
    /// e.g. `["madoo", "attempts_report_v1"]`.
    pub path: Vec<String>,
    /// The schema file as displayed, e.g. `schemas/madoo/attempts-report.v1.json`.
    pub source: String,
    /// The schema document.
    pub schema: Value,
    pub draft: Draft,
    /// The root type's name.
    pub root: String,
    pub types: Vec<TypeOrigin>,
    /// Absolute schema pointers (in this document) of keywords some type does not enforce yet.
    pub unenforced: BTreeSet<String>,
    pub synthesis: Synthesis,
}

/// A generated type and the subschema it comes from.
#[derive(Clone, Debug)]
pub struct TypeOrigin {
    pub name: String,
    /// JSON pointer of its subschema in the module's document.
    pub pointer: String,
    /// A `pub type` alias: not a type of its own (no trait can be implemented for it).
    pub alias: bool,
}

/// A keyword an instance violates, as the referee (`jsonschema`) reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub pointer: String,
    pub keyword: String,
    /// Where the keyword is in the schema document.
    pub schema_path: String,
}

/// The compiler's front end (load, resolve, the schema model) and the named IR, made once, for
/// synthesizing and for classifying hand-written instances against the same schemas.
#[derive(Debug)]
pub struct Front {
    front: schemac::Front,
    ir: Ir,
    referee: referee::Referee,
}

impl Front {
    pub fn new(input: &Input, config: &Config) -> Result<Front, Diagnostics> {
        let front = schemac::front(input, config)?;
        let ir = front.lower(config)?;
        let referee = referee::Referee::new(&front)?;
        Ok(Front { front, ir, referee })
    }

    /// Synthesizes instances for the root of every input schema, in module order.
    pub fn modules(&self, synth: &SynthConfig) -> Vec<ModuleSynthesis> {
        let (registry, ir) = (&self.front.registry, &self.ir);
        let mut out = Vec::new();
        for &(doc_id, root_def) in &ir.roots {
            let doc = registry.doc(doc_id);
            if !doc.is_input {
                continue;
            }
            let root = Loc { doc: doc_id, pointer: String::new() };
            out.push(ModuleSynthesis {
                path: self.front.module(doc_id).to_vec(),
                source: doc.display.clone(),
                schema: doc.json.clone(),
                draft: doc.draft,
                root: ir.def(root_def).name.clone(),
                types: ir
                    .defs
                    .iter()
                    .filter(|d| d.origin.doc == doc_id)
                    .map(|d| TypeOrigin {
                        name: d.name.clone(),
                        pointer: d.origin.pointer.clone(),
                        alias: matches!(d.kind, schemac::ir::DefKind::Alias(_)),
                    })
                    .collect(),
                unenforced: unenforced(ir, registry, doc_id),
                synthesis: synthesize_with(&walk::Schemas::new(&self.front, &self.referee), &root, synth),
            });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// The `proptest` generation plan (JSON, see `schemac_runtime::arbitrary`) for the
    /// subschema at `pointer` of the input schema `source`.
    pub fn plan(&self, source: &str, pointer: &str, synth: &SynthConfig) -> Value {
        let Some(doc) = self.front.registry.docs.iter().find(|d| d.display == source) else { return Value::Null };
        let schemas = walk::Schemas::new(&self.front, &self.referee);
        let mut generator = values::Gen { schemas: &schemas, cfg: synth, rng: rng::Rng::new(synth.seed), notes: BTreeSet::new() };
        plan::plan(&mut generator, &Loc { doc: doc.id, pointer: pointer.to_owned() }, 0)
    }

    /// The keywords `instance` violates against the root of the input schema `source` (as
    /// displayed); empty when it is valid or no input schema has that name.
    pub fn violations(&self, source: &str, instance: &Value) -> Vec<Violation> {
        let Some(doc) = self.front.registry.docs.iter().find(|d| d.is_input && d.display == source) else { return Vec::new() };
        let schemas = walk::Schemas::new(&self.front, &self.referee);
        let root = Loc { doc: doc.id, pointer: String::new() };
        schemas
            .failures(&root, instance)
            .into_iter()
            .map(|f| Violation { pointer: f.pointer, keyword: f.keyword.to_string(), schema_path: f.schema.pointer })
            .collect()
    }
}

/// Runs the compiler's front end and synthesizes instances for the root of every input schema:
/// what `cargo xtask codegen` needs to write the round-trip tests.
pub fn synthesize_for(input: &Input, config: &Config, synth: &SynthConfig) -> Result<Vec<ModuleSynthesis>, Diagnostics> {
    Ok(Front::new(input, config)?.modules(synth))
}

/// Absolute pointers in document `doc` of the keywords some type lists as not enforced yet.
fn unenforced(ir: &Ir, registry: &Registry, doc: schemac_model::DocId) -> BTreeSet<String> {
    let display = &registry.doc(doc).display;
    let mut out = BTreeSet::new();
    for def in &ir.defs {
        for label in &def.unenforced {
            let absolute = match label.split_once('#') {
                Some(("", pointer)) if def.origin.doc == doc => pointer.to_owned(),
                Some((file, pointer)) if file == display => pointer.to_owned(),
                Some(_) => continue,
                None if def.origin.doc == doc => format!("{}/{label}", def.origin.pointer),
                None => continue,
            };
            out.insert(absolute);
        }
    }
    out
}
