//! Exact JSON numbers: [`Number`] and [`Integer`].

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;

/// A JSON number, exactly: what a schema's `number` reads as; [`Integer`] is what an
/// `integer` reads as when no 64-bit Rust integer holds every value its bounds allow (no
/// `maximum`, say). Each holds the value the document wrote, whatever its size: a valid
/// document is never refused for a number's size, and what is written back is the same number.
///
/// A value that fits a Rust primitive is held as one (`i64`, `u64`, or an `f64` whose shortest
/// decimal is exactly what was written, `0.1` and `1e300` among them); any other is held as
/// its JSON text (`12345678910111213141516171819202122232425262728293031`,
/// `0.10000000000000000001`, `1e400`). Comparisons are exact on the decimal value (`1` equals
/// `1.0`, `2^53 + 1` is not `2^53`), so `Number` and `Integer` are `Eq`, `Ord` and `Hash`.
///
/// serde_json hands a number over as an `f64` once it has no `i64` or `u64` value, rounding
/// it; these types read the number's text instead (serde_json's raw-value
/// protocol). Other formats (YAML, TOML, a `serde_json::Value`) have no more than
/// `i64`, `u64` and `f64` to give, which are taken as they are. A number held as text is
/// written to serde_json as that text; another format cannot hold it, which is an error,
/// never a rounded number.
///
/// ```
/// use schemac_runtime::Number;
///
/// let n: Number = schemac_runtime::from_str("0.1").unwrap();
/// assert_eq!(n.as_f64(), 0.1);
/// let big: Number = schemac_runtime::from_str("98249283749234923498293171823948729348710298301928331").unwrap();
/// assert_eq!(big.to_string(), "98249283749234923498293171823948729348710298301928331");
/// assert!(big.as_i64().is_none() && big > Number::from(u64::MAX));
/// assert_eq!(serde_json::to_string(&big).unwrap(), "98249283749234923498293171823948729348710298301928331");
/// ```
#[derive(Clone)]
pub struct Number(Repr);

/// A JSON integer, exactly: what a schema's `integer` reads as when no 64-bit Rust integer
/// holds every value its bounds allow. It holds and compares values as [`Number`] does.
///
/// ```
/// use schemac_runtime::Integer;
///
/// let n: Integer = schemac_runtime::from_str("12345678910111213141516171819202122232425262728293031").unwrap();
/// assert!(n.as_i64().is_none());
/// assert_eq!(Integer::from(7_i64).as_i64(), Some(7));
/// assert!(schemac_runtime::from_str::<Integer>("1.5").is_err());
/// assert_eq!(schemac_runtime::from_str::<Integer>("1e2").unwrap(), Integer::from(100_u8));
/// ```
#[derive(Clone)]
pub struct Integer(Repr);

#[derive(Clone)]
enum Repr {
    /// An integer written as one (no `.`, no exponent) within `i64`.
    I64(i64),
    /// Such an integer above `i64::MAX`, within `u64`.
    U64(u64),
    /// A finite float whose shortest decimal is the value written.
    F64(f64),
    /// Any other number, as its JSON text (behind a thin pointer, which keeps the value two
    /// words wide).
    Text(Box<Text>),
}

/// The JSON text of a number no primitive holds.
#[derive(Clone)]
struct Text(String);

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A decimal's exact value, `(-1)^negative × digits × 10^scale`, `digits` without leading or
/// trailing zeros (empty for zero, which is never negative).
#[derive(Debug, PartialEq, Eq)]
struct Decimal<'a> {
    negative: bool,
    digits: std::borrow::Cow<'a, str>,
    scale: i64,
}

