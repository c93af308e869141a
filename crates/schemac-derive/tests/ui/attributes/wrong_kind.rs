use schemac_runtime::Conforms;
use serde::Serialize;

/// `/$defs/attempt` is an object, not a string enum.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
pub enum Attempt {
    First,
}

fn main() {}
