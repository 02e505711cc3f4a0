//! HTML rewriting: the fixtures under `fixtures/html/<case>/`, each a named
//! test, then library-level cases. Every case folder holds `input.html`,
//! `args` (command-line arguments, one per line) and `expected.html`.
//!
//! - `html/<case>`: the case runs through the real binary; stdout must equal
//!   `expected.html` byte for byte, only link places may differ from the
//!   input (`common/html_splice_check.rs`), and the output must re-parse to
//!   the input's tree except for URL values (`common/fidelity.rs`).
//! - `utf-16le/<case>`, `utf-16be/<case>`: every UTF-8 case without
//!   `--charset`, re-encoded with a byte order mark, gives its expected
//!   output in that same encoding.
//! - the library-level tests, by their function names.
//!
//! The harness is `libtest-mimic`: `cargo test --test html -- --list` lists
//! every case, `cargo test --test html -- base-in-body` runs one (and its
//! UTF-16 runs). `LINKBASE_BLESS=1 cargo test --test html` rewrites the
//! expected files (read every one before committing).

#[path = "common/bless.rs"]
mod bless;
#[path = "common/fidelity.rs"]
mod fidelity;
#[path = "common/html_splice_check.rs"]
mod html_splice_check;

#[macro_use]
#[path = "common/fixture_cases.rs"]
mod fixture_cases;
use assert_cmd::Command;
use fixture_cases::{case_name, case_trials, fixture_dirs, read_args, require, shown};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

/// The value following `flag` in `args`, for every occurrence.
fn flag_values(args: &[String], flag: &str) -> Vec<String> {
    args.windows(2)
        .filter(|w| w[0] == flag)
        .map(|w| w[1].clone())
        .collect()
}

/// A short description of where two byte strings first differ.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let at = want
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    let line = want[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let show = |b: &[u8]| {
        let from = at.saturating_sub(40);
        String::from_utf8_lossy(&b[from.min(b.len())..(at + 60).min(b.len())]).into_owned()
    };
    format!(
        "first difference at byte {at} (line {line}):\n  expected: {:?}\n  actual:   {:?}",
        show(want),
        show(got)
    )
}

/// One fixture through the binary: its expected bytes, only link places
/// changed, the same tree but for URL values. With `bless`, the output is
/// first written as the expected file.
fn run_fixture(dir: &Path, bless: bool) -> Result<(), Failed> {
    let case = shown(dir);
    require(dir, &["input.html"])?;
    if !bless {
        require(dir, &["expected.html"])?;
    }
    let args = read_args(dir);
    let input_path = dir.join("input.html");
    let input = std::fs::read(&input_path).map_err(|e| format!("{case}/input.html: {e}"))?;
    let run = Command::cargo_bin("linkbase")?
        .args(&args)
        .arg(&input_path)
        .output()
        .map_err(|e| format!("{case}: cannot run linkbase: {e}"))?;
    if run.status.code() == Some(2) {
        return Err(format!(
            "{case}: usage error: {}",
            String::from_utf8_lossy(&run.stderr)
        )
        .into());
    }
    let expected_path = dir.join("expected.html");
    if bless {
        std::fs::write(&expected_path, &run.stdout)
            .map_err(|e| format!("{case}/expected.html: {e}"))?;
    }
    let expected =
        std::fs::read(&expected_path).map_err(|e| format!("{case}/expected.html: {e}"))?;
    if run.stdout != expected {
        return Err(format!(
            "{case}/input.html: output differs from expected.html: {}",
            first_difference(&expected, &run.stdout)
        )
        .into());
    }
    let transport = flag_values(&args, "--charset")
        .first()
        .and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes()));
    let extra = flag_values(&args, "--attr");
    html_splice_check::check(&input, &run.stdout, None, transport)
        .map_err(|e| format!("{case}/input.html: {e}"))?;
    // Panics with the case's name when the trees differ.
    fidelity::assert_same_tree(&case, &input, &run.stdout, transport, &extra);
    Ok(())
}

