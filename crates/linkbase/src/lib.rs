//! # linkbase
//!
//! Rewrite every link in HTML documents, MIME messages (e-mail, MHTML web
//! archives), style sheets, feeds (Atom, RSS) and WARC web archives to absolute form, by the
//! base-URL precedence of the URL specifications, changing nothing else.
//!
//! ## Entry points
//!
//! docs/library.md shows each use case with an example. At the root, the
//! names most programs need:
//!
//! - [`rewrite`]: one input in memory, any format, in one call: the output
//!   ([`Rewrite::output`], borrowed when nothing changed) and the [`Report`].
//! - [`plan_rewrite`]: the same, the output not assembled
//!   ([`PlannedRewrite::pieces`], [`PlannedRewrite::edits`]): for writing a
//!   large message out piece by piece without a second copy.
//! - [`explain`]: which base each document or part gets and the rule
//!   (5.1–5.4) that set it, rewriting nothing.
//! - [`detect()`]: what an input is, by the one rule the command line and
//!   Python use too.
//! - [`Base`] and [`resolve()`]: reference resolution alone, under one of
//!   five [`Profile`]s, against a base parsed once; [`check_base`]: whether
//!   a retrieval URL can serve as a base, and why not, and
//!   [`options::check_url_prefix`] the same for a folder's URL prefix, by
//!   the one rule the command line and Python use too.
//! - [`Options`] say how, for a whole run; a [`Source`] says what is known
//!   about one input (its name, retrieval URL, charset, [`Format`]); the
//!   [`Report`] says what became of every link and lists every problem.
//! - [`Encoding`]: `encoding_rs`' type, re-exported on purpose, for
//!   [`Source::with_charset`] (`Encoding::for_label(b"latin1")`).
//!
//! The rest, grouped:
//!
//! - [`report`]: what a [`Report`] holds ([`report::LinkRecord`],
//!   [`report::Outcome`], [`report::Problem`] with its
//!   [`report::Severity`] and [`report::Location`]), and what [`explain`]
//!   gives ([`report::Explanation`]).
//! - [`resolve`](mod@resolve): the errors and results of resolution.
//! - [`base`]: which base rule set a base ([`base::BaseRule`]), and the
//!   absolute URL a value stands for against one ([`base::absolute_url`]).
//! - [`options`]: what an [`Options`] and a [`Source`] hold, [`check_base`] and
//!   [`options::check_url_prefix`].
//! - [`detect`](mod@detect): the detection rule and its parts
//!   (`looks_like_html`, `looks_like_message`, `looks_like_feed`).
//! - [`html`]: the links of an html5ever `RcDom` the caller already holds
//!   ([`html::absolutize_rcdom`]), and which attributes of which elements
//!   hold URLs ([`html::link_kind`]).
//! - [`warc`]: a WARC from any reader to any writer, record by record
//!   ([`warc::convert`]), its explanation ([`warc::explain_records`]).
//! - [`offline`] and [`archive_copy`]: offline copies (`linkbase offline`,
//!   docs/offline.md).
//! - [`limits`]: the limits the library works within.
//!
//! Nothing fails: what cannot be processed is left as it was and reported.
//!
//! ```
//! use linkbase::{rewrite, Options, Source};
//! let source = Source::new().with_url("https://example.org/docs/guide/page.html");
//! let out = rewrite(b"<a href=\"../intro.html\">intro</a>", &source, &Options::new());
//! assert_eq!(
//!     &out.output[..],
//!     b"<a href=\"https://example.org/docs/intro.html\">intro</a>"
//! );
//! ```
//!
//! ## Inside
//!
//! The layers are private, or public with only their public face
//! (`report`, `resolve`, `base`, `options`, `detect`, `html`, `warc`,
//! `offline`, `archive_copy`).
//! This list is the one list of the library's modules, in their layer
//! order: each module uses only those listed before it. `tests/integration/layers.rs`
//! reads the order from here (the names in backquotes that start each
//! bullet) and checks every `crate::`, `super::` and `self::` path against
//! it; a new module needs a bullet in its place. docs/architecture.md draws
//! the same modules and their imports (`scripts/module-graph.py`). The
//! command line, `src/cli/`, is the binary's and may use all.
//!
//! - `base64`: base64 as linkbase reads it, one rule for MIME bodies and
//!   feeds (skipped bytes, missing padding, no data after the padding).
//! - `quote`: how a message quotes input (at most 80 characters): the
//!   one place that decides it, for every layer.
//! - `splice`: the one output model: the input with `Edit`s
//!   (a range and what is written instead) spliced in, and the one map from
//!   offsets in a decoded text back to the input's. Knows nothing else.
//! - `resolve`: reference resolution, five profiles ([`Profile`]), a
//!   pre-parsed [`Base`]: reference splitting, the dot-segment stack, one
//!   module per profile family, the WHATWG adapter. Knows nothing of HTML,
//!   MIME or I/O.
//! - `base`: which base applies — the precedence of 5.1–5.4
//!   (`base::in_force`) — and the one function that establishes a base
//!   from a value under its rule (`base::establish`), for every format,
//!   with the one rule a retrieval URL must pass (`base::check_retrieval`,
//!   [`check_base`]).
//! - `report`: what happened (per-link records, per-part problems, messages
//!   as data).
//! - `format`: what kind of document an input is ([`Format`]: the one
//!   file-name rule, the one media-type rule, `looks_like_html`).
//! - [`offline`]: offline copies: the map from the URLs a copy holds to its
//!   files (the URL key, the naming rule, a wget mirror's layout read
//!   backwards), and the link text from one file to another.
//! - `options`: what was asked: the run's settings ([`Options`]) and what
//!   is known about one input ([`Source`]: its retrieval URL, charset,
//!   format, the offline copy it belongs to), the one rule a retrieval URL
//!   must pass ([`check_base`]).
//! - `context`: what is known about one document before it is read (the
//!   one `DocumentContext`: the run's options, the input's retrieval URL,
//!   format, transport charset, `Content-Location` and offline copy, the
//!   base from outside, where it is), and the context of each document
//!   inside it (a WARC record's payload, a MIME part, a feed's content, an
//!   `iframe srcdoc`), derived without copying. Every format's layer is
//!   handed one.
//! - `policy`: what happens to one URL-bearing value (left alone, resolved,
//!   reported) — one place for every layer; under the default profile and
//!   `whatwg` a rewritten value leads where a browser went from the original.
//! - `css`, `html`, `xhtml`, in that order: the syntax of URLs in CSS
//!   (cssparser); an HTML document, or a whole style sheet, in its encoding
//!   (charset, html5ever into a light arena with source spans, the
//!   declarative attribute table, values spliced into the input's bytes,
//!   the same rules over an `RcDom`, `srcset`, refresh); an XHTML document
//!   with XML rules (quick-xml). Each rewrites given a fallback base.
//! - `feed`: a web feed (Atom, RSS, RDF) with XML rules: the bases its
//!   nested `xml:base` attributes set, its URL places, and its escaped,
//!   CDATA, base64 and XHTML content through the HTML and XHTML layers.
//! - `by_format`: the one map from a single document's format (HTML, XHTML,
//!   CSS, feed) to its layer, for rewriting and for explaining alike.
//! - `mime`: walk a message, establish each part's base, decode and encode
//!   transfer encodings, splice rewritten parts back byte-exactly.
//! - `document`: an input that is not a web archive (one document, or
//!   one MIME message) handed to its layer, to be rewritten (the [`PlannedRewrite`] it gives) or
//!   explained, by the same dispatch.
//! - `warc`: web archives: read a WARC record by record (streaming, gzip and
//!   zstd members, resynchronisation), HTTP bodies, which records, and write
//!   the rewritten payloads as `conversion` records of a new WARC.
//! - `detect`: what an input is when nobody said (name, content, the
//!   retrieval URL): the crate's one detection rule.
//! - `input`: any input: detect its format and dispatch: the one-call entry
//!   point [`rewrite`], [`plan_rewrite`] for writing the output out in
//!   pieces without assembling it, and [`explain`] (which base each
//!   document, part or record gets) by the same path.
//! - `archive_copy`: an offline copy of web archives: the captures the
//!   `warc` layer indexes, named by `offline`, each payload rewritten by
//!   `input` with the copy set, written to a folder.
//! - `fuzzing`: the internal layers the fuzz targets drive, with the
//!   feature of that name only; not part of the public API.
//! - `doc_example_tests`: the documentation's examples, run (tests only).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(unnameable_types)]

