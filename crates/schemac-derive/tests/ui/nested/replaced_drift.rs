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
    #[schemac(unchecked)]
    pub status: String,
    #[schemac(unchecked)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

mod goal {
    schemac_runtime::include_schema!("../../../../../schemas/pi-glla/goal.json", root = "Goal", rust_types = { "/definitions/task" = "crate::Task" });
}

fn main() {}
