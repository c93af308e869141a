//! Loading the schema node a type is checked against, with the schemac library: load the
//! file (and the files it refers to), resolve, lower to the IR and name the types, exactly as
//! `cargo xtask codegen` does, so the derive and the generated code agree on every shape.

use std::path::{Path, PathBuf};

use schemac::ir::{Def, DefKind, DocId, Ir, Ty};
use schemac_model::load::Document;
use schemac_model::resolve::{Loc, Registry};
use schemac_model::schema::Model;
use serde_json::Value;
use syn::LitStr;

/// The checked node and everything needed to check against it.
#[derive(Debug)]
pub struct Schema {
    pub registry: Registry,
    /// The typed model of every schema the node reaches.
    pub model: Model,
    pub ir: Ir,
    /// The schema file, as the attribute names it (e.g. `schemas/pi-glla/goal.json`).
    pub display: String,
    /// The pointer as the attribute writes it (`""` for the root).
    pub pointer: String,
    /// The node's type, aliases followed and `null` peeled off (a struct models the object
    /// part of an object-or-null schema; the field that holds it is the `Option`).
    pub target: Ty,
    /// Every schema file read, absolute, so the compiler tracks them.
    pub files: Vec<PathBuf>,
    doc: DocId,
    /// The node's location, `$ref`s followed.
    target_loc: Loc,
}

impl Schema {
    /// The node's location, `$ref`s followed.
    pub fn target_loc(&self) -> &Loc {
        &self.target_loc
    }

    /// The node the attribute names, `$ref`s not followed: what `SchemaBound::schema` returns.
    pub fn pointer_loc(&self) -> Loc {
        Loc { doc: self.doc, pointer: self.pointer.clone() }
    }

    /// The schema document: `docs[doc]` exists by construction.
    fn document(&self) -> Option<&Document> {
        self.registry.docs.get(self.doc.0)
    }

    /// The `$id` of the document, else its path as written.
    pub fn schema_id(&self) -> String {
        self.doc_id(self.doc).unwrap_or_else(|| self.display.clone())
    }

    pub fn sha256(&self) -> String {
        self.document().map(|doc| doc.sha256.clone()).unwrap_or_default()
    }

    /// The node's JSON, compact, exactly as the file has it (keys in file order).
    pub fn subschema_text(&self) -> String {
        let value = self.document().and_then(|doc| doc.json.pointer(&self.pointer));
        value.map(Value::to_string).unwrap_or_else(|| "null".to_owned())
    }

    /// What identifies the checked node in `Conforms<{ node_id(key) }>`.
    pub fn target_key(&self) -> String {
        match &self.target {
            Ty::Def(id) => self.def_key(self.ir.def(*id)),
            _ => self.loc_uri(&self.target_loc),
        }
    }

    /// What identifies the node of a `Def`: for a string enum its values, since any enum
    /// with those values conforms to any schema with them (the same `enum` is often
    /// repeated inline); for the others the node's URI.
    pub fn def_key(&self, def: &Def) -> String {
        match &def.kind {
            DefKind::StringEnum(values) => format!("enum:{}", Value::from(values.clone())),
            _ => self.loc_uri(&self.def_loc(def)),
        }
    }

    /// The file and pointer of the node a `Def` comes from, as `#[schemac(...)]` names them.
    pub fn def_node(&self, def: &Def) -> (String, String) {
        let loc = self.def_loc(def);
        (self.doc_display(loc.doc), loc.pointer)
    }

    /// The location of the node a `Def` comes from.
    pub fn def_node_loc(&self, def: &Def) -> Loc {
        self.def_loc(def)
    }

    /// Where a `Def` comes from.
    fn def_loc(&self, def: &Def) -> Loc {
        def.origin.clone()
    }

    /// The `$id` of document `doc`'s root (draft 4: `id`).
    fn doc_id(&self, doc: DocId) -> Option<String> {
        self.model.schema_at(&Loc { doc, pointer: String::new() })?.id.clone()
    }

    /// `$id#pointer` (or `path#pointer` for a document without `$id`).
    pub fn loc_uri(&self, loc: &Loc) -> String {
        let id = self.doc_id(loc.doc).or_else(|| self.registry.docs.get(loc.doc.0).map(|doc| doc.display.clone())).unwrap_or_default();
        format!("{id}#{}", loc.pointer)
    }

    /// The `schema = "..."` to write for a node in document `doc`.
    pub fn doc_display(&self, doc: DocId) -> String {
        if doc == self.doc { self.display.clone() } else { self.registry.docs.get(doc.0).map(|d| d.display.clone()).unwrap_or_default() }
    }

    /// `ty` with aliases followed (bounded, since an alias may refer back to itself).
    pub fn unalias<'a>(&'a self, mut ty: &'a Ty) -> &'a Ty {
        for _ in 0..64 {
            match ty {
                Ty::Def(id) => match &self.ir.def(*id).kind {
                    DefKind::Alias(inner) => ty = inner,
                    _ => return ty,
                },
                // Assertions don't change the JSON type; bounds are read from the raw schema.
                Ty::Constrained(inner, _) => ty = inner,
                _ => return ty,
            }
        }
        ty
    }
}

