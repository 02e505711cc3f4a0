//! The command line, end to end (assert_cmd): every flag and every error of
//! the rewrite command, the exit statuses, determinism across `-j`.

#[path = "../common/warc_gen.rs"]
mod warc_gen;
use crate::test_hooks;
use predicates::prelude::*;
use predicates::str::contains;
use std::fs;
use std::path::{Path, PathBuf};

/// A page with one relative link, and what it becomes under
/// `https://example.org/docs/page.html`. (No white space before the first
/// element: the tree-based HTML writer drops it, a splicing one keeps it; the
/// whole-output tests hold for both.)
const PAGE: &str = "<!DOCTYPE html><p><a href=\"guide/x.html\">x</a></p>\n";
const PAGE_URL: &str = "https://example.org/docs/page.html";
/// `PAGE` rewritten under `PAGE_URL`: `guide/x.html` against
/// `https://example.org/docs/page.html` (RFC 3986 §5.2: the base's last
/// segment replaced), nothing else changed.
const PAGE_AFTER: &str =
    "<!DOCTYPE html><p><a href=\"https://example.org/docs/guide/x.html\">x</a></p>\n";

use crate::util::linkbase;
#[cfg(unix)]
use crate::util::linkbase_unprivileged;

/// Run linkbase with `args` and `input` on standard input.
fn run_stdin(args: &[&str], input: impl Into<Vec<u8>>) -> assert_cmd::assert::Assert {
    linkbase().args(args).write_stdin(input).assert()
}

fn write(path: &Path, content: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(path, content).unwrap();
}

