//! The tests that drive the atomic writer's test hooks
//! (`LINKBASE_TEST_FAIL_AT`, `LINKBASE_TEST_KILL_AT`, `LINKBASE_TEST_PAUSE_AT`):
//! only a debug build of the binary reads them (`cfg(debug_assertions)`; a
//! release build, as shipped, does not). The tests are built with the same
//! profile as the binary, so in a release test build (`cargo test
//! --release`) these tests fail at once, saying why, instead of failing
//! obscurely or passing without having tested anything.

/// Fail the calling test unless the binary under test reads the hooks.
#[cfg(not(debug_assertions))]
pub fn require_test_hooks() {
    panic!(
        "this test drives LINKBASE_TEST_FAIL_AT / LINKBASE_TEST_KILL_AT / \
         LINKBASE_TEST_PAUSE_AT, which only a debug build of linkbase reads: \
         run `cargo test` without --release (the README's test command)"
    );
}

/// The binary under test reads the hooks: nothing to check.
#[cfg(debug_assertions)]
pub fn require_test_hooks() {}

/// The atomic writer's steps, in order (`src/cli/files/atomic.rs`, `Step`): each
/// a value of `LINKBASE_TEST_FAIL_AT` / `LINKBASE_TEST_KILL_AT`.
pub const WRITE_STEPS: [&str; 7] = [
    "create",
    "write",
    "permissions",
    "sync",
    "backup",
    "verify",
    "rename",
];
