//! Releases: the version a change of the schemas requires, the committed baseline of the last
//! released schema set, the version rule `check` holds the crate to, and `release`, which
//! bumps, writes the changelog and refreshes the baseline.

use schemac::diff::{Bump, Report, Role};

/// A `MAJOR.MINOR.PATCH` version as three numbers, for comparing.
pub(crate) fn parse_version(version: &str) -> Option<(u64, u64, u64)> {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().ok());
    let parsed = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(parsed)
}

/// The bump a diff requires of a crate that promises compatibility to `role`: the larger of
/// the wire class for that role and the Rust API class.
pub fn required_bump(report: &Report, role: Role) -> Bump {
    report.bump(role)
}

/// The version the crate needs after `released`, given the diff since: `released` bumped by
/// [`required_bump`], Cargo's way (while the major is 0, a breaking change bumps the minor,
/// anything else the patch). `None` when `released` is not `MAJOR.MINOR.PATCH`.
pub fn required_version(released: &str, report: &Report, role: Role) -> Option<String> {
    required_bump(report, role).apply(released)
}

/// Whether `version` is at least `needed` (both `MAJOR.MINOR.PATCH`; anything else is not).
pub fn satisfies(version: &str, needed: &str) -> bool {
    matches!((parse_version(version), parse_version(needed)), (Some(v), Some(n)) if v >= n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac::diff::{Change, ChangeKind, Effect};

    fn report(effect: Effect) -> Report {
        let change = Change { kind: ChangeKind::BoundTightened, old: None, new: None, effect, detail: String::new(), witness: None };
        Report { changes: vec![change], ..Report::default() }
    }

    /// A tightened bound breaks readers only; a loosened one writers only; the role decides.
    #[test]
    fn the_role_picks_the_wire_class() {
        let tightened = report(Effect::Tightens);
        assert_eq!(required_version("0.1.0", &tightened, Role::Reader).as_deref(), Some("0.2.0"));
        assert_eq!(required_version("0.1.0", &tightened, Role::Writer).as_deref(), Some("0.1.1"));
        assert_eq!(required_version("0.1.0", &tightened, Role::Both).as_deref(), Some("0.2.0"));
        let loosened = report(Effect::Loosens);
        assert_eq!(required_version("1.4.2", &loosened, Role::Reader).as_deref(), Some("1.5.0"));
        assert_eq!(required_version("1.4.2", &loosened, Role::Writer).as_deref(), Some("2.0.0"));
        assert_eq!(required_version("1.4.2", &report(Effect::Neutral), Role::Both).as_deref(), Some("1.4.3"));
        assert_eq!(required_version("1.4.2", &Report::default(), Role::Both).as_deref(), Some("1.4.2"));
        let undecided = report(Effect::Unknown("two patterns".to_owned()));
        assert_eq!(required_version("0.3.1", &undecided, Role::Writer).as_deref(), Some("0.4.0"));
    }

    /// The Rust API class counts even where the wire is compatible for the role.
    #[test]
    fn the_rust_class_counts_too() {
        let mut loosened = report(Effect::Loosens);
        let api = schemac::diff::ApiChange { path: "a::A::b".to_owned(), class: Bump::Major, detail: "`b` added".to_owned() };
        loosened.api.push(api);
        assert_eq!(required_version("0.1.0", &loosened, Role::Reader).as_deref(), Some("0.2.0"));
        assert_eq!(required_version("2.0.0", &loosened, Role::Reader).as_deref(), Some("3.0.0"));
    }

    #[test]
    fn versions_compare_as_numbers() {
        assert!(satisfies("0.10.0", "0.9.1"));
        assert!(satisfies("0.2.0", "0.2.0"));
        assert!(!satisfies("0.1.1", "0.2.0"));
        assert!(!satisfies("1.0", "0.1.0"));
        assert_eq!(required_version("1.0", &Report::default(), Role::Both), None);
    }
}
