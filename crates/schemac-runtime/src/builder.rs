//! What generated builders share: the typestate of required fields ([`Set`], [`IsSet`]) and the
//! conversion a setter accepts ([`Assign`]), which their signatures name; and, for the
//! generated code only (through the runtime's contract module), the store every builder wraps
//! and the slots that collect what setters could not convert, so that `build()` reports it
//! with every other violation.
//!
//! A generated `FooBuilder<S0, S1, ...>` has one type parameter per required property. It
//! starts as the property's marker type (a unit struct named after the field, in the module's
//! `builder_fields`), which does not implement [`IsSet`]; the property's setter turns it into
//! [`Set`]. `build()` requires every parameter to be [`IsSet`], so a builder with a required
//! property left out does not compile, and the error names the property.

use std::marker::PhantomData;

use serde::Serialize;

use crate::ConstraintError;
use crate::validate::{Validate, ValidationError, ValidationErrors};

/// The state of a required property whose setter was called.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Set;

/// Implemented by [`Set`] only: `build()` asks it of the state of every required property of
/// `Of`. A required property not set is a compile error naming it.
#[diagnostic::on_unimplemented(
    message = "the required property `{Self}` of `{Of}` is not set",
    label = "a property the schema requires is not set",
    note = "the marker's last path segment names the setter to call before `.build()`"
)]
pub trait IsSet<Of> {}

impl<Of> IsSet<Of> for Set {}

/// What a setter of a field of type `T` accepts: anything that converts into `T` (`Into`),
/// and for a type whose constructor checks its value (a `pattern` newtype, a constrained
/// alias), the raw value, whose check `build()` reports as a violation at the property.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` cannot be assigned to a field of type `{T}`",
    label = "expected something that converts into `{T}`"
)]
pub trait Assign<T> {
    /// The value, or why it is not a valid `T`.
    fn assign(self) -> Result<T, ConstraintError>;
}

impl<T, U: Into<T>> Assign<T> for U {
    fn assign(self) -> Result<T, ConstraintError> {
        Ok(self.into())
    }
}

/// The state every generated builder wraps: `P`, the builder's fields (each `Option`, an
/// optional one starting absent), the [`Slots`], and `S`, the tuple of the required properties'
/// states, which only the types see.
///
/// `Clone` and `Debug` are written out rather than derived: a derive would ask them of `S`,
/// and std implements them only for tuples of up to 12 elements, where a struct may require
/// up to 64 properties.
#[doc(hidden)]
pub struct Builder<P, S> {
    parts: P,
    slots: Slots,
    state: PhantomData<fn() -> S>,
}

impl<P: Clone, S> Clone for Builder<P, S> {
    fn clone(&self) -> Self {
        Builder { parts: self.parts.clone(), slots: self.slots.clone(), state: PhantomData }
    }
}

impl<P: std::fmt::Debug, S> std::fmt::Debug for Builder<P, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder").field("parts", &self.parts).field("slots", &self.slots).finish_non_exhaustive()
    }
}

impl<P: Default, S> Default for Builder<P, S> {
    fn default() -> Self {
        Builder { parts: P::default(), slots: Slots::default(), state: PhantomData }
    }
}

impl<P, S> Builder<P, S> {
    /// Sets the field `field` selects (property `name`) to `value`, in the state `T` the
    /// setter's signature says (the same one for an optional property, [`Set`] in the place
    /// of a required one).
    pub fn set<T, U>(mut self, field: impl FnOnce(&mut P) -> &mut Option<T>, name: &str, value: impl Assign<T>) -> Builder<P, U> {
        *field(&mut self.parts) = self.slots.set(name, value);
        Builder { parts: self.parts, slots: self.slots, state: PhantomData }
    }

    /// Sets an optional property that may be `null`: `None` writes `null`.
    pub fn set_tristate<T>(
        mut self,
        field: impl FnOnce(&mut P) -> &mut crate::Tristate<T>,
        name: &str,
        value: impl Assign<Option<T>>,
    ) -> Self {
        *field(&mut self.parts) = self.slots.set_tristate(name, value);
        self
    }

    /// Adds the undeclared property `name` through `insert`, unless it is declared or the
    /// value does not convert (both violations `build()` reports).
    pub fn undeclared<T>(mut self, declared: &[&str], name: &str, value: impl Assign<T>, insert: impl FnOnce(&mut P, T)) -> Self {
        if let Some(value) = self.slots.undeclared(declared, name, value) {
            insert(&mut self.parts, value);
        }
        self
    }

