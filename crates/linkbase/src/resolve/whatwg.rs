//! The `whatwg` profile: the WHATWG URL Standard through the `url` crate.
//! Nothing here re-implements the standard; this adapter only maps errors
//! and passes the document's encoding for query strings.

use super::url_crate_guard::shortens_past_inner_drive_letter;
use super::{BaseError, ResolveError, Resolved};
use std::borrow::Cow;

/// Why an input the `url` crate would mis-resolve is refused.
const DRIVE_LETTER_DEFECT: &str = "the `url` crate would shorten this file: path wrongly (it keeps a Windows drive letter segment that is not the first; URL Standard: only the first)";

/// A base parsed by the URL Standard's parser.
#[derive(Clone, Debug)]
pub(super) struct WhatwgBase {
    text: String,
    url: url::Url,
    /// The document's encoding, used for the query of special-scheme URLs.
    query_encoding: Option<&'static encoding_rs::Encoding>,
}

impl WhatwgBase {
    pub fn parse(text: &str) -> Result<Self, BaseError> {
        if shortens_past_inner_drive_letter(None, text) {
            return Err(BaseError::Unparseable(format!(
                "{}: {DRIVE_LETTER_DEFECT}",
                crate::quote::quote(text)
            )));
        }
        let url = url::Url::parse(text)
            .map_err(|e| BaseError::Unparseable(format!("{}: {e}", crate::quote::quote(text))))?;
        Ok(WhatwgBase {
            text: text.to_string(),
            url,
            query_encoding: None,
        })
    }

    pub fn set_query_encoding(&mut self, encoding: &'static encoding_rs::Encoding) {
        self.query_encoding = (encoding != encoding_rs::UTF_8).then_some(encoding);
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The base as the URL Standard serializes it.
    pub fn url_str(&self) -> &str {
        self.url.as_str()
    }

    /// Parse the absolute URL `text` on its own, with this base's query
    /// encoding: how a document with this base reads an absolute URL.
    pub fn parse_alone(&self, text: &str) -> Result<String, ResolveError> {
        if shortens_past_inner_drive_letter(None, text) {
            return Err(ResolveError::Unsupported(DRIVE_LETTER_DEFECT.to_string()));
        }
        let encoding = self.query_encoding.unwrap_or(encoding_rs::UTF_8);
        let encode = query_encoder(move |s| encode_query(encoding, s));
        let options = url::Url::options();
        let options = if self.query_encoding.is_some() {
            options.encoding_override(Some(&encode))
        } else {
            options
        };
        options
            .parse(text)
            .map(String::from)
            .map_err(|e| ResolveError::Invalid(e.to_string()))
    }

    pub fn is_hierarchical(&self) -> bool {
        !self.url.cannot_be_a_base()
    }

    pub fn resolve<'r>(&self, reference: &'r str) -> Result<Resolved<'r>, ResolveError> {
        let encoding = self.query_encoding.unwrap_or(encoding_rs::UTF_8);
        let encode = query_encoder(move |s| encode_query(encoding, s));
        let options = url::Url::options().base_url(Some(&self.url));
        let options = if self.query_encoding.is_some() {
            options.encoding_override(Some(&encode))
        } else {
            options
        };
        if shortens_past_inner_drive_letter(Some(&self.url), reference) {
            return Err(ResolveError::Unsupported(DRIVE_LETTER_DEFECT.to_string()));
        }
        match options.parse(reference) {
            Ok(url) => Ok(Resolved {
                url: Cow::Owned(url.into()),
                same_document: is_same_document(reference),
            }),
            Err(_) if !self.is_hierarchical() && !super::has_scheme(reference) => {
                Err(ResolveError::BaseNotHierarchical(self.text.clone()))
            }
            Err(e) => Err(ResolveError::Invalid(e.to_string())),
        }
    }
}

/// The URL Standard strips leading and trailing C0 controls and spaces and
/// removes every tab and newline before parsing; what remains is a
/// same-document reference when it is empty or starts with `#`.
fn is_same_document(reference: &str) -> bool {
    reference
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .find(|c| !matches!(c, '\t' | '\n' | '\r'))
        .is_none_or(|c| c == '#')
}

/// `query` in `encoding`, as the URL Standard's "percent-encode after
/// encoding" has it: a character the encoding cannot hold becomes `&#N;`,
/// and those bytes are percent-encoded too (`%26%23N%3B`; `encoding_rs`
/// alone would leave `&`, `;` for the `url` crate, which keeps them).
fn encode_query<'a>(encoding: &'static encoding_rs::Encoding, query: &'a str) -> Cow<'a, [u8]> {
    let (bytes, _, unmappable) = encoding.encode(query);
    if !unmappable {
        return bytes;
    }
    let mut out = Vec::with_capacity(query.len() * 2);
    let mut buffer = [0u8; 4];
    for c in query.chars() {
        let (encoded, _, unmappable) = encoding.encode(c.encode_utf8(&mut buffer));
        if unmappable {
            out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
        } else {
            out.extend_from_slice(&encoded);
        }
    }
    Cow::Owned(out)
}

/// Give a closure the higher-ranked signature `url` expects of an encoder.
fn query_encoder<F>(f: F) -> F
where
    F: for<'a> Fn(&'a str) -> Cow<'a, [u8]>,
{
    f
}
