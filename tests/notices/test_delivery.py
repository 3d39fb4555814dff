"""Issue 27, point 2: a seat's notices and the table channel, through the outbox's guarantee.

Against fake Discord, Slack and ntfy endpoints on loopback: the rows are written in the
transaction of the change (a refused move writes none), posted by the notices step with the
outbox's claim and lease, retried with back-off, re-sent at most once after a crash between
the post and its mark, and a channel that fails 5 times in a row is paused and its seat
mailed why. One post per hand-off on the table channel, mentioning the seat's handle."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import clock, engine
from pbem.extensions import db
from pbem.mail.outbound.chat import notices as chat_notices
from pbem.mail.outbound.chat.delivery import deliver_notices
from pbem.mail.outbound.delivery import backoff, claim
from pbem.models.notice import Notice, NoticeChannel
from pbem.models.outbox import FAILED, PENDING, SENDING, SENT, Outbox
from pbem.services import notice_channels, play, table_talk
from tests.mail.conftest import new_game
from tests.notices import fake_chat
from tests.notices.conftest import (
    DISCORD_SECRET,
    awaited_seat,
    discord_url,
    game_of,
    notices,
    ntfy_url,
    play_turn,
    slack_url,
)

BEN_DISCORD_ID = "401234567890123456"


def _later(minutes: float = 0) -> object:
    return clock.now() + timedelta(minutes=minutes)


def _setup(fake: fake_chat.FakeChat) -> int:
    """Ana (seat 0) and Ben (seat 1) have channels; the table is a Discord channel; Ben
    gave his Discord id."""
    game = new_game()
    game_id = game.id
    db.session.commit()
    notice_channels.add_channel(game_id, 0, ntfy_url(fake, "ana-topic"))
    notice_channels.add_channel(game_id, 1, slack_url())
    notice_channels.set_table_channel(game_id, discord_url())
    notice_channels.set_options(game_id, 1, handle=BEN_DISCORD_ID, escalate_hours=None)
    return game_id


def test_a_hand_off_posts_once_to_the_table_and_to_the_seat_whose_turn_it_is(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        assert awaited_seat(game_id) == 0
        steps = play_turn(game_id, 0)
        assert steps > 1  # several steps, one hand-off
        rows = notices()
        assert [(n.kind, n.seat) for n in rows] == [("hand_off", None), ("your_turn", 1)]
        report = deliver_notices(chat_app)
        assert sorted(report.sent) == [n.id for n in rows]
        assert all(n.status == SENT for n in notices())
    table = [p for p in fake.posts if p.service == "discord"]
    assert len(table) == 1 and f"<@{BEN_DISCORD_ID}> (Ben)" in table[0].text
    assert "Now it" in table[0].text and "round 1" in table[0].text
    slack = [p for p in fake.posts if p.service == "slack"]
    assert len(slack) == 1 and "Your turn" in slack[0].text
    assert "https://pbem.test/games/" in slack[0].text
    assert "/play/" not in "".join(p.text for p in fake.posts)  # no private turn link


def test_a_refused_move_writes_no_notice(chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        game = game_of(game_id)
        with pytest.raises(engine.RulesError):  # Ben may not end Ana's turn
            play.play(game_id, 1, game.version, engine.EndTurn(seat=1))
        assert notices() == []


def test_reminders_and_the_result_reach_every_channel(chat_app: Flask,
                                                      fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        game = game_of(game_id)
        chat_notices.reminder(game, game.seat(0), clock.now() + timedelta(hours=5))
        chat_notices.game_over(game)
        db.session.commit()
        kinds = sorted((n.kind, n.seat if n.seat is not None else -1) for n in notices())
        assert kinds == [("game_over", 0), ("game_over", 1), ("reminder", 0), ("result", -1)]
        deliver_notices(chat_app)
    ntfy = fake.texts("ntfy")
    assert any("Reminder · 4 h left" in t for t in ntfy) and any("Game over" in t for t in ntfy)


def test_table_talk_is_posted_inert(chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    """The hook the table talk calls: a person's words never ping anyone."""
    with chat_app.app_context():
        game_id = _setup(fake)
        row = chat_notices.post_to_table(game_of(game_id), "Cy @here",
                                         "nice move @everyone <@123456789012345678> " + "x" * 2000)
        db.session.commit()
        assert row is not None and row.kind == "talk"
        deliver_notices(chat_app)
    text = fake.texts("discord")[0]
    assert "@everyone" not in text and "@here" not in text and "<@1234" not in text
    assert "@\u200beveryone" in text and len(text) < 1200


