//! Library messages speak the library's terms, never the command line's: a
//! problem that concerns a setting names it as `Options::…` (or "the
//! retrieval URL") and says which ([`Problem::setting`]), so that the command
//! line can print its flag there; no message a library caller sees names a
//! flag. Each case below triggers one such message through the library's
//! entry points. (`tests/integration/cli/rewrite.rs` checks that the command line still prints
//! the flags.)

use linkbase::report::Setting;
use linkbase::warc::{convert, WarcOptions};
use linkbase::{base::BaseRule, report::Problem, report::Severity, rewrite, Options, Report};
use test_support::warc_gen;

/// A command-line flag in a message: `--` and a letter (`--url`, `--force`).
fn names_a_flag(message: &str) -> bool {
    message
        .as_bytes()
        .windows(3)
        .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_alphabetic())
}

/// The one problem of `report`, which must name `setting` in the library's
/// terms and no flag.
fn the_problem(report: &Report, setting: Setting) -> &Problem {
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    let problem = &report.problems[0];
    assert_eq!(problem.setting(), Some(setting), "{problem:?}");
    assert!(
        problem.message.to_string().contains(setting.term()),
        "{:?} does not name {}",
        problem.message,
        setting.term()
    );
    assert!(
        !names_a_flag(&problem.message.to_string()),
        "{:?}",
        problem.message
    );
    problem
}

#[test]
fn the_flag_pattern_finds_flags() {
    assert!(names_a_flag("signature (--force rewrites it)"));
    assert!(names_a_flag("--url: bad"));
    assert!(!names_a_flag("a line begins with `-- ` or a dash-dash"));
}

#[test]
fn an_unusable_retrieval_url_is_named_as_the_option() {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("docs/page.html");
    let out = rewrite(
        b"<a href=x>x</a>",
        &source.clone().with_name("p.html"),
        &options,
    );
    let problem = the_problem(&out.report, Setting::Url);
    assert_eq!(problem.severity, Severity::Error);
    assert_eq!(
        problem.message.to_string(),
        "the retrieval URL (Source::url) docs/page.html: base `docs/page.html` is not an absolute URL (no scheme)"
    );
}

#[test]
fn a_signed_message_names_the_force_option() {
    let input = std::fs::read("fixtures/mime/signed-left-alone/input.eml").unwrap();
    let out = rewrite(
        &input,
        &linkbase::Source::new().with_name("input.eml"),
        &Options::new(),
    );
    let problem = the_problem(&out.report, Setting::Force);
    assert_eq!(problem.severity, Severity::Warning);
    assert!(
        problem
            .message
            .to_string()
            .ends_with("rewriting would break the signature (Options::force rewrites it)"),
        "{}",
        problem.message
    );
}

#[test]
fn input_not_valid_in_the_given_charset_names_the_charset_option() {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("https://example.org/");
    source = source.with_charset(encoding_rs::UTF_8);
    // 0xFF is never valid UTF-8: the page and the sheet are rewritten as a
    // browser reads them, the byte kept.
    for (name, input, output) in [
        (
            "p.html",
            &b"<a href=x>caf\xff</a>"[..],
            &b"<a href=https://example.org/x>caf\xff</a>"[..],
        ),
        (
            "s.css",
            &b"p { background: url(x.png) } /* \xff */"[..],
            &b"p { background: url(https://example.org/x.png) } /* \xff */"[..],
        ),
    ] {
        let out = rewrite(input, &source.clone().with_name(name), &options);
        assert_eq!(&out.output[..], output, "{name}");
        let problem = the_problem(&out.report, Setting::Charset);
        assert_eq!(problem.severity, Severity::Warning, "{name}");
        assert!(
            problem.message.to_string().contains(
                "(the encoding chosen by the transport / Source::charset): \
                 a sequence it does not allow"
            ),
            "{name}: {}",
            problem.message
        );
    }
}