/// A JSON number's text as a [`Decimal`], `None` if it is not one. An exponent beyond
/// ±2^62 is taken as ±2^62 (such a number has no other representation anyway).
fn decimal(text: &str) -> Option<Decimal<'_>> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').map_or((mantissa, ""), |(w, f)| (w, f));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let json_whole = !whole.is_empty() && all_digits(whole) && (whole == "0" || !whole.starts_with('0'));
    if !json_whole || !all_digits(fraction) || (mantissa.contains('.') && fraction.is_empty()) {
        return None;
    }
    const LIMIT: i64 = 1 << 62;
    let exponent = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !all_digits(digits) {
                return None;
            }
            let magnitude = digits.trim_start_matches('0');
            let magnitude: i64 = if magnitude.len() > 18 { LIMIT } else { magnitude.parse().unwrap_or(0).min(LIMIT) };
            if e.starts_with('-') { -magnitude } else { magnitude }
        }
    };
    let joined: std::borrow::Cow<'_, str> = if fraction.is_empty() { whole.into() } else { format!("{whole}{fraction}").into() };
    let leading = joined.len() - joined.trim_start_matches('0').len();
    let trailing = joined.len() - joined.trim_end_matches('0').len();
    if leading == joined.len() {
        return Some(Decimal { negative: false, digits: "".into(), scale: 0 });
    }
    let digits: std::borrow::Cow<'_, str> = match joined {
        std::borrow::Cow::Borrowed(s) => s[leading..s.len() - trailing].into(),
        std::borrow::Cow::Owned(s) => s[leading..s.len() - trailing].to_owned().into(),
    };
    let scale = exponent.saturating_sub(fraction.len() as i64).saturating_add(trailing as i64);
    Some(Decimal { negative, digits, scale })
}

impl Decimal<'_> {
    /// Exact comparison.
    fn cmp(&self, other: &Decimal<'_>) -> Ordering {
        let sign = |d: &Decimal<'_>| {
            if d.digits.is_empty() {
                0
            } else if d.negative {
                -1
            } else {
                1
            }
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal if sign(self) == 0 => Ordering::Equal,
            Ordering::Equal => {
                let magnitude = self.cmp_magnitude(other);
                if self.negative { magnitude.reverse() } else { magnitude }
            }
            unequal => unequal,
        }
    }

    /// `|self|` against `|other|`, both non-zero.
    fn cmp_magnitude(&self, other: &Decimal<'_>) -> Ordering {
        // The position of the leading digit decides first, then the digits themselves.
        let top = |d: &Decimal<'_>| d.scale.saturating_add(d.digits.len() as i64);
        top(self).cmp(&top(other)).then_with(|| {
            let (a, b) = (self.digits.as_bytes(), other.digits.as_bytes());
            let common = a.len().min(b.len());
            a[..common].cmp(&b[..common]).then(a.len().cmp(&b.len()))
        })
    }

    /// Whether it is a whole number.
    fn is_integer(&self) -> bool {
        self.scale >= 0
    }
}

/// The decimal an `f64` stands for: its shortest round-trip digits (`0.1` for the binary
/// fraction nearest to it), as `{:e}` prints them.
fn float_decimal(f: f64) -> Decimal<'static> {
    let text = format!("{f:e}");
    decimal(&text).map(|d| Decimal { negative: d.negative, digits: d.digits.into_owned().into(), scale: d.scale }).unwrap_or(Decimal {
        negative: false,
        digits: "".into(),
        scale: 0,
    })
}

/// The decimal of an integer.
fn int_decimal(i: i128) -> Decimal<'static> {
    let text = i.to_string();
    decimal(&text).map(|d| Decimal { negative: d.negative, digits: d.digits.into_owned().into(), scale: d.scale }).unwrap_or(Decimal {
        negative: false,
        digits: "".into(),
        scale: 0,
    })
}

impl Repr {
    /// The number a JSON number's text spells, `None` for text that is not one.
    fn parse(text: &str) -> Option<Repr> {
        let exact = decimal(text)?;
        if !text.contains(['.', 'e', 'E']) {
            if let Ok(i) = text.parse::<i64>() {
                return Some(Repr::I64(i));
            }
            if let Ok(u) = text.parse::<u64>() {
                return Some(Repr::U64(u));
            }
            return Some(Repr::Text(Box::new(Text(text.to_owned()))));
        }
        let f: f64 = text.parse().ok()?;
        // Up to 15 significant digits in the normal range, the nearest f64's shortest decimal
        // is the number itself (that is what 15 = f64's DIGITS means); beyond, compare.
        let normal = (-307..=308).contains(&exact.scale.saturating_add(exact.digits.len() as i64));
        let fits = f.is_finite() && ((exact.digits.len() <= 15 && normal) || float_decimal(f).cmp(&exact) == Ordering::Equal);
        Some(if fits { Repr::F64(f) } else { Repr::Text(Box::new(Text(text.to_owned()))) })
    }

