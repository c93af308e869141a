//! What the conformance driver reads and prints: a case is an instance and the group whose
//! root type it is deserialized as; the driver says whether it was accepted and round-trips.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::harness::driver::Case;

/// The spec of the conformance crate: one module per group, `conformance_check` in each.
pub static SPEC: crate::harness::krate::Spec = crate::harness::krate::Spec {
    package: "schemac-conformance",
    command: "cargo xtask conformance",
    main: include_str!("driver_main.rs.in"),
    entry: "conformance_check",
    dependencies: "serde = { version = \"1\", features = [\"derive\"] }\nserde_json = { version = \"1\", features = [\"preserve_order\"] }\n",
    runtime_features: &["bignum", "formats"],
    // One crate: the suite's schemas are small.
    shard_lines: usize::MAX,
};

/// One case to run: the instance and the group whose root type it is deserialized as.
#[derive(Debug, Serialize)]
pub struct Input<'a> {
    pub id: String,
    pub group: String,
    pub data: &'a Value,
}

impl Case for Input<'_> {
    fn id(&self) -> &str {
        &self.id
    }
}

/// What the generated type did with one instance.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Observed {
    pub accepted: bool,
    /// For accepted instances: whether they serialize back to an equal instance.
    pub round_trip: Option<bool>,
    /// The rejection, the round trip's difference, the panic or the crash.
    pub error: Option<String>,
    /// Deserialization panicked or crashed the driver: a bug, whatever the expected outcome.
    pub panicked: bool,
}

impl Observed {
    /// A case that took the driver down.
    pub fn crashed(error: String) -> Observed {
        Observed { accepted: false, round_trip: None, error: Some(error), panicked: true }
    }
}
