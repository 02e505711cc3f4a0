//! The patched html5ever (`vendor/html5ever`, PATCHES.md) builds the trees
//! the HTML standard prescribes. The patch answers "p in button scope",
//! "button in scope" and "a template is open" from indices kept with the
//! stack of open elements instead of walking it, and applies the "Noah's
//! Ark" clause and finds formatting elements by name from positions kept
//! with the list of active formatting elements instead of scanning it; in
//! debug builds every answer is checked against the original walk or scan
//! (`debug_assert_eq!` in `TreeBuilder::check_fast_answer`,
//! `create_formatting_element_for`, `last_active_formatting_named`,
//! `position_in_active_formatting`), so:
//!
//! - the property test parses generated tag soup (misnested `p`, `div`,
//!   `button`, tables, lists, formatting elements with a few attribute
//!   variants and the adoption agency, the elements that put markers on the
//!   list, `template`, `select`, SVG and MathML, stray end tags), as
//!   documents and as fragments in several contexts: an index or a position
//!   gone stale makes a check panic. It only exists in debug builds, where
//!   the checks run.
//! - the examples check the exact trees of the cases the patch decides, as
//!   html5lib's tree-construction tests write them (the unpatched html5ever
//!   0.40.1 gives the same trees), and of the cases where the patch brings
//!   the parser up to the current HTML Standard (the special category, the
//!   default scope, `input` in a `select` fragment: there the unpatched
//!   parser gives other trees).

// The library is `linkbase_html5ever` (PATCHES.md); these tests, like
// linkbase's code, call it by upstream's name.
extern crate linkbase_html5ever as html5ever;

use html5ever::tendril::TendrilSink;
use html5ever::{ns, parse_document, parse_fragment, LocalName, ParseOpts, QualName};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use std::fmt::Write;

/// The tree under `node`, one line per node, in html5lib's test format
/// (`| ` and two spaces per level; `content` for template contents).
fn dump_children(out: &mut String, node: &Handle, depth: usize) {
    for child in node.children.borrow().iter() {
        dump_node(out, child, depth);
    }
}

fn dump_node(out: &mut String, node: &Handle, depth: usize) {
    let indent = "  ".repeat(depth);
    match &node.data {
        NodeData::Document | NodeData::ProcessingInstruction { .. } => {}
        NodeData::Doctype { name, .. } => {
            let _ = writeln!(out, "| {indent}<!DOCTYPE {name}>");
        }
        NodeData::Text { contents } => {
            let _ = writeln!(out, "| {indent}\"{}\"", contents.borrow());
        }
        NodeData::Comment { contents } => {
            let _ = writeln!(out, "| {indent}<!-- {contents} -->");
        }
        NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } => {
            let prefix = match name.ns {
                ns!(svg) => "svg ",
                ns!(mathml) => "math ",
                _ => "",
            };
            let _ = writeln!(out, "| {indent}<{prefix}{}>", name.local);
            let mut attrs: Vec<String> = attrs
                .borrow()
                .iter()
                .map(|a| format!("{}=\"{}\"", a.name.local, a.value))
                .collect();
            attrs.sort();
            for attr in attrs {
                let _ = writeln!(out, "| {indent}  {attr}");
            }
            if let Some(contents) = template_contents.borrow().as_ref() {
                let _ = writeln!(out, "| {indent}  content");
                dump_children(out, contents, depth + 2);
            }
        }
    }
    dump_children(out, node, depth + 1);
}

fn options(scripting: bool) -> ParseOpts {
    let mut options = ParseOpts::default();
    options.tree_builder.scripting_enabled = scripting;
    options
}

fn document_tree(html: &str, scripting: bool) -> String {
    let dom = parse_document(RcDom::default(), options(scripting)).one(html);
    let mut out = String::new();
    dump_children(&mut out, &dom.document, 0);
    out
}

fn fragment_tree(html: &str, context: &str) -> String {
    let (ns, local) = match context.split_once(' ') {
        Some(("svg", local)) => (ns!(svg), local),
        Some(("math", local)) => (ns!(mathml), local),
        _ => (ns!(html), context),
    };
    let name = QualName::new(None, ns, LocalName::from(local));
    let dom = parse_fragment(RcDom::default(), options(false), name, vec![], false).one(html);
    let mut out = String::new();
    dump_children(&mut out, &dom.document, 0);
    out
}

