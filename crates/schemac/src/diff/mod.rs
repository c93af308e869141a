//! Schema diffs: every change between two versions of a set of schemas, with its verdict for
//! readers and for writers, and the semver bump of the generated crate that follows.
//!
//! - **Readers** (Confluent's BACKWARD): code built on the *new* types must read everything
//!   written under the *old* schema. A change is compatible for readers when every document
//!   the old schema accepts, the new one accepts (old ⊆ new).
//! - **Writers** (FORWARD): documents written under the *new* schema must still be read by
//!   code built on the *old* types (new ⊆ old).
//! - **Both** (FULL): compatible for readers and writers.
//!
//! The verdicts come from set inclusion (`inclusion.rs`): for each role, whether the old
//! schema's documents are a subset of the new one's (readers) or the reverse (writers), proved
//! by documented [`Rule`]s. Where a proof fails, the place is shown by a *witness*, a document
//! one version accepts and the other rejects, built from the schemas themselves and confirmed
//! by a validator (the [`Oracle`]: `schemac_synth` gives the `jsonschema` crate); a failure
//! nothing confirms is `unknown` with the reason, never `breaking`. The list of [`Change`]s
//! (`wire.rs`, keyword by keyword) says what changed and where; each gets the verdicts of the
//! proof obligations at its place (`verdict.rs`). The Rust API class ([`Bump`] per
//! [`ApiChange`]) comes from comparing the generated types.

mod inclusion;
mod rust;
mod verdict;
mod wire;

pub use inclusion::{Failure, Rule, Step};

use std::fmt;

use serde_json::{Value, json};

use crate::ir::DocId;
use crate::resolve::Loc;
use crate::{Config, Diagnostics, Front};

/// Which version of a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Old,
    New,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Old => Side::New,
            Side::New => Side::Old,
        }
    }
}

/// The validator the diff confirms witnesses with: whether a value is valid against a
/// subschema of one version, and a few valid values of a conjunction of subschemas.
pub trait Oracle {
    /// Whether `value` is valid against the schema at `loc` of `side`; `None` when there is no
    /// validator (then nothing is confirmed).
    fn valid(&self, side: Side, loc: &Loc, value: &Value) -> Option<bool>;
    /// Up to `limit` values valid against every schema at `locs` of `side`.
    fn samples(&self, side: Side, locs: &[Loc], limit: usize) -> Vec<Value>;
    /// Where (keyword locations) the schema at `loc` of `side` rejects `value`.
    fn rejections(&self, side: Side, loc: &Loc, value: &Value) -> Vec<Loc>;
}

/// No validator: every failure stays `unknown` ("not confirmed"). `schemac_synth::diff` is the
/// diff with one.
#[derive(Debug)]
pub struct NoOracle;

impl Oracle for NoOracle {
    fn valid(&self, _: Side, _: &Loc, _: &Value) -> Option<bool> {
        None
    }

    fn samples(&self, _: Side, _: &[Loc], _: usize) -> Vec<Value> {
        Vec::new()
    }

    fn rejections(&self, _: Side, _: &Loc, _: &Value) -> Vec<Loc> {
        Vec::new()
    }
}

/// What undeclared properties of an open object mean (`--policy`, `[crate] compat-policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// An open object may carry any name with any value: adding a typed property to it breaks
    /// readers, removing one breaks writers (the sets of documents say so).
    #[default]
    Strict,
    /// Producers send only the properties the schema declares (Confluent's
    /// `COMPATIBLE_CHANGES_LENIENT`): a property added to or removed from an open object is
    /// compatible ([`Rule::LenientUndeclared`]).
    Lenient,
}

impl Policy {
    pub fn from_name(name: &str) -> Option<Policy> {
        Some(match name {
            "strict" => Policy::Strict,
            "lenient" => Policy::Lenient,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Strict => "strict",
            Policy::Lenient => "lenient",
        }
    }
}

/// What a change does to the set of valid documents, as the keyword comparison sees it
/// locally (the verdicts come from the inclusion proof; this only says whether a change is an
/// annotation, for the bump).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing (annotations, identifiers, definitions nothing refers to).
    Neutral,
    /// More documents are valid: new ⊇ old.
    Loosens,
    /// Fewer documents are valid: new ⊆ old.
    Tightens,
    /// Some documents become valid and others invalid.
    Changes,
    /// Not decided; the reason says why.
    Unknown(String),
}

/// A verdict for one role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Compatible,
    Breaking,
    Unknown(String),
}

