//! The project pipeline end to end in scratch repositories: write, check, drift of every kind,
//! and bad input.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;

/// A scratch repository, removed on drop.
struct TempRepo(PathBuf);

const CONFIG: &str = r#"[crate]
name = "schema-types"
version = "0.1.0"
description = "Test types"
output = "generated"

[schemas]
roots = ["schemas"]

[schema."schemas/team/user.json"]
root-name = "User"
"#;

impl TempRepo {
    fn new() -> TempRepo {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("schemac-project-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempRepo(dir)
    }

    /// A repository with `schemac.toml` and two schemas, already generated.
    fn generated() -> TempRepo {
        let repo = TempRepo::new();
        repo.write("schemac.toml", CONFIG);
        repo.write("schemas/team/user.json", &object_schema("name"));
        repo.write("schemas/order.json", &object_schema("id"));
        repo.codegen().unwrap();
        assert_eq!(repo.drift(), Drift::default(), "check must pass right after codegen");
        repo
    }

    fn write(&self, path: &str, contents: &str) {
        let path = self.0.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.0.join(path)).unwrap()
    }

    fn project(&self) -> Result<Project, Error> {
        Project::load(self.0.join("schemac.toml"))
    }

    fn codegen(&self) -> Result<Drift, Error> {
        self.project()?.generate()?.write(&self.0)
    }

    fn drift(&self) -> Drift {
        self.project().unwrap().generate().unwrap().check(&self.0).unwrap()
    }

    /// Asserts check finds the drift, codegen repairs it, and check then passes.
    fn assert_caught_and_repaired(&self, expected: impl Fn(&Change) -> bool) {
        let drift = self.drift();
        assert!(drift.iter().any(&expected), "drift not caught: {drift:#?}");
        assert!(!drift.to_string().is_empty());
        self.codegen().unwrap();
        assert_eq!(self.drift(), Drift::default());
    }
}

impl Drop for TempRepo {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn object_schema(property: &str) -> String {
    format!(
        r#"{{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {{ "{property}": {{ "type": "string" }} }},
  "required": ["{property}"]
}}
"#
    )
}

#[test]
fn codegen_writes_the_crate_and_is_idempotent() {
    let repo = TempRepo::generated();
    let lib = repo.read("generated/src/lib.rs");
    assert!(lib.contains("#![forbid(unsafe_code)]"), "{lib}");
    let manifest = repo.read("generated/Cargo.toml");
    assert!(manifest.contains("name = \"schema-types\""), "{manifest}");
    assert!(manifest.contains("schemac-runtime = { version = \"0.1.0\" }"), "{manifest}");
    assert!(repo.0.join("generated/tests/schemas/main.rs").is_file());
    assert_eq!(repo.codegen().unwrap(), Drift::default(), "a second codegen writes nothing");
    // Nothing of the swap is left beside the crate.
    let names: Vec<String> = fs::read_dir(&repo.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains("schemac-")), "{names:?}");
}

#[test]
fn catches_a_schema_changed_without_regenerating() {
    let repo = TempRepo::generated();
    repo.write("schemas/team/user.json", &object_schema("email"));
    repo.assert_caught_and_repaired(
        |d| matches!(d, Change::Changed { path, diff } if path == "generated/src/team/user.rs" && diff.contains("email")),
    );
}

#[test]
fn catches_a_generated_file_edited_by_hand() {
    let repo = TempRepo::generated();
    let path = "generated/src/lib.rs";
    repo.write(path, &repo.read(path).replace("#![forbid(unsafe_code)]", "#![allow(unsafe_code)]"));
    repo.assert_caught_and_repaired(|d| {
        matches!(d, Change::Changed { path: p, diff } if p == path
            && diff.contains("-#![allow(unsafe_code)]\n+#![forbid(unsafe_code)]"))
    });
}

#[test]
fn catches_a_stale_file_whose_schema_was_deleted() {
    let repo = TempRepo::generated();
    fs::remove_file(repo.0.join("schemas/order.json")).unwrap();
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Stale { path } if path == "generated/src/order.rs"));
    assert!(!repo.0.join("generated/src/order.rs").exists());
}

