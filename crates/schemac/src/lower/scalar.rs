//! Lowering by `type`: one kind is that kind's type, `null` beside it makes it nullable, and
//! several kinds make a union dispatched on the kind. Also the scalars themselves (integer
//! width, string formats and patterns) and `enum`/`const`.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::{Number, Value};

use super::keywords::View;
use super::{Ctx, Lowered, Lowerer, nullable};
use crate::ir::{Assertion, DefKind, IntTy, Kind, Newtype, Subject, Ty, Union, UnionMode, Variant};
use crate::schema::{Keyword, KindSet, kind_hint};

impl<'r> Lowerer<'r> {
    pub(super) fn by_kinds(&mut self, view: &View<'r>, ctx: Ctx) -> Lowered {
        let kinds = match view.declared_kinds() {
            Some(kinds) => kinds,
            // Without `type`, keywords about one kind leave the others unconstrained.
            None if view.has_shape(self.model) || self.asserting(view) => KindSet::ALL,
            None => return Lowered::new(Ty::Any),
        };
        self.of_kinds(view, kinds, ctx)
    }

    /// The schema's type for values of `kinds`: one kind's type, or a union with a variant per
    /// kind (`null` making it nullable).
    pub(super) fn of_kinds(&mut self, view: &View<'r>, kinds: KindSet, ctx: Ctx) -> Lowered {
        let has_null = kinds.contains(Kind::Null);
        let others = kinds.without(Kind::Null);
        match (others.kinds().as_slice(), has_null) {
            ([], true) => Lowered::new(Ty::Null),
            // A valid schema (validators accept it), so a warning: where it is a property's,
            // documents without the property stay valid.
            ([], false) => {
                self.warn(
                    &view.entry,
                    "the `type`s of this schema's `allOf` parts have no kind in common, so no value is valid",
                    "check the `type` of each part; a schema that accepts nothing is written `false`",
                );
                self.never(view, ctx)
            }
            ([kind], true) => self.kind(view, *kind, ctx.inner()).map(nullable),
            ([kind], false) => self.kind(view, *kind, ctx),
            (many, true) => self.kind_union(view, many, ctx.inner()).map(nullable),
            (many, false) => self.kind_union(view, many, ctx),
        }
    }

    /// A union with a variant per JSON kind.
    fn kind_union(&mut self, view: &View<'r>, kinds: &[Kind], mut ctx: Ctx) -> Lowered {
        let id = self.begin_def(view, &mut ctx);
        let mut variants = Vec::new();
        let mut loose = Vec::new();
        for kind in kinds {
            let hint = kind_hint(*kind);
            let variant_ctx = Ctx { own: false, ..Ctx::child(id, hint) };
            let lowered = self.kind(view, *kind, variant_ctx);
            loose.extend(lowered.loose);
            variants.push(Variant { name: String::new(), hint: hint.to_owned(), ty: lowered.ty, tags: Vec::new() });
        }
        self.finish_def(id, DefKind::Union(Union { variants, mode: UnionMode::ByKind }), &loose)
    }

    /// The schema's type for instances of one kind (other kinds' keywords do not apply).
    pub(super) fn kind(&mut self, view: &View<'r>, kind: Kind, ctx: Ctx) -> Lowered {
        match kind {
            Kind::Null => Lowered::new(Ty::Null),
            Kind::Boolean => Lowered::new(Ty::Bool),
            Kind::Number => {
                let assertions = self.view_assertions(view, Subject::Number, &|_| Ctx::default(), &mut Vec::new());
                Lowered::new(Ty::constrained(Ty::Number, assertions))
            }
            Kind::Integer => self.integer(view),
            Kind::String => self.string_ty(view, ctx),
            Kind::Object => self.object(view, ctx),
            Kind::Array => self.array(view, ctx),
        }
    }

    /// The narrowest Rust integer that holds every value the bounds allow, with the number
    /// assertions its range does not already imply.
    fn integer(&mut self, view: &View<'r>) -> Lowered {
        let assertions = self.view_assertions(view, Subject::Number, &|_| Ctx::default(), &mut Vec::new());
        let bounds: Vec<(bool, Option<i128>)> = assertions.iter().filter_map(integer_bound).collect();
        let low = bounds.iter().filter(|(lower, _)| *lower).filter_map(|(_, v)| *v).max();
        let high = bounds.iter().filter(|(lower, _)| !*lower).filter_map(|(_, v)| *v).min();
        if let (Some(low), Some(high)) = (low, high)
            && low > high
        {
            self.error(
                &view.entry,
                format!("no integer is at least {low} and at most {high}"),
                "check `minimum`/`maximum` (and the exclusive bounds) of this schema and its `allOf` parts",
            );
        }
        let ty = match (low, high) {
            // A side open (or a bound past `i128`, which `inclusive` saturates): no Rust integer
            // holds every value the schema allows.
            (None, _) | (_, None) | (Some(i128::MIN), _) | (_, Some(i128::MAX)) if self.exact_numbers => IntTy::Exact,
            _ => int_ty(low, high),
        };
        let (min, max) = int_range(ty);
        let kept: Vec<Assertion> = assertions
            .into_iter()
            .filter(|a| match (a, integer_bound(a)) {
                // Every integer is a multiple of 1, and of 0.5 (of any 1/k).
                (Assertion::MultipleOf(n), _) => !divides_one(n),
                // An `Integer` has no range of its own: every bound is checked.
                _ if ty == IntTy::Exact => true,
                (_, Some((true, Some(v)))) => v > min,
                (_, Some((false, Some(v)))) => v < max,
                _ => true,
            })
            .collect();
        // Exact at any size where nothing bounds it (assertions take their value by copy,
        // which a big integer is not).
        let ty = if self.big_integers && low.is_none() && high.is_none() && kept.is_empty() { IntTy::Big } else { ty };
        Lowered::new(Ty::constrained(Ty::Integer(ty), kept))
    }

