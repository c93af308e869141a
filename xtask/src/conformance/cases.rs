//! The suite's test groups and cases, read from its keyword files and its `optional/` files,
//! with their stable ids.
//!
//! A case's id is `draft/file/group/test` (e.g. `draft7/allOf/3/1`,
//! `draft2020-12/optional/format/email/0/4`): the file's path below the draft's directory
//! without `.json` and the positions in the pinned suite, so ids never change between runs.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use serde_json::Value;

/// The suite directories the harness runs, with the draft a schema without `$schema` has there.
pub const DRAFTS: [(&str, schemac::Draft); 5] = [
    ("draft4", schemac::Draft::Draft4),
    ("draft6", schemac::Draft::Draft6),
    ("draft7", schemac::Draft::Draft7),
    ("draft2019-09", schemac::Draft::Draft2019_09),
    ("draft2020-12", schemac::Draft::Draft2020_12),
];

/// The directory of the optional files below a draft's, and of the format files below that:
/// their groups are compiled with `format` asserted, as the suite means them.
pub const OPTIONAL: &str = "optional";
const FORMAT: &str = "optional/format";

/// One group of a keyword file: a schema and the instances tested against it.
#[derive(Debug, Clone)]
pub struct Group {
    /// The suite directory, e.g. `draft7`.
    pub draft: String,
    /// The draft of its schema when it has no `$schema`: the directory's.
    pub default_draft: schemac::Draft,
    /// The file's path below the draft's directory without `.json`, e.g. `allOf` or
    /// `optional/format/email`.
    pub file: String,
    /// Whether `format` is asserted: the groups of `optional/format/`.
    pub assert_formats: bool,
    pub index: usize,
    pub description: String,
    pub schema: Value,
    pub tests: Vec<Case>,
}

#[derive(Debug, Clone)]
pub struct Case {
    pub index: usize,
    pub description: String,
    pub data: Value,
    pub valid: bool,
}

/// A group as the suite spells it.
#[derive(Deserialize)]
struct RawGroup {
    description: String,
    schema: Value,
    tests: Vec<RawCase>,
}

#[derive(Deserialize)]
struct RawCase {
    description: String,
    data: Value,
    valid: bool,
}

impl Group {
    /// `draft/file/group`, e.g. `draft7/allOf/3`.
    pub fn id(&self) -> String {
        group_id(&self.draft, &self.file, self.index)
    }

    /// The id of its test at `test`.
    pub fn case_id(&self, test: usize) -> String {
        format!("{}/{test}", self.id())
    }

    /// The Rust module holding its types in the generated crate, e.g. `draft7_all_of_3`.
    pub fn module(&self) -> String {
        module_name(&self.draft, &self.file, self.index)
    }
}

/// Whether `file` (as in [`Group::file`]) is one of the `optional/` files.
pub fn is_optional(file: &str) -> bool {
    file.starts_with(&format!("{OPTIONAL}/"))
}

pub fn group_id(draft: &str, file: &str, index: usize) -> String {
    format!("{draft}/{file}/{index}")
}

/// A valid, collision-free module name: file names are camelCase words (`/` and `-` separate
/// words too), and the suffix keeps groups of one file apart.
pub fn module_name(draft: &str, file: &str, index: usize) -> String {
    schemac::ident::module_name(&format!("{}_{}_{index}", draft.replace('-', "_"), file.replace(['/', '-'], "_")))
}

/// The `*.json` files of `dir` (a draft's directory, `optional/` or `optional/format/`) as
/// paths below the draft's directory without `.json`, sorted.
fn files_in(dir: &Path, prefix: &str) -> Result<Vec<String>> {
    let mut files: Vec<String> = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".json") {
            files.push(format!("{prefix}{stem}"));
        }
    }
    files.sort();
    Ok(files)
}

