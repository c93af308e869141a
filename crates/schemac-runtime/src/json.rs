//! JSON equality as JSON Schema defines it, and JSON literals in generated code.

use serde_json::Value;

/// Equality of JSON values where numbers compare by value (`1 == 1.0`), as `enum`, `const` and
/// `uniqueItems` require.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

fn number_eq(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    // At least one side is a float or out of i64/u64 range: compare as f64.
    match (x.as_f64(), y.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Parses a JSON literal that schemac emitted from an already parsed schema. The text is
/// valid JSON by construction; `Value::Null` is only reachable if the generated file was
/// edited by hand, which the drift check rejects.
pub fn literal(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::json_eq;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(!json_eq(&json!(1), &json!(1.5)));
        assert!(!json_eq(&json!(1), &json!("1")));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(json_eq(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!json_eq(&json!(-1), &json!(u64::MAX)));
    }
}