/// A folder `site/` with pages, a style sheet, an image and a nested folder.
fn site(root: &Path) -> PathBuf {
    let site = root.join("site");
    write(&site.join("index.html"), "<a href=\"guide/a.html\">a</a>\n");
    write(&site.join("guide/a.html"), "<a href=\"b.html\">b</a>\n");
    write(&site.join("guide/b.htm"), "<img src=\"../img/logo.png\">\n");
    write(
        &site.join("style.css"),
        "body { background: url(img/bg.png) }\n",
    );
    write(&site.join("img/logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    site
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn report_lines(path: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

// --- help, version, completions -------------------------------------------

#[test]
fn help_documents_every_flag_under_headings() {
    let out = linkbase().arg("--help").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for needle in [
        "Input:",
        "Output:",
        "Base URL:",
        "Rewriting:",
        "Processing:",
        "Reporting:",
        "--recursive",
        "--format",
        "--charset",
        "--max-size",
        "--output",
        "--in-place",
        "--backup",
        "--backup-mode",
        "--rewritten-only",
        "--url ",
        "--url-prefix",
        "--profile",
        "--absolutize-fragments",
        "--attr",
        "--force",
        "--jobs",
        "--report",
        "--stats",
        "--quiet",
        "--diff",
        "--check",
        "--glob",
        "Exit status",
        "Examples",
    ] {
        assert!(text.contains(needle), "--help lacks {needle:?}:\n{text}");
    }
}

#[test]
fn version_prints_name_and_crate_version() {
    linkbase()
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("linkbase {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_bash_prints_a_completion_script() {
    linkbase()
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout(contains("_linkbase()").and(contains("--url-prefix")));
}

// --- one input ---------------------------------------------------------------

#[test]
fn a_file_is_rewritten_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL])
        .assert()
        .success()
        .stdout(PAGE_AFTER)
        .stderr("");
}

#[test]
fn standard_input_is_rewritten_to_standard_output() {
    for args in [&["--url", PAGE_URL][..], &["-", "--url", PAGE_URL][..]] {
        run_stdin(args, PAGE)
            .success()
            .stdout(PAGE_AFTER)
            .stderr("");
    }
}

#[test]
fn output_file_receives_the_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let out = dir.path().join("out.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL, "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr("");
    assert_eq!(fs::read_to_string(&out).unwrap(), PAGE_AFTER);
    assert_eq!(fs::read_to_string(&page).unwrap(), PAGE, "input untouched");
}

#[test]
fn standard_input_goes_to_an_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.html");
    linkbase()
        .args(["--url", PAGE_URL, "-o"])
        .arg(&out)
        .write_stdin(PAGE)
        .assert()
        .success()
        .stdout("")
        .stderr("");
    assert_eq!(fs::read_to_string(&out).unwrap(), PAGE_AFTER);
}

#[test]
fn a_document_without_base_is_written_back_byte_for_byte() {
    // No --url, no <base>, no saved-from comment: rule 5.4, nothing changes.
    let input = "<!DOCTYPE html>\n<P><A HREF = 'x.html' >x</A>\r\n<!-- odd   spacing -->";
    linkbase()
        .write_stdin(input)
        .assert()
        .success()
        .stdout(input)
        .stderr("<stdin>: 1 relative link left as it is: no base (give --url)\n");
}

// --- relative links and no base ------------------------------------------------

#[test]
fn relative_links_without_a_base_get_one_warning_line() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    // Two relative links, one absolute, one same-document: two are left for
    // want of a base.
    let input = "<a href=\"a.html\">a</a><img src=\"i.png\"><a href=\"https://x.example/\">x</a><a href=\"#top\">t</a>\n";
    write(&page, input);
    let out = dir.path().join("out.html");
    let name = page.display().to_string();
    linkbase()
        .arg(&page)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr(format!(
            "{name}: 2 relative links left as they are: no base (give --url)\n"
        ));
    assert_eq!(fs::read_to_string(&out).unwrap(), input);
    // --quiet silences it; the exit status stays 0.
    linkbase()
        .arg(&page)
        .args(["--quiet", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr("");
    // A page without relative links says nothing.
    write(&page, "<a href=\"https://x.example/\">x</a>\n");
    linkbase().arg(&page).assert().success().stderr("");
}

#[test]
fn each_part_without_a_base_gets_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let message = dir.path().join("m.eml");
    let input = "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n<a href=x.html>x</a><a href=y.html>y</a>\n--b\nContent-Type: text/plain\n\nsee x.html\n--b\nContent-Type: text/html\n\n<img src=i.png>\n--b--\n";
    write(&message, input);
    let name = message.display().to_string();
    linkbase()
        .arg(&message)
        .assert()
        .success()
        .stdout(input)
        .stderr(format!(
            "{name}: part 1: 2 relative links left as they are: no base (no absolute Content-Base or Content-Location in the message to resolve against; give --url if it was retrieved from a URL)\n\
             {name}: part 3: 1 relative link left as it is: no base (no absolute Content-Base or Content-Location in the message to resolve against; give --url if it was retrieved from a URL)\n"
        ));
}

#[test]
fn a_folder_without_a_base_counts_the_links_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let output = linkbase()
        .arg("-r")
        .arg(&site)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stdout("")
        .get_output()
        .clone();
    // One summary line, no line per file: each of the four files has one
    // relative link, left; 117 bytes read (see the summary test).
    let err = stderr_of(&output);
    assert!(
        err.starts_with(
            "linkbase: 0 of 4 inputs changed; 1 other file copied to the mirror; 0 links rewritten, 4 left (4 with no base: give --url-prefix), 0 errors, 117 bytes at "
        ) && err.ends_with("/s\n")
            && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn charset_overrides_the_document_encoding() {
    // "リンク" in Shift_JIS, without any <meta charset>: only --charset tells.
    let mut input = b"<a href=\"x.html\">".to_vec();
    input.extend_from_slice(b"\x83\x8A\x83\x93\x83\x4E");
    input.extend_from_slice(b"</a>");
    // Written back in Shift_JIS: the text's bytes as they were.
    let mut expected = b"<a href=\"https://example.org/x.html\">".to_vec();
    expected.extend_from_slice(b"\x83\x8A\x83\x93\x83\x4E");
    expected.extend_from_slice(b"</a>");
    run_stdin(
        &["--charset", "shift_jis", "--url", "https://example.org/"],
        input,
    )
    .success()
    .stdout(expected)
    .stderr("");
}

#[test]
fn an_unknown_charset_is_a_usage_error() {
    run_stdin(&["--charset", "klingon"], PAGE)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: invalid value 'klingon' for '--charset <LABEL>': unknown charset `klingon` (expected an encoding label such as utf-8, shift_jis, windows-1252)\n\nFor more information, try '--help'.\n");
}

#[test]
fn profile_selects_the_resolution_algorithm() {
    // The seed draft's Appendix C reads `?y` as part of the path.
    let cases = [
        ("rfc3986", "<a href=\"http://a/b/c/d;p?y\">y</a>"),
        ("url-syntax-01", "<a href=\"http://a/b/c/?y\">y</a>"),
    ];
    for (profile, expected) in cases {
        run_stdin(
            &["--profile", profile, "--url", "http://a/b/c/d;p?q"],
            "<a href=\"?y\">y</a>",
        )
        .success()
        .stdout(expected)
        .stderr("");
    }
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    run_stdin(&["--profile", "rfc9999"], PAGE)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: invalid value 'rfc9999' for '--profile <PROFILE>'\n  [possible values: rfc3986, url-syntax-01, rfc1808, relative-url-01, whatwg]\n\n  tip: a similar value exists: 'rfc3986'\n\nFor more information, try '--help'.\n");
}

#[test]
fn absolutize_fragments_rewrites_same_document_references() {
    let input = "<a href=\"#top\">top</a>";
    run_stdin(&["--url", PAGE_URL], input)
        .success()
        .stdout(input)
        .stderr("");
    run_stdin(&["--url", PAGE_URL, "--absolutize-fragments"], input)
        .success()
        .stdout("<a href=\"https://example.org/docs/page.html#top\">top</a>")
        .stderr("");
}

#[test]
fn attr_adds_url_bearing_attributes() {
    let input = "<img data-src=\"lazy.png\" data-other=\"keep.png\">";
    // Without --attr neither attribute is a URL: nothing changes, and the
    // run says it found no link.
    run_stdin(&["--url", PAGE_URL], input)
        .success()
        .stdout(input)
        .stderr("<stdin>: no links found (read as HTML; --format css, mime or xhtml reads it as something else)\n");
    // With it only the named one (names are matched case-insensitively).
    run_stdin(&["--url", PAGE_URL, "--attr", "DATA-SRC"], input)
        .success()
        .stdout("<img data-src=\"https://example.org/docs/lazy.png\" data-other=\"keep.png\">")
        .stderr("");
}

#[test]
fn an_empty_attr_is_a_usage_error() {
    run_stdin(&["--attr", " "], PAGE)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --attr ``: not an attribute name (one word without spaces, quotes, `/`, `=` or `>`, such as data-src)\n");
}

#[test]
fn format_forces_how_the_input_is_read() {
    let css = "p { background: url(img/bg.png) }\n";
    linkbase()
        .args([
            "--format",
            "css",
            "--url",
            "https://example.org/s/style.css",
        ])
        .write_stdin(css)
        .assert()
        .success()
        .stdout("p { background: url(https://example.org/s/img/bg.png) }\n")
        .stderr("");
    run_stdin(&["--format", "pdf"], css)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: invalid value 'pdf' for '--format <FORMAT>'\n  [possible values: auto, html, xhtml, mime, css, warc, feed]\n\nFor more information, try '--help'.\n");
}

#[test]
fn force_rewrites_a_signed_message() {
    let message = "MIME-Version: 1.0\n\
Content-Base: https://example.org/mail/\n\
Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=\"b\"\n\
\n\
--b\n\
Content-Type: text/html\n\
\n\
<a href=\"x.html\">x</a>\n\
--b\n\
Content-Type: application/pgp-signature\n\
\n\
sig\n\
--b--\n";
    // Left as it is, with a warning (not an error: exit status 0).
    run_stdin(&["--format", "mime"], message)
        .success()
        .stdout(message)
        .stderr("<stdin>: warning: signed (multipart/signed): left unchanged, rewriting would break the signature (--force rewrites it)\n");
    // With --force the HTML part's link is rewritten against the message's
    // Content-Base, and nothing else changes: the signature part, the
    // headers, the delimiters stay byte for byte.
    let forced = message.replace(
        "<a href=\"x.html\">",
        "<a href=\"https://example.org/mail/x.html\">",
    );
    assert_ne!(forced, message);
    run_stdin(&["--format", "mime", "--force"], message)
        .success()
        .stdout(forced)
        .stderr("");
}

#[test]
fn messages_in_a_folder_are_rewritten_part_by_part() {
    let dir = tempfile::tempdir().unwrap();
    let mail = dir.path().join("mail");
    let good = "MIME-Version: 1.0\n\
Content-Type: multipart/alternative; boundary=\"b\"\n\
\n\
--b\n\
Content-Type: text/plain\n\
\n\
see x.html\n\
--b\n\
Content-Type: text/html\n\
Content-Base: https://example.org/news/\n\
\n\
<a href=\"x.html\">x</a>\n\
--b--\n";
    // A multipart without a boundary cannot be walked: left as it is, an error.
    let bad = "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--b\n<a href=\"x.html\">\n";
    write(&mail.join("a-good.eml"), good);
    write(&mail.join("b-bad.eml"), bad);
    write(&mail.join("c-export"), good); // no extension: sniffed as a message
    let out = dir.path().join("out");
    let report = dir.path().join("r.jsonl");
    let output = linkbase()
        .arg("-r")
        .arg(&mail)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = stderr_of(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "{}: error: multipart/mixed without a boundary parameter; left unchanged",
            mail.join("b-bad.eml").display()
        ),
        "{err}"
    );
    assert_eq!(lines.len(), 2, "the error and the summary: {err}");
    assert_eq!(fs::read_to_string(out.join("b-bad.eml")).unwrap(), bad);
    // The HTML part's link against its Content-Base; the text part, the
    // headers and the delimiters as they were.
    let rewritten = good.replace(
        "<a href=\"x.html\">",
        "<a href=\"https://example.org/news/x.html\">",
    );
    for name in ["a-good.eml", "c-export"] {
        assert_eq!(
            fs::read_to_string(out.join(name)).unwrap(),
            rewritten,
            "{name}"
        );
    }
    let links: Vec<_> = report_lines(&report)
        .into_iter()
        .filter(|l| l.get("element").is_some())
        .collect();
    assert_eq!(links.len(), 2);
    assert_eq!(links[0]["part"], "2");
    assert_eq!(links[0]["rule"], "content-base");
}

// --- reports and statistics --------------------------------------------------

#[test]
fn report_writes_one_json_record_per_link_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let report = dir.path().join("links.jsonl");
    write(
        &page,
        "<a href=\"a.html\">a</a><img src=\"https://cdn.example/i.png\">",
    );
    linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL, "--report"])
        .arg(&report)
        .assert()
        .success();
    let lines = report_lines(&report);
    let file = page.display().to_string();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["file"], file.as_str());
    assert_eq!(lines[0]["element"], "a");
    assert_eq!(lines[0]["attribute"], "href");
    assert_eq!(lines[0]["before"], "a.html");
    assert_eq!(lines[0]["after"], "https://example.org/docs/a.html");
    assert_eq!(lines[0]["base"], PAGE_URL);
    assert_eq!(lines[0]["rule"], "retrieval");
    assert_eq!(lines[0]["outcome"], "rewritten");
    assert_eq!(lines[1]["element"], "img");
    assert_eq!(lines[1]["outcome"], "absolute");
    assert!(lines[1].get("after").is_none());
}

