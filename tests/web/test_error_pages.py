"""Every refusal the server makes by itself is the site's own: the error page in HTML, JSON
under /api/, never Werkzeug's default page (issue #13). Bodies larger than MAX_CONTENT_LENGTH
are refused before they are read; JSON nested too deeply is a 400 with a sentence."""

from __future__ import annotations

import io
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from pbem import tokens
from tests.conftest import MakeApp

from .conftest import Table, hidden, snapshot

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
WERKZEUG_MARKS = ("<title>404 Not Found</title>", "<title>405 Method Not Allowed</title>",
                  "The requested URL was not found on the server",
                  "The method is not allowed for the requested URL")


def assert_the_sites_own(response: TestResponse, path: str, status: int) -> None:
    assert response.status_code == status, (path, response.status_code)
    if path.startswith("/api/"):
        body = response.get_json()
        assert response.mimetype == "application/json", path
        assert body["error"] and body["message"].endswith("."), (path, body)
        return
    page = response.get_data(as_text=True)
    assert response.mimetype == "text/html", path
    assert f"Error {status}" in page and 'class="error"' in page, (path, page[:300])
    assert 'href="/"' in page, "a way back to the home page"
    for mark in WERKZEUG_MARKS:
        assert mark not in page, (path, mark)


def _concrete(rule: str, table: Table) -> str:
    host = tokens.make_host_token(table.public_id)
    return (rule.replace("<seat_link>", table.links[0]).replace("<public_id>", table.public_id)
            .replace("<token>", host).replace("<int:message_id>", "1")
            .replace("<path:filename>", "style.css"))


def test_a_wrong_method_on_every_route_gets_the_sites_405(app: Flask, table: Table) -> None:
    client = app.test_client()
    tried = 0
    for rule in app.url_map.iter_rules():
        path = _concrete(rule.rule, table)
        for method in METHODS:
            if method in (rule.methods or ()) or _answers(app, path, method):
                continue
            response = client.open(path, method=method)
            assert_the_sites_own(response, path, 405)
            assert response.headers.get("Allow"), path
            tried += 1
    assert tried > 50


def _answers(app: Flask, path: str, method: str) -> bool:
    """Another rule of the same path takes this method (GET and POST of one address)."""
    adapter = app.url_map.bind("localhost")
    try:
        adapter.match(path, method=method)
    except Exception:
        return False
    return True


@pytest.mark.parametrize("path", [
    "/nothing-here", "/play", "/play/", "/games/", "/host/", "/me/a/b", "/static/missing.css",
    "/mail/unsubscribe/", "/api/nothing-here", "/api/games/x/nothing", "/dev/nothing",
    "/games/junk/replay/extra", "/%ff", "/play/x/act/more",
])
def test_unknown_paths_get_the_sites_404(client: FlaskClient, path: str) -> None:
    for method in ("GET", "POST", "HEAD"):
        response = client.open(path, method=method)
        expected = 405 if path.startswith("/static/") and method == "POST" else 404
        if method == "HEAD":
            assert response.status_code == expected and not response.get_data()
            continue
        assert_the_sites_own(response, path, expected)


def test_a_form_without_its_csrf_token_gets_the_sites_400(client: FlaskClient) -> None:
    response = client.post("/games/new", data={"name": "No token"})
    assert_the_sites_own(response, "/games/new", 400)
    assert "reload the page" in response.get_data(as_text=True)


class CountingStream(io.RawIOBase):
    """A huge body, never held in memory, that counts what is read of it (the test client
    seeks to its end and back to measure it: that reads nothing)."""

    def __init__(self, size: int) -> None:
        self.size, self.position, self.read_bytes = size, 0, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = 0) -> int:
        self.position = {0: offset, 1: self.position + offset, 2: self.size + offset}[whence]
        return self.position

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        n = max(0, min(len(buffer), self.size - self.position))
        buffer[:n] = b"a" * n
        self.position += n
        self.read_bytes += n
        return n


@pytest.mark.parametrize("path", ["/games/new", "/me", "/api/games/x/actions", "/play/x/act"])
def test_a_body_over_the_limit_is_refused_before_it_is_read(make_app: MakeApp, app: Flask,
                                                            path: str) -> None:
    small = make_app(MAX_CONTENT_LENGTH=64 * 1024)
    stream = CountingStream(100 * 1024 * 1024)
    response = small.test_client().post(
        path, input_stream=stream, content_length=stream.size,
        content_type="application/json" if path.startswith("/api/")
        else "application/x-www-form-urlencoded")
    assert_the_sites_own(response, path, 413)
    assert stream.read_bytes == 0
    assert "64 KB" in (response.get_data(as_text=True))


def test_the_default_limit_takes_a_real_create_form(client: FlaskClient, ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    response = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "Lunch", "host_email":
        "host@example.net", "hours": "24", "seat-0-name": "Ana", "seat-0-email":
        "ana@example.net", "seat-1-name": "Robo", "seat-1-computer": "on",
        "padding": "x" * 100_000})
    assert response.status_code == 303


@pytest.mark.parametrize("depth", [40, 5_000, 100_000])
def test_deeply_nested_json_is_400_with_a_sentence(app: Flask, table: Table,
                                                   depth: int) -> None:
    before = snapshot(table.id)
    body = '{"version": 1, "action": ' + "[" * depth + "]" * depth + "}"
    response = app.test_client().post(
        f"/api/games/{table.public_id}/actions", data=body, content_type="application/json",
        headers={"Authorization": f"Bearer {table.links[0]}"})
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert "nested" in response.get_json()["message"]
    assert snapshot(table.id) == before


def test_json_a_little_nested_is_still_read(app: Flask, table: Table) -> None:
    body = json.dumps({"version": 1, "action": {"kind": "roll", "extra": [[[1]]]}})
    response = app.test_client().post(
        f"/api/games/{table.public_id}/actions", data=body, content_type="application/json",
        headers={"Authorization": f"Bearer {table.links[0]}"})
    assert response.status_code != 500
    assert "nested" not in (response.get_json() or {}).get("message", "")
