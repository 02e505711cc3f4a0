//! MIME rewriting: the fixtures under `fixtures/mime/<case>/` run through the
//! real binary (`input.eml` + `args` → `expected.eml`, and `expected.stderr`
//! / `status` when present), each also checked for byte preservation; then
//! library-level cases.
//!
//! The harness is `libtest-mimic`: each fixture is the named test
//! `mime/<case>`, each library-level test is named by its function
//! (`cargo test --test mime -- --list` lists them,
//! `cargo test --test mime -- signed-left-alone` runs one).

#[path = "common/splice_check.rs"]
mod splice_check;

#[macro_use]
#[path = "common/fixture_cases.rs"]
mod fixture_cases;
use assert_cmd::Command;
use fixture_cases::{case_trials, check_stderr_and_status, read_args, require, shown};
use libtest_mimic::{Arguments, Failed};
use linkbase::{report::Severity, Options, Profile, Report};
use std::path::Path;

/// The library options the fixture's arguments stand for.
fn options_from_args(args: &[String]) -> (linkbase::Source, Options) {
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .unwrap_or_default()
        };
        match flag {
            "--url" => source = source.with_url(value()),
            "--profile" => {
                options = options.with_profile(value().parse().unwrap_or(Profile::Rfc3986))
            }
            "--force" => options = options.with_force(true),
            other => panic!("fixture argument `{other}` is not understood by the test"),
        }
    }
    (source, options)
}

