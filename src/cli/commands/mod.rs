//! One module a command: [`rewrite`] (the default: rewrite files, with the
//! parts of its run: listing, one file, one WARC, where an output goes,
//! what is refused first, `--diff`/`--check`), [`filter`] (`--filter`: a mail filter), [`resolve`],
//! [`explain`] and [`offline`] (`linkbase resolve`, `explain`, `offline`).
//! Each returns the exit status; the files they write go through
//! [`super::files`], what the user is told through [`super::reporting`].

pub mod explain;
pub mod filter;
pub mod offline;
pub mod resolve;
pub mod rewrite;
