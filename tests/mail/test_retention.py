"""Sent mail bodies are pruned after MAIL_RETENTION_DAYS (issue #17); threading headers stay,
failed and queued mail keep their bodies."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import Flask

from pbem import clock
from pbem.config import load_config
from pbem.extensions import db
from pbem.mail.outbound import retention
from pbem.mail.outbound.compose import Mail
from pbem.mail.outbound.outbox import enqueue
from pbem.models import Game, Outbox
from pbem.models.outbox import FAILED, PENDING, SENT
from pbem.scheduler import registered_steps
from pbem.services import bounces
from tests.mail.conftest import new_game


def _mail(status: str, sent_days_ago: float | None) -> int:
    game = new_game() if not db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) \
        else None
    row = enqueue(to_addr="ana@example.org", game=game, seat=0 if game else None,
                  mail=Mail(kind="your_turn", subject="S", text="body " * 200,
                            html="<p>" + "body " * 400 + "</p>",
                            unsubscribe_url="http://localhost/mail/unsubscribe/x"))
    assert row is not None
    row.status = status
    row.last_error = "550 gone" if status == FAILED else None
    if sent_days_ago is not None:
        row.sent_at = clock.now() - timedelta(days=sent_days_ago)
    db.session.commit()
    return int(row.id)


def test_old_sent_bodies_are_pruned_and_threading_stays(app: Flask) -> None:
    with app.app_context():
        old = _mail(SENT, 31)
        recent = _mail(SENT, 29)
        failed = _mail(FAILED, None)
        queued = _mail(PENDING, None)
        headers_before = dict(db.session.get_one(Outbox, old).headers)
        assert retention.prune_sent() == 1
        db.session.expire_all()
        pruned = db.session.get_one(Outbox, old)
        assert pruned.text_body == "" and pruned.html_body is None
        assert pruned.message_id and pruned.message_id == headers_before["Message-ID"]
        for name in ("In-Reply-To", "References"):
            assert pruned.headers.get(name) == headers_before.get(name)
        assert "List-Unsubscribe" not in pruned.headers  # only what threading needs stays
        assert pruned.subject == "S" and pruned.to_addr == "ana@example.org"
        for kept in (recent, failed, queued):
            assert db.session.get_one(Outbox, kept).text_body.startswith("body")
        assert retention.prune_sent() == 0  # nothing twice


def test_the_period_is_a_setting_and_failed_mail_waits_for_its_retry(app: Flask) -> None:
    assert load_config({})["MAIL_RETENTION_DAYS"] == 30
    assert load_config({"MAIL_RETENTION_DAYS": "7"})["MAIL_RETENTION_DAYS"] == 7
    app.config["MAIL_RETENTION_DAYS"] = 7
    with app.app_context():
        week = _mail(SENT, 8)
        failed = _mail(FAILED, 100)  # sent_at set by an earlier attempt: still not pruned
        assert retention.prune_sent() == 1
        assert db.session.get_one(Outbox, week).text_body == ""
        assert bounces.retry_failed([failed]) == 1
        assert retention.prune_sent() == 0
        db.session.expire_all()
        assert db.session.get_one(Outbox, failed).text_body.startswith("body")


def test_the_scheduler_prunes_after_delivering(app: Flask) -> None:
    steps = registered_steps()
    assert steps.index("mail") < steps.index("retention")


def test_a_game_over_for_the_period_loses_its_sent_rows_not_its_failed_ones(
        app: Flask) -> None:
    with app.app_context():
        sent = _mail(SENT, 40)
        failed = _mail(FAILED, None)
        game_id = db.session.get_one(Outbox, sent).game_id
        assert game_id is not None
        db.session.get_one(Outbox, failed).game_id = game_id  # the same game's failed mail
        game = db.session.get_one(Game, game_id)
        thread = game.thread_message_id
        assert retention.drop_finished() == 0  # still being played: rows stay
        game.status, game.finished_at = "finished", clock.now() - timedelta(days=10)
        db.session.commit()
        assert retention.drop_finished() == 0  # over, but not for the retention period yet
        game.finished_at = clock.now() - timedelta(days=31)
        db.session.commit()
        assert retention.drop_finished() == 1
        assert db.session.get(Outbox, sent) is None
        assert db.session.get_one(Outbox, failed).status == FAILED
        assert db.session.get_one(Game, game_id).thread_message_id == thread
