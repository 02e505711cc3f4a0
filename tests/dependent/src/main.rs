//! A dependent of linkbase, built outside its workspace (tests/dependent/run.sh).
//! Every expected URL is RFC 3986's (§5.4.1, base `http://a/b/c/d;p?q`) or
//! follows from it by hand; none is linkbase's own output.

use html5ever::tendril::TendrilSink;
use linkbase::{check_base, rewrite, Encoding, Options, Profile, Source};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

const PAGE: &str = r##"<!DOCTYPE html><base href="http://a/b/c/d;p?q">
<a href="g">g</a> <img src="../g" srcset="g 1x, ./g/ 2x"> <a href="#s">s</a>
<p style="background: url(g?y)">"##;

fn main() {
    // The one-call API, bytes in and bytes out.
    let page = Source::new().with_name("page.html");
    let out = rewrite(PAGE.as_bytes(), &page, &Options::new());
    let want = PAGE
        .replace(r#"href="g""#, r#"href="http://a/b/c/g""#)
        .replace(r#"src="../g""#, r#"src="http://a/b/g""#)
        .replace("g 1x, ./g/ 2x", "http://a/b/c/g 1x, http://a/b/c/g/ 2x")
        .replace("url(g?y)", "url(http://a/b/c/g?y)");
    assert_eq!(std::str::from_utf8(&out.output).unwrap(), want);
    assert_eq!(out.report.counts.rewritten, 5, "{:?}", out.report.counts);
    assert!(!out.report.has_errors());

    // What is known about an input goes with it: the retrieval URL is the
    // base (rule 5.3), a transport charset by its label (the re-exported
    // `encoding_rs::Encoding`) says how its bytes read.
    let latin1 = Encoding::for_label(b"latin1").unwrap();
    let source = Source::new()
        .with_url("http://a/b/c/d;p?q")
        .with_charset(latin1);
    let out = rewrite(b"<a href=\"g\">\xe9</a>", &source, &Options::new());
    assert_eq!(&out.output[..], b"<a href=\"http://a/b/c/g\">\xe9</a>");
    let options = Options::new()
        .with_absolutize_fragments(true)
        .with_profile(Profile::Rfc3986);
    let out = rewrite(b"<a href=\"#s\">", &source, &options);
    assert_eq!(&out.output[..], b"<a href=\"http://a/b/c/d;p?q#s\">");

    // An unusable base is an error a `?` can carry.
    let err: Box<dyn std::error::Error> =
        Box::new(check_base("mailto:x@y", Profile::Rfc3986).unwrap_err());
    assert!(err.to_string().contains("mailto:x@y"), "{err}");

    // The tree entry point on an RcDom parsed by the crates.io html5ever:
    // linkbase's own html5ever is a different crate, and both meet in
    // markup5ever's TreeSink.
    let dom = html5ever::parse_document(RcDom::default(), Default::default())
        .one(r#"<a href="../g">x</a>"#);
    let report =
        linkbase::html::absolutize_rcdom(&dom, Some("http://a/b/c/d;p?q"), &Options::new());
    assert!(!report.has_errors());
    assert_eq!(hrefs(&dom.document), ["http://a/b/g"]);
    println!("linkbase-dependent: all checks passed");
}

/// Every `href` in the tree, in document order.
fn hrefs(node: &Handle) -> Vec<String> {
    let mut found = Vec::new();
    if let NodeData::Element { attrs, .. } = &node.data {
        for attr in attrs.borrow().iter() {
            if &*attr.name.local == "href" {
                found.push(attr.value.to_string());
            }
        }
    }
    for child in node.children.borrow().iter() {
        found.extend(hrefs(child));
    }
    found
}
