use schemac_runtime::Conforms;
use serde::Serialize;

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempts")]
pub struct Attempt {
    pub attempt: u8,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "$defs/attempt")]
pub struct Other {
    pub attempt: u8,
}

fn main() {}
