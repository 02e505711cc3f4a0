//! The CPU time of the calling thread, for the benches that compare the
//! time of one input at N and 10N (`benches/scaling.rs`,
//! `benches/offline_naming.rs`): on a shared machine the wall time also
//! counts the time other processes ran.

use std::time::Duration;

/// The CPU time this thread has run (`CLOCK_THREAD_CPUTIME_ID`: user and
/// system time alike, nanosecond resolution); `None` where there is none.
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for clock_gettime to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    let nanos =
        u64::try_from(now.tv_sec).ok()? * 1_000_000_000 + u64::try_from(now.tv_nsec).ok()?;
    ok.then(|| Duration::from_nanos(nanos))
}

#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}
