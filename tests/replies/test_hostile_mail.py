"""Nothing stops the inbox (issue 24, points 1 and 2), against a real dovecot: fifty hostile
mails of each kind ahead of one legal reply, and the legal reply is applied at the first
poll; a mail too large is not downloaded and its player is told why; a mail whose handling
raises is tried three times and then quarantined, while the mail behind it is read."""

from __future__ import annotations

import imaplib
from collections import Counter
from collections.abc import Iterator

import pytest
from flask import Flask

from pbem.extensions import db
from pbem.mail.inbound import imap
from pbem.services import inbox, replies

from . import hostile
from .conftest import fresh, inbound_rows, mails_to, reply_to, start, turn_mail
from .dovecot import Imap, deliver
from .imap_box import append, count, session, tick, unseen
from .test_attacks import _dock

EACH = 50  # hostile mails of each kind, as the issue counts them
# Of the fifty mails past INBOUND_MAX_BYTES, five are of 20 MB and the others of 2 MB: the
# poll treats both alike (the size from the listing, then the header block only), and fifty
# of 20 MB would write a gigabyte to the disk for each run of the suite.
HUGE_SIZES = [20 * 1024 * 1024] * 5 + [2 * 1024 * 1024] * (EACH - 5)


@pytest.fixture(scope="module")
def hostile_mail() -> Iterator[dict[str, list[bytes]]]:
    """Fifty of each kind, written once for the module to ``TO``, which each test replaces
    by its seat's reply address."""
    mail = {kind: [make(TO, n) for n in range(EACH)] for kind, make in hostile.KINDS.items()
            if kind != "huge"}
    mail["huge"] = [hostile.huge(TO, n, size=size) for n, size in enumerate(HUGE_SIZES)]
    yield mail


TO = "play+1-0-0-" + "0" * 24 + "@pbem.test"


def _addressed(raw: bytes, to: str) -> bytes:
    return raw.replace(TO.encode(), to.encode(), 1)


@pytest.mark.slow
def test_fifty_hostile_mails_of_each_kind_do_not_hold_up_a_legal_reply(
        polled: Flask, imap_server: Imap, hostile_mail: dict[str, list[bytes]]) -> None:
    # The poll's time budget is the subject of its own test (with a clock of its own); here
    # how loaded the machine is must not decide how far one poll gets.
    polled.config["INBOUND_POLL_SECONDS"] = 600
    game = start(2)
    to = turn_mail(game.id, 0).headers["Reply-To"]
    # Into the maildir, as a delivery agent puts mail there (APPEND of 250 mails, 150 MB,
    # took seconds more); the legal reply is then APPENDed, so it comes last.
    deliver(imap_server, [_addressed(raw, to) for kind in hostile.KINDS
                          for raw in hostile_mail[kind]])
    with session(imap_server) as box:
        assert count(box) == 5 * EACH  # dovecot has given the delivered mail its UIDs
    dock = _dock(game.id)
    append(imap_server, reply_to(game, 0, dock, message_id="<legal@client.test>"))

    report = tick(polled)

    assert report.ran.index("replies") < report.ran.index("mail")
    assert [step["notation"] for step in fresh(game.id).turn_steps] == [dock]
    outcomes = {row.message_id: row.outcome for row in inbound_rows()}
    assert outcomes.pop("<legal@client.test>") == "applied"
    assert unseen(imap_server) == 0, "every hostile mail was read once, none left at the head"
    assert "quarantined" not in outcomes.values(), "no hostile mail made the handling raise"
    crafted = [o for mid, o in outcomes.items() if mid.startswith("<token-")]
    assert crafted == ["unknown_token"] * EACH  # not our token: no answer, no backscatter
    others = Counter(o for mid, o in outcomes.items() if not mid.startswith("<token-"))
    # A real token from the wrong address: told to the seat (never to him), three times in a
    # row, then muted until the seat moves.
    assert others == {"forged_from": 3, "muted": 4 * EACH - 3}
    answers = [m for m in mails_to(game.id, 0) if m.kind == "reply_answer"]
    assert len(answers) == 4 and all(m.to_addr == "ana@example.org" for m in answers)
    assert "applied" in answers[-1].text_body
    assert not any(m.to_addr.endswith("evil.test") for m in mails_to(game.id, 0))


def test_a_mail_too_large_is_not_downloaded_and_its_player_is_told_why(
        polled: Flask, imap_server: Imap, monkeypatch: pytest.MonkeyPatch) -> None:
    polled.config["INBOUND_MAX_BYTES"] = 200_000
    game = start(2)
    to = turn_mail(game.id, 0).headers["Reply-To"]
    fetched: list[str] = []
    real_fetch = imap._fetch

    def spy(box: object, uid: str, part: str) -> bytes | None:
        fetched.append(part)
        return real_fetch(box, uid, part)  # type: ignore[arg-type]

    monkeypatch.setattr(imap, "_fetch", spy)
    append(imap_server, hostile.huge(to, 1, sender="Ana <ana@example.org>", size=300_000))
    before = fresh(game.id).version
    tick(polled)
    assert fetched == [f"BODY.PEEK[HEADER]<0.{65536}>"], "only the header block was fetched"
    assert [row.outcome for row in inbound_rows()] == ["too_large"]
    assert fresh(game.id).version == before
    answer = mails_to(game.id, 0)[-1]
    assert answer.kind == "reply_answer"
    assert "too large" in answer.text_body and "292 KB" in answer.text_body
    assert unseen(imap_server) == 0