impl Verdict {
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Compatible => "compatible",
            Verdict::Breaking => "breaking",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// Whose compatibility a crate promises (`schemac.toml`: `role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Role {
    Reader,
    Writer,
    #[default]
    Both,
}

impl Role {
    pub fn from_name(name: &str) -> Option<Role> {
        Some(match name {
            "reader" | "readers" | "backward" => Role::Reader,
            "writer" | "writers" | "forward" => Role::Writer,
            "both" | "full" => Role::Both,
            _ => return None,
        })
    }
}

/// A location on one side: file as displayed, JSON pointer.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub file: String,
    pub pointer: String,
    doc: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.file, self.pointer)
    }
}

/// The kinds of change, each with a stable name (used in the text and JSON output and in the
/// fixture table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    SchemaAdded,
    SchemaRemoved,
    AnnotationChanged,
    DefaultChanged,
    IdentifierChanged,
    DraftChanged,
    DefinitionAdded,
    DefinitionRemoved,
    DefinitionRenamed,
    RefRetargeted,
    SchemaNarrowed,
    SchemaWidened,
    TypeWidened,
    TypeNarrowed,
    TypeChanged,
    NullableAdded,
    NullableRemoved,
    EnumValuesAdded,
    EnumValuesRemoved,
    ConstChanged,
    BoundAdded,
    BoundRemoved,
    BoundTightened,
    BoundLoosened,
    BoundChanged,
    PatternAdded,
    PatternRemoved,
    PatternChanged,
    FormatAdded,
    FormatRemoved,
    FormatChanged,
    RequiredAdded,
    RequiredRemoved,
    PropertyAddedOpen,
    PropertyAddedClosed,
    PropertyRemovedOpen,
    PropertyRemovedClosed,
    PatternPropertyAdded,
    PatternPropertyRemoved,
    AdditionalPropertiesChanged,
    UnevaluatedChanged,
    AllOfPartAdded,
    AllOfPartRemoved,
    BranchAdded,
    BranchRemoved,
    NotChanged,
    ConditionChanged,
    DependentSchemaChanged,
    ArrayToTuple,
    TupleToArray,
}

impl ChangeKind {
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::SchemaAdded => "schema-added",
            ChangeKind::SchemaRemoved => "schema-removed",
            ChangeKind::AnnotationChanged => "annotation-changed",
            ChangeKind::DefaultChanged => "default-changed",
            ChangeKind::IdentifierChanged => "identifier-changed",
            ChangeKind::DraftChanged => "draft-changed",
            ChangeKind::DefinitionAdded => "definition-added",
            ChangeKind::DefinitionRemoved => "definition-removed",
            ChangeKind::DefinitionRenamed => "definition-renamed",
            ChangeKind::RefRetargeted => "ref-retargeted",
            ChangeKind::SchemaNarrowed => "schema-narrowed",
            ChangeKind::SchemaWidened => "schema-widened",
            ChangeKind::TypeWidened => "type-widened",
            ChangeKind::TypeNarrowed => "type-narrowed",
            ChangeKind::TypeChanged => "type-changed",
            ChangeKind::NullableAdded => "nullable-added",
            ChangeKind::NullableRemoved => "nullable-removed",
            ChangeKind::EnumValuesAdded => "enum-values-added",
            ChangeKind::EnumValuesRemoved => "enum-values-removed",
            ChangeKind::ConstChanged => "const-changed",
            ChangeKind::BoundAdded => "bound-added",
            ChangeKind::BoundRemoved => "bound-removed",
            ChangeKind::BoundTightened => "bound-tightened",
            ChangeKind::BoundLoosened => "bound-loosened",
            ChangeKind::BoundChanged => "bound-changed",
            ChangeKind::PatternAdded => "pattern-added",
            ChangeKind::PatternRemoved => "pattern-removed",
            ChangeKind::PatternChanged => "pattern-changed",
            ChangeKind::FormatAdded => "format-added",
            ChangeKind::FormatRemoved => "format-removed",
            ChangeKind::FormatChanged => "format-changed",
            ChangeKind::RequiredAdded => "required-added",
            ChangeKind::RequiredRemoved => "required-removed",
            ChangeKind::PropertyAddedOpen => "property-added-open",
            ChangeKind::PropertyAddedClosed => "property-added-closed",
            ChangeKind::PropertyRemovedOpen => "property-removed-open",
            ChangeKind::PropertyRemovedClosed => "property-removed-closed",
            ChangeKind::PatternPropertyAdded => "pattern-property-added",
            ChangeKind::PatternPropertyRemoved => "pattern-property-removed",
            ChangeKind::AdditionalPropertiesChanged => "additional-properties-changed",
            ChangeKind::UnevaluatedChanged => "unevaluated-changed",
            ChangeKind::AllOfPartAdded => "all-of-part-added",
            ChangeKind::AllOfPartRemoved => "all-of-part-removed",
            ChangeKind::BranchAdded => "branch-added",
            ChangeKind::BranchRemoved => "branch-removed",
            ChangeKind::NotChanged => "not-changed",
            ChangeKind::ConditionChanged => "condition-changed",
            ChangeKind::DependentSchemaChanged => "dependent-schema-changed",
            ChangeKind::ArrayToTuple => "array-to-tuple",
            ChangeKind::TupleToArray => "tuple-to-array",
        }
    }
}