#[test]
fn report_records_skipped_and_ignored_files() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    write(&site.join("zz-binary.html"), b"<p>\0\0\0");
    let report = dir.path().join("r.jsonl");
    linkbase()
        .arg("-r")
        .arg(&site)
        .arg("-o")
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(&report)
        .assert()
        .code(1);
    let lines = report_lines(&report);
    let png = site.join("img/logo.png").display().to_string();
    let bin = site.join("zz-binary.html").display().to_string();
    let record = |file: &str| {
        lines
            .iter()
            .find(|l| l["file"] == file && l.get("element").is_none())
            .unwrap_or_else(|| panic!("no file record for {file}: {lines:?}"))
            .clone()
    };
    assert_eq!(record(&png)["outcome"], "ignored");
    assert_eq!(record(&bin)["outcome"], "skipped");
    assert_eq!(
        record(&bin)["reason"],
        "skipped: binary file (NUL bytes; --format forces reading it)"
    );
    assert_eq!(
        record(&png)["reason"],
        "not HTML, a message, CSS or a WARC; copied to the mirror"
    );
}

#[test]
fn report_dash_writes_to_standard_output_when_documents_go_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    let out = linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL, "--report", "-", "-o"])
        .arg(dir.path().join("out.html"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let record: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(
        record,
        serde_json::json!({
            "file": page.display().to_string(),
            "element": "a",
            "attribute": "href",
            "before": "guide/x.html",
            "after": "https://example.org/docs/guide/x.html",
            "base": PAGE_URL,
            "rule": "retrieval",
            "outcome": "rewritten",
        })
    );
    // Standard output carries the document: the report cannot go there too.
    run_stdin(&["--report", "-"], PAGE)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --report - writes to standard output, which carries the document: use -o FILE, -i or a report file\n");
}

#[test]
fn report_to_an_impossible_path_is_an_error_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("no/such/folder/r.jsonl");
    linkbase()
        .arg("--report")
        .arg(&report)
        .write_stdin(PAGE)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "linkbase: error: --report {}: cannot create: No such file or directory\n",
            report.display()
        ));
}

#[test]
fn stats_prints_counts_per_outcome_and_attribute() {
    // 22 + 18 + 17 bytes: two links rewritten (href, src), one same-document.
    let input = "<a href=\"a.html\">a</a><a href=\"#x\">x</a><img src=\"i.png\">";
    let out = run_stdin(&["--url", PAGE_URL, "--stats"], input)
        .success()
        .get_output()
        .clone();
    let err = stderr_of(&out);
    // The tables: outcome names left-aligned to 14, counts right-aligned to
    // 10; the attribute table's columns as wide as their widest cell, two
    // spaces apart.
    let tables = "\
links per outcome:
  rewritten               2
  absolute                0
  same-document           1
  placeholder             0
  empty                   0
  no-base                 0
  failed                  0
files: 1 processed (1 changed), 0 skipped, 0 ignored, 0 copied to the mirror
links per attribute:
  attribute  rewritten  absolute  same-document  placeholder  empty  no-base  failed  total
  href               1         0              1            0      0        0       0      2
  src                1         0              0            0      0        0       0      1
  total              2         0              1            0      0        0       0      3
linkbase: 1 of 1 input changed; 2 links rewritten, 1 left, 0 errors, 57 bytes at ";
    assert!(err.starts_with(tables), "{err}");
    let rate = &err[tables.len()..];
    assert!(rate.ends_with("/s\n") && rate.lines().count() == 1, "{err}");
}

// --- many inputs ---------------------------------------------------------------

#[test]
fn recursive_mirrors_the_tree_into_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let out = dir.path().join("out");
    linkbase()
        .arg("-r")
        .arg(&site)
        .args(["--url-prefix", "https://example.org/site", "-o"])
        .arg(&out)
        .assert()
        .success();
    let read = |rel: &str| fs::read_to_string(out.join(rel)).unwrap();
    let expected = [
        (
            "index.html",
            "<a href=\"https://example.org/site/guide/a.html\">a</a>\n",
        ),
        (
            "guide/a.html",
            "<a href=\"https://example.org/site/guide/b.html\">b</a>\n",
        ),
        (
            "guide/b.htm",
            "<img src=\"https://example.org/site/img/logo.png\">\n",
        ),
        (
            "style.css",
            "body { background: url(https://example.org/site/img/bg.png) }\n",
        ),
    ];
    for (file, content) in expected {
        assert_eq!(read(file), content, "{file}");
    }
    assert_eq!(
        fs::read(out.join("img/logo.png")).unwrap(),
        fs::read(site.join("img/logo.png")).unwrap(),
        "files not rewritten are copied"
    );
}

#[test]
fn url_prefix_maps_paths_to_percent_encoded_urls() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("mirror");
    write(&root.join("guide/my page.html"), "<a href=\"b.html\">b</a>");
    write(&root.join("été/a#1.html"), "<a href=\"b.html\">b</a>");
    let report = dir.path().join("r.jsonl");
    linkbase()
        .arg("-r")
        .arg(&root)
        .args(["--url-prefix", "https://site/docs/", "-q", "-o"])
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let bases: Vec<String> = report_lines(&report)
        .iter()
        .map(|l| l["base"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        bases,
        [
            "https://site/docs/guide/my%20page.html",
            "https://site/docs/%C3%A9t%C3%A9/a%231.html"
        ]
    );
}

#[test]
fn url_prefix_applies_to_a_file_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .args(["--url-prefix", "https://example.org/docs/"])
        .assert()
        .success()
        .stdout(PAGE_AFTER)
        .stderr("");
}

#[test]
fn url_prefix_needs_paths_and_an_absolute_url() {
    run_stdin(&["--url-prefix", "https://example.org/"], PAGE)
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --url-prefix maps file paths to URLs; standard input has no path (use --url)\n");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .args(["--url-prefix", "https://example.org/?q=1"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --url-prefix https://example.org/?q=1/: must be a URL without query or fragment, e.g. https://example.org/docs/\n");
}

