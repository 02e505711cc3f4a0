//! What the user is told about a run: what became of each input
//! ([`result`]), the `--report` JSON Lines ([`jsonl`]), the progress bar
//! ([`progress`]), the summary line and `--stats` ([`summary`]).

pub mod jsonl;
pub mod progress;
pub mod result;
pub mod summary;
