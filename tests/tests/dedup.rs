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

/// Structs with the same fields are one type too (titles and descriptions apart), and so are
/// structs whose fields are merged types; one more property keeps a type of its own.
#[test]
fn identical_objects_are_one_type() {
    use fixture_types::dedup_structs::{Billing, Inbound, Outbound, Pickup, Shipping};
    assert_eq!(TypeId::of::<Billing>(), TypeId::of::<Shipping>());
    assert_eq!(TypeId::of::<Outbound>(), TypeId::of::<Inbound>());
    assert_ne!(TypeId::of::<Billing>(), TypeId::of::<Pickup>());
    let shipping = Shipping::builder().street("2 Elm St").city("Shelbyville").build().unwrap();
    let billing: Billing = shipping.clone();
    assert_eq!(billing, shipping);
    assert!(Shipping::builder().street("").city("x").build().is_err());
}
