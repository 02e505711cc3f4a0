//! Hostile input (huge values, deep nesting, many links or parts): each case is rewritten through the library
//! (`linkbase::rewrite`) and, where the command line matters, the binary, and
//! the REAL result is checked — the rewritten URLs, the counts in the report,
//! the bytes left alone — not only that nothing panicked.
//!
//! The inputs come from `tests/support/src/hostile_inputs.rs`, shared with
//! `benches/scaling.rs`, which times each at N and 10N to show linear growth.
//! Sizes are the issue's; where one is cut for debug-build time, the case
//! says why and the bench covers the full size.

use test_support::hostile_inputs;
use test_support::test_hooks;

use assert_cmd::Command;
use hostile_inputs::*;
use linkbase::limits::MAX_MIME_DEPTH as MAX_DEPTH;
use linkbase::{report::Outcome, report::Severity, Format, Options, Profile};
use std::borrow::Cow;
use std::fmt::Write as _;

fn source(url: Option<&str>, format: Format) -> linkbase::Source {
    let source = linkbase::Source::new().with_format(format);
    match url {
        Some(url) => source.with_url(url),
        None => source,
    }
}

fn html(input: &[u8]) -> linkbase::Rewrite<'_> {
    linkbase::rewrite(
        input,
        &source(Some(BASE), Format::Html).with_name("t.html"),
        &Options::new(),
    )
}

fn mime(input: &[u8]) -> linkbase::Rewrite<'_> {
    linkbase::rewrite(
        input,
        &source(None, Format::Mime).with_name("t.eml"),
        &Options::new(),
    )
}

/// What the HTML layer writes for a fragment `body`: the fragment itself,
/// with its values spliced in (nothing the parser implied is written).
fn document(body: &str) -> String {
    body.to_string()
}

fn linkbase() -> Command {
    let mut cmd = Command::cargo_bin("linkbase").expect("the linkbase binary is built");
    cmd.env_remove("LINKBASE_TEST_FAIL_AT");
    cmd
}

/// Fails with the first differing offset rather than printing megabytes.
fn assert_same_bytes(case: &str, got: &[u8], want: &[u8]) {
    if got == want {
        return;
    }
    let at = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let show = |b: &[u8]| {
        String::from_utf8_lossy(&b[at.saturating_sub(40)..(at + 40).min(b.len())]).into_owned()
    };
    panic!(
        "{case}: output differs at byte {at} (lengths {} and {}): got …{:?}…, want …{:?}…",
        got.len(),
        want.len(),
        show(got),
        show(want)
    );
}

#[test]
fn a_million_dot_dot_segments_resolve_to_the_root() {
    let n = 1_000_000;
    let input = dot_segments_href(n);
    let out = html(&input);
    assert_same_bytes(
        "html",
        &out.output,
        document("<a href=\"http://h.example/x\">x</a>").as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);

    // Every profile, through the resolver's one-call API: the RFC 3986 and
    // WHATWG profiles drop the `..` that climb above the root; the older
    // drafts keep them (RFC 1808 §5.2: `../../../g` → `http://a/../g`).
    let reference = format!("{}x", "../".repeat(n));
    for profile in Profile::ALL {
        let got = linkbase::resolve(BASE, &reference, profile)
            .unwrap_or_else(|e| panic!("{profile}: {e}"));
        let want = match profile {
            Profile::Rfc3986 | Profile::Whatwg => "http://h.example/x".to_string(),
            _ => format!("http://h.example/{}x", "../".repeat(n - 2)),
        };
        assert!(
            got == want,
            "{profile}: got {} bytes, not the expected {}",
            got.len(),
            want.len()
        );
    }
}

#[test]
fn a_million_dot_dot_segments_through_the_resolve_command() {
    let reference = format!("{}x\n", "../".repeat(1_000_000));
    linkbase()
        .args(["resolve", BASE])
        .write_stdin(reference)
        .assert()
        .success()
        .stdout("http://h.example/x\n");
}

