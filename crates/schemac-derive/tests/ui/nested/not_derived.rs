use schemac_runtime::Conforms;
use serde::Serialize;

/// `Attempt` is not checked against `/$defs/attempt`, so `attempts` cannot be trusted.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json")]
#[serde(deny_unknown_fields)]
pub struct AttemptsReport {
    pub schema: String,
    #[schemac(unchecked)]
    pub body: serde_json::Value,
    #[schemac(unchecked)]
    pub policy: serde_json::Value,
    #[serde(skip_serializing_if = "schemac_runtime::Tristate::is_absent")]
    pub item: schemac_runtime::Tristate<u64>,
    pub attempts: Vec<Attempt>,
    pub selected_attempt: Option<u64>,
    #[schemac(unchecked)]
    pub disposition: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct Attempt {
    pub attempt: u8,
}

fn main() {}
