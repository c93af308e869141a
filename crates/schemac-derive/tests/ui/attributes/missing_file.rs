use schemac_runtime::Conforms;
use serde::Serialize;

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v2.json", pointer = "/$defs/attempt")]
pub struct Attempt {
    pub attempt: u8,
}

fn main() {}
