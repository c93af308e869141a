//! One type per shape: the goal schema's two agent-role enums (`/properties/agentRole` and
//! `/definitions/task/properties/agentRole`, both `enum: ["designer"]`) are one Rust type, and
//! the second name is an alias of the first, so both paths compile.

use std::any::TypeId;

use schema_types::pi_glla::goal::{GoalAgentRole, Task, TaskAgentRole};

#[test]
fn the_goal_schemas_agent_roles_are_one_type() {
    assert_eq!(TypeId::of::<GoalAgentRole>(), TypeId::of::<TaskAgentRole>());
    let task: Task = schemac_runtime::from_str(r#"{"id": "t", "title": "T", "status": "pending", "agentRole": "designer"}"#).unwrap();
    let role: Option<GoalAgentRole> = task.agent_role;
    assert_eq!(role, Some(TaskAgentRole::Designer));
    assert!(schemac_runtime::from_str::<TaskAgentRole>(r#""reviewer""#).is_err());
}
