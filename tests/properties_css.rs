//! Properties of the CSS, `srcset` and refresh rewriters over generated input:
//! a callback that declines changes nothing; an identity callback changes
//! nothing; no input panics; a callback that prefixes `X` changes exactly the
//! URLs it was offered and nothing else.

use cssparser::{ParseError, Parser, Token};
use linkbase::css::rewrite_css;
use linkbase::html::refresh::{refresh_url, rewrite_refresh};
use linkbase::html::srcset::{candidate_urls, rewrite_srcset};
use proptest::prelude::*;

/// Fragments that exercise the interesting corners of each syntax.
const CSS_PIECES: &[&str] = &[
    "url(",
    "URL(",
    "url( ",
    ")",
    "(",
    "'",
    "\"",
    "\\",
    "\\)",
    "\\31 ",
    "\\'",
    "\\\"",
    "@import ",
    "@namespace ",
    "image-set(",
    "-webkit-image-set(",
    "type(",
    "src(",
    "{",
    "}",
    "[",
    "]",
    " ",
    "\n",
    "\t",
    "/*",
    "*/",
    "#",
    "a.png",
    "é",
    "x",
    ",",
    ";",
    ":",
    "url(a.png)",
    "url('b c')",
    "url(#f)",
    "url()",
    "1x",
    "<!--",
    "-->",
    "\r\n",
    "\0",
    "\u{7f}",
];
const SRCSET_PIECES: &[&str] = &[
    "a.png",
    "b",
    ",",
    " ",
    "\n",
    "1x",
    "100w",
    "(",
    ")",
    "data:image/png;base64,AA",
    "é",
    ",,",
];
const REFRESH_PIECES: &[&str] = &[
    "0",
    "5",
    ".",
    ";",
    ",",
    " ",
    "url",
    "URL",
    "=",
    "'",
    "\"",
    "a.html",
    "http://x/",
    "é",
    "u",
];

/// Characters a new URL may carry that need escaping in CSS (NUL cannot be
/// written in CSS at all: it reads back as U+FFFD, so it is not among them).
fn spice() -> impl Strategy<Value = String> {
    const SPICES: &[&str] = &[
        " ", "'", "\"", "\\", "(", ")", "\n", "\r", "\r\n", "\x0C", "\t", "é", "\u{7f}", "\u{1}",
    ];
    prop::collection::vec(prop::sample::select(SPICES), 0..4).prop_map(|v| v.concat())
}

fn assembled(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|v| v.concat())
}

/// Generated input: assembled from the syntax's pieces, or arbitrary text.
fn input(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![3 => assembled(pieces), 1 => any::<String>()]
}

type Layer = fn(&str, &mut dyn FnMut(&str) -> Option<String>) -> Option<String>;

const LAYERS: [(&str, Layer); 3] = [
    ("css", rewrite_css),
    ("srcset", rewrite_srcset),
    ("refresh", rewrite_refresh),
];

/// A token in a comparable form; the two spellings of a URL (`url(x)` and
/// `url("x")`) compare as one kind.
#[derive(Debug, PartialEq, Clone)]
enum Tok {
    Url(String),
    Str(String),
    Other(String),
}

/// Flatten the token stream of `css`, entering every block, writing the
/// closing of each block as a token and folding `url( "x" )` into `Url(x)`.
fn tokens(css: &str) -> Vec<Tok> {
    fn walk(p: &mut Parser<'_>, out: &mut Vec<Tok>) {
        while let Ok(token) = p.next_including_whitespace_and_comments() {
            let token = token.clone();
            match &token {
                Token::UnquotedUrl(v) => out.push(Tok::Url(v.to_string())),
                Token::QuotedString(v) => out.push(Tok::Str(v.to_string())),
                Token::Function(_)
                | Token::ParenthesisBlock
                | Token::SquareBracketBlock
                | Token::CurlyBracketBlock => {
                    let mut inner = Vec::new();
                    let _ = p.parse_nested_block(|p| {
                        walk(p, &mut inner);
                        Ok::<(), ParseError<()>>(())
                    });
                    let significant: Vec<&Tok> = inner
                        .iter()
                        .filter(|t| !matches!(t, Tok::Other(s) if s.starts_with("ws") || s.starts_with("comment")))
                        .collect();
                    match (&token, significant.as_slice()) {
                        (Token::Function(name), [Tok::Str(v)])
                            if name.eq_ignore_ascii_case("url") =>
                        {
                            out.push(Tok::Url(v.clone()))
                        }
                        _ => {
                            out.push(Tok::Other(format!("{token:?}")));
                            out.extend(inner);
                            out.push(Tok::Other("close".into()));
                        }
                    }
                }
                Token::WhiteSpace(w) => out.push(Tok::Other(format!("ws{w:?}"))),
                Token::Comment(c) => out.push(Tok::Other(format!("comment{c:?}"))),
                other => out.push(Tok::Other(format!("{other:?}"))),
            }
        }
    }
    let mut parser = Parser::new(css);
    parser.set_nested_block_limit(0); // unlimited: generated inputs are short
    let mut out = Vec::new();
    walk(&mut parser, &mut out);
    out
}

