use schemac_runtime::Conforms;
use serde::Serialize;

/// The schema's `disposition` also allows `discarded`.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/disposition")]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    Accepted,
    BestUnaccepted,
}

fn main() {}
