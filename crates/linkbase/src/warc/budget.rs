//! One budget, for the whole process, of the decoded bodies whose links are
//! being rewritten at once: a record's work costs a multiple of its decoded
//! body (its tree and edits: about 17× for a body of nothing but links,
//! docs/hardening.md "Memory"), and a body of 628 bytes can decode to the
//! whole `--max-size` (a brotli bomb). Without a budget `-j N` threads
//! rewrite N such bodies at once: four 200 MB bombs at `-j 2` took 3 GB.
//!
//! A record whose decoded body is at least [`SHARED_FROM`] takes its size
//! from the budget before its links are rewritten and gives it back after;
//! it waits while the bodies being rewritten and it would be more than the
//! limit (its `--max-size`), unless none is being rewritten. So the large
//! bodies rewritten at once add up to at most `--max-size`, whatever `-j`,
//! and every record goes on in time (a record never waits while it holds a
//! share). Smaller records take no part: they cost the pipeline's bound
//! already (`pipeline.rs`, "Memory"). The order of the output does not
//! depend on who waits (records are written in input order).

use std::sync::{Condvar, Mutex, MutexGuard};

/// Bodies from this size on take part in the budget.
pub const SHARED_FROM: u64 = 1 << 20;

/// The bytes being rewritten, and the news that some were given back.
pub struct Budget {
    in_use: Mutex<u64>,
    freed: Condvar,
}

/// The process's budget.
pub static DECODED: Budget = Budget::new();

/// A part of a [`Budget`], given back when dropped.
pub struct Share<'b> {
    budget: &'b Budget,
    bytes: u64,
}

impl Budget {
    /// A budget of which nothing is in use.
    pub const fn new() -> Budget {
        Budget {
            in_use: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, u64> {
        self.in_use.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Take `bytes` (a decoded body's size) from the budget, waiting while
    /// what is in use and `bytes` would be more than `limit` and something
    /// is in use. A body under [`SHARED_FROM`] takes nothing and never waits.
    pub fn take(&self, bytes: u64, limit: u64) -> Share<'_> {
        if bytes < SHARED_FROM {
            return Share {
                budget: self,
                bytes: 0,
            };
        }
        let mut in_use = self.lock();
        while *in_use != 0 && in_use.saturating_add(bytes) > limit {
            in_use = self.freed.wait(in_use).unwrap_or_else(|p| p.into_inner());
        }
        *in_use += bytes;
        Share {
            budget: self,
            bytes,
        }
    }

    /// The bytes in use now.
    #[cfg(test)]
    pub fn in_use(&self) -> u64 {
        *self.lock()
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new()
    }
}

impl Drop for Share<'_> {
    fn drop(&mut self) {
        if self.bytes == 0 {
            return;
        }
        *self.budget.lock() -= self.bytes;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn large_bodies_rewritten_at_once_stay_within_the_limit_and_each_goes_on() {
        const MIB: u64 = 1 << 20;
        let budget = Budget::new();
        let most = AtomicU64::new(0);
        // Eight threads, bodies of 3 MiB under a limit of 5 MiB: one at a
        // time; small bodies never wait.
        std::thread::scope(|s| {
            for i in 0..8 {
                let (budget, most) = (&budget, &most);
                s.spawn(move || {
                    let size = if i % 2 == 0 { 3 * MIB } else { 1000 };
                    let share = budget.take(size, 5 * MIB);
                    most.fetch_max(budget.in_use(), Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    drop(share);
                });
            }
        });
        assert_eq!(most.load(Ordering::Relaxed), 3 * MIB);
        assert_eq!(budget.in_use(), 0);
        // A body over the limit goes on alone rather than waiting forever.
        let big = budget.take(9 * MIB, 5 * MIB);
        assert_eq!(budget.in_use(), 9 * MIB);
        drop(big);
        assert_eq!(budget.in_use(), 0);
    }
}
