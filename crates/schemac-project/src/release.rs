//! Releases: the version a change of the schemas requires, the committed baseline of the last
//! released schema set, the version rule `check` holds the crate to, and `release`, which
//! bumps, writes the changelog and refreshes the baseline.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use schemac::diff::{Bump, Change, Effect, Report, Role, Verdict};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::Project;
use super::error::{Context as _, Error, bail};
use super::krate::{self, CrateSpec, Found};

/// The baseline's file name, beside `schemac.toml`.
pub const BASELINE_FILE: &str = "schemac.baseline.toml";

/// The generated crate's changelog, in its directory (kept by codegen, which does not generate it).
pub const CHANGELOG_FILE: &str = "CHANGELOG.md";

/// The schemas of the last release, as `release` recorded them in [`BASELINE_FILE`]: each
/// file's content and SHA-256, and the settings that shape its types.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// The crate's name and the version it was released as.
    pub name: String,
    pub version: String,
    pub default_draft: schemac::Draft,
    pub assert_formats: bool,
    /// Every schema under the roots, in path order.
    pub schemas: Vec<BaselineSchema>,
}

/// One released schema.
#[derive(Clone, Debug, PartialEq)]
pub struct BaselineSchema {
    /// Its path relative to `schemac.toml`'s directory, with `/`.
    pub path: String,
    /// `schema."PATH".root-name` then (it names the root type).
    pub root_name: Option<String>,
    /// `schema."PATH".version` then: its registry version, bumped on its own changes.
    pub version: Option<String>,
    pub sha256: String,
    pub content: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBaseline {
    release: RawRelease,
    #[serde(default)]
    schema: Vec<RawBaselineSchema>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRelease {
    #[serde(rename = "crate")]
    name: String,
    version: String,
    default_draft: String,
    assert_formats: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBaselineSchema {
    path: String,
    root_name: Option<String>,
    version: Option<String>,
    sha256: String,
    content: String,
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().fold(String::with_capacity(64), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

impl Baseline {
    /// The baseline beside the project's `schemac.toml`; `None` before the first release.
    /// A content whose hash is not the one recorded is an error: the file was edited by hand.
    pub fn load(project: &Project) -> Result<Option<Baseline>, Error> {
        let path = project.root().join(BASELINE_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        };
        Baseline::parse(&path.display().to_string(), &text).map(Some)
    }

    /// Parses the text of a baseline displayed as `file`.
    pub fn parse(file: &str, text: &str) -> Result<Baseline, Error> {
        let hint =
            "it is written by `schemac release` (or `cargo xtask release`): restore it from version control, or delete it to start afresh";
        let raw: RawBaseline = toml::from_str(text).map_err(|err| {
            let at = err.span().map(|span| crate::config::line_column(text, span.start));
            let at = at.map_or_else(String::new, |(line, column)| format!(":{line}:{column}"));
            Error::other(format!("{file}{at}: {}\n  hint: {hint}", err.message().trim()))
        })?;
        let Some(default_draft) = schemac::Draft::from_name(&raw.release.default_draft) else {
            bail!("{file}: release.default-draft: {:?} is not a draft\n  hint: {hint}", raw.release.default_draft);
        };
        if parse_version(&raw.release.version).is_none() {
            bail!("{file}: release.version: {:?} is not MAJOR.MINOR.PATCH\n  hint: {hint}", raw.release.version);
        }
        let mut schemas = Vec::new();
        for schema in raw.schema {
            if sha256(&schema.content) != schema.sha256 {
                bail!(
                    "{file}: the content of schema {:?} does not have its recorded sha256 {}\n  hint: {hint}",
                    schema.path,
                    schema.sha256
                );
            }
            schemas.push(BaselineSchema {
                path: schema.path,
                root_name: schema.root_name,
                version: schema.version,
                sha256: schema.sha256,
                content: schema.content,
            });
        }
        schemas.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(Baseline {
            name: raw.release.name,
            version: raw.release.version,
            default_draft,
            assert_formats: raw.release.assert_formats,
            schemas,
        })
    }

    /// What the project's schemas and settings are now, as a release of `version` would record them.
    pub fn current(project: &Project, version: &str) -> Result<Baseline, Error> {
        let spec = project.spec();
        let mut schemas = Vec::new();
        for found in found_schemas(project.root(), spec)? {
            let path = project.root().join(&found.display);
            let content = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            schemas.push(BaselineSchema {
                root_name: spec.root_names.get(&found.display).cloned(),
                version: spec.versions.get(&found.display).cloned(),
                sha256: sha256(&content),
                content,
                path: found.display,
            });
        }
        Ok(Baseline {
            name: spec.name.clone(),
            version: version.to_owned(),
            default_draft: spec.default_draft,
            assert_formats: first_unit(spec).is_some_and(|u| u.assert_formats),
            schemas,
        })
    }

    /// Whether the types of `other` are those of `self`: the same files with the same
    /// content and root names, read the same way (versions aside).
    fn same_schemas(&self, other: &Baseline) -> bool {
        let key = |b: &Baseline| -> Vec<(String, Option<String>, String)> {
            b.schemas.iter().map(|s| (s.path.clone(), s.root_name.clone(), s.sha256.clone())).collect()
        };
        key(self) == key(other) && self.default_draft == other.default_draft && self.assert_formats == other.assert_formats
    }

    /// The file's text: a header, `[release]`, then a `[[schema]]` table per schema with its
    /// content as a multi-line string, so a review reads the released schema as it was.
    pub fn to_toml(&self) -> String {
        use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};
        let mut release = Table::new();
        release.decor_mut().set_prefix(
            "# @generated by `schemac release` (or `cargo xtask release`): the schemas of the last release, which\n\
             # `schemac check` holds the crate's version to. Do not edit by hand.\n",
        );
        release["crate"] = value(&self.name);
        release["version"] = value(&self.version);
        release["default-draft"] = value(crate::roundtrip::draft_name(self.default_draft));
        release["assert-formats"] = value(self.assert_formats);
        let mut tables = ArrayOfTables::new();
        for schema in &self.schemas {
            let mut table = Table::new();
            table["path"] = value(&schema.path);
            if let Some(root_name) = &schema.root_name {
                table["root-name"] = value(root_name);
            }
            if let Some(version) = &schema.version {
                table["version"] = value(version);
            }
            table["sha256"] = value(&schema.sha256);
            table["content"] = value(&schema.content);
            tables.push(table);
        }
        let mut doc = DocumentMut::new();
        doc["release"] = Item::Table(release);
        doc["schema"] = Item::ArrayOfTables(tables);
        doc.to_string()
    }
}

/// The first unit of a crate that compiles checked types (not the plain-serde baseline).
fn first_unit(spec: &CrateSpec) -> Option<&krate::Unit> {
    spec.units.iter().find(|u| !u.plain_serde)
}

fn found_schemas(root: &Path, spec: &CrateSpec) -> Result<Vec<Found>, Error> {
    let Some(unit) = first_unit(spec) else { return Ok(Vec::new()) };
    krate::find_schemas(root, &unit.roots, spec.roots_required, &spec.config_file)
}

/// A scratch directory holding the released schemas at their paths, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn of(baseline: &Baseline) -> Result<Scratch, Error> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("schemac-baseline-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let scratch = Scratch(dir);
        for schema in &baseline.schemas {
            let path = scratch.0.join(&schema.path);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
            }
            fs::write(&path, &schema.content).with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(scratch)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The front end of the crate's schemas under `root`, read as `spec` says.
fn front(root: &Path, spec: &CrateSpec) -> Result<Option<schemac::Front>, Error> {
    let Some(unit) = first_unit(spec) else { return Ok(None) };
    let found = found_schemas(root, spec)?;
    if found.is_empty() {
        return Ok(None);
    }
    let (input, config) = krate::unit_input(root, spec, unit, &found)?;
    Ok(Some(schemac::front(&input, &config)?))
}

/// Every change from the released schemas to the project's, with the verdicts `schemac diff`
/// gives (witnesses confirmed by `jsonschema`, under `crate.compat-policy`). Nothing changed,
/// nothing is compiled.
pub fn diff_since(project: &Project, baseline: &Baseline) -> Result<Report, Error> {
    let spec = project.spec();
    if baseline.same_schemas(&Baseline::current(project, &baseline.version)?) {
        return Ok(Report::default());
    }
    let scratch = Scratch::of(baseline)?;
    let mut old_spec = spec.clone();
    old_spec.root_names = baseline.schemas.iter().filter_map(|s| Some((s.path.clone(), s.root_name.clone()?))).collect();
    old_spec.default_draft = baseline.default_draft;
    for unit in &mut old_spec.units {
        unit.assert_formats = baseline.assert_formats;
    }
    // Roots that are missing in the released set are no error there.
    old_spec.roots_required = false;
    let old = front(&scratch.0, &old_spec).context("cannot read the released schemas of the baseline")?;
    let new = front(project.root(), spec)?;
    let config = schemac::Config {
        default_draft: spec.default_draft,
        assert_formats: first_unit(spec).is_some_and(|u| u.assert_formats),
        ..schemac::Config::default()
    };
    let options = schemac::diff::Options { config, policy: project.config().krate.compat_policy };
    let empty = || -> Result<schemac::Front, Error> { Ok(schemac::front(&schemac::Input::default(), &schemac::Config::default())?) };
    let (old, new) = match (old, new) {
        (Some(old), Some(new)) => (old, new),
        (old, new) => (old.map_or_else(empty, Ok)?, new.map_or_else(empty, Ok)?),
    };
    Ok(schemac_synth::diff(&old, &new, &options)?)
}

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

/// The bump one wire change needs for `role`, as [`Report::wire_bump`] counts it.
fn change_bump(change: &Change, role: Role) -> Bump {
    match (change.verdict(role), &change.effect) {
        (Verdict::Breaking | Verdict::Unknown(_), _) => Bump::Major,
        (Verdict::Compatible, Effect::Neutral) => Bump::Patch,
        (Verdict::Compatible, _) => Bump::Minor,
    }
}

/// Where a change is: `file#pointer`, or `old → new` when it moved.
fn place(change: &Change) -> String {
    match (&change.old, &change.new) {
        (Some(old), Some(new)) if old == new => old.to_string(),
        (Some(old), Some(new)) => format!("{old} → {new}"),
        (Some(place), None) | (None, Some(place)) => place.to_string(),
        (None, None) => String::new(),
    }
}

/// The roles a change breaks (or leaves undecided), in words: `readers`, `writers`, `readers and writers`.
fn roles_hit(change: &Change, role: Role, wanted: fn(&Verdict) -> bool) -> &'static str {
    let readers = role != Role::Writer && wanted(&change.readers());
    let writers = role != Role::Reader && wanted(&change.writers());
    match (readers, writers) {
        (true, true) => "readers and writers",
        (true, false) => "readers",
        (false, true) => "writers",
        (false, false) => "no role",
    }
}

fn role_words(role: Role) -> &'static str {
    match role {
        Role::Reader => "readers",
        Role::Writer => "writers",
        Role::Both => "readers and writers",
    }
}

/// One change in words, as check's error and the changelog say it.
fn describe(change: &Change, role: Role) -> String {
    let what = format!("schema change {} at {}", change.kind.name(), place(change));
    match change.verdict(role) {
        Verdict::Breaking => format!("{what} is breaking for {}", roles_hit(change, role, |v| *v == Verdict::Breaking)),
        Verdict::Unknown(why) => {
            format!("{what} is not decided for {} ({why})", roles_hit(change, role, |v| matches!(v, Verdict::Unknown(_))))
        }
        Verdict::Compatible if change.effect == Effect::Neutral => format!("{what} changes no document's validity"),
        Verdict::Compatible => format!("{what} is compatible for {} but changes what is valid", role_words(role)),
    }
}

/// The change that decides the bump, in words: the first wire change of the largest class,
/// else the first API change of it.
fn decisive(report: &Report, role: Role) -> Option<String> {
    let bump = report.bump(role);
    if let Some(change) = report.changes.iter().find(|c| change_bump(c, role) == bump) {
        return Some(describe(change, role));
    }
    report.api.iter().find(|c| c.class == bump).map(|c| format!("Rust API change at {}: {}", c.path, c.detail))
}

/// `check`'s version rule: with a baseline, the configured version must be at least the one the
/// changes since the release require. The report line when it is; an error naming the
/// deciding change, the version needed and the version configured when it is not.
pub fn check_version(project: &Project) -> Result<Option<String>, Error> {
    let Some(baseline) = Baseline::load(project)? else { return Ok(None) };
    let config = project.config();
    let role = config.krate.role;
    let report = diff_since(project, &baseline)?;
    let Some(needed) = required_version(&baseline.version, &report, role) else {
        bail!("{BASELINE_FILE}: release.version {:?} is not MAJOR.MINOR.PATCH", baseline.version);
    };
    let configured = &config.krate.version;
    if satisfies(configured, &needed) {
        let changes = report.changes.len() + report.api.len();
        return Ok(Some(format!(
            "version {configured} covers the {changes} change{} since release {} (needs {needed} for {})",
            if changes == 1 { "" } else { "s" },
            baseline.version,
            role_words(role)
        )));
    }
    let reason = decisive(&report, role).unwrap_or_else(|| "the schemas changed".to_owned());
    let more = report.changes.len() + report.api.len() - 1;
    let more = match more {
        0 => String::new(),
        n => format!("\n  and {n} more change{} (`schemac release --dry-run` lists them)", plural(n)),
    };
    bail!(
        "{reason}: the crate needs {needed}, {} says {configured}{more}\n  \
         hint: run `schemac release` (or `cargo xtask release`), or set crate.version = \"{needed}\" in {}",
        config.file_name,
        config.file_name
    )
}

/// What a release does: the versions it sets and the changelog entry it writes.
#[derive(Debug)]
pub struct Plan {
    /// The released version it follows; `None` for the first release.
    pub from: Option<String>,
    pub version: String,
    /// The bump the changes require (`None` for the first release).
    pub bump: Bump,
    /// `(schema path, old version, new version)` for each schema whose configured registry
    /// version changes.
    pub schema_versions: Vec<(String, String, String)>,
    /// The entry for the crate's `CHANGELOG.md`.
    pub changelog: String,
    /// The baseline the release records.
    pub baseline: Baseline,
}

/// The bump each schema's own changes need (wire changes at its file, API changes in its module).
fn schema_bumps(project: &Project, report: &Report, role: Role) -> Result<BTreeMap<String, Bump>, Error> {
    let mut bumps = BTreeMap::new();
    for found in found_schemas(project.root(), project.spec())? {
        let module = krate::module_path(&found.segments).join("::");
        let in_file = |place: &Option<schemac::diff::Place>| place.as_ref().is_some_and(|p| p.file == found.display);
        let wire = report.changes.iter().filter(|c| in_file(&c.old) || in_file(&c.new)).map(|c| change_bump(c, role));
        let api = report.api.iter().filter(|c| c.path.starts_with(&format!("{module}::"))).map(|c| c.class);
        bumps.insert(found.display.clone(), wire.chain(api).max().unwrap_or(Bump::None));
    }
    Ok(bumps)
}

/// The larger of two versions (both `MAJOR.MINOR.PATCH`).
fn larger(a: String, b: &str) -> String {
    if satisfies(b, &a) { b.to_owned() } else { a }
}

/// What `release` would do now; `None` when there is nothing to release (the schemas and the
/// version are those of the last release).
pub fn plan(project: &Project) -> Result<Option<Plan>, Error> {
    let config = project.config();
    let role = config.krate.role;
    let configured = config.krate.version.clone();
    let Some(released) = Baseline::load(project)? else {
        let baseline = Baseline::current(project, &configured)?;
        let changelog = first_entry(&baseline);
        return Ok(Some(Plan { from: None, version: configured, bump: Bump::None, schema_versions: Vec::new(), changelog, baseline }));
    };
    let report = diff_since(project, &released)?;
    let bump = required_bump(&report, role);
    let Some(needed) = bump.apply(&released.version) else {
        bail!("{BASELINE_FILE}: release.version {:?} is not MAJOR.MINOR.PATCH", released.version);
    };
    // A version set higher by hand stands.
    let version = larger(needed, &configured);
    if bump == Bump::None && version == released.version {
        return Ok(None);
    }
    let mut schema_versions = Vec::new();
    let bumps = schema_bumps(project, &report, role)?;
    for (path, schema) in &config.schema {
        let (Some(current), Some(bump)) = (&schema.version, bumps.get(path)) else { continue };
        let released_version = released.schemas.iter().find(|s| &s.path == path).and_then(|s| s.version.clone());
        let from = released_version.unwrap_or_else(|| current.clone());
        let Some(next) = bump.apply(&from) else { continue };
        let next = larger(next, current);
        if &next != current {
            schema_versions.push((path.clone(), current.clone(), next));
        }
    }
    let mut baseline = Baseline::current(project, &version)?;
    for schema in &mut baseline.schemas {
        if let Some((_, _, next)) = schema_versions.iter().find(|(path, _, _)| *path == schema.path) {
            schema.version = Some(next.clone());
        }
    }
    let changelog = entry(&report, role, &released.version, &version, bump, &schema_versions);
    Ok(Some(Plan { from: Some(released.version), version, bump, schema_versions, changelog, baseline }))
}

fn first_entry(baseline: &Baseline) -> String {
    let mut out =
        format!("## {}\n\nFirst release, with {} schema{}:\n\n", baseline.version, baseline.schemas.len(), plural(baseline.schemas.len()));
    for schema in &baseline.schemas {
        let _ = writeln!(out, "- `{}`", schema.path);
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Which changes a changelog section lists.
type Group = fn(&Change, Role) -> bool;

/// A changelog entry from the diff: breaking changes first, each with its place.
fn entry(report: &Report, role: Role, from: &str, version: &str, bump: Bump, schema_versions: &[(String, String, String)]) -> String {
    let mut out = format!("## {version}\n\n");
    let why = match (bump, from.starts_with("0.")) {
        (Bump::Major, true) => "a breaking change, which before 1.0.0 bumps the minor version",
        (Bump::Major, false) => "a breaking change",
        (Bump::Minor, true) => "compatible changes of what is valid, which before 1.0.0 bump the patch version",
        (Bump::Minor, false) => "compatible changes of what is valid",
        (Bump::Patch, _) => "changes of annotations and docs only",
        (Bump::None, _) => "no change of the schemas",
    };
    let name = match role {
        Role::Reader => "reader",
        Role::Writer => "writer",
        Role::Both => "both",
    };
    let _ = writeln!(out, "From {from}, for {} (`role = \"{name}\"`): {why}.\n", role_words(role));
    let groups: [(&str, Group); 4] = [
        ("Breaking", |c, r| c.verdict(r) == Verdict::Breaking),
        ("Not decided", |c, r| matches!(c.verdict(r), Verdict::Unknown(_))),
        ("Compatible", |c, r| c.verdict(r) == Verdict::Compatible && c.effect != Effect::Neutral),
        ("Annotations and structure", |c, r| c.verdict(r) == Verdict::Compatible && c.effect == Effect::Neutral),
    ];
    for (title, wanted) in groups {
        let changes: Vec<&Change> = report.changes.iter().filter(|c| wanted(c, role)).collect();
        if changes.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {title}\n");
        for change in changes {
            let _ = write!(
                out,
                "- `{}` at `{}`: {} (readers: {}, writers: {})",
                change.kind.name(),
                place(change),
                change.detail,
                change.readers().as_str(),
                change.writers().as_str()
            );
            if let Verdict::Unknown(why) = change.verdict(role) {
                let _ = write!(out, "; not decided: {why}");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if !report.api.is_empty() {
        out.push_str("### Rust API\n\n");
        let mut api: Vec<&schemac::diff::ApiChange> = report.api.iter().collect();
        api.sort_by_key(|c| std::cmp::Reverse(c.class));
        for change in api {
            let _ = writeln!(out, "- {}: {}", change.class.as_str(), change.detail);
        }
        out.push('\n');
    }
    if !schema_versions.is_empty() {
        out.push_str("### Schema versions\n\n");
        for (path, old, new) in schema_versions {
            let _ = writeln!(out, "- `{path}`: {old} → {new}");
        }
        out.push('\n');
    }
    out.trim_end().to_owned() + "\n"
}

/// How to release.
#[derive(Clone, Debug, Default)]
pub struct ReleaseOptions {
    /// Print what would be done; change nothing.
    pub dry_run: bool,
    /// Skip `cargo package`.
    pub no_package: bool,
    /// `cargo package --no-verify`: pack without building each package.
    pub no_verify: bool,
}

/// `release`: computes the bump from the baseline, sets the crate's version and each changed
/// schema's registry version in `schemac.toml`, adds the changelog entry, refreshes the
/// baseline, regenerates and runs `cargo package` for the types crate and the unpublished
/// crates it depends on by path (this repository's `schemac-runtime`). Returns what it did
/// (or would do, with `dry_run`).
pub fn release(project: &Project, options: &ReleaseOptions) -> Result<String, Error> {
    let Some(plan) = plan(project)? else {
        let version = &project.config().krate.version;
        return Ok(format!("nothing to release: the schemas and crate.version ({version}) are those of the last release"));
    };
    let config = project.config();
    let spec = project.spec();
    let [release, set, add, record] = if options.dry_run {
        ["would release", "would set", "would add", "would record"]
    } else {
        ["released", "set", "added", "recorded"]
    };
    let mut out = match &plan.from {
        Some(from) => format!("{release} {} {} (from {from}: a {} bump)\n", spec.name, plan.version, plan.bump.as_str()),
        None => format!("{release} {} {} (the first release: no baseline yet)\n", spec.name, plan.version),
    };
    if plan.version != config.krate.version {
        let _ = writeln!(out, "{set} crate.version = \"{}\" in {} (was {})", plan.version, config.file_name, config.krate.version);
    }
    for (path, old, new) in &plan.schema_versions {
        let _ = writeln!(out, "{set} schema.\"{path}\".version = \"{new}\" (was {old})");
    }
    let changelog_path = format!("{}/{CHANGELOG_FILE}", spec.dir);
    let _ = writeln!(out, "{add} to {changelog_path}:\n\n{}", plan.changelog);
    let _ = writeln!(out, "{record} {} schema{} in {BASELINE_FILE}", plan.baseline.schemas.len(), plural(plan.baseline.schemas.len()));
    let packages = if options.no_package { Vec::new() } else { packages(project.root(), &spec.name)? };
    let package_command = package_command(&packages, options.no_verify);
    if options.dry_run {
        let _ = writeln!(out, "would regenerate {}", spec.dir);
        if !packages.is_empty() {
            let _ = writeln!(out, "would run {}", package_command.join(" "));
        }
        return Ok(out);
    }
    set_versions(Path::new(&config.file), &plan)?;
    write_changelog(&project.root().join(&changelog_path), &spec.name, &plan.changelog)?;
    let baseline_path = project.root().join(BASELINE_FILE);
    schemac::write::write_atomic(&baseline_path, plan.baseline.to_toml().as_bytes())
        .with_context(|| format!("cannot write {}", baseline_path.display()))?;
    // Reloaded: the versions are in the manifest and the registry of the regenerated crate.
    let reloaded = Project::load(&config.file)?.cache(false);
    let reloaded = reloaded.regenerate_command(&spec.regenerate_command);
    let regenerated = super::codegen(&reloaded)?;
    let _ = writeln!(out, "regenerated: {}", regenerated.lines().last().unwrap_or_default());
    if !packages.is_empty() {
        // `CARGO` when run under cargo (`cargo xtask`), so the same toolchain packages.
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = std::process::Command::new(cargo)
            .args(&package_command[1..])
            .current_dir(project.root())
            .status()
            .with_context(|| format!("cannot run {}", package_command.join(" ")))?;
        if !status.success() {
            bail!("{} failed ({status}); the release's files are written: fix it, then run it again", package_command.join(" "));
        }
        let _ = writeln!(out, "packaged {} into target/package/", packages.join(", "));
    }
    let _ = writeln!(out, "next: review, commit and tag {} {}", spec.name, plan.version);
    Ok(out)
}

/// `cargo package` for `packages`, dirty files allowed (the release just wrote them).
fn package_command(packages: &[String], no_verify: bool) -> Vec<String> {
    let mut command = vec!["cargo".to_owned(), "package".to_owned(), "--allow-dirty".to_owned()];
    if no_verify {
        command.push("--no-verify".to_owned());
    }
    for package in packages {
        command.extend(["-p".to_owned(), package.clone()]);
    }
    command
}

/// The types crate and every workspace crate it reaches by path dependencies (normal ones,
/// optional too), from `cargo metadata`: what a registry must hold before it. Without a
/// workspace (`cargo metadata` fails), the types crate alone.
pub fn packages(root: &Path, name: &str) -> Result<Vec<String>, Error> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        return Ok(vec![name.to_owned()]);
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let members = metadata["packages"].as_array().cloned().unwrap_or_default();
    let mut todo = vec![name.to_owned()];
    let mut out = Vec::new();
    while let Some(next) = todo.pop() {
        if out.contains(&next) {
            continue;
        }
        let Some(package) = members.iter().find(|p| p["name"] == next.as_str()) else { continue };
        for dependency in package["dependencies"].as_array().into_iter().flatten() {
            if dependency["kind"].is_null() && dependency["path"].is_string() {
                todo.extend(dependency["name"].as_str().map(str::to_owned));
            }
        }
        out.push(next);
    }
    out.sort();
    Ok(out)
}

/// Sets `crate.version` and the changed schemas' versions in the config file, keeping its
/// layout and comments.
fn set_versions(file: &Path, plan: &Plan) -> Result<(), Error> {
    let text = fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|err| Error::other(format!("{}: {err}", file.display())))?;
    set_keeping_decor(&mut doc["crate"]["version"], &plan.version);
    for (path, _, new) in &plan.schema_versions {
        set_keeping_decor(&mut doc["schema"][path.as_str()]["version"], new);
    }
    schemac::write::write_atomic(file, doc.to_string().as_bytes()).with_context(|| format!("cannot write {}", file.display()))
}

fn set_keeping_decor(item: &mut toml_edit::Item, text: &str) {
    let decor = item.as_value().map(|v| v.decor().clone());
    *item = toml_edit::value(text);
    if let (Some(decor), Some(value)) = (decor, item.as_value_mut()) {
        *value.decor_mut() = decor;
    }
}

/// Adds `entry` at the top of the changelog (below its header), creating it if needed.
fn write_changelog(path: &Path, name: &str, entry: &str) -> Result<(), Error> {
    let header = format!(
        "# Changelog of {name}\n\n<!-- Written by `schemac release` (or `cargo xtask release`) from the diff against the last \
         release; newest first. Breaking changes come first in each entry, each with its place. -->\n\n"
    );
    let old = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
    };
    let entries = old.find("\n## ").map_or("", |at| &old[at + 1..]);
    let text = format!("{header}{entry}\n{entries}").trim_end().to_owned() + "\n";
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    schemac::write::write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac::diff::{Change, ChangeKind, Effect};

    /// A change with the verdicts its local effect would get from a proof.
    fn change_with(kind: ChangeKind, effect: Effect, detail: String) -> Change {
        let verdicts = match &effect {
            Effect::Neutral => [Verdict::Compatible, Verdict::Compatible],
            Effect::Loosens => [Verdict::Compatible, Verdict::Breaking],
            Effect::Tightens => [Verdict::Breaking, Verdict::Compatible],
            Effect::Changes => [Verdict::Breaking, Verdict::Breaking],
            Effect::Unknown(why) => [Verdict::Unknown(why.clone()), Verdict::Unknown(why.clone())],
        };
        Change { verdicts, ..Change::new(kind, None, None, effect, detail) }
    }

    fn report(effect: Effect) -> Report {
        Report { changes: vec![change_with(ChangeKind::BoundTightened, effect, String::new())], ..Report::default() }
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

    /// Breaking changes come first in an entry, whatever their order in the diff, then the
    /// undecided, compatible, annotation-only and Rust API ones.
    #[test]
    fn a_changelog_entry_lists_breaking_changes_first() {
        let change = |kind, effect| change_with(kind, effect, format!("{kind:?}"));
        let mut report = Report {
            changes: vec![
                change(ChangeKind::AnnotationChanged, Effect::Neutral),
                change(ChangeKind::EnumValuesAdded, Effect::Loosens),
                change(ChangeKind::PatternChanged, Effect::Unknown("two patterns".to_owned())),
                change(ChangeKind::RequiredAdded, Effect::Tightens),
            ],
            ..Report::default()
        };
        report.api.push(schemac::diff::ApiChange {
            path: "a::A".to_owned(),
            class: Bump::Patch,
            detail: "docs of `a::A` changed".to_owned(),
        });
        let text = entry(&report, Role::Reader, "1.2.0", "2.0.0", Bump::Major, &[]);
        let order: Vec<usize> = ["### Breaking", "RequiredAdded", "### Not decided", "PatternChanged", "### Compatible", "EnumValuesAdded"]
            .iter()
            .chain(&["### Annotations and structure", "AnnotationChanged", "### Rust API", "patch: docs of `a::A` changed"])
            .map(|needle| text.find(needle).unwrap_or_else(|| panic!("{needle} missing:\n{text}")))
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(text.starts_with("## 2.0.0\n\nFrom 1.2.0, for readers (`role = \"reader\"`): a breaking change.\n"), "{text}");
        assert!(text.contains("; not decided: two patterns\n"), "{text}");
    }

    /// What a registry must hold before the types crate: the crates it reaches by path, from
    /// `cargo metadata` of this workspace.
    #[test]
    fn the_packages_are_the_path_closure_of_the_types_crate() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let packages = packages(&root, "schema-types").unwrap();
        assert_eq!(packages, ["schema-types", "schemac", "schemac-derive", "schemac-runtime"]);
        assert_eq!(package_command(&packages[..1], true), ["cargo", "package", "--allow-dirty", "--no-verify", "-p", "schema-types"]);
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
