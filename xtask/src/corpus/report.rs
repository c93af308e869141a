//! What each target and document came to, their totals, and `tests/corpus/REPORT.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::compile::Compiled;
use super::documents::{Format, Label};
use super::driver::{Observed, Reading};
use super::referee::Verdict;

/// One target and what happened to it.
#[derive(Debug)]
pub struct TargetResult {
    pub name: String,
    pub compiled: Compiled,
    /// Whether its module builds (`None` when nothing was generated).
    pub built: Option<Result<(), String>>,
    /// Why the referee has no validator for it, if it has none.
    pub referee: Option<String>,
    /// The URL outside the corpus it refers to (`outside-refs.tsv`), if any.
    pub outside: Option<String>,
}

impl TargetResult {
    /// Why its documents cannot be read with a generated type, if they cannot.
    pub fn not_run_reason(&self) -> Option<String> {
        match (&self.compiled, &self.built) {
            (Compiled::Rejected { reason, .. }, _) => Some(format!("not generated: {reason}")),
            (_, Some(Err(reason))) => Some(format!("not built: {reason}")),
            _ => None,
        }
    }
}

/// One document and what happened to it.
#[derive(Debug)]
pub struct DocResult {
    pub id: String,
    pub label: Label,
    pub format: Format,
    pub verdict: Verdict,
    /// What the driver observed, or why the document was not read.
    pub got: Result<Observed, String>,
}

/// What one document came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Valid and accepted and written back exactly, both ways; or invalid and rejected.
    Agrees,
    /// Valid, rejected.
    FalseReject,
    /// Invalid, accepted.
    FalseAccept,
    /// Valid and accepted, but written back differently.
    Lossy,
    /// Read from JSON as the referee says, but not so from its own format.
    NativeDisagrees,
    /// Reading it panicked or crashed the driver.
    Panic,
    /// Its target was not generated or does not build.
    NotRun,
    /// The referee gives no verdict (its schema does not compile in `jsonschema`).
    NoVerdict,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Agrees,
        Outcome::FalseReject,
        Outcome::FalseAccept,
        Outcome::Lossy,
        Outcome::NativeDisagrees,
        Outcome::Panic,
        Outcome::NotRun,
        Outcome::NoVerdict,
    ];

    fn label(self) -> &'static str {
        match self {
            Outcome::Agrees => "agree with the referee (and round-trip exactly, if valid)",
            Outcome::FalseReject => "valid, rejected",
            Outcome::FalseAccept => "invalid, accepted",
            Outcome::Lossy => "valid, accepted, not written back exactly",
            Outcome::NativeDisagrees => "read right from JSON, not from their own format",
            Outcome::Panic => "panic or crash",
            Outcome::NotRun => "not read: the target has no built type",
            Outcome::NoVerdict => "no verdict: the referee cannot compile the schema",
        }
    }
}

/// Whether one reading is what the referee's verdict asks for.
fn reading_agrees(reading: &Reading, valid: bool) -> Result<(), Outcome> {
    match (reading.panicked, valid, reading.accepted) {
        (true, _, _) => Err(Outcome::Panic),
        (false, true, false) => Err(Outcome::FalseReject),
        (false, false, true) => Err(Outcome::FalseAccept),
        (false, true, true) if reading.lossless != Some(true) => Err(Outcome::Lossy),
        _ => Ok(()),
    }
}

impl DocResult {
    pub fn outcome(&self) -> Outcome {
        let observed = match &self.got {
            Err(_) if matches!(self.verdict, Verdict::None(_)) => return Outcome::NoVerdict,
            Err(_) => return Outcome::NotRun,
            Ok(observed) => observed,
        };
        let valid = match &self.verdict {
            Verdict::Valid => true,
            Verdict::Invalid(_) => false,
            Verdict::None(_) => return Outcome::NoVerdict,
        };
        if let Err(outcome) = reading_agrees(&observed.json, valid) {
            return outcome;
        }
        match &observed.native {
            Some(native) => match reading_agrees(native, valid) {
                Ok(()) => Outcome::Agrees,
                Err(Outcome::Panic) => Outcome::Panic,
                Err(_) => Outcome::NativeDisagrees,
            },
            None => Outcome::Agrees,
        }
    }

