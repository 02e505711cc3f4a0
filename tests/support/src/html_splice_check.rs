//! The invariant of the HTML rewrite, checked independently of it: the
//! output is the input with edits spliced in, and every edit lies in a place
//! a link can be — an attribute value (or the end of a valueless attribute's
//! name, where `="…"` can be added) or the text of a `style` element — as
//! html5ever's tokenizer (with the source spans of linkbase's patch) and tree
//! builder find them in the input. With the library's own edits, also: the
//! output is exactly the input with those bytes replaced.
//!
//! The places are found in the decoded text; the check is that the output's
//! text is the input's text with only those places changed: the text
//! between places, in order, is in the output as it was (a pattern with a
//! wildcard for each place, matched leftmost, which is exact for such
//! patterns). Together with the re-parse check (`fidelity.rs`, same tree
//! except URL values: a non-URL attribute value that changed fails there)
//! this says: only the rewritten values changed.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::TokenizerResult;
use markup5ever_rcdom::RcDom;
use std::cell::RefCell;
use std::ops::Range;

/// Check `output` against `input` (decoded as `transport` or sniffing
/// says); `edits`, when given, are the library's reported edits. `Err`
/// names what was violated.
pub fn check(
    input: &[u8],
    output: &[u8],
    edits: Option<&[(Range<usize>, &[u8])]>,
    transport: Option<&'static encoding_rs::Encoding>,
) -> Result<(), String> {
    if let Some(edits) = edits {
        check_bytes(input, output, edits)?;
    }
    let mut charset = linkbase::fuzzing::charset::sniff(input, transport);
    if transport.is_none() && linkbase::fuzzing::charset::decode(input, &charset).is_err() {
        // A MIME part whose charset the caller does not know: windows-1252
        // decodes every byte, and keeps the markup's ASCII where it is.
        charset.encoding = encoding_rs::WINDOWS_1252;
        charset.bom_len = 0;
    }
    // As a browser reads it: U+FFFD for bytes the encoding does not allow.
    let decode = |bytes| -> Result<String, String> {
        linkbase::fuzzing::charset::decode_lossy(bytes, &charset)
            .map(|d| d.text.into_owned())
            .map_err(|e| e.to_string())
    };
    let before = decode(input)?;
    light_parse_check(&before)?;
    if input == output {
        return Ok(());
    }
    let after = decode(output)?;
    check_text(&before, &after, srcdoc_mode(false))
}

/// The light parse (linkbase's `html::dom::light`), where it does not give
/// up, gives everything the rewrite's walk reads exactly as the full tree
/// builder does: with the attributes the default options keep, and with
/// more kept (`--attr` names, among them SVG's camel-case ones).
pub fn light_parse_check(text: &str) -> Result<(), String> {
    let more = linkbase::options::Options::default()
        .with_extra_attributes(["id", "class", "viewBox", "xmlns", "d", "fill"]);
    for options in [linkbase::options::Options::default(), more] {
        linkbase::fuzzing::light_parse::compare(text, &options)
            .map_err(|e| format!("the light parse differs from the full parse: {e}"))?;
    }
    Ok(())
}

/// Scripting off, as the rewrite parses.
fn srcdoc_mode(srcdoc: bool) -> TreeBuilderOpts {
    TreeBuilderOpts {
        scripting_enabled: false,
        iframe_srcdoc: srcdoc,
        ..Default::default()
    }
}

/// `output` is `input` with `edits` applied, and they are sorted, apart and
/// inside the input.
pub fn check_bytes(
    input: &[u8],
    output: &[u8],
    edits: &[(Range<usize>, &[u8])],
) -> Result<(), String> {
    let mut at = 0;
    let mut out = 0;
    for (range, bytes) in edits {
        if range.start < at || range.end > input.len() || range.start > range.end {
            return Err(format!("edit {range:?} out of order or outside the input"));
        }
        let kept = &input[at..range.start];
        if output.get(out..out + kept.len()) != Some(kept) {
            return Err(format!(
                "the output differs from the input before edit {range:?}"
            ));
        }
        out += kept.len();
        if output.get(out..out + bytes.len()) != Some(*bytes) {
            return Err(format!(
                "the output at edit {range:?} is not the edit's bytes"
            ));
        }
        out += bytes.len();
        at = range.end;
    }
    if output.get(out..) != Some(&input[at..]) {
        return Err("the output differs from the input after the last edit".into());
    }
    Ok(())
}

/// The text `after` is `before` with only link places changed.
fn check_text(before: &str, after: &str, opts: TreeBuilderOpts) -> Result<(), String> {
    let places = places(before, opts);
    let mut gaps = Vec::with_capacity(places.len() + 1);
    let mut at = 0;
    for place in &places {
        if place.start >= at {
            gaps.push(&before[at..place.start]);
            at = place.end;
        } else {
            at = at.max(place.end);
        }
    }
    gaps.push(&before[at..]);
    // Anchored at both ends, leftmost in between.
    let (first, last) = (gaps[0], gaps[gaps.len() - 1]);
    if !after.starts_with(first) {
        return Err(format!(
            "the text changed before the first link place (at {})",
            first.len()
        ));
    }
    let mut pos = first.len();
    if gaps.len() == 1 {
        return if after.len() == first.len() {
            Ok(())
        } else {
            Err("the text changed, and it holds no link place".into())
        };
    }
    for gap in &gaps[1..gaps.len() - 1] {
        match after[pos..].find(gap) {
            Some(i) => pos += i + gap.len(),
            None => {
                return Err(format!(
                    "text outside the link places changed: {:?} not found",
                    truncate(gap)
                ))
            }
        }
    }
    if after.len() < pos + last.len() || !after.ends_with(last) {
        return Err("the text changed after the last link place".into());
    }
    Ok(())
}

fn truncate(s: &str) -> &str {
    let mut end = s.len().min(80);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Where links can be in `text`: every attribute value, the end of every
/// valueless attribute's name, and the text of every `style` start tag up to
/// the next tag (as the tree builder switches the tokenizer).
pub fn places(text: &str, opts: TreeBuilderOpts) -> Vec<Range<usize>> {
    let builder = TreeBuilder::new(RcDom::default(), opts);
    let sink = Recorder {
        builder,
        places: RefCell::new(Vec::new()),
        style_from: RefCell::new(None),
    };
    let tokenizer = Tokenizer::new(
        sink,
        TokenizerOpts {
            source_spans: true,
            ..Default::default()
        },
    );
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(text));
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    let mut places = tokenizer.sink.places.take();
    if let Some(from) = tokenizer.sink.style_from.take() {
        places.push(from..text.len());
    }
    places.sort_by_key(|r| (r.start, r.end));
    places
}

struct Recorder {
    builder: TreeBuilder<markup5ever_rcdom::Handle, RcDom>,
    places: RefCell<Vec<Range<usize>>>,
    style_from: RefCell<Option<usize>>,
}

impl TokenSink for Recorder {
    type Handle = markup5ever_rcdom::Handle;
    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<Self::Handle> {
        if let Token::TagToken(tag) = &token {
            if let Some(spans) = &tag.spans {
                if let Some(from) = self.style_from.take() {
                    self.places.borrow_mut().push(from..spans.tag.start);
                }
                for a in &spans.attrs {
                    self.places.borrow_mut().push(a.value.clone());
                }
                if tag.kind == html5ever::tokenizer::StartTag && &*tag.name == "style" {
                    *self.style_from.borrow_mut() = Some(spans.tag.end);
                }
            }
        }
        self.builder.process_token(token, line)
    }
    fn end(&self) {
        self.builder.end();
    }
    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}
