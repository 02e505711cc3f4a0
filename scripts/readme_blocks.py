#!/usr/bin/env python3
"""The README's shell blocks, run in order in a fresh clone (issue 31).

    scripts/readme_blocks.py list [README]     print each block, as it would run
    scripts/readme_blocks.py run REPO          clone REPO (its HEAD) into a temporary
                                               folder, run every block there, remove it

A block is a fenced ```sh block. Each runs in `bash -euo pipefail` from the
clone's folder, as a reader pastes it there; blocks share only what they
leave on disk (`.venv`, `target/`, `../linkbase-app`). `cargo install`
installs into a temporary root put first on PATH. A block may be marked, on
the line before its fence, with an HTML comment (invisible on GitHub) that
says why it cannot run as it is in CI:

    <!-- readme-test: skip (REASON) -->             not run
    <!-- readme-test: first-line-only (REASON) -->  only its first line runs

A marker without a reason is an error. Exit status 1 at the first block
that fails, naming its line in the README.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"^<!-- readme-test: (skip|first-line-only) \((.+)\) -->$")


def blocks(path):
    """(line of the fence, mode, reason, text) for each ```sh block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start = i + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            mode, reason = "run", None
            before = lines[i - 1].strip() if i > 0 else ""
            if before.startswith("<!-- readme-test"):
                m = MARKER.match(before)
                if not m:
                    sys.exit(f"{path}:{i}: a readme-test marker needs a mode and a (reason): {before}")
                mode, reason = m.group(1), m.group(2)
            text = "\n".join(lines[start:end])
            if mode == "first-line-only":
                text = lines[start]
            found.append((i + 1, mode, reason, text + "\n"))
            i = end
        i += 1
    return found


def run(repo):
    root = tempfile.mkdtemp(prefix="linkbase-readme-")
    try:
        clone = os.path.join(root, "linkbase")
        subprocess.run(["git", "clone", "--quiet", repo, clone], check=True)
        env = dict(os.environ)
        env["CARGO_INSTALL_ROOT"] = os.path.join(root, "cargo-root")
        env["PATH"] = os.path.join(root, "cargo-root", "bin") + os.pathsep + env["PATH"]
        env.pop("CARGO_TARGET_DIR", None)
        # A build cache shared by the blocks (CI: one release build for
        # `cargo install`, `cargo run --release` and the wheel, instead of one
        # each); the commands run are the reader's.
        shared_target = os.environ.get("README_BLOCKS_TARGET_DIR")
        if shared_target:
            env["CARGO_TARGET_DIR"] = os.path.abspath(shared_target)
        env.pop("VIRTUAL_ENV", None)
        began = time.monotonic()
        for line, mode, reason, text in blocks(os.path.join(clone, "README.md")):
            if mode == "skip":
                print(f"== README.md:{line}: skipped ({reason})", flush=True)
                continue
            note = f" (first line only: {reason})" if mode == "first-line-only" else ""
            print(f"== README.md:{line}{note}\n{text}", end="", flush=True)
            started = time.monotonic()
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=clone, env=env)
            print(f"-- {time.monotonic() - started:.0f} s", flush=True)
            if done.returncode != 0:
                print(f"README.md:{line}: this block failed with exit status {done.returncode}",
                      file=sys.stderr)
                return 1
        print(f"== every README block ran, in {time.monotonic() - began:.0f} s")
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "list":
        path = sys.argv[2] if len(sys.argv) > 2 else "README.md"
        for line, mode, reason, text in blocks(path):
            print(f"== README.md:{line} [{mode}{': ' + reason if reason else ''}]\n{text}", end="")
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        return run(os.path.abspath(sys.argv[2]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
