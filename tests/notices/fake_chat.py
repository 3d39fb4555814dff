"""Fake Discord, Slack and ntfy endpoints: a real HTTP server on 127.0.0.1, port 0.

Each answers as the service documents: Discord's webhook ``POST /api/webhooks/<id>/<token>``
204 No Content, Slack's incoming webhook ``POST /services/<T>/<B>/<C>`` 200 ``ok``, ntfy's
JSON publish ``POST /`` (``topic``, ``title``, ``message``; 400 without a topic) 200 with the
message. Every post is recorded with its service, path and text (Discord's ``content`` or
embeds, Slack's ``text``, attachments or blocks, ntfy's ``title`` and ``message``).
``faults`` is consumed one post at a time, and ``fail(service, …)`` queues faults for one
service's posts: ``"500"``, ``"503"``, ``"404"`` answer so; ``"drop"`` closes the connection
without an answer. A faulted post is not recorded.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Post:
    service: str
    path: str
    text: str
    payload: Any


@dataclass
class FakeChat:
    posts: list[Post] = field(default_factory=list)
    faults: deque[str] = field(default_factory=deque)
    service_faults: dict[str, deque[str]] = field(default_factory=dict)
    attempts: int = 0
    server: ThreadingHTTPServer | None = None

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def fail(self, service: str, *faults: str) -> None:
        """The next posts to ``service`` answer ``faults``, one each (the others' do not)."""
        self.service_faults.setdefault(service, deque()).extend(faults)

    def texts(self, service: str | None = None) -> list[str]:
        return [p.text for p in self.posts if service in (None, p.service)]


def _service(path: str) -> str:
    if path.startswith("/api/webhooks/"):
        return "discord"
    if path.startswith("/services/"):
        return "slack"
    return "ntfy"


def _text(service: str, raw: bytes, headers: Any) -> tuple[str, Any]:
    payload = json.loads(raw or b"{}")
    if service == "ntfy":  # apprise posts ntfy's JSON form to the server's root
        return f"{payload.get('title', '')}\n{payload.get('message', '')}", payload
    parts: list[str] = []
    if service == "discord":
        parts.append(str(payload.get("content", "")))
        for embed in payload.get("embeds") or ():
            parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
    else:
        parts.append(str(payload.get("text", "")))
        for attachment in payload.get("attachments") or ():
            parts += [str(attachment.get("title", "")), str(attachment.get("text", ""))]
        for block in payload.get("blocks") or ():
            parts.append(json.dumps(block))
    return "\n".join(p for p in parts if p), payload


def start() -> FakeChat:
    fake = FakeChat()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            fake.attempts += 1
            mine = fake.service_faults.get(_service(self.path.split("?")[0]))
            fault = (mine.popleft() if mine else None) or (
                fake.faults.popleft() if fake.faults else None)
            if fault == "drop":
                self.close_connection = True
                self.wfile.flush()
                self.connection.shutdown(2)
                return
            if fault is not None:
                self._answer(int(fault), b'{"message": "fake failure"}')
                return
            path = self.path.split("?")[0]
            service = _service(path)
            text, payload = _text(service, raw, self.headers)
            fake.posts.append(Post(service, path, text, payload))
            if service == "ntfy" and not isinstance(payload, dict) or (
                    service == "ntfy" and not payload.get("topic")):
                self._answer(400, b'{"error": "no topic"}')
                return
            if service == "discord":
                self._answer(204, b"")
            elif service == "slack":
                self._answer(200, b"ok", "text/plain")
            else:
                self._answer(200, json.dumps({"id": str(len(fake.posts)), "event": "message",
                                              "topic": payload["topic"]}).encode())

        def _answer(self, status: int, body: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    fake.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.server.daemon_threads = True
    threading.Thread(target=fake.server.serve_forever, daemon=True).start()
    return fake


def stop(fake: FakeChat) -> None:
    if fake.server is not None:
        fake.server.shutdown()
        fake.server.server_close()
