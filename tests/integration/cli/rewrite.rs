//! The command line, end to end (assert_cmd): every flag and every error of
//! the rewrite command, the exit statuses, determinism across `-j`.
//!
//! A run whose whole story is its files, arguments and standard input and
//! what it gives back (the exit status, standard output and error, the
//! files written) is a row of a table of named cases ([`cases!`], a
//! [`Case`] each: one test per row, named by it); what needs more (a
//! report read as JSON, permissions, pipes, special files, a terminal) is a
//! test of its own.

use super::util::{cases, file, has, input, is, linkbase, names_in, Case, Row};
use predicates::prelude::*;
use predicates::str::contains;
use std::fs;
use std::path::{Path, PathBuf};
use test_support::test_hooks;
use test_support::warc_gen;

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

#[cfg(unix)]
use super::util::linkbase_unprivileged;

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

/// The image of [`SITE`] (not rewritten: copied).
const LOGO: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// A folder `site/` with pages, a style sheet, an image and a nested
/// folder: 117 bytes in the four files that are read.
const SITE: [(&str, &[u8]); 5] = [
    ("site/index.html", b"<a href=\"guide/a.html\">a</a>\n"),
    ("site/guide/a.html", b"<a href=\"b.html\">b</a>\n"),
    ("site/guide/b.htm", b"<img src=\"../img/logo.png\">\n"),
    ("site/style.css", b"body { background: url(img/bg.png) }\n"),
    ("site/img/logo.png", LOGO),
];

/// [`SITE`] written in `root`; its folder.
fn site(root: &Path) -> PathBuf {
    for (path, content) in SITE {
        write(&root.join(path), content);
    }
    root.join("site")
}

/// [`site`] as a [`Case::setup`].
fn with_site(root: &Path) {
    site(root);
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

cases! {
    version_prints_name_and_crate_version: Case {
        args: &["--version"],
        stdout: is(concat!("linkbase ", env!("CARGO_PKG_VERSION"), "\n")),
        ..Case::OK
    },
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

cases! {
    a_file_is_rewritten_to_standard_output: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--url", PAGE_URL],
        stdout: is(PAGE_AFTER),
        ..Case::OK
    },
    standard_input_is_rewritten_to_standard_output: Case {
        args: &["--url", PAGE_URL],
        stdin: input(PAGE),
        stdout: is(PAGE_AFTER),
        ..Case::OK
    },
    standard_input_named_dash_is_rewritten_to_standard_output: Case {
        args: &["-", "--url", PAGE_URL],
        stdin: input(PAGE),
        stdout: is(PAGE_AFTER),
        ..Case::OK
    },
    output_file_receives_the_rewrite: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--url", PAGE_URL, "-o", "{dir}/out.html"],
        after: &[file("out.html", PAGE_AFTER), file("page.html", PAGE)],
        ..Case::OK
    },
    standard_input_goes_to_an_output_file: Case {
        args: &["--url", PAGE_URL, "-o", "{dir}/out.html"],
        stdin: input(PAGE),
        after: &[file("out.html", PAGE_AFTER)],
        ..Case::OK
    },
    /// No --url, no <base>, no saved-from comment: rule 5.4, nothing changes.
    a_document_without_base_is_written_back_byte_for_byte: Case {
        stdin: input("<!DOCTYPE html>\n<P><A HREF = 'x.html' >x</A>\r\n<!-- odd   spacing -->"),
        stdout: is("<!DOCTYPE html>\n<P><A HREF = 'x.html' >x</A>\r\n<!-- odd   spacing -->"),
        stderr: is("<stdin>: 1 relative link left as it is: no base (give --url)\n"),
        ..Case::OK
    },
}

// --- relative links and no base ------------------------------------------------

/// Two relative links, one absolute, one same-document: two are left for
/// want of a base.
const TWO_RELATIVE: &str = "<a href=\"a.html\">a</a><img src=\"i.png\"><a href=\"https://x.example/\">x</a><a href=\"#top\">t</a>\n";

