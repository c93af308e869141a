use schemac_runtime::Conforms;
use serde::Serialize;

/// `retry` is not a value of `on_exhausted`, and `Best` is written `Best`, not `best`.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy/properties/on_exhausted")]
pub enum OnExhausted {
    Best,
    #[serde(rename = "discard")]
    Discard,
    #[serde(rename = "fail")]
    Fail,
    #[serde(rename = "retry")]
    Retry,
}

fn main() {}
