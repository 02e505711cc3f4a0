//! The fast tags of linkbase's patch to html5ever (vendor/html5ever,
//! PATCHES.md, "Fast tags"): in the tag open state, a tag that the state
//! machine would read without a parse error and without its one-character
//! work (no character reference, NUL, CR, LF, duplicate attribute, …) is
//! read from the input buffer in one pass and emitted at once.
//!
//! The fast path only reads a tag whose `>` is in the same input buffer as
//! its name, so input fed one byte at a time goes through the state machine
//! alone. Every check here compares the whole token stream — tags with
//! their names, attributes, values, flags and source spans, characters,
//! comments, doctypes, parse errors, and the line number of each — of a text
//! fed in one piece (fast tags) with the same text fed one byte at a time
//! (the state machine), and in pieces of other sizes: on hand-written
//! inputs, on every HTML input of `fixtures/`, and on generated tag soup.
//! A check that the fast path really runs on the inputs keeps the
//! comparison from passing by never exercising it.

// The library is `linkbase_html5ever` (PATCHES.md); these tests, like
// linkbase's code, call it by upstream's name.
extern crate linkbase_html5ever as html5ever;

#[path = "../../../tests/support/src/token_dump.rs"]
mod token_dump;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use std::path::Path;
use token_dump::{tokens, Dump};

/// Fed whole, in one-byte pieces, and in `sizes`-byte pieces: the same
/// tokens. How many tags the whole run read with the fast path (values
/// shared with the input).
fn same_tokens(text: &str, sizes: &[usize]) -> usize {
    for &n in sizes {
        if let Some(difference) = token_dump::first_difference(text, &[n]) {
            panic!("{difference}");
        }
    }
    tokens(text, &[]).1
}

#[test]
fn simple_tags_are_the_tokens_of_the_state_machine() {
    let text = "<!DOCTYPE html><HTML LANG=en><head><META charset=\"utf-8\"><title>a<b</title>\
                <link rel=stylesheet href='s.css' /></head><body class=\"main content\"><a href=\"one/two\" \
                title=\"Ünïcode ✓\">x</a><br/><IMG SRC=\"image.png\" alt=\"\" width=1><p id=a b c d>\
                <a href=x/>y</A ><input disabled/><svg viewBox=\"0 0 1 1\"><use xlink:href=\"#i\"/></svg>\
                </body></html >";
    assert!(same_tokens(text, &[2, 3, 7, 64]) >= 4);
}

#[test]
fn tags_the_fast_path_leaves_alone_are_the_same_too() {
    // Each is a tag the scanner gives up on (a parse error, a reference, a
    // CR or LF, a duplicate, an end tag with attributes, …) after a simple
    // one that it reads: the state machine picks up where it stopped.
    for odd in [
        "<a href=\"x&amp;y\">",
        "<a href=x&amp;y>",
        "<a\nhref=\"x\">",
        "<a href=\"x\r\ny\">",
        "<a href=\"x\0\">",
        "<a id=1 id=2>",
        "<a id=1 ID=2>",
        "</a id=1>",
        "</a/>",
        "<a/b>",
        "<a b=>",
        "<a =b>",
        "<a b\"c=d>",
        "<a b=\"c\"d=e>",
        "<a b=c\"d>",
        "<a b=c`d>",
        "<é>",
        "<aé b>",
        "<a bé=1>",
        "< a>",
        "<1>",
        "<>",
        "</>",
        "<!-- c -->",
        "<?pi x?>",
        "<![CDATA[x]]>",
        "<a b='c'",
        "<a b",
    ] {
        let text =
            format!("<p class=\"before the odd one\">{odd}<i title=\"after the odd one\">z</i>");
        assert!(same_tokens(&text, &[2, 5]) >= 1, "{text:?}");
    }
}

