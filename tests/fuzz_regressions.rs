//! Findings of the fuzz targets (`fuzz/`, see docs/fuzzing.md), each turned
//! into a test. The checks are the ones the targets run: the HTML fidelity
//! check and the MIME splice check, shared with the HTML and MIME tests.

#[path = "common/fidelity.rs"]
mod fidelity;
#[path = "common/splice_check.rs"]
mod splice_check;

use linkbase::{Format, Options};

fn options(format: Format, url: &str) -> Options {
    let mut options = Options::new();
    options.format = format;
    options.url = Some(url.to_string());
    options
}

/// html target: a new URL that needs escaping turns `url(x)` into `url("…")`;
/// the tree is the same apart from the URL (the fidelity check folds the two
/// spellings).
#[test]
fn css_url_that_needs_quotes_after_resolution() {
    let input = b"<style>b{background:url(i.png)}</style><p style='background:url(j.png)'>";
    let out = linkbase::rewrite(input, &options(Format::Html, "http://h.example/a b/"), None);
    let text = String::from_utf8_lossy(&out.output);
    assert!(
        text.contains(r#"url("http://h.example/a b/i.png")"#),
        "{text}"
    );
    assert!(
        text.contains(r#"url(&quot;http://h.example/a b/j.png&quot;)"#)
            || text.contains(r#"url("http://h.example/a b/j.png")"#),
        "{text}"
    );
    fidelity::assert_same_tree("quoted url", input, &out.output, None, &[]);
}

/// mime target: byte 4 of a Content-Base value inside a character panicked
/// when the `URL:` prefix was looked for.
#[test]
fn content_base_with_non_ascii_at_byte_four() {
    let input =
        "Content-Type: text/html\r\nContent-Base: \"abc\u{ff}\u{ff}/\"\r\n\r\n<a href=x>x</a>\r\n";
    let checked = splice_check::check(
        input.as_bytes(),
        &options(Format::Mime, "http://m.example/"),
        "t.eml",
    );
    assert!(checked.is_ok(), "{:?}", checked.err());
}

/// mime target: `Content-Type :text/html` (white space before the colon, RFC
/// 5322 obsolete syntax) is an HTML part for linkbase; the independent check
/// must read it the same way.
#[test]
fn content_type_with_space_before_colon() {
    let input =
        b"Content-Type :text/html\nContent-Location: http://m.example/a/\n\n<a href=x>x</a>\n";
    let checked = splice_check::check(input, &options(Format::Mime, "http://m.example/"), "t.eml")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked.edits.len(), 1, "{:?}", checked.edits);
    assert!(String::from_utf8_lossy(&checked.output).contains("http://m.example/a/x"));
}

/// mime target: the same obsolete syntax on the multipart itself; its parts
/// are walked and the HTML part rewritten.
#[test]
fn multipart_content_type_with_space_before_colon() {
    let input = b"Content-Type :multipart/related; boundary=\"b1\"\n\n--b1\nContent-Type: text/html\n\n<a href=x>x</a>\n--b1--\n";
    let checked = splice_check::check(
        input,
        &options(Format::Mime, "http://m.example/d/"),
        "t.eml",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked.edits.len(), 1, "{:?}", checked.edits);
    assert!(String::from_utf8_lossy(&checked.output).contains("http://m.example/d/x"));
}

/// html target: a comment after `</body>` (or `</html>`), or white space
/// after `</head>`, re-parsed inside the element when the implied element's
/// tags were left out; such an element is now written with its tags.
#[test]
fn nodes_after_an_implied_wrapper_stay_outside_it() {
    let cases: [(&str, &[u8]); 3] = [
        ("comment after body", b"<p><a href=x>x</a></body><!--c-->"),
        ("comment after html", b"<p><a href=x>x</a></html><!--c-->"),
        (
            "white space after head",
            b"<title>t</title></head>\n<p><a href=x>x</a>",
        ),
    ];
    for (name, input) in cases {
        let out = linkbase::rewrite(input, &options(Format::Html, "http://h.example/"), None);
        let text = String::from_utf8_lossy(&out.output);
        assert!(
            text.contains("href=\"http://h.example/x\""),
            "{name}: {text}"
        );
        fidelity::assert_same_tree(name, input, &out.output, None, &[]);
    }
}

/// The part that holds `line` (and nothing else) is left unchanged and
/// reported; the other HTML part is rewritten; the check, with mailparse as
/// the independent reader, finds every edit in place.
fn only_the_doubtful_part_is_left(input: &str, doubtful: &str, reason: &str) {
    let checked = splice_check::check(
        input.as_bytes(),
        &options(Format::Mime, "http://m.example/d/"),
        "t.eml",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let output = String::from_utf8_lossy(&checked.output);
    assert!(output.contains("http://m.example/d/ok.html"), "{output}");
    assert!(output.contains(doubtful), "{output}");
    let errors: Vec<String> = checked
        .report
        .problems
        .iter()
        .map(|p| p.one_line())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains(reason), "{errors:?}");
}

/// mime finding 9: inside message/rfc822, a header line without a colon
/// ends the header block for Python's `email` and is a field for mailparse;
/// the enclosed message is left unchanged (RFC 5322 §2.2: not a header field).
#[test]
fn rfc822_header_line_without_colon() {
    let input = "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n\nContent-Type: text/html\nConte22\n\nContent-Base: http://n.example/\n\n<a href=y>y</a>\n--b\nContent-Type: text/html\n\n<a href=ok.html>x</a>\n--b--\n";
    only_the_doubtful_part_is_left(
        input,
        "<a href=y>y</a>",
        "t.eml: part 1.1: error: cannot parse the header block: line 2 is neither a header field",
    );
}

/// mime finding 8: lone CRs in a nested Content-Type (CR and LF occur only
/// together, RFC 5322 §2.2); mailparse refuses the whole message, linkbase
/// leaves that part alone and rewrites the rest, and the check now reads the
/// last part, which runs to the end without a close delimiter, as mailparse
/// does.
#[test]
fn lone_cr_in_nested_content_type() {
    let input = "Content-Type: multipart/related; boundary=\"b1\"\n\n--b1\nContent-Type: text/r\r\r\n\r\related; boundary=\"b1\"\n\n<a href=y>\n--b1\nContent-Type: text/html\nContent-Location: ok.html\n\n<a href=ok.html>x</a>";
    let checked = splice_check::check(
        input.as_bytes(),
        &options(Format::Mime, "http://m.example/d/"),
        "t.eml",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(checked.whole_parse_failed.is_some(), "mailparse refuses it");
    let places: Vec<_> = checked
        .edits
        .iter()
        .map(|(e, _)| (e.part.as_str(), e.place))
        .collect();
    assert_eq!(places, [("2", linkbase::mime::EditPlace::ContentLocation)]);
    let errors: Vec<String> = checked
        .report
        .problems
        .iter()
        .map(|p| p.one_line())
        .collect();
    assert!(
        errors[0].starts_with(
            "t.eml: part 1: error: cannot parse the header block: line 1 holds a CR without LF"
        ),
        "{errors:?}"
    );
}

/// mime finding 3: a body line that merely begins with `--b1` is a delimiter
/// to mailparse, content to RFC 2046 §5.1.1; the part holding it is left
/// unchanged (design.md §5, prefix-colliding boundaries).
#[test]
fn body_line_beginning_with_the_boundary() {
    let input = "Content-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/html\n\n<a href=y>y</a>\n--b1<junk>\n<a href=z>z</a>\n--b1\nContent-Type: text/html\n\n<a href=ok.html>x</a>\n--b1--\n";
    only_the_doubtful_part_is_left(
        input,
        "<a href=y>y</a>\n--b1<junk>\n<a href=z>z</a>",
        "t.eml: part 1: error: a line begins with the boundary `--b1` but is not a delimiter",
    );
}