/// Not valid in the encoding the document itself names (its `<meta>`, its
/// `@charset`, or the default): rewritten as a browser reads it (issue 41),
/// with a warning whose remedy is the transport charset, which overrides
/// those (issue 31); a byte order mark, which nothing overrides, gets none.
#[test]
fn input_not_valid_in_its_own_encoding_names_the_charset_option_as_the_remedy() {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("https://example.org/");
    for (name, input, output, chosen, at) in [
        (
            "p.html",
            &b"<meta charset=utf-8><a href=x>caf\xe9</a>"[..],
            &b"<meta charset=utf-8><a href=https://example.org/x>caf\xe9</a>"[..],
            "by its <meta> declaration",
            33,
        ),
        (
            "s.css",
            &b"@charset \"utf-8\"; p { background: url(x.png) } /* \xe9 */"[..],
            &b"@charset \"utf-8\"; p { background: url(https://example.org/x.png) } /* \xe9 */"[..],
            "by its @charset rule",
            50,
        ),
        (
            "t.css",
            &b"p { background: url(x.png) } /* \xe9 */"[..],
            &b"p { background: url(https://example.org/x.png) } /* \xe9 */"[..],
            "by default",
            32,
        ),
    ] {
        let out = rewrite(input, &source.clone().with_name(name), &options);
        assert_eq!(&out.output[..], output, "{name}");
        let problem = the_problem(&out.report, Setting::Charset);
        assert_eq!(problem.severity, Severity::Warning, "{name}");
        assert_eq!(
            problem.message.to_string(),
            format!(
                "not valid UTF-8 (the encoding chosen {chosen}): a sequence it does not allow at \
                 byte {at}; read as U+FFFD, as a browser reads it, and kept as it is; a URL \
                 holding one is left unchanged: if it is in another encoding, give that with \
                 Source::charset"
            ),
            "{name}"
        );
    }
    let bom = rewrite(
        b"\xef\xbb\xbf<a href=x>caf\xe9</a>",
        &source.clone().with_name("b.html"),
        &options,
    );
    assert_eq!(
        bom.report.problems[0].message.to_string(),
        "not valid UTF-8 (the encoding chosen by its byte order mark): a sequence it does not \
         allow at byte 16; read as U+FFFD, as a browser reads it, and kept as it is; a URL \
         holding one is left unchanged"
    );
    assert_eq!(bom.report.problems[0].setting(), None);
}

#[test]
fn a_record_over_the_size_limit_names_the_warc_option() {
    let warc = warc_gen::one_small_response();
    let warc_options = WarcOptions::new().with_max_record(16);
    let mut report = Report::new(false);
    convert(
        warc.as_bytes(),
        Vec::new(),
        &linkbase::Source::new().with_name("in.warc"),
        &Options::new(),
        &warc_options,
        |record| report.merge(record.report),
    )
    .unwrap();
    let problem = the_problem(&report, Setting::MaxRecord);
    assert!(
        problem
            .message
            .to_string()
            .ends_with("over WarcOptions::max_record (16 bytes)"),
        "{}",
        problem.message
    );
}

#[test]
fn no_base_rule_label_names_a_flag() {
    // Every rule (the match fails to compile when one is added).
    let rules = [
        BaseRule::Embedded,
        BaseRule::XmlBase,
        BaseRule::ContentBase,
        BaseRule::ContentLocation,
        BaseRule::LegacyBaseHeader,
        BaseRule::Enclosing,
        BaseRule::Retrieval,
        BaseRule::SnapshotContentLocation,
        BaseRule::SavedFromComment,
    ];
    for rule in rules {
        match rule {
            BaseRule::Embedded
            | BaseRule::XmlBase
            | BaseRule::ContentBase
            | BaseRule::ContentLocation
            | BaseRule::LegacyBaseHeader
            | BaseRule::Enclosing
            | BaseRule::Retrieval
            | BaseRule::SnapshotContentLocation
            | BaseRule::SavedFromComment => {}
            other => panic!("{other:?}: a rule this list does not hold yet"),
        }
        assert!(!names_a_flag(rule.label()), "{rule:?}: {}", rule.label());
    }
    assert_eq!(
        BaseRule::Retrieval.label(),
        "5.3 retrieval URL (Source::url)"
    );
}

