//! Invariant checks of the CSS, `srcset` and refresh rewriters, shared by the
//! property tests (`tests/integration/properties_css.rs`) and the fuzz targets
//! (`fuzz/fuzz_targets/string_layers.rs`), which include this file by path.
//! Each check returns a description of the first violation.

use cssparser::{ParseError, Parser, Token};
use linkbase::fuzzing::strings::{
    candidate_urls, refresh_url, rewrite_css, rewrite_refresh, rewrite_srcset,
};
use std::ops::Range;

/// The signature the three rewriters share.
pub type Layer = fn(&str, &mut dyn FnMut(&str) -> Option<String>) -> Option<String>;

/// The three rewriters, by name.
pub const LAYERS: [(&str, Layer); 3] = [
    ("css", rewrite_css),
    ("srcset", rewrite_srcset),
    ("refresh", rewrite_refresh),
];

/// A declining callback gives `None`; an identity callback leaves `text` as it is.
pub fn check_unchanged(layer: (&str, Layer), text: &str) -> Result<(), String> {
    let (name, rewrite) = layer;
    if let Some(out) = rewrite(text, &mut |_| None) {
        return Err(format!(
            "{name}: declining callback changed {text:?} to {out:?}"
        ));
    }
    match rewrite(text, &mut |u| Some(u.to_string())) {
        Some(out) if out != text => Err(format!(
            "{name}: identity callback changed {text:?} to {out:?}"
        )),
        _ => Ok(()),
    }
}

/// A token in a comparable form; the two spellings of a URL (`url(x)` and
/// `url("x")`) compare as one kind.
#[derive(Debug, PartialEq, Clone)]
pub enum Tok {
    Url(String),
    Str(String),
    Other(String),
}

/// Past this many block openers the flattening recursion of [`tokens`] could
/// grow deep; [`check_css`] skips the token comparison for such inputs.
pub const MAX_OPENERS: usize = 150;

/// Flatten the token stream of `css`, entering every block (no nesting
/// limit), writing the closing of each block as a token and folding
/// `url( "x" )` into `Url(x)`.
pub fn tokens(css: &str) -> Vec<Tok> {
    fn walk(p: &mut Parser<'_>, out: &mut Vec<Tok>) {
        while let Ok(token) = p.next_including_whitespace_and_comments() {
            let token = token.clone();
            match &token {
                Token::UnquotedUrl(v) => out.push(Tok::Url(v.to_string())),
                Token::QuotedString(v) => out.push(Tok::Str(v.to_string())),
                Token::Function(_)
                | Token::ParenthesisBlock
                | Token::SquareBracketBlock
                | Token::CurlyBracketBlock => {
                    let mut inner = Vec::new();
                    let _ = p.parse_nested_block(|p| {
                        walk(p, &mut inner);
                        Ok::<(), ParseError<()>>(())
                    });
                    let is_trivia = |t: &&Tok| matches!(t, Tok::Other(s) if s.starts_with("ws") || s.starts_with("comment"));
                    let significant: Vec<&Tok> = inner.iter().filter(|t| !is_trivia(t)).collect();
                    match (&token, significant.as_slice()) {
                        (Token::Function(name), [Tok::Str(v)])
                            if name.eq_ignore_ascii_case("url") =>
                        {
                            out.push(Tok::Url(v.clone()))
                        }
                        _ => {
                            out.push(Tok::Other(format!("{token:?}")));
                            out.extend(inner);
                            out.push(Tok::Other("close".into()));
                        }
                    }
                }
                Token::WhiteSpace(w) => out.push(Tok::Other(format!("ws{w:?}"))),
                Token::Comment(c) => out.push(Tok::Other(format!("comment{c:?}"))),
                other => out.push(Tok::Other(format!("{other:?}"))),
            }
        }
    }
    let mut parser = Parser::new(css);
    parser.set_nested_block_limit(0);
    let mut out = Vec::new();
    walk(&mut parser, &mut out);
    out
}

