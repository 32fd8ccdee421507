"""A lying house for the tests: an HTTP proxy in front of the real arcade that passes every
request on and, when told, rewrites one JSON answer (`rewrite`), drops one answer after the
arcade acted on the request (`drop`: the connection is closed, nothing is answered), or answers
an error status itself without asking the arcade (`refuse`)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests

HOP = {"host", "connection", "content-length", "transfer-encoding", "keep-alive", "content-encoding"}


class Proxy:
    """`url`, `log` (`{method, path, headers, dropped, body}` of every request passed on),
    `rewrite(method, path, json)` (the JSON to answer instead, or None), `drop(method, path)`,
    `refuse(method, path)` (the error status to answer instead, or None), `answer(method, path)`
    (`(status, json)` answered in place of what the arcade answered, after it acted, or None);
    each log entry's `sent` is the request's body."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.rewrite: Callable[[str, str, Any], Any] | None = None
        self.drop: Callable[[str, str], bool] | None = None
        self.refuse: Callable[[str, str], int | None] | None = None
        self.answer: Callable[[str, str], tuple[int, Any] | None] | None = None
        self.log: list[dict[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _pass(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                refused = proxy.refuse(self.command, self.path.split("?")[0]) if proxy.refuse else None
                if refused is not None:
                    out = json.dumps({"code": "unavailable", "detail": "the service is unavailable"}).encode()
                    self.send_response(refused)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
                entry = {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in headers.items()},
                         "sent": body, "dropped": False, "body": None}
                proxy.log.append(entry)
                answer = requests.request(self.command, proxy.upstream + self.path, headers=headers, data=body, timeout=60)
                out = answer.content
                if proxy.drop and proxy.drop(self.command, self.path):
                    proxy.drop = None
                    entry["dropped"], entry["body"] = True, answer.json()
                    self.close_connection = True
                    self.connection.close()
                    return
                replaced = proxy.answer(self.command, self.path.split("?")[0]) if proxy.answer else None
                if replaced is not None:
                    status, shown = replaced
                    out = json.dumps(shown).encode()
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                    return
                if proxy.rewrite and answer.ok and "json" in answer.headers.get("content-type", ""):
                    changed = proxy.rewrite(self.command, self.path.split("?")[0], answer.json())
                    if changed is not None:
                        out = json.dumps(changed).encode()
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in HOP:
                        self.send_header(name, value)
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = _pass

        return Handler
