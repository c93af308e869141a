//! The same comparison as `deserialize`, measured so that a shared, noisy machine cannot
//! favour one side: the variants of a payload take turns, batch by batch, in a rotating order,
//! so background load falls on all of them alike. Reports, per variant, the fastest batch
//! (the cost without interference) and the median batch, each as a ratio to plain serde from
//! the same rounds. Printed as the Markdown table of BENCHMARKS.md.
//!
//! Run with `cargo xtask bench` (after the criterion benchmark) or
//! `cargo bench -p schemac-bench --bench interleaved`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde_json::Value;

use plain_types::madoo::attempts_report_v1 as plain_attempts;
use plain_types::pi_glla::goal as plain_goal;
use schema_types::madoo::attempts_report_v1::AttemptsReport;
use schema_types::pi_glla::goal::Goal;
use schemac_bench::{ATTEMPTS_SCHEMA, GOAL_SCHEMA, attempts_large, attempts_small, goal_large, goal_large_without_extensions, goal_small};

/// Rounds per payload; each round times one batch of every variant.
const ROUNDS: usize = 60;
/// A batch repeats the variant until at least this long has passed.
const BATCH: Duration = Duration::from_millis(20);

type Variant<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// The four ways of reading `text`, in column order: plain serde first (the baseline).
fn variants<'a, T: DeserializeOwned, P: DeserializeOwned>(text: &'a str, schema: &str) -> Vec<Variant<'a>> {
    let schema: Value = serde_json::from_str(schema).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    vec![
        ("plain", Box::new(move || drop(black_box(serde_json::from_str::<P>(black_box(text)).expect("valid"))))),
        ("schemac", Box::new(move || drop(black_box(serde_json::from_str::<T>(black_box(text)).expect("valid"))))),
        ("pointer", Box::new(move || drop(black_box(schemac_runtime::from_str::<T>(black_box(text)).expect("valid"))))),
        (
            "jsonschema",
            Box::new(move || {
                let value: Value = serde_json::from_str(black_box(text)).expect("JSON");
                let valid = match &value {
                    Value::Array(documents) => documents.iter().all(|d| validator.is_valid(d)),
                    document => validator.is_valid(document),
                };
                assert!(valid);
                drop(black_box(serde_json::from_value::<P>(value).expect("valid")));
            }),
        ),
    ]
}

/// Per variant: the fastest and the median time of one run, in nanoseconds.
fn measure(variants: &[Variant<'_>]) -> Vec<(f64, f64)> {
    // How many runs make a batch, from a first untimed pass (which also warms up).
    let reps: Vec<u32> = variants
        .iter()
        .map(|(_, run)| {
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed() < BATCH {
                run();
                n += 1;
            }
            n
        })
        .collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); variants.len()];
    for round in 0..ROUNDS {
        for k in 0..variants.len() {
            let i = (round + k) % variants.len();
            let start = Instant::now();
            for _ in 0..reps[i] {
                (variants[i].1)();
            }
            samples[i].push(start.elapsed().as_nanos() as f64 / f64::from(reps[i]));
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            (s[0], s[s.len() / 2])
        })
        .collect()
}

fn row(title: &str, results: &[(f64, f64)]) -> String {
    let (base_min, base_median) = results[0];
    let mut out = format!("| {title} | {} / {} |", duration(base_min), duration(base_median));
    for &(min, median) in &results[1..] {
        out.push_str(&format!(" **{:.2}×** / {:.2}× |", min / base_min, median / base_median));
    }
    out
}

fn duration(nanos: f64) -> String {
    match nanos {
        n if n >= 1e6 => format!("{:.2} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.2} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn main() {
    // Arguments (`--bench`, from cargo) are ignored: there is nothing to filter.
    let goals = goal_large();
    let stripped = goal_large_without_extensions();
    let reports = attempts_large();
    let (goal, attempts) = (goal_small(), attempts_small());
    let payloads: Vec<(&str, Vec<Variant<'_>>)> = vec![
        ("goal, one document", variants::<Goal, plain_goal::Goal>(&goal, GOAL_SCHEMA)),
        ("goal ×1,000 (20 tasks, 20 audits each)", variants::<Vec<Goal>, Vec<plain_goal::Goal>>(&goals, GOAL_SCHEMA)),
        ("the same without its `x-` properties", variants::<Vec<Goal>, Vec<plain_goal::Goal>>(&stripped, GOAL_SCHEMA)),
        ("attempts report, one document", variants::<AttemptsReport, plain_attempts::AttemptsReport>(&attempts, ATTEMPTS_SCHEMA)),
        ("attempts report ×1,000", variants::<Vec<AttemptsReport>, Vec<plain_attempts::AttemptsReport>>(&reports, ATTEMPTS_SCHEMA)),
    ];
    println!(
        "\nInterleaved: {ROUNDS} rounds of ≥{} ms batches per variant; fastest / median batch, ratios to (a) from the same rounds.\n",
        BATCH.as_millis()
    );
    println!(
        "| Payload | (a) plain serde | schemac (`serde_json::from_str`) | schemac (`schemac_runtime::from_str`) | (b) jsonschema + `from_value` |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (title, variants) in &payloads {
        println!("{}", row(title, &measure(variants)));
    }
}
