"""``linkbase.links`` against a hand count: every place of a page that holds
a URL, with its resolved URL, base, rule and span."""

import linkbase

PAGE = (
    '<!DOCTYPE html><html><head>'
    '<base href="/site/">'
    '<meta http-equiv="refresh" content="5; url=next.html">'
    '<link rel=stylesheet href="main.css">'
    "<style>@import 'print.css'; body { background: url(bg.png) }</style>"
    "</head><body>"
    '<a href="a.html">a</a>'
    '<img src="i.png" srcset="i-1x.png 1x, i-2x.png 2x">'
    '<p style="background-image: url(&quot;p.png&quot;)">p</p>'
    '<a href="#top">top</a>'
    '<a href="https://other.example/x">x</a>'
    '<form action="send"></form>'
    "</body></html>"
)

URL = "http://h.example/docs/page.html"

# By hand: the place, the value, what it stands for, against which base.
EXPECTED = [
    ("base", "href", "/site/", "http://h.example/site/", "http://h.example/docs/page.html", "retrieval"),
    ("meta", "content", "next.html", "http://h.example/site/next.html", "http://h.example/site/", "embedded"),
    ("link", "href", "main.css", "http://h.example/site/main.css", "http://h.example/site/", "embedded"),
    ("style", "url()", "print.css", "http://h.example/site/print.css", "http://h.example/site/", "embedded"),
    ("style", "url()", "bg.png", "http://h.example/site/bg.png", "http://h.example/site/", "embedded"),
    ("a", "href", "a.html", "http://h.example/site/a.html", "http://h.example/site/", "embedded"),
    ("img", "src", "i.png", "http://h.example/site/i.png", "http://h.example/site/", "embedded"),
    ("img", "srcset", "i-1x.png", "http://h.example/site/i-1x.png", "http://h.example/site/", "embedded"),
    ("img", "srcset", "i-2x.png", "http://h.example/site/i-2x.png", "http://h.example/site/", "embedded"),
    ("p", "style", "p.png", "http://h.example/site/p.png", "http://h.example/site/", "embedded"),
    ("a", "href", "#top", None, "http://h.example/site/", "embedded"),
    ("a", "href", "https://other.example/x", "https://other.example/x", "http://h.example/site/", "embedded"),
    ("form", "action", "send", "http://h.example/site/send", "http://h.example/site/", "embedded"),
]


def test_every_link_of_a_page_by_hand():
    got = [
        (l.element, l.attribute, l.before, l.url, l.base, l.rule)
        for l in linkbase.links(PAGE.encode(), URL)
    ]
    assert sorted(got, key=repr) == sorted(EXPECTED, key=repr)
    assert len(got) == 13


def test_outcomes():
    outcomes = {l.before: l.outcome for l in linkbase.links(PAGE, URL)}
    assert outcomes["#top"] == "same-document"
    assert outcomes["https://other.example/x"] == "absolute"
    assert outcomes["a.html"] == "rewritten"


def test_spans_are_where_the_attribute_values_are_written():
    data = PAGE.encode()
    for link in linkbase.links(data, URL):
        if link.element in ("style",):
            assert link.span is None  # <style> text: not known
            continue
        start, end = link.span
        written = data[start:end].decode()
        if link.attribute == "srcset":
            assert written == "i-1x.png 1x, i-2x.png 2x"
        elif link.attribute == "style":
            assert written == "background-image: url(&quot;p.png&quot;)"
        elif link.element == "meta":
            assert written == "5; url=next.html"
        else:
            assert written == link.before


def test_spans_of_a_str_count_characters():
    text = '<p title="é€😀">x</p><a href="ü.html">ü</a>'
    (link,) = linkbase.links(text, "http://h.example/")
    start, end = link.span
    assert text[start:end] == "ü.html"
    data = text.encode()
    (link,) = linkbase.links(data, "http://h.example/")
    start, end = link.span
    assert data[start:end] == "ü.html".encode()


def test_links_is_an_iterator_and_rewrites_nothing():
    it = linkbase.links(b"<a href=x>", "http://h.example/")
    assert iter(it) is it
    assert next(it).url == "http://h.example/x"


def test_no_base():
    (link,) = linkbase.links(b"<a href=x>")
    assert (link.url, link.base, link.rule, link.outcome) == (None, None, None, "no-base")


def test_mime_parts_and_headers():
    message = (
        "Content-Type: multipart/related; boundary=b\n\n--b\n"
        "Content-Type: text/html\nContent-Location: http://h.example/dir/page.html\n\n"
        "<a href=x.html>x</a>\n--b\n"
        "Content-Type: text/css\nContent-Location: style/s.css\n\n"
        "p { background: url(bg.png) }\n--b--\n"
    )
    got = [(l.part, l.element, l.attribute, l.url, l.rule) for l in linkbase.links(message.encode())]
    # Part 2's Content-Location is relative and nothing encloses a base
    # (RFC 2557 5.4): it and the sheet's url() keep no base.
    assert got == [
        ("1", "a", "href", "http://h.example/dir/x.html", "content-location"),
        ("2", "header", "Content-Location", None, None),
        ("2", "css", "url()", None, None),
    ]