/// A multipart message with two HTML parts of relative links and a text part.
const MESSAGE_WITHOUT_BASE: &str = "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n<a href=x.html>x</a><a href=y.html>y</a>\n--b\nContent-Type: text/plain\n\nsee x.html\n--b\nContent-Type: text/html\n\n<img src=i.png>\n--b--\n";

cases! {
    relative_links_without_a_base_get_one_warning_line: Case {
        files: &[file("page.html", TWO_RELATIVE)],
        args: &["{dir}/page.html", "-o", "{dir}/out.html"],
        stderr: is("{dir}/page.html: 2 relative links left as they are: no base (give --url)\n"),
        after: &[file("out.html", TWO_RELATIVE)],
        ..Case::OK
    },
    /// --quiet silences it; the exit status stays 0.
    relative_links_without_a_base_are_not_reported_under_quiet: Case {
        files: &[file("page.html", TWO_RELATIVE)],
        args: &["{dir}/page.html", "--quiet", "-o", "{dir}/out.html"],
        after: &[file("out.html", TWO_RELATIVE)],
        ..Case::OK
    },
    a_page_without_relative_links_says_nothing: Case {
        files: &[file("page.html", "<a href=\"https://x.example/\">x</a>\n")],
        args: &["{dir}/page.html"],
        stdout: is("<a href=\"https://x.example/\">x</a>\n"),
        ..Case::OK
    },
    each_part_without_a_base_gets_its_own_line: Case {
        files: &[file("m.eml", MESSAGE_WITHOUT_BASE)],
        args: &["{dir}/m.eml"],
        stdout: is(MESSAGE_WITHOUT_BASE),
        stderr: is("{dir}/m.eml: part 1: 2 relative links left as they are: no base (no absolute Content-Base or Content-Location in the message to resolve against; give --url if it was retrieved from a URL)\n\
                    {dir}/m.eml: part 3: 1 relative link left as it is: no base (no absolute Content-Base or Content-Location in the message to resolve against; give --url if it was retrieved from a URL)\n"),
        ..Case::OK
    },
    /// One summary line, no line per file: each of the four files has one
    /// relative link, left; 117 bytes read.
    a_folder_without_a_base_counts_the_links_in_the_summary: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-o", "{dir}/out"],
        stderr: is("linkbase: 0 of 4 inputs changed; 1 other file copied to the mirror; 0 links rewritten, 4 left (4 with no base: give --url-prefix), 0 errors, 117 bytes at (rate)/s\n"),
        ..Case::OK
    },
    /// "リンク" in Shift_JIS, without any <meta charset>: only --charset
    /// tells. Written back in Shift_JIS: the text's bytes as they were.
    charset_overrides_the_document_encoding: Case {
        args: &["--charset", "shift_jis", "--url", "https://example.org/"],
        stdin: input(b"<a href=\"x.html\">\x83\x8A\x83\x93\x83\x4E</a>"),
        stdout: is(b"<a href=\"https://example.org/x.html\">\x83\x8A\x83\x93\x83\x4E</a>"),
        ..Case::OK
    },
    an_unknown_charset_is_a_usage_error: Case {
        args: &["--charset", "klingon"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: invalid value 'klingon' for '--charset <LABEL>': unknown charset `klingon` (expected an encoding label such as utf-8, shift_jis, windows-1252)\n\nFor more information, try '--help'.\n"),
        ..Case::OK
    },
    profile_rfc3986_resolves_a_query_reference_against_the_whole_path: Case {
        args: &["--profile", "rfc3986", "--url", "http://a/b/c/d;p?q"],
        stdin: input("<a href=\"?y\">y</a>"),
        stdout: is("<a href=\"http://a/b/c/d;p?y\">y</a>"),
        ..Case::OK
    },
    /// The seed draft's Appendix C reads `?y` as part of the path.
    profile_url_syntax_01_resolves_a_query_reference_as_a_path_segment: Case {
        args: &["--profile", "url-syntax-01", "--url", "http://a/b/c/d;p?q"],
        stdin: input("<a href=\"?y\">y</a>"),
        stdout: is("<a href=\"http://a/b/c/?y\">y</a>"),
        ..Case::OK
    },
    an_unknown_profile_is_a_usage_error: Case {
        args: &["--profile", "rfc9999"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: invalid value 'rfc9999' for '--profile <PROFILE>'\n  [possible values: rfc3986, url-syntax-01, rfc1808, relative-url-01, whatwg]\n\n  tip: a similar value exists: 'rfc3986'\n\nFor more information, try '--help'.\n"),
        ..Case::OK
    },
    same_document_references_are_left_as_they_are: Case {
        args: &["--url", PAGE_URL],
        stdin: input("<a href=\"#top\">top</a>"),
        stdout: is("<a href=\"#top\">top</a>"),
        ..Case::OK
    },
    absolutize_fragments_rewrites_same_document_references: Case {
        args: &["--url", PAGE_URL, "--absolutize-fragments"],
        stdin: input("<a href=\"#top\">top</a>"),
        stdout: is("<a href=\"https://example.org/docs/page.html#top\">top</a>"),
        ..Case::OK
    },
    /// Without --attr neither attribute is a URL (neither is a lazy-loading
    /// library's): nothing changes, and the run says it found no link.
    data_attributes_are_not_links_without_attr: Case {
        args: &["--url", PAGE_URL],
        stdin: input("<img data-full=\"lazy.png\" data-other=\"keep.png\">"),
        stdout: is("<img data-full=\"lazy.png\" data-other=\"keep.png\">"),
        stderr: is("<stdin>: no links found (read as HTML; --format css, mime or xhtml reads it as something else)\n"),
        ..Case::OK
    },
    /// With it only the named one (names are matched case-insensitively).
    attr_adds_url_bearing_attributes: Case {
        args: &["--url", PAGE_URL, "--attr", "DATA-FULL"],
        stdin: input("<img data-full=\"lazy.png\" data-other=\"keep.png\">"),
        stdout: is("<img data-full=\"https://example.org/docs/lazy.png\" data-other=\"keep.png\">"),
        ..Case::OK
    },
    /// A lazy-loading library's attributes are links without --attr
    /// (docs/html.md, "Lazy-loading attributes").
    lazy_loading_attributes_are_links: Case {
        args: &["--url", PAGE_URL],
        stdin: input("<img data-src=\"lazy.png\" data-srcset=\"a.png 1x, b.png 2x\" data-other=\"keep.png\">"),
        stdout: is("<img data-src=\"https://example.org/docs/lazy.png\" data-srcset=\"https://example.org/docs/a.png 1x, https://example.org/docs/b.png 2x\" data-other=\"keep.png\">"),
        ..Case::OK
    },
    an_empty_attr_is_a_usage_error: Case {
        args: &["--attr", " "],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: --attr ``: not an attribute name (one word without spaces, quotes, `/`, `=` or `>`, such as data-src)\n"),
        ..Case::OK
    },
    format_forces_how_the_input_is_read: Case {
        args: &["--format", "css", "--url", "https://example.org/s/style.css"],
        stdin: input("p { background: url(img/bg.png) }\n"),
        stdout: is("p { background: url(https://example.org/s/img/bg.png) }\n"),
        ..Case::OK
    },
    an_unknown_format_is_a_usage_error: Case {
        args: &["--format", "pdf"],
        stdin: input("p { background: url(img/bg.png) }\n"),
        code: 2,
        stderr: is("linkbase: error: invalid value 'pdf' for '--format <FORMAT>'\n  [possible values: auto, html, xhtml, mime, css, warc, feed]\n\nFor more information, try '--help'.\n"),
        ..Case::OK
    },
    /// Left as it is, with a warning (not an error: exit status 0).
    a_signed_message_is_left_unchanged_with_a_warning: Case {
        args: &["--format", "mime"],
        stdin: input(SIGNED),
        stdout: is(SIGNED),
        stderr: is("<stdin>: warning: signed (multipart/signed): left unchanged, rewriting would break the signature (--force rewrites it)\n"),
        ..Case::OK
    },
    /// With --force the HTML part's link is rewritten against the message's
    /// Content-Base, and nothing else changes: the signature part, the
    /// headers, the delimiters stay byte for byte.
    force_rewrites_a_signed_message: Case {
        args: &["--format", "mime", "--force"],
        stdin: input(SIGNED),
        stdout: is(SIGNED_FORCED),
        ..Case::OK
    },
}

/// A signed message with an HTML part, and the same rewritten with --force.
const SIGNED: &str = "MIME-Version: 1.0\n\
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
const SIGNED_FORCED: &str = "MIME-Version: 1.0\n\
Content-Base: https://example.org/mail/\n\
Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=\"b\"\n\
\n\
--b\n\
Content-Type: text/html\n\
\n\
<a href=\"https://example.org/mail/x.html\">x</a>\n\
--b\n\
Content-Type: application/pgp-signature\n\
\n\
sig\n\
--b--\n";

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
}

