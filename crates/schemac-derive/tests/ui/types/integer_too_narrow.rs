use schemac_runtime::Conforms;
use serde::Serialize;

/// `count` goes up to 1000.
#[derive(Serialize, Conforms)]
#[schemac(schema = "crates/schemac-derive/tests/ui/schemas/limits.json")]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub count: u8,
    pub delta: i64,
    pub ratio: f64,
}

fn main() {}
