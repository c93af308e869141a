// A builder whose required property `updatedAt` is never set does not compile, and the error
// names the property.
use schema_types::pi_glla::goal::{Goal, GoalPolicy, GoalStatus, GoalUsage};

fn main() {
    let usage = GoalUsage::builder().tokens_used(0u8).tokens_limit(0u8).build().unwrap();
    let _ = Goal::builder()
        .id("20260301101530-a1b2c3")
        .objective("o")
        .status(GoalStatus::Active)
        .policy(GoalPolicy::Goal)
        .auto_continue(true)
        .usage(usage)
        .created_at("2026-03-01T10:15:30Z")
        .build();
}