cases! {
    /// Standard output carries the document: the report cannot go there too.
    report_dash_with_the_document_on_standard_output_is_a_usage_error: Case {
        args: &["--report", "-"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: --report - writes to standard output, which carries the document: use -o FILE, -i or a report file\n"),
        ..Case::OK
    },
    report_to_an_impossible_path_is_an_error_before_any_work: Case {
        args: &["--report", "{dir}/no/such/folder/r.jsonl"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: --report {dir}/no/such/folder/r.jsonl: cannot create: No such file or directory\n"),
        absent: &["no"],
        ..Case::OK
    },
    /// 22 + 18 + 17 bytes: two links rewritten (href, src), one
    /// same-document. The tables: outcome names left-aligned to 14, counts
    /// right-aligned to 10; the attribute table's columns as wide as their
    /// widest cell, two spaces apart.
    stats_prints_counts_per_outcome_and_attribute: Case {
        args: &["--url", PAGE_URL, "--stats"],
        stdin: input("<a href=\"a.html\">a</a><a href=\"#x\">x</a><img src=\"i.png\">"),
        stdout: is("<a href=\"https://example.org/docs/a.html\">a</a><a href=\"#x\">x</a><img src=\"https://example.org/docs/i.png\">"),
        stderr: is("\
links per outcome:
  rewritten               2
  absolute                0
  same-document           1
  placeholder             0
  empty                   0
  no-base                 0
  failed                  0
  undecodable             0
files: 1 processed (1 changed), 0 skipped, 0 ignored, 0 copied to the mirror
links per attribute:
  attribute  rewritten  absolute  same-document  placeholder  empty  no-base  failed  undecodable  total
  href               1         0              1            0      0        0       0            0      2
  src                1         0              0            0      0        0       0            0      1
  total              2         0              1            0      0        0       0            0      3
linkbase: 1 of 1 input changed; 2 links rewritten, 1 left, 0 errors, 57 bytes at (rate)/s
"),
        ..Case::OK
    },
}

// --- many inputs ---------------------------------------------------------------

/// The summary of a run over [`SITE`] that rewrites every link.
const SITE_SUMMARY: &str = "linkbase: 4 of 4 inputs changed; 1 other file copied to the mirror; 4 links rewritten, 0 left, 0 errors, 117 bytes at (rate)/s\n";

cases! {
    recursive_mirrors_the_tree_into_the_output_folder: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "--url-prefix", "https://example.org/site", "-o", "{dir}/out"],
        stderr: is(SITE_SUMMARY),
        after: &[
            file("out/index.html", "<a href=\"https://example.org/site/guide/a.html\">a</a>\n"),
            file("out/guide/a.html", "<a href=\"https://example.org/site/guide/b.html\">b</a>\n"),
            file("out/guide/b.htm", "<img src=\"https://example.org/site/img/logo.png\">\n"),
            file("out/style.css", "body { background: url(https://example.org/site/img/bg.png) }\n"),
            // Files not rewritten are copied.
            file("out/img/logo.png", LOGO),
        ],
        ..Case::OK
    },
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

cases! {
    url_prefix_applies_to_a_file_by_its_name: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--url-prefix", "https://example.org/docs/"],
        stdout: is(PAGE_AFTER),
        ..Case::OK
    },
    url_prefix_needs_paths: Case {
        args: &["--url-prefix", "https://example.org/"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: --url-prefix maps file paths to URLs; standard input has no path (use --url)\n"),
        ..Case::OK
    },
    /// The library's rule for a URL prefix (`linkbase::options::check_url_prefix`).
    url_prefix_with_a_query_is_a_usage_error: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--url-prefix", "https://example.org/?q=1"],
        code: 2,
        stderr: is("linkbase: error: --url-prefix https://example.org/?q=1: must be a URL without query or fragment, e.g. https://example.org/docs/\n"),
        after: &[file("page.html", PAGE)],
        ..Case::OK
    },
    url_prefix_with_a_fragment_is_a_usage_error: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--url-prefix", "https://example.org/docs/#top"],
        code: 2,
        stderr: is("linkbase: error: --url-prefix https://example.org/docs/#top: must be a URL without query or fragment, e.g. https://example.org/docs/\n"),
        after: &[file("page.html", PAGE)],
        ..Case::OK
    },
}

