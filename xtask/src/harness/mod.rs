//! What the conformance and corpus runs share: a crate of generated modules with a driver
//! binary, built once with the failing members left out (`krate`), and the driver fed cases
//! as JSON lines, restarted past a case that crashes it (`driver`).

pub mod driver;
pub mod krate;
