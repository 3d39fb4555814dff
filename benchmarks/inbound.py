"""Inbound mail benchmark (issue 24): the CPU one hostile mail costs, and replies per second
applied over IMAP (a real dovecot on 127.0.0.1) and over the Postmark webhook.

    python benchmarks/inbound.py [--each 20] [--games 40] [--database-url URL]

Hostile mail (tests/replies/hostile.py), ``--each`` of every kind to a real seat's reply
address, from the attacker and from the seat's own address, each through the path it takes
in production: a mail past ``INBOUND_MAX_BYTES`` through the IMAP poll's header-only path,
every other through ``inbox.receive_mail`` (bounded parse, the service, its transaction). The
figure is ``time.process_time()`` per mail, the slowest of the kind (target <= 100 ms); the
email parser alone on the same mail is shown where it matters (what the bounds avoid).
Then ``--games`` games each get one legal reply (seat 0's first docking): appended to dovecot
and read by one poll, or posted to ``/inbound/postmark/<secret>``; replies applied per second.
A temporary SQLite file, and PostgreSQL too with a URL (a private schema, dropped after).
"""

from __future__ import annotations

import argparse
import imaplib
import os
import statistics
import sys
import tempfile
import time
from email import message_from_bytes, policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flask_migrate  # noqa: E402
from flask import Flask  # noqa: E402

from benchmarks.mail import PG_SCHEMA, _on_postgres, private_schema_url  # noqa: E402
from pbem import engine  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.engine import GameState  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.inbound import limits  # noqa: E402
from pbem.models import Game, Outbox  # noqa: E402
from pbem.services import games, inbox  # noqa: E402
from tests.replies import dovecot, hostile  # noqa: E402

TARGET_MS = 100.0
SECRET = "bench-webhook-secret-0123456789abcdef"
SEAT = "Ana <ana@example.org>"


def make_app(db_url: str, tmp: Path) -> Flask:
    app = create_app({
        "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": db_url, "MAIL_BACKEND": "dev",
        "SERVER_NAME": "pbem.test", "MAIL_MESSAGE_ID_DOMAIN": "pbem.test",
        "INBOUND_ADDRESS": "play@pbem.test", "INBOUND_WEBHOOK_SECRET": SECRET,
        "INBOUND_POLL_SECONDS": 600.0, "INBOUND_RATE_LIMIT": 0,
    }, instance_path=tmp / "instance")
    with app.app_context():
        flask_migrate.upgrade()
    return app


def new_game(n: int) -> Game:
    return games.create_game(
        name=f"Bench {n}", host_email="ana@example.org",
        seats=[games.SeatSpec("Ana", "ana@example.org"), games.SeatSpec("Bo", "bo@example.org")],
        options={"factions": False}, seed=11 + n, fixed_order=True)


def reply_address(game: Game) -> str:
    row = db.session.query(Outbox).filter_by(game_id=game.id, seat=0).order_by(
        Outbox.id.desc()).first()
    assert row is not None
    return str(row.headers["Reply-To"])


def hostile_costs(app: Flask, each: int) -> list[tuple[str, float, float, str]]:
    """(kind, slowest ms, median ms, the parser alone) per kind, attacker's and seat's."""
    rows: list[tuple[str, float, float, str]] = []
    with app.app_context():
        to = reply_address(new_game(0))
        kinds = {**hostile.KINDS, **hostile.MORE_KINDS}
        for name, make in kinds.items():
            for who, sender in (("attacker", hostile.ATTACKER), ("seat", SEAT)):
                costs = []
                for n in range(each):
                    raw = make(to, n + (1000 if who == "seat" else 0), sender)
                    start = time.process_time()
                    if len(raw) > inbox.max_bytes():  # the IMAP poll: the header block only
                        head = limits.split_head(raw)[:limits.HEADER_BYTES]
                        inbox._ImapHandler().too_large(head, len(raw))
                    else:
                        inbox.receive_mail(raw)
                    costs.append((time.process_time() - start) * 1000)
                rows.append((f"{name} ({who})", max(costs), statistics.median(costs),
                             _parser_alone(name, make(to, 0, sender))))
    return rows


def _parser_alone(name: str, raw: bytes) -> str:
    """What the email parser alone costs on this mail (the deep and wide kinds only)."""
    if name not in ("deep", "wide"):
        return ""
    start = time.process_time()
    try:
        message_from_bytes(raw, policy=policy.default).get_body(("plain", "html"))
    except RecursionError:
        return f"{(time.process_time() - start) * 1000:.0f} ms, then RecursionError"
    return f"{(time.process_time() - start) * 1000:.0f} ms"