/// A URL that cannot serve as a base, and why: refused as `--url` (to an
/// output file and in place) and as `--url-prefix` (which gets its `/`
/// before it is checked), each a usage error before any file is touched.
struct RefusedBase {
    url: &'static str,
    why: &'static str,
}

impl Row for RefusedBase {
    fn run(&self) {
        let RefusedBase { url, why } = *self;
        let dir = tempfile::tempdir().unwrap();
        let site = site(dir.path());
        let page = site.join("index.html");
        let original = fs::read(&page).unwrap();
        let out = dir.path().join("out");
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
        assert!(!out.exists(), "an output was written");
        assert_eq!(fs::read(&page).unwrap(), original);
        assert_eq!(names_in(&site), ["guide", "img", "index.html", "style.css"]);
    }
}

cases! {
    a_base_without_a_host_is_refused: RefusedBase {
        url: "http://",
        why: "no host: a http: URL needs one, as in http://example.org/docs/",
    },
    a_base_with_a_port_and_no_host_is_refused: RefusedBase {
        url: "https://:8080/x",
        why: "no host: a https: URL needs one, as in https://example.org/docs/",
    },
    a_base_without_an_authority_is_refused: RefusedBase {
        url: "http:page.html",
        why: "no host: a http: URL needs one, as in http://example.org/docs/",
    },
    a_base_with_a_space_in_its_host_is_refused: RefusedBase {
        url: "https://exa mple.org/",
        why: "contains a space in its host `exa mple.org`, which no host name can hold: check the host name",
    },
    a_base_with_a_space_is_refused: RefusedBase {
        url: "https://example.org/my docs/",
        why: "contains a space, which a URL cannot hold: percent-encode it (%20)",
    },
    a_base_with_a_control_character_is_refused: RefusedBase {
        url: "https://example.org/a\tb/",
        why: "contains a control character (U+0009), which a URL cannot hold: percent-encode it (%09)",
    },
    a_base_that_is_not_hierarchical_is_refused: RefusedBase {
        url: "mailto:x@y.example",
        why: "cannot serve as a base (rfc3986 profile): base `mailto:x@y.example` is not hierarchical; relative references cannot be resolved against it",
    },
    a_base_without_a_scheme_is_refused: RefusedBase {
        url: "example.org/docs/",
        why: "base `example.org/docs/` is not an absolute URL (no scheme); give the absolute URL, with its scheme, as in https://example.org/docs/",
    },
    /// Under another profile the message names it.
    a_refused_base_names_the_profile: Case {
        setup: Some(with_site),
        args: &["{dir}/site/index.html", "--profile", "rfc1808", "--url", "urn:isbn:0451450523"],
        code: 2,
        stderr: is("linkbase: error: --url urn:isbn:0451450523: cannot serve as a base (rfc1808 profile): base `urn:isbn:0451450523` is not hierarchical; relative references cannot be resolved against it\n"),
        after: &[SITE[0]],
        ..Case::OK
    },
    url_with_several_inputs_is_a_usage_error: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "--url", PAGE_URL, "-o", "{dir}/out"],
        code: 2,
        stderr: is("linkbase: error: --url names the URL of one document; for several files or a folder use --url-prefix\n"),
        absent: &["out"],
        ..Case::OK
    },
    url_and_url_prefix_conflict: Case {
        args: &["--url", PAGE_URL, "--url-prefix", "https://example.org/", "x.html"],
        code: 2,
        stderr: is("linkbase: error: the argument '--url <URL>' cannot be used with '--url-prefix <URL>'\n\nUsage: linkbase --url <URL> <PATH>...\n\nFor more information, try '--help'.\n"),
        ..Case::OK
    },
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

