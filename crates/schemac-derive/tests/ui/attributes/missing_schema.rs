use schemac_runtime::Conforms;
use serde::Serialize;

/// Which schema?
#[derive(Serialize, Conforms)]
pub struct Attempt {
    pub attempt: u8,
}

fn main() {}