#[test]
fn unusable_base_urls_are_usage_errors_before_any_file_is_touched() {
    // (the URL, why it is refused)
    let cases = [
        (
            "http://",
            "no host: a http: URL needs one, as in http://example.org/docs/",
        ),
        (
            "https://:8080/x",
            "no host: a https: URL needs one, as in https://example.org/docs/",
        ),
        (
            "http:page.html",
            "no host: a http: URL needs one, as in http://example.org/docs/",
        ),
        (
            "https://exa mple.org/",
            "contains a space in its host `exa mple.org`, which no host name can hold: check the host name",
        ),
        (
            "https://example.org/my docs/",
            "contains a space, which a URL cannot hold: percent-encode it (%20)",
        ),
        (
            "https://example.org/a\tb/",
            "contains a control character (U+0009), which a URL cannot hold: percent-encode it (%09)",
        ),
        (
            "mailto:x@y.example",
            "cannot serve as a base (rfc3986 profile): base `mailto:x@y.example` is not hierarchical; relative references cannot be resolved against it",
        ),
        (
            "example.org/docs/",
            "base `example.org/docs/` is not an absolute URL (no scheme); give the absolute URL, with its scheme, as in https://example.org/docs/",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let page = site.join("index.html");
    let original = fs::read(&page).unwrap();
    let out = dir.path().join("out");
    for (url, why) in cases {
        let shown = url.replace('\t', "\\t");
        linkbase()
            .arg(&page)
            .args(["--url", url, "-o"])
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("linkbase: error: --url {shown}: {why}\n"));
        linkbase()
            .arg(&page)
            .args(["-i", "--backup", ".orig", "--url", url])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("linkbase: error: --url {shown}: {why}\n"));
        // --url-prefix gets its `/` before it is checked.
        let prefix = if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        };
        let shown = prefix.replace('\t', "\\t");
        let why = why.replace(url, &prefix);
        linkbase()
            .arg("-r")
            .arg(&site)
            .args(["--url-prefix", &prefix, "-o"])
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("linkbase: error: --url-prefix {shown}: {why}\n"));
    }
    assert!(!out.exists(), "an output was written");
    assert_eq!(fs::read(&page).unwrap(), original);
    assert_eq!(names_in(&site), ["guide", "img", "index.html", "style.css"]);
    // Under another profile the message names it.
    linkbase()
        .arg(&page)
        .args(["--profile", "rfc1808", "--url", "urn:isbn:0451450523"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --url urn:isbn:0451450523: cannot serve as a base (rfc1808 profile): base `urn:isbn:0451450523` is not hierarchical; relative references cannot be resolved against it\n");
}

#[test]
fn url_with_several_inputs_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    linkbase()
        .arg("-r")
        .arg(&site)
        .args(["--url", PAGE_URL, "-o"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --url names the URL of one document; for several files or a folder use --url-prefix\n");
}

#[test]
fn url_and_url_prefix_conflict() {
    linkbase()
        .args([
            "--url",
            PAGE_URL,
            "--url-prefix",
            "https://example.org/",
            "x.html",
        ])
        .assert()
        .code(2);
}

#[test]
fn recursive_sniffs_files_without_extension() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("in");
    write(
        &root.join("page"),
        "<!DOCTYPE html><a href=\"a.html\">a</a>",
    );
    write(
        &root.join("message"),
        "From: a@example.org\nSubject: x\n\nhello\n",
    );
    write(&root.join("notes"), "just some text\n");
    write(&root.join("script.js"), "<html>");
    let report = dir.path().join("r.jsonl");
    linkbase()
        .arg("-r")
        .arg(&root)
        .arg("-o")
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let out = dir.path().join("out");
    // No base: both written back as they were.
    assert_eq!(
        fs::read_to_string(out.join("page")).unwrap(),
        "<!DOCTYPE html><a href=\"a.html\">a</a>"
    );
    assert_eq!(
        fs::read_to_string(out.join("message")).unwrap(),
        "From: a@example.org\nSubject: x\n\nhello\n"
    );
    // The files not rewritten are copied as they are (a complete mirror).
    assert_eq!(
        fs::read_to_string(out.join("notes")).unwrap(),
        "just some text\n"
    );
    assert_eq!(fs::read_to_string(out.join("script.js")).unwrap(), "<html>");
    let ignored: Vec<String> = report_lines(&report)
        .iter()
        .filter(|l| l["outcome"] == "ignored")
        .map(|l| l["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        ignored,
        [
            root.join("notes").display().to_string(),
            root.join("script.js").display().to_string()
        ]
    );
}

#[cfg(unix)]
#[test]
fn recursive_does_not_follow_symbolic_links() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("in");
    write(&root.join("a.html"), PAGE);
    std::os::unix::fs::symlink(&root, root.join("loop")).unwrap();
    linkbase()
        .arg("-r")
        .arg(&root)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .success();
    assert!(dir.path().join("out/a.html").exists());
    // The link is not followed: the mirror has it as a link, same target.
    assert_eq!(fs::read_link(dir.path().join("out/loop")).unwrap(), root);
    assert_eq!(names_in(&dir.path().join("out")), ["a.html", "loop"]);
}

#[test]
fn several_files_are_mirrored_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.html");
    let b = dir.path().join("sub/b.html");
    write(&a, PAGE);
    write(&b, PAGE);
    let out = dir.path().join("out");
    linkbase()
        .arg(&a)
        .arg(&b)
        .args(["--url-prefix", "https://example.org/docs/", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    // Each named file's URL is the prefix and its file name.
    assert_eq!(fs::read_to_string(out.join("a.html")).unwrap(), PAGE_AFTER);
    assert_eq!(fs::read_to_string(out.join("b.html")).unwrap(), PAGE_AFTER);
    assert_eq!(names_in(&out), ["a.html", "b.html"]);
}

#[test]
fn several_inputs_without_an_output_are_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.html");
    write(&a, PAGE);
    linkbase()
        .arg(&a)
        .arg(&a)
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: several inputs: give an output folder with -o DIR, or rewrite in place with -i\n");
    let site = site(dir.path());
    linkbase()
        .arg("-r")
        .arg(&site)
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: several inputs: give an output folder with -o DIR, or rewrite in place with -i\n");
}

#[test]
fn an_output_folder_inside_the_input_tree_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    for out in [
        site.join("out"),
        site.clone(),
        site.join("guide/deeper/out"),
    ] {
        linkbase()
            .arg("-r")
            .arg(&site)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "linkbase: error: -o {}: the output folder {} the input {}; -o DIR must be outside every input (or rewrite in place with -i)\n",
                out.display(),
                if out == site { "is" } else { "is inside" },
                site.display()
            ));
    }
    assert!(!site.join("out").exists() && !site.join("guide/deeper").exists());
}

#[test]
fn an_output_file_equal_to_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .arg("-o")
        .arg(&page)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "linkbase: error: -o {}: the output is the input; use -i to rewrite in place\n",
            page.display()
        ));
    assert_eq!(fs::read_to_string(&page).unwrap(), PAGE);
}

// --- errors: one line each, processing continues ---------------------------------

#[test]
fn a_folder_without_recursive_is_an_error_and_the_rest_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    let out = dir.path().join("out");
    let output = linkbase()
        .arg(&site)
        .arg(&page)
        .args(["--url-prefix", "https://example.org/docs/", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .get_output()
        .clone();
    // One input is processed: no summary line.
    assert_eq!(
        stderr_of(&output),
        format!(
            "{}: error: is a folder (use -r to rewrite the files in it)\n",
            site.display()
        )
    );
    assert_eq!(
        fs::read_to_string(out.join("page.html")).unwrap(),
        PAGE_AFTER
    );
}

#[cfg(unix)] // the causes are the POSIX messages
#[test]
fn unreadable_inputs_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    let missing = dir.path().join("missing.html");
    let not_a_folder = page.join("x.html");
    let output = linkbase()
        .arg(&missing)
        .arg(&not_a_folder)
        .arg(&page)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = stderr_of(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "{}: error: cannot read: No such file or directory",
            missing.display()
        )
    );
    assert_eq!(
        lines[1],
        format!(
            "{}: error: cannot read: Not a directory",
            not_a_folder.display()
        )
    );
    assert!(
        dir.path().join("out/page.html").exists(),
        "the rest is done"
    );
}

