//! `linkbase explain`: the base of each part of a message (or of an HTML
//! document, or each record of a WARC), and the rule that set it; for one
//! file or several (`-r` walks folders as the rewrite command does), read
//! as `--format` says or as the rewrite command would guess.

use crate::cli::files::io::io_cause;
use crate::cli::files::paths::display;
use crate::cli::flags::args::ExplainArgs;
use crate::cli::{EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};
use linkbase::{report::Explanation, Format, Options, Source};
use std::path::PathBuf;

/// Run `linkbase explain`: each file in turn, headed `==> FILE <==` when
/// there are several (as `head` and `tail` do).
pub fn run(args: ExplainArgs) -> i32 {
    if let Some(url) = &args.url {
        if let Err(e) = crate::cli::flags::settings::checked_base("--url", url.trim(), args.profile)
        {
            eprintln!("linkbase: error: {}", e.0);
            return EXIT_USAGE;
        }
    }
    let mut files = Vec::new();
    let mut status = EXIT_OK;
    for path in &args.paths {
        if path.is_dir() && args.recursive {
            if !walk(path, &mut files) {
                status = EXIT_PARTIAL;
            }
        } else if path.is_dir() {
            let name = display(path);
            eprintln!("{name}: error: is a folder (use -r to explain the files in it)");
            status = EXIT_PARTIAL;
        } else {
            files.push(path.clone());
        }
    }
    if args.url.is_some() && files.len() > 1 {
        eprintln!("linkbase: error: --url names the URL of one document; explain one file with it");
        return EXIT_USAGE;
    }
    let several = files.len() > 1 || args.recursive;
    for (i, path) in files.iter().enumerate() {
        if several {
            let gap = if i == 0 { "" } else { "\n" };
            print(&format!("{gap}==> {} <==\n", display(path)));
        }
        status = status.max(explain_one(&args, path));
    }
    status
}

/// The files under `folder` that the rewrite command's walk takes, sorted
/// by name; symbolic links are not followed. False when a folder could not
/// be listed (said on standard error: an error, exit status 1).
fn walk(folder: &std::path::Path, files: &mut Vec<PathBuf>) -> bool {
    let listing = match std::fs::read_dir(folder) {
        Ok(listing) => listing,
        Err(e) => {
            eprintln!(
                "{}: error: cannot list folder: {}",
                display(folder),
                io_cause(&e)
            );
            return false;
        }
    };
    let mut children: Vec<_> = listing.filter_map(Result::ok).collect();
    children.sort_by_key(|c| c.file_name());
    let mut listed = true;
    for child in children {
        let path = child.path();
        match child.file_type() {
            Ok(kind) if kind.is_dir() => listed &= walk(&path, files),
            Ok(kind) if kind.is_file() && crate::cli::commands::rewrite::inputs::handles(&path) => {
                files.push(path)
            }
            _ => {}
        }
    }
    listed
}

/// Explain one file; its exit status.
fn explain_one(args: &ExplainArgs, path: &std::path::Path) -> i32 {
    let name = display(path).to_string();
    let forced = args.format != Format::Auto;
    if args.format == Format::Warc || (!forced && is_warc(path, &name)) {
        return explain_warc(args, path, &name);
    }
    let input = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{name}: error: cannot read: {}", io_cause(&e));
            return EXIT_PARTIAL;
        }
    };
    let options = Options::new()
        .with_profile(args.profile)
        .with_force(args.force);
    let mut source = Source::new()
        .with_name(name.as_str())
        .with_format(args.format);
    if let Some(url) = &args.url {
        source = source.with_url(url.trim());
    }
    // Detected by the library's rule, which reports its note with the
    // explanation's problems.
    let mut is_message = args.format == Format::Mime;
    if !forced {
        let format = linkbase::detect(&input, Some(&name), source.url()).format;
        if crate::cli::commands::rewrite::job::is_binary(&input, format, None) {
            eprintln!(
                "{name}: error: not explained: {}",
                crate::cli::commands::rewrite::job::BINARY
            );
            return EXIT_PARTIAL;
        }
        is_message = format == Format::Mime;
    }
    let explanation = linkbase::explain(&input, &source, &options);
    let hint = no_base_hint(&explanation, &name, is_message);
    let status = finish(explanation);
    if let Some(hint) = hint {
        eprintln!("{hint}");
    }
    status
}

/// What to do where no base applies (rule 5.4), as the rewrite says it:
/// `page.html: no base: relative links stay as they are (give --url)`.
/// A message's base is its own headers' business: said so.
fn no_base_hint(explanation: &Explanation, name: &str, is_message: bool) -> Option<String> {
    let without: Vec<String> = explanation
        .parts
        .iter()
        .filter(|p| p.base.is_none() && !p.media_type.starts_with("multipart/"))
        .map(|p| match p.path.as_str() {
            "message" => "the message".to_string(),
            part => format!("part {part}"),
        })
        .collect();
    if without.is_empty() {
        return None;
    }
    Some(if is_message {
        format!(
            "{name}: no base for {}: relative links there stay as they are (a message's base is an absolute Content-Base or Content-Location; give --url if the message was retrieved from a URL)",
            without.join(", ")
        )
    } else {
        format!("{name}: no base: relative links stay as they are (give --url)")
    })
}

fn print(text: &str) {
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
}

/// Print the explanation and the problems, in the command line's words
/// ([`crate::cli::flags::terms`]); the exit status.
fn finish(explanation: Explanation) -> i32 {
    print(&explanation.render(crate::cli::flags::terms::rule_label));
    let mut report = explanation.report;
    crate::cli::flags::terms::name_flags(&mut report);
    for p in &report.problems {
        eprintln!("{}", p.one_line());
    }
    if report.has_errors() {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}

/// Is the file a WARC (by name, or by its first bytes), or an ARC (its
/// first bytes), which is read as one?
fn is_warc(path: &std::path::Path, name: &str) -> bool {
    if Format::from_name(name) == Some(Format::Warc) {
        return true;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 512), &mut head));
    read.is_ok()
        && (linkbase::warc::looks_like_warc(&head) || linkbase::warc::looks_like_arc(&head))
}

/// `linkbase explain` on a WARC: one line per record, read as a stream.
fn explain_warc(args: &ExplainArgs, path: &std::path::Path, name: &str) -> i32 {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{name}: error: cannot read: {}", io_cause(&e));
            return EXIT_PARTIAL;
        }
    };
    let options = Options::new()
        .with_profile(args.profile)
        .with_force(args.force);
    let source = Source::new().with_name(name);
    match linkbase::warc::explain_records(file, &source, &options) {
        Ok(explanation) => finish(explanation),
        Err(e) => {
            eprintln!("{name}: {e}");
            EXIT_PARTIAL
        }
    }
}
