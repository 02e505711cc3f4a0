//! Write the input with edits spliced in: one pass, every byte outside the
//! edited ranges copied exactly once.

use std::ops::Range;

/// Where an edit lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditPlace {
    /// The whole body of a `text/html` or `text/css` part.
    Body,
    /// The URL bytes of a `Content-Location` header value.
    ContentLocation,
    /// The whole body of a base64 or quoted-printable `message/rfc822` part
    /// (decoded, rewritten inside, encoded again).
    EnclosedMessage,
    /// The `Content-Transfer-Encoding` of a `text/html` or `text/css` part
    /// whose 7bit/8bit body had to become quoted-printable: the header's value,
    /// or a header line inserted at the end of the part's header block.
    TransferEncoding,
}

/// One replacement of a range of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes of the input replaced.
    pub range: Range<usize>,
    /// What is written instead.
    pub replacement: Vec<u8>,
    /// Where the edit lies.
    pub place: EditPlace,
    /// The part path (`""` for the top-level message).
    pub part: String,
}

/// `input` with `edits` applied. The edits must be sorted and not overlap
/// (the planner produces them so); an edit that would overlap its predecessor
/// is skipped rather than corrupting the output.
pub fn apply(input: &[u8], edits: &[Edit]) -> Vec<u8> {
    pieces(input, edits).concat()
}

/// [`apply`]'s output as the pieces it is made of, in order: the bytes of
/// `input` between the edits and the edits' replacements. Written one after
/// the other they give the output without assembling it (no second copy of
/// the input).
pub fn pieces<'a>(input: &'a [u8], edits: &'a [Edit]) -> Vec<&'a [u8]> {
    crate::html::splice::pieces_of(
        input,
        edits.iter().map(|e| (e.range.clone(), &e.replacement[..])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(range: Range<usize>, with: &str) -> Edit {
        Edit {
            range,
            replacement: with.as_bytes().to_vec(),
            place: EditPlace::Body,
            part: "1".into(),
        }
    }

    #[test]
    fn splices_in_order_and_copies_the_rest() {
        let out = apply(
            b"0123456789",
            &[edit(1..3, "ab"), edit(5..5, "+"), edit(8..10, "")],
        );
        assert_eq!(out, b"0ab34+567");
    }

    #[test]
    fn overlapping_edit_is_skipped() {
        let out = apply(b"0123456789", &[edit(1..5, "x"), edit(3..6, "y")]);
        assert_eq!(out, b"0x56789");
    }
}
