//! Validated deserialization (schemac's generated types) against (a) the same structs with
//! plain serde derives and no checks, and (b) `jsonschema` validation of a
//! `serde_json::Value` followed by `serde_json::from_value` into (a)'s structs.
//!
//! Run with `cargo xtask bench`, which also prints the ratios for BENCHMARKS.md. Every
//! variant starts from the same JSON text, so parsing is in every measurement.

use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;

use plain_types::madoo::attempts_report_v1 as plain_attempts;
use plain_types::pi_glla::goal as plain_goal;
use schema_types::madoo::attempts_report_v1::AttemptsReport;
use schema_types::pi_glla::goal::Goal;
use schemac_bench::{ATTEMPTS_SCHEMA, GOAL_SCHEMA, attempts_large, attempts_small, goal_large, goal_large_without_extensions, goal_small};

/// One payload through the four ways of reading it. `T` is schemac's type for it and `P` the
/// plain one; a large payload is a JSON array of documents (`Vec<T>`).
fn variants<T: DeserializeOwned, P: DeserializeOwned>(group: &mut BenchmarkGroup<'_, WallTime>, text: &str, schema: &str) {
    let schema: Value = serde_json::from_str(schema).expect("the schema is JSON");
    // Built once, outside the timing loop, as a service would.
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    group.bench_function("schemac", |b| b.iter(|| serde_json::from_str::<T>(black_box(text)).expect("valid")));
    group.bench_function("schemac_pointer_errors", |b| b.iter(|| schemac_runtime::from_str::<T>(black_box(text)).expect("valid")));
    group.bench_function("plain_serde", |b| b.iter(|| serde_json::from_str::<P>(black_box(text)).expect("valid")));
    group.bench_function("jsonschema_then_serde", |b| {
        b.iter(|| {
            let value: Value = serde_json::from_str(black_box(text)).expect("JSON");
            let valid = match &value {
                Value::Array(documents) => documents.iter().all(|d| validator.is_valid(d)),
                document => validator.is_valid(document),
            };
            assert!(valid);
            serde_json::from_value::<P>(value).expect("valid")
        })
    });
}

fn small(c: &mut Criterion) {
    let mut group = c.benchmark_group("goal_small");
    variants::<Goal, plain_goal::Goal>(&mut group, &goal_small(), GOAL_SCHEMA);
    group.finish();
    let mut group = c.benchmark_group("attempts_small");
    variants::<AttemptsReport, plain_attempts::AttemptsReport>(&mut group, &attempts_small(), ATTEMPTS_SCHEMA);
    group.finish();
}

fn large(c: &mut Criterion) {
    let goals = goal_large();
    let mut group = c.benchmark_group("goal_large");
    group.sample_size(20).measurement_time(Duration::from_secs(15));
    variants::<Vec<Goal>, Vec<plain_goal::Goal>>(&mut group, &goals, GOAL_SCHEMA);
    group.finish();
    // Only schemac against plain serde: how much of the gap is keeping unknown properties.
    let stripped = goal_large_without_extensions();
    let mut group = c.benchmark_group("goal_large_no_x");
    group.sample_size(20).measurement_time(Duration::from_secs(12));
    group.bench_function("schemac", |b| b.iter(|| serde_json::from_str::<Vec<Goal>>(black_box(&stripped)).expect("valid")));
    group.bench_function("plain_serde", |b| b.iter(|| serde_json::from_str::<Vec<plain_goal::Goal>>(black_box(&stripped)).expect("valid")));
    group.finish();
    let reports = attempts_large();
    let mut group = c.benchmark_group("attempts_large");
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    variants::<Vec<AttemptsReport>, Vec<plain_attempts::AttemptsReport>>(&mut group, &reports, ATTEMPTS_SCHEMA);
    group.finish();
}

criterion_group!(benches, small, large);
criterion_main!(benches);
