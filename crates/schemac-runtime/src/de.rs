//! Building blocks for generated `Deserialize` impls: seeds that compose like the types they
//! produce (`Seq(Nullable(Int::<u8>::new()))` for `Vec<Option<u8>>`), so that checks run
//! while the input streams by, without buffering it into a `serde_json::Value` first.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize as _;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

pub use crate::error::nested;
pub use crate::raw::AnyValue;
use crate::validate::{Path, ValidationErrors, Validator};
// Generated code reads `patternProperties` through `de` (the contract's path); checking the
// buffered value is `check`'s job.
pub use crate::check::{check_property, unmatched_property};
use crate::error::OUT_OF_RANGE;
pub use crate::key::Key;

/// Rejects the value of an undeclared property of a closed object. Used as the seed of that
/// value so the error's pointer names the property itself.
#[derive(Debug)]
pub struct UnknownProperty<'a> {
    pub name: &'a str,
    /// The declared properties, for the message.
    pub expected: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for UnknownProperty<'_> {
    type Value = std::convert::Infallible;
    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<Self::Value, D::Error> {
        Err(de::Error::custom(format_args!(
            "unknown property `{}` (additionalProperties is false); expected one of: {}",
            self.name,
            self.expected.join(", ")
        )))
    }
}

/// Rejects an item after the leading items of a closed tuple (`items: false`). Used as the
/// seed of that item so the error's pointer names the item itself.
#[derive(Debug)]
pub struct ExtraItem {
    /// How many items the tuple has.
    pub count: usize,
}

impl<'de> DeserializeSeed<'de> for ExtraItem {
    type Value = std::convert::Infallible;
    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<Self::Value, D::Error> {
        Err(de::Error::custom(format_args!("no item is allowed after the first {} (`items` is false)", self.count)))
    }
}

/// The error for a required property that is missing.
pub fn missing<E: de::Error>(name: &str) -> E {
    E::custom(format_args!("missing required property `{name}`"))
}

/// The error for a property given twice.
pub fn duplicate<E: de::Error>(name: &str) -> E {
    E::custom(format_args!("duplicate property `{name}`"))
}

/// Integers as JSON Schema sees them: any number with no fractional part (`1.0` included), in
/// the range of `T`.
#[derive(Debug)]
pub struct Int<T>(PhantomData<T>);

impl<T> Int<T> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Int(PhantomData)
    }
}

/// The Rust integers [`Int`] reads.
pub trait Integer: TryFrom<i64> + TryFrom<u64> + TryFrom<i128> {}

impl<T: TryFrom<i64> + TryFrom<u64> + TryFrom<i128>> Integer for T {}

impl<'de, T: Integer> DeserializeSeed<'de> for Int<T> {
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        // serde_json hands an integer beyond `i64` and `u64` over as a rounded `f64`; a type
        // wider than 64 bits (chosen for bounds beyond them) reads the number's text instead.
        if std::mem::size_of::<T>() > 8 {
            crate::raw::read(deserializer, WideInt::<T>(PhantomData))
        } else {
            deserializer.deserialize_any(IntVisitor(PhantomData))
        }
    }
}

struct IntVisitor<T>(PhantomData<T>);

impl<T: Integer> IntVisitor<T> {
    fn out_of_range<E: de::Error>(v: impl fmt::Display) -> E {
        E::custom(format_args!("integer {v}{OUT_OF_RANGE}{}", std::any::type_name::<T>()))
    }
}

/// An integer wider than 64 bits from the number's text (see [`spelled`]), or from the value
/// where the deserializer has no text.
struct WideInt<T>(PhantomData<T>);

impl<T: Integer> crate::raw::Sink for WideInt<T> {
    type Out = T;
    fn text<E: de::Error>(self, text: &str) -> Result<T, E> {
        match spelled(text) {
            Some(Spelled::Integer(v)) => T::try_from(v).map_err(|_| IntVisitor::<T>::out_of_range(v)),
            Some(Spelled::TooLarge) => Err(IntVisitor::<T>::out_of_range(text)),
            Some(Spelled::Fraction) => {
                let v = text.parse::<f64>().unwrap_or(f64::NAN);
                Err(E::invalid_type(de::Unexpected::Float(v), &IntVisitor::<T>(PhantomData)))
            }
            // Not a number: the same error as from any other value of its kind.
            None => {
                let value: serde_json::Value = serde_json::from_str(text).map_err(E::custom)?;
                self.value(value)
            }
        }
    }
    fn value<E: de::Error>(self, value: serde_json::Value) -> Result<T, E> {
        value.deserialize_any(IntVisitor(PhantomData)).map_err(|e| E::custom(e.to_string()))
    }
}

