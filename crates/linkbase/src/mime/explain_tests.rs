//! The base and rule `explain` gives a part, by its heading and its
//! enclosing multipart's (moved here from `tests/fixtures/mime.rs`: it reads the
//! explanation's lines, which are internal).

/// Each case: a part's heading inside a multipart/related whose own heading
/// is `outer`; the part's base and rule as `linkbase explain` reports them.
#[test]
fn heading_bases() {
    use super::explain::explain_message;
    use crate::base::BaseRule::{self, *};
    use crate::options::Options;
    use crate::report::{Location, Report};
    use crate::resolve::Profile;
    /// (name, outer heading, part heading, profile, expected base and rule)
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        Profile,
        Option<(&'static str, BaseRule)>,
    );
    let cases: [Case; 10] = [
        (
            "Content-Base",
            "",
            "Content-Base: http://a.example/x/",
            Profile::Rfc3986,
            Some(("http://a.example/x/", ContentBase)),
        ),
        (
            "Content-Base beats Content-Location",
            "",
            "Content-Location: http://l.example/p.html\nContent-Base: http://b.example/",
            Profile::Rfc3986,
            Some(("http://b.example/", ContentBase)),
        ),
        (
            "Content-Base wins over a relative Content-Location",
            "Content-Base: http://outer.example/",
            "Content-Base: http://b.example/d/\nContent-Location: e/f.html",
            Profile::Rfc3986,
            Some(("http://b.example/d/", ContentBase)),
        ),
        (
            "relative Content-Location against the enclosing base",
            "Content-Location: http://outer.example/dir/",
            "Content-Location: sub/p.html",
            Profile::Rfc3986,
            Some(("http://outer.example/dir/sub/p.html", ContentLocation)),
        ),
        (
            "legacy Base:",
            "",
            "Base: http://legacy.example/a/",
            Profile::Rfc3986,
            Some(("http://legacy.example/a/", LegacyBaseHeader)),
        ),
        (
            "legacy Base-URL: with URL: prefix",
            "",
            "Base-URL: <URL:http://legacy.example/b/>",
            Profile::Rfc3986,
            Some(("http://legacy.example/b/", LegacyBaseHeader)),
        ),
        (
            "Content-Location beats legacy Base:",
            "",
            "Base: http://legacy.example/\nContent-Location: http://l.example/",
            Profile::Rfc3986,
            Some(("http://l.example/", ContentLocation)),
        ),
        (
            "inherited",
            "Content-Base: http://outer.example/o/",
            "Content-Type: text/plain",
            Profile::Rfc3986,
            Some(("http://outer.example/o/", Enclosing)),
        ),
        (
            "http:g stays absolute under rfc3986",
            "Content-Location: http://outer.example/a/b",
            "Content-Location: http:images/g.gif",
            Profile::Rfc3986,
            Some(("http:images/g.gif", ContentLocation)),
        ),
        (
            "http:g stays absolute under rfc1808 too (its §5.2 table)",
            "Content-Location: http://outer.example/a/b",
            "Content-Location: http:images/g.gif",
            Profile::Rfc1808,
            Some(("http:images/g.gif", ContentLocation)),
        ),
    ];
    for (name, outer, heading, profile, expected) in cases {
        let outer = if outer.is_empty() {
            String::new()
        } else {
            format!("{outer}\n")
        };
        let m = format!(
            "{outer}Content-Type: multipart/related; boundary=b\n\n--b\n{heading}\n\npart\n--b--\n"
        );
        let options = Options::new().with_profile(profile);
        let mut report = Report::new(false);
        let location = Location::default();
        let ctx = crate::context::DocumentContext::new(&options, &location);
        let lines = explain_message(m.as_bytes(), &ctx, &mut report);
        let part = &lines[1];
        let got = part.base.as_deref().zip(part.rule);
        assert_eq!(got, expected, "{name}");
    }
}
