"""Issue 27, point 2, "Escalation": a seat orders its channels; when its "your turn" is not
followed by a visit or a move within its hours, the next channel is told, and last the table
channel (mentioning the seat). The scheduler step finds due rows with indexed SQL, and a
repeated or concurrent tick tells no channel twice."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import Flask

from pbem import clock, tokens
from pbem.extensions import db
from pbem.mail.outbound.chat import escalation
from pbem.mail.outbound.chat.delivery import deliver_notices
from pbem.models.notice import NoticeChannel, NoticeEscalation
from pbem.services import notice_channels
from tests.mail.conftest import new_game
from tests.notices import fake_chat
from tests.notices.conftest import (
    awaited_seat,
    discord_url,
    game_of,
    hidden,
    notices,
    ntfy_url,
    play_one_step,
    play_turn,
    slack_url,
)

BEN_ID = "401234567890123456"


def _setup(fake: fake_chat.FakeChat, hours: int = 3) -> int:
    """Ben escalates after ``hours``: mail, then ntfy, then Slack (he moved Slack down),
    then the table (Discord)."""
    game = new_game()
    game_id = game.id
    db.session.commit()
    notice_channels.add_channel(game_id, 1, slack_url())
    notice_channels.add_channel(game_id, 1, ntfy_url(fake, "ben-topic"))
    ntfy = db.session.scalars(sa.select(NoticeChannel.id).where(
        NoticeChannel.service == "ntfy")).one()
    notice_channels.move_up(game_id, 1, ntfy)
    notice_channels.set_table_channel(game_id, discord_url())
    notice_channels.set_options(game_id, 1, handle=BEN_ID, escalate_hours=hours)
    return game_id


def _escalation() -> NoticeEscalation | None:
    db.session.expire_all()
    return db.session.scalars(sa.select(NoticeEscalation)).first()


def test_an_unanswered_turn_goes_down_the_seats_order_then_to_the_table(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        play_turn(game_id, 0)
        assert awaited_seat(game_id) == 1
        assert [n.kind for n in notices()] == ["hand_off"]  # no channel of Ben's yet: mail first
        row = _escalation()
        assert row is not None and row.seat == 1 and row.step == 0
        start = clock.as_utc(row.started_at)
        assert escalation.escalate_due(start + timedelta(hours=2, minutes=59)) == 0
        assert escalation.escalate_due(start + timedelta(hours=3)) == 1
        assert escalation.escalate_due(start + timedelta(hours=3)) == 0  # a repeated tick
        assert escalation.escalate_due(start + timedelta(hours=6)) == 1
        assert escalation.escalate_due(start + timedelta(hours=9)) == 1
        assert _escalation() is None  # the table was the last
        assert escalation.escalate_due(start + timedelta(hours=30)) == 0
        deliver_notices(chat_app, now=start + timedelta(hours=10))
    texts = [(p.service, p.text) for p in fake.posts]
    assert [s for s, _ in texts] == ["discord", "ntfy", "slack", "discord"]
    assert "no visit or move for 3 h" in texts[1][1] and "for 6 h" in texts[2][1]
    assert f"<@{BEN_ID}> (Ben) has not looked at their turn for 9 h" in texts[3][1]


def test_a_visit_or_a_move_ends_the_escalation(chat_app: Flask,
                                               fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        play_turn(game_id, 0)
        game = game_of(game_id)
        link = tokens.make_seat_link(game, game.seat(1))
    client = chat_app.test_client()
    page = client.get(f"/play/{link}").get_data(as_text=True)  # a fetch of the link…
    with chat_app.app_context():
        assert _escalation() is not None  # …is not a visit: a GET changes nothing
    assert 'id="seen-form"' in page  # the page's script posts it once shown (e2e: browser)
    seen = client.post(f"/play/{link}/seen", data={
        "csrf_token": "", "form_token": hidden(page, "form_token")})
    assert seen.status_code == 204
    with chat_app.app_context():
        assert _escalation() is None
        assert 'id="seen-form"' not in client.get(f"/play/{link}").get_data(as_text=True)
        play_turn(game_id, 1)
        play_turn(game_id, 2)
        play_turn(game_id, 0)  # Ben's turn again: a new escalation
        row = _escalation()
        assert row is not None and row.step == 0
        play_one_step(game_id, 1)  # Ben moves, without opening the page
        assert escalation.escalate_due(clock.as_utc(row.due_at) + timedelta(hours=1)) == 0
        assert _escalation() is None
        assert [n.kind for n in notices() if n.kind == "escalation"] == []


def test_without_escalation_every_channel_hears_at_once(chat_app: Flask,
                                                        fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        notice_channels.set_options(game_id, 1, handle="", escalate_hours=None)
        play_turn(game_id, 0)
        assert sorted(n.kind for n in notices()) == ["hand_off", "your_turn", "your_turn"]
        assert _escalation() is None


def test_due_escalations_are_found_through_their_index(chat_app: Flask) -> None:
    """The step's query (``escalation.due_ids``: due_at <= now, oldest first, a batch) is an
    index range scan on ``ix_notice_escalations_due``, however many seats wait."""
    sql = ("SELECT id FROM notice_escalations WHERE due_at <= :now "
           "ORDER BY due_at LIMIT 100")
    with chat_app.app_context():
        conn = db.session.connection()
        if db.engine.dialect.name == "sqlite":
            rows = conn.execute(sa.text(f"EXPLAIN QUERY PLAN {sql}"), {"now": clock.now()})
            plan = " ".join(str(r[-1]) for r in rows)
        else:
            conn.execute(sa.text("SET LOCAL enable_seqscan = off"))  # the table is empty
            rows = conn.execute(sa.text(f"EXPLAIN {sql}"), {"now": clock.now()})
            plan = " ".join(str(r[0]) for r in rows)
        db.session.rollback()
    assert "ix_notice_escalations_due" in plan, plan


def test_a_scheduler_tick_escalates_and_posts(chat_app: Flask,
                                              fake: fake_chat.FakeChat) -> None:
    """The steps ``escalations`` then ``notices`` run in every tick, after ``mail``."""
    from pbem import scheduler
    steps = scheduler.registered_steps()
    assert steps.index("mail") < steps.index("escalations") < steps.index("notices")
    with chat_app.app_context():
        game_id = _setup(fake, hours=1)
        play_turn(game_id, 0)
        row = _escalation()
        assert row is not None
        db.session.execute(sa.update(NoticeEscalation).values(  # an hour has passed
            due_at=clock.now() - timedelta(minutes=1),
            started_at=clock.now() - timedelta(hours=1, minutes=1)))
        db.session.commit()
    # the two steps as a tick runs them (not ``scheduler.tick``: its PostgreSQL advisory lock
    # is shared by every schema of the test database, so a parallel run may hold it)
    from pbem.mail.outbound.chat import delivery
    with chat_app.app_context():
        escalation.run_step()
        delivery.notices_step()
    assert [p.service for p in fake.posts] == ["discord", "ntfy"]  # hand-off, then ntfy
