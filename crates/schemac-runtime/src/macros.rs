//! The impls every generated type of a kind shares, as `macro_rules!` the generated code
//! calls with its type's data: a struct's streaming `Deserialize` from its table of properties
//! ([`object!`](crate::object)), a type's `JsonSchema` from its place in the source
//! ([`json_schema!`](crate::json_schema)), a string enum's conversions
//! ([`string_enum!`](crate::string_enum)) and a `pattern` newtype's
//! ([`string_newtype!`](crate::string_newtype)).
//!
//! They expand to the code schemac wrote out per type before: the same monomorphic visitor, so
//! reading costs the same, with the generated module holding one call per type instead of the
//! impls spelled out. Their rules are for generated code; the arms starting with `@` are
//! internal.

/// A struct's `Deserialize`: one pass over the object, each declared property read with its
/// seed (a second occurrence rejected), undeclared ones kept, rejected or read with a seed,
/// required ones checked once the object ends.
///
/// ```text
/// object! { Name; REST; KIND(field, "json", SEED); KIND(field, "json"); ... }
/// ```
///
/// `REST` is `closed` (undeclared properties are errors), `open` (kept in the `extra` field, a
/// [`Extra`](crate::Extra)) or `typed(SEED)` (read with `SEED` into the `extra` field, a
/// `BTreeMap`); `KIND` is `required` (missing is an error), `optional` (an `Option`) or
/// `tristate` (a [`Tristate`](crate::Tristate)); a row without `SEED` reads the field's
/// type with its own `Deserialize` (`Plain`, under `Nullable` for `tristate`). `REST.check(F)`
/// adds `F`, a function of the value read that returns its first object-assertion violation.
/// Each part is a Rust statement, so the generated file lays the call out as a row per
/// property.
#[macro_export]
macro_rules! object {
    // A closed object without properties fails on its first key.
    ($name:ident; closed $(.check($check:expr $(,)?))?;) => {
        $crate::object!(@impl $name, map, {
            if let ::core::option::Option::Some(key) = map.next_key::<$crate::de::Key<'de>>()? {
                $crate::object!(@rest closed key map extra [])
            }
            let value = $name {};
            $($crate::validate::Checks::first($check(&value)).map_err(::serde::de::Error::custom)?;)?
            ::core::result::Result::Ok(value)
        });
        $crate::object!(@validate $name; $($check)?; []; closed);
    };
    ($name:ident; $rest:ident $(($rest_seed:expr $(,)?))? $(.check($check:expr $(,)?))?; $($kind:ident($field:ident, $json:literal $(, $seed:expr)? $(,)?);)*) => {
        $crate::object!(@impl $name, map, {
            $(let mut $field = ::core::option::Option::None;)*
            $crate::object!(@local $rest extra);
            while let ::core::option::Option::Some(key) = map.next_key::<$crate::de::Key<'de>>()? {
                $crate::object!(@dispatch key map extra $rest $(($rest_seed))? [$($kind $field $json ($($seed)?);)*])
            }
            let value = $crate::object!(@value $name $rest extra { $($field: $crate::object!(@take $kind $field $json),)* });
            $($crate::validate::Checks::first($check(&value)).map_err(::serde::de::Error::custom)?;)?
            ::core::result::Result::Ok(value)
        });
        $crate::object!(@validate $name; $($check)?; [$($kind $field $json ($($seed)?);)*]; $rest $(($rest_seed))?);
    };
    // `Validate` from the same rows: each field's value with its seed at its key, in order,
    // then the object assertions, then the undeclared properties a typed rest reads.
    (@validate $name:ident; $($check:expr)?; [$($kind:ident $field:ident $json:literal ($($seed:expr)?);)*]; $rest:ident $(($rest_seed:expr))?) => {
        impl $crate::Validate for $name {
            fn validate_at(&self, at: &$crate::validate::Path<'_>, errors: &mut $crate::ValidationErrors) {
                let _ = (&at, &errors);
                $($crate::object!(@check $kind self.$field, $json, at, errors, $crate::object!(@seed $kind $($seed)?));)*
                $($crate::validate::Checks::record($check(self), at, errors);)?
                $crate::object!(@check_rest $rest $(($rest_seed))? self at errors);
            }
        }
    };
    (@check optional $value:expr, $json:literal, $at:ident, $errors:ident, $seed:expr) => {
        $crate::validate::optional(&$seed, &$value, $at, $json, $errors)
    };
    (@check $kind:ident $value:expr, $json:literal, $at:ident, $errors:ident, $seed:expr) => {
        $crate::validate::property(&$seed, &$value, $at, $json, $errors)
    };
    (@check_rest typed($seed:expr) $self:ident $at:ident $errors:ident) => {
        $crate::validate::Validator::validate_value(&$crate::de::MapOf($seed), &$self.extra, $at, $errors)
    };
    (@check_rest $rest:ident $self:ident $at:ident $errors:ident) => {};
    (@impl $name:ident, $map:ident, $body:block) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(::core::concat!("an object (", ::core::stringify!($name), ")"))
                    }
                    fn visit_map<__A: ::serde::de::MapAccess<'de>>(self, mut $map: __A) -> ::core::result::Result<$name, __A::Error> $body
                }
                deserializer.deserialize_map(Visitor)
            }
        }
    };
    // Without declared properties every key is undeclared.
    (@dispatch $key:ident $map:ident $extra:ident $rest:ident $(($rest_seed:expr))? []) => {
        $crate::object!(@rest $rest $(($rest_seed))? $key $map $extra [])
    };
    (@dispatch $key:ident $map:ident $extra:ident $rest:ident $(($rest_seed:expr))? [$($kind:ident $field:ident $json:literal ($($seed:expr)?);)*]) => {
        match $key.as_str() {
            $($json => $crate::de::field(&mut $map, &mut $field, $json, $crate::object!(@seed $kind $($seed)?))?,)*
            _ => { $crate::object!(@rest $rest $(($rest_seed))? $key $map $extra [$($json),*]) }
        }
    };
    (@value $name:ident closed $extra:ident { $($init:tt)* }) => {
        $name { $($init)* }
    };
    (@value $name:ident open $extra:ident { $($init:tt)* }) => {
        $name { $($init)* extra: $extra.finish() }
    };
    (@value $name:ident typed $extra:ident { $($init:tt)* }) => {
        $name { $($init)* extra: $extra }
    };
    // A row without a seed reads its field's type with its own `Deserialize`.
    (@seed tristate) => {
        $crate::de::Nullable($crate::de::Plain::new())
    };
    (@seed $kind:ident) => {
        $crate::de::Plain::new()
    };
    (@seed $kind:ident $seed:expr) => {
        $seed
    };
    (@take required $field:ident $json:literal) => {
        $field.ok_or_else(|| $crate::de::missing($json))?
    };
    (@take optional $field:ident $json:literal) => {
        $field
    };
    (@take tristate $field:ident $json:literal) => {
        $field.map_or($crate::Tristate::Absent, $crate::Tristate::from)
    };
    (@local closed $extra:ident) => {};
    (@local open $extra:ident) => {
        let mut $extra = $crate::ExtraBuilder::default();
    };
    (@local typed $extra:ident) => {
        let mut $extra = ::std::collections::BTreeMap::new();
    };
    (@rest closed $key:ident $map:ident $extra:ident [$($json:literal),*]) => {{
        let unknown = $crate::de::UnknownProperty { name: $key.as_str(), expected: &[$($json),*] };
        match $map.next_value_seed(unknown)? {}
    }};
    (@rest open $key:ident $map:ident $extra:ident [$($json:literal),*]) => {
        $crate::de::extra(&mut $map, &mut $extra, $key)?
    };
    (@rest typed($seed:expr) $key:ident $map:ident $extra:ident [$($json:literal),*]) => {{
        let $key = $key.into_string();
        if $extra.contains_key(&$key) {
            return ::core::result::Result::Err($crate::de::duplicate(&$key));
        }
        $extra.insert($key, $map.next_value_seed($seed)?);
    }};
}

