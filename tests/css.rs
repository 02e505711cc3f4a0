//! The three string layers of link rewriting — CSS, `srcset`, meta refresh —
//! on real-world forms. Every row is a named case; a failing row prints its
//! name, its input and both outputs.
//!
//! The fixtures under `fixtures/css/<case>/` are named tests too
//! (`css/<case>`): `cargo test --test css -- --list` lists every test,
//! `cargo test --test css -- at-charset-bom-wins` runs one.
//!
//! The callback resolves relative references against a fixed base with the
//! default profile and leaves absolute ones alone, as the link policy does.

use linkbase::fuzzing::resolve::has_scheme;
use linkbase::fuzzing::strings::{rewrite_css, rewrite_refresh, rewrite_srcset};
use linkbase::{Base, Profile};

#[macro_use]
#[path = "common/fixture_cases.rs"]
mod fixture_cases;
use fixture_cases::{case_trials, read_args, require, shown};
use libtest_mimic::{Arguments, Failed};
use std::path::Path;

const BASE: &str = "https://example.org/css/site.css";

type Layer = fn(&str, &mut dyn FnMut(&str) -> Option<String>) -> Option<String>;

/// Run `layer` over each `(name, input, expected)` row with the resolving
/// callback; `expected == None` means "nothing changes".
fn check(layer: Layer, rows: &[(&str, &str, Option<&str>)]) {
    let base = Base::parse(BASE, Profile::Rfc3986).expect("test base parses");
    let mut failures = Vec::new();
    for &(name, input, expected) in rows {
        let got = layer(input, &mut |u| {
            if has_scheme(u) {
                return None;
            }
            base.resolve(u).ok().map(|r| r.url.into_owned())
        });
        if got.as_deref() != expected {
            failures.push(format!(
                "case {name}:\n  input:    {input:?}\n  expected: {expected:?}\n  got:      {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn css_rows() {
    check(
        rewrite_css,
        &[
            ("unquoted url", "a{background:url(img/a.png)}", Some("a{background:url(https://example.org/css/img/a.png)}")),
            ("double-quoted url", "a{background:url(\"../a.png\")}", Some("a{background:url(\"https://example.org/a.png\")}")),
            ("single-quoted url", "a{b:url('a.png')}", Some("a{b:url('https://example.org/css/a.png')}")),
            ("case of URL( kept", "a{b:URL(a.png)}", Some("a{b:URL(https://example.org/css/a.png)}")),
            ("mixed case Url( with string", "a{b:Url( 'a.png' )}", Some("a{b:Url( 'https://example.org/css/a.png' )}")),
            ("whitespace inside url() kept", "a{b:url(  a.png\n)}", Some("a{b:url(  https://example.org/css/a.png\n)}")),
            ("comment between tokens kept", "a{b:/* c */url(a.png)/* d */}", Some("a{b:/* c */url(https://example.org/css/a.png)/* d */}")),
            ("url inside a comment untouched", "/* url(a.png) */", None),
            ("absolute left alone", "a{b:url(http://x/a.png)}", None),
            ("data url left alone", "a{b:url(data:image/png;base64,AAAA)}", None),
            ("fragment left alone", "rect{fill:url(#grad)}", None),
            ("quoted fragment left alone", "rect{fill:url('#grad')}", None),
            ("empty url left alone", "a{b:url()}", None),
            ("empty string url left alone", "a{b:url('')}", None),
            ("@import string", "@import \"print.css\" print;", Some("@import \"https://example.org/css/print.css\" print;")),
            ("@import single quotes", "@import 'x.css';", Some("@import 'https://example.org/css/x.css';")),
            ("@import url()", "@import url(x.css) screen;", Some("@import url(https://example.org/css/x.css) screen;")),
            ("@import url with string", "@import url(\"x.css\");", Some("@import url(\"https://example.org/css/x.css\");")),
            ("@IMPORT any case", "@IMPORT 'x.css';", Some("@IMPORT 'https://example.org/css/x.css';")),
            ("@import after comment", "@import/**/'x.css';", Some("@import/**/'https://example.org/css/x.css';")),
            ("@import layer and supports strings untouched", "@import 'x.css' layer(base) supports(display: grid);", Some("@import 'https://example.org/css/x.css' layer(base) supports(display: grid);")),
            ("@namespace url untouched", "@namespace svg url(http://www.w3.org/2000/svg);", None),
            ("@namespace relative url untouched", "@namespace url(ns);", None),
            ("@namespace string untouched", "@namespace \"ns\"; a{b:url(c.png)}", Some("@namespace \"ns\"; a{b:url(https://example.org/css/c.png)}")),
            ("@namespace prefix and url untouched", "@namespace x url('rel');", None),
            ("image-set strings", "a{b:image-set(\"a.png\" 1x, 'b.png' 2x)}", Some("a{b:image-set(\"https://example.org/css/a.png\" 1x, 'https://example.org/css/b.png' 2x)}")),
            ("-webkit-image-set", "a{b:-webkit-image-set(url(a.png) 1x, \"b.png\" 2x)}", Some("a{b:-webkit-image-set(url(https://example.org/css/a.png) 1x, \"https://example.org/css/b.png\" 2x)}")),
            ("image-set type() string untouched", "a{b:image-set('a.avif' type('image/avif'))}", Some("a{b:image-set('https://example.org/css/a.avif' type('image/avif'))}")),
            ("font-face src and format", "@font-face{src:url(f.woff2) format('woff2'), local('Foo')}", Some("@font-face{src:url(https://example.org/css/f.woff2) format('woff2'), local('Foo')}")),
            ("src() function string", "a{b:src('a.png')}", Some("a{b:src('https://example.org/css/a.png')}")),
            ("content string is not a url", "a::before{content:'a.png'}", None),
            ("nested @media", "@media screen{@supports (x:y){a{b:url(a.png)}}}", Some("@media screen{@supports (x:y){a{b:url(https://example.org/css/a.png)}}}")),
            ("attribute selector string untouched", "a[href='x.png']{b:url(x.png)}", Some("a[href='x.png']{b:url(https://example.org/css/x.png)}")),
            ("style attribute declarations", "background: url(bg.jpg) no-repeat; color: red", Some("background: url(https://example.org/css/bg.jpg) no-repeat; color: red")),
            ("multiple backgrounds", "a{background:url(a.png),url(b.png)}", Some("a{background:url(https://example.org/css/a.png),url(https://example.org/css/b.png)}")),
            ("cursor list", "a{cursor:url(c.cur) 2 2, auto}", Some("a{cursor:url(https://example.org/css/c.cur) 2 2, auto}")),
            ("escaped paren needs quoting", "a{b:url(a\\)b.png)}", Some("a{b:url(\"https://example.org/css/a)b.png\")}")),
            ("escaped space needs quoting", "a{b:url(a\\ b.png)}", Some("a{b:url(\"https://example.org/css/a b.png\")}")),
            ("escaped quote in string", "a{b:url('it\\'s.png')}", Some("a{b:url('https://example.org/css/it\\'s.png')}")),
            ("other quote not escaped", "a{b:url(\"it's.png\")}", Some("a{b:url(\"https://example.org/css/it's.png\")}")),
            ("hex escape undone", "a{b:url(\\61.png)}", Some("a{b:url(https://example.org/css/a.png)}")),
            ("non-ascii kept", "a{b:url(é/ü.png)}", Some("a{b:url(https://example.org/css/é/ü.png)}")),
            ("unclosed url at end", "a{b:url(a.png", Some("a{b:url(https://example.org/css/a.png")),
            ("unclosed string at end", "a{b:url('a.png", Some("a{b:url('https://example.org/css/a.png")),
            ("bad url left alone", "a{b:url(a b.png)} c{d:url(e.png)}", Some("a{b:url(a b.png)} c{d:url(https://example.org/css/e.png)}")),
            ("bad url with quote left alone", "a{b:url(a\"b)}", None),
            ("bad string left alone", "a{b:url('a\n.png')}", None),
            ("unbalanced closers", "}}) a{b:url(a.png)}", Some("}}) a{b:url(https://example.org/css/a.png)}")),
            ("CDO CDC kept", "<!-- a{b:url(a.png)} -->", Some("<!-- a{b:url(https://example.org/css/a.png)} -->")),
            ("placeholder-free path with query", "a{b:url(a.png?v=1#x)}", Some("a{b:url(https://example.org/css/a.png?v=1#x)}")),
            ("empty input", "", None),
            ("only whitespace", " \n\t", None),
        ],
    );
}

fn srcset_rows() {
    check(
        rewrite_srcset,
        &[
            ("single url", "a.png", Some("https://example.org/css/a.png")),
            (
                "density descriptors",
                "a.png 1x, b.png 2x",
                Some("https://example.org/css/a.png 1x, https://example.org/css/b.png 2x"),
            ),
            (
                "width descriptors",
                "s.jpg 480w,m.jpg 800w",
                Some("https://example.org/css/s.jpg 480w,https://example.org/css/m.jpg 800w"),
            ),
            (
                "data url with comma kept",
                "data:image/png;base64,AAA 1x, b.png 2x",
                Some("data:image/png;base64,AAA 1x, https://example.org/css/b.png 2x"),
            ),
            (
                "comma inside url",
                "a,b.png 2x",
                Some("https://example.org/css/a,b.png 2x"),
            ),
            (
                "no space after comma: one url",
                "a.png,b.png",
                Some("https://example.org/css/a.png,b.png"),
            ),
            (
                "trailing commas not part of url",
                "a.png,, b.png",
                Some("https://example.org/css/a.png,, https://example.org/css/b.png"),
            ),
            (
                "whitespace kept",
                "\n  a.png\t1x ,\n  b.png 2x\n",
                Some(
                    "\n  https://example.org/css/a.png\t1x ,\n  https://example.org/css/b.png 2x\n",
                ),
            ),
            ("absolute left alone", "http://x/a.png 1x", None),
            (
                "descriptor with parens",
                "a.png 1x(x, y), b.png",
                Some("https://example.org/css/a.png 1x(x, y), https://example.org/css/b.png"),
            ),
            (
                "parent dirs",
                "../img/a.png 1.5x",
                Some("https://example.org/img/a.png 1.5x"),
            ),
            ("only separators", " , , ", None),
            ("empty", "", None),
        ],
    );
}

fn refresh_rows() {
    check(
        rewrite_refresh,
        &[
            (
                "URL=",
                "5; URL=next.html",
                Some("5; URL=https://example.org/css/next.html"),
            ),
            (
                "url= lowercase",
                "0;url=next.html",
                Some("0;url=https://example.org/css/next.html"),
            ),
            (
                "spaces around =",
                "0; url = next.html",
                Some("0; url = https://example.org/css/next.html"),
            ),
            (
                "single quotes and trailing text",
                "0; url='a.html' x",
                Some("0; url='https://example.org/css/a.html' x"),
            ),
            (
                "double quotes",
                "0; URL=\"../a.html\"",
                Some("0; URL=\"https://example.org/a.html\""),
            ),
            (
                "no URL= prefix",
                "0;next.html",
                Some("0;https://example.org/css/next.html"),
            ),
            ("absolute without prefix", "0;http://x/", None),
            (
                "comma separator",
                "3, url=a.html",
                Some("3, url=https://example.org/css/a.html"),
            ),
            (
                "trailing whitespace kept",
                "1; url=a.html  ",
                Some("1; url=https://example.org/css/a.html  "),
            ),
            (
                "dot delay",
                "1.5; url=a.html",
                Some("1.5; url=https://example.org/css/a.html"),
            ),
            ("delay only", "30", None),
            ("empty url", "5; url=", None),
            ("invalid delay", "soon; url=a.html", None),
            (
                "fragment resolves (policy decides)",
                "0; url=#top",
                Some("0; url=https://example.org/css/site.css#top"),
            ),
        ],
    );
}

/// `url(#id)` is never offered to the callback, even one that would
/// absolutize fragments: it names an element of this document.
fn css_fragment_never_reaches_callback_even_when_fragments_are_absolutized() {
    let mut offered = Vec::new();
    let out = rewrite_css("a{fill:url(#g);mask:url('#m')}", &mut |u| {
        offered.push(u.to_string());
        Some(format!("https://example.org/{u}"))
    });
    assert_eq!(out, None);
    assert!(offered.is_empty(), "offered {offered:?}");
}

/// A long style sheet: every URL rewritten, every other byte kept.
fn many_rules_are_all_rewritten() {
    let rule = |i: usize, u: &str| format!("/* {i} */ .c{i} {{ background: url({u}{i}.png) }}\n");
    let input: String = (0..2000).map(|i| rule(i, "")).collect();
    let expected: String = (0..2000).map(|i| rule(i, "/x/")).collect();
    let out = rewrite_css(&input, &mut |u| Some(format!("/x/{u}")));
    assert_eq!(out.as_deref(), Some(expected.as_str()));
}

/// A stand-alone style sheet is written back in its own encoding, byte order
/// mark included: UTF-16 stays UTF-16, a UTF-8 BOM stays.
fn stylesheets_keep_their_encoding_and_byte_order_mark() {
    fn utf16le(text: &str) -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        bytes
    }
    let options = linkbase::Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(linkbase::Format::Css);
    source = source.with_url("http://h.example/css/site.css");
    let cases: [(&str, Vec<u8>, Vec<u8>); 2] = [
        (
            "UTF-16LE with BOM",
            utf16le("a { background: url(x.png) }"),
            utf16le("a { background: url(http://h.example/css/x.png) }"),
        ),
        (
            "UTF-8 with BOM",
            b"\xEF\xBB\xBFa { background: url(\xC3\xA9.png) }".to_vec(),
            b"\xEF\xBB\xBFa { background: url(http://h.example/css/\xC3\xA9.png) }".to_vec(),
        ),
    ];
    for (name, input, expected) in cases {
        let out = linkbase::rewrite(&input, &source.clone().with_name("site.css"), &options);
        assert_eq!(out.output.as_ref(), expected.as_slice(), "{name}");
    }
}

/// `&#N;` means nothing in CSS: a URL character the style sheet's encoding
/// cannot hold (here from `--url`) is written as a CSS escape. A sheet whose
/// bytes decode one way only (Shift_JIS user-defined characters) is
/// rewritten like any other: the bytes outside the URLs are copied.
fn stylesheets_never_get_numeric_references() {
    let options = linkbase::Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(linkbase::Format::Css);
    if let Some(value) = encoding_rs::Encoding::for_label(b"shift_jis") {
        source = source.with_charset(value);
    }
    source = source.with_url("http://h.example/caf\u{e9}/site.css");
    let input = b"/* \x82\xa0 */ a { background: url(x.png) }";
    let out = linkbase::rewrite(input, &source.clone().with_name("site.css"), &options);
    assert_eq!(
        out.output.as_ref(),
        b"/* \x82\xa0 */ a { background: url(http://h.example/caf\\e9 /x.png) }"
    );
    let one_way = b"/* \xF0\x40 */ a { background: url(x.png) }";
    let out = linkbase::rewrite(one_way, &source.clone().with_name("site.css"), &options);
    assert_eq!(
        out.output.as_ref(),
        b"/* \xF0\x40 */ a { background: url(http://h.example/caf\\e9 /x.png) }"
    );
    assert_eq!(out.report.counts.rewritten, 1);
    assert!(!out.report.has_errors());
}

/// `fixtures/css/<case>/{input.css, args, expected.css}`: stand-alone style
/// sheets through the command line; the `@charset` cases (CSS Syntax §3.2).
/// Each expected file was written by hand from the case's comment in
/// `docs/css.md` ("Encoding"), not from linkbase's output.
fn run_stylesheet_fixture(dir: &Path) -> Result<(), Failed> {
    let case = shown(dir);
    require(dir, &["input.css", "expected.css"])?;
    let expected = std::fs::read(dir.join("expected.css"))?;
    let run = assert_cmd::Command::cargo_bin("linkbase")?
        .args(read_args(dir))
        .arg(dir.join("input.css"))
        .output()?;
    if run.stdout != expected {
        return Err(format!(
            "{case}/input.css: expected\n{}\ngot\n{}\nstderr: {}",
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        )
        .into());
    }
    // Every case resolves cleanly: a sheet with bytes its encoding does not
    // allow is a warning (at-charset-not-at-start: its one URL holds them).
    let want = 0;
    if run.status.code() != Some(want) {
        return Err(format!(
            "{case}: exit status {:?}, expected {want}; stderr: {}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr)
        )
        .into());
    }
    Ok(())
}

/// Every `fixtures/css` case (`css/<case>`), then the rows and the other
/// library-level tests by their function names.
fn main() {
    let args = Arguments::from_args();
    let mut trials = case_trials("css", "css/", 6, file!(), run_stylesheet_fixture);
    trials.extend(function_trials![
        css_rows,
        srcset_rows,
        refresh_rows,
        css_fragment_never_reaches_callback_even_when_fragments_are_absolutized,
        many_rules_are_all_rewritten,
        stylesheets_keep_their_encoding_and_byte_order_mark,
        stylesheets_never_get_numeric_references,
    ]);
    libtest_mimic::run(&args, trials).exit();
}