    fn decimal(&self) -> Decimal<'_> {
        match self {
            Repr::I64(i) => int_decimal(i128::from(*i)),
            Repr::U64(u) => int_decimal(i128::from(*u)),
            Repr::F64(f) => float_decimal(*f),
            Repr::Text(text) => decimal(text).unwrap_or(Decimal { negative: false, digits: "".into(), scale: 0 }),
        }
    }

    fn cmp(&self, other: &Repr) -> Ordering {
        match (self, other) {
            (Repr::I64(a), Repr::I64(b)) => a.cmp(b),
            (Repr::U64(a), Repr::U64(b)) => a.cmp(b),
            (Repr::I64(_), Repr::U64(_)) => Ordering::Less,
            (Repr::U64(_), Repr::I64(_)) => Ordering::Greater,
            (Repr::F64(a), Repr::F64(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            _ => self.decimal().cmp(&other.decimal()),
        }
    }

    fn as_f64(&self) -> f64 {
        match self {
            Repr::I64(i) => *i as f64,
            Repr::U64(u) => *u as f64,
            Repr::F64(f) => *f,
            // The nearest f64 (infinite beyond its range).
            Repr::Text(text) => text.parse().unwrap_or(f64::NAN),
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match self {
            Repr::I64(i) => Some(*i),
            Repr::U64(_) => None,
            Repr::F64(f) if f.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(f) => Some(*f as i64),
            Repr::F64(_) => None,
            Repr::Text(_) => i64::try_from(self.as_i128()?).ok(),
        }
    }

    fn as_u64(&self) -> Option<u64> {
        match self {
            Repr::I64(i) => u64::try_from(*i).ok(),
            Repr::U64(u) => Some(*u),
            _ => u64::try_from(self.as_i128()?).ok(),
        }
    }

    /// The value as an `i128` if it is an integer in its range.
    fn as_i128(&self) -> Option<i128> {
        match self {
            Repr::I64(i) => Some(i128::from(*i)),
            Repr::U64(u) => Some(i128::from(*u)),
            _ => {
                let d = self.decimal();
                if !d.is_integer() || d.digits.len() as i64 + d.scale > 39 {
                    return None;
                }
                let magnitude: i128 = d.digits.parse::<i128>().ok()?.checked_mul(10_i128.checked_pow(u32::try_from(d.scale).ok()?)?)?;
                Some(if d.negative { -magnitude } else { magnitude })
            }
        }
    }

    fn is_integer(&self) -> bool {
        match self {
            Repr::I64(_) | Repr::U64(_) => true,
            Repr::F64(f) => f.fract() == 0.0,
            Repr::Text(_) => self.decimal().is_integer(),
        }
    }

    /// The text it is written as, exactly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repr::I64(i) => write!(f, "{i}"),
            Repr::U64(u) => write!(f, "{u}"),
            // serde_json's spelling (`1.0`, `1e300`), shortest round-trip digits.
            Repr::F64(x) => f.write_str(&serde_json::Number::from_f64(*x).map_or_else(|| x.to_string(), |n| n.to_string())),
            Repr::Text(text) => f.write_str(&text.0),
        }
    }

    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Repr::I64(i) => serializer.serialize_i64(*i),
            Repr::U64(u) => serializer.serialize_u64(*u),
            Repr::F64(f) => serializer.serialize_f64(*f),
            Repr::Text(text) if crate::extra::writes_json::<S>() => {
                let raw = serde_json::value::RawValue::from_string(text.0.clone()).map_err(serde::ser::Error::custom)?;
                raw.serialize(serializer)
            }
            Repr::Text(text) => {
                Err(serde::ser::Error::custom(format_args!("the number {} cannot be written to this format without changing it", text.0)))
            }
        }
    }

    fn hash<H: Hasher>(&self, state: &mut H) {
        // Equal values hash alike whatever their representation: by their exact decimal.
        let d = self.decimal();
        (d.negative, &*d.digits, d.scale).hash(state);
    }

    fn of_value(value: &Value) -> Option<Repr> {
        let Value::Number(n) = value else { return None };
        if let Some(i) = n.as_i64() {
            return Some(Repr::I64(i));
        }
        if let Some(u) = n.as_u64() {
            return Some(Repr::U64(u));
        }
        n.as_f64().map(Repr::F64)
    }
}