/// A type's `schemars::JsonSchema`: its source subschema, bundled.
///
/// ```text
/// json_schema!(Name, SCHEMA_VALUE, "pointer");                // named `Name`
/// json_schema!(Name, "schema name", SCHEMA_VALUE, "pointer"); // named otherwise
/// json_schema!(Name, SCHEMA_VALUE, "pointer", refs = [..], moved = [..], resources = [..], edits = [..]);
/// ```
///
/// `SCHEMA_VALUE` is the static holding the parsed source document; the lists are those of
/// [`bundle::Subschema`](crate::bundle::Subschema), each left out when empty.
#[macro_export]
macro_rules! json_schema {
    (
        $name:ident, $($schema_name:literal,)? $document:ident, $pointer:literal
        $(, refs = [$($ref:expr),* $(,)?])?
        $(, moved = [$($moved:expr),* $(,)?])?
        $(, resources = [$($resource:expr),* $(,)?])?
        $(, edits = [$($edit:expr),* $(,)?])?
        $(,)?
    ) => {
        impl $crate::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($crate::json_schema!(@name $name $($schema_name)?))
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", ::core::stringify!($name)))
            }

            fn json_schema(generator: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                $crate::bundle::Subschema {
                    document: &$document,
                    pointer: $pointer,
                    refs: &[$($($ref),*)?],
                    moved: &[$($($moved),*)?],
                    resources: &[$($($resource),*)?],
                    edits: &[$($($edit),*)?],
                }
                .json_schema(generator)
            }
        }
    };
    (@name $name:ident) => {
        ::core::stringify!($name)
    };
    (@name $name:ident $schema_name:literal) => {
        $schema_name
    };
}