/// One change of the wire format.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    /// Where it is in the old version (`None`: only in the new one) ...
    pub old: Option<Place>,
    /// ... and in the new one.
    pub new: Option<Place>,
    pub effect: Effect,
    pub detail: String,
    /// The verdict for readers and for writers (`[readers, writers]`).
    pub verdicts: [Verdict; 2],
    /// For a breaking verdict, a document one version accepts and the other rejects, confirmed
    /// by the validator (`[readers, writers]`: old-valid/new-invalid, new-valid/old-invalid).
    pub witnesses: [Option<Value>; 2],
    /// Whether the lenient policy's rule decided the verdict (`[readers, writers]`).
    pub lenient: [bool; 2],
}

impl Change {
    /// A change with its verdicts still to be decided (compatible until a proof obligation at
    /// its place fails).
    pub fn new(kind: ChangeKind, old: Option<Place>, new: Option<Place>, effect: Effect, detail: String) -> Change {
        Change {
            kind,
            old,
            new,
            effect,
            detail,
            verdicts: [Verdict::Compatible, Verdict::Compatible],
            witnesses: [None, None],
            lenient: [false, false],
        }
    }

    /// Readers: old ⊆ new.
    pub fn readers(&self) -> Verdict {
        self.verdicts[0].clone()
    }

    /// Writers: new ⊆ old.
    pub fn writers(&self) -> Verdict {
        self.verdicts[1].clone()
    }

    /// The witness of a breaking verdict for `role` (`Both`: the readers', else the writers').
    pub fn witness(&self, role: Role) -> Option<&Value> {
        match role {
            Role::Reader => self.witnesses[0].as_ref(),
            Role::Writer => self.witnesses[1].as_ref(),
            Role::Both => self.witnesses[0].as_ref().or(self.witnesses[1].as_ref()),
        }
    }

    /// The verdict for `role`: the worse of the two for `Both`.
    pub fn verdict(&self, role: Role) -> Verdict {
        match role {
            Role::Reader => self.readers(),
            Role::Writer => self.writers(),
            Role::Both => match (self.readers(), self.writers()) {
                (Verdict::Breaking, _) | (_, Verdict::Breaking) => Verdict::Breaking,
                (Verdict::Unknown(why), _) | (_, Verdict::Unknown(why)) => Verdict::Unknown(why),
                (Verdict::Compatible, Verdict::Compatible) => Verdict::Compatible,
            },
        }
    }

    fn old_sort_key(&self) -> Option<(usize, String)> {
        self.old.as_ref().map(|p| (p.doc, p.pointer.clone()))
    }

    fn new_sort_key(&self) -> Option<(usize, String)> {
        self.new.as_ref().map(|p| (p.doc, p.pointer.clone()))
    }
}

/// A semver bump, smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    None,
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

    /// `version` bumped, Cargo's way: while the major is 0, a breaking change bumps the minor
    /// and anything else the patch.
    pub fn apply(self, version: &str) -> Option<String> {
        let mut parts = version.split('.').map(|p| p.parse::<u64>().ok());
        let (major, minor, patch) = (parts.next()??, parts.next()??, parts.next()??);
        if parts.next().is_some() {
            return None;
        }
        let (major, minor, patch) = match (self, major) {
            (Bump::None, _) => (major, minor, patch),
            (Bump::Major, 0) => (0, minor + 1, 0),
            (Bump::Minor | Bump::Patch, 0) => (0, minor, patch + 1),
            (Bump::Major, _) => (major + 1, 0, 0),
            (Bump::Minor, _) => (major, minor + 1, 0),
            (Bump::Patch, _) => (major, minor, patch + 1),
        };
        Some(format!("{major}.{minor}.{patch}"))
    }
}

