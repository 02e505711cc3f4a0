//! The declarative table of URL-bearing places in HTML (one table, one rule each):
//! element × attribute → [`LinkKind`]. The rewriter looks values up here; it
//! holds no per-attribute logic of its own beyond what a kind means.

pub use super::dom::{AttrNs, ElementNs};

/// What an attribute value holds and how it is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkKind {
    /// One URL, resolved against the document's base.
    Url,
    /// One URL where the empty value has its own meaning (`<form action="">`
    /// submits to the document itself): empty stays empty.
    UrlKeepEmpty,
    /// `<base href>`: resolved against the fallback base (the base from
    /// outside the document), never against itself.
    BaseHref,
    /// `<html manifest>`: resolved against the document's own URL, not `<base>`.
    Manifest,
    /// `<object classid>`: resolved against the element's `codebase` (itself
    /// resolved against the base) when it has one.
    ClassId,
    /// URLs separated by ASCII whitespace (`ping`, `archive` of `object`, `profile`).
    SpaceList,
    /// URLs separated by commas (`archive` of `applet`, HTML 4).
    CommaList,
    /// An image candidate list (`srcset`, `imagesrcset`).
    Srcset,
    /// lazysizes' `data-bgset`: image candidate lists separated by a `|`
    /// with white space beside it, each list followed by an optional
    /// `[media]` and `[type]` (kept as written).
    BgSet,
    /// `<meta http-equiv=refresh content>`: only the URL part.
    Refresh,
    /// CSS declarations (`style`).
    Css,
    /// `<iframe srcdoc>`: a nested document, rewritten with the parent's base.
    Srcdoc,
}

/// Which elements a table row applies to.
#[derive(Clone, Copy, Debug)]
pub enum Elements {
    /// HTML elements with these local names.
    Html(&'static [&'static str]),
    /// Every HTML element (global attributes such as `itemid`).
    AnyHtml,
    /// Every SVG and MathML element.
    Foreign,
    /// Every element in any namespace (`style`).
    Any,
}

