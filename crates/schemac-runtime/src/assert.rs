//! The assertion keywords over typed values: numbers (`minimum`, `multipleOf`, ...), string
//! lengths, array sizes, `uniqueItems`, `contains`, object sizes, `propertyNames` and
//! `dependentRequired`. Generated code calls these right after a value is deserialized (first
//! failure wins) and from `validate()` (every failure is collected); the `Value` fallback's
//! checks call them too, so both paths say the same thing in the same words.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

// The numbers assertions compare live with the exact numbers they fall back on.
pub use crate::number::Num;

/// One assertion a value breaks: the keyword, and a message naming the value and the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    keyword: &'static str,
    message: String,
}

impl Violation {
    pub fn new(keyword: &'static str, message: impl Into<String>) -> Self {
        Violation { keyword, message: message.into() }
    }

    /// The schema keyword that failed (`maximum`, `minLength`, ...).
    pub fn keyword(&self) -> &'static str {
        self.keyword
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Violation {}

/// A violation found while building a value in Rust: the builder's error.
impl From<Violation> for crate::ConstraintError {
    fn from(violation: Violation) -> Self {
        crate::ConstraintError::new(violation.message())
    }
}

#[inline]
fn ordered(value: Num, limit: Num, keyword: &'static str, ok: fn(Ordering) -> bool, relation: &str) -> Result<(), Violation> {
    match value.compare(&limit) {
        Some(order) if ok(order) => Ok(()),
        _ => Err(out_of_order(&value, &limit, keyword, relation)),
    }
}

/// Kept out of line: checks run on every number read, and almost always pass.
#[cold]
fn out_of_order(value: &Num, limit: &Num, keyword: &'static str, relation: &str) -> Violation {
    Violation::new(keyword, format!("{value} is {relation} {limit}"))
}

/// `minimum`.
#[inline]
pub fn minimum(value: impl Into<Num>, limit: impl Into<Num>) -> Result<(), Violation> {
    ordered(value.into(), limit.into(), "minimum", Ordering::is_ge, "less than the minimum")
}

/// `maximum`.
#[inline]
pub fn maximum(value: impl Into<Num>, limit: impl Into<Num>) -> Result<(), Violation> {
    ordered(value.into(), limit.into(), "maximum", Ordering::is_le, "greater than the maximum")
}

/// `exclusiveMinimum` (and draft-04 `minimum` with `exclusiveMinimum: true`).
#[inline]
pub fn exclusive_minimum(value: impl Into<Num>, limit: impl Into<Num>) -> Result<(), Violation> {
    ordered(value.into(), limit.into(), "exclusiveMinimum", Ordering::is_gt, "not greater than the exclusive minimum")
}

/// `exclusiveMaximum` (and draft-04 `maximum` with `exclusiveMaximum: true`).
#[inline]
pub fn exclusive_maximum(value: impl Into<Num>, limit: impl Into<Num>) -> Result<(), Violation> {
    ordered(value.into(), limit.into(), "exclusiveMaximum", Ordering::is_lt, "not less than the exclusive maximum")
}

/// `multipleOf`, decided on exact decimals (see `Num::decimal`), so that `0.0075` is a
/// multiple of `0.0001` although neither is exact in binary. `value = m·10^e` is a multiple
/// of `d = n·10^k` (mantissas without trailing zeros) iff `e >= k` and `n` divides
/// `m·10^(e-k)`, computed modulo `n`; when `e < k`, `m` would need `e - k` trailing zeros,
/// which it has not, so only zero is a multiple. No float division, so no false negatives.
pub fn multiple_of(value: impl Into<Num>, divisor: impl Into<Num>) -> Result<(), Violation> {
    let (value, divisor) = (value.into(), divisor.into());
    let is_multiple = match (value.decimal(), divisor.decimal()) {
        (Some((m, _)), _) if m == "0" => true,
        (Some((m, e)), Some((n, k))) => match n.parse::<u128>() {
            Ok(n) if n != 0 => e >= k && mul_mod(digits_mod(&m, n), pow_mod(10, exponent_u32(e - k), n), n) == 0,
            // A divisor of more than 38 significant digits: exact, by its digits.
            _ => e >= k && big_multiple(&m, e - k, &n),
        },
        _ => false,
    };
    if is_multiple { Ok(()) } else { Err(Violation::new("multipleOf", format!("{value} is not a multiple of {divisor}"))) }
}

/// An exponent difference as a power of ten's exponent (saturated: a factor 10^(2^32) of a
/// value is beyond any schema's divisor anyway).
fn exponent_u32(e: i64) -> u32 {
    u32::try_from(e).unwrap_or(u32::MAX)
}

/// The decimal digits `m`, read as an integer, modulo `n`.
fn digits_mod(m: &str, n: u128) -> u128 {
    m.bytes().fold(0, |r, d| (mul_mod(r, 10, n) + u128::from(d - b'0')) % n)
}

/// Whether `m·10^shift` is a multiple of the integer with the decimal digits `n`, for an `n`
/// past `u128`: by long division on the digits (a slow path for numbers no schema uses in
/// practice, exact all the same).
fn big_multiple(m: &str, shift: i64, n: &str) -> bool {
    let Ok(shift) = usize::try_from(shift) else { return false };
    if shift > 1 << 20 {
        return false;
    }
    let value: Vec<u8> = m.bytes().map(|b| b - b'0').chain(std::iter::repeat_n(0, shift)).collect();
    let divisor: Vec<u8> = n.bytes().map(|b| b - b'0').collect();
    // The remainder of long division, digit by digit, kept as a digit vector below `divisor`.
    let mut remainder: Vec<u8> = Vec::new();
    let less = |a: &[u8], b: &[u8]| a.len() < b.len() || (a.len() == b.len() && a < b);
    for digit in value {
        remainder.push(digit);
        while remainder.len() > 1 && remainder[0] == 0 {
            remainder.remove(0);
        }
        while !less(&remainder, &divisor) {
            // remainder -= divisor
            let mut borrow = 0i8;
            let offset = remainder.len() - divisor.len();
            for i in (0..remainder.len()).rev() {
                let sub = if i >= offset { divisor[i - offset] as i8 } else { 0 };
                let mut d = remainder[i] as i8 - sub - borrow;
                borrow = if d < 0 {
                    d += 10;
                    1
                } else {
                    0
                };
                remainder[i] = d as u8;
            }
            while remainder.len() > 1 && remainder[0] == 0 {
                remainder.remove(0);
            }
        }
    }
    remainder.iter().all(|&d| d == 0)
}

/// `a * b mod n` without overflow for `n` below 2^64 (f64 mantissas have at most 17 digits;
/// integer instances up to `u64::MAX`). Larger moduli fall back to a slow but exact loop.
fn mul_mod(a: u128, b: u128, n: u128) -> u128 {
    if let Some(product) = a.checked_mul(b) {
        return product % n;
    }
    // Double-and-add: every intermediate stays below 2n.
    let (mut result, mut a, mut b) = (0u128, a % n, b);
    while b > 0 {
        if b & 1 == 1 {
            result = (result + a) % n;
        }
        a = (a << 1) % n;
        b >>= 1;
    }
    result
}

fn pow_mod(base: u128, mut exp: u32, n: u128) -> u128 {
    let (mut result, mut base) = (1 % n, base % n);
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, n);
        }
        base = mul_mod(base, base, n);
        exp >>= 1;
    }
    result
}

