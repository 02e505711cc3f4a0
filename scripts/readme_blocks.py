#!/usr/bin/env python3
"""The README's shell blocks, run in order in a fresh clone (issue 31).

    scripts/readme_blocks.py list [README]     print each block, as it would run
    scripts/readme_blocks.py run REPO BLOCKS OUTPUTS
                                               clone REPO (its HEAD) into a temporary
                                               folder, run every block there, remove it;
                                               fail unless the README has exactly BLOCKS
                                               shell blocks and OUTPUTS shown outputs

A block is a fenced block whose language is a shell (```sh, ```bash,
```shell, ```zsh: each is counted and run; ```console and ```shell-session,
whose prompts cannot be pasted, are refused: write them as ```sh). Each runs in `bash -euo pipefail` from the
clone's folder, as a reader pastes it there; blocks share only what they
leave on disk (`.venv`, `target/`, `../linkbase-app`). `cargo install`
installs into a temporary root put first on PATH. A block may be marked, on
the line before its fence, with an HTML comment (invisible on GitHub) that
says why it cannot run as it is in CI:

    <!-- readme-test: skip (REASON) -->             not run
    <!-- readme-test: first-line-only (REASON) -->  only its first line runs

A marker without a reason is an error.

A command whose comment begins `# prints ` shows its output: the rest of
the comment is what the command must print on its standard output (its
last line break aside), and the run compares them (the command's output
then goes to the comparison, not to the log).

The counts given to `run` (.ci/readme.sh) are checked-in figures: a block
whose fence was changed to a language not run, or a shown output whose
marker was lost, fails instead of leaving fewer things checked. Exit
status 1 at the first block that fails, naming its line in the README.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"^<!-- readme-test: (skip|first-line-only) \((.+)\) -->$")
# Fence languages that are a shell: run as bash. Transcripts with prompts are refused.
SHELLS = {"sh", "bash", "shell", "zsh"}
TRANSCRIPTS = {"console", "shell-session", "sh-session"}
# `COMMAND   # prints OUTPUT`
PRINTS = re.compile(r"^(.*?\S)\s+# prints (.*)$")


def blocks(path):
    """(line of the fence, mode, reason, text) for each shell block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        language = fence[3:].strip().split(" ")[0].split(",")[0].lower() if fence.startswith("```") else ""
        if language in TRANSCRIPTS:
            sys.exit(f"{path}:{i + 1}: a ```{language} block cannot be run as pasted: write it as ```sh")
        if fence.startswith("```") and language and language not in SHELLS:
            # Another language's block (text, rust, toml…): skip to its end.
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                i += 1
        elif language in SHELLS:
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


def shown_outputs(text):
    """The block's text with each `COMMAND   # prints OUTPUT` line's output
    sent to a file of $README_OUTPUTS, and the (file, output) pairs."""
    lines, outputs = [], []
    for line in text.split("\n"):
        m = PRINTS.match(line)
        if m:
            name = f"{len(outputs)}.out"
            outputs.append((name, m.group(2)))
            line = f'{m.group(1)} > "$README_OUTPUTS/{name}"'
        lines.append(line)
    return "\n".join(lines), outputs


def run(repo, want_blocks, want_outputs):
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
        found = blocks(os.path.join(clone, "README.md"))
        shown = sum(len(shown_outputs(text)[1]) for _, mode, _, text in found if mode != "skip")
        if (len(found), shown) != (want_blocks, want_outputs):
            print(f"README.md: {len(found)} shell blocks and {shown} shown outputs (in the blocks "
                  f"run), where .ci/readme.sh expects {want_blocks} and {want_outputs}: a block or "
                  "an output lost, or added without its count", file=sys.stderr)
            return 1
        outputs_dir = os.path.join(root, "outputs")
        os.mkdir(outputs_dir)
        env["README_OUTPUTS"] = outputs_dir
        began = time.monotonic()
        ran = compared = 0
        for line, mode, reason, text in found:
            if mode == "skip":
                print(f"== README.md:{line}: skipped ({reason})", flush=True)
                continue
            note = f" (first line only: {reason})" if mode == "first-line-only" else ""
            print(f"== README.md:{line}{note}\n{text}", end="", flush=True)
            script, outputs = shown_outputs(text)
            started = time.monotonic()
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=clone, env=env)
            print(f"-- {time.monotonic() - started:.0f} s", flush=True)
            if done.returncode != 0:
                print(f"README.md:{line}: this block failed with exit status {done.returncode}",
                      file=sys.stderr)
                return 1
            ran += 1
            for name, want in outputs:
                with open(os.path.join(outputs_dir, name), encoding="utf-8", errors="replace") as f:
                    got = f.read()
                if got.endswith("\n"):
                    got = got[:-1]
                if got != want:
                    print(f"README.md:{line}: the README shows the output\n  {want}\nthe command "
                          f"printed\n  {got}", file=sys.stderr)
                    return 1
                print(f"-- prints, as shown: {want}", flush=True)
                compared += 1
        skipped = len(found) - ran
        print(f"== every README block ran: {ran} run, {skipped} skipped, of {len(found)}; "
              f"{compared} shown outputs compared; in {time.monotonic() - began:.0f} s")
        # CI's later steps read the binary `cargo install` built (the
        # release build of HEAD, as a user gets it) instead of building it
        # again (issue 43): README_BLOCKS_KEEP_BIN names where to copy it.
        keep = os.environ.get("README_BLOCKS_KEEP_BIN")
        if keep:
            installed = os.path.join(root, "cargo-root", "bin", "linkbase")
            if not os.path.isfile(installed):
                print(f"README.md: no block installed {installed}, which README_BLOCKS_KEEP_BIN "
                      "asks for", file=sys.stderr)
                return 1
            os.makedirs(os.path.dirname(os.path.abspath(keep)), exist_ok=True)
            shutil.copy2(installed, keep)
            print(f"== kept the installed binary as {keep}")
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "list":
        path = sys.argv[2] if len(sys.argv) > 2 else "README.md"
        for line, mode, reason, text in blocks(path):
            print(f"== README.md:{line} [{mode}{': ' + reason if reason else ''}]\n{text}", end="")
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "run":
        return run(os.path.abspath(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
