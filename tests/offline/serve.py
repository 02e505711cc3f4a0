#!/usr/bin/env python3
"""Serve a test site on 127.0.0.1 (Python stdlib only).

    serve.py SITE_DIR [--routes routes.tsv] [--port 0] [--port-file FILE]
    serve.py SITE_DIR --hosts 127.0.0.1,127.0.0.2,127.0.0.3 [--port 0] [--port-file FILE]

Every path is served from SITE_DIR by its percent-decoded name (a query
ignored), except the routes of the routes file: `PATH[?QUERY] STATUS TARGET`,
a 200 with the file TARGET or a 3xx to the Location TARGET; a route without a
query matches any query. In text files `{{HOST}}` is replaced by the
server's own `127.0.0.1:PORT`, so that pages can hold same-host absolute and
protocol-relative links. The port (0: any free one) is written to
--port-file once the server listens. Runs until killed.

With --hosts, one server per address, all on the same port: address N
serves SITE_DIR/ADDRESS/ with the routes of SITE_DIR/ADDRESS.routes.tsv (if
any), and `{{HOST}}` is its own `ADDRESS:PORT`, `{{HOST1}}`, `{{HOST2}}`, ...
the first, second, ... address's, `{{PORT}}` the port. A route may have a
fourth column, the Content-Type of its file (a page in a legacy encoding);
otherwise text files are served as UTF-8.
"""
import argparse
import mimetypes
import os
import sys
import threading
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
            fields = line.split("\t")
            target, status, value = fields[:3]
            routes[target] = (int(status), value, fields[3] if len(fields) > 3 else None)
    return routes


def make_handler(site, routes, substitutions, cors=False):
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.0 (a connection per request) for --hosts: httrack waits
        # about a second on each kept-alive connection.
        protocol_version = "HTTP/1.0" if cors else "HTTP/1.1"

        def log_message(self, *a):
            pass

        def send(self, status, body=b"", ctype=None, location=None):
            self.send_response(status)
            if ctype:
                self.send_header("Content-Type", ctype)
            if location:
                self.send_header("Location", location)
            if cors:
                # A font from another host loads only so (CSS Fonts: CORS).
                self.send_header("Access-Control-Allow-Origin", "*")
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
                location = route[1]
                for key, value in substitutions:
                    location = location.replace(key.decode(), value.decode())
                self.send(route[0], b"", "text/html", location)
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
                for key, value in substitutions:
                    body = body.replace(key, value)
                if ctype.startswith("text/"):
                    ctype += "; charset=utf-8"
            if route and route[2]:
                ctype = route[2]
            self.send(200, body, ctype)

    return Handler


def main():
    p = argparse.ArgumentParser()
    p.add_argument("site")
    p.add_argument("--routes")
    p.add_argument("--hosts", help="comma-separated addresses, one server each on one port")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    args = p.parse_args()
    site = os.path.realpath(args.site)
    servers = []
    if args.hosts:
        addresses = args.hosts.split(",")
        port = args.port
        # The first address picks the port (0: any free one); the others
        # take the same. A port free on the first may be taken on another:
        # then try again with another one.
        for _ in range(20):
            try:
                servers = [ThreadingHTTPServer((addresses[0], port), BaseHTTPRequestHandler)]
                port = servers[0].server_address[1]
                for address in addresses[1:]:
                    servers.append(ThreadingHTTPServer((address, port), BaseHTTPRequestHandler))
                break
            except OSError:
                for server in servers:
                    server.server_close()
                servers, port = [], args.port
                if args.port:
                    raise
        subs = [(b"{{PORT}}", str(port).encode())]
        for i, address in enumerate(addresses, 1):
            subs.append((f"{{{{HOST{i}}}}}".encode(), f"{address}:{port}".encode()))
        for address, server in zip(addresses, servers):
            routes_file = os.path.join(site, address + ".routes.tsv")
            routes = load_routes(routes_file if os.path.exists(routes_file) else None)
            own = [(b"{{HOST}}", f"{address}:{port}".encode())]
            server.RequestHandlerClass = make_handler(
                os.path.join(site, address), routes, own + subs, cors=True
            )
    else:
        routes = load_routes(args.routes)
        server = ThreadingHTTPServer(("127.0.0.1", args.port), BaseHTTPRequestHandler)
        port = server.server_address[1]
        server.RequestHandlerClass = make_handler(
            site, routes, [(b"{{HOST}}", f"127.0.0.1:{port}".encode())]
        )
        servers = [server]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(port))
        os.replace(tmp, args.port_file)
    for server in servers:
        host = "%s:%d" % server.server_address[:2]
        print(f"serving {site} on http://{host}/", file=sys.stderr, flush=True)
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