/// A change of the generated crate's public API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiChange {
    /// `module::Type` or `module::Type::member`.
    pub path: String,
    pub class: Bump,
    pub detail: String,
}

/// How to diff.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The compile configuration both versions are generated with (for the Rust API class and
    /// whether `format` asserts).
    pub config: Config,
    pub policy: Policy,
}

/// The inclusion proof for one role over one pair of roots.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    pub role: Role,
    /// Whether the inclusion holds (every document of the one side is valid under the other).
    pub holds: bool,
    /// The rules the proof used (where it held, each proves part of it).
    pub rules: Vec<Rule>,
    /// Places where it fails: how many have a confirmed witness, how many stay undecided.
    pub witnessed: usize,
    pub undecided: usize,
}

/// Everything that changed between two versions.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub changes: Vec<Change>,
    pub api: Vec<ApiChange>,
    /// The roots compared, old and new, matched by `$id` then by displayed path.
    pub roots: Vec<(Loc, Loc)>,
    /// The policy the verdicts were decided under.
    pub policy: Policy,
    /// Per root pair, the readers' proof and the writers'.
    pub proofs: Vec<Proof>,
    /// Warnings of either version (an unsatisfiable schema is diffable, with a warning).
    pub warnings: Vec<String>,
}

impl Report {
    /// Whether every root pair was proved to have the same documents in both versions (not
    /// only under the lenient policy's assumption).
    pub fn equivalent(&self) -> bool {
        !self.proofs.is_empty() && self.proofs.iter().all(|p| p.holds && !p.rules.contains(&Rule::LenientUndeclared))
    }

    /// The bump the wire changes need for `role`: a breaking or undecided change is major; a
    /// change of what is valid that the role accepts, minor; changes that leave every set of
    /// documents as it was (annotations, restructuring), patch.
    pub fn wire_bump(&self, role: Role) -> Bump {
        let equivalent = self.equivalent();
        self.changes
            .iter()
            .map(|c| match (c.verdict(role), &c.effect) {
                (Verdict::Breaking | Verdict::Unknown(_), _) => Bump::Major,
                (Verdict::Compatible, _) if equivalent => Bump::Patch,
                (Verdict::Compatible, Effect::Neutral) => Bump::Patch,
                (Verdict::Compatible, _) => Bump::Minor,
            })
            .max()
            .unwrap_or(Bump::None)
    }

    pub fn api_bump(&self) -> Bump {
        self.api.iter().map(|c| c.class).max().unwrap_or(Bump::None)
    }

    /// The larger of the wire bump for `role` and the Rust API class.
    pub fn bump(&self, role: Role) -> Bump {
        self.wire_bump(role).max(self.api_bump())
    }

    pub fn breaking(&self, role: Role) -> bool {
        self.changes.iter().any(|c| c.verdict(role) == Verdict::Breaking)
    }

    pub fn unknown(&self, role: Role) -> bool {
        self.changes.iter().any(|c| matches!(c.verdict(role), Verdict::Unknown(_)))
    }

