//! The tests that drive the atomic writer's test hooks
//! (`LINKBASE_TEST_FAIL_AT`, `LINKBASE_TEST_KILL_AT`): only a binary built
//! with the `test-hooks` feature reads them (a shipped one does not), so
//! without it these tests fail at once, saying why, instead of failing
//! obscurely or passing without having tested anything.

/// Fail the calling test unless the binary under test reads the hooks.
#[cfg(not(debug_assertions))]
pub fn require_test_hooks() {
    panic!(
        "this test drives LINKBASE_TEST_FAIL_AT / LINKBASE_TEST_KILL_AT, which \
         only a binary built with the `test-hooks` feature reads: run \
         `cargo test --features test-hooks` (the README's test command)"
    );
}

/// The binary under test reads the hooks: nothing to check.
#[cfg(debug_assertions)]
pub fn require_test_hooks() {}
