//! Reading and writing files without losing data, under every command:
//! the atomic write and backups ([`atomic`]), files opened beneath a root
//! with no symbolic link followed ([`beneath`]), where an output path
//! really leads and writing to what is not a regular file
//! ([`output_path`]), SIGINT/SIGTERM
//! removing what is half-written ([`interrupt`]), names as shown and the
//! URLs of walked files ([`paths`]), an I/O error's cause ([`io`]).

pub mod atomic;
pub mod beneath;
pub mod interrupt;
pub mod io;
pub mod output_path;
pub mod paths;
