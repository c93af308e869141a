//! The generated round-trip tests of every fixture (see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/tests/schemas.rs"));
