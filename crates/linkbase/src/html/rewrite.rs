//! One parsed document: find its bases, offer every URL-bearing place (per
//! the [`links`](super::links) table) to the link policy, and say what to
//! write where ([`Edit`]s over the document's text). Also the decision for
//! one URL-bearing value ([`DocumentFacts::value`]), shared with the rewrite
//! of an `RcDom` and of XHTML: here because an `iframe srcdoc` value is a
//! document rewritten by [`rewrite_document`].

use super::byte_edits;
use super::document_facts::{DocumentFacts, ElementRules};
use super::dom::{self, AttrNs, Element, ElementNs, Scope, SourceAttr};
use super::links::LinkKind;
use super::{refresh, srcset};
use crate::base::{clean_reference, EstablishedBase};
use crate::policy::LinkRewriter;
use crate::report::{Outcome, Report, Severity};
use crate::splice::{Edit, TextEdits};
use html5ever::QualName;

/// How deep `iframe srcdoc` documents are followed inside each other.
pub const MAX_SRCDOC_DEPTH: usize = 8;

/// The attributes the rewrite can look at: those of the link table, the
/// ones that qualify them (`http-equiv`, `codebase`, `classid`) and the
/// `--attr` names (`extra`), and `data-*` ones when `data` (a file of an
/// offline copy). The parser keeps no other.
pub(crate) fn keep(extra: &[String], data: bool) -> impl Fn(&QualName) -> bool + '_ {
    move |name: &QualName| {
        super::links::LINK_ATTRIBUTES
            .iter()
            .any(|row| row.name == &*name.local)
            || &*name.local == "http-equiv"
            || dom::named(&name.local, extra)
            || (data && is_data(&name.local))
    }
}

/// Could the rewrite keep an attribute of a foreign element written `name`
/// (as the tokenizer gives it: lower case, a prefix if written), whatever the
/// tree builder makes of its case and prefix? A superset of [`keep`]'s
/// answers for SVG and MathML attributes, for the light parse
/// (`dom::light`), which gives up on a foreign element with such an
/// attribute.
pub(crate) fn may_keep(extra: &[String], data: bool) -> impl Fn(&str) -> bool + '_ {
    move |name: &str| {
        super::links::LINK_ATTRIBUTES
            .iter()
            .any(|row| row.name.eq_ignore_ascii_case(name))
            || name.eq_ignore_ascii_case("http-equiv")
            || (data && is_data(&name.to_ascii_lowercase()))
            || extra.iter().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// Is `name` (lower case) a `data-*` attribute's?
fn is_data(name: &str) -> bool {
    name.len() > 5 && name.starts_with("data-")
}

/// Parse `text` for the rewrite: by the light parse where it can.
fn parse<'t>(text: &'t str, facts: &DocumentFacts<'_>) -> dom::Document<'t> {
    let (extra, data) = (
        &facts.ctx.options.extra_attributes,
        facts.ctx.offline.is_some(),
    );
    let keep = keep(extra, data);
    let may_keep = may_keep(extra, data);
    dom::parse_fast(text, facts.iframe_srcdoc(), &keep, &may_keep)
}

/// The light parse of `text` against the full one, with the attributes
/// `options` keeps: `Ok(None)` when both give what the walk reads alike,
/// `Ok(Some(why))` when the light parse gave up, else the two views
/// (`dom::Document::walk_view`) that differ.
#[cfg(feature = "fuzzing")]
pub(crate) fn compare_parses(
    text: &str,
    options: &crate::options::Options,
) -> Result<Option<dom::light::Bail>, String> {
    let keep = keep(&options.extra_attributes, false);
    let may_keep = may_keep(&options.extra_attributes, false);
    let mut why = None;
    let Some(light) = dom::light::parse(text, &keep, &may_keep, &mut why) else {
        return Ok(why);
    };
    let full = dom::parse(text, false, &keep);
    let (light, full) = (light.walk_view(), full.walk_view());
    if light == full {
        Ok(None)
    } else {
        Err(format!("light parse:\n{light}\nfull parse:\n{full}"))
    }
}

/// Rewrite the document `text` (`facts`: what is known of it before it is
/// parsed): the edits to make, sorted (none when nothing changes).
pub fn rewrite_document(text: &str, facts: DocumentFacts<'_>, report: &mut Report) -> TextEdits {
    let doc = parse(text, &facts);
    if facts.ctx.offline.is_some() {
        // Links a script builds are not made offline: counted.
        report.scripts += doc.scripts();
        if facts.depth == 0 {
            report.title = doc.title().map(str::to_owned);
        }
    }
    let facts = facts.with_bases(doc.first_base_href(), &doc.leading_comments(), report);
    let mut walk = Walk {
        facts: &facts,
        links: facts.link_rewriter(report).growing_at_most_for(text.len()),
        text,
        edits: TextEdits::new(),
    };
    for element in doc.elements(Scope::WithTemplates) {
        walk.element(&element);
    }
    let edits = walk.edits;
    // The tree goes before the edits are sorted (the peak of a large page).
    drop(doc);
    edits.sorted()
}

/// The base the document `text` establishes itself (5.1 `<base href>`), else
/// its fallback (`facts.ctx.base`, else a saved-from comment); `None` for 5.4.
pub fn document_base(
    text: &str,
    facts: DocumentFacts<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let doc = parse(text, &facts);
    facts
        .with_bases(doc.first_base_href(), &doc.leading_comments(), report)
        .into_base()
}

struct Walk<'a> {
    /// The document's facts.
    facts: &'a DocumentFacts<'a>,
    /// Its links' rewriter, which holds the report.
    links: LinkRewriter<'a>,
    /// The document's text.
    text: &'a str,
    /// What to write where, in the order found.
    edits: TextEdits,
}

