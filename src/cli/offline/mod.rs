//! `linkbase offline`: make an offline copy (docs/offline.md). A folder is
//! a mirror as `wget -r -p` writes it ([`mirror`]).

mod mirror;

use super::args::{OfflineArgs, UsageError};
use super::rewrite::usage_error;

/// Run `linkbase offline`; returns the exit status.
pub fn run(args: OfflineArgs) -> i32 {
    if args.paths.iter().all(|p| p.is_dir()) {
        return mirror::run(args);
    }
    let names: Vec<String> = args
        .paths
        .iter()
        .filter(|p| !p.is_dir())
        .map(|p| p.display().to_string())
        .collect();
    usage_error(&UsageError::new(format!(
        "{}: not a folder; linkbase offline takes a mirror folder (as wget -r -p writes it)",
        names.join(", ")
    )))
}
