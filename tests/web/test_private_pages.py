"""Pages that show addresses or carry a seat's key are never cached, and the links the app
builds for the host use the public scheme behind a TLS proxy (issue #13)."""

from __future__ import annotations

import re

from flask import Flask

from pbem import tokens
from tests.conftest import MakeApp

from .conftest import EMAILS, Table, hidden, magic_key


def test_pages_that_show_addresses_or_keys_are_never_cached(app: Flask, table: Table) -> None:
    client = app.test_client()
    host = tokens.make_host_token(table.public_id)
    pages = {
        "rematch form": f"/games/new?rematch={host}",
        "host page": f"/host/{host}",
        "my games": f"/me/{magic_key(app, EMAILS[0])}",
        "seat page": f"/play/{table.links[0]}",
    }
    for what, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, what
        assert response.headers.get("Cache-Control") == "no-store", what
    assert EMAILS[1] in client.get(pages["rematch form"]).get_data(as_text=True)


def _create(client: object, **headers: str) -> str:
    form = client.get("/games/new", headers=headers).get_data(as_text=True)  # type: ignore[attr-defined]
    created = client.post("/games/new", headers=headers, data={  # type: ignore[attr-defined]
        "csrf_token": hidden(form, "csrf_token"), "name": "Lunch", "host_email":
        "host@example.net", "hours": "24", "seat-0-name": "Ana",
        "seat-0-email": "ana@example.net", "seat-1-name": "Robo", "seat-1-computer": "on"})
    assert created.status_code == 303, created.get_data(as_text=True)[:1000]
    created = client.get(created.headers["Location"], headers=headers)  # type: ignore[attr-defined]
    assert created.status_code == 200
    assert created.headers["Cache-Control"] == "no-store"
    found = re.search(r'href="([^"]*/host/[^"]+)"', created.get_data(as_text=True))
    assert found, "the created page links the host page"
    return found.group(1)


def test_the_host_link_uses_https_behind_a_tls_proxy(make_app: MakeApp, app: Flask) -> None:
    behind = make_app(PROXY_HOPS=1)
    link = _create(behind.test_client(), **{
        "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9",
        "Referer": "https://localhost/games/new"})  # what a same-origin policy lets through
    assert link.startswith("https://"), link


def test_forwarded_headers_are_ignored_when_not_behind_a_proxy(app: Flask) -> None:
    link = _create(app.test_client(), **{"X-Forwarded-Proto": "https",
                                         "X-Forwarded-Host": "evil.example"})
    assert link.startswith("http://localhost/host/"), link