impl Walk<'_> {
    /// Rewrite one element's URL-bearing attributes (and a style sheet's
    /// text).
    fn element(&mut self, el: &Element) {
        let ns = el.ns();
        let local = el.local_name();
        if let Some((css, tag_end)) = el.style_text() {
            self.style_text(ns, css, tag_end);
        }
        let rules = self
            .facts
            .element_rules(ns, local, |name| el.attribute(name));
        for attr in el.attributes() {
            let old = el.value_of(attr);
            self.attribute(ns, local, attr, old, &rules);
        }
    }

    /// Rewrite one attribute, if it is URL-bearing.
    fn attribute(
        &mut self,
        ns: ElementNs,
        local: &str,
        attr: &SourceAttr,
        old: &str,
        rules: &ElementRules,
    ) {
        let attr_ns = AttrNs::of_namespace(&attr.ns);
        let name = &*attr.local;
        let Some(kind) = self
            .facts
            .kind_of(ns, local, attr_ns, name)
            .or_else(|| self.held_data(ns, attr_ns, name, old))
        else {
            return;
        };
        let span = attr.span.as_ref().filter(|_| self.facts.source_spans);
        self.links.set_span(span.map(|s| s.value.clone()));
        let broken = attr
            .span
            .as_ref()
            .is_some_and(|s| self.facts.broken.within(&s.value));
        self.links.set_broken(broken);
        let attribute = reported_name(attr_ns, name);
        let new = self
            .facts
            .value(&mut self.links, local, attribute, old, kind, rules);
        self.links.set_span(None);
        self.links.set_broken(false);
        let Some(new) = new else {
            return;
        };
        if new == old {
            return;
        }
        match &attr.span {
            Some(span) => {
                let output = self.facts.output;
                byte_edits::push_value_edit(&mut self.edits, self.text, span, old, &new, output);
            }
            // Every attribute the tree builder gives comes from a tag.
            None => debug_assert!(false, "attribute {name} without a source"),
        }
    }

    /// In an offline copy, the kind of a `data-*` attribute of an HTML
    /// element outside the link table whose whole value is a URL of a file
    /// the copy holds ([`LinkKind::Url`]), or a srcset of them all
    /// ([`LinkKind::Srcset`]); `None` for every other value, left as it
    /// is and not counted (docs/offline.md, "Lazy-loaded images").
    fn held_data(
        &self,
        ns: ElementNs,
        attr_ns: AttrNs,
        name: &str,
        value: &str,
    ) -> Option<LinkKind> {
        if ns != ElementNs::Html || attr_ns != AttrNs::None || !is_data(name) {
            return None;
        }
        if self.links.is_held(value) {
            return Some(LinkKind::Url);
        }
        let mut urls = srcset::candidate_urls(value).peekable();
        let all = urls.peek().is_some() && urls.all(|url| self.links.is_held(&value[url]));
        all.then_some(LinkKind::Srcset)
    }

    /// Rewrite the text of a `style` element where it is written: from the
    /// end of its start tag to its end tag. `css` is its text as parsed.
    fn style_text(&mut self, ns: ElementNs, css: &str, tag_end: Option<usize>) {
        let Some(region) = tag_end.and_then(|at| style_region(self.text, at, ns, css)) else {
            // Text written with markup or references inside (SVG) is not
            // rewritten; say so if it holds URLs.
            let mut urls = false;
            crate::css::css_edits(css, &mut |_| {
                urls = true;
                None
            });
            if urls {
                self.links.report().problem(
                    self.facts.ctx.location,
                    Severity::Warning,
                    "a <style> whose text is written with markup or character references \
                     inside is left unchanged"
                        .to_string(),
                );
            }
            return;
        };
        let written = &self.text[region.clone()];
        let links = &mut self.links;
        links.set_broken(self.facts.broken.within(&region));
        let edits = crate::css::css_edits(written, &mut |url| links.rewrite("style", "url()", url));
        links.set_broken(false);
        for Edit { range, bytes: new } in edits {
            let new = raw_text_safe(&new, ns == ElementNs::Svg);
            let text = match self.facts.output {
                Some(output) => output.css_text(&new).into_owned(),
                None => new,
            };
            let range = region.start + range.start..region.start + range.end;
            self.edits.push(range, &text);
        }
    }
}

