//! The examples that were doc-tests of layers now private (their doc-tests
//! can no longer name them): the same calls and assertions, as unit tests.

#[test]
fn rewrite_srcset_example() {
    use crate::html::srcset::rewrite_srcset;
    let out = rewrite_srcset("a.png 1x, data:image/png;base64,AA 2x", &mut |u| {
        (!u.starts_with("data:")).then(|| format!("http://x/{u}"))
    });
    assert_eq!(
        out.as_deref(),
        Some("http://x/a.png 1x, data:image/png;base64,AA 2x")
    );
}

#[test]
fn rewrite_refresh_example() {
    use crate::html::refresh::rewrite_refresh;
    let out = rewrite_refresh("5; url='next.html'", &mut |u| Some(format!("http://x/{u}")));
    assert_eq!(out.as_deref(), Some("5; url='http://x/next.html'"));
}

#[test]
fn rewrite_css_example() {
    use crate::css::rewrite_css;
    let css = "a { background: URL( img/a.png ) } @import 'b.css';";
    let out = rewrite_css(css, &mut |u| Some(format!("http://x/{u}")));
    assert_eq!(
        out.as_deref(),
        Some("a { background: URL( http://x/img/a.png ) } @import 'http://x/b.css';")
    );
}
