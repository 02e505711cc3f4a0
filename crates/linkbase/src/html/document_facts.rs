//! What the HTML layer knows of one document before it offers the first
//! link: [`DocumentFacts`], derived once per document (a file, an `RcDom`,
//! an XHTML document, each `iframe srcdoc` document) and read by every
//! decision about its values. The report is not among them: a fact is never
//! changed by a link, so the per-link [`LinkRewriter`] can borrow the bases
//! while it holds the `&mut Report` the outcomes go to.

use super::base_element::embedded_base;
use super::charset::{Broken, Charset};
use super::links::{link_kind, AttrNs, ElementNs, LinkKind};
use super::saved_from::saved_from_base;
use crate::base::{self, establish, BaseRule, EstablishedBase};
use crate::context::DocumentContext;
use crate::policy::LinkRewriter;
use crate::report::Report;
use encoding_rs::Encoding;

/// What one element's URL-bearing attributes are resolved with, beyond its
/// document's facts ([`DocumentFacts::element_rules`]).
pub(crate) struct ElementRules {
    /// Is its `content` a refresh URL (a `meta` with `http-equiv=refresh`)?
    pub(crate) refresh: bool,
    /// The base of its `classid`: an `object`'s `codebase`, resolved, when
    /// it has a `classid`.
    pub(crate) codebase: Option<EstablishedBase>,
}

/// One document's facts: what the caller knows of it, what its encoding
/// and its place among `srcdoc` documents make of that, and the bases its
/// tree sets. Made by [`new`](Self::new) before the parse (the parser needs
/// the `srcdoc` depth) and completed by [`with_bases`](Self::with_bases) once
/// the parse has found the document's `<base href>` and leading comments;
/// not changed after.
pub(crate) struct DocumentFacts<'a> {
    /// The options, the base from outside (MIME, `--url`, a parent
    /// document), the document's own URL (for `manifest`), where it is.
    pub(crate) ctx: DocumentContext<'a>,
    /// The encoding URL queries are written in (`whatwg` profile).
    pub(crate) query_encoding: &'static Encoding,
    /// The encoding the document will be written in; `None` when the output
    /// holds every character as itself (an XHTML document, an `RcDom`, a
    /// document that goes into a `srcdoc` attribute).
    pub(crate) output: Option<&'a Charset>,
    /// How many `srcdoc` documents enclose this one.
    pub(crate) depth: usize,
    /// Are the document's text offsets those of the input's bytes (a
    /// document given whole, in UTF-8 without a byte order mark)? Then each
    /// link record carries its span ([`crate::report::LinkRecord::span`]).
    pub(crate) source_spans: bool,
    /// Where its text holds the U+FFFD of bytes its encoding does not allow.
    pub(crate) broken: Broken<'a>,
    /// The base from outside, else the saved-from comment's.
    fallback: Option<EstablishedBase>,
    /// The base in force: from `<base href>` (5.1), else the fallback.
    base: Option<EstablishedBase>,
    /// The document's own URL (for `manifest`).
    document_url: Option<EstablishedBase>,
}

impl<'a> DocumentFacts<'a> {
    /// The facts of a top-level document read with `ctx`, its URL queries
    /// written in `query_encoding`; nothing written back in an encoding of its
    /// own, no spans, no bases yet.
    pub(crate) fn new(ctx: &DocumentContext<'a>, query_encoding: &'static Encoding) -> Self {
        DocumentFacts {
            ctx: *ctx,
            query_encoding,
            output: None,
            depth: 0,
            source_spans: false,
            broken: Broken::Nowhere,
            fallback: None,
            base: None,
            document_url: None,
        }
    }

    /// The same facts for a document written back in `output` (a file's
    /// encoding), its link records carrying spans when `source_spans`.
    pub(crate) fn written_in(self, output: &'a Charset, source_spans: bool) -> Self {
        DocumentFacts {
            output: Some(output),
            source_spans,
            ..self
        }
    }

    /// The same facts for a document whose text holds the U+FFFD of bytes
    /// its encoding does not allow at `ranges` (`charset::decode_lossy`).
    pub(crate) fn broken_at(self, ranges: &'a [std::ops::Range<usize>]) -> Self {
        let broken = if ranges.is_empty() {
            Broken::Nowhere
        } else {
            Broken::At(ranges)
        };
        DocumentFacts { broken, ..self }
    }

