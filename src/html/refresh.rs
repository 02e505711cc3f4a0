//! `<meta http-equiv=refresh content="5; URL=…">`: only the URL part changes.
//!
//! PROVISIONAL: implemented by the CSS/srcset/refresh work of issue #3.

/// Rewrite the URL of a refresh `content` value through `rewrite`, keeping the
/// delay, separators, `URL=` spelling and quotes as written. `None` when
/// nothing changed or there is no URL.
pub fn rewrite_refresh(
    content: &str,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let _ = (content, rewrite);
    None
}