#[test]
fn catches_a_stray_rs_file_and_deletes_emptied_directories() {
    let repo = TempRepo::generated();
    repo.write("generated/src/gone/old.rs", "// @generated from a schema since deleted\n");
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Stale { path } if path == "generated/src/gone/old.rs"));
    assert!(!repo.0.join("generated/src/gone").exists());
}

#[test]
fn keeps_the_files_it_does_not_generate() {
    let repo = TempRepo::generated();
    repo.write("generated/.gitignore", "target/\n");
    repo.write("generated/tests/data/notes.txt", "kept\n");
    repo.write("schemas/order.json", &object_schema("number"));
    repo.codegen().unwrap();
    assert_eq!(repo.read("generated/.gitignore"), "target/\n");
    assert_eq!(repo.read("generated/tests/data/notes.txt"), "kept\n");
}

#[test]
fn catches_missing_files_and_a_missing_crate() {
    let repo = TempRepo::generated();
    fs::remove_file(repo.0.join("generated/README.md")).unwrap();
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Missing { path } if path == "generated/README.md"));
    fs::remove_file(repo.0.join("generated/src/team/user.rs")).unwrap();
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Missing { path } if path == "generated/src/team/user.rs"));
    fs::remove_dir_all(repo.0.join("generated")).unwrap();
    let drift = repo.drift();
    assert!(drift.iter().all(|c| matches!(c, Change::Missing { .. })) && drift.len() > 5, "{drift:#?}");
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Missing { path } if path == "generated/Cargo.toml"));
}

/// A schema error stops codegen before anything is written: the old crate stays whole.
#[test]
fn a_schema_error_writes_nothing() {
    let repo = TempRepo::generated();
    let before = repo.read("generated/src/lib.rs");
    repo.write("schemas/broken.json", "{ not json");
    repo.write("schemas/order.json", &object_schema("changed"));
    let err = repo.codegen().unwrap_err();
    assert!(err.diagnostics().is_some_and(|d| d.iter().any(|d| d.file == "schemas/broken.json" && d.position.is_some())), "{err}");
    assert_eq!(repo.read("generated/src/lib.rs"), before);
    assert!(!repo.read("generated/src/order.rs").contains("changed"));
}

#[test]
fn rejects_config_naming_a_missing_schema_at_its_table() {
    let repo = TempRepo::generated();
    fs::remove_file(repo.0.join("schemas/team/user.json")).unwrap();
    let err = repo.project().unwrap().generate().unwrap_err();
    let ErrorKind::Config(config) = err.kind() else { panic!("{err}") };
    assert_eq!(config.key.as_deref(), Some("schema.\"schemas/team/user.json\""));
    assert_eq!(config.position, Some((10, 9)));
    assert!(config.message.contains("names a schema that is not under schemas.roots"), "{err}");
}

#[test]
fn rejects_a_missing_root_and_an_output_over_the_schemas() {
    let repo = TempRepo::new();
    repo.write("schemac.toml", CONFIG);
    let err = repo.project().unwrap().generate().unwrap_err().to_string();
    assert_eq!(err, "schemac.toml: schema root `schemas` is not a directory");
    repo.write("schemac.toml", &CONFIG.replace("output = \"generated\"", "output = \"schemas/out\""));
    let err = repo.project().unwrap_err();
    assert!(err.is_config(), "{err}");
    assert!(err.to_string().contains("crate.output: \"schemas/out\" overlaps the schema root \"schemas\""), "{err}");
}

#[test]
fn a_missing_config_is_a_config_error() {
    let repo = TempRepo::new();
    let err = repo.project().unwrap_err();
    assert!(err.is_config(), "{err}");
    assert!(err.to_string().contains("cannot read it"), "{err}");
}

