//! The character data of one element, as the XML reader handed it out in
//! runs (text, character and entity references, CDATA sections), decoded
//! to one string with a map back to the bytes it came from; and a value
//! written back into the runs it replaces, escaped as they were.

use crate::splice::{Edit, OffsetMap};
use crate::xhtml::encoding::XmlInput;
use crate::xhtml::value;
use std::ops::Range;

/// One run of an element's character data, as written.
#[derive(Clone, Debug)]
pub enum Run {
    /// Text with no reference in it.
    Text(Range<usize>),
    /// A reference, `&` to `;` included.
    Ref(Range<usize>),
    /// The inside of a CDATA section.
    CData(Range<usize>),
}

/// One piece of the decoded text and where it came from: text, a CDATA
/// section, or a reference and the text that directly follows it (one
/// piece for both: escaped HTML is a reference every few bytes, and a piece
/// each held 32 bytes for each of them).
#[derive(Clone, Debug)]
struct Piece {
    /// Where it starts in the decoded text.
    at: usize,
    /// The bytes it was read from.
    source: Range<usize>,
    /// A reference's written length (`&` to `;`), the start of `source`;
    /// what follows it in `source` is text.
    written: u32,
    /// A reference's decoded length (one character), the start of the
    /// piece's decoded text.
    decoded: u8,
    /// What kind of run it is.
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Text: offsets inside map through the encoding.
    Text,
    /// A reference (one unit, never split), then text.
    Ref,
    /// A CDATA section.
    CData,
}

/// An element's character data decoded, with the map back to the source.
pub struct Decoded<'w> {
    /// The text.
    pub text: String,
    pieces: Vec<Piece>,
    /// The map of the text piece last asked about in a legacy encoding: its
    /// index and the map, which goes forward only (offsets are asked in
    /// increasing order: one pass over each piece in all).
    map: std::cell::RefCell<Option<(usize, usize, OffsetMap<'w>)>>,
}

/// Why character data cannot be read.
pub type Unreadable = String;

/// An element's character data as the reader hands it out, decoded run by
/// run: the text and its pieces, never the runs themselves (escaped HTML
/// content is a run every few bytes).
#[derive(Default)]
pub struct Collected {
    text: String,
    pieces: Vec<Piece>,
    unreadable: Option<Unreadable>,
    /// Where the first run starts in the source.
    first: Option<usize>,
}

impl Collected {
    /// No run yet.
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// Where the first run starts in the source.
    pub fn first_start(&self) -> Option<usize> {
        self.first
    }

    /// Decode `run` of `work`'s bytes onto the text: text and CDATA from
    /// the document's encoding, references resolved (XML's five entities
    /// and character references; any other entity makes the data
    /// unreadable).
    pub fn push(&mut self, work: &XmlInput<'_>, run: Run) {
        let (source, kind) = match run {
            Run::Text(r) => (r, Kind::Text),
            Run::Ref(r) => (r, Kind::Ref),
            Run::CData(r) => (r, Kind::CData),
        };
        self.first.get_or_insert(source.start);
        if self.unreadable.is_some() {
            return;
        }
        let at = self.text.len();
        let read = match kind {
            Kind::Ref => reference(work, &source).map(|t| self.text.push_str(&t)),
            _ if work.is_utf8() => std::str::from_utf8(&work.bytes()[source.clone()])
                .map(|run| self.text.push_str(run))
                .map_err(|_| "bytes that are not UTF-8".to_string()),
            _ => value::decode_text(work, &source).map(|t| self.text.push_str(&t)),
        };
        if let Err(why) = read {
            self.unreadable = Some(why);
            return;
        }
        if let (Kind::Text, Some(last)) = (kind, self.pieces.last_mut()) {
            // Text right after a reference alone: the reference's piece.
            if last.kind == Kind::Ref
                && last.source.end == source.start
                && last.written as usize == last.source.len()
            {
                last.source.end = source.end;
                return;
            }
        }
        let (written, decoded) = match kind {
            Kind::Ref => match (
                u32::try_from(source.len()),
                u8::try_from(self.text.len() - at),
            ) {
                (Ok(w), Ok(d)) => (w, d),
                _ => {
                    self.unreadable = Some("a reference longer than 4 GiB".to_string());
                    return;
                }
            },
            _ => (0, 0),
        };
        self.pieces.push(Piece {
            at,
            source,
            written,
            decoded,
            kind,
        });
    }