/// A string for a message: quoted, shortened past 40 characters.
fn quote_str(text: &str) -> String {
    if text.chars().count() > 40 { format!("{:?}…", text.chars().take(40).collect::<String>()) } else { format!("{text:?}") }
}

/// `minLength`, in Unicode code points.
pub fn min_length(text: &(impl AsRef<str> + ?Sized), limit: u64) -> Result<(), Violation> {
    let text = text.as_ref();
    // A code point is at most 4 bytes: most strings need no count.
    if (text.len() as u64).div_ceil(4) >= limit {
        return Ok(());
    }
    let length = text.chars().count() as u64;
    if length >= limit {
        return Ok(());
    }
    Err(Violation::new("minLength", format!("{} has {length} characters, fewer than the minLength {limit}", quote_str(text))))
}

/// `maxLength`, in Unicode code points.
pub fn max_length(text: &(impl AsRef<str> + ?Sized), limit: u64) -> Result<(), Violation> {
    let text = text.as_ref();
    // A string has at most as many code points as bytes: most strings need no count.
    if text.len() as u64 <= limit {
        return Ok(());
    }
    let length = text.chars().count() as u64;
    if length <= limit {
        return Ok(());
    }
    Err(Violation::new("maxLength", format!("{} has {length} characters, more than the maxLength {limit}", quote_str(text))))
}

