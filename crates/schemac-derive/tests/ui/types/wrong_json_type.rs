use schemac_runtime::Conforms;
use serde::Serialize;

/// `accepted` is a boolean and `execution` a string.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: Vec<String>,
    pub accepted: String,
    pub score: f64,
    pub feedback: Option<String>,
}

fn main() {}