/// Every group of every draft in [`DRAFTS`]: its keyword files, then its `optional/` files
/// (those of `optional/format/` after the others), in id order.
pub fn load(tests: &Path) -> Result<Vec<Group>> {
    let mut groups = Vec::new();
    for (draft, default_draft) in DRAFTS {
        let dir = tests.join(draft);
        let mut files = files_in(&dir, "")?;
        if files.is_empty() {
            bail!("{} holds no keyword files", dir.display());
        }
        let optional = files_in(&dir.join(OPTIONAL), &format!("{OPTIONAL}/"))?;
        let format = files_in(&dir.join(FORMAT), &format!("{FORMAT}/"))?;
        if optional.is_empty() || format.is_empty() {
            bail!("{} holds no optional or no format files", dir.join(OPTIONAL).display());
        }
        files.extend(optional);
        files.extend(format);
        for file in files {
            let path = dir.join(format!("{file}.json"));
            let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let raw: Vec<RawGroup> = serde_json::from_str(&text).with_context(|| format!("{} is not a test-suite file", path.display()))?;
            let assert_formats = file.starts_with(&format!("{FORMAT}/"));
            groups.extend(raw.into_iter().enumerate().map(|(index, group)| {
                Group {
                    draft: draft.to_owned(),
                    default_draft,
                    file: file.clone(),
                    assert_formats,
                    index,
                    description: group.description,
                    schema: group.schema,
                    tests: group
                        .tests
                        .into_iter()
                        .enumerate()
                        .map(|(index, case)| Case { index, description: case.description, data: case.data, valid: case.valid })
                        .collect(),
                }
            }));
        }
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_positions_in_the_pinned_suite() {
        let group = Group {
            draft: "draft2020-12".to_owned(),
            default_draft: schemac::Draft::Draft2020_12,
            file: "unevaluatedProperties".to_owned(),
            assert_formats: false,
            index: 12,
            description: "anything".to_owned(),
            schema: Value::Bool(true),
            tests: Vec::new(),
        };
        assert_eq!(group.id(), "draft2020-12/unevaluatedProperties/12");
        assert_eq!(group.case_id(3), "draft2020-12/unevaluatedProperties/12/3");
        assert_eq!(group.module(), "draft2020_12_unevaluated_properties_12");
    }

    #[test]
    fn module_names_keep_files_and_groups_apart() {
        let names = [
            module_name("draft7", "ref", 1),
            module_name("draft7", "refRemote", 1),
            module_name("draft7", "ref", 11),
            module_name("draft2020-12", "ref", 1),
            module_name("draft7", "if-then-else", 0),
        ];
        assert_eq!(names, ["draft7_ref_1", "draft7_ref_remote_1", "draft7_ref_11", "draft2020_12_ref_1", "draft7_if_then_else_0"]);
    }

    #[test]
    fn loads_keyword_files_then_optional_ones_in_order() {
        let dir = std::env::temp_dir().join(format!("xtask-conformance-cases-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let group = r#"{"description": "g", "schema": {"type": "integer"}, "tests": [
            {"description": "int", "data": 1, "valid": true}, {"description": "str", "data": "a", "valid": false}]}"#;
        for (draft, _) in DRAFTS {
            fs::create_dir_all(dir.join(draft).join("optional/format")).unwrap();
            fs::write(dir.join(draft).join("optional/format/email.json"), format!("[{group}]")).unwrap();
            fs::write(dir.join(draft).join("optional/bignum.json"), format!("[{group}]")).unwrap();
            fs::write(dir.join(draft).join("type.json"), format!("[{group}]")).unwrap();
            fs::write(dir.join(draft).join("allOf.json"), format!("[{group}, {group}]")).unwrap();
        }
        let groups = load(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        let ids: Vec<String> = groups.iter().filter(|g| g.draft == "draft7").map(Group::id).collect();
        assert_eq!(
            ids,
            ["draft7/allOf/0", "draft7/allOf/1", "draft7/type/0", "draft7/optional/bignum/0", "draft7/optional/format/email/0"]
        );
        assert_eq!(groups.len(), 5 * DRAFTS.len());
        let draft7: Vec<&Group> = groups.iter().filter(|g| g.draft == "draft7").collect();
        assert!(!draft7[0].tests[1].valid);
        assert_eq!(draft7[0].default_draft, schemac::Draft::Draft7);
        assert_eq!(
            draft7.iter().map(|g| (is_optional(&g.file), g.assert_formats)).collect::<Vec<_>>(),
            [(false, false), (false, false), (false, false), (true, false), (true, true)]
        );
        assert_eq!(draft7[4].module(), "draft7_optional_format_email_0");
    }
}
