"""The attacks of issue #13 against one live gunicorn (two workers, a SQLite file)."""

from __future__ import annotations

import json
import re
import select
import socket
import urllib.parse
from collections.abc import Callable

import pytest

from .conftest import Browser, Figures, Target

pytestmark = [pytest.mark.faults, pytest.mark.slow]

VICTIM = "victim@example.net"
BIG = 100 * 1024 * 1024  # what the attack sent: eight of these grew two workers to ~930 MB
CHUNK = 64 * 1024


def _create_form(csrf: str, host_email: str = VICTIM, seat_email: str = VICTIM) -> bytes:
    return urllib.parse.urlencode({
        "csrf_token": csrf, "name": "Spam", "host_email": host_email, "hours": "24",
        "seat-0-name": "V", "seat-0-email": seat_email, "seat-1-name": "Robo",
        "seat-1-computer": "on"}).encode()


def test_head_and_get_with_a_form_body_change_nothing(
        target: Target, figures: Callable[[str], Figures]) -> None:
    row = figures("HEAD/GET with a form body (/games/new, /me)")
    browser = Browser(target.live.base)
    form = _create_form(browser.csrf())
    magic = urllib.parse.urlencode({"csrf_token": browser.csrf("/me"),
                                    "email": "ana@example.org"}).encode()
    rows = target.count("games") + target.count("outbox")
    for _ in range(20):
        for method in ("HEAD", "GET"):
            for path, body in (("/games/new", form), ("/me", magic)):
                status, _ = browser.open(method, path, body, {
                    "Content-Type": "application/x-www-form-urlencoded"})
                row.answered(status)
                now = target.count("games") + target.count("outbox")
                row.through += now != rows  # this try created a game or queued mail
                rows = now
    row.assert_targets()


def _stream(target: Target, path: str, content_type: str, *, chunked: bool) -> tuple[
        int | None, int]:
    """Send a 100 MB body until the server answers; (its status or None, bytes sent)."""
    host, port = target.live.base.removeprefix("http://").split(":")
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {BIG}"
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: {content_type}\r\n"
            f"Authorization: Bearer {target.links[0]}\r\n"
            f"{length}\r\nConnection: close\r\n\r\n").encode()
    chunk = b"[" * CHUNK
    if chunked:
        chunk = f"{CHUNK:x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(head)
        try:
            while sent < BIG:
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered: stop sending
                sock.sendall(chunk)
                sent += CHUNK
        except OSError:
            pass  # the server closed while we sent: its answer may be waiting
        return _status(sock), sent


def _status(sock: socket.socket) -> int | None:
    sock.settimeout(30)
    data = b""
    try:
        while b"\r\n" not in data:
            more = sock.recv(4096)
            if not more:
                break
            data += more
    except OSError:
        pass
    found = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return int(found.group(1)) if found else None


def test_oversized_bodies_are_refused_before_they_are_read(
        target: Target, figures: Callable[[str], Figures]) -> None:
    """Declared: 413 at once. Chunked (no length): Werkzeug reads no body it cannot measure
    behind gunicorn, so the request is refused as empty (400), also without reading it.
    "Got through": the server read the body (answered after all of it, or accepted it)."""
    row = figures("100 MB body, declared or chunked (/api, /games/new)")
    api = f"/api/games/{target.public_id}/actions"
    most_sent = 0
    for _ in range(3):
        for path, kind in ((api, "application/json"),
                           ("/games/new", "application/x-www-form-urlencoded")):
            for chunked in (False, True):
                status, sent = _stream(target, path, kind, chunked=chunked)
                row.answered(status)
                most_sent = max(most_sent, sent)
                refused = status == 413 or (chunked and status in (400, 413))
                if status is not None and (not refused or sent >= BIG):
                    row.through += 1
                    row.notes.append(f"{path} chunked={chunked}: {status} after {sent}")
    row.notes.append(f"at most {most_sent // 1024} KB sent before the 413")
    row.assert_targets()
    assert most_sent < 32 * 1024 * 1024  # kernel buffers, never the 100 MB


def test_deeply_nested_json_is_a_400(target: Target,
                                     figures: Callable[[str], Figures]) -> None:
    row = figures("deeply nested JSON (/api actions)")
    browser = Browser(target.live.base)
    url = f"/api/games/{target.public_id}/actions"
    headers = {"Authorization": f"Bearer {target.links[0]}",
               "Content-Type": "application/json"}
    for depth in (100_000, 5_000, 1_000, 100) * 5:
        body = ('{"version": 1, "action": ' + "[" * depth + "]" * depth + "}").encode()
        status, answer = browser.open("POST", url, body, headers)
        row.answered(status)
        if status != 400 or "nested" not in json.loads(answer or "{}").get("message", ""):
            row.through += status is not None and status < 500
    row.assert_targets()


def test_unmailable_addresses_are_refused_at_creation(
        target: Target, figures: Callable[[str], Figures]) -> None:
    row = figures("unmailable address at creation (jösé@…)")
    browser = Browser(target.live.base)
    games = target.count("games")
    for _ in range(5):
        for host, seat in (("jösé@example.org", VICTIM), (VICTIM, "jösé@example.org")):
            status, page = browser.open("POST", "/games/new", _create_form(
                browser.csrf(), host, seat), {"Content-Type": "application/x-www-form-urlencoded"})
            row.answered(status)
            row.through += target.count("games") != games  # a game was created
            games = target.count("games")
    row.assert_targets()


def test_saving_settings_never_stales_the_active_players_move(
        target: Target, figures: Callable[[str], Figures]) -> None:
    """Cy toggles his mail settings before each of Ana's moves; none of hers may be lost."""
    row = figures("settings toggled while the active player moves")
    ana, cy = Browser(target.live.base), Browser(target.live.base)
    for notify in ("digest", "my_turn") * 4:
        status, page = ana.open("GET", f"/play/{target.links[0]}")
        buttons = re.findall(r'name="action" value="([^"]+)"', page)
        docks = [b for b in buttons if b.startswith(("dock", "roll"))]
        if not docks:
            break
        tokens = dict(re.findall(r'name="(csrf_token|form_token)" value="([^"]+)"', page))
        status, cy_page = cy.open("GET", f"/play/{target.links[2]}")
        cy_tokens = dict(re.findall(r'name="(csrf_token|form_token)" value="([^"]+)"', cy_page))
        saved, _ = cy.open("POST", f"/play/{target.links[2]}/settings", urllib.parse.urlencode({
            **cy_tokens, "notify": notify, "timezone": "UTC", "quiet_start": "0",
            "quiet_end": "0"}).encode(), {"Content-Type": "application/x-www-form-urlencoded"})
        assert saved == 303
        moved, _ = ana.open("POST", f"/play/{target.links[0]}/act", urllib.parse.urlencode({
            **tokens, "action": docks[0]}).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"})
        row.answered(moved)
        if moved == 409:
            row.lost += 1
    row.assert_targets()
