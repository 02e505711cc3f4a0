//! CSS rewriting with a real tokenizer (`cssparser`): `url(…)`, `@import "…"`
//! and `image-set("…")`; never `@namespace`, never `url(#id)`.
//!
//! One function, [`rewrite_css`], serves whole style sheets (`<style>`
//! elements, `text/css` parts) and `style` attribute declaration lists alike:
//! it walks the token stream, entering every `{}`, `()` and `[]` block, and
//! splices each replaced URL into the original text by byte range. Every other
//! byte — comments, whitespace, the case of `URL(`, escapes in untouched
//! tokens — is copied as it was.
//!
//! What is a URL:
//! - a `url(…)` token (unquoted), whatever its case or escapes;
//! - the string of `url("…")` and of its CSS Values 4 twin `src("…")`;
//! - the string right after `@import` (`@import "a.css"`);
//! - the strings directly inside `image-set(…)` / `-webkit-image-set(…)`
//!   (not those of a nested `type("image/avif")`).
//!
//! Left alone: everything in an `@namespace` prelude (its URL names a
//! namespace, it is not fetched); `url(#id)` and `url("#id")` (a reference to
//! an element of the same document, as in SVG `fill: url(#gradient)`, which
//! must never become absolute — so they are not even offered to the callback,
//! whatever the fragment policy); empty `url()`; bad-url and bad-string
//! tokens.

mod escape;
pub(crate) mod replacements;

use crate::splice::Edit;
use cssparser::{ParseError, Parser, Token};
use replacements::{changed, Splicer};
use std::ops::Range;

/// Rewrite the URLs of a style sheet (or a `style` attribute's declarations).
/// `rewrite` gets each URL as written (CSS escapes undone, as the tokenizer
/// yields it) and returns `Some(new)` to replace it. Returns `None` when
/// nothing changed, otherwise the whole new text.
///
/// A replaced URL is written in the form the original used: an unquoted
/// `url(x)` stays unquoted when the new URL needs no escaping there, and
/// becomes `url("…")` otherwise; a quoted string keeps its quote character,
/// escaping that quote, backslashes and newlines. (Example:
/// `src/doc_example_tests.rs`.)
pub fn rewrite_css(css: &str, rewrite: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    walk(css, rewrite).finish()
}

/// The replacements [`rewrite_css`] makes, in order: each a byte range of
/// `css` and the text written there instead.
pub fn css_edits(css: &str, rewrite: &mut dyn FnMut(&str) -> Option<String>) -> Vec<Edit<String>> {
    walk(css, rewrite).edits()
}

fn walk<'a>(css: &'a str, rewrite: &mut dyn FnMut(&str) -> Option<String>) -> Splicer<'a> {
    let mut walker = Walker {
        rewrite,
        out: Splicer::new(css),
        source: css,
    };
    walker.walk(&mut Parser::new(css), Context::Normal);
    walker.out
}

/// What the tokens of the block being walked mean.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Context {
    /// Ordinary tokens: only `url(…)` tokens (and `@import` strings) are URLs.
    Normal,
    /// Inside `url(` or `src(`: the first significant token, if a string, is the URL.
    UrlFunction,
    /// Inside `image-set(`: every string at this level is a URL.
    ImageSet,
    /// Inside an `@namespace` prelude: nothing is a URL.
    Skip,
}

impl Context {
    /// The context of a function's arguments.
    fn of_function(name: &str, skipping: bool) -> Context {
        if skipping {
            Context::Skip
        } else if name.eq_ignore_ascii_case("url") || name.eq_ignore_ascii_case("src") {
            Context::UrlFunction
        } else if name.eq_ignore_ascii_case("image-set")
            || name.eq_ignore_ascii_case("-webkit-image-set")
        {
            Context::ImageSet
        } else {
            Context::Normal
        }
    }

    /// The context of a plain `{}`, `()` or `[]` block.
    fn of_block(skipping: bool) -> Context {
        if skipping {
            Context::Skip
        } else {
            Context::Normal
        }
    }
}

/// Walks the token stream, splicing replacements as it goes.
struct Walker<'a, 'f> {
    rewrite: &'f mut dyn FnMut(&str) -> Option<String>,
    out: Splicer<'a>,
    source: &'a str,
}

