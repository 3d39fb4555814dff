"""Table talk on the pages (issue 27, point 1): the turn page posts and shows it, escaped,
links as text; a player deletes only their own message, only within ten minutes; the host
hides one ("hidden by the host"); spectators read the board; a refusal says why beside the
form, gives the text back and changes nothing; each seat has a rate limit."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.extensions import db
from pbem.mail.outbound.links import host_token
from pbem.models import Outbox, TableMessage
from pbem.services import games, play, table_talk
from tests.web.conftest import EVIL, Table, fresh, hidden

LINK = "see https://evil.example/phish?x=1"


def _say(client: FlaskClient, link: str, text: str, page: str | None = None) -> object:
    page = page if page is not None else client.get(f"/play/{link}").get_data(as_text=True)
    return client.post(f"/play/{link}/say", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "text": text})


def _rows(table: Table) -> list[TableMessage]:
    db.session.rollback()
    return list(db.session.scalars(select(TableMessage).where(
        TableMessage.game_id == table.id).order_by(TableMessage.id)))


def _talk_section(page: str) -> str:
    start = page.index('<section class="table-talk" id="table-talk"')
    return page[start:page.index("</section>", start)]


def _pin(app: Flask, moment: datetime) -> None:
    app.config["PBEM_CLOCK"] = lambda: moment


def test_a_message_posted_from_the_turn_page_is_shown_escaped_with_links_as_text(
        client: FlaskClient, table: Table) -> None:
    text = f"{EVIL} & nice move!\n{LINK}"
    mails = db.session.scalar(select(db.func.count(Outbox.id)))
    response = _say(client, table.links[1], text)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/play/{table.links[1]}#table-talk")
    [row] = _rows(table)
    assert (row.seat, row.text) == (1, text)  # stored as written
    for link in table.links:
        section = _talk_section(client.get(f"/play/{link}").get_data(as_text=True))
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; nice move!" in section
        assert "<script>" not in section
        assert "https://evil.example/phish?x=1" in section
        assert 'href="https://evil' not in section  # shown, never a link
    assert db.session.scalar(select(db.func.count(Outbox.id))) == mails  # no mail of its own


def test_the_form_and_the_latest_messages_sit_after_the_log_on_the_turn_page(
        client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert page.index('id="since-title"') < page.index('id="table-talk"') < page.index(
        'class="page-links"')
    section = _talk_section(page)
    assert "Nothing has been said at this table yet." in section
    assert 'name="text"' in section and 'maxlength="1000"' in section


@pytest.mark.parametrize(("text", "sentence"), [
    ("   \n ", "Write something first"),
    ("x" * 1001, "at most 1,000 characters; this one has 1,001"),
    ("bell\x07", "control character U+0007"),
    ("abc\u202edef", "control character U+202E"),
])
def test_a_message_that_is_empty_too_long_or_not_plain_text_is_refused_beside_the_form(
        client: FlaskClient, table: Table, text: str, sentence: str) -> None:
    response = _say(client, table.links[0], text)
    assert response.status_code == 400
    section = _talk_section(response.get_data(as_text=True))
    assert sentence in section and 'role="alert"' in section
    assert _rows(table) == []


def test_exactly_1000_characters_is_a_message(client: FlaskClient, table: Table) -> None:
    assert _say(client, table.links[0], "é" * 1000).status_code == 303
    assert len(_rows(table)[0].text) == 1000


def test_the_refused_text_is_given_back_to_the_form(client: FlaskClient, table: Table) -> None:
    typed = "x" * 1001
    page = _say(client, table.links[0], typed).get_data(as_text=True)
    assert f">{typed}</textarea>" in page


def test_a_message_from_an_older_page_is_still_posted(client: FlaskClient,
                                                      table: Table) -> None:
    """Talk does not depend on the moves: a page from before another player's move posts."""
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    game = fresh(table.id)
    play.play(table.id, 0, game.version, _a_dock(table))
    assert _say(client, table.links[1], "still here", page).status_code == 303
    assert [r.text for r in _rows(table)] == ["still here"]


