//! The rewrite fixtures' layout, shared by `tests/html.rs` and `tests/mime.rs`:
//! `fixtures/<kind>/<case>/{input.*, args, expected.*}`.

use std::path::{Path, PathBuf};

/// Every case folder under `fixtures/<kind>` that holds `input_name`, sorted.
pub fn fixture_dirs(kind: &str, input_name: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(kind);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(input_name).is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The case's command-line arguments: the lines of its `args` file (none
/// when it has no such file), trimmed, blank lines skipped.
pub fn read_args(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("args"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}
