//! `linkbase explain`: the part tree with each part's media type, transfer
//! encoding, base and the rule that set it.

use super::walk::{self, Structure};
use super::{is_rewritable_type, traverse, OuterBase, TraversedPart};
use crate::base::EstablishedBase;
use crate::options::Options;
use crate::report::{Location, Report};

/// One line of the explanation: one entity.
pub use crate::report::ExplainedPart as PartLine;

/// Explain a MIME message: one line per entity, in input order. The base
/// shown for an HTML part is the one in force inside it: its `<base href>`
/// (5.1, the HTML layer's answer) when it has a usable one.
pub fn explain_message(
    input: &[u8],
    options: &Options,
    location: &Location,
    report: &mut Report,
) -> Vec<PartLine> {
    let tree = walk::walk(input, location, report);
    let mut lines = Vec::new();
    explain_tree(
        input,
        &tree,
        options,
        location,
        report,
        OuterBase::Retrieval,
        &mut lines,
    );
    lines
}

fn explain_tree(
    input: &[u8],
    tree: &walk::Entity,
    options: &Options,
    location: &Location,
    report: &mut Report,
    outer: OuterBase,
    lines: &mut Vec<PartLine>,
) {
    traverse(
        input,
        tree,
        options,
        location,
        report,
        outer,
        &mut |part: &TraversedPart<'_>, report| {
            let entity = part.entity;
            let encoding = entity.transfer_encoding();
            let mut base = part.base.cloned();
            let decoded = match entity.structure {
                Structure::Leaf if is_rewritable_type(&entity.media_type) => {
                    super::decoded_body(input, entity, &encoding).ok()
                }
                Structure::EncodedMessage => super::decoded_body(input, entity, &encoding).ok(),
                _ => None,
            };
            if let (Some(content), Structure::Leaf) = (&decoded, &entity.structure) {
                let loc = entity.location(location);
                let ctx = super::html_context(entity, options, part.base, &loc);
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
                encoding: encoding.name().to_string(),
                base: base.as_ref().map(|b| b.url().to_string()),
                rule: base.as_ref().map(|b| b.rule),
                note,
            });
            if let (Some(content), Structure::EncodedMessage) = (&decoded, &entity.structure) {
                // The enclosed message, decoded, under its part.
                let inner = walk::walk_enclosed(content, entity, location, report);
                let outer = OuterBase::Enclosed(base.as_ref().map(EstablishedBase::inherited));
                explain_tree(content, &inner, options, location, report, outer, lines);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseRule;

    #[test]
    fn explains_bases_and_rules_per_part() {
        let m = "Snapshot-Content-Location: http://s/page.html\nContent-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Location: dir/p.html\n\n<p>\n--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\nAAAA\n--b--\n";
        let mut report = Report::new(false);
        let lines = explain_message(
            m.as_bytes(),
            &Options::new(),
            &Location::file(Some("a.mhtml")),
            &mut report,
        );
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
