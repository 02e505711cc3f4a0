//! The HTML layer: establish a document's base and rewrite every URL-bearing
//! place. Knows nothing of MIME; the caller hands in a fallback base.
//!
//! PROVISIONAL: the HTML issue (#3) implements this module.

use crate::base::EstablishedBase;
use crate::options::Options;
use crate::report::{Location, Report};
use encoding_rs::Encoding;

pub mod refresh;
pub mod srcset;

/// What the caller knows about a document before it is parsed.
#[derive(Clone, Copy, Debug)]
pub struct HtmlContext<'a> {
    /// The options in force.
    pub options: &'a Options,
    /// The base from outside the document (MIME headers, enclosing entity,
    /// retrieval URL), used when there is no `<base href>`, and against which
    /// a relative `<base href>` is resolved. With `None` the layer falls back
    /// to a `<!-- saved from url=… -->` comment, then to no base (5.4).
    pub base: Option<&'a EstablishedBase>,
    /// The document's own URL (for `manifest`, which ignores `<base>`).
    pub document_url: Option<&'a EstablishedBase>,
    /// The charset the transport declared (MIME `charset`, `--charset`).
    pub transport_charset: Option<&'static Encoding>,
    /// Where the document is, for records and messages.
    pub location: &'a Location,
}

/// Rewrite the document in `input`. `None` when nothing had to change (the
/// caller then keeps the input bytes exactly).
pub fn rewrite_html(input: &[u8], ctx: &HtmlContext<'_>, report: &mut Report) -> Option<Vec<u8>> {
    let _ = (input, ctx, report);
    None
}
