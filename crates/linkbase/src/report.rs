//! Per-link outcomes and per-document problems: the non-fatal channel.
//!
//! Nothing in the library aborts a document for one bad link or one bad part;
//! it records what happened here and carries on.

use crate::base::BaseRule;
use std::fmt;
use std::sync::Arc;

/// Where in the input a value sits: the file and, for MIME, the part path (`1.2.1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The input file, when there is one.
    pub file: Option<Arc<str>>,
    /// The MIME part path (`1`, `1.2`, …); `None` for a plain document.
    pub part: Option<String>,
}

impl Location {
    /// A location in a plain file (no MIME part).
    pub fn file(name: Option<&str>) -> Self {
        Location {
            file: name.map(Arc::from),
            part: None,
        }
    }

    /// The same file, inside MIME part `part`.
    pub fn with_part(&self, part: impl Into<String>) -> Self {
        Location {
            file: self.file.clone(),
            part: Some(part.into()),
        }
    }

    /// `file`, `file: part 1.2`, `part 1.2` or `<stdin>`: the prefix of one-line messages.
    pub fn describe(&self) -> String {
        let file = self.file.as_deref().unwrap_or("<stdin>");
        match &self.part {
            Some(p) => format!("{file}: part {p}"),
            None => file.to_string(),
        }
    }
}

/// What happened to one URL-bearing value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Outcome {
    /// Resolved and written back in absolute form.
    Rewritten,
    /// Already absolute (has a scheme): left byte-identical.
    Absolute,
    /// A same-document reference (`#frag`, empty): left alone by default.
    SameDocument,
    /// Contains a template placeholder (`{{…}}` …): left alone.
    Placeholder,
    /// Empty where empty has its own meaning (`<form action="">`): left alone.
    Empty,
    /// No base URL is known (rule 5.4): left as it is.
    NoBase,
    /// Resolution failed (non-hierarchical base, invalid reference): left as it is.
    Failed,
    /// Made the relative path to its file in an offline copy
    /// ([`crate::Source::offline`]); counted with the rewritten ones.
    Local,
    /// Holds bytes its document's encoding does not allow (a browser reads
    /// each as U+FFFD): left as it is, its bytes kept (a warning, not an
    /// error).
    Undecodable,
}

impl Outcome {
    /// Does this outcome count as an error for the exit status?
    pub fn is_error(self) -> bool {
        matches!(self, Outcome::Failed)
    }

    /// Kebab-case name, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Rewritten => "rewritten",
            Outcome::Absolute => "absolute",
            Outcome::SameDocument => "same-document",
            Outcome::Placeholder => "placeholder",
            Outcome::Empty => "empty",
            Outcome::NoBase => "no-base",
            Outcome::Failed => "failed",
            Outcome::Local => "local",
            Outcome::Undecodable => "undecodable",
        }
    }
}

/// One URL-bearing value: where it was, what it was, what it became and
/// against which base (kept with [`crate::Options::keep_link_records`]; the
/// command line writes one per line of its JSON Lines report).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct LinkRecord {
    /// Input file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<Arc<str>>,
    /// MIME part path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Element name (`a`, `img`, `style`), or `header` / `css` outside HTML.
    pub element: String,
    /// Attribute or place (`href`, `srcset`, `style`, `Content-Location`, `url()`).
    pub attribute: String,
    /// The value as found.
    pub before: String,
    /// The value written back, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// The base URL used. Shared (an [`Arc`]) by the records of the values
    /// resolved against the same base, so that a page's thousands of records
    /// do not each copy it; `base.as_deref()` reads it as a `&str`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<Arc<str>>,
    /// The rule that established that base.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<BaseRule>,
    /// What happened.
    pub outcome: Outcome,
    /// Why it was left alone, for failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Where the value is written: the byte range, in the input, of the
    /// attribute value that holds it (the whole value for a list, a
    /// `srcset`, a `style` attribute or a meta refresh; as written, before
    /// character references are decoded). Known for the attributes of an
    /// HTML document given whole (not a MIME part, a WARC payload or an
    /// `iframe srcdoc`) in UTF-8 (or ASCII) without a byte order mark;
    /// `None` elsewhere (other encodings, `<style>` text, style sheets,
    /// XHTML, MIME headers). Not in the JSON report.
    #[serde(skip)]
    pub span: Option<std::ops::Range<usize>>,
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Worth saying; the result is complete (e.g. a signed part left alone).
    Warning,
    /// Something was skipped or could not be processed; exit status 1.
    Error,
}