impl Elements {
    fn matches(&self, ns: ElementNs, local: &str) -> bool {
        match self {
            Elements::Html(names) => ns == ElementNs::Html && names.contains(&local),
            Elements::AnyHtml => ns == ElementNs::Html,
            Elements::Foreign => matches!(ns, ElementNs::Svg | ElementNs::MathMl),
            Elements::Any => true,
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct LinkAttribute {
    /// The attribute's namespace.
    pub ns: AttrNs,
    /// The attribute's local name.
    pub name: &'static str,
    /// The elements it is URL-bearing on.
    pub elements: Elements,
    /// What it holds.
    pub kind: LinkKind,
}

const fn row(name: &'static str, elements: Elements, kind: LinkKind) -> LinkAttribute {
    LinkAttribute {
        ns: AttrNs::None,
        name,
        elements,
        kind,
    }
}

use Elements::{Any, AnyHtml, Foreign, Html};
use LinkKind::*;

/// Every URL-bearing attribute. `usemap`, `itemtype`, `download`, `target`
/// and `sizes` are deliberately absent: they are not URLs (or not ones to
/// rewrite). The `data-*` attributes are those a lazy-loading library
/// copies into `src`, `srcset`, `poster` or a background image when the
/// element comes into view, each row naming the libraries (as their source
/// reads them: lazysizes 5.3, lozad 1.16, vanilla-lazyload 19.1, blazy
/// 1.8, jQuery lazyload 1.9; WP Rocket's is vanilla-lazyload with
/// `lazy-src`); docs/html.md, "Lazy-loading attributes".
pub const LINK_ATTRIBUTES: &[LinkAttribute] = &[
    row("href", Html(&["a", "area", "link"]), Url),
    row("href", Html(&["base"]), BaseHref),
    row("href", Foreign, Url),
    LinkAttribute {
        ns: AttrNs::XLink,
        name: "href",
        elements: Foreign,
        kind: Url,
    },
    row(
        "src",
        Html(&[
            "audio", "embed", "iframe", "img", "input", "script", "source", "track", "video",
            "frame",
        ]),
        Url,
    ),
    row("srcset", Html(&["img", "source"]), Srcset),
    row("imagesrcset", Html(&["link"]), Srcset),
    row("poster", Html(&["video"]), Url),
    row("action", Html(&["form"]), UrlKeepEmpty),
    row("formaction", Html(&["button", "input"]), UrlKeepEmpty),
    row("cite", Html(&["blockquote", "q", "del", "ins"]), Url),
    row("data", Html(&["object"]), Url),
    row("itemid", AnyHtml, Url),
    row(
        "background",
        Html(&["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"]),
        Url,
    ),
    row("longdesc", Html(&["img", "frame", "iframe"]), Url),
    row("lowsrc", Html(&["img"]), Url),
    row("dynsrc", Html(&["img", "input"]), Url),
    row("codebase", Html(&["object", "applet"]), Url),
    row("classid", Html(&["object"]), ClassId),
    row("ping", Html(&["a", "area"]), SpaceList),
    row("archive", Html(&["object"]), SpaceList),
    row("archive", Html(&["applet"]), CommaList),
    row("profile", Html(&["head"]), SpaceList),
    row("manifest", Html(&["html"]), Manifest),
    row("content", Html(&["meta"]), Refresh),
    row("style", Any, Css),
    row("srcdoc", Html(&["iframe"]), Srcdoc),
    // Lazy loading. lazysizes: img, iframe (src), source (srcset); lozad:
    // img, iframe, video, source; vanilla-lazyload: img, iframe, video,
    // source, object; blazy: img, source, video, audio (any element's as a
    // background: not read on other elements, too common a name).
    row(
        "data-src",
        Html(&["img", "iframe", "source", "video", "audio", "object"]),
        Url,
    ),
    // lazysizes, lozad, vanilla-lazyload, blazy.
    row("data-srcset", Html(&["img", "source"]), Srcset),
    // WP Rocket (vanilla-lazyload's `data_src: "lazy-src"`).
    row("data-lazy-src", Html(&["img", "iframe"]), Url),
    row("data-lazy-srcset", Html(&["img", "source"]), Srcset),
    // jQuery lazyload (`data_attribute: "original"`; on other elements a
    // background: not read there, too common a name).
    row("data-original", Html(&["img"]), Url),
    // lazysizes (unveilhooks), lozad, vanilla-lazyload.
    row("data-poster", Html(&["video"]), Url),
    // A background image. lazysizes (unveilhooks), vanilla-lazyload, WP Rocket.
    row("data-bg", AnyHtml, Url),
    // vanilla-lazyload.
    row("data-bg-hidpi", AnyHtml, Url),
    // lazysizes (bgset).
    row("data-bgset", AnyHtml, BgSet),
    // lozad: URLs split at `,` (its `data-background-delimiter` default).
    row("data-background-image", AnyHtml, CommaList),
];

/// The kind of the attribute `attr_ns`:`attribute` on the element
/// `element_ns`:`element`, if it is URL-bearing. `content` on `meta` is only
/// a URL when the element is `http-equiv=refresh` (the caller checks that).
pub fn link_kind(
    element_ns: ElementNs,
    element: &str,
    attr_ns: AttrNs,
    attribute: &str,
) -> Option<LinkKind> {
    LINK_ATTRIBUTES
        .iter()
        .find(|row| {
            row.ns == attr_ns && row.name == attribute && row.elements.matches(element_ns, element)
        })
        .map(|row| row.kind)
}

/// Is `attribute` on the HTML element `element` URL-bearing? For SVG and
/// MathML use [`link_kind`]; `xlink:href` is written with its prefix here.
pub fn is_url_attribute(element: &str, attribute: &str) -> bool {
    match attribute.strip_prefix("xlink:") {
        Some(local) => link_kind(ElementNs::Svg, element, AttrNs::XLink, local).is_some(),
        None => link_kind(ElementNs::Html, element, AttrNs::None, attribute).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Case = (
        &'static str,
        ElementNs,
        &'static str,
        AttrNs,
        &'static str,
        Option<LinkKind>,
    );

    #[test]
    fn table_rows() {
        let cases: &[Case] = &[
            (
                "a href",
                ElementNs::Html,
                "a",
                AttrNs::None,
                "href",
                Some(Url),
            ),
            (
                "base href",
                ElementNs::Html,
                "base",
                AttrNs::None,
                "href",
                Some(BaseHref),
            ),
            (
                "div href",
                ElementNs::Html,
                "div",
                AttrNs::None,
                "href",
                None,
            ),
            (
                "svg a href",
                ElementNs::Svg,
                "a",
                AttrNs::None,
                "href",
                Some(Url),
            ),
            (
                "svg use xlink",
                ElementNs::Svg,
                "use",
                AttrNs::XLink,
                "href",
                Some(Url),
            ),
            (
                "mathml href",
                ElementNs::MathMl,
                "mi",
                AttrNs::None,
                "href",
                Some(Url),
            ),
            (
                "img srcset",
                ElementNs::Html,
                "img",
                AttrNs::None,
                "srcset",
                Some(Srcset),
            ),
            (
                "applet archive",
                ElementNs::Html,
                "applet",
                AttrNs::None,
                "archive",
                Some(CommaList),
            ),
            (
                "object archive",
                ElementNs::Html,
                "object",
                AttrNs::None,
                "archive",
                Some(SpaceList),
            ),
            (
                "svg style",
                ElementNs::Svg,
                "rect",
                AttrNs::None,
                "style",
                Some(Css),
            ),
            (
                "img usemap",
                ElementNs::Html,
                "img",
                AttrNs::None,
                "usemap",
                None,
            ),
            (
                "itemtype",
                ElementNs::Html,
                "div",
                AttrNs::None,
                "itemtype",
                None,
            ),
            (
                "download",
                ElementNs::Html,
                "a",
                AttrNs::None,
                "download",
                None,
            ),
            ("target", ElementNs::Html, "a", AttrNs::None, "target", None),
            ("sizes", ElementNs::Html, "img", AttrNs::None, "sizes", None),
            (
                "data-src",
                ElementNs::Html,
                "img",
                AttrNs::None,
                "data-src",
                Some(Url),
            ),
            (
                "data-src on a div",
                ElementNs::Html,
                "div",
                AttrNs::None,
                "data-src",
                None,
            ),
            (
                "data-srcset",
                ElementNs::Html,
                "source",
                AttrNs::None,
                "data-srcset",
                Some(Srcset),
            ),
            (
                "data-bg",
                ElementNs::Html,
                "section",
                AttrNs::None,
                "data-bg",
                Some(Url),
            ),
            (
                "data-bgset",
                ElementNs::Html,
                "div",
                AttrNs::None,
                "data-bgset",
                Some(BgSet),
            ),
            (
                "svg data-bg",
                ElementNs::Svg,
                "rect",
                AttrNs::None,
                "data-bg",
                None,
            ),
            ("svg src", ElementNs::Svg, "img", AttrNs::None, "src", None),
        ];
        for (name, ens, el, ans, attr, want) in cases {
            assert_eq!(link_kind(*ens, el, *ans, attr), *want, "case {name}");
        }
        assert!(is_url_attribute("use", "xlink:href"));
        assert!(!is_url_attribute("img", "usemap"));
    }
}
