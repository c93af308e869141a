//! Every published version of the goal schema (`tests/history/`), one module each, for
//! `tests/tests/history.rs`. `build.rs` generates the crate into `OUT_DIR`.

include!(concat!(env!("OUT_DIR"), "/lib.rs"));
