//! The one output model of every format: the input with [`Edit`]s spliced
//! in, every byte outside an edit copied exactly once, never decoded and
//! encoded again. HTML, style sheets, XHTML, MIME messages and the payloads
//! of WARC records are all written this way ([`crate::document`]).
//!
//! - [`Edit`]: a range and what is written instead. `Edit` (the default,
//!   `Vec<u8>`) is an edit of bytes; `Edit<String>` an edit of a decoded
//!   text, whose replacement is text too (the HTML and CSS rewriters work in
//!   the decoded text; their edits become byte edits through the
//!   [`OffsetMap`] and an encoder).
//! - [`pieces`], [`apply`], [`apply_text`]: the splice itself.
//! - [`OffsetMap`]: offsets in a text decoded from an input, mapped back to
//!   the input's offsets, in one pass.
//!
//! The bottom layer: it knows nothing of the rest of the crate
//! (`tests/integration/layers.rs`).

use encoding_rs::{Encoding, ISO_2022_JP, UTF_8};
use std::ops::Range;
use std::sync::Mutex;

/// One replacement: `range` of the input (or of a decoded text) and what is
/// written there instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit<B = Vec<u8>> {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What is written instead: bytes (`Vec<u8>`), or text (`String`) for an
    /// edit of a decoded text.
    pub bytes: B,
}

/// Sort `edits` by position and drop repeats of the same range (an HTML
/// element the tree builder cloned — reconstruction, the adoption agency —
/// has the attributes of the tag it was cloned from, so its edits are those
/// of the original). An edit overlapping an earlier one is dropped (it
/// cannot happen: edits lie inside distinct attribute values and style
/// texts).
pub fn sorted<B: std::fmt::Debug>(mut edits: Vec<Edit<B>>) -> Vec<Edit<B>> {
    sort_by_range(&mut edits, |e| &e.range);
    edits
}

/// The rule of [`sorted`], for any edit whose range `range` gives: sorted by
/// range (stable: of two edits of one range the first found is kept), an
/// edit that repeats or overlaps the one kept before it dropped, in place.
fn sort_by_range<T: std::fmt::Debug>(edits: &mut Vec<T>, range: impl Fn(&T) -> &Range<usize>) {
    edits.sort_by_key(|e| (range(e).start, range(e).end));
    edits.dedup_by(|later, kept| {
        let (later_range, kept_range) = (range(later), range(kept));
        debug_assert!(
            later_range == kept_range || later_range.start >= kept_range.end,
            "overlapping edits {kept:?} {later:?}"
        );
        later_range.start < kept_range.end || later_range == kept_range
    });
}

/// The edits of a decoded text, held compactly until they are written: each
/// a range of the text and a range of one buffer holding every replacement
/// (32 bytes an edit, no allocation of its own), a replacement equal to the
/// one before it stored once. A page of nothing but links has one edit a
/// link, and a long base makes every replacement a long text (`<a href=x>`
/// under `<base href>` of 8 KB: the 8 KB before `x`): held as
/// `Edit<String>`s they cost 72 bytes and more a link, the long base its
/// length a link. A replacement of [`SHARE_FROM`] bytes or more that begins
/// as one of the last [`ANCHORS`] long ones held whole does (the same base,
/// another short link; links alternating between a few long bases)
/// holds only what follows that common beginning (docs/hardening.md,
/// "Memory").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextEdits {
    /// Each edit: the range it replaces and its replacement in `texts`.
    edits: Vec<HeldEdit>,
    /// The replacements held as a beginning of another and a rest.
    splits: Vec<Split>,
    /// The replacements, one after the other.
    texts: String,
    /// The last [`ANCHORS`] replacements of [`SHARE_FROM`] bytes or more
    /// held whole.
    anchors: Vec<Range<usize>>,
    /// How many long replacements were held whole: the next one takes the
    /// place of the oldest in `anchors` (this modulo [`ANCHORS`]).
    anchored: usize,
}

/// One edit of a [`TextEdits`] or [`ByteEdits`]: the range it replaces and
/// its replacement: a range of the buffer, or, when `text.start >
/// text.end`, the split `text.start - 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HeldEdit {
    range: Range<usize>,
    text: Range<usize>,
}

/// A replacement held in two ranges of the buffer: the beginning it shares
/// with one held whole before it, and the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Split {
    prefix: Range<usize>,
    rest: Range<usize>,
}

/// The length from which a replacement's beginning is looked for in the
/// last long ones held whole (shorter ones, nearly every URL, are held
/// whole at no extra cost); it is shared when at least half this long.
pub const SHARE_FROM: usize = 256;

/// How many of the last long replacements held whole a new long one is
/// compared with: links that alternate between a few long beginnings (a
/// long base, and long links of another host) hold each once. Compared
/// with the last one only, each change of beginning held the new value
/// whole again (docs/hardening.md, "Memory").
pub const ANCHORS: usize = 4;

