"""Mail over HTTPS: ``resend``, ``brevo``, ``postmark`` and ``mailgun`` (docs/mail.md).

Free hosts may block outbound SMTP ports (Render's free web services since September 2025),
so these backends post each message to the provider's HTTP API instead. They speak the same
contract as ``pbem.mail.outbound.backends``: ``with backend.open() as conn: conn.send(msg)``
returns on acceptance and raises ``TemporaryFailure`` or ``PermanentFailure``, so the outbox's
claim / send / mark cycle and its back-off are unchanged.

How an answer is read (``settle``):

- 2xx: accepted. ``send`` returns the provider's own id for the message, which is logged with
  our Message-ID so a provider's activity log can be matched to an outbox row.
- 429, 5xx, a timeout or a dropped connection: temporary (retried with back-off).
- 401, 402, 403 (bad key, no credits, sender not verified): temporary too. It is our
  account, not the player's address, so the seat is not marked as bouncing; the mail waits
  until the operator fixes the setting, like a refused SMTP login.
- any other 4xx: permanent, with the provider's message kept in ``last_error``.

A message's Message-ID doubles as an idempotency key where the provider has one (Resend,
Brevo): a retry after an answer was lost is not sent twice.
"""

from __future__ import annotations

import json
import logging
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any

import httpx

from pbem.mail.outbound.failures import DeliveryFailure, PermanentFailure, TemporaryFailure

log = logging.getLogger(__name__)

# Headers the outbox composes that an API request carries. ``Date`` is left to the provider,
# which stamps the time it actually sends: one standard header fewer for an API to refuse.
CARRIED_HEADERS = (
    "Message-ID", "In-Reply-To", "References", "List-Unsubscribe", "List-Unsubscribe-Post",
    "List-Id", "Auto-Submitted", "X-Auto-Response-Suppress", "Reply-To",
)
ACCOUNT_STATUSES = frozenset({401, 402, 403})
DEFAULT_TIMEOUT = 10.0
_IDEMPOTENCY_NAMESPACE = uuid.UUID("8f0c6b52-6d5e-4f3a-9a57-3f1d1f5e2b10")


@dataclass(frozen=True)
class Outgoing:
    """What an API needs from a built message: one sender, one recipient, both bodies."""

    sender: str
    to: str
    subject: str
    text: str
    html: str | None
    headers: dict[str, str]

    @classmethod
    def of(cls, msg: EmailMessage) -> Outgoing:
        text_part = msg.get_body(("plain",))
        html_part = msg.get_body(("html",))
        headers = {name: str(msg[name]) for name in CARRIED_HEADERS if msg[name] is not None}
        return cls(
            sender=str(msg["From"]), to=str(msg["To"]), subject=str(msg["Subject"]),
            text=_content(text_part) or "", html=_content(html_part), headers=headers,
        )

    @property
    def message_id(self) -> str:
        return self.headers.get("Message-ID", "")


def _content(part: Any) -> str | None:
    return None if part is None else str(part.get_content())


@dataclass(frozen=True)
class Request:
    """One POST to the provider: a path below the base URL and its body."""

    path: str
    json_body: dict[str, Any] | None = None
    form: dict[str, str] | None = None
    headers: Mapping[str, str] | None = None


