use schemac_runtime::Conforms;
use serde::Serialize;

/// `item` is optional and nullable: absent and null are different documents.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json")]
#[serde(deny_unknown_fields)]
pub struct AttemptsReport {
    pub schema: String,
    #[schemac(unchecked)]
    pub body: serde_json::Value,
    #[schemac(unchecked)]
    pub policy: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<u64>,
    #[schemac(unchecked)]
    pub attempts: Vec<serde_json::Value>,
    pub selected_attempt: Option<u64>,
    #[schemac(unchecked)]
    pub disposition: String,
    pub reason: String,
}

fn main() {}
