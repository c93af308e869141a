//! The generated property tests of every fixture (see `build.rs`); run with `--features proptest`.

include!(concat!(env!("OUT_DIR"), "/tests/proptest.rs"));
