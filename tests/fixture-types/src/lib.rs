//! The snapshot-test fixtures under `tests/fixtures/` (and `tests/fixtures-formats/`, with
//! `format` asserted), compiled to prove their code builds. `build.rs` generates the crate into
//! `OUT_DIR`; the modules are those the snapshots in `tests/tests/snapshots/` show.

include!(concat!(env!("OUT_DIR"), "/lib.rs"));