impl HeldEdit {
    /// The two ranges of the buffer its replacement is made of: the shared
    /// beginning (empty when it is held whole) and the rest.
    fn parts(&self, splits: &[Split]) -> [Range<usize>; 2] {
        if self.text.start > self.text.end {
            let split = &splits[self.text.start - 1];
            [split.prefix.clone(), split.rest.clone()]
        } else {
            [self.text.start..self.text.start, self.text.clone()]
        }
    }
}

/// The held text of the last of `edits` when `new` (bytes of `buffer`, just
/// appended) is its replacement again: then `new` need not be kept.
fn repeat_of_last(
    edits: &[HeldEdit],
    splits: &[Split],
    buffer: &[u8],
    new: Range<usize>,
) -> Option<Range<usize>> {
    let last = edits.last()?;
    let [prefix, rest] = last.parts(splits);
    let new = &buffer[new];
    let cut = prefix.len();
    let same =
        new.len() == cut + rest.len() && new[..cut] == buffer[prefix] && new[cut..] == buffer[rest];
    same.then(|| last.text.clone())
}

impl TextEdits {
    /// No edits.
    pub fn new() -> TextEdits {
        TextEdits::default()
    }

    /// Add the edit writing `text` over `range`, after those added before.
    pub fn push(&mut self, range: Range<usize>, text: &str) {
        self.push_with(range, |buffer| buffer.push_str(text));
    }

    /// Add the edit writing over `range` what `write` appends to the buffer
    /// it is given (no allocation of its own).
    pub fn push_with(&mut self, range: Range<usize>, write: impl FnOnce(&mut String)) {
        let at = self.texts.len();
        write(&mut self.texts);
        let text = at..self.texts.len();
        let bytes = self.texts.as_bytes();
        if let Some(held) = repeat_of_last(&self.edits, &self.splits, bytes, text.clone()) {
            self.texts.truncate(at);
            self.edits.push(HeldEdit { range, text: held });
            return;
        }
        if text.len() >= SHARE_FROM {
            let new = &self.texts[text.clone()];
            // The longest beginning shared with one of the anchors.
            let (anchor, mut shared) = self
                .anchors
                .iter()
                .map(|a| {
                    (
                        a.start,
                        common_prefix(self.texts[a.clone()].as_bytes(), new.as_bytes()),
                    )
                })
                .max_by_key(|&(_, shared)| shared)
                .unwrap_or((0, 0));
            while !new.is_char_boundary(shared) {
                shared -= 1;
            }
            if shared >= SHARE_FROM / 2 {
                let prefix = anchor..anchor + shared;
                self.texts.replace_range(at..at + shared, "");
                let rest = at..self.texts.len();
                self.splits.push(Split { prefix, rest });
                let index = self.splits.len();
                self.edits.push(HeldEdit {
                    range,
                    text: index..0,
                });
                return;
            }
            match self.anchors.get_mut(self.anchored % ANCHORS) {
                Some(oldest) => *oldest = text.clone(),
                None => self.anchors.push(text.clone()),
            }
            self.anchored += 1;
        }
        self.edits.push(HeldEdit { range, text });
    }

    /// Are there none?
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// Are all the replacements ASCII?
    pub fn all_ascii(&self) -> bool {
        self.texts.is_ascii()
    }

    /// The edits in order: each range and what is written there, in two
    /// pieces (the first empty unless the replacement shares its beginning
    /// with another).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Range<usize>, [&str; 2])> + '_ {
        self.edits.iter().map(|e| {
            let [prefix, rest] = e.parts(&self.splits);
            (e.range.clone(), [&self.texts[prefix], &self.texts[rest]])
        })
    }

    /// The same edits sorted, repeats and overlaps dropped, as [`sorted`].
    pub fn sorted(mut self) -> TextEdits {
        sort_by_range(&mut self.edits, |e| &e.range);
        self
    }

    /// `text` with these edits (sorted) applied, as [`apply_text`].
    pub fn apply(&self, text: &str) -> String {
        spliced_text(text, self.iter(), self.texts.len())
    }
}

/// How many bytes `a` and `b` share at their start: compared a word at a
/// time, then a byte at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Byte edits held compactly, as [`TextEdits`] holds text edits: each a
/// range of the input and a range of one buffer holding every replacement
/// (32 bytes an edit), a replacement equal to the one before it stored once.
/// An HTML document's byte edits are its text edits with their ranges
/// mapped to the input, the buffer taken over as it is when its bytes are
/// the output's (UTF-8, or ASCII in an ASCII-compatible encoding): a long
/// base times short links holds the base once, not once a link
/// (docs/hardening.md, "Memory").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteEdits {
    /// Each edit: the range of the input it replaces and its replacement in
    /// `bytes`.
    edits: Vec<HeldEdit>,
    /// The replacements held as a beginning of another and a rest.
    splits: Vec<Split>,
    /// The replacements.
    bytes: Vec<u8>,
}

impl ByteEdits {
    /// No edits.
    pub fn new() -> ByteEdits {
        ByteEdits::default()
    }

