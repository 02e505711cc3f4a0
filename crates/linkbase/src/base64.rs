//! Base64 as linkbase reads it, one rule for every layer that decodes it (a
//! MIME body, `Content-Transfer-Encoding: base64`; a feed's Atom 0.3
//! `mode="base64"` content): characters outside the alphabet are skipped
//! (line breaks, white space, stray bytes), missing padding is tolerated,
//! and a value with data after its `=` padding is refused. The rewritten
//! content replaces the whole value, encoded again from what was decoded:
//! what follows the padding (a second value glued on, which decoders read
//! differently or not at all) would be lost, so such a value is not decoded
//! at all and stays as it is.

use data_encoding::BASE64_NOPAD;

/// Why a value was not decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Symbols of the alphabet after the first `=`.
    DataAfterPadding,
    /// The symbols do not decode (a last symbol with bits that cannot be
    /// there).
    Invalid(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::DataAfterPadding => f.write_str("data after its `=` padding"),
            Refusal::Invalid(why) => write!(f, "symbols that cannot be decoded ({why})"),
        }
    }
}

/// Symbols decoded at a time (a multiple of 4): the symbols are gathered a
/// piece at a time, never all copied before decoding, so decoding holds the
/// value and what it decodes to, no more.
const PIECE: usize = 64 << 10;

/// Decode `value` by the module's rule.
pub fn decode(value: &[u8]) -> Result<Vec<u8>, Refusal> {
    let is_symbol = |b: &u8| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/';
    let end = memchr::memchr(b'=', value).unwrap_or(value.len());
    if value[end..].iter().any(is_symbol) {
        return Err(Refusal::DataAfterPadding);
    }
    let mut out = Vec::with_capacity(end / 4 * 3 + 3);
    let mut piece = Vec::with_capacity(PIECE.min(end));
    // Symbols before this piece (for the position an error names).
    let mut before = 0;
    for b in value[..end].iter().filter(|b| is_symbol(b)) {
        piece.push(*b);
        if piece.len() == PIECE {
            decode_piece(&piece, before, &mut out)?;
            before += piece.len();
            piece.clear();
        }
    }
    if piece.len() % 4 == 1 {
        // One stray symbol cannot carry a byte.
        piece.pop();
    }
    decode_piece(&piece, before, &mut out)?;
    Ok(out)
}

/// Decode the symbols `piece` onto `out`; `before`: the symbols before it.
fn decode_piece(piece: &[u8], before: usize, out: &mut Vec<u8>) -> Result<(), Refusal> {
    let invalid = |e: data_encoding::DecodeError| {
        Refusal::Invalid(format!("{} at {}", e.kind, before + e.position))
    };
    let len = BASE64_NOPAD.decode_len(piece.len()).map_err(invalid)?;
    let at = out.len();
    out.resize(at + len, 0);
    let n = BASE64_NOPAD
        .decode_mut(piece, &mut out[at..])
        .map_err(|partial| invalid(partial.error))?;
    out.truncate(at + n);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_what_is_outside_the_alphabet_and_tolerates_missing_padding() {
        assert_eq!(decode(b"QU\r\nJD\n!RA"), Ok(b"ABCD".to_vec()));
        assert_eq!(decode(b"QUJDRA=="), Ok(b"ABCD".to_vec()));
    }

    #[test]
    fn decodes_across_pieces_as_in_one() {
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let mut encoded = data_encoding::BASE64.encode(&bytes).into_bytes();
        // Line breaks every 76 symbols, as a MIME body has them.
        let lines: Vec<u8> = encoded
            .chunks(76)
            .flat_map(|l| l.iter().copied().chain(*b"\r\n"))
            .collect();
        assert_eq!(decode(&lines), Ok(bytes.clone()));
        // A last symbol whose bits cannot be, past the first piece: named
        // at its place in all, as data_encoding names it decoding at once.
        encoded.truncate(encoded.len() - 5);
        let last = encoded.len() - 1;
        encoded[last] = b'B';
        assert!(encoded.len() > PIECE);
        let whole = BASE64_NOPAD.decode(&encoded).unwrap_err();
        assert_eq!(
            decode(&encoded),
            Err(Refusal::Invalid(format!(
                "{} at {}",
                whole.kind, whole.position
            )))
        );
    }

    #[test]
    fn refuses_data_after_the_padding() {
        assert_eq!(decode(b"QQ==QUJD"), Err(Refusal::DataAfterPadding));
        assert_eq!(decode(b"QQ==\r\n"), Ok(b"A".to_vec()));
    }
}
