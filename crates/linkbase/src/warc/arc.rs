//! ARC files (the Internet Archive's format before WARC, versions 1 and 2)
//! read as WARC records: each ARC record's header line (`URL IP DATE
//! CONTENT-TYPE LENGTH` in version 1; `URL IP DATE CONTENT-TYPE CODE
//! CHECKSUM LOCATION OFFSET FILENAME LENGTH` in version 2) becomes the
//! fields of a record the converter reads like a WARC one: a `response` when
//! its block is an HTTP response (ARC keeps the whole response), else a
//! `resource`; the `filedesc://` record is the file's `warcinfo`. ARC has no
//! record IDs: a conversion refers to its original by URL and date
//! (`WARC-Refers-To-Target-URI`, `WARC-Refers-To-Date`, WARC 1.1 §5.11–12).

/// The field that marks a record read from an ARC file (its URL and its
/// 14-digit date), never written.
pub const ARC_FIELD: &str = "ARC-Record";

/// An ARC record's header line, as much of it as linkbase uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The URL (`filedesc://NAME` for the file's first record).
    pub url: String,
    /// The 14-digit archive date, `YYYYMMDDhhmmss`.
    pub date: String,
    /// The content type the crawler saw.
    pub content_type: String,
    /// The length of the block after the line.
    pub length: u64,
}

/// Parse a header line (without its `\n`).
pub fn parse_header(line: &[u8]) -> Result<Header, String> {
    let text = String::from_utf8_lossy(line);
    let fields: Vec<&str> = text.split(' ').filter(|f| !f.is_empty()).collect();
    if fields.len() != 5 && fields.len() != 10 {
        return Err(format!(
            "not an ARC record header (5 or 10 fields): `{}`",
            crate::quote::clip(&text).escape_debug()
        ));
    }
    let date = fields[2];
    if date.len() < 14 || !date.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "ARC record header with a bad date `{}`",
            crate::quote::clip(date).escape_debug()
        ));
    }
    let length = fields[fields.len() - 1].parse().map_err(|_| {
        format!(
            "ARC record header with a bad length `{}`",
            crate::quote::clip(fields[fields.len() - 1]).escape_debug()
        )
    })?;
    Ok(Header {
        url: fields[0].to_string(),
        date: date[..14].to_string(),
        content_type: fields[3].to_string(),
        length,
    })
}

/// Could `line` (without its `\n`) start an ARC record? (For
/// resynchronisation: a URL, an address, a 14-digit date.)
pub fn looks_like_header(line: &[u8]) -> bool {
    parse_header(line).is_ok() && line.contains(&b':')
}

/// The fields of the WARC-like record an ARC record is read as.
pub fn fields(header: &Header, block: &[u8]) -> Vec<(String, String)> {
    let (kind, content_type) = if header.url.starts_with("filedesc:") {
        ("warcinfo", header.content_type.clone())
    } else if block.starts_with(b"HTTP/") {
        ("response", "application/http; msgtype=response".to_string())
    } else {
        ("resource", header.content_type.clone())
    };
    vec![
        ("WARC-Type".into(), kind.into()),
        ("WARC-Target-URI".into(), header.url.clone()),
        ("WARC-Date".into(), warc_date(&header.date)),
        ("Content-Type".into(), content_type),
        (ARC_FIELD.into(), format!("{} {}", header.url, header.date)),
    ]
}

/// `YYYYMMDDhhmmss` as a WARC date (`YYYY-MM-DDThh:mm:ssZ`).
pub fn warc_date(date: &str) -> String {
    let d = |range: std::ops::Range<usize>| date.get(range).unwrap_or("00");
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        date.get(0..4).unwrap_or("0000"),
        d(4..6),
        d(6..8),
        d(8..10),
        d(10..12),
        d(12..14)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_1_and_2_header_lines() {
        let v1 =
            parse_header(b"http://www.example.com/ 1.2.3.4 19960923142103 text/html 1234").unwrap();
        assert_eq!(
            v1,
            Header {
                url: "http://www.example.com/".into(),
                date: "19960923142103".into(),
                content_type: "text/html".into(),
                length: 1234
            }
        );
        let v2 = parse_header(
            b"http://a.example/b 1.2.3.4 20050614070159 text/html 200 ABC http://a.example/ 1433 IA-001.arc 99",
        )
        .unwrap();
        assert_eq!((v2.length, v2.date.as_str()), (99, "20050614070159"));
        assert!(parse_header(b"<html><body>").is_err());
        assert!(parse_header(b"http://a/ 1.2.3.4 1996 text/html 5").is_err());
        assert_eq!(warc_date("19960923142103"), "1996-09-23T14:21:03Z");
    }
}
