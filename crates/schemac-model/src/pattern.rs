//! ECMA-262 `pattern`s: whether a pattern is a valid regular expression of the `u` flag (the
//! strict grammar, code points rather than UTF-16 units), as `regress`, the reference engine,
//! reads it; an invalid one is an error with the usual cause as its hint.

use std::fmt;

/// A `pattern` that is not a valid ECMA-262 regular expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PatternError {}

/// Checks `source` as an ECMA-262 (`u` flag) regular expression.
pub fn validate(source: &str) -> Result<(), PatternError> {
    match regress::Regex::with_flags(source, "u") {
        Ok(_) => Ok(()),
        Err(err) => {
            Err(PatternError { message: format!("`{source}` is not a valid ECMA-262 regular expression: {err}"), hint: hint(&err.text) })
        }
    }
}

/// The usual cause of each `regress` error, for schemas written with other dialects in mind.
fn hint(error: &str) -> Option<String> {
    let hint = match error {
        "Invalid character escape" => {
            "with the `u` flag only `^$\\.*+?()[]{}|/` may be escaped (and `-` inside `[...]`); \
             write other characters unescaped"
        }
        "Invalid quantifier" => "a quantifier is `{n}`, `{n,}` or `{n,m}` with n <= m; a literal `{` is written `\\{`",
        "Invalid atom character" => {
            "a quantifier must follow something to repeat; a literal `}` or `]` is written \
             `\\}` or `\\]`"
        }
        "Invalid group modifier" => "inline flags such as `(?i)` are not ECMA-262; use `[aA]`",
        "Invalid property name" => "property names are case-sensitive, and scripts need a prefix: `\\p{Script=Greek}`",
        _ => return None,
    };
    Some(hint.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_invalid_ecma() {
        let cases: &[(&str, Option<&str>)] = &[
            ("(", None),
            ("a{,3}", Some("`\\{`")),
            ("a{", Some("`\\{`")),
            ("x{2,1}", Some("n <= m")),
            ("]", Some("`\\]`")),
            ("a**", Some("something to repeat")),
            (r"\-", Some("may be escaped")),
            (r"\a", Some("may be escaped")),
            (r"\p{Greek}", Some("Script=")),
            (r"(?i)a", Some("[aA]")),
            (r"[z-a]", None),
        ];
        for &(pattern, hint) in cases {
            let err = validate(pattern).expect_err(pattern);
            assert!(err.message.contains(pattern), "{pattern}: {}", err.message);
            if let Some(needle) = hint {
                assert!(err.hint.as_deref().unwrap_or("").contains(needle), "{pattern}: {err}");
            }
        }
    }
}
