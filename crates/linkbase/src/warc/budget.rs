//! One budget, for the whole process, of the decoded bodies held at once by
//! the records being converted: a record's work costs a multiple of its
//! decoded body (its tree and edits, docs/hardening.md "What the work on
//! one record costs"), and a body of 628 bytes can decode to the whole
//! `--max-size` (a brotli bomb). Without a budget `-j N` threads decode and
//! rewrite N such bodies at once.
//!
//! **The rule.** Each record's decoded body is a [`Share`] of the budget,
//! reserved *as it is decoded* — each time the decoder's buffer grows, before
//! it grows (`http.rs`) — and, for a body stored as it is, its size when it
//! is taken for rewriting (`payload.rs`). A share only grows, and is given
//! back when the record's conversion is written or dropped. Below
//! [`SHARED_FROM`] a share takes nothing (such records cost the pipeline's
//! bound already, `pipeline.rs` "Memory"). A share that grows gets a
//! **ticket** the first time, numbered in order; the holder with the
//! smallest ticket is the **oldest**. A reservation that would take the
//! bytes in use past the limit (the record's `--max-size`) waits — except
//! the oldest holder's, which never waits (and may go past the limit).
//!
//! **The bound.** At every moment, the bytes in use minus the oldest
//! holder's share are at most the limit: a holder that is not the oldest
//! adds only while the total stays within the limit; the oldest's own
//! growth is not counted; a new holder arrives with a larger ticket (the
//! oldest stays) and nothing; a share given back only lowers the count,
//! and when it is the oldest's, the next oldest's share leaves the count
//! too. So the decoded bytes held at once are at most `--max-size`
//! plus one record's share (its body, at most `--max-size` + 64 KiB of
//! buffer), whatever `-j`; plus, per thread, a body under [`SHARED_FROM`].
//!
//! **Every wait ends.** A thread holds one share at a time, and a holder
//! waits for nothing but the budget: between reservations it decodes and
//! rewrites its own record, which needs nothing from any other. The oldest
//! holder never waits, so it finishes its record and gives its share back,
//! which wakes every waiter; the next oldest is then the oldest, and so on:
//! each holder is the oldest in turn, after finitely many records ahead of
//! it. A naive rule — wait while the total would pass the limit, unless
//! nothing else is in use — deadlocks as soon as two records that each
//! hold part of the budget both need more (the unit test below has eight).
//!
//! The order of the output does not depend on who waits: records are
//! written in input order (`pipeline.rs`).
//!
//! **What a share counts.** Not only the decoded body: once a body is
//! decoded and known to be rewritten, its share grows to the body plus
//! what rewriting it will cost ([`rewrite_cost`]: its tree and text, a
//! multiple of its size, and its edits, about 145 bytes a link,
//! docs/hardening.md), estimated in one pass over the body. A body whose
//! rewrite would not fit beside the others' within the limit waits, and
//! one too costly to run beside any other runs alone (as the oldest).
//!
//! **What one record may cost.** Running alone bounds what records add to
//! each other, not what one costs: 200 MB of `<a href=x>` (20 million
//! links) takes more than 4 GiB to rewrite, so a body whose work
//! ([`work`]) passes [`WORK_LIMIT`] times the limit is not rewritten
//! ([`over_work_limit`]: one error, no conversion of it), as a
//! body past the limit is not decoded further. The work held at once is
//! then at most the limit plus [`WORK_LIMIT`] times it, whatever `-j`.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard};

/// A share takes part in the budget from this size on.
pub const SHARED_FROM: u64 = 1 << 20;

/// What rewriting a body costs besides the body, per byte of it: its text
/// and tree (an ordinary page peaks under 4× its size, docs/performance.md).
pub const WORK_PER_BYTE: u64 = 3;

/// What rewriting costs per link besides [`WORK_PER_BYTE`]: its edit, its
/// new value, its tree node and attribute (a page of nothing but 10-byte
/// links peaks at about 145 bytes a link; `tests/output_growth.rs` holds it
/// under 185 with the bytes counted above).
pub const WORK_PER_LINK: u64 = 160;