    /// What the reading that disagrees said (or why the document was not read).
    fn detail(&self) -> String {
        match &self.got {
            Err(reason) => reason.clone(),
            Ok(observed) => {
                let json = observed.json.error.clone().unwrap_or_default();
                match (&observed.native, self.outcome()) {
                    (Some(native), Outcome::NativeDisagrees) => {
                        format!("from {:?}: {}", self.format, native.error.clone().unwrap_or_else(|| "accepted".to_owned()))
                    }
                    _ => json,
                }
            }
        }
    }
}

/// The figures of a run.
#[derive(Debug, Default)]
pub struct Totals {
    pub targets: usize,
    pub generated: usize,
    pub built: usize,
    pub outside: usize,
    /// Targets schemac panicked on (a bug, whatever the schema).
    pub panicked: usize,
    /// Targets the referee has no validator for.
    pub unrefereed: usize,
    pub lines: usize,
    pub documents: usize,
    pub valid: usize,
    pub invalid: usize,
    pub by_outcome: BTreeMap<Outcome, usize>,
    /// Documents the catalog labels otherwise than the referee judges them.
    pub label_disagrees: usize,
}

impl Totals {
    pub fn of(targets: &[TargetResult], docs: &[DocResult]) -> Totals {
        let mut t = Totals { targets: targets.len(), documents: docs.len(), ..Totals::default() };
        for target in targets {
            if let Compiled::Code { lines, .. } = &target.compiled {
                t.generated += 1;
                t.lines += lines;
            }
            t.built += usize::from(matches!(target.built, Some(Ok(()))));
            t.outside += usize::from(target.outside.is_some());
            t.panicked += usize::from(matches!(target.compiled, Compiled::Rejected { panicked: true, .. }));
            t.unrefereed += usize::from(target.referee.is_some());
        }
        for doc in docs {
            match doc.verdict {
                Verdict::Valid => t.valid += 1,
                Verdict::Invalid(_) => t.invalid += 1,
                Verdict::None(_) => {}
            }
            let labelled_valid = doc.label == Label::Valid;
            match (&doc.verdict, labelled_valid) {
                (Verdict::Valid, false) | (Verdict::Invalid(_), true) => t.label_disagrees += 1,
                _ => {}
            }
            *t.by_outcome.entry(doc.outcome()).or_default() += 1;
        }
        t
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.by_outcome.get(&outcome).copied().unwrap_or(0)
    }

    /// One paragraph for the terminal.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "corpus: {} targets: {} generated ({} lines), {} build; {} refer outside the corpus; schemac panicked on {}\n\
             corpus: {} documents ({} valid, {} invalid by the referee):",
            self.targets, self.generated, self.lines, self.built, self.outside, self.panicked, self.documents, self.valid, self.invalid
        );
        for outcome in Outcome::ALL {
            let _ = write!(out, " {} {};", self.count(outcome), outcome.label());
        }
        out
    }
}

