//! Rust identifiers from arbitrary JSON names.
//!
//! OWNER: naming helper.
