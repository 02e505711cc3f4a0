#!/usr/bin/env python3
"""Real crawls made by other crawlers, each page judged in headless Chromium
as captured and from `linkbase offline`'s copy (issue 41, "Must show";
docs/offline.md, "Real crawls by other crawlers").

    real_crawls.py LINKBASE [--work DIR] [--json OUT.json]

The archives are the files of tests/offline/real/ (their origins and
licences in its README.md), each counted against ARCHIVES below (the
crawler, and the exact number of HTML pages it holds). For each archive,
`linkbase offline ARCHIVE -o COPY` makes the copy; then every HTML page of
the archive (a 200 response of type text/html) is opened in two headless
Chromiums side by side, both at a 1280x800 viewport, scripts running:

* **as captured**: the page's own URL, every http(s) request answered from
  the archive's records by URL (Fetch.fulfillRequest: the captured status,
  headers and payload, a revisit's payload from the record it refers to;
  a redirect is answered with its Location, which Chromium follows), every
  other request failed, as a replay system such as pywb shows it;
* **from the copy**: the page's file (the copy's urls.tsv), opened by
  file:, every http(s) request recorded and failed (the network cut; the
  host resolver and the proxy are dead as well).

Each page waits until the load event has fired, no request is in flight,
and the document's fonts are ready (events, not a clock; a watchdog of 60 s
for a hung browser). Then, for each page:

1. every resource the captured page loaded that comes from something
   written in its HTML or CSS (Chromium's initiator of the request is the
   parser or the browser, not a script) loads from the copy: the file the
   copy's urls.tsv names for its URL (or for one of its redirects) is
   among the files the copy's page loaded; no file: request of the copy
   fails, and none leaves the copy;
2. no URL the copy holds is requested from the network by the copy's page;
3. links (a[href], area[href], as Chromium resolves them, in document
   order, the same number on both sides): a link to a page the copy holds
   (or to a redirect ending at one) opens the file the copy's urls.tsv
   names for it (an existing file of the copy, with the same fragment);
4. the first screen (1280x800 screenshots, compared pixel by pixel with
   Pillow) differs in at most 2% of its pixels.

Resources a script requested (Chromium's initiator is a script) are counted
apart, in the report, as captured, as loaded from the copy and as asked of
the network by the copy (failed there), and judged by nothing: what a script builds from pieces cannot be made offline
(docs/offline.md, "What is left, and why").

Exit status 0 when every page of every archive passed and the archives and
pages are exactly as counted below; 1 otherwise (each failure one line).
"""
import argparse
import base64
import concurrent.futures
import gzip
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import Browser  # noqa: E402  (the DevTools pipe of the test site's check)

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "real")

# The archives of tests/offline/real/: file -> (crawler, HTML pages). A
# folder read is counted against exact figures (docs/development.md, "Rules
# every check follows"): a file added or removed changes this table.
ARCHIVES = {
    "pywb-iana.warc.gz": ("Internet Archive LiveWeb Warc Writer 1.0 (2014)", 16),
    "pywb-example-wget-1-14.warc.gz": ("GNU Wget 1.14", 1),
    "pywb-example-wpull.warc.gz": ("wpull", 1),
    "pywacz-example-iana.warc": ("ArchiveWeb.page 0.6.7 (warcio.js 1.4.6)", 6),
    "pywacz-example-collection-with-lists.warc": ("Webrecorder Platform 4.9.0", 6),
    "pywacz-valid_signed_example_1.wacz": ("Browsertrix Crawler (a signed WACZ)", 1),
}

VIEWPORT = (1280, 800)
MAX_PIXELS = 0.02  # the share of the first screen's pixels that may differ


# --- the archive's records ---------------------------------------------------


def warc_bytes(path):
    """The WARC files of an archive, each as bytes (a WACZ: its archive/*)."""
    if path.endswith(".wacz"):
        with zipfile.ZipFile(path) as z:
            return [
                maybe_gunzip(z.read(name))
                for name in sorted(z.namelist())
                if name.startswith("archive/")
            ]
    with open(path, "rb") as f:
        return [maybe_gunzip(f.read())]


