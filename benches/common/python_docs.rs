//! The Python 3.11 documentation's HTML pages, for benches that need real
//! pages: Debian's `python3.11-doc` package, fetched with `apt-get
//! download` and unpacked with `dpkg -x` into a cache folder the first time
//! (never part of the repository). The same approach and folder layout as
//! `benches/pages.rs` and `benches/warc.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Debian package holding the pages, and their folder inside it.
const PACKAGE: &str = "python3.11-doc";
const ROOT: &str = "usr/share/doc/python3.11/html";

/// The documentation's HTML folder under `cache`, downloaded and unpacked
/// there on first use (`apt-get update` must have been run once).
pub fn html_root(cache: &Path) -> Result<PathBuf, String> {
    let root = cache.join(ROOT);
    if root.join("index.html").is_file() {
        return Ok(root);
    }
    let download = cache.join("download");
    std::fs::create_dir_all(&download).map_err(|e| format!("{}: {e}", download.display()))?;
    run(
        "downloading the pages (run `apt-get update` once if this fails)",
        Command::new("apt-get")
            .args(["download", PACKAGE])
            .current_dir(&download),
    )?;
    let deb = std::fs::read_dir(&download)
        .map_err(|e| format!("{}: {e}", download.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PACKAGE) && n.ends_with(".deb"))
        })
        .ok_or_else(|| format!("{}: no {PACKAGE} package", download.display()))?;
    run(
        "unpacking the pages",
        Command::new("dpkg").arg("-x").arg(&deb).arg(cache),
    )?;
    if root.join("index.html").is_file() {
        Ok(root)
    } else {
        Err(format!("{}: no index.html after unpacking", root.display()))
    }
}

/// Run `command`; an error naming `what` unless it exits 0.
pub fn run(what: &str, command: &mut Command) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot start {command:?}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what}: {command:?} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
