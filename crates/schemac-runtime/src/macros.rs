//! The impls every generated type of a kind shares, as `macro_rules!` the generated code
//! calls with its type's data: a struct's streaming `Deserialize` from its table of properties
//! ([`object!`](crate::object)), a type's `JsonSchema` from its place in the source
//! ([`json_schema!`](crate::json_schema)), a string enum's conversions
//! ([`string_enum!`](crate::string_enum)), a `pattern` newtype's
//! ([`string_newtype!`](crate::string_newtype)), a `Value` fallback's and a refinement's checks
//! and conversions ([`checked!`](crate::checked), [`refined!`](crate::refined)), the `false`
//! schema's ([`never!`](crate::never)) and a tuple's array form ([`tuple!`](crate::tuple)).
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
#[doc(hidden)]
#[macro_export]
macro_rules! object {
    // A closed object without properties fails on its first key.
    ($name:ident; closed $(.check($check:expr $(,)?))?;) => {
        $crate::object!(@impl $name, map, {
            if let ::core::option::Option::Some(key) = map.next_key::<$crate::__private::de::Key<'de>>()? {
                $crate::object!(@rest closed key map extra [])
            }
            let value = $name {};
            $($crate::__private::validate::Checks::first($check(&value)).map_err($crate::__private::serde::de::Error::custom)?;)?
            ::core::result::Result::Ok(value)
        });
        $crate::object!(@validate $name; $($check)?; []; closed);
        $crate::object!(@serialize $name; []; closed);
    };
    ($name:ident; $rest:ident $(($rest_seed:expr $(,)?))? $(.check($check:expr $(,)?))?; $($kind:ident($field:ident, $json:literal $(, $seed:expr)? $(,)?);)*) => {
        $crate::object!(@impl $name, map, {
            $(let mut $field = ::core::option::Option::None;)*
            $crate::object!(@local $rest extra);
            while let ::core::option::Option::Some(key) = map.next_key::<$crate::__private::de::Key<'de>>()? {
                $crate::object!(@dispatch key map extra $rest $(($rest_seed))? [$($kind $field $json ($($seed)?);)*])
            }
            let value = $crate::object!(@value $name $rest extra { $($field: $crate::object!(@take $kind $field $json),)* });
            $($crate::__private::validate::Checks::first($check(&value)).map_err($crate::__private::serde::de::Error::custom)?;)?
            ::core::result::Result::Ok(value)
        });
        $crate::object!(@validate $name; $($check)?; [$($kind $field $json ($($seed)?);)*]; $rest $(($rest_seed))?);
        $crate::object!(@serialize $name; [$($kind $field $json;)*]; $rest);
    };
    // `Serialize` as serde derives it: a struct of the fields present (absent optional ones
    // skipped), or, with undeclared properties kept, a map of those fields and then them. One
    // statement per field, which rustc takes at any width.
    (@serialize $name:ident; [$($kind:ident $field:ident $json:literal;)*]; closed) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeStruct as _;
                #[allow(unused_mut)]
                let mut len = 0usize;
                $(len += $crate::object!(@count $kind self.$field);)*
                let mut state = serializer.serialize_struct(::core::stringify!($name), len)?;
                $($crate::object!(@field $kind state self.$field, $json);)*
                state.end()
            }
        }
    };
    (@serialize $name:ident; [$($kind:ident $field:ident $json:literal;)*]; $rest:ident) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::core::option::Option::None)?;
                $($crate::object!(@entry $kind map self.$field, $json);)*
                $crate::object!(@rest_entries $rest __S map self);
                map.end()
            }
        }
    };
    (@count required $value:expr) => { 1 };
    (@count optional $value:expr) => { usize::from($value.is_some()) };
    (@count tristate $value:expr) => { usize::from(!$value.is_absent()) };
    (@field required $state:ident $value:expr, $json:literal) => {
        $state.serialize_field($json, &$value)?
    };
    (@field optional $state:ident $value:expr, $json:literal) => {
        if $value.is_some() { $state.serialize_field($json, &$value)? } else { $state.skip_field($json)? }
    };
    (@field tristate $state:ident $value:expr, $json:literal) => {
        if $value.is_absent() { $state.skip_field($json)? } else { $state.serialize_field($json, &$value)? }
    };
    (@entry required $map:ident $value:expr, $json:literal) => {
        $map.serialize_entry($json, &$value)?
    };
    (@entry optional $map:ident $value:expr, $json:literal) => {
        if $value.is_some() { $map.serialize_entry($json, &$value)? }
    };
    (@entry tristate $map:ident $value:expr, $json:literal) => {
        if !$value.is_absent() { $map.serialize_entry($json, &$value)? }
    };
    (@rest_entries open $serializer:ident $map:ident $self:ident) => {
        $self.extra.write_entries::<$serializer, _>(&mut $map)?
    };
    (@rest_entries typed $serializer:ident $map:ident $self:ident) => {
        for (name, value) in &$self.extra {
            $map.serialize_entry(name, value)?;
        }
    };
    // `Validate` from the same rows: each field's value with its seed at its key, in order,
    // then the object assertions, then the undeclared properties a typed rest reads.
    (@validate $name:ident; $($check:expr)?; [$($kind:ident $field:ident $json:literal ($($seed:expr)?);)*]; $rest:ident $(($rest_seed:expr))?) => {
        impl $crate::Validate for $name {
            fn validate_at(&self, at: &$crate::__private::validate::Path<'_>, errors: &mut $crate::ValidationErrors) {
                let _ = (&at, &errors);
                $($crate::object!(@check $kind self.$field, $json, at, errors, $crate::object!(@seed $kind $($seed)?));)*
                $($crate::__private::validate::Checks::record($check(self), at, errors);)?
                $crate::object!(@check_rest $rest $(($rest_seed))? self at errors);
            }
        }
    };
    (@check optional $value:expr, $json:literal, $at:ident, $errors:ident, $seed:expr) => {
        $crate::__private::validate::optional(&$seed, &$value, $at, $json, $errors)
    };
    (@check $kind:ident $value:expr, $json:literal, $at:ident, $errors:ident, $seed:expr) => {
        $crate::__private::validate::property(&$seed, &$value, $at, $json, $errors)
    };
    (@check_rest typed($seed:expr) $self:ident $at:ident $errors:ident) => {
        $crate::__private::validate::Validator::validate_value(&$crate::__private::de::MapOf($seed), &$self.extra, $at, $errors)
    };
    (@check_rest $rest:ident $self:ident $at:ident $errors:ident) => {};
    (@impl $name:ident, $map:ident, $body:block) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                // `__Visitor`: a local item's name is not hygienic, and a schema may well
                // name a type `Visitor` (`$name` then meant this struct).
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(::core::concat!("an object (", ::core::stringify!($name), ")"))
                    }
                    fn visit_map<__A: $crate::__private::serde::de::MapAccess<'de>>(self, mut $map: __A) -> ::core::result::Result<$name, __A::Error> $body
                }
                deserializer.deserialize_map(__Visitor)
            }
        }
    };
    // Without declared properties every key is undeclared.
    (@dispatch $key:ident $map:ident $extra:ident $rest:ident $(($rest_seed:expr))? []) => {
        $crate::object!(@rest $rest $(($rest_seed))? $key $map $extra [])
    };
    (@dispatch $key:ident $map:ident $extra:ident $rest:ident $(($rest_seed:expr))? [$($kind:ident $field:ident $json:literal ($($seed:expr)?);)*]) => {
        match $key.as_str() {
            $($json => $crate::__private::de::field(&mut $map, &mut $field, $json, $crate::object!(@seed $kind $($seed)?))?,)*
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
        $crate::__private::de::Nullable($crate::__private::de::Plain::new())
    };
    (@seed $kind:ident) => {
        $crate::__private::de::Plain::new()
    };
    (@seed $kind:ident $seed:expr) => {
        $seed
    };
    (@take required $field:ident $json:literal) => {
        $field.ok_or_else(|| $crate::__private::de::missing($json))?
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
        let unknown = $crate::__private::de::UnknownProperty { name: $key.as_str(), expected: &[$($json),*] };
        match $map.next_value_seed(unknown)? {}
    }};
    (@rest open $key:ident $map:ident $extra:ident [$($json:literal),*]) => {
        $crate::__private::de::extra(&mut $map, &mut $extra, $key)?
    };
    (@rest typed($seed:expr) $key:ident $map:ident $extra:ident [$($json:literal),*]) => {{
        let $key = $key.into_string();
        if $extra.contains_key(&$key) {
            return ::core::result::Result::Err($crate::__private::de::duplicate(&$key));
        }
        $extra.insert($key, $map.next_value_seed($seed)?);
    }};
}