def maybe_gunzip(data):
    # py-wacz's fixtures are gzip files named .warc: the bytes tell.
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def records(data):
    """Yield (WARC headers, block) of each record."""
    pos = 0
    while True:
        start = data.find(b"WARC/1.", pos)
        if start < 0:
            return
        end = data.find(b"\r\n\r\n", start)
        if end < 0:
            return
        headers = {}
        for line in data[start:end].decode("utf-8", "replace").split("\r\n")[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0"))
        yield headers, data[end + 4 : end + 4 + length]
        pos = end + 4 + length


def dechunk(body):
    out, pos = bytearray(), 0
    while True:
        eol = body.find(b"\r\n", pos)
        if eol < 0:
            raise ValueError("not chunked")
        size = int(body[pos:eol].split(b";")[0].strip() or b"x", 16)
        if size == 0:
            return bytes(out)
        out += body[eol + 2 : eol + 2 + size]
        pos = eol + 2 + size + 2


def decode(body, encoding):
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":
        import brotli  # PyPI (tests/offline/requirements-real.txt)

        return brotli.decompress(body)
    if encoding == "deflate":
        try:
            return zlib.decompress(body)
        except zlib.error:
            return zlib.decompress(body, -15)
    return body


class Archive:
    """URL -> (status, [(name, value)], payload): what a replay answers."""

    def __init__(self, path):
        self.responses = {}
        self.pages = []  # the HTML pages (200, text/html), in record order
        by_digest = {}
        revisits = []
        for data in warc_bytes(path):
            for headers, block in records(data):
                kind = headers.get("warc-type")
                if kind not in ("response", "revisit"):
                    continue
                url = headers.get("warc-target-uri", "").strip("<>")
                head, sep, body = block.partition(b"\r\n\r\n")
                if not head.startswith(b"HTTP/"):
                    continue
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split()[1])
                fields = []
                for line in lines[1:]:
                    k, _, v = line.partition(":")
                    fields.append((k.strip(), v.strip()))
                names = {k.lower(): v for k, v in fields}
                if kind == "revisit":
                    revisits.append((url, status, fields, headers))
                    continue
                if "chunked" in names.get("transfer-encoding", "").lower():
                    try:
                        body = dechunk(body)
                    except ValueError:
                        pass  # stored de-chunked (as linkbase notes it): as it is
                try:
                    body = decode(body, names.get("content-encoding", "").lower())
                except Exception:
                    pass
                fields = [
                    (k, v)
                    for k, v in fields
                    if k.lower() not in ("transfer-encoding", "content-encoding", "content-length")
                ]
                digest = headers.get("warc-payload-digest")
                if digest:
                    by_digest.setdefault(digest, body)
                if url not in self.responses:
                    self.responses[url] = (status, fields, body)
                    ctype = names.get("content-type", "").lower()
                    if status == 200 and ctype.startswith("text/html"):
                        self.pages.append(url)
        for url, status, fields, headers in revisits:
            if url in self.responses:
                continue
            body = by_digest.get(headers.get("warc-payload-digest"))
            if body is None:
                refers = headers.get("warc-refers-to-target-uri", "").strip("<>")
                if refers in self.responses:
                    body = self.responses[refers][2]
            if body is not None:
                fields = [
                    (k, v)
                    for k, v in fields
                    if k.lower() not in ("transfer-encoding", "content-encoding", "content-length")
                ]
                self.responses[url] = (status, fields, body)

    def final(self, url):
        """The URL that `url` leads to through the archive's redirects."""
        seen = set()
        while url in self.responses and url not in seen:
            seen.add(url)
            status, fields, _ = self.responses[url]
            location = next((v for k, v in fields if k.lower() == "location"), None)
            if not (300 <= status < 400 and location):
                break
            url = urllib.parse.urljoin(url, location)
        return url

    def answer(self, url):
        return self.responses.get(url) or self.responses.get(urllib.parse.urldefrag(url)[0])


# --- Chromium: one page, as captured or from the copy -------------------------

SETTLED = r"""new Promise(done => {
  const fonts = () => document.fonts.ready.then(() =>
    requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
  if (document.readyState === 'complete') fonts();
  else addEventListener('load', fonts);
})"""

COLLECT = r"""(() => ({
  location: location.href,
  title: document.title,
  links: [...document.querySelectorAll('a[href], area[href]')].map(a => a.href),
}))()"""


