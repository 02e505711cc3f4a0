//! End-to-end cases of the XHTML layer: the whole output is written out by
//! hand from the rules (only the bytes of a rewritten value change).

use super::plan_xhtml;
use crate::base::{BaseRule, EstablishedBase};
use crate::context::DocumentContext;
use crate::options::Options;
use crate::report::{Location, Report};
use crate::resolve::{Base, Profile};

fn run(
    input: &[u8],
    url: &str,
    transport: Option<&'static encoding_rs::Encoding>,
) -> (Option<Vec<u8>>, Report) {
    let options = Options::new();
    let base = EstablishedBase::new(
        Base::parse(url, Profile::Rfc3986).unwrap(),
        BaseRule::Retrieval,
    );
    let location = Location::file(Some("t.xhtml"));
    let ctx = DocumentContext::new(&options, &location)
        .with_charset(transport)
        .with_base(Some(&base));
    let mut report = Report::new(true);
    let out = plan_xhtml(input, &ctx, &mut report).map(|e| crate::splice::apply(input, &e));
    (out, report)
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:xl=\"http://www.w3.org/1999/xlink\">\n";

/// Everything outside the rewritten values is copied; a value is written
/// whole from what it means, so the line break in `srcset` (a space, by XML's
/// attribute-value normalization) comes back as a space.
#[test]
fn values_change_and_nothing_else() {
    let input = format!(
        "{HEAD}<head><link rel='stylesheet'  href = 'css/a.css' /><style>\r\n p {{ background: url(img/p.png) }}\r\n</style></head>\n<body><a href=\"x?a=1&amp;b=2\">x</a><A href=\"no-link\"/>\n<img srcset=\"a.png 1x,\n b.png 2x\" style='background:url(\"c.png\")'/><svg xmlns=\"http://www.w3.org/2000/svg\"><use xl:href=\"s.svg#i\"/><a href=\"svg.html\"/></svg><p xml:base=\"http://other.example/\"><a href=\"#top\">t</a></p></body></html>\n"
    );
    let want = format!(
        "{HEAD}<head><link rel='stylesheet'  href = 'https://e.example/d/css/a.css' /><style>\r\n p {{ background: url(https://e.example/d/img/p.png) }}\r\n</style></head>\n<body><a href=\"https://e.example/d/x?a=1&amp;b=2\">x</a><A href=\"no-link\"/>\n<img srcset=\"https://e.example/d/a.png 1x,  https://e.example/d/b.png 2x\" style='background:url(\"https://e.example/d/c.png\")'/><svg xmlns=\"http://www.w3.org/2000/svg\"><use xl:href=\"https://e.example/d/s.svg#i\"/><a href=\"https://e.example/d/svg.html\"/></svg><p xml:base=\"http://other.example/\"><a href=\"#top\">t</a></p></body></html>\n"
    );
    let (out, report) = run(input.as_bytes(), "https://e.example/d/page.xhtml", None);
    assert_eq!(String::from_utf8(out.unwrap()).unwrap(), want);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

#[test]
fn base_element_sets_the_base_and_template_ones_do_not() {
    let input = format!(
        "{HEAD}<body><template><base href=\"/t/\"/></template><a href=\"a.html\"/><base href=\"../b/\"/><base href=\"/c/\"/></body></html>"
    );
    let want = format!(
        "{HEAD}<body><template><base href=\"https://e.example/t/\"/></template><a href=\"https://e.example/b/a.html\"/><base href=\"https://e.example/b/\"/><base href=\"https://e.example/c/\"/></body></html>"
    );
    let (out, _) = run(input.as_bytes(), "https://e.example/d/page.xhtml", None);
    assert_eq!(String::from_utf8(out.unwrap()).unwrap(), want);
}

#[test]
fn new_values_are_escaped_for_xml() {
    // A non-ASCII path stays as it is under rfc3986; the `'` of the value
    // needs escaping only inside `'` quotes.
    let input = format!(
        "{HEAD}<body><a href='it&apos;s.html'>x</a><a href=\"it's.html\">y</a></body></html>"
    );
    let want = format!("{HEAD}<body><a href='https://e.example/it&apos;s.html'>x</a><a href=\"https://e.example/it's.html\">y</a></body></html>");
    let (out, _) = run(input.as_bytes(), "https://e.example/", None);
    assert_eq!(String::from_utf8(out.unwrap()).unwrap(), want);
}

#[test]
fn not_well_formed_is_left_unchanged_and_reported() {
    let input = format!("{HEAD}<body><a href=\"a.html\"><p></a></body></html>");
    let (out, report) = run(input.as_bytes(), "https://e.example/", None);
    assert!(out.is_none());
    let problem = report.problems[0].message.to_string();
    assert!(
        problem.starts_with("not well-formed XML at byte "),
        "{problem}"
    );
    assert!(problem.ends_with("left unchanged"), "{problem}");
}

#[test]
fn an_undefined_entity_leaves_that_value_alone() {
    let input = format!(
        "{HEAD}<body><a href=\"a&nbsp;b.html\">x</a><a href=\"c.html\">y</a></body></html>"
    );
    let want = format!("{HEAD}<body><a href=\"a&nbsp;b.html\">x</a><a href=\"https://e.example/c.html\">y</a></body></html>");
    let (out, report) = run(input.as_bytes(), "https://e.example/", None);
    assert_eq!(String::from_utf8(out.unwrap()).unwrap(), want);
    assert_eq!(report.problems.len(), 1);
}

#[test]
fn legacy_encodings_are_written_back_byte_for_byte() {
    // EUC-KR: 한 is B7 A5 (lead and trail bytes above 0x80); the value is
    // decoded, rewritten and encoded back, the bytes around it copied.
    let mut input = b"<?xml version='1.0' encoding='euc-kr'?><html xmlns='http://www.w3.org/1999/xhtml'><p>\xC7\xD1</p><a href='\xC7\xD1.html'/></html>".to_vec();
    let (out, _) = run(&input, "http://e.example/", None);
    let want = b"<?xml version='1.0' encoding='euc-kr'?><html xmlns='http://www.w3.org/1999/xhtml'><p>\xC7\xD1</p><a href='http://e.example/\xC7\xD1.html'/></html>";
    assert_eq!(out.unwrap(), want.to_vec());
    // UTF-16LE with a byte order mark, in its own byte order.
    let text = "<html xmlns='http://www.w3.org/1999/xhtml'><a href='é.html'/></html>";
    input = vec![0xFF, 0xFE];
    input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let (out, _) = run(&input, "http://e.example/", None);
    let mut want = vec![0xFF, 0xFE];
    want.extend(
        text.replace("'é.html'", "'http://e.example/é.html'")
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    assert_eq!(out.unwrap(), want);
}

#[test]
fn nothing_to_change_gives_none() {
    let input = format!("{HEAD}<body><a href=\"https://x.example/\">x</a></body></html>");
    assert!(run(input.as_bytes(), "https://e.example/", None)
        .0
        .is_none());
}
