//! The default command: rewrite files. PROVISIONAL: the HTML issue (#3) gives
//! it a single-file path; the CLI issue (#5) makes it the real thing.

use super::{EXIT_OK, EXIT_PARTIAL};
use std::io::{Read, Write};
use std::path::PathBuf;

/// Arguments of the default (rewrite) command.
#[derive(clap::Args, Debug)]
pub struct RewriteArgs {
    /// The retrieval URL of the input (rule 5.3).
    #[arg(long)]
    url: Option<String>,
    /// Resolution profile.
    #[arg(long, default_value = "rfc3986")]
    profile: linkbase::Profile,
    /// Input file (standard input when absent).
    paths: Vec<PathBuf>,
}

/// Run the rewrite.
pub fn run(args: RewriteArgs) -> i32 {
    let mut options = linkbase::Options::new();
    options.url = args.url;
    options.profile = args.profile;
    let mut input = Vec::new();
    let name = args.paths.first().map(|p| p.display().to_string());
    let read = match &args.paths.first() {
        Some(p) => std::fs::read(p).map(|b| input = b),
        None => std::io::stdin().read_to_end(&mut input).map(|_| ()),
    };
    if let Err(e) = read {
        eprintln!("{}: {e}", name.as_deref().unwrap_or("<stdin>"));
        return EXIT_PARTIAL;
    }
    let out = linkbase::rewrite(&input, &options, name.as_deref());
    let _ = std::io::stdout().write_all(&out.output);
    for p in &out.report.problems {
        eprintln!("{}", p.one_line());
    }
    if out.report.has_errors() {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}