/// A type's `schemars::JsonSchema`: its source subschema, bundled.
///
/// ```text
/// json_schema!(Name, "pointer");                // named `Name`, at `pointer` of SCHEMA_VALUE
/// json_schema!(Name, "schema name", "pointer"); // named otherwise
/// json_schema! {
///     Name;
///     named("schema name");                        // optional
///     at("pointer");
///     reference("/holder", "$ref", false, Target); // each reference, in document order
///     moved("/$defs/item");
///     resource("/properties/x");
///     edit(rename, "at", "from", "to");            // or (remove, "at", "key"),
///                                                  // or (split, "at", "from", [("key", "to")])
/// }
/// json_schema! {
///     __JsonSchemaRef0;                         // a ref target without a Rust type of its own:
///     target("schema name", "schema id");       // declared here, with its name and id,
///     at("pointer");                            // at `pointer` of SCHEMA_VALUE,
///     text("{...}");                            // or a document of its own (then at "")
///     ...
/// }
/// ```
///
/// `SCHEMA_VALUE` is the module's static holding the parsed source document (see
/// [`schema_source!`](crate::schema_source)); the rows are the lists of
/// [`bundle::Subschema`](crate::bundle::Subschema), a `reference`'s target being the type the
/// generator registers (`subschema_for::<Target>()`).
#[doc(hidden)]
#[macro_export]
macro_rules! json_schema {
    ($name:ident, $pointer:literal $(,)?) => {
        $crate::json_schema! { $name; at($pointer); }
    };
    ($name:ident, $schema_name:literal, $pointer:literal $(,)?) => {
        $crate::json_schema! { $name; named($schema_name); at($pointer); }
    };
    ($name:ident, $($schema_name:literal,)? like = $other:ty $(,)?) => {
        impl $crate::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($crate::json_schema!(@name $name $($schema_name)?))
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", ::core::stringify!($name)))
            }

            fn json_schema(generator: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                <$other as $crate::schemars::JsonSchema>::json_schema(generator)
            }
        }
    };
    ($name:ident; $(named($schema_name:literal $(,)?);)? at($pointer:literal $(,)?); $($rows:tt)*) => {
        $crate::json_schema!(@impl $name,
            $crate::json_schema!(@name $name $($schema_name)?),
            ::core::concat!(::core::module_path!(), "::", ::core::stringify!($name)),
            [], &SCHEMA_VALUE, $pointer, $($rows)*);
    };
    ($name:ident; target($schema_name:literal, $schema_id:literal $(,)?); at($pointer:literal $(,)?); $($rows:tt)*) => {
        struct $name;
        $crate::json_schema!(@impl $name, $schema_name, $schema_id, [], &SCHEMA_VALUE, $pointer, $($rows)*);
    };
    ($name:ident; target($schema_name:literal, $schema_id:literal $(,)?); text($text:literal $(,)?); $($rows:tt)*) => {
        struct $name;
        $crate::json_schema!(@impl $name, $schema_name, $schema_id, [
            static TARGET: ::std::sync::LazyLock<$crate::__private::serde_json::Value> =
                ::std::sync::LazyLock::new(|| $crate::__private::literal($text));
        ], &TARGET, "", $($rows)*);
    };
    (
        @impl $name:ident, $schema_name:expr, $schema_id:expr, [$($document_static:tt)*], $document:expr, $pointer:literal,
        $(reference($($reference:tt)*);)*
        $(moved($moved:literal $(,)?);)*
        $(resource($resource:literal $(,)?);)*
        $(edit($edit:ident, $($edit_args:tt)*);)*
    ) => {
        impl $crate::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($schema_name)
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($schema_id)
            }

            fn json_schema(generator: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                $($document_static)*
                $crate::__private::bundle::Subschema {
                    document: $document,
                    pointer: $pointer,
                    refs: &[$($crate::json_schema!(@reference $($reference)*)),*],
                    moved: &[$($moved),*],
                    resources: &[$($resource),*],
                    edits: &[$($crate::json_schema!(@edit $edit, $($edit_args)*)),*],
                }
                .json_schema(generator)
            }
        }
    };
    (@reference $holder:literal, $keyword:literal, $alone:literal, $target:ty $(,)?) => {
        $crate::__private::bundle::Ref { holder: $holder, keyword: $keyword, alone: $alone, target: |generator| generator.subschema_for::<$target>() }
    };
    (@reference $holder:literal, $target:ty $(,)?) => {
        $crate::json_schema!(@reference $holder, "$ref", false, $target)
    };
    (@edit rename, $at:literal, $from:literal, $to:literal $(,)?) => {
        $crate::__private::bundle::Edit::Rename { at: $at, from: $from, to: $to }
    };
    (@edit remove, $at:literal, $key:literal $(,)?) => {
        $crate::__private::bundle::Edit::Remove { at: $at, key: $key }
    };
    (@edit split, $at:literal, $from:literal, [$(($key:literal, $to:literal $(,)?)),* $(,)?] $(,)?) => {
        $crate::__private::bundle::Edit::Split { at: $at, from: $from, into: &[$(($key, $to)),*] }
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
#[doc(hidden)]
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

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::de::string(deserializer, $expected, |s| match s {
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
#[doc(hidden)]
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

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                let text = <::std::string::String as $crate::__private::serde::Deserialize>::deserialize(deserializer)?;
                $name::try_from(text).map_err($crate::__private::serde::de::Error::custom)
            }
        }
    };
}