impl<'a> Walker<'a, '_> {
    /// Walk the tokens of one block (or of the whole text) in `context`.
    ///
    /// Recursion is bounded by the parser's nesting limit (75 blocks). Past
    /// it, `parse_nested_block` refuses, and the deeper tokens arrive flat at
    /// this level: `url(…)` tokens are still rewritten, and the refused
    /// block's context carries over to the rest of this level.
    fn walk(&mut self, parser: &mut Parser<'a>, mut context: Context) {
        let mut first_token = true;
        let mut after_import = false;
        let mut in_namespace_prelude = false;
        loop {
            let start = parser.position().byte_index();
            let token = match parser.next_including_whitespace_and_comments() {
                Ok(Token::WhiteSpace(_) | Token::Comment(_)) => continue,
                Ok(token) => token.clone(),
                Err(_) => break,
            };
            let span = start..parser.position().byte_index();
            let skipping = context == Context::Skip || in_namespace_prelude;
            let string_is_url = !skipping
                && (after_import
                    || context == Context::ImageSet
                    || (context == Context::UrlFunction && first_token));
            first_token = false;
            after_import = false;
            let block = match &token {
                Token::UnquotedUrl(value) => {
                    if !skipping {
                        self.unquoted_url(span, value);
                    }
                    None
                }
                Token::QuotedString(value) => {
                    if string_is_url {
                        self.string_url(span, value);
                    }
                    None
                }
                Token::AtKeyword(name) => {
                    after_import = name.eq_ignore_ascii_case("import");
                    in_namespace_prelude |= name.eq_ignore_ascii_case("namespace");
                    None
                }
                Token::Semicolon => {
                    in_namespace_prelude = false;
                    None
                }
                Token::CurlyBracketBlock => {
                    in_namespace_prelude = false;
                    Some(Context::of_block(context == Context::Skip))
                }
                Token::ParenthesisBlock | Token::SquareBracketBlock => {
                    Some(Context::of_block(skipping))
                }
                Token::Function(name) => Some(Context::of_function(name, skipping)),
                _ => None,
            };
            if let Some(inner_context) = block {
                let entered = parser.parse_nested_block(|inner| {
                    self.walk(inner, inner_context);
                    Ok::<(), ParseError<()>>(())
                });
                if entered.is_err() {
                    context = inner_context;
                    first_token = true;
                }
            }
        }
    }

    /// An unquoted `url(…)` token at `span`.
    fn unquoted_url(&mut self, span: Range<usize>, value: &str) {
        if is_left_alone(value) {
            return;
        }
        let Some(body) = unquoted_url_body(&self.source[span.clone()]) else {
            return;
        };
        let Some(new) = changed(self.rewrite, value) else {
            return;
        };
        let body = span.start + body.start..span.start + body.end;
        if escape::fits_unquoted(&new) {
            self.out.replace(body, &new);
        } else {
            self.out.replace(body, &escape::quoted(&new));
        }
    }

    /// A string token at `span` that holds a URL.
    fn string_url(&mut self, span: Range<usize>, value: &str) {
        if is_left_alone(value) {
            return;
        }
        let written = &self.source[span.clone()];
        let Some(quote) = written.chars().next() else {
            return;
        };
        let Some(new) = changed(self.rewrite, value) else {
            return;
        };
        let body = string_body(written, quote);
        let mut replacement = String::with_capacity(new.len() + 2);
        escape::push_string_body(&mut replacement, &new, quote);
        self.out
            .replace(span.start + body.start..span.start + body.end, &replacement);
    }
}

/// CSS whitespace (after input preprocessing: CR and FF count as newlines).
fn is_css_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')
}

/// Values never offered to the callback: empty ones and same-document
/// fragments (`url(#id)`).
fn is_left_alone(value: &str) -> bool {
    let value = value.trim_matches(|c: char| c.is_ascii() && is_css_whitespace(c as u8));
    value.is_empty() || value.starts_with('#')
}

/// Within the text of an unquoted url token (`url(  x\)y  )`), the byte range
/// of the URL as written (`x\)y`): after `(` and leading whitespace, up to
/// unescaped whitespace or `)`. A hex escape swallows one whitespace after it.
fn unquoted_url_body(written: &str) -> Option<Range<usize>> {
    let bytes = written.as_bytes();
    let mut i = written.find('(')? + 1;
    while i < bytes.len() && is_css_whitespace(bytes[i]) {
        i += 1;
    }
    let start = i;
    while i < bytes.len() {
        match bytes[i] {
            b')' => break,
            b if is_css_whitespace(b) => break,
            b'\\' => i = after_escape(bytes, i + 1),
            _ => i += 1,
        }
    }
    Some(start..i)
}

