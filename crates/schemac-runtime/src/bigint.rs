//! [`BigInt`]: an integer of any size, held exactly, for code compiled with big integers
//! (`schemac::Config::big_integers`, `schemac compile --big-integers`): an `integer` schema with
//! no bounds and no `multipleOf` then reads every integer JSON can write
//! (`12345678910111213141516171819202122232425262728293031`, `1e308`), not only those of `i64`.
//! Behind the `bignum` feature (`num-bigint`), which such code needs.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{Error as _, Serializer};

use crate::de::{Digits, integer_digits};

/// The most digits an integer read from JSON may have: enough for any real document, and a
/// short text (`1e1000000000`) cannot make a value of a gigabyte.
pub const MAX_DIGITS: u64 = 10_000;

/// An integer of any size, exactly as the JSON wrote it (`1e3` is 1000).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BigInt(pub num_bigint::BigInt);

impl BigInt {
    pub fn get(&self) -> &num_bigint::BigInt {
        &self.0
    }

    pub fn into_inner(self) -> num_bigint::BigInt {
        self.0
    }
}

macro_rules! from_primitive {
    ($($t:ty),*) => {$(
        impl From<$t> for BigInt {
            fn from(v: $t) -> BigInt {
                BigInt(v.into())
            }
        }
    )*};
}
from_primitive!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

impl fmt::Display for BigInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl serde::Serialize for BigInt {
    /// A JSON number. Beyond 64 bits, as its digits through serde_json's raw-value protocol,
    /// which serde_json's writer copies as they are (`serde_json::to_value` makes its `f64`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Ok(v) = i64::try_from(&self.0) {
            return serializer.serialize_i64(v);
        }
        if let Ok(v) = u64::try_from(&self.0) {
            return serializer.serialize_u64(v);
        }
        serde_json::value::RawValue::from_string(self.0.to_string()).map_err(S::Error::custom)?.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for BigInt {
    /// From the number's text where the deserializer has it (serde_json would hand over an
    /// integer beyond 64 bits as a rounded `f64`), else from the value.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::raw::read(deserializer, Sink)
    }
}

struct Sink;

impl crate::raw::Sink for Sink {
    type Out = BigInt;
    fn text<E: de::Error>(self, text: &str) -> Result<BigInt, E> {
        match integer_digits(text) {
            Some(Digits::Integer { significant, .. }) if significant.is_empty() => Ok(BigInt::default()),
            Some(Digits::Integer { negative, significant, zeros }) => {
                if significant.len() as u64 + zeros > MAX_DIGITS {
                    return Err(too_long(text));
                }
                let magnitude: num_bigint::BigInt = significant.parse().map_err(E::custom)?;
                let value = magnitude * num_bigint::BigInt::from(10).pow(zeros as u32);
                Ok(BigInt(if negative { -value } else { value }))
            }
            Some(Digits::Huge) => Err(too_long(text)),
            Some(Digits::Fraction) => Err(E::invalid_type(de::Unexpected::Float(text.parse().unwrap_or(f64::NAN)), &"an integer")),
            None => self.value(serde_json::from_str(text).map_err(E::custom)?),
        }
    }

    fn value<E: de::Error>(self, value: serde_json::Value) -> Result<BigInt, E> {
        let serde_json::Value::Number(n) = &value else {
            return Err(E::invalid_type(crate::error::unexpected(&value), &"an integer"));
        };
        if let Some(v) = n.as_i64() {
            return Ok(v.into());
        }
        if let Some(v) = n.as_u64() {
            return Ok(v.into());
        }
        let f = n.as_f64().unwrap_or(f64::NAN);
        if f.fract() != 0.0 || !f.is_finite() {
            return Err(E::invalid_type(de::Unexpected::Float(f), &"an integer"));
        }
        // `{:.0}` writes the exact value of an integral f64, every digit.
        format!("{f:.0}").parse().map(BigInt).map_err(E::custom)
    }
}

fn too_long<E: de::Error>(text: &str) -> E {
    E::custom(format_args!("integer {text}{}schemac_runtime::BigInt (more than {MAX_DIGITS} digits)", crate::error::OUT_OF_RANGE))
}

impl crate::Validate for BigInt {
    fn validate_at(&self, _: &crate::validate::Path<'_>, _: &mut crate::ValidationErrors) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<BigInt, String> {
        crate::from_str::<BigInt>(text).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_any_integer_exactly_and_writes_it_back() {
        let bignum = "12345678910111213141516171819202122232425262728293031";
        for text in [bignum, "-12345678910111213141516171819202122232425262728293031", "0", "-5", "18446744073709551615"] {
            let value = read(text).unwrap();
            assert_eq!(value.to_string(), text);
            assert_eq!(serde_json::to_string(&value).unwrap(), text);
        }
        assert_eq!(read("1e308").unwrap().to_string(), format!("1{}", "0".repeat(308)));
        assert_eq!(read("2.5e1").unwrap(), BigInt::from(25));
        assert_eq!(read("-0.0").unwrap(), BigInt::default());
        // Written to a `Value`, beyond 64 bits it is the nearest f64, as every `Value` number.
        assert_eq!(serde_json::to_value(read(bignum).unwrap()).unwrap(), serde_json::json!(1.2345678910111213e52));
    }

    #[test]
    fn refuses_fractions_other_kinds_and_absurd_sizes() {
        assert_eq!(read("1.5"), Err("(root): invalid type: floating point `1.5`, expected an integer".to_owned()));
        assert_eq!(read("\"7\""), Err("(root): invalid type: string \"7\", expected an integer".to_owned()));
        let error = read("1e100000").unwrap_err();
        assert!(error.contains("is out of range for schemac_runtime::BigInt (more than 10000 digits)"), "{error}");
        assert!(crate::de::unrepresentable(&error));
        // From a `Value`: its numbers as they are.
        assert_eq!(crate::from_value::<BigInt>(serde_json::json!(1e20)).unwrap().to_string(), "100000000000000000000");
        assert!(crate::from_value::<BigInt>(serde_json::json!(0.5)).is_err());
    }
}
