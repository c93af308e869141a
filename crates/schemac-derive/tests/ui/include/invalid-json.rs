// A schema that is not JSON: the error names the file, the line:column and the pointer.
schemac_runtime::include_schema!("broken.json", root = "Broken");

// An unknown option is an error naming the known ones.
mod other {
    schemac_runtime::include_schema!("broken.json", rot = "Broken");
}

fn main() {}