/// The memory rewriting `body` will take besides `body` itself, estimated
/// in one pass: [`WORK_PER_BYTE`] a byte, and [`WORK_PER_LINK`] for each
/// `=` (every attribute value, quoted or not, escaped or not, follows one;
/// a link is an attribute value) and each `(` (a CSS `url(`). Text without
/// them costs its multiple only; a page of dense links counts each of them.
pub fn rewrite_cost(body: &[u8]) -> u64 {
    // Counted in runs of 255 bytes, each into a byte (a run holds at most
    // 255): the compiler counts 16 or 32 bytes at a time, where a count of
    // `usize` took 4 (`perf`: 2% of a real crawl's CPU, gz → gz).
    let links: u64 = body
        .chunks(255)
        .map(|run| {
            run.iter()
                .map(|&b| u8::from(b == b'=' || b == b'('))
                .sum::<u8>() as u64
        })
        .sum();
    (body.len() as u64)
        .saturating_mul(WORK_PER_BYTE)
        .saturating_add(links.saturating_mul(WORK_PER_LINK))
}

/// The most one body's work ([`work`]) may be, as a multiple of the size
/// limit (`--max-size`): 3 GiB at the default 256 MiB, which ordinary
/// pages under the limit stay well within (a 256 MB page of 11 links and
/// 40 attribute values a KB: about 2.7 GB).
pub const WORK_LIMIT: u64 = 12;

/// The memory rewriting `body` takes, itself included: its size and
/// [`rewrite_cost`].
pub fn work(body: &[u8]) -> u64 {
    (body.len() as u64).saturating_add(rewrite_cost(body))
}

/// Why a body whose work is `work` ([`work`]) is not rewritten under the
/// size limit `max`: `None` when it is within [`WORK_LIMIT`] times `max`.
pub fn over_work_limit(work: u64, max: u64) -> Option<String> {
    let limit = max.saturating_mul(WORK_LIMIT);
    (work > limit).then(|| {
        format!(
            "rewriting the body would take about {work} bytes of memory, over {WORK_LIMIT} times the size limit of {max} bytes"
        )
    })
}

/// The bytes reserved, the holders by ticket, the next ticket.
struct State {
    in_use: u64,
    holders: BTreeSet<u64>,
    next_ticket: u64,
    /// The most bytes ever in use at once.
    peak: u64,
}

/// The bytes reserved, and the news that some were given back.
pub struct Budget {
    state: Mutex<State>,
    freed: Condvar,
}

/// The process's budget.
pub static DECODED: Budget = Budget::new();

/// A record's part of a [`Budget`], reserved as it grows
/// ([`Share::grow_to`]), given back when dropped.
pub struct Share<'b> {
    budget: &'b Budget,
    limit: u64,
    ticket: Option<u64>,
    bytes: u64,
}