/// The message for several inputs and nowhere to write them.
const SEVERAL_INPUTS: &str = "linkbase: error: several inputs: give an output folder with -o DIR, or rewrite in place with -i\n";

cases! {
    /// Each named file's URL is the prefix and its file name.
    several_files_are_mirrored_by_name: Case {
        files: &[file("a.html", PAGE), file("sub/b.html", PAGE)],
        args: &["{dir}/a.html", "{dir}/sub/b.html", "--url-prefix", "https://example.org/docs/", "-q", "-o", "{dir}/out"],
        after: &[file("out/a.html", PAGE_AFTER), file("out/b.html", PAGE_AFTER)],
        listing: &[("out", &["a.html", "b.html"])],
        ..Case::OK
    },
    several_files_without_an_output_are_a_usage_error: Case {
        files: &[file("a.html", PAGE)],
        args: &["{dir}/a.html", "{dir}/a.html"],
        code: 2,
        stderr: is(SEVERAL_INPUTS),
        ..Case::OK
    },
    a_folder_without_an_output_is_a_usage_error: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site"],
        code: 2,
        stderr: is(SEVERAL_INPUTS),
        ..Case::OK
    },
    an_output_folder_inside_the_input_tree_is_refused: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-o", "{dir}/site/out"],
        code: 2,
        stderr: is("linkbase: error: -o {dir}/site/out: the output folder is inside the input {dir}/site; -o DIR must be outside every input (or rewrite in place with -i)\n"),
        absent: &["site/out"],
        ..Case::OK
    },
    an_output_folder_equal_to_the_input_is_refused: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-o", "{dir}/site"],
        code: 2,
        stderr: is("linkbase: error: -o {dir}/site: the output folder is the input {dir}/site; -o DIR must be outside every input (or rewrite in place with -i)\n"),
        listing: &[("site", &["guide", "img", "index.html", "style.css"])],
        ..Case::OK
    },
    an_output_folder_deep_inside_the_input_tree_is_refused: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-o", "{dir}/site/guide/deeper/out"],
        code: 2,
        stderr: is("linkbase: error: -o {dir}/site/guide/deeper/out: the output folder is inside the input {dir}/site; -o DIR must be outside every input (or rewrite in place with -i)\n"),
        absent: &["site/guide/deeper"],
        ..Case::OK
    },
    an_output_file_equal_to_the_input_is_refused: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "-o", "{dir}/page.html"],
        code: 2,
        stderr: is("linkbase: error: -o {dir}/page.html: the output is the input; use -i to rewrite in place\n"),
        after: &[file("page.html", PAGE)],
        ..Case::OK
    },
}

