//! A hand-written type in place of a generated one (`rust_types` of `include_schema!`, as
//! `rust-type` in `schemac.toml`): the goal's `task`, written by hand and checked by the
//! derive, is what `Goal` holds, and every bundled goal instance reads into it and writes
//! back equal. The hand-written types are `#[non_exhaustive]`, as generated ones are by default
//! in a project: the derive checks them all the same.

use std::collections::BTreeMap;

use schemac_runtime::Conforms;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The hand-written task: recursive, unknown properties kept in a flattened map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task")]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Task {
    pub id: String,
    pub title: String,
    pub status: TaskStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<AgentRole>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtasks: Option<Vec<Task>>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task/properties/status")]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskStatus {
    Pending,
    InProgress,
    Complete,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task/properties/agentRole")]
#[serde(rename_all = "lowercase")]
pub enum AgentRole {
    Designer,
}

mod goal {
    schemac_runtime::include_schema!(
        "../../schemas/pi-glla/goal.json",
        root = "Goal",
        rust_types = { "/definitions/task" = "crate::Task" }
    );
}

/// The generated name is the hand-written type.
fn same_type(task: Task) -> goal::Task {
    task
}

fn instances() -> Vec<(String, Value)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/pi-glla/goal.examples/valid");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .map(|path| (path.display().to_string(), serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()))
        .collect();
    let synthesized: Vec<Value> = serde_json::from_str(include_str!("../../../generated/tests/data/pi_glla/goal/valid.json")).unwrap();
    out.extend(synthesized.into_iter().map(|case| (case["name"].as_str().unwrap().to_owned(), case["instance"].clone())));
    out
}

#[test]
fn the_bundled_goals_round_trip_through_the_hand_written_task() {
    let instances = instances();
    assert!(instances.len() > 300, "{}", instances.len());
    let mut with_tasks = 0;
    for (name, instance) in &instances {
        let goal: goal::Goal = schemac_runtime::from_str(&instance.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = serde_json::to_value(&goal).unwrap();
        assert!(schemac_runtime::json_eq(&back, instance), "{name}: {back} != {instance}");
        if let Some(list) = &goal.task_list {
            with_tasks += usize::from(!list.tasks.is_empty());
            for task in &list.tasks {
                let _: &Task = task;
                schemac_runtime::Validate::validate(task).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }
    assert!(with_tasks > 10, "only {with_tasks} instances have tasks");
}

#[test]
fn the_hand_written_task_is_validated_where_it_is_held() {
    let task = same_type(Task {
        id: "t1".to_owned(),
        title: String::new(), // `minLength: 1`
        status: TaskStatus::Pending,
        agent_role: None,
        subtasks: None,
        extra: BTreeMap::new(),
    });
    let list = goal::GoalTaskList::builder().version(goal::GoalTaskListVersion).tasks(vec![task]).build().unwrap_err();
    assert_eq!(list.to_string(), "/tasks/0/title: \"\" has 0 characters, fewer than the minLength 1");
    let read = schemac_runtime::from_str::<goal::GoalTaskList>(r#"{"version": 1, "tasks": [{"id": "t", "title": "x", "status": "done"}]}"#);
    assert_eq!(read.unwrap_err().pointer(), "/tasks/0/status");
}
