#!/usr/bin/env python3
"""Open an offline copy of a crawl in headless Chromium with the network off,
page by page beside the live site, and check that it works (issue 28).

    check.py --warc CRAWL.warc.gz --live URL --copy-root DIR --copy-start FILE
             [--max-pages N] [--json OUT.json] [--label NAME]

Python standard library only; Chromium (Debian `chromium`, or $LINKBASE_CHROMIUM)
is driven over the DevTools protocol on a pipe (--remote-debugging-pipe).

What the crawl holds comes from its WARC (what wget fetched): every 200
response is held; a 3xx is held when its chain of Locations ends at a held
200. Two browsers run side by side:

* the *live* one reaches 127.0.0.1 only (every other host fails to resolve),
  and loads each page from the server the crawl was made from;
* the *offline* one reaches nothing: every http(s) request is intercepted
  (Fetch domain), recorded and aborted, and the browser's proxy is a dead port
  with loopback not bypassed, so nothing that escapes interception loads either.

Starting from (--live, --copy-start), each pair (live URL, copy file) is
opened in both, and:

1. the same page opened: the final documents (after HTTP redirects live and
   whatever the copy does for them, e.g. a meta refresh) have the same title;
2. links (`a[href]`, `area[href]`, as Chromium resolves them, in document
   order; the same number on both sides): a link whose URL the crawl holds
   leads to a file:// URL inside the copy whose file exists, with the same
   fragment, and is followed (a new pair), and one URL always leads to one
   file; a same-document link stays one; every other link is the live URL,
   absolute;
3. sub-resources (every request but the page's own: images with the srcset
   candidate chosen, style sheets and their @imports, url() and image-set()
   backgrounds, SVG images, scripts, iframes): no file:// request fails, none
   leaves the copy, no held URL is requested from the network, and the copy
   loads from files as many distinct resources as the live page loaded held
   URLs, with the same bytes for every image and script (style sheets and
   frames, which the copy rewrites, by count).

Scripts do not run (Emulation.setScriptExecutionDisabled, on both sides):
the check is of the copy as its HTML and CSS have it (what a script builds
cannot be made offline, issue 28); each `<script src>` must be the held
script's file, byte for byte, or the absolute URL of one not held.

With --cases FILE (lines `CASE<TAB>URL`, `{{NAME}}` in a URL replaced by
--subst NAME=VALUE), each failure is also counted against the case of its
page: a line `case CASE: ok (N pages)`, or `case CASE: FAILED (N failures)`
with the pages it did not reach; with --expect-cases N the file must hold
exactly N cases (a case added or lost is a failure of the check).

Exit status 0 when every check passed, 1 otherwise (each failure one line).
"""
import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import re
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# --- the crawl: what it holds -------------------------------------------------


def read_warc(path):
    """Yield (headers dict, block bytes) for each record of a .warc or .warc.gz."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        end = data.find(b"\r\n\r\n", pos)
        if end < 0:
            break
        head = data[pos:end].decode("utf-8", "replace").split("\r\n")
        headers = {}
        for line in head[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0"))
        block = data[end + 4 : end + 4 + length]
        pos = end + 4 + length + 4
        while data[pos : pos + 2] == b"\r\n":
            pos += 2
        yield headers, block


def crawl_held(path):
    """{url: (status, location or None, content type, body)} from the WARC's responses."""
    records = {}
    for headers, block in read_warc(path):
        if headers.get("warc-type") != "response":
            continue
        url = headers.get("warc-target-uri", "").strip("<>")
        head, _, body = block.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        fields = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            fields[k.strip().lower()] = v.strip()
        location = fields.get("location")
        if location:
            location = urllib.parse.urljoin(url, location)
        record = (status, location, fields.get("content-type", ""), body)
        records[url] = record
        # Also under its normal form (the checks look URLs up so).
        records.setdefault(normal_form(url), record)
    return records


def final_of(records, url, seen=None):
    """The held 200 that `url` leads to (through its redirects), or None."""
    seen = seen or set()
    while url in records and url not in seen:
        seen.add(url)
        status, location, _, _ = records[url]
        if status == 200:
            return url
        if 300 <= status < 400 and location:
            url = location
        else:
            return None
    return None


def defrag(url):
    return urllib.parse.urldefrag(url)[0]


UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def escapes_upper(url):
    """`url` with the hex digits of each `%XX` in upper case (httrack's cache
    writes `?q=caf%e9`, Chromium `?q=caf%E9`: one URL, RFC 3986 6.2.2.1)."""
    return re.sub(r"%[0-9a-fA-F]{2}", lambda m: m.group(0).upper(), url)