/// `pattern`, on a string held as a plain Rust string (a hand-written type checked by
/// `#[derive(Conforms)]`; generated types hold such strings in a newtype checked when built).
pub fn pattern(text: &(impl AsRef<str> + ?Sized), pattern: &crate::pattern::Pattern) -> Result<(), Violation> {
    let text = text.as_ref();
    match pattern.is_match(text) {
        Ok(true) => Ok(()),
        Ok(false) => Err(Violation::new("pattern", format!("{} does not match the pattern {:?}", quote_str(text), pattern.source()))),
        Err(e) => Err(Violation::new("pattern", e.to_string())),
    }
}

/// `const`, on a value held as a plain Rust value (see [`pattern`]): compared as JSON.
pub fn constant<T: Serialize + ?Sized>(value: &T, expected: &Value) -> Result<(), Violation> {
    constant_json(serde_json::to_value(value), expected)
}

/// [`constant`] past the one generic step (what a generated crate compiles per type).
fn constant_json(json: serde_json::Result<Value>, expected: &Value) -> Result<(), Violation> {
    match json {
        Ok(json) if crate::json_eq(&json, expected) => Ok(()),
        Ok(json) => Err(Violation::new("const", format!("{json} is not the constant {expected}"))),
        Err(e) => Err(Violation::new("const", format!("the value cannot be written as JSON: {e}"))),
    }
}

/// `enum`, on a value held as a plain Rust value (see [`pattern`]): compared as JSON.
pub fn one_of_values<T: Serialize + ?Sized>(value: &T, allowed: &[Value]) -> Result<(), Violation> {
    one_of_json(serde_json::to_value(value), allowed)
}

/// [`one_of_values`] past the one generic step (what a generated crate compiles per type).
fn one_of_json(json: serde_json::Result<Value>, allowed: &[Value]) -> Result<(), Violation> {
    match json {
        Ok(json) if allowed.iter().any(|a| crate::json_eq(&json, a)) => Ok(()),
        Ok(json) => {
            let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
            Err(Violation::new("enum", format!("{json} is not one of {}", list.join(", "))))
        }
        Err(e) => Err(Violation::new("enum", format!("the value cannot be written as JSON: {e}"))),
    }
}

/// `minItems`.
pub fn min_items(len: usize, limit: u64) -> Result<(), Violation> {
    if len as u64 >= limit { Ok(()) } else { Err(Violation::new("minItems", format!("{len} items are fewer than the minItems {limit}"))) }
}

/// `maxItems`.
pub fn max_items(len: usize, limit: u64) -> Result<(), Violation> {
    if len as u64 <= limit { Ok(()) } else { Err(Violation::new("maxItems", format!("{len} items are more than the maxItems {limit}"))) }
}

/// `uniqueItems: true`, with JSON equality (`1` equals `1.0`, key order does not matter):
/// items are compared by a canonical text of their JSON.
pub fn unique_items<T: Serialize>(items: &[T]) -> Result<(), Violation> {
    unique_json(items.len(), &mut |i| serde_json::to_value(&items[i]))
}