/// What the text of a JSON number spells, exactly (`1e2` and `100.0` are the integer 100).
#[derive(Debug, PartialEq)]
enum Spelled {
    Integer(i128),
    /// An integer beyond `i128`.
    TooLarge,
    Fraction,
}

/// `None` when `text` is no JSON number.
fn spelled(text: &str) -> Option<Spelled> {
    Some(match integer_digits(text)? {
        Digits::Integer { significant, .. } if significant.is_empty() => Spelled::Integer(0),
        Digits::Integer { negative, significant, zeros } => {
            let magnitude = significant
                .parse::<u128>()
                .ok()
                .and_then(|m| 10_u128.checked_pow(u32::try_from(zeros).ok()?).and_then(|p| m.checked_mul(p)));
            let value = magnitude.and_then(|m| match negative {
                true => 0_i128.checked_sub_unsigned(m),
                false => i128::try_from(m).ok(),
            });
            value.map_or(Spelled::TooLarge, Spelled::Integer)
        }
        Digits::Huge => Spelled::TooLarge,
        Digits::Fraction => Spelled::Fraction,
    })
}

/// The integer the text of a JSON number spells, as decimal digits.
#[derive(Debug, PartialEq)]
pub(crate) enum Digits {
    /// `significant` (no leading or trailing zeros; empty for 0) followed by `zeros` zeros.
    Integer {
        negative: bool,
        significant: String,
        zeros: u64,
    },
    /// An integer whose exponent does not fit an `i64`.
    Huge,
    Fraction,
}

/// `None` when `text` is no JSON number.
pub(crate) fn integer_digits(text: &str) -> Option<Digits> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, "0"));
    let is_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let exponent_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if !is_digits(whole) || !is_digits(fraction) || !is_digits(exponent_digits) {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return Some(Digits::Integer { negative: false, significant: String::new(), zeros: 0 });
    }
    let Ok(exponent) = exponent.parse::<i64>() else {
        return Some(if exponent.starts_with('-') { Digits::Fraction } else { Digits::Huge });
    };
    let scale = exponent.saturating_sub(fraction.len() as i64).saturating_add((digits.len() - significant.len()) as i64);
    Some(match u64::try_from(scale) {
        Ok(zeros) => Digits::Integer { negative, significant: significant.to_owned(), zeros },
        Err(_) => Digits::Fraction,
    })
}

/// How an integer that an `f64` would round is reported.
const INEXACT: &str = " has no exact f64 value";

/// Whether `error` says a value had no Rust representation (an integer beyond the chosen Rust
/// integer, or one an `f64` would round) rather than that it breaks the schema. A `oneOf`
/// branch failing so may still match as far as the schema goes, so it must not be read as
/// "this branch does not match".
pub fn unrepresentable(error: &impl fmt::Display) -> bool {
    let text = error.to_string();
    text.contains(OUT_OF_RANGE) || text.contains(INEXACT)
}

/// JSON numbers as `f64`. An integer beyond 2^53 that `f64` cannot hold exactly is an error
/// rather than silently rounded (serde's own `f64` rounds it, and the round trip would then
/// write a different number).
#[derive(Clone, Copy, Debug)]
pub struct Float;

impl Float {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Float
    }
}

impl<'de> DeserializeSeed<'de> for Float {
    type Value = f64;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_any(FloatVisitor)
    }
}

struct FloatVisitor;

impl FloatVisitor {
    fn exact<E: de::Error>(v: impl Into<i128> + Copy + fmt::Display, f: f64) -> Result<f64, E> {
        // Within ±2^63 and 2^64 the cast back is exact, so equality means no rounding.
        if f as i128 == v.into() {
            Ok(f)
        } else {
            Err(E::custom(format_args!("integer {v}{INEXACT} (the Rust type is f64, which would round it)")))
        }
    }
}

