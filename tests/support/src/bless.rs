//! `LINKBASE_BLESS`: whether a run rewrites checked-in expected files
//! instead of checking them (`tests/fixtures/html.rs`, `tests/fixtures/conformance.rs`,
//! `tests/integration/profile_matrix.rs`). Only the exact value `1` blesses; any other
//! value (`0`, `true`, empty) is refused with a panic, so that a stray
//! setting can neither bless by accident nor leave a reader unsure whether
//! the files were checked. `.ci/run` refuses the variable altogether.

/// `true` when `LINKBASE_BLESS=1`, `false` when the variable is unset;
/// panics, saying why, for any other value.
pub fn bless() -> bool {
    match std::env::var_os("LINKBASE_BLESS") {
        None => false,
        Some(value) if value == "1" => true,
        Some(value) => panic!(
            "LINKBASE_BLESS={value:?}: only LINKBASE_BLESS=1 rewrites the expected files; \
             unset it to check them"
        ),
    }
}
