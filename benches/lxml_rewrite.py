"""The lxml reference of benches/pages.rs: make every link of an HTML page
absolute with lxml, as a Python user does it (parse, make_links_absolute,
tostring, write).

One page, one process (what the bench times, start-up included):

    python lxml_rewrite.py IN URL OUT

In-process, no start-up: each page parsed, rewritten and serialized ROUNDS
times; prints, per round, the seconds that round took for all the pages:

    python lxml_rewrite.py --rounds ROUNDS URL-PREFIX ROOT PAGE...

(each PAGE is a path under ROOT; its URL is URL-PREFIX + PAGE).
"""

import sys
import time

import lxml.html


def rewrite(data, url):
    """The page `data` (bytes) with its links made absolute against `url`."""
    root = lxml.html.document_fromstring(data)
    root.make_links_absolute(url)
    return lxml.html.tostring(root.getroottree(), encoding="utf-8")


def main(argv):
    if argv[:1] == ["--rounds"]:
        rounds, prefix, root, pages = int(argv[1]), argv[2], argv[3], argv[4:]
        inputs = []
        for page in pages:
            with open(f"{root}/{page}", "rb") as f:
                inputs.append((f.read(), prefix + page))
        for _ in range(rounds):
            start = time.perf_counter()
            for data, url in inputs:
                rewrite(data, url)
            print(time.perf_counter() - start, flush=True)
        return 0
    source, url, target = argv
    with open(source, "rb") as f:
        data = f.read()
    out = rewrite(data, url)
    with open(target, "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
