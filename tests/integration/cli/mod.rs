//! The command line's tests: one module per subject, the helpers in
//! [`util`] (the binary as a command, a pseudo-terminal). Run one module
//! with `cargo test --test integration cli::explain::` (the module path
//! filters).
//!
//! - `rewrite`: the main command (inputs, outputs, reports, statuses).
//! - `explain`, `filter`, `offline`, `resolve`: the subcommands and modes;
//!   `offline_redirects`: a mirror's pages saved from redirects (`--wget-log`);
//!   `offline_httrack`: an HTTrack project read with its cache (`--httrack-cache`).
//! - `ux`: what a person at a terminal sees (help, messages, progress).
//! - `messages`: the messages changed by the review of every message.
//! - `data_safety`: nothing lost on disk (backups, concurrent runs,
//!   interrupts, binary output refused on a terminal).

mod util;

mod data_safety;
mod explain;
mod filter;
mod messages;
mod offline;
mod offline_httrack;
mod offline_redirects;
mod resolve;
mod rewrite;
mod ux;
