"""How a message leaves: ``smtp`` (smtplib), ``console`` (prints) or ``dev`` (keeps it).

A backend is opened once per delivery batch (``with backend.open() as conn``) so one SMTP
connection carries the whole batch. ``conn.send(msg)`` returns on acceptance and raises
``TemporaryFailure`` (try again later) or ``PermanentFailure`` (a 5xx refusal: never retry).
The ``dev`` backend sends nothing: the outbox row marked ``sent`` is the delivered message,
and ``/dev/mailbox`` shows it.
"""

from __future__ import annotations

import smtplib
import ssl
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any, Protocol, TextIO

from pbem.config import API_MAIL_BACKENDS

# Re-exported: the outbox and the tests name the failures through this module.
from pbem.mail.outbound.failures import DeliveryFailure as DeliveryFailure
from pbem.mail.outbound.failures import PermanentFailure as PermanentFailure
from pbem.mail.outbound.failures import TemporaryFailure as TemporaryFailure


class Connection(Protocol):
    def send(self, msg: EmailMessage) -> None: ...


class Backend(Protocol):
    name: str

    def open(self) -> Any: ...


class DevBackend:
    """Keep messages in the outbox only (``/dev/mailbox`` reads the sent rows)."""

    name = "dev"

    @contextmanager
    def open(self) -> Iterator[Connection]:
        yield self

    def send(self, msg: EmailMessage) -> None:
        return None


class ConsoleBackend:
    """Print each message to standard output (or ``stream``), e.g. in a PaaS log."""

    name = "console"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    @contextmanager
    def open(self) -> Iterator[Connection]:
        yield self

    def send(self, msg: EmailMessage) -> None:
        stream = self.stream or sys.stdout
        stream.write(msg.as_string() + "\n" + "-" * 72 + "\n")
        stream.flush()


class SMTPBackend:
    """smtplib with STARTTLS, implicit TLS (``ssl``) or none, and optional login."""

    name = "smtp"

    def __init__(self, host: str, port: int, *, security: str = "starttls",
                 username: str | None = None, password: str | None = None,
                 timeout: float = 30.0) -> None:
        self.host, self.port, self.security = host, port, security
        self.username, self.password, self.timeout = username, password, timeout

    @contextmanager
    def open(self) -> Iterator[Connection]:
        conn = _SMTPConnection(self)
        try:
            yield conn
        finally:
            conn.close()

    def connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.security == "ssl":
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        try:
            smtp.ehlo()
            if self.security == "starttls":
                smtp.starttls(context=context)
                smtp.ehlo()
            if self.username:
                smtp.login(self.username, self.password or "")
        except BaseException:
            _quietly_close(smtp)
            raise
        return smtp


class _SMTPConnection:
    """One SMTP session, opened on the first message and reused for the batch."""

    def __init__(self, backend: SMTPBackend) -> None:
        self.backend = backend
        self.smtp: smtplib.SMTP | None = None

    def send(self, msg: EmailMessage) -> None:
        try:
            self._send_once(msg)
        except smtplib.SMTPServerDisconnected:
            self.close()  # the server closed an idle session: one fresh try
            try:
                self._send_once(msg)
            except (smtplib.SMTPException, OSError) as exc:
                raise classify(exc) from exc
        except (smtplib.SMTPException, OSError) as exc:
            if not isinstance(exc, smtplib.SMTPRecipientsRefused | smtplib.SMTPResponseException):
                self.close()
            raise classify(exc) from exc

    def _send_once(self, msg: EmailMessage) -> None:
        if self.smtp is None:
            self.smtp = self.backend.connect()
        self.smtp.send_message(msg)

    def close(self) -> None:
        if self.smtp is not None:
            _quietly_close(self.smtp)
            self.smtp = None


def _quietly_close(smtp: smtplib.SMTP) -> None:
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        smtp.close()


def classify(exc: BaseException) -> DeliveryFailure:
    """A 5xx refusal of the recipient or the message is permanent; everything else is not."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        text = "; ".join(f"{code} {_text(reply)}" for code, reply in exc.recipients.values())
        if codes and all(500 <= c < 600 for c in codes):
            return PermanentFailure(text, codes[0])
        return TemporaryFailure(text, codes[0] if codes else None)
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        # Our credentials are wrong: a configuration problem, not the recipient's fault.
        return TemporaryFailure(f"{exc.smtp_code} {_text(exc.smtp_error)}", exc.smtp_code)
    if isinstance(exc, smtplib.SMTPResponseException):
        text = f"{exc.smtp_code} {_text(exc.smtp_error)}"
        # A refused sender (MAIL FROM) is our configuration, not the recipient: retry.
        if 500 <= exc.smtp_code < 600 and isinstance(exc, smtplib.SMTPDataError):
            return PermanentFailure(text, exc.smtp_code)
        return TemporaryFailure(text, exc.smtp_code)
    return TemporaryFailure(f"{type(exc).__name__}: {exc}")


def _text(reply: bytes | str) -> str:
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


def from_config(config: Mapping[str, Any]) -> Backend:
    """The backend ``MAIL_BACKEND`` names, configured from the ``SMTP_*`` settings, or one of
    the HTTP-API backends of ``pbem.mail.outbound.api_backends`` (``resend``, ``brevo``, ...)."""
    kind = config.get("MAIL_BACKEND", "dev")
    if kind in API_MAIL_BACKENDS:
        # httpx (~3-5 MB of a web worker, which every request would carry) only where a mail
        # goes out over an HTTP API
        from pbem.mail.outbound import api_backends

        return api_backends.from_config(kind, config)
    if kind == "smtp":
        return SMTPBackend(
            config.get("SMTP_HOST", "localhost"), int(config.get("SMTP_PORT", 587)),
            security=config.get("SMTP_SECURITY", "starttls"),
            username=config.get("SMTP_USERNAME"), password=config.get("SMTP_PASSWORD"),
            timeout=float(config.get("SMTP_TIMEOUT", 30.0)),
        )
    if kind == "console":
        return ConsoleBackend()
    return DevBackend()
