//! Codegen plus instance synthesis for the bundled schemas, as `cargo xtask codegen` runs
//! them (target: under 2 s in a release build). Run with `cargo bench -p schemac-synth`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use schemac::{Config, Input, SchemaSource};
use schemac_synth::SynthConfig;

/// The bundled schemas as `schemac.toml` names them.
fn input() -> Input {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let schemas: Vec<SchemaSource> = [
        ("schemas/madoo/attempts-report.v1.json", ["madoo", "attempts_report_v1"], "AttemptsReport"),
        ("schemas/pi-glla/goal.json", ["pi_glla", "goal"], "Goal"),
    ]
    .into_iter()
    .map(|(path, module, name)| {
        SchemaSource::new(root.join(path)).display(path.to_owned()).module(module.map(str::to_owned).to_vec()).root_name(name.to_owned())
    })
    .collect();
    Input::new(schemas)
}

fn bench(c: &mut Criterion) {
    let input = input();
    let config = Config::default();
    let synth = SynthConfig::default();
    let mut group = c.benchmark_group("bundled");
    group.sample_size(10);
    group.bench_function("codegen + synthesis", |b| {
        b.iter(|| {
            let output = schemac::compile(black_box(&input), &config).map_err(|d| d.to_string());
            let synthesis = schemac_synth::synthesize_for(black_box(&input), &config, &synth).map_err(|d| d.to_string());
            black_box((output.is_ok(), synthesis.map(|m| m.len())))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