impl DocumentFacts<'_> {
    /// The new value of one URL-bearing attribute (`element` and
    /// `attribute`: as reported; `rules`: its element's), if it changes; its
    /// outcome goes through `links`.
    pub(crate) fn value(
        &self,
        links: &mut LinkRewriter<'_>,
        element: &str,
        attribute: &str,
        value: &str,
        kind: LinkKind,
        rules: &ElementRules,
    ) -> Option<String> {
        let r = links;
        match kind {
            LinkKind::Url => r.rewrite(element, attribute, value),
            LinkKind::UrlKeepEmpty if clean_reference(value).is_empty() => {
                r.leave(element, attribute, value, Outcome::Empty);
                None
            }
            LinkKind::UrlKeepEmpty => r.rewrite(element, attribute, value),
            LinkKind::BaseHref => r.rewrite_base_href(self.fallback(), element, attribute, value),
            LinkKind::Manifest => r.rewrite_against(self.document_url(), element, attribute, value),
            LinkKind::ClassId => {
                let base = rules.codebase.as_ref().or(r.base());
                r.rewrite_against(base, element, attribute, value)
            }
            LinkKind::SpaceList => {
                rewrite_list(value, None, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::CommaList => {
                rewrite_list(value, Some(','), &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Srcset => {
                srcset::rewrite_srcset(value, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::BgSet => {
                srcset::rewrite_bgset(value, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Refresh if rules.refresh => {
                refresh::rewrite_refresh(value, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Refresh => None,
            LinkKind::Css => {
                // Chromium encodes the query of a `style` attribute's URLs in
                // UTF-8 whatever the document's encoding (a `<style>` sheet's
                // in the document's): tests/integration/browser.rs.
                let utf8 = r.base().map(|b| {
                    let base = b.base.clone().with_query_encoding(encoding_rs::UTF_8);
                    EstablishedBase::new(base, b.rule)
                });
                crate::css::rewrite_css(value, &mut |u| {
                    r.rewrite_against(utf8.as_ref(), element, attribute, u)
                })
            }
            LinkKind::Srcdoc => self.srcdoc(r, value),
        }
    }

    /// An `iframe srcdoc` document, rewritten with this document's base:
    /// its new text (the caller writes it escaped into the attribute).
    fn srcdoc(&self, links: &mut LinkRewriter<'_>, value: &str) -> Option<String> {
        if self.depth >= MAX_SRCDOC_DEPTH {
            links.report().problem(
                self.ctx.location,
                Severity::Warning,
                format!("iframe srcdoc nested deeper than {MAX_SRCDOC_DEPTH}; left unchanged"),
            );
            return None;
        }
        let inherited = links.base().map(EstablishedBase::inherited);
        let ctx = self.ctx.for_srcdoc(inherited.as_ref());
        let broken = links.broken();
        let edits = rewrite_document(value, self.nested(&ctx, broken), links.report());
        (!edits.is_empty()).then(|| edits.apply(value))
    }
}

/// `css` (a new URL as CSS writes it) made safe for the text of a `style`
/// element: `</style` would end an HTML one, `]]>` an SVG one's CDATA
/// section, and in an SVG one (parsed as markup, not raw text) any `<` or
/// `&` would start a tag or a reference; they are written as CSS escapes
/// (`\3c `, `\3e `, `\26 `), which mean the same inside a URL token or a
/// string.
fn raw_text_safe(css: &str, svg: bool) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(c) = rest.chars().next() {
        let tail = &rest[c.len_utf8()..];
        let ends_element = c == '<'
            && (svg
                || tail
                    .get(..6)
                    .is_some_and(|t| t.eq_ignore_ascii_case("/style")));
        let ends_cdata = c == '>' && out.ends_with("]]");
        match () {
            _ if ends_element => out.push_str("\\3c "),
            _ if ends_cdata => out.push_str("\\3e "),
            _ if svg && c == '&' => out.push_str("\\26 "),
            _ => out.push(c),
        }
        rest = tail;
    }
    out
}

/// The name an attribute is reported under: `xlink:href` with its usual
/// prefix, any other by its local name.
pub(crate) fn reported_name(attr_ns: AttrNs, local: &str) -> &str {
    if attr_ns == AttrNs::XLink {
        "xlink:href"
    } else {
        local
    }
}

/// Where the text of a `style` element whose start tag ends at `tag_end` is
/// written, if it is written as its text `css` (CR LF and CR as LF, NUL as
/// U+FFFD; the CSS tokenizer reads them alike): an HTML `style` is raw text
/// up to its end tag; an SVG one is parsed as markup, so it must hold no
/// `<` or `&` — or be one CDATA section, with white space around.
fn style_region(
    text: &str,
    tag_end: usize,
    ns: ElementNs,
    css: &str,
) -> Option<std::ops::Range<usize>> {
    let rest = text.get(tag_end..)?;
    let end = tag_end + end_tag(rest, "style").unwrap_or(rest.len());
    let mut region = tag_end..end;
    if ns == ElementNs::Svg {
        let written = &text[region.clone()];
        if written.contains(['<', '&']) {
            let trimmed = written.trim_start_matches(|c: char| c.is_ascii_whitespace());
            let inner = trimmed.strip_prefix("<![CDATA[")?;
            let close = inner.find("]]>")?;
            let after = &inner[close + 3..];
            if !after
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .is_empty()
            {
                return None;
            }
            let start = end - written.len() + (written.len() - trimmed.len()) + "<![CDATA[".len();
            region = start..start + close;
            let lead = &written[..written.len() - trimmed.len()];
            let as_parsed = [lead, &inner[..close], after].concat();
            return (normalised(&as_parsed) == css).then_some(region);
        }
    }
    (normalised(&text[region.clone()]) == css).then_some(region)
}

/// Where the first `</name` that ends raw text starts in `text` (followed by
/// white space, `/` or `>`, ASCII case-insensitively).
fn end_tag(text: &str, name: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&bytes[from..], b"</").map(|i| i + from) {
        let after = i + 2 + name.len();
        if bytes
            .get(i + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && bytes
                .get(after)
                .is_some_and(|b| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'))
        {
            return Some(i);
        }
        from = i + 2;
    }
    None
}

/// `text` as the tokenizer reads it: CR LF and CR as LF, NUL as U+FFFD.
fn normalised(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['\r', '\0']) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.replace("\r\n", "\n")
            .replace('\r', "\n")
            .replace('\0', "\u{FFFD}"),
    )
}

/// Rewrite each item of a list, keeping separators and the whitespace
/// around items as written. Items are separated by ASCII whitespace and,
/// when given, by `separator` too.
fn rewrite_list(
    value: &str,
    separator: Option<char>,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let is_separator = |c: char| c.is_ascii_whitespace() || Some(c) == separator;
    let mut out = String::with_capacity(value.len() + 64);
    let mut changed = false;
    let mut rest = value;
    while !rest.is_empty() {
        let gap = rest.len() - rest.trim_start_matches(is_separator).len();
        out.push_str(&rest[..gap]);
        rest = &rest[gap..];
        let end = rest.find(is_separator).unwrap_or(rest.len());
        let item = &rest[..end];
        if !item.is_empty() {
            match rewrite(item) {
                Some(new) => {
                    out.push_str(&new);
                    changed = true;
                }
                None => out.push_str(item),
            }
        }
        rest = &rest[end..];
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::rewrite_list;

    #[test]
    fn lists_keep_their_separators() {
        let cases = [
            ("spaces", " a  b\tkeep c ", None, Some(" A  B\tkeep C ")),
            ("commas", "a, keep ,b", Some(','), Some("A, keep ,B")),
            ("only kept", " keep ", None, None),
            ("empty", "", None, None),
        ];
        for (name, input, sep, want) in cases {
            let got = rewrite_list(input, sep, &mut |u| (u != "keep").then(|| u.to_uppercase()));
            assert_eq!(got.as_deref(), want, "case {name}");
        }
    }
}
