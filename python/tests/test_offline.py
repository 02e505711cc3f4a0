"""Offline copies from Python (docs/offline.md): ``OfflineCopy``,
``offline_mirror`` and ``offline_archive``. The expected link texts are checked by reading them as
a browser does from disk (``urllib.parse.urljoin`` against the document's
``file:`` URL), not copied from the output."""

import html
import io
import json
import urllib.parse
import zipfile

import linkbase
import pytest

from conftest import FIXTURES, need


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
    summary = linkbase.offline_mirror(tmp_path / "site", "http://h.test/", out)
    assert (summary.files, summary.documents) == (4, 3)
    # The links, by hand: in index.html the style sheet and the page open
    # their files, the other host's URL is left absolute; the style sheet's
    # /img.png and the page's / open their files.
    assert (summary.counts.rewritten, summary.counts.left, summary.counts.failed) == (4, 1, 0)
    assert summary.problems == [] and not summary.has_errors
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


def test_a_url_prefix_is_refused_as_the_cli_refuses_it(tmp_path):
    # Issue 30: the library's one rule for a URL prefix (options::check_url_prefix),
    # in the words of `--url-prefix` (tests/integration/cli/rewrite.rs): no query or
    # fragment, an empty one refused (with offline_mirror's own remedy), a
    # base check_base accepts.
    (tmp_path / "site").mkdir()
    for prefix, why in [
        ("https://example.org/?q=1", "https://example.org/?q=1: must be a URL without query or "
                                     "fragment, e.g. https://example.org/docs/"),
        ("https://example.org/#top", "https://example.org/#top: must be a URL without query or "
                                     "fragment, e.g. https://example.org/docs/"),
        (" ", "is empty: give the URL the site folder was crawled from, as in "
              "http://127.0.0.1:8000/"),
        ("http://", "http://: no host: a http: URL needs one, as in http://example.org/docs/"),
    ]:
        with pytest.raises(linkbase.BaseError) as e:
            linkbase.offline_mirror(tmp_path / "site", prefix, tmp_path / "out")
        assert str(e.value) == f"url_prefix {why}"
    assert not (tmp_path / "out").exists()


# ---- offline_archive: web archives made offline ------------------------------

ARCHIVES = FIXTURES / "offline" / "archives"


def url_map(out):
    """``out/urls.tsv`` as a dict (URL -> file)."""
    lines = (out / "urls.tsv").read_text().splitlines()
    assert lines[0] == "#url\tfile"
    return dict(line.split("\t") for line in lines[1:])


def write_warc(path):
    """A WARC written record by record by warcio: a page, a style sheet
    captured twice (the second time a revisit by ``WARC-Refers-To``), an
    image, a 301 to a page, and a ``resource`` record."""
    warcio = need("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    page = (
        b'<!DOCTYPE html><title>Home</title><link rel=stylesheet href="a.css">'
        b'<img src="/img.png"><a href="old">old</a><a href="notes.txt">notes</a>'
        b'<a href="/missing">missing</a><a href="#top">top</a>'
    )
    css = b"body { background: url(img.png) }"
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True, warc_version="1.1")

        def response(url, date, status, body, ctype, extra=()):
            http = StatusAndHeaders(status, [("Content-Type", ctype)] + list(extra), protocol="HTTP/1.1")
            rec = w.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                       warc_headers_dict={"WARC-Date": date})
            w.write_record(rec)
            return rec.rec_headers


        response("http://t.test/", "2024-01-01T00:00:00Z", "200 OK", page, "text/html; charset=utf-8")
        css_headers = response("http://t.test/a.css", "2024-01-01T00:00:00Z", "200 OK", css, "text/css")
        revisit = w.create_revisit_record(
            "http://t.test/a.css", digest=css_headers.get_header("WARC-Payload-Digest"), refers_to_uri="http://t.test/a.css",
            refers_to_date="2024-01-01T00:00:00Z",
            http_headers=StatusAndHeaders("304 Not Modified", [], protocol="HTTP/1.1"),
        )
        revisit.rec_headers.replace_header("WARC-Date", "2024-06-01T00:00:00Z")
        revisit.rec_headers.add_header("WARC-Refers-To", css_headers.get_header("WARC-Record-ID"))
        w.write_record(revisit)
        response("http://t.test/img.png", "2024-01-01T00:00:00Z", "200 OK", b"\x89PNG\r\n\x1a\n", "image/png")
        response("http://t.test/old", "2024-01-01T00:00:00Z", "301 Moved Permanently", b"",
                 "text/html", [("Location", "/new.html")])
        response("http://t.test/new.html", "2024-01-01T00:00:00Z", "200 OK", b"<title>New</title>",
                 "text/html")
        notes = w.create_warc_record("http://t.test/notes.txt", "resource",
                                     payload=io.BytesIO(b"notes\n"), warc_content_type="text/plain")
        w.write_record(notes)
    # What warcio reads back: the records by type.
    from warcio.archiveiterator import ArchiveIterator

    types = {}
    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            types[record.rec_type] = types.get(record.rec_type, 0) + 1
    return types, css


