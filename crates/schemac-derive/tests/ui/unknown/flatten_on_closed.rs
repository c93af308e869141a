use schemac_runtime::Conforms;
use serde::Serialize;

/// `attempt` is closed: there are no other properties to keep.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn main() {}
