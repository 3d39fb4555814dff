"""Delivery against a real SMTP server: headers, both parts, retries, refusals, crashes."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.mail.outbound import delivery
from pbem.mail.outbound.delivery import LEASE, MAX_ATTEMPTS, deliver_pending
from pbem.models.game import Game
from pbem.models.outbox import FAILED, PENDING, SENDING, SENT, Outbox
from tests.conftest import MakeApp
from tests.mail.conftest import SMTPServer, new_game, smtp_config
from tests.slow_smtp import slow_smtp


def rows(app: Flask) -> list[Outbox]:
    with app.app_context():
        found = db.session.scalars(sa.select(Outbox).order_by(Outbox.id)).all()
        db.session.expunge_all()
        return list(found)


def test_a_turn_mail_arrives_with_thread_headers_and_both_parts(
    smtp_app: Flask, smtp_server: SMTPServer
) -> None:
    with smtp_app.app_context():
        thread = new_game().thread_message_id
    report = deliver_pending(smtp_app)
    assert report.failed == [] and report.retrying == []
    turn = [m for m in smtp_server.messages if "it's your turn" in m.get_body(("plain",))
            .get_content()]
    assert len(turn) == 1
    msg = turn[0]
    assert msg["To"] == "ana@example.org"
    assert msg["Subject"] == "Alien Frontiers: Friday Frontier"
    assert msg["Message-ID"].endswith("@pbem.test>")
    assert msg["In-Reply-To"] == thread and msg["References"] == thread
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["List-Unsubscribe"].startswith("<https://pbem.test/mail/unsubscribe/")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert msg["Cc"] is None and msg["Bcc"] is None
    text = msg.get_body(("plain",)).get_content()
    html = msg.get_body(("html",)).get_content()
    assert "Your roll" in text and "Take your turn: https://pbem.test/play/" in text
    assert "<table" in html and "https://pbem.test/play/" in html and "<svg" not in html
    # every mail of the game is in one thread with one subject
    assert {m["Subject"] for m in smtp_server.messages} == {"Alien Frontiers: Friday Frontier"}
    assert all(m["Message-ID"] == thread or m["References"] == thread
               for m in smtp_server.messages)


def test_every_message_has_exactly_one_recipient(smtp_app: Flask,
                                                 smtp_server: SMTPServer) -> None:
    with smtp_app.app_context():
        new_game()
    deliver_pending(smtp_app)
    assert smtp_server.handler.envelopes
    for (_, rcpts), msg in zip(smtp_server.handler.envelopes, smtp_server.messages, strict=True):
        assert rcpts == [msg["To"]]
        assert "," not in msg["To"]


def test_smtp_down_loses_nothing_and_all_arrive_once_it_is_back(
    smtp_app: Flask, smtp_server: SMTPServer
) -> None:
    smtp_server.stop()
    with smtp_app.app_context():
        new_game()
    total = len(rows(smtp_app))
    now = datetime.now(UTC)
    report = deliver_pending(smtp_app, now=now)
    assert report.sent == [] and len(report.retrying) == total
    assert {r.status for r in rows(smtp_app)} == {PENDING}
    assert all(r.last_error for r in rows(smtp_app))
    # not due yet: the backoff holds them
    assert deliver_pending(smtp_app, now=now).retrying == []
    smtp_server.start()
    report = deliver_pending(smtp_app, now=now + timedelta(minutes=2))
    assert len(report.sent) == total
    assert len(smtp_server.messages) == total
    assert {r.status for r in rows(smtp_app)} == {SENT}


def test_after_max_attempts_a_row_is_failed_not_dropped(smtp_app: Flask,
                                                        smtp_server: SMTPServer) -> None:
    smtp_server.stop()
    with smtp_app.app_context():
        new_game()
    now = datetime.now(UTC)
    for _ in range(MAX_ATTEMPTS):
        deliver_pending(smtp_app, now=now)
        now += timedelta(days=1)
    found = rows(smtp_app)
    assert {r.status for r in found} == {FAILED}
    assert all(r.attempts == MAX_ATTEMPTS for r in found)
    with smtp_app.app_context():
        assert delivery.retry(all_failed=True) == len(found)
    smtp_server.start()
    assert len(deliver_pending(smtp_app).sent) == len(found)


def test_a_permanent_refusal_fails_at_once_and_tells_the_host(
    smtp_app: Flask, smtp_server: SMTPServer
) -> None:
    smtp_server.handler.refuse.add("ben@example.org")
    with smtp_app.app_context():
        game_id = new_game().id
    report = deliver_pending(smtp_app)
    bens = [r for r in rows(smtp_app) if r.to_addr == "ben@example.org"]
    assert [r.status for r in bens] == [FAILED]
    assert bens[0].attempts == 1 and "550" in (bens[0].last_error or "")
    assert bens[0].id in report.failed
    with smtp_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.seat(1).email_failing
    notes = [r for r in rows(smtp_app) if r.kind == "email_failing"]
    assert len(notes) == 1 and notes[0].to_addr == "host@example.org"
    assert "Ben" in notes[0].text_body and "ben@example.org" not in notes[0].text_body
    deliver_pending(smtp_app)
    assert any(m["To"] == "host@example.org" for m in smtp_server.messages)
    assert not any(m["To"] == "ben@example.org" for m in smtp_server.messages)


def test_a_crash_between_sending_and_marking_resends_once_with_the_same_message_id(
    smtp_app: Flask, smtp_server: SMTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with smtp_app.app_context():
        new_game([("Ana", "ana@example.org"), ("Bot", None)])
    claimed = rows(smtp_app)
    ids = {r.headers["Message-ID"] for r in claimed}

    def copies() -> dict[str, int]:
        found = [m["Message-ID"] for m in smtp_server.messages]
        return {mid: found.count(mid) for mid in ids}

    def crash(*args: object) -> None:
        raise KeyboardInterrupt("the worker died after the server accepted the messages")

    # One group for the whole batch, however slowly a loaded machine sends: the crash comes
    # after every message was accepted, never after a group marked on time.
    assert len(claimed) < delivery.MARK_EVERY
    monkeypatch.setattr(delivery, "MARK_SECONDS", float("inf"))
    now = datetime.now(UTC)
    real_mark_sent = delivery.mark_sent
    monkeypatch.setattr(delivery, "mark_sent", crash)
    # every message reaches the server before the first mark, however slow the machine is
    # (a busy one could otherwise pass MARK_SECONDS after the first and crash before the next)
    monkeypatch.setattr(delivery, "MARK_SECONDS", 3600.0)
    with pytest.raises(KeyboardInterrupt):
        deliver_pending(smtp_app, now=now)
    monkeypatch.setattr(delivery, "mark_sent", real_mark_sent)
    assert copies() == {mid: 1 for mid in ids}
    assert {r.status for r in rows(smtp_app)} == {SENDING}
    # within the lease nobody else sends them
    assert deliver_pending(smtp_app, now=now + LEASE / 2).sent == []
    # once the lease has passed each is sent again, exactly once, with the same Message-ID
    report = deliver_pending(smtp_app, now=now + LEASE + timedelta(seconds=1))
    assert sorted(report.sent) == sorted(r.id for r in claimed)
    assert copies() == {mid: 2 for mid in ids}
    assert {r.status for r in rows(smtp_app)} == {SENT}
    assert deliver_pending(smtp_app, now=now + 10 * LEASE).sent == []
    assert copies() == {mid: 2 for mid in ids}


def test_two_workers_never_claim_the_same_row(smtp_app: Flask) -> None:
    with smtp_app.app_context():
        new_game()
        now = datetime.now(UTC)
        first = delivery.claim(now, limit=2)
        second = delivery.claim(now, limit=100)
        assert first and second and not set(first) & set(second)
        assert delivery.claim(now, limit=100) == []


def test_one_smtp_connection_carries_a_batch(smtp_app: Flask, smtp_server: SMTPServer,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail.outbound import backends

    connects = []
    real = backends.SMTPBackend.connect

    def counting(self: backends.SMTPBackend) -> object:
        connects.append(1)
        return real(self)

    monkeypatch.setattr(backends.SMTPBackend, "connect", counting)
    with smtp_app.app_context():
        new_game()
    assert len(deliver_pending(smtp_app).sent) >= 4
    assert connects == [1]


@pytest.mark.slow
def test_two_workers_with_a_slow_server_never_send_a_mail_twice(
    make_app: MakeApp, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rolling deploy runs two clocks; the server takes longer to accept the batch than a
    claim's lease. Each worker keeps sending until the outbox is empty: none sends a row the
    other holds (the lease is extended while the batch is on its way)."""
    # A 3 s lease leaves 1.5 s to each 0.3 s send even on a starved machine (with a 1 s lease
    # a send that a loaded machine slowed past 0.5 s outlived it: a flaky test, not a proof).
    with slow_smtp(delay=0.3) as (port, server):
        monkeypatch.setattr(delivery, "LEASE", timedelta(seconds=3))
        mail_app = make_app(**smtp_config(port))
        with mail_app.app_context():
            for seed in range(8):
                new_game(seed=seed)
            total = len(db.session.scalars(sa.select(Outbox.id)).all())
        assert total * 0.3 > 3 * 3.0  # one worker's batch outlasts the lease three times

        def worker() -> None:
            for _ in range(200):
                deliver_pending(mail_app)
                with mail_app.app_context():
                    if not db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)
                                             .where(Outbox.status != SENT)):
                        return
                time.sleep(0.05)

        threads = [threading.Thread(target=worker) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert server.duplicated == 0, server.copies
        assert server.received == total
        assert {r.status for r in rows(mail_app)} == {SENT}
