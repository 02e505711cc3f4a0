#!/usr/bin/env python3
"""Serve a test site on 127.0.0.1 (Python stdlib only).

    serve.py SITE_DIR [--routes routes.tsv] [--port 0] [--port-file FILE]

Every path is served from SITE_DIR by its percent-decoded name (a query
ignored), except the routes of the routes file: `PATH[?QUERY] STATUS TARGET`,
a 200 with the file TARGET or a 3xx to the Location TARGET; a route without a
query matches any query. In text files `{{HOST}}` is replaced by the
server's own `127.0.0.1:PORT`, so that pages can hold same-host absolute and
protocol-relative links. The port (0: any free one) is written to
--port-file once the server listens. Runs until killed.
"""
import argparse
import mimetypes
import os
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TEXT = ("text/", "application/javascript", "image/svg+xml")


def load_routes(path):
    routes = {}
    if not path:
        return routes
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            target, status, value = line.split("\t")
            routes[target] = (int(status), value)
    return routes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("site")
    p.add_argument("--routes")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    args = p.parse_args()
    site = os.path.realpath(args.site)
    routes = load_routes(args.routes)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def send(self, status, body=b"", ctype=None, location=None):
            self.send_response(status)
            if ctype:
                self.send_header("Content-Type", ctype)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            raw_path, _, query = self.path.partition("?")
            path = urllib.parse.unquote(raw_path)
            route = routes.get(f"{path}?{query}" if query else path) or routes.get(path)
            if route and 300 <= route[0] < 400:
                self.send(route[0], b"", "text/html", route[1])
                return
            name = route[1] if route else path.lstrip("/")
            full = os.path.realpath(os.path.join(site, name))
            if not full.startswith(site + os.sep) or not os.path.isfile(full):
                self.send(404, b"not found\n", "text/plain")
                return
            ctype = mimetypes.guess_type(full)[0] or "application/octet-stream"
            with open(full, "rb") as f:
                body = f.read()
            if ctype.startswith(TEXT):
                body = body.replace(b"{{HOST}}", host.encode())
                if ctype.startswith("text/"):
                    ctype += "; charset=utf-8"
            self.send(200, body, ctype)

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    host = f"127.0.0.1:{server.server_address[1]}"
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(server.server_address[1]))
        os.replace(tmp, args.port_file)
    print(f"serving {site} on http://{host}/", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
