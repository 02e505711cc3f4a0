//! The command line as typed: every flag and subcommand as clap declares
//! them ([`args`]), the rewrite command's flags checked and made typed
//! settings ([`settings`]), `-g/--glob` ([`globs`]), and the flags' names
//! where the library's messages name its settings ([`terms`]). Nothing here
//! reads or writes a file.

pub mod args;
pub mod globs;
pub mod settings;
pub mod terms;
