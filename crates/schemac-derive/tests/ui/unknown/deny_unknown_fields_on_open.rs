use schemac_runtime::Conforms;
use serde::Serialize;

/// `usage` is open: a document with another property is valid.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/usage")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Usage {
    pub tokens_used: u64,
    pub tokens_limit: u64,
}

fn main() {}
