//! The `jsonschema` crate as referee at generation time: a synthesized "valid" instance it
//! rejects, or a mutant it accepts, is a synthesizer bug and stops `cargo xtask codegen`.

use crate::error::{Error, bail};
use serde_json::Value;

/// A validator for one schema document, as the generated tests build it: the draft its
/// `$schema` names (the configured default without one), `format` as an annotation.
pub fn validator(schema: &Value, draft: schemac::Draft) -> Result<jsonschema::Validator, Error> {
    let draft = match draft {
        schemac::Draft::Draft4 => jsonschema::Draft::Draft4,
        schemac::Draft::Draft6 => jsonschema::Draft::Draft6,
        schemac::Draft::Draft7 => jsonschema::Draft::Draft7,
        schemac::Draft::Draft2019_09 => jsonschema::Draft::Draft201909,
        schemac::Draft::Draft2020_12 => jsonschema::Draft::Draft202012,
    };
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| Error::other(format!("jsonschema cannot compile the schema: {e}")))
}

/// Fails unless the validator accepts `instance`.
pub fn expect_valid(validator: &jsonschema::Validator, what: &str, instance: &Value) -> Result<(), Error> {
    if let Err(error) = validator.validate(instance) {
        bail!("{what} is rejected by jsonschema at {:?}: {error}\ninstance: {instance}", error.instance_path().as_str());
    }
    Ok(())
}

/// Fails unless the validator rejects `instance`.
pub fn expect_invalid(validator: &jsonschema::Validator, what: &str, instance: &Value) -> Result<(), Error> {
    if validator.is_valid(instance) {
        bail!("{what} is accepted by jsonschema\ninstance: {instance}");
    }
    Ok(())
}