/// `| ` lines from a readable block: each line of `tree` trimmed at its
/// margin (the first line's indentation).
fn expected(tree: &str) -> String {
    let lines: Vec<&str> = tree.lines().filter(|l| !l.trim().is_empty()).collect();
    let margin = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| format!("| {}\n", &l[margin..]))
        .collect()
}

/// [`expected`] for the children of `body` in a document whose `html`,
/// `head` and `body` are implied.
fn in_body(tree: &str) -> String {
    let children: String = expected(tree)
        .lines()
        .map(|line| format!("|     {}\n", &line[2..]))
        .collect();
    expected("<html>\n  <head>\n  <body>") + &children
}

#[test]
fn a_block_start_tag_closes_an_open_p() {
    assert_eq!(
        document_tree("<p>a<div>b</div>c", false),
        in_body(
            r#"
                <p>
                  "a"
                <div>
                  "b"
                "c"
            "#
        )
    );
}

#[test]
fn a_button_bounds_the_button_scope_of_p() {
    // The div inside the button does not close the p outside it; the p
    // after the button does.
    assert_eq!(
        document_tree("<p>a<button><div>b</div></button><p>c", false),
        in_body(
            r#"
                <p>
                  "a"
                  <button>
                    <div>
                      "b"
                <p>
                  "c"
            "#
        )
    );
}

#[test]
fn a_table_cell_bounds_the_scopes_of_p_and_button() {
    // Quirks mode (no doctype): the table does not close the p. Inside the
    // cell neither the p nor the button outside it is in scope.
    assert_eq!(
        document_tree("<p>a<button><table><td><div>b<button>c</table>d", false),
        in_body(
            r#"
                <p>
                  "a"
                  <button>
                    <table>
                      <tbody>
                        <tr>
                          <td>
                            <div>
                              "b"
                              <button>
                                "c"
                    "d"
            "#
        )
    );
}

#[test]
fn a_button_closes_an_open_button_and_an_end_p_without_p_makes_one() {
    assert_eq!(
        document_tree("<button>a<button>b</button></p>c", false),
        in_body(
            r#"
                <button>
                  "a"
                <button>
                  "b"
                <p>
                "c"
            "#
        )
    );
}

#[test]
fn svg_integration_points_bound_the_scope_and_p_closes_after_them() {
    // foreignObject bounds the button scope: the inner p does not close the
    // outer one; after </svg> the div does.
    assert_eq!(
        document_tree(
            "<p>a<svg><foreignObject><p>b<div>c</div></foreignObject></svg><div>d",
            false
        ),
        in_body(
            r#"
                <p>
                  "a"
                  <svg svg>
                    <svg foreignObject>
                      <p>
                        "b"
                      <div>
                        "c"
                <div>
                  "d"
            "#
        )
    );
}

#[test]
fn the_adoption_agency_moves_a_p_and_a_later_div_still_closes_it() {
    // The adoption agency removes and inserts elements in the middle of the
    // stack of open elements; the p's index must follow.
    assert_eq!(
        document_tree("<b>a<p>b</b>c<div>d", false),
        in_body(
            r#"
                <b>
                  "a"
                <p>
                  <b>
                    "b"
                  "c"
                <div>
                  "d"
            "#
        )
    );
}

#[test]
fn a_form_inside_a_template_is_kept_even_with_a_form_open() {
    assert_eq!(
        document_tree(
            "<form><template><form>a</form></template></form><form>b",
            false
        ),
        in_body(
            r#"
                <form>
                  <template>
                    content
                      <form>
                        "a"
                <form>
                  "b"
            "#
        )
    );
}

#[test]
fn a_p_in_a_fragment_of_a_button_is_closed_by_a_div() {
    // In a fragment the context element is not on the stack: only the
    // root html element bounds the scope.
    assert_eq!(
        fragment_tree("<p>a<div>b", "button"),
        expected(
            r#"
            <html>
              <p>
                "a"
              <div>
                "b"
            "#
        )
    );
}