/// `tests/corpus/REPORT.md`.
pub fn render(targets: &[TargetResult], docs: &[DocResult], source: &str) -> String {
    let totals = Totals::of(targets, docs);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Real schemas: the SchemaStore corpus\n\n\
         Generated by `cargo xtask corpus`; do not edit by hand. {source} Every target of `targets.txt` is compiled \
         as a user would compile it (`schemac compile schemas/json/NAME.json --map https://json.schemastore.org/=schemas/json/`, \
         the `www.` host mapped too, the default configuration: builders on), all generated modules are built in one crate, \
         and every test document is read with its target's root type, from its JSON form (`schemac_runtime::from_str`) and \
         from its own text (`serde_norway`, `toml`), then written back and compared exactly (every property, string and \
         number). The referee is the `jsonschema` crate (formats as annotations), reading the schemas on its own; its verdict, \
         not the catalog's folder, decides what a document should be.\n"
    );
    out.push_str("## Totals\n\n| Schemas | |\n|---|---:|\n");
    let _ = writeln!(out, "| targets | {} |", totals.targets);
    let _ = writeln!(out, "| generated | {} |", totals.generated);
    let _ = writeln!(out, "| generated code that compiles | {} |", totals.built);
    let _ = writeln!(out, "| not generated: a `$ref` to a URL outside the corpus (`outside-refs.tsv`) | {} |", totals.outside);
    let _ = writeln!(out, "| schemac panicked | {} |", totals.panicked);
    let _ = writeln!(out, "| the referee cannot compile | {} |", totals.unrefereed);
    let _ = writeln!(out, "| lines generated | {} |", totals.lines);
    out.push_str("\n| Documents | |\n|---|---:|\n");
    let _ = writeln!(out, "| documents | {} |", totals.documents);
    let _ = writeln!(out, "| valid by the referee | {} |", totals.valid);
    let _ = writeln!(out, "| invalid by the referee | {} |", totals.invalid);
    for outcome in Outcome::ALL {
        let _ = writeln!(out, "| {} | {} |", outcome.label(), totals.count(outcome));
    }
    let _ = writeln!(out, "| labelled by the catalog otherwise than the referee judges them | {} |", totals.label_disagrees);

    out.push_str("\n## Targets not generated or not built\n\n| Target | What happened | Why |\n|---|---|---|\n");
    let mut any = false;
    for target in targets {
        let Some(reason) = target.not_run_reason() else { continue };
        any = true;
        let why = match (&target.outside, super::known::why(&format!("generated/{}", target.name))) {
            (_, Some(why)) => why.to_owned(),
            (Some(url), None) => {
                format!("refers to `{url}`, outside the corpus: nothing is fetched, so a located `unresolved-ref` is right")
            }
            (None, None) => "not explained yet".to_owned(),
        };
        let _ = writeln!(out, "| `{}` | {} | {} |", target.name, cell(&reason), cell(&why));
    }
    if !any {
        out.push_str("| – | none | |\n");
    }

    out.push_str("\n## Targets the referee cannot compile\n\n| Target | Why |\n|---|---|\n");
    let mut any = false;
    for target in targets {
        let Some(why) = &target.referee else { continue };
        any = true;
        let _ = writeln!(out, "| `{}` | {} |", target.name, cell(why));
    }
    if !any {
        out.push_str("| – | none |\n");
    }

    out.push_str("\n## Documents that do not agree\n\n| Document | Referee | Outcome | Detail | Why |\n|---|---|---|---|---|\n");
    let mut any = false;
    for doc in docs {
        let outcome = doc.outcome();
        if matches!(outcome, Outcome::Agrees | Outcome::NotRun) {
            continue;
        }
        any = true;
        let referee = match &doc.verdict {
            Verdict::Valid => "valid".to_owned(),
            Verdict::Invalid(why) => format!("invalid: {why}"),
            Verdict::None(why) => format!("none: {why}"),
        };
        let why = super::known::why(&doc.id).unwrap_or("not explained yet");
        let _ = writeln!(out, "| `{}` | {} | {} | {} | {} |", doc.id, cell(&referee), outcome.label(), cell(&doc.detail()), cell(why));
    }
    if !any {
        out.push_str("| – | | none | | |\n");
    }

    out.push_str(
        "\n## Catalog labels the referee disagrees with\n\nThe catalog's folder (`test/` valid, `negative_test/` invalid) \
         against `jsonschema`'s verdict; the verdict decides.\n\n| Document | Catalog | Referee |\n|---|---|---|\n",
    );
    let mut any = false;
    for doc in docs {
        let (catalog, referee) = match (&doc.verdict, doc.label) {
            (Verdict::Valid, Label::Invalid) => ("invalid", "valid".to_owned()),
            (Verdict::Invalid(why), Label::Valid) => ("valid", format!("invalid: {why}")),
            _ => continue,
        };
        any = true;
        let _ = writeln!(out, "| `{}` | {catalog} | {} |", doc.id, cell(&referee));
    }
    if !any {
        out.push_str("| – | | none |\n");
    }

    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    for target in targets {
        if let Compiled::Code { warnings: list, .. } = &target.compiled {
            for warning in list {
                let code = warning.split(']').next().unwrap_or_default().trim_start_matches('[').to_owned();
                *warnings.entry(code).or_default() += 1;
            }
        }
    }
    out.push_str("\n## Warnings schemac gave\n\n| Code | Count |\n|---|---:|\n");
    for (code, count) in &warnings {
        let _ = writeln!(out, "| `{code}` | {count} |");
    }
    if warnings.is_empty() {
        out.push_str("| – | 0 |\n");
    }
    out
}

/// Text fit for one Markdown table cell: one line, pipes escaped, long texts cut.
fn cell(text: &str) -> String {
    const MAX: usize = 220;
    let line = crate::conformance::compile::one_line(text);
    let cut: String = line.chars().take(MAX).collect();
    let cut = if cut.len() < line.len() { format!("{cut}…") } else { cut };
    cut.replace('|', "\\|").replace('`', "'")
}
