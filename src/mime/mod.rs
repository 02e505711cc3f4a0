//! The MIME layer: walk a message or web archive, establish each part's base,
//! rewrite `text/html` and `text/css` parts, splice the results back.
//!
//! PROVISIONAL: the MIME issue (#4) implements this module.

use crate::options::Options;
use crate::report::{Location, Report};

/// Rewrite a MIME message. `None` when nothing had to change.
pub fn rewrite_message(
    input: &[u8],
    options: &Options,
    location: &Location,
    report: &mut Report,
) -> Option<Vec<u8>> {
    let _ = (input, options, location, report);
    None
}