/// Loads the node that `schema` and `pointer` name. Errors are spanned on the literal at fault.
pub fn load(manifest_dir: &Path, source_dir: Option<&Path>, schema: &LitStr, pointer: Option<&LitStr>) -> syn::Result<Schema> {
    let display = schema.value();
    let path = find(manifest_dir, source_dir, &display).ok_or_else(|| {
        syn::Error::new(
            schema.span(),
            format!(
                "cannot find the schema file `{display}`\nhint: the path is relative to the crate's directory (CARGO_MANIFEST_DIR) \
                 or one of the directories above it, such as the workspace root"
            ),
        )
    })?;
    let pointer_text = pointer.map(LitStr::value).unwrap_or_default();
    let pointer_span = pointer.map_or_else(|| schema.span(), LitStr::span);
    if !pointer_text.is_empty() && !pointer_text.starts_with('/') {
        return Err(syn::Error::new(
            pointer_span,
            format!("`{pointer_text}` is not a JSON pointer\nhint: a JSON pointer starts with `/`, e.g. `/{pointer_text}`"),
        ));
    }
    // The node is the input's root: only what it reaches is compiled, whether the file's own
    // root reaches it or not.
    let source = schemac::SchemaSource::new(path.clone()).display(display.clone()).module(["schema"]).pointer(pointer_text.clone());
    let input = schemac::Input::new([source]);
    let config = schemac::Config::default();
    let front = schemac::front(&input, &config).map_err(|diags| match diags.iter().find(|d| d.code == "missing-root") {
        Some(missing) => {
            let hint = missing.hint.as_ref().map(|hint| format!("\nhint: {hint}")).unwrap_or_default();
            syn::Error::new(pointer_span, format!("`{display}` has no schema at `{pointer_text}`{hint}"))
        }
        None => schema_errors(schema, &display, &diags.0),
    })?;
    let ir = front.lower(&config).map_err(|diags| schema_errors(schema, &display, &diags.0))?;
    let doc = DocId(0);
    let target_loc = Loc { doc, pointer: pointer_text.clone() };
    let entry = ir.roots.first().map(|(_, def)| *def).ok_or_else(|| syn::Error::new(schema.span(), "the schema lowered to nothing"))?;

    let schemac_model::Front { registry, model, .. } = front.into_schemas();
    let files = registry.docs.iter().map(|doc| absolute(&doc.path)).collect();
    let mut out = Schema { registry, model, ir, display, pointer: pointer_text, target: Ty::Def(entry), files, doc, target_loc };
    out.target = peel(&out, Ty::Def(entry));
    Ok(out)
}

/// Follows aliases and peels `null` off the node's type.
fn peel(schema: &Schema, ty: Ty) -> Ty {
    match schema.unalias(&ty) {
        Ty::Nullable(inner) => schema.unalias(inner).clone(),
        other => other.clone(),
    }
}

/// `path` relative to the crate directory or the nearest directory above it that has it: a
/// crate in a workspace names the workspace's `schemas/...` without `../../`. Failing that,
/// the same from the directory of the file that derives (`source_dir`), for crates built
/// away from their sources.
fn find(manifest_dir: &Path, source_dir: Option<&Path>, path: &str) -> Option<PathBuf> {
    let path = Path::new(path);
    if path.is_absolute() {
        return path.is_file().then(|| path.to_path_buf());
    }
    let from = |dir: &Path| dir.ancestors().map(|dir| dir.join(path)).find(|candidate| candidate.is_file());
    from(manifest_dir).or_else(|| source_dir.and_then(from))
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The schema's own errors, as schemac reports them, on the `schema = "..."` literal.
fn schema_errors(schema: &LitStr, display: &str, diags: &[schemac::Diagnostic]) -> syn::Error {
    let listed: Vec<String> = diags.iter().map(ToString::to_string).collect();
    syn::Error::new(schema.span(), format!("schemac cannot compile `{display}`:\n{}", listed.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate built away from its sources (trybuild's, under the target directory) still
    /// finds the workspace's schemas from the file that derives.
    #[test]
    fn finds_schemas_from_the_manifest_or_the_source_file() {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let schema = "schemas/madoo/attempts-report.v1.json";
        let expected = crate_dir.ancestors().nth(2).expect("crates/schemac-derive is two levels down").join(schema);
        assert_eq!(find(crate_dir, None, schema), Some(expected.clone()));
        let elsewhere = std::env::temp_dir().join("schemac-derive-elsewhere");
        assert_eq!(find(&elsewhere, None, schema), None);
        assert_eq!(find(&elsewhere, Some(&crate_dir.join("tests/ui/attributes")), schema), Some(expected));
        assert_eq!(find(crate_dir, Some(crate_dir), "schemas/none.json"), None);
    }
}