// --- errors: one line each, processing continues ---------------------------------

/// A non-hierarchical base: relative references cannot be resolved. (As
/// --url it is refused; a document's own <base> cannot be.)
const UNRESOLVABLE: &str =
    "<base href=\"mailto:someone@example.org\"><a href=\"x.html\">x</a><img src=\"y.png\">";

cases! {
    /// One input is processed: no summary line.
    a_folder_without_recursive_is_an_error_and_the_rest_is_done: Case {
        setup: Some(with_site),
        files: &[file("page.html", PAGE)],
        args: &["{dir}/site", "{dir}/page.html", "--url-prefix", "https://example.org/docs/", "-o", "{dir}/out"],
        code: 1,
        stderr: is("{dir}/site: error: is a folder (use -r to rewrite the files in it)\n"),
        after: &[file("out/page.html", PAGE_AFTER)],
        ..Case::OK
    },
    /// The causes are the POSIX messages; the rest is done (one input
    /// processed: no summary line).
    #[cfg(unix)]
    unreadable_inputs_are_errors_naming_the_file: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/missing.html", "{dir}/page.html/x.html", "{dir}/page.html", "-o", "{dir}/out"],
        code: 1,
        stderr: is("{dir}/missing.html: error: cannot read: No such file or directory\n\
                    {dir}/page.html/x.html: error: cannot read: Not a directory\n\
                    {dir}/page.html: 1 relative link left as it is: no base (give --url-prefix)\n"),
        after: &[file("out/page.html", PAGE)],
        ..Case::OK
    },
    links_that_fail_to_resolve_are_one_error_line_per_file: Case {
        stdin: input(UNRESOLVABLE),
        code: 1,
        stdout: is(UNRESOLVABLE),
        stderr: is("<stdin>: error: 2 links could not be resolved and were left as they are; first: `x.html` in <a href>: base `mailto:someone@example.org` is not hierarchical; relative references cannot be resolved against it\n"),
        ..Case::OK
    },
    /// One link: the line says so in the singular.
    a_link_that_fails_to_resolve_is_one_error_line_in_the_singular: Case {
        stdin: input("<base href=\"mailto:a@b.example\"><a href=\"x.html\">x</a>"),
        code: 1,
        stdout: is("<base href=\"mailto:a@b.example\"><a href=\"x.html\">x</a>"),
        stderr: is("<stdin>: error: 1 link could not be resolved and was left as it is; first: `x.html` in <a href>: base `mailto:a@b.example` is not hierarchical; relative references cannot be resolved against it\n"),
        ..Case::OK
    },
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