/// A setting that a problem's message names: a field of
/// [`Options`](crate::Options) or of
/// [`WarcOptions`](crate::warc::WarcOptions). A [`Message`] holds it as this
/// value and names it only when it is rendered, in the library's own terms
/// ([`Setting::term`]) or in a front end's (the command line's flags:
/// [`Message::render`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// [`Source::url`](crate::Source::url), the retrieval URL.
    Url,
    /// [`Source::charset`](crate::Source::charset), the transport charset.
    Charset,
    /// [`Options::force`](crate::Options::force).
    Force,
    /// [`WarcOptions::max_record`](crate::warc::WarcOptions::max_record).
    MaxRecord,
    /// [`Source::format`](crate::Source::format).
    Format,
}

impl Setting {
    /// The words a library message names the setting with.
    pub fn term(self) -> &'static str {
        match self {
            Setting::Url => "the retrieval URL (Source::url)",
            Setting::Charset => "Source::charset",
            Setting::Force => "Options::force",
            Setting::MaxRecord => "WarcOptions::max_record",
            Setting::Format => "Source::format",
        }
    }
}

/// A problem with a document or a part (not with one link).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Problem {
    /// Where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<Arc<str>>,
    /// MIME part path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// How bad.
    pub severity: Severity,
    /// What was wrong, one line: words, and the setting they name (if any)
    /// as a value. Shown (`Display`, JSON) in the library's terms.
    pub message: Message,
}

/// A problem's message as data: its words, with the setting it names (if
/// any) held as a [`Setting`], not as words, so that each reader names it
/// its own way ([`render`](Self::render)); nothing is ever replaced in a
/// message's text. `Display` (and the JSON of a report) renders it in the
/// library's terms ([`Setting::term`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The words before the setting's name (all of them when none is named).
    head: String,
    /// The setting named after `head`, and the words after its name.
    named: Option<(Setting, String)>,
}

impl Message {
    /// A message naming `setting` between `head` and `tail`.
    pub fn naming(head: impl Into<String>, setting: Setting, tail: impl Into<String>) -> Message {
        Message {
            head: head.into(),
            named: Some((setting, tail.into())),
        }
    }

    /// The setting the message names, if any.
    pub fn setting(&self) -> Option<Setting> {
        self.named.as_ref().map(|(setting, _)| *setting)
    }

    /// The message with its setting (if any) called `name(setting)`: the
    /// library's [`Setting::term`], the command line's flag (`--url`), a
    /// binding's argument name.
    pub fn render<'n>(&self, name: impl Fn(Setting) -> &'n str) -> String {
        match &self.named {
            Some((setting, tail)) => [self.head.as_str(), name(*setting), tail].concat(),
            None => self.head.clone(),
        }
    }
}

impl From<String> for Message {
    /// A message that names no setting.
    fn from(words: String) -> Message {
        Message {
            head: words,
            named: None,
        }
    }
}

impl From<&str> for Message {
    /// A message that names no setting.
    fn from(words: &str) -> Message {
        Message::from(words.to_string())
    }
}

/// A message is the error of [`crate::check_base`] and
/// [`crate::options::check_url_prefix`].
impl std::error::Error for Message {}

impl fmt::Display for Message {
    /// The message in the library's terms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.head)?;
        if let Some((setting, tail)) = &self.named {
            f.write_str(setting.term())?;
            f.write_str(tail)?;
        }
        Ok(())
    }
}

