#!/usr/bin/env python3
"""Lazy-loaded images from an offline copy, with the real libraries (issue
41, item 1; docs/offline.md, "Lazy-loaded images").

A page per library (lazysizes, vanilla-lazyload, lozad; their files fetched
from the npm registry with `npm pack` at the pinned versions below) holds
images only in the library's attributes (`data-src`, `data-srcset`,
`data-bg`, `data-poster` …, root-relative and absolute), and one `data-*`
outside the table that a page script reads. The site is served on
127.0.0.1 and crawled by GNU wget into a WARC (the image URLs given to wget
as a browser-driven crawler would fetch them: wget does not run scripts);
`linkbase offline` makes the copy; the server is stopped and headless
Chromium opens each page of the copy from disk with the network cut (every
host unresolvable, the proxy a dead port). Each page's own check, run from load
until it passes (at most 15 s), must find every lazy image loaded (`naturalWidth` > 0) from a
`file:` URL, and every lazy background applied from one.

Usage: lazy_libraries.py LINKBASE [--work DIR]. Exit 0 when every page
passes. Needs npm, wget, python3, chromium.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import http.server
import functools

LIBRARIES = {
    # name: (npm spec, file in the package)
    "lazysizes": ("lazysizes@5.3.2", "package/lazysizes.min.js"),
    "unveilhooks": ("lazysizes@5.3.2", "package/plugins/unveilhooks/ls.unveilhooks.min.js"),
    "vanilla-lazyload": ("vanilla-lazyload@19.1.3", "package/dist/lazyload.min.js"),
    "lozad": ("lozad@1.16.0", "package/dist/lozad.min.js"),
}

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cf000001010100a5fa6e3b00"
    "00000049454e44ae426082"
)

CHECK = """<pre id=result>pending</pre><script>
function lazyCheck() {
  var bad = [], waits = [];
  document.querySelectorAll('img[data-check]').forEach(function (img) {
    if (!(img.complete && img.naturalWidth > 0 && img.currentSrc.indexOf('file:') === 0))
      bad.push(img.getAttribute('data-check') + ': ' + (img.currentSrc || '(none)'));
  });
  // A background: its URL a file: one, and that file an image that loads.
  document.querySelectorAll('[data-check-bg]').forEach(function (el) {
    var name = el.getAttribute('data-check-bg');
    var bg = getComputedStyle(el).backgroundImage;
    var m = /^url\\("(file:[^"]*)"\\)$/.exec(bg);
    if (!m) { bad.push(name + ': ' + bg); return; }
    waits.push(new Promise(function (done) {
      var probe = new Image();
      probe.onload = function () { done(); };
      probe.onerror = function () { bad.push(name + ': ' + m[1] + ' does not load'); done(); };
      probe.src = m[1];
    }));
  });
  return Promise.all(waits).then(function () { return bad; });
}
// Checked every 250 ms from load until all pass, at most 15 s: the
// libraries swap the images in when they see them, on their own timers.
addEventListener('load', function () {
  var n = document.querySelectorAll('img[data-check], [data-check-bg]').length, tries = 0;
  (function again() {
    lazyCheck().then(function (bad) {
      if (bad.length && ++tries < 60) { setTimeout(again, 250); return; }
      document.getElementById('result').textContent =
        (bad.length ? 'FAIL ' + bad.join(' | ') : 'PASS') + ' (' + n + ' checked)';
    });
  })();
});
</script>"""

# The pages: LIBRARY -> (scripts, body, start). Images 1x1, in view.
PAGES = {
    "lazysizes.html": (
        ["lazysizes", "unveilhooks"],
        """<img class=lazyload data-check="lazysizes data-src" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="
  data-src="/img/ls-src.png" width=20 height=20>
<img class=lazyload data-check="lazysizes data-srcset" data-srcset="HOST/img/ls-set.png 1x, /img/ls-set2.png 2x" width=20 height=20>
<picture><source data-srcset="/img/ls-source.png"><img class=lazyload data-check="lazysizes picture" data-src="/img/ls-src.png" width=20 height=20></picture>
<div class=lazyload data-check-bg="lazysizes data-bg" data-bg="/img/ls-bg.png" style="width:20px;height:20px"></div>""",
        "",
    ),
    "vanilla-lazyload.html": (
        ["vanilla-lazyload"],
        """<img class=vl data-check="vanilla-lazyload data-src" data-src="HOST/img/vl-src.png" width=20 height=20>
