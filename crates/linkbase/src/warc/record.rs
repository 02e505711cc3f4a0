//! One WARC record as read: its version line, its named fields (order and
//! spelling kept) and its block.

/// A WARC record.
#[derive(Debug, Clone)]
pub struct Record {
    /// Where the record starts: for a `.warc.gz` written one gzip member per
    /// record, the member's byte offset in the file (as CDX indexes and
    /// `warcio index` give it); otherwise its offset in the uncompressed stream.
    pub offset: u64,
    /// The header fields, in order, as written (values unfolded and trimmed).
    pub fields: Vec<(String, String)>,
    /// The block, or `None` when it was over the size limit (skipped unread).
    pub block: Option<Vec<u8>>,
}

impl Record {
    /// The value of field `name` (case-insensitive), the first if repeated.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`, lower-cased (`response`, `resource`, …); empty when absent.
    pub fn record_type(&self) -> String {
        self.field("WARC-Type").unwrap_or("").to_ascii_lowercase()
    }

    /// `WARC-Record-ID` as written (`<urn:uuid:…>`); empty when absent.
    pub fn id(&self) -> &str {
        self.field("WARC-Record-ID").unwrap_or("")
    }

    /// `WARC-Target-URI`, without the angle brackets some WARC/1.0 writers
    /// put around it.
    pub fn target_uri(&self) -> Option<&str> {
        let uri = self.field("WARC-Target-URI")?.trim();
        let uri = uri
            .strip_prefix('<')
            .and_then(|u| u.strip_suffix('>'))
            .unwrap_or(uri);
        (!uri.is_empty()).then_some(uri)
    }

    /// The block's `Content-Type`, if given.
    pub fn content_type(&self) -> Option<&str> {
        self.field("Content-Type")
    }
}

/// The media type of a `Content-Type` value: lower-cased, parameters removed.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The value of parameter `name` of a `Content-Type` value (quotes removed).
pub fn parameter<'a>(content_type: &'a str, name: &str) -> Option<&'a str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_parts() {
        assert_eq!(media_type(" Text/HTML ; charset=EUC-KR"), "text/html");
        assert_eq!(
            parameter("text/html; Charset=\"euc-kr\"", "charset"),
            Some("euc-kr")
        );
        assert_eq!(parameter("text/html", "charset"), None);
        assert_eq!(
            parameter("application/http; msgtype=response", "msgtype"),
            Some("response")
        );
    }

    #[test]
    fn target_uri_loses_warc_1_0_angle_brackets() {
        let record = Record {
            offset: 0,
            fields: vec![("WARC-Target-URI".into(), "<http://a/b>".into())],
            block: None,
        };
        assert_eq!(record.target_uri(), Some("http://a/b"));
    }
}
