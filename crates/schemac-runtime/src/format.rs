//! Strings with a `format`: newtypes that keep the text byte-exact (a `date-time` is never
//! re-rendered, so its offset and precision survive a round trip). `format` is an annotation
//! by default, as the specification says, so any string is accepted.
//!
//! With the `formats` feature, [`mod@assert`] checks each format (code generated with
//! `assert-formats` calls it while deserializing and in `validate()`), and the newtypes gain
//! typed accessors such as [`DateTime::parse`].

use std::fmt;

#[cfg(feature = "formats")]
pub mod assert;

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

        /// Any text: `format` is an annotation, kept as written (see the `formats` feature's
        /// `parse` for a checked reading).
        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Ok($name(text.to_owned()))
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

        crate::always_valid!($name);

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
    /// `format: idn-email`.
    IdnEmail = "idn-email";
    /// `format: idn-hostname`.
    IdnHostname = "idn-hostname";
    /// `format: iri`.
    Iri = "iri";
    /// `format: iri-reference`.
    IriReference = "iri-reference";
    /// `format: uri-template`.
    UriTemplate = "uri-template";
    /// `format: relative-json-pointer`.
    RelativeJsonPointer = "relative-json-pointer";
}

/// Typed views of a format string, for the formats where a Rust type is useful. They parse
/// with the same rules as [`assert`], so a value that passed the assertion always parses.
#[cfg(feature = "formats")]
mod typed {
    use super::assert::{self, parse_date, parse_date_time, parse_ipv4, parse_time, parse_uuid};
    use crate::assert::Violation;

    /// The violation the assertion reported, for a text that does not parse.
    fn invalid(asserted: Result<(), Violation>, text: &str) -> Violation {
        asserted.err().unwrap_or_else(|| Violation::new("format", format!("{text:?} does not parse")))
    }

    impl super::DateTime {
        /// The instant, with the offset as written. A leap second reads as the last
        /// nanosecond before it (`23:59:60` → `23:59:59.999999999`).
        pub fn parse(&self) -> Result<time::OffsetDateTime, Violation> {
            parse_date_time(&self.0).ok_or_else(|| invalid(assert::date_time(&self.0), &self.0))
        }
    }

    impl super::Date {
        pub fn parse(&self) -> Result<time::Date, Violation> {
            parse_date(&self.0).ok_or_else(|| invalid(assert::date(&self.0), &self.0))
        }
    }

    impl super::Time {
        /// The time of day and its offset; a leap second reads as in [`super::DateTime::parse`].
        pub fn parse(&self) -> Result<(time::Time, time::UtcOffset), Violation> {
            parse_time(&self.0).ok_or_else(|| invalid(assert::time(&self.0), &self.0))
        }
    }

    impl super::Uuid {
        pub fn parse(&self) -> Result<uuid::Uuid, Violation> {
            parse_uuid(&self.0).ok_or_else(|| invalid(assert::uuid(&self.0), &self.0))
        }
    }

    impl super::Ipv4 {
        pub fn parse(&self) -> Result<std::net::Ipv4Addr, Violation> {
            parse_ipv4(&self.0).ok_or_else(|| invalid(assert::ipv4(&self.0), &self.0))
        }
    }

    impl super::Ipv6 {
        pub fn parse(&self) -> Result<std::net::Ipv6Addr, Violation> {
            self.0.parse().map_err(|_| invalid(assert::ipv6(&self.0), &self.0))
        }
    }

    impl super::Uri {
        /// The URI's components, borrowed from the text.
        pub fn parse(&self) -> Result<fluent_uri::Uri<&str>, Violation> {
            fluent_uri::Uri::parse(self.0.as_str()).map_err(|_| invalid(assert::uri(&self.0), &self.0))
        }
    }

    impl super::UriReference {
        pub fn parse(&self) -> Result<fluent_uri::UriRef<&str>, Violation> {
            fluent_uri::UriRef::parse(self.0.as_str()).map_err(|_| invalid(assert::uri_reference(&self.0), &self.0))
        }
    }
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

    #[cfg(feature = "formats")]
    #[test]
    fn typed_accessors_parse_what_the_assertion_accepts() {
        let dt = DateTime::new("1998-12-31T15:59:60.123-08:00").parse().unwrap();
        assert_eq!((dt.offset().whole_hours(), dt.second(), dt.nanosecond()), (-8, 59, 999_999_999));
        assert!(DateTime::new("1998-12-31T22:59:60Z").parse().is_err());
        let (time, offset) = super::Time::new("23:59:60z").parse().unwrap();
        assert_eq!((time.hour(), offset.is_utc()), (23, true));
        assert_eq!(super::Date::new("2024-02-29").parse().unwrap().ordinal(), 60);
        assert_eq!(super::Ipv4::new("10.0.0.1").parse().unwrap(), std::net::Ipv4Addr::new(10, 0, 0, 1));
        let err = super::Ipv4::new("010.0.0.1").parse().unwrap_err();
        assert_eq!(err.message(), "\"010.0.0.1\" is not a valid ipv4 (RFC 2673 dotted quad)");
        assert_eq!(super::Uuid::new("2EB8AA08-AA98-11EA-B4AA-73B441D16380").parse().unwrap().as_u128() >> 96, 0x2eb8aa08);
        assert_eq!(super::Uri::new("http://example.com/a?b").parse().unwrap().path().as_str(), "/a");
    }
}