def _a_dock(table: Table) -> object:
    from pbem import engine
    from pbem.engine import GameState

    state = GameState.from_json(fresh(table.id).state)
    return next(a for a in engine.legal_actions(state, 0)
                if engine.format_action(a).startswith("dock"))


def test_another_seats_form_token_is_refused(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    response = client.post(f"/play/{table.links[1]}/say", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "text": "as Ana"})
    assert response.status_code == 403
    assert _rows(table) == []


def test_a_seat_posts_at_most_the_limit_in_the_window(app: Flask, client: FlaskClient,
                                                      table: Table) -> None:
    app.config.update(TABLE_TALK_RATE_LIMIT=3, TABLE_TALK_RATE_WINDOW=600)
    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    for minute in range(3):
        _pin(app, start + timedelta(minutes=minute))
        assert _say(client, table.links[0], f"m{minute}").status_code == 303
    refused = _say(client, table.links[0], "one too many")
    assert refused.status_code == 429
    assert "at most 3 in 10 minutes" in _talk_section(refused.get_data(as_text=True))
    assert _say(client, table.links[2], "another seat counts apart").status_code == 303
    _pin(app, start + timedelta(minutes=10, seconds=1))  # the first has left the window
    assert _say(client, table.links[0], "again").status_code == 303
    assert [r.text for r in _rows(table)] == ["m0", "m1", "m2", "another seat counts apart",
                                              "again"]