impl<'de> Visitor<'de> for FloatVisitor {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Self::exact(v, v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Self::exact(v, v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
}

impl<'de, T: Integer> Visitor<'de> for IntVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        T::try_from(v).map_err(|_| Self::out_of_range(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        T::try_from(v).map_err(|_| Self::out_of_range(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        T::try_from(v).map_err(|_| Self::out_of_range(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        i128::try_from(v).map_err(|_| Self::out_of_range(v)).and_then(|v| self.visit_i128(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        // 2^63 and 2^64 are exact in f64; the casts below are exact inside these bounds.
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(E::invalid_type(de::Unexpected::Float(v), &self));
        }
        if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v) {
            self.visit_i64(v as i64)
        } else if (0.0..18_446_744_073_709_551_616.0).contains(&v) {
            self.visit_u64(v as u64)
        } else {
            Err(Self::out_of_range(v))
        }
    }
}

/// Any JSON value, refusing one a `serde_json::Value` would change (see [`AnyValue`]).
pub fn any_value<'de, D: Deserializer<'de>>(deserializer: D) -> Result<serde_json::Value, D::Error> {
    AnyValue.deserialize(deserializer)
}

/// `Vec<T>` from a JSON array, each item through `S`.
#[derive(Debug)]
pub struct Seq<S>(pub S);

impl<'de, S: DeserializeSeed<'de> + Clone> DeserializeSeed<'de> for Seq<S> {
    type Value = Vec<S::Value>;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct SeqVisitor<S>(S);
        impl<'de, S: DeserializeSeed<'de> + Clone> Visitor<'de> for SeqVisitor<S> {
            type Value = Vec<S::Value>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element_seed(self.0.clone())? {
                    out.push(item);
                }
                Ok(out)
            }
        }
        // Any, not seq: see [`Strict`].
        deserializer.deserialize_any(SeqVisitor(self.0))
    }
}

/// `BTreeMap<String, T>` from a JSON object, each value through `S`.
#[derive(Debug)]
pub struct MapOf<S>(pub S);

impl<'de, S: DeserializeSeed<'de> + Clone> DeserializeSeed<'de> for MapOf<S> {
    type Value = BTreeMap<String, S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct MapVisitor<S>(S);
        impl<'de, S: DeserializeSeed<'de> + Clone> Visitor<'de> for MapVisitor<S> {
            type Value = BTreeMap<String, S::Value>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    let key = key.into_string();
                    if out.contains_key(&key) {
                        return Err(duplicate(&key));
                    }
                    let value = map.next_value_seed(self.0.clone())?;
                    out.insert(key, value);
                }
                Ok(out)
            }
        }
        // Any, not map: see [`Strict`].
        deserializer.deserialize_any(MapVisitor(self.0))
    }
}

/// `Option<T>`: `null` is `None`, anything else goes through `S`.
///
/// A parser such as serde_json answers `deserialize_option` with `visit_none` or `visit_some`.
/// A deserializer of one value already read does not: serde's `IntoDeserializer` values and
/// `SeqAccessDeserializer`/`MapAccessDeserializer`, which a union dispatched by JSON kind hands
/// the branch of that kind, forward `deserialize_option` to `deserialize_any` and call the
/// visit method of the value's kind. Each of those is the value itself, given to `S` again
/// through the same kind of deserializer.
#[derive(Debug)]
pub struct Nullable<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Nullable<S> {
    type Value = Option<S::Value>;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(OptionVisitor(self.0))
    }
}

struct OptionVisitor<S>(S);

impl<'de, S: DeserializeSeed<'de>> OptionVisitor<S> {
    fn some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<S::Value>, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for OptionVisitor<S> {
    type Value = Option<S::Value>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.some(deserializer)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.some(de::value::BorrowedStrDeserializer::new(v))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        self.some(de::IntoDeserializer::<E>::into_deserializer(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.some(de::value::SeqAccessDeserializer::new(seq))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.some(de::value::MapAccessDeserializer::new(map))
    }
}

/// `Box<T>`, for recursive types.
#[derive(Debug)]
pub struct Boxed<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Boxed<S> {
    type Value = Box<S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Box::new)
    }
}

/// Runs the assertions `check` on the value `S` produced, right after it is read, so that the
/// error's pointer is the value's (`/attempts/0/score: 1.5 is greater than the maximum 1`).
/// `check` returns one result or an array of them ([`Checks`](crate::validate::Checks)):
/// reading stops at the first violation, `validate()` records each, then validates the value
/// with `S`.
pub struct Assert<S, F>(S, F);

impl<S, F> Assert<S, F> {
    /// The bound on `check` lets generated closures leave their argument type to inference.
    pub fn new<'de, R>(seed: S, check: F) -> Self
    where
        S: DeserializeSeed<'de>,
        F: Fn(&S::Value) -> R,
        R: crate::validate::Checks,
    {
        Assert(seed, check)
    }
}

impl<S: Clone, F: Clone> Clone for Assert<S, F> {
    fn clone(&self) -> Self {
        Assert(self.0.clone(), self.1.clone())
    }
}

impl<S: Copy, F: Copy> Copy for Assert<S, F> {}

impl<S: fmt::Debug, F> fmt::Debug for Assert<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Assert").field(&self.0).finish_non_exhaustive()
    }
}