    /// A string: with `pattern`, a checked newtype; with a known `format`, its runtime type.
    fn string_ty(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let assertions = self.view_assertions(view, Subject::String, &|_| Ctx::default(), &mut Vec::new());
        let format = view.distinct_formats().first().map(|(f, _)| (*f).to_owned());
        let pattern = view.distinct_patterns().first().and_then(|(source, _)| self.pattern(source));
        let Some(pattern) = pattern else {
            let ty = view.known_format().map_or(Ty::String, Ty::Format);
            return Lowered::new(Ty::constrained(ty, assertions));
        };
        let id = self.begin_def(view, &mut ctx);
        self.finish_def(id, DefKind::Newtype(Newtype { inner: Ty::String, pattern: Some(pattern), format, assertions }), &[])
    }

    /// `enum` and `const`: the values all parts allow, of the declared kinds.
    pub(super) fn enumeration(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let mut values: Option<Vec<Value>> = None;
        for part in &view.parts {
            if let Some(allowed) = part.allowed_values() {
                values = Some(match values {
                    Some(previous) => previous.into_iter().filter(|v| allowed.contains(v)).collect(),
                    None => allowed,
                });
            }
        }
        let mut values = dedup(values.unwrap_or_default());
        let before = values.len();
        if let Some(kinds) = view.declared_kinds() {
            values.retain(|v| kinds.accepts(v));
        }
        // Assertions beside `enum`/`const` make the view `Checked` (see `needs_check`), so the
        // values are all there is to enforce.
        if values.is_empty() {
            // Valid schemas that accept nothing: validators take them, so schemac compiles
            // them to the type without values, with a warning.
            if before > 0 {
                self.warn(
                    &view.entry,
                    "none of the `enum`/`const` values has the declared `type`, so no value is valid",
                    "fix the values or the `type`; the type generated for this schema has no values",
                );
            } else if view.parts.len() > 1 {
                self.warn(
                    &view.entry,
                    "the `enum`/`const` values of this schema's `allOf` parts have nothing in common, so no value is valid",
                    "check the allowed values of each part; the type generated for this schema has no values",
                );
            }
            return self.never(view, ctx);
        }
        let is_const = view.has(Keyword::Const);
        let strings: Option<Vec<String>> = values.iter().filter(|v| !v.is_null()).map(|v| v.as_str().map(str::to_owned)).collect();
        let has_null = values.iter().any(Value::is_null);
        match strings {
            _ if is_const && values.len() == 1 => {
                let id = self.begin_def(view, &mut ctx);
                let value = values.swap_remove(0);
                self.finish_def(id, DefKind::Const(value), &[])
            }
            Some(strings) if !strings.is_empty() && has_null => {
                let mut inner = ctx.inner();
                let id = self.begin_def(view, &mut inner);
                self.finish_def(id, DefKind::StringEnum(strings), &[]).map(nullable)
            }
            Some(strings) if !strings.is_empty() => {
                let id = self.begin_def(view, &mut ctx);
                self.finish_def(id, DefKind::StringEnum(strings), &[])
            }
            _ => {
                let id = self.begin_def(view, &mut ctx);
                self.finish_def(id, DefKind::ValueEnum(values), &[])
            }
        }
    }
}

/// `(is_lower, inclusive integer bound)` for a bound assertion; the bound is `None` when not
/// representable (never for JSON numbers, which are finite).
fn integer_bound(assertion: &Assertion) -> Option<(bool, Option<i128>)> {
    Some(match assertion {
        Assertion::Minimum(n) => (true, inclusive(n, true, false)),
        Assertion::ExclusiveMinimum(n) => (true, inclusive(n, true, true)),
        Assertion::Maximum(n) => (false, inclusive(n, false, false)),
        Assertion::ExclusiveMaximum(n) => (false, inclusive(n, false, true)),
        _ => return None,
    })
}

/// The inclusive integer bound a numeric bound stands for: `minimum: 0.5` is `1`,
/// `exclusiveMinimum: 3` is `4`.
fn inclusive(n: &Number, lower: bool, exclusive: bool) -> Option<i128> {
    let exact = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    if let Some(v) = exact {
        return Some(match (lower, exclusive) {
            (true, true) => v + 1,
            (false, true) => v - 1,
            _ => v,
        });
    }
    let f = n.as_f64()?;
    if !f.is_finite() {
        return None;
    }
    // `as` saturates, which keeps huge bounds huge.
    Some(match (lower, exclusive) {
        (true, false) => f.ceil() as i128,
        (true, true) => f.floor() as i128 + 1,
        (false, false) => f.floor() as i128,
        (false, true) => f.ceil() as i128 - 1,
    })
}

