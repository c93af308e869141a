//! `type` as a set of JSON kinds, and the kind of a JSON value.

use serde_json::Value;

/// A set of JSON kinds. `Integer` is a subset of `Number`; a set is kept normalized so that it
/// never holds both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindSet(u8);

/// The kinds in the order union variants are listed.
const ORDER: [Kind; 7] = [Kind::Null, Kind::Boolean, Kind::Integer, Kind::Number, Kind::String, Kind::Array, Kind::Object];

impl KindSet {
    pub const EMPTY: KindSet = KindSet(0);
    /// Every JSON value (`Number` covers `Integer`).
    pub const ALL: KindSet = KindSet(0b111_1111 & !(1 << 2));

    const fn bit(kind: Kind) -> u8 {
        1 << match kind {
            Kind::Null => 0,
            Kind::Boolean => 1,
            Kind::Integer => 2,
            Kind::Number => 3,
            Kind::String => 4,
            Kind::Array => 5,
            Kind::Object => 6,
        }
    }

    pub fn of(kind: Kind) -> KindSet {
        KindSet(Self::bit(kind))
    }

    pub fn from_name(name: &str) -> Option<KindSet> {
        kind_from_name(name).map(KindSet::of)
    }

    /// The kind of a JSON value; numbers without a fractional part are `Integer`.
    pub fn of_value(value: &Value) -> KindSet {
        KindSet::of(kind_of_value(value))
    }

    pub fn contains(self, kind: Kind) -> bool {
        self.0 & Self::bit(kind) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0).normalized()
    }

    pub fn without(self, kind: Kind) -> KindSet {
        KindSet(self.0 & !Self::bit(kind))
    }

    /// Integers are numbers: `{integer} ∩ {number}` is `{integer}`.
    pub fn intersect(self, other: KindSet) -> KindSet {
        let mut out = KindSet(self.0 & other.0);
        if self.numeric() && other.numeric() && !out.contains(Kind::Number) {
            out.0 |= Self::bit(Kind::Integer);
        }
        out.normalized()
    }

    /// Whether some value has a kind in both sets.
    pub fn overlaps(self, other: KindSet) -> bool {
        !self.intersect(other).is_empty()
    }

    /// Whether `value` is of one of these kinds.
    pub fn accepts(self, value: &Value) -> bool {
        match kind_of_value(value) {
            Kind::Integer => self.numeric(),
            kind => self.contains(kind),
        }
    }

    fn numeric(self) -> bool {
        self.contains(Kind::Integer) || self.contains(Kind::Number)
    }

    fn normalized(self) -> KindSet {
        if self.contains(Kind::Number) { self.without(Kind::Integer) } else { self }
    }

    pub fn kinds(self) -> Vec<Kind> {
        ORDER.into_iter().filter(|k| self.contains(*k)).collect()
    }

    /// The single kind of the set, if it has exactly one.
    pub fn single(self) -> Option<Kind> {
        match self.kinds().as_slice() {
            [kind] => Some(*kind),
            _ => None,
        }
    }
}

pub fn kind_from_name(name: &str) -> Option<Kind> {
    Some(match name {
        "null" => Kind::Null,
        "boolean" => Kind::Boolean,
        "object" => Kind::Object,
        "array" => Kind::Array,
        "number" => Kind::Number,
        "integer" => Kind::Integer,
        "string" => Kind::String,
        _ => return None,
    })
}

pub fn kind_of_value(value: &Value) -> Kind {
    match value {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Integer,
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => Kind::Integer,
        Value::Number(_) => Kind::Number,
        Value::String(_) => Kind::String,
        Value::Array(_) => Kind::Array,
        Value::Object(_) => Kind::Object,
    }
}

/// The name of a kind as a union variant hint.
pub fn kind_hint(kind: Kind) -> &'static str {
    match kind {
        Kind::Null => "Null",
        Kind::Boolean => "Boolean",
        Kind::Object => "Object",
        Kind::Array => "Array",
        Kind::Number => "Number",
        Kind::Integer => "Integer",
        Kind::String => "String",
    }
}

/// JSON value kinds, as in the `type` keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Null,
    Boolean,
    Object,
    Array,
    Number,
    /// A number with no fractional part (`1.0` included).
    Integer,
    String,
}
