//! `linkbase explain`: the part tree with each part's media type, transfer
//! encoding, base and the rule that set it.

use super::walk::Structure;
use super::{is_rewritable_type, Scope, TraversedPart};
use crate::context::DocumentContext;
use crate::report::Report;

/// One line of the explanation: one entity.
pub use crate::report::ExplainedPart as PartLine;

/// Explain a MIME message: one line per entity, in input order. The base
/// shown for an HTML part is the one in force inside it: its `<base href>`
/// (5.1, the HTML layer's answer) when it has a usable one.
pub fn explain_message(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Vec<PartLine> {
    let mut lines = Vec::new();
    explain_scope(&Scope::whole(input, ctx), report, &mut lines);
    lines
}

/// The lines of the message `scope` holds, and of each message enclosed in
/// it, by the traversal and the decoding the rewrite uses ([`Scope`]). A
/// part that cannot be decoded is shown without its content's base, and
/// not reported: rewriting it reports that.
fn explain_scope(scope: &Scope<'_>, report: &mut Report, lines: &mut Vec<PartLine>) {
    let tree = scope.walk(report);
    scope.traverse(&tree, report, &mut |part: &TraversedPart<'_>, report| {
        let entity = part.entity;
        let mut base = part.base.cloned();
        let decoded = scope.content(entity).and_then(Result::ok);
        if let (Some(content), Structure::Leaf) = (&decoded, &entity.structure) {
            let loc = entity.location(scope.ctx.location);
            let ctx = scope
                .ctx
                .for_part(super::part_charset(entity), part.base, &loc);
            if let Some(format) = crate::by_format::of_content(&entity.media_type, content) {
                base = crate::by_format::base(format, content, &ctx, report);
            }
        }
        let note = match (&entity.structure, part.protected) {
            (Structure::Unparsed(reason), _) => Some(reason.clone()),
            (_, Some(why)) if is_rewritable_type(&entity.media_type) => Some(why.to_string()),
            _ if entity.truncated => Some("no closing boundary (truncated?)".to_string()),
            _ => None,
        };
        lines.push(PartLine {
            depth: entity.depth,
            path: entity.display_path().to_string(),
            media_type: entity.media_type.clone(),
            encoding: entity.transfer_encoding().name().to_string(),
            base: base.as_ref().map(|b| b.url().to_string()),
            rule: base.as_ref().map(|b| b.rule),
            note,
        });
        if let (Some(content), Structure::EncodedMessage) = (&decoded, &entity.structure) {
            // The enclosed message, decoded, under its part.
            explain_scope(
                &scope.enclosed(content, entity, base.as_ref()),
                report,
                lines,
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseRule;
    use crate::report::Location;

    #[test]
    fn explains_bases_and_rules_per_part() {
        let m = "Snapshot-Content-Location: http://s/page.html\nContent-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Location: dir/p.html\n\n<p>\n--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\nAAAA\n--b--\n";
        let mut report = Report::new(false);
        let (options, location) = (crate::Options::new(), Location::file(Some("a.mhtml")));
        let ctx = DocumentContext::new(&options, &location);
        let lines = explain_message(m.as_bytes(), &ctx, &mut report);
        let summary: Vec<(String, Option<String>, Option<BaseRule>)> = lines
            .iter()
            .map(|l| (l.path.clone(), l.base.clone(), l.rule))
            .collect();
        assert_eq!(
            summary,
            [
                (
                    "message".into(),
                    Some("http://s/page.html".into()),
                    Some(BaseRule::SnapshotContentLocation)
                ),
                (
                    "1".into(),
                    Some("http://s/dir/p.html".into()),
                    Some(BaseRule::ContentLocation)
                ),
                (
                    "2".into(),
                    Some("http://s/page.html".into()),
                    Some(BaseRule::Enclosing)
                ),
            ]
        );
        let text = crate::report::render_parts(&lines, &BaseRule::label);
        assert!(text.contains("\n  2  "), "{text}");
        assert!(text.contains("base64"), "{text}");
    }
}
