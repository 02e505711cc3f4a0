"""The training run of the wheel's profile-guided optimization
(python/build-wheel.sh; docs/performance.md, "Profile-guided builds"), run
by the instrumented wheel on the files of pgo/files.sh: ``linkbase.rewrite`` on every file
given, as a Python program calls it (the default, then ``records=True`` with
``report.links`` read), against ``https://example.org/`` + the file's name (percent-encoded).

    python train.py ROUNDS FILE...

Only the work done counts (the profile holds how often each branch was
taken); printed: the number of files and link records seen.
"""

import sys
from pathlib import Path
from urllib.parse import quote

import linkbase


def main(argv):
    rounds, files = int(argv[0]), argv[1:]
    records = 0
    for file in files:
        data = Path(file).read_bytes()
        # A file name may hold a space or non-ASCII (fixtures/offline/site):
        # percent-encoded, as a URL holds it.
        url = "https://example.org/" + quote(Path(file).name)
        for _ in range(rounds):
            linkbase.rewrite(data, url)
            records += len(linkbase.rewrite(data, url, records=True).report.links)
    print(f"{len(files)} files, {records} link records")


if __name__ == "__main__":
    main(sys.argv[1:])