impl<'de, S, F, R> DeserializeSeed<'de> for Assert<S, F>
where
    S: DeserializeSeed<'de>,
    F: Fn(&S::Value) -> R,
    R: crate::validate::Checks,
{
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let value = self.0.deserialize(deserializer)?;
        crate::validate::Checks::first((self.1)(&value)).map_err(de::Error::custom)?;
        Ok(value)
    }
}

/// A type's own `Deserialize`, as a seed.
pub struct Plain<T>(PhantomData<fn() -> T>);

impl<T> Plain<T> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Plain(PhantomData)
    }
}

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Plain<T> {}

impl<T> fmt::Debug for Plain<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Plain")
    }
}

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for Plain<T> {
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(Strict(deserializer))
    }
}

/// The deserializer a generated type's value is read from when a [`Plain`] seed reads it: the
/// format's own, asked for `deserialize_any` wherever the type asks for a kind
/// (`deserialize_str`, `deserialize_seq`, `deserialize_map`, ...), so that the format says what
/// the value *is*. A YAML deserializer asked for a string hands over the text of any scalar
/// (`42` as `"42"`) and for a sequence takes `null` as an empty one; asked for anything, it
/// says integer and null, which the type then refuses, as the schema does. serde_json answers
/// both ways alike. A request that is no kind (a newtype such as the raw-value protocol's, an
/// enum, an identifier, ignored values, bytes) goes through as it is; `Option`'s goes through
/// too, its value read strictly again.
#[derive(Debug)]
pub struct Strict<D>(pub D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_option(StrictSome(visitor))
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_identifier(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_ignored_any(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_byte_buf(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string unit unit_struct seq tuple
        tuple_struct map struct
    }
}

/// `Option`'s visitor, with the value of `Some` read through [`Strict`] too.
struct StrictSome<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictSome<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
    fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        self.0.visit_some(Strict(deserializer))
    }
}

impl<T, S, F, R> Validator<T> for Assert<S, F>
where
    S: Validator<T>,
    F: Fn(&T) -> R,
    R: crate::validate::Checks,
{
    fn validate_value(&self, value: &T, at: &Path<'_>, errors: &mut ValidationErrors) {
        crate::validate::Checks::record((self.1)(value), at, errors);
        self.0.validate_value(value, at, errors);
    }
}

impl<T: crate::Validate> Validator<T> for Plain<T> {
    #[inline]
    fn validate_value(&self, value: &T, at: &Path<'_>, errors: &mut ValidationErrors) {
        value.validate_at(at, errors);
    }
}

/// An integer's schema is checked when it is read (its range) or by the `Assert` around it.
impl<T> Validator<T> for Int<T> {
    #[inline]
    fn validate_value(&self, _: &T, _: &Path<'_>, _: &mut ValidationErrors) {}
}

impl Validator<f64> for Float {
    #[inline]
    fn validate_value(&self, _: &f64, _: &Path<'_>, _: &mut ValidationErrors) {}
}

/// An open value has no schema of its own to break.
impl Validator<serde_json::Value> for AnyValue {
    #[inline]
    fn validate_value(&self, _: &serde_json::Value, _: &Path<'_>, _: &mut ValidationErrors) {}
}

impl<T, S: Validator<T>> Validator<Vec<T>> for Seq<S> {
    fn validate_value(&self, value: &Vec<T>, at: &Path<'_>, errors: &mut ValidationErrors) {
        for (i, item) in value.iter().enumerate() {
            self.0.validate_value(item, &at.index(i), errors);
        }
    }
}

impl<T, S: Validator<T>> Validator<BTreeMap<String, T>> for MapOf<S> {
    fn validate_value(&self, value: &BTreeMap<String, T>, at: &Path<'_>, errors: &mut ValidationErrors) {
        for (name, item) in value {
            self.0.validate_value(item, &at.key(name), errors);
        }
    }
}

impl<T, S: Validator<T>> Validator<Option<T>> for Nullable<S> {
    #[inline]
    fn validate_value(&self, value: &Option<T>, at: &Path<'_>, errors: &mut ValidationErrors) {
        if let Some(value) = value {
            self.0.validate_value(value, at, errors);
        }
    }
}

/// A tri-state field is read as an `Option` (`null` or a value) when present.
impl<T, S: Validator<T>> Validator<crate::Tristate<T>> for Nullable<S> {
    #[inline]
    fn validate_value(&self, value: &crate::Tristate<T>, at: &Path<'_>, errors: &mut ValidationErrors) {
        if let crate::Tristate::Value(value) = value {
            self.0.validate_value(value, at, errors);
        }
    }
}

impl<T, S: Validator<T>> Validator<Box<T>> for Boxed<S> {
    #[inline]
    fn validate_value(&self, value: &Box<T>, at: &Path<'_>, errors: &mut ValidationErrors) {
        self.0.validate_value(value, at, errors);
    }
}

macro_rules! clone_seed {
    ($($name:ident),*) => {$(
        impl<S: Clone> Clone for $name<S> {
            fn clone(&self) -> Self {
                $name(self.0.clone())
            }
        }
        impl<S: Copy> Copy for $name<S> {}
    )*};
}
clone_seed!(Seq, MapOf, Nullable, Boxed);

impl<T> Clone for Int<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Int<T> {}

/// Deserializes a string and hands it to `accept`, for string enums and string constants
/// (serde's derived enums would also accept `{"variant": null}`, which the schema rejects).
pub fn string<'de, D, T>(deserializer: D, expecting: &'static str, accept: impl FnOnce(&str) -> Option<T>) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let key = Key::deserialize_as_string(deserializer, expecting)?;
    let text = key.as_str();
    accept(text).ok_or_else(|| de::Error::custom(format_args!("{text:?} is not {expecting}")))
}

/// Deserializes any JSON value and checks it equals `expected` (numbers by value).
pub fn constant<'de, D: Deserializer<'de>>(deserializer: D, expected: &serde_json::Value) -> Result<(), D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    if crate::json_eq(&value, expected) { Ok(()) } else { Err(de::Error::custom(format_args!("{value} is not the constant {expected}"))) }
}

