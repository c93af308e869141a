use schemac_runtime::Conforms;
use serde::Serialize;

/// `retries` is not a property of the schema.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
    pub retries: u32,
}

fn main() {}