#[cfg(unix)]
#[test]
fn a_file_without_read_permission_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("secret.html");
    write(&page, PAGE);
    fs::set_permissions(&page, fs::Permissions::from_mode(0o000)).unwrap();
    linkbase_unprivileged(dir.path())
        .arg(&page)
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "{}: error: cannot read: Permission denied\n",
            page.display()
        ));
}

#[test]
fn links_that_fail_to_resolve_are_one_error_line_per_file() {
    // A non-hierarchical base: relative references cannot be resolved. (As
    // --url it is refused; a document's own <base> cannot be.)
    let input =
        "<base href=\"mailto:someone@example.org\"><a href=\"x.html\">x</a><img src=\"y.png\">";
    run_stdin(&[], input)
        .code(1)
        .stdout(input)
        .stderr("<stdin>: error: 2 links could not be resolved and were left as they are; first: `x.html` in <a href>: base `mailto:someone@example.org` is not hierarchical; relative references cannot be resolved against it\n");
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.jsonl");
    let mut cmd = linkbase();
    cmd.arg("--report").arg(&report);
    let output = cmd.write_stdin(input).assert().code(1).get_output().clone();
    let err = stderr_of(&output);
    assert!(
        err.starts_with(
            "<stdin>: error: 2 links could not be resolved and were left as they are; \
             first: `x.html` in <a href>: "
        ) && err.lines().count() == 1,
        "{err}"
    );
    let lines = report_lines(&report);
    let outcomes: Vec<_> = lines
        .iter()
        .filter(|l| !l["outcome"].is_null())
        .map(|l| l["outcome"].clone())
        .collect();
    assert_eq!(outcomes, ["absolute", "failed", "failed"]);
    // And the problem that says why (issue 31: every error has a reason).
    let problems: Vec<_> = lines
        .iter()
        .filter(|l| l["outcome"].is_null())
        .map(|l| l["message"].clone())
        .collect();
    assert_eq!(
        problems,
        ["2 links could not be resolved and were left as they are; first: `x.html` in <a href>: base `mailto:someone@example.org` is not hierarchical; relative references cannot be resolved against it"]
    );
    // One link: the line says so in the singular.
    run_stdin(&[], "<base href=\"mailto:a@b.example\"><a href=\"x.html\">x</a>")
        .code(1)
        .stderr("<stdin>: error: 1 link could not be resolved and was left as it is; first: `x.html` in <a href>: base `mailto:a@b.example` is not hierarchical; relative references cannot be resolved against it\n");
}

#[test]
fn a_binary_file_is_skipped_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("image.html");
    write(&binary, b"GIF89a\x01\0\x01\0\0\0\0;<a href=x>");
    linkbase()
        .arg(&binary)
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "{}: error: skipped: binary file (NUL bytes; --format forces reading it)\n",
            binary.display()
        ));
}

#[test]
fn format_html_reads_a_file_with_nul_bytes_as_html() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    // A NUL near the start: skipped as binary unless --format says HTML.
    write(&page, b"<p>\0</p><a href=\"x.html\">x</a>");
    linkbase()
        .arg(&page)
        .args(["--url", "https://example.org/d/"])
        .assert()
        .code(1)
        .stdout("");
    // Read as HTML: the link is rewritten. The parser drops a NUL in text
    // (the "in body" insertion mode ignores U+0000), so a writer that writes
    // the tree drops it; one that splices the new values into the original
    // keeps it. Either way nothing else changes.
    let out = linkbase()
        .arg(&page)
        .args(["--format", "html", "--url", "https://example.org/d/"])
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let kept = b"<p>\0</p><a href=\"https://example.org/d/x.html\">x</a>";
    let dropped = b"<p></p><a href=\"https://example.org/d/x.html\">x</a>";
    assert!(
        out == kept || out == dropped,
        "{}",
        String::from_utf8_lossy(&out)
    );
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_are_named_byte_for_byte() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let page = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"caf\xE9.html"));
    write(&page, "<a href=\"x.html\">x</a>\n");
    let report = dir.path().join("r.jsonl");
    let shown = format!("{}/caf\\xE9.html", dir.path().display());
    linkbase()
        .arg(&page)
        .arg("--report")
        .arg(&report)
        .assert()
        .success()
        .stdout("<a href=\"x.html\">x</a>\n")
        .stderr(format!(
            "{shown}: 1 relative link left as it is: no base (give --url)\n"
        ));
    let lines = report_lines(&report);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["file"], shown.as_str());
}

#[test]
fn utf16_text_is_not_taken_for_binary() {
    let text: Vec<u8> = "\u{feff}<a href=\"x.html\">x</a>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    linkbase()
        .write_stdin(text.clone())
        .assert()
        .success()
        .stdout(text);
}

#[test]
fn a_file_over_max_size_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.html");
    let small = dir.path().join("small.html");
    write(&big, "<p>x</p>".repeat(200)); // 1600 bytes
    write(&small, PAGE);
    let output = linkbase()
        .arg(&big)
        .arg(&small)
        .args(["--max-size", "1K", "-q", "-o"])
        .arg(dir.path().join("out"))
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert_eq!(
        stderr_of(&output),
        format!(
            "{}: error: skipped: 1.6 KiB is over --max-size 1.0 KiB (a larger --max-size reads it)\n",
            big.display()
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("out/small.html")).unwrap(),
        PAGE,
        "no base: as it was"
    );
    assert!(!dir.path().join("out/big.html").exists());
    // standard input too
    run_stdin(&["--max-size", "10"], PAGE)
        .code(1)
        .stdout("")
        .stderr("<stdin>: error: skipped: over --max-size 10 B (a larger --max-size reads it)\n");
}

/// Where the library's message names one of its settings (`Options::charset`,
/// `WarcOptions::max_record`, `Options::force`), the command line prints the
/// flag that sets it, on standard error and in the `--report` lines
/// (tests/library_messages.rs checks the library's own words).
#[test]
fn library_messages_name_the_flags() {
    // A record over --max-size inside a WARC (a library message, unlike a
    // whole file over it above).
    let warc = warc_gen::one_small_response();
    let too_large = "skipped: the record is over --max-size (16 bytes)";
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.jsonl");
    linkbase()
        .args(["--max-size", "16", "-q", "--report"])
        .arg(&report)
        .write_stdin(warc)
        .assert()
        .code(1)
        .stderr(format!(
            "<stdin>: part record at offset 0: error: {too_large}\n"
        ));
    let problems: Vec<_> = report_lines(&report)
        .into_iter()
        .filter(|l| l.get("severity").is_some())
        .collect();
    assert_eq!(
        problems,
        [
            serde_json::json!({"part": "record at offset 0", "severity": "error", "message": too_large})
        ]
    );
    // Bytes that are not valid in the encoding --charset names.
    run_stdin(
        &["--charset", "utf-8", "--url", PAGE_URL],
        &b"<a href=x>caf\xff</a>"[..],
    )
    .code(1)
    .stdout(&b"<a href=x>caf\xff</a>"[..])
    .stderr(
        "<stdin>: error: not valid UTF-8 (the encoding chosen by the transport / --charset); \
         left unchanged to avoid data loss\n",
    );
    // A signed message, in the report too (standard error: force_rewrites_a_signed_message).
    let report = dir.path().join("signed.jsonl");
    linkbase()
        .arg("fixtures/mime/signed-left-alone/input.eml")
        .args(["-q", "-o"])
        .arg(dir.path().join("out.eml"))
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let messages: Vec<_> = report_lines(&report)
        .into_iter()
        .filter_map(|l| l.get("message").cloned())
        .collect();
    assert_eq!(
        messages,
        ["signed (multipart/signed): left unchanged, rewriting would break the signature (--force rewrites it)"]
    );
}

