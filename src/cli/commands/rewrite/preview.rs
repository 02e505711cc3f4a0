//! `--diff` and `--check`: what a run would change, with nothing written.
//!
//! `--diff` prints a unified diff per changed input on standard output (the
//! bytes as they are, so that `patch -p0` applies it to the files named on
//! the command line or walked); `--check` lists each input that would change
//! and makes the exit status 1 when there is any (a check for CI, as
//! `black --check` and `ruff format --check` are). Both together: the diffs,
//! and the status.

use crate::cli::flags::settings::Preview;
use std::borrow::Cow;
use std::io::{self, Write};

/// What standard output gets for one input under `preview`: its diff (`--diff`), or
/// its name on a line (`--check` alone) when it would change; `name`
/// is `None` for standard input.
pub fn shown<'a>(
    preview: Preview,
    diff: Option<&'a [u8]>,
    changed: bool,
    name: Option<&str>,
) -> Option<Cow<'a, [u8]>> {
    match diff {
        Some(diff) => Some(Cow::Borrowed(diff)),
        None if preview.check && !preview.diff && changed => {
            let name = name.unwrap_or(STDIN_NAME);
            Some(Cow::Owned(format!("{name}\n").into_bytes()))
        }
        None => None,
    }
}

/// The name a diff's header and `--check`'s list give standard input.
pub const STDIN_NAME: &str = "(standard input)";

/// Lines of context around each change (as `diff -u`).
const CONTEXT: usize = 3;

/// The unified diff of `old` against `new` (its pieces, in order) for the
/// input shown as `name`: `--- name` / `+++ name` headers, hunks with three
/// lines of context, `\ No newline at end of file` where it applies. Bytes
/// are compared and written as they are (any encoding).
pub fn unified_diff(name: &str, old: &[u8], new: &[&[u8]]) -> Vec<u8> {
    let new: Vec<u8> = new.concat();
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(old, &new[..]);
    let mut out = Vec::new();
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT).missing_newline_hint(true);
    // Hunk by hunk: similar's `UnifiedDiff::to_writer` (3.2) writes each
    // hunk through `Display`, which replaces bytes that are not UTF-8 with
    // U+FFFD; a hunk's own `to_writer` writes them as they are. (Writing
    // into a Vec cannot fail.)
    for (i, hunk) in unified.iter_hunks().enumerate() {
        if i == 0 {
            out.extend_from_slice(format!("--- {name}\n+++ {name}\n").as_bytes());
        }
        let _ = hunk.to_writer(&mut out);
    }
    out
}

/// Print `bytes` (a diff, or a line of `--check`'s list) on standard output;
/// `Err` when its reader has gone away (`| head`).
pub fn print(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::unified_diff;

    #[test]
    fn a_unified_diff_names_the_file_and_keeps_three_lines_of_context() {
        let old = b"1\n2\n3\n4\n<a href=\"x\">\n6\n7\n8\n9\n";
        let new = b"1\n2\n3\n4\n<a href=\"https://h/x\">\n6\n7\n8\n9\n";
        let diff = unified_diff("d/p.html", old, &[&new[..]]);
        assert_eq!(
            String::from_utf8(diff).unwrap(),
            "--- d/p.html\n+++ d/p.html\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-<a href=\"x\">\n+<a href=\"https://h/x\">\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept_and_a_missing_newline_is_marked() {
        let diff = unified_diff("l.html", b"\xE9 <a href=x>", &[b"\xE9 <a href=", b"y>"]);
        assert_eq!(
            diff,
            b"--- l.html\n+++ l.html\n@@ -1 +1 @@\n-\xE9 <a href=x>\n\\ No newline at end of file\n+\xE9 <a href=y>\n\\ No newline at end of file\n"
        );
    }
}