/// `text` in UTF-16 (little or big endian) with its byte order mark.
fn utf16_with_bom(text: &str, little: bool) -> Vec<u8> {
    let mut out = if little {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        out.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    out
}

/// A fixture that can run re-encoded in UTF-16: its input and expected text.
/// Input and expected output are UTF-8 (others are covered by their own
/// encoding), no `--charset` is given, and the expected output holds no
/// numeric references (an ASCII input writes characters from entities as
/// references, `&#233;`; a UTF-16 one writes them as they are).
fn utf16_candidate(dir: &Path) -> Option<(String, String)> {
    let input = std::fs::read_to_string(dir.join("input.html")).ok()?;
    let expected = std::fs::read_to_string(dir.join("expected.html")).ok()?;
    let charset = read_args(dir).iter().any(|a| a == "--charset");
    (!charset && !expected.contains("&#")).then_some((input, expected))
}

/// The fixture in `dir` re-encoded as UTF-16 (`little` endian or big) with a
/// byte order mark must give its expected output in that same encoding:
/// the encoding layer is independent of the rewrite.
fn run_utf16(dir: &Path, input: &str, expected: &str, little: bool) -> Result<(), Failed> {
    let case = shown(dir);
    let scratch = tempfile::tempdir()?;
    let path = scratch.path().join("input.html");
    std::fs::write(&path, utf16_with_bom(input, little))?;
    let run = Command::cargo_bin("linkbase")?
        .args(read_args(dir))
        .arg(&path)
        .output()
        .map_err(|e| format!("{case}: cannot run linkbase: {e}"))?;
    // Unchanged inputs come back as they were, BOM and all.
    let want = utf16_with_bom(expected, little);
    if run.stdout != want {
        return Err(format!(
            "{case}/input.html in UTF-16{}: {}",
            if little { "LE" } else { "BE" },
            first_difference(&want, &run.stdout)
        )
        .into());
    }
    Ok(())
}

/// The UTF-16 runs (two per qualifying fixture), pinned.
const UTF16_RUNS: usize = 52;

fn main() {
    let args = Arguments::from_args();
    let bless = bless::bless();
    let mut trials = case_trials("html", "html/", 38, file!(), move |dir| {
        run_fixture(dir, bless)
    });
    let dirs = fixture_dirs("html");
    // The UTF-16 runs: two per UTF-8 case without `--charset`, pinned (a
    // case lost, or one that stops qualifying, fails here).
    let candidates: Vec<(PathBuf, String, String)> = dirs
        .iter()
        .filter_map(|dir| utf16_candidate(dir).map(|(i, e)| (dir.clone(), i, e)))
        .collect();
    let runs = 2 * candidates.len();
    trials.push(Trial::test(
        format!("utf-16: exactly {UTF16_RUNS} runs"),
        move || match runs == UTF16_RUNS {
            true => Ok(()),
            false => Err(format!(
                "{runs} UTF-16 runs, tests/html.rs pins {UTF16_RUNS}: a case was lost or added, or \
                 stopped qualifying; if on purpose, set UTF16_RUNS in tests/html.rs to {runs}"
            )
            .into()),
        },
    ));
    for (dir, input, expected) in candidates {
        for little in [true, false] {
            let (dir, input, expected) = (dir.clone(), input.clone(), expected.clone());
            let name = format!(
                "utf-16{}/{}",
                if little { "le" } else { "be" },
                case_name(&dir)
            );
            trials.push(Trial::test(name, move || {
                run_utf16(&dir, &input, &expected, little)
            }));
        }
    }
    trials.extend(function_trials![
        report_names_element_attribute_base_and_rule,
        nothing_to_change_gives_the_input_bytes,
        malformed_input_is_rewritten_as_a_browser_reads_it,
        hostile_sizes_complete,
        srcdoc_documents_nest_to_a_limit,
        the_splice_check_catches_other_changes,
    ]);
    libtest_mimic::run(&args, trials).exit();
}

fn rewrite_with<'a>(input: &'a [u8], url: Option<&str>) -> linkbase::Rewrite<'a> {
    let mut options = linkbase::Options::new();
    let mut source = linkbase::Source::new();
    if let Some(value) = url.map(str::to_string) {
        source = source.with_url(value);
    }
    options = options.with_keep_link_records(true);
    source = source.with_format(linkbase::Format::Html);
    linkbase::rewrite(input, &source.clone().with_name("t.html"), &options)
}

