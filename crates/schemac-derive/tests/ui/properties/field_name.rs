use schemac_runtime::Conforms;
use serde::Serialize;

/// The properties are camelCase; without `rename_all` the fields are written in snake_case.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/objectiveProvenance")]
pub struct ObjectiveProvenance {
    pub original_objective: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_contract: Option<String>,
    #[serde(rename = "userSeeds", skip_serializing_if = "Option::is_none")]
    pub user_seeds: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn main() {}
