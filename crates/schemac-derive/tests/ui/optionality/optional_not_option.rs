use schemac_runtime::Conforms;
use serde::Serialize;

/// `originalContract` is optional: a `String` cannot be absent, and the schema has no
/// `default` that `#[serde(default)]` would stand for.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/objectiveProvenance")]
#[serde(rename_all = "camelCase")]
pub struct ObjectiveProvenance {
    pub original_objective: String,
    pub original_contract: String,
    #[serde(default)]
    pub user_seeds: Vec<String>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn main() {}
