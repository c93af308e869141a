use schemac_runtime::Conforms;
use serde::Serialize;

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt", strict)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    #[schemac(skip)]
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
}

fn main() {}
