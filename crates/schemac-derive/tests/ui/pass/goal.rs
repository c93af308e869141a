//! The pi-glla goal, written by hand: the root (camelCase through `rename_all`, unknown
//! properties kept in a flattened map, a defaulted property) and the `task` (recursive),
//! `auditVerdict` and `objectiveProvenance` definitions.

// A test of its own (`harness = false` in Cargo.toml), built with the workspace's lints: the
// types are as a user writes them, without `Debug`.
#![allow(missing_debug_implementations)]

use std::collections::BTreeMap;

use schemac_runtime::format::DateTime;
use schemac_runtime::{Conforms, SchemaBound};
use serde::{Deserialize, Serialize};
use serde_json::Value;

const SCHEMA: &str = "https://raw.githubusercontent.com/DraconDev/pi-goal-list-loop-audit/main/schemas/goal.schema.json";

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json")]
#[serde(rename_all = "camelCase")]
pub struct Goal {
    pub id: String,
    pub objective: String,
    pub status: Status,
    pub policy: Policy,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<AgentRole>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification_contract: Option<String>,
    pub auto_continue: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_list: Option<TaskList>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_history: Option<Vec<AuditVerdict>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_suggested_action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_kind: Option<PauseKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_options: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_recommended: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_resume_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_resumed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_resumed_event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider_error_diagnostic: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_episode_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_notice_keys: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_infra_streak: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_brake_streak: Option<f64>,
    /// Optional with `"default": 0` in the schema: a plain integer that serde defaults.
    #[serde(default)]
    pub revision: u64,
    /// Not modelled yet: `#[schemac(unchecked)]` vouches for the type.
    #[schemac(unchecked)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_completion: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_tasks: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_via: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemac(unchecked)]
    pub objective_repair_history: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemac(unchecked)]
    pub repair_target: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective_provenance: Option<ObjectiveProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub telemetry: Option<Telemetry>,
    pub usage: Usage,
    pub created_at: DateTime,
    pub updated_at: String,
    /// A field that is not JSON at all.
    #[serde(skip)]
    pub cached_hash: u64,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/status")]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Auditing,
    Complete,
    Paused,
    Aborted,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/policy")]
pub enum Policy {
    #[serde(rename = "goal")]
    Goal,
    #[serde(rename = "list")]
    List,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/agentRole")]
#[serde(rename_all = "lowercase")]
pub enum AgentRole {
    Designer,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/pauseKind")]
#[serde(rename_all = "lowercase")]
pub enum PauseKind {
    Decision,
    Error,
    Wait,
    Blocked,
}

/// `version` is `const: 1`: any integer type that holds 1.
#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/taskList")]
#[schemac(ignore_unknown)]
pub struct TaskList {
    pub version: u8,
    pub tasks: Vec<Task>,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task")]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: String,
    pub title: String,
    pub status: TaskStatus,
    /// An inline `enum` with the same values as the goal's `agentRole`: the same Rust enum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<AgentRole>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtasks: Option<Vec<Box<Task>>>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task/properties/status")]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Pending,
    InProgress,
    Complete,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/auditVerdict")]
#[serde(rename_all = "camelCase")]
#[schemac(ignore_unknown)]
pub struct AuditVerdict {
    pub at: DateTime,
    pub approved: bool,
    pub disapproved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impossible: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impossible_reason: Option<String>,
    pub model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regression_shield_passed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regression_shield_missing: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/objectiveProvenance")]
#[serde(rename_all = "camelCase")]
pub struct ObjectiveProvenance {
    pub original_objective: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_contract: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_seeds: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/telemetry")]
#[serde(rename_all = "camelCase")]
#[schemac(ignore_unknown)]
pub struct Telemetry {
    pub turns: u64,
    pub file_writes: u64,
    pub bash_calls: u64,
}

/// `tokensLimit` is required and has a `default`: still a plain `u64`.
#[derive(Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/properties/usage")]
#[serde(rename_all = "camelCase")]
#[schemac(ignore_unknown)]
pub struct Usage {
    pub tokens_used: u64,
    pub tokens_limit: u64,
}

fn main() {
    assert_eq!(<Goal as SchemaBound>::SCHEMA_ID, SCHEMA);
    assert_eq!(<Goal as SchemaBound>::POINTER, "");
    assert_eq!(<Task as SchemaBound>::POINTER, "/definitions/task");
    assert_eq!(Task::schema()["properties"]["subtasks"]["items"]["$ref"], "#/definitions/task");
    let goal: Goal = serde_json::from_str(
        r#"{"id": "20240101000000-abcdef", "objective": "o", "status": "active", "policy": "goal", "autoContinue": true,
            "usage": {"tokensUsed": 1, "tokensLimit": 0}, "createdAt": "2024-01-01T00:00:00Z",
            "updatedAt": "2024-01-01T00:00:00Z", "somethingNew": [1]}"#,
    )
    .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(goal.extra["somethingNew"], serde_json::json!([1]));
    assert_eq!(goal.revision, 0);
}