impl serde::Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Is `c` a character a terminal must not be handed raw: a control
/// character (C0, DEL, C1), a line or paragraph separator, or a
/// bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), which would reorder what is shown (a URI holding
/// U+202E can make `moc.elpmaxe` read as `example.com`).
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` safe to print on one terminal line: every character
/// [`is_unprintable`] written as `\u{…}`; borrowed when there is none.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unprintable(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

impl Problem {
    /// A problem at `location`: words, or a [`Message`] naming a setting
    /// (for a front end that reports in the library's form; a [`Report`]
    /// records its own with [`Report::problem`]).
    pub fn new(location: &Location, severity: Severity, message: impl Into<Message>) -> Problem {
        Problem {
            file: location.file.clone(),
            part: location.part.clone(),
            severity,
            message: message.into(),
        }
    }

    /// The message in a front end's words: the setting it names (if any)
    /// called `name(setting)` ([`Message::render`]) — the command line's
    /// `--url` where the library says "the retrieval URL (Source::url)".
    pub fn message_naming<'n>(&self, name: impl Fn(Setting) -> &'n str) -> String {
        self.message.render(name)
    }

    /// The setting the message names, if any ([`Message::setting`]).
    pub fn setting(&self) -> Option<Setting> {
        self.message.setting()
    }

    /// The one-line message for stderr: `file: part 1.2: message`, with
    /// control and bidirectional characters escaped ([`printable`]).
    pub fn one_line(&self) -> String {
        let loc = Location {
            file: self.file.clone(),
            part: self.part.clone(),
        };
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        printable(&format!("{}: {kind}: {}", loc.describe(), self.message)).into_owned()
    }
}

/// Counts per outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Counts {
    /// Values rewritten.
    pub rewritten: u64,
    /// Values left alone on purpose (absolute, same-document, placeholder, empty).
    pub left: u64,
    /// Relative values left because no base was known.
    pub no_base: u64,
    /// Values that failed to resolve.
    pub failed: u64,
    /// Of all values, those that open a file of an offline copy
    /// ([`Outcome::Local`]; also counted in `rewritten`). Not serialized.
    #[serde(skip)]
    pub local: u64,
    /// Of all values, those that are (or were made) an absolute `http:` or
    /// `https:` URL: in an offline copy, the links that point to the web.
    /// Not serialized.
    #[serde(skip)]
    pub web: u64,
}

/// Relative values left as they are for want of a base (rule 5.4) in one
/// document or part.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeftWithoutBase {
    /// The document or part.
    pub location: Location,
    /// How many values.
    pub count: u64,
}

/// How many problems a [`Report`] keeps in [`Report::problems`]; past it
/// they are only counted ([`Report::unlisted`]), so that memory stays
/// bounded whatever the input (a WARC of a million broken records). A
/// caller that wants every problem takes them as they come (the WARC
/// converter hands each record's report over on its own).
pub const MAX_PROBLEMS: usize = 1000;

/// Keep the message `line` in `lines` while it holds fewer than
/// [`MAX_PROBLEMS`], else only count it in `unlisted`: the rule of
/// [`Report::problems`] for lists of one-line messages (an offline copy's
/// problems and notes, `crate::archive_copy`). `line` is made only when kept.
pub fn keep_line(lines: &mut Vec<String>, unlisted: &mut u64, line: impl FnOnce() -> String) {
    if lines.len() < MAX_PROBLEMS {
        lines.push(line());
    } else {
        *unlisted += 1;
    }
}

/// Problems counted past [`MAX_PROBLEMS`], not kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unlisted {
    /// Warnings not kept.
    pub warnings: u64,
    /// Errors not kept.
    pub errors: u64,
}

impl Unlisted {
    /// All of them.
    pub fn total(&self) -> u64 {
        self.warnings + self.errors
    }
}

/// Everything that happened while rewriting one input.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// One record per URL-bearing value, when records are kept.
    pub links: Vec<LinkRecord>,
    /// Problems with documents and parts: the first [`MAX_PROBLEMS`].
    pub problems: Vec<Problem>,
    /// The problems past [`MAX_PROBLEMS`], counted.
    pub unlisted: Unlisted,
    /// Counts per outcome (always kept).
    pub counts: Counts,
    /// Each document or part where relative values were left for want of a
    /// base, in input order (always kept; their sum is `counts.no_base`).
    pub without_base: Vec<LeftWithoutBase>,
    /// In a document of an offline copy ([`crate::Source::offline`]):
    /// the scripts met (`<script>` elements of HTML documents and
    /// `javascript:` values), whose links — built when they run — cannot be
    /// made offline. Zero without a copy.
    pub scripts: u64,
    /// In an HTML document of an offline copy ([`crate::Source::offline`]):
    /// its title as a browser shows it in a tab (the text of its first
    /// `title` element, character references decoded, white space
    /// collapsed, at most 1 KiB); `None` without a `title` or a copy.
    pub title: Option<String>,
    keep_links: bool,
    /// The problems that say why links failed (one per document or part,
    /// kept or not): they repeat `counts.failed`, so [`Report::error_count`]
    /// leaves them out.
    failure_problems: u64,
    /// The last of them, while links fail in the same place: its index in
    /// `problems` (when kept), its place, and how many links it counts.
    last_failure: Option<(Option<usize>, Location, u64)>,
}

impl Report {
    /// A report that keeps link records when `keep_links` is true, else only counts.
    pub fn new(keep_links: bool) -> Self {
        Report {
            keep_links,
            ..Default::default()
        }
    }

    /// Are link records kept?
    pub fn keeps_links(&self) -> bool {
        self.keep_links
    }

    /// Count one outcome, and keep its record (built lazily) when records are kept.
    /// A link that fails also makes (or counts in) a problem saying why, one
    /// per document or part: every error has a reason in `problems`, in
    /// every front end.
    pub(crate) fn link(&mut self, outcome: Outcome, record: impl FnOnce() -> LinkRecord) {
        match outcome {
            Outcome::Rewritten | Outcome::Local => self.counts.rewritten += 1,
            Outcome::NoBase => self.counts.no_base += 1,
            Outcome::Failed => self.counts.failed += 1,
            _ => self.counts.left += 1,
        }
        if outcome == Outcome::Failed {
            let record = record();
            self.failed_link(&record);
            if self.keep_links {
                self.links.push(record);
            }
        } else if self.keep_links {
            self.links.push(record());
        }
    }

    /// Say why `record` failed: a new problem for its place, or one more in
    /// the count of the problem already made there (`3 links could not be
    /// resolved and were left as they are; first: …`).
    fn failed_link(&mut self, record: &LinkRecord) {
        let loc = Location {
            file: record.file.clone(),
            part: record.part.clone(),
        };
        if let Some((index, place, count)) = &mut self.last_failure {
            if *place == loc {
                *count += 1;
                if let Some(problem) = index.and_then(|i| self.problems.get_mut(i)) {
                    let first = problem.message.to_string();
                    let first = first.split_once("; first: ").map_or("", |(_, f)| f);
                    problem.message = failed_links_message(*count, first).into();
                }
                return;
            }
        }
        let first = format!(
            "`{}` in <{} {}>: {}",
            shortened(&record.before.escape_debug().to_string(), 80),
            record.element,
            record.attribute,
            record.reason.as_deref().unwrap_or("failed")
        );
        let index = (self.problems.len() < MAX_PROBLEMS).then_some(self.problems.len());
        self.failure_problems += 1;
        self.push_problem(Problem {
            file: loc.file.clone(),
            part: loc.part.clone(),
            severity: Severity::Error,
            message: failed_links_message(1, &first).into(),
        });
        self.last_failure = Some((index, loc, 1));
    }

    /// Count one relative value left for want of a base at `loc` (call with
    /// [`link`](Self::link) for an [`Outcome::NoBase`]).
    pub(crate) fn left_without_base(&mut self, loc: &Location) {
        match self.without_base.last_mut() {
            Some(last) if last.location == *loc => last.count += 1,
            _ => self.without_base.push(LeftWithoutBase {
                location: loc.clone(),
                count: 1,
            }),
        }
    }

    /// Record a problem at `loc` (for a caller that gathers several
    /// inputs' problems in one report, as the command line does per WARC):
    /// words, or a [`Message`] naming a setting.
    pub fn problem(&mut self, loc: &Location, severity: Severity, message: impl Into<Message>) {
        self.push_problem(Problem::new(loc, severity, message));
    }

    /// Keep `problem`, or count it past [`MAX_PROBLEMS`].
    fn push_problem(&mut self, problem: Problem) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(problem);
        } else {
            match problem.severity {
                Severity::Warning => self.unlisted.warnings += 1,
                Severity::Error => self.unlisted.errors += 1,
            }
        }
    }

    /// Did anything go wrong enough for exit status 1?
    pub fn has_errors(&self) -> bool {
        self.counts.failed > 0
            || self.unlisted.errors > 0
            || self.problems.iter().any(|p| p.severity == Severity::Error)
    }

    /// Errors among the problems, kept or not, other than those that say
    /// why links failed (those links are `counts.failed`).
    pub fn error_count(&self) -> u64 {
        (self.unlisted.errors
            + self
                .problems
                .iter()
                .filter(|p| p.severity == Severity::Error)
                .count() as u64)
            .saturating_sub(self.failure_problems)
    }

    /// Append another report (e.g. a nested part's) to this one.
    pub fn merge(&mut self, other: Report) {
        self.links.extend(other.links);
        for problem in other.problems {
            self.push_problem(problem);
        }
        self.failure_problems += other.failure_problems;
        self.last_failure = None;
        self.unlisted.warnings += other.unlisted.warnings;
        self.unlisted.errors += other.unlisted.errors;
        self.counts.rewritten += other.counts.rewritten;
        self.counts.left += other.counts.left;
        self.counts.no_base += other.counts.no_base;
        self.counts.failed += other.counts.failed;
        self.counts.local += other.counts.local;
        self.counts.web += other.counts.web;
        self.scripts += other.scripts;
        for place in other.without_base {
            match self.without_base.last_mut() {
                Some(last) if last.location == place.location => last.count += place.count,
                _ => self.without_base.push(place),
            }
        }
    }
}

