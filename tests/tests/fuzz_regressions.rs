//! Every input the fuzz targets found a failure with (`fuzz/regressions/<target>/`), run through
//! the same checks: the bundled schemas' types accept it only if what they write back is JSON
//! that serde_json reads and `jsonschema` accepts.

use std::path::Path;

use schema_types::madoo::attempts_report_v1::{self, AttemptsReport};
use schema_types::pi_glla::goal::{self, Goal};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn check<T: DeserializeOwned + Serialize>(schema: &str, data: &[u8]) -> Result<(), String> {
    let Ok(typed) = schemac_runtime::from_slice::<T>(data) else { return Ok(()) };
    let text = serde_json::to_string(&typed).map_err(|e| format!("does not serialize: {e}"))?;
    let output: Value =
        serde_json::from_str(&text).map_err(|e| format!("accepted, but its output {text} is no JSON serde_json reads: {e}"))?;
    let schema: Value = serde_json::from_str(schema).map_err(|e| e.to_string())?;
    let validator = jsonschema::options().should_validate_formats(false).build(&schema).map_err(|e| e.to_string())?;
    if !validator.is_valid(&output) {
        return Err(format!("jsonschema rejects the output {text}"));
    }
    Ok(())
}

#[test]
fn deserialize_findings_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/deserialize");
    let mut failures = Vec::new();
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/regressions/deserialize") {
        let path = entry.expect("a directory entry").path();
        let data = std::fs::read(&path).expect("a regression input");
        n += 1;
        for (name, result) in [
            ("AttemptsReport", check::<AttemptsReport>(attempts_report_v1::SCHEMA_JSON, &data)),
            ("Goal", check::<Goal>(goal::SCHEMA_JSON, &data)),
        ] {
            if let Err(why) = result {
                failures.push(format!("{} as {name}: {why}", path.display()));
            }
        }
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