def test_a_message_posted_at_the_table_reaches_the_table_channel(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    """Table talk (issue 27, point 1) calls the hook in its own transaction: a message
    posted on the turn page, the API or by reply is posted to the group's channel once."""
    with chat_app.app_context():
        game_id = _setup(fake)
        table_talk.post(game_id, 0, "nice move, Ben")
        deliver_notices(chat_app)
    posts = [t for t in fake.texts("discord") if "nice move, Ben" in t]
    assert len(posts) == 1


def test_a_failed_post_backs_off_and_is_sent_once_the_service_answers(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        play_turn(game_id, 0)
        fake.fail("discord", "500", "500")  # the table post fails twice
        now = clock.now()
        first = deliver_notices(chat_app, now=now)
        assert len(first.retrying) == 1 and len(first.sent) == 1
        row = db.session.get(Notice, first.retrying[0])
        assert row is not None and row.status == PENDING and "500" in (row.last_error or "")
        assert clock.as_utc(row.next_attempt_at) == now + backoff(1)
        assert deliver_notices(chat_app, now=now).retrying == []  # not due yet
        second = deliver_notices(chat_app, now=now + backoff(1))
        assert second.retrying == [row.id]
        third = deliver_notices(chat_app, now=now + backoff(1) + backoff(2))
        assert third.sent == [row.id]
        channel = db.session.get(NoticeChannel, notices("hand_off")[0].channel_id)
        assert channel is not None and channel.failures == 0  # a success clears the count
    assert len(fake.texts("discord")) == 1  # never doubled


def test_five_failures_in_a_row_pause_the_channel_and_mail_the_seat(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        game = game_of(game_id)
        for _ in range(2):  # two notices waiting for Ana's ntfy topic
            chat_notices.reminder(game, game.seat(0), clock.now() + timedelta(hours=5))
        db.session.commit()
        fake.faults.extend(["503"] * 10)
        now = clock.now()
        for minute in range(0, 200, 1):
            deliver_notices(chat_app, now=now + timedelta(minutes=minute))
            db.session.expire_all()
            channel = db.session.scalars(sa.select(NoticeChannel).where(
                NoticeChannel.seat == 0)).one()
            if channel.paused:
                break
        assert channel.paused and channel.failures == 5
        assert "503" in (channel.paused_reason or "")
        assert {n.status for n in notices()} == {FAILED}  # kept, with the reason
        assert fake.attempts == 5
        mail = db.session.scalars(sa.select(Outbox).where(Outbox.kind == "notice_paused")).one()
        assert mail.to_addr == "ana@example.org"
        assert "failed 5 times in a row" in mail.text_body and "ntfy" in mail.text_body
        assert "ana-topic" not in mail.text_body  # the topic is the secret: cut
        # paused: the next notices skip it; resumed: they come again
        chat_notices.reminder(game_of(game_id), game_of(game_id).seat(0), clock.now())
        db.session.commit()
        assert [n.status for n in notices()].count(PENDING) == 0
        fake.faults.clear()  # the topic works again
        notice_channels.resume(game_id, 0, channel.id)
        chat_notices.reminder(game_of(game_id), game_of(game_id).seat(0), clock.now())
        db.session.commit()
        assert deliver_notices(chat_app, now=clock.now() + timedelta(days=1)).sent


def test_a_crash_between_post_and_mark_sends_it_once_more_after_the_lease(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    """The duplicate window, as mail's: a worker that dies after the service accepted the
    post leaves the row ``sending``; once the lease has passed it is posted once more."""
    with chat_app.app_context():
        game_id = _setup(fake)
        chat_notices.post_to_table(game_of(game_id), "Ana", "hello")
        db.session.commit()
        now = clock.now()
        [row_id] = claim(now, 10, Notice)  # the worker claims it…
        row = db.session.get(Notice, row_id)
        assert row is not None and row.status == SENDING
        from pbem.mail.outbound.chat import post
        url = db.session.get(NoticeChannel, row.channel_id).url  # type: ignore[union-attr]
        assert post.send(url, row.title, row.body).ok  # …posts it, and dies before marking
        assert deliver_notices(chat_app, now=now + timedelta(minutes=1)).sent == []  # leased
        again = deliver_notices(chat_app, now=now + timedelta(minutes=6))
        assert again.sent == [row_id]
        assert deliver_notices(chat_app, now=now + timedelta(minutes=20)).sent == []
    assert fake.texts("discord") == [fake.texts("discord")[0]] * 2  # once more, never again


def test_the_secret_of_a_channel_is_never_on_a_page(chat_app: Flask,
                                                    fake: fake_chat.FakeChat) -> None:
    from pbem import tokens
    with chat_app.app_context():
        game_id = _setup(fake)
        game = game_of(game_id)
        notice_channels.add_channel(game_id, 1, discord_url("998877665544332211"))
        seat_page = f"/play/{tokens.make_seat_link(game, game.seat(1))}"
        host_page = f"/host/{tokens.make_host_token(game.public_id, game.host_link_counter)}"
    client = chat_app.test_client()
    page = client.get(seat_page).get_data(as_text=True)
    assert "Slack · 127.0.0.1 · …lack" in page and "Discord · 127.0.0.1 · …_987" in page
    assert DISCORD_SECRET not in page and "SECRETslack" not in page
    host = client.get(host_page).get_data(as_text=True)
    assert "Discord · 127.0.0.1 · …_987" in host and DISCORD_SECRET not in host


def test_a_handed_over_seat_loses_the_old_players_channels_and_a_cancel_posts_nothing(
        chat_app: Flask, fake: fake_chat.FakeChat) -> None:
    from pbem.models.game import Seat
    from pbem.services import games, host
    with chat_app.app_context():
        game_id = _setup(fake)
        play_turn(game_id, 0)  # Ben's turn: his Slack notice waits
        host.substitute_seat(game_id, 1, "zoe@example.org", name="Zoe")
        assert {c.seat for c in db.session.scalars(sa.select(NoticeChannel))} == {0, None}
        ben = db.session.scalars(sa.select(Seat).where(Seat.index == 1)).one()
        assert (ben.chat_handle, ben.escalate_hours) == (None, None)
        kinds = [(n.kind, n.seat) for n in notices()]
        assert ("your_turn", 1) not in kinds  # Ben's webhook never hears Zoe's turn
        assert kinds.count(("hand_off", None)) == 2  # Ben's turn, then Zoe's
        games.cancel_game(game_id)
        assert notices() == []  # nothing of a cancelled game is posted
        assert deliver_notices(chat_app).sent == []


def test_two_claims_never_take_the_same_notice(chat_app: Flask,
                                                fake: fake_chat.FakeChat) -> None:
    """The outbox's claim, on ``notices``: a second worker claiming at once gets none of the
    rows the first holds, and only the holder may mark them."""
    with chat_app.app_context():
        game_id = _setup(fake)
        for text in ("one", "two", "three"):
            chat_notices.post_to_table(game_of(game_id), "Ana", text)
        db.session.commit()
        now = clock.now()
        first = claim(now, 10, Notice)
        assert len(first) == 3 and claim(now, 10, Notice) == []
        assert deliver_notices(chat_app, now=now).sent == []  # held: no one else posts them
    assert fake.posts == []


def test_posted_notices_are_dropped_after_the_retention_days(chat_app: Flask,
                                                             fake: fake_chat.FakeChat) -> None:
    from pbem.mail.outbound.chat.delivery import prune_sent
    with chat_app.app_context():
        game_id = _setup(fake)
        chat_notices.post_to_table(game_of(game_id), "Ana", "old news")
        db.session.commit()
        now = clock.now()
        assert len(deliver_notices(chat_app, now=now).sent) == 1
        chat_notices.post_to_table(game_of(game_id), "Ana", "not posted yet")
        db.session.commit()
        fake.fail("discord", "500")
        assert len(deliver_notices(chat_app, now=clock.now()).retrying) == 1
        assert prune_sent(now + timedelta(days=29), 30) == 0
        assert prune_sent(now + timedelta(days=31), 30) == 1
        assert [n.status for n in notices()] == [PENDING]  # the unsent one stays


def test_pbem_status_counts_the_notices_and_paused_channels(chat_app: Flask,
                                                            fake: fake_chat.FakeChat) -> None:
    with chat_app.app_context():
        game_id = _setup(fake)
        chat_notices.post_to_table(game_of(game_id), "Ana", "hello")
        db.session.execute(sa.update(NoticeChannel).where(NoticeChannel.seat == 0).values(
            paused_at=clock.now(), paused_reason="error=404"))
        db.session.commit()
    result = chat_app.test_cli_runner().invoke(args=["pbem", "status"])
    assert result.exit_code == 0, result.output
    assert "notices: pending: 1  sending: 0  sent: 0  failed: 0  paused channels: 1" \
        in result.output
