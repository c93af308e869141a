//! Integration tests for schemac live in `tests/*.rs`; this crate has no library code.
