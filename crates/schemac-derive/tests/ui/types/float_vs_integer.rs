use schemac_runtime::Conforms;
use serde::Serialize;

/// `count` is an integer (`f64` accepts fractions), `ratio` any number (`i32` rejects them).
#[derive(Serialize, Conforms)]
#[schemac(schema = "crates/schemac-derive/tests/ui/schemas/limits.json")]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub count: f64,
    pub delta: i64,
    pub ratio: i32,
}

fn main() {}