/// A `const` type's value and serde impls: a string's `VALUE: &str`, any other value's
/// `value() -> &'static Value` (parsed once), with `Serialize` writing it and `Deserialize`
/// accepting only it.
///
/// ```text
/// constant!(Name, str = "text", "the constant \"text\"");
/// constant!(Name, json = "[1,2]");
/// ```
///
/// Its `Validate` is empty: a value of the type was checked when it was built.
#[doc(hidden)]
#[macro_export]
macro_rules! constant {
    ($name:ident, str = $text:literal, $expecting:literal $(,)?) => {
        impl $name {
            /// The only allowed value.
            pub const VALUE: &'static str = $text;
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str($text)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::de::string(deserializer, $expecting, |s| (s == $text).then_some($name))
            }
        }

        $crate::always_valid!($name);
    };
    ($name:ident, json = $json:literal $(,)?) => {
        impl $name {
            /// The only allowed value.
            pub fn value() -> &'static $crate::__private::serde_json::Value {
                static VALUE: ::std::sync::LazyLock<$crate::__private::serde_json::Value> =
                    ::std::sync::LazyLock::new(|| $crate::__private::literal($json));
                &VALUE
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                $crate::__private::serde::Serialize::serialize($name::value(), serializer)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::de::constant(deserializer, $name::value()).map(|()| $name)
            }
        }

        $crate::always_valid!($name);
    };
}

/// An `enum` of values that are not all strings: a newtype over the value, with `allowed()`
/// (parsed once), `value`/`into_value`, `TryFrom<Value>` and a `Deserialize` that accept only
/// one of them.
///
/// ```text
/// value_enum!(Name, "[1,\"a\",null]");
/// ```
///
/// Its `Validate` is empty: a value of the type was checked when it was built.
#[doc(hidden)]
#[macro_export]
macro_rules! value_enum {
    ($name:ident, $allowed:literal $(,)?) => {
        impl $name {
            /// Every allowed value, in schema order.
            pub fn allowed() -> &'static [$crate::__private::serde_json::Value] {
                static ALLOWED: ::std::sync::LazyLock<$crate::__private::serde_json::Value> =
                    ::std::sync::LazyLock::new(|| $crate::__private::literal($allowed));
                ALLOWED.as_array().map_or(&[], ::std::vec::Vec::as_slice)
            }

            pub fn value(&self) -> &$crate::__private::serde_json::Value {
                &self.0
            }

            pub fn into_value(self) -> $crate::__private::serde_json::Value {
                self.0
            }
        }

        impl ::core::convert::TryFrom<$crate::__private::serde_json::Value> for $name {
            type Error = $crate::ConstraintError;
            fn try_from(value: $crate::__private::serde_json::Value) -> ::core::result::Result<Self, Self::Error> {
                match $crate::__private::check::one_of_values(&value, $name::allowed()) {
                    ::core::result::Result::Ok(()) => ::core::result::Result::Ok($name(value)),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err($crate::ConstraintError::new(e.message())),
                }
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::de::any_value(deserializer)?;
                <$name as ::core::convert::TryFrom<_>>::try_from(value).map_err($crate::__private::serde::de::Error::custom)
            }
        }

        $crate::always_valid!($name);
    };
}

/// A newtype's `Deserialize`: its value read with `SEED` (schemac's integer, number and map
/// seeds, where serde's own would accept what the schema rejects).
///
/// ```text
/// newtype!(Name, SEED);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! newtype {
    ($name:ident, $seed:expr $(,)?) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::serde::de::DeserializeSeed::deserialize($seed, deserializer).map($name)
            }
        }
    };
}

