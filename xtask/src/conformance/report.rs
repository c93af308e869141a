//! Verdicts per case, their totals per keyword file and draft, and `tests/conformance/REPORT.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::driver::Observed;

/// What one case came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted exactly what the suite says is valid, and round-tripped it.
    Pass,
    /// Accepted an invalid instance.
    FalseAccept,
    /// Rejected a valid instance.
    FalseReject,
    /// Accepted a valid instance but serialized it back differently.
    RoundTrip,
    /// The group's schema was rejected by schemac or its code did not build.
    NotCompiled,
    /// Deserialization panicked or crashed the driver.
    Panic,
}

/// One case and what happened to it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub id: String,
    pub description: String,
    pub valid: bool,
    /// `Err(reason)` when the group has no type to test.
    pub got: Result<Observed, String>,
}

impl CaseResult {
    pub fn verdict(&self) -> Verdict {
        let observed = match &self.got {
            Err(_) => return Verdict::NotCompiled,
            Ok(observed) => observed,
        };
        match (observed.panicked, self.valid, observed.accepted) {
            (true, _, _) => Verdict::Panic,
            (false, false, true) => Verdict::FalseAccept,
            (false, true, false) => Verdict::FalseReject,
            (false, true, true) if observed.round_trip != Some(true) => Verdict::RoundTrip,
            _ => Verdict::Pass,
        }
    }

    fn got_text(&self) -> &'static str {
        match self.verdict() {
            Verdict::Pass | Verdict::FalseAccept => "accepted",
            Verdict::FalseReject => "rejected",
            Verdict::RoundTrip => "accepted, round trip differs",
            Verdict::NotCompiled => "no type",
            Verdict::Panic => "panic",
        }
    }

    fn reason(&self) -> String {
        match &self.got {
            Err(reason) => reason.clone(),
            Ok(_) if self.verdict() == Verdict::FalseAccept => "accepted without error".to_owned(),
            Ok(observed) => observed.error.clone().unwrap_or_default(),
        }
    }
}

/// One group and its cases.
#[derive(Debug, Clone)]
pub struct GroupResult {
    pub draft: String,
    pub file: String,
    pub description: String,
    /// The root compiled to a real Rust type rather than the checked `Value` fallback.
    pub typed: bool,
    pub cases: Vec<CaseResult>,
}

/// Counts over a set of groups.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub groups: usize,
    pub typed_groups: usize,
    pub cases: usize,
    pub passed: usize,
    pub false_accepts: usize,
    pub false_rejects: usize,
    pub round_trip: usize,
    pub not_compiled: usize,
    pub panics: usize,
}

impl Tally {
    pub fn add_group(&mut self, group: &GroupResult) {
        self.groups += 1;
        self.typed_groups += usize::from(group.typed);
        for case in &group.cases {
            self.cases += 1;
            match case.verdict() {
                Verdict::Pass => self.passed += 1,
                Verdict::FalseAccept => self.false_accepts += 1,
                Verdict::FalseReject => self.false_rejects += 1,
                Verdict::RoundTrip => self.round_trip += 1,
                Verdict::NotCompiled => self.not_compiled += 1,
                Verdict::Panic => self.panics += 1,
            }
        }
    }

    fn row(&self, label: &str) -> String {
        format!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.groups,
            self.cases,
            self.passed,
            percent(self.passed, self.cases),
            self.false_accepts,
            self.false_rejects,
            self.round_trip,
            self.not_compiled,
            self.panics,
            percent(self.typed_groups, self.groups),
        )
    }
}

/// `part / whole` as a percentage with one decimal; a dash for nothing.
pub fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".to_owned();
    }
    // Integer arithmetic, so that the text cannot depend on float rounding.
    let tenths = (part * 1000 + whole / 2) / whole;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// Totals per draft, then per file within each, in suite order.
pub fn tallies(groups: &[GroupResult]) -> BTreeMap<&str, (Tally, BTreeMap<&str, Tally>)> {
    let mut out: BTreeMap<&str, (Tally, BTreeMap<&str, Tally>)> = BTreeMap::new();
    for group in groups {
        let (total, files) = out.entry(group.draft.as_str()).or_default();
        total.add_group(group);
        files.entry(group.file.as_str()).or_default().add_group(group);
    }
    out
}

/// The two parts of a draft's suite: what every validator must do, and `optional/`.
pub const PARTS: [&str; 2] = ["keyword files", "optional"];

pub fn part_of(file: &str) -> &'static str {
    if super::cases::is_optional(file) { PARTS[1] } else { PARTS[0] }
}

/// Totals by (draft, part) and by part.
pub type PartTallies<'a> = (BTreeMap<(&'a str, &'static str), Tally>, BTreeMap<&'static str, Tally>);

