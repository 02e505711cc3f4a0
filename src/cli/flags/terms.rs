//! The command line's words for what the library names in its own terms,
//! handed to the library as callbacks: a library message holds the setting
//! it names as a value (`linkbase::report::Message`), rendered in the library's terms
//! (`Options::force`, the retrieval URL) or, here, by the flag that sets it
//! (`--force`, `--url`: [`flag`] through `Problem::message_naming`); likewise
//! the label of the base rule a `--url` sets ([`rule_label`] through
//! `Explanation::render`). No text of the library's is edited.

use linkbase::{base::BaseRule, report::Setting, Report};

/// The flag that sets `setting`.
pub fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Url => "--url",
        Setting::Charset => "--charset",
        Setting::Force => "--force",
        Setting::MaxRecord => "--max-size",
        Setting::Format => "--format",
        // A setting newer than these flags: the library's own term.
        other => other.term(),
    }
}

/// Every problem of `report` in the command line's words: the setting a
/// message names, by its flag (`linkbase::report::Problem::message_naming`).
pub fn name_flags(report: &mut Report) {
    for problem in &mut report.problems {
        problem.message = problem.message_naming(flag).into();
    }
}

/// The label of `rule` in the command line's words, for
/// `linkbase::report::Explanation::render`: the rule a retrieval URL sets names
/// the flag that gives it.
pub fn rule_label(rule: BaseRule) -> &'static str {
    match rule {
        BaseRule::Retrieval => "5.3 retrieval URL (--url)",
        other => other.label(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use linkbase::{report::Location, report::Message, report::Severity};

    #[test]
    fn a_problem_naming_a_setting_names_its_flag_instead() {
        let mut report = Report::new(false);
        let at = Location::file(Some("m.eml"));
        for setting in [
            Setting::Url,
            Setting::Charset,
            Setting::Force,
            Setting::MaxRecord,
            Setting::Format,
        ] {
            let message = Message::naming("about ", setting, " here");
            report.problem(&at, Severity::Warning, message);
        }
        // A message that names no setting is left as it is, even when its
        // words happen to hold a term: only a setting held as a value is named.
        let plain = format!("quoting {}", Setting::Force.term());
        report.problem(&at, Severity::Error, plain.clone());
        name_flags(&mut report);
        let messages: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.message.to_string())
            .collect();
        assert_eq!(
            messages,
            [
                "about --url here",
                "about --charset here",
                "about --force here",
                "about --max-size here",
                "about --format here",
                plain.as_str(),
            ]
        );
    }

    #[test]
    fn the_rule_a_retrieval_url_sets_names_the_flag() {
        assert_eq!(rule_label(BaseRule::Retrieval), "5.3 retrieval URL (--url)");
        assert_eq!(rule_label(BaseRule::Embedded), BaseRule::Embedded.label());
    }
}