impl Budget {
    /// A budget of which nothing is in use.
    pub const fn new() -> Budget {
        Budget {
            state: Mutex::new(State {
                in_use: 0,
                holders: BTreeSet::new(),
                next_ticket: 0,
                peak: 0,
            }),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An empty share for one record, whose reservations wait while they
    /// would take the bytes in use past `limit` (its `--max-size`).
    pub fn share(&self, limit: u64) -> Share<'_> {
        Share {
            budget: self,
            limit,
            ticket: None,
            bytes: 0,
        }
    }

    /// The bytes in use now.
    #[cfg(test)]
    pub fn in_use(&self) -> u64 {
        self.lock().in_use
    }

    /// The most bytes in use at once so far.
    #[cfg(test)]
    pub fn peak(&self) -> u64 {
        self.lock().peak
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new()
    }
}

impl Share<'_> {
    /// Make the share `bytes` (the record's decoded bytes about to be held)
    /// when it is less, waiting as the module's rule says. A share that
    /// would stay under [`SHARED_FROM`] takes nothing and never waits.
    pub fn grow_to(&mut self, bytes: u64) {
        if bytes <= self.bytes || bytes < SHARED_FROM {
            return;
        }
        let more = bytes - self.bytes;
        let budget = self.budget;
        let mut state = budget.lock();
        let ticket = *self.ticket.get_or_insert_with(|| {
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.holders.insert(ticket);
            ticket
        });
        while state.holders.first() != Some(&ticket)
            && state.in_use.saturating_add(more) > self.limit
        {
            state = budget.freed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        state.in_use += more;
        state.peak = state.peak.max(state.in_use);
        self.bytes = bytes;
    }

    /// The bytes reserved.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl std::fmt::Debug for Share<'_> {
    /// Its ticket, its bytes and its limit.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Share")
            .field("ticket", &self.ticket)
            .field("bytes", &self.bytes)
            .field("limit", &self.limit)
            .finish()
    }
}