/// Totals per draft and part, and per part over every draft.
pub fn part_tallies(groups: &[GroupResult]) -> PartTallies<'_> {
    let mut by_draft = BTreeMap::new();
    let mut overall = BTreeMap::new();
    for group in groups {
        let part = part_of(&group.file);
        by_draft.entry((group.draft.as_str(), part)).or_insert_with(Tally::default).add_group(group);
        overall.entry(part).or_insert_with(Tally::default).add_group(group);
    }
    (by_draft, overall)
}

const COLUMNS: &str =
    "| Groups | Cases | Agree | Agreement | False accepts | False rejects | Round-trip failures | Not compiled | Panics | Typed coverage |";
const ALIGN: &str = "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|";

/// The whole of REPORT.md. Depends only on `groups` (sorted by the caller), never on time.
pub fn render(groups: &[GroupResult], source: &str) -> String {
    let tallies = tallies(groups);
    let (by_part, overall) = part_tallies(groups);
    let mut out = String::new();
    out.push_str("<!-- @generated by `cargo xtask conformance`. Do not edit by hand. -->\n\n");
    out.push_str("# Conformance with the JSON-Schema-Test-Suite\n\n");
    let _ = writeln!(out, "{source}\n");
    out.push_str(
        "Every group of the draft4, draft6, draft7, draft2019-09 and draft2020-12 keyword files and of their \
         `optional/` files is compiled with schemac; each test's instance is deserialized as the group's root type \
         with `schemac_runtime::from_value`. The groups of `optional/format/` are compiled with `format` asserted \
         (`assert_formats`); the rest, `optional/bignum` and `optional/float-overflow` among them, with the defaults. \
         A case **agrees** when deserialization succeeds exactly for the valid instances and every accepted \
         valid instance serializes back to an equal instance (the lossless round trip).\n\n\
         - **False accepts**: invalid instances that deserialized.\n\
         - **False rejects**: valid instances that were rejected.\n\
         - **Round-trip failures**: valid instances accepted but serialized back differently.\n\
         - **Not compiled**: cases of groups whose schema schemac rejects or whose generated code does not build.\n\
         - **Panics**: deserialization panicked or crashed the process.\n\
         - **Typed coverage**: the share of groups whose root type is a real Rust type, not the checked `serde_json::Value` fallback. \
         Real types include unions with a variant per JSON kind (a schema with keywords about one kind but no `type`), \
         refinements (a typed value whose JSON form is also checked for `not`, `if`, `unevaluated*`, ...) and the enum \
         without variants of `false`.\n\n",
    );
    out.push_str("## Totals\n\n");
    let _ = writeln!(out, "| Draft {COLUMNS}\n{ALIGN}");
    for (draft, (total, _)) in &tallies {
        out.push_str(&total.row(draft));
        out.push('\n');
    }
    let _ = writeln!(out, "\n| Draft, part {COLUMNS}\n{ALIGN}");
    for ((draft, part), tally) in &by_part {
        out.push_str(&tally.row(&format!("{draft}, {part}")));
        out.push('\n');
    }
    for (part, tally) in &overall {
        out.push_str(&tally.row(&format!("**all drafts, {part}**")));
        out.push('\n');
    }
    out.push_str(
        "\nEach disagreement left is listed under Disagreements; those of the optional files with the reason schemac \
         disagrees (`xtask/src/conformance/known.rs`).\n",
    );
    for (draft, (total, files)) in &tallies {
        let _ = writeln!(out, "\n## {draft}\n\n| File {COLUMNS}\n{ALIGN}");
        for (file, tally) in files {
            out.push_str(&tally.row(&format!("`{file}`")));
            out.push('\n');
        }
        out.push_str(&total.row("**total**"));
        out.push('\n');
    }
    out.push_str("\n## Disagreements\n");
    for draft in tallies.keys() {
        let _ = writeln!(out, "\n### {draft}\n\n| Case | Group | Test | Expected | Got | Error | Why |\n|---|---|---|---|---|---|---|");
        let mut any = false;
        for group in groups.iter().filter(|g| g.draft == *draft) {
            for case in group.cases.iter().filter(|c| c.verdict() != Verdict::Pass) {
                any = true;
                let why = match super::known::why(&case.id) {
                    Some(why) => why,
                    None if super::cases::is_optional(&group.file) => "not explained yet",
                    None => "",
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} | {} | {} |",
                    case.id,
                    cell(&group.description),
                    cell(&case.description),
                    if case.valid { "valid" } else { "invalid" },
                    case.got_text(),
                    cell(&case.reason()),
                    why.replace('|', "\\|"),
                );
            }
        }
        if !any {
            out.push_str("| – | none | | | | | |\n");
        }
    }
    out.push_str(
        "\n## Groups without a typed root\n\nTheir root is the checked `serde_json::Value` fallback (or the schema was not compiled): \
         the schema gives its values no shape a Rust type holds (`not`, `if` or `false` alone, tuples, \
         `allOf` parts that do not merge), so the value is kept as JSON and checked exactly.\n",
    );
    for draft in tallies.keys() {
        let _ = writeln!(out, "\n### {draft}\n\n| Group | Description |\n|---|---|");
        for group in groups.iter().filter(|g| g.draft == *draft && !g.typed) {
            let id = group.cases.first().and_then(|c| c.id.rsplit_once('/')).map_or("?", |(group, _)| group);
            let _ = writeln!(out, "| `{id}` | {} |", cell(&group.description));
        }
    }
    out
}

