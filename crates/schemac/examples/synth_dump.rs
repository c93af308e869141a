fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let schemas = args
        .iter()
        .map(|p| schemac::SchemaSource {
            path: p.into(),
            display: p.clone(),
            module: vec![p.replace(['/', '.', '-'], "_")],
            root_name: None,
        })
        .collect();
    let input = schemac::Input { schemas, ..Default::default() };
    let t = std::time::Instant::now();
    let out = schemac::synthesize_for(&input, &schemac::Config::default(), &Default::default()).unwrap();
    for m in &out {
        let s = &m.synthesis;
        println!("== {} valid {} invalid {} by kw {:?}", m.source, s.valid.len(), s.invalid.len(), s.mutants_by_keyword());
        for u in &s.uncovered {
            println!("  uncovered: {u}");
        }
        for u in &s.unsupported {
            println!("  unsupported: {u}");
        }
        if std::env::var("V").is_ok() {
            for v in &s.valid {
                println!("  V {} :: {}", v.note, v.value);
            }
            for v in &s.invalid {
                println!("  X {} {} {} :: {}", v.pointer, v.keyword, v.why, v.instance);
            }
        }
    }
    eprintln!("{:?}", t.elapsed());
}
