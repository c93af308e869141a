use schemac_runtime::Conforms;
use serde::Serialize;

/// `status` is a string enum: a `String` accepts values the schema rejects.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task")]
#[schemac(ignore_unknown)]
pub struct Task {
    pub id: String,
    pub title: String,
    pub status: String,
    #[serde(rename = "agentRole", skip_serializing_if = "Option::is_none")]
    #[schemac(unchecked)]
    pub agent_role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtasks: Option<Vec<Task>>,
}

fn main() {}