#[test]
fn the_html_fixtures_are_the_same_tokens() {
    // linkbase's fixtures, at the root of its repository.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut inputs = 0;
    let mut fast = 0;
    for folder in ["html", "xhtml"] {
        for case in std::fs::read_dir(root.join(folder)).expect("fixtures") {
            let case = case.expect("fixture").path();
            for input in ["input.html", "input.xhtml"] {
                let Ok(bytes) = std::fs::read(case.join(input)) else {
                    continue;
                };
                // Legacy encodings are tokenized as their bytes read as
                // UTF-8 would be (lossily): tags are ASCII either way.
                let text = String::from_utf8_lossy(&bytes);
                fast += same_tokens(&text, &[13]);
                inputs += 1;
            }
        }
    }
    assert!(inputs >= 35, "{inputs} fixtures");
    assert!(fast >= 100, "only {fast} tags read by the fast path");
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    /// A piece of tag soup, heavy in what the scanner decides on.
    fn piece() -> impl Strategy<Value = String> {
        let names = prop_oneof![
            4 => Just("a"),
            2 => Just("A"),
            2 => Just("div"),
            1 => Just("bR"),
            2 => Just("img"),
            1 => Just("x-y"),
            1 => Just("a\"b"),
            1 => Just("é"),
            1 => Just("title"),
            1 => Just("style"),
            1 => Just("script"),
            1 => Just("svg"),
        ];
        let attr_names = prop_oneof![
            4 => Just("href"),
            2 => Just("HREF"),
            2 => Just("id"),
            1 => Just("x:y"),
            1 => Just("d-é"),
            1 => Just("b\"c"),
            1 => Just("="),
            1 => Just("<"),
        ];
        let values = prop_oneof![
            2 => Just(""),
            4 => Just("x"),
            4 => Just("a b/c"),
            2 => Just("é✓ long enough"),
            2 => Just("x&amp;y"),
            1 => Just("&"),
            1 => Just("x\ny"),
            1 => Just("x\r\ny"),
            1 => Just("\0"),
            1 => Just("q\"r"),
            1 => Just("q'r"),
            1 => Just("`"),
            1 => Just(">"),
            1 => Just("="),
            1 => Just("<"),
        ];
        let spaces = prop_oneof![
            6 => Just(""),
            6 => Just(" "),
            1 => Just("  "),
            1 => Just("\t"),
            1 => Just("\x0C"),
            1 => Just("\n"),
            1 => Just("\r\n"),
        ];
        let quotes = prop_oneof![Just("\""), Just("'"), Just("")];
        let attr = (
            attr_names,
            spaces.clone(),
            prop::bool::ANY,
            spaces.clone(),
            quotes,
            values,
        )
            .prop_map(|(name, s1, with_value, s2, quote, value)| {
                if with_value {
                    format!("{name}{s1}={s2}{quote}{value}{quote}")
                } else {
                    name.to_string()
                }
            });
        let tag = (
            prop::bool::ANY,
            names,
            prop::collection::vec((prop_oneof![8 => Just(" "), 1 => Just(""), 1 => Just("\t")], attr), 0..5),
            spaces,
            prop_oneof![6 => Just(">"), 2 => Just("/>"), 1 => Just(" />"), 1 => Just(""), 1 => Just("/")],
        )
            .prop_map(|(end, name, attrs, space, close)| {
                let mut s = String::from(if end { "</" } else { "<" });
                s.push_str(name);
                for (space, attr) in attrs {
                    s.push_str(space);
                    s.push_str(&attr);
                }
                s.push_str(space);
                s.push_str(close);
                s
            });
        prop_oneof![
            12 => tag,
            1 => Just("text ".to_string()),
            1 => Just("&amp;".to_string()),
            1 => Just("<!--c-->".to_string()),
            1 => Just("<".to_string()),
            1 => Just("\r\n".to_string()),
            1 => Just("\0".to_string()),
            1 => Just("<!DOCTYPE html>".to_string()),
            1 => Just("<plaintext>".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        #[test]
        fn generated_tag_soup_is_the_same_tokens(
            pieces in prop::collection::vec(piece(), 1..16),
            size in 2usize..40,
        ) {
            let text: String = pieces.concat();
            let difference = token_dump::first_difference(&text, &[size]);
            prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
        }
    }
}

#[test]
fn only_the_first_character_of_the_stream_is_a_byte_order_mark() {
    // html5ever 0.40.1 dropped a U+FEFF at the front of every feed; the
    // standard strips one byte order mark, at the start (linkbase's patch,
    // PATCHES.md, "Fast tags"). Here the second piece starts with one.
    let text = "\u{feff}<p title=\"a long title\">a\u{feff}b\u{feff}</p>";
    let cut = text.find("a\u{feff}").expect("the second mark") + 1;
    let opts = TokenizerOpts::default();
    let tokenizer = Tokenizer::new(Dump::default(), opts);
    let input = BufferQueue::default();
    for piece in [&text[..cut], &text[cut..]] {
        input.push_back(StrTendril::from(piece));
        while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
    }
    tokenizer.end();
    tokenizer.sink.flush_text();
    let lines = tokenizer.sink.lines.take();
    assert_eq!(
        lines[1],
        format!("text {:?}", "a\u{feff}b\u{feff}"),
        "{lines:?}"
    );
    assert!(lines[0].contains("StartTag p"), "{lines:?}");
}

#[test]
fn a_cr_lf_cut_between_pieces_before_a_lookahead_is_one_line() {
    // html5ever 0.40.1 gave up on the LF of a CR LF when the CR ended a
    // piece of input in a state that looks ahead (`eat`: after a doctype
    // name, `<!`), and then read the LF as a character of its own: the
    // line after it was counted twice (linkbase's patch, PATCHES.md, "Fast
    // tags"; found by the `tokenizer` fuzz target).
    for text in [
        "<!DOCTYPE html\r\n<p>",
        "<!DOCTYPE html\r\nPUBLIC \"x\">\r\n<p>",
        "<!DOCTYPE html PUBLIC \"x\"\r\n\"y\"><p>",
        "<!DOCTYPE\r\nhtml><p>",
    ] {
        // Cut before its LF, and byte by byte.
        let cut = text.find('\n').expect("a line feed");
        let difference = token_dump::first_difference(text, &[cut, text.len()]);
        assert!(difference.is_none(), "{}", difference.unwrap_or_default());
    }
}
