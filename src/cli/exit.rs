//! Every exit status linkbase returns, in one table (`ALL`): the footer
//! of `--help` ([`crate::cli::flags::args`]) names each of them, and a test
//! there holds it to this table.

/// Everything done.
pub const EXIT_OK: i32 = 0;
/// Some input skipped or not written, or links left unresolved with errors
/// (`--check`: an input would change).
pub const EXIT_PARTIAL: i32 = 1;
/// A usage error.
pub const EXIT_USAGE: i32 = 2;
/// `--filter`: anything but the whole message written; a temporary failure
/// (`EX_TEMPFAIL`, sysexits.h): the mail system keeps the message and tries again.
pub const EXIT_TEMPFAIL: i32 = 75;
/// Interrupted by SIGINT: 128 + its number.
pub const EXIT_SIGINT: i32 = 130;
/// Interrupted by SIGTERM: 128 + its number.
pub const EXIT_SIGTERM: i32 = 143;

/// Every exit status above (what the footer's test holds `--help` to).
#[cfg(test)]
pub const ALL: [i32; 6] = [
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_USAGE,
    EXIT_TEMPFAIL,
    EXIT_SIGINT,
    EXIT_SIGTERM,
];

#[cfg(test)]
mod tests {
    /// The signals' statuses are 128 + their numbers, as a shell reports them.
    #[cfg(unix)]
    #[test]
    fn interrupted_statuses_are_128_and_the_signal() {
        use signal_hook::consts::{SIGINT, SIGTERM};
        assert_eq!(super::EXIT_SIGINT, 128 + SIGINT);
        assert_eq!(super::EXIT_SIGTERM, 128 + SIGTERM);
    }
}