    /// The facts of an `iframe srcdoc` document inside this one, read with
    /// `ctx` (this one's, its base from outside the one this document gives);
    /// `broken`: the attribute holds bytes the encoding does not allow.
    pub(crate) fn nested<'b>(&self, ctx: &DocumentContext<'b>, broken: bool) -> DocumentFacts<'b> {
        DocumentFacts {
            depth: self.depth + 1,
            broken: if broken {
                Broken::Anywhere
            } else {
                Broken::Nowhere
            },
            ..DocumentFacts::new(ctx, self.query_encoding)
        }
    }

    /// Is the document parsed as an `iframe srcdoc` document (one inside
    /// another's attribute)?
    pub(crate) fn iframe_srcdoc(&self) -> bool {
        self.depth > 0
    }

    /// The facts completed with the bases of the document whose first
    /// `<base href>` is `base_href` and whose leading comments are
    /// `comments`: the fallback (from outside, else — for a top-level
    /// document — the saved-from comment) and the embedded base (5.1,
    /// resolved against the fallback), fed to the precedence
    /// ([`base::in_force`]).
    pub(crate) fn with_bases(
        self,
        base_href: Option<&str>,
        comments: &[&str],
        report: &mut Report,
    ) -> Self {
        let ctx = &self.ctx;
        let query_encoding = self.query_encoding;
        let outside = ctx.base.map(|b| self.with_query_encoding(b));
        let saved_from = match outside {
            None if !self.iframe_srcdoc() => saved_from_base(comments, ctx, query_encoding, report),
            _ => None,
        };
        let fallback = base::in_force([outside, saved_from]);
        let embedded = embedded_base(base_href, fallback.as_ref(), ctx, query_encoding, report);
        let base = base::in_force([embedded, fallback.clone()]);
        // The document's own URL: given by the caller, else the saved-from
        // comment's URL (which is where the page was retrieved from).
        let document_url = match ctx.document_url {
            Some(b) => Some(self.with_query_encoding(b)),
            None => fallback
                .as_ref()
                .filter(|b| b.rule == BaseRule::SavedFromComment)
                .cloned(),
        };
        DocumentFacts {
            fallback,
            base,
            document_url,
            ..self
        }
    }

    /// The base in force: the embedded one, else the fallback.
    pub(crate) fn base(&self) -> Option<&EstablishedBase> {
        self.base.as_ref()
    }

    /// The base a `<base href>` itself is resolved against.
    pub(crate) fn fallback(&self) -> Option<&EstablishedBase> {
        self.fallback.as_ref()
    }

    /// The document's own URL (for `manifest`, which ignores `<base>`).
    pub(crate) fn document_url(&self) -> Option<&EstablishedBase> {
        self.document_url.as_ref()
    }

    /// The base in force, taken out (for `linkbase explain`).
    pub(crate) fn into_base(self) -> Option<EstablishedBase> {
        self.base
    }

    /// The rewriter of this document's links: the base in force, the
    /// options and the place of the document; outcomes go to `report`.
    pub(crate) fn link_rewriter<'r>(&'r self, report: &'r mut Report) -> LinkRewriter<'r> {
        LinkRewriter::new(self.base.as_ref(), &self.ctx, report, self.ctx.location)
    }

    /// The link kind of the attribute `attr_ns`:`name` of the element
    /// `ns`:`local`: the table's, or `Url` for an `--attr` name.
    pub(crate) fn kind_of(
        &self,
        ns: ElementNs,
        local: &str,
        attr_ns: AttrNs,
        name: &str,
    ) -> Option<LinkKind> {
        let extra = &self.ctx.options.extra_attributes;
        link_kind(ns, local, attr_ns, name).or_else(|| {
            (attr_ns == AttrNs::None && extra.iter().any(|a| a.eq_ignore_ascii_case(name)))
                .then_some(LinkKind::Url)
        })
    }

    /// What the attributes of the element `ns`:`local` are resolved with
    /// (`attribute`: the value of one of its unprefixed attributes).
    pub(crate) fn element_rules<A: AsRef<str>>(
        &self,
        ns: ElementNs,
        local: &str,
        attribute: impl Fn(&str) -> Option<A>,
    ) -> ElementRules {
        let html = ns == ElementNs::Html;
        let refresh = html
            && local == "meta"
            && attribute("http-equiv")
                .is_some_and(|v| v.as_ref().trim().eq_ignore_ascii_case("refresh"));
        let codebase = if html && local == "object" && attribute("classid").is_some() {
            self.codebase(attribute("codebase").as_ref().map(AsRef::as_ref))
        } else {
            None
        };
        ElementRules { refresh, codebase }
    }

    /// An `<object>`'s `codebase` (`raw`, when it has a `classid`),
    /// resolved, as the base of its `classid`.
    fn codebase(&self, raw: Option<&str>) -> Option<EstablishedBase> {
        // Read as a `<base href>` is (the rewriter's rules, so that it is the
        // browser's base); one that sets none is passed over silently (the
        // `classid` then resolves against the document's base).
        establish(
            raw?,
            self.base(),
            BaseRule::Embedded,
            self.ctx.options.profile,
            Some(self.query_encoding),
        )
        .ok()
    }

    /// `b` with this document's query encoding.
    fn with_query_encoding(&self, b: &EstablishedBase) -> EstablishedBase {
        EstablishedBase::new(
            b.base.clone().with_query_encoding(self.query_encoding),
            b.rule,
        )
    }
}