#[test]
fn max_size_accepts_suffixes_and_rejects_nonsense() {
    for ok in ["100", "64K", "64kib", "2M", "1G"] {
        run_stdin(&["--max-size", ok], PAGE).success();
    }
    for bad in ["", "M", "1.5M", "12Q", "-1", "99999999999999999999G"] {
        linkbase()
            .arg(format!("--max-size={bad}"))
            .write_stdin(PAGE)
            .assert()
            .code(2)
            .stderr(contains("--max-size"));
    }
}

#[test]
fn a_broken_pipe_on_standard_output_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("big.html");
    // 1.9 MB: far more than a pipe holds, so the write meets the closed pipe.
    write(&page, "<p>filler text</p>\n".repeat(100_000));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .arg(&page)
        .env_remove("LINKBASE_TEST_FAIL_AT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout); // the reader goes away, like `| head -c 64`
    let output = child.wait_with_output().unwrap();
    assert_eq!(stderr_of(&output), "");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_broken_pipe_on_a_report_to_standard_output_ends_it_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("links.html");
    // 3,000 links: a report of some 500 KB, more than a pipe holds.
    write(&page, "<a href=\"x.html\">x</a>\n".repeat(3_000));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .arg(&page)
        .args(["--url", PAGE_URL, "--report", "-", "-o"])
        .arg(dir.path().join("out.html"))
        .env_remove("LINKBASE_TEST_FAIL_AT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(stderr_of(&output), "");
    assert_eq!(output.status.code(), Some(0));
    // The document is written whole all the same.
    assert_eq!(
        fs::read_to_string(dir.path().join("out.html")).unwrap(),
        "<a href=\"https://example.org/docs/x.html\">x</a>\n".repeat(3_000)
    );
}

// --- in place ------------------------------------------------------------------------

#[test]
fn in_place_rewrites_files_and_keeps_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&page, fs::Permissions::from_mode(0o604)).unwrap();
    }
    linkbase()
        .arg(&page)
        .args(["-i", "--url", PAGE_URL])
        .assert()
        .success()
        .stdout("");
    assert_eq!(fs::read_to_string(&page).unwrap(), PAGE_AFTER);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&page).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o604);
    }
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["page.html"], "no temporary or backup left");
}

#[test]
fn in_place_with_backup_keeps_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let original = fs::read(site.join("guide/a.html")).unwrap();
    linkbase()
        .arg("-r")
        .arg(&site)
        .args(["-i", "--backup", ".orig", "-q"])
        .args(["--url-prefix", "https://example.org/site/"])
        .assert()
        .success();
    assert_eq!(fs::read(site.join("guide/a.html.orig")).unwrap(), original);
    assert_eq!(
        fs::read_to_string(site.join("guide/a.html")).unwrap(),
        "<a href=\"https://example.org/site/guide/b.html\">b</a>\n"
    );
}

#[test]
fn in_place_leaves_unchanged_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, "<a href=\"https://example.org/\">abs</a>");
    let before = fs::metadata(&page).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    linkbase()
        .arg(&page)
        .args(["-i", "--backup", ".orig", "--url", PAGE_URL])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    assert_eq!(fs::metadata(&page).unwrap().modified().unwrap(), before);
    assert!(!dir.path().join("page.html.orig").exists());
}

/// A style sheet with one relative URL, and its rewrite under `https://example.org/docs/`.
const SHEET: &str = "p { background: url(img/bg.png) }\n";
const SHEET_AFTER: &str = "p { background: url(https://example.org/docs/img/bg.png) }\n";

#[test]
fn an_interrupted_in_place_run_leaves_the_original_byte_identical() {
    test_hooks::require_test_hooks();
    // The atomic writer's test hook makes the write fail at each step.
    // (the step, how its failure is described)
    let steps = [
        ("create", "cannot create a temporary file beside it"),
        ("write", "cannot write the temporary file"),
        ("permissions", "cannot set permissions"),
        ("sync", "cannot sync to disk"),
        ("backup", "cannot write the backup"),
        ("verify", "left as it is"),
        ("rename", "cannot replace the file"),
    ];
    for (step, failure) in steps {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("style.css");
        let other = dir.path().join("other.css");
        write(&sheet, SHEET);
        write(&other, SHEET);
        let output = linkbase()
            .arg(&sheet)
            .arg(&other)
            .args([
                "-i",
                "--backup",
                ".orig",
                "--url-prefix",
                "https://example.org/docs/",
            ])
            .env("LINKBASE_TEST_FAIL_AT", step)
            .assert()
            .code(1)
            .get_output()
            .clone();
        assert_eq!(fs::read_to_string(&sheet).unwrap(), SHEET, "{step}");
        assert_eq!(
            fs::read_to_string(&other).unwrap(),
            SHEET,
            "{step}: every file failed"
        );
        // One line per file, then the summary (two inputs of 34 bytes).
        let err = stderr_of(&output);
        let lines: Vec<&str> = err.lines().collect();
        for (line, file) in lines.iter().zip([&sheet, &other]) {
            assert_eq!(
                *line,
                format!(
                    "{}: error: {failure}: injected failure (LINKBASE_TEST_FAIL_AT)",
                    file.display()
                ),
                "{step}"
            );
        }
        assert!(
            lines.len() == 3
                && lines[2].starts_with(
                    "linkbase: 0 of 2 inputs changed, 2 skipped; 0 links rewritten, 0 left, 2 errors, 68 bytes at "
                ),
            "{step}: {err}"
        );
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".linkbase-"))
            .collect();
        assert!(leftovers.is_empty(), "{step}: {leftovers:?}");
    }
    // Without the hook the same run succeeds: the failures above were the hook's.
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("style.css");
    write(&sheet, SHEET);
    linkbase()
        .arg(&sheet)
        .args(["-i", "--url", "https://example.org/docs/style.css"])
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&sheet).unwrap(), SHEET_AFTER);
}

#[cfg(unix)]
#[test]
fn in_place_in_a_read_only_folder_fails_without_touching_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ro");
    let sheet = folder.join("style.css");
    write(&sheet, SHEET);
    // The file may be written (by anyone: the unprivileged user too), its
    // folder may not: the temporary file beside it cannot be made.
    fs::set_permissions(&sheet, fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).unwrap();
    let result = linkbase_unprivileged(dir.path())
        .arg(&sheet)
        .args(["-i", "--url", "https://example.org/docs/style.css"])
        .assert();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
    result
        .code(1)
        .stderr(contains("cannot create a temporary file beside it"));
    assert_eq!(fs::read_to_string(&sheet).unwrap(), SHEET);
    assert_eq!(
        fs::read_dir(&folder).unwrap().count(),
        1,
        "nothing left beside the file"
    );
}

