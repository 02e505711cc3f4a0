//! Properties of the HTML layer (proptest) over generated documents: well
//! nested markup of many kinds (tables, templates, SVG, noscript, pre,
//! textarea, style, script, comments, entities) carrying URL-bearing
//! attributes with arbitrary references.
//!
//! - the output is the input with the reported edits spliced in, each inside
//!   a link place (`tests/support/src/html_splice_check.rs`, used on every fixture);
//! - the output re-parses to the input's tree except for URL values (the
//!   fidelity helper used on every fixture);
//! - rewriting is idempotent: the output, rewritten again, comes back
//!   byte-identical (nothing left to change);
//! - without any base, the input comes back byte-identical.
//!
//! Documents come with and without `<html>`/`<head>`/`<body>` tags.

use test_support::fidelity;
use test_support::html_splice_check;

use proptest::prelude::*;

fn reference() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}(/[a-z0-9]{1,4}){0,3}(\\.html)?",
        "(\\.\\./){1,3}[a-z]{1,5}",
        "/[a-z]{1,5}\\?q=[a-z&;=]{0,6}",
        "#[a-z]{1,5}",
        "https://h\\.example/[a-z]{0,5}",
        "mailto:x@h\\.example",
        "\\{\\{[a-z]{1,5}\\}\\}",
        " [a-z]{1,4}\\.png ",
        "[a-z]{1,3}[ \"'<>&é日]{0,2}[a-z]{0,3}",
        Just(String::new()),
    ]
}

/// One piece of markup: leaf, or a container with children.
fn node() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-zA-Z ,.é日&<>]{0,12}".prop_map(|t| t.replace('&', "&amp;").replace('<', "&lt;")),
        reference().prop_map(|r| format!("<img src=\"{}\" alt=\"\">", attr(&r))),
        reference().prop_map(|r| format!("<a href=\"{}\">link</a>", attr(&r))),
        (reference(), reference()).prop_map(|(a, b)| format!(
            "<img srcset=\"{} 1x, {} 2x\">",
            attr(&a.replace([' ', ','], "")),
            attr(&b.replace([' ', ','], ""))
        )),
        reference().prop_map(|r| format!(
            "<div style=\"background: url('{}')\">s</div>",
            attr(&r.replace(['\'', '\\'], ""))
        )),
        reference().prop_map(|r| format!(
            "<svg><use xlink:href=\"{}\"></use><a href=\"{}\"><text>t</text></a></svg>",
            attr(&r),
            attr(&r)
        )),
        reference().prop_map(|r| format!(
            "<meta http-equiv=\"refresh\" content=\"1; url={}\">",
            attr(&r.replace(['\'', '"', ';', ','], ""))
        )),
        reference().prop_map(|r| format!(
            "<style>p {{ background: url(\"{}\") }}</style>",
            r.replace(['"', '\\', '<'], "")
        )),
        Just("<!-- a comment -->".to_string()),
        Just("<script>if (a < b && c) { x = \"</p>\"; }</script>".to_string()),
        Just("<pre>\n\nkept newline</pre>".to_string()),
        Just("<textarea>\nfirst</textarea>".to_string()),
        Just("<br>".to_string()),
        // Not a container: a form inside a form is a tree no HTML
        // serialization can give back (the parser ignores the inner one).
        Just(
            "<form action=\"\"><input name=\"q\"><button formaction=\"go\">go</button></form>"
                .to_string()
        ),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        (
            prop_oneof![
                Just(("<div>", "</div>")),
                Just(("<p>", "</p>")),
                Just(("<section id=x>", "</section>")),
                Just(("<table><tbody><tr><td>", "</td></tr></tbody></table>")),
                Just(("<ul><li>", "</li></ul>")),
                Just(("<template>", "</template>")),
                Just(("<noscript>", "</noscript>")),
                Just(("<blockquote cite=\"src.html\">", "</blockquote>")),
                Just(("<span>", "</span>")),
            ],
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|((open, close), kids)| {
                // A <p> cannot hold block content; keep the nesting valid.
                let kids = kids.concat();
                if open == "<p>" && kids.contains('<') {
                    format!("<div>{kids}</div>")
                } else {
                    format!("{open}{kids}{close}")
                }
            })
    })
}

fn attr(value: &str) -> String {
    value.replace('&', "&amp;").replace('"', "&quot;")
}

