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

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::RefCell;
use std::path::Path;

/// Records every token, one line each; character tokens are merged (the
/// tokenizer splits text where its input buffers end).
#[derive(Default)]
struct Dump {
    lines: RefCell<Vec<String>>,
    text: RefCell<String>,
    /// Tags whose attribute values share the buffer they were read from.
    shared_values: RefCell<usize>,
    /// The buffer fed whole, when it was.
    whole: Option<StrTendril>,
}

impl Dump {
    fn flush_text(&self) {
        let text = std::mem::take(&mut *self.text.borrow_mut());
        if !text.is_empty() {
            self.lines.borrow_mut().push(format!("text {text:?}"));
        }
    }

    fn tag(&self, tag: &Tag, line: u64) {
        if let Some(whole) = &self.whole {
            if tag.attrs.iter().any(|a| a.value.is_shared_with(whole)) {
                *self.shared_values.borrow_mut() += 1;
            }
        }
        let attrs: Vec<_> = tag
            .attrs
            .iter()
            .map(|a| format!("{:?}:{}={:?}", a.name.ns, a.name.local, &*a.value))
            .collect();
        self.lines.borrow_mut().push(format!(
            "{line} {:?} {} self_closing={} dup={} {attrs:?} {:?}",
            tag.kind, tag.name, tag.self_closing, tag.had_duplicate_attributes, tag.spans
        ));
    }
}

impl TokenSink for Dump {
    type Handle = ();
    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<()> {
        if let Token::CharacterTokens(text) = &token {
            self.text.borrow_mut().push_str(text);
            return TokenSinkResult::Continue;
        }
        if let Token::NullCharacterToken = token {
            self.text.borrow_mut().push('\0');
            return TokenSinkResult::Continue;
        }
        self.flush_text();
        match token {
            Token::TagToken(tag) => {
                self.tag(&tag, line);
                // The raw text states, as a tree builder switches them for
                // HTML elements.
                use html5ever::tokenizer::states::RawKind;
                let raw = match &*tag.name {
                    _ if tag.kind == TagKind::EndTag => None,
                    "title" | "textarea" => Some(RawKind::Rcdata),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(RawKind::Rawtext),
                    "script" => Some(RawKind::ScriptData),
                    "plaintext" => return TokenSinkResult::Plaintext,
                    _ => None,
                };
                if let Some(kind) = raw {
                    return TokenSinkResult::RawData(kind);
                }
            }
            other => self.lines.borrow_mut().push(format!("{line} {other:?}")),
        }
        TokenSinkResult::Continue
    }
}

/// The tokens of `text` fed in `chunk`-byte pieces (at a character
/// boundary), or whole; and how many tags had a value shared with the
/// whole input.
fn tokens(text: &str, chunk: Option<usize>) -> (Vec<String>, usize) {
    let opts = TokenizerOpts {
        source_spans: true,
        ..Default::default()
    };
    let whole = chunk.is_none().then(|| StrTendril::from(text));
    let dump = Dump {
        whole: whole.clone(),
        ..Default::default()
    };
    let tokenizer = Tokenizer::new(dump, opts);
    let input = BufferQueue::default();
    match whole {
        Some(whole) => {
            input.push_back(whole);
            while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
        }
        None => {
            let mut rest = text;
            while !rest.is_empty() {
                let mut n = chunk.unwrap_or(rest.len()).min(rest.len());
                while !rest.is_char_boundary(n) {
                    n += 1;
                }
                input.push_back(StrTendril::from(&rest[..n]));
                rest = &rest[n..];
                while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
            }
        }
    }
    tokenizer.end();
    tokenizer.sink.flush_text();
    let shared = *tokenizer.sink.shared_values.borrow();
    (tokenizer.sink.lines.take(), shared)
}

/// Fed whole, in one-byte pieces, and in `sizes`-byte pieces: the same
/// tokens. How many tags the whole run read with the fast path (values
/// shared with the input).
fn same_tokens(text: &str, sizes: &[usize]) -> usize {
    let (whole, shared) = tokens(text, None);
    let (one_by_one, _) = tokens(text, Some(1));
    assert_eq!(whole, one_by_one, "whole and byte by byte: {text:?}");
    for &n in sizes {
        assert_eq!(tokens(text, Some(n)).0, whole, "{n}-byte pieces: {text:?}");
    }
    shared
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
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
            let (whole, _) = tokens(&text, None);
            prop_assert_eq!(&tokens(&text, Some(1)).0, &whole, "byte by byte: {:?}", text);
            prop_assert_eq!(&tokens(&text, Some(size)).0, &whole, "{}-byte pieces: {:?}", size, text);
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
        while !matches!(
            tokenizer.feed(&input),
            html5ever::TokenizerResult::Done
        ) {}
    }
    tokenizer.end();
    tokenizer.sink.flush_text();
    let lines = tokenizer.sink.lines.take();
    assert_eq!(lines[1], format!("text {:?}", "a\u{feff}b\u{feff}"), "{lines:?}");
    assert!(lines[0].contains("StartTag p"), "{lines:?}");
}
