//! Documents of the generated few-megabyte schema (`generator.rs`) are read, and written back
//! unchanged, on a thread with a 2 MiB stack, in the profile the tests are built with (debug
//! under `cargo test`, where every value is copied more often and frames are largest). Before
//! the emitter bounded type sizes the root type of this schema was hundreds of kilobytes and
//! no document read on such a stack.

use big_types::chart::Chart;
use big_types::inputs::{DOCUMENTS, SCHEMA};

/// The stack of the reading thread.
const STACK: usize = 2 << 20;

fn on_small_stack<T: Send + 'static>(read: impl FnOnce() -> T + Send + 'static) -> T {
    let thread = std::thread::Builder::new().stack_size(STACK).spawn(read).expect("a thread can be spawned");
    thread.join().expect("the reading thread does not panic")
}

fn value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("the generator writes JSON")
}

#[test]
fn every_document_reads_and_round_trips_on_a_2_mib_stack() {
    for (name, text) in DOCUMENTS {
        let written = on_small_stack(move || {
            let chart: Chart = schemac_runtime::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            serde_json::to_value(&chart).expect("a chart serializes")
        });
        assert_eq!(written, value(text), "{name} changed on the round trip");
    }
}

#[test]
fn a_document_broken_deep_inside_is_rejected_at_its_pointer_on_a_2_mib_stack() {
    let (_, facets) = DOCUMENTS.iter().find(|(name, _)| *name == "facets").expect("the facets document");
    // The innermost spec's mark is not one of the mark enum's values.
    let mut broken = value(facets);
    let mut spec = &mut broken;
    let mut depth = 0;
    while spec.get("spec").is_some() {
        spec = &mut spec["spec"];
        depth += 1;
    }
    spec["mark"] = serde_json::json!("no such mark");
    let text = broken.to_string();
    let error = on_small_stack(move || schemac_runtime::from_str::<Chart>(&text).map(drop).expect_err("an unknown mark is rejected"));
    // The root union's error names the branch that got furthest, down to the mark.
    let message = error.to_string();
    let at = format!("fails at {}/mark: ", "/spec".repeat(depth));
    assert!(depth > 100 && message.contains(&at), "{}", &message[message.len().saturating_sub(2000)..]);
}

#[test]
fn the_schema_is_a_few_megabytes_and_the_referee_accepts_every_document() {
    assert!((2_000_000..8_000_000).contains(&SCHEMA.len()), "the schema is {} bytes", SCHEMA.len());
    let schema = value(SCHEMA);
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    let definitions = schema["definitions"].as_object().map_or(0, |d| d.len());
    assert!(definitions > 200, "{definitions} definitions");
    let validator = jsonschema::draft7::new(&schema).expect("the referee compiles the schema");
    for (name, text) in DOCUMENTS {
        let errors: Vec<String> = validator.iter_errors(&value(text)).map(|e| format!("{}: {e}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}