def test_a_mail_whose_handling_raises_is_quarantined_after_three_polls(
        polled: Flask, imap_server: Imap, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(2)
    real_receive = replies.receive

    def receive(inbound: replies.Inbound) -> str:
        if inbound.message_id == "<poison@client.test>":
            raise RecursionError("maximum recursion depth exceeded")
        return real_receive(inbound)

    monkeypatch.setattr(replies, "receive", receive)
    append(imap_server, reply_to(game, 0, "status", message_id="<poison@client.test>"))
    for poll in range(3):
        append(imap_server, reply_to(game, 0, "status", message_id=f"<status-{poll}@c.test>"))
        tick(polled)
        assert f"<status-{poll}@c.test>" in {row.message_id for row in inbound_rows()}, \
            "the mail behind the failing one is read at the same poll"
        if poll < 2:  # tried again at the next poll, its tries kept on it
            assert unseen(imap_server) == 1
            with session(imap_server) as box:
                box.select("INBOX")
                _, flags = box.fetch("1", "(FLAGS)")
                assert f"PbemTry{poll + 1}".encode() in flags[0], flags
    assert unseen(imap_server) == 0
    with session(imap_server) as box:
        assert count(box, "Quarantine") == 1
    assert inbox.counts()["quarantined"] == 1
    tick(polled)
    assert inbox.counts()["quarantined"] == 1
    status = polled.test_cli_runner().invoke(args=["pbem", "status"])
    assert status.exit_code == 0, status.output
    assert "quarantined: 1" in status.output and "answered: 3" in status.output


def test_a_poll_keeps_to_its_budget_and_the_next_tick_goes_on(
        polled: Flask, imap_server: Imap) -> None:
    game = start(2)
    for n in range(5):
        append(imap_server, reply_to(game, 0, "status", message_id=f"<s{n}@c.test>"))
    seconds = iter(range(100))
    with polled.app_context():
        report = imap.poll(inbox._ImapHandler(), max_bytes=inbox.max_bytes(),
                           budget_seconds=2.5, clock=lambda: float(next(seconds)))
    assert (report.read, report.left) == (2, 3)  # started at 0, took at 1 and 2, stopped at 3
    assert unseen(imap_server) == 3
    tick(polled)
    assert unseen(imap_server) == 0
    assert len(inbound_rows()) == 5


def test_a_database_that_does_not_answer_stops_the_poll_and_blames_no_mail(
        polled: Flask, imap_server: Imap, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(2)
    append(imap_server, reply_to(game, 0, "status", message_id="<db-down@c.test>"))

    def down(inbound: replies.Inbound) -> str:
        raise imap.Unavailable("connection refused")

    monkeypatch.setattr(inbox, "_receive", down)
    with polled.app_context(), pytest.raises(imap.Unavailable):
        inbox.poll_step()
    with session(imap_server) as box:
        box.select("INBOX")
        _, flags = box.fetch("1", "(FLAGS)")
        assert b"PbemTry" not in flags[0] and b"\\Seen" not in flags[0]
    monkeypatch.undo()
    db.session.rollback()
    tick(polled)
    assert [row.outcome for row in inbound_rows()] == ["answered"]


def test_the_listing_reads_sizes_and_tries_from_one_fetch() -> None:
    line = b"3 (UID 17 RFC822.SIZE 123456 FLAGS (\\Recent PbemTry1 PbemTry2))"
    assert imap._listed(line) == imap.Listed("17", 123456, 2)
    assert imap._listed(b"4 (UID 18 RFC822.SIZE 10 FLAGS (\\Seen PbemQuarantined))") is None
    assert imap._listed(b"garbage") is None
    assert isinstance(imaplib.IMAP4.abort("x"), imap.STOPS)


def test_where_no_quarantine_folder_can_be_made_the_mail_is_flagged_and_left(
        polled: Flask, imap_server: Imap, monkeypatch: pytest.MonkeyPatch) -> None:
    polled.config["INBOUND_IMAP_QUARANTINE"] = "q" * 1000  # past the length dovecot allows
    monkeypatch.setattr(imap, "MAX_TRIES", 1)
    game = start(2)
    real_receive = replies.receive

    def receive(inbound: replies.Inbound) -> str:
        if inbound.message_id == "<poison@client.test>":
            raise ValueError("a bug")
        return real_receive(inbound)

    monkeypatch.setattr(replies, "receive", receive)
    append(imap_server, reply_to(game, 0, "status", message_id="<poison@client.test>"))
    tick(polled)
    with session(imap_server) as box:
        assert count(box) == 1
        _, flags = box.fetch("1", "(FLAGS)")
        assert b"PbemQuarantined" in flags[0] and b"\\Seen" in flags[0]
    assert inbox.counts() == {"quarantined": 1}
