"""``pbem mail status`` and ``pbem mail retry``."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.mail.outbound.compose import Mail
from pbem.mail.outbound.outbox import enqueue
from pbem.models.outbox import FAILED, PENDING, Outbox


def test_status_counts_and_retry_requeues_failed_mail(app: Flask) -> None:
    with app.app_context():
        for _ in range(2):
            row = enqueue(to_addr="ana@example.org",
                          mail=Mail(kind="test", subject="S", text="T", html=None))
            row.status, row.last_error = FAILED, "550 no such user"
        db.session.commit()
        first = db.session.scalars(sa.select(Outbox.id).order_by(Outbox.id)).first()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["pbem", "mail", "status"])
    assert result.exit_code == 0, result.output
    assert "failed: 2" in result.output and "550 no such user" in result.output
    assert runner.invoke(args=["pbem", "mail", "retry"]).exit_code != 0
    result = runner.invoke(args=["pbem", "mail", "retry", str(first)])
    assert "1 mail(s) queued again" in result.output
    result = runner.invoke(args=["pbem", "mail", "retry", "--all-failed"])
    assert "1 mail(s) queued again" in result.output
    with app.app_context():
        assert {r.status for r in db.session.scalars(sa.select(Outbox))} == {PENDING}
