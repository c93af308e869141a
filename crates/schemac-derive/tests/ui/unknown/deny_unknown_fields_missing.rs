use schemac_runtime::Conforms;
use serde::Serialize;

/// `additionalProperties: false`: serde must reject unknown properties too.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
}

fn main() {}
