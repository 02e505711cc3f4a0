//! Digests as crawlers write them (`sha1:` + base32, the WARC spec's
//! example and what Heritrix, wget and warcio write) and record IDs derived
//! from a name (a UUID built from a SHA-1 hash, as RFC 9562 version 5), so
//! that the same input and options give the same IDs.

use sha1::{Digest, Sha1};

/// `sha1:` and the base32 (RFC 4648) SHA-1 of `bytes`.
pub fn sha1_base32(bytes: &[u8]) -> String {
    let hash = Sha1::digest(bytes);
    format!("sha1:{}", data_encoding::BASE32.encode(&hash))
}

/// A SHA-1 digest being computed over several pieces.
#[derive(Default)]
pub struct Sha1Digest(Sha1);

impl Sha1Digest {
    /// Add `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// `sha1:` and the base32 digest.
    pub fn finish(self) -> String {
        format!("sha1:{}", data_encoding::BASE32.encode(&self.0.finalize()))
    }
}

/// A `<urn:uuid:…>` record ID named by `parts`: a version-5-shaped UUID
/// (SHA-1 of the parts, each followed by a NUL, version and variant bits
/// set), the same for the same parts.
pub fn record_id(parts: &[&str]) -> String {
    let mut hash = Sha1::new();
    hash.update(b"linkbase WARC record\0");
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&hash.finalize()[..16]);
    bytes[6] = (bytes[6] & 0x0F) | 0x50;
    bytes[8] = (bytes[8] & 0x3F) | 0x80;
    let hex = data_encoding::HEXLOWER.encode(&bytes);
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_base32_matches_known_values() {
        // SHA-1 of "" and of "abc" (FIPS 180), in base32.
        assert_eq!(sha1_base32(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assert_eq!(sha1_base32(b"abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
        let mut d = Sha1Digest::default();
        d.update(b"a");
        d.update(b"bc");
        assert_eq!(d.finish(), sha1_base32(b"abc"));
    }

    #[test]
    fn record_ids_are_uuid_shaped_and_depend_on_every_part() {
        let a = record_id(&["<urn:uuid:1>", "options"]);
        assert_eq!(a, record_id(&["<urn:uuid:1>", "options"]));
        assert_ne!(a, record_id(&["<urn:uuid:1>", "other options"]));
        assert_ne!(a, record_id(&["<urn:uuid:1>options", ""]));
        let uuid = a
            .strip_prefix("<urn:uuid:")
            .unwrap()
            .strip_suffix('>')
            .unwrap();
        let groups: Vec<usize> = uuid.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12]);
        assert_eq!(&uuid[14..15], "5");
        assert!(matches!(&uuid[19..20], "8" | "9" | "a" | "b"));
    }
}