/// Text fit for one Markdown table cell: one line, pipes escaped, long texts cut.
fn cell(text: &str) -> String {
    const MAX: usize = 160;
    let line = super::compile::one_line(text);
    let cut: String = line.chars().take(MAX).collect();
    let cut = if cut.len() < line.len() { format!("{cut}…") } else { cut };
    cut.replace('|', "\\|").replace('`', "'")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(accepted: bool, round_trip: Option<bool>, panicked: bool) -> Result<Observed, String> {
        Ok(Observed { accepted, round_trip, error: (!accepted).then(|| "nope".to_owned()), panicked })
    }

    fn case(id: &str, valid: bool, got: Result<Observed, String>) -> CaseResult {
        CaseResult { id: id.to_owned(), description: format!("test {id}"), valid, got }
    }

    fn group(draft: &str, file: &str, typed: bool, cases: Vec<CaseResult>) -> GroupResult {
        GroupResult { draft: draft.to_owned(), file: file.to_owned(), description: "a | group".to_owned(), typed, cases }
    }

    #[test]
    fn verdicts() {
        let table = [
            (true, observed(true, Some(true), false), Verdict::Pass),
            (false, observed(false, None, false), Verdict::Pass),
            (false, observed(true, Some(true), false), Verdict::FalseAccept),
            (true, observed(false, None, false), Verdict::FalseReject),
            (true, observed(true, Some(false), false), Verdict::RoundTrip),
            // A round trip of an invalid instance that was accepted anyway is a false accept.
            (false, observed(true, Some(false), false), Verdict::FalseAccept),
            (false, observed(false, None, true), Verdict::Panic),
            (true, Err("schemac rejected the schema".to_owned()), Verdict::NotCompiled),
        ];
        for (valid, got, expected) in table {
            let c = case("x", valid, got.clone());
            assert_eq!(c.verdict(), expected, "valid={valid} got={got:?}");
        }
    }

    #[test]
    fn tallies_per_file_and_draft() {
        let groups = vec![
            group(
                "draft7",
                "type",
                true,
                vec![case("a", true, observed(true, Some(true), false)), case("b", false, observed(true, Some(true), false))],
            ),
            group("draft7", "type", false, vec![case("c", true, observed(true, Some(false), false))]),
            group("draft7", "allOf", false, vec![case("d", true, Err("no".to_owned())), case("e", false, Err("no".to_owned()))]),
            group("draft2020-12", "not", true, vec![case("f", true, observed(false, None, false))]),
        ];
        let tallies = tallies(&groups);
        let (draft7, files) = &tallies["draft7"];
        assert_eq!(
            *draft7,
            Tally { groups: 3, typed_groups: 1, cases: 5, passed: 1, false_accepts: 1, round_trip: 1, not_compiled: 2, ..Tally::default() }
        );
        assert_eq!(files.keys().copied().collect::<Vec<_>>(), ["allOf", "type"]);
        assert_eq!(files["type"].passed, 1);
        assert_eq!(tallies["draft2020-12"].0.false_rejects, 1);
        assert_eq!(draft7.row("d7"), "| d7 | 3 | 5 | 1 | 20.0% | 1 | 0 | 1 | 2 | 0 | 33.3% |");
    }

    #[test]
    fn percentages_round_half_up_without_floats() {
        assert_eq!(percent(2, 3), "66.7%");
        assert_eq!(percent(1, 8), "12.5%");
        assert_eq!(percent(7, 7), "100.0%");
        assert_eq!(percent(0, 0), "–");
    }

    #[test]
    fn lists_every_disagreement_in_order_and_is_deterministic() {
        let groups = vec![group(
            "draft7",
            "type",
            true,
            vec![
                case("draft7/type/0/0", true, observed(true, Some(true), false)),
                case("draft7/type/0/1", false, observed(true, Some(true), false)),
                case("draft7/type/0/2", true, observed(false, None, false)),
            ],
        )];
        let report = render(&groups, "From the suite.");
        assert_eq!(report, render(&groups, "From the suite."));
        let rows: Vec<&str> = report.lines().filter(|l| l.starts_with("| `draft7/")).collect();
        assert_eq!(
            rows,
            [
                "| `draft7/type/0/1` | a \\| group | test draft7/type/0/1 | invalid | accepted | accepted without error |  |",
                "| `draft7/type/0/2` | a \\| group | test draft7/type/0/2 | valid | rejected | nope |  |",
            ]
        );
        assert!(report.contains("| **total** | 1 | 3 | 1 | 33.3% | 1 | 1 | 0 | 0 | 0 | 100.0% |"), "{report}");
    }
}