/// `s` with the given ranges cut out: what must stay byte for byte.
fn outside(s: &str, ranges: impl Iterator<Item = std::ops::Range<usize>>) -> String {
    let mut kept = String::new();
    let mut at = 0;
    for r in ranges {
        kept.push_str(&s[at..r.start]);
        kept.push('|');
        at = r.end;
    }
    kept.push_str(&s[at..]);
    kept
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn declining_callback_changes_nothing(
        css in input(CSS_PIECES), srcset in input(SRCSET_PIECES), refresh in input(REFRESH_PIECES),
    ) {
        for ((name, layer), text) in LAYERS.iter().zip([&css, &srcset, &refresh]) {
            prop_assert_eq!(layer(text, &mut |_| None), None, "layer {}", name);
        }
    }

    #[test]
    fn identity_callback_changes_nothing(
        css in input(CSS_PIECES), srcset in input(SRCSET_PIECES), refresh in input(REFRESH_PIECES),
    ) {
        for ((name, layer), text) in LAYERS.iter().zip([&css, &srcset, &refresh]) {
            let out = layer(text, &mut |u| Some(u.to_string()));
            prop_assert_eq!(out.as_deref().unwrap_or(text), text.as_str(), "layer {}", name);
        }
    }

    #[test]
    fn css_prefixed_urls_retokenize_to_the_same_tokens(css in input(CSS_PIECES), spice in spice()) {
        let mut offered = Vec::new();
        let out = rewrite_css(&css, &mut |u| {
            offered.push(u.to_string());
            Some(format!("X{u}{spice}"))
        });
        let out = out.unwrap_or_else(|| css.clone());
        let before = tokens(&css);
        let after = tokens(&out);
        prop_assert_eq!(before.len(), after.len(), "{:?} → {:?}", css, out);
        let mut changed = Vec::new();
        for (b, a) in before.iter().zip(&after) {
            if b == a {
                continue;
            }
            match (b, a) {
                (Tok::Url(b), Tok::Url(a)) | (Tok::Str(b), Tok::Str(a)) => {
                    prop_assert_eq!(a, &format!("X{b}{spice}"), "{:?} → {:?}", css, out);
                    changed.push(b.clone());
                }
                _ => prop_assert!(false, "token {:?} became {:?} in {:?} → {:?}", b, a, css, out),
            }
        }
        prop_assert_eq!(changed, offered, "{:?} → {:?}", css, out);
    }

    #[test]
    fn srcset_prefixed_urls_read_back_and_nothing_else_moves(value in input(SRCSET_PIECES)) {
        let out = rewrite_srcset(&value, &mut |u| Some(format!("X{u}"))).unwrap_or_else(|| value.clone());
        let before: Vec<String> = candidate_urls(&value).map(|r| format!("X{}", &value[r])).collect();
        let after: Vec<String> = candidate_urls(&out).map(|r| out[r].to_string()).collect();
        prop_assert_eq!(before, after);
        prop_assert_eq!(outside(&value, candidate_urls(&value)), outside(&out, candidate_urls(&out)));
    }

    #[test]
    fn refresh_prefixed_url_reads_back_and_nothing_else_moves(content in input(REFRESH_PIECES)) {
        let out = rewrite_refresh(&content, &mut |u| Some(format!("X{u}")));
        let before = refresh_url(&content).map(|r| r.range);
        match (&out, before) {
            (None, None) => {}
            (Some(out), Some(range)) => {
                let after = refresh_url(out).map(|r| r.range);
                prop_assert!(after.is_some(), "{:?} → {:?}", content, out);
                let after = after.unwrap_or(0..0);
                // Quotes in the new URL are percent-encoded; the prefix X never is.
                prop_assert!(out[after.clone()].starts_with('X'));
                prop_assert_eq!(outside(&content, std::iter::once(range)), outside(out, std::iter::once(after)));
            }
            (out, before) => prop_assert!(false, "{:?}: url {:?} but output {:?}", content, before, out),
        }
    }

    #[test]
    fn no_input_panics(text in any::<String>()) {
        for (_, layer) in LAYERS {
            let _ = layer(&text, &mut |u| Some(format!("X{u} ')\"\\\n,")));
        }
    }
}
