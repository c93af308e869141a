//! [`Validate`]: checking values built in Rust against their schema. Deserialization stops at
//! the first violation; `validate()` walks the whole value and reports every violation, each
//! with the JSON pointer of the value that breaks it.
//!
//! Every generated type implements [`Validate`]; so do the standard types generated code is
//! made of, which delegate to their contents.

use std::collections::BTreeMap;
use std::fmt;

use crate::assert::Violation;

/// Where a value is inside the value being validated: a linked list on the stack, rendered
/// as a JSON pointer only when a violation is recorded.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    /// The value being validated itself (pointer `""`).
    pub const ROOT: Path<'static> = Path { parent: None, segment: Segment::Root };

    /// The property `name` of the value here.
    pub fn key(&'a self, name: &'a str) -> Path<'a> {
        Path { parent: Some(self), segment: Segment::Key(name) }
    }

    /// The item `index` of the array here.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path { parent: Some(self), segment: Segment::Index(index) }
    }

    /// The JSON pointer of this place (`/attempts/0/score`).
    pub fn pointer(&self) -> String {
        let mut segments = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            segments.push(path.segment);
            at = path.parent;
        }
        let mut pointer = String::new();
        for segment in segments.iter().rev() {
            match segment {
                Segment::Root => {}
                Segment::Key(name) => {
                    pointer.push('/');
                    pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
                }
                Segment::Index(i) => {
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                }
            }
        }
        pointer
    }
}

/// One violation found by `validate()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    pointer: String,
    keyword: String,
    message: String,
}

impl ValidationError {
    pub fn new(pointer: impl Into<String>, keyword: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationError { pointer: pointer.into(), keyword: keyword.into(), message: message.into() }
    }

    /// The JSON pointer of the value that breaks the schema (`""` for the value itself).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The keyword that failed (`maximum`, `minItems`, ...), or `schema` for a check of a
    /// whole subschema.
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{pointer}: {}", self.message)
    }
}

impl std::error::Error for ValidationError {}

/// Every violation `validate()` found, in the order of the value's fields and items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValidationErrors(Vec<ValidationError>);

