//! `linkbase explain`. PROVISIONAL: the MIME issue (#4) implements it.

use super::EXIT_OK;
use std::path::PathBuf;

/// Arguments of `linkbase explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The file to explain.
    path: PathBuf,
}

/// Run `linkbase explain`.
pub fn run(args: ExplainArgs) -> i32 {
    let _ = args;
    EXIT_OK
}
