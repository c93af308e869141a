//! Naming: chooses every type, field and variant name in the IR, deterministic and
//! collision-free within each module.
//!
//! OWNER: naming helper.

use crate::ir::Ir;
use crate::resolve::Registry;

/// Fills in `Def::name`, `Field::rust_name` and `Variant::name`.
pub fn name(ir: &mut Ir, registry: &Registry) {
    let _ = (ir, registry);
}