impl ValidationErrors {
    pub fn new() -> Self {
        ValidationErrors(Vec::new())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ValidationError> {
        self.0.iter()
    }

    pub fn push(&mut self, error: ValidationError) {
        self.0.push(error);
    }

    /// Records `result`'s violation, if any, at `at` (for generated code).
    #[doc(hidden)]
    pub fn check(&mut self, at: &Path<'_>, result: Result<(), Violation>) {
        if let Err(violation) = result {
            self.0.push(ValidationError::new(at.pointer(), violation.keyword(), violation.message()));
        }
    }

    /// Records the failure of a check over a JSON value (the `Value` fallback, or a typed
    /// value checked against another subschema), whose pointer is relative to `at`.
    #[doc(hidden)]
    pub fn check_value(&mut self, at: &Path<'_>, result: Result<(), crate::error::CheckError>) {
        if let Err(e) = result {
            self.0.push(ValidationError::new(at.pointer() + e.pointer(), "schema", e.message()));
        }
    }

    /// `Ok` when nothing was recorded.
    pub fn into_result(self) -> Result<(), ValidationErrors> {
        if self.0.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl IntoIterator for ValidationErrors {
    type Item = ValidationError;
    type IntoIter = std::vec::IntoIter<ValidationError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a ValidationErrors {
    type Item = &'a ValidationError;
    type IntoIter = std::slice::Iter<'a, ValidationError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// A value that can check itself against its schema.
pub trait Validate {
    /// Adds every violation inside `self` to `errors`, with pointers below `at`.
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors);

    /// Every violation of the schema in this value, each with its JSON pointer.
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut errors = ValidationErrors::new();
        self.validate_at(&Path::ROOT, &mut errors);
        errors.into_result()
    }
}

/// What checks a value of type `T` against the schema it was read by: each seed of
/// `de` is the validator of the values it reads (`Plain<T>` delegates to
/// `T`'s [`Validate`], `Seq` checks each item at its index, `MapOf` each value at its key,
/// `Nullable` the value inside, `Assert` its assertions and then its inner seed), so the
/// macros that get a type's seeds ([`object!`](crate::object), [`by_kind!`](crate::by_kind)
/// and the unions') write its `Validate` from them as well.
pub trait Validator<T: ?Sized> {
    /// Adds every violation inside `value` to `errors`, with pointers below `at`.
    fn validate_value(&self, value: &T, at: &Path<'_>, errors: &mut ValidationErrors);
}

/// Validates `value`, if present, with `validator` at the property `name` below `at` (an
/// optional field of a struct).
#[inline]
pub fn optional<T, V: Validator<T>>(validator: &V, value: &Option<T>, at: &Path<'_>, name: &str, errors: &mut ValidationErrors) {
    if let Some(value) = value {
        validator.validate_value(value, &at.key(name), errors);
    }
}

/// Validates `value` with `validator` at the property `name` below `at` (a required or
/// tri-state field of a struct).
#[inline]
pub fn property<T: ?Sized, V: Validator<T>>(validator: &V, value: &T, at: &Path<'_>, name: &str, errors: &mut ValidationErrors) {
    validator.validate_value(value, &at.key(name), errors);
}

/// How a struct checks the value of an undeclared property against a subschema:
/// `|v| schemac_runtime::check::typed(v, SEED)`.
pub type ValueCheck = fn(&serde_json::Value) -> Result<(), crate::error::CheckError>;

/// The `patternProperties` of a struct's undeclared properties (`extra`): each property's
/// value is checked against the subschema of every pattern its name matches (a pattern that
/// cannot be decided counts as matching), and one that matches none against `additional`, or
/// reported when `additionalProperties` is `false` (`None`).
pub fn pattern_properties(
    extra: &serde_json::Map<String, serde_json::Value>,
    at: &Path<'_>,
    errors: &mut ValidationErrors,
    patterns: &[(&crate::pattern::Pattern, ValueCheck)],
    additional: Option<ValueCheck>,
) {
    for (name, value) in extra {
        let at = &at.key(name);
        let mut matched = false;
        for (pattern, check) in patterns {
            if pattern.is_match(name).unwrap_or(true) {
                matched = true;
                errors.check_value(at, check(value));
            }
        }
        match (matched, additional) {
            (true, _) => {}
            (false, Some(check)) => errors.check_value(at, check(value)),
            (false, None) => errors.push(ValidationError::new(
                at.pointer(),
                "additionalProperties",
                format!("property `{name}` is not declared and matches no patternProperties pattern"),
            )),
        }
    }
}

/// The result of the assertions of one subschema over one value: one check
/// (`Result<(), Violation>`) or several (`[Result<(), Violation>; N]`, in the schema's
/// order). Deserialization takes the first violation ([`first`](Checks::first));
/// `validate()` records each ([`record`](Checks::record)).
pub trait Checks {
    /// The first violation, if any.
    fn first(self) -> Result<(), Violation>;
    /// Records every violation at `at`.
    fn record(self, at: &Path<'_>, errors: &mut ValidationErrors);
}

impl Checks for Result<(), Violation> {
    #[inline]
    fn first(self) -> Result<(), Violation> {
        self
    }
    fn record(self, at: &Path<'_>, errors: &mut ValidationErrors) {
        errors.check(at, self);
    }
}

impl<const N: usize> Checks for [Result<(), Violation>; N] {
    #[inline]
    fn first(self) -> Result<(), Violation> {
        for result in self {
            result?;
        }
        Ok(())
    }
    fn record(self, at: &Path<'_>, errors: &mut ValidationErrors) {
        for result in self {
            errors.check(at, result);
        }
    }
}

/// Implements [`Validate`] with nothing to check for each type named: every value of it
/// satisfies its schema, because it is checked when built (a string enum, a constant, a
/// checked newtype) or because nothing about it can be broken (a struct without constraints).
///
/// Generated code and `#[derive(Conforms)]` write `schemac_runtime::always_valid!(Type);`
/// instead of an empty impl. A macro, not a marker trait with a blanket impl: such an impl
/// would overlap with `Validate for Box<T>` (a downstream crate may implement the marker for
/// `Box<Local>`), and boxed recursive fields need that one.
///
/// The standard types generated code is made of are listed here too: their schema
/// constraints, if any, are checked by the containing type.
#[doc(hidden)]
#[macro_export]
macro_rules! always_valid {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::Validate for $t {
            fn validate_at(&self, _: &$crate::__private::validate::Path<'_>, _: &mut $crate::ValidationErrors) {}
        }
    )*};
}
always_valid!(bool, u8, u16, u32, u64, i8, i16, i32, i64, i128, f64, String, (), serde_json::Value, serde_json::Map<String, serde_json::Value>, crate::Number, crate::Integer);

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors) {
        (**self).validate_at(at, errors);
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors) {
        if let Some(value) = self {
            value.validate_at(at, errors);
        }
    }
}

impl<T: Validate> Validate for crate::Tristate<T> {
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors) {
        if let crate::Tristate::Value(value) = self {
            value.validate_at(at, errors);
        }
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors) {
        for (i, item) in self.iter().enumerate() {
            item.validate_at(&at.index(i), errors);
        }
    }
}

impl<T: Validate> Validate for BTreeMap<String, T> {
    fn validate_at(&self, at: &Path<'_>, errors: &mut ValidationErrors) {
        for (name, item) in self {
            item.validate_at(&at.key(name), errors);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_as_json_pointers() {
        let root = Path::ROOT;
        let a = root.key("a/b");
        let b = a.index(3);
        let c = b.key("~x");
        assert_eq!(root.pointer(), "");
        assert_eq!(c.pointer(), "/a~1b/3/~0x");
    }

    #[test]
    fn errors_collect_and_display() {
        let mut errors = ValidationErrors::new();
        let root = Path::ROOT;
        errors.check(&root.key("score"), crate::assert::maximum(1.5, 1_i64));
        errors.check(&root, crate::assert::min_items(0, 1));
        errors.check(&root, Ok(()));
        assert_eq!(errors.len(), 2);
        assert_eq!(errors.iter().next().map(ValidationError::keyword), Some("maximum"));
        assert_eq!(errors.to_string(), "/score: 1.5 is greater than the maximum 1\n(root): 0 items are fewer than the minItems 1");
        assert!(ValidationErrors::new().into_result().is_ok());
    }

    /// A struct as generated code declares it, its `Deserialize` and `Validate` both from the
    /// seeds of `object!`'s rows.
    #[derive(Debug)]
    struct Scored {
        score: f64,
        tags: Vec<BTreeMap<String, u8>>,
        note: Option<String>,
    }

    crate::object! {
        Scored;
        closed;
        required(
            score,
            "score",
            crate::de::Assert::new(crate::de::Float::new(), |v| [crate::assert::maximum(*v, 1_i128), crate::assert::multiple_of(*v, 0.5_f64)]),
        );
        required(tags, "tags", crate::de::Seq(crate::de::MapOf(crate::de::Assert::new(crate::de::Int::<u8>::new(), |v| crate::assert::maximum(*v, 5_i128)))));
        optional(note, "note");
    }

    /// `validate()` records every assertion a value breaks, in the schema's order, where
    /// reading stops at the first.
    #[test]
    fn validate_reports_each_violation_of_one_value() {
        let value = Scored { score: 1.7, tags: vec![], note: None };
        let errors = value.validate().unwrap_err();
        let found: Vec<(&str, &str)> = errors.iter().map(|e| (e.pointer(), e.keyword())).collect();
        assert_eq!(found, [("/score", "maximum"), ("/score", "multipleOf")], "{errors}");
        let read = crate::from_str::<Scored>(r#"{"score": 1.7, "tags": []}"#).unwrap_err();
        assert_eq!((read.pointer(), read.message()), ("/score", "1.7 is greater than the maximum 1"));
        assert!(Scored { score: 0.5, tags: vec![], note: Some("n".into()) }.validate().is_ok());
    }

    /// A violation inside a `Seq` of `MapOf` is reported at the item's index and the key.
    #[test]
    fn validate_points_into_nested_seqs_and_maps() {
        let tags = vec![BTreeMap::from([("a".to_owned(), 1)]), BTreeMap::from([("a/b".to_owned(), 9), ("c".to_owned(), 6)])];
        let errors = Scored { score: 1.0, tags, note: None }.validate().unwrap_err();
        assert_eq!(errors.to_string(), "/tags/1/a~1b: 9 is greater than the maximum 5\n/tags/1/c: 6 is greater than the maximum 5");
        let read = crate::from_str::<Scored>(r#"{"score": 1, "tags": [{"a": 1}, {"c": 6}]}"#).unwrap_err();
        assert_eq!((read.pointer(), read.message()), ("/tags/1/c", "6 is greater than the maximum 5"));
    }

    /// A union dispatched by kind, rows without a seed reading the variant's own type.
    #[derive(Debug, PartialEq)]
    enum Level {
        Number(f64),
        Name(String),
        Steps(Vec<u8>),
    }

    crate::by_kind! {
        Level;
        "a number or a string or an array";
        number(Number);
        string(Name);
        array(Steps, crate::de::Assert::new(crate::de::Seq(crate::de::Int::<u8>::new()), |v| [crate::assert::min_items(v.len(), 2), crate::assert::unique_items(v)]));
    }

    #[test]
    fn by_kind_validates_the_variant_with_its_seed() {
        assert_eq!(crate::from_str::<Level>("2.5").unwrap(), Level::Number(2.5));
        assert_eq!(crate::from_str::<Level>(r#""high""#).unwrap(), Level::Name("high".to_owned()));
        let errors = Level::Steps(vec![3]).validate().unwrap_err();
        assert_eq!(errors.iter().map(ValidationError::keyword).collect::<Vec<_>>(), ["minItems"]);
        let errors = Level::Steps(vec![]).validate().unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(Level::Steps(vec![1, 2]).validate().is_ok());
        assert!(Level::Name(String::new()).validate().is_ok());
        assert_eq!(crate::from_str::<Level>("[4]").unwrap_err().message(), "1 items are fewer than the minItems 2");
    }

    #[test]
    fn containers_delegate() {
        let nested: Vec<Option<Box<u8>>> = vec![Some(Box::new(1)), None];
        assert!(nested.validate().is_ok());
    }
}