#[test]
fn a_file_listed_twice_is_processed_once() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("style.css");
    write(&sheet, SHEET);
    let report = dir.path().join("r.jsonl");
    linkbase()
        .arg(&sheet)
        .arg(&sheet)
        .args([
            "-i",
            "-q",
            "--url-prefix",
            "https://example.org/docs/",
            "--report",
        ])
        .arg(&report)
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&sheet).unwrap(), SHEET_AFTER);
    let outcomes: Vec<_> = report_lines(&report)
        .iter()
        .map(|l| l["outcome"].clone())
        .collect();
    assert_eq!(outcomes, ["rewritten", "ignored"]);
}

#[test]
fn two_files_with_the_same_mirror_path_are_an_error_for_the_second() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a/style.css");
    let b = dir.path().join("b/style.css");
    write(&a, SHEET);
    write(&b, "q { background: url(other.png) }");
    let out = dir.path().join("out");
    linkbase()
        .arg(&a)
        .arg(&b)
        .args(["-q", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(format!(
            "{}: error: its output would be the same file as that of {}; skipped\n",
            b.display(),
            a.display()
        ));
    assert_eq!(fs::read_to_string(out.join("style.css")).unwrap(), SHEET);
}

#[test]
fn conflicting_output_flags_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    let cases: [(&str, &[&str], &str); 4] = [
        (
            "-i with -o",
            &["-i", "-o", "x.html"],
            "linkbase: error: -i and -o x.html ask for two things: -i rewrites each input where it is, -o writes the result to x.html and leaves the input as it is; drop one of them\n",
        ),
        ("--backup without -i", &["--backup", ".bak"], "--in-place"),
        ("-i with stdin", &["-i", "-"], "standard input"),
        ("stdin and files", &["-", "x.html"], "standard input"),
    ];
    for (name, args, message) in cases {
        let mut cmd = linkbase();
        if !args.contains(&"-") {
            cmd.arg(&page);
        }
        cmd.args(args)
            .write_stdin(PAGE)
            .assert()
            .code(2)
            .stderr(contains(message).name(name));
    }
    assert_eq!(fs::read_to_string(&page).unwrap(), PAGE);
}

// --- parallelism, progress, summary ----------------------------------------------

/// A folder of `n` pages, some of them broken in ways that produce messages.
fn many_pages(root: &Path, n: usize) -> PathBuf {
    let folder = root.join("many");
    for i in 0..n {
        let name = format!("d{}/p{i:03}.html", i % 7);
        let content = match i % 10 {
            3 => "<p>\0binary\0</p>".to_string(),
            _ => format!(
                "<a href=\"p{:03}.html\">next</a><img src=\"i{i}.png\">\n",
                i + 1
            ),
        };
        write(&folder.join(name), content);
    }
    folder
}

#[test]
fn output_is_the_same_whatever_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let folder = many_pages(dir.path(), 120);
    let run = |jobs: &str| {
        let out = dir.path().join(format!("out{jobs}"));
        let report = dir.path().join(format!("r{jobs}.jsonl"));
        let output = linkbase()
            .arg("-r")
            .arg(&folder)
            .args(["--url-prefix", "https://example.org/", "-j", jobs, "-o"])
            .arg(&out)
            .arg("--report")
            .arg(&report)
            .arg("--stats")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let mut files = Vec::new();
        for d in 0..7 {
            for entry in fs::read_dir(out.join(format!("d{d}"))).unwrap() {
                let path = entry.unwrap().path();
                files.push((
                    path.strip_prefix(&out).unwrap().to_path_buf(),
                    fs::read(&path).unwrap(),
                ));
            }
        }
        files.sort();
        let stderr: Vec<String> = stderr_of(&output)
            .lines()
            .filter(|l| !l.starts_with("linkbase: ")) // the summary has a speed
            .map(str::to_string)
            .collect();
        (fs::read(&report).unwrap(), stderr, files)
    };
    let (report1, stderr1, files1) = run("1");
    let (report2, stderr2, files2) = run("2");
    let (report4, stderr4, files4) = run("4");
    assert!(
        report1.len() > 1000 && files1.len() == 108,
        "{} files",
        files1.len()
    );
    assert_eq!(stderr1.iter().filter(|l| l.contains("binary")).count(), 12);
    assert!(report1 == report2 && report1 == report4, "reports differ");
    assert!(stderr1 == stderr2 && stderr1 == stderr4, "messages differ");
    assert!(files1 == files2 && files1 == files4, "outputs differ");
}

#[test]
fn jobs_must_be_a_positive_number() {
    for bad in ["0", "-1", "many"] {
        run_stdin(&["-j", bad], PAGE).code(2);
    }
}

#[test]
fn summary_is_shown_for_several_files_and_silenced_by_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let run = |quiet: bool| {
        let mut cmd = linkbase();
        cmd.arg("-r")
            .arg(&site)
            .arg("--url-prefix")
            .arg("https://example.org/site/");
        cmd.arg("-o")
            .arg(dir.path().join(if quiet { "q" } else { "loud" }));
        if quiet {
            cmd.arg("--quiet");
        }
        stderr_of(&cmd.assert().success().get_output().clone())
    };
    let loud = run(false);
    // 29 + 23 + 28 + 37 bytes read (the image is not read); the rate varies.
    let summary = loud.strip_suffix("/s\n").unwrap_or_default();
    let (summary, rate) = summary.rsplit_once(" at ").unwrap_or_default();
    assert_eq!(
        summary,
        "linkbase: 4 of 4 inputs changed; 1 other file copied to the mirror; 4 links rewritten, 0 left, 0 errors, 117 bytes",
        "{loud}"
    );
    assert!(
        rate.ends_with(" bytes") || rate.ends_with(" kB") || rate.ends_with(" MB"),
        "{loud}"
    );
    assert_eq!(run(true), "");
}

#[test]
fn a_single_file_run_prints_no_summary() {
    run_stdin(&["--url", PAGE_URL], PAGE).success().stderr("");
}

#[test]
fn no_progress_bar_when_standard_error_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let folder = many_pages(dir.path(), 20);
    let output = linkbase()
        .arg("-r")
        .arg(&folder)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = stderr_of(&output);
    assert!(!err.contains('\r') && !err.contains("\u{1b}["), "{err:?}");
}

// --- outputs that are not regular files, and symbolic links ---------------------

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `page.html` (`PAGE`) written in `dir` and rewritten into `output` (a
/// special file): the run succeeds and prints nothing.
#[cfg(unix)]
fn rewrite_the_page_into(dir: &Path, output: &Path) {
    let page = dir.join("page.html");
    write(&page, PAGE);
    linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL, "-o"])
        .arg(output)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

/// Run a command-line tool that makes a special file (`mkfifo`, `mknod`).
#[cfg(unix)]
fn make_node(program: &str, args: &[&std::ffi::OsStr]) {
    let status = std::process::Command::new(program)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(status.success(), "{program} {args:?}: {status}");
}