/// A newtype over a value with assertions, whose constructor checks them: `get`,
/// `into_inner`, `TryFrom<Inner>` (with `CHECK`, a function of `&Inner` returning the first
/// violation) and a `Deserialize` that reads with `SEED`, then checks the value read.
///
/// ```text
/// constrained_newtype!(Name, Inner, SEED, CHECK);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! constrained_newtype {
    ($name:ident, $inner:ty, $seed:expr, $check:expr $(,)?) => {
        impl $name {
            pub fn get(&self) -> &$inner {
                &self.0
            }

            pub fn into_inner(self) -> $inner {
                self.0
            }
        }

        impl ::core::convert::TryFrom<$inner> for $name {
            type Error = $crate::__private::assert::Violation;
            fn try_from(value: $inner) -> ::core::result::Result<Self, Self::Error> {
                let check = $check;
                $crate::__private::validate::Checks::first(check(&value)).map(|()| $name(value))
            }
        }

        $crate::newtype!($name, $crate::__private::de::Assert::new($seed, $check));
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
#[doc(hidden)]
#[macro_export]
macro_rules! one_of {
    ($name:ident; $($variant:ident $(($seed:expr $(,)?))?;)+) => {
        $crate::one_of!(@impl $name; $($variant($crate::__row_seed!($($seed)?));)+);
    };
    (@impl $name:ident; $($variant:ident($seed:expr);)+) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::de::any_value(deserializer)?;
                let mut found = ::core::option::Option::None;
                let mut matches = 0usize;
                let mut unrepresentable = ::core::option::Option::None;
                let mut failures = ::std::vec::Vec::new();
                $(
                    match $crate::__private::de::nested::<_, $crate::__private::serde_json::Error>($seed, &value) {
                        ::core::result::Result::Ok(v) => {
                            matches += 1;
                            if found.is_none() {
                                found = ::core::option::Option::Some($name::$variant(v));
                            }
                        }
                        ::core::result::Result::Err(error) if $crate::__private::de::unrepresentable(&error) => {
                            matches += 1;
                            unrepresentable = ::core::option::Option::Some(::std::string::ToString::to_string(&error));
                        }
                        ::core::result::Result::Err(error) => failures.push((::core::stringify!($variant), error)),
                    }
                )+
                match (matches, found, unrepresentable) {
                    (1, ::core::option::Option::Some(v), _) => ::core::result::Result::Ok(v),
                    (1, ::core::option::Option::None, ::core::option::Option::Some(error)) => {
                        ::core::result::Result::Err($crate::__private::serde::de::Error::custom(error))
                    }
                    (0, _, _) => ::core::result::Result::Err($crate::__private::de::no_branch(
                        ::core::concat!("matches none of the oneOf branches of ", ::core::stringify!($name)),
                        &failures,
                    )),
                    _ => ::core::result::Result::Err($crate::__private::serde::de::Error::custom(::core::concat!(
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
        $crate::__serialize_variants!($name; $($variant)+);
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
#[doc(hidden)]
#[macro_export]
macro_rules! first_match {
    ($name:ident; $($variant:ident $(($seed:expr $(,)?))?;)+) => {
        $crate::first_match!(@impl $name; $($variant($crate::__row_seed!($($seed)?));)+);
    };
    (@impl $name:ident; $($variant:ident($seed:expr);)+) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::de::any_value(deserializer)?;
                let mut failures = ::std::vec::Vec::new();
                $(
                    match $crate::__private::de::nested::<_, $crate::__private::serde_json::Error>($seed, &value) {
                        ::core::result::Result::Ok(v) => return ::core::result::Result::Ok($name::$variant(v)),
                        ::core::result::Result::Err(error) => failures.push((::core::stringify!($variant), error)),
                    }
                )+
                ::core::result::Result::Err($crate::__private::de::no_branch(
                    ::core::concat!("matches none of the variants of ", ::core::stringify!($name)),
                    &failures,
                ))
            }
        }
        $crate::__validate_variants!($name; $($variant($seed);)+);
        $crate::__serialize_variants!($name; $($variant)+);
    };
}

/// The `Deserialize` of a union whose branches take distinct JSON kinds: streaming, each kind
/// the deserializer reports going to its branch's seed (`null`, `boolean`, `integer` for
/// `visit_i64` and `visit_u64`, `float`, `number` for both, `string`, `array`, `object`; `none` for a
/// variant no kind goes to, which only its `Validate` reads).
///
/// ```text
/// by_kind! { Name; KIND(Variant, SEED); KIND(Variant); ... }
/// by_kind! { Name; "what it expects"; KIND(Variant, SEED); ... }
/// ```
///
/// What it expects is, unless given, the kinds of its rows in their order ("a boolean or an
/// integer or a number": `number` is both numeric kinds), which the rows list in the order
/// `null`, `boolean`, `integer`/`number`, `float`, `string`, `array`, `object`, then `none`.
///
/// A row without `SEED` reads the variant's type with its own `Deserialize` (`Float` for
/// `number` and `float`). The type's `Validate` checks the variant's value with its seed
/// ([`Validator`](crate::validate::Validator)).
#[doc(hidden)]
#[macro_export]
macro_rules! by_kind {
    ($name:ident; $($visit:ident($variant:ident $(, $seed:expr)? $(,)?);)+) => {
        $crate::by_kind! {
            $name;
            // Each kind as " or " and its words; the first separator is cut off.
            (&::core::concat!($($crate::by_kind!(@words $visit)),+)[" or ".len()..]);
            $($visit($variant $(, $seed)?);)+
        }
    };
    ($name:ident; $expecting:expr; $($visit:ident($variant:ident $(, $seed:expr)? $(,)?);)+) => {
        $crate::by_kind!(@impl $name; $expecting; $($visit($variant, $crate::by_kind!(@seed $visit $($seed)?));)+);
        $crate::__validate_variants!($name; $($variant($crate::by_kind!(@seed $visit $($seed)?));)+);
        $crate::__serialize_variants!($name; $($variant)+);
    };
    (@words null) => { " or null" };
    (@words boolean) => { " or a boolean" };
    (@words integer) => { " or an integer" };
    (@words number) => { " or an integer or a number" };
    (@words float) => { " or a number" };
    (@words string) => { " or a string" };
    (@words array) => { " or an array" };
    (@words object) => { " or an object" };
    (@words none) => { "" };
    // A row without a seed reads its variant's type with its own `Deserialize` (a number as
    // `Float`).
    (@seed number) => {
        $crate::__private::de::Float::new()
    };
    (@seed float) => {
        $crate::__private::de::Float::new()
    };
    (@seed $visit:ident) => {
        $crate::__private::de::Plain::new()
    };
    (@seed $visit:ident $seed:expr) => {
        $seed
    };
    (@impl $name:ident; $expecting:expr; $($visit:ident($variant:ident, $seed:expr);)+) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                // `__Visitor`: a local item's name is not hygienic, and a schema may well
                // name a type `Visitor` (`$name` then meant this struct).
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str($expecting)
                    }
                    $($crate::by_kind!(@visit $visit $name $variant $seed);)+
                }
                deserializer.deserialize_any(__Visitor)
            }
        }
    };
    // A variant no kind goes to (a later numeric branch): only its `Validate` reads the row.
    (@visit none $name:ident $variant:ident $seed:expr) => {};
    (@visit null $name:ident $variant:ident $seed:expr) => {
        fn visit_unit<__E: $crate::__private::serde::de::Error>(self) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(()))
                .map($name::$variant)
        }
    };
    (@visit boolean $name:ident $variant:ident $seed:expr) => {
        fn visit_bool<__E: $crate::__private::serde::de::Error>(self, v: bool) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit integer $name:ident $variant:ident $seed:expr) => {
        fn visit_i64<__E: $crate::__private::serde::de::Error>(self, v: i64) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
        fn visit_u64<__E: $crate::__private::serde::de::Error>(self, v: u64) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit number $name:ident $variant:ident $seed:expr) => {
        $crate::by_kind!(@visit integer $name $variant $seed);
        $crate::by_kind!(@visit float $name $variant $seed);
    };
    (@visit float $name:ident $variant:ident $seed:expr) => {
        fn visit_f64<__E: $crate::__private::serde::de::Error>(self, v: f64) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit string $name:ident $variant:ident $seed:expr) => {
        fn visit_str<__E: $crate::__private::serde::de::Error>(self, v: &str) -> ::core::result::Result<$name, __E> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::IntoDeserializer::<'de, __E>::into_deserializer(v))
                .map($name::$variant)
        }
    };
    (@visit array $name:ident $variant:ident $seed:expr) => {
        fn visit_seq<__A: $crate::__private::serde::de::SeqAccess<'de>>(self, seq: __A) -> ::core::result::Result<$name, __A::Error> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::value::SeqAccessDeserializer::new(seq)).map($name::$variant)
        }
    };
    (@visit object $name:ident $variant:ident $seed:expr) => {
        fn visit_map<__A: $crate::__private::serde::de::MapAccess<'de>>(self, map: __A) -> ::core::result::Result<$name, __A::Error> {
            $crate::__private::serde::de::DeserializeSeed::deserialize($seed, $crate::__private::serde::de::value::MapAccessDeserializer::new(map)).map($name::$variant)
        }
    };
}

