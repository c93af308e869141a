//! Strings with a `format`: newtypes that keep the text byte-exact (a `date-time` is never
//! re-rendered, so its offset and precision survive a round trip). `format` is an annotation
//! by default, as the specification says, so any string is accepted.

use std::fmt;

macro_rules! format_newtypes {
    ($($(#[$doc:meta])* $name:ident = $format:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(String);

        impl $name {
            /// The `format` keyword value this type stands for.
            pub const FORMAT: &'static str = $format;

            pub fn new(text: impl Into<String>) -> Self {
                $name(text.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                $name(text)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                $name(text.to_owned())
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl crate::Validate for $name {
            fn validate_at(&self, _: &crate::validate::Path<'_>, _: &mut crate::ValidationErrors) {}
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map($name)
            }
        }
    )*};
}

format_newtypes! {
    /// `format: date-time` (RFC 3339), kept exactly as written.
    DateTime = "date-time";
    /// `format: date` (RFC 3339 full-date).
    Date = "date";
    /// `format: time` (RFC 3339 full-time).
    Time = "time";
    /// `format: duration` (ISO 8601).
    Duration = "duration";
    /// `format: email`.
    Email = "email";
    /// `format: hostname`.
    Hostname = "hostname";
    /// `format: ipv4`.
    Ipv4 = "ipv4";
    /// `format: ipv6`.
    Ipv6 = "ipv6";
    /// `format: uri`.
    Uri = "uri";
    /// `format: uri-reference`.
    UriReference = "uri-reference";
    /// `format: uuid`.
    Uuid = "uuid";
    /// `format: json-pointer`.
    JsonPointer = "json-pointer";
    /// `format: regex`.
    Regex = "regex";
}

#[cfg(test)]
mod tests {
    use super::DateTime;

    #[test]
    fn date_times_keep_their_text() {
        let text = r#""2026-11-29T20:26:02.120+02:00""#;
        let dt: DateTime = serde_json::from_str(text).unwrap();
        assert_eq!(dt.as_str(), "2026-11-29T20:26:02.120+02:00");
        assert_eq!(serde_json::to_string(&dt).unwrap(), text);
        assert!(serde_json::from_str::<DateTime>("5").is_err());
    }
}