class ApiBackend(ABC):
    """Shared by every provider: one ``httpx.Client`` per delivery batch, explicit timeouts.
    Each provider gives its own authentication headers, request and reading of the id."""

    name: str = "api"
    default_base_url: str = ""

    def __init__(self, api_key: str, *, base_url: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.api_key = api_key
        self.base_url = (base_url or self.default_base_url).rstrip("/")
        self.timeout = timeout

    @contextmanager
    def open(self) -> Iterator[ApiConnection]:
        timeout = httpx.Timeout(self.timeout, connect=min(self.timeout, 5.0))
        with httpx.Client(base_url=self.base_url, timeout=timeout, auth=self.auth(),
                          headers={"Accept": "application/json", **self.auth_headers()},
                          follow_redirects=False) as client:
            yield ApiConnection(self, client)

    def auth(self) -> httpx.Auth | None:
        return None

    @abstractmethod
    def auth_headers(self) -> dict[str, str]:
        """The headers that authenticate every request to the provider."""

    @abstractmethod
    def request(self, mail: Outgoing) -> Request:
        """The provider's API call that sends ``mail``."""

    @abstractmethod
    def provider_id(self, body: Any) -> str | None:
        """The provider's id of an accepted message, read from its answer's JSON."""

    def refusal(self, response: httpx.Response) -> DeliveryFailure | None:
        """A provider-specific reading of a non-2xx answer, or None for the common rules."""
        return None

    def settle(self, response: httpx.Response) -> str | None:
        """Return the provider's id on acceptance; raise the failure class otherwise."""
        status = response.status_code
        if 200 <= status < 300:
            return self.provider_id(_json(response))
        text = f"{self.name} {status}: {error_message(response)}"
        special = self.refusal(response)
        if special is not None:
            raise special
        if status == 429 or status >= 500 or status in ACCOUNT_STATUSES or status < 400:
            raise TemporaryFailure(text, status)
        raise PermanentFailure(text, status)


class ApiConnection:
    """Sends over one client; transport errors become ``TemporaryFailure``."""

    def __init__(self, backend: ApiBackend, client: httpx.Client) -> None:
        self.backend, self.client = backend, client

    def send(self, msg: EmailMessage) -> str | None:
        mail = Outgoing.of(msg)
        req = self.backend.request(mail)
        name = self.backend.name
        try:
            response = self.client.post(req.path, json=req.json_body, data=req.form,
                                        headers=req.headers)
        except httpx.TimeoutException as exc:
            raise TemporaryFailure(f"{name}: no answer within {self.backend.timeout:g} s "
                                   f"({type(exc).__name__})") from exc
        except httpx.RequestError as exc:  # refused, reset, dropped, undecodable
            raise TemporaryFailure(f"{name}: {type(exc).__name__}: {exc}") from exc
        provider_id = self.backend.settle(response)
        log.info("mail %s accepted by %s as %s", mail.message_id, name, provider_id)
        return provider_id


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def error_message(response: httpx.Response) -> str:
    """The provider's own words: ``message`` / ``Message`` / ``error`` fields, else the text."""
    body = _json(response)
    if isinstance(body, dict):
        for key in ("message", "Message", "error", "detail"):
            value = body.get(key)
            if isinstance(value, str) and value:
                code = body.get("name") or body.get("code") or body.get("ErrorCode")
                return f"{value} ({code})" if code not in (None, "") else value
    return (response.text or response.reason_phrase or "no message").strip()[:500]


def idempotency_uuid(message_id: str) -> str:
    """A UUID derived from the Message-ID: the same message always gets the same key."""
    return str(uuid.uuid5(_IDEMPOTENCY_NAMESPACE, message_id))


class ResendBackend(ApiBackend):
    """``POST /emails`` with ``Authorization: Bearer``; answers ``{"id": ...}``."""

    name = "resend"
    default_base_url = "https://api.resend.com"

    def auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}

    def request(self, mail: Outgoing) -> Request:
        body: dict[str, Any] = {"from": mail.sender, "to": [mail.to], "subject": mail.subject,
                                "text": mail.text, "headers": mail.headers}
        if mail.html:
            body["html"] = mail.html
        # Resend keeps an Idempotency-Key for 24 hours (at most 256 characters).
        key = {"Idempotency-Key": mail.message_id[:256]} if mail.message_id else None
        return Request("/emails", json_body=body, headers=key)

    def provider_id(self, body: Any) -> str | None:
        return _field(body, "id")

    def refusal(self, response: httpx.Response) -> DeliveryFailure | None:
        # 409: a request with the same Idempotency-Key is still in progress; ask again later.
        if response.status_code == 409:
            return TemporaryFailure(f"resend 409: {error_message(response)}", 409)
        return None


class BrevoBackend(ApiBackend):
    """``POST /v3/smtp/email`` with an ``api-key`` header; answers ``{"messageId": ...}``."""

    name = "brevo"
    default_base_url = "https://api.brevo.com"

    def auth_headers(self) -> dict[str, str]:
        return {"api-key": self.api_key}

    def request(self, mail: Outgoing) -> Request:
        sender_name, sender_email = parseaddr(mail.sender)
        sender = {"email": sender_email, **({"name": sender_name} if sender_name else {})}
        headers = dict(mail.headers)
        if mail.message_id:  # Brevo wants a UUID here, kept for 30 minutes
            headers["idempotencyKey"] = idempotency_uuid(mail.message_id)
        body: dict[str, Any] = {"sender": sender, "to": [{"email": mail.to}],
                                "subject": mail.subject, "textContent": mail.text,
                                "headers": headers}
        if mail.html:
            body["htmlContent"] = mail.html
        return Request("/v3/smtp/email", json_body=body)

    def provider_id(self, body: Any) -> str | None:
        return _field(body, "messageId")