    /// Like [`Builder::undeclared`], for a value kept as JSON.
    pub fn undeclared_json(
        mut self,
        declared: &[&str],
        name: &str,
        value: impl Serialize,
        insert: impl FnOnce(&mut P, serde_json::Value),
    ) -> Self {
        if let Some(value) = self.slots.undeclared_json(declared, name, value) {
            insert(&mut self.parts, value);
        }
        self
    }

    /// The value `make` assembles from the fields (`None` when a required one is missing,
    /// which only a setter's value that did not convert leaves), if it satisfies its schema;
    /// otherwise every violation.
    pub fn build<T: Validate>(self, make: impl FnOnce(P) -> Option<T>) -> Result<T, ValidationErrors> {
        match make(self.parts) {
            Some(value) => self.slots.finish(value),
            None => Err(self.slots.failed()),
        }
    }

    /// [`Builder::build`] for a builder that tracks its required properties at run time (a
    /// struct with more of them than a typestate builder can carry): `required` lists each
    /// required property with whether its field holds a value, and one not set is a `required`
    /// violation at its pointer (unless its setter's value did not convert, which is reported
    /// already), with every other violation.
    pub fn build_checked<T: Validate>(
        mut self,
        required: impl FnOnce(&P) -> Vec<(&'static str, bool)>,
        make: impl FnOnce(P) -> Option<T>,
    ) -> Result<T, ValidationErrors> {
        for (name, set) in required(&self.parts) {
            if !set && !self.slots.failed_at(name) {
                self.slots.fail(name, "required", format!("the required property `{name}` is not set"));
            }
        }
        if !self.slots.failed.is_empty() {
            return Err(self.slots.failed());
        }
        self.build(make)
    }
}

/// What a builder collected besides its fields: the values setters could not convert, each
/// with the pointer of its property.
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct Slots {
    failed: ValidationErrors,
}

impl Slots {
    /// `value` as a `T`, or `None` with the reason recorded at `/name`.
    pub fn set<T>(&mut self, name: &str, value: impl Assign<T>) -> Option<T> {
        match value.assign() {
            Ok(value) => Some(value),
            Err(e) => {
                self.fail(name, "schema", e.to_string());
                None
            }
        }
    }

    /// A setter's value for an optional property that may be `null`: `None` writes `null`.
    pub fn set_tristate<T>(&mut self, name: &str, value: impl Assign<Option<T>>) -> crate::Tristate<T> {
        self.set(name, value).map_or(crate::Tristate::Absent, crate::Tristate::from)
    }

    /// `value` for the undeclared property `name`, as JSON; `None`, recorded as a violation,
    /// when `name` is among `declared` (whose own setter sets it) or `value` is no JSON.
    pub fn undeclared_json(&mut self, declared: &[&str], name: &str, value: impl Serialize) -> Option<serde_json::Value> {
        if self.declared(declared, name) {
            return None;
        }
        match serde_json::to_value(value) {
            Ok(value) => Some(value),
            Err(e) => {
                self.fail(name, "schema", format!("not a JSON value: {e}"));
                None
            }
        }
    }

    /// Like [`Slots::undeclared_json`], for undeclared properties of a typed value.
    pub fn undeclared<T>(&mut self, declared: &[&str], name: &str, value: impl Assign<T>) -> Option<T> {
        if self.declared(declared, name) {
            return None;
        }
        self.set(name, value)
    }

    fn declared(&mut self, declared: &[&str], name: &str) -> bool {
        let found = declared.contains(&name);
        if found {
            let message = format!("property `{name}` is declared: set it with its own setter, not as an undeclared property");
            self.fail(name, "properties", message);
        }
        found
    }

    fn fail(&mut self, name: &str, keyword: &str, message: String) {
        self.failed.push(ValidationError::new(Self::pointer(name), keyword, message));
    }

    fn failed_at(&self, name: &str) -> bool {
        let pointer = Self::pointer(name);
        self.failed.iter().any(|e| e.pointer() == pointer)
    }

    fn pointer(name: &str) -> String {
        format!("/{}", name.replace('~', "~0").replace('/', "~1"))
    }

    /// The violations recorded so far, when a required value is missing because its setter
    /// could not convert it (so there is no value to validate).
    pub fn failed(self) -> ValidationErrors {
        self.failed
    }

