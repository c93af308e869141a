//! YAML schemas: the bundled schemas converted to YAML compile to the same Rust, byte for byte,
//! as their JSON, apart from the source's name and hash; a YAML syntax error names the file
//! and its line:column.

use std::fs;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn compile(path: &Path, display: &str) -> Result<String, schemac::Diagnostics> {
    let input = schemac::Input::new([schemac::SchemaSource::new(path.to_path_buf()).display(display.to_owned())]);
    Ok(schemac::compile(&input, &schemac::Config::default())?.single_file())
}

fn sha256(path: &Path) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(fs::read(path).unwrap()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The code with each embedded `SCHEMA_JSON` raw string (`schema_source!(r#"..."#)`) cut out,
/// and those strings.
fn without_sources(code: &str) -> (String, Vec<String>) {
    const START: &str = "schema_source!(";
    let (mut rest, mut out, mut sources) = (code, String::new(), Vec::new());
    while let Some(at) = rest.find(START) {
        let after = rest[at + START.len()..].trim_start().strip_prefix('r').expect("the source is a raw string");
        let hashes = after.len() - after.trim_start_matches('#').len();
        let close = format!("\"{}", "#".repeat(hashes));
        let body = &after[hashes + 1..];
        let end = body.find(&close).expect("the raw string ends");
        sources.push(body[..end].to_owned());
        out.push_str(&rest[..at + START.len()]);
        rest = &body[end + close.len()..];
    }
    out.push_str(rest);
    (out, sources)
}

#[test]
fn bundled_schemas_in_yaml_compile_to_the_same_rust() {
    let dir = std::env::temp_dir().join(format!("schemac-yaml-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let schemas = ["schemas/madoo/attempts-report.v1.json", "schemas/pi-glla/goal.json"];
    for json in schemas {
        let json_path = repository().join(json);
        let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
        let yaml = json.replace(".json", ".yaml");
        let yaml_path = dir.join(Path::new(&yaml).file_name().unwrap());
        fs::write(&yaml_path, serde_norway::to_string(&value).unwrap()).unwrap();
        let from_json = compile(&json_path, json).unwrap();
        let from_yaml = compile(&yaml_path, &yaml).unwrap();
        // The header and `SOURCE_PATH` name the file, `SOURCE_SHA256` hashes its bytes.
        let normalized = from_yaml.replace(&yaml, json).replace(&sha256(&yaml_path), &sha256(&json_path));
        // The embedded source is the YAML's JSON form: the same value, as serde_json writes it.
        let (code_yaml, source_yaml) = without_sources(&normalized);
        let (code_json, source_json) = without_sources(&from_json);
        assert!(code_yaml == code_json, "{json}: the YAML form compiles to other code");
        let parse = |texts: Vec<String>| texts.iter().map(|t| serde_json::from_str::<serde_json::Value>(t).unwrap()).collect::<Vec<_>>();
        assert_eq!(parse(source_yaml), parse(source_json));
        assert_ne!(from_yaml, from_json, "the YAML file is named as such");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_yaml_syntax_error_names_the_file_and_position() {
    let dir = std::env::temp_dir().join(format!("schemac-yaml-bad-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("order.yml");
    fs::write(&path, "type: object\nproperties:\n  id: {type: string\n").unwrap();
    let errors = compile(&path, "schemas/order.yml").unwrap_err();
    let error = &errors.0[0];
    assert_eq!((error.code, error.file.as_str()), ("invalid-yaml", "schemas/order.yml"));
    let (line, _) = error.position.expect("a position");
    assert!(line >= 3, "{error}");
    assert!(error.to_string().starts_with(&format!("error[invalid-yaml]: schemas/order.yml:{line}:")), "{error}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A ref to a URL without an extension, under a `--map` prefix, finds `NAME.yaml` (or
/// `NAME.json`), as catalogs serve both `…/name` and `…/name.json`.
#[test]
fn an_extensionless_mapped_ref_finds_the_yaml_file() {
    let dir = std::env::temp_dir().join(format!("schemac-yaml-map-{}", std::process::id()));
    fs::create_dir_all(dir.join("common")).unwrap();
    fs::write(dir.join("common/money.yaml"), "type: number\nminimum: 0\n").unwrap();
    fs::write(dir.join("common/code.json"), r#"{"type": "string", "maxLength": 3}"#).unwrap();
    let main = r#"{"type": "object", "properties": {
        "total": {"$ref": "https://example.com/schemas/money"},
        "currency": {"$ref": "https://example.com/schemas/code"}}}"#;
    fs::write(dir.join("order.json"), main).unwrap();
    let input =
        schemac::Input::new([schemac::SchemaSource::new(dir.join("order.json")).display("order.json".to_owned()).root_name("Order")])
            .map("https://example.com/schemas/".to_owned(), dir.join("common"));
    let (output, read) = schemac::compile_reading(&input, &schemac::Config::default()).unwrap();
    let names: Vec<String> = read.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["order.json", "money.yaml", "code.json"]);
    assert!(output.single_file().contains("pub struct Order"));
    fs::remove_dir_all(&dir).unwrap();
}
