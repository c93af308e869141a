// A setter takes what converts into the field's type: a number is no `GoalStatus`.
use schema_types::pi_glla::goal::Goal;

fn main() {
    let _ = Goal::builder().status(3);
}
