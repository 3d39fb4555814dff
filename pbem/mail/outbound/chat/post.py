"""Send one notice through apprise, inside the send-time address check.

apprise's Discord, Slack and Telegram plugins post to a fixed base URL (``notify_url`` or
``webhook_url`` on the plugin class); a test maps it to its fake endpoint with the Flask
setting ``NOTICE_TEST_BASE_URLS`` (``{"discord": "http://127.0.0.1:PORT/api/webhooks"}``),
set on the plugin instance only. The address check is the same either way: a fake on
loopback is reached only when ``NOTICE_TEST_LOOPBACK`` allows loopback too.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import apprise
from flask import current_app

from pbem.mail.outbound.chat import guard, targets

log = logging.getLogger(__name__)
BASE_URL_ATTRIBUTES = {"discord": "notify_url", "slack": "webhook_url",
                       "telegram": "notify_url"}
CONNECT_SECONDS = 5.0
READ_SECONDS = 10.0


@dataclass(frozen=True)
class PostResult:
    ok: bool
    error: str = ""


def send(url: str, title: str, body: str) -> PostResult:
    """Post ``title`` and ``body`` to the channel at ``url`` (an apprise URL, kept secret);
    the error, when it failed, has the URL's secret parts blanked."""
    plugin = targets.instantiate(url)
    if plugin is None:
        return PostResult(False, "the channel's URL is no longer understood")
    service, _ = targets.service_of(plugin)
    _point_at_test_base(plugin, service)
    plugin.socket_connect_timeout, plugin.socket_read_timeout = CONNECT_SECONDS, READ_SECONDS
    plugin.redirects = False  # a webhook has no reason to send a post elsewhere
    with apprise.LogCapture(level=logging.WARNING,  # type: ignore[no-untyped-call]
                            fmt="%(message)s") as captured, \
            guard.checked_addresses(targets.refusal) as outcome:
        ok = bool(plugin.notify(body=body, title=title))
    if ok:
        return PostResult(True)
    said = outcome.refused or _last_line(str(captured.getvalue())) or "the service refused"
    return PostResult(False, scrub(said, url))


def _point_at_test_base(plugin: object, service: str) -> None:
    bases = current_app.config.get("NOTICE_TEST_BASE_URLS") or {}
    attribute = BASE_URL_ATTRIBUTES.get(service)
    if attribute and service in bases:
        setattr(plugin, attribute, str(bases[service]).rstrip("/"))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:500] if lines else ""


def scrub(text: str, url: str) -> str:
    """``text`` with every secret-looking part of ``url`` (path segments, user info, query
    values of 6 characters or more) replaced by ``…``."""
    parts = {p for p in re.split(r"[/:@?&=#]", url) if len(p) >= 6 and "." not in p}
    parts -= {"webhooks", "services"}  # the path's fixed words; hosts (with a dot) stay
    for part in sorted(parts, key=len, reverse=True):
        text = text.replace(part, "…")
    return text
