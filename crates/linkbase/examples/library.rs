//! linkbase as a library: rewrite a page held in memory and read the report,
//! then resolve references against a pre-parsed base.
//!
//! `cargo run --example library` prints what it does; `cargo test` runs it
//! too (the `#[test]` at the end), and every `assert` in it is a check. It
//! needs only the library: `cargo run -p linkbase --example library` (the
//! library's crate has none of the command line's crates).
//!
//! The expected URLs are those of the specifications, not linkbase's own
//! output: RFC 3986 §5.4 (normal and abnormal examples, base
//! `http://a/b/c/d;p?q`) and RFC 1808 §5.2 (base `http://a/b/c/d;p?q#f`).

use linkbase::{
    base::BaseRule, report::Outcome, report::Severity, rewrite, Base, Format, Options, Profile,
    Source,
};

/// A page as a crawler might hold it, with the URL it was fetched from.
const PAGE: &str = r##"<!DOCTYPE html>
<title>Guide</title>
<a href="../intro.html">Intro</a>
<img src="img/logo.png" alt="">
<a href="#top">Top</a>
<a href="mailto:team@example.org">Mail us</a>
"##;
const PAGE_URL: &str = "https://example.org/docs/guide/page.html";

fn main() {
    rewrite_a_page();
    resolve_with_a_base();
    println!("all checks passed");
}

/// One call rewrites the page; the report says what happened to each link.
fn rewrite_a_page() {
    // The run's settings: one LinkRecord per link, as well as counts.
    let options = Options::new().with_keep_link_records(true);
    // What is known about this input: its name and where it came from.
    let source = Source::new().with_name("page.html").with_url(PAGE_URL);
    let out = rewrite(PAGE.as_bytes(), &source, &options);

    assert_eq!(out.format, Format::Html);
    // Only the two relative values change; every other byte stays.
    let want = PAGE
        .replace("../intro.html", "https://example.org/docs/intro.html")
        .replace(
            "img/logo.png",
            "https://example.org/docs/guide/img/logo.png",
        );
    assert_eq!(std::str::from_utf8(&out.output).unwrap(), want);

    let report = &out.report;
    assert!(report.problems.is_empty() && !report.has_errors());
    // `#top` (same document) and `mailto:` (absolute) are left alone.
    assert_eq!((report.counts.rewritten, report.counts.left), (2, 2));
    for link in &report.links {
        println!(
            "<{} {}> {:?} -> {:?}: {}",
            link.element,
            link.attribute,
            link.before,
            link.after.as_deref().unwrap_or(&link.before),
            link.outcome.name()
        );
    }
    let logo = report.links.iter().find(|l| l.element == "img").unwrap();
    assert_eq!(logo.outcome, Outcome::Rewritten);
    assert_eq!(logo.rule, Some(BaseRule::Retrieval));
    assert_eq!(logo.base.as_deref(), Some(PAGE_URL));

    // A `<base href>` in the page outranks the retrieval URL (rule 5.1).
    let with_base = r#"<base href="https://cdn.example.net/v2/"><img src="logo.png">"#;
    let out = rewrite(
        with_base.as_bytes(),
        &Source::new().with_url(PAGE_URL),
        &options,
    );
    assert_eq!(
        std::str::from_utf8(&out.output).unwrap(),
        r#"<base href="https://cdn.example.net/v2/"><img src="https://cdn.example.net/v2/logo.png">"#
    );
    let logo = out
        .report
        .links
        .iter()
        .find(|l| l.element == "img")
        .unwrap();
    assert_eq!(logo.rule, Some(BaseRule::Embedded));

    // Without any base (rule 5.4) relative links are left as they are, and
    // counted; the input comes back borrowed, unchanged.
    let page = Source::new().with_name("page.html");
    let out = rewrite(PAGE.as_bytes(), &page, &Options::new());
    assert!(matches!(out.output, std::borrow::Cow::Borrowed(_)));
    assert_eq!(out.report.counts.no_base, 2);
    assert_eq!(out.report.without_base[0].count, 2);

    // A retrieval URL that is not absolute is a problem in the report, not
    // a panic or an `Err`: the page is left as it is.
    let relative = page.with_url("docs/guide/page.html");
    let out = rewrite(PAGE.as_bytes(), &relative, &options);
    assert!(out.report.has_errors());
    let problem = &out.report.problems[0];
    assert_eq!(problem.severity, Severity::Error);
    println!("{}", problem.one_line());
}

/// Parse a base once, resolve many references against it.
fn resolve_with_a_base() {
    let base = Base::parse("http://a/b/c/d;p?q", Profile::Rfc3986).unwrap();
    // RFC 3986 §5.4.1 and §5.4.2.
    for (reference, want) in [
        ("g", "http://a/b/c/g"),
        ("../g", "http://a/b/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("../../../g", "http://a/g"),
        ("g:h", "g:h"),
    ] {
        let resolved = base.resolve(reference).unwrap();
        assert_eq!(resolved.url, want, "{reference}");
        println!("{reference:>12} -> {}", resolved.url);
    }
    assert!(base.resolve("#s").unwrap().same_document);

    // The profiles differ where the specifications do: RFC 1808 §5.2 keeps
    // the `..` that would climb above the root.
    let rfc1808 = Base::parse("http://a/b/c/d;p?q#f", Profile::Rfc1808).unwrap();
    assert_eq!(rfc1808.resolve("../../../g").unwrap().url, "http://a/../g");

    // A base must be absolute.
    assert!(Base::parse("b/c/d", Profile::Rfc3986).is_err());
}

#[test]
fn the_example_runs_and_its_checks_hold() {
    main();
}
