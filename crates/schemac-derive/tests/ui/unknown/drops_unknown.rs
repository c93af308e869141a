use schemac_runtime::Conforms;
use serde::Serialize;

/// `telemetry` is open, and nothing keeps the properties it does not declare.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/telemetry")]
#[serde(rename_all = "camelCase")]
pub struct Telemetry {
    pub turns: u64,
    pub file_writes: u64,
    pub bash_calls: u64,
}

fn main() {}