/// Issue 31: every error counted has a problem that says why, from the
/// library itself (a link that fails to resolve used to count as an error
/// with its reason on the link record only).
#[test]
fn a_link_that_fails_to_resolve_is_a_problem_with_its_reason() {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://h.example/d/");
    // A `<base href>` that is not hierarchical: relative links fail.
    let base = "<base href=\"mailto:x@y\">";
    let input = format!("{base}<a href=x>");
    let out = rewrite(input.as_bytes(), &source, &options);
    assert!(out.report.has_errors());
    assert_eq!(out.report.counts.failed, 1);
    let messages: Vec<String> = out
        .report
        .problems
        .iter()
        .map(|p| format!("{:?}: {}", p.severity, p.message))
        .collect();
    assert_eq!(
        messages,
        ["Error: 1 link could not be resolved and was left as it is; first: `x` in <a href>: base `mailto:x@y` is not hierarchical; relative references cannot be resolved against it"]
    );
    // One problem per document or part, however many links fail there.
    let input = format!("{base}<a href=x><a href=y><img src=z>");
    let out = rewrite(input.as_bytes(), &source, &options);
    assert_eq!(out.report.counts.failed, 3);
    assert_eq!(out.report.problems.len(), 1);
    assert!(out.report.problems[0].message.to_string().starts_with(
        "3 links could not be resolved and were left as they are; first: `x` in <a href>:"
    ));
    // The problem repeats the count: it is not an error of its own.
    assert_eq!(out.report.error_count(), 0);
}

/// Issue 30: every `failed` count has an error problem saying why, in every
/// entry point that counts links: `rewrite`, `plan_rewrite`,
/// `warc::convert` (each record's report, and the WARC through `rewrite`),
/// `absolutize_rcdom`; and a retrieval URL that cannot be a base is a
/// problem saying why (`check_base`'s), not links counted as failed with
/// their reasons on the records only. (Python: python/tests/test_errors.py;
/// the command line: tests/fixtures/same_input.rs.)
#[test]
fn every_failed_count_has_a_problem_in_every_entry_point() {
    fn says_why(report: &Report, failed: u64, entry: &str) {
        assert_eq!(
            report.counts.failed, failed,
            "{entry}: {:?}",
            report.problems
        );
        let why: Vec<String> = report
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(|p| p.message.to_string())
            .collect();
        assert!(
            why.iter().any(|m| m.starts_with(&format!(
                "{failed} link{} could not be resolved",
                if failed == 1 { "" } else { "s" }
            )) && m.contains("base `mailto:x@y` is not hierarchical")),
            "{entry}: {why:?}"
        );
        assert!(report.has_errors(), "{entry}");
    }
    let page = b"<base href=\"mailto:x@y\"><a href=x>x</a><img src=y>";
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url("http://h.example/d/");
    says_why(&rewrite(page, &source, &options).report, 2, "rewrite");
    let planned = linkbase::plan_rewrite(page, &source.clone().with_name("p.html"), &options);
    says_why(&planned.report, 2, "plan_rewrite");

    let mut warc = Vec::new();
    warc_gen::write_warcinfo(&mut warc).unwrap();
    warc_gen::write_page(&mut warc, 1, "http://h.example/d/p.html", page).unwrap();
    let mut records = Vec::new();
    convert(
        &warc[..],
        Vec::new(),
        &linkbase::Source::new().with_name("in.warc"),
        &Options::new(),
        &WarcOptions::new(),
        |record| records.push(record.report),
    )
    .unwrap();
    let failing: Vec<&Report> = records.iter().filter(|r| r.counts.failed > 0).collect();
    assert_eq!(failing.len(), 1);
    says_why(failing[0], 2, "warc::convert");
    says_why(
        &rewrite(
            &warc,
            &linkbase::Source::new().with_name("in.warc"),
            &Options::new(),
        )
        .report,
        2,
        "rewrite of a WARC",
    );

    let dom = linkbase_html5ever_parse(std::str::from_utf8(page).unwrap());
    let report =
        linkbase::html::absolutize_rcdom(&dom, Some("http://h.example/d/"), &Options::new());
    says_why(&report, 2, "absolutize_rcdom");

    // A retrieval URL that cannot be a base: one error saying why (the
    // command line's and Python's refusal), no link counted as failed.
    source = source.with_url("http://");
    let out = rewrite(b"<a href=x>", &source, &options);
    assert_eq!(
        (out.report.counts.failed, out.report.counts.no_base),
        (0, 1)
    );
    let messages: Vec<String> = out
        .report
        .problems
        .iter()
        .map(|p| p.message.render(|_| "--url"))
        .collect();
    assert_eq!(
        messages,
        ["--url http://: no host: a http: URL needs one, as in http://example.org/docs/"]
    );
}

/// `page` parsed by the html5ever the library uses, into an `RcDom`.
fn linkbase_html5ever_parse(page: &str) -> markup5ever_rcdom::RcDom {
    use html5ever::tendril::TendrilSink;
    html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default()).one(page)
}