def test_a_warc_written_by_warcio_made_offline(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    types, css = write_warc(warc)
    before = warc.read_bytes()
    out = tmp_path / "copy"
    summary = linkbase.offline_archive([warc], out)
    assert summary.record_types == types
    assert summary.records == sum(types.values())
    assert summary.problems == [] and not summary.has_errors
    # Five URLs with a payload (the revisit is a.css's latest capture, its
    # payload the original's), one redirect, the two HTML captures listed.
    assert (summary.files, summary.redirects, summary.pages) == (5, 1, 2)
    assert summary.documents == 3  # two pages and the style sheet
    # The home page's a.css, img.png, old, notes.txt (files of the copy)
    # and /missing (made absolute), the style sheet's img.png; #top left.
    assert (summary.counts.rewritten, summary.counts.left, summary.counts.failed) == (6, 1, 0)
    files = url_map(out)
    # The naming rule (docs/offline.md): a directory URL is index.html, a
    # 301's own name is a page (old.html), a link to it opens its target.
    assert files["http://t.test/"] == "t.test/index.html"
    assert files["http://t.test/old"] == files["http://t.test/new.html"] == "t.test/new.html"
    # The revisit's payload is its original's (img.png is held: relative).
    assert (out / files["http://t.test/a.css"]).read_bytes() == css
    assert (out / files["http://t.test/notes.txt"]).read_bytes() == b"notes\n"
    assert (out / files["http://t.test/img.png"]).read_bytes() == b"\x89PNG\r\n\x1a\n"
    assert "http://t.test/missing" not in files
    # Each link as a browser reads it from disk.
    home = (out / "t.test/index.html").read_text()
    hrefs = dict(
        (value, opens("t.test/index.html", value))
        for value in ["a.css", "img.png", "new.html", "notes.txt"]
    )
    assert hrefs == {
        "a.css": files["http://t.test/a.css"],
        "img.png": files["http://t.test/img.png"],
        "new.html": files["http://t.test/new.html"],
        "notes.txt": files["http://t.test/notes.txt"],
    }
    for written in ['href="a.css"', 'src="img.png"', 'href="new.html">old', 'href="notes.txt"',
                    'href="http://t.test/missing"', 'href="#top"']:
        assert written in home, (written, home)
    refresh = (out / "t.test/old.html").read_text()
    assert 'http-equiv="refresh" content="0; url=new.html"' in refresh
    start = (out / "index.html").read_text()
    assert 'href="t.test/index.html"' in start and 'href="t.test/new.html"' in start
    assert warc.read_bytes() == before
    # Two runs give the same bytes; a folder that is not empty is refused.
    again = tmp_path / "again"
    linkbase.offline_archive([str(warc)], again)
    for path in out.rglob("*"):
        if path.is_file():
            assert (again / path.relative_to(out)).read_bytes() == path.read_bytes(), path
    with pytest.raises(ValueError, match="not an empty folder"):
        linkbase.offline_archive([warc], out)
    with pytest.raises(ValueError, match="not a timestamp"):
        linkbase.offline_archive([warc], tmp_path / "x", at="yesterday")


def expected_rows():
    """fixtures/offline/archives/expected.tsv: what each URL of the capture
    fixtures must be, written by hand from the rules."""
    rows = []
    for line in (ARCHIVES / "expected.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            url, at, what, value = line.split("\t")
            rows.append((url, None if at == "-" else at, what, value))
    return rows


@pytest.mark.parametrize("archive", ["captures.warc.gz", "captures.wacz"])
@pytest.mark.parametrize("at", [None, "20240115"])
def test_the_capture_fixtures_made_offline(tmp_path, archive, at):
    out = tmp_path / "copy"
    summary = linkbase.offline_archive([ARCHIVES / archive], out, at=at)
    # The revisit whose original is in no archive is the one error.
    errors = [p for p in summary.problems if p.severity == "error"]
    assert len(errors) == 1, summary.problems
    assert "orphan.css" in errors[0].message
    assert summary.has_errors
    files = url_map(out)
    # The latest capture's rows, and at `at` its own rows where it has them
    # (the other URLs have one capture, or captures with one payload).
    rows = {url: (what, value) for url, when, what, value in expected_rows() if when is None}
    rows.update({url: (what, value) for url, when, what, value in expected_rows()
                 if when is not None and when == at})
    for url, (what, value) in rows.items():
        if what == "file":
            assert value in (out / files[url]).read_text(errors="replace"), url
        elif what == "redirect":
            assert files[url] == files[value], url
        else:
            assert url not in files, url
    if archive.endswith(".wacz"):
        # The start page lists the WACZ's pages.jsonl, in its order, then
        # the page it lacks (page.html); each by its own <title>.
        with zipfile.ZipFile(ARCHIVES / archive) as z:
            listed = [json.loads(l) for l in z.read("pages/pages.jsonl").splitlines()[1:]]
        assert "http://example.test/page.html" not in [p["url"] for p in listed]
        assert summary.pages == len(listed) + 1
        start = (out / "index.html").read_text()
        urls = [p["url"] for p in listed] + ["http://example.test/page.html"]
        positions = [start.index(f'<a href="{html.escape(files[url])}">') for url in urls]
        assert positions == sorted(positions)
        assert '<a href="example.test/c.html">End of the chain</a>' in start


def test_a_page_without_html_in_its_name_gets_it_in_the_copy(tmp_path):
    # wget without -E saves /page.php?id=1 (served as text/html) as
    # page.php?id=1: from disk a browser would not read it as HTML. The copy
    # names it as wget -E would, and links to the new name.
    site = tmp_path / "site" / "h.test"
    site.mkdir(parents=True)
    (site / "index.html").write_text('<a href="page.php?id=1">p</a>')
    (site / "page.php?id=1").write_text('<!DOCTYPE html><a href="/">home</a>')
    out = tmp_path / "copy"
    summary = linkbase.offline_mirror(tmp_path / "site", "http://h.test/", out)
    assert (summary.files, summary.documents) == (2, 2)
    assert sorted(p.name for p in (out / "h.test").iterdir()) == ["index.html", "page.php?id=1.html"]
    assert (out / "h.test/index.html").read_text() == '<a href="page.php%3Fid=1.html">p</a>'
    assert opens("h.test/index.html", "page.php%3Fid=1.html") == "h.test/page.php?id=1.html"
    assert (out / "h.test/page.php?id=1.html").read_text() == '<!DOCTYPE html><a href="index.html">home</a>'
