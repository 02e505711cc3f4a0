//! The source spans of linkbase's patch to html5ever (vendor/html5ever,
//! PATCHES.md, "Source spans"): with `TokenizerOpts::source_spans` every tag
//! token carries where it is in the text fed to the tokenizer — the tag from
//! `<` to `>`, each attribute's name, its value without quotes, and how the
//! value is quoted.
//!
//! The expected spans are written out by hand for inputs that move the
//! tokenizer's position in unusual ways (CR LF, character references that
//! put characters back, reconsumed characters, the `eat` lookahead of
//! `<!DOCTYPE`/`<!--`/`<![CDATA[`, raw text end tags, a byte order mark,
//! multi-byte characters, NUL); the property test checks, on generated tag
//! soup, that every span holds what the token says: `<`…`>`, the name as
//! written (lower-cased), the value as written (CR LF normalised, NUL as
//! U+FFFD) where it has no character reference.

// The library is `linkbase_html5ever` (PATCHES.md); these tests, like
// linkbase's code, call it by upstream's name.
extern crate linkbase_html5ever as html5ever;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    AttrQuote, BufferQueue, Tag, TagKind, TagSpans, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use std::cell::RefCell;
use std::rc::Rc;

/// The tags seen. Each is kept with a copy of its spans, not the spans the
/// tokenizer gave, so that the tokenizer reuses those for later tags as it
/// does under the tree builder (PATCHES.md, "Source spans, reused"); with
/// `hold_every`, every n-th tag's spans are kept as given, as the tree
/// builder keeps a formatting element's, so that the tokenizer cannot reuse
/// them.
#[derive(Default)]
struct Tags(RefCell<Vec<Tag>>, Option<usize>);

impl TokenSink for Tags {
    type Handle = ();
    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::TagToken(tag) = token {
            let raw = matches!(
                &*tag.name,
                "style" | "title" | "textarea" | "xmp" | "script"
            );
            let start = tag.kind == TagKind::StartTag;
            let mut seen = self.0.borrow_mut();
            // (`%`, not `is_multiple_of`: the crate's rust-version is 1.85.)
            let hold = self.1.is_some_and(|n| seen.len() % n == 0);
            let mut copy = tag.clone();
            if !hold {
                copy.spans = tag.spans.as_deref().cloned().map(Rc::new);
            }
            seen.push(copy);
            drop(seen);
            if start && raw {
                use html5ever::tokenizer::states::RawKind;
                let kind = match &*tag.name {
                    "title" | "textarea" => RawKind::Rcdata,
                    "script" => RawKind::ScriptData,
                    _ => RawKind::Rawtext,
                };
                return TokenSinkResult::RawData(kind);
            }
        }
        TokenSinkResult::Continue
    }
}

/// Every tag token of `text`, fed in one piece or in `chunk`-byte pieces.
fn tags(text: &str, chunk: Option<usize>) -> Vec<Tag> {
    tags_holding(text, chunk, None)
}

/// [`tags`], holding the spans of every `hold_every`-th tag as given.
fn tags_holding(text: &str, chunk: Option<usize>, hold_every: Option<usize>) -> Vec<Tag> {
    let opts = TokenizerOpts {
        source_spans: true,
        ..Default::default()
    };
    let tokenizer = Tokenizer::new(Tags(RefCell::default(), hold_every), opts);
    let input = BufferQueue::default();
    match chunk {
        None => input.push_back(StrTendril::from(text)),
        Some(n) => {
            let mut rest = text;
            while !rest.is_empty() {
                let mut cut = n.min(rest.len());
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                input.push_back(StrTendril::from(&rest[..cut]));
                let _ = tokenizer.feed(&input);
                rest = &rest[cut..];
            }
        }
    }
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.0.take()
}

fn spans(tag: &Tag) -> &TagSpans {
    tag.spans.as_deref().expect("spans asked for")
}

/// (tag text, [(name text, value text, quote)]) of every tag.
type Seen<'a> = Vec<(&'a str, Vec<(&'a str, &'a str, AttrQuote)>)>;

