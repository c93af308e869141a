use schemac_runtime::Conforms;
use serde::Serialize;

/// `delta` has no `minimum`: it may be negative.
#[derive(Serialize, Conforms)]
#[schemac(schema = "crates/schemac-derive/tests/ui/schemas/limits.json")]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub count: u16,
    pub delta: u64,
    pub ratio: f64,
}

fn main() {}