macro_rules! number_type {
    ($name:ident) => {
        impl $name {
            /// The nearest `f64` (infinite beyond its range); exact when the value is one.
            pub fn as_f64(&self) -> f64 {
                self.0.as_f64()
            }

            /// The value as an `i64`, if it is an integer that one holds.
            pub fn as_i64(&self) -> Option<i64> {
                self.0.as_i64()
            }

            /// The value as a `u64`, if it is an integer that one holds.
            pub fn as_u64(&self) -> Option<u64> {
                self.0.as_u64()
            }

            /// The value as an `i128`, if it is an integer that one holds.
            pub fn as_i128(&self) -> Option<i128> {
                self.0.as_i128()
            }

            /// The number as a limit or instance of the assertion keywords.
            #[doc(hidden)]
            pub fn num(&self) -> Num {
                match &self.0 {
                    Repr::I64(i) => Num::Int(i128::from(*i)),
                    Repr::U64(u) => Num::Int(i128::from(*u)),
                    Repr::F64(f) => Num::Float(*f),
                    Repr::Text(_) => match self.0.as_i128() {
                        Some(i) => Num::Int(i),
                        None => Num::Text(self.to_string().into()),
                    },
                }
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}(", stringify!($name))?;
                self.0.fmt(f)?;
                f.write_str(")")
            }
        }

        /// The JSON text of the number, exactly (`1e400` as written; an `f64` in its shortest
        /// round-trip digits, as serde_json writes it).
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.0.cmp(&other.0) == Ordering::Equal
            }
        }

        impl Eq for $name {}

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.cmp(&other.0)
            }
        }

        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.0.hash(state)
            }
        }

        impl Default for $name {
            /// Zero.
            fn default() -> Self {
                $name(Repr::I64(0))
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                crate::raw::read(deserializer, Sink::<$name>(std::marker::PhantomData))
            }
        }
    };
}

number_type!(Number);
number_type!(Integer);

macro_rules! from_ints {
    ($name:ident: $($t:ty),*) => {$(
        impl From<$t> for $name {
            fn from(v: $t) -> $name {
                match i64::try_from(v) {
                    Ok(i) => $name(Repr::I64(i)),
                    Err(_) => $name(Repr::U64(v as u64)),
                }
            }
        }

        impl PartialEq<$t> for $name {
            fn eq(&self, other: &$t) -> bool {
                self.0.as_i128() == Some(i128::from(*other))
            }
        }

        impl PartialOrd<$t> for $name {
            fn partial_cmp(&self, other: &$t) -> Option<Ordering> {
                Some(match self.0.as_i128() {
                    Some(i) => i.cmp(&i128::from(*other)),
                    None => self.0.cmp(&$name::from(*other).0),
                })
            }
        }
    )*};
}
from_ints!(Number: u8, u16, u32, u64, i8, i16, i32, i64);
from_ints!(Integer: u8, u16, u32, u64, i8, i16, i32, i64);

impl Number {
    /// The number a JSON number's text spells, for generated code (a schema's `default`),
    /// whose text is one by construction; zero for text that is not (only a hand-edited file
    /// has such, which the drift check refuses).
    #[doc(hidden)]
    pub fn literal(text: &str) -> Number {
        text.parse().unwrap_or_default()
    }

    /// The number `f`, for a literal in code (`Number::new(0.5)`).
    ///
    /// # Panics
    ///
    /// For NaN and the infinities, which JSON cannot spell ([`Number::from_f64`] and
    /// `TryFrom<f64>` return them as `None` and an error).
    pub const fn new(f: f64) -> Number {
        assert!(f.is_finite(), "NaN and the infinities are no JSON numbers");
        Number(Repr::F64(f))
    }

    /// The number `f`, `None` for NaN and the infinities, which JSON cannot spell.
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(Repr::F64(f)))
    }

    /// Whether it is a whole number (`2.0` is).
    pub fn is_integer(&self) -> bool {
        self.0.is_integer()
    }
}

impl Integer {
    /// Like [`Number::literal`], for an integer.
    #[doc(hidden)]
    pub fn literal(text: &str) -> Integer {
        text.parse().unwrap_or_default()
    }

    /// The same value as a [`Number`].
    pub fn to_number(&self) -> Number {
        Number(self.0.clone())
    }
}