def _delete(client: FlaskClient, link: str, message_id: int) -> object:
    page = client.get(f"/play/{link}").get_data(as_text=True)
    return client.post(f"/play/{link}/say/{message_id}/delete", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token")})


def test_a_player_deletes_their_own_message_within_ten_minutes_only(
        app: Flask, client: FlaskClient, table: Table) -> None:
    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    _pin(app, start)
    _say(client, table.links[0], "oops, wrong game")
    _say(client, table.links[0], "this one stays")
    first, second = _rows(table)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert _talk_section(page).count(">Delete</button>") == 2
    other = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    assert ">Delete</button>" not in _talk_section(other)  # not theirs
    refused = _delete(client, table.links[1], first.id)
    assert refused.status_code == 403
    assert "only your own messages" in refused.get_data(as_text=True)
    _pin(app, start + timedelta(minutes=9, seconds=59))
    assert _delete(client, table.links[0], first.id).status_code == 303
    _pin(app, start + timedelta(minutes=10, seconds=1))
    late = _delete(client, table.links[0], second.id)
    assert late.status_code == 403 and "ask the host to hide it" in late.get_data(as_text=True)
    rows = _rows(table)
    assert rows[0].deleted_at is not None and rows[0].text == ""  # the words are gone
    assert rows[1].deleted_at is None and rows[1].text == "this one stays"
    shown = _talk_section(client.get(f"/play/{table.links[2]}").get_data(as_text=True))
    assert "oops" not in shown and "this one stays" in shown
    assert ">Delete</button>" not in _talk_section(
        client.get(f"/play/{table.links[0]}").get_data(as_text=True))  # past ten minutes
    assert not hasattr(table_talk, "edit")  # nothing can be edited


def test_the_host_hides_a_message_and_everyone_sees_hidden_by_the_host(
        client: FlaskClient, table: Table) -> None:
    _say(client, table.links[1], "something rude")
    [row] = _rows(table)
    token = host_token(fresh(table.id))
    host_page = client.get(f"/host/{token}").get_data(as_text=True)
    section = _talk_section(host_page)
    assert "something rude" in section and "Hide this message" in section
    response = client.post(f"/host/{token}/talk/{row.id}/hide",
                           data={"csrf_token": hidden(host_page, "csrf_token")})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/host/{token}#table-talk")
    for url in (f"/play/{table.links[0]}", f"/games/{table.public_id}", f"/host/{token}"):
        shown = _talk_section(client.get(url).get_data(as_text=True))
        assert "something rude" not in shown and "hidden by the host" in shown
    assert _rows(table)[0].text == "something rude"  # kept, for the host's record


def test_a_message_of_another_game_cannot_be_hidden_or_deleted(
        client: FlaskClient, table: Table, ctx: Flask) -> None:
    other = games.create_game(name="Other", host_email="o@example.org", seats=[
        games.SeatSpec("Ed", "ed@example.org"), games.SeatSpec("Flo", "flo@example.org")],
        options={"factions": False}, seed=3)
    message = table_talk.post(other.id, 0, "elsewhere")
    token = host_token(fresh(table.id))
    page = client.get(f"/host/{token}").get_data(as_text=True)
    response = client.post(f"/host/{token}/talk/{message.id}/hide",
                           data={"csrf_token": hidden(page, "csrf_token")})
    assert response.status_code == 400
    assert _delete(client, table.links[0], message.id).status_code == 400
    db.session.rollback()
    kept = db.session.get_one(TableMessage, message.id)
    assert kept.hidden_at is None and kept.deleted_at is None


def test_spectators_read_the_board(client: FlaskClient, table: Table) -> None:
    _say(client, table.links[0], "hello, watchers")
    page = client.get(f"/games/{table.public_id}").get_data(as_text=True)
    section = _talk_section(page)
    assert "hello, watchers" in section and "Ana" in section
    assert "<form" not in section  # reading only


def test_a_cancelled_games_table_is_closed(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    games.cancel_game(table.id)
    response = _say(client, table.links[0], "anyone?", page)
    assert response.status_code == 409
    assert "its table is closed" in response.get_data(as_text=True)
    assert _rows(table) == []


def test_the_page_shows_the_newest_twenty_and_says_how_many_came_before(
        app: Flask, client: FlaskClient, table: Table) -> None:
    app.config["TABLE_TALK_RATE_LIMIT"] = 100
    for n in range(23):
        table_talk.post(table.id, n % 3, f"message {n}")
    section = _talk_section(client.get(f"/play/{table.links[0]}").get_data(as_text=True))
    shown = re.findall(r"message (\d+)</p>", section)
    assert shown == [str(n) for n in range(3, 23)]  # newest last
    assert "3 earlier messages are not shown here." in section


def test_a_seat_turns_table_talk_in_its_mail_off_and_on_in_its_settings(
        client: FlaskClient, table: Table) -> None:
    from pbem.mail.outbound.links import unsubscribe_url

    settings = {"notify": "every_turn", "timezone": "UTC", "quiet_start": "22",
                "quiet_end": "8"}
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert 'name="table_talk_mail" value="on" checked' in page
    response = client.post(f"/play/{table.links[0]}/settings", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        **settings, "table_talk_mail": "off"})
    assert response.status_code == 303
    assert fresh(table.id).seat(0).table_talk_mail is False
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert 'name="table_talk_mail" value="off" checked' in page
    # the mail's settings link (no login) shows and saves the same choice
    game = fresh(table.id)
    url = unsubscribe_url(game, game.seat(0)).split("pbem.test", 1)[-1]
    url = url[url.index("/mail/"):]
    assert 'name="table_talk_mail" value="off" checked' in client.get(url).get_data(
        as_text=True)
    assert client.post(url, data={**settings, "table_talk_mail": "on"}).status_code == 200
    assert fresh(table.id).seat(0).table_talk_mail is True
    assert client.post(url, data={**settings, "table_talk_mail": "maybe"}).status_code == 400
    assert fresh(table.id).seat(0).table_talk_mail is True
    assert client.post(url, data=settings).status_code == 200  # an older form: unchanged
    assert fresh(table.id).seat(0).table_talk_mail is True
