//! Internal layers, for the fuzz targets, the property tests and the
//! fixture checks that test a layer on its own (`fuzz/`, `tests/support/src/`,
//! `tests/support/`). Only with the `fuzzing` cargo feature, which is off by
//! default: the fuzz crate enables it, and the crate's own tests and benches
//! get it through its dev-dependency on itself. **Not part of the public
//! API**: no stability promise, no use outside linkbase's own checks; a
//! library user has the entry points of the crate root instead
//! (docs/library.md).

/// The HTML layer's character encoding: how a document's encoding is
/// determined (BOM, transport, `<meta>` prescan, guess) and how it is
/// decoded — the checks decode the output exactly as the rewriter read the
/// input.
pub mod charset {
    pub use crate::html::charset::{
        decode, decode_lossy, sniff, BrokenBytes, Charset, CharsetSource, Decoded, Undecodable,
    };
}

/// The MIME layer: the entity tree of a message and the byte-exact edits
/// that rewrite it, each with its place.
pub mod mime {
    pub use crate::mime::walk::{walk, Entity, Header, Structure};
    pub use crate::mime::{EditPlace, PartEdit};
    use crate::options::{Options, Source};
    use crate::report::{Location, Report};
    pub use crate::splice::Edit;

    /// The edits that rewrite the message `input` (of `source`) at
    /// `location` as `options` say, sorted, not overlapping.
    pub fn plan(
        input: &[u8],
        source: &Source,
        options: &Options,
        location: &Location,
        report: &mut Report,
    ) -> Vec<PartEdit> {
        let ctx = crate::context::DocumentContext::for_input(options, source, location);
        crate::mime::plan(input, &ctx, report)
    }
}

/// Content-Transfer-Encodings of MIME bodies: decoding, and the newline
/// convention a body is written in.
pub mod transfer {
    pub use crate::mime::transfer::{decode, Newline, TransferEncoding, TransferError};
}

/// The rewriters of values with their own syntax, each calling back for
/// every URL in it: style sheets, `srcset` candidate lists and `<meta
/// http-equiv=refresh>` content.
pub mod strings {
    pub use crate::css::rewrite_css;
    pub use crate::html::refresh::{refresh_url, rewrite_refresh, RefreshUrl};
    pub use crate::html::srcset::{candidate_urls, rewrite_srcset, CandidateUrls};
}

/// Scheme detection and the fast path on which the rewriter skips the
/// browser check.
pub mod resolve {
    // Wrappers, not re-exports: these are crate-only in `linkbase::resolve`.

    /// Does `reference` start with a scheme?
    pub fn has_scheme(reference: &str) -> bool {
        crate::resolve::has_scheme(reference)
    }

    /// Is `value` a reference the rewriter may resolve without the browser check?
    pub fn is_plain_reference(value: &str) -> bool {
        crate::resolve::is_plain_reference(value)
    }

    /// Length of the scheme (without the colon) when `s` starts with one.
    pub fn scheme_len(s: &str) -> Option<usize> {
        crate::resolve::scheme_len(s)
    }
}

/// The light parse (`html::dom::light`) checked against the full tree
/// builder: everything the rewrite's walk reads of a document, compared.
pub mod light_parse {
    pub use crate::html::dom::light::Bail;
    use crate::options::Options;

    /// Parse `text` both ways, keeping the attributes `options` keeps:
    /// `Ok(None)` when the light parse ran and gave the same as the full
    /// one, `Ok(Some(why))` when it gave up (the full parse then runs),
    /// `Err` with both views when they differ.
    pub fn compare(text: &str, options: &Options) -> Result<Option<Bail>, String> {
        crate::html::rewrite::compare_parses(text, options)
    }
}
