"""What a player may give as a notice channel: a supported service, over https, to a public host.

``check_target(url)`` reads a pasted URL (a service's own webhook URL, or an apprise URL such
as ``ntfys://host/topic``) with apprise, refuses any other service, a plain-http scheme and a
host that resolves to a loopback, private, link-local or otherwise non-public address (every
address the name resolves to), and returns the service, the URL to keep and what pages may
show of it (``shown``: the service, the host and the last four characters, never the secret).
The name is resolved again at every post (``guard``), so a host that later resolves to a
private address (DNS rebinding) is refused then too.

Test settings (Flask config only, never read from the environment): ``NOTICE_TEST_LOOPBACK``
allows loopback addresses (127.0.0.0/8, ::1) and plain http to them, so the tests' fake
endpoints can be reached; ``NOTICE_TEST_BASE_URLS`` maps a service with a fixed host
(discord, slack, telegram) to the fake's base URL (``post.py``).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import warnings
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import apprise
from flask import current_app

from pbem.errors import ServiceError

# apprise's secure scheme of each plugin -> our service name and the label pages show
SCHEMES = {"discord": "discord", "slack": "slack", "matrixs": "matrix", "tgram": "telegram",
           "ntfys": "ntfy"}
PLAIN_SCHEMES = {"matrix": "matrix", "ntfy": "ntfy"}  # http: refused but for test loopback
LABELS = {"discord": "Discord", "slack": "Slack", "matrix": "Matrix", "telegram": "Telegram",
          "ntfy": "ntfy"}
FIXED_HOSTS = {"discord": "discord.com", "slack": "hooks.slack.com",
               "telegram": "api.telegram.org"}
CLOUD_NTFY = "ntfy.sh"
MAX_URL = 2000

# apprise logs the URLs it reads and posts to (an unparseable one whole, an ntfy topic):
# secrets. Its records stay inside it: ``post`` captures what it needs of a failure, with
# the secret parts blanked; nothing reaches the app's log handlers.
# Posts are signed "pbem" (Slack's footer) and carry no image: apprise's default theme points
# Discord's avatar and Slack's icon at images on GitHub, which the services would fetch.
ASSET = apprise.AppriseAsset(app_id="pbem", app_desc="Alien Frontiers, played by email",
                             image_url_mask="", image_url_logo="")
_apprise_log = logging.getLogger("apprise")
_apprise_log.addHandler(logging.NullHandler())
_apprise_log.propagate = False


class BadTarget(ServiceError):
    """A channel that cannot be used: the message says why."""

    status = 400


@dataclass(frozen=True)
class Target:
    service: str
    url: str  # the secret: kept, never shown
    host: str
    shown: str


def loopback_allowed() -> bool:
    return bool(current_app.config.get("NOTICE_TEST_LOOPBACK"))


def instantiate(url: str) -> Any:
    """The apprise plugin for ``url`` (None when apprise does not know it).

    apprise loads its plugins on first use; its e-mail plugin imports ``imghdr`` on Python
    3.11-3.12 (its own shim replaces it from 3.13), which warns of its deprecation: that
    one warning is silenced here, where apprise is used, not for the whole process."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "'imghdr' is deprecated", DeprecationWarning)
        return apprise.Apprise.instantiate(url, asset=ASSET, suppress_exceptions=True)


def service_of(plugin: Any) -> tuple[str, bool]:
    """(our service name, whether the plugin's own scheme is https)."""
    scheme = str(plugin.secure_protocol if isinstance(plugin.secure_protocol, str)
                 else plugin.secure_protocol[0])
    service = SCHEMES.get(scheme, "")
    secure = service in FIXED_HOSTS or bool(getattr(plugin, "secure", True))
    return service, secure


def host_of(service: str, plugin: Any) -> str:
    """The host a post goes to (for a fixed-host service under test: the fake's)."""
    if service in FIXED_HOSTS:
        base = (current_app.config.get("NOTICE_TEST_BASE_URLS") or {}).get(service)
        return str(urlsplit(str(base)).hostname) if base else FIXED_HOSTS[service]
    return str(getattr(plugin, "host", "") or "") or CLOUD_NTFY


def check_target(raw: str) -> Target:
    """Read and check a channel URL a player gave; raise ``BadTarget`` saying why not."""
    url = (raw or "").strip()
    if not url:
        raise BadTarget("Paste the webhook URL (or ntfy topic URL) of the channel.")
    if len(url) > MAX_URL or any(ord(c) < 33 for c in url):
        raise BadTarget("That is not a webhook URL: it is too long or has spaces in it.")
    plugin = instantiate(url)
    service, secure = service_of(plugin) if plugin is not None else ("", False)
    if not service:
        raise BadTarget("Use a Discord, Slack, Matrix or Telegram webhook, or an ntfy topic "
                        "(for example https://discord.com/api/webhooks/…).")
    host = host_of(service, plugin)
    plain_http = not secure or url.lower().startswith("http://") or _test_base_is_plain(service)
    if plain_http and not (loopback_allowed() and _all_loopback(host)):
        raise BadTarget(f"{LABELS[service]} notices go over https only: use an https "
                        "address (ntfys:// or matrixs:// for your own server).")
    check_public(host)
    return Target(service, url, host, shown_form(service, host, url))


def shown_form(service: str, host: str, url: str) -> str:
    """What a page shows of a channel: never the secret part, only its last four characters."""
    tail = url.rstrip("/").split("?")[0][-4:]
    return f"{LABELS[service]} · {host} · …{tail}"


def addresses_of(host: str) -> list[str]:
    try:
        infos = socket.getaddrinfo(host.strip("[]"), 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise BadTarget(f"The host {host} cannot be found.") from None
    return sorted({str(info[4][0]) for info in infos})


def refusal(address: str) -> str | None:
    """Why ``address`` may not be posted to (None: it may): only public addresses, and
    loopback when a test allows it."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return f"{address} is not an address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback and loopback_allowed():
        return None
    if not ip.is_global or ip.is_multicast:
        return f"{address} is not a public address"
    return None


def check_public(host: str) -> None:
    """Every address ``host`` resolves to must be public."""
    if urlsplit(f"//{host}").hostname is None:
        raise BadTarget("That webhook URL has no host.")
    for address in addresses_of(host):
        why = refusal(address)
        if why is not None:
            raise BadTarget(f"Notices go to public hosts only: {host} resolves to {why}.")


def _test_base_is_plain(service: str) -> bool:
    base = (current_app.config.get("NOTICE_TEST_BASE_URLS") or {}).get(service)
    return bool(base) and str(base).startswith("http://")


def _all_loopback(host: str) -> bool:
    try:
        return all(ipaddress.ip_address(a.split("%")[0]).is_loopback
                   for a in addresses_of(host))
    except (BadTarget, ValueError):
        return False
