//! The feed layer (crates/linkbase/src/feed/, docs/feeds.md) through the library's entry
//! points: each expected output is written by hand from the rules (RFC 4287
//! §2 and XML Base for bases, RFC 3986 §5 for resolution).

use linkbase::{detect::detect_format, explain, rewrite, Format, Options};

fn run(input: &str, url: &str) -> (String, linkbase::Report) {
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url(url);
    options = options.with_keep_link_records(true);
    let out = rewrite(input.as_bytes(), &source, &options);
    assert_eq!(out.format, Format::Feed);
    (
        String::from_utf8(out.output.into_owned()).unwrap(),
        out.report,
    )
}

#[test]
fn identifiers_are_left_alone() {
    let input = "<rss version='2.0'><channel><item><guid>a/1</guid><guid isPermaLink='true'>a/1</guid><link>a/1</link></item></channel></rss>";
    let (out, report) = run(input, "http://h.example/f/");
    assert_eq!(out, "<rss version='2.0'><channel><item><guid>a/1</guid><guid isPermaLink='true'>a/1</guid><link>http://h.example/f/a/1</link></item></channel></rss>");
    // A relative permalink is reported (a warning: the result is complete).
    let warnings: Vec<String> = report
        .problems
        .iter()
        .map(|p| p.message.to_string())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with("<guid> `a/1` is a relative permalink: left as it is"));
    let input = "<rss><channel><item><guid isPermaLink='false'>a/1</guid><guid>http://h.example/1</guid></item></channel></rss>";
    assert!(run(input, "http://h.example/f/").1.problems.is_empty());
    let atom =
        "<feed xmlns='http://www.w3.org/2005/Atom'><id>x/1</id><entry><id>/e/1</id></entry></feed>";
    assert_eq!(run(atom, "http://h.example/f/").0, atom);
}

#[test]
fn an_element_own_xml_base_applies_to_its_attributes_and_a_text_construct_is_left() {
    // XML Base §4.2: the base of an element's attributes is its own xml:base.
    let input = "<feed xmlns='http://www.w3.org/2005/Atom'><link xml:base='a/' href='b'/><title type='text'>&lt;a href=\"t\"&gt;</title></feed>";
    let (out, _) = run(input, "http://h.example/f/feed");
    assert_eq!(out, "<feed xmlns='http://www.w3.org/2005/Atom'><link xml:base='http://h.example/f/a/' href='http://h.example/f/a/b'/><title type='text'>&lt;a href=\"t\"&gt;</title></feed>");
}

#[test]
fn same_document_references_are_resolved_in_feeds() {
    let input = "<rss><channel><item><description>&lt;a href=\"#n\"&gt;</description><comments>#c</comments></item></channel></rss>";
    let (out, _) = run(input, "http://h.example/p.html");
    assert_eq!(out, "<rss><channel><item><description>&lt;a href=\"http://h.example/p.html#n\"&gt;</description><comments>http://h.example/p.html#c</comments></item></channel></rss>");
}

#[test]
fn a_relative_xml_base_with_no_base_from_outside_leaves_what_is_under_it() {
    let input =
        "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='blog/'><link href='x'/></feed>";
    let mut options = Options::new();
    let source = linkbase::Source::new();
    options = options.with_keep_link_records(true);
    let out = rewrite(input.as_bytes(), &source, &options);
    assert_eq!(&out.output[..], input.as_bytes());
    assert_eq!(out.report.problems.len(), 1, "{:?}", out.report.problems);
}

#[test]
fn content_location_is_over_the_retrieval_url_for_a_feed() {
    let input = "<rss><channel><link>x</link></channel></rss>";
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://h.example/fetch?id=1");
    source = source.with_content_location("/feeds/rss.xml");
    let out = rewrite(input.as_bytes(), &source, &options);
    assert_eq!(
        String::from_utf8_lossy(&out.output),
        "<rss><channel><link>http://h.example/feeds/x</link></channel></rss>"
    );
    // Not for HTML: browsers ignore an HTTP Content-Location.
    let out = rewrite(b"<a href=x>", &source, &options);
    assert_eq!(&out.output[..], b"<a href=http://h.example/x>");
}

#[test]
fn utf16_feeds_are_written_back_in_utf16() {
    let text = "<rss><channel><link>é/</link></channel></rss>";
    let mut input = vec![0xFF, 0xFE];
    input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://h.example/");
    let out = rewrite(&input, &source, &options);
    let mut want = vec![0xFF, 0xFE];
    want.extend(
        "<rss><channel><link>http://h.example/é/</link></channel></rss>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    assert_eq!(out.output.into_owned(), want);
}

#[test]
fn detection_by_root_element_name_and_forced_format() {
    let rdf = b"<?xml version='1.0'?><!-- c --><?xml-stylesheet href='s.xsl'?><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'/>";
    assert_eq!(detect_format(rdf, None), Format::Feed);
    assert_eq!(detect_format(rdf, Some("x.html")), Format::Feed);
    assert_eq!(detect_format(b"<feed/>", None), Format::Html);
    let atom03 = b"<feed version='0.3' xmlns='http://purl.org/atom/ns#'/>";
    assert_eq!(detect_format(atom03, None), Format::Feed);
    assert_eq!(detect_format(b"<rss/>", Some("x.css")), Format::Css);
    assert_eq!(Format::from_name("a.RSS"), Some(Format::Feed));
    assert_eq!(
        Format::from_media_type("application/atom+xml; charset=utf-8"),
        Some(Format::Feed)
    );
    assert!(Format::is_xml_media_type("text/xml"));
    assert!(Format::is_xml_media_type("application/rdf+xml"));
    assert!(!Format::is_xml_media_type("application/xhtml+xml"));
    // Forced on a document that is no feed: reported, left as it is.
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(Format::Feed);
    let out = rewrite(b"<html><a href='x'/></html>", &source, &options);
    assert_eq!(&out.output[..], b"<html><a href='x'/></html>");
    let problem = out.report.problems[0].message.to_string();
    assert!(problem.contains("is not a feed's"), "{problem}");
}

#[test]
fn explain_shows_the_chain_of_bases_for_each_link() {
    let input = "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://e.example/blog/'>\n<entry xml:base='2026/'>\n<link href='p.html'/></entry></feed>";
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://e.example/feed");
    let found = explain(
        input.as_bytes(),
        &source.clone().with_name("f.atom"),
        &options,
    );
    let parts: Vec<_> = found
        .parts
        .iter()
        .map(|p| {
            (
                p.depth,
                p.path.as_str(),
                p.base.as_deref(),
                p.note.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            (0, "f.atom", Some("http://e.example/blog/"), None),
            (
                1,
                "line 3 <link href=\"p.html\">",
                Some("http://e.example/blog/2026/"),
                Some("xml:base of <entry> line 2 = http://e.example/blog/2026/ <- xml:base of <feed> line 1 = http://e.example/blog/ <- from outside: http://e.example/feed (5.3 retrieval URL (Source::url))")
            ),
        ]
    );
}