# Postmark answers 422 with an ErrorCode; these codes are about our account or sender
# signature (our configuration), not about the recipient: retry, do not mark the seat.
POSTMARK_ACCOUNT_CODES = frozenset({10, 400, 401, 405, 412, 413})


class PostmarkBackend(ApiBackend):
    """``POST /email`` with ``X-Postmark-Server-Token``; answers ``{"MessageID": ...}``."""

    name = "postmark"
    default_base_url = "https://api.postmarkapp.com"

    def __init__(self, api_key: str, *, message_stream: str = "outbound", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.message_stream = message_stream

    def auth_headers(self) -> dict[str, str]:
        return {"X-Postmark-Server-Token": self.api_key}

    def request(self, mail: Outgoing) -> Request:
        body: dict[str, Any] = {
            "From": mail.sender, "To": mail.to, "Subject": mail.subject,
            "TextBody": mail.text, "MessageStream": self.message_stream,
            "Headers": [{"Name": k, "Value": v} for k, v in mail.headers.items()],
        }
        if mail.html:
            body["HtmlBody"] = mail.html
        return Request("/email", json_body=body)

    def provider_id(self, body: Any) -> str | None:
        return _field(body, "MessageID")

    def refusal(self, response: httpx.Response) -> DeliveryFailure | None:
        body = _json(response)
        code = body.get("ErrorCode") if isinstance(body, dict) else None
        if response.status_code == 422 and code in POSTMARK_ACCOUNT_CODES:
            return TemporaryFailure(f"postmark 422: {error_message(response)}", 422)
        return None


class MailgunBackend(ApiBackend):
    """``POST /v3/<domain>/messages`` (form fields, ``h:`` headers) with basic auth."""

    name = "mailgun"
    default_base_url = "https://api.mailgun.net"

    def __init__(self, api_key: str, *, domain: str, **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.domain = domain

    def auth(self) -> httpx.Auth | None:
        return httpx.BasicAuth("api", self.api_key)

    def auth_headers(self) -> dict[str, str]:
        return {}

    def request(self, mail: Outgoing) -> Request:
        form = {"from": mail.sender, "to": mail.to, "subject": mail.subject, "text": mail.text}
        if mail.html:
            form["html"] = mail.html
        form.update({f"h:{name}": value for name, value in mail.headers.items()})
        return Request(f"/v3/{self.domain}/messages", form=form)

    def provider_id(self, body: Any) -> str | None:
        return _field(body, "id")


def _field(body: Any, key: str) -> str | None:
    value = body.get(key) if isinstance(body, dict) else None
    return str(value) if value is not None else None


PROVIDERS: dict[str, type[ApiBackend]] = {
    backend.name: backend
    for backend in (ResendBackend, BrevoBackend, PostmarkBackend, MailgunBackend)
}


def from_config(kind: str, config: Mapping[str, Any]) -> ApiBackend:
    """The API backend ``kind`` configured from ``MAIL_API_KEY`` and its provider settings."""
    prefix = kind.upper()
    common: dict[str, Any] = {
        "base_url": config.get(f"{prefix}_API_URL") or None,
        "timeout": float(config.get("MAIL_API_TIMEOUT") or DEFAULT_TIMEOUT),
    }
    key = str(config.get("MAIL_API_KEY") or "")
    if kind == "postmark":
        return PostmarkBackend(key, message_stream=str(
            config.get("POSTMARK_MESSAGE_STREAM") or "outbound"), **common)
    if kind == "mailgun":
        domain = config.get("MAILGUN_DOMAIN") or parseaddr(
            str(config.get("MAIL_FROM", "")))[1].rpartition("@")[2]
        return MailgunBackend(key, domain=str(domain), **common)
    return PROVIDERS[kind](key, **common)
