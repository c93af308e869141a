//! What a registry serves for a project's crate: each schema as the generated crate's `SCHEMAS`
//! lists it (published reference and version, `$id`, SHA-256, the exact source text) with its
//! reference page, computed from the schemas without writing the crate. `schemac serve` reads it
//! again whenever a schema changes.

use std::collections::BTreeSet;
use std::path::Path;

use super::Project;
use super::error::Error;
use super::krate;
use super::spec::CrateSpec;

/// One schema as the generated crate publishes it (`schemac_runtime::SchemaEntry`, owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedSchema {
    /// Its reference (`madoo.attempts-report/v1`).
    pub reference: String,
    /// Its version (`1.0.0`).
    pub version: String,
    /// The document's `$id`; its source path when it has none.
    pub id: String,
    /// The schema file, root-relative (`schemas/madoo/attempts-report.v1.json`).
    pub source_path: String,
    /// Lowercase hex SHA-256 of the file.
    pub sha256: String,
    /// The file's text, as the generated module's `SCHEMA_JSON` holds it.
    pub json: String,
    /// Its reference page (Markdown), as the crate's `docs/` has it; `None` with `pages = false`.
    pub page: Option<String>,
}

impl Project {
    /// Every schema the configured crate would publish, in module path order, as its `SCHEMAS` will
    /// list them. The schemas are compiled as for `codegen` (a schema it would reject is an
    /// error here too), but no code is written.
    pub fn served(&self) -> Result<Vec<ServedSchema>, Error> {
        self.check_schema_tables()?;
        served(self.root(), self.spec())
    }
}

fn served(root: &Path, spec: &CrateSpec) -> Result<Vec<ServedSchema>, Error> {
    // The front end is kept for every unit: it holds the texts the entries serve.
    let compiling = CrateSpec { pages: true, ..spec.clone() };
    let mut units = Vec::new();
    for unit in spec.units.iter().filter(|unit| !unit.plain_serde) {
        units.push(krate::compile_unit(root, &compiling, unit)?);
    }
    let found: Vec<crate::schemas::Found> = units.iter().flat_map(|unit| unit.found.iter().cloned()).collect();
    let published = krate::published(spec, &found)?;
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    // Pages come from the crate's first unit, as `generate_crate` writes them.
    for (index, unit) in units.iter().enumerate() {
        let Some(front) = &unit.front else { continue };
        for module in &unit.output.modules {
            let (Some(_root), Some(published)) = (&module.root, published.get(&module.source)) else { continue };
            let Some(doc) = front.registry.docs.iter().find(|doc| doc.is_input && doc.display == module.source) else { continue };
            if !seen.insert(module.source.clone()) {
                continue;
            }
            let page = (spec.pages && index == 0).then(|| krate::page_text(spec, front, &module.source, doc.id, Some(published)));
            let entry = ServedSchema {
                reference: published.reference.clone(),
                version: published.version.clone(),
                id: module.id.clone(),
                source_path: module.source.clone(),
                sha256: module.sha256.clone(),
                json: doc.text.clone(),
                page,
            };
            out.push((module.path.clone(), entry));
        }
    }
    // `SCHEMAS` is in module path order.
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out.into_iter().map(|(_, entry)| entry).collect())
}