/// The number as the assertions read it (`assert::Num`): `multipleOf` and the bounds over the
/// exact value.
impl From<&Number> for Num {
    fn from(v: &Number) -> Num {
        v.num()
    }
}

impl From<&Integer> for Num {
    fn from(v: &Integer) -> Num {
        v.num()
    }
}

impl From<Integer> for Number {
    fn from(i: Integer) -> Number {
        Number(i.0)
    }
}

impl TryFrom<Number> for Integer {
    type Error = crate::ConstraintError;
    /// The number, if it is whole.
    fn try_from(n: Number) -> Result<Integer, crate::ConstraintError> {
        if n.is_integer() { Ok(Integer(n.0)) } else { Err(crate::ConstraintError::new(format!("{n} is not an integer"))) }
    }
}

impl TryFrom<f64> for Number {
    type Error = crate::ConstraintError;
    fn try_from(f: f64) -> Result<Number, crate::ConstraintError> {
        Number::from_f64(f).ok_or_else(|| crate::ConstraintError::new(format!("{f} is no JSON number")))
    }
}

/// Compared with the decimal the `f64` stands for (its shortest digits): `Number` `0.1` equals
/// `0.1_f64`; NaN equals nothing.
impl PartialEq<f64> for Number {
    fn eq(&self, other: &f64) -> bool {
        Number::from_f64(*other).is_some_and(|other| *self == other)
    }
}

impl PartialOrd<f64> for Number {
    fn partial_cmp(&self, other: &f64) -> Option<Ordering> {
        match Number::from_f64(*other) {
            Some(other) => Some(self.cmp(&other)),
            None if *other == f64::INFINITY => Some(Ordering::Less),
            None if *other == f64::NEG_INFINITY => Some(Ordering::Greater),
            None => None,
        }
    }
}

impl TryFrom<f32> for Number {
    type Error = crate::ConstraintError;
    fn try_from(f: f32) -> Result<Number, crate::ConstraintError> {
        Number::try_from(f64::from(f))
    }
}

/// A builder's setter of a `number` takes an `f64`; NaN and the infinities, which JSON cannot
/// spell, are violations `build()` reports.
impl FromStr for Number {
    type Err = crate::ConstraintError;
    /// A JSON number's text (`-1.5e3`), held exactly.
    fn from_str(text: &str) -> Result<Number, crate::ConstraintError> {
        Repr::parse(text).map(Number).ok_or_else(|| crate::ConstraintError::new(format!("{text:?} is not a JSON number")))
    }
}

impl FromStr for Integer {
    type Err = crate::ConstraintError;
    /// A JSON number's text that is a whole number (`12`, `1e3`, `2.0`), held exactly.
    fn from_str(text: &str) -> Result<Integer, crate::ConstraintError> {
        text.parse::<Number>().and_then(Integer::try_from)
    }
}

/// Reads a [`Number`] or [`Integer`] from its text or, from a format without it, its value.
struct Sink<T>(std::marker::PhantomData<T>);

trait Exact: Sized {
    const EXPECTED: &'static str;
    fn from_repr(repr: Repr) -> Option<Self>;
}

impl Exact for Number {
    const EXPECTED: &'static str = "a number";
    fn from_repr(repr: Repr) -> Option<Number> {
        Some(Number(repr))
    }
}

impl Exact for Integer {
    const EXPECTED: &'static str = "an integer";
    fn from_repr(repr: Repr) -> Option<Integer> {
        repr.is_integer().then_some(Integer(repr))
    }
}

impl<T: Exact> crate::raw::Sink for Sink<T> {
    type Out = T;
    fn text<E: de::Error>(self, text: &str) -> Result<T, E> {
        match Repr::parse(text) {
            Some(repr) => {
                let shown = || repr.as_f64();
                let float = shown();
                T::from_repr(repr).ok_or_else(|| E::invalid_type(de::Unexpected::Float(float), &T::EXPECTED))
            }
            // Not a number: the same error as from any other value of its kind.
            None => {
                let value: Value = serde_json::from_str(text).map_err(E::custom)?;
                self.value(value)
            }
        }
    }
    fn value<E: de::Error>(self, value: Value) -> Result<T, E> {
        match Repr::of_value(&value) {
            Some(repr) => {
                let float = repr.as_f64();
                T::from_repr(repr).ok_or_else(|| E::invalid_type(de::Unexpected::Float(float), &T::EXPECTED))
            }
            None => Err(E::invalid_type(crate::error::unexpected(&value), &T::EXPECTED)),
        }
    }
}