    /// The byte edits of `texts`, whose replacements are already the
    /// output's bytes, with each edit's range mapped by `map` (`None`: the
    /// edit is left out). The buffer is taken over, not copied.
    pub fn mapped(
        texts: TextEdits,
        mut map: impl FnMut(Range<usize>) -> Option<Range<usize>>,
    ) -> ByteEdits {
        let mut edits = texts.edits;
        edits.retain_mut(|e| match map(e.range.clone()) {
            Some(range) => {
                e.range = range;
                true
            }
            None => false,
        });
        ByteEdits {
            edits,
            splits: texts.splits,
            bytes: texts.texts.into_bytes(),
        }
    }

    /// Add the edit writing `bytes` over `range`, after those added before
    /// (a replacement equal to the one before it is stored once).
    pub fn push(&mut self, range: Range<usize>, bytes: &[u8]) {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        let text = at..self.bytes.len();
        if let Some(held) = repeat_of_last(&self.edits, &self.splits, &self.bytes, text.clone()) {
            self.bytes.truncate(at);
            self.edits.push(HeldEdit { range, text: held });
            return;
        }
        self.edits.push(HeldEdit { range, text });
    }

    /// Are there none?
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// The edits in order: each range and what is written there, in two
    /// pieces (the first empty unless the replacement shares its beginning
    /// with another).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Range<usize>, [&[u8]; 2])> + '_ {
        self.edits.iter().map(|e| {
            let [prefix, rest] = e.parts(&self.splits);
            (e.range.clone(), [&self.bytes[prefix], &self.bytes[rest]])
        })
    }

    /// The output of `input` with these edits (sorted, not overlapping) as
    /// its pieces, as [`pieces`].
    pub fn pieces<'a>(&'a self, input: &'a [u8]) -> Vec<&'a [u8]> {
        pieces_of(input, self.iter())
    }

    /// `input` with these edits applied, as [`apply`].
    #[cfg(test)]
    pub fn apply(&self, input: &[u8]) -> Vec<u8> {
        self.pieces(input).concat()
    }

    /// The edits, each with its replacement of its own.
    pub fn into_edits(self) -> Vec<Edit> {
        self.iter()
            .map(|(range, bytes)| Edit {
                range,
                bytes: bytes.concat(),
            })
            .collect()
    }
}

impl FromIterator<Edit<String>> for TextEdits {
    fn from_iter<I: IntoIterator<Item = Edit<String>>>(edits: I) -> TextEdits {
        let mut held = TextEdits::new();
        for edit in edits {
            held.push(edit.range, &edit.bytes);
        }
        held
    }
}

/// The output of `input` with `edits` (sorted, not overlapping) as the
/// pieces it is made of, in order: the bytes of `input` between the edits
/// and the replacements, every byte outside the edits copied exactly once.
/// Written one after the other they give the output without assembling it
/// (no second copy of the input). An edit that would overlap its
/// predecessor or lie past the end is skipped rather than corrupting the
/// output.
pub fn pieces<'a, B: AsRef<[u8]>>(input: &'a [u8], edits: &'a [Edit<B>]) -> Vec<&'a [u8]> {
    let edits = edits
        .iter()
        .map(|e| (e.range.clone(), [&[][..], e.bytes.as_ref()]));
    pieces_of(input, edits)
}

/// [`pieces`] of edits given as ranges and replacements in two parts (the
/// first left out when empty): the one rule for skipping an edit that
/// overlaps its predecessor or lies past the end.
fn pieces_of<'a>(
    input: &'a [u8],
    edits: impl ExactSizeIterator<Item = (Range<usize>, [&'a [u8]; 2])>,
) -> Vec<&'a [u8]> {
    let mut pieces = Vec::with_capacity(2 * edits.len() + 1);
    let mut at = 0;
    for (range, [prefix, rest]) in edits {
        if range.start < at || range.end > input.len() || range.end < range.start {
            continue;
        }
        pieces.push(&input[at..range.start]);
        if !prefix.is_empty() {
            pieces.push(prefix);
        }
        pieces.push(rest);
        at = range.end;
    }
    pieces.push(&input[at..]);
    pieces
}

/// `input` with `edits` (sorted, not overlapping) applied: [`pieces`]
/// put together.
pub fn apply<B: AsRef<[u8]>>(input: &[u8], edits: &[Edit<B>]) -> Vec<u8> {
    pieces(input, edits).concat()
}

/// `text` with `edits` of it (sorted, not overlapping, on character
/// boundaries) applied. An edit off a boundary, out of order or past the
/// end is skipped, as in [`pieces`].
pub fn apply_text(text: &str, edits: &[Edit<String>]) -> String {
    let extra: usize = edits.iter().map(|e| e.bytes.len()).sum();
    let edits = edits
        .iter()
        .map(|e| (e.range.clone(), ["", e.bytes.as_str()]));
    spliced_text(text, edits, extra)
}

