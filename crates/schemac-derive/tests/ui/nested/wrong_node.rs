use schemac_runtime::Conforms;
use serde::Serialize;

/// `body` is typed with the struct checked against `policy`.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json")]
#[serde(deny_unknown_fields)]
pub struct AttemptsReport {
    pub schema: String,
    pub body: Policy,
    pub policy: Policy,
    #[serde(skip_serializing_if = "schemac_runtime::Tristate::is_absent")]
    pub item: schemac_runtime::Tristate<u64>,
    #[schemac(unchecked)]
    pub attempts: Vec<serde_json::Value>,
    pub selected_attempt: Option<u64>,
    #[schemac(unchecked)]
    pub disposition: String,
    pub reason: String,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy")]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub max_attempts: u8,
    #[schemac(unchecked)]
    pub on_exhausted: String,
    pub minimum_score_to_deliver: Option<f64>,
}

fn main() {}