/// The links of [`UNRESOLVABLE`] in `--report`: their outcomes, and the
/// problem that says why (standard error:
/// links_that_fail_to_resolve_are_one_error_line_per_file).
#[test]
fn links_that_fail_to_resolve_are_reported_with_the_reason() {
    let input = UNRESOLVABLE;
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
}

cases! {
    a_binary_file_is_skipped_with_a_message: Case {
        files: &[file("image.html", b"GIF89a\x01\0\x01\0\0\0\0;<a href=x>")],
        args: &["{dir}/image.html"],
        code: 1,
        stderr: is("{dir}/image.html: error: skipped: binary file (NUL bytes; --format forces reading it)\n"),
        ..Case::OK
    },
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

cases! {
    a_file_over_max_size_is_skipped: Case {
        files: &[file("big.html", &"<p>x</p>".repeat(200)), file("small.html", PAGE)], // 1600 bytes
        args: &["{dir}/big.html", "{dir}/small.html", "--max-size", "1K", "-q", "-o", "{dir}/out"],
        code: 1,
        stderr: is("{dir}/big.html: error: skipped: 1.6 KiB is over --max-size 1.0 KiB (a larger --max-size reads it)\n"),
        // No base: as it was.
        after: &[file("out/small.html", PAGE)],
        absent: &["out/big.html"],
        ..Case::OK
    },
    standard_input_over_max_size_is_skipped: Case {
        args: &["--max-size", "10"],
        stdin: input(PAGE),
        code: 1,
        stderr: is("<stdin>: error: skipped: over --max-size 10 B (a larger --max-size reads it)\n"),
        ..Case::OK
    },
    /// Bytes that are not valid in the encoding --charset names: the page
    /// is rewritten as a browser reads it, the bytes kept; the library's
    /// warning (`Source::charset`) names the flag.
    bytes_invalid_in_the_charset_are_a_warning_naming_the_flag: Case {
        args: &["--charset", "utf-8", "--url", PAGE_URL],
        stdin: input(b"<a href=x>caf\xff</a>"),
        code: 0,
        stdout: is(b"<a href=https://example.org/docs/x>caf\xff</a>"),
        stderr: is("<stdin>: warning: not valid UTF-8 (the encoding chosen by the transport / --charset): \
                    a sequence it does not allow at byte 13; read as U+FFFD, as a browser reads it, \
                    and kept as it is; a URL holding one is left unchanged\n"),
        ..Case::OK
    },
}

/// Where the library's message names one of its settings (`Source::charset`,
/// `WarcOptions::max_record`, `Options::force`), the command line prints the
/// flag that sets it, on standard error and in the `--report` lines
/// (tests/integration/library_messages.rs checks the library's own words; standard error
/// for `--charset`: bytes_invalid_in_the_charset_are_an_error_naming_the_flag).
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

cases! {
    in_place_with_backup_keeps_the_original: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-i", "--backup", ".orig", "-q", "--url-prefix", "https://example.org/site/"],
        after: &[
            file("site/guide/a.html.orig", "<a href=\"b.html\">b</a>\n"),
            file("site/guide/a.html", "<a href=\"https://example.org/site/guide/b.html\">b</a>\n"),
        ],
        ..Case::OK
    },
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

cases! {
    two_files_with_the_same_mirror_path_are_an_error_for_the_second: Case {
        files: &[file("a/style.css", SHEET), file("b/style.css", "q { background: url(other.png) }")],
        args: &["{dir}/a/style.css", "{dir}/b/style.css", "-q", "-o", "{dir}/out"],
        code: 1,
        stderr: is("{dir}/b/style.css: error: its output would be the same file as that of {dir}/a/style.css; skipped\n"),
        after: &[file("out/style.css", SHEET)],
        ..Case::OK
    },
    in_place_and_output_conflict: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "-i", "-o", "x.html"],
        stdin: input(PAGE),
        code: 2,
        stderr: is("linkbase: error: -i and -o x.html ask for two things: -i rewrites each input where it is, -o writes the result to x.html and leaves the input as it is; drop one of them\n"),
        after: &[file("page.html", PAGE)],
        ..Case::OK
    },
    backup_without_in_place_is_a_usage_error: Case {
        files: &[file("page.html", PAGE)],
        args: &["{dir}/page.html", "--backup", ".bak"],
        stdin: input(PAGE),
        code: 2,
        stderr: has("--in-place"),
        after: &[file("page.html", PAGE)],
        ..Case::OK
    },
    in_place_with_standard_input_is_a_usage_error: Case {
        args: &["-i", "-"],
        stdin: input(PAGE),
        code: 2,
        stderr: has("standard input"),
        ..Case::OK
    },
    standard_input_and_files_are_a_usage_error: Case {
        args: &["-", "x.html"],
        stdin: input(PAGE),
        code: 2,
        stderr: has("standard input"),
        ..Case::OK
    },
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

