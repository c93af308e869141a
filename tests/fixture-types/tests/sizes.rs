//! The generated size test of every fixture type (see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/tests/sizes.rs"));
