"""Mail delivery benchmark: mails per second from a full outbox to a local SMTP server.

    python benchmarks/mail.py [--rows 2000] [--database-url URL]

Fills the outbox with ``--rows`` realistic messages (a rendered "your turn" mail each), starts
an aiosmtpd server on 127.0.0.1, and times ``deliver_pending`` batches until the outbox is
empty: claim, build the MIME message, send over one SMTP connection per batch, mark sent.
It measures a temporary SQLite file, and PostgreSQL too when a URL is given (``--database-url``
or ``PBEM_TEST_DATABASE_URL``): there it works in a private schema (``pbem_bench_mail``,
created empty and dropped afterwards, as the tests do), so it never touches ``public``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flask_migrate  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from aiosmtpd.controller import Controller  # noqa: E402

from pbem.app import create_app  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.outbound.compose import Mail  # noqa: E402
from pbem.mail.outbound.delivery import deliver_pending  # noqa: E402
from pbem.mail.outbound.outbox import enqueue  # noqa: E402

TARGET = 100.0  # mails per second


class Counter:
    def __init__(self, count: Any) -> None:
        self.count = count

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.count.get_lock():
            self.count.value += 1
        return "250 OK"


def serve(port: int, count: Any, ready: Any, stop: Any) -> None:
    """The SMTP server, in its own process like a real one (no shared GIL with the sender)."""
    controller = Controller(Counter(count), hostname="127.0.0.1", port=port)
    controller.start()
    ready.set()
    stop.wait()
    controller.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


PG_SCHEMA = "pbem_bench_mail"


def _on_postgres(url: str, *statements: str) -> None:
    engine = sa.create_engine(sa.make_url(url))
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def private_schema_url(url: str) -> str:
    """``url`` with its search_path set to a fresh, empty private schema."""
    _on_postgres(url, f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE',
                 f'CREATE SCHEMA "{PG_SCHEMA}"')
    with_path = sa.make_url(url).update_query_dict({"options": f"-csearch_path={PG_SCHEMA}"})
    return with_path.render_as_string(hide_password=False)


def run(db_url: str, rows: int) -> tuple[int, float, int]:
    """Fill the outbox on ``db_url`` and deliver it: (sent, seconds, accepted by the server)."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-mail-bench-"))
    port = free_port()
    app = create_app({
        "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": db_url,
        "MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": port,
        "SMTP_SECURITY": "none", "MAIL_FROM": "pbem@pbem.test",
        "MAIL_MESSAGE_ID_DOMAIN": "pbem.test", "SERVER_NAME": "pbem.test",
    }, instance_path=tmp / "instance")
    text = ("Hi Ana, it's your turn in Friday Frontier (round 6).\n" + "x" * 60 + "\n") * 20
    html = "<html><body><table>" + "<tr><td>Ana</td><td>7</td></tr>" * 40 + "</table></body></html>"
    with app.app_context():
        flask_migrate.upgrade()
        for i in range(rows):
            enqueue(to_addr=f"player{i}@example.org",
                    mail=Mail(kind="your_turn", subject="Alien Frontiers: Bench", text=text,
                              html=html, unsubscribe_url="https://pbem.test/mail/unsubscribe/x"))
        db.session.commit()

    count = multiprocessing.Value("i", 0)
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(port, count, ready, stop))
    server.start()
    ready.wait(10)
    try:
        start = time.perf_counter()
        sent = 0
        while True:
            report = deliver_pending(app)
            sent += len(report.sent)
            if not (report.sent or report.retrying or report.failed):
                break
        elapsed = time.perf_counter() - start
    finally:
        stop.set()
        server.join(10)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return sent, elapsed, count.value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--database-url", default=os.environ.get("PBEM_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL (default: $PBEM_TEST_DATABASE_URL)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="pbem-mail-bench-"))
    targets = [("SQLite", f"sqlite:///{tmp / 'bench.sqlite3'}")]
    if args.database_url:
        targets.append(("PostgreSQL", args.database_url))
    ok = True
    for label, url in targets:
        postgres = url.startswith("postgresql")
        try:
            sent, elapsed, accepted = run(private_schema_url(url) if postgres else url,
                                          args.rows)
        finally:
            if postgres:
                _on_postgres(url, f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE')
        rate = sent / elapsed if elapsed else float("inf")
        good = sent == args.rows == accepted and rate >= TARGET
        ok = ok and good
        print(f"mail delivery, {label}: {sent} mails in {elapsed:.2f} s = {rate:.0f} mails/s "
              f"(target >= {TARGET:.0f} mails/s) {'OK' if good else 'BELOW TARGET'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
