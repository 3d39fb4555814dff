"""Labels and the create form's errors (issue 14, bug 6): plurals ("1 hour per move", not
"1 hours"), the HTML invitation's "What happens next:" label, and the new-game form's errors
all at once, in plain words, each beside its field."""

from __future__ import annotations

import re
from datetime import timedelta

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import clock
from pbem.extensions import db
from pbem.mail.outbound import compose
from pbem.models import Game, Outbox
from pbem.words import when
from pbem.words.glossary import options_words
from tests.web.conftest import EMAILS, Table, fresh, hidden

RAW_TEXTS = ("Length must be", "Must be greater", "Not a valid", "Missing data", "must be one of")


def test_one_hour_and_one_minute_are_singular() -> None:
    assert options_words({}, 1) == "base game (no Factions), 1 hour per move"
    assert options_words({}, 2).endswith("2 hours per move")
    now = clock.now()
    assert when.hours_from_now(now + timedelta(seconds=50), now) == "1 minute from now"


def test_the_html_invitation_keeps_its_what_happens_next_label(table: Table) -> None:
    game = fresh(table.id)
    mail = compose.invitation(game, game.seat(0))
    assert mail.html is not None and "What happens next:" in mail.html
    assert "What happens next:" in mail.text


def field_before(page: str, error_start: int) -> str:
    """The name of the last form control before the error: the field it stands beside."""
    controls = re.findall(r'<input[^>]* name="([^"]+)"', page[:error_start])
    return controls[-1]


def test_the_create_form_shows_every_error_at_once_beside_its_field(
        client: FlaskClient, ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    answer = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "", "hours": "0",
        "host_email": "host.example.net",
        "seat-0-name": "Ana", "seat-0-email": "ana.example.net",  # typed, but no @
        "seat-1-name": "Ben", "seat-1-email": "",
        "seat-2-name": "x" * 41, "seat-2-computer": "on"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    for raw in RAW_TEXTS:
        assert raw not in page, raw
    errors = [(m.start(), m.group(1)) for m in
              re.finditer(r'<p class="field-error"[^>]*>([^<]*)</p>', page)]
    beside = {field_before(page, at): text for at, text in errors}
    assert set(beside) == {"name", "seat-0-computer", "seat-1-computer", "seat-2-computer",
                           "hours", "host_email"}, beside
    assert "Give the game a name" in beside["name"]
    assert "1 to 336 hours" in beside["hours"]
    assert "host.example.net" in beside["host_email"] and "@" in beside["host_email"]
    # Ana typed an address: she is told what is wrong with it, not asked to type one
    assert "ana.example.net" in beside["seat-0-computer"]
    assert "tick" not in beside["seat-0-computer"]
    assert "Enter Ben’s email address, or tick “computer player”" in beside["seat-1-computer"]
    assert "40 characters" in beside["seat-2-computer"]
    summary = re.search(r'<div class="notice notice-error".*?</div>', page, re.S)
    assert summary is not None and summary.group(0).count("<p>") == 1 + len(errors)  # + heading
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) == 0
    assert EMAILS  # the table's addresses are not involved


def test_too_few_players_is_said_once_beside_the_players(client: FlaskClient,
                                                         ctx: object) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    answer = client.post("/games/new", data={
        "csrf_token": hidden(form, "csrf_token"), "name": "Solo", "hours": "24",
        "host_email": "host@example.net", "seat-0-name": "Ana",
        "seat-0-email": "ana@example.net"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert page.count("Name 2 to 5 players.") == 2  # the summary and beside the players