#[test]
fn a_hundred_thousand_links_are_all_rewritten() {
    let n = 100_000;
    let input = many_links(n);
    let o = Options::new().with_keep_link_records(true);
    let s = source(Some(BASE), Format::Html).with_name("t.html");
    let out = linkbase::rewrite(&input, &s, &o);
    assert_eq!(out.report.counts.rewritten, n as u64);
    assert_eq!(out.report.links.len(), n);
    for (i, record) in out.report.links.iter().enumerate() {
        assert_eq!(record.outcome, Outcome::Rewritten, "link {i}");
        assert_eq!(record.before, format!("p{i}"), "link {i}");
        assert_eq!(
            record.after.as_deref(),
            Some(&*format!("{BASE}p{i}")),
            "link {i}"
        );
    }
    let mut body = String::new();
    for i in 0..n {
        let _ = writeln!(body, "<a href={BASE}p{i}>.</a>");
    }
    assert_same_bytes("links", &out.output, document(&body).as_bytes());
}

#[test]
fn ten_thousand_nested_elements_keep_their_link() {
    // Test threads have a 2 MiB stack: a recursive walk would overflow here.
    let depth = 10_000;
    let input = deep_nesting(depth);
    let out = html(&input);
    let want = format!(
        "{}<a href={BASE}x>x</a>{}",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    assert_same_bytes("nesting", &out.output, document(&want).as_bytes());
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn ten_thousand_nested_formatting_elements_that_all_differ_keep_their_link() {
    // Each `<b id=k>` is unlike every other, so the list of active
    // formatting elements holds all ten thousand (the Noah's Ark clause
    // removes none); the patched parser looks them up without scanning it.
    let depth = 10_000;
    let input = deep_formatting(depth);
    let out = html(&input);
    let opening: String = (0..depth).map(|i| format!("<b id=\"{i}\">")).collect();
    let want = format!("{opening}<a href={BASE}x>x</a>{}", "</b>".repeat(depth));
    assert_same_bytes("formatting", &out.output, document(&want).as_bytes());
    assert_eq!(out.report.counts.rewritten, 1);
}

/// `input` with its first `href=x` made absolute against `base`: what a
/// rewrite of issue 20's inputs must write.
fn with_link_rewritten(input: &[u8], base: &str) -> String {
    String::from_utf8(input.to_vec())
        .unwrap()
        .replacen("href=x", &format!("href={base}x"), 1)
}

#[test]
fn a_hundred_thousand_distinct_attributes_and_a_duplicate_href() {
    // Issue 20, item 7: duplicates were found by comparing each attribute
    // with every earlier one (100,000: 3.4 s, 1,000,000 never ended).
    let input = many_attributes(100_000);
    let out = html(&input);
    assert_same_bytes(
        "attributes",
        &out.output,
        document(&with_link_rewritten(&input, BASE)).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn twenty_thousand_nested_select_optgroup_option() {
    // Issue 20, item 8: every tag asked "is a select in scope" by a walk
    // of the whole stack.
    let input = select_nesting(20_000);
    let out = html(&input);
    assert_same_bytes(
        "select",
        &out.output,
        document(&with_link_rewritten(&input, BASE)).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn twenty_thousand_stray_end_tags_under_as_many_spans() {
    // Issue 20, item 9: each `</i>` walked the stack down to a special
    // element.
    let input = stray_end_tags(20_000);
    let out = html(&input);
    assert_same_bytes(
        "stray",
        &out.output,
        document(&with_link_rewritten(&input, BASE)).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn ten_thousand_formatting_elements_reconstructed_under_as_many_divs() {
    // Issue 20, item 9: each entry reconstructed was searched for in the
    // whole stack of open elements.
    let input = reconstruct_formatting(10_000);
    let out = html(&input);
    assert_same_bytes(
        "reconstruct",
        &out.output,
        document(&with_link_rewritten(&input, BASE)).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn a_subject_of_a_hundred_thousand_encoded_words_is_not_decoded() {
    // Issue 20, item 10: a header linkbase never reads was decoded (15.7 s);
    // the message is kept byte for byte but for its link.
    let input = encoded_word_subject(100_000);
    let out = mime(&input);
    assert_same_bytes(
        "subject",
        &out.output,
        with_link_rewritten(&input, MIME_BASE).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn a_content_type_of_a_hundred_thousand_encoded_words_is_read_undecoded() {
    // A header linkbase reads, past MAX_ENCODED_WORDS: unfolded, not
    // decoded (decoding it took time quadratic in its words); the part is
    // still `text/html` and its link rewritten.
    let input = encoded_word_content_type(100_000);
    let out = mime(&input);
    assert_same_bytes(
        "content-type",
        &out.output,
        with_link_rewritten(&input, MIME_BASE).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

/// `depth` nested `<div>`, then a template holding a base element and a
/// link, then a link after it (expected values measured in Chromium 156,
/// which `tests/integration/browser.rs` reads the same pages in).
fn deep_template(depth: usize) -> Vec<u8> {
    format!(
        "{}<template><base href=\"http://o.example/b/\"><a href=t>t</a></template><a href=x>x</a>{}",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    )
    .into_bytes()
}

#[test]
fn past_512_open_elements_the_tree_is_as_flat_as_chromiums() {
    // Chromium inserts an element into the parent of the current node once
    // more than 512 elements are open below `html` (counting it if it is
    // pushed). 509 divs: the template and all in it stay as written.
    let rewritten = |depth: usize| {
        let input = deep_template(depth);
        let out = html(&input);
        String::from_utf8(out.output.to_vec()).unwrap()
    };
    let tail = |t: &str, x: &str| {
        format!("<template><base href=\"http://o.example/b/\"><a href={t}>t</a></template><a href={x}>x</a>")
    };
    assert!(rewritten(509).contains(&tail("http://h.example/a/b/t", "http://h.example/a/b/x")));
    // 510: the link in the template is the 513th element and goes to the
    // template's parent, in the document; the base (void, not pushed)
    // stays in the template: neither link sees it.
    assert!(rewritten(510).contains(&tail("http://h.example/a/b/t", "http://h.example/a/b/x")));
    // 511: the template itself goes up a level and so does what follows:
    // the base is the document's, and both links resolve against it.
    assert!(rewritten(511).contains(&tail("http://o.example/b/t", "http://o.example/b/x")));
}

#[test]
fn a_huge_attribute_value() {
    // 8 MB, not the issue's 50 MB: html5ever's tokenizer takes about a
    // second per megabyte of attribute in a debug build (50 MB: 47 s here).
    // `benches/scaling.rs` rewrites 5 MB and 50 MB in release builds and
    // shows the cost linear.
    let bytes = 8 << 20;
    let input = huge_attribute(bytes);
    let out = html(&input);
    let mut want = String::with_capacity(bytes * 2 + 256);
    want.push_str("<a href=\"");
    want.push_str(BASE);
    want.push_str(&"a".repeat(bytes));
    want.push_str("\">x</a><a title=\"");
    want.push_str(&"t".repeat(bytes));
    let _ = write!(want, "\" href={BASE}y>y</a>");
    assert_same_bytes("attribute", &out.output, want.as_bytes());
    assert_eq!(out.report.counts.rewritten, 2);
}

#[test]
fn a_srcset_of_a_hundred_thousand_candidates() {
    let n = 100_000;
    let input = srcset(n);
    let out = html(&input);
    let mut want = String::from("<img srcset=\"");
    for i in 0..n {
        if i > 0 {
            want.push_str(", ");
        }
        let _ = write!(want, "{BASE}i{i}.png {}w", i + 1);
    }
    want.push_str("\">");
    assert_same_bytes("srcset", &out.output, document(&want).as_bytes());
    assert_eq!(out.report.counts.rewritten, n as u64);
}

/// The path of the entity at `depth` on the way down a nested message.
fn nested_path(depth: usize) -> String {
    vec!["1"; depth].join(".")
}

#[test]
fn multipart_nesting_up_to_the_limit_is_rewritten() {
    // Multiparts at depths 0 … MAX_DEPTH-1 are walked; the HTML part at
    // MAX_DEPTH is a leaf and is rewritten.
    let input = nested_multipart(MAX_DEPTH);
    let out = mime(&input);
    assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
    assert_eq!(out.report.counts.rewritten, 1);
    let text = String::from_utf8_lossy(&input);
    let want = text.replace(
        "<a href=x>x</a>\n",
        &format!("{}\n", document(&format!("<a href={MIME_BASE}x>x</a>"))),
    );
    assert_same_bytes("at the limit", &out.output, want.as_bytes());
}

#[test]
fn multipart_nesting_of_a_thousand_levels_is_refused_and_left_byte_identical() {
    let input = nested_multipart(1_000);
    let out = mime(&input);
    assert!(matches!(out.output, Cow::Borrowed(_)), "output was rebuilt");
    assert_same_bytes("nested", &out.output, &input);
    assert_eq!(out.report.counts.rewritten, 0);
    let lines: Vec<String> = out.report.problems.iter().map(|p| p.one_line()).collect();
    assert_eq!(
        lines,
        [format!(
            "t.eml: part {}: error: nested more than {MAX_DEPTH} levels deep; left unchanged",
            nested_path(MAX_DEPTH)
        )]
    );
    assert_eq!(out.report.problems[0].severity, Severity::Error);
    assert!(out.report.has_errors());
}

#[test]
fn multipart_nesting_of_a_thousand_levels_through_the_command() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("deep.eml");
    let input = nested_multipart(1_000);
    std::fs::write(&path, &input).expect("write the input");
    let assert = linkbase().arg(&path).assert().code(1);
    let output = assert.get_output();
    assert_same_bytes("command output", &output.stdout, &input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let want = format!(
        "{}: part {}: error: nested more than {MAX_DEPTH} levels deep; left unchanged",
        path.display(),
        nested_path(MAX_DEPTH)
    );
    assert!(stderr.lines().any(|l| l == want), "stderr: {stderr}");
}

#[test]
fn ten_thousand_parts_are_all_rewritten() {
    let n = 10_000;
    let input = many_parts(n);
    let out = mime(&input);
    assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
    assert_eq!(out.report.counts.rewritten, n as u64);
    let mut want = String::new();
    let _ = write!(
        want,
        "MIME-Version: 1.0\nContent-Base: {MIME_BASE}\nContent-Type: multipart/mixed; boundary=sep\n\npreamble\n"
    );
    for i in 0..n {
        let _ = write!(
            want,
            "--sep\nContent-Type: text/html\n\n{}\n",
            document(&format!("<a href={MIME_BASE}p{i}>{i}</a>"))
        );
    }
    want.push_str("--sep--\nepilogue\n");
    assert_same_bytes("parts", &out.output, want.as_bytes());
}

#[test]
fn a_ten_megabyte_header_block() {
    for folded in [false, true] {
        let input = huge_header_block(10 << 20, folded);
        let out = mime(&input);
        let case = if folded {
            "one folded field"
        } else {
            "many fields"
        };
        assert!(
            out.report.problems.is_empty(),
            "{case}: {:?}",
            out.report.problems
        );
        assert_eq!(out.report.counts.rewritten, 1, "{case}");
        let body = b"<a href=x>x</a>\n";
        let head = &input[..input.len() - body.len()];
        let mut want = head.to_vec();
        // The body's trailing line break stays after the document.
        want.extend_from_slice(document(&format!("<a href={MIME_BASE}x>x</a>")).as_bytes());
        want.push(b'\n');
        assert_same_bytes(case, &out.output, &want);
    }
}

/// The body of a single-part message's output, base64-decoded.
fn decoded_base64_body(output: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(output);
    let (_, body) = text.split_once("\n\n").expect("a header block");
    let symbols: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    data_encoding::BASE64
        .decode(symbols.as_bytes())
        .unwrap_or_else(|e| panic!("the output body is not clean base64: {e}"))
}

/// [`encoded_body_content`]`(n)` as the MIME layer writes it back
/// rewritten: the body's trailing line break stays after the document.
fn rewritten_links(n: usize, base: &str) -> String {
    let mut body = String::new();
    for i in 0..n {
        let _ = writeln!(body, "<a href={base}p{i}>.</a>");
    }
    format!("{}\n", document(body.trim_end()))
}

#[test]
fn a_base64_body_with_garbage_on_every_line() {
    let n = 20_000;
    for garbage in [" !*~", "\t#$%&", "\u{e9}"] {
        let input = base64_with_garbage(n, garbage);
        let out = mime(&input);
        assert!(
            out.report.problems.is_empty(),
            "{garbage:?}: {:?}",
            out.report.problems
        );
        assert_eq!(out.report.counts.rewritten, n as u64, "{garbage:?}");
        let decoded = decoded_base64_body(&out.output);
        assert_same_bytes(garbage, &decoded, rewritten_links(n, MIME_BASE).as_bytes());
    }
}

#[test]
fn a_base64_body_with_padding_on_every_line_is_left_byte_identical() {
    // Data after a `=` would be lost if only what precedes it were decoded
    // and re-encoded (the old decoder stopped at the first `=` and so wrote
    // back 3 links of 2,000): the part is left alone and reported instead.
    let n = 2_000;
    let input = base64_with_garbage(n, "=");
    let out = mime(&input);
    assert!(matches!(out.output, Cow::Borrowed(_)), "output was rebuilt");
    assert_eq!(out.report.counts.rewritten, 0);
    let lines: Vec<String> = out.report.problems.iter().map(|p| p.one_line()).collect();
    assert_eq!(
        lines,
        ["t.eml: error: base64 body has data after its `=` padding; left unchanged"]
    );
}

#[test]
fn a_truncated_quoted_printable_soft_break() {
    let n = 1_000;
    for tail in ["=", "=\r"] {
        let input = truncated_qp(n, tail);
        let out = mime(&input);
        assert!(
            out.report.problems.is_empty(),
            "{tail:?}: {:?}",
            out.report.problems
        );
        assert_eq!(out.report.counts.rewritten, n as u64, "{tail:?}");
        let text = String::from_utf8_lossy(&out.output);
        let (head, body) = text.split_once("\n\n").expect("a header block");
        assert!(head.ends_with("quoted-printable"), "{tail:?}: {head}");
        // Strict decoding wants CRLF line breaks; the message uses LF.
        let body = body.replace('\n', "\r\n");
        let decoded = quoted_printable::decode(&body, quoted_printable::ParseMode::Strict)
            .unwrap_or_else(|e| panic!("{tail:?}: the output is not clean quoted-printable: {e}"));
        let mut links = String::new();
        for i in 0..n {
            let _ = write!(links, "<a href={MIME_BASE}p{i}>.</a>\r\n");
        }
        let want = document(&format!("{links}<p>cut")).replace("\r\n", "\n");
        let got = String::from_utf8_lossy(&decoded).replace("\r\n", "\n");
        assert_same_bytes(tail, got.as_bytes(), want.as_bytes());
    }
}

/// The names of the files in `dir`.
fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the folder")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// One input of `-i`: its file name, content, arguments, and the output the
/// library gives for it (what `-i` must write, whole or not at all).
struct InPlace {
    name: &'static str,
    input: Vec<u8>,
    args: Vec<&'static str>,
    want: Vec<u8>,
}

impl InPlace {
    /// One input of each format.
    fn all() -> Vec<InPlace> {
        let page = b"<!DOCTYPE html>\n<p><a href=\"guide/x.html\">x</a> <img srcset=\"a.png 1x, b.png 2x\">\n".to_vec();
        let message = format!(
            "Content-Base: {MIME_BASE}\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\nplain\n--b\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n{}\n--b--\n",
            data_encoding::BASE64.encode(b"<a href=\"p.html\">p</a>\n")
        )
        .into_bytes();
        let sheet = b"p { background: url(img/bg.png) }\n".to_vec();
        let cases = [
            ("page.html", page, vec!["--url", BASE]),
            ("message.eml", message, vec![]),
            ("style.css", sheet, vec!["--url", BASE]),
        ];
        cases
            .into_iter()
            .map(|(name, input, args)| {
                let o = Options::new();
                let mut o_source = linkbase::Source::new();
                if let Some(value) = args.get(1).map(|u| u.to_string()) {
                    o_source = o_source.with_url(value);
                }
                let want = linkbase::rewrite(&input, &o_source.clone().with_name(name), &o)
                    .output
                    .into_owned();
                assert_ne!(want, input, "{name}: the case must change something");
                InPlace {
                    name,
                    input,
                    args,
                    want,
                }
            })
            .collect()
    }

    /// A folder holding the input, and the command `linkbase FILE -i
    /// --backup .orig ARGS` run in it with `hook` set to `step`.
    fn prepare(
        &self,
        hook: &str,
        step: &str,
    ) -> (tempfile::TempDir, std::path::PathBuf, std::process::Command) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join(self.name);
        std::fs::write(&path, &self.input).expect("write the input");
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"));
        cmd.current_dir(dir.path())
            .arg(&path)
            .args(["-i", "--backup", ".orig"])
            .args(&self.args)
            .env_remove("LINKBASE_TEST_FAIL_AT")
            .env_remove("LINKBASE_TEST_KILL_AT")
            .env(hook, step);
        (dir, path, cmd)
    }
}

#[test]
fn in_place_failing_at_every_step_leaves_the_original_and_no_temporary() {
    test_hooks::require_test_hooks();
    for case in InPlace::all() {
        let name = case.name;
        for step in test_hooks::WRITE_STEPS {
            let what = format!("{name}, failing at {step}");
            let (dir, path, cmd) = case.prepare("LINKBASE_TEST_FAIL_AT", step);
            let assert = Command::from_std(cmd).assert().code(1);
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
            // `verify` is the check that the file may still be replaced.
            let failure = if step == "verify" {
                "left as it is"
            } else {
                "cannot"
            };
            assert!(
                stderr.contains(&format!("{}: error: {failure}", path.display()))
                    && stderr.contains("injected failure"),
                "{what}: {stderr}"
            );
            assert_same_bytes(
                &what,
                &std::fs::read(&path).expect("read back"),
                &case.input,
            );
            // A backup made before a later step failed is removed again: the
            // original is untouched, and a backup left beside it would make
            // the next run refuse (docs/cli.md, "Nothing lost").
            assert_eq!(file_names(dir.path()), [name], "{what}");
        }
        // The same run without the hook writes the new file.
        let (_dir, path, cmd) = case.prepare("LINKBASE_TEST_UNUSED", "");
        Command::from_std(cmd).assert().success();
        assert_same_bytes(name, &std::fs::read(&path).expect("read back"), &case.want);
    }
}

#[cfg(unix)]
#[test]
fn in_place_killed_in_every_step_leaves_the_original_or_the_whole_new_file() {
    test_hooks::require_test_hooks();
    for case in InPlace::all() {
        let name = case.name;
        for step in test_hooks::WRITE_STEPS {
            let what = format!("{name}, killed in {step}");
            let (dir, path, mut cmd) = case.prepare("LINKBASE_TEST_KILL_AT", step);
            let status = cmd.output().expect("run linkbase").status;
            assert!(status.code().is_none(), "{what}: not killed: {status}");
            let now = std::fs::read(&path).expect("the file is still there");
            // Only the rename puts the new file in place, whole.
            let expected = if step == "rename" {
                &case.want
            } else {
                &case.input
            };
            assert_same_bytes(&what, &now, expected);
            for other in file_names(dir.path()) {
                if other == name {
                    continue;
                }
                if other == format!("{name}.orig") {
                    let backup = std::fs::read(dir.path().join(&other)).expect("backup");
                    assert_same_bytes(&what, &backup, &case.input);
                } else {
                    // A kill leaves the temporary file: never the target.
                    assert!(
                        other.starts_with(".linkbase-") && other.ends_with(".tmp"),
                        "{what}: unexpected file {other}"
                    );
                }
            }
        }
    }
}

// Issue 32: decoders, scans and counters.

#[test]
fn a_boundary_of_dashes_in_a_body_of_dashes() {
    // The delimiter search matched at every dash of the line, comparing the
    // whole boundary each time: 1.4 MB took 37 s. Now it goes on at the
    // next line start (benches/scaling.rs times it at N and 10N).
    let input = dash_boundary(20_000);
    let out = mime(&input);
    assert_same_bytes(
        "dashes",
        &out.output,
        with_link_rewritten(&input, MIME_BASE).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
    assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
}

#[test]
fn a_content_type_of_twenty_thousand_rfc_2231_parameters() {
    // mailparse compared each `name*0` parameter with every other; only
    // the parameters linkbase reads reach it now.
    let input = rfc2231_parameters(20_000);
    let out = mime(&input);
    assert_same_bytes(
        "2231",
        &out.output,
        with_link_rewritten(&input, MIME_BASE).as_bytes(),
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

#[test]
fn xhtml_with_five_thousand_xmlns_declarations() {
    let n = 5_000;
    let input = xmlns_declarations(n);
    let out = linkbase::rewrite(
        &input,
        &source(Some(BASE), Format::Xhtml).with_name("t.xhtml"),
        &Options::new(),
    );
    let mut want = String::from_utf8(input.clone()).unwrap();
    for i in (0..n).rev() {
        want = want.replacen(
            &format!("href=\"x{i:06}\""),
            &format!("href=\"{BASE}x{i:06}\""),
            1,
        );
    }
    assert_same_bytes("xmlns", &out.output, want.as_bytes());
    assert_eq!(out.report.counts.rewritten as usize, n);
}

#[test]
fn xhtml_nested_seventy_thousand_deep_keeps_its_namespace() {
    // Past 65,535 open elements quick-xml's u16 depth wrapped (release: the
    // XHTML namespace forgotten, the links after left relative, exit 0;
    // debug: "attempt to add with overflow"). Depth is a Vec's length now.
    let input = deep_xhtml(70_000);
    let out = linkbase::rewrite(
        &input,
        &source(Some(BASE), Format::Xhtml).with_name("t.xhtml"),
        &Options::new(),
    );
    let want = String::from_utf8(input.clone())
        .unwrap()
        .replacen("href=\"in\"", &format!("href=\"{BASE}in\""), 1)
        .replacen("href=\"x\"", &format!("href=\"{BASE}x\""), 1);
    assert_same_bytes("deep xhtml", &out.output, want.as_bytes());
    assert_eq!(out.report.counts.rewritten, 2);
    assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
}

#[test]
fn a_feed_nested_seventy_thousand_deep_keeps_its_namespace() {
    // The feed layer read with quick-xml's NsReader, whose depth is a u16:
    // past 65,535 open elements it wrapped (release: the Atom namespace
    // forgotten, the link after the nesting left relative, exit 0; debug:
    // "attempt to add with overflow"). It reads with the XHTML layer's
    // namespace scopes now: depth is a Vec's length.
    let input = deep_feed(70_000);
    let out = linkbase::rewrite(
        &input,
        &source(Some(BASE), Format::Feed).with_name("t.atom"),
        &Options::new(),
    );
    let want = String::from_utf8(input.clone())
        .unwrap()
        .replacen("href=\"in\"", &format!("href=\"{BASE}in\""), 1)
        .replacen("href=\"x\"", &format!("href=\"{BASE}x\""), 1);
    assert_same_bytes("deep feed", &out.output, want.as_bytes());
    assert_eq!(out.report.counts.rewritten, 2);
    assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
}

#[test]
fn an_html_document_over_4_gib_is_refused_not_wrapped() {
    // html5ever's buffers and the light arena's u32 node numbers hold at
    // most 4 GiB - 1; the library (and a --max-size over 4G) let a larger
    // document through. A 4 GiB + 1 byte document of zeros, mapped, never
    // written (the pages are the kernel's one zero page): refused with an
    // error, unchanged, without reading it.
    let len = (u32::MAX as usize) + 2;
    // SAFETY: an anonymous private read-only mapping, unmapped below; the
    // slice does not outlive it.
    let input = unsafe {
        let at = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        assert_ne!(at, libc::MAP_FAILED, "mmap of {len} bytes");
        std::slice::from_raw_parts(at as *const u8, len)
    };
    let out = linkbase::rewrite(
        input,
        &source(Some(BASE), Format::Html).with_name("big.html"),
        &Options::new(),
    );
    assert!(matches!(out.output, Cow::Borrowed(_)));
    let message = out.report.problems[0].one_line();
    assert!(
        message.contains("over the 4294967295 an HTML parser's buffers hold; left unchanged"),
        "{message}"
    );
    drop(out);
    // SAFETY: the mapping made above, no longer borrowed.
    unsafe { libc::munmap(input.as_ptr() as *mut libc::c_void, len) };
}

#[test]
fn fake_gzip_headers_with_unterminated_names_hide_no_record() {
    // Each fake header scanned up to 1 MiB ahead for the end of its name;
    // the bytes known to hold no NUL are not scanned again. Both intact
    // records are converted, each fake header is one broken range.
    let input = warc_gz_fake_names(10_000);
    let out = linkbase::rewrite(
        &input,
        &source(None, Format::Warc).with_name("t.warc.gz"),
        &Options::new(),
    );
    assert_eq!(
        out.report.counts.rewritten,
        2,
        "{:?}",
        out.report.problems.first()
    );
}

#[test]
fn an_http_head_of_more_than_4096_fields_is_an_error() {
    // It was a warning, exit status 0, the links left relative.
    let fields: String = (0..5000).map(|i| format!("X-{i}: v\r\n")).collect();
    let block =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{fields}\r\n<a href=x>x</a>");
    let warc = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         WARC-Target-URI: http://w.example/p\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.warc"), dir.path().join("out.warc"));
    std::fs::write(&input, warc).unwrap();
    let run = linkbase()
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: skipped: the HTTP head has more than 4096 header fields"),
        "{stderr}"
    );
}