/// A JSON number as an instance or a limit: integers exactly, the rest as `f64` (which stands
/// for its shortest decimal, the one the JSON text most likely wrote), or as the text of a
/// number neither holds ([`Number`]'s, or a limit's beyond `f64`).
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
    /// A JSON number's text (`1e400`, `0.10000000000000000001`), compared exactly.
    Text(std::borrow::Cow<'static, str>),
}

macro_rules! num_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Num {
            fn from(v: $t) -> Num {
                Num::Int(i128::from(v))
            }
        }

        impl From<&$t> for Num {
            fn from(v: &$t) -> Num {
                Num::Int(i128::from(*v))
            }
        }
    )*};
}
num_from_int!(u8, u16, u32, u64, i8, i16, i32, i64, i128);

impl From<f64> for Num {
    fn from(v: f64) -> Num {
        Num::Float(v)
    }
}

impl From<&f64> for Num {
    fn from(v: &f64) -> Num {
        Num::Float(*v)
    }
}

impl Num {
    /// A limit written as text, for one that no `i128` or `f64` holds exactly.
    pub const fn text(text: &'static str) -> Num {
        Num::Text(std::borrow::Cow::Borrowed(text))
    }

    /// The number in a JSON value, `None` for other kinds.
    pub fn of_value(value: &Value) -> Option<Num> {
        let Value::Number(n) = value else { return None };
        if let Some(i) = n.as_i64() {
            return Some(Num::Int(i.into()));
        }
        if let Some(u) = n.as_u64() {
            return Some(Num::Int(u.into()));
        }
        n.as_f64().map(Num::Float)
    }

    /// Exact comparison, also between an integer and a float (`None` only for NaN, which JSON
    /// cannot spell).
    #[inline]
    pub(crate) fn compare(&self, other: &Num) -> Option<Ordering> {
        // Integers up to 2^53 are exact in f64, so the float comparison is exact too.
        const EXACT: i128 = 1 << 53;
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(b),
            (Num::Int(a), Num::Float(b)) if (-EXACT..=EXACT).contains(a) => (*a as f64).partial_cmp(b),
            (Num::Float(a), Num::Int(b)) if (-EXACT..=EXACT).contains(b) => a.partial_cmp(&(*b as f64)),
            (Num::Int(a), Num::Float(b)) => int_float(*a, *b),
            (Num::Float(a), Num::Int(b)) => int_float(*b, *a).map(Ordering::reverse),
            (a, b) => Some(a.exact()?.cmp(&b.exact()?)),
        }
    }

    /// The number as an exact [`Number`] (`None` for NaN).
    pub(crate) fn exact(&self) -> Option<Number> {
        match self {
            Num::Int(i) => i.to_string().parse().ok(),
            Num::Float(f) => Number::from_f64(*f),
            Num::Text(text) => text.parse().ok(),
        }
    }

    /// `(digits, exponent)` with `|self| = digits * 10^exponent` and no trailing zeros in the
    /// digits (`"0"` for zero), from the shortest decimal that reads back as this number: the
    /// decimal the JSON text most likely wrote (`0.0075` is 75e-4, not the binary fraction
    /// nearest to it).
    pub(crate) fn decimal(&self) -> Option<(String, i64)> {
        let text = match self {
            Num::Int(i) => i.unsigned_abs().to_string(),
            Num::Float(f) if !f.is_finite() => return None,
            // `{:e}` prints the shortest round-trip digits: `7.5e-3`.
            Num::Float(f) => format!("{:e}", f.abs()),
            Num::Text(text) => text.trim_start_matches('-').to_owned(),
        };
        let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((&text, "0"));
        let exponent: i64 = exponent.parse().ok()?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{whole}{fraction}");
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Some(("0".to_owned(), 0));
        }
        let significant = digits.trim_end_matches('0');
        let trailing = (digits.len() - significant.len()) as i64;
        Some((significant.to_owned(), exponent - fraction.len() as i64 + trailing))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            // Exactly, as an integer: `{x}` pads the shortest digits with zeros, so 2^64
            // would read 18446744073709552000.
            Num::Float(x) if x.fract() == 0.0 && x.abs() < 1e38 => write!(f, "{}", *x as i128),
            Num::Float(x) => write!(f, "{x}"),
            Num::Text(text) => f.write_str(text),
        }
    }
}

