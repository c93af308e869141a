use schemac_runtime::Conforms;
use serde::Serialize;

/// The schema requires `score`.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub feedback: Option<String>,
}

fn main() {}