/// `2 links could not be resolved and were left as they are; first: …`.
fn failed_links_message(count: u64, first: &str) -> String {
    let links = if count == 1 {
        "link could not be resolved and was left as it is"
    } else {
        "links could not be resolved and were left as they are"
    };
    format!("{count} {links}; first: {first}")
}

/// `text`, or its first `max` characters and `…`.
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidi_characters_are_escaped_when_printed() {
        assert_eq!(printable("http://a/b"), "http://a/b");
        assert_eq!(
            printable("http://a/\u{202E}lmth.exe\u{7}\n"),
            "http://a/\\u{202e}lmth.exe\\u{7}\\u{a}"
        );
        let problem = Problem {
            file: Some("a\u{2066}.warc".into()),
            part: None,
            severity: Severity::Warning,
            message: "x\u{85}y".into(),
        };
        assert_eq!(problem.one_line(), "a\\u{2066}.warc: warning: x\\u{85}y");
    }

    #[test]
    fn problems_past_the_cap_are_counted_not_kept() {
        let at = Location::file(Some("a.warc"));
        let mut report = Report::new(false);
        for i in 0..MAX_PROBLEMS + 5 {
            report.problem(&at, Severity::Warning, format!("w{i}"));
        }
        let mut other = Report::new(false);
        other.problem(&at, Severity::Error, "e");
        other.unlisted.errors = 2;
        report.merge(other);
        assert_eq!(report.problems.len(), MAX_PROBLEMS);
        assert_eq!(
            report.problems.last().unwrap().message.to_string(),
            format!("w{}", MAX_PROBLEMS - 1)
        );
        assert_eq!(
            report.unlisted,
            Unlisted {
                warnings: 5,
                errors: 3
            }
        );
        assert!(report.has_errors());
        assert_eq!(report.error_count(), 3);
    }

    #[test]
    fn links_without_a_base_are_counted_per_document_or_part_in_order() {
        let file = Location::file(Some("m.eml"));
        let (one, two) = (file.with_part("1"), file.with_part("2"));
        let mut report = Report::new(false);
        for loc in [&one, &one, &two, &one] {
            report.left_without_base(loc);
        }
        let mut nested = Report::new(false);
        nested.left_without_base(&one);
        nested.left_without_base(&file);
        report.merge(nested);
        let places: Vec<(Option<&str>, u64)> = report
            .without_base
            .iter()
            .map(|p| (p.location.part.as_deref(), p.count))
            .collect();
        assert_eq!(
            places,
            [(Some("1"), 2), (Some("2"), 1), (Some("1"), 2), (None, 1)]
        );
    }

    #[test]
    fn an_explanation_is_rendered_from_its_parts_with_the_callers_labels() {
        let part = |depth, path: &str, encoding: &str, rule: Option<BaseRule>| ExplainedPart {
            depth,
            path: path.into(),
            media_type: "text/html".into(),
            encoding: encoding.into(),
            base: rule.map(|_| "http://h.example/d/".to_string()),
            rule,
            note: None,
        };
        let page = Explanation {
            text: String::new(),
            parts: vec![part(0, "p.html", "", Some(BaseRule::Retrieval))],
            report: Report::new(false),
        };
        let label = |rule: BaseRule| match rule {
            BaseRule::Retrieval => "given",
            other => other.label(),
        };
        assert_eq!(page.render(label), "p.html  http://h.example/d/  (given)\n");
        assert_eq!(
            page.render(BaseRule::label),
            "p.html  http://h.example/d/  (5.3 retrieval URL (Source::url))\n"
        );
        let message = Explanation {
            text: String::new(),
            parts: vec![
                part(0, "message", "7bit", Some(BaseRule::Retrieval)),
                part(1, "1", "quoted-printable", None),
            ],
            report: Report::new(false),
        };
        assert_eq!(
            message.render(label),
            "message  text/html  7bit              http://h.example/d/  (given)\n  \
             1      text/html  quoted-printable  (no base: 5.4 none)\n"
        );
        // A WARC's explanation is its text.
        let warc = Explanation {
            text: "@0  warcinfo  -  (not a response)\n".into(),
            parts: Vec::new(),
            report: Report::new(false),
        };
        assert_eq!(warc.render(label), warc.text);
    }

    #[test]
    fn a_problem_names_its_setting_in_the_callers_words() {
        let mut report = Report::new(false);
        let at = Location::file(Some("p.html"));
        let message = Message::naming("", Setting::Url, ": not absolute");
        report.problem(&at, Severity::Error, message);
        report.problem(&at, Severity::Warning, "Options::force is not named here");
        let flag = |s: Setting| match s {
            Setting::Url => "--url",
            _ => "--other",
        };
        let named: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.message_naming(flag))
            .collect();
        assert_eq!(
            named,
            ["--url: not absolute", "Options::force is not named here"]
        );
        // In the library's own terms, as shown and as written to JSON.
        let problem = &report.problems[0];
        assert_eq!(problem.setting(), Some(Setting::Url));
        let library = "the retrieval URL (Source::url): not absolute";
        assert_eq!(problem.message.to_string(), library);
        assert_eq!(problem.message_naming(Setting::term), library);
        let json = serde_json::to_value(problem).expect("a problem serializes");
        assert_eq!(json["message"], library);
        assert_eq!(report.problems[1].setting(), None);
    }
}