/// Reads the value of a declared property into its slot, rejecting a second occurrence.
#[inline]
pub fn field<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    name: &str,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(duplicate(name));
    }
    *slot = Some(map.next_value_seed(seed)?);
    Ok(())
}

/// Reads the value of an undeclared property of an open object into `extra`, as its text,
/// rejecting a second occurrence.
pub fn extra<'de, A: MapAccess<'de>>(map: &mut A, extra: &mut crate::ExtraBuilder, key: Key<'de>) -> Result<(), A::Error> {
    if extra.contains(key.as_str()) {
        return Err(duplicate(key.as_str()));
    }
    map.next_value_seed(crate::extra::ValueText { builder: extra, name: key.as_str() })
}

/// How many branches' failures a union's error lists, the furthest first.
const BRANCHES_LISTED: usize = 8;

/// The error for a buffered value that no branch of a union takes (`summary` says which
/// union): each branch's first error with its pointer, the branch that got furthest first
/// (the deepest pointer, also inside the account of a union within the branch; the first
/// branch of those as deep), so that a rejected document says where it went wrong and not
/// only that the union did not match.
pub fn no_branch<E: de::Error>(summary: &str, failures: &[(&str, serde_json::Error)]) -> E {
    let mut failed: Vec<(&str, String, String, usize)> = failures
        .iter()
        .map(|(branch, error)| {
            let (pointer, message) = crate::error::split_error(String::new(), &error.to_string());
            let message = crate::error::rebase_pointers(&message, &pointer);
            let depth = pointer.matches('/').count().max(crate::error::deepest_pointer(&message));
            (*branch, pointer, message, depth)
        })
        .collect();
    // Stable: among branches as deep, the first keeps its place.
    failed.sort_by_key(|(_, _, _, depth)| std::cmp::Reverse(*depth));
    let mut out = summary.to_owned();
    for (i, (branch, pointer, message, _)) in failed.iter().take(BRANCHES_LISTED).enumerate() {
        let lead = if i == 0 && failed.len() > 1 { "; the furthest, " } else { "; " };
        // The account of a union inside the branch is bracketed, so its list stays apart.
        let message = if crate::error::has_pointers(message) { format!("[{message}]") } else { message.clone() };
        out.push_str(&format!("{lead}{branch}, fails at {}: {message}", crate::error::mark_pointer(pointer)));
    }
    if failed.len() > BRANCHES_LISTED {
        out.push_str(&format!("; and {} more", failed.len() - BRANCHES_LISTED));
    }
    E::custom(out)
}

