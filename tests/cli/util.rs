//! What every module of the command line's tests shares.

use assert_cmd::Command;

/// The `linkbase` binary of this build, with none of the atomic writer's
/// test hooks (`LINKBASE_TEST_*`) the environment may hold.
pub fn linkbase() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linkbase"));
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// [`linkbase`] as a `std::process::Command` (for standard streams and
/// children that assert_cmd does not handle).
pub fn std_linkbase() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"));
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// The test hooks of the atomic writer (src/cli/atomic.rs).
const HOOKS: [&str; 4] = [
    "LINKBASE_TEST_FAIL_AT",
    "LINKBASE_TEST_KILL_AT",
    "LINKBASE_TEST_PAUSE_AT",
    "LINKBASE_TEST_PAUSE_FIFO",
];

/// A pseudo-terminal: (the controlling side, the terminal side).
#[cfg(unix)]
pub fn pseudo_terminal() -> (std::fs::File, std::fs::File) {
    use std::fs;
    use std::os::fd::FromRawFd;
    let (mut controller, mut terminal) = (0, 0);
    // SAFETY: openpty writes two new descriptors, which the Files then own.
    let made = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    unsafe {
        (
            fs::File::from_raw_fd(controller),
            fs::File::from_raw_fd(terminal),
        )
    }
}

/// The linkbase command as a user whom file permissions stop: run as root
/// (as CI is), it runs as user `nobody` (setpriv(1), uid and gid 65534, no
/// supplementary groups), since root reads and writes past any mode;
/// otherwise as the current user. `dir`, the test's temporary folder
/// (mode 0700), is opened to that user.
#[cfg(unix)]
pub fn linkbase_unprivileged(dir: &std::path::Path) -> Command {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return linkbase();
    }
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_linkbase"))
        .env_remove("LINKBASE_TEST_FAIL_AT");
    cmd
}