/// The position after the escape whose body starts at `i` (just after the
/// backslash): up to six hex digits and one optional whitespace (CR LF counts
/// as one), or any single other byte (continuation bytes of a multi-byte
/// character are neither whitespace nor `)`, so stepping over one is enough).
fn after_escape(bytes: &[u8], mut i: usize) -> usize {
    let hex_start = i;
    while i < bytes.len() && i - hex_start < 6 && bytes[i].is_ascii_hexdigit() {
        i += 1;
    }
    if i == hex_start {
        return (i + 1).min(bytes.len());
    }
    match bytes.get(i) {
        Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => i + 2,
        Some(&b) if is_css_whitespace(b) => i + 1,
        _ => i,
    }
}

/// Within the text of a string token (`"a\"b"`), the byte range of its body:
/// after the opening quote, up to the unescaped closing quote or, for a string
/// left open at the end of the input, to the end.
fn string_body(written: &str, quote: char) -> Range<usize> {
    let bytes = written.as_bytes();
    let start = quote.len_utf8();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if char::from(b) == quote => return start..i,
            _ => i += 1,
        }
    }
    start..bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rewrite with a callback that prefixes `X`, collecting what it was given.
    fn run(css: &str) -> (Option<String>, Vec<String>) {
        let mut seen = Vec::new();
        let out = rewrite_css(css, &mut |u| {
            seen.push(u.to_string());
            Some(format!("X{u}"))
        });
        (out, seen)
    }

    #[test]
    fn unquoted_url_body_skips_whitespace_and_keeps_escapes() {
        assert_eq!(unquoted_url_body("url(a)"), Some(4..5));
        assert_eq!(unquoted_url_body("URL(  a\\)b  )"), Some(6..10));
        assert_eq!(unquoted_url_body("url(\\31 a)"), Some(4..9));
        assert_eq!(unquoted_url_body("url(\\31\r\na)"), Some(4..10));
        assert_eq!(unquoted_url_body("url(a"), Some(4..5));
        assert_eq!(unquoted_url_body("url(a\\"), Some(4..6));
        assert_eq!(unquoted_url_body("no paren"), None);
    }

    #[test]
    fn string_body_finds_the_unescaped_closing_quote() {
        assert_eq!(string_body("\"a\"", '"'), 1..2);
        assert_eq!(string_body("'a\\'b'", '\''), 1..5);
        assert_eq!(string_body("'a\"b'", '\''), 1..4);
        assert_eq!(string_body("\"open", '"'), 1..5);
        assert_eq!(string_body("\"open\\", '"'), 1..6);
        assert_eq!(string_body("\"é\"", '"'), 1..3);
    }

    #[test]
    fn fragments_and_empty_urls_are_not_offered() {
        let (out, seen) = run("a{fill:url(#g);b:url();c:url( );d:url('#x');e:url(\"\")}");
        assert_eq!(out, None);
        assert!(seen.is_empty(), "{seen:?}");
    }

    #[test]
    fn callback_sees_unescaped_values() {
        let (_, seen) = run(r#"a{b:url(a\)b);c:url("c\"d");e:url(\31 .png)}"#);
        assert_eq!(seen, ["a)b", "c\"d", "1.png"]);
    }

    #[test]
    fn hex_escaped_unquoted_url_is_replaced_whole() {
        let (out, _) = run(r"a{b:url(\31 .png)}");
        assert_eq!(out.as_deref(), Some("a{b:url(X1.png)}"));
    }

    #[test]
    fn flat_tokens_past_the_nesting_limit_are_still_rewritten() {
        let depth = 200;
        let css = format!("{}url(a.png){}", "(".repeat(depth), ")".repeat(depth));
        let (out, seen) = run(&css);
        assert_eq!(seen, ["a.png"]);
        let expected = format!("{}url(Xa.png){}", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(out, Some(expected));
    }

    #[test]
    fn deep_url_function_string_is_rewritten_past_the_limit() {
        let depth = 100;
        let css = format!("{}url('a.png'){}", "[".repeat(depth), "]".repeat(depth));
        let (out, _) = run(&css);
        let expected = format!("{}url('Xa.png'){}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(out, Some(expected));
    }
}
