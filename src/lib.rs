//! # linkbase
//!
//! Rewrite every link in HTML documents and MIME messages (e-mail, MHTML web
//! archives) to absolute form, by the base-URL precedence of the URL
//! specifications, changing nothing else.
//!
//! The crate is layered: each module uses only those listed before it
//! (`tests/layers.rs` checks every `crate::` and `super::` path against this
//! order; the command line, `src/cli/`, is the binary's and may use all):
//!
//! - [`resolve`]: reference resolution, five profiles ([`Profile`]), a
//!   pre-parsed [`Base`]. Knows nothing of HTML, MIME or I/O.
//! - [`base`]: which base applies — the precedence of 5.1–5.4
//!   ([`base::in_force`]) — and the one function that establishes a base
//!   from a value under its rule ([`base::establish`]), for every format.
//! - [`report`], [`options`]: what happened (links, problems) and what was
//!   asked (the options, the retrieval base `--url` gives).
//! - [`policy`]: what happens to one URL-bearing value (left alone, resolved,
//!   reported) — one place for every layer; under the default profile and
//!   `whatwg` a rewritten value leads where a browser went from the original.
//! - [`css`], [`html`], [`xhtml`], in that order: the syntax of URLs in CSS;
//!   an HTML document, or a whole style sheet, in its encoding; an XHTML
//!   document. Each rewrites given a fallback base.
//! - [`mime`]: walk a message, establish each part's base, splice rewritten
//!   parts back byte-exactly.
//! - `planned`: one document of a known format handed to its layer, and the
//!   [`PlannedRewrite`] it gives.
//! - [`warc`]: web archives: read a WARC record by record, write the
//!   rewritten payloads as `conversion` records of a new WARC.
//! - [`document`]: detect an input's format and dispatch: the one-call entry
//!   point [`rewrite`], and [`plan_rewrite`] for writing the output out in
//!   pieces without assembling it.
//!
//! ```
//! use linkbase::{Options, rewrite};
//! let mut options = Options::new();
//! options.url = Some("https://example.org/docs/guide/page.html".into());
//! let out = rewrite(b"<a href=\"../intro.html\">intro</a>", &options, None);
//! assert_eq!(
//!     &out.output[..],
//!     b"<a href=\"https://example.org/docs/intro.html\">intro</a>"
//! );
//! ```

pub mod base;
pub mod css;
pub mod document;
pub mod html;
pub mod mime;
pub mod options;
mod planned;
pub mod policy;
pub mod report;
pub mod resolve;
pub mod warc;
pub mod xhtml;

pub use base::{BaseRule, EstablishedBase};
pub use document::{detect_format, plan_rewrite, rewrite, PlannedRewrite, Rewrite};
pub use options::{Format, Options};
pub use report::{LeftWithoutBase, LinkRecord, Location, Outcome, Problem, Report, Severity};
pub use resolve::{Base, BaseError, Profile, ResolveError, Resolved};
