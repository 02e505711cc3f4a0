//! What is known about one document before it is read: [`DocumentContext`],
//! the one value every format's layer (HTML, XHTML, CSS, feeds, MIME parts,
//! WARC payloads) is handed. It holds the run's settings by reference and
//! the facts of this one input (its retrieval URL, the base from outside,
//! its own URL, the transport charset, the `Content-Location`, its format,
//! the offline copy it belongs to, where it is), and derives the context of
//! a document inside it (a MIME part, a WARC record's payload, a feed's
//! content, an `iframe srcdoc` document) without copying anything: every
//! field is a reference or a small value, so a derivation is a copy of a
//! few words.

use crate::base::EstablishedBase;
use crate::format::Format;
use crate::offline::Document;
use crate::options::{Options, Source};
use crate::report::{Location, Report, Severity};
use encoding_rs::Encoding;

/// The facts of one document and the run's settings, as each layer reads
/// them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DocumentContext<'a> {
    /// The settings of the whole run (profile, `--attr`, force, records).
    pub options: &'a Options,
    /// The URL the input was retrieved from (rule 5.3), as given.
    pub url: Option<&'a str>,
    /// What the input is ([`Format::Auto`]: not known yet).
    pub format: Format,
    /// The `Content-Location` its transport gave (a feed's base over the
    /// retrieval URL).
    pub content_location: Option<&'a str>,
    /// The charset its transport declared (MIME `charset`, an HTTP
    /// `Content-Type`, `--charset`).
    pub transport_charset: Option<&'static Encoding>,
    /// The offline copy the document is a file of (`linkbase offline`).
    pub offline: Option<&'a Document>,
    /// The base from outside the document (MIME headers, enclosing entity,
    /// retrieval URL), used when there is no `<base href>`, and against which
    /// a relative `<base href>` is resolved. With `None` the HTML layer falls
    /// back to a `<!-- saved from url=… -->` comment, then to no base (5.4).
    pub base: Option<&'a EstablishedBase>,
    /// The document's own URL (for `manifest`, which ignores `<base>`).
    pub document_url: Option<&'a EstablishedBase>,
    /// Where the document is, for records and messages.
    pub location: &'a Location,
    /// Is the document the layer's input given whole (not a MIME part nor
    /// content inside a feed)? Then its link records carry spans when its
    /// text is its bytes ([`crate::report::LinkRecord::span`]).
    pub whole_input: bool,
    /// Are same-document references (`#frag`, empty) resolved too? The
    /// run's setting, or always inside a feed (docs/feeds.md).
    pub absolutize_fragments: bool,
}

impl<'a> DocumentContext<'a> {
    /// The context of an input at `location` of which nothing is known,
    /// under `options`.
    pub(crate) fn new(options: &'a Options, location: &'a Location) -> Self {
        DocumentContext {
            options,
            url: None,
            format: Format::Auto,
            content_location: None,
            transport_charset: None,
            offline: None,
            base: None,
            document_url: None,
            location,
            whole_input: false,
            absolutize_fragments: options.absolutize_fragments,
        }
    }

    /// The context of the input `source` describes, at `location`, under
    /// `options`; no base established yet.
    pub(crate) fn for_input(
        options: &'a Options,
        source: &'a Source,
        location: &'a Location,
    ) -> Self {
        DocumentContext {
            url: source.url(),
            format: source.format(),
            content_location: source.content_location(),
            transport_charset: source.charset(),
            offline: source.offline(),
            ..DocumentContext::new(options, location)
        }
    }

    /// The same context with `charset` as the transport's.
    pub(crate) fn with_charset(self, charset: Option<&'static Encoding>) -> Self {
        DocumentContext {
            transport_charset: charset,
            ..self
        }
    }

    /// The context of a WARC record's payload at `location`: its retrieval
    /// URL (the record's target), its format, its `Content-Location` (read
    /// for a feed only), its transport charset (the payload's, else this
    /// one's). Not in an offline copy unless this one is.
    pub(crate) fn for_record(
        &self,
        url: Option<&'a str>,
        format: Format,
        content_location: Option<&'a str>,
        charset: Option<&'static Encoding>,
        location: &'a Location,
    ) -> Self {
        DocumentContext {
            url,
            format,
            content_location,
            transport_charset: charset.or(self.transport_charset),
            base: None,
            document_url: None,
            location,
            ..*self
        }
    }

    /// The same document established under `base` (from outside it), also
    /// taken as its own URL.
    pub(crate) fn with_base<'b>(&self, base: Option<&'b EstablishedBase>) -> DocumentContext<'b>
    where
        'a: 'b,
    {
        DocumentContext {
            base,
            document_url: base,
            ..*self
        }
    }

    /// The same document given whole to its layer ([`Self::whole_input`]).
    pub(crate) fn whole(self) -> Self {
        DocumentContext {
            whole_input: true,
            ..self
        }
    }

    /// The same document as a file of the offline copy `document` is in.
    pub(crate) fn in_copy(self, document: &'a Document) -> Self {
        DocumentContext {
            offline: Some(document),
            ..self
        }
    }

    /// The same document outside any offline copy (a MIME message: an
    /// MHTML archive finds its parts by their URLs).
    pub(crate) fn without_offline(self) -> Self {
        DocumentContext {
            offline: None,
            ..self
        }
    }

    /// The context of a MIME part at `location` under `base` (also its own
    /// URL), its transport charset its `charset` parameter, else this one's.
    pub(crate) fn for_part<'b>(
        &self,
        charset: Option<&'static Encoding>,
        base: Option<&'b EstablishedBase>,
        location: &'b Location,
    ) -> DocumentContext<'b>
    where
        'a: 'b,
    {
        DocumentContext {
            transport_charset: charset.or(self.transport_charset),
            base,
            document_url: base,
            location,
            whole_input: false,
            ..*self
        }
    }

    /// The context of a feed: same-document references are resolved too (a
    /// feed has no "same document": an entry is shown away from the page
    /// its base names, and RFC 4287 §3.2 reads `#frag` against that base).
    pub(crate) fn for_feed(self) -> Self {
        DocumentContext {
            absolutize_fragments: true,
            ..self
        }
    }

    /// The context of content under `base` inside a feed (escaped, CDATA,
    /// base64 or XHTML content), its text handed over in `charset` (UTF-8
    /// when decoded from the feed; `None` for base64 bytes, whose encoding
    /// they say).
    pub(crate) fn for_content<'b>(
        &self,
        base: Option<&'b EstablishedBase>,
        charset: Option<&'static Encoding>,
    ) -> DocumentContext<'b>
    where
        'a: 'b,
    {
        DocumentContext {
            base,
            document_url: base,
            transport_charset: charset,
            whole_input: false,
            ..*self
        }
    }

    /// The context of an `iframe srcdoc` document inside this one: `base`
    /// from outside it (the one this document gives), this one's own URL.
    pub(crate) fn for_srcdoc<'b>(&self, base: Option<&'b EstablishedBase>) -> DocumentContext<'b>
    where
        'a: 'b,
    {
        DocumentContext { base, ..*self }
    }

    /// The retrieval base (rule 5.3) [`Self::url`] gives, if given and
    /// usable ([`crate::check_base`]); an unusable one is reported (at
    /// [`Self::location`]) as an error.
    pub(crate) fn retrieval_base(&self, report: &mut Report) -> Option<EstablishedBase> {
        let url = self.url?;
        match crate::options::retrieval(url, self.options.profile) {
            Ok(base) => Some(base),
            Err(message) => {
                report.problem(self.location, Severity::Error, message);
                None
            }
        }
    }
}