    /// One line per change, breaking first, then undecided, then compatible; then the API.
    pub fn to_text(&self, role: Role) -> String {
        let mut out = format!("policy: {}\n", self.policy.as_str());
        for proof in &self.proofs {
            let who = if proof.role == Role::Reader { "readers (old ⊆ new)" } else { "writers (new ⊆ old)" };
            if proof.holds {
                let rules: Vec<&str> = proof.rules.iter().map(|r| r.name()).collect();
                out.push_str(&format!(
                    "{who}: proved, by rules {}\n",
                    if rules.is_empty() { "none needed".to_owned() } else { rules.join(", ") }
                ));
            } else {
                out.push_str(&format!(
                    "{who}: not included ({} place(s) with a witness, {} undecided)\n",
                    proof.witnessed, proof.undecided
                ));
            }
        }
        for warning in &self.warnings {
            out.push_str(&format!("warning: {warning}\n"));
        }
        for (title, wanted) in [("breaking", "breaking"), ("unknown", "unknown"), ("compatible", "compatible")] {
            let group: Vec<&Change> = self.changes.iter().filter(|c| c.verdict(role).as_str() == wanted).collect();
            if group.is_empty() {
                continue;
            }
            out.push_str(&format!("{title} ({}):\n", group.len()));
            for change in group {
                let at = match (&change.old, &change.new) {
                    (Some(old), Some(new)) if old == new => old.to_string(),
                    (Some(old), Some(new)) => format!("{old} → {new}"),
                    (Some(place), None) | (None, Some(place)) => place.to_string(),
                    (None, None) => String::new(),
                };
                let lenient = |i: usize| if change.lenient[i] { " (lenient policy)" } else { "" };
                out.push_str(&format!(
                    "  {} at {at}: {} [readers: {}{}, writers: {}{}]\n",
                    change.kind.name(),
                    change.detail,
                    change.readers().as_str(),
                    lenient(0),
                    change.writers().as_str(),
                    lenient(1)
                ));
                if let Verdict::Unknown(why) = change.verdict(role) {
                    out.push_str(&format!("    why unknown: {why}\n"));
                }
                for (i, who) in [(0, "readers"), (1, "writers")] {
                    if role != Role::Both && (i == 0) != (role == Role::Reader) {
                        continue;
                    }
                    if let Some(witness) = &change.witnesses[i] {
                        let (valid, invalid) = if i == 0 { ("old", "new") } else { ("new", "old") };
                        out.push_str(&format!("    witness for {who} (valid under {valid}, invalid under {invalid}): {witness}\n"));
                    }
                }
            }
        }
        if !self.api.is_empty() {
            out.push_str(&format!("rust api ({}):\n", self.api.len()));
            for change in &self.api {
                out.push_str(&format!("  {}: {}\n", change.class.as_str(), change.detail));
            }
        }
        out.push_str(&format!(
            "bump: {} (wire for {}: {}, rust api: {})\n",
            self.bump(role).as_str(),
            match role {
                Role::Reader => "readers",
                Role::Writer => "writers",
                Role::Both => "readers and writers",
            },
            self.wire_bump(role).as_str(),
            self.api_bump().as_str()
        ));
        out
    }

    /// The place of a change on one side, as a location (`old`: the old version's).
    pub fn place_loc(change: &Change, old: bool) -> Option<Loc> {
        let place = if old { change.old.as_ref() } else { change.new.as_ref() }?;
        Some(Loc { doc: DocId(place.doc), pointer: place.pointer.clone() })
    }

    pub fn to_json(&self, role: Role) -> Value {
        let place = |p: &Option<Place>| p.as_ref().map(|p| json!({"file": p.file, "pointer": p.pointer}));
        let changes: Vec<Value> = self
            .changes
            .iter()
            .map(|c| {
                let reason = match c.verdict(role) {
                    Verdict::Unknown(why) => Some(why),
                    Verdict::Breaking | Verdict::Compatible => None,
                };
                json!({
                    "kind": c.kind.name(),
                    "old": place(&c.old),
                    "new": place(&c.new),
                    "detail": c.detail,
                    "readers": c.readers().as_str(),
                    "writers": c.writers().as_str(),
                    "reason": reason,
                    "witness": c.witness(role),
                    "witnesses": {"readers": c.witnesses[0], "writers": c.witnesses[1]},
                    "lenient": {"readers": c.lenient[0], "writers": c.lenient[1]},
                })
            })
            .collect();
        let api: Vec<Value> = self.api.iter().map(|c| json!({"path": c.path, "class": c.class.as_str(), "detail": c.detail})).collect();
        let proofs: Vec<Value> = self
            .proofs
            .iter()
            .map(|p| {
                json!({
                    "role": if p.role == Role::Reader { "readers" } else { "writers" },
                    "holds": p.holds,
                    "rules": p.rules.iter().map(|r| r.name()).collect::<Vec<_>>(),
                    "witnessed": p.witnessed,
                    "undecided": p.undecided,
                })
            })
            .collect();
        json!({
            "policy": self.policy.as_str(),
            "proofs": proofs,
            "warnings": self.warnings,
            "changes": changes,
            "api": api,
            "bump": {"wire": self.wire_bump(role).as_str(), "api": self.api_bump().as_str(), "required": self.bump(role).as_str()},
        })
    }
}

/// Compares the input schemas of two front ends (documents matched by their root `$id`, then
/// by the path they are displayed as) with no validator: failures stay `unknown`. Use
/// `schemac_synth::diff` for verdicts with confirmed witnesses.
pub fn diff(old: &Front, new: &Front, options: &Options) -> Result<Report, Diagnostics> {
    diff_with(old, new, options, &NoOracle)
}

