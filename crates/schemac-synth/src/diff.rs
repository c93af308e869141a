//! `schemac diff` with a validator: the [`Oracle`] the diff confirms its witnesses with is the
//! referee (the `jsonschema` crate) of each version, and its samples are this crate's valid
//! instances, made small (a few values, shallow variants) because they only build the rest of
//! a document around a witness.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use schemac::Front;
use schemac::diff::{Options, Oracle, Report, Side};
use schemac_model::diag::Diagnostics;
use schemac_model::resolve::Loc;
use serde_json::Value;

use crate::SynthConfig;
use crate::referee::Referee;
use crate::walk::Schemas;

/// Every change between two versions with its verdicts, each breaking one with a witness the
/// `jsonschema` crate confirms (valid under one version, invalid under the other).
pub fn diff(old: &Front, new: &Front, options: &Options) -> Result<Report, Diagnostics> {
    let oracle = RefereeOracle::new(old, new)?;
    schemac::diff::diff_with(old, new, options, &oracle)
}

/// Samples already made, by side, conjunction and depth of variants.
type SampleCache = RefCell<HashMap<(Side, Vec<Loc>, usize), Vec<Value>>>;

/// The validator and sample maker of both versions.
pub struct RefereeOracle<'f> {
    fronts: [&'f Front; 2],
    referees: [Referee; 2],
    config: SynthConfig,
    samples: SampleCache,
}

impl std::fmt::Debug for RefereeOracle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefereeOracle").field("referees", &self.referees).finish_non_exhaustive()
    }
}

impl<'f> RefereeOracle<'f> {
    pub fn new(old: &'f Front, new: &'f Front) -> Result<RefereeOracle<'f>, Diagnostics> {
        // Shallow variants: the samples are the surroundings of a witness, not a cover.
        let config = SynthConfig { max_depth: 1, max_items: 4, max_string: 64, pattern_samples: 2, ..SynthConfig::default() };
        Ok(RefereeOracle {
            fronts: [old, new],
            referees: [Referee::new(old)?, Referee::new(new)?],
            config,
            samples: RefCell::new(HashMap::new()),
        })
    }

    fn index(side: Side) -> usize {
        match side {
            Side::Old => 0,
            Side::New => 1,
        }
    }
}

impl Oracle for RefereeOracle<'_> {
    fn valid(&self, side: Side, loc: &Loc, value: &Value) -> Option<bool> {
        let i = Self::index(side);
        Some(self.referees[i].is_valid(&self.fronts[i].model, loc, value))
    }

    /// A few values asked for (the surroundings of a witness): the minimal ones only, which
    /// cost little on any schema; more: one variant per feature of the outermost level too.
    fn samples(&self, side: Side, locs: &[Loc], limit: usize) -> Vec<Value> {
        let depth = if limit <= 2 { 0 } else { 1 };
        let key = (side, locs.to_vec(), depth);
        if let Some(found) = self.samples.borrow().get(&key) {
            return found.iter().take(limit).cloned().collect();
        }
        let i = Self::index(side);
        let schemas = Schemas::new(self.fronts[i], &self.referees[i]);
        let config = SynthConfig { max_depth: depth, ..self.config.clone() };
        let mut generator =
            crate::values::Gen { schemas: &schemas, cfg: &config, rng: crate::rng::Rng::new(config.seed), notes: BTreeSet::new() };
        let values: Vec<Value> =
            generator.values(&crate::values::Conj::all(locs.to_vec()), 0).into_iter().map(|s| s.value).take(32).collect();
        self.samples.borrow_mut().insert(key, values.clone());
        values.into_iter().take(limit).collect()
    }

    fn rejections(&self, side: Side, loc: &Loc, value: &Value) -> Vec<Loc> {
        let i = Self::index(side);
        let front = self.fronts[i];
        self.referees[i].failures(&front.model, &front.registry, loc, value).into_iter().map(|f| f.schema).collect()
    }
}
