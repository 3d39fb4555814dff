"""Local fakes of the mail providers' HTTP APIs: a real HTTP server on 127.0.0.1, port 0.

Each fake checks a request the way the provider documents it (path, auth header, JSON or form
fields, the headers carried) and answers with the provider's documented response shapes.
``faults`` is a queue consumed one request at a time:

- ``"429"``, ``"500"``, ``"4xx"``: the provider's rate-limit / server-error / refusal answer;
- ``"timeout"``: no answer for longer than the client waits, then a 503; nothing recorded;
- ``"drop"``: the connection is closed without an answer; nothing recorded;
- ``"late"``: the message is accepted and recorded, but the answer comes too late — the case
  an idempotency key exists for (a retry with the same key is answered, not sent again).

``shape_errors`` lists every way a request differed from the documented shape: a test that
passes with a non-empty list has not proven anything, so the fixtures assert it is empty.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

API_KEY = "test-key-123"
MAILGUN_DOMAIN = "mg.pbem.test"
PROVIDERS = ("resend", "brevo", "postmark", "mailgun")
IDEMPOTENT = {"resend", "brevo"}


@dataclass
class Received:
    """One message the fake accepted, in provider-neutral form."""

    sender: str
    to: str
    subject: str
    text: str
    html: str | None
    headers: dict[str, str]
    provider_id: str


@dataclass
class Answer:
    status: int
    body: dict[str, Any]


# The providers' documented answers (bodies abridged to the fields they document).
def _accepted(provider: str, to: str) -> Answer:
    if provider == "resend":
        return Answer(200, {"id": str(uuid.uuid4())})
    if provider == "brevo":
        return Answer(201, {"messageId": f"<{uuid.uuid4().hex}@smtp-relay.mailin.fr>"})
    if provider == "postmark":
        return Answer(200, {"To": to, "SubmittedAt": "2026-12-01T12:00:00.0000000Z",
                            "MessageID": str(uuid.uuid4()), "ErrorCode": 0, "Message": "OK"})
    return Answer(200, {"id": f"<{uuid.uuid4().hex}@{MAILGUN_DOMAIN}>",
                        "message": "Queued. Thank you."})


ERRORS: dict[str, dict[str, Answer]] = {
    "resend": {
        "429": Answer(429, {"statusCode": 429, "name": "rate_limit_exceeded",
                            "message": "Too many requests. You can only make 2 requests per "
                                       "second."}),
        "500": Answer(500, {"statusCode": 500, "name": "internal_server_error",
                            "message": "An unexpected error occurred."}),
        "4xx": Answer(422, {"statusCode": 422, "name": "validation_error",
                            "message": "Invalid `to` field."}),
        "auth": Answer(403, {"statusCode": 403, "name": "invalid_api_key",
                             "message": "API key is invalid"}),
        "409": Answer(409, {"statusCode": 409, "name": "concurrent_idempotent_requests",
                            "message": "Same idempotency key used while original request "
                                       "is still in progress."}),
    },
    "brevo": {
        "429": Answer(429, {"code": "too_many_requests", "message": "Too many requests"}),
        "500": Answer(500, {"code": "internal_error", "message": "Internal server error"}),
        "4xx": Answer(400, {"code": "invalid_parameter",
                            "message": "email is not valid in to"}),
        "auth": Answer(401, {"code": "unauthorized", "message": "Key not found"}),
    },
    "postmark": {
        "429": Answer(429, {"ErrorCode": 429, "Message": "Rate limit exceeded"}),
        "500": Answer(500, {"ErrorCode": 100, "Message": "Maintenance"}),
        "4xx": Answer(422, {"ErrorCode": 406, "Message": "You tried to send to recipient(s) "
                            "that have been marked as inactive."}),
        "sender": Answer(422, {"ErrorCode": 400, "Message": "The 'From' address you supplied "
                               "is not a Sender Signature on your account."}),
        "auth": Answer(401, {"ErrorCode": 10, "Message": "Bad or missing API token"}),
    },
    "mailgun": {
        "429": Answer(429, {"message": "Too many requests"}),
        "500": Answer(500, {"message": "Internal Server Error"}),
        "4xx": Answer(400, {"message": "to parameter is not a valid address. please check "
                                       "documentation"}),
        "auth": Answer(401, {"message": "Invalid private key"}),
    },
}


@dataclass
class FakeProvider:
    provider: str
    stall_seconds: float = 1.5
    # Set to end every stall at once: a test that must know the client gave up first holds
    # the answer back on this rather than on the clock.
    released: threading.Event = field(default_factory=threading.Event)
    stalls_answered: int = 0
    received: list[Received] = field(default_factory=list)
    faults: deque[str] = field(default_factory=deque)
    shape_errors: list[str] = field(default_factory=list)
    requests: int = 0
    _keys: dict[str, Answer] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                fake._handle(self)

            def log_message(self, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def message_ids(self) -> list[str]:
        return [r.headers.get("Message-ID", "") for r in self.received]

    # -- one request ---------------------------------------------------------------------
    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        raw = handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
        with self._lock:
            self.requests += 1
            fault = self.faults.popleft() if self.faults else None
        if fault == "drop":
            handler.close_connection = True
            handler.connection.close()
            return
        if fault == "timeout":
            self.released.wait(self.stall_seconds)
            with self._lock:
                self.stalls_answered += 1
            _answer(handler, Answer(503, {"message": "Service Unavailable"}))
            return
        if fault in ("429", "500", "4xx", "auth", "sender", "409"):
            _answer(handler, ERRORS[self.provider][fault])
            return
        if not self._authorised(handler):
            _answer(handler, ERRORS[self.provider]["auth"])
            return
        parsed = self._parse(handler, raw)
        if parsed is None:
            _answer(handler, Answer(400, {"message": "request shape differs from the docs"}))
            return
        mail, key = parsed
        with self._lock:
            if key is not None and key in self._keys:
                answer = self._keys[key]  # the provider answers again, sends nothing
            else:
                answer = _accepted(self.provider, mail.to)
                mail.provider_id = str(next(iter(
                    v for k, v in answer.body.items() if k in ("id", "messageId", "MessageID"))))
                self.received.append(mail)
                if key is not None:
                    self._keys[key] = answer
        if fault == "late":
            time.sleep(self.stall_seconds)
        _answer(handler, answer)

    def _authorised(self, handler: BaseHTTPRequestHandler) -> bool:
        headers = handler.headers
        if self.provider == "resend":
            return headers.get("Authorization") == f"Bearer {API_KEY}"
        if self.provider == "brevo":
            return headers.get("api-key") == API_KEY
        if self.provider == "postmark":
            return headers.get("X-Postmark-Server-Token") == API_KEY
        expected = base64.b64encode(f"api:{API_KEY}".encode()).decode()
        return headers.get("Authorization") == f"Basic {expected}"

    def _error(self, text: str) -> None:
        self.shape_errors.append(f"{self.provider}: {text}")

    def _parse(self, handler: BaseHTTPRequestHandler, raw: bytes
               ) -> tuple[Received, str | None] | None:
        expected_path = {"resend": "/emails", "brevo": "/v3/smtp/email", "postmark": "/email",
                         "mailgun": f"/v3/{MAILGUN_DOMAIN}/messages"}[self.provider]
        if handler.path != expected_path:
            self._error(f"path {handler.path!r}, documented {expected_path!r}")
            return None
        if self.provider == "mailgun":
            return self._parse_mailgun(handler, raw)
        if not handler.headers.get("Content-Type", "").startswith("application/json"):
            self._error("body is not JSON")
            return None
        body = json.loads(raw)
        if self.provider == "resend":
            return self._parse_resend(handler, body)
        if self.provider == "brevo":
            return self._parse_brevo(body)
        return self._parse_postmark(body)

    def _require(self, body: dict[str, Any], *names: str) -> bool:
        missing = [n for n in names if not isinstance(body.get(n), str | list | dict)]
        if missing:
            self._error(f"missing {missing}")
        return not missing

    def _parse_resend(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]
                      ) -> tuple[Received, str | None] | None:
        if not self._require(body, "from", "to", "subject", "text", "headers"):
            return None
        if not (isinstance(body["to"], list) and len(body["to"]) == 1):
            self._error("resend: `to` must be a list of one address")
            return None
        return (Received(body["from"], body["to"][0], body["subject"], body["text"],
                         body.get("html"), dict(body["headers"]), ""),
                handler.headers.get("Idempotency-Key"))

    def _parse_brevo(self, body: dict[str, Any]) -> tuple[Received, str | None] | None:
        if not self._require(body, "sender", "to", "subject", "textContent", "headers"):
            return None
        sender, to = body["sender"], body["to"]
        if not (isinstance(sender, dict) and "email" in sender):
            self._error("brevo: sender must be {email, name?}")
            return None
        if not (isinstance(to, list) and len(to) == 1 and "email" in to[0]):
            self._error("brevo: to must be [{email}]")
            return None
        headers = dict(body["headers"])
        key = headers.pop("idempotencyKey", None)
        if key is not None:
            uuid.UUID(key)  # Brevo documents a UUID
        name = sender.get("name")
        shown = f"{name} <{sender['email']}>" if name else sender["email"]
        return (Received(shown, to[0]["email"], body["subject"], body["textContent"],
                         body.get("htmlContent"), headers, ""), key)

    def _parse_postmark(self, body: dict[str, Any]) -> tuple[Received, str | None] | None:
        if not self._require(body, "From", "To", "Subject", "TextBody", "Headers",
                             "MessageStream"):
            return None
        pairs = body["Headers"]
        if not all(isinstance(p, dict) and set(p) == {"Name", "Value"} for p in pairs):
            self._error("postmark: Headers must be [{Name, Value}]")
            return None
        headers = {p["Name"]: p["Value"] for p in pairs}
        return (Received(body["From"], body["To"], body["Subject"], body["TextBody"],
                         body.get("HtmlBody"), headers, ""), None)

    def _parse_mailgun(self, handler: BaseHTTPRequestHandler, raw: bytes
                       ) -> tuple[Received, str | None] | None:
        if not handler.headers.get("Content-Type", "").startswith(
                "application/x-www-form-urlencoded"):
            self._error("mailgun: body is not a form")
            return None
        form = dict(parse_qsl(raw.decode(), keep_blank_values=True))
        if not all(n in form for n in ("from", "to", "subject", "text")):
            self._error(f"mailgun: missing fields in {sorted(form)}")
            return None
        headers = {k[2:]: v for k, v in form.items() if k.startswith("h:")}
        return (Received(form["from"], form["to"], form["subject"], form["text"],
                         form.get("html"), headers, ""), None)


def _answer(handler: BaseHTTPRequestHandler, answer: Answer) -> None:
    payload = json.dumps(answer.body).encode()
    try:
        handler.send_response(answer.status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client gave up waiting (a timeout fault): nobody to answer


def app_settings(fake: FakeProvider, timeout: float = 1.0) -> dict[str, Any]:
    """Flask config sending through ``fake`` (short timeout: the stall faults outlast it)."""
    return {
        "MAIL_BACKEND": fake.provider, "MAIL_API_KEY": API_KEY, "MAIL_API_TIMEOUT": timeout,
        f"{fake.provider.upper()}_API_URL": fake.url, "MAILGUN_DOMAIN": MAILGUN_DOMAIN,
        "POSTMARK_MESSAGE_STREAM": "outbound",
        "MAIL_FROM": "Alien Frontiers <pbem@pbem.test>", "MAIL_MESSAGE_ID_DOMAIN": "pbem.test",
        "SERVER_NAME": "pbem.test", "PREFERRED_URL_SCHEME": "https", "WTF_CSRF_ENABLED": False,
    }
