"""Absolute links for mail, built against ``SERVER_NAME`` — never a request's Host header.

A mail is composed inside whatever request caused it, but the link must work from the
recipient's inbox, so the URL adapter is bound here to the configured server name and scheme
instead of the request. When a page's endpoint is not registered (yet), the documented path
from docs/architecture.md is used.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import current_app
from werkzeug.routing import BuildError

DEV_SERVER_NAME = "127.0.0.1:5000"  # ``pbem serve`` default, for a bare dev checkout
# Set by ``pbem serve`` to the address it listens on when no SERVER_NAME is configured, so a
# local run on another port mails links to that port. Not SERVER_NAME itself: Flask would
# then refuse requests whose Host names the machine differently (localhost vs 127.0.0.1).
SERVED_AT = "PBEM_SERVED_AT"


def server_name() -> str:
    """The host[:port] mailed links point at."""
    config = current_app.config
    return str(config.get("SERVER_NAME") or config.get(SERVED_AT) or DEV_SERVER_NAME)


def base_url() -> str:
    config = current_app.config
    server = server_name()
    scheme = config.get("PREFERRED_URL_SCHEME") or "http"
    root = (config.get("APPLICATION_ROOT") or "/").rstrip("/")
    return f"{scheme}://{server}{root}"


def external(endpoints: tuple[str, ...], fallback_path: str, **values: Any) -> str:
    """The first of ``endpoints`` that builds, as an absolute URL; else ``fallback_path``."""
    config = current_app.config
    adapter = current_app.url_map.bind(
        server_name(),
        script_name=config.get("APPLICATION_ROOT") or "/",
        url_scheme=config.get("PREFERRED_URL_SCHEME") or "http",
    )
    for endpoint in endpoints:
        if endpoint not in current_app.view_functions:
            continue
        try:
            return adapter.build(endpoint, values, force_external=True)
        except BuildError:
            continue
    return base_url() + fallback_path


def with_query(url: str, **params: str) -> str:
    sep = "&" if "?" in url else "?"
    return url + sep + urlencode(params)