    /// `value` if it satisfies its schema and every setter's value converted; otherwise
    /// every violation: the conversions first, then what `validate()` finds.
    pub fn finish<T: Validate>(self, value: T) -> Result<T, ValidationErrors> {
        let mut errors = self.failed;
        if let Err(found) = value.validate() {
            found.into_iter().for_each(|e| errors.push(e));
        }
        if errors.is_empty() { Ok(value) } else { Err(errors) }
    }
}

/// A float where the schema's type is an exact number: checked, as `Number::try_from` does
/// (NaN and the infinities are no JSON numbers).
impl Assign<crate::Number> for f64 {
    fn assign(self) -> Result<crate::Number, ConstraintError> {
        crate::Number::try_from(self)
    }
}

impl Assign<crate::Number> for f32 {
    fn assign(self) -> Result<crate::Number, ConstraintError> {
        crate::Number::try_from(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Even(u32);

    impl Assign<Even> for u32 {
        fn assign(self) -> Result<Even, ConstraintError> {
            if self.is_multiple_of(2) { Ok(Even(self)) } else { Err(ConstraintError::new(format!("{self} is odd"))) }
        }
    }

    impl Validate for Even {
        fn validate_at(&self, at: &crate::validate::Path<'_>, errors: &mut ValidationErrors) {
            if self.0 > 10 {
                errors.push(ValidationError::new(at.pointer(), "maximum", format!("{} is greater than the maximum 10", self.0)));
            }
        }
    }

    #[test]
    fn conversions_that_fail_are_reported_with_the_property_pointer() {
        let mut slots = Slots::default();
        assert_eq!(slots.set::<Even>("a/b", 4u32), Some(Even(4)));
        assert_eq!(slots.set::<Even>("a/b", 3u32), None);
        assert_eq!(slots.set::<String>("s", "text"), Some("text".to_owned()));
        let errors = slots.failed();
        assert_eq!(errors.to_string(), "/a~1b: 3 is odd");
    }

    #[test]
    fn finish_reports_conversions_then_validation() {
        let mut slots = Slots::default();
        assert_eq!(slots.set::<Even>("x", 5u32), None);
        let errors = slots.finish(Even(12)).unwrap_err();
        assert_eq!(errors.to_string(), "/x: 5 is odd\n(root): 12 is greater than the maximum 10");
        assert_eq!(Slots::default().finish(Even(2)), Ok(Even(2)));
    }

    #[test]
    fn undeclared_properties_are_kept_unless_declared() {
        let mut slots = Slots::default();
        assert_eq!(slots.undeclared_json(&["id"], "note", [1, 2]), Some(serde_json::json!([1, 2])));
        assert_eq!(slots.undeclared_json(&["id"], "id", 3), None);
        assert_eq!(slots.undeclared::<u8>(&["id"], "n", 3u8), Some(3));
        let errors = slots.failed();
        assert_eq!(errors.iter().map(|e| (e.pointer(), e.keyword())).collect::<Vec<_>>(), [("/id", "properties")]);
    }

    #[test]
    fn a_null_setter_value_is_null_and_no_call_is_absent() {
        let mut slots = Slots::default();
        assert_eq!(slots.set_tristate::<u8>("n", None), crate::Tristate::Null);
        assert_eq!(slots.set_tristate::<u8>("n", 3u8), crate::Tristate::Value(3));
    }

    #[derive(Debug, Default)]
    struct Parts {
        a: Option<Even>,
        b: Option<Even>,
    }

    fn start() -> Builder<Parts, ()> {
        Builder::default()
    }

    fn build(builder: Builder<Parts, ()>) -> Result<(Even, Even), ValidationErrors> {
        builder.build_checked(|p| vec![("a", p.a.is_some()), ("b", p.b.is_some())], |p| Some((p.a?, p.b?)))
    }

    impl Validate for (Even, Even) {
        fn validate_at(&self, at: &crate::validate::Path<'_>, errors: &mut ValidationErrors) {
            self.0.validate_at(&at.key("a"), errors);
            self.1.validate_at(&at.key("b"), errors);
        }
    }

    #[test]
    fn a_builder_checked_at_run_time_reports_each_missing_required_property() {
        let errors = build(start()).unwrap_err();
        assert_eq!(errors.to_string(), "/a: the required property `a` is not set\n/b: the required property `b` is not set");
        // A value that did not convert is reported as such, not as missing too.
        let errors = build(start().set::<Even, ()>(|p: &mut Parts| &mut p.a, "a", 3u32)).unwrap_err();
        assert_eq!(errors.to_string(), "/a: 3 is odd\n/b: the required property `b` is not set");
        let built = start().set::<Even, ()>(|p: &mut Parts| &mut p.a, "a", 2u32).set::<Even, ()>(|p| &mut p.b, "b", 12u32);
        assert_eq!(build(built).unwrap_err().to_string(), "/b: 12 is greater than the maximum 10");
        let built = start().set::<Even, ()>(|p: &mut Parts| &mut p.a, "a", 2u32).set::<Even, ()>(|p| &mut p.b, "b", 4u32);
        assert_eq!(build(built), Ok((Even(2), Even(4))));
    }
}
