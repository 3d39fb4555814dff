"""The notation help (issue 26): a page of its own, /help/notation, with examples taken from
docs/notation.md (each one read by the engine), linked wherever a typed move is refused: the
turn page, the API's error text and the answer to a reply by mail."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import sqlalchemy as sa
from flask.testing import FlaskClient

from pbem import engine
from pbem.extensions import db
from pbem.mail.outbound import answers
from pbem.models import Outbox
from pbem.words import notation_help
from tests.conftest import MakeApp
from tests.web.conftest import Table, post_move

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
LINK_TEXT = "How to write a move, with examples"


def test_every_example_of_the_help_is_in_the_reference_and_the_engine_reads_it() -> None:
    reference = DOCS.read_text(encoding="utf-8")
    for example in notation_help.examples():
        assert re.search(rf"(?<![\w]){re.escape(example)}(?![\w])", reference), example
        engine.parse_action(example, 0, 5)  # raises InvalidAction if unreadable
    kinds = {type(engine.parse_action(e, 0, 5)).__name__ for e in notation_help.examples()}
    assert len(kinds) >= 30, kinds


def test_the_help_is_a_page_of_its_own_with_every_example(client: FlaskClient) -> None:
    response = client.get("/help/notation")
    assert response.status_code == 200
    page = unescape(response.get_data(as_text=True))
    assert "<h1>How to write a move</h1>" in page
    shown = re.findall(r"<code>([^<]+)</code>", page)
    assert set(notation_help.examples()) <= set(shown)
    for word, _ in notation_help.REPLY_WORDS:
        assert f"<dt><code>{word}</code></dt>" in page


def test_a_refused_typed_move_on_the_turn_page_links_the_help(client: FlaskClient,
                                                              table: Table) -> None:
    refused = post_move(client, table.links[0], "dock seven shipyard")
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert f'<a href="/help/notation">{LINK_TEXT}</a>' in page
    linked = client.get(f"/play/{table.links[0]}?move=trade 9").get_data(as_text=True)
    assert "is not possible now" in linked
    assert f'<a href="/help/notation">{LINK_TEXT}</a>' in linked


def test_the_answer_to_a_refused_reply_links_the_help(make_app: MakeApp) -> None:
    app = make_app(SERVER_NAME="pbem.test", INBOUND_ADDRESS="play@pbem.test")
    with app.app_context():
        from pbem.services import games
        from pbem.services.games import SeatSpec
        game = games.create_game(name="Reply", host_email="ana@example.org",
                                 seats=[SeatSpec("Ana", "ana@example.org"),
                                        SeatSpec("Ben", "ben@example.org")],
                                 options={"factions": False}, seed=3, fixed_order=True)
        answers.send_answer(game, game.seat(0), answers.Answer(
            headline="your reply was not applied.", refused_line="dock seven shipyard",
            refusal="“seven” is not a ship value."), in_reply_to="", references=())
        db.session.commit()
        row = db.session.scalars(sa.select(Outbox).where(
            Outbox.kind == answers.ANSWER_KIND, Outbox.game_id == game.id)).one()
        assert f"{LINK_TEXT}: http://pbem.test/help/notation" in row.text_body
        assert 'href="http://pbem.test/help/notation"' in (row.html_body or "")
        turn = db.session.scalars(sa.select(Outbox).where(
            Outbox.kind == "your_turn", Outbox.game_id == game.id)).first()
        assert turn is not None
        assert f"{LINK_TEXT}: http://pbem.test/help/notation" in turn.text_body
