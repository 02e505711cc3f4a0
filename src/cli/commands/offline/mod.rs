//! `linkbase offline`: make an offline copy (docs/offline.md). A folder is
//! a mirror as `wget -r -p` writes it ([`mirror`]); files are web archives
//! ([`archive`]).

mod archive;
mod mirror;

use crate::cli::commands::rewrite::usage_error;
use crate::cli::flags::args::{OfflineArgs, UsageError};

/// Run `linkbase offline`; returns the exit status.
pub fn run(args: OfflineArgs) -> i32 {
    if args.paths.iter().all(|p| p.is_dir()) {
        if args.at.is_some() {
            return usage_error(&UsageError::new(
                "--at chooses among an archive's captures; a mirror folder has one of each URL: drop --at",
            ));
        }
        return mirror::run(args);
    }
    if args.paths.iter().all(|p| !p.is_dir()) {
        if args.wget_log.is_some() {
            return usage_error(&UsageError::new(
                "--wget-log reads the log of a wget mirror folder; a web archive records its redirects itself: drop --wget-log",
            ));
        }
        if args.httrack_cache.is_some() {
            return usage_error(&UsageError::new(
                "--httrack-cache reads the cache of an HTTrack project folder; a web archive records its URLs itself: drop --httrack-cache",
            ));
        }
        return archive::run(args);
    }
    usage_error(&UsageError::new(
        "linkbase offline takes one mirror folder, or web archives (files), not both: run it once for each",
    ))
}