/// A string enum's `ALL`, `as_str`, `Display`, `Serialize`, `Deserialize`, `Validate` (with
/// nothing to check), and (unless
/// `only_serde`) `FromStr`, `TryFrom<&str>`, `TryFrom<String>` and `AsRef<str>`.
///
/// ```text
/// string_enum!(Name, "one of \"a\", \"b\"", [A = "a", B = "b"]);
/// ```
#[macro_export]
macro_rules! string_enum {
    ($name:ident, $expected:literal, [$($variant:ident = $value:literal),* $(,)?] $(,)?) => {
        $crate::string_enum!(@serde $name, $expected, [$($variant = $value),*]);

        impl ::core::str::FromStr for $name {
            type Err = $crate::ConstraintError;
            /// The value whose JSON string is `text`.
            fn from_str(text: &str) -> ::core::result::Result<Self, $crate::ConstraintError> {
                $name::ALL.iter().copied().find(|v| v.as_str() == text).ok_or_else(|| $crate::ConstraintError::expected(text, $expected))
            }
        }

        impl ::core::convert::TryFrom<&str> for $name {
            type Error = $crate::ConstraintError;
            fn try_from(text: &str) -> ::core::result::Result<Self, $crate::ConstraintError> {
                text.parse()
            }
        }

        impl ::core::convert::TryFrom<::std::string::String> for $name {
            type Error = $crate::ConstraintError;
            fn try_from(text: ::std::string::String) -> ::core::result::Result<Self, $crate::ConstraintError> {
                text.parse()
            }
        }

        impl ::core::convert::AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }
    };
    (@serde $name:ident, $expected:literal, [$($variant:ident = $value:literal),* $(,)?]) => {
        // Every value is one the schema allows.
        $crate::always_valid!($name);

        impl $name {
            /// Every allowed value, in schema order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The JSON string of this value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $value,)*
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<__S: ::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                $crate::de::string(deserializer, $expected, |s| match s {
                    $($value => ::core::option::Option::Some($name::$variant),)*
                    _ => ::core::option::Option::None,
                })
            }
        }
    };
}

