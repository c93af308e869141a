//! The suite's test groups and cases, read from its keyword files, with their stable ids.
//!
//! A case's id is `draft/file/group/test` (e.g. `draft7/allOf/3/1`): the keyword file's name
//! without `.json` and the positions in the pinned suite, so ids never change between runs.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use serde_json::Value;

/// The suite directories the harness runs, with the draft a schema without `$schema` has there.
const DRAFTS: [(&str, schemac::Draft); 2] = [("draft7", schemac::Draft::Draft7), ("draft2020-12", schemac::Draft::Draft2020_12)];

/// One group of a keyword file: a schema and the instances tested against it.
#[derive(Debug, Clone)]
pub struct Group {
    /// The suite directory, e.g. `draft7`.
    pub draft: String,
    /// The draft of its schema when it has no `$schema`: the directory's.
    pub default_draft: schemac::Draft,
    /// The keyword file's name without `.json`, e.g. `allOf`.
    pub file: String,
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

pub fn group_id(draft: &str, file: &str, index: usize) -> String {
    format!("{draft}/{file}/{index}")
}

/// A valid, collision-free module name: file names are camelCase words, and the suffix keeps
/// groups of one file apart.
pub fn module_name(draft: &str, file: &str, index: usize) -> String {
    schemac::ident::module_name(&format!("{}_{file}_{index}", draft.replace('-', "_")))
}

/// Every group of the keyword files (not `optional/`) of every draft in [`DRAFTS`], in id order.
pub fn load(tests: &Path) -> Result<Vec<Group>> {
    let mut groups = Vec::new();
    for (draft, default_draft) in DRAFTS {
        let dir = tests.join(draft);
        let mut files: Vec<String> = Vec::new();
        for entry in fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))? {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".json") {
                files.push(stem.to_owned());
            }
        }
        files.sort();
        if files.is_empty() {
            bail!("{} holds no keyword files", dir.display());
        }
        for file in files {
            let path = dir.join(format!("{file}.json"));
            let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let raw: Vec<RawGroup> = serde_json::from_str(&text).with_context(|| format!("{} is not a test-suite file", path.display()))?;
            groups.extend(raw.into_iter().enumerate().map(|(index, group)| {
                Group {
                    draft: draft.to_owned(),
                    default_draft,
                    file: file.clone(),
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
    fn loads_groups_in_file_order_and_skips_optional() {
        let dir = std::env::temp_dir().join(format!("xtask-conformance-cases-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (draft, _) in DRAFTS {
            fs::create_dir_all(dir.join(draft).join("optional")).unwrap();
            fs::write(dir.join(draft).join("optional/format.json"), "not even json").unwrap();
            let group = r#"{"description": "g", "schema": {"type": "integer"}, "tests": [
                {"description": "int", "data": 1, "valid": true}, {"description": "str", "data": "a", "valid": false}]}"#;
            fs::write(dir.join(draft).join("type.json"), format!("[{group}]")).unwrap();
            fs::write(dir.join(draft).join("allOf.json"), format!("[{group}, {group}]")).unwrap();
        }
        let groups = load(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        let ids: Vec<String> = groups.iter().map(Group::id).collect();
        assert_eq!(
            ids,
            ["draft7/allOf/0", "draft7/allOf/1", "draft7/type/0", "draft2020-12/allOf/0", "draft2020-12/allOf/1", "draft2020-12/type/0"]
        );
        assert!(!groups[0].tests[1].valid);
        assert_eq!(groups[0].default_draft, schemac::Draft::Draft7);
    }
}
