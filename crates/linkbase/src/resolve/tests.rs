//! The design decisions of docs/resolver.md, one test each.

use super::*;

fn r(base: &str, reference: &str, profile: Profile) -> Result<String, ResolveError> {
    resolve(base, reference, profile)
}

#[test]
fn absolute_references_come_back_borrowed_in_the_older_rfc_profiles() {
    for profile in [
        Profile::UrlSyntax01,
        Profile::Rfc1808,
        Profile::RelativeUrl01,
    ] {
        let base = Base::parse("http://a/b/c/d;p?q", profile).unwrap();
        let reference = "HTTP://A/./b/../%7e?Q#F";
        let got = base.resolve(reference).unwrap();
        assert!(
            matches!(got.url, Cow::Borrowed(s) if std::ptr::eq(s, reference)),
            "{profile}"
        );
        assert!(!got.same_document);
    }
}

#[test]
fn rfc3986_removes_the_dot_segments_of_an_absolute_reference() {
    // RFC 3986 §5.2.2: if R.scheme is defined, T.path =
    // remove_dot_segments(R.path); scheme, authority, query and fragment as
    // written (no case folding, no percent-decoding: decision 3).
    let cases = [
        ("HTTP://A/./b/../%7e?Q#F", "HTTP://A/%7e?Q#F"),
        ("foo:.", "foo:"),
        ("foo:..", "foo:"),
        ("foo:a/..", "foo:"),
        ("foo:.?x", "foo:?x"),
        ("foo:a/..#f/.", "foo:#f/."),
        ("foo:a/./b/../c", "foo:a/c"),
        // Rootless stays rootless (decision 6); `//` without an authority
        // gets its dot segment back (decision 7).
        ("foo:a/../../c", "foo:c"),
        ("foo:a/..//g", "foo:.//g"),
        ("foo:/a/..//g", "foo:/.//g"),
        ("http://h/a/../..//g?x/../y#z/..", "http://h//g?x/../y#z/.."),
        ("mailto:x@y", "mailto:x@y"),
    ];
    let base = Base::parse("http://a/b/c/d;p?q", Profile::Rfc3986).unwrap();
    for (reference, want) in cases {
        let got = base.resolve(reference).unwrap();
        assert_eq!(got.url, want, "{reference}");
        assert!(!got.same_document);
    }
    // No dot segment: borrowed, not copied.
    let reference = "g:h/.x/y..";
    let got = base.resolve(reference).unwrap();
    assert!(matches!(got.url, Cow::Borrowed(s) if std::ptr::eq(s, reference)));
}

#[test]
fn same_document_references_are_flagged() {
    for profile in Profile::ALL {
        let base = Base::parse("http://a/b/c/d?q#f", profile).unwrap();
        let frag = base.resolve("#s").unwrap();
        assert!(frag.same_document, "{profile}");
        assert_eq!(frag.url, "http://a/b/c/d?q#s", "{profile}");
        assert!(base.resolve("").unwrap().same_document, "{profile}");
        assert!(!base.resolve("g#s").unwrap().same_document, "{profile}");
    }
    // RFC 1808 keeps the base fragment for the empty reference; the others drop it.
    assert_eq!(
        r("http://a/b?q#f", "", Profile::Rfc1808).unwrap(),
        "http://a/b?q#f"
    );
    assert_eq!(
        r("http://a/b?q#f", "", Profile::Rfc3986).unwrap(),
        "http://a/b?q"
    );
}

#[test]
fn non_hierarchical_bases_refuse_relative_references_except_under_rfc3986() {
    for base in [
        "mailto:x@example.org",
        "data:text/html,<p>x</p>",
        "about:blank",
        "urn:isbn:0451450523",
        "foo:a/b",
    ] {
        for profile in Profile::ALL {
            let Ok(parsed) = Base::parse(base, profile) else {
                continue;
            };
            assert!(!parsed.is_hierarchical(), "{base} {profile}");
            if profile == Profile::Rfc3986 {
                // RFC 3986 §5.2 has an answer for every base (the rows of
                // fixtures/resolve/rfc3986-every-base.tsv check the values).
                assert!(parsed.resolve("g").is_ok(), "{base} {profile}");
            } else {
                let err = parsed.resolve("g").unwrap_err();
                assert!(
                    matches!(
                        err,
                        ResolveError::BaseNotHierarchical(_) | ResolveError::Invalid(_)
                    ),
                    "{base} {profile}"
                );
            }
            if profile == Profile::RelativeUrl01 && base.starts_with("mailto:") {
                // mailto is not in Uses-Fragment: `#s` is a relative path.
                assert!(parsed.resolve("#s").is_err(), "{base} {profile}");
            } else {
                assert!(
                    parsed.resolve("#s").unwrap().same_document,
                    "{base} {profile}"
                );
            }
            assert!(parsed.resolve("https://x/").is_ok(), "{base} {profile}");
        }
    }
    assert_eq!(r("mailto:x", "g", Profile::Rfc3986).unwrap(), "mailto:g");
    let err = r("mailto:x", "g", Profile::Rfc1808).unwrap_err();
    assert_eq!(
        err.to_string(),
        "base `mailto:x` is not hierarchical; relative references cannot be resolved against it"
    );
}