cases! {
    /// 29 + 23 + 28 + 37 bytes read (the image is not read); the rate varies.
    summary_is_shown_for_several_files: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "--url-prefix", "https://example.org/site/", "-o", "{dir}/loud"],
        stderr: is(SITE_SUMMARY),
        ..Case::OK
    },
    summary_is_silenced_by_quiet: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "--url-prefix", "https://example.org/site/", "-o", "{dir}/q", "--quiet"],
        ..Case::OK
    },
    a_single_file_run_prints_no_summary: Case {
        args: &["--url", PAGE_URL],
        stdin: input(PAGE),
        stdout: is(PAGE_AFTER),
        ..Case::OK
    },
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
use super::util::pseudo_terminal;

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

cases! {
    /// `--check` (and `--diff`) write nothing, and that holds for the files a
    /// mirror would copy too: the output folder is not even made. Standard
    /// output lists the inputs that would change.
    check_with_a_mirror_folder_copies_nothing: Case {
        setup: Some(with_site),
        args: &["-r", "{dir}/site", "-o", "{dir}/out", "--url-prefix", "https://example.org/", "--check"],
        code: 1,
        stdout: is("{dir}/site/guide/a.html\n{dir}/site/guide/b.htm\n{dir}/site/index.html\n{dir}/site/style.css\n"),
        stderr: is("linkbase: 4 of 4 inputs would change; 1 other file passed over; 4 links to rewrite, 0 left, 0 errors, 117 bytes at (rate)/s\n"),
        absent: &["out"],
        ..Case::OK
    },
}
