#!/usr/bin/env python3
"""A station panel's listener authentication endpoint, written for Icecast's URL auth (<authentication
type="url">): it reads Icecast's form fields and answers with Icecast's headers. For the daemon's tests.

Usage: icecast_auth_backend.py PORT LOG

Every POST is appended to LOG as one JSON object of its form fields. listener_add admits user `alice` (with
`icecast-auth-timelimit: 2` when her password is `brief`), refuses any other user with a message, for user
`slow` answers only after 5 seconds, and for user `broken` answers 502 as a failing proxy would.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

PORT, LOG = int(sys.argv[1]), sys.argv[2]


class Backend(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        fields = {name: values[0] for name, values in parse_qs(body, keep_blank_values=True).items()}
        fields["_content_type"] = self.headers.get("Content-Type", "")
        with open(LOG, "a") as log:
            log.write(json.dumps(fields) + "\n")
        if fields.get("action") == "listener_add" and fields.get("user") == "slow":
            time.sleep(5)
        self.send_response(502 if fields.get("user") == "broken" else 200)
        if fields.get("action") == "listener_add":
            if fields.get("user") == "alice":
                self.send_header("icecast-auth-user", "1")
                if fields.get("pass") == "brief":
                    self.send_header("icecast-auth-timelimit", "2")
            else:
                self.send_header("icecast-auth-message", "not a subscriber")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Backend).serve_forever()