#[test]
fn a_base_without_scheme_is_an_error() {
    for profile in Profile::ALL {
        assert!(Base::parse("/just/a/path", profile).is_err(), "{profile}");
    }
    assert_eq!(
        r("/just/a/path", "g", Profile::Rfc3986),
        Err(ResolveError::Base(BaseError::NotAbsolute(
            "/just/a/path".into()
        )))
    );
}

#[test]
fn rootless_bases_of_hierarchical_schemes_give_rootless_results() {
    assert_eq!(
        r("file:docs/a/b.html", "../c.html", Profile::Rfc3986).unwrap(),
        "file:docs/c.html"
    );
    // RFC 3986 §5.2.4 literally would give `file:/c.html`.
    assert_eq!(
        r("file:docs/b.html", "../../c.html", Profile::Rfc3986).unwrap(),
        "file:c.html"
    );
    assert_eq!(
        r("file:a/b", "..//g", Profile::Rfc3986).unwrap(),
        "file:.//g"
    );
}

#[test]
fn a_path_starting_with_two_slashes_gets_a_dot_segment_without_authority() {
    assert_eq!(
        r("file:/a/b", "..//g", Profile::Rfc3986).unwrap(),
        "file:/.//g"
    );
    assert_eq!(
        r("file:/a/b", "/.//g", Profile::Rfc3986).unwrap(),
        "file:/.//g"
    );
    // With an authority the path can start with `//`.
    assert_eq!(
        r("http://h/a/b", "..//g", Profile::Rfc3986).unwrap(),
        "http://h//g"
    );
}

#[test]
fn minimal_change() {
    assert_eq!(
        r("HTTP://A/%7Eb/C", "D%2f?%41#%42", Profile::Rfc3986).unwrap(),
        "HTTP://A/%7Eb/D%2f?%41#%42"
    );
    assert_eq!(
        r("http://a/b", "ü/ñ?é", Profile::Rfc3986).unwrap(),
        "http://a/ü/ñ?é"
    );
}

#[test]
fn base_dot_segments_are_removed_when_merging() {
    assert_eq!(
        r("http://a/b/./c/../d/e", "g", Profile::Rfc3986).unwrap(),
        "http://a/b/d/g"
    );
    // … but not when the base path is used as it is.
    assert_eq!(
        r("http://a/b/./c", "?y", Profile::Rfc3986).unwrap(),
        "http://a/b/./c?y"
    );
}

#[test]
fn relative_url_01_scheme_categories() {
    let p = Profile::RelativeUrl01;
    // ftp is not in Uses-Query: `?y` is a relative path.
    assert_eq!(r("ftp://a/b/c/d", "?y", p).unwrap(), "ftp://a/b/c/?y");
    // Uses-Params: parameters and query are inherited independently.
    assert_eq!(
        r("http://a/b/c/d;p?q", ";x", p).unwrap(),
        "http://a/b/c/d;x?q"
    );
    assert_eq!(
        r("http://a/b/c/d;p?q", ";x", Profile::Rfc1808).unwrap(),
        "http://a/b/c/d;x"
    );
    // The fragment starts at the last `#`.
    assert_eq!(
        r("http://a/b/c/d", "g#x#y", p).unwrap(),
        "http://a/b/c/g#x#y"
    );
    // Non-Hierarchical (gopher): `..` is an ordinary segment.
    assert_eq!(
        r("gopher://h/1/a/b", "../g", p).unwrap(),
        "gopher://h/1/a/../g"
    );
    // https postdates the draft and gets http's categories.
    assert_eq!(
        r("https://a/b/c/d;p?q", "../g", p).unwrap(),
        "https://a/b/g"
    );
}

#[test]
fn url_syntax_01_reads_the_query_as_path_when_merging() {
    let p = Profile::UrlSyntax01;
    assert_eq!(
        r("http://a/b/c/d;p?q", "?page=2", p).unwrap(),
        "http://a/b/c/?page=2"
    );
    assert_eq!(
        r("http://a/b/c/d;p?q", "g?y/../x", p).unwrap(),
        "http://a/b/c/x"
    );
}

#[test]
fn legacy_profiles_let_an_empty_authority_inherit_the_base() {
    for p in [
        Profile::Rfc1808,
        Profile::UrlSyntax01,
        Profile::RelativeUrl01,
    ] {
        assert_eq!(r("http://a/b/c/d", "///g", p).unwrap(), "http://a/g", "{p}");
    }
    assert_eq!(
        r("http://a/b/c/d", "///g", Profile::Rfc3986).unwrap(),
        "http:///g"
    );
}

#[test]
fn whatwg_uses_the_document_encoding_for_queries() {
    let base = Base::parse("http://a/b", Profile::Whatwg)
        .unwrap()
        .with_query_encoding(encoding_rs::WINDOWS_1252);
    assert_eq!(base.resolve("c?é").unwrap().url, "http://a/c?%E9");
    // A character windows-1252 cannot hold: `&#N;`, percent-encoded whole
    // (URL Standard "percent-encode after encoding"; Chromium agrees).
    assert_eq!(
        base.resolve("c?é日&x").unwrap().url,
        "http://a/c?%E9%26%2326085%3B&x"
    );
    let utf8 = Base::parse("http://a/b", Profile::Whatwg).unwrap();
    assert_eq!(utf8.resolve("c?é").unwrap().url, "http://a/c?%C3%A9");
}