fn document() -> impl Strategy<Value = String> {
    (
        prop::option::of(reference()),
        prop::collection::vec(node(), 0..6),
        any::<bool>(),
    )
        .prop_map(|(base, body, wrapped)| {
            let base = base
                .map(|b| format!("<base href=\"{}\">", attr(&b)))
                .unwrap_or_default();
            if wrapped {
                format!(
                    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{base}</head>\n<body>{}</body></html>\n",
                    body.concat()
                )
            } else {
                // A fragment, as in e-mail: html, head and body are implied.
                format!("{base}{}", body.concat())
            }
        })
}

fn rewrite(input: &[u8], url: Option<&str>) -> Vec<u8> {
    let options = linkbase::Options::new();
    let mut source = linkbase::Source::new();
    if let Some(value) = url.map(str::to_string) {
        source = source.with_url(value);
    }
    source = source.with_format(linkbase::Format::Html);
    linkbase::rewrite(input, &source, &options)
        .output
        .into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn output_has_the_input_tree_and_rewriting_is_idempotent(doc in document()) {
        let url = Some("http://h.example/a/b/page.html");
        let options = linkbase::Options::new();
        let mut source = linkbase::Source::new();
        if let Some(value) = url.map(str::to_string) { source = source.with_url(value); }
        source = source.with_format(linkbase::Format::Html);
        let planned = linkbase::plan_rewrite(doc.as_bytes(), &source, &options);
        let edits = planned.edits();
        let edits: Vec<(std::ops::Range<usize>, &[u8])> =
            edits.iter().map(|(r, b)| (r.clone(), &b[..])).collect();
        let once: Vec<u8> = planned.pieces().concat();
        let checked = html_splice_check::check(doc.as_bytes(), &once, Some(&edits), None);
        prop_assert!(checked.is_ok(), "{:?}", checked);
        fidelity::assert_same_tree("generated", doc.as_bytes(), &once, None, &[]);
        let twice = rewrite(&once, url);
        prop_assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once));
    }

    /// Issue 41: bytes UTF-8 does not allow (a cut 2-, 3- or 4-byte
    /// sequence, a stray continuation byte, 0xFF) put anywhere in the
    /// document, in text, markup or a value: the same invariants (read as a
    /// browser reads it, U+FFFD for each), every broken sequence kept (the
    /// output holds as many), and rewriting is idempotent.
    #[test]
    fn broken_bytes_anywhere_are_kept_and_the_rest_is_rewritten(
        doc in document(),
        cuts in prop::collection::vec((any::<prop::sample::Index>(), 0..5usize), 1..4),
    ) {
        const BROKEN: [&[u8]; 5] = [b"\xC3", b"\xE2\x82", b"\xF0\x9F\x8D", b"\x80", b"\xFF"];
        let mut input = doc.into_bytes();
        for (at, which) in cuts {
            let at = at.index(input.len() + 1);
            input.splice(at..at, BROKEN[which].iter().copied());
        }
        let url = Some("http://h.example/a/b/page.html");
        let options = linkbase::Options::new();
        let mut source = linkbase::Source::new();
        if let Some(value) = url.map(str::to_string) { source = source.with_url(value); }
        source = source.with_format(linkbase::Format::Html);
        let planned = linkbase::plan_rewrite(&input, &source, &options);
        let edits = planned.edits();
        let edits: Vec<(std::ops::Range<usize>, &[u8])> =
            edits.iter().map(|(r, b)| (r.clone(), &b[..])).collect();
        let once: Vec<u8> = planned.pieces().concat();
        // No edit was refused for covering broken bytes (links may fail
        // for other reasons: a `mailto:` base).
        let refused = planned
            .report
            .problems
            .iter()
            .any(|p| p.message.to_string().contains("cannot be told apart"));
        prop_assert!(!refused, "{:?}", planned.report.problems);
        let checked = html_splice_check::check(&input, &once, Some(&edits), None);
        prop_assert!(checked.is_ok(), "{:?}", checked);
        fidelity::assert_same_tree("generated", &input, &once, None, &[]);
        let charset = linkbase::fuzzing::charset::sniff(&input, None);
        let broken = |bytes: &[u8]| {
            linkbase::fuzzing::charset::decode_lossy(bytes, &charset).map(|d| d.broken.len())
        };
        prop_assert_eq!(broken(&once), broken(&input));
        let twice = rewrite(&once, url);
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn without_a_base_nothing_changes(doc in document()) {
        // Only documents whose <base href> cannot give a base either.
        prop_assume!(!doc.contains("<base href=\"https:") && !doc.contains("<base href=\"mailto:"));
        let out = rewrite(doc.as_bytes(), None);
        prop_assert_eq!(out, doc.into_bytes());
    }
}
