//! `linkbase explain`: the base of each part of a message (or of an HTML
//! document), and the rule that set it.

use super::inputs::{display, io_cause};
use super::{EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};
use linkbase::{Explanation, Options, Report};
use std::path::PathBuf;

/// Arguments of `linkbase explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The retrieval URL of the input (rule 5.3).
    #[arg(long)]
    url: Option<String>,
    /// Resolution profile.
    #[arg(long, default_value = "rfc3986")]
    profile: linkbase::Profile,
    /// Rewrite signed parts too (only changes what is reported).
    #[arg(long)]
    force: bool,
    /// The file to explain.
    path: PathBuf,
}

/// Run `linkbase explain`.
pub fn run(args: ExplainArgs) -> i32 {
    let name = display(&args.path).to_string();
    if let Some(url) = &args.url {
        if let Err(e) = super::settings::checked_base("--url", url.trim(), args.profile) {
            eprintln!("linkbase: error: {}", e.0);
            return EXIT_USAGE;
        }
    }
    if args.path.is_dir() {
        eprintln!("{name}: error: is a folder: explain takes one file");
        return EXIT_PARTIAL;
    }
    if is_warc(&args.path, &name) {
        return explain_warc(&args, &name);
    }
    let input = match std::fs::read(&args.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{name}: error: cannot read: {}", io_cause(&e));
            return EXIT_PARTIAL;
        }
    };
    let format = linkbase::detect_format(&input, Some(&name));
    if super::job::is_binary(&input, format, None) {
        eprintln!("{name}: error: binary file (NUL bytes): not HTML, a message or CSS");
        return EXIT_PARTIAL;
    }
    let mut options = Options::new();
    options.url = args.url.map(|url| url.trim().to_string());
    options.profile = args.profile;
    options.force = args.force;
    options.format = format;
    let Explanation { text, report, .. } = linkbase::explain(&input, &options, Some(&name));
    finish(&text, report)
}

/// Print the explanation and the problems; the exit status.
fn finish(text: &str, mut report: Report) -> i32 {
    super::terms::name_flags(&mut report);
    let text = super::terms::relabel(text);
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
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
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".warc") || lower.ends_with(".warc.gz") || lower.ends_with(".warc.zst") {
        return true;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 512), &mut head));
    read.is_ok()
        && (linkbase::warc::looks_like_warc(&head) || linkbase::warc::looks_like_arc(&head))
}

/// `linkbase explain` on a WARC: one line per record, read as a stream.
fn explain_warc(args: &ExplainArgs, name: &str) -> i32 {
    let file = match std::fs::File::open(&args.path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{name}: {e}");
            return EXIT_PARTIAL;
        }
    };
    let mut options = Options::new();
    options.profile = args.profile;
    options.force = args.force;
    match linkbase::warc::explain(file, &options, Some(name)) {
        Ok(Explanation { text, report, .. }) => finish(&text, report),
        Err(e) => {
            eprintln!("{name}: {e}");
            EXIT_PARTIAL
        }
    }
}
