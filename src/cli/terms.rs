//! The command line's words for what the library names in its own terms:
//! a library message names a setting by [`Setting::term`] (`Options::force`,
//! the retrieval URL); the command line prints the flag that sets it
//! instead (`--force`, `--url`). Likewise the label of the base rule a
//! `--url` sets.

use linkbase::{BaseRule, Report, Setting};

/// The flag that sets `setting`.
pub fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Url => "--url",
        Setting::Charset => "--charset",
        Setting::Force => "--force",
        Setting::MaxRecord => "--max-size",
    }
}

/// Every problem of `report` in the command line's words: the setting a
/// message names, by its flag.
pub fn name_flags(report: &mut Report) {
    for problem in &mut report.problems {
        if let Some(setting) = problem.setting.take() {
            problem.message = problem.message.replacen(setting.term(), flag(setting), 1);
        }
    }
}

/// An explanation (`linkbase::explain`) in the command line's words: the
/// label of the rule a retrieval URL sets names the flag that gives it.
pub fn relabel(text: &str) -> String {
    text.replace(
        &format!("({})", BaseRule::Retrieval.label()),
        "(5.3 retrieval URL (--url))",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use linkbase::{Location, Severity};

    #[test]
    fn a_problem_naming_a_setting_names_its_flag_instead() {
        let mut report = Report::new(false);
        let at = Location::file(Some("m.eml"));
        for setting in [
            Setting::Url,
            Setting::Charset,
            Setting::Force,
            Setting::MaxRecord,
        ] {
            let message = format!("about {} here", setting.term());
            report.problem_naming(&at, Severity::Warning, Some(setting), message);
        }
        // A message that names no setting is left as it is, even when it
        // happens to contain a term.
        let plain = format!("quoting {}", Setting::Force.term());
        report.problem(&at, Severity::Error, plain.clone());
        name_flags(&mut report);
        let messages: Vec<&str> = report.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "about --url here",
                "about --charset here",
                "about --force here",
                "about --max-size here",
                plain.as_str(),
            ]
        );
    }
}
