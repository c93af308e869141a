use std::collections::BTreeMap;

use schemac_runtime::Conforms;
use serde::{Deserialize, Serialize};

/// The user's type for the goal's `task` (`rust_types`, as `rust-type` in `schemac.toml`) has
/// drifted from the schema: the build fails with the derive's message, on the type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task")]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: String,
    pub title: String,
    pub status: Status,
    #[schemac(unchecked)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// A catch-all against the schema's closed `enum`, not marked `#[schemac(open)]`: the derive
/// says what it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task/properties/status")]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    Complete,
    #[serde(untagged)]
    Other(String),
}

mod goal {
    schemac_runtime::include_schema!("../../../../../schemas/pi-glla/goal.json", root = "Goal", rust_types = { "/definitions/task" = "crate::Task" });
}

fn main() {}
