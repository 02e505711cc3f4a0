//! The whole token stream of html5ever's tokenizer as lines, for comparing
//! the same text fed whole and in pieces (`vendor/html5ever/tests/fast_tags.rs`
//! and the `tokenizer` fuzz target): every tag with its name, attributes
//! (namespace, name, value), self-closing and duplicate flags and source
//! spans; text merged across tokens (the tokenizer cuts it where its input
//! buffers end, and where a line feed starts a run); comments, doctypes,
//! parse errors with their messages; the line number of every token but
//! text. The sink switches the raw-text states for `title`, `textarea`,
//! `style`, `xmp`, `iframe`, `noembed`, `noframes`, `script` and
//! `plaintext` start tags, as a tree builder does for HTML elements.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::RefCell;

/// Records every token, one line each; character tokens are merged (the
/// tokenizer splits text where its input buffers end).
#[derive(Default)]
pub struct Dump {
    pub lines: RefCell<Vec<String>>,
    text: RefCell<String>,
    /// Tags whose attribute values share the buffer they were read from.
    shared_values: RefCell<usize>,
    /// The buffer fed whole, when it was.
    whole: Option<StrTendril>,
}

impl Dump {
    pub fn flush_text(&self) {
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

/// The tokens of `text` fed whole (`pieces` empty) or in pieces of the
/// sizes `pieces` gives in turn (each cut moved on to a character
/// boundary); and how many tags had a value shared with the whole input.
pub fn tokens(text: &str, pieces: &[usize]) -> (Vec<String>, usize) {
    let opts = TokenizerOpts {
        source_spans: true,
        ..Default::default()
    };
    let whole = pieces.is_empty().then(|| StrTendril::from(text));
    let dump = Dump {
        whole: whole.clone(),
        ..Default::default()
    };
    let tokenizer = Tokenizer::new(dump, opts);
    let input = BufferQueue::default();
    let feed = |piece: StrTendril| {
        input.push_back(piece);
        while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
    };
    match whole {
        Some(whole) => feed(whole),
        None => {
            let mut rest = text;
            for &size in pieces.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let mut n = size.clamp(1, rest.len());
                while !rest.is_char_boundary(n) {
                    n += 1;
                }
                feed(StrTendril::from(&rest[..n]));
                rest = &rest[n..];
            }
        }
    }
    tokenizer.end();
    tokenizer.sink.flush_text();
    let shared = *tokenizer.sink.shared_values.borrow();
    (tokenizer.sink.lines.take(), shared)
}

/// The tokens of `text` fed whole differ from those of `text` fed one byte
/// at a time (the tag state machine alone) or in pieces of the sizes
/// `pieces`: the first difference.
pub fn first_difference(text: &str, pieces: &[usize]) -> Option<String> {
    let (whole, _) = tokens(text, &[]);
    for sizes in [&[1][..], pieces] {
        let (cut, _) = tokens(text, sizes);
        if cut != whole {
            let at = whole
                .iter()
                .zip(&cut)
                .position(|(a, b)| a != b)
                .unwrap_or(whole.len().min(cut.len()));
            return Some(format!(
                "{text:?}: fed whole and in pieces of {sizes:?} bytes, token {at} differs: {:?} / {:?}",
                whole.get(at),
                cut.get(at)
            ));
        }
    }
    None
}