/// An unchanged rerun reuses the cached files; a changed schema, a new schema under a root or
/// `cache(false)` compiles again.
#[test]
fn the_cache_is_reused_only_while_the_inputs_are_unchanged() {
    let repo = TempRepo::generated();
    let entry = repo.0.join("target/schemac-cache/generated.json");
    let text = fs::read_to_string(&entry).expect("codegen stored a cache entry");
    // Mark the cached copy, so that using it shows.
    fs::write(&entry, text.replace("#![forbid(unsafe_code)]", "#![forbid(unsafe_code)] // cached")).unwrap();
    let lib = |project: Project| project.generate().unwrap().get("generated/src/lib.rs").unwrap().to_owned();
    assert!(lib(repo.project().unwrap()).contains("// cached"));
    assert!(!lib(repo.project().unwrap().cache(false)).contains("// cached"));
    repo.write("schemas/extra.json", &object_schema("x"));
    let fresh = lib(repo.project().unwrap());
    assert!(!fresh.contains("// cached") && fresh.contains("extra"), "{fresh}");
    fs::write(&entry, fs::read_to_string(&entry).unwrap().replace("#![forbid(unsafe_code)]", "#![forbid(unsafe_code)] // cached")).unwrap();
    repo.write("schemas/order.json", &object_schema("changed"));
    assert!(!lib(repo.project().unwrap()).contains("// cached"));
}

/// The include path in `module` (a crate file) resolved against its directory, `..` applied.
fn included_page(repo: &TempRepo, module: &str) -> String {
    let code = repo.read(module);
    let line = code.lines().find(|l| l.starts_with("#![doc = include_str!(")).unwrap_or_else(|| panic!("no page in {module}:\n{code}"));
    let relative = line.trim_start_matches("#![doc = include_str!(\"").trim_end_matches("\")]");
    let mut path: Vec<&str> = module.split('/').collect();
    path.pop();
    for segment in relative.split('/') {
        match segment {
            ".." => {
                path.pop();
            }
            s => path.push(s),
        }
    }
    path.join("/")
}

#[test]
fn every_schema_gets_a_page_with_its_notes_and_the_crates_default_address() {
    let repo = TempRepo::new();
    let config = CONFIG.replace("output = \"generated\"\n", "output = \"generated\"\nserved-at = [\"GET /schemas/{reference}\"]\n")
        + "summary = \"A member of a team.\"\nappears = [\"Returned by: GET /users/{id}\", \"Sent to: the audit log\"]\nserved-at = [\"GET /v2/{reference}\", \"MCP get_user\"]\n";
    repo.write("schemac.toml", &config);
    repo.write(
        "schemas/team/user.json",
        &object_schema("name").replacen(
            '{',
            "{\n  \"title\": \"User\",\n  \"description\": \"Someone who signs in; see https://example.com/users_guide.\",",
            1,
        ),
    );
    repo.write("schemas/order.json", &object_schema("id"));
    repo.codegen().unwrap();

    let user = repo.read("generated/docs/team/user.md");
    assert!(user.starts_with("<!-- @generated by `cargo xtask codegen` from schemas/team/user.json and schemac.toml."), "{user}");
    assert!(user.contains("\n# team/user\n\nUser — A member of a team.\n"), "the reference heads it, the summary leads:\n{user}");
    assert!(user.contains("| Served at | GET /v2/team/user · MCP get\\_user |"), "{user}");
    assert!(user.contains("## Where it appears\n\n- Returned by: GET /users/{id}\n- Sent to: the audit log\n"), "{user}");
    assert!(user.contains("| name | string | yes |"), "{user}");
    let order = repo.read("generated/docs/order.md");
    assert!(order.contains("| Served at | GET /schemas/order |"), "the crate's default address:\n{order}");
    assert!(!order.contains("Where it appears"), "{order}");

    // Each page is its module's rustdoc, by a path that exists from the module file.
    assert_eq!(included_page(&repo, "generated/src/team/user.rs"), "generated/docs/team/user.md");
    assert_eq!(included_page(&repo, "generated/src/order.rs"), "generated/docs/order.md");
    let readme = repo.read("generated/README.md");
    assert!(readme.contains("Reference page: [`docs/team/user.md`](docs/team/user.md)."), "{readme}");

    // A page edited by hand is drift; notes that change change the page.
    repo.write("generated/docs/order.md", "edited\n");
    repo.assert_caught_and_repaired(|d| matches!(d, Change::Changed { path, .. } if path == "generated/docs/order.md"));
    repo.write("schemac.toml", &config.replace("A member of a team.", "One of a team."));
    repo.assert_caught_and_repaired(
        |d| matches!(d, Change::Changed { path, diff } if path == "generated/docs/team/user.md" && diff.contains("One of a team.")),
    );
}

