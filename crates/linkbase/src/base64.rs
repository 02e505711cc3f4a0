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

/// Decode `value` by the module's rule.
pub fn decode(value: &[u8]) -> Result<Vec<u8>, Refusal> {
    let is_symbol = |b: &u8| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/';
    let end = memchr::memchr(b'=', value).unwrap_or(value.len());
    if value[end..].iter().any(is_symbol) {
        return Err(Refusal::DataAfterPadding);
    }
    let mut symbols: Vec<u8> = value[..end].iter().copied().filter(is_symbol).collect();
    if symbols.len() % 4 == 1 {
        // One stray symbol cannot carry a byte.
        symbols.pop();
    }
    BASE64_NOPAD
        .decode(&symbols)
        .map_err(|e| Refusal::Invalid(e.to_string()))
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
    fn refuses_data_after_the_padding() {
        assert_eq!(decode(b"QQ==QUJD"), Err(Refusal::DataAfterPadding));
        assert_eq!(decode(b"QQ==\r\n"), Ok(b"A".to_vec()));
    }
}