pub mod archive_copy;
pub mod base;
mod base64;
mod by_format;
mod context;
mod css;
pub mod detect;
#[cfg(test)]
mod doc_example_tests;
mod document;
mod feed;
mod format;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod html;
mod input;
mod mime;
pub mod offline;
pub mod options;
mod policy;
mod quote;
pub mod report;
pub mod resolve;
mod splice;
pub mod warc;
mod xhtml;

pub use detect::detect;
pub use format::Format;
pub use input::{explain, plan_rewrite, rewrite, PlannedRewrite, Rewrite};
pub use options::{check_base, Options, Source};
pub use report::Report;
pub use resolve::{resolve, Base, Profile};

/// A character encoding: `encoding_rs`' type, re-exported on purpose so
/// that a transport charset can be given ([`Source::with_charset`]) without
/// depending on `encoding_rs`; [`Encoding::for_label`] finds one by its
/// label (`b"latin1"`, `b"shift_jis"`). Its version is the one
/// linkbase's Cargo.toml names (a major version of `encoding_rs` is a
/// major version of linkbase).
pub use encoding_rs::Encoding;

/// The limits the library works within, beyond those an [`Options`] sets.
/// The others are beside what they limit: [`report::MAX_PROBLEMS`],
/// [`offline::MAX_NAME`], [`warc::wacz::MAX_PAGE_LINE`],
/// [`warc::wacz::MAX_PAGE_LIST`].
pub mod limits {
    /// How deep MIME parts may nest (multipart within multipart, or an
    /// enclosed `message/rfc822`): the parts below are left as they are and
    /// a problem says so.
    pub use crate::mime::walk::MAX_DEPTH as MAX_MIME_DEPTH;
}

/// The examples of docs/library.md, run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct LibraryGuide;

/// The library example of docs/offline.md, run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/offline.md")]
struct OfflineGuide;
