//! The edits of a message, each with its place; they are spliced in by
//! `crate::splice` (one pass, every byte outside the edited ranges copied
//! exactly once).

use crate::splice::Edit;

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

/// One edit of a message: the edit, and where it lies (for the checks that
/// each edit stays inside its region: `tests/support/src/splice_check.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartEdit {
    /// The range of the input replaced, and what is written instead.
    pub edit: Edit,
    /// Where the edit lies.
    pub place: EditPlace,
    /// The part path (`""` for the top-level message).
    pub part: String,
}
