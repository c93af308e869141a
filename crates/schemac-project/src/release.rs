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
use super::api::{self, Api, ApiChange};
use super::error::{Context as _, Error, bail};
use super::files::Files;
use super::krate;
use super::schemas::{self, Found};
use super::spec::{CrateSpec, Unit};

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
    /// The schemac that generated the released crate and the crate's public API; `None` in a
    /// baseline written before schemac recorded it.
    pub generator: Option<Generator>,
}

/// What generated the released crate: schemac's version, the runtime contract its code was
/// written for, and the crate's public Rust API ([`Api`]), which `check` compares with what the
/// schemac running now generates from the released schemas.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    pub schemac: String,
    pub contract: u32,
    /// The format of the API listing ([`api::FORMAT`] when this schemac wrote it).
    pub api_format: u32,
    pub api: Api,
}

impl Generator {
    /// The schemac running now, with the API it generates for `project`'s current schemas.
    pub fn current(project: &Project) -> Result<Generator, Error> {
        let api = api_of(project.root(), project.spec())?;
        Ok(Generator { schemac: schemac::VERSION.to_owned(), contract: schemac::emit::RUNTIME_CONTRACT, api_format: api::FORMAT, api })
    }

    /// Whether this schemac can compare its API with the recorded one (the same listing format).
    fn comparable(&self) -> bool {
        self.api_format == api::FORMAT
    }
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
    generator: Option<RawGenerator>,
    #[serde(default)]
    schema: Vec<RawBaselineSchema>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawGenerator {
    schemac: String,
    contract: u32,
    api_format: u32,
    api_sha256: String,
    api: String,
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
        let generator = match raw.generator {
            None => None,
            Some(generator) => {
                if sha256(&generator.api) != generator.api_sha256 {
                    bail!("{file}: generator.api does not have its recorded sha256 {}\n  hint: {hint}", generator.api_sha256);
                }
                let api = Api::parse(&generator.api).map_err(|e| Error::other(format!("{file}: generator.api: {e}\n  hint: {hint}")))?;
                Some(Generator { schemac: generator.schemac, contract: generator.contract, api_format: generator.api_format, api })
            }
        };
        Ok(Baseline {
            name: raw.release.name,
            version: raw.release.version,
            default_draft,
            assert_formats: raw.release.assert_formats,
            schemas,
            generator,
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
            generator: None,
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
        let generator = self.generator.as_ref().map(|generator| {
            let mut table = Table::new();
            table.decor_mut().set_prefix(
                "\n# The schemac that generated the released crate, and the crate's public Rust API, which `schemac check`\n\
                 # compares with what the running schemac generates from the schemas above.\n",
            );
            let listing = generator.api.to_text();
            table["schemac"] = value(&generator.schemac);
            table["contract"] = value(i64::from(generator.contract));
            table["api-format"] = value(i64::from(generator.api_format));
            table["api-sha256"] = value(sha256(&listing));
            table["api"] = value(listing);
            table
        });
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
        if let Some(generator) = generator {
            doc["generator"] = Item::Table(generator);
        }
        doc["schema"] = Item::ArrayOfTables(tables);
        doc.to_string()
    }
}

/// The first unit of a crate that compiles checked types (not the plain-serde baseline).
fn first_unit(spec: &CrateSpec) -> Option<&Unit> {
    spec.units.iter().find(|u| !u.plain_serde)
}

fn found_schemas(root: &Path, spec: &CrateSpec) -> Result<Vec<Found>, Error> {
    let Some(unit) = first_unit(spec) else { return Ok(Vec::new()) };
    schemas::find_schemas(root, &unit.roots, spec.roots_required, &spec.config_file)
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

/// The front end of the crate's schemas under `root`, read as `spec` says, and the
/// configuration it compiles them with.
fn front(root: &Path, spec: &CrateSpec) -> Result<Option<(schemac::Front, schemac::Config)>, Error> {
    let Some(unit) = first_unit(spec) else { return Ok(None) };
    let found = found_schemas(root, spec)?;
    if found.is_empty() {
        return Ok(None);
    }
    let (input, config) = krate::unit_input(root, spec, unit, &found)?;
    Ok(Some((schemac::front(&input, &config)?, config)))
}

/// `spec` as it read the released schemas of `baseline` (written under another root): their
/// root names, draft and formats then; every other setting is today's.
fn released_spec(spec: &CrateSpec, baseline: &Baseline) -> CrateSpec {
    let mut old_spec = spec.clone();
    old_spec.root_names = baseline.schemas.iter().filter_map(|s| Some((s.path.clone(), s.root_name.clone()?))).collect();
    old_spec.default_draft = baseline.default_draft;
    for unit in &mut old_spec.units {
        unit.assert_formats = baseline.assert_formats;
    }
    // Roots that are missing in the released set are no error there.
    old_spec.roots_required = false;
    old_spec
}

/// The public API of the crate `spec` generates from the schemas under `root` (its sources
/// only: no round-trip tests, no pages).
fn api_of(root: &Path, spec: &CrateSpec) -> Result<Api, Error> {
    let mut spec = spec.clone();
    spec.round_trips = false;
    spec.pages = false;
    let krate = krate::generate_crate(root, &spec)?;
    Api::of_crate(&krate.files, &spec.dir)
}

/// What the schemac running now changed in the public API of the released crate: the API it
/// generates from the released schemas, with today's settings, against the API the baseline
/// recorded. `None` when the baseline records no generator. `current` is the crate generated
/// from today's schemas, if at hand: when they are the released ones, its API is that API.
pub fn generator_changes(project: &Project, baseline: &Baseline, current: Option<&Files>) -> Result<Option<Vec<ApiChange>>, Error> {
    let Some(recorded) = baseline.generator.as_ref().filter(|g| g.comparable()) else { return Ok(None) };
    let spec = project.spec();
    let same = baseline.same_schemas(&Baseline::current(project, &baseline.version)?);
    let now = match current.and_then(|files| files.crates().iter().find(|c| c.dir == spec.dir)) {
        Some(krate) if same => Api::of_crate(&krate.files, &spec.dir)?,
        _ if same => api_of(project.root(), spec)?,
        _ => {
            let scratch = Scratch::of(baseline)?;
            api_of(&scratch.0, &released_spec(spec, baseline)).context("cannot generate the released schemas of the baseline")?
        }
    };
    Ok(Some(api::compare(&recorded.api, &now)))
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
    let old = front(&scratch.0, &released_spec(spec, baseline)).context("cannot read the released schemas of the baseline")?;
    let new = front(project.root(), spec)?;
    // The Rust API class reads today's settings (`non-exhaustive` above all), as the crate is
    // generated with them.
    let config = match (&old, &new) {
        (_, Some((_, config))) | (Some((_, config)), None) => config.clone(),
        (None, None) => schemac::Config::default(),
    };
    let options = schemac::diff::Options { config, policy: project.config().krate.compat_policy };
    let empty = || -> Result<schemac::Front, Error> { Ok(schemac::front(&schemac::Input::default(), &schemac::Config::default())?) };
    let (old, new) = (old.map(|(f, _)| f), new.map(|(f, _)| f));
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

/// The bump the generator's API changes require: the largest class among them.
fn generator_bump(changes: &[ApiChange]) -> Bump {
    changes.iter().map(|c| c.class).max().unwrap_or(Bump::None)
}

/// A generator's API change in words, as check's error and the changelog say it.
fn describe_generated(change: &ApiChange, recorded: &Generator) -> String {
    format!(
        "the generator changed the crate's public API for the same schemas (schemac {} generated the release, schemac {} \
         with today's settings generates it now): {}",
        recorded.schemac,
        schemac::VERSION,
        change.detail
    )
}

/// `check`'s version rule: with a baseline, the configured version must be at least the one the
/// changes since the release require: those of the schemas, and those the schemac running now
/// makes to the crate's public API for the released schemas. The report line when it is; an
/// error naming the deciding change, the version needed and the version configured when it is
/// not. `files` is the crate as generated now, if at hand.
pub fn check_version(project: &Project, files: Option<&Files>) -> Result<Option<String>, Error> {
    let Some(baseline) = Baseline::load(project)? else { return Ok(None) };
    let config = project.config();
    let role = config.krate.role;
    let report = diff_since(project, &baseline)?;
    let generated = generator_changes(project, &baseline, files)?;
    let generated_bump = generated.as_deref().map_or(Bump::None, generator_bump);
    let bump = required_bump(&report, role).max(generated_bump);
    let Some(needed) = bump.apply(&baseline.version) else {
        bail!("{BASELINE_FILE}: release.version {:?} is not MAJOR.MINOR.PATCH", baseline.version);
    };
    let configured = &config.krate.version;
    let generated = generated.unwrap_or_default();
    let changes = report.changes.len() + report.api.len() + generated.len();
    if satisfies(configured, &needed) {
        let mut line = format!(
            "version {configured} covers the {changes} change{} since release {} (needs {needed} for {})",
            plural(changes),
            baseline.version,
            role_words(role)
        );
        match &baseline.generator {
            Some(recorded) if !generated.is_empty() => {
                let versions = if recorded.schemac == schemac::VERSION {
                    format!("schemac {}, with changed defaults or settings", recorded.schemac)
                } else {
                    format!("schemac {} → {}", recorded.schemac, schemac::VERSION)
                };
                let _ = write!(line, "; {} of them by the generator ({versions})", generated.len());
            }
            Some(recorded) if recorded.comparable() => {}
            Some(recorded) => {
                let _ = write!(
                    line,
                    "; the baseline's API listing is of format {} (schemac {}), this schemac writes format {}, so a change \
                     schemac makes to the generated API is not checked: `schemac release` records it again",
                    recorded.api_format,
                    recorded.schemac,
                    api::FORMAT
                );
            }
            None => line.push_str(
                "; the baseline records no generator, so a change schemac makes to the generated API is not checked: \
                 `schemac release` records it",
            ),
        }
        return Ok(Some(line));
    }
    // The deciding change: a schema change of the largest class, else the generator's first.
    let reason = match (&baseline.generator, generated.iter().find(|c| c.class == bump)) {
        (Some(recorded), Some(change)) if required_bump(&report, role) < bump => describe_generated(change, recorded),
        _ => decisive(&report, role).unwrap_or_else(|| "the schemas changed".to_owned()),
    };
    let more = match changes - 1 {
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
    /// Nothing to release, but the baseline (written by an older schemac) records no
    /// generator: the release records it, at the released version, and writes nothing else.
    pub generator_only: bool,
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

/// What `release` would do now; `None` when there is nothing to release (the schemas, the
/// generated API and the version are those of the last release).
pub fn plan(project: &Project) -> Result<Option<Plan>, Error> {
    let config = project.config();
    let role = config.krate.role;
    let configured = config.krate.version.clone();
    let date = today();
    let Some(released) = Baseline::load(project)? else {
        let mut baseline = Baseline::current(project, &configured)?;
        baseline.generator = Some(Generator::current(project)?);
        let changelog = first_entry(&baseline, &date);
        let plan = Plan {
            from: None,
            version: configured,
            bump: Bump::None,
            schema_versions: Vec::new(),
            changelog,
            baseline,
            generator_only: false,
        };
        return Ok(Some(plan));
    };
    let report = diff_since(project, &released)?;
    let generated = generator_changes(project, &released, None)?.unwrap_or_default();
    let bump = required_bump(&report, role).max(generator_bump(&generated));
    let Some(needed) = bump.apply(&released.version) else {
        bail!("{BASELINE_FILE}: release.version {:?} is not MAJOR.MINOR.PATCH", released.version);
    };
    // A version set higher by hand stands.
    let version = larger(needed, &configured);
    if bump == Bump::None && version == released.version {
        if released.generator.as_ref().is_some_and(Generator::comparable) {
            return Ok(None);
        }
        let mut baseline = released.clone();
        baseline.generator = Some(Generator::current(project)?);
        let from = Some(released.version);
        return Ok(Some(Plan {
            from,
            version,
            bump,
            schema_versions: Vec::new(),
            changelog: String::new(),
            baseline,
            generator_only: true,
        }));
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
    baseline.generator = Some(Generator::current(project)?);
    let generator =
        released.generator.as_ref().filter(|g| g.comparable()).map(|recorded| (recorded.schemac.as_str(), generated.as_slice()));
    let modules = found_schemas(project.root(), project.spec())?
        .into_iter()
        .map(|found| (krate::module_path(&found.segments).join("::"), found.display))
        .collect();
    let release = Release { from: &released.version, version: &version, date: &date, bump, role, modules };
    let changelog = entry(&report, &release, &schema_versions, generator);
    Ok(Some(Plan { from: Some(released.version), version, bump, schema_versions, changelog, baseline, generator_only: false }))
}

/// Today's date (UTC, `YYYY-MM-DD`), as a changelog entry is dated; `SOURCE_DATE_EPOCH` (the
/// reproducible-builds convention) stands for now when set.
fn today() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()));
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn first_entry(baseline: &Baseline, date: &str) -> String {
    let n = baseline.schemas.len();
    let mut out = format!("## [{}] - {date}\n\nFirst release, with {n} schema{}.\n\n### Added\n\n", baseline.version, plural(n));
    for schema in &baseline.schemas {
        let _ = writeln!(out, "- `{}`", schema.path);
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The release an entry is about.
struct Release<'a> {
    from: &'a str,
    version: &'a str,
    date: &'a str,
    bump: Bump,
    role: Role,
    /// Each schema's module path (`pi_glla::goal`) and file, to place the Rust API changes.
    modules: Vec<(String, String)>,
}

/// The Keep a Changelog sections, in their order.
const SECTIONS: [&str; 3] = ["Added", "Changed", "Removed"];

/// Which section a schema change belongs to: what it adds (a schema, definition, property,
/// enum value, branch), what it removes, or what it changes (everything else).
fn section_of(change: &Change) -> usize {
    let name = change.kind.name();
    let added = ["schema-added", "definition-added", "enum-values-added", "property-added-open", "property-added-closed"];
    let removed = ["schema-removed", "definition-removed", "enum-values-removed", "property-removed-open", "property-removed-closed"];
    if added.contains(&name) || name == "pattern-property-added" || name == "branch-added" {
        0
    } else if removed.contains(&name) || name == "pattern-property-removed" || name == "branch-removed" {
        2
    } else {
        1
    }
}

/// The section of a Rust API change, from its wording.
fn section_of_api(detail: &str) -> usize {
    if detail.contains(" removed") {
        2
    } else if detail.contains(" added") {
        0
    } else {
        1
    }
}

/// One line of an entry: how severe it is (0 breaking, 1 not decided, 2 the rest), its text.
type Line = (u8, String);

/// The witnesses of a breaking change, each inline when short, else as a JSON block under its
/// entry: for readers a document valid under the previous version and invalid under the new
/// one, for writers the other way round.
fn witness_text(change: &Change, release: &Release<'_>) -> String {
    let mut out = String::new();
    for (i, (valid, invalid)) in [(release.from, release.version), (release.version, release.from)].into_iter().enumerate() {
        let hit = match (i, release.role) {
            (0, Role::Writer) | (1, Role::Reader) => false,
            _ => change.verdicts[i] == Verdict::Breaking,
        };
        let Some(witness) = change.witnesses[i].as_ref().filter(|_| hit) else { continue };
        let side = format!("valid under {valid}, invalid under {invalid}");
        let compact = witness.to_string();
        if compact.len() <= 120 {
            let _ = write!(out, "\n    Witness ({side}): `{compact}`");
        } else {
            let pretty = serde_json::to_string_pretty(witness).unwrap_or(compact);
            let block: String = pretty.lines().map(|l| format!("    {l}\n")).collect();
            let _ = write!(out, "\n    Witness ({side}):\n\n    ```json\n{block}    ```");
        }
    }
    if out.is_empty() {
        out.push_str("\n    No witness found.");
    }
    out
}

/// A schema change as a changelog line.
fn change_line(change: &Change, release: &Release<'_>) -> Line {
    let pointer = |p: &Option<schemac::diff::Place>| p.as_ref().map(|p| format!("#{}", p.pointer));
    let at = match (pointer(&change.old), pointer(&change.new)) {
        (Some(old), Some(new)) if old != new => format!("{old} → {new}"),
        (Some(place), _) | (None, Some(place)) => place,
        (None, None) => String::new(),
    };
    let verdicts = format!("readers: {}, writers: {}", change.readers().as_str(), change.writers().as_str());
    let what = format!("`{}` at `{at}`: {} ({verdicts})", change.kind.name(), change.detail);
    match change.verdict(release.role) {
        Verdict::Breaking => {
            let who = roles_hit(change, release.role, |v| *v == Verdict::Breaking);
            let witness = witness_text(change, release);
            (0, format!("**Breaking** for {who}: {what}{witness}"))
        }
        Verdict::Unknown(why) => (1, format!("**Not decided** for {}: {what}; {why}", role_words(release.role))),
        Verdict::Compatible => (2, what),
    }
}

/// A changelog entry in the Keep a Changelog layout: `## [VERSION] - DATE`, the previous →
/// new version and why, then `Added`, `Changed` and `Removed` (a section with a breaking entry
/// before those without), each grouped by schema, breaking entries first with their witness
/// document; the generator's changes to the public API apart from the schemas'; the schemas'
/// registry versions.
fn entry(
    report: &Report,
    release: &Release<'_>,
    schema_versions: &[(String, String, String)],
    generator: Option<(&str, &[ApiChange])>,
) -> String {
    let mut out = format!("## [{}] - {}\n\n", release.version, release.date);
    let why = match (release.bump, release.from.starts_with("0.")) {
        (Bump::Major, true) => "a breaking change, which before 1.0.0 bumps the minor version",
        (Bump::Major, false) => "a breaking change",
        (Bump::Minor, true) => "compatible changes of what is valid or of the API, which before 1.0.0 bump the patch version",
        (Bump::Minor, false) => "compatible changes of what is valid or of the API",
        (Bump::Patch, _) => "changes of annotations and docs only",
        (Bump::None, _) => "no change of the schemas or the API",
    };
    let name = match release.role {
        Role::Reader => "reader",
        Role::Writer => "writer",
        Role::Both => "both",
    };
    let _ = writeln!(out, "{} → {}, for {} (`role = \"{name}\"`): {why}.\n", release.from, release.version, role_words(release.role));
    // Section → group (a schema's path, or the generator) → lines.
    let mut sections: [BTreeMap<String, Vec<Line>>; 3] = Default::default();
    for change in &report.changes {
        let file = change.new.as_ref().or(change.old.as_ref()).map_or_else(String::new, |p| p.file.clone());
        sections[section_of(change)].entry(format!("`{file}`")).or_default().push(change_line(change, release));
    }
    for change in &report.api {
        let severity = if change.class == Bump::Major { 0 } else { 2 };
        let marker = if severity == 0 { "**Breaking** (Rust API): " } else { "Rust API: " };
        // The schema whose module holds the type.
        let file =
            release.modules.iter().filter(|(module, _)| change.path.starts_with(&format!("{module}::"))).max_by_key(|(m, _)| m.len());
        let group = file.map_or_else(|| "Rust API".to_owned(), |(_, file)| format!("`{file}`"));
        sections[section_of_api(&change.detail)].entry(group).or_default().push((severity, format!("{marker}{}", change.detail)));
    }
    if let Some((schemac, changes)) = generator {
        // The same schemac version generating another API: its defaults or the project's
        // settings changed, not its version (`schemac 0.1.0 → 0.1.0` would read as a slip).
        let group = if schemac == schemac::VERSION {
            format!("Generated code, for the same schemas (schemac {schemac}, with changed defaults or settings)")
        } else {
            format!("Generated code, for the same schemas (schemac {schemac} → {}, with today's settings)", schemac::VERSION)
        };
        for change in changes {
            let section = match change.kind {
                api::ApiChangeKind::Added => 0,
                api::ApiChangeKind::Changed => 1,
                api::ApiChangeKind::Removed => 2,
            };
            let severity = if change.class == Bump::Major { 0 } else { 2 };
            let marker = if severity == 0 { "**Breaking**: " } else { "" };
            sections[section].entry(group.clone()).or_default().push((severity, format!("{marker}{}", change.detail)));
        }
    }
    let breaking = |section: &BTreeMap<String, Vec<Line>>| section.values().flatten().any(|(severity, _)| *severity == 0);
    let mut order: Vec<usize> = (0..SECTIONS.len()).filter(|&i| !sections[i].is_empty()).collect();
    order.sort_by_key(|&i| !breaking(&sections[i]));
    for i in order {
        let _ = writeln!(out, "### {}\n", SECTIONS[i]);
        // The schemas in path order (their groups are their quoted paths), then the Rust API
        // of no schema's module, then the generator's.
        let mut groups: Vec<(&String, &Vec<Line>)> = sections[i].iter().collect();
        groups.sort_by_key(|(group, _)| (!group.starts_with('`'), group.starts_with("Generated code")));
        for (group, lines) in groups {
            let _ = writeln!(out, "- {group}:");
            let mut lines = lines.clone();
            lines.sort_by_key(|(severity, _)| *severity);
            for (_, line) in lines {
                let _ = writeln!(out, "  - {line}");
            }
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
    if plan.generator_only {
        let generator = plan.baseline.generator.as_ref().map_or_else(String::new, |g| {
            format!(" (schemac {}, runtime contract {}, {} API entries)", g.schemac, g.contract, g.api.len())
        });
        let mut out = format!(
            "nothing to release: the schemas and crate.version ({}) are those of the last release\n\
             {record} the generator of release {}{generator} in {BASELINE_FILE}, which `check` compares the generated API with from now on\n",
            plan.version, plan.version
        );
        if !options.dry_run {
            let baseline_path = project.root().join(BASELINE_FILE);
            schemac::write::write_atomic(&baseline_path, plan.baseline.to_toml().as_bytes())
                .with_context(|| format!("cannot write {}", baseline_path.display()))?;
        } else {
            out.push_str("(dry run: nothing written)\n");
        }
        return Ok(out);
    }
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
    let api = plan.baseline.generator.as_ref().map_or(0, |g| g.api.len());
    let _ = writeln!(
        out,
        "{record} {} schema{} and the generated API ({api} entries, schemac {}) in {BASELINE_FILE}",
        plan.baseline.schemas.len(),
        plural(plan.baseline.schemas.len()),
        schemac::VERSION
    );
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
        "# Changelog of {name}\n\nAll notable changes of this crate, newest first. The format is based on \
         [Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and the crate follows [Semantic \
         Versioning](https://semver.org/spec/v2.0.0.html) as Cargo reads it (before 1.0.0, a breaking change bumps the \
         minor version).\n\n<!-- Written by `schemac release` (or `cargo xtask release`) from the diff against the last \
         release and from the public API the generator changed; in each entry, breaking changes first, each with a \
         document that shows it (its witness). -->\n\n"
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

    /// An entry in the Keep a Changelog layout: the version and date, previous → new; the
    /// sections with a breaking entry first, each grouped by schema, breaking entries first
    /// with their witness; the generator's API changes apart from the schemas'.
    /// The report of a real diff: `old` → `new`, both `schemas/a.json`.
    fn diff_of(old: &str, new: &str) -> Report {
        let dir = std::env::temp_dir().join(format!("schemac-release-entry-{}", std::process::id()));
        let front = |name: &str, text: &str| {
            let path = dir.join(name).join("schemas/a.json");
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
            let source = schemac::SchemaSource::new(path).display("schemas/a.json".to_owned()).module(["a"]).root_name("A");
            schemac::front(&schemac::Input::new([source]), &schemac::Config::default()).unwrap()
        };
        let (old, new) = (front("old", old), front("new", new));
        // As a crate from `schemac init` is generated: a value added to an enum is minor.
        let config = schemac::Config::default().non_exhaustive(true);
        let report = schemac_synth::diff(&old, &new, &schemac::diff::Options { config, ..schemac::diff::Options::default() }).unwrap();
        let _ = fs::remove_dir_all(&dir);
        report
    }

    /// An entry in the Keep a Changelog layout: the version and date, previous → new; the
    /// sections with a breaking entry first, grouped by schema, breaking entries first with
    /// their witness; the generator's API changes apart from the schemas'.
    #[test]
    fn a_changelog_entry_lists_breaking_changes_first_with_their_witness() {
        let report = diff_of(
            r#"{"title": "A", "type": "object", "properties": {"id": {"type": "integer"}, "mode": {"enum": ["a"]}}}"#,
            r#"{"title": "A!", "type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "mode": {"enum": ["a", "b"]}}}"#,
        );
        let generated = [ApiChange {
            key: "a::A".to_owned(),
            class: Bump::Major,
            kind: api::ApiChangeKind::Changed,
            detail: "`a::A` is `struct, non-exhaustive` now (was `struct`)".to_owned(),
        }];
        let modules = vec![("a".to_owned(), "schemas/a.json".to_owned())];
        let release = Release { from: "1.2.0", version: "2.0.0", date: "2026-12-03", bump: Bump::Major, role: Role::Reader, modules };
        let versions = [("schemas/a.json".to_owned(), "1.0.0".to_owned(), "2.0.0".to_owned())];
        // Recorded by the running schemac: the generated API changed with its defaults or settings.
        let text = entry(&report, &release, &versions, Some((schemac::VERSION, &generated)));
        let order: Vec<usize> = [
            "## [2.0.0] - 2026-12-03\n\n1.2.0 → 2.0.0, for readers (`role = \"reader\"`): a breaking change.",
            "### Changed",
            "- `schemas/a.json`:\n  - **Breaking** for readers: `required-added` at `#/required`",
            "    Witness (valid under 1.2.0, invalid under 2.0.0): `{",
            "  - `annotation-changed` at `#/title`",
            &format!("- Generated code, for the same schemas (schemac {}, with changed defaults or settings):", schemac::VERSION),
            "  - **Breaking**: `a::A` is `struct, non-exhaustive` now (was `struct`)",
            "### Added",
            "`enum-values-added` at `#/properties/mode/enum`",
            "### Schema versions\n\n- `schemas/a.json`: 1.0.0 → 2.0.0",
        ]
        .iter()
        .map(|needle| text.find(needle).unwrap_or_else(|| panic!("{needle} missing:\n{text}")))
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_790), "2026-12-03");
    }

    /// What a registry must hold before the types crate: the crates it reaches by path, from
    /// `cargo metadata` of this workspace.
    #[test]
    fn the_packages_are_the_path_closure_of_the_types_crate() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let packages = packages(&root, "schema-types").unwrap();
        assert_eq!(packages, ["schema-types", "schemac", "schemac-derive", "schemac-model", "schemac-runtime"]);
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