/// [`unique_items`] over `len` items, item `i`'s JSON from `json_of(i)` (asked in order, each
/// once, up to the first duplicate or error): the loop is compiled once here rather than in
/// every generated crate for every item type, which keeps only the serialization.
fn unique_json(len: usize, json_of: &mut dyn FnMut(usize) -> serde_json::Result<Value>) -> Result<(), Violation> {
    let mut seen: HashSet<String> = HashSet::with_capacity(len);
    let mut first: Vec<(String, usize)> = Vec::new();
    for i in 0..len {
        let value = json_of(i).map_err(|e| Violation::new("uniqueItems", e.to_string()))?;
        let mut key = String::new();
        canonical(&value, &mut key);
        if !seen.insert(key.clone()) {
            let j = first.iter().find(|(k, _)| *k == key).map_or(0, |(_, j)| *j);
            return Err(Violation::new("uniqueItems", format!("items {j} and {i} are equal, but uniqueItems is true")));
        }
        first.push((key, i));
    }
    Ok(())
}

/// JSON text in which equal JSON values are equal strings: sorted keys, and integral numbers
/// written as integers.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(_) => match Num::of_value(value) {
            Some(Num::Float(f)) if f.fract() == 0.0 && f.abs() < 1e38 => out.push_str(&format!("{}", f as i128)),
            Some(n) => out.push_str(&n.to_string()),
            None => out.push_str(&value.to_string()),
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (key, item) in entries {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(item, out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// `contains` with `minContains`/`maxContains` (`min` is 1 without `minContains`): how many
/// items `matches` accepts.
pub fn contains<T: Serialize>(items: &[T], min: u64, max: Option<u64>, matches: impl Fn(&Value) -> bool) -> Result<(), Violation> {
    let mut count = 0u64;
    for item in items {
        let value = serde_json::to_value(item).map_err(|e| Violation::new("contains", e.to_string()))?;
        if matches(&value) {
            count += 1;
        }
    }
    if count < min {
        let message = if min == 1 {
            "no item matches the contains schema".to_owned()
        } else {
            format!("{count} items match the contains schema, fewer than the minContains {min}")
        };
        return Err(Violation::new(if min == 1 { "contains" } else { "minContains" }, message));
    }
    if let Some(max) = max
        && count > max
    {
        return Err(Violation::new("maxContains", format!("{count} items match the contains schema, more than the maxContains {max}")));
    }
    Ok(())
}

/// `minProperties`; `names` are the object's property names.
pub fn min_properties(names: &[&str], limit: u64) -> Result<(), Violation> {
    let len = names.len();
    if len as u64 >= limit {
        return Ok(());
    }
    Err(Violation::new("minProperties", format!("{len} properties are fewer than the minProperties {limit}")))
}

/// `maxProperties`.
pub fn max_properties(names: &[&str], limit: u64) -> Result<(), Violation> {
    let len = names.len();
    if len as u64 <= limit {
        return Ok(());
    }
    Err(Violation::new("maxProperties", format!("{len} properties are more than the maxProperties {limit}")))
}

/// `propertyNames`: every name passes `check` (which gets the name as a JSON string).
pub fn property_names<E: fmt::Display>(names: &[&str], check: impl Fn(&Value) -> Result<(), E>) -> Result<(), Violation> {
    for name in names {
        if let Err(e) = check(&Value::String((*name).to_owned())) {
            return Err(Violation::new("propertyNames", format!("property name {} is not allowed by propertyNames: {e}", quote_str(name))));
        }
    }
    Ok(())
}

/// `dependentRequired` (and draft-07 `dependencies` with a list): with `name`, the object
/// must have every one of `required`.
pub fn dependent_required(names: &[&str], name: &str, required: &[&str]) -> Result<(), Violation> {
    if !names.contains(&name) {
        return Ok(());
    }
    match required.iter().find(|r| !names.contains(r)) {
        None => Ok(()),
        Some(missing) => {
            Err(Violation::new("dependentRequired", format!("property `{name}` requires property `{missing}`, which is missing")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn multiple_of_has_no_float_false_negatives() {
        assert!(multiple_of(0.0075, 0.0001).is_ok());
        assert!(multiple_of(0.3, 0.1).is_ok());
        assert!(multiple_of(19.99, 0.01).is_ok());
        assert!(multiple_of(1e-7, 1e-8).is_ok());
        assert!(multiple_of(4.5, 1.5).is_ok());
        assert!(multiple_of(10_i64, 2.5).is_ok());
        assert!(multiple_of(1e300, 1e-300).is_ok());
        assert!(multiple_of(0.0, 0.7).is_ok());
        assert!(multiple_of(-9_i64, 3_i64).is_ok());
        assert!(multiple_of(u64::MAX, 5_u64).is_ok());
    }

    #[test]
    fn multiple_of_rejects_non_multiples() {
        assert!(multiple_of(0.00751, 0.0001).is_err());
        assert!(multiple_of(0.35, 0.1).is_err());
        assert!(multiple_of(7_i64, 2_i64).is_err());
        assert!(multiple_of(1e308, 0.123456789).is_err());
        assert!(multiple_of(1.5, 1_i64).is_err());
        let e = multiple_of(7_i64, 2_i64).unwrap_err();
        assert_eq!((e.keyword(), e.message()), ("multipleOf", "7 is not a multiple of 2"));
    }

    #[test]
    fn bounds_compare_integers_and_floats_exactly() {
        assert!(minimum(1_u8, 1_i128).is_ok());
        assert!(minimum(0_u8, 0.5).is_err());
        assert!(maximum(1.5, 1_i128).unwrap_err().message() == "1.5 is greater than the maximum 1");
        assert!(maximum(u64::MAX, 1.8446744073709552e19).is_ok());
        assert!(maximum(9_007_199_254_740_993_i64, 9_007_199_254_740_992.0).is_err());
        assert!(exclusive_minimum(1_i64, 1_i128).is_err());
        assert!(exclusive_minimum(1.0000001, 1_i128).is_ok());
        assert!(exclusive_maximum(2.0, 2.0).is_err());
        assert!(exclusive_maximum(-3_i8, -2.5).is_ok());
    }

    #[test]
    fn lengths_count_code_points() {
        // One astral character is two UTF-16 units and four bytes, but one code point.
        assert!(max_length("💩", 1).is_ok());
        assert!(min_length("💩", 2).is_err());
        assert!(min_length("née", 3).is_ok());
        assert_eq!(min_length("ab", 3).unwrap_err().message(), "\"ab\" has 2 characters, fewer than the minLength 3");
    }

    #[test]
    fn unique_items_uses_json_equality() {
        assert!(unique_items(&[json!(1), json!(1.0)]).is_err());
        assert!(unique_items(&[json!({"a": 1, "b": [2]}), json!({"b": [2.0], "a": 1})]).is_err());
        assert!(unique_items(&[json!(1), json!("1"), json!(true), json!([1]), json!({"a": 1})]).is_ok());
        assert!(unique_items(&[json!(0), json!(false)]).is_ok());
        assert_eq!(unique_items(&[1, 2, 1]).unwrap_err().message(), "items 0 and 2 are equal, but uniqueItems is true");
    }

    #[test]
    fn contains_counts_matches() {
        let is_str = |v: &Value| v.is_string();
        assert!(contains(&[json!(1), json!("a")], 1, None, is_str).is_ok());
        assert_eq!(contains(&[json!(1)], 1, None, is_str).unwrap_err().keyword(), "contains");
        assert_eq!(contains(&[json!("a")], 2, None, is_str).unwrap_err().keyword(), "minContains");
        assert_eq!(contains(&[json!("a"), json!("b")], 1, Some(1), is_str).unwrap_err().keyword(), "maxContains");
        assert!(contains::<Value>(&[], 0, None, is_str).is_ok());
    }

    #[test]
    fn object_assertions() {
        assert!(min_properties(&["a"], 1).is_ok());
        assert!(max_properties(&["a", "b"], 1).is_err());
        assert!(dependent_required(&["a"], "a", &["b"]).is_err());
        assert!(dependent_required(&["b"], "a", &["b"]).is_ok());
        let short = |v: &Value| if v.as_str().is_some_and(|s| s.len() <= 2) { Ok(()) } else { Err("too long") };
        assert!(property_names(&["ab"], short).is_ok());
        assert_eq!(
            property_names(&["abc"], short).unwrap_err().message(),
            "property name \"abc\" is not allowed by propertyNames: too long"
        );
    }
}