    /// The text decoded, or why it cannot be read; the runs pushed are
    /// taken (`first_start` stays).
    pub fn finish<'w>(&mut self) -> Result<Decoded<'w>, Unreadable> {
        if let Some(why) = self.unreadable.take() {
            return Err(why);
        }
        Ok(Decoded {
            text: std::mem::take(&mut self.text),
            pieces: std::mem::take(&mut self.pieces),
            map: std::cell::RefCell::new(None),
        })
    }
}

impl<'w> Decoded<'w> {
    /// Decode `runs` of `work`'s bytes ([`Collected::push`] each).
    #[cfg(test)]
    pub fn new(work: &'w XmlInput<'_>, runs: &[Run]) -> Result<Decoded<'w>, Unreadable> {
        let mut collected = Collected::default();
        for run in runs {
            collected.push(work, run.clone());
        }
        collected.finish()
    }

    /// The piece the decoded offset `at` is in (the last one starting at
    /// or before it); `end`: `at` ends a range (the piece holding `at - 1`).
    fn piece(&self, at: usize, end: bool) -> Option<usize> {
        let n = if end {
            self.pieces.partition_point(|p| p.at < at)
        } else {
            self.pieces.partition_point(|p| p.at <= at)
        };
        n.checked_sub(1)
    }

    /// Where the decoded offset `at` is in the source, as the start (or,
    /// `end`, the end) of a range.
    fn source_offset(&self, work: &'w XmlInput<'_>, at: usize, end: bool) -> Option<usize> {
        let index = self.piece(at, end)?;
        let piece = &self.pieces[index];
        let mut inside = at - piece.at;
        // The text: after the reference the piece may start with.
        let mut text_start = piece.source.start;
        if piece.kind == Kind::Ref {
            let decoded = usize::from(piece.decoded);
            if inside < decoded {
                // Inside the reference: a whole unit.
                return Some(match end && inside > 0 {
                    true => piece.source.start + piece.written as usize,
                    false => piece.source.start,
                });
            }
            inside -= decoded;
            text_start += piece.written as usize;
        }
        match piece.kind {
            _ if work.is_utf8() => Some(text_start + inside),
            _ => {
                let mut cache = self.map.borrow_mut();
                let fresh = match &*cache {
                    Some((i, last, _)) => *i != index || *last > inside,
                    None => true,
                };
                if fresh {
                    let bytes = &work.bytes()[text_start..piece.source.end];
                    *cache = Some((index, 0, OffsetMap::new(bytes, work.encoding, 0)));
                }
                let (_, last, map) = cache.as_mut()?;
                *last = inside;
                // An ASCII-compatible encoding (XmlInput takes no other):
                // no shift state, so a range ends where its text ends.
                map.start(inside).map(|o| text_start + o)
            }
        }
    }

    /// The edit of `work`'s bytes that writes `new` in place of the decoded
    /// range `range`: escaped as text (`&`, `<`, `]]>`) over text and
    /// references, as it is inside one CDATA section. `Err` says why it
    /// cannot be written (the range crosses a CDATA section's edge, or the
    /// new text cannot be in a CDATA section).
    pub fn edit(
        &self,
        work: &'w XmlInput<'_>,
        range: Range<usize>,
        new: &str,
    ) -> Result<Edit, &'static str> {
        let first = self.piece(range.start, false).ok_or("no text")?;
        let last = self.piece(range.end, true).unwrap_or(first).max(first);
        let kinds = &self.pieces[first..=last];
        let in_cdata = kinds[0].kind == Kind::CData;
        if kinds
            .iter()
            .any(|p| (p.kind == Kind::CData) != in_cdata || (in_cdata && kinds.len() > 1))
        {
            return Err("a value runs across a CDATA section's edge");
        }
        let start = self
            .source_offset(work, range.start, false)
            .ok_or("an offset outside the text")?;
        let end = self
            .source_offset(work, range.end, true)
            .ok_or("an offset outside the text")?;
        let bytes = if in_cdata {
            if new.contains("]]>") {
                return Err("a rewritten value holds `]]>`, which a CDATA section cannot");
            }
            work.encode_exactly(new)
                .ok_or("a rewritten value holds characters the feed's encoding cannot write in a CDATA section")?
        } else {
            work.encode(&value::text(new))
        };
        Ok(Edit {
            range: start..end,
            bytes,
        })
    }
}