fn seen(text: &str) -> Seen<'_> {
    let all = tags(text, None);
    for n in [1, 2, 3, 7] {
        let chunked = tags(text, Some(n));
        let a: Vec<_> = all.iter().map(|t| spans(t).clone()).collect();
        let b: Vec<_> = chunked.iter().map(|t| spans(t).clone()).collect();
        assert_eq!(a, b, "fed in {n}-byte pieces: {text:?}");
    }
    // The same spans whether the tokenizer reuses the allocations of
    // earlier tags' spans or not (some held, all held).
    for hold in [2, 3, 1] {
        let held = tags_holding(text, None, Some(hold));
        assert_eq!(held, all, "holding every {hold}th tag's spans: {text:?}");
    }
    all.iter()
        .map(|t| {
            let s = spans(t);
            let attrs = s
                .attrs
                .iter()
                .map(|a| (&text[a.name.clone()], &text[a.value.clone()], a.quote))
                .collect();
            (&text[s.tag.clone()], attrs)
        })
        .collect()
}

use AttrQuote::{Double, NoValue, Single, Unquoted};

#[test]
fn exact_spans() {
    type Case = (&'static str, &'static str, Seen<'static>);
    let cases: Vec<Case> = vec![
        (
            "quotes",
            "<a href=\"x\" title='y' id=z hidden>t</a>",
            vec![
                (
                    "<a href=\"x\" title='y' id=z hidden>",
                    vec![
                        ("href", "x", Double),
                        ("title", "y", Single),
                        ("id", "z", Unquoted),
                        ("hidden", "", NoValue),
                    ],
                ),
                ("</a>", vec![]),
            ],
        ),
        (
            "crlf around and inside",
            "\r\n<A\r\nHREF\r\n=\r\n\"a\r\nb\"\r\nX=y\r\n>",
            vec![(
                "<A\r\nHREF\r\n=\r\n\"a\r\nb\"\r\nX=y\r\n>",
                vec![("HREF", "a\r\nb", Double), ("X", "y", Unquoted)],
            )],
        ),
        (
            "character references put back",
            "<a href='?a=1&notit;&b&amp=2&#x;&#38' t=&lt>",
            vec![(
                "<a href='?a=1&notit;&b&amp=2&#x;&#38' t=&lt>",
                vec![
                    ("href", "?a=1&notit;&b&amp=2&#x;&#38", Single),
                    ("t", "&lt", Unquoted),
                ],
            )],
        ),
        (
            "references in text",
            "&notit; &amp &#x; &#1234<b c=d>",
            vec![("<b c=d>", vec![("c", "d", Unquoted)])],
        ),
        (
            "reconsumed",
            "<a href=\"x\"title=y/><br/ x=1>",
            vec![
                (
                    "<a href=\"x\"title=y/>",
                    vec![("href", "x", Double), ("title", "y/", Unquoted)],
                ),
                ("<br/ x=1>", vec![("x", "1", Unquoted)]),
            ],
        ),
        (
            "empty and missing values",
            "<a href= ><b c=\"\" d=''>",
            vec![
                ("<a href= >", vec![("href", "", Unquoted)]),
                ("<b c=\"\" d=''>", vec![("c", "", Double), ("d", "", Single)]),
            ],
        ),
        (
            "duplicate dropped",
            "<a href=1 HREF=2 id=3>",
            vec![(
                "<a href=1 HREF=2 id=3>",
                vec![("href", "1", Unquoted), ("id", "3", Unquoted)],
            )],
        ),
        (
            "doctype, comments and cdata lookahead",
            "<!DOCTYPE html><!--c--><!doctype x><svg><![CDATA[<a>]]><a xlink:href=p>",
            vec![
                ("<svg>", vec![]),
                ("<a xlink:href=p>", vec![("xlink:href", "p", Unquoted)]),
            ],
        ),
        (
            "raw text end tags",
            "<style>a</styl></style >b<title>&amp;</title\n x=1><script><!--<script></script>--></script>",
            vec![
                ("<style>", vec![]),
                ("</style >", vec![]),
                ("<title>", vec![]),
                ("</title\n x=1>", vec![("x", "1", Unquoted)]),
                ("<script>", vec![]),
                // `</script>` after `<!--<script>` only ends the double escape.
                ("</script>", vec![]),
            ],
        ),
        (
            "byte order mark, multi-byte and NUL",
            "\u{feff}<p é=\"ü\u{1F600}\" \0x=\0>",
            vec![(
                "<p é=\"ü\u{1F600}\" \0x=\0>",
                vec![("é", "ü\u{1F600}", Double), ("\0x", "\0", Unquoted)],
            )],
        ),
        (
            "cut off tag is no token",
            "<a href=x><b c=\"d",
            vec![("<a href=x>", vec![("href", "x", Unquoted)])],
        ),
    ];
    for (name, text, want) in cases {
        assert_eq!(seen(text), want, "case {name}");
    }
}

#[test]
fn no_spans_unless_asked() {
    let tokenizer = Tokenizer::new(Tags::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from("<a href=x>"));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    assert!(tokenizer.sink.0.take().iter().all(|t| t.spans.is_none()));
}

mod property {
    use super::*;
    use proptest::prelude::*;

    /// Tag soup with the characters that move the tokenizer's position in
    /// unusual ways.
    fn soup() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("<a".to_string()),
            Just("<B".to_string()),
            Just("</a".to_string()),
            Just("<style>".to_string()),
            Just("</style>".to_string()),
            Just("<title>".to_string()),
            Just("</title>".to_string()),
            Just("<script>".to_string()),
            Just("</script>".to_string()),
            Just("<!--".to_string()),
            Just("-->".to_string()),
            Just("<!DOCTYPE".to_string()),
            Just("<![CDATA[".to_string()),
            Just(">".to_string()),
            Just("/>".to_string()),
            Just(" ".to_string()),
            Just("\r\n".to_string()),
            Just("\r".to_string()),
            Just("\n".to_string()),
            Just("\0".to_string()),
            Just("=".to_string()),
            Just("\"".to_string()),
            Just("'".to_string()),
            Just("&amp;".to_string()),
            Just("&amp".to_string()),
            Just("&notit;".to_string()),
            Just("&#x;".to_string()),
            Just("&#65".to_string()),
            Just("&".to_string()),
            Just("href".to_string()),
            Just("X".to_string()),
            Just("é".to_string()),
            Just("\u{1F600}".to_string()),
            "[a-z]{1,3}",
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    /// The text as the tokenizer reads it: CR LF and CR as LF, NUL as U+FFFD.
    fn normalised(raw: &str) -> String {
        raw.replace("\r\n", "\n")
            .replace('\r', "\n")
            .replace('\0', "\u{FFFD}")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn spans_hold_what_the_token_says(text in soup(), chunk in 1usize..9) {
            let whole = tags(&text, None);
            let chunked = tags(&text, Some(chunk));
            prop_assert_eq!(whole.len(), chunked.len());
            // Reused allocations or not, the same spans.
            prop_assert_eq!(&tags_holding(&text, Some(chunk), Some(2)), &chunked);
            for (tag, other) in whole.iter().zip(&chunked) {
                let s = spans(tag);
                prop_assert_eq!(s, spans(other));
                let written = &text[s.tag.clone()];
                prop_assert!(written.starts_with('<') && written.ends_with('>'), "{:?}", written);
                prop_assert_eq!(s.attrs.len(), tag.attrs.len());
                for (attr, span) in tag.attrs.iter().zip(&s.attrs) {
                    prop_assert!(s.tag.start < span.name.start && span.name.end <= span.value.start);
                    prop_assert!(span.value.end < s.tag.end);
                    let name = normalised(&text[span.name.clone()]).to_ascii_lowercase();
                    prop_assert_eq!(&name, &*attr.name.local);
                    let raw = &text[span.value.clone()];
                    if !raw.contains('&') {
                        prop_assert_eq!(normalised(raw), &*attr.value);
                    }
                    let before = text[..span.value.start].chars().next_back();
                    let after = text[span.value.end..].chars().next();
                    match span.quote {
                        AttrQuote::Double => {
                            prop_assert_eq!((before, after), (Some('"'), Some('"')))
                        }
                        AttrQuote::Single => {
                            prop_assert_eq!((before, after), (Some('\''), Some('\'')))
                        }
                        AttrQuote::NoValue => prop_assert!(attr.value.is_empty() && raw.is_empty()),
                        AttrQuote::Unquoted => {}
                    }
                }
            }
        }
    }
}