fn report_names_element_attribute_base_and_rule() {
    let input = b"<base href=\"../b/\"><a href=\"x\">x</a><img src=\"#f\"><html manifest=m>";
    let out = rewrite_with(input, Some("http://h.example/a/doc.html"));
    let rows: Vec<_> = out
        .report
        .links
        .iter()
        .map(|r| {
            (
                r.element.as_str(),
                r.attribute.as_str(),
                r.before.as_str(),
                r.after.as_deref(),
                r.base.as_deref(),
                r.rule,
                r.outcome,
            )
        })
        .collect();
    use linkbase::{base::BaseRule::*, report::Outcome::*};
    assert_eq!(
        rows,
        [
            (
                "html",
                "manifest",
                "m",
                Some("http://h.example/a/m"),
                Some("http://h.example/a/doc.html"),
                Some(Retrieval),
                Rewritten
            ),
            (
                "base",
                "href",
                "../b/",
                Some("http://h.example/b/"),
                Some("http://h.example/a/doc.html"),
                Some(Retrieval),
                Rewritten
            ),
            (
                "a",
                "href",
                "x",
                Some("http://h.example/b/x"),
                Some("http://h.example/b/"),
                Some(Embedded),
                Rewritten
            ),
            (
                "img",
                "src",
                "#f",
                None,
                Some("http://h.example/b/"),
                Some(Embedded),
                SameDocument
            ),
        ]
    );
}

fn nothing_to_change_gives_the_input_bytes() {
    let cases: &[(&str, &[u8], Option<&str>)] = &[
        (
            "all absolute",
            b"<A HREF='http://x.example/'>x</A>\r\n",
            Some("http://h.example/"),
        ),
        ("no base", b"<p><a href=rel>r</a>", None),
        (
            "fragments only",
            b"<a href=#top>t</a>",
            Some("http://h.example/"),
        ),
    ];
    for (name, input, url) in cases {
        let out = rewrite_with(input, *url);
        assert!(
            matches!(out.output, std::borrow::Cow::Borrowed(_)),
            "case {name}: re-serialized although nothing changed"
        );
        assert_eq!(&*out.output, *input, "case {name}");
    }
}

/// Bytes the encoding does not allow: the page is rewritten as a browser
/// reads it (U+FFFD for each sequence), the bytes kept, a URL holding them
/// left and recorded as such; warnings, not errors.
fn malformed_input_is_rewritten_as_a_browser_reads_it() {
    let input =
        b"<meta charset=utf-8><a href=x>\xFF\xFE bad</a><img src=\"i\xE2\x82.png\" alt=\"\xC3\">";
    let out = rewrite_with(input, Some("http://h.example/"));
    assert_eq!(
        &*out.output,
        &b"<meta charset=utf-8><a href=http://h.example/x>\xFF\xFE bad</a><img src=\"i\xE2\x82.png\" alt=\"\xC3\">"[..]
    );
    assert!(!out.report.has_errors(), "{:?}", out.report.problems);
    let messages: Vec<String> = out.report.problems.iter().map(|p| p.one_line()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with(
            "t.html: warning: not valid UTF-8 (the encoding chosen by its <meta> declaration): \
             4 sequences it does not allow, the first at byte 30;"
        ),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("t.html: warning: img src `i\u{FFFD}.png`: it holds bytes"),
        "{messages:?}"
    );
    let outcomes: Vec<(&str, linkbase::report::Outcome)> = out
        .report
        .links
        .iter()
        .map(|r| (r.before.as_str(), r.outcome))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("x", linkbase::report::Outcome::Rewritten),
            ("i\u{FFFD}.png", linkbase::report::Outcome::Undecodable)
        ]
    );
}

