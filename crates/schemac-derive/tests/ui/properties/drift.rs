use schemac_runtime::Conforms;
use serde::Serialize;

/// Written against an older version of the schema: every mismatch is reported at once.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub feedback: String,
    pub retries: u32,
}

fn main() {}