/// `i` compared with `f`, exactly.
fn int_float(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // 2^127: beyond every i128.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f >= LIMIT {
        return Some(Ordering::Less);
    }
    if f < -LIMIT {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    // Exact: `whole` is an integer inside the i128 range.
    let whole_int = whole as i128;
    Some(i.cmp(&whole_int).then(if f > whole {
        Ordering::Less
    } else if f < whole {
        Ordering::Greater
    } else {
        Ordering::Equal
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        text.parse().unwrap()
    }

    #[test]
    fn values_are_held_exactly_and_written_back_as_read() {
        for text in ["0", "-7", "9223372036854775807", "18446744073709551615", "0.1", "1e300", "-6.411434336729626e-9"] {
            let number: Number = crate::from_str(text).unwrap();
            let back = serde_json::to_string(&number).unwrap();
            assert_eq!(text.parse::<f64>().unwrap(), back.parse::<f64>().unwrap(), "{text} → {back}");
        }
        for text in [
            "18446744073709551616",
            "-9223372036854775809",
            "12345678910111213141516171819202122232425262728293031",
            "0.10000000000000000001",
            "972783798187987123879878123.188781371",
            "1e400",
            "-1E-400",
        ] {
            let number: Number = crate::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&number).unwrap(), text);
            assert_eq!(number.to_string(), text);
        }
    }

    #[test]
    fn comparisons_are_exact() {
        assert_eq!(n("1"), n("1.0"));
        assert_eq!(n("1e2"), n("100"));
        assert_eq!(n("-0"), n("0"));
        assert!(n("9007199254740993") > n("9007199254740992"));
        assert!(n("972783798187987123879878123.188781371") > n("972783798187987123879878123.18878137"));
        assert!(n("-972783798187987123879878123.188781371") < n("-972783798187987123879878123.18878137"));
        assert!(n("1e400") > n("1.7976931348623157e308"));
        assert!(n("-1e400") < n("-5"));
        assert!(n("0.10000000000000000001") > n("0.1"));
        assert!(n("18446744073709551616") > u64::MAX);
        let hash = |x: &Number| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            x.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&n("1")), hash(&n("1.0")));
        assert_eq!(hash(&n("1e2")), hash(&n("100")));
    }

    #[test]
    fn integers_are_whole_numbers_of_any_size() {
        let big: Integer = crate::from_str("12345678910111213141516171819202122232425262728293031").unwrap();
        assert_eq!(big.as_i64(), None);
        assert_eq!(big.to_string(), "12345678910111213141516171819202122232425262728293031");
        assert_eq!(crate::from_str::<Integer>("2.0").unwrap(), Integer::from(2_u8));
        let error = crate::from_str::<Integer>("2.5").unwrap_err();
        assert!(error.to_string().contains("expected an integer"), "{error}");
        let error = crate::from_str::<Integer>("\"2\"").unwrap_err();
        assert!(error.to_string().contains("expected an integer"), "{error}");
        assert_eq!(Integer::from(-3_i8).as_i128(), Some(-3));
        assert_eq!("170141183460469231731687303715884105727".parse::<Integer>().unwrap().as_i128(), Some(i128::MAX));
    }

    #[test]
    fn other_formats_give_values_and_cannot_take_what_they_cannot_hold() {
        let number: Number = toml::from_str::<std::collections::BTreeMap<String, Number>>("x = 1.5").unwrap().remove("x").unwrap();
        assert_eq!(number, n("1.5"));
        let big = n("1e400");
        let error = toml::to_string(&std::collections::BTreeMap::from([("x", big)])).unwrap_err();
        assert!(error.to_string().contains("cannot be written to this format"), "{error}");
        assert_eq!(crate::from_value::<Number>(serde_json::json!(3)).unwrap(), Number::from(3_u8));
    }

    #[test]
    fn text_that_is_no_json_number_is_refused() {
        for text in ["", "-", "01", "1.", ".5", "1e", "+1", "0x10", "NaN", "1.5.2"] {
            assert!(text.parse::<Number>().is_err(), "{text}");
        }
    }
}