/// The text the reference written at `source` stands for: one of XML's five
/// entities or a character reference; `Err` for any other entity.
fn reference(
    work: &XmlInput<'_>,
    source: &Range<usize>,
) -> Result<std::borrow::Cow<'static, str>, Unreadable> {
    let written = &work.bytes()[source.clone()];
    let known = match written {
        b"&lt;" => "<",
        b"&gt;" => ">",
        b"&amp;" => "&",
        b"&quot;" => "\"",
        b"&apos;" => "'",
        _ => {
            let written = value::decode_text(work, source)?;
            return quick_xml::escape::unescape(&written)
                .map(|t| t.into_owned().into())
                .map_err(|_| format!("the entity {written}, which XML does not define"));
        }
    };
    Ok(known.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs_of(doc: &str) -> Vec<Run> {
        // `a &amp; <![CDATA[<b>]]>&#233;x`
        let mut runs = Vec::new();
        let t = doc.find("a ").unwrap();
        runs.push(Run::Text(t..t + 2));
        let r = doc.find("&amp;").unwrap();
        runs.push(Run::Ref(r..r + 5));
        let c = doc.find("<b>").unwrap();
        runs.push(Run::CData(c..c + 3));
        let e = doc.find("&#233;").unwrap();
        runs.push(Run::Ref(e..e + 6));
        runs.push(Run::Text(e + 6..e + 7));
        runs
    }

    #[test]
    fn decoded_offsets_map_back_and_values_are_written_as_their_runs() {
        let doc = "<x>a &amp; <![CDATA[<b>]]>&#233;x</x>";
        let work = XmlInput::new(doc.as_bytes(), None).unwrap();
        let d = Decoded::new(&work, &runs_of(doc)).unwrap();
        assert_eq!(d.text, "a &<b>éx");
        // The CDATA `<b>`, written raw.
        let b = d.text.find("<b>").unwrap();
        let e = d.edit(&work, b..b + 3, "<i>").unwrap();
        assert_eq!(&doc[e.range.clone()], "<b>");
        assert_eq!(e.bytes, b"<i>");
        // `&` and `é` with `x`: references are whole units, new text escaped.
        let amp = d.text.find('&').unwrap();
        let e = d.edit(&work, amp..amp + 1, "&&").unwrap();
        assert_eq!(&doc[e.range.clone()], "&amp;");
        assert_eq!(e.bytes, b"&amp;&amp;");
        let acute = d.text.find('é').unwrap();
        let e = d.edit(&work, acute..d.text.len(), "<y").unwrap();
        assert_eq!(&doc[e.range.clone()], "&#233;x");
        assert_eq!(e.bytes, b"&lt;y");
        // Across a CDATA section's edge: refused.
        assert!(d.edit(&work, 0..b + 1, "z").is_err());
    }

    #[test]
    fn undefined_entities_make_the_text_unreadable() {
        let doc = "<x>&nbsp;</x>";
        let work = XmlInput::new(doc.as_bytes(), None).unwrap();
        assert!(Decoded::new(&work, &[Run::Ref(3..9)]).is_err());
    }
}