/// The error for a tagged union whose tag property has a value no variant takes; the pointer
/// names the tag property.
pub fn unknown_tag<E: de::Error>(tag: &str, value: &serde_json::Value, expected: &str) -> E {
    crate::error::CheckError::new(format!("{value} is not a known `{tag}` (one of {expected})")).under(tag).into_de_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read strictly, a YAML scalar is what it is: `42` is no string, `null` no array or object
    /// (serde_norway's `deserialize_str`/`deserialize_seq` alone take both), as jsonschema says
    /// of the same document (issue 22: six catalog documents).
    #[test]
    fn values_from_yaml_are_the_kind_they_are() {
        fn read<'de, S: DeserializeSeed<'de>>(seed: S, text: &'de str) -> Result<S::Value, String> {
            seed.deserialize(serde_norway::Deserializer::from_str(text)).map_err(|e| e.to_string())
        }
        assert_eq!(read(Plain::<String>::new(), "\"42\""), Ok("42".to_owned()));
        assert!(read(Plain::<String>::new(), "42").unwrap_err().contains("invalid type: integer"));
        assert!(read(Seq(Plain::<String>::new()), "null").unwrap_err().contains("invalid type"));
        assert!(read(MapOf(Plain::<u8>::new()), "~").unwrap_err().contains("invalid type"));
        assert_eq!(read(Seq(Plain::<String>::new()), "[a, b]"), Ok(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(read(Plain::<Option<String>>::new(), "null"), Ok(None));
        assert!(read(Plain::<Option<String>>::new(), "7").unwrap_err().contains("invalid type: integer"));
        assert_eq!(read(Plain::<Option<String>>::new(), "x"), Ok(Some("x".to_owned())));
    }
    use serde_json::json;

    fn int<T: Integer>(v: serde_json::Value) -> Result<T, serde_json::Error> {
        Int::<T>::new().deserialize(v)
    }

    #[test]
    fn floats_hold_integers_exactly_or_refuse_them() {
        let float = |text: &str| Float::new().deserialize(&mut serde_json::Deserializer::from_str(text));
        assert_eq!(float("1.5").unwrap(), 1.5);
        assert_eq!(float("9007199254740992").unwrap(), 9_007_199_254_740_992.0);
        assert_eq!(float("-9007199254740992").unwrap(), -9_007_199_254_740_992.0);
        assert_eq!(float("18446744073709549568").unwrap(), 18_446_744_073_709_549_568.0);
        // 2^53 + 1 would be rounded to 2^53: refused, as a value Rust cannot hold.
        let error = float("9007199254740993").unwrap_err();
        assert!(error.to_string().contains("9007199254740993 has no exact f64 value"), "{error}");
        assert!(unrepresentable(&error));
        assert!(float("18446744073709551615").is_err());
        assert!(!unrepresentable(&float("\"x\"").unwrap_err()));
    }

    /// What the text of a number spells, for integers wider than 64 bits.
    #[test]
    fn spelled_integers_are_exact() {
        let cases = [
            ("18446744073709551616", Some(Spelled::Integer(1 << 64))),
            ("-18446744073709551617", Some(Spelled::Integer(-(1 << 64) - 1))),
            ("1.8446744073709551616e19", Some(Spelled::Integer(1 << 64))),
            ("184467440737095516160e-1", Some(Spelled::Integer(1 << 64))),
            ("1.0", Some(Spelled::Integer(1))),
            ("-0", Some(Spelled::Integer(0))),
            ("0.000e5", Some(Spelled::Integer(0))),
            ("1E+2", Some(Spelled::Integer(100))),
            ("170141183460469231731687303715884105727", Some(Spelled::Integer(i128::MAX))),
            ("-170141183460469231731687303715884105728", Some(Spelled::Integer(i128::MIN))),
            ("170141183460469231731687303715884105728", Some(Spelled::TooLarge)),
            ("1e39", Some(Spelled::TooLarge)),
            ("1e99999999999999999999", Some(Spelled::TooLarge)),
            ("1.5", Some(Spelled::Fraction)),
            ("15e-1", Some(Spelled::Fraction)),
            ("1e-99999999999999999999", Some(Spelled::Fraction)),
            ("\"1\"", None),
            ("true", None),
            ("-", None),
            ("1.", None),
        ];
        for (text, expected) in cases {
            assert_eq!(spelled(text), expected, "{text}");
        }
    }

    /// `i128`, chosen for `maximum: 2^64`, holds every integer up to it exactly, from the text.
    #[test]
    fn wide_integers_read_their_text() {
        let wide = |text: &str| Int::<i128>::new().deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(|e| e.to_string());
        assert_eq!(wide("18446744073709551615"), Ok(18_446_744_073_709_551_615));
        assert_eq!(wide("18446744073709551616"), Ok(18_446_744_073_709_551_616));
        // An f64 holds 2^64 + 1 as 2^64; the text does not round.
        assert_eq!(wide("18446744073709551617"), Ok(18_446_744_073_709_551_617));
        assert_eq!(wide("-9223372036854775809"), Ok(-9_223_372_036_854_775_809));
        assert_eq!(wide("1.8446744073709551617e19"), Ok(18_446_744_073_709_551_617));
        assert_eq!(wide("3.0"), Ok(3));
        assert_eq!(wide("1.5"), Err("invalid type: floating point `1.5`, expected an integer".to_owned()));
        assert_eq!(wide("\"3\""), Err("invalid type: string \"3\", expected an integer".to_owned()));
        let error = wide("1e40").unwrap_err();
        assert_eq!(error, "integer 1e40 is out of range for i128");
        assert!(unrepresentable(&error));
        // Without text (a `Value`), the value as it is.
        assert_eq!(Int::<i128>::new().deserialize(json!(u64::MAX)).unwrap(), i128::from(u64::MAX));
        assert_eq!(Int::<i128>::new().deserialize(json!(-5.0)).unwrap(), -5);
        // In a document, through the entry point with pointers.
        let error = crate::from_str::<Vec<WideBounded>>("[18446744073709551616, 18446744073709551617]").unwrap_err();
        assert_eq!((error.pointer(), error.message()), ("/1", "18446744073709551617 is greater than the maximum 18446744073709551616"));
    }

    /// An integer with `maximum: 2^64`, as generated code reads it.
    #[derive(Debug)]
    struct WideBounded;

    impl<'de> de::Deserialize<'de> for WideBounded {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Assert::new(Int::<i128>::new(), |v| crate::assert::maximum(*v, 18_446_744_073_709_551_616_i128))
                .deserialize(deserializer)
                .map(|_| WideBounded)
        }
    }

    /// Numbers are read as the f64 nearest to their text and written as the shortest text
    /// that reads back as it (serde_json's `float_roundtrip`, which schemac-runtime enables):
    /// without it, serde_json's fast path is one unit in the last place off for some.
    #[test]
    fn hard_floats_round_trip_exactly() {
        let hard = [
            "-6.411434336729626e-9",
            "5e-324",
            "-5e-324",
            "2.225073858507201e-308",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "1e308",
            "-0.0",
            "0.30000000000000004",
            "9007199254740991.0",
            "1.2345678901234567e-300",
            "4.940656458412465e-324",
            "8.98846567431158e307",
            "2.718281828459045",
            "0.1",
        ];
        for text in hard {
            let exact: f64 = text.parse().unwrap();
            let read = Float::new().deserialize(&mut serde_json::Deserializer::from_str(text)).unwrap();
            assert_eq!(read.to_bits(), exact.to_bits(), "{text} read as {read:e}");
            let written = serde_json::to_string(&read).unwrap();
            assert_eq!(written.parse::<f64>().unwrap().to_bits(), exact.to_bits(), "{text} written as {written}");
            // Open values (`serde_json::Value`) too.
            let open = AnyValue.deserialize(&mut serde_json::Deserializer::from_str(&format!("[{text}]"))).unwrap();
            assert_eq!(open[0].as_f64().map(f64::to_bits), Some(exact.to_bits()), "{text} in a Value");
        }
        // The shortest digits come back as written (serde_json spells a positive exponent `e+`).
        for (text, written) in [
            ("-6.411434336729626e-9", "-6.411434336729626e-9"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("1e308", "1e+308"),
            ("-0.0", "-0.0"),
            ("0.30000000000000004", "0.30000000000000004"),
        ] {
            let read = Float::new().deserialize(&mut serde_json::Deserializer::from_str(text)).unwrap();
            assert_eq!(serde_json::to_string(&read).unwrap(), written);
        }
    }

    #[test]
    fn integers_accept_integral_floats_only() {
        assert_eq!(int::<u8>(json!(5)).unwrap(), 5);
        assert_eq!(int::<u8>(json!(5.0)).unwrap(), 5);
        assert!(int::<u8>(json!(5.5)).is_err());
        assert!(int::<u8>(json!(256)).is_err());
        assert!(int::<u8>(json!(-1)).is_err());
        assert_eq!(int::<i64>(json!(-3.0)).unwrap(), -3);
        assert_eq!(int::<u64>(json!(u64::MAX)).unwrap(), u64::MAX);
        assert!(int::<i64>(json!(1e300)).is_err());
        assert!(int::<i64>(json!("1")).is_err());
    }

    #[test]
    fn nullable_and_seq_compose() {
        let seed = Seq(Nullable(Int::<i32>::new()));
        assert_eq!(seed.deserialize(json!([1, null, 2.0])).unwrap(), vec![Some(1), None, Some(2)]);
        assert!(Seq(Int::<i32>::new()).deserialize(json!([1, null])).is_err());
    }

    /// What a union dispatched by JSON kind hands its nullable branch: the value already
    /// read, in a deserializer of its kind, which knows no option.
    #[test]
    fn nullable_takes_every_kind_from_a_deserializer_of_one_value() {
        use serde::de::IntoDeserializer as _;
        use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
        let string = Nullable(Plain::<String>::new()).deserialize("red".into_deserializer());
        assert_eq!(string, Ok::<_, Error>(Some("red".to_owned())));
        let borrowed = Nullable(Plain::<&str>::new()).deserialize(de::value::BorrowedStrDeserializer::<Error>::new("red"));
        assert_eq!(borrowed, Ok(Some("red")));
        assert_eq!(Nullable(Plain::<bool>::new()).deserialize(true.into_deserializer()), Ok::<_, Error>(Some(true)));
        assert_eq!(Nullable(Int::<u8>::new()).deserialize(7_u64.into_deserializer()), Ok::<_, Error>(Some(7)));
        assert_eq!(Nullable(Int::<i8>::new()).deserialize((-7_i64).into_deserializer()), Ok::<_, Error>(Some(-7)));
        assert_eq!(Nullable(Float::new()).deserialize(1.5_f64.into_deserializer()), Ok::<_, Error>(Some(1.5)));
        assert_eq!(Nullable(Plain::<()>::new()).deserialize(().into_deserializer()), Ok::<_, Error>(None));
        let items = SeqDeserializer::<_, Error>::new(["for", "while"].into_iter());
        let seq = Nullable(Seq(Plain::<String>::new())).deserialize(de::value::SeqAccessDeserializer::new(items));
        assert_eq!(seq, Ok(Some(vec!["for".to_owned(), "while".to_owned()])));
        let entries = MapDeserializer::<_, Error>::new([("a", 1_u64)].into_iter());
        let map = Nullable(MapOf(Int::<u8>::new())).deserialize(de::value::MapAccessDeserializer::new(entries));
        assert_eq!(map, Ok(Some(BTreeMap::from([("a".to_owned(), 1)]))));
        // The inner seed still decides: a string is no integer.
        assert!(Nullable(Int::<u8>::new()).deserialize("7".into_deserializer()).map_err(|e: Error| e.to_string()).is_err());
    }

    #[test]
    fn assert_checks_after_reading() {
        let seed = Seq(Assert::new(Int::<u8>::new(), |v| crate::assert::maximum(*v, 5_i64)));
        assert_eq!(seed.deserialize(json!([1, 5.0])).unwrap(), vec![1, 5]);
        let err = crate::from_value::<Vec<Bounded>>(json!([1, 6])).unwrap_err();
        assert_eq!((err.pointer(), err.message()), ("/1", "6 is greater than the maximum 5"));
    }

    /// A type whose `Deserialize` goes through [`Assert`], as generated code's do.
    #[derive(Debug)]
    struct Bounded;

    impl<'de> de::Deserialize<'de> for Bounded {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Assert::new(Int::<u8>::new(), |v| crate::assert::maximum(*v, 5_i64)).deserialize(deserializer).map(|_| Bounded)
        }
    }

    /// A union's account lists at most a few branches, the furthest first, with pointers
    /// written out from the union's own location.
    #[test]
    fn no_branch_lists_the_furthest_first() {
        let failures: Vec<(&str, serde_json::Error)> = (0..10)
            .map(|i| {
                let seed = MapOf(Seq(Int::<u8>::new()));
                let value = if i == 3 { json!({"a": [1, "y"]}) } else { json!({"a": "x"}) };
                let error = nested::<_, serde_json::Error>(Seq(seed), &json!([value])).unwrap_err();
                (["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"][i], error)
            })
            .collect();
        let error: serde_json::Error = no_branch("matches none of the variants of U", &failures);
        let error = crate::error::resolve_pointers(&error.to_string(), "/u");
        assert!(
            error.starts_with("matches none of the variants of U; the furthest, D, fails at /u/0/a/1: invalid type: string \"y\""),
            "{error}"
        );
        assert!(error.contains("; A, fails at /u/0/a: invalid type: string \"x\", expected an array; B, "), "{error}");
        assert!(error.ends_with("; and 2 more"), "{error}");
        assert!(!error.contains(", I, "), "{error}");
    }

    #[test]
    fn maps_reject_duplicates() {
        let text = r#"{"a": 1, "a": 2}"#;
        let mut de = serde_json::Deserializer::from_str(text);
        assert!(MapOf(Int::<i32>::new()).deserialize(&mut de).is_err());
    }
}