/// A string newtype's accessors and conversions, over its `check(&str)` (which the generated
/// code writes: the `pattern` and the other assertions): `as_str`, `into_string`,
/// `TryFrom<String>`, `TryFrom<&str>`, `FromStr`, `AsRef<str>`, `Display`, `Deserialize` and
/// `Validate` (with nothing to check: every value is checked when built).
#[macro_export]
macro_rules! string_newtype {
    ($name:ident) => {
        // Every value is checked when built.
        $crate::always_valid!($name);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> ::std::string::String {
                self.0
            }
        }

        impl ::core::convert::TryFrom<::std::string::String> for $name {
            type Error = $crate::ConstraintError;
            fn try_from(text: ::std::string::String) -> ::core::result::Result<Self, Self::Error> {
                $name::check(&text).map(|()| $name(text))
            }
        }

        impl ::core::convert::TryFrom<&str> for $name {
            type Error = $crate::ConstraintError;
            fn try_from(text: &str) -> ::core::result::Result<Self, Self::Error> {
                $name::check(text).map(|()| $name(::std::borrow::ToOwned::to_owned(text)))
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::ConstraintError;
            fn from_str(text: &str) -> ::core::result::Result<Self, $crate::ConstraintError> {
                $name::try_from(text)
            }
        }

        impl ::core::convert::AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let text = <::std::string::String as ::serde::Deserialize>::deserialize(deserializer)?;
                $name::try_from(text).map_err(::serde::de::Error::custom)
            }
        }
    };
}

/// A `oneOf` union's `Deserialize`: the value is buffered and every branch tried; exactly one
/// must take it. A branch that fails only because a Rust integer cannot hold the value counts
/// as matching (the schema's answer), so the union never takes another branch instead.
///
/// ```text
/// one_of! { Name; Variant(SEED); Variant; ... }
/// ```
///
/// A row without `SEED` reads the variant's type with its own `Deserialize`.
///
/// The type's `Validate` checks the variant's value with its seed (which variant a value
/// built in Rust is in is the caller's choice; exclusivity is enforced when reading).
#[macro_export]
macro_rules! one_of {
    ($name:ident; $($variant:ident $(($seed:expr $(,)?))?;)+) => {
        $crate::one_of!(@impl $name; $($variant($crate::one_of!(@seed $($seed)?));)+);
    };
    // A row without a seed reads its variant's type with its own `Deserialize`.
    (@seed) => {
        $crate::de::Plain::new()
    };
    (@seed $seed:expr) => {
        $seed
    };
    (@impl $name:ident; $($variant:ident($seed:expr);)+) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::de::any_value(deserializer)?;
                let mut found = ::core::option::Option::None;
                let mut matches = 0usize;
                let mut unrepresentable = ::core::option::Option::None;
                let mut failures = ::std::vec::Vec::new();
                $(
                    match $crate::de::nested::<_, $crate::__private::serde_json::Error>($seed, &value) {
                        ::core::result::Result::Ok(v) => {
                            matches += 1;
                            if found.is_none() {
                                found = ::core::option::Option::Some($name::$variant(v));
                            }
                        }
                        ::core::result::Result::Err(error) if $crate::de::unrepresentable(&error) => {
                            matches += 1;
                            unrepresentable = ::core::option::Option::Some(::std::string::ToString::to_string(&error));
                        }
                        ::core::result::Result::Err(error) => failures.push((::core::stringify!($variant), error)),
                    }
                )+
                match (matches, found, unrepresentable) {
                    (1, ::core::option::Option::Some(v), _) => ::core::result::Result::Ok(v),
                    (1, ::core::option::Option::None, ::core::option::Option::Some(error)) => {
                        ::core::result::Result::Err(::serde::de::Error::custom(error))
                    }
                    (0, _, _) => ::core::result::Result::Err($crate::de::no_branch(
                        ::core::concat!("matches none of the oneOf branches of ", ::core::stringify!($name)),
                        &failures,
                    )),
                    _ => ::core::result::Result::Err(::serde::de::Error::custom(::core::concat!(
                        "matches more than one oneOf branch of ",
                        ::core::stringify!($name),
                        " (",
                        ::core::stringify!($($variant),+),
                        "); exactly one must match"
                    ))),
                }
            }
        }
        $crate::__validate_variants!($name; $($variant($seed);)+);
    };
}