fn hostile_sizes_complete() {
    let depth = 10_000;
    let deep = format!(
        "{}<a href=x>x</a>{}",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let out = rewrite_with(deep.as_bytes(), Some("http://h.example/"));
    let text = String::from_utf8_lossy(&out.output);
    // The value stays unquoted, as written.
    assert!(text.contains("<a href=http://h.example/x>"));
    assert_eq!(text.matches("<div>").count(), depth);

    let many: String = (0..100_000)
        .map(|i| format!("<a href=p{i}>.</a>"))
        .collect();
    let out = rewrite_with(many.as_bytes(), Some("http://h.example/"));
    assert_eq!(out.report.counts.rewritten, 100_000);

    let dots = format!("<a href=\"{}x\">x</a>", "../".repeat(300_000));
    let out = rewrite_with(dots.as_bytes(), Some("http://h.example/a/b/"));
    assert!(String::from_utf8_lossy(&out.output).contains("href=\"http://h.example/x\""));
}

fn srcdoc_documents_nest_to_a_limit() {
    // Level 0 is the document itself; each level holds a link and the next
    // level in an iframe srcdoc.
    let levels = 10;
    let mut doc = String::from("<a href=\"deepest\">x</a>");
    for level in (0..levels).rev() {
        let escaped = doc.replace('&', "&amp;").replace('"', "&quot;");
        doc = format!("<a href=\"l{level}\">x</a><iframe srcdoc=\"{escaped}\"></iframe>");
    }
    let out = rewrite_with(doc.as_bytes(), Some("http://h.example/"));
    let after: Vec<_> = out
        .report
        .links
        .iter()
        .filter(|r| r.outcome == linkbase::report::Outcome::Rewritten)
        .map(|r| r.before.as_str())
        .collect();
    // The document and 8 nested levels are rewritten; level 9 and below are kept.
    assert_eq!(
        after,
        ["l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8"]
    );
    assert!(
        out.report
            .problems
            .iter()
            .any(|p| p.message.to_string().contains("nested deeper than 8")),
        "{:?}",
        out.report.problems
    );
}

/// The shared invariant check fails when anything but a link place changes,
/// and when the reported edits are not what the output is made of.
fn the_splice_check_catches_other_changes() {
    let input = b"<p class=a><a href=x>x</a><style>b{c:url(d)}</style>";
    let fine = b"<p class=a><a href=\"http://h/x\">x</a><style>b{c:url(http://h/d)}</style>";
    assert_eq!(html_splice_check::check(input, fine, None, None), Ok(()));
    // Spelling outside values (any value may hold a link as far as this
    // check knows; the tree check says which may change).
    let spelling = b"<P class=a><a href=x>x</a><style>b{c:url(d)}</style>";
    assert!(html_splice_check::check(input, spelling, None, None).is_err());
    let tag = b"<p class=a><a href=x>x</A><style>b{c:url(d)}</style>";
    assert!(html_splice_check::check(input, tag, None, None).is_err());
    let text = b"<p class=a><a href=x>y</a><style>b{c:url(d)}</style>";
    assert!(html_splice_check::check(input, text, None, None).is_err());
    let edits: [(std::ops::Range<usize>, &[u8]); 1] = [(19..20, b"http://h/x")];
    let spliced = b"<p class=a><a href=http://h/x>x</a><style>b{c:url(d)}</style>";
    assert_eq!(
        html_splice_check::check(input, spliced, Some(&edits), None),
        Ok(())
    );
    let wrong: [(std::ops::Range<usize>, &[u8]); 1] = [(19..20, b"http://h/y")];
    assert!(html_splice_check::check(input, spliced, Some(&wrong), None).is_err());
}