/// What [`explain`](crate::explain) (or [`warc::explain_records`](crate::warc::explain_records)) found: a text table, one line per document, MIME entity
/// or WARC record, and any problems met on the way (an unusable
/// [`Source::url`](crate::Source::url), a broken part).
#[derive(Debug)]
#[non_exhaustive]
pub struct Explanation {
    /// The explanation, one line per document, entity or record, each ending
    /// in a newline. For an HTML, XHTML or CSS input: its name, the base in
    /// force and the rule that set it (or `(no base: 5.4 none)`). For a MIME
    /// message: an indented table of its entities (path, media type,
    /// transfer encoding, base, rule). For a WARC: each record's offset, type
    /// and target URI, and its payload's base or why it is passed over.
    pub text: String,
    /// The same, as data: one entry per document or MIME entity, in input
    /// order (empty for a WARC: its records are in the text only).
    pub parts: Vec<ExplainedPart>,
    /// The problems (and, with [`Options::keep_link_records`](crate::Options::keep_link_records), nothing else:
    /// no link is rewritten).
    pub report: Report,
}

impl Explanation {
    /// The explanation as text, each base rule named by `rule_label`:
    /// [`Explanation::text`] is this with [`BaseRule::label`]. A front end
    /// names the rules in its own words through it (the command line:
    /// `--url` for the retrieval URL) instead of editing the text. For a WARC
    /// (whose records are in the text only) the text as it is.
    pub fn render(&self, rule_label: impl Fn(BaseRule) -> &'static str) -> String {
        if self.parts.is_empty() {
            return self.text.clone();
        }
        render_parts(&self.parts, &rule_label)
    }
}

