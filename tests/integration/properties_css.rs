//! Properties of the CSS, `srcset` and refresh rewriters over generated input:
//! a callback that declines changes nothing; an identity callback changes
//! nothing; no input panics; a callback that prefixes `X` changes exactly the
//! URLs it was offered and nothing else.

use proptest::prelude::*;

use layer_checks::{check_css, check_refresh, check_srcset, check_unchanged, LAYERS};
use test_support::layer_checks;

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn declining_and_identity_callbacks_change_nothing(
        css in input(CSS_PIECES), srcset in input(SRCSET_PIECES), refresh in input(REFRESH_PIECES),
    ) {
        for (layer, text) in LAYERS.into_iter().zip([&css, &srcset, &refresh]) {
            let checked = check_unchanged(layer, text);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }

    #[test]
    fn css_prefixed_urls_retokenize_to_the_same_tokens(css in input(CSS_PIECES), spice in spice()) {
        let checked = check_css(&css, &spice);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn srcset_prefixed_urls_read_back_and_nothing_else_moves(value in input(SRCSET_PIECES), spice in spice()) {
        let checked = check_srcset(&value, &spice);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn refresh_prefixed_url_reads_back_and_nothing_else_moves(content in input(REFRESH_PIECES), spice in spice()) {
        let checked = check_refresh(&content, &spice);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn no_input_panics(text in any::<String>(), spice in spice()) {
        for (_, layer) in LAYERS {
            let _ = layer(&text, &mut |u| Some(format!("X{u}{spice}")));
        }
    }
}