/// A union's `Validate`: the value of whichever variant it is, checked with that variant's
/// seed ([`Validator`](crate::validate::Validator)). For [`by_kind!`](crate::by_kind) and the
/// other union macros; a variant that takes several JSON kinds has a row for each, the first
/// of which checks it.
#[doc(hidden)]
#[doc(hidden)]
#[macro_export]
macro_rules! __validate_variants {
    ($name:ident; $($variant:ident($seed:expr);)+) => {
        impl $crate::Validate for $name {
            #[allow(unreachable_patterns)]
            fn validate_at(&self, at: &$crate::__private::validate::Path<'_>, errors: &mut $crate::ValidationErrors) {
                match self {
                    $($name::$variant(v) => $crate::__private::validate::Validator::validate_value(&$seed, v, at, errors),)+
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }
        }
    };
}

/// A union row's seed: the one it names, or, when it names none, its variant's type read with
/// its own `Deserialize`. For [`one_of!`](crate::one_of) and
/// [`first_match!`](crate::first_match).
#[doc(hidden)]
#[doc(hidden)]
#[macro_export]
macro_rules! __row_seed {
    () => {
        $crate::__private::de::Plain::new()
    };
    ($seed:expr) => {
        $seed
    };
}

/// A union's `Serialize`: the value of whichever variant it is, as serde's `untagged` writes
/// it. For the union macros; a variant with a row for each of several JSON kinds is named more
/// than once, and its first arm writes it.
#[doc(hidden)]
#[doc(hidden)]
#[macro_export]
macro_rules! __serialize_variants {
    ($name:ident; $($variant:ident)+) => {
        impl $crate::__private::serde::Serialize for $name {
            #[allow(unreachable_patterns)]
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                match self {
                    $($name::$variant(v) => $crate::__private::serde::Serialize::serialize(v, serializer),)+
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
#[doc(hidden)]
#[macro_export]
macro_rules! schema_source {
    ($text:literal $(,)?) => {
        /// The source schema file, byte for byte.
        pub const SCHEMA_JSON: &str = $text;

        /// [`SCHEMA_JSON`], parsed on first use.
        static SCHEMA_VALUE: ::std::sync::LazyLock<$crate::__private::serde_json::Value> =
            ::std::sync::LazyLock::new(|| $crate::__private::literal(SCHEMA_JSON));

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
#[doc(hidden)]
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

/// A `Value` fallback's `check`, `value`, `into_value`, `TryFrom<Value>` and `Deserialize`
/// (the value buffered, then checked), over its check functions (a [`check_fns!`](crate::check_fns)
/// row each, the first the schema's root).
///
/// ```text
/// checked! { Name; check_0(|v| all_of(v, &[Self::check_1])); check_1(|v| never(v)); }
/// ```
///
/// Its `Validate` is empty: a value of the type was checked when it was built.
#[doc(hidden)]
#[macro_export]
macro_rules! checked {
    ($name:ident; $root:ident(|$($rp:tt),+| $($rbody:tt)+); $($f:ident(|$($p:tt),+| $($body:tt)+);)*) => {
        impl $name {
            /// Checks `value` against the schema, with the pointer of the first failure.
            pub fn check(value: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
                $name::$root(value)
            }

            pub fn value(&self) -> &$crate::__private::serde_json::Value {
                &self.0
            }

            pub fn into_value(self) -> $crate::__private::serde_json::Value {
                self.0
            }

            $crate::check_fns!(@fn $root($($rp),+) $($rbody)+);
            $($crate::check_fns!(@fn $f($($p),+) $($body)+);)*
        }

        impl ::core::convert::TryFrom<$crate::__private::serde_json::Value> for $name {
            type Error = $crate::__private::check::CheckError;
            fn try_from(value: $crate::__private::serde_json::Value) -> ::core::result::Result<Self, Self::Error> {
                $name::check(&value).map(|()| $name(value))
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::de::any_value(deserializer)?;
                $name::check(&value).map_err($crate::__private::check::CheckError::into_de_error)?;
                ::core::result::Result::Ok($name(value))
            }
        }

        $crate::always_valid!($name);
    };
}

/// A refinement's `check`, `get`, `into_inner`, `TryFrom<Base>` and `Deserialize` (read with
/// `SEED`, then its JSON form checked), over its check functions (a
/// [`check_fns!`](crate::check_fns) row each, the first the root of the keywords the base type
/// does not hold).
///
/// ```text
/// refined! { type Name = Base; let seed = SEED; check_0(|v| ...); ... }
/// ```
///
/// Its `Validate` is empty: a value of the type was checked when it was built.
#[doc(hidden)]
#[macro_export]
macro_rules! refined {
    (type $name:ident = $base:ty; let seed = $seed:expr; $root:ident(|$($rp:tt),+| $($rbody:tt)+); $($f:ident(|$($p:tt),+| $($body:tt)+);)*) => {
        impl $name {
            /// Checks the keywords the type does not hold (`value` is the JSON form of a value of
            /// the base type), with the pointer of the first failure.
            pub fn check(value: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
                $name::$root(value)
            }

            pub fn get(&self) -> &$base {
                &self.0
            }

            pub fn into_inner(self) -> $base {
                self.0
            }

            $crate::check_fns!(@fn $root($($rp),+) $($rbody)+);
            $($crate::check_fns!(@fn $f($($p),+) $($body)+);)*
        }

        impl ::core::convert::TryFrom<$base> for $name {
            type Error = $crate::__private::check::CheckError;
            fn try_from(value: $base) -> ::core::result::Result<Self, Self::Error> {
                $crate::__private::check::refine(&value, $name::check).map(|()| $name(value))
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::serde::de::DeserializeSeed::deserialize($seed, deserializer)?;
                $crate::__private::check::refine(&value, $name::check).map_err($crate::__private::check::CheckError::into_de_error)?;
                ::core::result::Result::Ok($name(value))
            }
        }

        $crate::always_valid!($name);
    };
}

/// The check functions of [`checked!`](crate::checked) and [`refined!`](crate::refined), an
/// associated function per row.
///
/// ```text
/// check_N(|v| callee(v, ..));     // fn check_N(v: &Value) -> Result<(), CheckError>
/// check_N(|v| callee::<T>(v));    // the same, with a type (`plain::<T>`, `nullable::<T>`)
/// check_N(|v| path::to(v, ..));   // the same, any expression as the body
/// eval_N(|v, seen| { .. });       // fn eval_N(v: &Value, seen: &mut Evaluated) -> ..., then Ok(())
/// ```
///
/// A body that is a call of a bare name calls that function of [`check`](crate::check)
/// (`all_of`, `object`, `typed`, ...). A parameter the body does not use is written `_`.
#[doc(hidden)]
#[macro_export]
macro_rules! check_fns {
    (@fn $f:ident($v:tt) $callee:ident($($arg:tt)*)) => {
        fn $f($v: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
            $crate::__private::check::$callee($($arg)*)
        }
    };
    // prettyplease ends a turbofish it wraps with a comma (`plain::<\n    LongName,\n>(v)`).
    (@fn $f:ident($v:tt) $callee:ident::<$ty:ty $(,)?>($($arg:tt)*)) => {
        fn $f($v: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
            $crate::__private::check::$callee::<$ty>($($arg)*)
        }
    };
    (@fn $f:ident($v:tt) $body:expr) => {
        fn $f($v: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
            $body
        }
    };
    (@fn $f:ident($v:tt, $seen:tt) $body:expr) => {
        fn $f(
            $v: &$crate::__private::serde_json::Value,
            $seen: &mut $crate::__private::check::Evaluated,
        ) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
            $body;
            ::core::result::Result::Ok(())
        }
    };
}

/// The `false` schema's `check`, `TryFrom<Value>` and `Deserialize`, for its enum without
/// variants: every value fails.
///
/// ```text
/// never!(Name);
/// ```
///
/// Its `Validate` is empty: a value of the type was checked when it was built.
#[doc(hidden)]
#[macro_export]
macro_rules! never {
    ($name:ident $(,)?) => {
        impl $name {
            /// Fails for every value: the schema allows none.
            pub fn check(value: &$crate::__private::serde_json::Value) -> ::core::result::Result<(), $crate::__private::check::CheckError> {
                $crate::__private::check::never(value)
            }
        }

        impl ::core::convert::TryFrom<$crate::__private::serde_json::Value> for $name {
            type Error = $crate::__private::check::CheckError;
            fn try_from(value: $crate::__private::serde_json::Value) -> ::core::result::Result<Self, Self::Error> {
                $name::check(&value)
                    .and_then(|()| ::core::result::Result::Err($crate::__private::check::CheckError::new("no value is allowed here")))
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                let value = $crate::__private::de::any_value(deserializer)?;
                $name::try_from(value).map_err($crate::__private::check::CheckError::into_de_error)
            }
        }

        $crate::always_valid!($name);
    };
}

/// A tuple struct's `Serialize` and `Deserialize`, as a JSON array read in one pass: each
/// leading item with its seed (missing ones an invalid length), then the rest (`rest(SEED)`,
/// into the last field, a `Vec`) or nothing more (`closed`, an item after the leading ones is
/// an error).
///
/// ```text
/// tuple! { Name; "an array of exactly 2 items (Name)"; closed; item0(SEED); item1(SEED); }
/// tuple! { Name; "an array of at least 1 items (Name)"; rest(SEED); item0(SEED); }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! tuple {
    ($name:ident; $what:literal; closed; $($item:ident($seed:expr $(,)?);)+) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeSeq as _;
                let $name($($item),+) = self;
                let mut seq = serializer.serialize_seq(::core::option::Option::Some([$(::core::stringify!($item)),+].len()))?;
                $(seq.serialize_element($item)?;)+
                seq.end()
            }
        }

        $crate::tuple!(@de $name $what [$($item($seed))+] seq len {
            if let ::core::option::Option::Some(never) = seq.next_element_seed($crate::__private::de::ExtraItem { count: len })? {
                match never {}
            }
            ::core::result::Result::Ok($name($($item),+))
        });
    };
    ($name:ident; $what:literal; rest($rest:expr $(,)?); $($item:ident($seed:expr $(,)?);)+) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeSeq as _;
                let $name($($item,)+ rest) = self;
                let mut seq = serializer.serialize_seq(::core::option::Option::Some([$(::core::stringify!($item)),+].len() + rest.len()))?;
                $(seq.serialize_element($item)?;)+
                for item in rest {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
        }

        $crate::tuple!(@de $name $what [$($item($seed))+] seq len {
            let _ = len;
            let mut rest = ::std::vec::Vec::new();
            while let ::core::option::Option::Some(item) = seq.next_element_seed($rest)? {
                rest.push(item);
            }
            ::core::result::Result::Ok($name($($item,)+ rest))
        });
    };
    (@de $name:ident $what:literal [$($item:ident($seed:expr))+] $seq:ident $len:ident { $($end:tt)* }) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_seq<__A: $crate::__private::serde::de::SeqAccess<'de>>(self, mut $seq: __A) -> ::core::result::Result<$name, __A::Error> {
                        let mut $len = 0usize;
                        $(
                            let ::core::option::Option::Some($item) = $seq.next_element_seed($seed)? else {
                                return ::core::result::Result::Err($crate::__private::serde::de::Error::invalid_length($len, &self));
                            };
                            $len += 1;
                        )+
                        $($end)*
                    }
                }
                deserializer.deserialize_seq(__Visitor)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use std::sync::LazyLock;

    use crate::check::{CheckError, Kind};
    use crate::schemars::SchemaGenerator;

    static SCHEMA_VALUE: LazyLock<Value> = LazyLock::new(
        || json!({"$defs": {"small": {"type": "integer", "maximum": 9}, "list": {"items": {"$ref": "#/$defs/small"}, "maximum": 5, "title": "gone"}}}),
    );

    /// An object whose only property is `a`, an integer.
    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    #[serde(transparent)]
    struct Loose(Value);

    crate::checked! {
        Loose;
        check_0(|v| all_of(v, &[Self::check_1, Self::check_2]));
        check_1(|v| all_of(v, &[Self::check_4, Self::check_5]));
        check_4(|v| kinds(v, &[Kind::Object]));
        // A turbofish prettyplease wrapped ends with a comma (issue 22: real schemas' long names).
        check_5(|v| nullable::<
            std::collections::BTreeMap<String, i64>,
        >(v));
        check_2(|v| unevaluated_properties(v, Self::eval_0, Self::check_3));
        check_3(|v| never(v));
        eval_0(|_, seen| { seen.properties(&["a"]); });
    }

    /// An `i64` other than 3.
    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    #[serde(transparent)]
    struct NotThree(i64);

    crate::refined! {
        type NotThree = i64;
        let seed = crate::de::Plain::<i64>::new();
        check_0(|v| not(v, Self::check_1));
        check_1(|v| {
            static VALUE: LazyLock<Value> = LazyLock::new(|| json!(3));
            crate::check::constant(v, &VALUE)
        });
    }

    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    enum Nothing {}

    crate::never!(Nothing);

    #[derive(Clone, Debug, PartialEq)]
    struct Pair(f64, String);

    crate::tuple! {
        Pair;
        "an array of exactly 2 items (Pair)";
        closed;
        item0(crate::de::Float::new());
        item1(crate::de::Plain::<String>::new());
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Row(String, Vec<bool>);

    crate::tuple! {
        Row;
        "an array of at least 1 items (Row)";
        rest(crate::de::Plain::<bool>::new());
        item0(crate::de::Plain::<String>::new());
    }

    crate::json_schema! {
        __JsonSchemaRef0;
        target("small", "test#/$defs/small");
        at("/$defs/small");
    }
    crate::json_schema! {
        __JsonSchemaRef1;
        target("list", "test#/$defs/list");
        at("/$defs/list");
        reference("/items", __JsonSchemaRef0);
        edit(rename, "", "maximum", "exclusiveMaximum");
        edit(remove, "", "title");
    }
    crate::json_schema! {
        __JsonSchemaRef2;
        target("other", "other.json#");
        text(r#"{"type": "string"}"#);
    }

    /// Structs whose `Serialize` is `object!`'s: closed, open and with a typed rest.
    #[derive(Debug, PartialEq)]
    struct Closed {
        id: u64,
        note: Option<String>,
        gone: crate::Tristate<u8>,
    }

    crate::object! {
        Closed;
        closed;
        required(id, "id");
        optional(note, "note");
        tristate(gone, "gone");
    }

    #[derive(Debug, PartialEq)]
    struct Open {
        id: u64,
        note: Option<String>,
        extra: crate::Extra,
    }

    crate::object! {
        Open;
        open;
        required(id, "id");
        optional(note, "note");
    }

    #[derive(Debug, PartialEq)]
    struct Typed {
        id: u64,
        extra: std::collections::BTreeMap<String, bool>,
    }

    crate::object! {
        Typed;
        typed(crate::de::Plain::<bool>::new());
        required(id, "id");
    }

    /// A union by kind whose rows say what it expects.
    #[derive(Debug, PartialEq)]
    enum Scalar {
        Flag(bool),
        Count(f64),
        Text(String),
        Later(f64),
    }

    crate::by_kind! {
        Scalar;
        boolean(Flag);
        number(Count);
        string(Text);
        none(Later, crate::de::Float::new());
    }

    fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
        crate::from_str::<T>(text).unwrap_err().to_string()
    }

    #[test]
    fn object_writes_what_serde_derives_would() {
        for (document, written) in [
            (r#"{"id":1}"#, r#"{"id":1}"#),
            (r#"{"gone":null,"id":2}"#, r#"{"id":2,"gone":null}"#),
            (r#"{"note":"n","gone":7,"id":3}"#, r#"{"id":3,"note":"n","gone":7}"#),
        ] {
            let value: Closed = crate::from_str(document).unwrap();
            assert_eq!(text(&value), written);
            assert_eq!(serde_json::to_value(&value).unwrap(), serde_json::from_str::<Value>(written).unwrap());
        }
        // Declared properties first, then the kept ones in name order, their text exact.
        let open: Open = crate::from_str(r#"{"z": [1.50], "id": 1, "a": true}"#).unwrap();
        assert_eq!(text(&open), r#"{"id":1,"a":true,"z":[1.50]}"#);
        let typed: Typed = crate::from_str(r#"{"b": true, "id": 1, "a": false}"#).unwrap();
        assert_eq!(text(&typed), r#"{"id":1,"a":false,"b":true}"#);
    }

    fn text<T: serde::Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[test]
    fn a_union_by_kind_expects_the_kinds_of_its_rows() {
        assert_eq!(crate::from_str::<Scalar>("true").unwrap(), Scalar::Flag(true));
        assert_eq!(crate::from_str::<Scalar>("3").unwrap(), Scalar::Count(3.0));
        assert_eq!(error::<Scalar>("null"), "(root): invalid type: null, expected a boolean or an integer or a number or a string");
        assert!(crate::Validate::validate(&Scalar::Later(1.0)).is_ok());
    }

    #[test]
    fn a_checked_value_is_read_and_built_through_its_checks() {
        let loose: Loose = crate::from_str(r#"{"a": 1}"#).unwrap();
        assert_eq!(loose.value(), &json!({"a": 1}));
        assert_eq!(error::<Loose>(r#"{"a": [1]}"#), "/a: invalid type: sequence, expected i64");
        assert_eq!(Loose::try_from(json!({})).unwrap().into_value(), json!({}));
        assert_eq!(error::<Loose>(r#"{"a": 1, "b": 2}"#), "/b: unevaluated property `b`: no value is allowed here (the schema is `false`)");
        let failure: CheckError = Loose::try_from(json!(7)).unwrap_err();
        assert_eq!(failure.to_string(), "(root): expected object, found a number");
        assert_eq!(Loose::check(&json!(7)), Err(failure));
    }

    #[test]
    fn a_refinement_checks_the_json_form_of_its_base() {
        assert_eq!(crate::from_str::<NotThree>("4").unwrap().get(), &4);
        assert_eq!(NotThree::try_from(5).unwrap().into_inner(), 5);
        assert!(NotThree::try_from(3).is_err());
        assert!(error::<NotThree>("3").starts_with("(root): "), "{}", error::<NotThree>("3"));
        assert!(error::<NotThree>("\"3\"").contains("expected i64"), "{}", error::<NotThree>("\"3\""));
    }

    #[test]
    fn the_false_schema_takes_nothing() {
        assert_eq!(error::<Nothing>("null"), "(root): no value is allowed here (the schema is `false`)");
        assert_eq!(Nothing::try_from(json!({})).unwrap_err().message(), "no value is allowed here (the schema is `false`)");
    }

    #[test]
    fn a_tuple_is_its_array() {
        let pair: Pair = crate::from_str(r#"[1.5, "a"]"#).unwrap();
        assert_eq!(pair, Pair(1.5, "a".to_owned()));
        assert_eq!(serde_json::to_value(&pair).unwrap(), json!([1.5, "a"]));
        assert_eq!(error::<Pair>("[1]"), "(root): invalid length 1, expected an array of exactly 2 items (Pair)");
        assert!(error::<Pair>(r#"[1, "a", 2]"#).contains("no item is allowed after the first 2"), "{}", error::<Pair>(r#"[1, "a", 2]"#));
        let row: Row = crate::from_str(r#"["r", true, false]"#).unwrap();
        assert_eq!(row, Row("r".to_owned(), vec![true, false]));
        assert_eq!(serde_json::to_value(&row).unwrap(), json!(["r", true, false]));
        assert_eq!(error::<Row>("[]"), "(root): invalid length 0, expected an array of at least 1 items (Row)");
        assert_eq!(error::<Row>(r#"["r", 1]"#), "/1: invalid type: integer `1`, expected a boolean");
    }

    #[test]
    fn a_reference_target_without_a_type_is_registered_by_name() {
        let mut generator = SchemaGenerator::default();
        assert_eq!(generator.subschema_for::<__JsonSchemaRef1>().to_value(), json!({"$ref": "#/$defs/list"}));
        assert_eq!(generator.subschema_for::<__JsonSchemaRef2>().to_value(), json!({"$ref": "#/$defs/other"}));
        let definitions = generator.definitions();
        assert_eq!(definitions["list"], json!({"items": {"$ref": "#/$defs/small"}, "exclusiveMaximum": 5}));
        assert_eq!(definitions["small"], json!({"type": "integer", "maximum": 9}));
        assert_eq!(definitions["other"], json!({"type": "string"}));
    }
}