/// [`apply_text`] of edits given as ranges and replacements (`extra`: about
/// how many bytes they add).
fn spliced_text<'e>(
    text: &str,
    edits: impl Iterator<Item = (Range<usize>, [&'e str; 2])>,
    extra: usize,
) -> String {
    let mut out = String::with_capacity(text.len() + extra);
    let mut at = 0;
    for (range, bytes) in edits {
        let range = &range;
        let (Some(before), true) = (
            text.get(at..range.start),
            range.end >= range.start && text.is_char_boundary(range.end),
        ) else {
            continue;
        };
        out.push_str(before);
        out.push_str(bytes[0]);
        out.push_str(bytes[1]);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Maps offsets in the text an input decodes to (UTF-8) to offsets in the
/// input, for offsets asked in increasing order: one pass over the input in
/// all. The one map of every format that edits a decoded text (HTML and
/// style sheets in any encoding, XHTML read from UTF-16).
pub enum OffsetMap<'a> {
    /// UTF-8: the same offsets, after the byte order mark.
    Identity(usize),
    /// A single-byte encoding: the UTF-8 length of each byte's character
    /// (3 for a byte it does not map, read as U+FFFD).
    SingleByte {
        input: &'a [u8],
        lengths: &'static [u8; 256],
        byte: usize,
        text: usize,
    },
    /// Anything else: a streaming decoder, fed up to the offset asked for.
    Decoder {
        input: &'a [u8],
        decoder: encoding_rs::Decoder,
        /// The shift state, in a stateful encoding (ISO-2022-JP).
        shift: Option<ShiftTracker>,
        byte: usize,
        text: usize,
    },
}

/// An ISO-2022-JP escape sequence (`ESC ( B`, `ESC ( J`, `ESC ( I`,
/// `ESC $ @`, `ESC $ B`): the shift state it selects. ISO-2022-JP is the one
/// stateful encoding of the Encoding Standard (ISO-2022-KR and -CN, HZ map to
/// its `replacement` encoding, UTF-7 is not in it), and its state is set by
/// these sequences alone (WHATWG Encoding §13.2.1).
pub type Escape = [u8; 3];

/// The initial state: ASCII (`ESC ( B`).
pub const TO_ASCII: Escape = *b"\x1B(B";

/// The valid escape sequence at `at` of `bytes`, if one starts there.
fn escape_at(bytes: &[u8], at: usize) -> Option<Escape> {
    match bytes.get(at..at.checked_add(3)?)? {
        [0x1B, b'(', b'B' | b'J' | b'I'] | [0x1B, b'$', b'@' | b'B'] => {
            Some([0x1B, bytes[at + 1], bytes[at + 2]])
        }
        _ => None,
    }
}

/// Do two escape sequences select the same state (`ESC $ @` and `ESC $ B`
/// both select JIS X 0208)?
fn same_state(a: Escape, b: Escape) -> bool {
    a == b || (a[1] == b'$' && b[1] == b'$')
}

/// The escape sequence in force after each point of an ISO-2022-JP input,
/// for points asked in increasing order: one pass over the input in all.
pub struct ShiftTracker {
    /// Every escape sequence before this offset has been read.
    scanned: usize,
    /// The last one.
    escape: Escape,
}

impl ShiftTracker {
    fn new(from: usize) -> ShiftTracker {
        ShiftTracker {
            scanned: from,
            escape: TO_ASCII,
        }
    }

    /// The escape sequence in force after the first `at` bytes of `input`.
    fn at(&mut self, input: &[u8], at: usize) -> Escape {
        let at = at.min(input.len());
        while self.scanned < at {
            let Some(i) = memchr::memchr(0x1B, &input[self.scanned..at]) else {
                self.scanned = at;
                break;
            };
            let esc = self.scanned + i;
            if esc + 3 > at {
                // Cut by `at`: read it whole on a later call.
                self.scanned = esc;
                break;
            }
            match escape_at(input, esc) {
                Some(escape) => {
                    self.escape = escape;
                    self.scanned = esc + 3;
                }
                None => self.scanned = esc + 1,
            }
        }
        self.escape
    }
}

/// The bytes that replace a range of an ISO-2022-JP input, so that the
/// output decodes to the input's text with the replacement in it:
/// `encoded` is the replacement as an encoder writes it (from ASCII, back to
/// ASCII at its end), `before` the escape sequence in force before the
/// range, `after` the one in force at its end and `next` the input byte
/// after it. The replacement enters ASCII first when it starts with ASCII
/// and `before` is another state, and ends in the state the bytes after it
/// expect (the input's own escape sequence), unless those bytes begin with
/// an escape sequence of their own. No two escape sequences are ever written
/// in a row: a decoder reads the first as an error (Encoding §13.2.1, the
/// output flag). The range must begin after a character, not an escape
/// sequence (as [`OffsetMap::start`] gives).
pub fn fit_to_shift(encoded: Vec<u8>, before: Escape, after: Escape, next: Option<u8>) -> Vec<u8> {
    let mut body = encoded;
    if body.ends_with(&TO_ASCII) {
        body.truncate(body.len() - TO_ASCII.len());
    }
    let mut out = Vec::with_capacity(body.len() + 6);
    let mut state = before;
    if !body.is_empty() && body[0] != 0x1B && !same_state(before, TO_ASCII) {
        out.extend_from_slice(&TO_ASCII);
        state = TO_ASCII;
    }
    let mut tracker = ShiftTracker::new(0);
    if memchr::memchr(0x1B, &body).is_some() {
        state = tracker.at(&body, body.len());
    }
    out.extend_from_slice(&body);
    if next != Some(0x1B) && !same_state(state, after) {
        out.extend_from_slice(&after);
    }
    out
}

/// The UTF-8 length of each byte's character in the single-byte
/// `encoding` (3 for a byte it does not map: U+FFFD), made once per
/// encoding and kept for the process: 256 decodes for every document cost
/// more than a tiny document's whole rewriting. At most one table of 256
/// bytes per single-byte encoding `encoding_rs` knows.
fn single_byte_lengths(encoding: &'static Encoding) -> &'static [u8; 256] {
    type Tables = Vec<(&'static Encoding, &'static [u8; 256])>;
    static TABLES: Mutex<Tables> = Mutex::new(Vec::new());
    let mut tables = TABLES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, lengths)) = tables.iter().find(|(known, _)| *known == encoding) {
        return lengths;
    }
    // Every single-byte encoding of the Encoding Standard reads 0x00-0x7F
    // as ASCII; the upper half is decoded in one call, one character a byte
    // (U+FFFD, 3 bytes, for a byte it does not map): 256 calls of a decoder
    // were 67,000 instructions, 7% of a small page's whole process.
    let mut lengths = [1u8; 256];
    let upper: Vec<u8> = (0x80..=0xFF).collect();
    let (text, _) = encoding.decode_without_bom_handling(&upper);
    for (len, c) in lengths[0x80..].iter_mut().zip(text.chars()) {
        *len = c.len_utf8() as u8;
    }
    let lengths: &'static [u8; 256] = Box::leak(Box::new(lengths));
    tables.push((encoding, lengths));
    lengths
}

impl<'a> OffsetMap<'a> {
    /// The map of `input`, in `encoding`, whose text starts after its first
    /// `bom_len` bytes (a byte order mark).
    pub fn new(input: &'a [u8], encoding: &'static Encoding, bom_len: usize) -> OffsetMap<'a> {
        if encoding == UTF_8 {
            OffsetMap::Identity(bom_len)
        } else if encoding.is_single_byte() {
            OffsetMap::SingleByte {
                input,
                lengths: single_byte_lengths(encoding),
                byte: bom_len,
                text: 0,
            }
        } else {
            OffsetMap::Decoder {
                input,
                decoder: encoding.new_decoder_without_bom_handling(),
                shift: (encoding == ISO_2022_JP).then(|| ShiftTracker::new(bom_len)),
                byte: bom_len,
                text: 0,
            }
        }
    }

    /// The map of `input` decoded as a browser does, each sequence
    /// `encoding` does not allow read as one U+FFFD (`html::charset`'s
    /// `decode_lossy`): as [`new`](Self::new), but in UTF-8 through a
    /// decoder, as the text's offsets are no longer the input's.
    pub fn replacing(
        input: &'a [u8],
        encoding: &'static Encoding,
        bom_len: usize,
    ) -> OffsetMap<'a> {
        if encoding == UTF_8 {
            return OffsetMap::Decoder {
                input,
                decoder: encoding.new_decoder_without_bom_handling(),
                shift: None,
                byte: bom_len,
                text: 0,
            };
        }
        OffsetMap::new(input, encoding, bom_len)
    }

    /// Is every offset's byte exactly known (no check needed)? Not through
    /// a decoder: a stateful encoding can spell one text in several ways.
    pub fn exact(&self) -> bool {
        !matches!(self, OffsetMap::Decoder { .. })
    }

    /// The earliest input offset after which the text up to `at` is
    /// decoded; `None` when `at` is inside a character, past the end or
    /// before an offset asked earlier.
    pub fn start(&mut self, at: usize) -> Option<usize> {
        match self {
            OffsetMap::Identity(bom) => Some(*bom + at),
            OffsetMap::SingleByte {
                input,
                lengths,
                byte,
                text,
            } => {
                while *text < at {
                    *text += usize::from(lengths[usize::from(*input.get(*byte)?)]);
                    *byte += 1;
                }
                (*text == at).then_some(*byte)
            }
            OffsetMap::Decoder {
                input,
                decoder,
                byte,
                text,
                ..
            } => {
                let mut out = [0u8; 4096];
                while *text < at {
                    // Feed in bulk while far from `at` (a byte gives at most
                    // three bytes of text, four with what is pending), then
                    // one byte at a time, so as to stop right where `at` is
                    // reached.
                    let room = (at - *text).saturating_sub(8) / 3;
                    let take = room.clamp(1, out.len() / 4 - 4).min(input.len() - *byte);
                    if take == 0 {
                        return None;
                    }
                    let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                        &input[*byte..*byte + take],
                        &mut out,
                        false,
                    );
                    *byte += read;
                    *text += written;
                    // A sequence the encoding does not allow is one U+FFFD,
                    // as in a text decoded lossily; counted here, not
                    // written with the next character, so that the offset
                    // between the two is found (a truncated sequence right
                    // before a value).
                    if let encoding_rs::DecoderResult::Malformed(..) = result {
                        *text += '\u{FFFD}'.len_utf8();
                    }
                }
                (*text == at).then_some(*byte)
            }
        }
    }

    /// In a stateful encoding (ISO-2022-JP), the escape sequence in force
    /// after the input's first `at` bytes ([`TO_ASCII`] at the start);
    /// `None` in any other encoding. Asked in increasing order.
    pub fn shift_at(&mut self, at: usize) -> Option<Escape> {
        match self {
            OffsetMap::Decoder {
                input,
                shift: Some(tracker),
                ..
            } => Some(tracker.at(input, at)),
            _ => None,
        }
    }

    /// The input range of the text range `range` (asked in increasing
    /// order, like [`start`](Self::start)): from the earliest offset to the
    /// earliest, so that in a stateful encoding the escape sequences after
    /// the range stay outside it (the bytes of a replacement are fitted to
    /// them: [`fit_to_shift`]).
    pub fn range(&mut self, range: &Range<usize>) -> Option<Range<usize>> {
        let start = self.start(range.start)?;
        Some(start..self.start(range.end)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(range: Range<usize>, with: &str) -> Edit {
        Edit {
            range,
            bytes: with.as_bytes().to_vec(),
        }
    }

    #[test]
    fn splices_in_order_and_copies_the_rest() {
        let edits = [edit(1..3, "ab"), edit(5..5, "+"), edit(8..10, "")];
        assert_eq!(apply(b"0123456789", &edits), b"0ab34+567");
        assert_eq!(
            pieces(b"0123456789", &edits),
            [&b"0"[..], b"ab", b"34", b"+", b"567", b"", b""]
        );
    }

    #[test]
    fn an_overlapping_or_outlying_edit_is_skipped() {
        let edits = [edit(1..5, "x"), edit(3..6, "y"), edit(9..12, "z")];
        assert_eq!(apply(b"0123456789", &edits), b"0x56789");
    }

    #[test]
    fn text_edits_keep_every_other_character() {
        let text = "a(é)c(dd)e";
        let edits = [
            Edit {
                range: 2..4,
                bytes: "X".to_string(),
            },
            // Off a character boundary: skipped.
            Edit {
                range: 3..5,
                bytes: "?".to_string(),
            },
            Edit {
                range: 7..9,
                bytes: "YYY".to_string(),
            },
        ];
        assert_eq!(apply_text(text, &edits), "a(X)c(YYY)e");
    }

    #[test]
    fn held_text_edits_store_a_repeated_replacement_once_and_sort_as_edits_do() {
        let mut held = TextEdits::new();
        held.push(6..7, "http://h/d/");
        held.push(1..2, "http://h/d/");
        held.push(6..7, "other");
        held.push(3..3, "é");
        // The same text twice in a row is stored once.
        assert_eq!(held.texts, "http://h/d/otheré");
        let sorted = held.sorted();
        let plain = sorted_plain();
        let got: Vec<_> = sorted.iter().map(|(r, t)| (r, t.concat())).collect();
        assert_eq!(
            got,
            plain
                .iter()
                .map(|e| (e.range.clone(), e.bytes.clone()))
                .collect::<Vec<_>>()
        );
        assert_eq!(sorted.apply("abcdefgh"), apply_text("abcdefgh", &plain));
        assert_eq!(sorted.apply("abcdefgh"), "ahttp://h/d/cédefhttp://h/d/h");
    }

    #[test]
    fn long_replacements_hold_only_what_follows_a_shared_beginning() {
        let base = format!("http://h.example/{}/", "é".repeat(300));
        let mut held = TextEdits::new();
        let mut plain = Vec::new();
        // Distinct short links under one long base, a short replacement and
        // a long one that shares nothing between them, in source order.
        let texts = [
            format!("{base}x0"),
            format!("{base}x1"),
            "http://o/".to_string(),
            format!("{base}x2"),
            format!("http://other.example/{}", "b".repeat(400)),
            format!("{base}x3"),
            format!("{base}x3"),
        ];
        for (i, text) in texts.iter().enumerate() {
            let range = 3 * i..3 * i + 1;
            held.push(range.clone(), text);
            plain.push(Edit {
                range,
                bytes: text.clone(),
            });
        }
        // The base held once, the other long text too (one of the last
        // `ANCHORS` long ones held whole); never once a link.
        let whole = texts[0].len() + texts[4].len();
        assert!(held.texts.len() < whole + 20, "{}", held.texts.len());
        let input = "a".repeat(30);
        assert_eq!(held.apply(&input), apply_text(&input, &plain));
        let got: Vec<_> = held.iter().map(|(r, t)| (r, t.concat())).collect();
        let want: Vec<_> = plain
            .iter()
            .map(|e| (e.range.clone(), e.bytes.clone()))
            .collect();
        assert_eq!(got, want);
        // As bytes, the buffer taken over: the same output.
        let bytes = ByteEdits::mapped(held, Some);
        assert_eq!(
            bytes.apply(input.as_bytes()),
            apply_text(&input, &plain).into_bytes()
        );
    }

    #[test]
    fn links_alternating_between_a_few_long_bases_hold_each_base_once() {
        let bases: Vec<String> = (0..=ANCHORS)
            .map(|b| format!("http://h{b}.example/{}/", "p".repeat(400)))
            .collect();
        let held_for = |bases: &[String]| {
            let mut held = TextEdits::new();
            let mut plain = Vec::new();
            for i in 0..100 {
                let text = format!("{}x{i}", bases[i % bases.len()]);
                held.push(2 * i..2 * i + 1, &text);
                plain.push(Edit {
                    range: 2 * i..2 * i + 1,
                    bytes: text,
                });
            }
            let input = "a".repeat(200);
            assert_eq!(held.apply(&input), apply_text(&input, &plain));
            held.texts.len()
        };
        // Up to `ANCHORS` bases in turn: each held once, then each link its
        // own text.
        for n in [2, ANCHORS] {
            let once = n * bases[0].len() + 100 * "x99".len();
            assert!(held_for(&bases[..n]) <= once, "{n} bases");
        }
        // One more than remembered: each evicted before its turn comes
        // again, held whole each time (the bound of the rule, not a goal).
        assert!(held_for(&bases) > 100 * bases[0].len());
    }

    /// The edits of `held_text_edits_store_a_repeated_replacement_once…` as
    /// `Edit<String>`s, through [`sorted`].
    fn sorted_plain() -> Vec<Edit<String>> {
        let edit = |range: Range<usize>, text: &str| Edit {
            range,
            bytes: text.to_string(),
        };
        sorted(vec![
            edit(6..7, "http://h/d/"),
            edit(1..2, "http://h/d/"),
            edit(6..7, "other"),
            edit(3..3, "é"),
        ])
    }

    #[test]
    fn sorted_drops_repeats() {
        let edits = vec![edit(5..6, "b"), edit(1..2, "a"), edit(5..6, "b")];
        assert_eq!(sorted(edits), [edit(1..2, "a"), edit(5..6, "b")]);
    }

    #[test]
    fn offsets_map_back_in_every_kind_of_encoding() {
        /// Name, input, its encoding, BOM length, a text offset, its input offset.
        type Case = (
            &'static str,
            &'static [u8],
            &'static Encoding,
            usize,
            usize,
            usize,
        );
        let cases: &[Case] = &[
            ("utf-8 bom", b"\xEF\xBB\xBF\xC3\xA9x", UTF_8, 3, 2, 5),
            ("windows-1252", b"\xE9x", encoding_rs::WINDOWS_1252, 0, 2, 1),
            ("shift_jis", b"\x82\xa0x", encoding_rs::SHIFT_JIS, 0, 3, 2),
            (
                "utf-16le",
                b"\xFF\xFE\xE9\0x\0",
                encoding_rs::UTF_16LE,
                2,
                2,
                4,
            ),
            (
                "utf-16be surrogates",
                b"\xD8\x34\xDD\x1E\0x",
                encoding_rs::UTF_16BE,
                0,
                4,
                4,
            ),
        ];
        for (name, input, encoding, bom, text_at, input_at) in cases {
            let mut map = OffsetMap::new(input, encoding, *bom);
            assert_eq!(map.start(*text_at), Some(*input_at), "{name}");
            assert_eq!(map.start(text_at + 1), Some(input.len()), "{name}");
        }
        // Inside a character: none.
        let mut map = OffsetMap::new(b"\x82\xa0x", encoding_rs::SHIFT_JIS, 0);
        assert_eq!(map.start(1), None);
        // ISO-2022-JP: a range ends before the escape sequence after it,
        // and the shift state at each end is known.
        let input = b"\x1B$B\x24\x22\x1B(Bx";
        let mut map = OffsetMap::new(input, ISO_2022_JP, 0);
        assert!(!map.exact());
        assert_eq!(map.shift_at(0), Some(TO_ASCII));
        assert_eq!(map.range(&(0..3)), Some(0..5));
        assert_eq!(map.shift_at(5), Some(*b"\x1B$B"));
        assert_eq!(map.shift_at(8), Some(TO_ASCII));
        assert_eq!(OffsetMap::new(input, UTF_8, 0).shift_at(8), None);
    }

    #[test]
    fn a_replacement_in_iso_2022_jp_enters_and_leaves_the_states_around_it() {
        const JIS: Escape = *b"\x1B$B";
        const JIS_AT: Escape = *b"\x1B$@";
        const ROMAN: Escape = *b"\x1B(J";
        // Name, the encoded replacement, before, after, the next byte, the bytes written.
        type Case = (
            &'static str,
            &'static [u8],
            Escape,
            Escape,
            Option<u8>,
            &'static [u8],
        );
        let cases: &[Case] = &[
            (
                "ascii in ascii",
                b"h/",
                TO_ASCII,
                TO_ASCII,
                Some(b'x'),
                b"h/",
            ),
            (
                "ascii before a kanji run whose escape is kept",
                b"h/",
                TO_ASCII,
                TO_ASCII,
                Some(0x1B),
                b"h/",
            ),
            (
                "ascii inside a kanji run: out and back in",
                b"h/",
                JIS,
                JIS,
                Some(0x24),
                b"\x1B(Bh/\x1B$B",
            ),
            (
                "the input's own escape is restored",
                b"h/",
                JIS_AT,
                JIS_AT,
                Some(0x24),
                b"\x1B(Bh/\x1B$@",
            ),
            (
                "ascii after a kanji run, before ascii",
                b"h/",
                JIS,
                TO_ASCII,
                Some(b'x'),
                b"\x1B(Bh/",
            ),
            (
                "ascii then the kanji the input goes on with",
                b"h/",
                TO_ASCII,
                JIS,
                Some(0x24),
                b"h/\x1B$B",
            ),
            (
                "roman is not ascii",
                b"h/",
                ROMAN,
                ROMAN,
                Some(b'x'),
                b"\x1B(Bh/\x1B(J",
            ),
            (
                "kanji ending where kanji goes on: no escape back",
                b"\x1B$B\x24\x22\x1B(B",
                TO_ASCII,
                JIS,
                Some(0x24),
                b"\x1B$B\x24\x22",
            ),
            (
                "kanji before an escape: none twice in a row",
                b"a\x1B$B\x24\x22\x1B(B",
                TO_ASCII,
                TO_ASCII,
                Some(0x1B),
                b"a\x1B$B\x24\x22",
            ),
            (
                "kanji at the end of the input, back to ascii",
                b"\x1B$B\x24\x22\x1B(B",
                TO_ASCII,
                TO_ASCII,
                None,
                b"\x1B$B\x24\x22\x1B(B",
            ),
            (
                "nothing, between two states",
                b"",
                JIS,
                TO_ASCII,
                Some(b'x'),
                b"\x1B(B",
            ),
            ("nothing, in one state", b"", JIS, JIS, Some(0x24), b""),
        ];
        for (name, encoded, before, after, next, want) in cases {
            let got = fit_to_shift(encoded.to_vec(), *before, *after, *next);
            assert_eq!(got, *want, "{name}");
        }
    }

    #[test]
    fn a_single_byte_encodings_table_is_made_once_and_gives_each_bytes_utf8_length() {
        let (a, b) = (
            single_byte_lengths(encoding_rs::WINDOWS_1252),
            single_byte_lengths(encoding_rs::WINDOWS_1252),
        );
        assert!(std::ptr::eq(a, b), "one table per encoding");
        // WHATWG Encoding: 0x41 is A, 0xE9 é (U+00E9), 0x80 € (U+20AC).
        assert_eq!((a[0x41], a[0xE9], a[0x80]), (1, 2, 3));
        // ISO-8859-8 leaves 0xA1 unmapped (U+FFFD, 3 bytes); 0xE0 is א (U+05D0).
        let hebrew = single_byte_lengths(encoding_rs::ISO_8859_8);
        assert!(!std::ptr::eq(a, hebrew));
        assert_eq!((hebrew[0xA1], hebrew[0xE0]), (3, 2));
    }

    /// The table made from one decode of the upper half is, byte for byte,
    /// what decoding each byte alone gives, in every single-byte encoding.
    #[test]
    fn a_single_byte_table_is_each_bytes_own_decoding() {
        use encoding_rs::*;
        let all = [
            IBM866,
            ISO_8859_2,
            ISO_8859_3,
            ISO_8859_4,
            ISO_8859_5,
            ISO_8859_6,
            ISO_8859_7,
            ISO_8859_8,
            ISO_8859_8_I,
            ISO_8859_10,
            ISO_8859_13,
            ISO_8859_14,
            ISO_8859_15,
            ISO_8859_16,
            KOI8_R,
            KOI8_U,
            MACINTOSH,
            WINDOWS_874,
            WINDOWS_1250,
            WINDOWS_1251,
            WINDOWS_1252,
            WINDOWS_1253,
            WINDOWS_1254,
            WINDOWS_1255,
            WINDOWS_1256,
            WINDOWS_1257,
            WINDOWS_1258,
            X_MAC_CYRILLIC,
            X_USER_DEFINED,
        ];
        for encoding in all {
            assert!(encoding.is_single_byte(), "{}", encoding.name());
            let table = single_byte_lengths(encoding);
            for b in 0..=255u8 {
                let alone = encoding
                    .decode_without_bom_handling_and_without_replacement(&[b])
                    .map_or(3, |c| c.len() as u8);
                assert_eq!(
                    table[usize::from(b)],
                    alone,
                    "{} byte {b:#04x}",
                    encoding.name()
                );
            }
        }
    }
}
