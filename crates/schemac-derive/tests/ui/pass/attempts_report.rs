//! The madoo attempts report, written by hand: the root and `/$defs/attempt`, with the
//! nested objects and enums each checked against their own node.

// A test of its own (`harness = false` in Cargo.toml), built with the workspace's lints: the
// types are as a user writes them, without `Debug`.
#![allow(missing_debug_implementations)]

use schemac_runtime::{Conforms, SchemaBound, Tristate};
use serde::Serialize;

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json")]
#[serde(deny_unknown_fields)]
pub struct AttemptsReport {
    pub schema: String,
    pub body: Body,
    pub policy: Policy,
    #[serde(skip_serializing_if = "Tristate::is_absent")]
    pub item: Tristate<u64>,
    pub attempts: Vec<Attempt>,
    pub selected_attempt: Option<u64>,
    pub disposition: Disposition,
    pub reason: String,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/body")]
#[serde(deny_unknown_fields)]
pub struct Body {
    pub workflow: Option<String>,
    pub version: u64,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy")]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub max_attempts: u8,
    pub on_exhausted: OnExhausted,
    pub minimum_score_to_deliver: Option<f64>,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy/properties/on_exhausted")]
#[serde(rename_all = "lowercase")]
pub enum OnExhausted {
    Best,
    Discard,
    Fail,
}

#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/disposition")]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    Accepted,
    BestUnaccepted,
    Discarded,
}

/// `i8` holds 1..=5 as well as `u8` does.
#[derive(Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: i8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
}

fn main() {
    assert_eq!(<Attempt as SchemaBound>::SCHEMA_ID, "urn:madoo:schema:attempts-report:v1");
    assert_eq!(<Attempt as SchemaBound>::POINTER, "/$defs/attempt");
    assert_eq!(<Attempt as SchemaBound>::SOURCE_PATH, "schemas/madoo/attempts-report.v1.json");
    assert_eq!(<Attempt as SchemaBound>::SOURCE_SHA256.len(), 64);
    assert_eq!(Attempt::schema()["required"][0], "attempt");
    assert_eq!(AttemptsReport::schema()["$id"], "urn:madoo:schema:attempts-report:v1");
}
