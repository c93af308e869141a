//! ECMA-262 `pattern`s: validation and translation to the `regex` crate's syntax.
//!
//! OWNER: pattern helper.
