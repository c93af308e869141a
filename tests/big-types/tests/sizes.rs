//! The generated size test of every type of the big schema (see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/tests/sizes.rs"));
