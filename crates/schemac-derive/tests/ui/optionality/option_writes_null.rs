use schemac_runtime::Conforms;
use serde::Serialize;

/// `originalContract` is optional but never null: `None` must be skipped, not written.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/objectiveProvenance")]
#[serde(rename_all = "camelCase")]
pub struct ObjectiveProvenance {
    pub original_objective: String,
    pub original_contract: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_seeds: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn main() {}