// The Noah's Ark clause: a fourth formatting element with the same tag name
// and attributes as three after the last marker removes the earliest of the
// three from the list of active formatting elements. The second `<p>` closes
// the first and the elements still on the list are reconstructed for "x":
// which ones shows what the list held.

#[test]
fn noahs_ark_a_fourth_identical_b_removes_the_earliest() {
    assert_eq!(
        document_tree("<p><b><b><b><b><p>x", false),
        in_body(
            r#"
                <p>
                  <b>
                    <b>
                      <b>
                        <b>
                <p>
                  <b>
                    <b>
                      <b>
                        "x"
            "#
        )
    );
}

#[test]
fn noahs_ark_attribute_order_does_not_matter() {
    assert_eq!(
        document_tree(
            "<p><b class=x id=y><b id=y class=x><b class=x id=y><b id=y class=x><p>x",
            false
        ),
        in_body(
            r#"
                <p>
                  <b>
                    class="x"
                    id="y"
                    <b>
                      class="x"
                      id="y"
                      <b>
                        class="x"
                        id="y"
                        <b>
                          class="x"
                          id="y"
                <p>
                  <b>
                    class="x"
                    id="y"
                    <b>
                      class="x"
                      id="y"
                      <b>
                        class="x"
                        id="y"
                        "x"
            "#
        )
    );
}

#[test]
fn noahs_ark_a_different_attribute_value_removes_nothing() {
    assert_eq!(
        document_tree("<p><b id=1><b id=1><b id=1><b id=2><p>x", false),
        in_body(
            r#"
                <p>
                  <b>
                    id="1"
                    <b>
                      id="1"
                      <b>
                        id="1"
                        <b>
                          id="2"
                <p>
                  <b>
                    id="1"
                    <b>
                      id="1"
                      <b>
                        id="1"
                        <b>
                          id="2"
                          "x"
            "#
        )
    );
}

/// `<p><b><b>{open}<b><b>{close}<p>x`: two `b` before the marker that
/// `open` puts on the list and two after it are not four alike; both before
/// it are reconstructed after `close` clears the list back to the marker.
/// `wrapped` is the tree of `open` and the two inner `b`, from its margin.
fn noahs_ark_bounded_by_a_marker(open: &str, close: &str, wrapped: &str) {
    let tree = format!(
        "<p>\n  <b>\n    <b>\n{}\n<p>\n  <b>\n    <b>\n      \"x\"",
        indent(wrapped, 6)
    );
    assert_eq!(
        document_tree(&format!("<p><b><b>{open}<b><b>{close}<p>x"), false),
        in_body(&tree),
        "{open}…{close}"
    );
}