/// An `anyOf` union's `Deserialize` (and a type array's whose kinds overlap): the value is
/// buffered and the branches tried in order; the first that takes it wins.
///
/// ```text
/// first_match! { Name; Variant(SEED); Variant; ... }
/// ```
///
/// A row without `SEED` reads the variant's type with its own `Deserialize`.
///
/// The type's `Validate` checks the variant's value with its seed.
#[macro_export]
macro_rules! first_match {
    ($name:ident; $($variant:ident $(($seed:expr $(,)?))?;)+) => {
        $crate::first_match!(@impl $name; $($variant($crate::first_match!(@seed $($seed)?));)+);
    };
    // A row without a seed reads its variant's type with its own `Deserialize`.
    (@seed) => {
        $crate::de::Plain::new()
    };
    (@seed $seed:expr) => {
        $seed
    };
    (@impl $name:ident; $($variant:ident($seed:expr);)+) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::de::any_value(deserializer)?;
                let mut failures = ::std::vec::Vec::new();
                $(
                    match $crate::de::nested::<_, $crate::__private::serde_json::Error>($seed, &value) {
                        ::core::result::Result::Ok(v) => return ::core::result::Result::Ok($name::$variant(v)),
                        ::core::result::Result::Err(error) => failures.push((::core::stringify!($variant), error)),
                    }
                )+
                ::core::result::Result::Err($crate::de::no_branch(
                    ::core::concat!("matches none of the variants of ", ::core::stringify!($name)),
                    &failures,
                ))
            }
        }
        $crate::__validate_variants!($name; $($variant($seed);)+);
    };
}

/// The `Deserialize` of a union whose branches take distinct JSON kinds: streaming, each kind
/// the deserializer reports going to its branch's seed (`null`, `boolean`, `integer` for
/// `visit_i64` and `visit_u64`, `float`, `number` for both, `string`, `array`, `object`; `none` for a
/// variant no kind goes to, which only its `Validate` reads).
///
/// ```text
/// by_kind! { Name; "what it expects"; KIND(Variant, SEED); KIND(Variant); ... }
/// ```
///
/// A row without `SEED` reads the variant's type with its own `Deserialize` (`Float` for
/// `number` and `float`). The type's `Validate` checks the variant's value with its seed
/// ([`Validator`](crate::validate::Validator)).
#[macro_export]
macro_rules! by_kind {
    ($name:ident; $expecting:literal; $($visit:ident($variant:ident $(, $seed:expr)? $(,)?);)+) => {
        $crate::by_kind!(@impl $name; $expecting; $($visit($variant, $crate::by_kind!(@seed $visit $($seed)?));)+);
        $crate::__validate_variants!($name; $($variant($crate::by_kind!(@seed $visit $($seed)?));)+);
    };
    // A row without a seed reads its variant's type with its own `Deserialize` (a number as
    // `Float`).
    (@seed number) => {
        $crate::de::Float::new()
    };
    (@seed float) => {
        $crate::de::Float::new()
    };
    (@seed $visit:ident) => {
        $crate::de::Plain::new()
    };
    (@seed $visit:ident $seed:expr) => {
        $seed
    };
    (@impl $name:ident; $expecting:literal; $($visit:ident($variant:ident, $seed:expr);)+) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str($expecting)
                    }
                    $($crate::by_kind!(@visit $visit $name $variant $seed);)+
                }
                deserializer.deserialize_any(Visitor)
            }
        }
    };
    // A variant no kind goes to (a later numeric branch): only its `Validate` reads the row.
    (@visit none $name:ident $variant:ident $seed:expr) => {};
    (@visit null $name:ident $variant:ident $seed:expr) => {
        fn visit_unit<__E: ::serde::de::Error>(self) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(()))
                .map($name::$variant)
        }
    };
    (@visit boolean $name:ident $variant:ident $seed:expr) => {
        fn visit_bool<__E: ::serde::de::Error>(self, v: bool) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit integer $name:ident $variant:ident $seed:expr) => {
        fn visit_i64<__E: ::serde::de::Error>(self, v: i64) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
        fn visit_u64<__E: ::serde::de::Error>(self, v: u64) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit number $name:ident $variant:ident $seed:expr) => {
        $crate::by_kind!(@visit integer $name $variant $seed);
        $crate::by_kind!(@visit float $name $variant $seed);
    };
    (@visit float $name:ident $variant:ident $seed:expr) => {
        fn visit_f64<__E: ::serde::de::Error>(self, v: f64) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit string $name:ident $variant:ident $seed:expr) => {
        fn visit_str<__E: ::serde::de::Error>(self, v: &str) -> ::core::result::Result<$name, __E> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit array $name:ident $variant:ident $seed:expr) => {
        fn visit_seq<__A: ::serde::de::SeqAccess<'de>>(self, seq: __A) -> ::core::result::Result<$name, __A::Error> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::value::SeqAccessDeserializer::new(seq)).map($name::$variant)
        }
    };
    (@visit object $name:ident $variant:ident $seed:expr) => {
        fn visit_map<__A: ::serde::de::MapAccess<'de>>(self, map: __A) -> ::core::result::Result<$name, __A::Error> {
            ::serde::de::DeserializeSeed::deserialize($seed, ::serde::de::value::MapAccessDeserializer::new(map)).map($name::$variant)
        }
    };
}

