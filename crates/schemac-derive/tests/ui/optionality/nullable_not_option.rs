use schemac_runtime::Conforms;
use serde::Serialize;

/// `feedback` is a string or null.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: String,
}

fn main() {}