fn indent(block: &str, spaces: usize) -> String {
    block
        .lines()
        .map(|line| format!("{}{line}", " ".repeat(spaces)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn noahs_ark_is_bounded_by_the_markers_of_marquee_object_applet() {
    for element in ["marquee", "object", "applet"] {
        noahs_ark_bounded_by_a_marker(
            &format!("<{element}>"),
            &format!("</{element}>"),
            &format!("<{element}>\n  <b>\n    <b>"),
        );
    }
}

#[test]
fn noahs_ark_is_bounded_by_the_marker_of_a_template() {
    noahs_ark_bounded_by_a_marker(
        "<template>",
        "</template>",
        "<template>\n  content\n    <b>\n      <b>",
    );
}

#[test]
fn noahs_ark_is_bounded_by_the_marker_of_a_table_cell() {
    noahs_ark_bounded_by_a_marker(
        "<table><td>",
        "</table>",
        "<table>\n  <tbody>\n    <tr>\n      <td>\n        <b>\n          <b>",
    );
}

#[test]
fn noahs_ark_counts_the_entries_before_a_marker_again_once_it_is_cleared() {
    assert_eq!(
        document_tree("<p><b><b><b><marquee></marquee><b><p>x", false),
        in_body(
            r#"
                <p>
                  <b>
                    <b>
                      <b>
                        <marquee>
                        <b>
                <p>
                  <b>
                    <b>
                      <b>
                        "x"
            "#
        )
    );
}

#[test]
fn the_adoption_agency_with_nested_identical_bs() {
    // `</b>` takes the innermost `b`; the `p` moves under the second.
    assert_eq!(
        document_tree("<b>1<b>2<b>3<p>4</b>5", false),
        in_body(
            r#"
                <b>
                  "1"
                  <b>
                    "2"
                    <b>
                      "3"
                    <p>
                      <b>
                        "4"
                      "5"
            "#
        )
    );
}

#[test]
fn the_adoption_agency_reorders_the_list_then_noahs_ark_applies() {
    // `</b>` puts the new `i` before the new `b` on the list (an insertion
    // in the middle of it and a removal before it); then four `b` leave
    // three on the list, reconstructed for "i" after `</p>`.
    assert_eq!(
        document_tree("<b>a<i>b<p>c</b>d<b>e<b>f<b>g<b>h</p>i", false),
        in_body(
            r#"
                <b>
                  "a"
                  <i>
                    "b"
                <i>
                  <p>
                    <b>
                      "c"
                    "d"
                    <b>
                      "e"
                      <b>
                        "f"
                        <b>
                          "g"
                          <b>
                            "h"
                  <b>
                    <b>
                      <b>
                        "i"
            "#
        )
    );
}

#[test]
fn an_a_start_tag_closes_the_open_a_past_other_formatting_elements() {
    assert_eq!(
        document_tree("<a><b><b><b><a>x", false),
        in_body(
            r#"
                <a>
                  <b>
                    <b>
                      <b>
                <b>
                  <b>
                    <b>
                      <a>
                        "x"
            "#
        )
    );
}

// The patch's third part: the parser brought up to the current HTML
// Standard where html5ever 0.40.1 lagged (PATCHES.md). Each tree is the
// standard's; the unpatched parser gives another (tried).

/// `search` is special (13.2.4.3), so an `li` start tag stops looking for an
/// open `li` at it (13.2.6.4.7, "li") and nests.
#[test]
fn search_is_special_so_an_li_inside_it_nests() {
    assert_eq!(
        document_tree("<li><search><li>", false),
        in_body(
            r#"
                <li>
                  <search>
                    <li>
            "#
        )
    );
}

/// `search` is special, so "any other end tag" stops at it and is ignored.
#[test]
fn search_is_special_so_a_stray_end_tag_stops_at_it() {
    assert_eq!(
        document_tree("<span><search>x</span>y", false),
        in_body(
            r#"
                <span>
                  <search>
                    "xy"
            "#
        )
    );
}

/// `isindex` is no longer in the standard, so it is an ordinary element: an
/// `li` start tag closes the open `li` past it.
#[test]
fn isindex_is_ordinary_so_an_li_closes_the_li_around_it() {
    assert_eq!(
        document_tree("<li><isindex><li>", false),
        in_body(
            r#"
                <li>
                  <isindex>
                <li>
            "#
        )
    );
}

/// An ordinary `isindex` does not stop `</span>`, which closes it too.
#[test]
fn isindex_is_ordinary_so_an_end_tag_closes_past_it() {
    assert_eq!(
        document_tree("<span><isindex>x</span>y", false),
        in_body(
            r#"
                <span>
                  <isindex>
                    "x"
                "y"
            "#
        )
    );
}

/// MathML `mi` and SVG `desc` are special: an end tag for an HTML element
/// that comes back from foreign content into "in body" stops at them.
#[test]
fn mathml_and_svg_special_elements_stop_a_stray_end_tag() {
    for (html, prefix, inner) in [
        ("<span><math><mi></span>x", "math", "mi"),
        ("<span><math><mo></span>x", "math", "mo"),
        ("<span><math><mtext></span>x", "math", "mtext"),
        ("<span><svg><desc></span>x", "svg", "desc"),
        ("<span><svg><title></span>x", "svg", "title"),
        ("<span><svg><foreignObject></span>x", "svg", "foreignObject"),
        (
            "<span><math><annotation-xml></span>x",
            "math",
            "annotation-xml",
        ),
    ] {
        let outer = if prefix == "math" { "math" } else { "svg" };
        assert_eq!(
            document_tree(html, false),
            in_body(&format!(
                "<span>\n  <{prefix} {outer}>\n    <{prefix} {inner}>\n      \"x\"\n"
            )),
            "{html}"
        );
    }
}

/// MathML `annotation-xml` (here an HTML integration point) is special: an
/// `li` start tag stops looking for an open `li` at it and nests.
#[test]
fn mathml_annotation_xml_is_special_so_an_li_inside_it_nests() {
    assert_eq!(
        document_tree(
            r#"<li><math><annotation-xml encoding="text/html"><li>"#,
            false
        ),
        in_body(
            r#"
                <li>
                  <math math>
                    <math annotation-xml>
                      encoding="text/html"
                      <li>
            "#
        )
    );
}

/// MathML `annotation-xml` bounds the default scope (13.2.4.3): `</b>` with
/// the `b` below it is ignored, and the text stays in `annotation-xml`.
#[test]
fn mathml_annotation_xml_bounds_the_default_scope() {
    assert_eq!(
        document_tree("<b><math><annotation-xml></b>x", false),
        in_body(
            r#"
                <b>
                  <math math>
                    <math annotation-xml>
                      "x"
            "#
        )
    );
}

/// In a fragment whose context is `select`, an `input` start tag is ignored
/// (13.2.6.4.7, "input": "Parse error. Ignore the token."; html5lib-tests'
/// tests_innerHTML_1.dat since May 2026).
#[test]
fn an_input_in_a_select_fragment_is_ignored() {
    assert_eq!(
        fragment_tree("<input><option>", "select"),
        expected("<html>\n  <option>")
    );
    assert_eq!(
        fragment_tree("<input>x", "div"),
        expected("<html>\n  <input>\n  \"x\"")
    );
}

// The patch's fourth part, fast runs: the tag name and attribute name states
// take their ordinary ASCII characters from the buffer in one step, and the
// data state its `<` and `&`. The tokens and their source spans must be those
// of one character at a time, wherever the input's pieces end.

/// Every tag token of `text` (name, attributes, spans), fed whole or in
/// `chunk`-byte pieces (at character boundaries).
fn tag_tokens(text: &str, chunk: Option<usize>) -> Vec<String> {
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::{
        BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };
    use std::cell::RefCell;
    struct Tags(RefCell<Vec<String>>);
    impl TokenSink for Tags {
        type Handle = ();
        fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<()> {
            if let Token::TagToken(tag) = token {
                let attrs: Vec<(String, String)> = tag
                    .attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                self.0.borrow_mut().push(format!(
                    "{line} {:?} {} {attrs:?} {:?}",
                    tag.kind, tag.name, tag.spans
                ));
            }
            TokenSinkResult::Continue
        }
    }
    let opts = TokenizerOpts {
        source_spans: true,
        ..Default::default()
    };
    let tokenizer = Tokenizer::new(Tags(RefCell::new(vec![])), opts);
    let input = BufferQueue::default();
    let mut rest = text;
    while !rest.is_empty() {
        let mut n = chunk.unwrap_or(rest.len()).min(rest.len());
        while !rest.is_char_boundary(n) {
            n += 1;
        }
        input.push_back(StrTendril::from(&rest[..n]));
        rest = &rest[n..];
        let _ = tokenizer.feed(&input);
    }
    tokenizer.end();
    tokenizer.sink.0.take()
}

#[test]
fn fast_runs_give_the_names_and_spans_of_one_character_at_a_time() {
    // Offsets: `<`0 `DiV`1-4 `CLASS`5-10 `"a"`11-14 `dAtA-É`15-22 (É is two
    // bytes) `x`23 `Ab"c`25-29 `1`30 `z`32 `>`33. Names lower-cased (ASCII
    // upper alpha only), `"` kept in a name (a parse error), `z` without a
    // value.
    let text = "<DiV CLASS=\"a\" dAtA-\u{c9}=x Ab\"c=1 z>";
    let expected = "1 StartTag div [(\"class\", \"a\"), (\"data-\u{c9}\", \"x\"), \
                    (\"ab\\\"c\", \"1\"), (\"z\", \"\")] Some(TagSpans { tag: 0..34, attrs: [\
                    AttrSpan { name: 5..10, value: 12..13, quote: Double }, \
                    AttrSpan { name: 15..22, value: 23..24, quote: Unquoted }, \
                    AttrSpan { name: 25..29, value: 30..31, quote: Unquoted }, \
                    AttrSpan { name: 32..33, value: 33..33, quote: NoValue }] })";
    assert_eq!(tag_tokens(text, None), vec![expected.to_string()]);
    // The same wherever the pieces end, and for names and data around CR
    // LF, NUL, character references, `<` in names, end tags and EOF.
    for text in [
        text,
        "<P>a&amp;b<BR/>\r\n<A HREF='x'\r\nTITLE=y>&lt;</A\r\n>",
        "<di\0v cl\0ass=1 <x=2 'y=3 Q><SPAN\tID=a>b</SPAN >&notin;<",
        "<svg viewBox=\"0 0 1 1\"><foreignObject/></svg><a hr",
    ] {
        let whole = tag_tokens(text, None);
        for chunk in 1..=text.len() {
            assert_eq!(
                tag_tokens(text, Some(chunk)),
                whole,
                "{text:?} in {chunk}-byte pieces"
            );
        }
    }
}

/// The property test: only where the patch's checks run.
#[cfg(debug_assertions)]
mod generated_tag_soup {
    use super::*;
    use proptest::prelude::*;

    /// One token of tag soup.
    fn token() -> impl Strategy<Value = String> {
        let tags = prop_oneof![
            Just("p"),
            Just("div"),
            Just("button"),
            Just("table"),
            Just("tbody"),
            Just("tr"),
            Just("td"),
            Just("th"),
            Just("caption"),
            Just("ul"),
            Just("ol"),
            Just("li"),
            Just("dl"),
            Just("dd"),
            Just("dt"),
            Just("b"),
            Just("i"),
            Just("a"),
            Just("nobr"),
            Just("template"),
            Just("select"),
            Just("option"),
            Just("form"),
            Just("h1"),
            Just("marquee"),
            Just("object"),
            Just("applet"),
            Just("svg"),
            Just("foreignObject"),
            Just("desc"),
            Just("math"),
            Just("mi"),
            Just("annotation-xml"),
            Just("span"),
            Just("html"),
            Just("body"),
        ];
        // Formatting elements with a few attribute variants (some alike in
        // another order), for the Noah's Ark clause.
        let formatting = prop_oneof![
            Just("b"),
            Just("i"),
            Just("a"),
            Just("font"),
            Just("nobr"),
            Just("code"),
        ];
        let attributes = prop_oneof![
            Just(""),
            Just(" id=1"),
            Just(" id=2"),
            Just(" id=1 class=c"),
            Just(" class=c id=1"),
        ];
        prop_oneof![
            3 => (formatting, attributes).prop_map(|(tag, attrs)| format!("<{tag}{attrs}>")),
            4 => (tags.clone(), 0..3usize).prop_map(|(tag, attr)| match attr {
                0 => format!("<{tag}>"),
                1 => format!("<{tag} class=c>"),
                _ => format!("<{tag} encoding=text/html>"),
            }),
            3 => tags.prop_map(|tag| format!("</{tag}>")),
            1 => prop_oneof![
                Just("x".to_string()),
                Just("</p>".to_string()),
                Just("</br>".to_string()),
                Just("<br>".to_string()),
                Just("<hr>".to_string()),
                Just("<input type=hidden>".to_string()),
                Just("<!--c-->".to_string()),
                Just("<table><tr><td>".to_string()),
            ],
        ]
    }

    fn soup() -> impl Strategy<Value = String> {
        prop::collection::vec(token(), 0..60).prop_map(|tokens| tokens.concat())
    }

    fn context() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("body"),
            Just("div"),
            Just("p"),
            Just("button"),
            Just("td"),
            Just("table"),
            Just("tr"),
            Just("select"),
            Just("template"),
            Just("svg svg"),
            Just("math math"),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn the_kept_indices_answer_as_the_walks_do(
            html in soup(), scripting in any::<bool>(), context in context()
        ) {
            // A failed check panics inside the parser; the trees are built.
            prop_assert!(document_tree(&html, scripting).contains("| <html>\n"));
            prop_assert!(fragment_tree(&html, context).starts_with("| <html>\n"));
        }
    }
}

/// Tree bounds (PATCHES.md, "Tree bounds"): a `TreeSink` that counts the
/// calls of `same_node` and `elem_name`, the tree builder's unit of work
/// when it walks the stack of open elements or the list of active
/// formatting elements.
mod counting {
    use super::html5ever;
    use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode};
    use html5ever::tendril::{StrTendril, TendrilSink};
    use html5ever::tree_builder::TreeSink;
    use html5ever::{expanded_name, local_name, ns, parse_document, Attribute, ExpandedName};
    use html5ever::QualName;
    use std::borrow::Cow;
    use std::cell::{Cell, RefCell};

    #[derive(Default)]
    pub struct CountingSink {
        names: RefCell<Vec<&'static QualName>>,
        calls: Cell<usize>,
    }

    impl CountingSink {
        fn count(&self) {
            self.calls.set(self.calls.get() + 1);
        }
    }

    impl TreeSink for CountingSink {
        type Handle = usize;
        type Output = usize;
        type ElemName<'a> = ExpandedName<'a>;

        fn finish(self) -> usize {
            self.calls.get()
        }
        fn get_document(&self) -> usize {
            usize::MAX
        }
        fn get_template_contents(&self, target: &usize) -> usize {
            match self.elem_name(target) {
                expanded_name!(html "template") => usize::MAX - 1,
                _ => panic!("not a template element"),
            }
        }
        fn same_node(&self, x: &usize, y: &usize) -> bool {
            self.count();
            x == y
        }
        fn elem_name(&self, target: &usize) -> ExpandedName<'_> {
            self.count();
            let name: &'static QualName = self.names.borrow()[*target];
            name.expanded()
        }
        fn create_element(&self, name: QualName, _: Vec<Attribute>, _: ElementFlags) -> usize {
            let mut names = self.names.borrow_mut();
            names.push(Box::leak(Box::new(name)));
            names.len() - 1
        }
        fn create_comment(&self, _: StrTendril) -> usize {
            usize::MAX - 2
        }
        fn create_pi(&self, _: StrTendril, _: StrTendril) -> usize {
            usize::MAX - 3
        }
        fn append(&self, _: &usize, _: NodeOrText<usize>) {}
        fn append_before_sibling(&self, _: &usize, _: NodeOrText<usize>) {}
        fn append_based_on_parent_node(&self, _: &usize, _: &usize, _: NodeOrText<usize>) {}
        fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}
        fn add_attrs_if_missing(&self, _: &usize, _: Vec<Attribute>) {}
        fn remove_from_parent(&self, _: &usize) {}
        fn reparent_children(&self, _: &usize, _: &usize) {}
        fn parse_error(&self, _: Cow<'static, str>) {}
        fn set_quirks_mode(&self, _: QuirksMode) {}
        fn mark_script_already_started(&self, _: &usize) {}
    }

    /// The calls of `same_node` and `elem_name` parsing `html`.
    pub fn calls(html: &str) -> usize {
        parse_document(CountingSink::default(), Default::default()).one(html)
    }
}

/// Misnested `<a>` over a stack that only grows (issue 40): each `<a>` runs
/// the adoption agency on the `a` before it, which moves the block above it
/// (`<div>`, `<ul><li>`, a table cell…) and takes the old `a` out of the
/// stack. Finding the furthest block again (from the bottom of the stack)
/// and looking for the old `a` after the adoption agency had taken it out
/// walked the whole stack for every `<a>`: 20,000 levels cost about 800
/// million calls. Now a bounded number per level.
#[test]
fn misnested_a_over_a_growing_stack_costs_a_bounded_number_of_calls_per_level() {
    const LEVELS: usize = 20_000;
    for shape in [
        "<div><a href=x>",
        "<ul><li><a href=x>",
        "<div><a href=x><b>",
        "<b><p><a href=x>",
        "<table><tr><td><a href=x>",
        "<p><a href=x><div>",
    ] {
        let html = format!("<!DOCTYPE html><body>{}", shape.repeat(LEVELS));
        let calls = counting::calls(&html);
        assert!(
            calls < 400 * LEVELS,
            "{shape}: {calls} calls for {LEVELS} levels"
        );
    }
}
