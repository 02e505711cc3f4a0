//! Peak live heap bytes, counted by a `#[global_allocator]` wrapped around
//! the system allocator. Shared by `benches/memory.rs` (which prints the
//! figures) and `tests/memory.rs` (which enforces the bounds), so the test
//! checks the very measurement the bench reports.
//!
//! A binary that measures installs the counter as its allocator, for the
//! whole process (`#[global_allocator] static ALLOCATOR: CountingAllocator =
//! CountingAllocator;`): measure one thing at a time. Until it does, the
//! counters stay at zero.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes and their high-water mark.
pub struct CountingAllocator;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the counters do not affect what is allocated.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size > layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Bytes allocated and not yet freed.
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// What one measured call used.
#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// Live bytes just before the call (the input among them).
    pub before: usize,
    /// The most bytes live at any moment during the call (the input and
    /// the output included).
    pub peak: usize,
}

impl Usage {
    /// The peak as a multiple of `input_len`.
    pub fn ratio(&self, input_len: usize) -> f64 {
        self.peak as f64 / input_len as f64
    }

    /// What the call added at its peak, above what was live before it.
    pub fn added(&self) -> usize {
        self.peak.saturating_sub(self.before)
    }
}

/// Run `f`, returning its result and the peak live bytes while it ran.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    let before = live_bytes();
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed);
    (out, Usage { before, peak })
}

/// Rewrite `input` (of `source`) with `linkbase::rewrite` (as the command line does with a
/// file it has read) and return what that used at its peak.
pub fn rewrite_usage(input: &[u8], source: &linkbase::Source, name: &str) -> Usage {
    let (out, usage) = measure(|| {
        let out = linkbase::rewrite(input, source, &linkbase::Options::new());
        assert!(
            out.report.counts.rewritten > 0,
            "{name}: nothing was rewritten: {:?}",
            out.report.problems
        );
        out.output.len()
    });
    std::hint::black_box(out);
    usage
}
