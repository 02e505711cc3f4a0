"""Agreement of linkbase's feeds with a real feed reader: feedparser.

For each feed given (files, or folders walked for *.xml, *.atom, *.rss and
fixtures/feed/*/input.*), linkbase rewrites it against a base, then
feedparser parses

  A. the original, with that base as its Content-Location (feedparser's
     base: xml:base > Content-Location > URL), and
  B. linkbase's output, with an unrelated base (http://unrelated.invalid/…),

and every field of the two results must be the same, URI fields (`href`,
`link`, `url`, `comments`, …) and HTML fields (`content`, `summary`, …,
resolved and sanitized by feedparser) included: a link linkbase missed or
resolved differently would be resolved by feedparser against the unrelated
base in B, and differ. feedparser's `bozo` (not well-formed) must agree too.

Left out of the comparison, by design (docs/feeds.md):

- `base` (the base feedparser records for a field: what differs by
  construction);
- identifiers: `id` (feedparser resolves a relative `atom:id` or permalink
  `guid` as a URI; linkbase leaves identifiers alone), `guidislink`, and a
  `link` feedparser made from such an identifier when there is no `<link>`
  (in A it equals the `id`, and no entry of `links` has it);
- `xml:base`, which feedparser keeps as an attribute of some elements: the
  base itself, written absolute by linkbase as HTML's `<base href>` is.

Known disagreements (KNOWN below, each with its reason) are printed and
counted, not failures: where the HTML standard (html5ever, what a browser
and a web-based reader see) and feedparser's sgmllib read markup apart.

One allowance, counted and printed, named by field (UNRESOLVED_URL_FIELDS:
the URL fields feedparser does not resolve, `media_content` `url`,
`enclosure` `href` of RSS, `itunes` `image` …): such a field is relative in
A and absolute in B when B's value is A's resolved against the feed's base
with urljoin (linkbase resolved it; feedparser did not). Any other field
(a title, a summary's text) made a URL is a difference.

Usage: feedparser_agree.py --expect N LINKBASE FEED_OR_FOLDER...
Prints one line per feed that differs and a summary; exits 1 on any
difference, and unless exactly N feeds were checked (the figure is
.ci/feeds.sh's: a folder missing or half read fails).

       feedparser_agree.py --expect N --control FEED_OR_FOLDER...
The control: B is the original itself (nothing rewritten), which must
differ from A on some feeds (those with relative links): exits 1 when none
does, since the comparison could then not have failed.
"""

import os
import re
import subprocess
import sys
import urllib.parse

import feedparser

BASE = "http://feeds.example/site/dir/feed.xml"
UNRELATED = "http://unrelated.invalid/other/place/x.xml"
EXEMPT = {"base", "id", "guidislink", "xml:base"}
KNOWN = {
    "wellformed/rss/item_description_not_a_doctype.xml": "`<!' <a href=\"foo\">` is a bogus comment to the HTML standard"
    " (so no link: linkbase leaves `foo`), a link to sgmllib",
    "fixtures/feed/not-well-formed/input.rss": "not well-formed at `</itme>`: feedparser's loose parser guesses on and"
    " reads the item after it; linkbase rewrites up to the error and reports the rest, left as it is",
    "fixtures/feed/atom03-base64-after-padding/input.atom": "base64 content with data after its `=` padding:"
    " feedparser decodes the first value and resolves its link; linkbase leaves such a value as it is"
    " (re-encoding it would lose what follows the padding; the MIME layer's rule, docs/feeds.md)",
}
TOP_LEVEL = ("feed", "entries", "bozo", "version", "namespaces")
# The fields (their paths, list indices left out) feedparser leaves relative
# where linkbase resolves them: the allowance above applies to these alone.
UNRESOLVED_URL_FIELDS = {
    "entries.feedburner_origlink",  # feedburner:origLink
    "entries.links.href",  # RSS <enclosure url>
    "entries.media_content.url",  # <media:content url>
    "entries.media_thumbnail.url",  # <media:thumbnail url>
    "entries.source.href",  # RSS <source url>
    "feed.image.href",  # <itunes:image href>
}


def parse(data, base):
    return feedparser.parse(data, response_headers={"content-location": base})