<img class=vl data-check="vanilla-lazyload data-srcset" data-src="/img/vl-src.png" data-srcset="/img/vl-set.png 1x, /img/vl-set2.png 2x" width=20 height=20>
<img data-check="WP Rocket data-lazy-src" data-lazy-src="/img/wpr.png" width=20 height=20>
<div class=vl data-check-bg="vanilla-lazyload data-bg" data-bg="/img/vl-bg.png" style="width:20px;height:20px"></div>
<div class=hero data-check-bg="a data-* outside the table" data-hero="/img/hero.png" style="width:20px;height:20px"></div>""",
        """new LazyLoad({elements_selector: '.vl'});
new LazyLoad({elements_selector: 'img[data-lazy-src]', data_src: 'lazy-src'});
document.querySelectorAll('.hero').forEach(function (el) {
  el.style.backgroundImage = 'url("' + el.getAttribute('data-hero') + '")';
});""",
    ),
    "lozad.html": (
        ["lozad"],
        """<img class=lz data-check="lozad data-src" data-src="/img/lz-src.png" width=20 height=20>
<img class=lz data-check="lozad data-srcset" data-srcset="HOST/img/lz-set.png 1x" width=20 height=20>
<div class=lz data-check-bg="lozad data-background-image" data-background-image="/img/lz-bg.png" style="width:20px;height:20px"></div>""",
        "lozad('.lz').observe();",
    ),
}


def fetch_libraries(into):
    files = {}
    for name, (spec, member) in LIBRARIES.items():
        subprocess.run(["npm", "pack", "--silent", spec], cwd=into, check=True,
                       stdout=subprocess.DEVNULL)
        tgz = os.path.join(into, spec.replace("@", "-", 1).split("/")[-1] + ".tgz")
        with tarfile.open(tgz) as t:
            files[name] = t.extractfile(member).read()
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("linkbase")
    ap.add_argument("--work")
    ap.add_argument("--chromium", default=os.environ.get("LINKBASE_CHROMIUM", "chromium"))
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="lazy-libraries-")
    site = os.path.join(work, "site")
    shutil.rmtree(site, ignore_errors=True)
    os.makedirs(os.path.join(site, "js"))
    os.makedirs(os.path.join(site, "img"))
    libs = fetch_libraries(work)
    for name, body in libs.items():
        with open(os.path.join(site, "js", name + ".js"), "wb") as f:
            f.write(body)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    host = f"http://127.0.0.1:{server.server_address[1]}"
    images = set()
    for page, (scripts, body, start) in PAGES.items():
        body = body.replace("HOST", host)
        for word in body.replace('"', " ").replace(",", " ").split():
            if "/img/" in word:
                images.add(word[word.index("/img/"):])
        html = ("<!DOCTYPE html><html><head><meta charset=utf-8><title>" + page + "</title>"
                + "".join(f'<script src="/js/{s}.js"></script>' for s in scripts)
                + "</head><body>" + body + f"<script>{start}</script>" + CHECK + "</body></html>")
        with open(os.path.join(site, page), "w") as f:
            f.write(html)
    for image in images:
        with open(os.path.join(site, image.lstrip("/")), "wb") as f:
            f.write(PNG)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    crawl = os.path.join(work, "crawl")
    shutil.rmtree(crawl, ignore_errors=True)
    os.makedirs(crawl)
    urls = [f"{host}/{p}" for p in PAGES] + [host + i for i in sorted(images)]
    status = subprocess.run(
        ["wget", "-q", "-p", "--no-verbose", "--warc-file=" + os.path.join(crawl, "crawl"),
         "-P", os.path.join(crawl, "files"), *urls]).returncode
    server.shutdown()
    if status not in (0, 8):
        sys.exit(f"wget exited {status}")
    copy = os.path.join(work, "copy")
    shutil.rmtree(copy, ignore_errors=True)
    subprocess.run([args.linkbase, "offline", os.path.join(crawl, "crawl.warc.gz"), "-o", copy,
                    "--quiet"], check=True)

    failed = 0
    hostdir = host.split("//", 1)[1]
    for page in PAGES:
        path = os.path.join(copy, hostdir, page)
        # Headless Chromium's virtual time can run ahead of the file: loads
        # on a loaded machine (a page whose library has not run yet): a
        # page fails when it fails three runs. A copy without the links
        # fails every run (the files are not where the values lead).
        for attempt in range(3):
            out = subprocess.run(
                [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                 "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
                 "--virtual-time-budget=30000", "--window-size=800,600",
                 "--dump-dom", "file://" + os.path.abspath(path)],
                capture_output=True, text=True, timeout=120).stdout
            result = out.split('<pre id="result">', 1)[-1].split("</pre>", 1)[0]
            print(f"{page} (run {attempt + 1}): {result}")
            if result.startswith("PASS"):
                break
        else:
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
