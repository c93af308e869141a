use schemac_runtime::Conforms;
use serde::Serialize;

/// A string enum's values are unit variants.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/policy")]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    Goal,
    List(u32),
}

fn main() {}