def open_page(browser, url, archive=None, watchdog=60):
    """Open `url` in a new tab of `browser`: each http(s) request answered
    from `archive` (None: failed). Returns facts, requests, blocked URLs and
    the screenshot (PNG bytes)."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
        "sessionId"
    ]
    requests, blocked = {}, []
    state = {"load": False, "inflight": set()}

    def on_event(msg):
        if msg.get("sessionId") != session:
            return
        m, p = msg["method"], msg.get("params", {})
        if m == "Fetch.requestPaused":
            u = p["request"]["url"]
            found = archive.answer(u) if archive else None
            if found is None:
                blocked.append(u)
                browser.send(
                    "Fetch.failRequest",
                    {"requestId": p["requestId"], "errorReason": "InternetDisconnected"},
                    session,
                )
            else:
                status, fields, body = found
                browser.send(
                    "Fetch.fulfillRequest",
                    {
                        "requestId": p["requestId"],
                        "responseCode": status,
                        "responseHeaders": [{"name": k, "value": v} for k, v in fields],
                        "body": base64.b64encode(body).decode(),
                    },
                    session,
                )
        elif m == "Network.requestWillBeSent":
            rid = p["requestId"]
            r = requests.setdefault(rid, {"chain": []})
            r["chain"].append(p["request"]["url"])
            r.update(
                url=p["request"]["url"],
                type=p.get("type"),
                frame=p.get("frameId"),
                initiator=p.get("initiator", {}).get("type"),
            )
            state["inflight"].add(rid)
        elif m == "Network.responseReceived":
            requests.setdefault(p["requestId"], {"chain": []})["status"] = p["response"]["status"]
        elif m == "Network.loadingFinished":
            requests.setdefault(p["requestId"], {"chain": []})["ok"] = True
            state["inflight"].discard(p["requestId"])
        elif m == "Network.loadingFailed":
            requests.setdefault(p["requestId"], {"chain": []})["error"] = p.get("errorText")
            state["inflight"].discard(p["requestId"])
        elif m == "Page.loadEventFired":
            state["load"] = True

    browser.call("Page.enable", session=session, on_event=on_event)
    browser.call("Network.enable", session=session, on_event=on_event)
    browser.call("Network.setCacheDisabled", {"cacheDisabled": True}, session, on_event)
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False},
        session,
        on_event,
    )
    browser.call(
        "Fetch.enable",
        {"patterns": [{"urlPattern": "http://*"}, {"urlPattern": "https://*"}]},
        session,
        on_event,
    )
    nav = browser.call("Page.navigate", {"url": url}, session, on_event)
    main_frame = nav.get("frameId")
    deadline = time.time() + watchdog
    while not (state["load"] and not state["inflight"]):
        if time.time() > deadline:
            raise RuntimeError(f"{url}: not loaded after {watchdog} s")
        browser.pump(on_event, 0.05)
    browser.call(
        "Runtime.evaluate",
        {"expression": SETTLED, "awaitPromise": True},
        session,
        on_event,
        timeout=watchdog,
    )
    facts = browser.call(
        "Runtime.evaluate", {"expression": COLLECT, "returnByValue": True}, session, on_event
    )["result"].get("value") or {}
    shot = browser.call(
        "Page.captureScreenshot",
        {
            "format": "png",
            "clip": {"x": 0, "y": 0, "width": VIEWPORT[0], "height": VIEWPORT[1], "scale": 1},
        },
        session,
        on_event,
        timeout=watchdog,
    )["data"]
    browser.call("Target.closeTarget", {"targetId": target}, on_event=on_event)
    return {
        "facts": facts,
        "requests": list(requests.values()),
        "blocked": blocked,
        "main_frame": main_frame,
        "screenshot": base64.b64decode(shot),
    }


def pixel_share(png_a, png_b):
    """The share of pixels that differ between two screenshots."""
    from PIL import Image, ImageChops

    a = Image.open(io.BytesIO(png_a)).convert("RGB")
    b = Image.open(io.BytesIO(png_b)).convert("RGB")
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    return diff.histogram()[255] / (a.size[0] * a.size[1])


# --- the judgement ------------------------------------------------------------


def file_path(url):
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path)


def defrag(url):
    return urllib.parse.urldefrag(url)[0]


def make_copy(name, linkbase, work):
    """`linkbase offline` of the archive `name`: (copy folder, {URL: its file})."""
    copy = os.path.join(work, name + ".copy")
    shutil.rmtree(copy, ignore_errors=True)
    subprocess.run([linkbase, "offline", os.path.join(REAL, name), "-o", copy, "--quiet"], check=True)
    held = {}  # URL -> the copy's file (absolute)
    with open(os.path.join(copy, "urls.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            url, _, rel = line.rstrip("\n").partition("\t")
            held[url] = os.path.realpath(os.path.join(copy, rel))
    return copy, held


def judge_archive(name, archive, copy, held, work, capture, copy_browser, beside, only=None):
    """Judge each HTML page of `archive` (or those of `only`) against the
    copy: (the report's row, the failures)."""
    root = os.path.realpath(copy)
    pages = set(archive.pages)
    failures = []
    row = {
        "archive": name, "crawler": ARCHIVES[name][0], "pages": 0,
        "resources_captured": 0, "resources_copy": 0,
        "script_captured": 0, "script_copy": 0, "script_network": 0,
        "links_held": 0, "pixels": [],
    }

    def fail(page, what):
        failures.append(f"{name}: {page}: {what}")

    for url in only or archive.pages:
        if url not in held:
            fail(url, "a page of the archive with no file in the copy (urls.tsv)")
            continue
        copy_url = "file://" + urllib.parse.quote(held[url])
        pending = beside.submit(open_page, capture, url, archive)
        b = open_page(copy_browser, copy_url)
        a = pending.result()
        row["pages"] += 1
        fa, fb = a["facts"], b["facts"]
        if fa.get("title") != fb.get("title"):
            fail(url, f"the copy's page is titled {fb.get('title')!r}, not {fa.get('title')!r}")
        # 1. resources from the HTML and CSS, and those a script requested
        copy_files, copy_script = set(), set()
        for r in b["requests"]:
            u = r.get("url", "")
            if r.get("frame") == b["main_frame"] and r.get("type") == "Document":
                continue
            if u.startswith("file:"):
                p = os.path.realpath(file_path(u))
                if not p.startswith(root + os.sep):
                    fail(url, f"{r.get('type')} {u} is outside the copy")
                elif r.get("error") or not r.get("ok"):
                    if r.get("initiator") != "script":
                        fail(url, f"{r.get('type')} {u} missing ({r.get('error')})")
                else:
                    (copy_script if r.get("initiator") == "script" else copy_files).add(p)
        by_script = {r.get("url") for r in b["requests"] if r.get("initiator") == "script"}
        for u in b["blocked"]:
            if u in by_script:
                row["script_network"] += 1  # counted apart, as every script's request
            elif defrag(u) in held:
                fail(url, f"{u} is in the copy but was requested from the network")
        captured, captured_script = set(), set()
        for r in a["requests"]:
            u = r.get("url", "")
            if r.get("frame") == a["main_frame"] and r.get("type") == "Document":
                continue
            if not u.startswith(("http:", "https:")) or not r.get("ok"):
                continue
            if not 200 <= r.get("status", 0) < 300:
                continue
            key = tuple(defrag(c) for c in r["chain"])
            (captured_script if r.get("initiator") == "script" else captured).add(key)
        for chain in sorted(captured):
            files = {held[c] for c in chain if c in held}
            if not files:
                fail(url, f"{chain[-1]} loaded as captured, but the copy has no file for it")
            elif not files & copy_files:
                fail(url, f"{chain[-1]} loaded as captured, not from the copy ({sorted(files)[0]})")
        row["resources_captured"] += len(captured)
        row["resources_copy"] += sum(
            1 for chain in captured if {held[c] for c in chain if c in held} & copy_files
        )
        row["script_captured"] += len(captured_script)
        row["script_copy"] += sum(
            1 for chain in captured_script
            if {held[c] for c in chain if c in held} & (copy_script | copy_files)
        )
        # 3. links to held pages open their files
        la, lb = fa.get("links", []), fb.get("links", [])
        if len(la) != len(lb):
            fail(url, f"{len(lb)} links in the copy, {len(la)} as captured")
        else:
            for u, f in zip(la, lb):
                # A link to a page, or to a redirect that ends at one.
                if defrag(u) not in held or archive.final(defrag(u)) not in pages:
                    continue
                row["links_held"] += 1
                frag = urllib.parse.urldefrag(u)[1]
                if not f.startswith("file:"):
                    fail(url, f"the link to the held page {u} leads to {f}")
                    continue
                p = os.path.realpath(file_path(defrag(f)))
                if p != held[defrag(u)] or not os.path.isfile(p):
                    fail(url, f"the link to the held page {u} leads to {f}, not {held[defrag(u)]}")
                elif urllib.parse.urldefrag(f)[1] != frag:
                    fail(url, f"the link {u} lost its fragment: {f}")
        # 4. the first screen
        share = pixel_share(a["screenshot"], b["screenshot"])
        row["pixels"].append(share)
        if share > MAX_PIXELS:
            fail(url, f"the first screen differs in {share:.2%} of its pixels (at most {MAX_PIXELS:.0%})")
        # Both screens kept in the work folder, to look at.
        shots = os.path.join(work, "screens")
        os.makedirs(shots, exist_ok=True)
        stem = os.path.join(shots, f"{name}-{row['pages']}")
        for side, shot in (("captured", a["screenshot"]), ("copy", b["screenshot"])):
            with open(f"{stem}-{side}.png", "wb") as f:
                f.write(shot)
    row["failures"] = len(failures)
    return row, failures


def control(linkbase, work, capture, copy_browser, beside):
    """The check must fail on a copy that does not work: the IANA crawl's
    copy with its home page's file replaced by the page as captured (its
    links to /_css/, /_img/ and /_js/ left as the site has them). Returns
    the failures it must find (none: the check cannot fail)."""
    name = "pywb-iana.warc.gz"
    archive = Archive(os.path.join(REAL, name))
    copy, held = make_copy(name, linkbase, os.path.join(work, "control"))
    home, numbers = "http://www.iana.org/", "http://www.iana.org/numbers"
    with open(held[home], "wb") as f:
        f.write(archive.responses[home][2])
    # And a page whose links all stay on the web (a <base href> of its URL).
    with open(held[numbers], "wb") as f:
        f.write(archive.responses[numbers][2].replace(b"<head>", b'<head><base href="%s">' % numbers.encode(), 1))
    _, failures = judge_archive(
        name, archive, copy, held, os.path.join(work, "control"), capture, copy_browser, beside,
        only=[home, numbers],
    )
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("linkbase")
    ap.add_argument("--work")
    ap.add_argument("--json")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="real-crawls-")
    os.makedirs(work, exist_ok=True)
    found = sorted(
        n for n in os.listdir(REAL) if n != "README.md" and not n.startswith("LICENSE-")
    )
    failures = []
    if found != sorted(ARCHIVES):
        failures.append(f"tests/offline/real holds {found}, where ARCHIVES lists {sorted(ARCHIVES)}")
    capture, copy_browser = Browser(True), Browser(True)
    beside = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    report = []
    try:
        for name in ARCHIVES:
            archive = Archive(os.path.join(REAL, name))
            copy, held = make_copy(name, args.linkbase, work)
            row, failed = judge_archive(
                name, archive, copy, held, work, capture, copy_browser, beside
            )
            if row["pages"] != ARCHIVES[name][1]:
                failed.append(
                    f"{name}: {row['pages']} HTML pages judged, where ARCHIVES says {ARCHIVES[name][1]}"
                )
            report.append(row)
            failures += failed
        # The check can fail: on a spoiled copy it finds what is wrong.
        spoiled = control(args.linkbase, work, capture, copy_browser, beside)
        wanted = (
            "/: http://www.iana.org/_css/2013.1/screen.css loaded as captured, not from the copy",
            "/: Stylesheet file:///_css/2013.1/screen.css is outside the copy",
            "/: the link to the held page http://www.iana.org/domains leads to file:///domains,",
            "/numbers: http://www.iana.org/_css/2013.1/screen.css is in the copy but was requested from the network",
            "/numbers: the link to the held page http://www.iana.org/about leads to http://www.iana.org/about",
        )
        missed = [w for w in wanted if not any(w in line for line in spoiled)]
        if missed:
            failures.append(f"the control (pages of the copy as captured) was not failed on: {missed}")
        else:
            print(f"control: a copy with two pages as captured fails ({len(spoiled)} failures)")
    finally:
        capture.close()
        copy_browser.close()
        beside.shutdown()
    print("| archive | crawler | pages | resources loaded as captured / from the copy "
          "| by scripts, as captured / from the copy / asked of the network by the copy "
          "| links to held pages "
          "| pixels differing, max / median | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    for r in report:
        px = r["pixels"] or [0.0]
        print(f"| {r['archive']} | {r['crawler']} | {r['pages']} "
              f"| {r['resources_captured']} / {r['resources_copy']} "
              f"| {r['script_captured']} / {r['script_copy']} / {r['script_network']} "
              f"| {r['links_held']} "
              f"| {max(px):.2%} / {statistics.median(px):.2%} "
              f"| {'pass' if not r['failures'] else 'FAIL'} |")
    for line in failures:
        print(line)
    total = sum(r["pages"] for r in report)
    print(f"real crawls: {len(report)} archives, {total} pages judged, {len(failures)} failures")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"archives": report, "failures": failures}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