fn run_fixture(dir: &Path) -> Result<(), String> {
    let input = std::fs::read(dir.join("input.eml")).map_err(|e| e.to_string())?;
    let expected =
        std::fs::read(dir.join("expected.eml")).map_err(|e| format!("expected.eml: {e}"))?;
    let args = read_args(dir);
    let out = Command::cargo_bin("linkbase")
        .map_err(|e| e.to_string())?
        .current_dir(dir)
        .args(&args)
        .arg("input.eml")
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.stdout != expected {
        return Err(format!(
            "stdout differs from expected.eml:\n--- got ---\n{}\n--- stderr ---\n{stderr}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    check_stderr_and_status(dir, &stderr, out.status.code())?;
    let (source, options) = options_from_args(&args);
    let checked = splice_check::check(&input, &source, &options, "input.eml")?;
    if checked.output != expected {
        return Err("library output differs from the binary's".into());
    }
    Ok(())
}

/// One fixture as a trial: a folder without `input.eml` or `expected.eml`
/// fails; every failure names the case.
fn fixture_trial(dir: &Path) -> Result<(), Failed> {
    require(dir, &["input.eml", "expected.eml"])?;
    run_fixture(dir).map_err(|e| format!("{}/input.eml: {e}", shown(dir)).into())
}

/// Every `fixtures/mime` case (`mime/<case>`), then the library-level tests
/// by their function names.
fn main() {
    let args = Arguments::from_args();
    let mut trials = case_trials("mime", "mime/", 41, file!(), fixture_trial);
    trials.extend(function_trials![
        signed_message_is_left_alone_with_a_warning,
        signed_message_is_rewritten_with_force,
        dkim_signed_message_is_left_alone,
        relative_content_location_is_recorded_in_the_report,
        retrieval_url_beats_snapshot_content_location,
        message_without_any_base_comes_out_identical,
        garbage_never_panics_and_is_copied,
        message_detection_by_content,
        utf16_parts_of_doubtful_byte_order_are_left_alone,
        utf16_style_sheet_parts_keep_their_byte_order,
    ]);
    trials.extend(generated::trials());
    libtest_mimic::run(&args, trials).exit();
}

fn rewrite(input: &str, source: &linkbase::Source, options: &Options) -> (Option<String>, Report) {
    let options = options.clone().with_keep_link_records(true);
    let source = source
        .clone()
        .with_format(linkbase::Format::Mime)
        .with_name("m.eml");
    let out = linkbase::rewrite(input.as_bytes(), &source, &options);
    let changed = matches!(out.output, std::borrow::Cow::Owned(_));
    (
        changed.then(|| String::from_utf8_lossy(&out.output).into_owned()),
        out.report,
    )
}

const SIGNED_WITH_LOCATION: &str = "Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=s\n\n--s\nContent-Type: multipart/related; boundary=r\nContent-Location: http://example.org/dir/\n\n--r\nContent-Type: text/css\nContent-Location: style.css\n\na{}\n--r--\n--s\nContent-Type: application/pgp-signature\n\nsig\n--s--\n";

fn signed_message_is_left_alone_with_a_warning() {
    let (out, report) = rewrite(
        SIGNED_WITH_LOCATION,
        &linkbase::Source::new(),
        &Options::new(),
    );
    assert_eq!(out, None);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert_eq!(report.problems[0].severity, Severity::Warning);
    assert!(report.problems[0]
        .one_line()
        .contains("signed (multipart/signed): left unchanged"));
    assert!(!report.has_errors());
}

fn signed_message_is_rewritten_with_force() {
    let mut options = Options::new();
    let source = linkbase::Source::new();
    options = options.with_force(true);
    let (out, report) = rewrite(SIGNED_WITH_LOCATION, &source, &options);
    let out = out.expect("rewritten");
    assert!(
        out.contains("Content-Location: http://example.org/dir/style.css\n"),
        "{out}"
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

fn dkim_signed_message_is_left_alone() {
    let m = "DKIM-Signature: v=1; a=rsa-sha256; d=example.org; b=abc\nContent-Base: http://example.org/\nContent-Type: multipart/related; boundary=r\n\n--r\nContent-Type: text/html\nContent-Location: a.html\n\n<p>x</p>\n--r--\n";
    let (out, report) = rewrite(m, &linkbase::Source::new(), &Options::new());
    assert_eq!(out, None);
    assert!(
        report.problems[0]
            .message
            .to_string()
            .starts_with("DKIM-signed"),
        "{:?}",
        report.problems
    );
}

fn relative_content_location_is_recorded_in_the_report() {
    let m = "Content-Type: multipart/related; boundary=r\nContent-Base: http://example.org/a/\n\n--r\nContent-Type: image/png\nContent-Location: ../img/x.png\n\nPNG\n--r--\n";
    let (out, report) = rewrite(m, &linkbase::Source::new(), &Options::new());
    assert!(out
        .expect("rewritten")
        .contains("Content-Location: http://example.org/img/x.png\n"));
    let rec = &report.links[0];
    assert_eq!(rec.part.as_deref(), Some("1"));
    assert_eq!(rec.attribute, "Content-Location");
    assert_eq!(rec.after.as_deref(), Some("http://example.org/img/x.png"));
    assert_eq!(rec.rule, Some(linkbase::base::BaseRule::Enclosing));
}

fn retrieval_url_beats_snapshot_content_location() {
    let m = "Snapshot-Content-Location: http://snapshot.example/\nContent-Type: multipart/related; boundary=r\n\n--r\nContent-Type: image/png\nContent-Location: x.png\n\nPNG\n--r--\n";
    let (out, _) = rewrite(m, &linkbase::Source::new(), &Options::new());
    assert!(out
        .expect("rewritten")
        .contains("Content-Location: http://snapshot.example/x.png\n"));
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://given.example/dir/");
    let (out, _) = rewrite(m, &source, &options);
    assert!(out
        .expect("rewritten")
        .contains("Content-Location: http://given.example/dir/x.png\n"));
}

fn message_without_any_base_comes_out_identical() {
    let m = "Content-Type: multipart/related; boundary=r\n\n--r\nContent-Type: image/png\nContent-Location: x.png\n\nPNG\n--r--\n";
    let (out, report) = rewrite(m, &linkbase::Source::new(), &Options::new());
    assert_eq!(out, None);
    assert_eq!(report.counts.no_base, 1);
    assert!(!report.has_errors());
}

fn garbage_never_panics_and_is_copied() {
    let inputs: [&[u8]; 6] = [
        b"",
        b"\r",
        b" leading: space\n\nbody",
        b"Content-Type: multipart/mixed; boundary=\"\"\n\n--\n",
        b"Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n!!!!",
        b"Content-Type: message/rfc822\n\nContent-Type: multipart/mixed; boundary=y\n\n--y\n\xff\xfe\n",
    ];
    for input in inputs {
        let result = splice_check::check(input, &linkbase::Source::new(), &Options::new(), "g.eml");
        assert!(
            result.is_ok(),
            "{:?}: {:?}",
            String::from_utf8_lossy(input),
            result.err()
        );
    }
}

fn message_detection_by_content() {
    let cases: [(&str, &[u8], bool); 14] = [
        (
            "From: header",
            b"From: a@example.org\nTo: b@example.org\n\nhi",
            true,
        ),
        (
            "mbox separator with a time",
            b"From mrc@example.edu Mon Feb  8 02:14:09 1993\nSubject: x\n\nhi",
            true,
        ),
        (
            "Mozilla mbox line",
            b"From - Mon Jan 1 00:00:00 2024\nX-Mozilla-Status: 0001\n\n",
            true,
        ),
        (
            "Received first",
            b"Received: by 10.0.0.1;\n        Sat, 30 Jun 2012\nFrom: a\n\n",
            true,
        ),
        ("Message-Id", b"Message-Id: <1@x>\n\n", true),
        (
            "DKIM first",
            b"DKIM-Signature: v=1;\n\tb=abc\nFrom: a\n\n",
            true,
        ),
        (
            "news Path",
            b"Path: news.example!not-for-mail\nNewsgroups: comp.lang\n\n",
            true,
        ),
        (
            "BOM then From",
            b"\xEF\xBB\xBFFrom: a@example.org\n\nx",
            true,
        ),
        (
            "white-space lines first",
            b"    \nDelivered-To: a@example.org\n\nx",
            true,
        ),
        (
            "unknown fields ended by a blank line",
            b"Weird-One: 1\nWeird-Two: 2\n\nbody",
            true,
        ),
        ("HTML", b"<!DOCTYPE html><html><head>", false),
        (
            "CSS with a pseudo-class",
            b"a:hover {\n  color: red;\n}\n",
            false,
        ),
        (
            "CSS, two selectors",
            b"a:hover{color:red}\nb:focus{color:blue}\n",
            false,
        ),
        ("plain text", b"Hello there: how are you?\n", false),
    ];
    for (name, input, expected) in cases {
        assert_eq!(
            linkbase::detect::looks_like_message(input),
            expected,
            "{name}"
        );
    }
}

mod generated {
    //! Generated messages (proptest): random trees of multiparts and
    //! HTML / CSS / other leaves, every transfer encoding, LF or CRLF, bases
    //! from Content-Base, Content-Location or nowhere.

    use super::splice_check;
    use linkbase::{report::Location, Options, Report};
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Node {
        Leaf {
            media_type: &'static str,
            encoding: &'static str,
            location: Option<&'static str>,
            links: Vec<&'static str>,
        },
        Multipart {
            base: Option<&'static str>,
            children: Vec<Node>,
        },
    }

    fn leaf() -> impl Strategy<Value = Node> {
        (
            prop::sample::select(vec!["text/html", "text/css", "text/plain", "image/png"]),
            prop::sample::select(vec!["", "7bit", "8bit", "quoted-printable", "base64"]),
            prop::option::of(prop::sample::select(vec![
                "page.html",
                "../up/a.css",
                "http://abs.example/x.png",
            ])),
            prop::collection::vec(
                prop::sample::select(vec![
                    "a.html",
                    "../b/c.png",
                    "#top",
                    "https://e.example/",
                    "d e.gif",
                    "",
                ]),
                0..4,
            ),
        )
            .prop_map(|(media_type, encoding, location, links)| Node::Leaf {
                media_type,
                encoding,
                location,
                links,
            })
    }

    fn node() -> impl Strategy<Value = Node> {
        leaf().prop_recursive(3, 12, 3, |inner| {
            (
                prop::option::of(prop::sample::select(vec![
                    "http://base.example/dir/",
                    "https://other.example/a/b/",
                ])),
                prop::collection::vec(inner, 1..4),
            )
                .prop_map(|(base, children)| Node::Multipart { base, children })
        })
    }

    fn content(media_type: &str, links: &[&str]) -> String {
        match media_type {
            "text/html" => {
                let body: String = links
                    .iter()
                    .map(|l| format!("<a href=\"{l}\">x</a><img src=\"{l}\">\n"))
                    .collect();
                format!("<html><head></head><body>\n{body}caf\u{e9} = 100%</body></html>")
            }
            "text/css" => links
                .iter()
                .map(|l| format!("a {{ background: url(\"{l}\") }}\n"))
                .collect(),
            _ => links.join("\n"),
        }
    }

    fn encode(encoding: &str, text: &str, nl: &str) -> String {
        match encoding {
            "quoted-printable" => {
                let crlf = text.replace('\n', "\r\n");
                String::from_utf8_lossy(&quoted_printable::encode(crlf.as_bytes()))
                    .replace("\r\n", nl)
            }
            "base64" => {
                let mut spec = data_encoding::BASE64.specification();
                spec.wrap.width = 76;
                spec.wrap.separator = nl.to_string();
                match spec.encoding() {
                    Ok(e) => e.encode(text.as_bytes()),
                    Err(_) => data_encoding::BASE64.encode(text.as_bytes()),
                }
            }
            _ => text.replace('\n', nl),
        }
    }

    fn render(node: &Node, nl: &str, counter: &mut usize, out: &mut String) {
        match node {
            Node::Leaf {
                media_type,
                encoding,
                location,
                links,
            } => {
                out.push_str(&format!("Content-Type: {media_type}; charset=utf-8{nl}"));
                if !encoding.is_empty() {
                    out.push_str(&format!("Content-Transfer-Encoding: {encoding}{nl}"));
                }
                if let Some(l) = location {
                    out.push_str(&format!("Content-Location: {l}{nl}"));
                }
                out.push_str(nl);
                out.push_str(&encode(encoding, &content(media_type, links), nl));
            }
            Node::Multipart { base, children } => {
                *counter += 1;
                let boundary = format!("=_bound{counter}x");
                if let Some(b) = base {
                    out.push_str(&format!("Content-Base: {b}{nl}"));
                }
                out.push_str(&format!(
                    "Content-Type: multipart/related; boundary=\"{boundary}\"{nl}{nl}"
                ));
                for child in children {
                    out.push_str(&format!("--{boundary}{nl}"));
                    render(child, nl, counter, out);
                    out.push_str(nl);
                }
                out.push_str(&format!("--{boundary}--{nl}"));
            }
        }
    }

    fn shape(input: &[u8]) -> Vec<(String, String)> {
        let mut report = Report::new(false);
        let tree = linkbase::fuzzing::mime::walk(input, &Location::default(), &mut report);
        let mut out = Vec::new();
        tree.for_each(&mut |e| out.push((e.path.clone(), e.media_type.clone())));
        out
    }

    /// The property as a trial, named as libtest named it.
    pub fn trials() -> Vec<libtest_mimic::Trial> {
        vec![libtest_mimic::Trial::test(
            "generated::rewriting_preserves_bytes_and_structure_and_is_idempotent",
            || {
                rewriting_preserves_bytes_and_structure_and_is_idempotent();
                Ok(())
            },
        )]
    }

    proptest! {
        // Failures are kept beside this file (tests/mime.proptest-regressions),
        // as for the other property tests: the default looks for lib.rs or
        // main.rs above the test file, finds none and says so on every run.
        #![proptest_config(ProptestConfig {
            cases: 64,
            failure_persistence: Some(Box::new(
                proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
            )),
            ..ProptestConfig::default()
        })]

        fn rewriting_preserves_bytes_and_structure_and_is_idempotent(
            root in node(),
            crlf in any::<bool>(),
            url in prop::option::of(Just("http://retrieved.example/p/q.html")),
        ) {
            let nl = if crlf { "\r\n" } else { "\n" };
            let mut message = format!("From: gen@example.org{nl}MIME-Version: 1.0{nl}");
            render(&root, nl, &mut 0, &mut message);
            let input = message.into_bytes();
            let options = Options::new();
            let mut source = linkbase::Source::new();
            if let Some(value) = url.map(String::from) { source = source.with_url(value); }

            let checked = splice_check::check(&input, &source, &options, "gen.eml").map_err(TestCaseError::fail)?;
            prop_assert!(checked.whole_parse_failed.is_none(), "{:?}", checked.whole_parse_failed);
            prop_assert!(!checked.report.has_errors(), "{:?}", checked.report.problems);
            prop_assert_eq!(shape(&checked.output), shape(&input));

            let as_message = source.clone().with_format(linkbase::Format::Mime);
            let second = linkbase::rewrite(&checked.output, &as_message, &options);
            prop_assert!(matches!(second.output, std::borrow::Cow::Borrowed(_)), "a second rewrite changed the output again");
        }
    }
}

/// An HTML or CSS part labelled plain `utf-16` without a byte order mark is
/// left alone with a warning: RFC 2781 reads it big-endian, the WHATWG
/// Encoding Standard little-endian.
fn utf16_parts_of_doubtful_byte_order_are_left_alone() {
    let le = |text: &str| -> Vec<u8> { text.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    for (media_type, text) in [
        ("text/html", "<p><a href=x.html>x</a>"),
        ("text/css", "a { background: url(x.png) }"),
    ] {
        let mut m = format!("Content-Base: http://e.example/\nContent-Type: {media_type}; charset=utf-16\nContent-Transfer-Encoding: binary\n\n").into_bytes();
        m.extend_from_slice(&le(text));
        let (out, report) = rewrite_as_message(&m);
        assert_eq!(out, None, "{media_type}");
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert_eq!(report.problems[0].severity, Severity::Warning);
        let message = report.problems[0].message.to_string();
        assert!(message.contains("byte order is in doubt"), "{message}");
        assert!(message.contains(media_type), "{message}");
    }
}

/// `message` rewritten as a MIME message with the default options: the
/// output when it differs from the input (`None`: unchanged), and the report.
fn rewrite_as_message(message: &[u8]) -> (Option<Vec<u8>>, Report) {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(linkbase::Format::Mime);
    let rewritten = linkbase::rewrite(message, &source, &options);
    let out =
        matches!(rewritten.output, std::borrow::Cow::Owned(_)).then(|| rewritten.output.to_vec());
    (out, rewritten.report)
}

/// A binary (identity-encoded) UTF-16 style sheet part: rewritten in its own
/// byte order, byte order mark kept, when the mark or the label (`utf-16le`,
/// `utf-16be`) says which; left alone with a warning when only `utf-16` does.
fn utf16_style_sheet_parts_keep_their_byte_order() {
    let le = |text: &str| -> Vec<u8> { text.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    let be = |text: &str| -> Vec<u8> { text.encode_utf16().flat_map(u16::to_be_bytes).collect() };
    let css = "a { background: url(x.png) }";
    let absolute = "a { background: url(http://e.example/x.png) }";
    // (charset label, body, expected body: None when left unchanged)
    let cases = [
        (
            "utf-16",
            le(&format!("\u{feff}{css}")),
            Some(le(&format!("\u{feff}{absolute}"))),
        ),
        (
            "utf-16",
            be(&format!("\u{feff}{css}")),
            Some(be(&format!("\u{feff}{absolute}"))),
        ),
        ("utf-16be", be(css), Some(be(absolute))),
        ("utf-16", le(css), None),
    ];
    for (charset, body, expected) in cases {
        let head = format!("Content-Base: http://e.example/\nContent-Type: text/css; charset={charset}\nContent-Transfer-Encoding: binary\n\n");
        let mut m = head.clone().into_bytes();
        m.extend_from_slice(&body);
        let (out, report) = rewrite_as_message(&m);
        let expected = expected.map(|e| [head.as_bytes(), &e].concat());
        assert_eq!(out, expected, "{charset} {:02x?}", &body[..2]);
        if out.is_none() {
            assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
            assert_eq!(report.problems[0].severity, Severity::Warning);
            assert!(report.problems[0]
                .message
                .to_string()
                .contains("byte order is in doubt"));
        } else {
            assert!(report.problems.is_empty(), "{:?}", report.problems);
        }
    }
}