#[test]
fn pages_off_writes_none_and_notes_for_an_unknown_schema_are_an_error() {
    let repo = TempRepo::generated();
    repo.write("schemac.toml", &CONFIG.replace("output = \"generated\"\n", "output = \"generated\"\npages = false\n"));
    repo.codegen().unwrap();
    assert!(!repo.0.join("generated/docs").exists(), "pages = false removes the pages codegen wrote before");
    assert!(!repo.read("generated/src/team/user.rs").contains("include_str!"));
    assert!(!repo.read("generated/README.md").contains("Reference page"));

    repo.write("schemac.toml", &format!("{CONFIG}\n[schema.\"schemas/gone.json\"]\nsummary = \"Nothing\"\n"));
    let err = repo.project().unwrap().generate().unwrap_err();
    let ErrorKind::Config(config) = err.kind() else { panic!("{err}") };
    assert_eq!(config.key.as_deref(), Some("schema.\"schemas/gone.json\""), "{err}");
}

/// `object_schema` with a `maxLength` on its property: fewer documents are valid (breaking for
/// readers, compatible for writers), and the Rust API is the same.
fn bounded_object_schema(property: &str) -> String {
    object_schema(property).replace(r#"{ "type": "string" }"#, r#"{ "type": "string", "maxLength": 5 }"#)
}

impl TempRepo {
    fn release(&self, dry_run: bool) -> Result<String, Error> {
        let options = release::ReleaseOptions { dry_run, no_package: true, no_verify: true };
        release::release(&self.project()?, &options)
    }

    fn check(&self) -> Result<String, Error> {
        check(&self.project()?, "`cargo xtask codegen`")
    }

    /// A repository released once (the baseline records its schemas at 0.1.0), whose order
    /// schema then gains a `maxLength`, regenerated.
    fn released_then_tightened() -> TempRepo {
        let repo = TempRepo::generated();
        let first = repo.release(false).unwrap();
        assert!(first.contains("released schema-types 0.1.0 (the first release: no baseline yet)"), "{first}");
        assert!(
            repo.check().unwrap().ends_with("version 0.1.0 covers the 0 changes since release 0.1.0 (needs 0.1.0 for readers and writers)")
        );
        repo.write("schemas/order.json", &bounded_object_schema("id"));
        repo.codegen().unwrap();
        repo
    }
}

#[test]
fn check_catches_a_missing_bump() {
    let repo = TempRepo::released_then_tightened();
    let expected = "schema change bound-added at schemas/order.json#/properties/id/maxLength is breaking for readers: the crate needs \
                    0.2.0, schemac.toml says 0.1.0\n  \
                    hint: run `schemac release` (or `cargo xtask release`), or set crate.version = \"0.2.0\" in schemac.toml";
    assert_eq!(repo.check().unwrap_err().to_string(), expected);
    // A patch bump is not enough; the minor one is (Cargo's rule before 1.0.0).
    repo.write("schemac.toml", &CONFIG.replace("0.1.0", "0.1.1"));
    repo.codegen().unwrap();
    assert!(repo.check().unwrap_err().to_string().contains("the crate needs 0.2.0, schemac.toml says 0.1.1"));
    repo.write("schemac.toml", &CONFIG.replace("0.1.0", "0.2.0"));
    repo.codegen().unwrap();
    assert!(repo.check().unwrap().ends_with("version 0.2.0 covers the 1 change since release 0.1.0 (needs 0.2.0 for readers and writers)"));
}

/// A newer schemac that generates another public API for the same schemas: `check` demands
/// the bump that difference requires, naming the first difference; `release` takes it into
/// account and says in the changelog that it comes from the generator.
#[test]
fn check_catches_a_generator_change_of_the_api() {
    let repo = TempRepo::generated();
    repo.release(false).unwrap();
    // As an older schemac would have recorded it: `id` was a `u8` then, and a method is gone.
    let mut baseline = release::Baseline::load(&repo.project().unwrap()).unwrap().unwrap();
    let generator = baseline.generator.as_mut().unwrap();
    let listing = generator.api.to_text();
    assert!(listing.contains("order::Unnamed.id: String\n"), "{listing}");
    assert!(listing.contains("order::Unnamed::builder(): fn() -> UnnamedBuilder\n"), "{listing}");
    let older = listing.replace("order::Unnamed.id: String\n", "order::Unnamed.id: u8\n");
    generator.api = schemac_project_api_parse(&older);
    generator.schemac = "0.0.9".to_owned();
    repo.write(release::BASELINE_FILE, &baseline.to_toml());
    let expected = "the generator changed the crate's public API for the same schemas (schemac 0.0.9 generated the release, schemac 0.1.0 with today's settings generates it now): \
                    `order::Unnamed.id` is `String` now (was `u8`): the crate needs 0.2.0, schemac.toml says 0.1.0\n  \
                    hint: run `schemac release` (or `cargo xtask release`), or set crate.version = \"0.2.0\" in schemac.toml";
    assert_eq!(repo.check().unwrap_err().to_string(), expected);
    // An item the old API lacked is minor: a patch before 1.0.0.
    let fewer = listing.replace("order::Unnamed::builder(): fn() -> UnnamedBuilder\n", "");
    let generator = baseline.generator.as_mut().unwrap();
    generator.api = schemac_project_api_parse(&fewer);
    repo.write(release::BASELINE_FILE, &baseline.to_toml());
    let error = repo.check().unwrap_err().to_string();
    assert!(error.contains("`order::Unnamed::builder()` (fn() -> UnnamedBuilder) added: the crate needs 0.1.1"), "{error}");
    // The release bumps for it and says where it comes from.
    let released = repo.release(false).unwrap();
    assert!(released.starts_with("released schema-types 0.1.1 (from 0.1.0: a minor bump)\n"), "{released}");
    let changelog = repo.read("generated/CHANGELOG.md");
    assert!(
        changelog.contains("### Added\n\n- Generated code, for the same schemas (schemac 0.0.9 → 0.1.0, with today's settings):\n  - `order::Unnamed::builder()` (fn() -> UnnamedBuilder) added\n"),
        "{changelog}"
    );
    assert!(
        repo.check().unwrap().ends_with("version 0.1.1 covers the 0 changes since release 0.1.1 (needs 0.1.1 for readers and writers)")
    );
}

/// The same schemac generating another API because a setting changed (here the default
/// `schemas.non-exhaustive`, as this repository's 0.2.0 was released for): `check` demands the
/// bump, and the changelog says the generator's changes come from changed defaults or
/// settings, not a `0.1.0 → 0.1.0` upgrade.
#[test]
fn a_settings_change_of_the_generated_api_is_versioned_like_a_generator_change() {
    let repo = TempRepo::generated();
    let exhaustive = CONFIG.replace("roots = [\"schemas\"]\n", "roots = [\"schemas\"]\nnon-exhaustive = false\n");
    repo.write("schemac.toml", &exhaustive);
    repo.codegen().unwrap();
    repo.release(false).unwrap();
    repo.write("schemac.toml", CONFIG);
    repo.codegen().unwrap();
    let error = repo.check().unwrap_err().to_string();
    let v = schemac::VERSION;
    assert!(
        error.starts_with(&format!(
            "the generator changed the crate's public API for the same schemas (schemac {v} generated the release, schemac {v} with today's settings generates it now): "
        )) && error.contains("non-exhaustive` now (was `struct`): the crate needs 0.2.0, schemac.toml says 0.1.0"),
        "{error}"
    );
    let released = repo.release(false).unwrap();
    assert!(released.starts_with("released schema-types 0.2.0 (from 0.1.0: a major bump)\n"), "{released}");
    let changelog = repo.read("generated/CHANGELOG.md");
    let group = format!(
        "### Changed\n\n- Generated code, for the same schemas (schemac {v}, with changed defaults or settings):\n  - **Breaking**: "
    );
    assert!(changelog.contains(&group), "{changelog}");
    assert!(!changelog.contains(&format!("schemac {v} → {v}")), "{changelog}");
}

fn schemac_project_api_parse(text: &str) -> crate::api::Api {
    crate::api::Api::parse(text).unwrap()
}

/// A baseline written before the generator was recorded: `check` says so and passes, and
/// `release` records it without releasing anything.
#[test]
fn a_baseline_without_a_generator_gains_one() {
    let repo = TempRepo::generated();
    repo.release(false).unwrap();
    let mut baseline = release::Baseline::load(&repo.project().unwrap()).unwrap().unwrap();
    baseline.generator = None;
    repo.write(release::BASELINE_FILE, &baseline.to_toml());
    assert!(repo.check().unwrap().ends_with(
        "the baseline records no generator, so a change schemac makes to the generated API is not checked: `schemac release` records it"
    ));
    let recorded = repo.release(false).unwrap();
    assert!(recorded.contains("recorded the generator of release 0.1.0 (schemac 0.1.0, runtime contract 1,"), "{recorded}");
    assert!(repo.read(release::BASELINE_FILE).contains("[generator]\nschemac = \"0.1.0\"\ncontract = 1\napi-format = 1\napi-sha256 = "));
    assert!(
        repo.check().unwrap().ends_with("version 0.1.0 covers the 0 changes since release 0.1.0 (needs 0.1.0 for readers and writers)")
    );
    assert_eq!(repo.release(false).unwrap(), "nothing to release: the schemas and crate.version (0.1.0) are those of the last release");
    // A listing of another format is not compared, and recorded again.
    let mut baseline = release::Baseline::load(&repo.project().unwrap()).unwrap().unwrap();
    baseline.generator.as_mut().unwrap().api_format = 0;
    repo.write(release::BASELINE_FILE, &baseline.to_toml());
    assert!(repo.check().unwrap().contains("the baseline's API listing is of format 0 (schemac 0.1.0), this schemac writes format 1"));
    assert!(repo.release(false).unwrap().contains("recorded the generator of release 0.1.0"));
    assert!(repo.read(release::BASELINE_FILE).contains("api-format = 1\n"));
}

#[test]
fn the_role_decides_the_bump() {
    let repo = TempRepo::released_then_tightened();
    // For writers fewer valid documents break nothing: a compatible change, a patch before 1.0.0.
    repo.write("schemac.toml", &CONFIG.replace("output =", "role = \"writer\"\noutput ="));
    let plan = release::plan(&repo.project().unwrap()).unwrap().unwrap();
    assert_eq!((plan.bump, plan.version.as_str()), (schemac::diff::Bump::Minor, "0.1.1"));
    repo.write("schemac.toml", &CONFIG.replace("output =", "role = \"reader\"\noutput ="));
    let plan = release::plan(&repo.project().unwrap()).unwrap().unwrap();
    assert_eq!((plan.bump, plan.version.as_str()), (schemac::diff::Bump::Major, "0.2.0"));
}

#[test]
fn release_dry_run_proposes_the_bump_and_writes_nothing() {
    let repo = TempRepo::released_then_tightened();
    let (config, baseline) = (repo.read("schemac.toml"), repo.read(release::BASELINE_FILE));
    let dry = repo.release(true).unwrap();
    assert!(dry.starts_with("would release schema-types 0.2.0 (from 0.1.0: a major bump)\n"), "{dry}");
    assert!(dry.contains("would set crate.version = \"0.2.0\" in schemac.toml (was 0.1.0)\n"), "{dry}");
    let date = dry.split("## [0.2.0] - ").nth(1).and_then(|rest| rest.get(..10)).unwrap_or_else(|| panic!("{dry}"));
    assert!(date.len() == 10 && date.as_bytes()[4] == b'-', "{dry}");
    assert!(
        dry.contains(&format!(
            "## [0.2.0] - {date}\n\n0.1.0 → 0.2.0, for readers and writers (`role = \"both\"`): a breaking change, which before 1.0.0 \
             bumps the minor version.\n\n### Changed\n\n- `schemas/order.json`:\n  - **Breaking** for readers: `bound-added` at \
             `#/properties/id/maxLength`: maxLength none → 5 (readers: breaking, writers: compatible)\n    Witness (valid under \
             0.1.0, invalid under 0.2.0): `{{\"id\":\""
        )),
        "{dry}"
    );
    assert_eq!((repo.read("schemac.toml"), repo.read(release::BASELINE_FILE)), (config, baseline));
}

#[test]
fn release_bumps_writes_the_changelog_and_a_second_release_does_nothing() {
    let repo = TempRepo::released_then_tightened();
    repo.write("schemac.toml", &format!("{CONFIG}version = \"1.0.0\"   # its registry version\n"));
    repo.release(false).unwrap();
    let config = repo.read("schemac.toml");
    assert!(config.contains("version = \"0.2.0\"\n"), "{config}");
    // The user schema did not change: its registry version stays.
    assert!(config.contains("version = \"1.0.0\"   # its registry version\n"), "{config}");
    let changelog = repo.read("generated/CHANGELOG.md");
    let (new, first) = (changelog.find("## [0.2.0] - ").unwrap(), changelog.find("## [0.1.0] - ").unwrap());
    assert!(new < first && changelog.contains("First release, with 2 schemas.\n\n### Added\n\n- `schemas/order.json`\n"), "{changelog}");
    assert!(changelog.contains("[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)"), "{changelog}");
    assert!(repo.read("generated/Cargo.toml").contains("version = \"0.2.0\""));
    assert!(repo.read(release::BASELINE_FILE).contains("version = \"0.2.0\""));
    assert!(
        repo.check().unwrap().ends_with("version 0.2.0 covers the 0 changes since release 0.2.0 (needs 0.2.0 for readers and writers)")
    );
    let files = |repo: &TempRepo| ["schemac.toml", release::BASELINE_FILE, "generated/CHANGELOG.md"].map(|f| repo.read(f));
    let before = files(&repo);
    assert_eq!(repo.release(false).unwrap(), "nothing to release: the schemas and crate.version (0.2.0) are those of the last release");
    assert_eq!(files(&repo), before);
}

#[test]
fn a_changed_schema_gets_its_registry_version_bumped() {
    let repo = TempRepo::generated();
    let table = "[schema.\"schemas/order.json\"]\nversion = \"1.0.0\"   # the order schema's registry version\n";
    repo.write(
        "schemac.toml",
        &CONFIG
            .replace("version = \"0.1.0\"", "version = \"0.1.0\"   # the crate's")
            .replace("root-name = \"User\"\n", &format!("root-name = \"User\"\n\n{table}")),
    );
    repo.release(false).unwrap();
    repo.write("schemas/order.json", &bounded_object_schema("id"));
    let plan = release::plan(&repo.project().unwrap()).unwrap().unwrap();
    assert_eq!(plan.schema_versions, [("schemas/order.json".to_owned(), "1.0.0".to_owned(), "2.0.0".to_owned())]);
    assert!(plan.changelog.contains("### Schema versions\n\n- `schemas/order.json`: 1.0.0 → 2.0.0\n"), "{}", plan.changelog);
    // Written into schemac.toml with its comments kept, and into the crate's registry.
    repo.release(false).unwrap();
    let config = repo.read("schemac.toml");
    assert!(config.contains("version = \"0.2.0\"   # the crate's\n"), "{config}");
    assert!(config.contains("version = \"2.0.0\"   # the order schema's registry version\n"), "{config}");
    assert!(repo.read("generated/src/lib.rs").contains("(\"order\", \"2.0.0\", "), "{}", repo.read("generated/src/lib.rs"));
}

#[test]
fn a_baseline_edited_by_hand_is_an_error() {
    let repo = TempRepo::generated();
    repo.release(false).unwrap();
    let baseline = repo.read(release::BASELINE_FILE);
    repo.write(release::BASELINE_FILE, &baseline.replacen("\"type\": \"object\"", "\"type\": \"array\"", 1));
    let err = repo.check().unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "{}: the content of schema \"schemas/order.json\" does not have its recorded sha256",
            repo.0.join(release::BASELINE_FILE).display()
        )),
        "{err}"
    );
    assert!(err.contains("hint: it is written by `schemac release`"), "{err}");
}

