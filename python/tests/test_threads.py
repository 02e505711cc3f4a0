"""The GIL is released while linkbase works: the output is the same with 1
and 4 threads, and 4 threads are not serialized behind one another."""

import concurrent.futures
import threading

import linkbase
from conftest import FIXTURES


def pages():
    out = []
    for case in sorted((FIXTURES / "html").iterdir()):
        if case.is_dir():
            out.append((case / "input.html").read_bytes())
    return out


def rewrite_all(pages, threads):
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda p: linkbase.rewrite(p, "https://example.org/docs/page.html").output, pages))


def test_identical_with_1_and_4_threads():
    data = pages() * 20
    one = rewrite_all(data, 1)
    four = rewrite_all(data, 4)
    assert one == four
    assert len(one) == len(data)


def test_the_gil_is_released_during_a_rewrite():
    # While one thread rewrites a large page, another thread runs Python
    # code: it would not if the rewrite held the GIL throughout.
    big = b"<a href=x>x</a>" * 400_000
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        # Let the counter start, then a long rewrite in this thread.
        before = ticks
        linkbase.rewrite(big, "http://h.example/", records=False)
        during = ticks - before
    finally:
        done.set()
        counter.join()
    assert during > 1000, f"the counter ran only {during} times during the rewrite"


def test_resolve_all_releases_the_gil_and_agrees():
    base = linkbase.Base("http://a/b/c/d;p?q")
    refs = ["g", "../g", "?y", "#s", "g;x=1/../y"] * 1000
    assert base.resolve_all(refs) == [base.resolve(r) for r in refs]


def test_lazy_links_read_from_4_threads_at_once_are_made_once():
    # report.links of one lazy report read by 4 threads together: the
    # second rewrite runs once (the others wait for it), and every thread
    # gets the same list, equal to the records kept in one pass.
    page = b'<a href="x.html">x</a><img src=i.png srcset="a.png 1x, b.png 2x">' * 2000
    result = linkbase.rewrite(page, "https://example.org/docs/page.html")
    kept = linkbase.rewrite(page, "https://example.org/docs/page.html", records=True).report.links
    start = threading.Barrier(4)

    def read(_):
        start.wait()
        return result.report.links

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        lists = list(pool.map(read, range(4)))
    assert all(l is lists[0] for l in lists)
    assert len(lists[0]) == len(kept) == 8000
    assert [(l.element, l.attribute, l.before, l.url) for l in lists[0]] == [
        (l.element, l.attribute, l.before, l.url) for l in kept
    ]