#[cfg(unix)]
#[test]
fn output_to_a_fifo_goes_to_its_reader_and_the_fifo_stays() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    make_node("mkfifo", &[fifo.as_os_str()]);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(&fifo).unwrap())
    };
    rewrite_the_page_into(dir.path(), &fifo);
    let received = reader.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&received), PAGE_AFTER);
    let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    assert_eq!(names_in(dir.path()), ["page.html", "pipe"]);
}

#[cfg(unix)]
#[test]
fn output_to_a_character_device_writes_through_it() {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let dir = tempfile::tempdir().unwrap();
    // A null device of our own (major 1, minor 3), never the machine's.
    let null = dir.path().join("null");
    make_node(
        "mknod",
        &[null.as_os_str(), "c".as_ref(), "1".as_ref(), "3".as_ref()],
    );
    let before = fs::symlink_metadata(&null).unwrap();
    rewrite_the_page_into(dir.path(), &null);
    let after = fs::symlink_metadata(&null).unwrap();
    assert!(
        after.file_type().is_char_device(),
        "{:?}",
        after.file_type()
    );
    assert_eq!(
        (after.rdev(), after.ino()),
        (before.rdev(), before.ino()),
        "the device node was replaced"
    );
    assert_eq!(names_in(dir.path()), ["null", "page.html"]);
}

#[cfg(unix)]
#[test]
fn output_to_a_socket_is_sent_to_its_listener() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let reader = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut received = Vec::new();
        stream.read_to_end(&mut received).unwrap();
        received
    });
    rewrite_the_page_into(dir.path(), &socket);
    let received = reader.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&received), PAGE_AFTER);
    let kind = fs::symlink_metadata(&socket).unwrap().file_type();
    assert!(kind.is_socket(), "the socket was replaced: {kind:?}");
    assert_eq!(names_in(dir.path()), ["page.html", "sock"]);
}

#[cfg(target_os = "linux")]
#[test]
fn output_to_an_open_descriptor_is_written_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    // As /dev/stdout is: a link to /proc/self/fd/1, here in our own folder.
    let link = dir.path().join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
    for output in [Path::new("/proc/self/fd/1"), Path::new("/dev/fd/1"), &link] {
        linkbase()
            .arg(&page)
            .args(["--url", PAGE_URL, "-o"])
            .arg(output)
            .assert()
            .success()
            .stdout(PAGE_AFTER)
            .stderr("");
    }
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("/proc/self/fd/1"),
        "the link was replaced"
    );
    assert_eq!(names_in(dir.path()), ["page.html", "stdout"]);
    // Standard output carries the document, so a report cannot go there too.
    linkbase()
        .arg(&page)
        .args(["--url", PAGE_URL, "--report", "-", "-o"])
        .arg(&link)
        .assert()
        .code(2)
        .stdout("")
        .stderr("linkbase: error: --report - writes to standard output, which carries the document: use -o FILE, -i or a report file\n");
}

#[cfg(unix)]
#[test]
fn output_through_a_symbolic_link_rewrites_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    write(&page, PAGE);
    let target = dir.path().join("real/out.html");
    write(&target, "old content\n");
    fs::create_dir(dir.path().join("links")).unwrap();
    let link = dir.path().join("links/out.html");
    std::os::unix::fs::symlink("../real/out.html", &link).unwrap();
    // And a link to a file that does not exist yet: the file is created.
    let dangling = dir.path().join("links/new.html");
    std::os::unix::fs::symlink("../real/new.html", &dangling).unwrap();
    for output in [&link, &dangling] {
        linkbase()
            .arg(&page)
            .args(["--url", PAGE_URL, "-o"])
            .arg(output)
            .assert()
            .success()
            .stdout("")
            .stderr("");
    }
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("../real/out.html"));
    assert_eq!(
        fs::read_link(&dangling).unwrap(),
        Path::new("../real/new.html")
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), PAGE_AFTER);
    assert_eq!(
        fs::read_to_string(dir.path().join("real/new.html")).unwrap(),
        PAGE_AFTER
    );
    assert_eq!(
        names_in(&dir.path().join("links")),
        ["new.html", "out.html"]
    );
    assert_eq!(names_in(&dir.path().join("real")), ["new.html", "out.html"]);
}

#[cfg(unix)]
#[test]
fn in_place_through_a_symbolic_link_keeps_the_link_and_the_backup_beside_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real/page.html");
    write(&real, PAGE);
    fs::create_dir(dir.path().join("links")).unwrap();
    let link = dir.path().join("links/page.html");
    std::os::unix::fs::symlink("../real/page.html", &link).unwrap();
    linkbase()
        .arg(&link)
        .args(["-i", "--backup", ".orig", "--url", PAGE_URL])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("../real/page.html")
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), PAGE_AFTER);
    assert_eq!(
        fs::read_to_string(dir.path().join("real/page.html.orig")).unwrap(),
        PAGE
    );
    assert_eq!(names_in(&dir.path().join("links")), ["page.html"]);
    assert_eq!(
        names_in(&dir.path().join("real")),
        ["page.html", "page.html.orig"]
    );
}

#[cfg(unix)]
#[test]
fn in_place_on_a_fifo_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    make_node("mkfifo", &[fifo.as_os_str()]);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(&fifo, PAGE).unwrap())
    };
    let name = fifo.display().to_string();
    linkbase()
        .arg(&fifo)
        .args(["-i", "--url", PAGE_URL])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "{name}: error: not a regular file: not rewritten in place\n"
        ));
    writer.join().unwrap();
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

// --- a terminal on standard input ------------------------------------------------

#[cfg(target_os = "linux")]
use crate::util::pseudo_terminal;

#[cfg(target_os = "linux")]
#[test]
fn bare_linkbase_on_a_terminal_says_what_it_wants() {
    use std::io::Write;
    use std::process::{Command as Process, Stdio};
    let binary = assert_cmd::cargo::cargo_bin("linkbase");
    let (_controller, terminal) = pseudo_terminal();
    let out = Process::new(&binary)
        .stdin(Stdio::from(terminal))
        .output()
        .unwrap();
    assert_eq!(
        (out.status.code(), stderr_of(&out).as_str(), out.stdout.as_slice()),
        (
            Some(2),
            "linkbase: error: no input: give files (or folders with -r), or a document on standard input; `linkbase -` reads one typed here (see linkbase --help)\n",
            &b""[..]
        )
    );
    // `linkbase -` reads the terminal, and says so.
    let (mut controller, terminal) = pseudo_terminal();
    let child = Process::new(&binary)
        .args(["-", "--url", "https://example.org/"])
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A line, then Ctrl-D at the start of the next: the end of the input.
    controller.write_all(b"<a href=\"x\">x</a>\n\x04").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        stderr_of(&out),
        "linkbase: reading the document from the terminal; end it with Ctrl-D\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "<a href=\"https://example.org/x\">x</a>\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

/// `--check` (and `--diff`) write nothing, and that holds for the files a
/// mirror would copy too: the output folder is not even made.
#[test]
fn check_with_a_mirror_folder_copies_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let out = dir.path().join("out");
    let output = linkbase()
        .arg("-r")
        .arg(&site)
        .arg("-o")
        .arg(&out)
        .args(["--url-prefix", "https://example.org/", "--check"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert!(!out.exists(), "{}", stderr_of(&output));
    let err = stderr_of(&output);
    assert!(
        err.starts_with("linkbase: 4 of 4 inputs would change; 1 other file passed over; "),
        "{err}"
    );
}