#[test]
fn a_type_table_at_a_pointer_without_a_type_is_a_config_error_at_the_table() {
    let repo = TempRepo::new();
    let config = format!("{CONFIG}\n[schema.\"schemas/team/user.json\".types.\"/properties/nme\"]\nrust-type = \"my_crate::Name\"\n");
    repo.write("schemac.toml", &config);
    repo.write("schemas/team/user.json", &object_schema("name"));
    let err = repo.codegen().unwrap_err();
    let ErrorKind::Config(config) = err.kind() else { panic!("{err}") };
    assert_eq!(config.key.as_deref(), Some("schema.\"schemas/team/user.json\".types.\"/properties/nme\""));
    assert_eq!(config.position, Some((13, 40)));
    assert_eq!(
        err.to_string().rsplit_once("/schemac.toml").map(|(_, tail)| tail).unwrap(),
        ":13:40: schema.\"schemas/team/user.json\".types.\"/properties/nme\": cannot set the type at \
         `/properties/nme`: the pointer `/properties/nme` is no schema in the file\n  hint: only the schema's root has a \
         type of its own here"
    );
}

#[test]
fn check_reports_the_open_enums() {
    let repo = TempRepo::new();
    repo.write("schemac.toml", &format!("{CONFIG}open-enums = true\n"));
    let schema = r#"{"type": "object", "properties": {
        "state": {"enum": ["a", "b"]},
        "kind": {"enum": ["x"], "x-schemac-open-enum": false}
    }}"#;
    repo.write("schemas/team/user.json", schema);
    repo.write(
        "schemas/order.json",
        r#"{"title": "Order", "type": "object", "properties": {"mode": {"enum": ["m"], "x-schemac-open-enum": true}}}"#,
    );
    repo.codegen().unwrap();
    let report = check(&repo.project().unwrap(), "schemac codegen").unwrap();
    assert!(
        report.ends_with(
            "\nopen enums (2), a reader-side tolerance: they keep a value the schema does not list as `Other`, accepting \
             documents the schema rejects (`validate()` reports them): schemas/order.json: OrderMode, schemas/team/user.json: UserState"
        ),
        "{report}"
    );
    assert!(repo.read("generated/src/team/user.rs").contains("pub enum UserKind {\n    /// `\"x\"`\n    X,\n}"));
}

#[test]
fn crate_dependencies_go_into_the_manifest() {
    let repo = TempRepo::new();
    let config = CONFIG.replace(
        "output = \"generated\"\n",
        "output = \"generated\"\n\n[crate.dependencies]\nmy-types = { path = \"../my-types\", version = \"0.3\" }\n",
    );
    repo.write("schemac.toml", &config);
    repo.write("schemas/team/user.json", &object_schema("name"));
    repo.codegen().unwrap();
    let manifest = repo.read("generated/Cargo.toml");
    assert!(manifest.contains("\nmy-types = { path = \"../my-types\", version = \"0.3\" }\n"), "{manifest}");
}