/// A union's `Validate`: the value of whichever variant it is, checked with that variant's
/// seed ([`Validator`](crate::validate::Validator)). For [`by_kind!`](crate::by_kind) and the
/// other union macros; a variant that takes several JSON kinds has a row for each, the first
/// of which checks it.
#[doc(hidden)]
#[macro_export]
macro_rules! __validate_variants {
    ($name:ident; $($variant:ident($seed:expr);)+) => {
        impl $crate::Validate for $name {
            #[allow(unreachable_patterns)]
            fn validate_at(&self, at: &$crate::validate::Path<'_>, errors: &mut $crate::ValidationErrors) {
                match self {
                    $($name::$variant(v) => $crate::validate::Validator::validate_value(&$seed, v, at, errors),)+
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }
        }
    };
}

/// A module's source schema: `SCHEMA_JSON` (the file's text, byte for byte), `SCHEMA_VALUE`
/// (a static of it parsed on first use, which the module's [`json_schema!`](crate::json_schema)
/// calls name) and `schema()`.
///
/// ```text
/// schema_source!(r#"{ "type": "object" }"#);
/// ```
#[macro_export]
macro_rules! schema_source {
    ($text:literal $(,)?) => {
        /// The source schema file, byte for byte.
        pub const SCHEMA_JSON: &str = $text;

        /// [`SCHEMA_JSON`], parsed on first use.
        static SCHEMA_VALUE: ::std::sync::LazyLock<$crate::__private::serde_json::Value> =
            ::std::sync::LazyLock::new(|| $crate::literal(SCHEMA_JSON));

        /// The source schema, parsed (once).
        pub fn schema() -> &'static $crate::__private::serde_json::Value {
            &SCHEMA_VALUE
        }
    };
}

/// A root type's [`SchemaBound`](crate::SchemaBound): its schema's id, source path and
/// SHA-256, at the document's root, over the module's `SCHEMA_VALUE`.
///
/// ```text
/// schema_bound!(Name, "schema id", "schemas/name.json", "sha256 in hex");
/// ```
#[macro_export]
macro_rules! schema_bound {
    ($name:ident, $id:literal, $path:literal, $sha256:literal $(,)?) => {
        impl $crate::SchemaBound for $name {
            const SCHEMA_ID: &'static str = $id;
            const SOURCE_PATH: &'static str = $path;
            const SOURCE_SHA256: &'static str = $sha256;
            const POINTER: &'static str = "";

            fn schema() -> &'static $crate::__private::serde_json::Value {
                &SCHEMA_VALUE
            }
        }
    };
}
