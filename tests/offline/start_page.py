#!/usr/bin/env python3
"""Check the start page of an offline copy of a WACZ (issue 28):

    start_page.py ARCHIVE.wacz COPY

Its page list (pages/pages.jsonl, WACZ 1.1.1, read from the zip here) must be
on the start page COPY/index.html and the further pieces it links
(index-2.html, ...), in its order, each page's link opening (as a browser
reads the link from disk: joined to the piece's file: URL, escapes
decoded) the file COPY/urls.tsv maps its URL to, which exists. An empty
page list, or a start page that opens no page, is a failure. Python
standard library only. Exit status 0, or 1 with each failure on a line.
"""
import html.parser
import json
import os
import re
import sys
import urllib.parse
import zipfile


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.extend(v for k, v in attrs if k == "href")


def main():
    wacz, copy = sys.argv[1:3]
    with zipfile.ZipFile(wacz) as z:
        lines = z.read("pages/pages.jsonl").decode().splitlines()
    pages = [json.loads(line) for line in lines[1:] if line.strip()]
    if not pages:
        # An empty list would pass every check below: the crawl's pages must be there.
        print("start page: pages/pages.jsonl lists no page")
        return 1
    with open(os.path.join(copy, "urls.tsv"), encoding="utf-8") as f:
        rows = f.read().splitlines()
    files = dict(row.split("\t") for row in rows[1:])
    # The pieces, in order: index.html, then each index-N.html it links.
    parser = Links()
    with open(os.path.join(copy, "index.html"), encoding="utf-8") as f:
        parser.feed(f.read())
    further = [h for h in parser.hrefs if re.fullmatch(r"index-[0-9]+\.html", h)]
    pieces = list(dict.fromkeys(["index.html"] + further))
    opened = []
    for piece in pieces:
        parser = Links()
        with open(os.path.join(copy, piece), encoding="utf-8") as f:
            parser.feed(f.read())
        base = "file://" + urllib.parse.quote(os.path.abspath(copy)) + "/" + piece
        for href in parser.hrefs:
            url = urllib.parse.urlsplit(urllib.parse.urljoin(base, href))
            if url.scheme == "file":
                path = os.path.relpath(urllib.parse.unquote(url.path), os.path.abspath(copy))
                if path not in pieces and path != "urls.tsv":
                    opened.append(path)
    failures = []
    if not pages:
        failures.append(f"{wacz}: its page list is empty")
    if not opened:
        failures.append("the start page opens no page of the copy")
    at = 0
    for page in pages:
        want = files.get(page["url"])
        if want is None:
            failures.append(f"{page['url']}: not in urls.tsv")
            continue
        if not os.path.isfile(os.path.join(copy, want)):
            failures.append(f"{page['url']}: {want} does not exist")
        try:
            at = opened.index(want, at) + 1
        except ValueError:
            failures.append(f"{page['url']}: the start page has no link to {want} (in order)")
    for failure in failures:
        print(f"start page: {failure}")
    print(f"start page: {len(pages)} pages of pages.jsonl, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
