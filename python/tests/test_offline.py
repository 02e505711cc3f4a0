"""Offline copies from Python (docs/offline.md): ``OfflineCopy`` and
``offline_mirror``. The expected link texts are checked by reading them as
a browser does from disk (``urllib.parse.urljoin`` against the document's
``file:`` URL), not copied from the output."""

import urllib.parse

import linkbase
import pytest


def opens(document_file: str, value: str) -> str:
    """The file (relative to the copy) a browser opens for ``value`` in the
    document at ``document_file``."""
    base = "file:///copy/" + urllib.parse.quote(document_file)
    url = urllib.parse.urlsplit(urllib.parse.urljoin(base, value))
    assert url.query == "", value
    return urllib.parse.unquote(url.path)[len("/copy/"):]


def test_a_copy_names_files_and_rewrites_links_to_them():
    copy = linkbase.OfflineCopy()
    assert copy.add("http://h.test/", "html")
    assert copy.add("http://h.test/page.php?id=1", media_type="text/html; charset=utf-8")
    assert copy.add("http://h.test/img/a b.png", head=b"\x89PNG")
    assert copy.add_redirect("http://h.test/old", "http://h.test/page.php?id=1")
    assert not copy.add("http://h.test/", "html")  # held already
    assert copy.file("http://h.test/page.php?id=1") == "h.test/page.php?id=1.html"
    assert copy.target("http://h.test/old") == "h.test/page.php?id=1.html"
    with pytest.raises(ValueError):
        copy.add("http://h.test/late", "html")
    page = (
        '<a href="/page.php?id=1#t">p</a><img src="img/a%20b.png">'
        '<a href="old">old</a><a href="/missing">m</a><a href="#top">t</a>'
    )
    out, report = copy.rewrite(page, "h.test/index.html", "http://h.test/")
    assert out == (
        '<a href="page.php%3Fid=1.html#t">p</a><img src="img/a%20b.png">'
        '<a href="page.php%3Fid=1.html">old</a><a href="http://h.test/missing">m</a>'
        '<a href="#top">t</a>'
    )
    assert opens("h.test/index.html", "page.php%3Fid=1.html#t") == "h.test/page.php?id=1.html"
    assert opens("h.test/index.html", "img/a%20b.png") == "h.test/img/a b.png"
    assert [l.outcome for l in report.links].count("local") == 3
    again, _ = copy.rewrite(out, "h.test/index.html", "http://h.test/")
    assert again == out
    assert copy.map().splitlines()[0] == "#url\tfile"


def test_a_mirror_folder_made_offline(tmp_path):
    site = tmp_path / "site" / "h.test"
    site.mkdir(parents=True)
    (site / "index.html").write_text(
        '<link rel=stylesheet href="style.css?v=2"><a href="page.php?id=1">p</a>'
        '<a href="https://elsewhere.test/">e</a>'
    )
    (site / "style.css?v=2.css").write_text("body { background: url(/img.png) }")
    (site / "page.php?id=1.html").write_text('<a href="/">home</a>')
    (site / "img.png").write_bytes(b"\x89PNG\r\n")
    before = {p: p.read_bytes() for p in site.rglob("*")}
    out = tmp_path / "copy"
    files, rewritten = linkbase.offline_mirror(tmp_path / "site", "http://h.test/", out)
    assert (files, rewritten) == (4, 3)
    assert {p: p.read_bytes() for p in site.rglob("*")} == before
    index = (out / "h.test/index.html").read_text()
    assert index == (
        '<link rel=stylesheet href="style.css%3Fv=2.css"><a href="page.php%3Fid=1.html">p</a>'
        '<a href="https://elsewhere.test/">e</a>'
    )
    assert opens("h.test/index.html", "style.css%3Fv=2.css") == "h.test/style.css?v=2.css"
    assert (out / "h.test/style.css?v=2.css").read_text() == "body { background: url(img.png) }"
    assert (out / "h.test/img.png").read_bytes() == b"\x89PNG\r\n"
    assert "http://h.test/page.php?id=1\th.test/page.php?id=1.html" in (out / "urls.tsv").read_text()
    # A run over the copy changes nothing.
    twice = tmp_path / "twice"
    linkbase.offline_mirror(out, "http://h.test/", twice)
    for path in out.rglob("*"):
        if path.is_file():
            assert (twice / path.relative_to(out)).read_bytes() == path.read_bytes(), path
