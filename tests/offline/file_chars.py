#!/usr/bin/env python3
"""Which file-name characters Chromium's `file:` loading treats specially
(issue 41, item 3; docs/offline.md, "File names in links").

For each printable ASCII punctuation character C, files named `xCy.css`,
`xCy.png`, `xCy.js` and `xCy.html` are written beside a page that links them
with C written raw, as a relative link (`<link rel=stylesheet>`, `<img>`,
`<script src>`, `<iframe>`), and once more with C percent-encoded. Headless
Chromium opens the page from disk (`--dump-dom`); the page writes what
applied/loaded. A character is "needs encoding" when a raw link fails where
the encoded one works. `/` is a separator (not a name character) and is
left out. Prints a TSV table: char, css, img, js, iframe (raw), and the
verdict; exits 1 when a character that needs it is not in linkbase's link
sets (read from crates/linkbase/src/offline/link.rs), or when an encoded
link fails. Three more rows: a name holding `%41` (an escape read as `A`),
a `:` in the first name (read as a scheme), and the same behind `./` (what
linkbase writes). Run by .ci/offline-browser.sh.
"""
import argparse
import os
import re
import string
import subprocess
import sys
import tempfile
import urllib.parse

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cf000001010100a5fa6e3b00"
    "00000049454e44ae426082"
)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--encoded", default=None,
                    help="the characters linkbase encodes (default: read from --link-rs)")
    ap.add_argument("--link-rs", default=os.path.join(
        os.path.dirname(__file__), "../../crates/linkbase/src/offline/link.rs"))
    args = ap.parse_args()
    if args.encoded is None:
        # The `.add(b'X')` of the SEGMENT and NAME sets.
        text = open(args.link_rs).read()
        found = re.findall(r"\.add\(b'(\\?.)'\)", text)
        args.encoded = "".join(c[-1] for c in found)
    chars = [c for c in string.punctuation if c != "/"]
    # (label, file name, the raw link to it); the other link is the name
    # with every punctuation character percent-encoded.
    cases = [(c, f"x{c}{i}", f"x{c}{i}") for i, c in enumerate(chars)]
    cases += [
        ("%41 (an escape)", "p%41q", "p%41q"),
        (": first name", "y:z", "y:z"),
        (": first, ./", "y:w", "./y:w"),
    ]
    with tempfile.TemporaryDirectory() as d:
        body = []
        for i, (label, name, raw) in enumerate(cases):
            for way in ("raw", "enc"):
                n = f"{i}{way}"
                ref = (raw if way == "raw" else urllib.parse.quote(name, safe="")) + n
                name_n = name + n
                with open(os.path.join(d, name_n + ".css"), "w") as f:
                    f.write(f"#c{n}{{width:7px}}")
                with open(os.path.join(d, name_n + ".png"), "wb") as f:
                    f.write(PNG)
                with open(os.path.join(d, name_n + ".js"), "w") as f:
                    f.write(f"window.js_{n}=1;")
                with open(os.path.join(d, name_n + ".html"), "w") as f:
                    f.write(f"<script>parent.postMessage('f{n}','*')</script>")
                q = lambda s: s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
                body.append(f'<link rel=stylesheet href="{q(ref)}.css">')
                body.append(f'<div id="c{n}"></div><img id="i{n}" src="{q(ref)}.png">')
                body.append(f'<script src="{q(ref)}.js"></script>')
                body.append(f'<iframe src="{q(ref)}.html"></iframe>')
        page = (
            "<!DOCTYPE html><html><head><script>var got={};"
            "addEventListener('message',e=>got[e.data]=1);</script>"
            + "".join(b for b in body if b.startswith("<link"))
            + "</head><body>" + "".join(b for b in body if not b.startswith("<link"))
            + "<pre id=out></pre><script>"
            "addEventListener('load',()=>setTimeout(()=>{var o=[];"
            f"var n={len(cases)};for(var i=0;i<n;i++)for(var w of ['raw','enc']){{var k=i+w;"
            "var css=getComputedStyle(document.getElementById('c'+k)).width=='7px';"
            "var img=document.getElementById('i'+k).naturalWidth>0;"
            "var js=!!window['js_'+k];var fr=!!got['f'+k];"
            "o.push([k,+css,+img,+js,+fr].join(','))}"
            "document.getElementById('out').textContent=o.join(';')},4000))</script></body></html>"
        )
        with open(os.path.join(d, "page.html"), "w") as f:
            f.write(page)
        out = subprocess.run(
            [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--allow-file-access-from-files", "--virtual-time-budget=30000",
             "--dump-dom", "file://" + os.path.join(d, "page.html")],
            capture_output=True, text=True, timeout=120,
        ).stdout
        text = out.split('<pre id="out">', 1)[1].split("</pre>", 1)[0]
        got, bad = {}, []
        for item in text.split(";"):
            k, *v = item.split(",")
            got[k] = [int(x) for x in v]
        print("name\tcss\timg\tjs\tiframe\tverdict")
        for i, (label, name, raw) in enumerate(cases):
            r, e = got[f"{i}raw"], got[f"{i}enc"]
            needs = any(a < b for a, b in zip(r, e))
            verdict = "encode" if needs else ("raw works" if all(r) else "fails encoded too")
            print(f"{label}\t" + "\t".join("yes" if a else "NO" for a in r) + f"\t{verdict}")
            # A `:` is not encoded: linkbase writes `./` before a first name
            # holding one (the last row shows that is enough).
            if needs and len(label) == 1 and label not in args.encoded + ":":
                bad.append(label)
            if not all(e):
                bad.append(f"{label} (encoded)")
            if label.endswith("./") and not all(r):
                bad.append(label)
        if bad:
            print(f"error: Chromium needs these encoded, or an encoded link fails: {bad}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
