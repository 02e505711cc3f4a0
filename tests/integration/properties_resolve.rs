//! Properties of the resolver (proptest), and linear time on hostile input.

use linkbase::fuzzing::resolve::has_scheme;
use linkbase::{resolve::Agreement, Base, Profile};
use proptest::prelude::*;
use std::borrow::Cow;

const RFC_PROFILES: [Profile; 4] = [
    Profile::Rfc3986,
    Profile::UrlSyntax01,
    Profile::Rfc1808,
    Profile::RelativeUrl01,
];

/// A path segment without dot segments, from a URL-ish alphabet.
fn plain_segment() -> impl Strategy<Value = String> {
    "[a-z0-9;=%_~-]{0,4}".prop_filter("not a dot segment", |s| s != "." && s != "..")
}

/// Any segment, dot segments (and near misses) included.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => plain_segment(),
        2 => Just(".".to_string()),
        2 => Just("..".to_string()),
        1 => Just("...".to_string()),
        1 => Just(".g".to_string()),
    ]
}

/// A hierarchical base whose path has no dot segments.
fn base() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("http"), Just("https"), Just("ftp"), Just("file")],
        prop::option::of("[a-z][a-z0-9-]{0,5}(:[0-9]{1,4})?"),
        prop::collection::vec(plain_segment(), 0..5),
        prop::option::of("[a-z0-9=&/?;.]{0,5}"),
        prop::option::of("[a-z0-9/?#.]{0,4}"),
    )
        .prop_map(|(scheme, authority, segments, query, fragment)| {
            let mut s = format!("{scheme}:");
            if let Some(a) = authority {
                s.push_str("//");
                s.push_str(&a);
            }
            s.push('/');
            s.push_str(&segments.join("/"));
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

/// A relative reference: optional `//authority` or `/`, segments, query, fragment.
fn relative_reference() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(""), Just("/"), Just("//h")],
        prop::collection::vec(segment(), 0..8),
        prop::option::of("[a-z0-9=&/.;?]{0,5}"),
        prop::option::of("[a-z0-9/?#.]{0,4}"),
    )
        .prop_map(|(lead, segments, query, fragment)| {
            let mut s = String::from(lead);
            if lead == "//h" && !segments.is_empty() {
                s.push('/');
            }
            s.push_str(&segments.join("/"));
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
        .prop_filter("relative", |s| !has_scheme(s))
}

/// Length of `scheme:` plus `//authority` of an absolute URL.
fn origin_len(url: &str) -> usize {
    let scheme_end = url.find(':').map_or(0, |i| i + 1);
    match url[scheme_end..].strip_prefix("//") {
        Some(r) => scheme_end + 2 + r.find(['/', '?', '#']).unwrap_or(r.len()),
        None => scheme_end,
    }
}

/// The path of an absolute URL (RFC 3986 Appendix B).
fn path_of(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    let rest = &url[url.find(':').map_or(0, |i| i + 1)..end];
    match rest.strip_prefix("//") {
        Some(r) => &r[r.find('/').unwrap_or(r.len())..],
        None => rest,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn absolute_reference_is_returned_unchanged_in_the_older_profiles(
        base in base(),
        scheme in "[a-zA-Z][a-zA-Z0-9+.-]{0,6}",
        rest in "\\PC{0,20}",
    ) {
        let reference = format!("{scheme}:{rest}");
        for profile in RFC_PROFILES.into_iter().filter(|&p| p != Profile::Rfc3986) {
            let parsed = Base::parse(&base, profile).unwrap();
            let got = parsed.resolve(&reference).unwrap();
            prop_assert!(matches!(got.url, Cow::Borrowed(s) if s == reference), "{profile}");
            prop_assert!(!got.same_document);
        }
    }

    #[test]
    fn rfc3986_changes_only_the_dot_segments_of_an_absolute_reference(
        base in base(),
        scheme in "[a-zA-Z][a-zA-Z0-9+.-]{0,6}",
        authority in prop::option::of("[a-z0-9.]{0,5}"),
        segments in prop::collection::vec(segment(), 0..6),
        rooted in any::<bool>(),
        tail in prop::option::of("[?#][a-z0-9/?#.]{0,6}"),
    ) {
        // RFC 3986 §5.2.2: T.path = remove_dot_segments(R.path); the
        // scheme, authority, query and fragment as written.
        let mut head = format!("{scheme}:");
        if let Some(a) = &authority {
            head.push_str("//");
            head.push_str(a);
        }
        let mut path = segments.join("/");
        if rooted || (authority.is_some() && !path.is_empty()) {
            path.insert(0, '/');
        }
        // Without an authority a path cannot start with `//` (it would be one).
        prop_assume!(authority.is_some() || !path.starts_with("//"));
        let tail = tail.unwrap_or_default();
        let reference = format!("{head}{path}{tail}");
        let parsed = Base::parse(&base, Profile::Rfc3986).unwrap();
        let got = parsed.resolve(&reference).unwrap();
        prop_assert!(!got.same_document);
        let dots = path.split('/').any(|s| s == "." || s == "..");
        if !dots {
            prop_assert!(matches!(got.url, Cow::Borrowed(s) if s == reference), "{reference}");
        } else {
            let url = &got.url;
            prop_assert!(url.starts_with(&head) && url.ends_with(&tail), "{reference} -> {url}");
            let new_path = &url[head.len()..url.len() - tail.len()];
            // The one dot segment written on purpose: `/.//` (or `./` in
            // a rootless path) keeps a path from reading as an authority.
            let checked = new_path
                .strip_prefix("/./")
                .or_else(|| new_path.strip_prefix("./"))
                .filter(|p| p.starts_with('/'))
                .unwrap_or(new_path);
            for seg in checked.split('/') {
                prop_assert!(seg != "." && seg != "..", "{reference} -> {url}");
            }
            // Rooted stays rooted, rootless stays rootless.
            prop_assert_eq!(new_path.starts_with('/'), path.starts_with('/'), "{} -> {}", reference, url);
        }
    }

    #[test]
    fn rfc3986_results_are_absolute_without_dot_segments(base in base(), reference in relative_reference()) {
        let parsed = Base::parse(&base, Profile::Rfc3986).unwrap();
        let url = parsed.resolve(&reference).unwrap().url;
        prop_assert!(has_scheme(&url), "{url} is not absolute");
        let path = path_of(&url);
        // The one dot segment we write on purpose: `/.//` keeps a path that
        // starts with `//` from reading as an authority.
        let checked = path.strip_prefix("/./").filter(|p| p.starts_with('/')).unwrap_or(path);
        for seg in checked.split('/') {
            prop_assert!(seg != "." && seg != "..", "{url}: dot segment in {path}");
        }
    }

    #[test]
    fn resolving_the_result_again_gives_the_result(base in base(), reference in relative_reference()) {
        for profile in Profile::ALL {
            // The URL Standard rejects some of these bases (`http:/`: no host).
            let Ok(parsed) = Base::parse(&base, profile) else {
                prop_assert_eq!(profile, Profile::Whatwg);
                continue;
            };
            let Ok(first) = parsed.resolve(&reference) else { continue };
            let again = parsed.resolve(&first.url).unwrap();
            prop_assert_eq!(&again.url, &first.url, "{}", profile);
        }
    }

    #[test]
    fn rfc3986_results_are_stable_as_absolute_path_references(base in base(), reference in relative_reference()) {
        // Not only is the absolute result returned unchanged: its
        // absolute-path form (`/path?query#fragment`) resolves to it again,
        // so dot-segment removal is idempotent.
        let parsed = Base::parse(&base, Profile::Rfc3986).unwrap();
        let url = parsed.resolve(&reference).unwrap().url.into_owned();
        let path_start = origin_len(&url);
        let tail = &url[path_start..];
        prop_assume!(tail.starts_with('/') && !tail.starts_with("//"));
        prop_assume!(url[..path_start] == base[..origin_len(&base)]);
        let again = parsed.resolve(tail).unwrap().url;
        prop_assert_eq!(again.as_ref(), url.as_str());
    }

    #[test]
    fn rfc3986_agrees_with_the_url_standard_on_plain_input(
        segments in prop::collection::vec(plain_segment(), 1..5),
        reference in relative_reference(),
    ) {
        // Inputs where the two specifications agree: a special scheme with a
        // host and a path, no `%` (the URL Standard decodes `%2e`), no `//`
        // reference (it adds a `/` path), no empty segments at the root.
        prop_assume!(!reference.starts_with("//") && !reference.contains('%'));
        let base = format!("http://h/{}", segments.join("/")).replace('%', "");
        let ours = Base::parse(&base, Profile::Rfc3986).unwrap().resolve(&reference).unwrap().url.into_owned();
        let theirs = url::Url::parse(&base).unwrap().join(&reference).unwrap();
        prop_assume!(!theirs.path().starts_with("//"));
        prop_assert_eq!(ours, theirs.as_str());
    }

    /// The rewriter's fast path (`linkbase::fuzzing::resolve::is_plain_reference`):
    /// against an `http:`/`https:` base in the URL Standard's serialized form,
    /// a plain reference's RFC 3986 result, read by a browser, is what the
    /// browser reads from the reference — so the policy need not parse it.
    #[test]
    fn plain_references_need_no_browser_check(
        scheme in prop_oneof![Just("http"), Just("https")],
        segments in prop::collection::vec("([a-z0-9;=_~:@!$&'()*+,-][a-z0-9;=_~.:@!$&'()*+,-]{0,3})?", 0..5),
        query in prop::option::of("[a-z0-9=&/?;.]{0,5}"),
        reference in prop::collection::vec(
            prop_oneof![
                4 => "[a-zA-Z0-9./?#;=:@!$&'()*+,_~-]",
                1 => "%[0-9a-fA-F]{2}",
                1 => Just("../".to_string()),
            ],
            1..12,
        ).prop_map(|tokens| tokens.concat()),
    ) {
        let mut base = format!("{scheme}://h/{}", segments.join("/"));
        if let Some(q) = query {
            base.push('?');
            base.push_str(&q);
        }
        let whatwg = url::Url::parse(&base).unwrap();
        prop_assume!(whatwg.as_str() == base);
        prop_assume!(linkbase::fuzzing::resolve::is_plain_reference(&reference));
        // The `url` crate keeps a drive-letter-like segment (`a:`) before
        // `..` in any scheme (docs/resolver.md; the whatwg profile refuses
        // such input): compare with it only elsewhere.
        let drive_letter = |s: &str| matches!(s.as_bytes(), [l, b':'] if l.is_ascii_alphabetic());
        prop_assume!(!base.split(['/', '?']).chain(reference.split(['/', '?', '#'])).any(drive_letter));
        let parsed = Base::parse(&base, Profile::Rfc3986).unwrap();
        let ours = parsed.resolve(&reference).unwrap().url.into_owned();
        let browser = whatwg.join(&reference).unwrap();
        let read_back = url::Url::parse(&ours).unwrap();
        prop_assert_eq!(read_back.as_str(), browser.as_str(), "{} + {}", base, reference);
        prop_assert_eq!(parsed.browser_agreement(&reference, &ours), Agreement::Same);
    }

    #[test]
    fn no_input_panics(base in "\\PC{0,24}|[a-z]{1,5}:[/?#.;a-z]{0,12}", reference in "\\PC{0,24}|[/?#.;a-z]{0,16}") {
        for profile in Profile::ALL {
            if let Ok(parsed) = Base::parse(&base, profile) {
                let _ = parsed.resolve(&reference);
                let _ = parsed.is_hierarchical();
            }
        }
    }

    #[test]
    fn no_byte_soup_panics(base in any::<Vec<u8>>(), reference in any::<Vec<u8>>()) {
        let (base, reference) = (String::from_utf8_lossy(&base), String::from_utf8_lossy(&reference));
        for profile in Profile::ALL {
            if let Ok(parsed) = Base::parse(&base, profile) {
                let _ = parsed.resolve(&reference);
            }
        }
    }
}

/// A million `../` and a million `a/` resolve: segment handling is linear.
/// (Completion is the assertion; no wall time is measured.)
#[test]
fn a_million_segments_resolve() {
    let up = format!("{}g", "../".repeat(1_000_000));
    let down = format!("{}g", "a/".repeat(1_000_000));
    let mixed = "a/../".repeat(500_000) + "./g";
    for profile in Profile::ALL {
        let base = Base::parse("http://h/b/c/d", profile).unwrap();
        let got = base.resolve(&up).unwrap().url;
        match profile {
            Profile::Rfc3986 | Profile::Whatwg => assert_eq!(got, "http://h/g", "{profile}"),
            // The older profiles keep unmatched `..`.
            _ => assert_eq!(
                got.len(),
                "http://h/".len() + 3 * (1_000_000 - 2) + 1,
                "{profile}"
            ),
        }
        let got = base.resolve(&down).unwrap().url;
        assert_eq!(got.len(), "http://h/b/c/".len() + down.len(), "{profile}");
        assert_eq!(
            base.resolve(&mixed).unwrap().url,
            "http://h/b/c/g",
            "{profile}"
        );
    }
}