/// [`diff`] with a validator that confirms witnesses.
pub fn diff_with(old: &Front, new: &Front, options: &Options, oracle: &dyn Oracle) -> Result<Report, Diagnostics> {
    let mut comparer = wire::Comparer::new(old, new, options.config.assert_formats);
    let inputs = |front: &Front| -> Vec<(DocId, Option<String>, String)> {
        front
            .registry
            .docs
            .iter()
            .filter(|d| d.is_input)
            .map(|d| {
                let root = Loc { doc: d.id, pointer: d.root_pointer.clone() };
                (d.id, front.model.schema_at(&root).and_then(|s| s.id.clone()), d.display.clone())
            })
            .collect()
    };
    let (olds, mut news) = (inputs(old), inputs(new));
    // One schema against one schema: they are the two versions, whatever their names.
    if let ([(_, old_id, old_display)], [(_, new_id, new_display)]) = (olds.as_slice(), news.as_mut_slice())
        && (old_id != new_id || old_id.is_none())
        && old_display != new_display
    {
        *new_display = old_display.clone();
        *new_id = old_id.clone();
    }
    let mut extra = Vec::new();
    let mut matched_new = Vec::new();
    let mut roots = Vec::new();
    for (doc, id, display) in &olds {
        let partner =
            news.iter().find(|(_, other, _)| id.is_some() && other == id).or_else(|| news.iter().find(|(_, _, other)| other == display));
        let root = |front: &Front, doc: DocId| Loc { doc, pointer: front.registry.doc(doc).root_pointer.clone() };
        match partner {
            Some((new_doc, _, _)) => {
                matched_new.push(*new_doc);
                let pair = (root(old, *doc), root(new, *new_doc));
                comparer.compare_roots(&pair.0, &pair.1);
                roots.push(pair);
            }
            None => extra.push(Change::new(
                ChangeKind::SchemaRemoved,
                Some(Place { file: display.clone(), pointer: String::new(), doc: doc.0 }),
                None,
                Effect::Neutral,
                format!("schema {display} removed"),
            )),
        }
    }
    for (doc, _, display) in news.iter().filter(|(doc, _, _)| !matched_new.contains(doc)) {
        extra.push(Change::new(
            ChangeKind::SchemaAdded,
            None,
            Some(Place { file: display.clone(), pointer: String::new(), doc: doc.0 }),
            Effect::Neutral,
            format!("schema {display} added"),
        ));
    }
    let mut changes = comparer.changes;
    let mut proofs = Vec::new();
    let mut prover = inclusion::Prover::new(old, new, oracle, options.policy, options.config.assert_formats);
    for (old_root, new_root) in &roots {
        for role in [Role::Reader, Role::Writer] {
            proofs.push(verdict::decide(&mut prover, oracle, old, new, (old_root, new_root), role, &mut changes));
        }
    }
    changes.extend(extra);
    // Both inclusions hold: whatever changed, every set of documents is what it was.
    if !proofs.is_empty() && proofs.iter().all(|p| p.holds && !p.rules.contains(&Rule::LenientUndeclared)) {
        for change in &mut changes {
            change.effect = Effect::Neutral;
        }
    }
    let mut warnings = Vec::new();
    for (old_root, new_root) in &roots {
        for (side, front, root) in [(Side::Old, old, old_root), (Side::New, new, new_root)] {
            if prover.accepts_nothing(side, root) {
                let file = &front.registry.doc(root.doc).display;
                warnings.push(format!(
                    "{file}: the {} version accepts no document (its set is empty)",
                    if side == Side::Old { "old" } else { "new" }
                ));
            }
        }
    }
    // The Rust API is compared where both versions have types; a version that cannot be
    // lowered (a schema no type can hold) is diffed on the wire only.
    let api = match (old.lower(&options.config), new.lower(&options.config)) {
        (Ok(old_ir), Ok(new_ir)) => rust::compare(&old_ir, &new_ir, &options.config),
        (old_ir, new_ir) => {
            for (name, result) in [("old", old_ir.err()), ("new", new_ir.err())] {
                if let Some(diagnostics) = result {
                    warnings
                        .push(format!("the {name} version's types cannot be generated, so the Rust API is not compared: {diagnostics}"));
                }
            }
            vec![ApiChange { path: String::new(), class: Bump::Major, detail: "the Rust API could not be compared".to_owned() }]
        }
    };
    Ok(Report { changes, api, roots, policy: options.policy, proofs, warnings })
}

#[cfg(test)]
mod tests;
