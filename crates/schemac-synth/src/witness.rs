//! A check of the diff's verdicts from outside the proof: for every role the diff calls
//! compatible, a search for a counterexample among documents synthesized from both versions
//! (each version's valid instances and its mutants, each violating one keyword), judged by the
//! referee, the `jsonschema` crate. For readers (old ⊆ new) a document is a counterexample when
//! the old version accepts it and the new one rejects it; for writers, the other way round.
//! The breaking verdicts' witnesses come with the diff ([`crate::diff`]); this counts them.

use serde_json::Value;

use schemac::Front;
use schemac::diff::{Report, Role, Verdict};
use schemac_model::diag::Diagnostics;
use schemac_model::resolve::Loc;

use crate::SynthConfig;
use crate::referee::Referee;

/// What the search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Search {
    /// Documents tried (synthesized from both versions).
    pub candidates: usize,
    /// Breaking verdicts, and how many of them got a witness.
    pub breaking: usize,
    pub witnessed: usize,
    /// Documents that separate the versions for a role the diff calls compatible: each one
    /// means the classifier is wrong.
    pub counterexamples: Vec<Counterexample>,
}

/// A document that breaks a role the diff calls compatible.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    pub role: Role,
    pub document: Value,
    /// Where the version that rejects it fails (schema locations).
    pub failures: Vec<String>,
}

/// One candidate and how the two versions judge it.
struct Judged {
    document: Value,
    /// The schema locations (keyword locations) where each version rejects it; empty: accepts.
    old_failures: Vec<Loc>,
    new_failures: Vec<Loc>,
}

/// Counts the breaking verdicts of `report` and their witnesses, and searches counterexamples
/// for the roles it calls compatible among at most `budget` documents.
pub fn witnesses(report: &Report, old: &Front, new: &Front, config: &SynthConfig, budget: usize) -> Result<Search, Diagnostics> {
    let (old_referee, new_referee) = (Referee::new(old)?, Referee::new(new)?);
    let mut judged: Vec<Judged> = Vec::new();
    for (old_root, new_root) in report.roots.clone() {
        let old_synthesis = crate::synthesize(old, &old_root, config)?;
        let new_synthesis = crate::synthesize(new, &new_root, config)?;
        let documents = old_synthesis
            .valid
            .into_iter()
            .map(|s| s.value)
            .chain(old_synthesis.invalid.into_iter().map(|m| m.instance))
            .chain(new_synthesis.valid.into_iter().map(|s| s.value))
            .chain(new_synthesis.invalid.into_iter().map(|m| m.instance));
        for document in documents {
            if judged.len() >= budget {
                break;
            }
            if judged.iter().any(|j| j.document == document) {
                continue;
            }
            let fails = |front: &Front, referee: &Referee, root: &Loc| -> Vec<Loc> {
                referee.failures(&front.model, &front.registry, root, &document).into_iter().map(|f| f.schema).collect()
            };
            let old_failures = fails(old, &old_referee, &old_root);
            let new_failures = fails(new, &new_referee, &new_root);
            judged.push(Judged { document, old_failures, new_failures });
        }
    }
    let mut search = Search { candidates: judged.len(), ..Search::default() };
    // Readers break on what old accepts and new rejects; writers on the reverse.
    let separates = |j: &Judged, role: Role| match role {
        Role::Reader => j.old_failures.is_empty() && !j.new_failures.is_empty(),
        Role::Writer | Role::Both => j.new_failures.is_empty() && !j.old_failures.is_empty(),
    };
    for change in &report.changes {
        for (i, verdict) in [change.readers(), change.writers()].into_iter().enumerate() {
            if verdict == Verdict::Breaking {
                search.breaking += 1;
                search.witnessed += usize::from(change.witnesses[i].is_some());
            }
        }
    }
    for role in [Role::Reader, Role::Writer] {
        if report.breaking(role) || report.unknown(role) {
            continue;
        }
        for j in judged.iter().filter(|j| separates(j, role)) {
            let failures = if role == Role::Reader { &j.new_failures } else { &j.old_failures };
            let failures = failures.iter().map(|f| format!("{}#{}", f.doc.0, f.pointer)).collect();
            search.counterexamples.push(Counterexample { role, document: j.document.clone(), failures });
        }
    }
    Ok(search)
}