def differences(a, b, path, out, allowed, guid_link):
    if isinstance(a, dict) and isinstance(b, dict):
        keys = set(a) | set(b)
        for key in sorted(keys):
            if key in EXEMPT:
                continue
            if key == "link" and guid_link:
                continue
            differences(a.get(key), b.get(key), f"{path}.{key}", out, allowed, False)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items / {len(b)} items")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            link_from_guid = isinstance(x, dict) and (
                bool(x.get("guidislink"))
                or (
                    x.get("link") is not None
                    and x.get("link") == x.get("id")
                    and all(l.get("href") != x.get("link") for l in x.get("links", []))
                )
            )
            differences(x, y, f"{path}[{i}]", out, allowed, link_from_guid)
        return
    if a == b:
        return
    if (
        isinstance(a, str)
        and isinstance(b, str)
        and re.sub(r"\[\d+\]", "", path) in UNRESOLVED_URL_FIELDS
        and not urllib.parse.urlsplit(a.strip()).scheme
        and urllib.parse.urljoin(BASE, a.strip()) == b.strip()
    ):
        allowed.append(f"{path}: {a!r} -> {b!r}")
        return
    out.append(f"{path}: {a!r} / {b!r}")


def feeds(arguments):
    for argument in arguments:
        if os.path.isfile(argument):
            yield argument
            continue
        if not os.path.isdir(argument):
            sys.exit(f"{argument}: no such feed or folder")
        for root, _, files in sorted(os.walk(argument)):
            for name in sorted(files):
                if name.startswith("expected."):
                    continue  # a fixture's expected output
                if name.endswith((".xml", ".atom", ".rss")):
                    yield os.path.join(root, name)


def main():
    if len(sys.argv) < 5 or sys.argv[1] != "--expect" or not sys.argv[2].isdigit():
        sys.exit(__doc__)
    expect = int(sys.argv[2])
    linkbase = sys.argv[3]
    control = linkbase == "--control"
    checked = differing = known_count = 0
    allowed_total = []
    for path in feeds(sys.argv[4:]):
        with open(path, "rb") as f:
            original = f.read()
        if control:
            run = subprocess.CompletedProcess([], 0, original, b"")
        else:
            run = subprocess.run(
                [linkbase, "--format", "feed", "--url", BASE, "--quiet", path],
                capture_output=True,
            )
        if run.returncode not in (0, 1):
            print(f"{path}: linkbase exited {run.returncode}: {run.stderr.decode(errors='replace')}")
            differing += 1
            continue
        a, b = parse(original, BASE), parse(run.stdout, UNRELATED)
        out, allowed = [], []
        for key in TOP_LEVEL:
            link_from_id = key == "feed" and (
                a.feed.get("link") is not None
                and a.feed.get("link") == a.feed.get("id")
                and all(l.get("href") != a.feed.get("link") for l in a.feed.get("links", []))
            )
            if link_from_id:
                a.feed.pop("link")
                b.feed.pop("link", None)
            differences(a.get(key), b.get(key), key, out, allowed, False)
        checked += 1
        allowed_total += [f"{path}: {x}" for x in allowed]
        known = next((why for k, why in KNOWN.items() if path.endswith(k)), None)
        if out and control:
            differing += 1
        elif out and known:
            print(f"known disagreement: {path}: {known}")
            known_count += 1
        elif out:
            differing += 1
            print(f"{path}: {len(out)} field(s) differ")
            for line in out[:10]:
                print(f"    {line}")
    for line in allowed_total:
        print(f"allowed (feedparser leaves it relative, linkbase resolved it): {line}")
    print(
        f"{checked} feeds checked: {differing} differ, {known_count} known disagreements, "
        f"{len(allowed_total)} fields resolved by linkbase where feedparser does not"
    )
    if checked != expect:
        print(f"error: {checked} feeds checked, where exactly {expect} were expected: a folder "
              "missing or half read, or feeds added without the figure (.ci/feeds.sh)")
        sys.exit(1)
    if control:
        print(f"control: with nothing rewritten, {differing} of {checked} feeds differ")
        sys.exit(0 if differing else 1)
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
