//! Placeholder: `cargo xtask codegen` writes this crate from tests/fixtures.