fn int_range(ty: IntTy) -> (i128, i128) {
    match ty {
        IntTy::U8 => (0, u8::MAX.into()),
        IntTy::U16 => (0, u16::MAX.into()),
        IntTy::U32 => (0, u32::MAX.into()),
        IntTy::U64 => (0, u64::MAX.into()),
        IntTy::I8 => (i8::MIN.into(), i8::MAX.into()),
        IntTy::I16 => (i16::MIN.into(), i16::MAX.into()),
        IntTy::I32 => (i32::MIN.into(), i32::MAX.into()),
        IntTy::I64 => (i64::MIN.into(), i64::MAX.into()),
        IntTy::I128 | IntTy::Big | IntTy::Exact => (i128::MIN, i128::MAX),
    }
}

/// The narrowest integer that holds both bounds: unsigned when the minimum is non-negative,
/// else signed. A missing bound stands for the end of `u64` (unsigned) or `i64` (signed), so
/// an unbounded side is 64 bits wide; a bound beyond 64 bits on either side (`maximum: 2^64`)
/// takes `i128`, so that no integer the bounds allow is out of range.
fn int_ty(low: Option<i128>, high: Option<i128>) -> IntTy {
    let unsigned = low.is_some_and(|l| l >= 0);
    let (low, high) = match unsigned {
        true => (low.unwrap_or(0), high.unwrap_or(u64::MAX.into())),
        false => (low.unwrap_or(i64::MIN.into()), high.unwrap_or(i64::MAX.into())),
    };
    let widths: &[IntTy] = match unsigned {
        true => &[IntTy::U8, IntTy::U16, IntTy::U32, IntTy::U64],
        false => &[IntTy::I8, IntTy::I16, IntTy::I32, IntTy::I64],
    };
    let fits = |ty: &&IntTy| {
        let (min, max) = int_range(**ty);
        min <= low && high <= max
    };
    widths.iter().find(fits).copied().unwrap_or(IntTy::I128)
}

/// Whether every integer is a multiple of `n`: `n` is `1/k` for a whole `k`, decided on its
/// shortest decimal `m·10^e` (`0.5` is 5e-1: 10 / 5 is whole).
fn divides_one(n: &Number) -> bool {
    if let Some(v) = n.as_u64() {
        return v == 1;
    }
    let Some(f) = n.as_f64().filter(|f| *f > 0.0 && *f <= 1.0) else { return false };
    let text = format!("{f:e}");
    let Some((digits, exponent)) = text.split_once('e') else { return false };
    let mantissa: String = digits.chars().filter(char::is_ascii_digit).collect();
    let places = digits.split_once('.').map_or(0, |(_, fraction)| fraction.len() as i64);
    let Ok(exponent) = exponent.parse::<i64>() else { return false };
    match (mantissa.parse::<u128>(), u32::try_from(places - exponent)) {
        (Ok(m), Ok(power)) if m > 0 => 10_u128.checked_pow(power).is_some_and(|p| p % m == 0),
        _ => false,
    }
}

/// The values without repeats (by `Value`'s equality), in order. Values are bucketed by a
/// hash consistent with that equality, so 100,000 values cost linear time, not quadratic.
fn dedup(values: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(values.len());
    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::with_capacity(values.len());
    for value in values {
        let bucket = buckets.entry(value_hash(&value)).or_default();
        if !bucket.iter().any(|&i| out[i] == value) {
            bucket.push(out.len());
            out.push(value);
        }
    }
    out
}

/// A hash of a JSON value that equal values share: object members in key order, and a
/// number by the variant `serde_json::Number` compares (`1` and `1.0` differ; `0.0 == -0.0`).
fn value_hash(value: &Value) -> u64 {
    fn feed(value: &Value, hasher: &mut DefaultHasher) {
        match value {
            Value::Null => 0u8.hash(hasher),
            Value::Bool(b) => (1u8, b).hash(hasher),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => (2u8, u).hash(hasher),
                (None, Some(i), _) => (3u8, i).hash(hasher),
                (None, None, Some(f)) => (4u8, if f == 0.0 { 0 } else { f.to_bits() }).hash(hasher),
                (None, None, None) => 5u8.hash(hasher),
            },
            Value::String(s) => (6u8, s).hash(hasher),
            Value::Array(items) => {
                (7u8, items.len()).hash(hasher);
                items.iter().for_each(|item| feed(item, hasher));
            }
            Value::Object(map) => {
                (8u8, map.len()).hash(hasher);
                let mut members: Vec<_> = map.iter().collect();
                members.sort_unstable_by(|a, b| a.0.cmp(b.0));
                for (key, item) in members {
                    key.hash(hasher);
                    feed(item, hasher);
                }
            }
        }
    }
    let mut hasher = DefaultHasher::new();
    feed(value, &mut hasher);
    hasher.finish()
}