impl Drop for Share<'_> {
    fn drop(&mut self) {
        let Some(ticket) = self.ticket else {
            return;
        };
        let mut state = self.budget.lock();
        state.in_use -= self.bytes;
        state.holders.remove(&ticket);
        drop(state);
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{mpsc, Barrier};
    use std::time::Duration;

    const MIB: u64 = 1 << 20;

    /// Run `work` on another thread; fail if it is not done in a minute
    /// (a deadlock), rather than hang the test run.
    fn within_a_minute(work: impl FnOnce() + Send + 'static) {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            work();
            done.send(()).unwrap();
        });
        finished
            .recv_timeout(Duration::from_secs(60))
            .expect("every wait ends (no deadlock)");
    }

    #[test]
    fn rewrite_cost_counts_every_equals_sign_and_parenthesis() {
        // Runs of them longer than the 255-byte runs it counts in, and
        // others that straddle a run's end.
        assert_eq!(rewrite_cost(b""), 0);
        assert_eq!(rewrite_cost(b"abc"), 3 * WORK_PER_BYTE);
        assert_eq!(rewrite_cost(b"a=(b"), 4 * WORK_PER_BYTE + 2 * WORK_PER_LINK);
        let dense = "=(".repeat(700);
        assert_eq!(
            rewrite_cost(dense.as_bytes()),
            1400 * WORK_PER_BYTE + 1400 * WORK_PER_LINK
        );
        let page = format!("{}<a href=x>url(y)", "x".repeat(250)).repeat(9);
        assert_eq!(
            rewrite_cost(page.as_bytes()),
            page.len() as u64 * WORK_PER_BYTE + 18 * WORK_PER_LINK
        );
    }

    #[test]
    fn large_bodies_held_at_once_stay_within_the_limit_and_each_goes_on() {
        let budget = Budget::new();
        let most = AtomicU64::new(0);
        // Eight threads, bodies of 3 MiB under a limit of 5 MiB: one within
        // the limit, and the oldest's beside it when the oldest comes after
        // (a newer share woken first may take the room the oldest gave
        // back); never three. Small bodies never wait.
        std::thread::scope(|s| {
            for i in 0..8 {
                let (budget, most) = (&budget, &most);
                s.spawn(move || {
                    let size = if i % 2 == 0 { 3 * MIB } else { 1000 };
                    let mut share = budget.share(5 * MIB);
                    share.grow_to(size);
                    most.fetch_max(budget.in_use(), Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(20));
                    drop(share);
                });
            }
        });
        let most = most.load(Ordering::Relaxed);
        assert!((3 * MIB..=6 * MIB).contains(&most), "{most}");
        assert!(budget.peak() <= 6 * MIB, "{}", budget.peak());
        assert_eq!(budget.in_use(), 0);
        // A body over the limit goes on alone rather than waiting forever.
        let mut big = budget.share(5 * MIB);
        big.grow_to(9 * MIB);
        assert_eq!(budget.in_use(), 9 * MIB);
        drop(big);
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn a_share_under_the_threshold_takes_nothing_and_a_share_only_grows() {
        let budget = Budget::new();
        let mut share = budget.share(MIB);
        share.grow_to(SHARED_FROM - 1);
        assert_eq!((share.bytes(), budget.in_use()), (0, 0));
        share.grow_to(3 * MIB);
        share.grow_to(2 * MIB);
        assert_eq!((share.bytes(), budget.in_use()), (3 * MIB, 3 * MIB));
        drop(share);
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn a_reservation_that_does_not_fit_waits_until_the_older_share_is_given_back() {
        let budget: &'static Budget = Box::leak(Box::new(Budget::new()));
        let mut older = budget.share(4 * MIB);
        older.grow_to(3 * MIB);
        let (sent, got) = mpsc::channel();
        let newer = std::thread::spawn(move || {
            let mut share = budget.share(4 * MIB);
            share.grow_to(2 * MIB);
            sent.send(budget.in_use()).unwrap();
        });
        assert!(
            got.recv_timeout(Duration::from_millis(200)).is_err(),
            "3 + 2 MiB is over 4 MiB: the newer share waits"
        );
        // The older share is the oldest: it grows past the limit at once.
        older.grow_to(5 * MIB);
        assert_eq!(budget.in_use(), 5 * MIB);
        drop(older);
        let in_use = got.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(in_use, 2 * MIB);
        newer.join().unwrap();
    }

    /// Eight records each hold 1 MiB of a budget of 8 MiB — all of it — and
    /// then each grows, a MiB at a time, to 4 MiB. Under the naive rule
    /// (wait while the total would pass the limit, unless nothing else is
    /// in use) all eight wait for each other forever. With the oldest
    /// going on, every record finishes, and the bytes in use never pass
    /// the limit plus one record's share.
    #[test]
    fn records_that_all_hold_part_of_the_budget_and_all_need_more_all_finish() {
        within_a_minute(|| {
            const RECORDS: usize = 8;
            let budget = Budget::new();
            let start = Barrier::new(RECORDS);
            std::thread::scope(|s| {
                for _ in 0..RECORDS {
                    let (budget, start) = (&budget, &start);
                    s.spawn(move || {
                        let mut share = budget.share(8 * MIB);
                        share.grow_to(MIB);
                        start.wait();
                        for size in 2..=4 {
                            share.grow_to(size * MIB);
                            std::thread::yield_now();
                        }
                    });
                }
            });
            assert_eq!(budget.in_use(), 0);
            let peak = budget.peak();
            assert!(peak <= 8 * MIB + 4 * MIB, "peak {peak}");
            assert!(peak >= 8 * MIB, "every record held its first MiB at once");
        });
    }

    /// Many records, many threads, shares of every size growing in steps:
    /// everything finishes and the bound holds at every moment.
    #[test]
    fn many_threads_and_bodies_keep_the_bound_and_never_deadlock() {
        within_a_minute(|| {
            let budget = Budget::new();
            let limit = 10 * MIB;
            std::thread::scope(|s| {
                for t in 0..16u64 {
                    let budget = &budget;
                    s.spawn(move || {
                        for r in 0..20u64 {
                            // 0.5 to 12 MiB, in steps of half again.
                            let body = (MIB / 2) + ((t * 7 + r * 13) % 24) * (MIB / 2);
                            let mut share = budget.share(limit);
                            let mut held = 64 << 10;
                            while held < body {
                                held = (held + held / 2).min(body);
                                share.grow_to(held);
                                let in_use = budget.in_use();
                                assert!(in_use <= limit + 12 * MIB, "{in_use}");
                            }
                            std::thread::yield_now();
                        }
                    });
                }
            });
            assert_eq!(budget.in_use(), 0);
            assert!(budget.peak() <= limit + 12 * MIB, "{}", budget.peak());
        });
    }
}