/// `parts` as text, each rule named by `rule_label`: for a single document
/// (one entry, with no transfer encoding) one line — its name, the base,
/// the rule; for a message a table of its entities (path, media type,
/// transfer encoding, base, rule).
pub(crate) fn render_parts(
    parts: &[ExplainedPart],
    rule_label: &dyn Fn(BaseRule) -> &'static str,
) -> String {
    match parts {
        [part] if part.encoding.is_empty() && part.depth == 0 => match (&part.base, part.rule) {
            (Some(url), Some(rule)) => format!("{}  {url}  ({})\n", part.path, rule_label(rule)),
            _ => format!("{}  (no base: 5.4 none)\n", part.path),
        },
        _ => render_table(parts, rule_label),
    }
}

/// Render the lines as an indented, aligned table for a terminal, naming
/// each base's rule with `rule_label` ([`BaseRule::label`], or the WARC
/// layer's words for a record's retrieval URL).
fn render_table(lines: &[ExplainedPart], rule_label: &dyn Fn(BaseRule) -> &'static str) -> String {
    let label = |l: &ExplainedPart| format!("{}{}", "  ".repeat(l.depth), l.path);
    let w_path = lines.iter().map(|l| label(l).len()).max().unwrap_or(0);
    let w_type = lines.iter().map(|l| l.media_type.len()).max().unwrap_or(0);
    let w_enc = lines.iter().map(|l| l.encoding.len()).max().unwrap_or(0);
    let mut out = String::new();
    for l in lines {
        let base = match (&l.base, l.rule) {
            (Some(url), Some(rule)) => format!("{url}  ({})", rule_label(rule)),
            _ => "(no base: 5.4 none)".to_string(),
        };
        let line = format!(
            "{:<w_path$}  {:<w_type$}  {:<w_enc$}  {base}",
            label(l),
            l.media_type,
            l.encoding
        );
        out.push_str(line.trim_end());
        if let Some(note) = &l.note {
            out.push_str("  [");
            out.push_str(note);
            out.push(']');
        }
        out.push('\n');
    }
    out
}

/// One document or MIME entity of an [`Explanation`]: the base in force
/// inside it and the rule that set it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExplainedPart {
    /// Nesting depth (0 for the document or the top-level message).
    pub depth: usize,
    /// MIME part path (`1`, `1.2`), `message` for a message's top level; the
    /// input's name (or `<stdin>`) for a document that is not a message.
    pub path: String,
    /// Media type (`text/html`, `application/xhtml+xml`, `text/css` for a
    /// document that is not a message).
    pub media_type: String,
    /// Content-Transfer-Encoding as read (`7bit` when absent; empty for a
    /// document that is not a message).
    pub encoding: String,
    /// The base URL in force inside it, if any (none: rule 5.4).
    pub base: Option<String>,
    /// The rule that set it.
    pub rule: Option<BaseRule>,
    /// Anything else worth saying (left alone because signed, unparseable …).
    pub note: Option<String>,
}