/// With a callback returning `X` + the URL + `spice`, the output re-tokenizes
/// to the input's tokens except exactly the URLs offered, each now `X…spice`.
pub fn check_css(css: &str, spice: &str) -> Result<(), String> {
    let mut offered = Vec::new();
    let out = rewrite_css(css, &mut |u| {
        offered.push(u.to_string());
        Some(format!("X{u}{spice}"))
    });
    let out = out.unwrap_or_else(|| css.to_string());
    let openers = css
        .bytes()
        .filter(|b| matches!(b, b'(' | b'[' | b'{'))
        .count();
    if openers > MAX_OPENERS {
        return Ok(());
    }
    let before = tokens(css);
    let after = tokens(&out);
    if before.len() != after.len() {
        return Err(format!("token count changed: {css:?} → {out:?}"));
    }
    let mut changed = Vec::new();
    for (b, a) in before.iter().zip(&after) {
        match (b, a) {
            _ if b == a => {}
            (Tok::Url(b), Tok::Url(a)) | (Tok::Str(b), Tok::Str(a))
                if *a == format!("X{b}{spice}") =>
            {
                changed.push(b.clone())
            }
            _ => return Err(format!("token {b:?} became {a:?}: {css:?} → {out:?}")),
        }
    }
    if changed != offered {
        return Err(format!(
            "changed {changed:?} but offered {offered:?}: {css:?} → {out:?}"
        ));
    }
    Ok(())
}

/// `s` with the given ranges cut out: what must stay byte for byte.
fn outside(s: &str, ranges: impl Iterator<Item = Range<usize>>) -> String {
    let mut kept = String::new();
    let mut at = 0;
    for r in ranges {
        kept.push_str(&s[at..r.start]);
        kept.push('|');
        at = r.end;
    }
    kept.push_str(&s[at..]);
    kept
}

/// With a callback returning `X` + the URL + `spice`, the output's candidate
/// URLs read back as exactly those, and every byte outside them is unchanged.
/// (The spice may need percent-encoding, so only the `X…` prefix is compared.)
pub fn check_srcset(value: &str, spice: &str) -> Result<(), String> {
    let out = rewrite_srcset(value, &mut |u| Some(format!("X{u}{spice}")))
        .unwrap_or_else(|| value.to_string());
    let before: Vec<&str> = candidate_urls(value).map(|r| &value[r]).collect();
    let after: Vec<&str> = candidate_urls(&out).map(|r| &out[r]).collect();
    let reads_back = before.len() == after.len()
        && before
            .iter()
            .zip(&after)
            .all(|(b, a)| a.strip_prefix('X').is_some_and(|a| a.starts_with(b)));
    if !reads_back {
        return Err(format!(
            "urls {before:?} read back as {after:?}: {value:?} → {out:?}"
        ));
    }
    if outside(value, candidate_urls(value)) != outside(&out, candidate_urls(&out)) {
        return Err(format!("bytes outside the urls moved: {value:?} → {out:?}"));
    }
    Ok(())
}

/// With a callback returning `X` + the URL + `spice`, the output keeps every
/// byte before and after the old URL, and its refresh URL reads back at the
/// same place starting with `X` + the old URL (the spice may be
/// percent-encoded or, at the end, read as trailing whitespace); a value
/// without a URL is left alone.
pub fn check_refresh(content: &str, spice: &str) -> Result<(), String> {
    let out = rewrite_refresh(content, &mut |u| Some(format!("X{u}{spice}")));
    match (out, refresh_url(content)) {
        (None, None) => Ok(()),
        (Some(out), Some(before)) => {
            let (head, old, tail) = (
                &content[..before.range.start],
                &content[before.range.clone()],
                &content[before.range.end..],
            );
            if !out.starts_with(head) || !out.ends_with(tail) || out.len() < head.len() + tail.len()
            {
                return Err(format!(
                    "bytes outside the url moved: {content:?} → {out:?}"
                ));
            }
            let reads_back = refresh_url(&out).is_some_and(|after| {
                after.range.start == before.range.start
                    && out[after.range].starts_with(&format!("X{old}"))
            });
            if !reads_back {
                return Err(format!(
                    "url {old:?} does not read back: {content:?} → {out:?}"
                ));
            }
            Ok(())
        }
        (out, before) => Err(format!("{content:?}: url {before:?} but output {out:?}")),
    }
}