def normal_form(url):
    """`url` without its fragment, an escape of an unreserved character in
    its path decoded (RFC 3986 6.2.2.2: `/%61bout.html` is `/about.html`).
    Chromium requests each spelling as written; a crawler fetches one of them
    (wget: the first it meets), and a copy opens both as one file: the
    checks compare URLs so."""
    url = defrag(url)
    parts = urllib.parse.urlsplit(url)
    if "%" not in parts.path:
        return url
    path, i = [], 0
    while i < len(parts.path):
        c = parts.path[i]
        if c == "%" and len(parts.path[i + 1 : i + 3]) == 2:
            try:
                ch = chr(int(parts.path[i + 1 : i + 3], 16))
            except ValueError:
                ch = ""
            if ch in UNRESERVED and ch:
                path.append(ch)
                i += 3
                continue
        path.append(c)
        i += 1
    return urllib.parse.urlunsplit(parts._replace(path="".join(path)))


# --- Chromium over the DevTools pipe -----------------------------------------


def chromium_binary():
    if os.environ.get("LINKBASE_CHROMIUM"):
        return os.environ["LINKBASE_CHROMIUM"]
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("check.py: chromium not found (apt-get install chromium)")


class Browser:
    def __init__(self, offline, live_hosts=("127.0.0.1",)):
        self.offline = offline
        self.profile = tempfile.mkdtemp(prefix="offline-check-")
        args = [
            chromium_binary(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-features=IsolateOrigins,site-per-process",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
        ]
        if offline:
            args += [
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--proxy-server=http://127.0.0.1:9",
                "--proxy-bypass-list=<-loopback>",
            ]
        else:
            rules = ["MAP * ~NOTFOUND"] + [f"EXCLUDE {h}" for h in live_hosts]
            args += ["--host-resolver-rules=" + ", ".join(rules)]
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # Chromium reads fd 3 and writes fd 4; dup first, so that
            # neither pipe end is overwritten or left close-on-exec.
            r, w = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            args,
            preexec_fn=fds,
            close_fds=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                self.messages.put(None)
                return
            buf += chunk
            while b"\0" in buf:
                msg, buf = buf.split(b"\0", 1)
                self.messages.put(json.loads(msg))

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def call(self, method, params=None, session=None, on_event=None, timeout=30):
        wanted = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            msg = self.messages.get(timeout=max(0.1, deadline - time.time()))
            if msg is None:
                raise RuntimeError("chromium exited")
            if msg.get("id") == wanted:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if on_event and "method" in msg:
                on_event(msg)

    def pump(self, on_event, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                msg = self.messages.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                return
            if msg is None:
                raise RuntimeError("chromium exited")
            if "method" in msg:
                on_event(msg)

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def load(self, url, settle=0.6, timeout=20):
        """Open `url` in a new tab; return what the checks need."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )["sessionId"]
        requests = {}  # requestId -> {url, type, frame, ok, error, status}
        blocked = []
        state = {"loads": 0, "last": time.time()}

        def on_event(msg):
            if msg.get("sessionId") != session:
                return
            m, p = msg["method"], msg.get("params", {})
            state["last"] = time.time()
            if m == "Fetch.requestPaused":
                blocked.append(p["request"]["url"])
                self.send(
                    "Fetch.failRequest",
                    {"requestId": p["requestId"], "errorReason": "InternetDisconnected"},
                    session,
                )
            elif m == "Network.requestWillBeSent":
                r = requests.setdefault(p["requestId"], {"chain": []})
                r["chain"].append(p["request"]["url"])
                r.update(url=p["request"]["url"], type=p.get("type"), frame=p.get("frameId"))
            elif m == "Network.responseReceived":
                requests.setdefault(p["requestId"], {"chain": []})["status"] = p["response"]["status"]
            elif m == "Network.loadingFinished":
                requests.setdefault(p["requestId"], {"chain": []})["ok"] = True
            elif m == "Network.loadingFailed":
                requests.setdefault(p["requestId"], {"chain": []})["error"] = p.get("errorText")
            elif m == "Page.loadEventFired":
                state["loads"] += 1

        self.call("Page.enable", session=session, on_event=on_event)
        # The page as its HTML has it: scripts do not run (a URL a script
        # builds is out of scope, issue 28); <script src> is checked by its
        # resolved URL and file instead.
        self.call("Emulation.setScriptExecutionDisabled", {"value": True}, session, on_event)
        self.call("Network.enable", session=session, on_event=on_event)
        self.call("Network.setCacheDisabled", {"cacheDisabled": True}, session, on_event)
        if self.offline:
            self.call(
                "Fetch.enable",
                {"patterns": [{"urlPattern": "http://*"}, {"urlPattern": "https://*"}]},
                session,
                on_event,
            )
        nav = self.call("Page.navigate", {"url": url}, session, on_event)
        main_frame = nav.get("frameId")
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.pump(on_event, 0.1)
            if state["loads"] and time.time() - state["last"] > settle:
                break
        facts = self.call(
            "Runtime.evaluate",
            {"expression": COLLECT, "returnByValue": True},
            session,
            on_event,
        )["result"].get("value")
        self.pump(on_event, 0.05)
        self.call("Target.closeTarget", {"targetId": target}, on_event=on_event)
        return {
            "facts": facts or {},
            "requests": list(requests.values()),
            "blocked": blocked,
            "main_frame": main_frame,
        }


COLLECT = r"""(() => {
  const abs = (v) => { try { return new URL(v, document.baseURI).href } catch (e) { return v } };
  return {
    location: location.href,
    title: document.title,
    links: [...document.querySelectorAll('a[href], area[href]')].map(a => a.href),
    images: [...document.images].map(i => i.currentSrc),
    frames: [...document.querySelectorAll('iframe[src], frame[src]')].map(f => f.src),
    scripts: [...document.querySelectorAll('script[src]')].map(s => s.src),
  };
})()"""

# --- the checks ---------------------------------------------------------------


def file_path(url):
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path)


def same_document(link, page):
    return defrag(link) == defrag(page)


IDENTICAL = ("image/", "application/javascript", "text/javascript", "application/x-javascript")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warc", required=True)
    ap.add_argument("--live", required=True)
    ap.add_argument("--copy-root", required=True)
    ap.add_argument("--copy-start", required=True)
    ap.add_argument("--max-pages", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--label", default="copy")
    ap.add_argument(
        "--held-map",
        help="a mirror's copy: the URLs held are those of the WARC that this map "
        "(URL<TAB>FILE, the copy's urls.tsv) lists; each one left out is printed "
        "(`not held: URL`) and its links must be absolute",
    )
    ap.add_argument("--cases", help="CASE<TAB>URL lines: the pages of each case")
    ap.add_argument("--subst", action="append", default=[], help="NAME=VALUE for {{NAME}} in --cases")
    ap.add_argument("--expect-cases", type=int, help="the exact number of cases in --cases")
    ap.add_argument(
        "--live-host", action="append", default=[],
        help="another address the live browser reaches (127.0.0.1 always)",
    )
    args = ap.parse_args()

    cases = {}  # case -> [page URL]
    if args.cases:
        with open(args.cases, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                name, url = line.split("\t")
                for sub in args.subst:
                    key, _, value = sub.partition("=")
                    url = url.replace("{{" + key + "}}", value)
                cases.setdefault(name, []).append(url)

    records = crawl_held(args.warc)
    held = {normal_form(u) for u in records if final_of(records, u)}
    if args.held_map:
        with open(args.held_map, encoding="utf-8") as f:
            mapped = {normal_form(line.split("\t")[0]) for line in f if not line.startswith("#")}
        # A URL redirected to one the map holds is held too (a crawler that
        # lists only the URLs it saved from, as httrack's cache).
        kept = {u for u in held if u in mapped or final_of(records, u) in mapped}
        for url in sorted(held - kept):
            print(f"{args.label}: not held: {url}")
        held = kept
        # URLs the map holds and the WARC does not (another crawler's
        # fetches): a link to one must open a file of the copy, and a page
        # is compared with the live one as any held page is.
        map_only = {escapes_upper(u) for u in mapped - set(records)}
    else:
        map_only = set()
    root = os.path.realpath(args.copy_root)
    start_file = "file://" + urllib.parse.quote(os.path.realpath(args.copy_start))
    live, offline = Browser(False, ["127.0.0.1"] + args.live_host), Browser(True)
    beside = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    failures = []
    failed_pages = {}  # page URL -> number of failures
    reached = set()
    aliases = {}  # a page's final URL (after redirects) -> the URL it was reached by
    final_of_page = {}  # the URL a page was reached by -> its final URL
    counts = {
        "pages": 0, "links": 0, "links_local": 0, "links_absolute": 0,
        "links_same_document": 0, "resources_live": 0, "resources_local": 0,
        "requests_blocked": 0, "scripts": 0, "held": len(held),
    }
    url_file = {}  # held final URL -> the copy file it opened as
    todo = [(args.live, start_file)]
    queued = {defrag(args.live)}

    def fail(page, what):
        failures.append(f"{args.label}: {page}: {what}")
        failed_pages[page] = failed_pages.get(page, 0) + 1

    try:
        while todo:
            if args.max_pages and counts["pages"] >= args.max_pages:
                break
            live_url, copy_url = todo.pop(0)
            # The two browsers load their page at the same time (each its
            # own process, pipe and messages): each load's settling time
            # is waited once for both. What each load returns is as when
            # they ran one after the other.
            pending = beside.submit(live.load, live_url)
            b = offline.load(copy_url)
            a = pending.result()
            counts["pages"] += 1
            fa, fb = a["facts"], b["facts"]
            page = live_url
            reached.add(page)
            aliases.setdefault(defrag(fa.get("location", page)), page)
            final_of_page[page] = defrag(fa.get("location", page))
            # 1. the same page, one file per URL
            if fa.get("title") != fb.get("title"):
                fail(page, f"opens {fb.get('location')} titled {fb.get('title')!r}, not {fa.get('title')!r}")
                continue
            final = normal_form(fa["location"])
            opened = defrag(fb["location"])
            # (one file: the same path, however its file: URL escapes it)
            if file_path(url_file.setdefault(final, opened)) != file_path(opened):
                fail(page, f"{final} opens as two files: {url_file[final]} and {opened}")
            # 2. links
            la, lb = fa.get("links", []), fb.get("links", [])
            if len(la) != len(lb):
                fail(page, f"{len(lb)} links in the copy, {len(la)} live")
                continue
            for u, f in zip(la, lb):
                counts["links"] += 1
                frag_u = urllib.parse.urldefrag(u)[1]
                if same_document(u, fa["location"]) and frag_u:
                    counts["links_same_document"] += 1
                    if not (same_document(f, fb["location"]) and urllib.parse.urldefrag(f)[1] == frag_u):
                        fail(page, f"same-document link {u} became {f}")
                    continue
                key = normal_form(u)
                if urllib.parse.urlsplit(u).scheme in ("http", "https") and key in held:
                    counts["links_local"] += 1
                    if not f.startswith("file://"):
                        fail(page, f"link to held {u} leads to {f} (not the copy)")
                        continue
                    path = file_path(defrag(f))
                    if not os.path.realpath(path).startswith(root + os.sep):
                        fail(page, f"link to held {u} leads to {f}, outside the copy")
                    elif not os.path.isfile(path):
                        fail(page, f"link to held {u} leads to {f}: no such file")
                    elif urllib.parse.urldefrag(f)[1] != frag_u:
                        fail(page, f"link {u} lost its fragment: {f}")
                    else:
                        target = final_of(records, key)
                        ctype = records[target][2]
                        if ctype.startswith(("text/html", "application/xhtml")):
                            if key not in queued:
                                queued.add(key)
                                todo.append((key, defrag(f)))
                        elif ctype.startswith(IDENTICAL):
                            with open(path, "rb") as fh:
                                if fh.read() != records[target][3]:
                                    fail(page, f"link {u} leads to {f}, whose bytes differ from the crawl's")
                elif escapes_upper(key) in map_only and f.startswith("file://"):
                    counts["links_local"] += 1
                    path = file_path(defrag(f))
                    if not os.path.realpath(path).startswith(root + os.sep):
                        fail(page, f"link to {u} (held by the map) leads to {f}, outside the copy")
                    elif not os.path.isfile(path):
                        fail(page, f"link to {u} (held by the map) leads to {f}: no such file")
                    elif path.endswith((".html", ".htm")) and key not in queued:
                        queued.add(key)
                        todo.append((key, defrag(f)))
                else:
                    counts["links_absolute"] += 1
                    # (the same URL, whichever characters of it are escaped)
                    if urllib.parse.unquote_to_bytes(f) != urllib.parse.unquote_to_bytes(u):
                        fail(page, f"link to {u} (not held) became {f}, not the absolute URL")
            # iframes are pages too
            for u, f in zip(fa.get("frames", []), fb.get("frames", [])):
                key = normal_form(u)
                if key in held and f.startswith("file://") and key not in queued:
                    queued.add(key)
                    todo.append((key, defrag(f)))
            # scripts (not run): each held one's src is its file, byte for byte
            sa, sb = fa.get("scripts", []), fb.get("scripts", [])
            if len(sa) != len(sb):
                fail(page, f"{len(sb)} scripts in the copy, {len(sa)} live")
            for u, f in zip(sa, sb):
                counts["scripts"] += 1
                target = final_of(records, normal_form(u))
                if target is None:
                    if f != u:
                        fail(page, f"script {u} (not held) became {f}, not the absolute URL")
                    continue
                path = file_path(f) if f.startswith("file://") else None
                if not path or not os.path.isfile(path):
                    fail(page, f"script {u} is held but {f} is no file of the copy")
                    continue
                with open(path, "rb") as fh:
                    if fh.read() != records[target][3]:
                        fail(page, f"script {u}: {f} differs from the crawl's bytes")
            # 3. sub-resources
            live_loaded = set()
            for r in a["requests"]:
                if r.get("frame") == a["main_frame"] and r.get("type") == "Document":
                    continue
                if r.get("ok") and r.get("url") and normal_form(r["url"]) in held:
                    live_loaded.add(normal_form(r["url"]))
            copy_loaded = set()
            for r in b["requests"]:
                url = r.get("url", "")
                if r.get("frame") == b["main_frame"] and r.get("type") == "Document":
                    if url.startswith("file:") and r.get("error"):
                        fail(page, f"the page's own file {url} did not load: {r['error']}")
                    continue
                if url.startswith("file:"):
                    path = file_path(url)
                    if not os.path.realpath(path).startswith(root + os.sep):
                        fail(page, f"{r.get('type')} {url} is outside the copy")
                    elif r.get("error") or not r.get("ok"):
                        fail(page, f"{r.get('type')} {url} missing ({r.get('error')})")
                    else:
                        copy_loaded.add(path)
                elif url.startswith(("http:", "https:")):
                    if normal_form(url) in held:
                        fail(page, f"{r.get('type')} {url} is held but was requested from the network")
            for url in b["blocked"]:
                counts["requests_blocked"] += 1
            counts["resources_live"] += len(live_loaded)
            counts["resources_local"] += len(copy_loaded)
            if len(copy_loaded) < len(live_loaded):
                fail(page, f"{len(copy_loaded)} resources loaded from the copy, {len(live_loaded)} held ones live")
            want = sorted(
                hashlib.sha256(records[final_of(records, u)][3]).hexdigest()
                for u in live_loaded
                if records[final_of(records, u)][2].startswith(IDENTICAL)
            )
            have = []
            for path in copy_loaded:
                with open(path, "rb") as fh:
                    digest = hashlib.sha256(fh.read()).hexdigest()
                if digest in want:
                    have.append(digest)
            if sorted(have) != want:
                fail(page, f"{len(want) - len(have)} images or scripts of the live page not loaded, byte for byte, from the copy")
    finally:
        live.close()
        offline.close()
        beside.shutdown()

    for line in failures:
        print(line)
    case_results = {}
    for name, pages in cases.items():
        missing = [p for p in pages if p not in reached and p not in aliases]
        # its pages' failures, each reached by its own URL or by one that redirects to it
        n = sum(
            m for q, m in failed_pages.items() if q in pages or final_of_page.get(q) in pages
        )
        case_results[name] = {"ok": not missing and n == 0, "failures": n, "not_reached": missing}
        if missing or n:
            print(f"case {name}: FAILED ({n} failures" + "".join(f", not reached: {p}" for p in missing) + ")")
        else:
            print(f"case {name}: ok ({len(pages)} pages)")
    if args.cases:
        # A failure on a page of no case (reached by it, or by a URL that
        # redirects to it) is counted apart: the cases hide none.
        in_cases = {p for pages in cases.values() for p in pages}
        counts["failures_outside_cases"] = sum(
            n
            for p, n in failed_pages.items()
            if p not in in_cases and final_of_page.get(p) not in in_cases
        )
        ok = sum(1 for r in case_results.values() if r["ok"])
        print(f"{args.label}: {ok} of {len(cases)} cases ok")
        counts["cases"] = len(cases)
        counts["cases_ok"] = ok
        if args.expect_cases is not None and len(cases) != args.expect_cases:
            failures.append(f"{args.label}: {len(cases)} cases in {args.cases}, not {args.expect_cases}")
            print(failures[-1])
        if ok != len(cases) and not failures:
            failures.append(f"{args.label}: a case was not reached")
    summary = {"label": args.label, "failures": len(failures), **counts}
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "failures": failures, "cases": case_results}, f, indent=1)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