def legal_replies(app: Flask, count: int) -> list[bytes]:
    """One legal reply for each of ``count`` new games (seat 0's first docking)."""
    mails = []
    with app.app_context():
        for n in range(count):
            game = new_game(100 + n)
            state = GameState.from_json(game.state)
            dock = next(engine.format_action(a) for a in engine.legal_actions(state, 0)
                        if engine.format_action(a).startswith("dock"))
            mails.append((f"From: {SEAT}\r\nTo: {reply_address(game)}\r\nSubject: Re: x\r\n"
                           f"Message-ID: <legal-{n}-{time.time_ns()}@bench.test>\r\n"
                           f"Content-Type: text/plain\r\n\r\n{dock}\r\n\r\nOn Tue, pbem wrote:"
                           "\r\n> Your turn\r\n").encode())
    return mails


def over_imap(app: Flask, mails: list[bytes]) -> tuple[int, float] | None:
    if not dovecot.installed():
        return None
    with dovecot.dovecot() as server:
        box = imaplib.IMAP4(server.host, server.port)
        box.login(server.user, server.password)
        for raw in mails:
            box.append("INBOX", None, None, raw)
        box.logout()
        app.config.update(INBOUND_IMAP_HOST=server.host, INBOUND_IMAP_PORT=server.port,
                          INBOUND_IMAP_USER=server.user, INBOUND_IMAP_PASSWORD=server.password,
                          INBOUND_IMAP_SSL=False, INBOUND_IMAP_FOLDER="INBOX")
        with app.app_context():
            before = _applied()
            start = time.perf_counter()
            inbox.poll_step()
            elapsed = time.perf_counter() - start
            return _applied() - before, elapsed


def over_webhook(app: Flask, mails: list[bytes]) -> tuple[int, float]:
    client = app.test_client()
    payloads = []
    for raw in mails:
        msg = message_from_bytes(raw, policy=policy.default)
        payloads.append({"From": str(msg["From"]), "To": str(msg["To"]),
                         "OriginalRecipient": str(msg["To"]), "Subject": str(msg["Subject"]),
                         "TextBody": msg.get_body(("plain",)).get_content(),  # type: ignore[union-attr]
                         "Headers": [{"Name": "Message-ID", "Value": str(msg["Message-ID"])}]})
    with app.app_context():
        before = _applied()
    start = time.perf_counter()
    for payload in payloads:
        assert client.post(f"/inbound/postmark/{SECRET}", json=payload).status_code == 200
    elapsed = time.perf_counter() - start
    with app.app_context():
        return _applied() - before, elapsed


def _applied() -> int:
    return inbox.counts().get("applied", 0)


def run(label: str, db_url: str, each: int, count: int) -> bool:
    tmp = Path(tempfile.mkdtemp(prefix="pbem-inbound-bench-"))
    app = make_app(db_url, tmp)
    ok = True
    print(f"\n{label}: CPU per hostile mail (slowest / median of {each}; target <= "
          f"{TARGET_MS:.0f} ms)")
    for kind, slowest, median, alone in hostile_costs(app, each):
        good = slowest <= TARGET_MS
        ok = ok and good
        note = f"   email parser alone: {alone}" if alone else ""
        print(f"  {kind:28} {slowest:6.1f} / {median:5.1f} ms {'OK' if good else 'OVER'}{note}")
    imap_result = over_imap(app, legal_replies(app, count))
    if imap_result is None:
        print(f"{label}: over IMAP: skipped (dovecot is not installed)")
    else:
        applied, elapsed = imap_result
        print(f"{label}: over IMAP: {applied} of {count} replies applied by one poll in "
              f"{elapsed:.2f} s = {applied / elapsed:.1f} replies/s")
        ok = ok and applied == count
    applied, elapsed = over_webhook(app, legal_replies(app, count))
    print(f"{label}: over the Postmark webhook: {applied} of {count} replies applied in "
          f"{elapsed:.2f} s = {applied / elapsed:.1f} replies/s")
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return ok and applied == count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--each", type=int, default=20, help="hostile mails of each kind")
    parser.add_argument("--games", type=int, default=40, help="legal replies, one per game")
    parser.add_argument("--database-url", default=os.environ.get("PBEM_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL (default: $PBEM_TEST_DATABASE_URL)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pbem-inbound-bench-"))
    targets: list[tuple[str, str]] = [("SQLite", f"sqlite:///{tmp / 'bench.sqlite3'}")]
    if args.database_url:
        targets.append(("PostgreSQL", args.database_url))
    ok = True
    for label, url in targets:
        postgres = url.startswith("postgresql")
        try:
            ok = run(label, private_schema_url(url) if postgres else url, args.each,
                     args.games) and ok
        finally:
            if postgres:
                _on_postgres(url, f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE')
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
